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
* ``Mädchen`` is neuter: ``den Jungen`` → ``das Mädchen``, ``des Jungen`` → ``des Mädchens``.
* Precision first: an adjective changes its ending only before a noun that changes, and a
  possessive is left before a person noun that stays (``ihrer Stiefmutter``), where changing
  it alone would read wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.de_words import (
    _ADJ_ENDINGS,
    _ARTICLES,
    _ARTS_ALL,
    _CLAUSE_OPENERS,
    _CONJ_PREPS,
    _DAT_PREPS,
    _DATIVE_VERBS,
    _FEM_HEADS,
    _NEUTER,
    _NOT_VERB_EN,
    _NOT_VERB_ERN,
    _NUMBERS,
    _OBJECT_VERBS,
    _PLURAL_VERBS,
    _POSS_STEMS,
    _PREPS,
    _SUBORD,
    _SUBORD_REL,
    _adj_form,
    _article,
    _article_form,
    _ending_change,
    _head_kept,
    _masc_nom,
    _masc_oblique,
    _plural_noun,
)


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
    if any(w in ("sie", "er") for w in words):
        return False
    if any(w in _PLURAL_VERBS for w in words):
        return True
    # a subordinate or relative clause ends in its finite verb
    return s.low[a] in _SUBORD_REL and _plural_verb(s.low[b], s.toks[b])


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
    if len(word) > 5 and word.endswith(("eln", "ern")):  # ``schütteln``, ``wandern``
        return word not in _NOT_VERB_ERN
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


def _case(s: Sentence, i: int, word: str, gender: str) -> str:
    """The case of the article ``word`` (of the source ``gender``) at token ``i``."""
    prev = _prev(s, i)
    if gender == "n":
        if word[-1:] == "m":
            return "dat"
        if word[-1:] == "s" and word != "das":
            return "gen"
        return "acc" if prev in _PREPS else "nom"
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


_PARTITIVE = frozenset(
    """einer eines einem einen eine keiner keines keinem einige viele mehrere meisten beide
    anzahl reihe""".split()
)


def _will_change(s: Sentence, j: int) -> bool:
    """Token ``j`` is changed by the plan so far, or the data says it usually changes."""
    if s.covered and s.covered[j]:
        return True
    seen = s.lex.seen.get(s.low[j]) if s.lex is not None else None
    return seen is not None and seen[0] >= 2 and seen[0] >= 0.75 * seen[1]


def _may_change(s: Sentence, j: int, d: str) -> bool:
    """Token ``j`` may still change later: the data saw it change, or a ``-in`` form."""
    seen = s.lex.seen.get(s.low[j]) if s.lex is not None else None
    if seen is not None and seen[0] >= 1:
        return True
    return d == "f2m" and s.low[j].endswith(("in", "innen"))


def _head_noun(s: Sentence, i: int) -> int | None:
    """The noun the article-like word or adjective ``i`` belongs to (over adjectives)."""
    j = i + 1
    while j < len(s.low) and s.joined(j - 1):
        tok = s.toks[j]
        if _noun(tok):
            return j
        w = s.low[j]
        if w in _ARTS_ALL or _article(w) is not None or len(w) < 4:
            return None
        if not w.endswith(_ADJ_ENDINGS) and not w.endswith(("d", "lich", "ig")):
            return None
        j += 1
    return None


def _person_noun(s: Sentence, j: int, d: str) -> bool:
    """Token ``j`` reads as a noun for a person of the source gender: the data saw it change,
    or (feminine) it is a ``-in`` form of a known word (``Sprecherin``)."""
    w = s.low[j]
    seen = s.lex.seen.get(w) if s.lex is not None else None
    if seen is not None and seen[0] >= 1 and seen[0] >= 0.3 * seen[1]:
        return True
    if d == "f2m" and w.endswith("in") and len(w) > 5 and s.lex is not None:
        return s.lex.is_word(w[:-2], 2.5)
    return d == "f2m" and w.endswith(_FEM_HEADS)


def _article_before(s: Sentence, j: int, plan: Plan, *, neuter: bool) -> tuple:
    """(article index, adjective indices) of the noun phrase ending at noun ``j``, walking
    back over adjectives; (None, []) without an article."""
    toks, low = s.toks, s.low
    k = j - 1
    adjs = []
    while k >= 0 and s.joined(k) and not toks[k][:1].isupper() and k not in plan:
        if _article(low[k]) is not None or (neuter and low[k] == "das"):
            break
        if not low[k].endswith(_ADJ_ENDINGS) or len(low[k]) < 5 or low[k] in _NUMBERS:
            break
        adjs.append(k)
        k -= 1
    if k < 0 or not s.joined(k):
        return None, []
    if _article(low[k]) is None and not (neuter and low[k] == "das"):
        return None, []
    return k, adjs


@dataclass
class German(Language):
    def never_change(self, d: str) -> list[str]:
        # decided by context in ``propose``
        return ["sie", "ihr"] if d == "f2m" else ["sein"]

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
        if d == "m2f" and low.startswith("junge") and not tok[:1].isupper():
            return False  # ``jungen Menschen``: "young", not a boy
        if ln == 1 and len(tgt) == 1 and _ending_change(low, tgt[0]):
            # an attributive adjective agrees with its noun: only next to a noun that changes
            j = _head_noun(s, i)
            if j is None:
                if not tok[:1].isupper():
                    return False
            elif not _will_change(s, j) and (source != "free" or not _may_change(s, j, d)):
                return False
        if ln == 1 and low.startswith(("ihr", "sein")) and _article(low) is not None:
            # a possessive before a person noun that stays (``ihrer Stiefmutter``): the
            # sentence is not rewritten right anyway, and the possessive alone reads wrong
            j = _head_noun(s, i)
            if j is not None and _person_noun(s, j, d) and not _will_change(s, j):
                return False
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
            b = _clause_end(s, i)
            if prev in ("die", "der", "das", "denen", "dem") and _plural_verb(s.low[b], s.toks[b]):
                return None  # a relative clause with a plural verb: "they", or an object
            if prev is not None and (_plural_verb(prev, s.toks[i - 1]) or prev in ("sie", "er")):
                return None
            if prev == "der" and i > 1 and "," in s.gap_after(i - 2):
                return "ihn"  # ``ein Beamter, der sie verhörte``
            last = _clause_end(s, i)
            if prev in ("was", "die", "das", "der", "denen") and s.low[last] in _OBJECT_VERBS:
                return "ihn"  # ``, was sie dazu veranlasste``
            if prev in ("entweder", "weder", "sowohl"):
                return None  # ``entweder sie oder ...``: subject or object, unknown
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
            if prev in _DATIVE_VERBS:
                return "ihm"  # ``verhalf ihr zum Sieg``
            return "sein" if _possessive_slot(s, i) else "ihm"
        if d == "m2f" and low == "sein":
            if prev == "zu" or not _possessive_slot(s, i):
                return None
            return "ihr"
        return None

    def _ihrer(self, s: Sentence, i: int) -> bool:
        """``ihrer`` before a noun that stays (not a person): ``seiner``."""
        if _all_caps(s.toks[i]) or _formal(s, i) or _plural_clause(s, i):
            return False
        if _prev(s, i) in _PARTITIVE:
            return False  # ``einer ihrer Schüler``: "of her" or "of their"
        j = _head_noun(s, i)
        return j is not None and not s.covered[j] and not _person_noun(s, j, "f2m")

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
            elif d == "f2m" and free(i) and low[i] == "ihrer" and self._ihrer(s, i):
                put(i, "seiner")  # ``von ihrer Familie``: the noun stays feminine
        # ``der Junge`` → ``das Mädchen`` after an article (``jungen`` alone is "young"); the
        # other way ``das Mädchen`` may be ``der Junge`` or ``den Jungen``: left to the tables
        if d == "m2f":
            for i in range(1, n):
                kid = low[i] in ("junge", "jungen") and free(i) and _noun(toks[i])
                if kid and _article_before(s, i, plan, neuter=False)[0] is not None:
                    put(i, "mädchen")
        # articles and adjectives before a changed person noun
        arts = s.notes.setdefault("articles", {})
        for j, (ln, tgt) in plan.items():
            if ln != 1 or len(tgt) != 1 or not _noun(toks[j]) or tgt[0] == low[j]:
                continue
            if low[j] in ("sie", "ihr", "er", "ihm", "ihn", "sein", "ihre", "seine"):
                continue
            src_g, tgt_g = ("f", "m") if d == "f2m" else ("m", "f")
            if d == "f2m" and low[j] in _NEUTER:
                src_g = "n"  # ``das Mädchen`` → ``der Junge``
            elif d == "m2f" and tgt[0] in _NEUTER:
                tgt_g = "n"  # ``den Jungen`` → ``das Mädchen``
            elif _plural_noun(low[j], tgt[0], d) or _head_kept(low[j], tgt[0]):
                continue
            if s.joined(j) and j + 1 < n and _noun(toks[j + 1]):
                continue  # a name or title made of several words (``Girls High School``)
            k, adjs = _article_before(s, j, plan, neuter=src_g == "n")
            if k is None:
                continue
            art = low[k]
            if art == "die" and (d == "m2f" or src_g == "n"):
                continue  # a plural
            fam, stem = _article(art) or ("def", "")
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
            if low[i] not in (*rel, "das") or not free(i) or "," not in s.gap_after(i - 1):
                continue
            j = i - 1
            if s.gap_after(j).strip() != "," or j not in plan or not _noun(toks[j]):
                continue
            new = plan[j][1][0]
            if new == low[j]:
                continue
            if d == "m2f" and new in _NEUTER and low[i] == "der":
                put(i, "das")
            elif d == "f2m" and low[j] in _NEUTER and low[i] == "das":
                put(i, "der")
            elif (
                low[i] in rel
                and not _plural_noun(low[j], new, d)
                and _NEUTER.isdisjoint((low[j], new))
            ):
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
            if d == "f2m" and s.low[j] in _NEUTER:
                plan[j] = (ln, ("junge" if case == "nom" else "jungen",))
            elif d == "m2f" and tgt[0] in _NEUTER:
                plan[j] = (ln, ("mädchens" if case == "gen" else "mädchen",))
            elif d == "f2m":
                plan[j] = (ln, (_masc_oblique(_masc_nom(tgt[0]), case),))


RULES = German("de")
