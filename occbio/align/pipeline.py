"""Aligning documents: embed (cached) -> mine pivot–X with the margin -> accept -> length filter.

The same code serves ``occbio align --input docs.jsonl`` (anyone's documents) and the run
directory's biographies inside ``occbio mine``. With the ``language`` scope (the default) a
first pass draws each language's background sample (:mod:`occbio.align.background`). Documents
are then processed in blocks: a block's sentences are embedded together (one batched call per
language), their language-wide neighbourhoods found with one search per language pair, then
mined document by document, so no index and no process is built per document.

Mining keeps every retrieved tuple with its scores (no threshold); the acceptance rule and the
length filter are applied afterwards, so a new threshold re-reads the scores and encodes nothing.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from occbio.align.background import Background, BackgroundSampler, doc_denominators, pool_offset
from occbio.align.cache import EmbeddingCache
from occbio.align.encoders import RULE_K, acceptance_for, pool_drift_for
from occbio.align.filters import Acceptance, estimate_length_factors, length_ok
from occbio.align.inputs import Doc
from occbio.align.mine import mine_document
from occbio.config import AlignConfig
from occbio.io.corpus import tsv_writer
from occbio.langs import LanguageError, validate_langs
from occbio.run import atomic_write

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


@dataclass(slots=True)
class AlignedTuple:
    """Mutually parallel sentences of one document: index and text per language; per
    non-pivot language against the pivot, the margin score (the one the threshold applies to),
    the cosine and the within-document margin."""

    doc: str
    idx: dict[str, int]
    text: dict[str, str]
    score: dict[str, float]
    cos: dict[str, float] = field(default_factory=dict)
    doc_score: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "idx": self.idx,
            "text": self.text,
            "score": self.score,
            "cos": self.cos,
            "doc_score": self.doc_score,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> AlignedTuple:
        return cls(
            d["doc"],
            dict(d["idx"]),
            dict(d["text"]),
            dict(d.get("score", {})),
            dict(d.get("cos", {})),
            dict(d.get("doc_score", {})),
        )


def acceptance(cfg: AlignConfig, encoder: Any) -> Acceptance:
    """The configured threshold and cosine floor, else the encoder's own for the scope and
    margin (a ``ValueError`` when there is no threshold either way)."""
    default_threshold, default_min_cos = acceptance_for(encoder, cfg.scope, cfg.margin) or (
        None,
        None,
    )
    threshold = cfg.threshold if cfg.threshold is not None else default_threshold
    min_cos = cfg.min_cos if cfg.min_cos is not None else default_min_cos
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
    return Acceptance(threshold, min_cos)


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
        cache = EmbeddingCache(cache_root, encoder.name, lang, encoder.dim)
        if stats is not None and cache.dropped_shards:
            stats["embedding_shards_dropped"] += cache.dropped_shards
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
    caches = {lang: EmbeddingCache(cache_root, encoder.name, lang, encoder.dim) for lang in langs}
    for cache in caches.values():
        if cache.dropped_shards:
            stats["embedding_shards_dropped"] += cache.dropped_shards
    offsets = pool_offsets(backgrounds, langs, pivot, encoder, cfg)
    it = iter(docs)
    while block := list(itertools.islice(it, cfg.block_docs)):
        yield from _mine_block(
            block, langs, pivot, encoder, caches, cfg, backgrounds, offsets, stats, timings
        )


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


def length_factors(
    tuples: Iterable[AlignedTuple], *, pivot: str, cfg: AlignConfig, rule: Acceptance
) -> dict[str, float]:
    """The length factors to filter with: configured ones over those estimated from the
    tuples ``rule`` accepts, when estimation is on."""
    factors = dict(cfg.length_factors)
    if cfg.length_filter and cfg.estimate_length_factors:
        accepted = (t.text for t in tuples if rule.reject_reason(t.score, t.cos) is None)
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
    """Why ``t`` is not kept (``below_threshold``, ``below_min_cos``, ``length``), or None."""
    reason = rule.reject_reason(t.score, t.cos)
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
) -> Iterator[AlignedTuple]:
    """The tuples that pass ``rule`` and the length filter, counted; ``on_drop(t, reason)`` is
    called for every other one."""
    stats["tuples_kept"] += 0  # present in the counts even when nothing passes
    for t in tuples:
        reason = reject_reason(t, rule=rule, pivot=pivot, cfg=cfg, factors=factors)
        if reason is None:
            stats["tuples_kept"] += 1
            yield t
        else:
            stats[f"tuples_dropped_{reason}"] += 1
            if on_drop is not None:
                on_drop(t, reason)


def write_alignments(
    path: Path, tuples: Iterable[AlignedTuple], langs: Sequence[str], pivot: str
) -> Path:
    """``path`` (JSON lines) and the same tuples as TSV next to it, in one pass over
    ``tuples``; returns the TSV's path."""
    tsv = path.with_suffix(".tsv")
    others = [lang for lang in langs if lang != pivot]
    header = ["doc", *(f"{lang}_idx" for lang in langs), *langs]
    header += [f"{name}_{x}" for x in others for name in ("score", "cos")]
    with atomic_write(path) as jsonl_fh, atomic_write(tsv) as tsv_fh:
        out = tsv_writer(tsv_fh)
        out.writerow(header)
        for t in tuples:
            jsonl_fh.write(json.dumps(t.to_dict(), ensure_ascii=False) + "\n")
            row = [t.doc, *(str(t.idx[lang]) for lang in langs)]
            row += [" ".join(t.text[lang].split()) for lang in langs]
            row += [f"{v[x]:.4f}" for x in others for v in (t.score, t.cos)]
            out.writerow(row)
    return tsv
