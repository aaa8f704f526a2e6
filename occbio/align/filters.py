"""Which mined tuples are kept: the acceptance rule and the length-ratio filter.

Acceptance (:class:`Acceptance`): the tuple's probability of being parallel reaches
``min_prob`` (the default where the encoder has a trained model), or every non-pivot language's
margin score reaches the threshold; when a floor is set, every cosine reaches it too.

Length: translations have comparable lengths. The pivot sentence is compared with each other
language's sentence in turn (never the whole tuple's longest against its shortest, which drops
true 4-way tuples for the spread of three languages' lengths); a pair fails when the longer is
more than ``max_ratio`` times the shorter *and* longer by more than ``slack`` units (a short
sentence's length varies more in relative terms). Lengths are counted in words for scripts
written with spaces and in characters for scripts without (``chars`` counts characters
everywhere), then divided by a per-language factor so that languages that are systematically
longer or shorter (Spanish vs English words, Japanese characters vs English words) compare
fairly. Factors come from the configuration or are estimated from the data
(:func:`estimate_length_factors`). Pure logic.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "NO_SPACE_LANGS",
    "Acceptance",
    "LengthUnit",
    "estimate_length_factors",
    "length_ok",
    "text_length",
]

#: Languages whose script does not separate words with spaces: their length is in characters.
NO_SPACE_LANGS = frozenset("zh zh-yue zh-classical wuu gan hak cdo ja th lo km my bo dz".split())

LengthUnit = Literal["auto", "chars", "words"]


def text_length(text: str, lang: str, unit: LengthUnit = "auto") -> int:
    """Length of ``text``: words, or characters (no spaces) where words are not spaced."""
    if unit == "chars" or (unit == "auto" and lang in NO_SPACE_LANGS):
        # str.split() splits on exactly the characters str.isspace() is true of, in C
        return len("".join(text.split()))
    if unit not in ("auto", "words"):
        raise ValueError(f"unknown length unit {unit!r}: expected auto, chars or words")
    return len(text.split())


def length_ok(
    texts: Mapping[str, str],
    *,
    pivot: str,
    max_ratio: float = 1.5,
    slack: float = 0,
    factors: Mapping[str, float] | None = None,
    unit: LengthUnit = "auto",
) -> bool:
    """True when the pivot sentence and each other sentence of the tuple have comparable
    lengths (see the module docstring). An empty sentence against a non-empty one passes only
    within ``slack``; a tuple of the pivot alone always passes."""
    if max_ratio < 1:
        raise ValueError(f"max_ratio must be >= 1, got {max_ratio}")
    if slack < 0:
        raise ValueError(f"slack must be >= 0, got {slack}")
    factors = factors or {}

    def length(lang: str) -> float:
        return text_length(texts[lang], lang, unit) / factors.get(lang, 1.0)

    if pivot not in texts:
        raise ValueError(f"the tuple has no pivot ({pivot}) sentence")
    base = length(pivot)
    for lang in texts:
        if lang == pivot:
            continue
        short, long_ = sorted((base, length(lang)))
        if long_ - short > slack and long_ > short * max_ratio:
            return False
    return True


@dataclass(frozen=True)
class Acceptance:
    """The rule a mined tuple must pass: every non-pivot language's margin score at least
    ``threshold`` (when set), the tuple's probability of being parallel at least ``min_prob``
    (when set; :mod:`occbio.align.calibration`) and, when ``min_cos`` is set, every cosine at
    least ``min_cos``. With ``target_precision``, ``min_prob`` is the floor chosen for it from
    the run's mined tuples (None until it is chosen)."""

    threshold: float | None
    min_cos: float | None = None
    min_prob: float | None = None
    target_precision: float | None = None

    def reject_reason(
        self, score: Mapping[str, float], cos: Mapping[str, float], prob: float | None = None
    ) -> str | None:
        """``None`` when the tuple is accepted, else why not (a counter name)."""
        if self.threshold is not None and score and min(score.values()) < self.threshold:
            return "below_threshold"
        if self.min_prob is not None and prob is not None and prob < self.min_prob:
            return "below_min_prob"
        if self.min_cos is not None and cos and min(cos.values()) < self.min_cos:
            return "below_min_cos"
        return None

    def describe(self) -> str:
        """The rule in words, for logs and ``--explain``."""
        parts = []
        if self.target_precision is not None:
            floor = "" if self.min_prob is None else f", P(parallel) >= {self.min_prob:.4g}"
            parts.append(f"expected precision >= {self.target_precision:g}{floor}")
        elif self.min_prob is not None:
            parts.append(f"P(parallel) >= {self.min_prob:.2f}")
        if self.threshold is not None:
            parts.append(f"every score >= {self.threshold:.3f}")
        if self.min_cos is not None:
            parts.append(f"every cosine >= {self.min_cos:.2f}")
        return " and ".join(parts)


def estimate_length_factors(
    tuples: Iterable[Mapping[str, str]], *, pivot: str, unit: LengthUnit = "auto"
) -> dict[str, float]:
    """Per-language length factors relative to the pivot: the median of len(lang)/len(pivot)
    over aligned tuples (the pivot's factor is 1). Languages never seen get no factor."""
    ratios: dict[str, list[float]] = {}
    for texts in tuples:
        base = text_length(texts.get(pivot, ""), pivot, unit)
        if base <= 0:
            continue
        for lang, text in texts.items():
            if lang != pivot:
                ratios.setdefault(lang, []).append(text_length(text, lang, unit) / base)
    factors = {lang: statistics.median(r) for lang, r in ratios.items() if r}
    factors[pivot] = 1.0
    return {lang: f for lang, f in factors.items() if f > 0}
