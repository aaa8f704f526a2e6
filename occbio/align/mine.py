"""Mining one document in several languages: pivot–X pairs, intersected on the pivot.

For every language X other than the pivot, :func:`~occbio.align.margin.mine_pairs` aligns the
pivot's sentences with X's. A pivot sentence is kept when it is aligned in every language;
the tuple holds each language's sentence index and, per non-pivot language, the pair's margin
score, cosine and within-document margin. Sentences are referred to by index, never by text.
Pure logic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from occbio.align.margin import Margin, Mode, Pair, mine_pairs

__all__ = ["Denominators", "MinedTuple", "mine_document"]

#: Per non-pivot language X: (the pivot sentences' neighbourhood means against X, X's
#: sentences' neighbourhood means against the pivot), for the language-normalised margin.
Denominators = Mapping[str, tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True, slots=True)
class MinedTuple:
    """Sentence indices per language; margin score, cosine and within-document margin per
    non-pivot language (against the pivot)."""

    idx: dict[str, int]
    score: dict[str, float]
    cos: dict[str, float]
    doc_score: dict[str, float]


def mine_document(
    vectors: Mapping[str, np.ndarray],
    *,
    pivot: str,
    langs: Sequence[str],
    k: int = 4,
    margin: Margin = "ratio",
    mode: Mode = "max",
    threshold: float = -math.inf,
    denominators: Denominators | None = None,
) -> list[MinedTuple]:
    """Tuples of sentences aligned in every one of ``langs``, in the pivot's order.

    A language missing from ``vectors`` (or with no sentences) yields no tuple at all: a
    tuple must hold a sentence of every requested language. With ``denominators`` the margin
    is normalised against the languages (see :mod:`occbio.align.background`), else within the
    document. The default ``threshold`` keeps every retrieved tuple, to be cut later.
    """
    if pivot not in langs:
        raise ValueError(f"pivot {pivot!r} is not one of the languages {list(langs)}")
    others = [lang for lang in langs if lang != pivot]
    if any(len(vectors.get(lang, ())) == 0 for lang in langs):
        return []
    aligned: dict[str, dict[int, Pair]] = {}
    for lang in others:
        x_den, y_den = denominators[lang] if denominators is not None else (None, None)
        pairs = mine_pairs(
            vectors[pivot],
            vectors[lang],
            k=k,
            margin=margin,
            mode=mode,
            threshold=threshold,
            x_den=x_den,
            y_den=y_den,
        )
        best: dict[int, Pair] = {}
        for pair in pairs:  # bwd mode may pair one pivot sentence several times
            if pair.src not in best or pair.score > best[pair.src].score:
                best[pair.src] = pair
        aligned[lang] = best
    if not others:  # one language: every sentence is its own tuple
        return [MinedTuple({pivot: i}, {}, {}, {}) for i in range(len(vectors[pivot]))]
    common = set.intersection(*(set(a) for a in aligned.values()))
    return [
        MinedTuple(
            idx={pivot: i, **{lang: aligned[lang][i].trg for lang in others}},
            score={lang: aligned[lang][i].score for lang in others},
            cos={lang: aligned[lang][i].cos for lang in others},
            doc_score={lang: aligned[lang][i].doc_score for lang in others},
        )
        for i in sorted(common)
    ]
