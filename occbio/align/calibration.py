"""P(parallel) for a mined pair and tuple: a small logistic model over the margin score and the
evidence translations share (:mod:`occbio.align.evidence`), trained on one source of real
translations and checked on another (``benchmarks/align_calibration.py``).

A tuple is as likely to be right as its weakest pair: its probability is the smallest of its
pivot-X pairs'. Models are per encoder, margin scope, margin and k, like the acceptance rules,
and live in ``occbio/data/align/calibration.json``; an encoder without one keeps its threshold
rule and its tuples carry no probability.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from occbio.align.evidence import Evidence, pair_evidence
from occbio.align.filters import estimate_length_factors
from occbio.align.recalibration import POOLED, Recalibration, sigmoid

__all__ = [
    "FEATURES",
    "DEFAULT_TARGET_PRECISION",
    "Floor",
    "PairModel",
    "evidence_factors",
    "features",
    "fit_logistic",
    "floor_for_precision",
    "precision_curve",
    "model_for",
    "tuple_probability",
]

#: the model's inputs, in order
FEATURES = ("score", "numbers_shared", "numbers_unshared", "no_number_shared", "length_deviation")


def features(score: float, ev: Evidence) -> list[float]:
    """The model's inputs for a pair with margin ``score`` and evidence ``ev``."""
    unshared = ev.numbers_total - ev.numbers_shared
    none_shared = float(ev.numbers_total > 0 and ev.numbers_shared == 0)
    return [score - 1.0, ev.numbers_shared, unshared, none_shared, ev.length_deviation]


@dataclass(frozen=True)
class PairModel:
    """Logistic regression on standardised :data:`FEATURES` (intercept first)."""

    weights: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    #: the acceptance rule chosen with it: a tuple's probability at least this
    min_prob: float
    #: length factors for the evidence come from tuples whose margin is at least this
    confident_score: float
    trained_on: str = ""
    features: tuple[str, ...] = field(default=FEATURES)
    #: a run's review corrections (:mod:`occbio.align.recalibration`): target language (or
    #: ``*`` for the others) -> the fit of the log-odds on the reviewers' verdicts
    recalibration: Mapping[str, Recalibration] = field(default_factory=dict, hash=False)

    def log_odds(self, score: float, ev: Evidence) -> float:
        """The trained model's log-odds of the pair being parallel (no review correction)."""
        x = np.array([1.0, *features(score, ev)])
        return float(((x - np.array(self.mean)) / np.array(self.scale)) @ np.array(self.weights))

    def probability(self, score: float, ev: Evidence, lang: str | None = None) -> float:
        """P(parallel) of a pair whose other language is ``lang``: corrected by the run's review
        where it has a fit for ``lang`` (or one over every language)."""
        z = self.log_odds(score, ev)
        fit = self.recalibration.get(lang or POOLED) or self.recalibration.get(POOLED)
        return sigmoid(fit.log_odds(z) if fit is not None else z)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.recalibration:
            d.pop("recalibration")  # the shipped model as it always was
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PairModel:
        if tuple(d["features"]) != FEATURES:
            raise ValueError(f"a calibration model for features {d['features']}, not {FEATURES}")
        return cls(
            tuple(d["weights"]),
            tuple(d["mean"]),
            tuple(d["scale"]),
            float(d["min_prob"]),
            float(d["confident_score"]),
            str(d.get("trained_on", "")),
        )


#: What ``mine`` and ``align`` keep by default where the encoder has a model: a test set's
#: references must be translations (a wrong one is a scoring error in every system's score),
#: and on held-out biographies it kept 99.5 % of the true tuples (docs/alignment.md).
DEFAULT_TARGET_PRECISION = 0.98


@dataclass(frozen=True)
class Floor:
    """The probability floor chosen for a target precision, and what the model expects of it:
    the mean probability of what it keeps (``expected_precision``) and their sum over the sum
    of all (``expected_recall``: among the tuples mining retrieved)."""

    floor: float
    expected_precision: float | None
    expected_recall: float | None
    kept: int


def floor_for_precision(probs: Iterable[float], target: float) -> Floor:
    """The floor on P(parallel) whose kept tuples (at least the floor, ties kept together)
    have an expected precision (mean probability) of at least ``target`` and, among such
    floors, the best expected F1 (recall: the kept tuples' share of the summed probability).
    A mean alone would let a tuple of probability 0.01 in behind a hundred certain ones; the
    F1 keeps a tuple only while it is likelier right than the corpus is short of recall. With
    no floor reaching the target, 1.0 and nothing kept. NaN probabilities (not scored) are
    left out."""
    if not 0.0 < target < 1.0:
        raise ValueError(f"target precision {target}: give a number between 0 and 1")
    p = np.asarray(probs if isinstance(probs, np.ndarray) else list(probs), float)
    p = np.sort(p[~np.isnan(p)])[::-1]
    total = float(p.sum())
    mass = np.cumsum(p)
    n = np.arange(1, len(p) + 1)
    precision = mass / np.maximum(n, 1)
    recall = mass / total if total > 0 else np.zeros(len(p))
    f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    boundary = np.ones(len(p), bool)  # a cut after tuple i: only where the next is lower (ties)
    boundary[:-1] = p[1:] < p[:-1]
    ok = np.flatnonzero(boundary & (precision >= target - 1e-12))
    if len(ok):
        best = int(ok[np.argmax(f1[ok])])  # the first of equal F1s: the higher floor
        floor, kept, kept_mass = float(p[best]), best + 1, float(mass[best])
    else:  # nothing reaches it (not even a certain tuple, which would): keep nothing
        floor, kept, kept_mass = 1.0, 0, 0.0
    return Floor(
        floor=floor,
        expected_precision=round(kept_mass / kept, 4) if kept else None,
        expected_recall=round(kept_mass / total, 4) if total > 0 else None,
        kept=kept,
    )


#: The targets ``occbio stats`` shows the run's expected precision and recall at.
CURVE_TARGETS = (0.80, 0.90, 0.95, 0.98, 0.99, 0.995)


def precision_curve(probs: Sequence[float]) -> list[dict[str, Any]]:
    """The floor, expected precision and recall and tuples kept at each of
    :data:`CURVE_TARGETS`: the model's precision/recall curve on these tuples."""
    return [{"target": t, **asdict(floor_for_precision(probs, t))} for t in CURVE_TARGETS]


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float = 1e-3
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """(weights, mean, scale) of an L2-regularised logistic regression of ``y`` (0/1) on the
    rows of ``x`` by Newton's method; an intercept column is added first."""
    x1 = np.hstack([np.ones((len(x), 1)), np.asarray(x, float)])
    mean, scale = x1.mean(axis=0), x1.std(axis=0)
    mean[0], scale[0] = 0.0, 1.0
    scale[scale == 0] = 1.0
    z = (x1 - mean) / scale
    w = np.zeros(z.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-z @ w))
        grad = z.T @ (p - y) + l2 * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return tuple(map(float, w)), tuple(map(float, mean)), tuple(map(float, scale))


def evidence_factors(
    texts_and_scores: Iterable[tuple[Mapping[str, str], float]], *, pivot: str, confident: float
) -> dict[str, float]:
    """Each language's length factor against the pivot in characters, from the tuples whose
    (smallest) margin is at least ``confident``."""
    sure = (texts for texts, score in texts_and_scores if score >= confident)
    return estimate_length_factors(sure, pivot=pivot, unit="chars")


def tuple_probability(
    texts: Mapping[str, str],
    scores: Mapping[str, float],
    *,
    pivot: str,
    model: PairModel,
    factors: Mapping[str, float],
) -> tuple[float, dict[str, Evidence]]:
    """(the tuple's probability, each non-pivot language's evidence against the pivot)."""
    evidence, probs = {}, []
    for lang, score in scores.items():
        ev = pair_evidence(texts[pivot], texts[lang], factors.get(lang, 1.0))
        evidence[lang] = ev
        probs.append(model.probability(score, ev, lang))
    return (min(probs) if probs else 1.0), evidence


#: the trained models, by :func:`model_key`
MODELS_FILE = Path(__file__).resolve().parents[1] / "data" / "align" / "calibration.json"


@lru_cache(maxsize=1)
def _models() -> dict[str, Any]:
    if not MODELS_FILE.is_file():
        return {}
    return json.loads(MODELS_FILE.read_text(encoding="utf-8"))


def model_key(encoder: str, scope: str, margin: str, k: int) -> str:
    return f"{encoder}/{scope}/{margin}/k={k}"


def model_for(encoder: Any, scope: str, margin: str, k: int) -> PairModel | None:
    """The encoder's model for this margin setting, or None when none was trained."""
    d = _models().get(model_key(getattr(encoder, "name", str(encoder)), scope, margin, k))
    return PairModel.from_dict(d) if d else None


def models_with(key: str, model: PairModel | None, current: Mapping[str, Any]) -> dict:
    """``current`` with ``key``'s model replaced (the benchmark writes the file with it)."""
    out = dict(current)
    if model is None:
        out.pop(key, None)
    else:
        out[key] = model.to_dict()
    return out


def probabilities(probs: Sequence[float]) -> dict[str, float]:
    """Summary of kept tuples' probabilities for the data card: their mean is the corpus's
    expected precision."""
    arr = np.asarray(probs, float)
    return {"tuples": len(arr), "expected_precision": float(arr.mean()) if len(arr) else 1.0}
