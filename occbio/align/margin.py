"""Margin-based scoring of sentence pairs (Artetxe & Schwenk, 2019), kNN through FAISS.

For L2-normalised embeddings ``x`` (source sentences) and ``y`` (target sentences) of one
document pair, every candidate pair ``(i, j)`` found among the k nearest neighbours in either
direction is scored

    margin(cos(x_i, y_j),  (mean_k cos(x_i, NN_k(x_i)) + mean_k cos(y_j, NN_k(y_j))) / 2)

with ``ratio`` (a / b, the default) or ``distance`` (a - b). Where the neighbourhoods come from
is the caller's choice: by default the other side of the same document pair (the
*within-document* margin); given ``x_den`` / ``y_den`` (the neighbourhood means computed against
every sentence of the other language, see :mod:`occbio.align.background` and
:func:`neighbourhood_means`), the *language-normalised* margin, whose scores mean the same in a
one-sentence stub and a long article. Candidates always stay inside the document pair: each
pair is scored both ways and carries its cosine, its within-document margin and its score.
Retrieval then picks pairs:

* ``fwd``: each source sentence with its best-scoring candidate;
* ``bwd``: each target sentence with its best-scoring candidate;
* ``intersect``: pairs that are best in both directions;
* ``max``: every candidate pair, best first, kept when neither side is already taken (1:1).

Every mode keeps only pairs whose score is >= ``threshold`` (and, when given, whose cosine is
>= ``min_cos``). ``k`` is capped at the other side's size; an empty side gives no pairs. Pure
logic: arrays in, arrays out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, NamedTuple

import faiss
import numpy as np

__all__ = [
    "MARGINS",
    "MODES",
    "Candidates",
    "Pair",
    "knn",
    "margin_retrieve",
    "mine_pairs",
    "neighbourhood_means",
    "pair_margins",
    "score_candidates",
]

Margin = Literal["ratio", "distance"]
Mode = Literal["max", "intersect", "fwd", "bwd"]
MARGINS: tuple[str, ...] = ("ratio", "distance")
MODES: tuple[str, ...] = ("max", "intersect", "fwd", "bwd")


def knn(x: np.ndarray, y: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Inner-product k nearest neighbours of each row of ``x`` among the rows of ``y``.

    ``k`` is capped at ``len(y)``; returns ``(sims, ids)`` of shape ``(len(x), k')``. FAISS's
    brute-force ``knn`` needs no index, so calling it per document costs no index build.
    """
    k_eff = min(k, len(y))
    if len(x) == 0 or k_eff == 0:
        return np.zeros((len(x), k_eff), np.float32), np.zeros((len(x), k_eff), np.int64)
    sims, ids = faiss.knn(
        np.ascontiguousarray(x, np.float32),
        np.ascontiguousarray(y, np.float32),
        k_eff,
        metric=faiss.METRIC_INNER_PRODUCT,
    )
    return sims, ids


def _apply_margin(cos: np.ndarray, denom: np.ndarray, margin: Margin) -> np.ndarray:
    if margin == "ratio":
        # a neighbourhood mean <= 0 (a sentence unlike everything) must not make a huge ratio
        safe = np.where(denom > 1e-6, denom, 1.0)
        return np.where(denom > 1e-6, cos / safe, 0.0)
    if margin == "distance":
        return cos - denom
    raise ValueError(f"unknown margin {margin!r}: expected one of {', '.join(MARGINS)}")


def pair_margins(
    cos: np.ndarray, x_den: np.ndarray, y_den: np.ndarray, margin: Margin = "ratio"
) -> np.ndarray:
    """The margin of given pairs: row ``i``'s cosine against the mean of its two sides'
    neighbourhood means (``x_den[i]``, ``y_den[i]``), as :func:`score_candidates` scores a
    candidate; for pairs someone already has (``occbio score``)."""
    den = (np.asarray(x_den, np.float32) + np.asarray(y_den, np.float32)) / 2
    return _apply_margin(np.asarray(cos, np.float32), den, margin).astype(np.float32)


def neighbourhood_means(own: np.ndarray, background: np.ndarray, k: int) -> np.ndarray:
    """Mean of the ``k`` largest similarities per row of ``own`` and ``background`` together.

    ``own`` (n, m): cosines of each query with the other language's sentences of its own
    document; ``background`` (n, b): its cosines with the nearest sentences of the other
    language elsewhere in the run, ``-inf`` where a neighbour is to be ignored (one of the
    query's own document, already in ``own``). A row with fewer than ``k`` finite values
    averages those it has; a row with none gets 0.
    """
    sims = np.concatenate([own, background], axis=1).astype(np.float32, copy=False)
    if sims.shape[1] == 0:
        return np.zeros(len(sims), np.float32)
    k_eff = min(k, sims.shape[1])
    top = -np.partition(-sims, k_eff - 1, axis=1)[:, :k_eff]
    finite = np.isfinite(top)
    total = np.where(finite, top, 0.0).sum(axis=1)
    return (total / np.maximum(finite.sum(axis=1), 1)).astype(np.float32)


@dataclass(frozen=True)
class Candidates:
    """Scored candidate pairs of one document pair: parallel arrays, both directions merged."""

    src: np.ndarray  # int64 source sentence indices
    trg: np.ndarray  # int64 target sentence indices
    score: np.ndarray  # float32 margin scores (the one retrieval and the threshold use)
    from_fwd: np.ndarray  # bool: found as a forward neighbour (else backward)
    cos: np.ndarray  # float32 cosine similarity
    doc_score: np.ndarray  # float32 within-document margin (== score when that is the scope)

    def __len__(self) -> int:
        return len(self.src)


def score_candidates(
    x: np.ndarray,
    y: np.ndarray,
    *,
    k: int = 4,
    margin: Margin = "ratio",
    x_den: np.ndarray | None = None,
    y_den: np.ndarray | None = None,
) -> Candidates:
    """Margin scores of the candidate pairs from the kNN of both directions.

    Without ``x_den`` / ``y_den`` the denominators are the within-document neighbourhood means;
    with them (one value per row of ``x`` / ``y``), those are used instead.
    """
    if (x_den is None) != (y_den is None):
        raise ValueError("give both x_den and y_den, or neither")
    fwd_sims, fwd_ids = knn(x, y, k)
    bwd_sims, bwd_ids = knn(y, x, k)
    if fwd_sims.shape[1] == 0 or bwd_sims.shape[1] == 0:
        empty = np.zeros(0, np.int64)
        nothing = np.zeros(0, np.float32)
        return Candidates(empty, empty, nothing, np.zeros(0, bool), nothing, nothing)
    x_mean = fwd_sims.mean(axis=1)  # how close x_i is to its neighbourhood in y
    y_mean = bwd_sims.mean(axis=1)
    n, kf = fwd_ids.shape
    m, kb = bwd_ids.shape
    src = np.concatenate([np.repeat(np.arange(n), kf), bwd_ids.ravel()])
    trg = np.concatenate([fwd_ids.ravel(), np.repeat(np.arange(m), kb)])
    cos = np.concatenate([fwd_sims.ravel(), bwd_sims.ravel()])
    doc_score = _apply_margin(cos, (x_mean[src] + y_mean[trg]) / 2, margin).astype(np.float32)
    if x_den is None or y_den is None:
        score = doc_score
    else:
        den = (np.asarray(x_den)[src] + np.asarray(y_den)[trg]) / 2
        score = _apply_margin(cos, den, margin).astype(np.float32)
    from_fwd = np.concatenate([np.ones(n * kf, bool), np.zeros(m * kb, bool)])
    return Candidates(
        src.astype(np.int64),
        trg.astype(np.int64),
        score,
        from_fwd,
        cos.astype(np.float32),
        doc_score,
    )


def _best_per(keys: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Indices of the best-scoring entry for each distinct key (ties: the first)."""
    order = np.lexsort((-score, keys))  # by key, then score descending
    first = np.ones(len(order), bool)
    first[1:] = keys[order][1:] != keys[order][:-1]
    return order[first]


class Pair(NamedTuple):
    """One aligned sentence pair of a document pair and its scores."""

    src: int
    trg: int
    score: float  # the margin retrieval and the threshold use
    cos: float
    doc_score: float  # the within-document margin (the same as score in that scope)


def mine_pairs(
    x: np.ndarray,
    y: np.ndarray,
    *,
    k: int = 4,
    margin: Margin = "ratio",
    mode: Mode = "max",
    threshold: float,
    min_cos: float | None = None,
    x_den: np.ndarray | None = None,
    y_den: np.ndarray | None = None,
) -> list[Pair]:
    """Aligned pairs of one document pair, sorted by source index.

    ``threshold=-math.inf`` keeps every retrieved pair: retrieval does not depend on the
    threshold, so cutting the result afterwards gives what a higher threshold would have.
    """
    if mode not in MODES:
        raise ValueError(f"unknown retrieval mode {mode!r}: expected one of {', '.join(MODES)}")
    cand = score_candidates(x, y, k=k, margin=margin, x_den=x_den, y_den=y_den)
    if len(cand) == 0:
        return []
    if mode == "fwd":
        fwd = np.flatnonzero(cand.from_fwd)
        chosen = fwd[_best_per(cand.src[fwd], cand.score[fwd])]
    elif mode == "bwd":
        bwd = np.flatnonzero(~cand.from_fwd)
        chosen = bwd[_best_per(cand.trg[bwd], cand.score[bwd])]
    elif mode == "intersect":
        fwd = np.flatnonzero(cand.from_fwd)
        bwd = np.flatnonzero(~cand.from_fwd)
        best_f = fwd[_best_per(cand.src[fwd], cand.score[fwd])]
        best_b = bwd[_best_per(cand.trg[bwd], cand.score[bwd])]
        back = {(int(cand.src[i]), int(cand.trg[i])) for i in best_b}
        chosen = np.array(
            [i for i in best_f if (int(cand.src[i]), int(cand.trg[i])) in back], np.int64
        )
    else:  # max: greedy 1:1 over all candidates, best first
        chosen_list = []
        used_src: set[int] = set()
        used_trg: set[int] = set()
        for i in np.argsort(-cand.score, kind="stable"):
            s, t = int(cand.src[i]), int(cand.trg[i])
            if s in used_src or t in used_trg:
                continue
            used_src.add(s)
            used_trg.add(t)
            chosen_list.append(i)
        chosen = np.array(chosen_list, np.int64)
    floor = -math.inf if min_cos is None else min_cos
    pairs = [
        Pair(
            int(cand.src[i]),
            int(cand.trg[i]),
            float(cand.score[i]),
            float(cand.cos[i]),
            float(cand.doc_score[i]),
        )
        for i in chosen
        if cand.score[i] >= threshold and cand.cos[i] >= floor
    ]
    return sorted(pairs)


def margin_retrieve(
    x: np.ndarray, y: np.ndarray, *, k: int = 4, margin: Margin = "ratio"
) -> tuple[np.ndarray, np.ndarray]:
    """For each source row, the target with the best margin among its k nearest neighbours
    (LASER's xsim retrieval). Returns ``(best_ids, best_scores)``; -1 where ``y`` is empty."""
    fwd_sims, fwd_ids = knn(x, y, k)
    if fwd_sims.shape[1] == 0:
        return np.full(len(x), -1, np.int64), np.zeros(len(x), np.float32)
    bwd_sims, _ = knn(y, x, k)
    x_mean = fwd_sims.mean(axis=1)
    y_mean = bwd_sims.mean(axis=1)
    scores = _apply_margin(fwd_sims, (x_mean[:, None] + y_mean[fwd_ids]) / 2, margin)
    best = scores.argmax(axis=1)
    rows = np.arange(len(x))
    return fwd_ids[rows, best].astype(np.int64), scores[rows, best].astype(np.float32)
