"""Length-ratio filter of aligned tuples: translations have comparable lengths.

A tuple is dropped when any of its sentences is more than ``max_ratio`` times as long as
another (1.2: "more than 20 % longer"). Lengths are counted in words for scripts written with
spaces and in characters for scripts without (``chars`` counts characters everywhere), then
divided by a per-language factor so that languages that are systematically longer or shorter
(Spanish vs English words, Japanese characters vs English words) compare fairly. Factors come
from the configuration or are estimated from the data (:func:`estimate_length_factors`).
Pure logic.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from typing import Literal

__all__ = [
    "NO_SPACE_LANGS",
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
    max_ratio: float = 1.2,
    factors: Mapping[str, float] | None = None,
    unit: LengthUnit = "auto",
) -> bool:
    """True when no sentence of the tuple is more than ``max_ratio`` times as long as another.

    ``texts`` maps language to sentence. An empty sentence never passes (unless all are empty,
    which is no translation either); a tuple of one sentence always passes.
    """
    if max_ratio < 1:
        raise ValueError(f"max_ratio must be >= 1, got {max_ratio}")
    factors = factors or {}
    lengths = [
        text_length(text, lang, unit) / factors.get(lang, 1.0) for lang, text in texts.items()
    ]
    if len(lengths) < 2:
        return True
    shortest, longest = min(lengths), max(lengths)
    if shortest <= 0:
        return False
    return longest <= shortest * max_ratio


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
