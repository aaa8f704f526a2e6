"""Italian: the other-gender form of one person word (a noun, adjective or participle), and
the word shapes that tell whether a word changes at all.

The predicate and noun rules (``it_lead.py``, ``it_nouns.py``) decide *where* a word must
agree; this module says *what* it becomes: the language's suffix rules checked against word
frequencies (``lex.zipf``) and the choosing data (``lex.seen``), with the productive `-tore` ↔
`-trice`. ``lang`` is the Italian :class:`Language`, for its suffixes and ``morph_candidates``.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Language, Lexicon, Sentence
from occbio.rewrite.languages.it_articles import CLOSED
from occbio.rewrite.languages.it_words import (
    _AVERE,
    _COMMON_ENDINGS,
    _COMMON_NOUNS,
    _COPULA,
    _INVARIANT_NOUNS,
    _NOT_COMMON,
    _NOT_PREDICATE,
    _VERBS,
)

#: endings of participles and adjectives that are never person nouns (`nominata`, `adottiva`)
_PARTICIPLES = tuple(p + e for p in ("at", "it", "ut", "iv", "os") for e in "oaie")
#: irregular participles (`morto`, `messo`, `scritto`)
_IRREGULAR_ALL = tuple(p + e for p in ("rt", "ss", "tt", "lt", "rs") for e in "oaie")

#: participles whose passive with `di` + infinitive is impersonal (`fu deciso di`)
_IMPERSONAL = (
    "consentit", "permess", "vietat", "impedit", "chiest", "consigliat", "dett", "ordinat",
    "proibit", "raccomandat", "suggerit", "comunicat", "annunciat", "decis", "stabilit",
)  # fmt: skip

#: words that agree with the noun right after them, never on their own
QUANTIFIERS = frozenset(
    w + e
    for w in ("tutt", "molt", "poc", "tant", "alcun", "altr", "cert", "parecch", "numeros", "sol")
    for e in ("i", "e", "hi", "he", "o", "a")
) | {"entrambi", "entrambe"}


def quantifier_form(d: str, w: str) -> str | None:
    """The other gender of a quantifier: `tutti` ↔ `tutte`, `pochi` ↔ `poche`, `altro` ↔
    `altra`."""
    pairs = (
        (("hi", "he"), ("i", "e"), ("o", "a"))
        if d == "m2f"
        else (("he", "hi"), ("e", "i"), ("a", "o"))
    )
    if w.endswith(("o", "a")) and not w.startswith(("altr", "tutt", "cert")):
        return None  # `molto`, `poco`, `tanto` are adverbs before an adjective
    for a, b in pairs:
        if w.endswith(a):
            new = w[: len(w) - len(a)] + b
            return new if new in QUANTIFIERS else None
    return None


def participle_like(w: str, *, irregular: bool = False) -> bool:
    """A participle or an adjective that is never a person noun (`unito`, `adottiva`);
    ``irregular`` also takes `morto`, `eletto`, `coinvolto`, `apparso`."""
    if w.endswith(("essa", "esse")):
        return False
    return w.endswith(_PARTICIPLES) or (irregular and w.endswith(_IRREGULAR_ALL))


def same_for_both(w: str, *, loose: bool = False) -> bool:
    """A person noun with one form for both genders, its article agreeing (`cantante`,
    `giornalista`); ``loose`` (a word coordinated with a person noun) also takes `-ante`,
    `-ente` (`dirigente`, not `un incidente` on its own)."""
    if w in _COMMON_NOUNS or w in ("ingegnere", "giudice"):
        return True
    if w.endswith(_COMMON_ENDINGS) and w not in _NOT_COMMON:
        return True
    return loose and (w.endswith(("ante", "ente", "iatra")) or w == "militare")


def invariable_adj(w: str) -> bool:
    """An adjective with one singular form for both genders (`civile`, `francese`)."""
    if len(w) < 4 or not w.isalpha():
        return False
    return w.endswith(("ale", "ile", "ese", "ense", "ista", "ante", "ente", "are", "ace")) or w in (
        "celebre", "illustre", "forte", "ribelle", "felice", "semplice", "giovane",
    )  # fmt: skip


def apposition_head(w: str) -> bool:
    """A word that may open an apposition of the person after a comma: a participle
    (`, noto per`), an agent noun (`, vincitore di`), a noun of both genders (`, dirigente`)."""
    return (
        w.endswith(("ato", "ata", "ito", "ita", "uto", "uta", "oto", "ota", "orto", "orta",
                    "parso", "parsa", "tore", "trice", "essa"))
        or same_for_both(w, loose=True)
    )  # fmt: skip


def plural_form(d: str, w: str, lex: Lexicon) -> str | None:
    """`fondatori` → `fondatrici`, `artiste` → `artisti` (plural agent nouns, -ista)."""
    if d == "m2f":
        if w.endswith("tori"):
            return w[:-4] + "trici"
        if w.endswith("isti") and w not in ("visti", "listi"):
            return w[:-1] + "e"
    else:
        if w.endswith("trici") and lex.zipf.get(w[:-5] + "tori", 0.0) >= 2.0:
            return w[:-5] + "tori"
        if w.endswith("iste") and lex.zipf.get(w[:-1] + "i", 0.0) >= 2.0:
            return w[:-1] + "i"
    return None


def agree_form(lang: Language, d: str, lex: Lexicon, w: str) -> str | None:
    """The other-gender form of a word next to a changed noun: the most frequent candidate
    not much rarer than ``w``."""
    z_src = lex.zipf.get(w, 0.0)
    best = None
    for cand in lang.morph_candidates(d, w):
        z = lex.zipf.get(cand, 0.0)
        if z >= lex.min_zipf and z >= z_src - 1.5 and (best is None or z > best[0]):
            best = (z, cand)
    return best[1] if best else None


def predicate_form(
    lang: Language,
    d: str,
    s: Sentence,
    lex: Lexicon,
    j: int,
    *,
    trust: bool = False,
    drop: float = 1.5,
    regular: bool = True,
) -> str | None:
    """The other-gender form of a predicate word; ``trust``: the word is known to agree
    with the person (after a person noun), so the choosing data's "usually stays" does not
    count (`nota`, `critica`); ``regular``: a participle's other form needs no evidence (not
    for a noun: `un compito` is no `una compita`)."""
    w = s.low[j]
    if w in CLOSED or w in _NOT_PREDICATE or s.toks[j][:1].isupper():
        return None
    if j + 1 < len(s.low) and s.low[j + 1] == "che" and s.low[j - 1] not in (
        "talmente", "così", "tanto", "sì",
    ):  # fmt: skip
        return None  # `è stato annunciato che`: impersonal
    if (w.startswith(_IMPERSONAL) or not participle_like(w, irregular=True)) and _clause_follows(
        s, j, skip_adverbs=True
    ):
        return None  # `è stato consentito di entrare`, `è stato impedito viaggiare`: impersonal
    if w.startswith("trattat") and j + 1 < len(s.low) and s.low[j + 1].startswith(("di", "de")):
        return None  # `si è trattato di un errore`: impersonal
    if w.startswith("andat") and j + 1 < len(s.low) and s.low[j + 1] in ("bene", "male"):
        return None  # `non è andata bene`: impersonal
    seen = lex.seen.get(w)
    if not trust and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
        return None
    if (d == "m2f" and w.endswith("i") and not w.endswith("tori")) or (
        d == "f2m" and w.endswith("e") and not w.endswith("trice")
    ):
        return None  # a plural: not the one person
    z_src = lex.zipf.get(w, 0.0)
    best = None
    cands = lang.morph_candidates(d, w)
    after_copula = (
        j > 0
        and s.low[j - 1] in _COPULA
        and s.joined(j - 1)
        and w not in _AVERE
        and w not in _VERBS
        and not w.endswith(lang.verblike_endings)
    )
    if (trust or after_copula) and not cands:  # `era nota`: not the verb `notare`
        cands = [
            w[: len(w) - len(a)] + b
            for a, b in ((f, m) if d == "f2m" else (m, f) for f, m in lang.suffixes)
            if a and w.endswith(a) and len(w) > len(a) + 2
        ]
    # a participle's other form is a word even where it is rare (`avventurata`)
    floor = 1.0 if w.endswith(("ato", "ata", "ito", "ita", "uto", "uta")) else 2.0
    for cand in cands:
        z = lex.zipf.get(cand, 0.0)
        if z >= floor and z >= z_src - drop and (best is None or z > best[0]):
            best = (z, cand)
    if best is None and regular and w.endswith(_REGULAR[d]) and (z_src >= 2.0 or "issim" in w):
        # regular morphology needs no evidence: `indisciplinato` → `indisciplinata`,
        # `richiestissimo` → `richiestissima`
        return w[:-1] + ("a" if d == "m2f" else "o")
    return best[1] if best else None


def _clause_follows(s: Sentence, j: int, *, skip_adverbs: bool = False) -> bool:
    """An infinitive clause (the subject of an impersonal predicate) follows word ``j``:
    `di entrare`, `di non essere`, `loro di rientrare`, or a bare infinitive (`è stato duro
    finire`); ``skip_adverbs``: past `ora`, `poi`."""
    x = j + 1
    while skip_adverbs and x < len(s.low) - 1 and s.low[x] in ("ora", "poi", "anche", "già"):
        x += 1  # `è diventato consueto ora ricercare`
    for skip in ("loro", "di", "non"):
        if x < len(s.low) and s.low[x] == skip and s.joined(x - 1):
            x += 1
    if x >= len(s.low) or not s.joined(x - 1):
        return False
    v = s.low[x]
    return len(v) > 4 and v.endswith(("are", "ere", "ire", "arsi", "ersi", "irsi"))


#: endings whose other gender is regular (a participle, a superlative)
_REGULAR = {
    "m2f": ("ato", "ito", "uto", "issimo"),
    "f2m": ("ata", "ita", "uta", "issima"),
}


def lead_form(
    lang: Language, d: str, s: Sentence, lex: Lexicon, x: int, *, strong: bool = False
) -> str | None:
    """The other-gender form of a person noun or adjective in a predicate: the usual
    frequency check, and the productive `-tore` ↔ `-trice` even where the new form is rare
    (`scultrice`); ``strong`` (a word coordinated with a person noun) also takes `-o` →
    `-a` there (`drammaturga`, `architetta`)."""
    w = s.low[x]
    if w in _INVARIANT_NOUNS or w in _NOT_PREDICATE:
        return None
    cand = predicate_form(lang, d, s, lex, x, trust=True, drop=2.5)
    if cand:
        return cand
    if s.toks[x][:1].isupper() or (d == "m2f" and lex.zipf.get(w, 0.0) < 2.0):
        return None
    if d == "m2f" and w.endswith("tore"):
        return w[:-4] + "trice"
    if d == "f2m" and w.endswith("trice") and lex.zipf.get(w[:-5] + "tore", 0.0) >= 2.0:
        return w[:-5] + "tore"
    if strong and d == "m2f" and w.endswith("o") and len(w) > 4:
        return w[:-1] + "a"
    return None
