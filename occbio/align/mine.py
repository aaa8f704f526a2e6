"""Mining one document in several languages: pivot–X pairs, intersected on the pivot.

For every language X other than the pivot, :func:`~occbio.align.margin.mine_pairs` aligns the
pivot's sentences with X's. A pivot sentence is kept when it is aligned in every language;
the tuple holds each language's sentence index and each non-pivot language's margin score.
Sentences are referred to by index, never by text. Pure logic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from occbio.align.margin import Margin, Mode, mine_pairs

__all__ = ["MinedTuple", "mine_document"]


@dataclass(frozen=True, slots=True)
class MinedTuple:
    """Sentence indices per language and margin scores per non-pivot language."""

    idx: dict[str, int]
    score: dict[str, float]


def mine_document(
    vectors: Mapping[str, np.ndarray],
    *,
    pivot: str,
    langs: Sequence[str],
    k: int = 4,
    margin: Margin = "ratio",
    mode: Mode = "max",
    threshold: float,
) -> list[MinedTuple]:
    """Tuples of sentences aligned in every one of ``langs``, in the pivot's order.

    A language missing from ``vectors`` (or with no sentences) yields no tuple at all: a
    tuple must hold a sentence of every requested language.
    """
    if pivot not in langs:
        raise ValueError(f"pivot {pivot!r} is not one of the languages {list(langs)}")
    others = [lang for lang in langs if lang != pivot]
    if any(len(vectors.get(lang, ())) == 0 for lang in langs):
        return []
    aligned: dict[str, dict[int, tuple[int, float]]] = {}
    for lang in others:
        pairs = mine_pairs(
            vectors[pivot], vectors[lang], k=k, margin=margin, mode=mode, threshold=threshold
        )
        best: dict[int, tuple[int, float]] = {}
        for src, trg, score in pairs:  # bwd mode may pair one pivot sentence several times
            if src not in best or score > best[src][1]:
                best[src] = (trg, score)
        aligned[lang] = best
    if not others:  # one language: every sentence is its own tuple
        return [MinedTuple({pivot: i}, {}) for i in range(len(vectors[pivot]))]
    common = set.intersection(*(set(a) for a in aligned.values()))
    return [
        MinedTuple(
            idx={pivot: i, **{lang: aligned[lang][i][0] for lang in others}},
            score={lang: aligned[lang][i][1] for lang in others},
        )
        for i in sorted(common)
    ]
