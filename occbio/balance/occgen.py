"""OccGen balancing: the same people and sentences per gender within each occupation group.

After OccGen's Algorithm 1 (Costa-jussà, Basta, Domingo and Niyongabo Rubungo, "OccGen:
Selection of Real-world Multilingual Parallel Data Balanced in Gender within Occupations",
NeurIPS 2022 Datasets and Benchmarks), as the paper intends it. Balancing within occupations,
not just overall, keeps a corpus from pairing, say, female nurses with male engineers.

For candidates that already have aligned tuples and a selected gender:

1. A person's *category* is their number of distinct occupations; people with none are dropped
   (``no_occupation``). Categories are processed in order 1, 2, 3, ...
2. Within category ``c`` people are grouped by their occupation set; the group key is the set's
   QIDs in QID-number order joined by ``"|"`` (``"Q33999|Q36180"``).
3. In category ``c >= 2`` a person with ANY occupation that was balanced in a lower category is
   skipped (``occupation_balanced_in_lower_category``): that occupation already has its
   balanced people, and multi-occupation people would only skew it again. An occupation is
   *balanced* once a group containing it was kept; the set grows after a whole category is
   processed, so people of the same category never block each other.
4. A group lacking any selected gender is dropped whole (``occupation_lacks_gender``).
5. Otherwise ``n`` = the fewest people of any selected gender; ``n`` people per gender are kept,
   preferring high document scores AND similar document lengths across genders: the gender with
   the fewest people (ties: the order of ``genders``) is the reference, its people best first;
   for each other gender and each reference person in turn, the not-yet-chosen person with the
   closest number of tuples is chosen (ties: the better score, then the lower QID number).
   Everyone else is ``surplus_person``.
6. Sentences are then cut so every gender has the same total in the group: ``target`` = the
   smallest total of any gender (>= ``n``, as everyone has a tuple); above it, one tuple at a
   time is removed from the gender's kept person with the most kept tuples (ties: the least
   preferred, i.e. the lower score, then the higher QID number). Nobody drops below one tuple,
   and what stays is a prefix of each document (``kept_cut`` when something was removed).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections import deque
from collections.abc import Sequence

from occbio.balance.core import (
    NO_OCCUPATION,
    OCCUPATION_BALANCED_IN_LOWER_CATEGORY,
    OCCUPATION_LACKS_GENDER,
    SURPLUS_PERSON,
    Candidate,
    Decision,
    dropped,
    kept,
    preference_key,
    qid_key,
)

__all__ = ["balance_occgen", "group_key", "occupation_group"]


def group_key(occupations: Sequence[str]) -> str:
    """The occupation group of a set of occupations: distinct QIDs, by QID number, joined by |."""
    return "|".join(sorted(set(occupations), key=qid_key))


def occupation_group(candidate: Candidate) -> tuple[int, str]:
    """``(category, group key)``: the number of distinct occupations and their group."""
    return len(set(candidate.occupations)), group_key(candidate.occupations)


def balance_occgen(eligible: Sequence[Candidate], genders: Sequence[str]) -> list[Decision]:
    """Decisions for ``eligible`` people (each with >= 1 tuple and a gender in ``genders``)."""
    decisions: list[Decision] = []
    by_category: dict[int, list[Candidate]] = {}
    for c in eligible:
        category = len(set(c.occupations))
        if category == 0:
            decisions.append(dropped(c, NO_OCCUPATION))
        else:
            by_category.setdefault(category, []).append(c)

    balanced: set[str] = set()  # occupations of the groups kept in lower categories
    for category in sorted(by_category):
        groups: dict[str, list[Candidate]] = {}
        for c in by_category[category]:
            key = group_key(c.occupations)
            if balanced.intersection(c.occupations):
                decisions.append(
                    dropped(c, OCCUPATION_BALANCED_IN_LOWER_CATEGORY, group=key, category=category)
                )
            else:
                groups.setdefault(key, []).append(c)
        newly_balanced: set[str] = set()
        for key in sorted(groups):
            members = groups[key]
            group_decisions = _balance_group(members, genders, key, category)
            decisions.extend(group_decisions)
            if any(d.kept for d in group_decisions):
                newly_balanced.update(members[0].occupations)
        balanced |= newly_balanced
    return decisions


def _balance_group(
    members: Sequence[Candidate], genders: Sequence[str], key: str, category: int
) -> list[Decision]:
    """Steps 4-6 of the module doc for the people of one occupation group."""
    by_gender = {
        g: sorted((c for c in members if c.gender == g), key=preference_key) for g in genders
    }
    if any(not people for people in by_gender.values()):
        return [dropped(c, OCCUPATION_LACKS_GENDER, group=key, category=category) for c in members]

    order = {g: i for i, g in enumerate(genders)}
    reference = min(genders, key=lambda g: (len(by_gender[g]), order[g]))
    anchors = by_gender[reference]  # exactly n people, best first
    chosen = {g: anchors if g == reference else _match(anchors, by_gender[g]) for g in genders}

    counts = _cut(chosen)
    decisions = [
        kept(c, counts[c.qid], group=key, category=category)
        for people in chosen.values()
        for c in people
    ]
    kept_qids = set(counts)
    decisions.extend(
        dropped(c, SURPLUS_PERSON, group=key, category=category)
        for c in members
        if c.qid not in kept_qids
    )
    return decisions


def _match(anchors: Sequence[Candidate], pool: Sequence[Candidate]) -> list[Candidate]:
    """For each anchor in turn, the unchosen person of ``pool`` minimising (|length difference|,
    -score, QID number). People are bucketed by length, each bucket best first, so a pick looks
    at no more than two bucket heads: the closest shorter and the closest not shorter length."""
    buckets: dict[int, deque[Candidate]] = {}
    for c in sorted(pool, key=preference_key):
        buckets.setdefault(len(c.scores), deque()).append(c)
    lengths = sorted(buckets)
    picks: list[Candidate] = []
    for anchor in anchors:
        want = len(anchor.scores)
        i = bisect_left(lengths, want)
        options = lengths[max(i - 1, 0) : i + 1]
        best = min(options, key=lambda m: (abs(m - want), preference_key(buckets[m][0])))
        bucket = buckets[best]
        picks.append(bucket.popleft())
        if not bucket:
            lengths.remove(best)
    return picks


def _cut(chosen: dict[str, list[Candidate]]) -> dict[str, int]:
    """Kept tuples per chosen person so every gender reaches the same total (step 6)."""
    counts = {c.qid: len(c.scores) for people in chosen.values() for c in people}
    totals = {g: sum(counts[c.qid] for c in people) for g, people in chosen.items()}
    target = min(totals.values())
    for g, people in chosen.items():
        excess = totals[g] - target
        if excess == 0:
            continue
        ranked = sorted(people, key=preference_key)  # rank 0 = most preferred
        # Max-heap on (kept tuples, rank): the longest document first, the least preferred on ties.
        heap = [(-counts[c.qid], -rank, c.qid) for rank, c in enumerate(ranked)]
        heapq.heapify(heap)
        for _ in range(excess):
            neg_count, neg_rank, qid = heapq.heappop(heap)
            counts[qid] = -neg_count - 1
            heapq.heappush(heap, (neg_count + 1, neg_rank, qid))
    return counts
