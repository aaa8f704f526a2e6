"""Italian: articles and articulated prepositions with their phonology, the Romance suffixes,
predicates after a copula whose subject is the person, object clitics.

Articles (``il``/``lo``/``l'``/``la``, ``un``/``uno``/``una``/``un'``), articulated prepositions
(``del``/``dello``/``dell'``/``della``...), ``quel``/``questo``/``bel``/``buon``/``nessun`` agree
with the next word when it changed: their gender follows the direction, their number their own
form, and their shape the first sounds of the new next word (``lo``/``gli``/``uno`` before
s + consonant, z, gn, ps, pn, x, y; elision before a vowel or h).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.it_words import (
    _ADVERBS,
    _AVERE,
    _CHE_CONJ,
    _CLITICS,
    _COMMON_ENDINGS,
    _COMMON_NOUNS,
    _COPULA,
    _COPULA_PART,
    _DATIVE,
    _DEMONSTRATIVES,
    _FINITE_ENDINGS,
    _FINITE_VERBS,
    _GROUP_ADJ,
    _INVARIANT_ADJ,
    _NOT_COMMON,
    _NOT_PREDICATE,
    _NOT_VERBS,
    _NP_FOLLOW,
    _NUMBERS,
    _OBJ_CLITICS,
    _ORDINALS,
    _OTHER_PEOPLE,
    _PERSON_NOUNS,
    _PERSON_PRON,
    _PLAIN_ARTICLES,
    _POSSESSIVE_SWAP,
    _PREDICATIVE,
    _PREPOSITIONS,
    _PRO_DROP,
    _PRON_NEXT,
    _RANKING,
    _SAYING,
    _THING_VERBS,
    _VERB_ENDINGS,
    _VERBS,
    _VOWELS,
)

# ------------------------------------------------------------------ articles
# Each determiner family: cells (gender, number, sound) -> form. Sounds: C consonant,
# S "impure" (s + consonant, z, gn, ps, pn, x, y), V vowel or h.
_DEF = {
    ("m", "sg", "C"): "il",
    ("m", "sg", "S"): "lo",
    ("m", "sg", "V"): "l'",
    ("m", "pl", "C"): "i",
    ("m", "pl", "S"): "gli",
    ("m", "pl", "V"): "gli",
    ("f", "sg", "C"): "la",
    ("f", "sg", "S"): "la",
    ("f", "sg", "V"): "l'",
    ("f", "pl", "C"): "le",
    ("f", "pl", "S"): "le",
    ("f", "pl", "V"): "le",
}


def _prep(prefix: str) -> dict[tuple[str, str, str], str]:
    """Articulated preposition: ``de`` + ``l`` → ``del``, ``dello``, ``dell'``, ``dei``..."""
    out = {}
    for cell, art in _DEF.items():
        if art == "il":
            out[cell] = prefix + "l"
        elif art in ("i", "gli"):
            out[cell] = prefix + art
        else:
            out[cell] = prefix + "l" + art
    return out


def _family(m_c, m_s, m_v, m_pl_c, m_pl_v, f_c, f_v, f_pl):
    return {
        ("m", "sg", "C"): m_c,
        ("m", "sg", "S"): m_s,
        ("m", "sg", "V"): m_v,
        ("m", "pl", "C"): m_pl_c,
        ("m", "pl", "S"): m_pl_v,
        ("m", "pl", "V"): m_pl_v,
        ("f", "sg", "C"): f_c,
        ("f", "sg", "S"): f_c,
        ("f", "sg", "V"): f_v,
        ("f", "pl", "C"): f_pl,
        ("f", "pl", "S"): f_pl,
        ("f", "pl", "V"): f_pl,
    }


_FAMILIES: list[dict[tuple[str, str, str], str]] = [
    _DEF,
    _prep("de"),
    _prep("a"),
    _prep("da"),
    _prep("ne"),
    _prep("su"),
    # indefinite: no plural of its own (the partitive is ``dei``/``delle``)
    {k: v for k, v in _family("un", "uno", "un", "", "", "una", "un'", "").items() if k[1] == "sg"},
    _family("quel", "quello", "quell'", "quei", "quegli", "quella", "quell'", "quelle"),
    _family("questo", "questo", "quest'", "questi", "questi", "questa", "quest'", "queste"),
    {
        k: v
        for k, v in _family("nessun", "nessuno", "nessun", "", "", "nessuna", "nessun'", "").items()
        if k[1] == "sg"
    },
    {
        k: v
        for k, v in _family(
            "ciascun", "ciascuno", "ciascun", "", "", "ciascuna", "ciascun'", ""
        ).items()
        if k[1] == "sg"
    },
]

#: form -> [(family index, gender or None when ambiguous, number)]
_FORMS: dict[str, list[tuple[int, str | None, str]]] = {}
for _k, _fam in enumerate(_FAMILIES):
    _cells: dict[str, set[tuple[str, str]]] = {}
    for (_g, _n, _s), _w in _fam.items():
        _cells.setdefault(_w, set()).add((_g, _n))
    for _w, _gn in _cells.items():
        _genders = {g for g, _ in _gn}
        _numbers = {n for _, n in _gn}
        if len(_numbers) == 1:
            _FORMS.setdefault(_w, []).append(
                (_k, next(iter(_genders)) if len(_genders) == 1 else None, next(iter(_numbers)))
            )


def _sound(word: str) -> str:
    w = word.lower()
    if not w or not w[0].isalpha():
        return "C"
    if w[0] in _VOWELS:
        return "V"
    if w[0] in "zxy" or w.startswith(("gn", "ps", "pn")):
        return "S"
    if w[0] == "s" and len(w) > 1 and w[1].isalpha() and w[1] not in _VOWELS:
        return "S"
    return "C"


def _agree(det: str, gender: str, next_word: str) -> str | None:
    """The form of determiner ``det`` for ``gender`` before ``next_word``."""
    entries = _FORMS.get(det)
    if not entries:
        return None
    fam_i, _, number = entries[0]
    return _FAMILIES[fam_i].get((gender, number, _sound(next_word))) or None


CLOSED = frozenset(_FORMS)

#: the pronoun forms of a determiner family, used before ``di``/``tra`` or another determiner
#: (``uno dei primi``, ``quella della sua città``)
_PRONOUN = {
    "un": "uno",
    "nessun": "nessuno",
    "ciascun": "ciascuno",
    "quel": "quello",
    "quei": "quelli",
    "quegli": "quelli",
    "quell'": "quello",
    "quest'": "questo",
    "un'": "una",
    "nessun'": "nessuna",
    "ciascun'": "ciascuna",
}
_PRON_FEM = {"quell'": "quella", "quest'": "questa"}

# ------------------------------------------------------------------ copula predicates
_COPULA_PART_F = {v: k for k, v in _COPULA_PART.items()}


_ORDINAL_SWAP = {
    "m2f": {o: o[:-1] + "a" for o in _ORDINALS},
    "f2m": {o[:-1] + "a": o for o in _ORDINALS},
}
#: adjectives that change only next to a changed noun, never on their own
_AGREE_ONLY = frozenset(
    [o[:-1] + e for o in _ORDINALS for e in "oaie"]
    + [w[:-1] + e for w in ("stesso", "mio", "russo", "ricco", "piccolo", "nuovo") for e in "oaie"]
    + ["pochi", "poche", "dato", "data", "entrambi", "entrambe", "uccisi", "uccise", "ricchi"]
    + ["ricche", "anziani", "anziane"]
)
_POSSESSIVE = frozenset(
    w[:-1] + e for w in ("suo", "mio", "tuo", "nostro", "vostro") for e in "oaie"
) | {"loro", "suoi", "miei", "tuoi"}


_NOUN_PAIRS = list(zip(_PERSON_NOUNS[::2], _PERSON_NOUNS[1::2], strict=True))
_NOUN_PLURAL = {"re": ("re", "regine"), "papà": ("papà", "mamme")}


def _invariant(s: Sentence, k: int, plural: bool) -> bool:
    """A word that does not change with gender between a determiner and its noun."""
    w = s.low[k]
    if w in _NUMBERS or w.isdigit():
        return plural  # `dei due principi`, not `nel 1628 lui`
    return w == "loro" or w in _INVARIANT_ADJ


# Only the dative `gli` (to him) → `le`: on the choosing data the accusative `lo`/`la` refers to
# a thing as often as to the person, and `le` before a verb is also `them`.
_CLITIC_M2F = {"gli": "le"}
_CLITIC_F2M = {"le": "gli"}


def _is_verb(s: Sentence, k: int, clitic: str) -> bool:
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in _NOT_VERBS or w in CLOSED:
        return False
    if w in _VERBS:
        return True
    if clitic in ("la", "lo") and w.endswith(("iva", "ano")):
        return False
    return w.endswith(_VERB_ENDINGS) and not w.endswith("i")


#: articulated prepositions (`del`, `nella`, `agli`...)
_ART_PREPS = frozenset(
    w for w in CLOSED if w not in _PLAIN_ARTICLES and w not in _DEMONSTRATIVES
    and w[:2] in ("de", "al", "ag", "ai", "da", "ne", "su") and not w.startswith("nes")
)  # fmt: skip
_GROUP_ADJ_F = {v: k for k, v in _GROUP_ADJ.items()}


def _is_finite(s: Sentence, k: int) -> bool:
    """A finite verb form after an accusative clitic (`lo premiò`, `la aveva ingannata`)."""
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in CLOSED or w in _NOT_VERBS or w in _THING_VERBS:
        return False
    return w in _AVERE or w.endswith(_FINITE_ENDINGS)


def _zipf() -> dict[str, float]:
    from occbio.rewrite.core import _load_zipf  # the engine's cached table

    return _load_zipf("it")


def _is_adverb(w: str) -> bool:
    return w in _ADVERBS or (w.endswith("mente") and len(w) > 7)


_AGENT_PREPS = frozenset({"da", "dal", "dallo", "dalla", "dall'", "dall’", "dai", "dagli", "dalle"})
#: endings of person nouns whose feminine is much rarer in text than the masculine
_PERSONISH = ("ato", "ico", "logo", "grafo", "iere", "ario", "aco", "urgo", "nomo", "ano")
_SPORTS = frozenset(
    {"calcio", "pallavolo", "pallacanestro", "tennis", "rugby", "hockey", "baseball", "basket",
     "football", "ciclismo", "atletica", "scherma", "nuoto", "sci", "golf", "pallamano"}
)  # fmt: skip
_PART_ENDINGS = ("ato", "ata", "ito", "ita", "uto", "uta")
_ORDINAL_PLURALS = frozenset(o[:-1] + e for o in _ORDINALS for e in "ie")
#: plural person nouns of the hand list, for `uno dei X`
_PLURAL_PERSON = {
    "m2f": {"padri": "madri", "fratelli": "sorelle", "figli": "figlie", "uomini": "donne"},
    "f2m": {"madri": "padri", "sorelle": "fratelli", "figlie": "figli", "donne": "uomini"},
}
#: nouns of one grammatical gender said of anyone: nothing about them changes
_INVARIANT_NOUNS = frozenset(
    {"membro", "soprano", "mezzosoprano", "contralto", "capo", "figura", "persona", "vittima",
     "guida", "spia", "icona", "stella", "personalità", "voce", "celebrità", "recluta",
     "sentinella", "genio", "idolo", "simbolo", "leggenda", "punto", "esempio", "pioniere"}
)  # fmt: skip


def _same_for_both(w: str, *, loose: bool = False) -> bool:
    """A person noun with one form for both genders, its article agreeing (`cantante`,
    `giornalista`); ``loose`` (a word coordinated with a person noun) also takes `-ante`,
    `-ente` (`dirigente`, not `un incidente` on its own)."""
    if w in _COMMON_NOUNS or w in ("ingegnere", "giudice"):
        return True
    if w.endswith(_COMMON_ENDINGS) and w not in _NOT_COMMON:
        return True
    return loose and (w.endswith(("ante", "ente", "iatra")) or w == "militare")


def _invariable_adj(w: str) -> bool:
    """An adjective with one singular form for both genders (`civile`, `francese`)."""
    if len(w) < 4 or not w.isalpha():
        return False
    return w.endswith(("ale", "ile", "ese", "ense", "ista", "ante", "ente", "are", "ace")) or w in (
        "celebre", "illustre", "forte", "ribelle", "felice", "semplice", "giovane",
    )  # fmt: skip


def _apposition_head(w: str) -> bool:
    """A word that may open an apposition of the person after a comma: a participle
    (`, noto per`), an agent noun (`, vincitore di`), a noun of both genders (`, dirigente`)."""
    return (
        w.endswith(("ato", "ata", "ito", "ita", "uto", "uta", "oto", "ota", "orto", "orta",
                    "parso", "parsa", "tore", "trice", "essa"))
        or _same_for_both(w, loose=True)
    )  # fmt: skip


def _plural_form(d: str, w: str, lex: Lexicon) -> str | None:
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


@dataclass
class Italian(Language):
    def __post_init__(self) -> None:
        super().__post_init__()
        self._noun_table = {"m2f": {}, "f2m": {}}
        for m, f in _NOUN_PAIRS:
            self._noun_table["m2f"].setdefault(m, f)
            self._noun_table["f2m"].setdefault(f, m)

    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        return {}

    def never_change(self, d: str) -> list[str]:
        # determiners are agreed by propose() with the phonology of the new next word;
        # adjectives only agree with a changed noun (the morphology rule), never on their own
        return sorted(CLOSED | _AGREE_ONLY)

    def protected_positions(self, d: str, s: Sentence) -> set[int]:
        out = super().protected_positions(d, s)
        n = len(s.low)
        for i, w in enumerate(s.low):
            prev = s.low[i - 1] if i > 0 else ""
            nxt = s.low[i + 1] if i + 1 < n else ""
            if w in ("stato", "stata", "dato", "data") and (
                prev in CLOSED or prev in _POSSESSIVE or nxt in ("che", "di", "del", "dello")
            ):
                out.add(i)  # the noun `stato` (state), `dato che` (since)
            elif w in ("lady", "lord") and prev in ("our", "first", "the", "house"):
                out.add(i)
        return out

    def allows(
        self,
        d: str,
        s: Sentence,
        i: int,
        ln: int,
        tgt: tuple[str, ...],
        plan: Plan,
        *,
        source: str = "table",
    ) -> bool:
        """Agreement runs from a noun (or adjective) to its determiner, never from a changed
        determiner or clitic to the word beside it (`gli insulti ricevuti lo portarono`,
        `presentati dallo stesso`)."""
        if (
            source == "free"
            and i > 0
            and s.toks[i][:1].isupper()
            and s.low[i] in ("donna", "donne", "uomo", "uomini")
            and (s.gap_after(i - 1).endswith("(") or (i > 1 and s.low[i - 2] == "per"))
        ):
            return False  # a name: `Organizzazione Nazionale per le Donne`, `(Donna dell'anno)`
        if ln != 1 or s.low[i] in CLOSED:
            return True
        neighbours = [k for k in (i - 1, i + 1) if k in plan and 0 <= k < len(s.low)]
        neighbours = [k for k in neighbours if s.joined(min(k, i))]
        if not neighbours:
            return True
        return not all(s.low[k] in CLOSED or s.low[k] in _OBJ_CLITICS for k in neighbours)

    def morph_candidates(self, d: str, word: str) -> list[str]:
        if word in CLOSED or word in _COPULA or word in _VERBS or word in _AVERE:
            return []
        zipf = _zipf()
        if d == "f2m" and word.endswith("a") and zipf.get(word + "re", 0.0) >= 3.0:
            return []  # a verb: `parla` (parlare), `comincia`
        out = super().morph_candidates(d, word)
        # plurals -i ↔ -e of four-form adjectives and nouns (`biologici` ↔ `biologiche`): both
        # singulars must be words, so `giovani`, `presenti` (one singular in -e) stay
        src, tgt = ("i", "e") if d == "m2f" else ("e", "i")
        if word.endswith(src) and len(word) > 4 and not out:
            stem = word[:-1]
            if min(zipf.get(stem + "o", 0.0), zipf.get(stem + "a", 0.0)) >= 2.5:
                out.append(stem + tgt)
        return out

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        return False  # predicates are agreed by propose(), which sees the subject

    # ---------------------------------------------------------------- propose
    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        out: Plan = {}
        if s.notes.get("abort"):
            return out
        self._titles(d, s, covered, plan, out)
        self._nouns(d, s, covered, lex, out)
        if not out:
            self._common_nouns(d, s, covered, out)
        if not out:
            self._prenominal(d, s, covered, plan, lex, out)
        if not out:
            self._determiners(d, s, covered, plan, out)
        if not out:
            self._predicates(d, s, covered, plan, lex, out)
        if not out:
            self._clitics(d, s, covered, plan, out)
        return out

    def _determiners(self, d, s, covered, plan, out) -> None:
        gender = "m" if d == "f2m" else "f"
        n = len(s.low)
        for i in range(n - 1):
            if covered[i] or s.low[i] not in CLOSED:
                continue
            src = s.low[i].replace("’", "'")
            # the changed word this determiner agrees with, maybe past invariant words
            # (`il loro coordinatore`, `dei due principi`, `il giovane attore`)
            k = i + 1
            plural = _FORMS[src][0][2] == "pl"
            while k < n and k not in plan and k - i <= 2 and _invariant(s, k, plural):
                if s.gap_after(k - 1) != " " and not s.low[k - 1].endswith("'"):
                    break
                k += 1
            if k not in plan:
                continue
            ln, tgt = plan[k]
            same = " ".join(tgt).lower() == " ".join(s.low[k : k + ln])
            if same and k not in s.notes.get("person", ()):
                continue
            if k > i + 1 and (s.low[k] in CLOSED or tgt[0].lower() in CLOSED):
                continue
            if any(s.gap_after(j) not in (" ", "") for j in range(i, k)):
                continue
            # an elided determiner is glued to its word; a plain one needs a single space
            gap = s.gap_after(i)
            if src.endswith("'"):
                if gap != "":
                    continue
            elif gap != " ":
                continue
            first = tgt[0].lower() if k == i + 1 else s.low[i + 1]
            new = self._det_form(src, gender, first)
            if new and new != src:
                if "’" in s.low[i]:
                    new = new.replace("'", "’")
                out[i] = (1, (new,))

    @staticmethod
    def _det_form(src: str, gender: str, first: str) -> str | None:
        if first in CLOSED or first in _PRON_NEXT:  # a pronoun: `uno dei primi`
            new = _agree(src, gender, "x" if src in ("un", "uno", "un'", "una") else "c")
            if new:
                new = (_PRON_FEM if gender == "f" else _PRONOUN).get(new, new)
            return new
        return _agree(src, gender, first)

    def _common_nouns(self, d, s, covered, out) -> None:
        """A noun of both genders right after a determiner of the source gender (`il
        portavoce`, `la cantante`, `il suo portavoce`): the person, unchanged; the determiner
        (and a possessive) then agree."""
        gender = "m" if d == "m2f" else "f"
        n = len(s.low)
        for i in range(n - 1):
            det = s.low[i].replace("’", "'")
            entries = _FORMS.get(det)
            if not entries or entries[0][1] != gender or entries[0][2] != "sg":
                continue
            k = i + 1
            if s.low[k] in _POSSESSIVE and s.joined(i):
                k += 1
            if k >= n or covered[k] or not s.joined(k - 1) or s.toks[k][:1].isupper():
                continue
            w = s.low[k]
            if w in _COMMON_NOUNS - _OTHER_PEOPLE or (
                w.endswith(_COMMON_ENDINGS) and w not in _NOT_COMMON
            ):
                s.notes.setdefault("person", set()).add(k)
                out[k] = (1, (s.toks[k],))

    def _prenominal(self, d, s, covered, plan, lex, out) -> None:
        """Possessives, ordinals and adjectives between a determiner and a changed noun agree
        with it (`il secondo visconte` → `la seconda viscontessa`, `il suo portavoce`)."""
        person = s.notes.get("person", set())
        for k in sorted(plan):
            ln, tgt = plan[k]
            if ln != 1 or (tgt[0].lower() == s.low[k] and k not in person):
                continue
            if s.low[k] in CLOSED or s.low[k] in _OBJ_CLITICS or s.low[k] in _PERSON_PRON:
                continue
            j = k - 1
            found: Plan = {}
            while j > 0 and k - j <= 2 and not covered[j] and s.joined(j):
                w = s.low[j]
                if s.toks[j][:1].isupper() or w in CLOSED:
                    break
                new = _POSSESSIVE_SWAP[d].get(w) if w in _POSSESSIVE else None
                if new is None and w not in _INVARIANT_ADJ:
                    new = self._agree_form(d, lex, w)
                    if new is None:
                        break
                if new is not None:
                    found[j] = (1, (new,))
                j -= 1
            if found and j >= 0 and s.low[j] in CLOSED and s.joined(j):
                out.update(found)

    def _agree_form(self, d, lex, w) -> str | None:
        z_src = lex.zipf.get(w, 0.0)
        best = None
        for cand in self.morph_candidates(d, w):
            z = lex.zipf.get(cand, 0.0)
            if z >= lex.min_zipf and z >= z_src - 1.5 and (best is None or z > best[0]):
                best = (z, cand)
        return best[1] if best else None

    def _clitics(self, d, s, covered, plan, out) -> None:
        """Object clitics before a verb: the dative `gli` ↔ `le` (`gli consegnò` → `le
        consegnò`), the accusative `lo` ↔ `la` before a plain finite verb (`lo premiò`), and
        enclitics on an infinitive or gerund (`costringendolo`, `immergerlo`)."""
        n = len(s.low)
        dative = _CLITIC_M2F if d == "m2f" else _CLITIC_F2M
        acc_src, acc_tgt = ("lo", "la") if d == "m2f" else ("la", "lo")
        for i in range(n):
            if covered[i]:
                continue
            w = s.low[i]
            prev = s.low[i - 1] if i > 0 else ""
            if prev in CLOSED and s.gap_after(i - 1) in (" ", ""):
                continue
            nxt_ok = i + 1 < n and s.gap_after(i) == " "
            if w in dative and nxt_ok and _is_verb(s, i + 1, w):
                out[i] = (1, (dative[w],))
            elif w == acc_src and nxt_ok and prev not in _PREPOSITIONS and _is_finite(s, i + 1):
                out[i] = (1, (acc_tgt,))
            elif len(w) > 6 and not s.toks[i][:1].isupper():
                for end in ("ndolo", "rlo") if d == "m2f" else ("ndola", "rla"):
                    if w.endswith(end):
                        out[i] = (1, (w[:-1] + ("a" if d == "m2f" else "o"),))
                        break

    def _nouns(self, d, s, covered, lex, out) -> None:
        """Person nouns of the hand list the choosing data did not teach."""
        table = self._noun_table[d]
        for i, w in enumerate(s.low):
            if covered[i] or w not in table:
                continue
            if i > 0 and s.toks[i][:1].isupper():
                continue  # a name or a title inside one
            seen = lex.seen.get(w)
            if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
                continue  # the data says this word usually stays
            out[i] = (1, (table[w],))

    def _titles(self, d, s, covered, plan, out) -> None:
        """`signora Rossi` ↔ `signor Rossi`, `la stessa Cyrus` ↔ `lo stesso Cyrus`."""
        n = len(s.low)
        for i in range(n):
            if covered[i]:
                continue
            w = s.low[i]
            name_next = i + 1 < n and s.toks[i + 1][:1].isupper() and s.gap_after(i) == " "
            if d == "f2m" and w == "signora":
                out[i] = (1, ("signor" if name_next else "signore",))
            elif d == "m2f" and w in ("signor", "signore") and (name_next or w == "signore"):
                out[i] = (1, ("signora",))
            elif w == ("stessa" if d == "f2m" else "stesso") and (
                name_next
                or (i > 0 and s.low[i - 1] in ("se", "sé", "me", "te") and s.joined(i - 1))
                or (i > 0 and s.toks[i - 1][:1].isupper() and s.joined(i - 1))
            ):
                # `lo stesso Cyrus`, `se stesso`, `Lennox stesso`
                out[i] = (1, ("stesso" if d == "f2m" else "stessa",))
            elif i > 0 and s.low[i - 1] in _RANKING and s.joined(i - 1):
                # `finì quarto`, `arrivò secondo alla finale`
                new = _ORDINAL_SWAP[d].get(w)
                if new and (i + 1 == n or not s.joined(i) or s.low[i + 1] in _NP_FOLLOW):
                    out[i] = (1, (new,))

    def _person_subject(self, s: Sentence, covered, plan, k: int, apposition=False) -> bool:
        """Is the subject of the copula at ``k`` the person? A pronoun, a changed word or a
        name says yes; a noun phrase with an article (`lo spettacolo è stato`, `la pena di
        morte fu`) that nothing changed says no; a clause with no visible subject (`In seguito
        si è dedicato`, `a 72 anni è passato`) is about the person."""
        j = k - 1
        while j >= 0 and (s.low[j] in _CLITICS or _is_adverb(s.low[j])):
            if s.low[j] in _DATIVE and j == k - 1:
                return False  # `gli fu diagnosticato un cancro`: the subject is the illness
            if s.gap_after(j).strip():
                break
            j -= 1
        if not apposition and j >= 0 and s.gap_after(j).strip(" ") == ",":
            # `Montrose Cape, nello stretto di Hudson, è intitolato`: past an apposition with
            # no verb, the subject is before it; with no comma before, a clause opener
            c = j - 1
            while c >= 0 and "," not in s.gap_after(c):
                c -= 1
            segment = range(c + 1, j + 1)
            relative = c >= 0 and (
                s.low[c + 1] == "che" or (c + 2 <= j and s.low[c + 2] == "cui")
            )  # `La villa, che fu donata ..., è aperta`: the subject is before the clause
            if relative and s.gap_after(c).strip(" ") == ",":
                return self._person_subject(s, covered, plan, c + 1, apposition=True)
            if c < 0 or any(
                s.low[x] in _FINITE_VERBS or s.low[x].endswith(_FINITE_ENDINGS) or s.low[x] in
                _PRO_DROP or s.low[x] == "che" for x in segment
            ):  # fmt: skip
                return True
            if s.gap_after(c).strip(" ") != ",":
                return True
            return self._person_subject(s, covered, plan, c + 1, apposition=True)
        if j < 0 or (not apposition and s.gap_after(j).strip(" ")):  # a new clause, no subject
            return True
        w = s.low[j]
        if w in _PERSON_PRON or (covered[j] and w not in CLOSED):
            return True
        if s.toks[j][:1].isupper() and j > 0:
            # a name: the person, unless it follows an article (`il Capitolo`)
            while j > 0 and s.toks[j - 1][:1].isupper() and s.gap_after(j - 1) in (" ", "-"):
                j -= 1
            return j == 0 or s.low[j - 1] not in CLOSED or covered[j - 1]
        if w in _PRO_DROP or w == "si":
            return True
        if w == "che":
            return self._che_person(s, covered, j)
        # walk left through the noun phrases and prepositional phrases before the copula: the
        # first article not after a preposition opens the subject
        while j >= 0:
            w = s.low[j]
            # `a lei congeniale`, `della regina`: a person after a preposition is no subject
            after_prep = j > 0 and (s.low[j - 1] in _PREPOSITIONS or s.low[j - 1] in _ART_PREPS)
            if ((covered[j] and w not in CLOSED) or w in _PERSON_PRON) and not after_prep:
                return True
            if w in _PLAIN_ARTICLES or w in _DEMONSTRATIVES:
                before = s.low[j - 1] if j > 0 and not s.gap_after(j - 1).strip(" ") else ""
                if before not in _PREPOSITIONS and before not in _ART_PREPS:
                    # the head of the subject: up to its first preposition
                    end = j + 1
                    while end < k and s.low[end] not in _PREPOSITIONS | _ART_PREPS:
                        end += 1
                    return any(covered[x] and s.low[x] not in CLOSED for x in range(j, end)) or any(
                        w2 in self._noun_table["m2f"] or w2 in self._noun_table["f2m"]
                        for w2 in s.low[j:end]
                    )
            elif w in _PRO_DROP or w == "che" or w in _FINITE_VERBS or w.endswith(_FINITE_ENDINGS):
                return True  # a clause boundary before any subject
            elif s.toks[j][:1].isupper() and j > 0 and s.low[j - 1] not in CLOSED:
                return True  # a name inside a longer subject (`il figlio di Rossi`)
            if j > 0 and s.gap_after(j - 1).strip(" "):
                return True
            j -= 1
        return True

    @staticmethod
    def _che_person(s: Sentence, covered, j: int) -> bool:
        """`che` before the copula: a relative pronoun (its antecedent) or a conjunction."""
        if j == 0:
            return True
        p = s.low[j - 1]
        if s.low[j - 1] in _SAYING or p.endswith("ndo"):
            return True
        if covered[j - 1] or p in _PERSON_PRON:
            return True
        if s.toks[j - 1][:1].isupper():
            return True
        if p in ("il", "ciò", "cosa", "quello", "quella"):
            return False  # `il che è stato commentato`
        if s.gap_after(j - 1).strip(" "):
            # `, che`: the antecedent before the comma
            k = j - 1
            return covered[k] or s.toks[k][:1].isupper()
        return p in _CHE_CONJ or p.endswith(_FINITE_ENDINGS)

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        if s.notes.get("abort"):  # a predicate of the person only half understood
            plan.clear()
            return
        # `re`, `papà`: one form for both numbers; plural after a plural determiner or number
        for i in sorted(plan):
            ln, tgt = plan[i]
            if ln == 1 and len(tgt) == 1 and s.low[i] in _NOUN_PLURAL and i > 0:
                prev = plan[i - 1][1][-1].lower() if (i - 1) in plan else s.low[i - 1]
                prev_src = s.low[i - 1]
                plural = (
                    prev_src in _NUMBERS
                    or prev_src.isdigit()
                    or any(e[2] == "pl" for e in _FORMS.get(prev, []))
                    or prev in ("suoi", "sue", "loro", "tutti", "tutte", "molti", "molte")
                )
                if plural:
                    pl = _NOUN_PLURAL[s.low[i]][1 if d == "m2f" else 0]
                    plan[i] = (1, (pl,))
        # a participle after avere does not agree with the subject (`ha conosciuto`), only with
        # an object clitic before it (`l'ha conosciuta`)
        for i in sorted(plan):
            ln, tgt = plan[i]
            if ln != 1 or i == 0 or s.low[i - 1] not in _AVERE:
                continue
            if not s.low[i].endswith(("ato", "ata", "ito", "ita", "uto", "uta", "to", "ta")):
                continue
            if i > 1 and s.low[i - 2] in ("lo", "la", "l'", "l’", "li", "le"):
                continue
            del plan[i]

    def _predicates(self, d, s, covered, plan, lex, out) -> None:
        n = len(s.low)
        parts = _COPULA_PART if d == "m2f" else _COPULA_PART_F
        for k in range(n - 1):
            if s.low[k] not in _COPULA or not self._person_subject(s, covered, plan, k):
                continue
            found: Plan = {}
            ok = False
            j = k + 1
            while j < n:
                w = s.low[j]
                if s.gap_after(j - 1).strip(" "):
                    break
                if _is_adverb(w):
                    j += 1
                    continue
                if w in parts:
                    if not covered[j]:
                        found[j] = (1, (parts[w],))
                    j += 1
                    continue
                if covered[j] and w.endswith(_PART_ENDINGS) and j + 1 < n and s.joined(j):
                    ok = True  # `è considerato uno dei`, `fu nominato direttore`
                    j += 1
                    continue
                if covered[j] or w in CLOSED:
                    ok = True  # a changed word, or a noun phrase: `è stato un attore`
                    if w in CLOSED:
                        self._predicate_np(d, s, covered, lex, j, found)
                    else:
                        self._np_tail(d, s, covered, lex, j, found)
                    break
                cand = self._predicate_form(d, s, lex, j)
                if cand and (self._postverbal_subject(s, j) or self._agent_person(s, covered, j)):
                    break  # `fu eretto un monumento`, `fu donata dalla baronessa`
                if cand:
                    ok = True
                    found[j] = (1, (cand,))
                    self._np_tail(d, s, covered, lex, j, found)
                break
            if ok and not s.notes.get("abort"):
                out.update(found)

    @staticmethod
    def _agent_person(s: Sentence, covered, j: int) -> bool:
        """`fu donata dalla settima baronessa`, `fu ucciso da lui`: the person is the agent of
        the passive, so the subject is someone or something else."""
        n = len(s.low)
        if j + 1 >= n or not s.joined(j) or s.low[j + 1] not in _AGENT_PREPS:
            return False
        for x in range(j + 2, min(j + 5, n)):
            if not s.joined(x - 1) and not s.low[x - 1].endswith(("'", "’")):
                break
            if s.low[x] in _PERSON_PRON or (covered[x] and s.low[x] not in CLOSED):
                return True
        return False

    def _person_word(self, d, s, covered, lex, x, found) -> bool | None:
        """A noun or adjective of the person inside a predicate (head, coordinated, or in
        apposition): True when it is settled (changed, or the same for both genders), False
        when it is no person word, None when it looks gendered but has no known form."""
        w = s.low[x]
        if covered[x] or x in found:
            return True
        if s.toks[x][:1].isupper() or not w.isalpha() or w in CLOSED or w in _NOT_PREDICATE:
            return False
        new = self._noun_table[d].get(w) or self._lead_form(d, s, lex, x, strong=True)
        if new:
            found[x] = (1, (new,))
            return True
        if w in _INVARIANT_NOUNS:
            return False  # `e membro fondatore`: what follows agrees with `membro`
        if _same_for_both(w, loose=True):
            s.notes.setdefault("person", set()).add(x)
            return True
        if w.endswith(("o", "a", "ore", "trice", "essa")) and lex.zipf.get(w, 0.0) >= 2.0:
            return None
        return False

    def _lead_form(self, d, s, lex, x, *, strong: bool = False) -> str | None:
        """The other-gender form of a person noun or adjective in a predicate: the usual
        frequency check, and the productive `-tore` ↔ `-trice` even where the new form is rare
        (`scultrice`); ``strong`` (a word coordinated with a person noun) also takes `-o` →
        `-a` there (`drammaturga`, `architetta`)."""
        w = s.low[x]
        if w in _INVARIANT_NOUNS or w in _NOT_PREDICATE:
            return None
        cand = self._predicate_form(d, s, lex, x, trust=True, drop=2.5)
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

    def _np_tail(self, d, s, covered, lex, x, found) -> None:
        """After the head ``x`` of a predicate of the person: postnominal adjectives and
        participles (`un ingegnere civile francese specializzato nei ponti`), coordinated nouns
        (`un pittore e incisore italiano`), appositions after a comma (`, deputato dal 2018`,
        `, noto per`). A coordinated or apposed person word with no known form makes the whole
        sentence stay as it is (`s.notes["abort"]`): half a lead rewritten is worse than none."""
        n = len(s.low)
        y = x + 1
        while y < n:
            gap = s.gap_after(y - 1)
            w = s.low[y]
            if gap == " " or (gap == "" and s.low[y - 1].endswith(("'", "’"))):
                if w in ("e", "ed") and y + 1 < n and s.gap_after(y) == " ":
                    r = self._person_word(d, s, s.covered, lex, y + 1, found)
                    if r is None:
                        s.notes["abort"] = True
                        return
                    if not r:
                        return
                    y += 2
                    continue
                if _is_adverb(w) and w not in ("non", "più"):
                    y += 1
                    continue
                if s.covered[y] or w in _INVARIANT_ADJ or _invariable_adj(w):
                    y += 1
                    continue
                if w in ("di", "d'") and y + 1 < n and s.low[y + 1] in _SPORTS and s.joined(y):
                    y += 2  # `allenatore di calcio italiano`
                    continue
                if w in CLOSED or w in _NP_FOLLOW or w in _NOT_PREDICATE:
                    return
                cand = self._lead_form(d, s, lex, y)
                if cand is None:
                    return
                found[y] = (1, (cand,))
                y += 1
                continue
            if gap == ", ":
                if not _apposition_head(w) and w not in self._noun_table[d]:
                    return
                r = self._person_word(d, s, s.covered, lex, y, found)
                if r is None:
                    s.notes["abort"] = True
                    return
                if not r:
                    return
                y += 1
                continue
            return

    def _predicate_np(self, d, s, covered, lex, j, found) -> None:
        """A noun phrase after a copula whose subject is the person: `era uno dei primi` →
        `una delle prime`, `era un delegato` → `una delegata`, `è una fan` → `un fan`, and
        what follows its head (`_np_tail`)."""
        n = len(s.low)
        w = s.low[j]
        if j + 1 >= n or not s.joined(j):
            return
        if covered[j]:  # a determiner already agreed: its changed noun heads the predicate
            x = j + 1
            while x < n - 1 and s.low[x] in _INVARIANT_ADJ and s.joined(x):
                x += 1
            if covered[x] and s.low[x] not in CLOSED:
                self._np_tail(d, s, covered, lex, x, found)
            return
        indef = ("un", "uno") if d == "m2f" else ("una", "un'", "un’")
        if w in (("il", "lo", "l'", "l’") if d == "m2f" else ("la", "l'", "l’")):
            self._definite_np(d, s, covered, lex, j, found)
            return
        if w not in indef:
            return
        nxt = s.low[j + 1]
        if nxt in _PRON_NEXT or nxt in _ART_PREPS:  # `uno dei primi`, `una delle`
            self._one_of(d, s, covered, lex, j, found)
            return
        x = j + 1
        while x < n - 1 and s.low[x] in _INVARIANT_ADJ and s.joined(x):
            x += 1
        if not s.joined(x - 1) or s.toks[x][:1].isupper():
            return
        if covered[x]:
            self._np_tail(d, s, covered, lex, x, found)
            return
        drop = 2.5 if s.low[x].endswith(_PERSONISH) else 1.5  # `avvocata` is rarer than `avvocato`
        cand = self._noun_table[d].get(s.low[x]) or self._predicate_form(d, s, lex, x, drop=drop)
        if cand is None and _same_for_both(s.low[x]):
            cand = s.low[x]  # the same noun for both genders: its article agrees
            s.notes.setdefault("person", set()).add(x)
        if cand is None and self._person_follows(d, s, covered, x):
            cand = self._lead_form(d, s, lex, x, strong=True)  # `un drammaturgo e scrittore`
        if cand is None:
            return
        if x + 1 < n and s.joined(x):
            after = s.low[x + 1]
            if (
                after.isalpha()
                and after not in _NP_FOLLOW
                and not _invariable_adj(after)
                and not _is_adverb(after)
                and not self.morph_candidates(d, after)
            ):
                return  # `un ampio termine`: the head noun is the next word
        found[x] = (1, (cand,))
        self._np_tail(d, s, covered, lex, x, found)

    def _person_follows(self, d, s, covered, x) -> bool:
        """A person noun coordinated with word ``x`` (`drammaturgo e scrittore`)."""
        n = len(s.low)
        y = x + 2 if x + 1 < n and s.low[x + 1] in ("e", "ed") else x + 1
        if y >= n or (y == x + 1 and s.gap_after(x) != ", "):
            return False
        w = s.low[y]
        return (
            (covered[y] and w not in CLOSED)
            or w in self._noun_table[d]
            or w.endswith(("tore", "trice"))
        )

    def _definite_np(self, d, s, covered, lex, j, found) -> None:
        """`è stato il primo sindaco` → `è stata la prima sindaca`: a definite predicate of
        the person only with an ordinal or a noun of the hand list (not `il motivo`)."""
        n = len(s.low)
        x = j + 1
        ordinal = False
        while (
            x < n - 1
            and s.joined(x - 1)
            and (s.low[x] in _INVARIANT_ADJ or s.low[x] in _ORDINAL_SWAP[d])
        ):
            ordinal = ordinal or s.low[x] in _ORDINAL_SWAP[d]
            x += 1
        if x >= n or not s.joined(x - 1) or s.toks[x][:1].isupper() or covered[x]:
            return
        w = s.low[x]
        cand = self._noun_table[d].get(w)
        if cand is None and ordinal and not _same_for_both(w):
            cand = self._lead_form(d, s, lex, x, strong=True)
        if cand is None:
            return
        found[x] = (1, (cand,))
        self._np_tail(d, s, covered, lex, x, found)

    def _one_of(self, d, s, covered, lex, j, found) -> None:
        """`uno dei primi a` → `una delle prime a` (the group is the person's), `uno dei
        fondatori` → `una delle fondatrici`; `uno dei comandanti` stays (a mixed group)."""
        n = len(s.low)
        nxt = s.low[j + 1]
        pron = "una" if d == "m2f" else "uno"
        if j + 3 < n and nxt in _ART_PREPS and s.low[j + 3] == "a":
            adj = s.low[j + 2]
            table = _GROUP_ADJ if d == "m2f" else _GROUP_ADJ_F
            if adj in table and s.joined(j + 1) and s.joined(j + 2):
                found[j] = (1, (pron,))
                found[j + 2] = (1, (table[adj],))
                return
        x = j + 2
        while x < min(n, j + 6) and s.joined(x - 1):
            w = s.low[x]
            if covered[x] and w not in CLOSED:
                found[j] = (1, (pron,))
                return
            new = _PLURAL_PERSON[d].get(w) or _plural_form(d, w, lex)
            if new:
                found[j] = (1, (pron,))
                found[x] = (1, (new,))
                det = _agree(nxt, "f" if d == "m2f" else "m", s.low[j + 2])
                if nxt in _ART_PREPS and det and not covered[j + 1] and x > j + 2:
                    found[j + 1] = (1, (det,))  # `dei più grandi pittori`: past `più`
                return
            if w in _INVARIANT_ADJ or w in _NUMBERS or w in ("più", "meno") or w in _GROUP_ADJ:
                x += 1
                continue
            if w in _GROUP_ADJ_F or w in _ORDINAL_PLURALS:
                x += 1
                continue
            return

    @staticmethod
    def _postverbal_subject(s: Sentence, j: int) -> bool:
        """A participle followed by an article (`è stato confermato il cognome`) has its
        subject after it, unless it takes a predicate (`fu nominato il primo direttore`)."""
        if j + 1 >= len(s.low) or not s.joined(j):
            return False
        nxt = s.low[j + 1]
        if nxt not in _PLAIN_ARTICLES and nxt not in _DEMONSTRATIVES:
            return False
        return not s.low[j].startswith(_PREDICATIVE)

    def _predicate_form(self, d, s, lex, j, *, trust: bool = False, drop: float = 1.5):
        """The other-gender form of a predicate word; ``trust``: the word is known to agree
        with the person (after a person noun), so the choosing data's "usually stays" does not
        count (`nota`, `critica`)."""
        w = s.low[j]
        if w in CLOSED or w in _NOT_PREDICATE or s.toks[j][:1].isupper():
            return None
        if j + 1 < len(s.low) and s.low[j + 1] == "che" and s.low[j - 1] not in (
            "talmente", "così", "tanto", "sì",
        ):  # fmt: skip
            return None  # `è stato annunciato che`: impersonal
        seen = lex.seen.get(w)
        if not trust and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        if (d == "m2f" and w.endswith("i") and not w.endswith("tori")) or (
            d == "f2m" and w.endswith("e") and not w.endswith("trice")
        ):
            return None  # a plural: not the one person
        z_src = lex.zipf.get(w, 0.0)
        best = None
        cands = self.morph_candidates(d, w)
        if trust and not cands:  # `nota`, `sportiva`: not the verbs `notare`, `sportivare`
            cands = [
                w[: len(w) - len(a)] + b
                for a, b in ((f, m) if d == "f2m" else (m, f) for f, m in self.suffixes)
                if a and w.endswith(a) and len(w) > len(a) + 2
            ]
        for cand in cands:
            z = lex.zipf.get(cand, 0.0)
            if z >= 2.0 and z >= z_src - drop and (best is None or z > best[0]):
                best = (z, cand)
        return best[1] if best else None


RULES = Italian(
    "it",
    suffixes=[
        ("trici", "tori"),
        ("trice", "tore"),
        ("che", "ci"),
        ("ghe", "ghi"),
        ("iera", "iere"),
        ("a", "o"),
    ],
    copulas=frozenset({"fu", "era", "è", "stato", "stata", "venne", "viene", "essere"}),
    participle_endings=("ato", "ata", "ito", "ita", "uto", "uta"),
    verblike_endings=("ava", "eva", "iva", "ova"),
    copula_bridge=frozenset({"ser", "ha"}),
)
