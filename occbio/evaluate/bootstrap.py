"""Bootstrap over documents (a mined test set is document-level: its segments are not
independent), stratified so each subset keeps its size, reproducible from a seed.

A resample is a row of counts over documents (how often each was drawn); a subset's statistic
in every resample is one matrix product of those counts with the documents' sufficient
statistics, so a thousand resamples cost little more than one score. Pure logic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["interval", "resample_weights", "two_sided_p"]


def resample_weights(strata: Sequence[str], resamples: int, seed: int) -> np.ndarray:
    """(resamples x documents) counts: in each row, the documents of each stratum are drawn
    with replacement as many times as the stratum has documents."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(strata, dtype=object)
    weights = np.zeros((resamples, len(labels)), dtype=np.int32)
    for stratum in sorted(set(strata)):
        idx = np.flatnonzero(labels == stratum)
        weights[:, idx] = rng.multinomial(len(idx), np.full(len(idx), 1.0 / len(idx)), resamples)
    return weights


def interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of the bootstrap ``samples`` (NaN resamples, where a subset
    drew nothing to score, are left out)."""
    finite = samples[np.isfinite(samples)]
    if not finite.size:
        return float("nan"), float("nan")
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return float(low), float(high)


def two_sided_p(differences: np.ndarray) -> float:
    """How often the bootstrap differences fall on the other side of zero, doubled: the
    bootstrap's two-sided p-value for "no difference" (1.0 when every difference is 0)."""
    finite = differences[np.isfinite(differences)]
    if not finite.size:
        return float("nan")
    below = np.mean(finite <= 0)
    above = np.mean(finite >= 0)
    return float(min(1.0, 2 * min(below, above)))
