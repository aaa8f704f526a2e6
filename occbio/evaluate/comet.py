"""COMET scores from a local model directory (``--comet-model DIR``), for users who have one.

The loading code is Unbabel COMET's own (``comet.load_from_checkpoint``); nothing is
downloaded. Not measured here: this machine has neither the package's weights nor a GPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["CometError", "comet_scores"]


class CometError(ValueError):
    """COMET cannot run as asked (one line)."""


def _checkpoint(model: Path) -> Path:
    """``DIR/checkpoints/model.ckpt`` (the layout ``comet`` downloads), or the file given."""
    for candidate in (model / "checkpoints" / "model.ckpt", model):
        if candidate.is_file():
            return candidate
    raise CometError(
        f"{model} holds no COMET checkpoint (expected {model}/checkpoints/model.ckpt, the layout "
        "of a downloaded model such as Unbabel/wmt22-comet-da)"
    )


def comet_scores(
    model: Path,
    sources: Sequence[str],
    hypotheses: Sequence[str],
    references: Sequence[str],
    *,
    batch_size: int = 16,
    gpus: int = 0,
) -> np.ndarray:
    """One COMET score per segment."""
    ckpt = _checkpoint(Path(model))
    try:
        from comet import load_from_checkpoint
    except ImportError:
        raise CometError(
            "--comet-model needs Unbabel's COMET: pip install unbabel-comet (and torch)"
        ) from None
    model_ = load_from_checkpoint(str(ckpt))
    rows = [
        {"src": s, "mt": h, "ref": r}
        for s, h, r in zip(sources, hypotheses, references, strict=True)
    ]
    out = model_.predict(rows, batch_size=batch_size, gpus=gpus, progress_bar=False)
    return np.asarray(out.scores, dtype=float)
