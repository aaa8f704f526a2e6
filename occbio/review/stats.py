"""The statistics of a human review, on plain data: an item's verdict when annotators disagree,
precision with its Wilson interval, Cohen's kappa (per pair of annotators, bounded: see
:func:`agreement`) and the score threshold that reaches a precision.

Verdicts are the strings of :data:`VERDICTS`. Nothing here reads a file.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from occbio.report.chart import wilson_interval

__all__ = [
    "NOT_PARALLEL",
    "PARALLEL",
    "PARTIAL",
    "VERDICTS",
    "Tally",
    "Threshold",
    "agreement",
    "cohen_kappa",
    "majority",
    "raw_agreement",
    "score_threshold",
    "tally",
]

PARALLEL, PARTIAL, NOT_PARALLEL = "parallel", "partial", "not_parallel"
VERDICTS = (PARALLEL, PARTIAL, NOT_PARALLEL)


def majority(verdicts: Sequence[str]) -> str:
    """The verdict most annotators gave; a tie is not parallel (a doubtful segment is not kept
    as a translation)."""
    if not verdicts:
        raise ValueError("no verdict to merge")
    (first, n), *rest = Counter(verdicts).most_common()
    return NOT_PARALLEL if rest and rest[0][1] == n else first


def _interval(count: int, total: int) -> list[float] | None:
    return list(wilson_interval(count, total)) if total else None


@dataclass(frozen=True)
class Tally:
    """The verdicts of a group of items, with precision (parallel / judged) and the looser
    precision (parallel or partial / judged), each with its 95 % Wilson interval."""

    judged: int
    parallel: int
    partial: int
    not_parallel: int

    @property
    def precision(self) -> float | None:
        return self.parallel / self.judged if self.judged else None

    @property
    def loose(self) -> float | None:
        return (self.parallel + self.partial) / self.judged if self.judged else None

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "precision": self.precision,
            "interval": _interval(self.parallel, self.judged),
            "parallel_or_partial": self.loose,
            "parallel_or_partial_interval": _interval(self.parallel + self.partial, self.judged),
        }


def tally(verdicts: Sequence[str]) -> Tally:
    c = Counter(verdicts)
    return Tally(len(verdicts), c[PARALLEL], c[PARTIAL], c[NOT_PARALLEL])


def raw_agreement(a: Sequence[str], b: Sequence[str]) -> float | None:
    """The share of items two annotators gave the same verdict (``a[i]``, ``b[i]``: one item)."""
    _check_paired(a, b)
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a) if a else None


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa over the three verdicts: (p_o - p_e) / (1 - p_e), p_e from each annotator's
    own share of each verdict. ``None`` when undefined: no item, or both annotators gave one and
    the same verdict to every item (p_e = 1)."""
    _check_paired(a, b)
    n = len(a)
    if not n:
        return None
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[v] * cb[v] for v in VERDICTS) / (n * n)
    if expected == 1.0:
        return None
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    return (observed - expected) / (1.0 - expected)


#: Agreement is measured between two annotators who judged at least this many of the same items
#: (a kappa on fewer says little), for the annotators who judged the most items
#: (:data:`MAX_ANNOTATORS` at most: at most ~5,000 pairs compared), and the
#: :data:`PAIRS_SHOWN` pairs sharing the most items are listed; the rest is summed up.
MIN_SHARED = 20
MAX_ANNOTATORS = 100
PAIRS_SHOWN = 20


def agreement(
    judged: Mapping[str, Mapping[str, str]],
    *,
    min_shared: int = MIN_SHARED,
    max_annotators: int = MAX_ANNOTATORS,
    shown: int = PAIRS_SHOWN,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Agreement between annotators (``judged``: annotator -> {item: verdict}, the items of
    one language pair): the ``shown`` pairs sharing the most items (at least ``min_shared``),
    each with its items, raw agreement and Cohen's kappa, and a summary of every pair compared
    (how many, mean and median kappa, what was left out and why). Only the ``max_annotators``
    annotators with the most items (and at least ``min_shared``) are compared, so the work is
    bounded whatever the number of annotators: one annotator per row of a CSV is not quadratic.
    """
    eligible = sorted((a for a in judged if len(judged[a]) >= min_shared),
                      key=lambda a: (-len(judged[a]), a))  # fmt: skip
    compared = eligible[:max_annotators]
    pairs, fewer = [], 0
    for i, a in enumerate(compared):
        for b in compared[i + 1 :]:
            both = judged[a].keys() & judged[b].keys()
            if len(both) < min_shared:
                fewer += bool(both)
                continue
            order = sorted(both)
            va = [judged[a][k] for k in order]
            vb = [judged[b][k] for k in order]
            pairs.append(
                {
                    "annotators": sorted([a, b]),
                    "items": len(order),
                    "agreement": raw_agreement(va, vb),
                    "kappa": cohen_kappa(va, vb),
                }
            )
    pairs.sort(key=lambda r: (-r["items"], r["annotators"]))
    kappas = [r["kappa"] for r in pairs if r["kappa"] is not None]
    summary = {
        "annotators": len(judged),
        "annotators_compared": len(compared),
        "pairs": len(pairs),
        "pairs_shown": min(shown, len(pairs)),
        "mean_kappa": statistics.fmean(kappas) if kappas else None,
        "median_kappa": statistics.median(kappas) if kappas else None,
        "mean_agreement": statistics.fmean(r["agreement"] for r in pairs) if pairs else None,
        "min_shared": min_shared,
        # left out: pairs of compared annotators sharing 1 to min_shared - 1 items ...
        "pairs_sharing_fewer": fewer,
        # ... annotators with fewer than min_shared items (they cannot share that many) ...
        "annotators_with_fewer_items": len(judged) - len(eligible),
        # ... and those beyond the max_annotators with the most items
        "annotators_not_compared": len(eligible) - len(compared),
    }
    return pairs[:shown], summary


def _check_paired(a: Sequence[str], b: Sequence[str]) -> None:
    if len(a) != len(b):
        raise ValueError(f"{len(a)} verdicts against {len(b)}: they must pair item by item")


@dataclass(frozen=True)
class Threshold:
    """The lowest score whose kept items (score >= it) reach the target precision."""

    score: float
    kept: int
    parallel: int
    judged: int

    @property
    def share(self) -> float:
        return self.kept / self.judged

    @property
    def precision(self) -> float:
        return self.parallel / self.kept

    def to_dict(self) -> dict[str, Any]:
        return {
            "threshold": self.score,
            "kept": self.kept,
            "judged": self.judged,
            "share": self.share,
            "precision": self.precision,
            "interval": _interval(self.parallel, self.kept),
        }


def score_threshold(scored: Sequence[tuple[float, bool]], target: float) -> Threshold | None:
    """The lowest threshold among the judged items' scores at which the items it keeps (score
    at or above it) are at least ``target`` parallel; ``None`` when none is. ``scored``: each
    judged item's alignment score and whether its verdict is parallel."""
    ordered = sorted(scored, reverse=True)
    parallel = 0
    best = None
    for i, (score, ok) in enumerate(ordered):
        kept = i + 1
        parallel += ok
        tied_below = i + 1 < len(ordered) and ordered[i + 1][0] == score
        if not tied_below and parallel / kept >= target:
            best = Threshold(score, kept, parallel, len(ordered))
    return best
