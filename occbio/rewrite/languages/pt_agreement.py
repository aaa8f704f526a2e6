"""Portuguese agreement with a changed word: the articles, contractions and determiners before
it, the adjectives next to it, the participles coordinated with it.

The engine's own suffix guess (any word next to any changed word) is off for Portuguese, so
every agreement is proposed here, with the whole sentence in view: an adjective after a changed
noun (`o filho mais novo`) changes, a verb after a changed subject (`a madrasta deixa`) or a
noun after a changed contraction (`o parto da duquesa`) does not.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    DETERMINER_FORMS,
    DETERMINER_SWAP,
    PERSON_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_words import (
    _ADJ_DETS,
    _ALL_DETS,
    _ARTICLES,
    _COPULAS,
    _PARTICIPLE,
    _POSSESSIVES,
    _PRE_ADJ,
    _PROMOTED,
)


def _spaced(s: Sentence, i: int) -> bool:
    """A plain space between token ``i`` and ``i + 1``."""
    return s.gap_after(i) == " "


def determiner_change(d: str, s: Sentence, i: int, nominal: set, dets: set) -> Plan:
    """Articles, contractions, possessives before a changed noun / adjective (``nominal``) or
    a changed determiner (``dets``)."""
    low = s.low
    w = low[i]
    det = DETERMINER_SWAP[d]
    if (
        w in det
        and _spaced(s, i)
        and not (w == "a" and i > 0 and low[i - 1].startswith(_PROMOTED))
        and (
            i + 1 in nominal
            or (
                (low[i + 1] in ("mais", "menos") or low[i + 1] in _PRE_ADJ)
                and i + 2 in nominal
                and _spaced(s, i + 1)
            )
            or (i + 1 in dets and low[i + 1] in _ADJ_DETS)
            or (w in _ARTICLES and i + 1 in dets and low[i + 1] in _POSSESSIVES)
            or (w in _ALL_DETS and i + 1 in dets)
        )
    ):
        return {i: (1, (det[w],))}
    return {}


def fathers_change(d: str, s: Sentence, i: int) -> Plan:
    """`pais` (fathers, or parents): fathers as a kind (`grupos de pais`, `pais que`), not
    someone's parents (`seus pais`, `os pais dele`, `tiveram os pais`)."""
    low, toks, n = s.low, s.toks, len(s.low)
    if (
        low[i] == "pais" and d == "m2f" and toks[i][:1].islower() and i > 0
        and (low[i - 1] not in DETERMINER_FORMS
             or (low[i - 1] == "os" and low[i + 1 : i + 2] == ["que"]))
        and (i + 1 >= n or low[i + 1] not in PRONOUN_FORMS)
    ):  # fmt: skip
        return {i: (1, ("mães",))}
    return {}


def adjective_change(d: str, s: Sentence, i: int, lex: Lexicon, nominal: set) -> Plan:
    """An adjective or participle at ``i`` that agrees with a changed noun or predicate
    (``nominal``)."""
    low, toks = s.low, s.toks
    w = low[i]
    # adjective after a changed noun (`filho mais novo`), or before it after a determiner
    lower = toks[i][:1].islower()
    if not (lower and w not in DETERMINER_FORMS and w not in _COPULAS):
        return {}
    post = (i - 1 in nominal and _spaced(s, i - 1)) or (
        i - 2 in nominal and low[i - 1] in ("mais", "menos", "muito", "tão")
        and _spaced(s, i - 2) and _spaced(s, i - 1)
    )  # fmt: skip
    pre = i + 1 in nominal and _spaced(s, i) and i > 0 and (low[i - 1] in DETERMINER_FORMS)
    if post or pre:
        # a verb after the subject noun (`a madrasta deixa`) is no adjective
        t = other_gender(d, w, lex, adjlike=not post or is_verb(w, lex, True))
        if t is not None and t != w:
            return {i: (1, (t,))}
    # coordinated with a changed predicate: `tão feia e deformada`, `foi presa,
    # encarcerada e`
    coord = i > 1 and i - 2 in nominal and low[i - 1] in ("e", "ou") and _spaced(s, i - 2)
    coord = coord and _spaced(s, i - 1) and low[i - 2] not in PERSON_SWAP[d]
    comma = i > 0 and i - 1 in nominal and s.gap_after(i - 1) == ", "
    comma = comma and w.endswith(_PARTICIPLE) and low[i - 1] not in PRONOUN_FORMS
    if coord or comma:
        t = other_gender(d, w, lex)
        if t is not None and t != w:
            return {i: (1, (t,))}
    return {}


def agrees_here(s: Sentence, i: int) -> bool:
    """An adjective at ``i`` is the person's: next to a changed word, or a predicate."""
    cov, low = s.covered, s.low
    if (i > 0 and cov[i - 1] and s.joined(i - 1)) or (
        i + 1 < len(low) and cov[i + 1] and s.joined(i)
    ):
        return True
    k = i - 1
    while k >= 0 and is_adverb(low[k]) and s.gap_after(k) == " ":
        k -= 1
    return k >= 0 and low[k] in _COPULAS and s.gap_after(k) == " "
