"""Balancing by gender: the shared data model and the common rules.

Pure logic: plain data in, decisions out (no files, no network). A :class:`Candidate` is a person
with a gender category, their occupations and one alignment score per aligned tuple ("sentence")
of their biography; :func:`occbio.balance.methods.balance` returns one :class:`Decision` per
candidate, saying whether the person is kept, why, and which of their tuples are kept (always a
prefix in article order, so a kept document stays a coherent start of the biography).

Methods:

* ``gebio`` (:mod:`occbio.balance.gebio`): the same number of sentences per gender over the
  whole corpus, best documents first, as GeBioToolkit does (Costa-jussà, Lin and España-Bonet,
  "GeBioToolkit: Automatic Extraction of Gender-Balanced Multilingual Corpus of Wikipedia
  Biographies", LREC 2020).
* ``occgen`` (:mod:`occbio.balance.occgen`): the same number of people and of sentences per
  gender within each occupation group, OccGen's Algorithm 1 (Costa-jussà, Basta, Domingo and
  Niyongabo Rubungo, "OccGen: Selection of Real-world Multilingual Parallel Data Balanced in
  Gender within Occupations", NeurIPS 2022 Datasets and Benchmarks).
* ``none``: keep everyone with at least one aligned tuple (an unbalanced baseline).

Common rules, checked in this order: a person without aligned tuples is dropped
(``no_aligned_sentences``), then a person whose gender is not among the selected ones
(``gender_not_selected``). Every ordering ends with the QID number, so the output does not depend
on the order of the input.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "Candidate",
    "Decision",
    "Method",
    "METHODS",
    "REASONS",
    "KEPT",
    "KEPT_CUT",
    "GENDER_NOT_SELECTED",
    "NO_ALIGNED_SENTENCES",
    "NO_OCCUPATION",
    "OCCUPATION_BALANCED_IN_LOWER_CATEGORY",
    "OCCUPATION_LACKS_GENDER",
    "SURPLUS_PERSON",
    "SURPLUS_SENTENCES",
    "document_score",
    "preference_key",
    "qid_key",
    "summarise",
]

Method = Literal["gebio", "occgen", "none"]
METHODS: tuple[str, ...] = ("gebio", "occgen", "none")

# Reasons (stable strings: the manifest and the statistics count them).
KEPT = "kept"
KEPT_CUT = "kept_cut"
GENDER_NOT_SELECTED = "gender_not_selected"
NO_ALIGNED_SENTENCES = "no_aligned_sentences"
NO_OCCUPATION = "no_occupation"
OCCUPATION_BALANCED_IN_LOWER_CATEGORY = "occupation_balanced_in_lower_category"
OCCUPATION_LACKS_GENDER = "occupation_lacks_gender"
SURPLUS_PERSON = "surplus_person"
SURPLUS_SENTENCES = "surplus_sentences"

#: Every reason a :class:`Decision` can carry.
REASONS: tuple[str, ...] = (
    KEPT,
    KEPT_CUT,
    GENDER_NOT_SELECTED,
    NO_ALIGNED_SENTENCES,
    NO_OCCUPATION,
    OCCUPATION_BALANCED_IN_LOWER_CATEGORY,
    OCCUPATION_LACKS_GENDER,
    SURPLUS_PERSON,
    SURPLUS_SENTENCES,
)

_QID = re.compile(r"Q(\d+)")


@dataclass(frozen=True)
class Candidate:
    """A person to balance: gender category, occupation QIDs, one score per aligned tuple."""

    qid: str
    gender: str
    occupations: tuple[str, ...] = ()
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class Decision:
    """What :func:`balance` decided for one person.

    ``kept_indices`` is a prefix ``0..k-1`` of the person's tuples (empty when dropped);
    ``group`` and ``category`` describe the person's occupation group under ``occgen`` (``""``
    and ``0`` otherwise, or when the person has no occupation).
    """

    qid: str
    kept: bool
    reason: str
    kept_indices: tuple[int, ...] = ()
    group: str = ""
    category: int = 0
    gender: str = ""


def qid_key(qid: str) -> tuple[int, int, str]:
    """Sort key putting ``Q2`` before ``Q10``; ids that are not ``Q<digits>`` sort last, by text."""
    match = _QID.fullmatch(qid)
    if match:
        return (0, int(match.group(1)), qid)
    return (1, 0, qid)


def document_score(scores: Sequence[float]) -> float:
    """The mean alignment score of a document (0.0 for none): how "good" the document is."""
    return math.fsum(scores) / len(scores) if scores else 0.0


def preference_key(candidate: Candidate) -> tuple[float, tuple[int, int, str]]:
    """Best documents first: the higher mean score, then the lower QID number."""
    return (-document_score(candidate.scores), qid_key(candidate.qid))


def dropped(candidate: Candidate, reason: str, *, group: str = "", category: int = 0) -> Decision:
    """A decision that keeps nothing."""
    return Decision(
        candidate.qid, False, reason, group=group, category=category, gender=candidate.gender
    )


def kept(candidate: Candidate, n: int, *, group: str = "", category: int = 0) -> Decision:
    """A decision keeping the first ``n`` tuples (``kept_cut`` when that is not all of them)."""
    if not 1 <= n <= len(candidate.scores):
        raise ValueError(f"{candidate.qid}: cannot keep {n} of {len(candidate.scores)} tuples")
    reason = KEPT if n == len(candidate.scores) else KEPT_CUT
    return Decision(
        candidate.qid,
        True,
        reason,
        tuple(range(n)),
        group=group,
        category=category,
        gender=candidate.gender,
    )


def summarise(decisions: Sequence[Decision]) -> dict[str, Any]:
    """Counts for the manifest and the statistics, all from the decisions alone.

    ``{"reasons": {reason: people}, "kept_people": {gender: n}, "kept_sentences": {gender: n},
    "groups": {group: {"people": {gender: n}, "sentences": {gender: n}}}}``; ``groups`` lists
    the occupation groups with at least one kept person (``occgen`` only). Keys are sorted.
    """
    reasons: Counter[str] = Counter(d.reason for d in decisions)
    people: Counter[str] = Counter()
    sentences: Counter[str] = Counter()
    groups: dict[str, dict[str, Counter[str]]] = {}
    for d in decisions:
        if not d.kept:
            continue
        people[d.gender] += 1
        sentences[d.gender] += len(d.kept_indices)
        if d.group:
            counts = groups.setdefault(d.group, {"people": Counter(), "sentences": Counter()})
            counts["people"][d.gender] += 1
            counts["sentences"][d.gender] += len(d.kept_indices)
    return {
        "reasons": _sorted(reasons),
        "kept_people": _sorted(people),
        "kept_sentences": _sorted(sentences),
        "groups": {
            g: {"people": _sorted(c["people"]), "sentences": _sorted(c["sentences"])}
            for g, c in sorted(groups.items())
        },
    }


def _sorted(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items()))
