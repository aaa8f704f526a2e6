"""The balancing entry point: one decision per person, by the chosen method.

Kept apart from :mod:`occbio.balance.core` (the data model and rules that both methods build
on) so that the methods import the core and this module imports the methods, with no circle.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from occbio.balance import gebio, occgen
from occbio.balance.core import (
    GENDER_NOT_SELECTED,
    METHODS,
    NO_ALIGNED_SENTENCES,
    Candidate,
    Decision,
    Method,
    document_score,
    dropped,
    kept,
    qid_key,
)

__all__ = ["balance"]


def balance(
    candidates: Iterable[Candidate],
    *,
    method: Method,
    genders: Sequence[str],
) -> list[Decision]:
    """One decision per candidate, in QID-number order (Q2 before Q10).

    ``genders`` are the categories balanced against each other (at least two distinct ones for
    ``gebio`` and ``occgen``; ignored by ``none``). Raises ``ValueError`` for an unknown method,
    too few genders, a duplicate QID or a NaN score (which could not be ranked).
    """
    if method not in METHODS:
        raise ValueError(f"unknown balancing method {method!r}; known: {', '.join(METHODS)}")
    selected = tuple(dict.fromkeys(genders))
    if method != "none" and len(selected) < 2:
        raise ValueError(
            f"balancing with {method} needs at least two distinct genders, got {list(genders)}"
        )
    people = sorted(candidates, key=lambda c: qid_key(c.qid))
    duplicates = sorted(
        (q for q, n in Counter(c.qid for c in people).items() if n > 1), key=qid_key
    )
    if duplicates:
        raise ValueError(f"duplicate candidates: {', '.join(duplicates)}")
    for c in people:
        if math.isnan(document_score(c.scores)):
            raise ValueError(f"{c.qid}: a NaN alignment score cannot be ranked")

    if method == "none":
        return [
            kept(c, len(c.scores)) if c.scores else dropped(c, NO_ALIGNED_SENTENCES) for c in people
        ]

    decided: dict[str, Decision] = {}
    eligible: list[Candidate] = []
    for c in people:
        if method == "occgen":
            category, group = occgen.occupation_group(c)
            extra: dict[str, Any] = {"group": group, "category": category}
        else:
            extra = {}
        if not c.scores:
            decided[c.qid] = dropped(c, NO_ALIGNED_SENTENCES, **extra)
        elif c.gender not in selected:
            decided[c.qid] = dropped(c, GENDER_NOT_SELECTED, **extra)
        else:
            eligible.append(c)
    if method == "gebio":
        chosen = gebio.balance_gebio(eligible, selected)
    else:
        chosen = occgen.balance_occgen(eligible, selected)
    decided.update((d.qid, d) for d in chosen)
    return [decided[c.qid] for c in people]
