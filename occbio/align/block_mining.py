"""Mining one block of documents whose sentence vectors are known: no encoder, no cache.

* :func:`block_texts`: the rows a block embeds (the sentences of its documents that have every
  language, in document order);
* :func:`mine_block`: given those rows' vectors, each document's tuples and how it counts;
* :func:`block_denominators`: the language-wide neighbourhood means of a block, one batched
  search per language pair and direction against the background samples;
* :func:`doc_tuples`: one document's tuples, its scores less :func:`pool_offsets`'s offset.

FAISS runs on one thread here (``_faiss_threads``), so that a block gives the same bytes on
any worker. This is the part of the aligner that runs wherever a shard is mined
(:func:`occbio.align.shards.mine_shard`), as well as in
:func:`occbio.align.pipeline.align_by_document`, which embeds each block through the cache
first. Kept apart from that driver so that a worker needs neither; :mod:`occbio.align.pipeline`
re-exports the public names, so they stay importable from there.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import faiss
import numpy as np

from occbio.align.aligned_tuples import AlignedTuple
from occbio.align.background import Background, doc_denominators, pool_offset
from occbio.align.encoders import pool_drift_for
from occbio.align.inputs import Doc
from occbio.align.mine import mine_document
from occbio.config import AlignConfig

__all__ = [
    "block_denominators",
    "block_texts",
    "doc_tuples",
    "mine_block",
    "pool_offsets",
]


def pool_offsets(
    backgrounds: Mapping[str, Background] | None,
    langs: Sequence[str],
    pivot: str,
    encoder: Any,
    cfg: AlignConfig,
) -> dict[str, float]:
    """Per non-pivot language, what to subtract from its scores because a background holds
    fewer sentences than ``cfg.background_size`` (see :func:`pool_offset`)."""
    drift = pool_drift_for(encoder, cfg.margin, cfg.k)
    if backgrounds is None:
        return {}
    return {
        lang: (
            pool_offset(len(backgrounds[lang]), cfg.background_size, drift)
            + pool_offset(len(backgrounds[pivot]), cfg.background_size, drift)
        )
        / 2
        for lang in langs
        if lang != pivot
    }


def block_denominators(
    vectors: Mapping[str, Sequence[np.ndarray]],
    doc_ids: Sequence[str],
    backgrounds: Mapping[str, Background] | None,
    *,
    pivot: str,
    k: int,
) -> dict[str, tuple[list[np.ndarray], list[np.ndarray]]]:
    """Per non-pivot language, each document's (pivot, other) neighbourhood means, with one
    batched search per language pair and direction; empty for the document scope."""
    if backgrounds is None:
        return {}
    return {
        lang: (
            doc_denominators(vectors[pivot], vectors[lang], doc_ids, backgrounds[lang], k),
            doc_denominators(vectors[lang], vectors[pivot], doc_ids, backgrounds[pivot], k),
        )
        for lang in vectors
        if lang != pivot
    }


def doc_tuples(
    doc: Doc,
    vectors: Mapping[str, np.ndarray],
    denominators: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    pivot: str,
    langs: Sequence[str],
    cfg: AlignConfig,
    offsets: Mapping[str, float],
) -> list[AlignedTuple]:
    """One document's tuples, before any threshold: indices into the user's lists, texts,
    scores less the pool offset, cosines and within-document margins (5 decimals)."""
    tuples = []
    for t in mine_document(
        vectors, pivot=pivot, langs=langs, k=cfg.k, margin=cfg.margin, mode=cfg.mode,
        denominators=denominators or None,
    ):  # fmt: skip
        text = {lang: doc.sentences[lang][j] for lang, j in t.idx.items()}
        idx = {lang: doc.source_index(lang, j) for lang, j in t.idx.items()}
        score = {lang: round(v - offsets.get(lang, 0.0), 5) for lang, v in t.score.items()}
        cos = {lang: round(v, 5) for lang, v in t.cos.items()}
        doc_score = {lang: round(v, 5) for lang, v in t.doc_score.items()}
        tuples.append(AlignedTuple(doc.doc, idx, text, score, cos, doc_score))
    return tuples


@contextlib.contextmanager
def _faiss_threads(n: int) -> Iterator[None]:
    """FAISS limited to ``n`` OpenMP threads inside the block: per-document kNN matrices are
    tiny, and threads cost more than they give there (and stall on busy cores)."""
    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(n)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(before)


def _has_every_lang(doc: Doc, langs: Sequence[str]) -> bool:
    return all(doc.sentences.get(lang) for lang in langs)


def block_texts(block: Sequence[Doc], langs: Sequence[str]) -> dict[str, list[str]]:
    """Per language, the sentences of the block's documents that have every language, in
    document order: the rows :func:`mine_block` expects."""
    complete = [doc for doc in block if _has_every_lang(doc, langs)]
    return {lang: [s for doc in complete for s in doc.sentences[lang]] for lang in langs}


def mine_block(
    block: Sequence[Doc],
    flat: Mapping[str, np.ndarray],
    *,
    langs: Sequence[str],
    pivot: str,
    cfg: AlignConfig,
    backgrounds: Mapping[str, Background] | None,
    offsets: Mapping[str, float],
    timings: Counter[str],
) -> list[tuple[str, list[AlignedTuple], str]]:
    """Each document of ``block`` with its tuples and how it counts (``docs_mined`` or
    ``docs_missing_lang``), given the vectors of :func:`block_texts`'s rows (``flat``)."""
    complete = [doc for doc in block if _has_every_lang(doc, langs)]
    vectors: dict[str, list[np.ndarray]] = {}
    for lang in langs:
        bounds = np.cumsum([0] + [len(doc.sentences[lang]) for doc in complete])
        vectors[lang] = [flat[lang][a:b] for a, b in itertools.pairwise(bounds)]
    start = time.perf_counter()
    # One FAISS thread: its batched searches round differently with another number of threads,
    # and a shard must give the same bytes on any worker (a Dask worker runs one thread).
    with _faiss_threads(1):
        denominators = block_denominators(
            vectors, [doc.doc for doc in complete], backgrounds, pivot=pivot, k=cfg.k
        )
    timings["background_seconds"] += time.perf_counter() - start
    start = time.perf_counter()
    out: list[tuple[str, list[AlignedTuple], str]] = []
    i = 0  # position among the complete documents
    for doc in block:
        if not _has_every_lang(doc, langs):
            out.append((doc.doc, [], "docs_missing_lang"))
            continue
        with _faiss_threads(1):
            tuples = doc_tuples(
                doc,
                {lang: vectors[lang][i] for lang in langs},
                {lang: (d[0][i], d[1][i]) for lang, d in denominators.items()},
                pivot=pivot,
                langs=langs,
                cfg=cfg,
                offsets=offsets,
            )
        out.append((doc.doc, tuples, "docs_mined"))
        i += 1
    timings["mine_seconds"] += time.perf_counter() - start
    return out
