"""Aligning documents: embed (cached) -> mine pivot–X with the margin -> accept -> length filter.

The same code serves ``occbio align --input docs.jsonl`` (anyone's documents) and the run
directory's biographies inside ``occbio mine``. With the ``language`` scope (the default) a
first pass draws each language's background sample (:mod:`occbio.align.background`). Documents
are then processed in blocks: a block's sentences are embedded together (one batched call per
language), their language-wide neighbourhoods found with one search per language pair, then
mined document by document, so no index and no process is built per document.

Mining keeps every retrieved tuple with its scores (no threshold); the acceptance rule and the
length filter are applied afterwards, so a new threshold re-reads the scores and encodes nothing.

This module holds the driver: the background pass (:func:`build_backgrounds`) and the loop
that embeds each block through the cache and mines it (:func:`align_by_document`). The parts
it drives are modules of their own, each re-exported here so that every name imports from
this module as before: :mod:`occbio.align.aligned_tuples` (the tuple and its files),
:mod:`occbio.align.block_mining` (mining a block whose vectors are known, which shard workers
run too) and :mod:`occbio.align.selection` (the acceptance rule and the length filter).
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from occbio.align.aligned_tuples import AlignedTuple, write_alignments
from occbio.align.background import Background, BackgroundSampler
from occbio.align.block_mining import (
    block_denominators,
    block_texts,
    doc_tuples,
    mine_block,
    pool_offsets,
)
from occbio.align.cache import EmbeddingCache
from occbio.align.inputs import Doc
from occbio.align.selection import acceptance, length_factors, reject_reason, select_tuples
from occbio.config import AlignConfig
from occbio.langs import LanguageError, validate_langs

__all__ = [
    "AlignedTuple",
    "Doc",
    "acceptance",
    "align_by_document",
    "block_denominators",
    "block_texts",
    "build_backgrounds",
    "doc_tuples",
    "length_factors",
    "mine_block",
    "pool_offsets",
    "reject_reason",
    "select_tuples",
    "write_alignments",
]

log = logging.getLogger(__name__)

#: Fewer sentences than this in a language and its margins rest on too few neighbours.
SMALL_POOL = 50


def build_backgrounds(
    docs: Iterable[Doc],
    *,
    langs: Sequence[str],
    encoder: Any,
    cache_root: Path,
    size: int,
    fingerprint: str = "",
    stats: Counter[str] | None = None,
) -> dict[str, Background]:
    """Each language's background sample of ``docs`` (one streaming pass), embedded through
    the cache (so the mining pass finds these vectors there)."""
    samplers = {lang: BackgroundSampler(size) for lang in langs}
    for doc in docs:
        for lang, texts in doc.sentences.items():
            if lang in samplers:
                samplers[lang].add_all(texts, doc.doc)
    out = {}
    for lang, sampler in samplers.items():
        if 0 < sampler.pool < SMALL_POOL:
            log.warning(
                "align: only %d %s sentences in this run: language-normalised margins were "
                "measured reliable down to ~50 sentences per language (benchmarks/"
                "align_quality.py --pools); check a few documents with --explain",
                sampler.pool,
                lang,
            )
        sample = sampler.sample()
        cache = EmbeddingCache(cache_root, encoder.name, lang, encoder.dim, stats=stats)
        vectors, encoded = cache.embed(
            [text for text, _ in sample], lambda batch, lang=lang: encoder.encode(batch, lang)
        )
        if stats is not None:
            stats["sentences_embedded"] += encoded
            stats["sentences_from_cache"] += len(sample) - encoded
        docs_of = np.array([doc for _, doc in sample], dtype=str)
        out[lang] = Background(lang, vectors, docs_of, sampler.pool, fingerprint)
    return out


def align_by_document(
    docs: Iterable[Doc],
    *,
    langs: Sequence[str],
    pivot: str,
    encoder: Any,
    cache_root: Path,
    cfg: AlignConfig,
    stats: Counter[str],
    timings: Counter[str] | None = None,
    backgrounds: Mapping[str, Background] | None = None,
) -> Iterator[tuple[str, list[AlignedTuple]]]:
    """Every input document, in input order, with all its tuples aligned in all ``langs``
    (pivot order) and their scores, before any threshold; a document lacking a language gets
    none (and is counted).

    ``cfg.scope == "language"`` needs ``backgrounds`` (:func:`build_backgrounds` over the same
    documents). One pair per input document, so a caller can checkpoint by the number of
    documents done.
    """
    langs = validate_langs(langs)
    if pivot not in langs:
        raise LanguageError(f"pivot {pivot!r} is not one of the languages {langs}")
    if cfg.scope == "language" and backgrounds is None:
        raise ValueError("the language scope needs each language's background sample")
    if cfg.scope == "document":
        backgrounds = None
    timings = timings if timings is not None else Counter()
    caches = {
        lang: EmbeddingCache(cache_root, encoder.name, lang, encoder.dim, stats=stats)
        for lang in langs
    }
    offsets = pool_offsets(backgrounds, langs, pivot, encoder, cfg)
    it = iter(docs)
    while block := list(itertools.islice(it, cfg.block_docs)):
        yield from _mine_block(
            block, langs, pivot, encoder, caches, cfg, backgrounds, offsets, stats, timings
        )


def _mine_block(
    block: list[Doc],
    langs: list[str],
    pivot: str,
    encoder: Any,
    caches: dict[str, EmbeddingCache],
    cfg: AlignConfig,
    backgrounds: Mapping[str, Background] | None,
    offsets: Mapping[str, float],
    stats: Counter[str],
    timings: Counter[str],
) -> Iterator[tuple[str, list[AlignedTuple]]]:
    flat: dict[str, np.ndarray] = {}
    for lang, texts in block_texts(block, langs).items():
        start = time.perf_counter()
        flat[lang], encoded = caches[lang].embed(
            texts, lambda batch, lang=lang: encoder.encode(batch, lang)
        )
        timings["embed_seconds"] += time.perf_counter() - start
        stats["sentences_embedded"] += encoded
        stats["sentences_from_cache"] += len(texts) - encoded
    mined = mine_block(
        block, flat, langs=langs, pivot=pivot, cfg=cfg, backgrounds=backgrounds,
        offsets=offsets, timings=timings,
    )  # fmt: skip
    # counted as each document is handed over, so that a checkpoint taken after document i
    # counts documents 0..i only (a resumed run would otherwise count the rest of the block twice)
    for doc_id, tuples, kind in mined:
        stats[kind] += 1
        stats["tuples_mined"] += len(tuples)
        yield doc_id, tuples
