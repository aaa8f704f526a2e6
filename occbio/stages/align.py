"""Stage ``align``: each person's sentences mined into multi-way parallel tuples.

Reads ``text/{lang}.sentences.jsonl`` (or, for ``occbio align --input``, anyone's documents),
embeds every sentence once per encoder (``embeddings/``, content-addressed and resumable), mines
pivot–X pairs with the margin criterion, keeps pivot sentences aligned in every language and
applies the length filter. Outputs ``align/mined.jsonl`` (every tuple above the threshold, with
its scores), ``alignments.jsonl`` + ``alignments.tsv`` (after the length filter) and
``align/dropped_length.jsonl`` (what the length filter dropped, to audit it).

Memory follows the number of people, not of sentences: a person's sentences are read when
their turn comes (through a byte-offset index of the sentences files), mined tuples are
committed to disk in chunks (so a killed run resumes after the last chunk) and the length
filter streams over them.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from occbio.align.encoders import build_encoder, resolve_encoder_name
from occbio.align.pipeline import (
    AlignedTuple,
    Doc,
    align_by_document,
    length_factors,
    passes_length,
    read_docs_jsonl,
    write_alignments,
)
from occbio.config import ConfigError, RunConfig
from occbio.io.jsonl import JsonlIndex, read_jsonl
from occbio.records import Entity, Sentence
from occbio.run import ChunkedWriter, RunDir, atomic_write, file_identity, fingerprint
from occbio.stages.common import StageResult, progress_bar
from occbio.stages.entities import ENTITIES_FILE
from occbio.stages.text import STAGE as TEXT_STAGE
from occbio.stages.text import sentences_path

__all__ = ["ALIGNMENTS_FILE", "run_align", "run_align_input"]

log = logging.getLogger(__name__)

STAGE = "align"
ALIGNMENTS_FILE = "alignments.jsonl"
MINED_FILE = "align/mined.jsonl"
DROPPED_FILE = "align/dropped_length.jsonl"
EMBEDDINGS_DIR = "embeddings"


def _encoder(cfg: RunConfig) -> Any:
    name = resolve_encoder_name(cfg.align.encoder, laser_dir=cfg.align.laser_dir)
    options = {"model_dir": cfg.align.laser_dir} if name.startswith("laser") else {}
    encoder = build_encoder(name, **options)
    unsupported = [lang for lang in cfg.langs if not encoder.supports(lang)]
    if unsupported:
        log.warning(
            "align: encoder %s was not trained on %s; alignments there will be poor",
            encoder.name,
            ", ".join(unsupported),
        )
    return encoder


def _threshold(cfg: RunConfig, encoder: Any) -> float:
    """The configured threshold, else the encoder's own for the configured margin."""
    if cfg.align.threshold is not None:
        return cfg.align.threshold
    attr = "default_threshold" if cfg.align.margin == "ratio" else "default_distance_threshold"
    value = getattr(encoder, attr, None)
    if value is None:
        raise ConfigError(
            f"align.threshold: encoder {encoder.name} has no default threshold for the "
            f"{cfg.align.margin} margin; set align.threshold or pass --threshold"
        )
    return float(value)


class RunDocs:
    """The run's people as documents, in the order of ``entities.jsonl``, read one by one.

    A :class:`~occbio.io.jsonl.JsonlIndex` per language records where each person's lines lie
    in its sentences file; the documents are then read on demand, so only one block of them is
    in memory at a time.
    """

    def __init__(self, run: RunDir, langs: Sequence[str]) -> None:
        self.index = {lang: JsonlIndex(sentences_path(run, lang), "qid") for lang in langs}
        self.order = [
            e.qid
            for e in read_jsonl(run.path / ENTITIES_FILE, Entity)
            if any(e.qid in index for index in self.index.values())
        ]

    def __len__(self) -> int:
        return len(self.order)

    def iter_from(self, skip: int = 0) -> Iterator[Doc]:
        """The documents after the first ``skip``."""
        with ExitStack() as stack:
            for index in self.index.values():
                stack.enter_context(index)
            for qid in self.order[skip:]:
                doc = Doc(qid)
                for lang, index in self.index.items():
                    texts = [Sentence.from_dict(row).text for row in index.rows(qid)]
                    if texts:
                        doc.sentences[lang] = texts
                yield doc


class _ListedDocs:
    """Documents already in memory (``occbio align --input``), with :class:`RunDocs`'s API."""

    def __init__(self, docs: list[Doc]) -> None:
        self.docs = docs

    def __len__(self) -> int:
        return len(self.docs)

    def iter_from(self, skip: int = 0) -> Iterator[Doc]:
        return iter(self.docs[skip:])


def _align(
    cfg: RunConfig,
    run: RunDir,
    encoder: Any,
    docs: RunDocs | _ListedDocs,
    inputs: dict[str, Any],
    extra_counts: Counter[str],
    *,
    show_progress: bool,
) -> StageResult:
    threshold = _threshold(cfg, encoder)
    pivot = cfg.pivot
    settings = {
        "langs": cfg.langs,
        "pivot": pivot,
        "encoder": encoder.name,
        "threshold": threshold,
        "align": cfg.align.model_dump(mode="json", exclude={"laser_dir", "block_docs"}),
    }
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    state.begin(fp, inputs=inputs, settings=settings)
    log.info("align: encoder %s, threshold %.3f, pivot %s", encoder.name, threshold, pivot)

    stats: Counter[str] = Counter()
    timings: Counter[str] = Counter()
    mined_path = run.path / MINED_FILE
    writer = ChunkedWriter(
        state, "mined", {"mined": mined_path}, chunk_size=cfg.checkpoint_every, stats=stats
    )
    if not writer.done:
        bar = progress_bar(show_progress, desc="align", total=len(docs), unit=" docs")
        bar.update(writer.consumed)
        try:
            for _doc, tuples in align_by_document(
                docs.iter_from(writer.consumed),
                langs=cfg.langs,
                pivot=pivot,
                encoder=encoder,
                cache_root=run.path / EMBEDDINGS_DIR,
                cfg=cfg.align,
                threshold=threshold,
                stats=stats,
                timings=timings,
            ):
                writer.add({"mined": tuples})
                bar.update()
        finally:
            bar.close()
        writer.finish()
    else:
        stats.update(state.progress("mined").get("stats", {}))

    def mined() -> Iterator[AlignedTuple]:
        return read_jsonl(mined_path, AlignedTuple)

    factors = length_factors((t.text for t in mined()), pivot=pivot, cfg=cfg.align)
    docs_with_tuples: set[str] = set()
    with atomic_write(run.path / DROPPED_FILE) as dropped_fh:

        def kept() -> Iterator[AlignedTuple]:
            for t in mined():
                if passes_length(t, factors, cfg.align):
                    stats["tuples_kept"] += 1
                    docs_with_tuples.add(t.doc)
                    yield t
                else:
                    stats["tuples_dropped_length"] += 1
                    dropped_fh.write(json.dumps(t.to_dict(), ensure_ascii=False) + "\n")

        tsv = write_alignments(run.path / ALIGNMENTS_FILE, kept(), cfg.langs, pivot)
    stats.update(extra_counts)
    stats["docs"] = len(docs)
    stats["docs_with_tuples"] = len(docs_with_tuples)
    state.record.update(
        {
            "encoder": encoder.name,
            "threshold": threshold,
            "length_factors": factors,
            "seconds": {k: round(v, 3) for k, v in timings.items()},
        }
    )
    outputs = [ALIGNMENTS_FILE, str(tsv.relative_to(run.path)), MINED_FILE, DROPPED_FILE]
    state.finish(counts=stats, outputs=outputs)
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def run_align(cfg: RunConfig, run: RunDir, *, show_progress: bool = True) -> StageResult:
    """Align the run directory's biographies (after the ``text`` stage)."""
    text_rec = run.require_done(
        TEXT_STAGE, needed_by=STAGE, hint=", or `occbio align --input FILE` for your own documents"
    )
    encoder = _encoder(cfg)
    docs = RunDocs(run, cfg.langs)
    inputs = {"text": text_rec["fingerprint"]}
    return _align(cfg, run, encoder, docs, inputs, Counter(), show_progress=show_progress)


def run_align_input(
    cfg: RunConfig, run: RunDir, input_path: Path, *, show_progress: bool = True
) -> StageResult:
    """Align documents given as JSON lines ``{"doc", "lang", "sentences"}``."""
    encoder = _encoder(cfg)  # an unknown encoder is reported before the input is read
    read_stats: Counter[str] = Counter()
    docs = read_docs_jsonl(input_path, cfg.langs, read_stats)
    inputs = {"input": file_identity(input_path)}
    return _align(
        cfg, run, encoder, _ListedDocs(docs), inputs, read_stats, show_progress=show_progress
    )
