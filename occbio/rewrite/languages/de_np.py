"""German noun phrases for the rewriter: the case of an article (``_case``), whether a
nominative is sure (``_nominative_sure``), the article and adjectives before a noun
(``_article_before``) and the role slot after a copula (``_role_slot``). The rules that use
them are in ``de.py`` and ``de_nouns.py``."""

from __future__ import annotations

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.de_clause import (
    _COPULAS,
    _clause_end,
    _clause_first,
    _noun,
    _prev,
)
from occbio.rewrite.languages.de_words import (
    _ADJ_ENDINGS,
    _ARTS_ALL,
    _DAT_PREPS,
    _NUMBERS,
    _POSS_STEMS,
    _PREPS,
    _SUBORD,
    _article,
    _ending_change,
)


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
        if prev in _PREPS:
            return "dat"
        # a genitive follows a noun (``die Tochter der Königin``), a genitive preposition or
        # opens an apposition; after a verb or a relative pronoun it is the dative object
        # (``was der Königin erlaubte``)
        if prev is None and i > 0 and "," in s.gap_after(i - 1):
            # an apposition takes the case of its noun: ``zu ihrer Tante, einer Lehrerin``
            near = s.low[max(0, i - 5) : i]
            return "dat" if any(w in _DAT_PREPS for w in near) else "gen"
        if prev is None or prev in _GEN_PREPS or prev in ("und", "oder", "sowie", "als", "wie"):
            return "gen"
        if prev in _ARTS_ALL:
            # ``von dem einer Nonne`` (a demonstrative) is genitive; ``, die der Königin
            # nahestanden`` (a relative pronoun) is dative
            return "gen" if i > 1 and s.low[i - 2] in _PREPS else "dat"
        return "gen" if s.toks[i - 1][:1].isupper() or prev.isdigit() else "dat"
    if prev in _PREPS:
        return "acc"
    return "nom"


_GEN_PREPS = frozenset(
    """wegen während trotz statt anstatt innerhalb außerhalb aufgrund anlässlich infolge
    mithilfe seitens bezüglich hinsichtlich zugunsten angesichts unweit oberhalb unterhalb
    anhand abseits jenseits diesseits dank laut""".split()
)


def _nominative_sure(s: Sentence, k: int) -> bool:
    """The noun phrase opened by ``k`` (``die``, ``eine``, ``das``) is surely nominative: it opens
    its clause, follows ``als``/``wie``/``und``/``oder``, a copula or a subordinating
    conjunction, or its clause has a copula (a predicate)."""
    c = _clause_first(s, k)
    prev = _prev(s, k)
    if k == c or prev in ("als", "wie", "und", "oder", "sowie") or prev in _COPULAS:
        return True
    if c == k - 1 and s.low[c] in _SUBORD:
        return True
    b = _clause_end(s, k)
    if any(w in _COPULAS for w in s.low[c : b + 1]):
        return True
    # another noun phrase of the clause is accusative (``1990 heiratete die Sängerin einen Arzt``)
    return any(
        s.low[h] in ("den", "einen", "ihn", "keinen")
        and (h == c or s.low[h - 1] not in _PREPS)
        and h != k
        for h in range(c, b + 1)
    )


def _article_before(
    s: Sentence, j: int, plan: Plan, *, neuter: bool, compound: bool = False
) -> tuple:
    """(article index, adjective indices) of the noun phrase ending at noun ``j``, walking
    back over adjectives (and degree adverbs); (None, []) without an article."""
    toks, low = s.toks, s.low
    k = j - 1
    while compound and k > 0 and s.gap_after(k) == "-" and _noun(toks[k]):
        k -= 1  # the first part of a compound noun (``die Hitman-Protagonistin``)
    adjs = []

    def open_adj(k: int) -> bool:
        # not changed yet, or only its ending (re-inflected again here: ``die beste``)
        if k not in plan:
            return True
        ln, tgt = plan[k]
        return (
            ln == 1
            and len(tgt) == 1
            and (_ending_change(low[k], tgt[0]) or low[k].startswith("weiblich"))
        )

    while k >= 0 and s.joined(k) and not toks[k][:1].isupper() and open_adj(k):
        if _article(low[k]) is not None or (neuter and low[k] == "das"):
            break
        if low[k] in _DEGREE and adjs:
            k -= 1  # ``eine äußerst beliebte Autorin``
            continue
        if not low[k].endswith(_ADJ_ENDINGS) or len(low[k]) < 5 or low[k] in _NUMBERS:
            break
        adjs.append(k)
        k -= 1
    if k < 0 or not s.joined(k):
        return None, []
    if _article(low[k]) is None and not (neuter and low[k] == "das"):
        return None, []
    return k, adjs


_ROLE_COPULAS = frozenset("war ist wurde wird blieb bleibt".split())
#: degree adverbs inside a noun phrase, before an adjective
_DEGREE = frozenset(
    """sehr äußerst besonders überaus recht ziemlich höchst ganz weltweit international
    national weithin zunehmend relativ vergleichsweise""".split()
)


def _role_slot(s: Sentence, j: int) -> bool:
    """Noun ``j`` names the person's role: after a copula (over an article and adjectives:
    ``er wurde ein bekannter Fahrer``, ``1990 wurde er Präsident``) in a clause whose subject
    is ``er``."""
    k = j - 1
    while k >= 0 and s.joined(k) and not s.toks[k][:1].isupper() and len(s.low[k]) >= 4:
        if s.low[k] in _DEGREE:
            k -= 1
            continue
        if not s.low[k].endswith(_ADJ_ENDINGS) or _article(s.low[k]) is not None:
            break
        k -= 1  # adjectives
    if k >= 0 and s.joined(k) and _article(s.low[k]) is not None and s.low[k][:3] in ("ein", "der"):
        k -= 1
    b = _clause_end(s, j)
    if (
        (k < 0 or not s.joined(k))
        and b > j + 1
        and s.low[b] in ("werden", "sein", "bleiben")
        and s.low[b - 1] == "zu"
    ):
        return "er" in s.low[: k + 1]  # ``stimmte er zu, der Anführer der Gruppe zu werden``
    if k < 0 or not s.joined(k):
        return False
    w = s.low[k]
    if w == "er" and k > 0 and s.joined(k - 1) and s.low[k - 1] in _ROLE_COPULAS:
        return True  # ``1990 wurde er Präsident``
    if w not in _ROLE_COPULAS:
        return False  # (after ``als`` and ``zum`` it lost precision on the judging pairs)
    a = _clause_first(s, j)
    return "er" in s.low[a:j]
