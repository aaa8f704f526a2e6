"""A run's own calibration, from its review: written by ``occbio review import``, read by the
align stage (``occbio write``, ``occbio align --target-precision``, ``occbio mine``).

``review/calibration.json`` holds each judged pair's log-odds under the shipped model and its
verdict, the model they were computed with (a fingerprint: another model makes the file stale)
and the fits of :func:`occbio.align.recalibration.recalibrate`. The align stage then gives every
tuple the corrected probability, chooses the floor with it, and records in the manifest how the
judged pairs above that floor fared (their observed precision and its Wilson interval), which
the data card reports beside the expected precision. Remove the file to go back to the shipped
model.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from occbio.align.calibration import PairModel, model_for
from occbio.align.evidence import pair_evidence
from occbio.align.recalibration import POOLED, Recalibration, recalibrate, sigmoid
from occbio.report.chart import wilson_interval
from occbio.review.items import Item
from occbio.review.stats import PARALLEL
from occbio.run import atomic_write, fingerprint

__all__ = ["CALIBRATION_FILE", "judged_above", "reviewed_model", "write_calibration"]

log = logging.getLogger(__name__)

CALIBRATION_FILE = "review/calibration.json"
_FORMAT = "occbio_review_calibration"
#: Larger than this is not a file review import wrote (its judgments are capped far below).
_MAX_BYTES = 256 * 2**20


def _base_model(align: Mapping[str, Any]) -> PairModel | None:
    """The shipped model the align stage of this run used (from its manifest record)."""
    mining = align.get("settings", {}).get("mining", {})
    try:
        return model_for(
            str(align["encoder"]), str(mining["scope"]), str(mining["margin"]), int(mining["k"])
        )
    except (KeyError, TypeError, ValueError):
        return None


def write_calibration(
    run_dir: Path, align: Mapping[str, Any], items: Mapping[str, Item], verdicts: Mapping[str, str]
) -> dict[str, Any] | None:
    """Write ``review/calibration.json`` from the judged items; what it says for the report
    (``None`` when the run's alignment has no probability model: nothing to correct)."""
    base = _base_model(align)
    if base is None:
        return None
    factors = align.get("evidence_factors") or {}
    points = []
    for item_id, verdict in sorted(verdicts.items()):
        item = items[item_id]
        if item.score is None:
            continue
        ev = pair_evidence(item.src, item.tgt, float(factors.get(item.tgt_lang, 1.0)))
        z = base.log_odds(item.score, ev)
        points.append((item.tgt_lang, round(z, 6), verdict == PARALLEL))
    fits = recalibrate(points)
    data = {
        _FORMAT: 1,
        "model": fingerprint(base.to_dict()),
        "verdicts": [list(p) for p in points],
        "fits": {lang: asdict(fit) for lang, fit in fits.items()},
    }
    with atomic_write(Path(run_dir) / CALIBRATION_FILE) as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.write("\n")
    return {
        "judged": len(points),
        "fits": {
            lang: {"a": round(f.a, 4), "b": round(f.b, 4), "judged": f.judged}
            for lang, f in fits.items()
        },
    }


def reviewed_model(
    run_dir: Path, model: PairModel | None
) -> tuple[PairModel | None, list[tuple[str, float, bool]]]:
    """``model`` corrected by the run's review calibration when there is one made with it, and
    the judged verdicts ``(language, log-odds, parallel)``; else ``model`` and no verdicts."""
    path = Path(run_dir) / CALIBRATION_FILE
    if model is None or not path.is_file():
        return model, []
    try:
        if path.stat().st_size > _MAX_BYTES:  # review import writes ~40 bytes a verdict
            raise ValueError("far larger than review import writes")
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get(_FORMAT) != 1:
            raise ValueError("not a review calibration")
        fits = {
            str(lang): Recalibration(float(f["a"]), float(f["b"]), int(f["judged"]),
                                     int(f["parallel"]))
            for lang, f in data["fits"].items()
        }  # fmt: skip
        verdicts = [(str(lang), float(z), bool(y)) for lang, z, y in data["verdicts"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        log.warning(
            "%s is damaged: the shipped model decides; `occbio review import` writes it again",
            path,
        )
        return model, []
    if data.get("model") != fingerprint(model.to_dict()):
        log.warning(
            "%s was made with another probability model: the shipped model decides; import "
            "the judgments again to correct this one",
            path,
        )
        return model, []
    if not fits:
        return model, verdicts
    return replace(model, recalibration=fits), verdicts


def judged_above(
    model: PairModel, verdicts: list[tuple[str, float, bool]], floor: float | None
) -> dict[str, Any]:
    """How the judged pairs whose corrected probability is at least ``floor`` fared: their
    number, how many were parallel, and the 95 % Wilson interval of that share."""
    kept = []
    for lang, z, parallel in verdicts:
        fit = model.recalibration.get(lang) or model.recalibration.get(POOLED)
        p = sigmoid(fit.log_odds(z) if fit is not None else z)
        if floor is None or p >= floor:
            kept.append(parallel)
    hits = sum(kept)
    low, high = wilson_interval(hits, len(kept))
    return {
        "judged": len(verdicts),
        "judged_kept": len(kept),
        "judged_kept_parallel": hits,
        "interval": [round(low, 4), round(high, 4)] if kept else None,
    }
