"""GeBio balancing: the same number of sentences for every selected gender over the whole corpus.

After GeBioToolkit (Costa-jussà, Lin and España-Bonet, "GeBioToolkit: Automatic Extraction of
Gender-Balanced Multilingual Corpus of Wikipedia Biographies", LREC 2020), which balances the
number of sentences, not of people, and picks whole documents, best first, until a gender's
quota is reached.

The algorithm, for candidates that already have aligned tuples and a selected gender:

1. Per gender, order the people by mean alignment score (best first; ties by QID number).
2. ``target`` = the smallest total number of tuples of any gender (0 when a gender has nobody,
   which drops everyone: there is nothing to balance against).
3. Per gender, take the documents in that order while the running total stays <= ``target``
   (``kept``); the first document that does not fit whole is cut to the prefix that reaches
   exactly ``target`` (``kept_cut``), so the documents stay coherent; every later one is
   ``surplus_sentences``.

Every gender then has exactly ``target`` sentences.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from occbio.balance.core import (
    SURPLUS_SENTENCES,
    Candidate,
    Decision,
    dropped,
    kept,
    preference_key,
)

__all__ = ["balance_gebio"]

log = logging.getLogger(__name__)


def balance_gebio(eligible: Sequence[Candidate], genders: Sequence[str]) -> list[Decision]:
    """Decisions for ``eligible`` people (each with >= 1 tuple and a gender in ``genders``)."""
    by_gender: dict[str, list[Candidate]] = {g: [] for g in genders}
    for c in eligible:
        by_gender[c.gender].append(c)
    for people in by_gender.values():
        people.sort(key=preference_key)
    totals = {g: sum(len(c.scores) for c in people) for g, people in by_gender.items()}
    target = min(totals.values())
    missing = [g for g, people in by_gender.items() if not people]
    if missing:
        log.warning(
            "gebio: no %s person has aligned sentences, so nobody is kept "
            "(each selected gender must have the same number of sentences)",
            "/".join(missing),
        )

    decisions: list[Decision] = []
    for people in by_gender.values():
        running = 0
        for c in people:
            room = target - running
            n = min(len(c.scores), room)
            if n > 0:
                decisions.append(kept(c, n))
                running += n
            else:
                decisions.append(dropped(c, SURPLUS_SENTENCES))
    return decisions
