"""Italian: predicates that belong to something other than the person, so that nothing
agrees with the person there.

A copula with no visible subject before a noun phrase that names no person (`È stato un
anno difficile`) keeps its participle (:func:`person_head`, :func:`overt_subject`, asked by
``it_lead.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.it_articles import CLOSED
from occbio.rewrite.languages.it_forms import invariable_adj
from occbio.rewrite.languages.it_subject import is_adverb, person_noun
from occbio.rewrite.languages.it_words import (
    _INVARIANT_ADJ,
    _INVARIANT_NOUNS,
    _PERSON_PRON,
    _PRO_DROP,
)


def person_head(s: Sentence, covered: Sequence[bool], j: int) -> bool:
    """The noun phrase opened by the determiner at ``j`` names a person (`un membro`, `un
    pioniere`, `il pittore`), as far as its head noun tells; `un anno`, `un risultato` do
    not."""
    x = j + 1
    while (
        x < len(s.low) - 1
        and s.joined(x - 1)
        and (s.low[x] in _INVARIANT_ADJ or invariable_adj(s.low[x]) or s.low[x] in CLOSED)
    ):
        x += 1
    if x >= len(s.low) or not s.joined(x - 1):
        return True
    w = s.low[x]
    return (
        covered[x]
        or not w.isalpha()
        or s.toks[x][:1].isupper()
        or w in _INVARIANT_NOUNS
        or person_noun(w)
    )


def overt_subject(s: Sentence, covered: Sequence[bool], k: int) -> bool:
    """A pronoun, a changed word or a name right before the copula at ``k`` (past clitics
    and adverbs): the predicate is the person's whatever its noun."""
    j = k - 1
    while j >= 0 and (is_adverb(s.low[j]) or s.low[j] in ("si", "ne", "ci")) and s.joined(j):
        j -= 1
    if j < 0 or not s.joined(j):
        return False
    w = s.low[j]
    name = s.toks[j][:1].isupper() and w.isalpha() and w not in CLOSED and w not in _PRO_DROP
    return w in _PERSON_PRON or (covered[j] and w not in CLOSED) or name
