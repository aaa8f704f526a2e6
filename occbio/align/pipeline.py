"""Aligning documents: embed (cached) -> mine pivot–X with the margin -> length filter.

The same code serves ``occbio align --input docs.jsonl`` (anyone's documents) and the run
directory's biographies inside ``occbio mine``. Documents are processed in blocks: a block's
sentences are embedded together (one batched call per language), then mined document by
document, so no index and no process is built per document.
"""

from __future__ import annotations

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

from occbio.align.cache import EmbeddingCache
from occbio.align.filters import estimate_length_factors, length_ok
from occbio.align.mine import mine_document
from occbio.config import AlignConfig
from occbio.langs import LanguageError, validate_langs
from occbio.run import atomic_write

__all__ = [
    "AlignedTuple",
    "Doc",
    "InputError",
    "align_by_document",
    "align_documents",
    "filter_by_length",
    "length_factors",
    "passes_length",
    "read_docs_jsonl",
    "write_alignments",
]

log = logging.getLogger(__name__)


class InputError(ValueError):
    """An input file that cannot be used at all (the message names the file and line)."""


@dataclass(slots=True)
class Doc:
    """One document in several languages: ``{lang: [sentence, ...]}``."""

    doc: str
    sentences: dict[str, list[str]] = field(default_factory=dict)


@dataclass(slots=True)
class AlignedTuple:
    """Mutually parallel sentences of one document: index and text per language, and the
    margin score of each non-pivot language against the pivot."""

    doc: str
    idx: dict[str, int]
    text: dict[str, str]
    score: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {"doc": self.doc, "idx": self.idx, "text": self.text, "score": self.score}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> AlignedTuple:
        return cls(d["doc"], dict(d["idx"]), dict(d["text"]), dict(d.get("score", {})))


def read_docs_jsonl(path: Path, langs: Sequence[str], stats: Counter[str]) -> list[Doc]:
    """Documents from lines ``{"doc": id, "lang": code, "sentences": [...]}``.

    A malformed line, or one in a language not asked for, is skipped, counted and logged
    (the first few with their line number); a document given twice in one language keeps
    the first. A file with no usable line at all is an :class:`InputError`.
    """
    docs: dict[str, Doc] = {}
    wanted = set(langs)
    if not Path(path).is_file():
        raise InputError(f"input file not found: {path}")
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            problem = None
            try:
                row = json.loads(line)
                doc, lang, sentences = str(row["doc"]), str(row["lang"]), row["sentences"]
                if not isinstance(sentences, list) or not all(
                    isinstance(s, str) for s in sentences
                ):
                    problem = '"sentences" must be a list of strings'
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                problem = f"not a line of the form {{doc, lang, sentences}} ({exc})"
            if problem is not None:
                stats["input_lines_malformed"] += 1
                if stats["input_lines_malformed"] <= 10:
                    log.warning("%s:%d skipped: %s", path, line_no, problem)
                continue
            if lang not in wanted:
                stats["input_lines_other_lang"] += 1
                continue
            entry = docs.setdefault(doc, Doc(doc))
            if lang in entry.sentences:
                stats["input_lines_duplicate"] += 1
                continue
            entry.sentences[lang] = [s.strip() for s in sentences]
            stats["input_lines"] += 1
    if not docs:
        raise InputError(
            f"{path}: no usable line for languages {', '.join(langs)}; expected one JSON object "
            'a line: {"doc": "<id>", "lang": "<code>", "sentences": ["...", ...]}'
        )
    stats["input_docs"] = len(docs)
    return list(docs.values())


def align_by_document(
    docs: Iterable[Doc],
    *,
    langs: Sequence[str],
    pivot: str,
    encoder: Any,
    cache_root: Path,
    cfg: AlignConfig,
    threshold: float,
    stats: Counter[str],
    timings: Counter[str] | None = None,
) -> Iterator[tuple[str, list[AlignedTuple]]]:
    """Every input document, in input order, with its tuples above ``threshold`` aligned in
    all ``langs`` (pivot order); a document lacking a language gets none (and is counted).

    One pair per input document, so a caller can checkpoint by the number of documents done.
    """
    langs = validate_langs(langs)
    if pivot not in langs:
        raise LanguageError(f"pivot {pivot!r} is not one of the languages {langs}")
    timings = timings if timings is not None else Counter()
    caches = {lang: EmbeddingCache(cache_root, encoder.name, lang, encoder.dim) for lang in langs}
    # Per-document kNN matrices are tiny: FAISS's OpenMP threads cost more than they give
    # (and stall on busy cores), so mining runs single-threaded; restored afterwards.
    faiss_threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        it = iter(docs)
        while block := list(itertools.islice(it, cfg.block_docs)):
            yield from _mine_block(
                block, langs, pivot, encoder, caches, cfg, threshold, stats, timings
            )
    finally:
        faiss.omp_set_num_threads(faiss_threads)


def align_documents(docs: Iterable[Doc], **options: Any) -> Iterator[AlignedTuple]:
    """Every document's tuples as one stream; ``options`` are :func:`align_by_document`'s."""
    for _doc, tuples in align_by_document(docs, **options):
        yield from tuples


def _has_every_lang(doc: Doc, langs: Sequence[str]) -> bool:
    return all(doc.sentences.get(lang) for lang in langs)


def _mine_block(
    block: list[Doc],
    langs: list[str],
    pivot: str,
    encoder: Any,
    caches: dict[str, EmbeddingCache],
    cfg: AlignConfig,
    threshold: float,
    stats: Counter[str],
    timings: Counter[str],
) -> Iterator[tuple[str, list[AlignedTuple]]]:
    complete = [doc for doc in block if _has_every_lang(doc, langs)]
    vectors: dict[str, list[np.ndarray]] = {}
    for lang in langs:
        texts = [s for doc in complete for s in doc.sentences[lang]]
        start = time.perf_counter()
        flat, encoded = caches[lang].embed(
            texts, lambda batch, lang=lang: encoder.encode(batch, lang)
        )
        timings["embed_seconds"] += time.perf_counter() - start
        stats["sentences_embedded"] += encoded
        stats["sentences_from_cache"] += len(texts) - encoded
        bounds = np.cumsum([0] + [len(doc.sentences[lang]) for doc in complete])
        vectors[lang] = [flat[a:b] for a, b in itertools.pairwise(bounds)]
    start = time.perf_counter()
    out: list[tuple[str, list[AlignedTuple]]] = []
    i = 0  # position among the complete documents
    for doc in block:
        if not _has_every_lang(doc, langs):
            stats["docs_missing_lang"] += 1
            out.append((doc.doc, []))
            continue
        stats["docs_mined"] += 1
        tuples = []
        for t in mine_document(
            {lang: vectors[lang][i] for lang in langs},
            pivot=pivot,
            langs=langs,
            k=cfg.k,
            margin=cfg.margin,
            mode=cfg.mode,
            threshold=threshold,
        ):
            text = {lang: doc.sentences[lang][j] for lang, j in t.idx.items()}
            tuples.append(AlignedTuple(doc.doc, t.idx, text, t.score))
        stats["tuples_mined"] += len(tuples)
        out.append((doc.doc, tuples))
        i += 1
    timings["mine_seconds"] += time.perf_counter() - start
    yield from out


def length_factors(
    texts: Iterable[Mapping[str, str]], *, pivot: str, cfg: AlignConfig
) -> dict[str, float]:
    """The length factors to filter with: configured ones over those estimated from ``texts``
    (the mined tuples' sentences) when estimation is on."""
    factors = dict(cfg.length_factors)
    if cfg.estimate_length_factors:
        estimated = estimate_length_factors(texts, pivot=pivot, unit=cfg.length_unit)
        factors = {**estimated, **factors}
    return factors


def passes_length(t: AlignedTuple, factors: Mapping[str, float], cfg: AlignConfig) -> bool:
    return length_ok(t.text, max_ratio=cfg.max_length_ratio, factors=factors, unit=cfg.length_unit)


def filter_by_length(
    tuples: Sequence[AlignedTuple], *, pivot: str, cfg: AlignConfig, stats: Counter[str]
) -> tuple[list[AlignedTuple], list[AlignedTuple], dict[str, float]]:
    """Split mined tuples into (kept, dropped) by the length ratio; return the factors used."""
    factors = length_factors((t.text for t in tuples), pivot=pivot, cfg=cfg)
    kept, dropped = [], []
    for t in tuples:
        (kept if passes_length(t, factors, cfg) else dropped).append(t)
    stats["tuples_kept"] += len(kept)
    stats["tuples_dropped_length"] += len(dropped)
    return kept, dropped, factors


def write_alignments(
    path: Path, tuples: Iterable[AlignedTuple], langs: Sequence[str], pivot: str
) -> Path:
    """``path`` (JSON lines) and the same tuples as TSV next to it, in one pass over
    ``tuples``; returns the TSV's path."""
    tsv = path.with_suffix(".tsv")
    others = [lang for lang in langs if lang != pivot]
    header = ["doc", *(f"{lang}_idx" for lang in langs), *langs, *(f"score_{x}" for x in others)]
    with atomic_write(path) as jsonl_fh, atomic_write(tsv) as tsv_fh:
        tsv_fh.write("\t".join(header) + "\n")
        for t in tuples:
            jsonl_fh.write(json.dumps(t.to_dict(), ensure_ascii=False) + "\n")
            row = [t.doc, *(str(t.idx[lang]) for lang in langs)]
            row += [" ".join(t.text[lang].split()) for lang in langs]
            row += [f"{t.score[x]:.4f}" for x in others]
            tsv_fh.write("\t".join(row) + "\n")
    return tsv
