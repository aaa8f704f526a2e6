"""The probability model corrected by a run's own human review (``occbio review import``).

The shipped model (:mod:`occbio.align.calibration`) was trained on news; a run's biographies,
languages and dumps can make its probabilities too high or too low. Reviewers' verdicts on the run's
own pairs correct it the way Platt scaling does: the model's log-odds ``z`` (held within
±:data:`Z_LIMIT`) become ``a + b·z``, fitted to the verdicts (parallel or not) by logistic
regression with the shipped model as the prior (a Gaussian around ``a = 0, b = 1`` of weight
:data:`PRIOR`), so a handful of verdicts moves it a little and hundreds move it where they point.
One fit per target language where it has :data:`MIN_JUDGED` verdicts, and one over every language
(``*``) for the others. Plain data in, plain data out; nothing here reads a file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["MIN_JUDGED", "POOLED", "PRIOR", "Recalibration", "fit_recalibration", "recalibrate"]

#: Verdicts a language needs for a fit of its own (else the pooled fit applies to it).
MIN_JUDGED = 30
#: The prior's weight: chosen on simulated reviews of MT-GenEval pairs (10 kept the model too
#: sure where reviewers found 5 % of its surest pairs wrong, 0.1 let 200 verdicts overshoot;
#: benchmarks/target_precision.py --simulate, docs/alignment.md).
PRIOR = 1.0
#: The key of the fit over every language.
POOLED = "*"
#: Log-odds beyond ±this (P 0.99995) count as this: most mined pairs lie far out (|z| of 10 to
#: 50), and a straight line through them would let the farthest decide the slope; the
#: reviewers' share of parallel pairs among the surest is what the top of the line must meet.
Z_LIMIT = 10.0


@dataclass(frozen=True)
class Recalibration:
    """``a + b·z`` on the shipped model's log-odds ``z``, fitted on ``judged`` verdicts of
    which ``parallel`` were parallel."""

    a: float
    b: float
    judged: int
    parallel: int

    def log_odds(self, z: float) -> float:
        return self.a + self.b * min(max(z, -Z_LIMIT), Z_LIMIT)


def fit_recalibration(
    z: Sequence[float], parallel: Sequence[bool], *, prior: float = PRIOR
) -> Recalibration:
    """The maximum a posteriori ``(a, b)`` of ``P(parallel) = σ(a + b·z)`` under a Gaussian
    prior around ``(0, 1)`` of weight ``prior`` (Newton's method; the prior keeps it defined
    when every verdict agrees)."""
    x = np.column_stack([np.ones(len(z)), np.clip(np.asarray(z, float), -Z_LIMIT, Z_LIMIT)])
    y = np.asarray(parallel, float)
    w0 = np.array([0.0, 1.0])

    def loss(w: np.ndarray) -> float:  # the negative log posterior
        m = x @ w
        return float(np.sum(np.logaddexp(0.0, m) - y * m) + prior / 2 * np.sum((w - w0) ** 2))

    w = w0.copy()
    for _ in range(200):  # Newton's method, its step halved until the loss falls
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -700, 700)))
        grad = x.T @ (p - y) + prior * (w - w0)
        hess = (x * (p * (1 - p))[:, None]).T @ x + prior * np.eye(2)
        step = np.linalg.solve(hess, grad)
        before, t = loss(w), 1.0
        while t > 1e-8 and loss(w - t * step) > before:
            t /= 2
        w = w - t * step
        if np.abs(t * step).max() < 1e-10:
            break
    return Recalibration(float(w[0]), float(w[1]), len(y), int(y.sum()))


def recalibrate(
    verdicts: Sequence[tuple[str, float, bool]],
    *,
    min_judged: int = MIN_JUDGED,
    prior: float = PRIOR,
) -> dict[str, Recalibration]:
    """The fits for ``(target language, z, parallel)`` verdicts: each language with at least
    ``min_judged`` verdicts, and :data:`POOLED` over all of them when they reach it."""
    fits: dict[str, Recalibration] = {}
    if len(verdicts) >= min_judged:
        fits[POOLED] = fit_recalibration(
            [v[1] for v in verdicts], [v[2] for v in verdicts], prior=prior
        )
    for lang in sorted({v[0] for v in verdicts}):
        mine = [v for v in verdicts if v[0] == lang]
        if len(mine) >= min_judged:
            fits[lang] = fit_recalibration([v[1] for v in mine], [v[2] for v in mine], prior=prior)
    return fits


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
