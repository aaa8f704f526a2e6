"""Spanish: object clitics that refer to the person.

``lo llevaron`` → ``la llevaron``, ``electrocutarlo`` → ``electrocutarla``: a clitic before (or
enclitic on) a verb that takes a person as object. Kept apart from ``es.py``: these rules read
verb forms, the others read noun phrases.
"""

from __future__ import annotations

from collections.abc import Callable

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.es_words import (
    _AUX,
    _ENCLITIC,
    _FINITE,
    _NOUNLIKE,
    _PERSON_VERB,
    _PREPS,
    _PRESENT,
)


def object_clitics(
    d: str, s: Sentence, free: Callable[[int], bool], put: Callable[[int, str], None]
) -> None:
    """Object clitics before a person verb, or enclitic on an infinitive/gerund: ``put`` the
    other gender's at every ``free`` position."""
    low = s.low
    n = len(low)
    src_cl, tgt_cl = ("la", "lo") if d == "f2m" else ("lo", "la")
    for i in range(n):
        if not free(i):
            continue
        w = low[i]
        if w == src_cl and i > 0 and _doubled(s, i, "él" if src_cl == "lo" else "ella"):
            put(i, tgt_cl)  # `lo tuvo que empujar a él`: the clitic doubles the pronoun
            continue
        if w == src_cl and i + 1 < n and s.gap_after(i) == " ":
            j = i + 1
            if low[j] in _AUX and j + 1 < n:
                j += 1
            v = low[j]
            if i > 0 and low[i - 1] in _PREPS:
                continue
            if not _PERSON_VERB.match(v) or v in _NOUNLIKE:
                continue
            if (
                _FINITE.search(v)
                or (j > i + 1 and v.endswith(("ado", "ido")))
                or (_PRESENT.search(v) and i > 0)
            ):
                put(i, tgt_cl)
        m = _ENCLITIC.match(w)
        if m and m.group(2) == src_cl and _PERSON_VERB.match(m.group(1)):
            put(i, m.group(1) + tgt_cl)


def _doubled(s: Sentence, i: int, pronoun: str) -> bool:
    """The clitic at ``i`` is doubled by `a él`/`a ella` later in its clause (`lo tuvo que
    empujar a él`): it is the person."""
    low = s.low
    for j in range(i + 1, min(len(low) - 1, i + 7)):
        if not s.joined(j - 1):
            return False
        if low[j] == "a" and low[j + 1] == pronoun and s.joined(j):
            return True
    return False
