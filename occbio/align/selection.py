"""Which mined tuples are kept: the acceptance rule and the length filter, applied after mining.

* :func:`acceptance`: the threshold and cosine floor (configured, else the encoder's own for
  the scope and margin);
* :func:`length_factors`: the per-language length factors (configured over estimated);
* :func:`reject_reason`: why one tuple is not kept; :func:`select_tuples`: the kept ones,
  counted.

Mining keeps every tuple with its scores, so a new threshold re-reads them here and encodes
nothing. The rule and the length checks themselves are :mod:`occbio.align.filters`'s; this
module applies them to :class:`~occbio.align.aligned_tuples.AlignedTuple` under an
:class:`~occbio.config.AlignConfig`. Kept apart from the mining in :mod:`occbio.align.pipeline`,
which re-exports every name, so they stay importable from there.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from occbio.align.aligned_tuples import AlignedTuple
from occbio.align.calibration import (
    DEFAULT_TARGET_PRECISION,
    Floor,
    PairModel,
    evidence_factors,
    floor_for_precision,
    model_for,
    tuple_probability,
)
from occbio.align.encoders import RULE_K, acceptance_for
from occbio.align.filters import Acceptance, estimate_length_factors, length_ok
from occbio.config import AlignConfig

__all__ = [
    "acceptance",
    "choose_floor",
    "evidence_factors_of",
    "length_factors",
    "mined_probabilities",
    "probability_model",
    "reject_reason",
    "select_tuples",
    "with_probability",
]

# Logged as the pipeline these functions came from: the logger users filter on stays.
log = logging.getLogger("occbio.align.pipeline")


def probability_model(cfg: AlignConfig, encoder: Any) -> PairModel | None:
    """The encoder's trained model of P(parallel) for these margin settings, if any."""
    return model_for(encoder, cfg.scope, cfg.margin, cfg.k)


def acceptance(cfg: AlignConfig, encoder: Any) -> Acceptance:
    """The configured rule, else the encoder's own: where it has a trained model and no
    threshold is configured, a target precision (the configured one, else
    :data:`~occbio.align.calibration.DEFAULT_TARGET_PRECISION`; its floor is chosen once the
    tuples are mined) or the configured ``min_prob``; else its threshold for the scope and
    margin (a ``ValueError`` when there is none either way); the cosine floor likewise."""
    default_threshold, default_min_cos = acceptance_for(encoder, cfg.scope, cfg.margin) or (
        None,
        None,
    )
    min_cos = cfg.min_cos if cfg.min_cos is not None else default_min_cos
    model = probability_model(cfg, encoder)
    for key in ("min_prob", "target_precision"):
        if getattr(cfg, key) is not None and model is None:
            raise ValueError(
                f"align.{key}: encoder {encoder.name} has no probability model for the "
                f"{cfg.scope} scope, {cfg.margin} margin and k={cfg.k}; use --threshold"
            )
    if cfg.target_precision is not None and (cfg.min_prob is not None or cfg.threshold is not None):
        other = "min_prob" if cfg.min_prob is not None else "threshold"
        raise ValueError(
            f"align.target_precision and align.{other} both set: give one (--target-precision "
            f"chooses the floor that --min-prob sets by hand)"
        )
    if cfg.threshold is None and model is not None:
        if cfg.min_prob is not None:
            return Acceptance(None, min_cos, cfg.min_prob)
        target = cfg.target_precision or DEFAULT_TARGET_PRECISION
        return Acceptance(None, min_cos, None, target)
    threshold = cfg.threshold if cfg.threshold is not None else default_threshold
    if threshold is None:
        raise ValueError(
            f"align.threshold: encoder {encoder.name} has no default threshold for the "
            f"{cfg.scope} scope with the {cfg.margin} margin; set align.threshold or pass "
            "--threshold"
        )
    if cfg.threshold is None and cfg.scope == "language" and cfg.k != RULE_K:
        log.warning(
            "align: encoder %s's default threshold was chosen with k=%d, not k=%d; check it "
            "with --explain or set --threshold",
            encoder.name,
            RULE_K,
            cfg.k,
        )
    return Acceptance(threshold, min_cos, cfg.min_prob)


def mined_probabilities(
    tuples: Iterable[AlignedTuple],
    *,
    pivot: str,
    model: PairModel,
    factors: Mapping[str, float],
) -> list[float]:
    """Each scored tuple's probability of being parallel (what a floor is chosen from)."""
    return [
        with_probability(t, pivot=pivot, model=model, factors=factors).prob or 0.0
        for t in tuples
        if t.score
    ]


def choose_floor(rule: Acceptance, probs: Sequence[float]) -> tuple[Acceptance, Floor | None]:
    """``rule`` with the probability floor of its target precision chosen from ``probs`` (the
    run's mined tuples') and what the model expects of it; ``rule`` as it is without one."""
    if rule.target_precision is None:
        return rule, None
    floor = floor_for_precision(probs, rule.target_precision)
    return replace(rule, min_prob=floor.floor), floor


def evidence_factors_of(
    tuples: Iterable[AlignedTuple], *, pivot: str, model: PairModel | None
) -> dict[str, float]:
    """The length factors the model's evidence uses (none without a model)."""
    if model is None:
        return {}
    sure = ((t.text, min(t.score.values()) if t.score else 0.0) for t in tuples)
    return evidence_factors(sure, pivot=pivot, confident=model.confident_score)


def with_probability(
    t: AlignedTuple, *, pivot: str, model: PairModel | None, factors: Mapping[str, float]
) -> AlignedTuple:
    """``t`` with its probability of being parallel and its evidence (unchanged without a
    model)."""
    if model is not None and t.score:
        prob, evidence = tuple_probability(t.text, t.score, pivot=pivot, model=model,
                                           factors=factors)  # fmt: skip
        t.prob = round(prob, 6)
        t.evidence = {lang: ev.to_dict() for lang, ev in evidence.items()}
    return t


def length_factors(
    tuples: Iterable[AlignedTuple], *, pivot: str, cfg: AlignConfig, rule: Acceptance
) -> dict[str, float]:
    """The length factors to filter with: configured ones over those estimated from the
    tuples ``rule`` accepts, when estimation is on."""
    factors = dict(cfg.length_factors)
    if cfg.length_filter and cfg.estimate_length_factors:
        accepted = (t.text for t in tuples if rule.reject_reason(t.score, t.cos, t.prob) is None)
        estimated = estimate_length_factors(accepted, pivot=pivot, unit=cfg.length_unit)
        factors = {**estimated, **factors}
    return factors


def reject_reason(
    t: AlignedTuple,
    *,
    rule: Acceptance,
    pivot: str,
    cfg: AlignConfig,
    factors: Mapping[str, float],
) -> str | None:
    """Why ``t`` is not kept (``below_threshold``, ``below_min_prob``, ``below_min_cos``,
    ``length``), or None."""
    reason = rule.reject_reason(t.score, t.cos, t.prob)
    if reason is None and cfg.length_filter:
        ok = length_ok(
            t.text,
            pivot=pivot,
            max_ratio=cfg.max_length_ratio,
            slack=cfg.length_slack,
            factors=factors,
            unit=cfg.length_unit,
        )
        reason = None if ok else "length"
    return reason


def select_tuples(
    tuples: Iterable[AlignedTuple],
    *,
    rule: Acceptance,
    pivot: str,
    cfg: AlignConfig,
    factors: Mapping[str, float],
    stats: Counter[str],
    on_drop: Any = None,
    model: PairModel | None = None,
    evidence_factors: Mapping[str, float] | None = None,
) -> Iterator[AlignedTuple]:
    """The tuples that pass ``rule`` and the length filter, counted, each with its probability
    when there is a ``model``; ``on_drop(t, reason)`` is called for every other one."""
    if rule.min_prob is not None and model is None:
        raise ValueError("a minimum probability needs the model that gives the probabilities")
    if rule.target_precision is not None and rule.min_prob is None:
        raise ValueError("a target precision's floor is chosen first (choose_floor)")
    stats["tuples_kept"] += 0  # present in the counts even when nothing passes
    for t in tuples:
        with_probability(t, pivot=pivot, model=model, factors=evidence_factors or {})
        reason = reject_reason(t, rule=rule, pivot=pivot, cfg=cfg, factors=factors)
        if reason is None:
            stats["tuples_kept"] += 1
            yield t
        else:
            stats[f"tuples_dropped_{reason}"] += 1
            if on_drop is not None:
                on_drop(t, reason)
