"""French: participles that cannot agree with the person, taken back from the plan.

A learned substitution changes `nommé` → `nommée` wherever it stands; French agrees it only
when its subject is the person. After `avoir` (`il a nommé`) it does not agree, unless a direct
object stands before (`l'ont arrêtée`); after a copula whose subject is an unchanged noun phrase
(`le lieu est devenu`, `le journal qu'il a fondé est devenu`) it agrees with that noun.
:func:`drop_unagreeing_participles` runs on the whole plan, last.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _AVOIR,
    _COPULA,
    _DETS,
    _NOT_PARTICIPLE,
    _PARTICIPLE,
    _POSSESSIVE,
    _SUBJECT_WORDS,
)


def _thing_subject(s: Sentence, k: int, plan: Plan) -> bool:
    """The subject of the copula at ``k`` is an unchanged noun phrase, not the person:
    `le lieu est devenu`, `le petit chien de Marie est devenu`."""
    low, toks = s.low, s.toks
    j = k - 1
    while j > 0 and low[j] in ("ne", "n'", "se", "s'", "y", "en"):
        j -= 1
    opener = ("que", "qu'", "lorsque", "lorsqu'", "quand", "si", "où", "et", "mais", "car",
              "puis", "comme", "puisque", "puisqu'")  # fmt: skip
    inner = ("de", "d'", "du", "des", "la", "le", "l'", "les")
    t = j
    while t >= 0 and j - t < 8:
        w = low[t]
        if t in plan or w in _SUBJECT_WORDS or w in ("lui", "eux", "celui", "celle"):
            # ... unless it is inside a relative clause on the subject noun that opens the
            # sentence: `le journal qu'il a fondé est devenu`
            q = t if w in ("que", "qu'") else t - 1
            return q >= 2 and low[q] in ("que", "qu'") and _opening_noun(s, q - 1, plan)
        if t < j and s.gap_after(t) not in (" ", ""):
            return False
        if w in _DETS or w in _POSSESSIVE or w in ("ces", "cette", "ce", "cet"):
            head = t + 1
            if head <= j and toks[head].isalpha() and toks[head].islower():
                starts = t == 0 or s.gap_after(t - 1).strip() in (",", ".", ";", ":")
                if starts or low[t - 1] in opener:
                    return True
        if not (w in inner or toks[t].isalpha() or w.endswith(("'", "’"))):
            return False
        t -= 1
    return False


def _opening_noun(s: Sentence, i: int, plan: Plan) -> bool:
    """Token ``i`` is an unchanged common noun right after the determiner that opens the
    sentence or a clause (`Le journal`, `, cette pièce`)."""
    low, toks = s.low, s.toks
    if i < 1 or i in plan or not toks[i].isalpha() or not toks[i].islower():
        return False
    if s.gap_after(i - 1) != " " or not (
        low[i - 1] in _DETS or low[i - 1] in ("ce", "cet", "cette")
    ):
        return False
    return i == 1 or s.gap_after(i - 2).strip() in (",", ".", ";", ":")


def drop_unagreeing_participles(s: Sentence, plan: Plan) -> None:
    """Take back, in place, participles that cannot agree with the person: after `avoir`
    (`il a nommé`), or after a copula whose subject is an unchanged common noun (`le lieu est
    devenu`), with what agreed with them."""
    low = s.low
    n = len(low)
    for i in sorted(plan):
        if i not in plan:
            continue
        ln = plan[i][0]
        if ln != 1 or i == 0 or low[i] in _NOT_PARTICIPLE or not low[i].endswith(_PARTICIPLE):
            continue
        k = i - 1
        while k > 0 and low[k] in _ADVERBS:
            k -= 1
        if low[k] in _AVOIR and (k + 1 == i or low[k + 1] != "été"):
            if k == 0 or low[k - 1] not in ("l'", "la", "le", "les", "que", "qu'", "m'"):
                del plan[i]  # a direct object before `avoir` agrees: `l'ont arrêtée`
            continue
        if low[k] == "été":
            k -= 1
        if (low[k] in _COPULA or low[k] in _AVOIR) and _thing_subject(s, k, plan):
            del plan[i]
            # and what agreed with it: `le lieu est devenu associé`
            j = i + 1
            while j in plan and j < n and low[j].isalpha() and s.gap_after(j - 1) == " ":
                if low[j] in ("il", "elle", "lui") or plan[j][0] != 1:
                    break
                del plan[j]
                j += 1
