"""German: personal pronouns by case, possessives, articles and adjective endings by case.

* ``sie`` is also plural "they" and formal ``Sie`` "you": it becomes ``er`` only where it reads as
  a singular subject, ``ihn`` after a preposition, and stays next to a plural verb form or when
  capitalised inside a sentence (formal address; so do ``Ihr``/``Ihre``...).
* ``ihr`` is the possessive (``ihr Vater`` → ``sein Vater``) before a noun or a strong adjective
  (``ihr bestes``), else the dative pronoun (``mit ihr`` → ``mit ihm``); ``sein`` is a possessive
  (→ ``ihr``) only in the same places, else the verb "to be" and stays.
* An article before a changed person noun (with adjectives between) takes the case its own form
  and a preposition before it show: ``der``/``den``/``dem``/``des`` ↔ ``die``/``die``/``der``/
  ``der``, ``ein``/``einen``/``einem``/``eines`` ↔ ``eine``/``eine``/``einer``/``einer``, with the
  adjective endings (``ein bekannter`` ↔ ``eine bekannte``) and the masculine genitive ``-s``.
* A relative pronoun after a comma that follows a changed noun (``Mann, der`` ↔ ``Frau, die``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence

_DAT_PREPS = frozenset("mit von zu bei nach aus seit gegenüber außer samt".split())
_ACC_PREPS = frozenset("für gegen ohne durch um bis wider".split())
_TWO_WAY = frozenset("in an auf über unter vor hinter neben zwischen".split())
_PREPS = _DAT_PREPS | _ACC_PREPS | _TWO_WAY
#: lower-case words ending in -en that are not plural verb forms
_NOT_VERB_EN = frozenset(
    """den einen keinen seinen ihren meinen deinen unseren euren diesen jenen jeden welchen
    allen vielen wenigen beiden denen wegen zwischen neben gegen oben unten eben morgen
    selten trotzdem außen innen hinten vorn ebenso dagegen daneben indessen stattdessen
    deswegen übrigen anderen ersten letzten zweiten dritten""".split()
)
_PLURAL_VERBS = frozenset(
    "sind waren haben hatten werden wurden können konnten müssen mussten sollten wollten".split()
)
#: words before ``sie`` that make it a subordinate clause's subject (the verb comes last)
_SUBORD = frozenset(
    """dass ob wenn als weil während damit indem nachdem bevor bis seit wo obwohl da sodass
    sobald solange falls wie""".split()
)
_ARTICLES = frozenset("der die das ein eine einige viele diese dieser dieses".split())
#: prepositions that are also conjunctions (``bis sie 18 war``)
_CONJ_PREPS = frozenset(("bis", "seit"))
_CLAUSE_OPENERS = ".:;!?\"„“”«»‚‘'()[]–—"
_ADJ_ENDINGS = ("e", "en", "er", "es", "em")


def _clause_start(s: Sentence, i: int) -> bool:
    if i == 0:
        return True
    gap = s.gap_after(i - 1)
    return any(c in _CLAUSE_OPENERS for c in gap)


def _clause_end(s: Sentence, i: int) -> int:
    """The last token of the clause token ``i`` is in (up to a comma or other punctuation)."""
    j = i
    while j + 1 < len(s.toks) and s.joined(j):
        j += 1
    return j


def _clause_first(s: Sentence, i: int) -> int:
    j = i
    while j > 0 and s.joined(j - 1):
        j -= 1
    while j < i and s.low[j] in ("und", "aber", "doch", "oder", "denn"):
        j += 1
    return j


def _plural_clause(s: Sentence, i: int) -> bool:
    """The clause of token ``i`` has a plural finite verb (``sind``, ``haben``, ...) and no
    ``sie``/``er`` of its own: a possessive there is more likely "their"."""
    a, b = _clause_first(s, i), _clause_end(s, i)
    words = s.low[a : b + 1]
    return any(w in _PLURAL_VERBS for w in words) and not any(w in ("sie", "er") for w in words)


def _formal(s: Sentence, i: int) -> bool:
    """A capitalised pronoun inside a sentence: formal address (``Sie``, ``Ihr``, ``Ihre``)."""
    tok = s.toks[i]
    return tok[:1].isupper() and not _clause_start(s, i)


def _all_caps(tok: str) -> bool:
    return len(tok) > 1 and tok.isupper()


def _prev(s: Sentence, i: int) -> str | None:
    return s.low[i - 1] if i > 0 and s.joined(i - 1) else None


def _next(s: Sentence, i: int, k: int = 1) -> tuple[str, str] | None:
    """The ``k``-th token after ``i`` (tok, low) when the phrase runs on up to it."""
    for j in range(i, i + k):
        if not s.joined(j):
            return None
    return s.toks[i + k], s.low[i + k]


def _plural_verb(word: str | None, tok: str | None = None) -> bool:
    if word is None or (tok is not None and tok[:1].isupper()):
        return False
    if word in _PLURAL_VERBS:
        return True
    return len(word) > 4 and word.endswith("en") and word not in _NOT_VERB_EN


def _noun(tok: str) -> bool:
    return tok[:1].isupper() and not _all_caps(tok)


def _possessive_slot(s: Sentence, i: int) -> bool:
    """Token ``i`` (``ihr``/``sein``) stands before its noun: a capitalised word, or a strong
    adjective (``-er``/``-es``) and then one."""
    n1 = _next(s, i)
    if n1 is None:
        return False
    if _noun(n1[0]) and not n1[1].isdigit():
        return True
    k = 1
    while n1 is not None and n1[1].endswith(("er", "es")) and not n1[0][:1].isupper():
        k += 1
        n1 = _next(s, i, k)
        if n1 is not None and _noun(n1[0]):
            return True
    return False


# (case, gender) -> article, for the definite and indefinite articles
_DEF = {
    ("nom", "m"): "der", ("acc", "m"): "den", ("dat", "m"): "dem", ("gen", "m"): "des",
    ("nom", "f"): "die", ("acc", "f"): "die", ("dat", "f"): "der", ("gen", "f"): "der",
}  # fmt: skip
_INDEF = {
    ("nom", "m"): "ein", ("acc", "m"): "einen", ("dat", "m"): "einem", ("gen", "m"): "eines",
    ("nom", "f"): "eine", ("acc", "f"): "eine", ("dat", "f"): "einer", ("gen", "f"): "einer",
}  # fmt: skip
_POSS_STEMS = ("sein", "ihr", "kein", "mein", "dein", "unser")


def _article(word: str) -> tuple[str, str] | None:
    """(family, gender-neutral shape) of an article-like word: ('def', ''), ('ein', stem)."""
    if word in ("der", "die", "den", "dem", "des"):
        return "def", ""
    for stem in ("ein", *_POSS_STEMS):
        if word.startswith(stem) and word[len(stem) :] in ("", "e", "en", "em", "es", "er"):
            return "ein", stem
    return None


def _case(s: Sentence, i: int, word: str, gender: str) -> str:
    """The case of the article ``word`` (of the source ``gender``) at token ``i``."""
    prev = _prev(s, i)
    if gender == "m":
        if word in ("der", "ein") or word in _POSS_STEMS:
            return "nom"
        return {"n": "acc", "m": "dat", "s": "gen"}.get(word[-1:], "nom")
    # feminine: die/eine = nom or acc, der/einer = dat or gen
    if word in ("der",) or word.endswith("er"):
        return "dat" if prev in _PREPS else "gen"
    if prev in _PREPS:
        return "acc"
    return "nom"


def _article_form(family: str, stem: str, case: str, gender: str, poss: str | None) -> str:
    if family == "def":
        return _DEF[(case, gender)]
    form = _INDEF[(case, gender)]
    base = poss if poss is not None else stem
    return base + form[3:]


def _adj_form(word: str, family: str, case: str, gender: str) -> str | None:
    """The adjective ending after an article of ``family`` in ``case`` and ``gender``."""
    for e in ("en", "er", "es", "em", "e"):
        if word.endswith(e):
            stem = word[: -len(e)]
            break
    else:
        return None
    if family == "def":
        end = "e" if case == "nom" or (gender == "f" and case == "acc") else "en"
    elif case == "nom":
        end = "er" if gender == "m" else "e"
    elif case == "acc":
        end = "en" if gender == "m" else "e"
    else:
        end = "en"
    return stem + end


_NUMBERS = frozenset("zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split())
_FEM_PLURALS = frozenset("töchter mütter schwestern frauen damen tanten nichten".split())


def _plural_noun(src: str, tgt: str, d: str) -> bool:
    fem = src if d == "f2m" else tgt
    return fem.endswith("innen") or fem in _FEM_PLURALS or (d == "f2m" and src.endswith("en"))


def _head_kept(src: str, tgt: str) -> bool:
    """A compound whose head stays (``Mädchenschule`` → ``Jungenschule``): not a person."""
    k = 0
    while k < min(len(src), len(tgt)) and src[-1 - k] == tgt[-1 - k]:
        k += 1
    return k >= 4


_WEAK = ("ist", "ent", "ant", "oge", "nge", "ege", "af", "ürst", "inz", "err", "eld", "ensch", "at")


def _masc_oblique(noun: str, case: str) -> str:
    """A masculine person noun in ``case`` (``Vater`` → ``Vaters``, ``Journalist`` →
    ``Journalisten``, ``Herr`` → ``Herrn``)."""
    if case == "nom":
        return noun
    if noun.endswith(_WEAK) and noun not in ("vater", "bruder"):
        if noun.endswith("err"):
            return noun + "n"
        if noun.endswith("e"):
            return noun + "n"
        return noun + "en"
    if case == "gen" and not noun.endswith("s"):
        if noun.endswith(("er", "el", "en", "or", "ig", "ling", "ar", "eur")):
            return noun + "s"
        return noun + "es" if len(noun) <= 5 else noun + "s"
    return noun


def _masc_nom(noun: str) -> str:
    """Undo the oblique ending of a masculine noun, roughly (``Vaters`` → ``Vater``)."""
    if noun.endswith(("ers", "els", "ors", "igs", "ings")):
        return noun[:-1]
    if noun.endswith("en") and noun[:-2].endswith(_WEAK):
        return noun[:-2]
    return noun


@dataclass
class German(Language):
    def never_change(self, d: str) -> list[str]:
        # decided by context in ``propose``
        return ["sie", "ihr"] if d == "f2m" else ["sein"]

    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        if d == "f2m":
            return {}
        return {}

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
        tok, low = s.toks[i], s.low[i]
        if _all_caps(tok) and low in ("er", "sie", "ihr", "ihm", "ihn", "es"):
            return False  # an acronym (ER, SIE)
        if low.startswith(("ihr", "sie")) and _formal(s, i):
            return False
        # a possessive in a clause with a plural verb: "their"
        return not (d == "f2m" and low.startswith("ihr") and _plural_clause(s, i))

    def _pronoun(self, d: str, s: Sentence, i: int) -> str | None:
        low, tok = s.low[i], s.toks[i]
        if _all_caps(tok) or _formal(s, i):
            return None
        prev = _prev(s, i)
        n1 = _next(s, i)
        if d == "f2m" and low == "sie":
            if prev in _PREPS and prev not in _CONJ_PREPS:
                return "ihn"
            if n1 is not None and _plural_verb(n1[1], n1[0]):
                return None
            if prev is not None and (_plural_verb(prev, s.toks[i - 1]) or prev in ("sie", "er")):
                return None
            if prev == "der" and i > 1 and "," in s.gap_after(i - 2):
                return "ihn"  # ``ein Beamter, der sie verhörte``
            last = _clause_end(s, i)
            if (
                last > i + 1
                and s.low[last - 1] == "zu"
                and prev is not None
                and prev not in _SUBORD
            ):
                return "ihn"  # in an infinitive clause: ``sie zu unterstützen``
            if prev in _SUBORD:
                last = _clause_end(s, i)
                if last != i and _plural_verb(s.low[last], s.toks[last]):
                    return None
            if prev is not None and _noun(s.toks[i - 1]) and not _clause_start(s, i - 1):
                return "ihn"  # after the subject: ``schickten ihre Eltern sie``
            if prev is not None and not s.toks[i - 1][:1].isupper():
                c = _clause_first(s, i)
                if c < i - 1 and (s.low[c] in _ARTICLES or s.low[c] in ("ich", "wir", "du", "man")):
                    return "ihn"  # ``das Time-Magazin kürte sie``
            return "er"
        if d == "f2m" and low == "ihr":
            if _plural_clause(s, i):
                return None
            if prev in _DAT_PREPS:
                return "ihm"
            return "sein" if _possessive_slot(s, i) else "ihm"
        if d == "m2f" and low == "sein":
            if prev == "zu" or not _possessive_slot(s, i):
                return None
            return "ihr"
        return None

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low, toks = s.low, s.toks
        n = len(low)
        out: Plan = {}

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        def put(i: int, word: str) -> None:
            if free(i) and word != low[i]:
                out[i] = (1, (word,))

        for i in range(n):
            if free(i) and low[i] in ("sie", "ihr", "sein"):
                w = self._pronoun(d, s, i)
                if w is not None:
                    put(i, w)
        # articles and adjectives before a changed person noun
        src_g, tgt_g = ("f", "m") if d == "f2m" else ("m", "f")
        arts = s.notes.setdefault("articles", {})
        for j, (ln, tgt) in plan.items():
            if ln != 1 or len(tgt) != 1 or not _noun(toks[j]) or tgt[0] == low[j]:
                continue
            if low[j] in ("sie", "ihr", "er", "ihm", "ihn", "sein", "ihre", "seine"):
                continue
            if _plural_noun(low[j], tgt[0], d) or _head_kept(low[j], tgt[0]):
                continue
            if s.joined(j) and j + 1 < n and _noun(toks[j + 1]):
                continue  # a name or title made of several words (``Girls High School``)
            # walk back over adjectives to an article
            k = j - 1
            adjs = []
            while k >= 0 and s.joined(k) and not toks[k][:1].isupper() and k not in plan:
                if _article(low[k]) is not None:
                    break
                if not low[k].endswith(_ADJ_ENDINGS) or len(low[k]) < 5 or low[k] in _NUMBERS:
                    break
                adjs.append(k)
                k -= 1
            if k < 0 or not s.joined(k) or _article(low[k]) is None:
                continue
            art = low[k]
            if d == "m2f" and art == "die":
                continue  # a plural
            fam, stem = _article(art)
            case = _case(s, k, art, src_g)
            poss = None
            if stem in ("sein", "ihr"):
                poss = "ihr" if d == "m2f" else "sein"
            new_art = _article_form(fam, stem, case, tgt_g, poss)
            arts[k] = new_art
            put(k, new_art)
            for a in adjs:
                new_adj = _adj_form(low[a], fam, case, tgt_g)
                if new_adj is not None and free(a):
                    put(a, new_adj)
            s.notes.setdefault("np_case", {})[j] = case
        # relative pronoun after a comma after a changed noun (or the name opening the sentence)
        rel = {"der": "die"} if d == "m2f" else {"die": "der"}
        for i in range(2, n):
            if low[i] not in rel or not free(i) or "," not in s.gap_after(i - 1):
                continue
            j = i - 1
            if s.gap_after(j).strip() != ",":
                continue
            noun_changed = (
                j in plan
                and plan[j][1][0] != low[j]
                and _noun(toks[j])
                and not _plural_noun(low[j], plan[j][1][0], d)
            )
            if noun_changed:
                put(i, rel[low[i]])
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        for k, art in s.notes.get("articles", {}).items():
            if k in plan and plan[k][0] == 1:
                plan[k] = (1, (art,))
        cases = s.notes.get("np_case", {})
        if d == "f2m":
            # a genitive form the tables chose (``Herzogin`` → ``Herzogs``) without a genitive
            # article before it: the nominative (``Herzogin Anna`` → ``Herzog Anna``)
            for j, (ln, tgt) in list(plan.items()):
                if j in cases or ln != 1 or len(tgt) != 1 or not _noun(s.toks[j]):
                    continue
                src, w = s.low[j], tgt[0]
                prev = _prev(s, j)
                genitive = prev in ("des", "eines", "seines")
                if src.endswith("in") and w.endswith("s") and w[:-1] == src[:-2] and not genitive:
                    plan[j] = (1, (w[:-1],))
        for j, case in cases.items():
            if j not in plan:
                continue
            ln, tgt = plan[j]
            if d == "f2m":
                plan[j] = (ln, (_masc_oblique(_masc_nom(tgt[0]), case),))


RULES = German("de")
