"""Italian: predicates that belong to something other than the person, so that nothing
agrees with the person there.

A participle after a copula whose subject is a thing (`il tentativo si è concluso`) keeps
its form whatever the substitution tables say (:func:`thing_predicate`, asked by ``it.py``
for every engine change); a copula with no visible subject before a noun phrase that names
no person (`È stato un anno difficile`) keeps its participle (:func:`person_head`,
:func:`overt_subject`, asked by ``it_lead.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.it_articles import CLOSED
from occbio.rewrite.languages.it_forms import invariable_adj
from occbio.rewrite.languages.it_subject import is_adverb, person_is_subject, person_noun
from occbio.rewrite.languages.it_words import (
    _COPULA_VERBS,
    _INVARIANT_ADJ,
    _INVARIANT_NOUNS,
    _PERSON_PRON,
    _PRO_DROP,
)


def thing_predicate(s: Sentence, i: int) -> bool:
    """Word ``i`` is a participle or adjective right after a copula (`è stato arrestato`, `si
    è concluso`) whose subject is not the person (`il tentativo si è concluso`): it agrees with
    that subject, so no learned substitution may change it."""
    w = s.low[i]
    if not w.isalpha() or not w.endswith(("o", "a")) or s.toks[i][:1].isupper():
        return False
    k = i - 1
    if k >= 0 and s.low[k] in ("stato", "stata") and s.joined(k):
        k -= 1
    while k >= 0 and is_adverb(s.low[k]) and s.joined(k):
        k -= 1
    if k < 0 or s.low[k] not in _COPULA_VERBS or not s.joined(k):
        return False
    return not person_is_subject(s, s.covered, k)


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
