"""Stage ``align``: each person's sentences mined into multi-way parallel tuples.

Reads ``text/{lang}.sentences.jsonl`` (or, for ``occbio align --input``, anyone's documents),
embeds every sentence once per encoder (``embeddings/``, content-addressed and resumable), mines
pivot–X pairs with the margin criterion, keeps pivot sentences aligned in every language and
applies the length filter. Outputs ``align/mined.jsonl`` (every tuple above the threshold, with
its scores), ``alignments.jsonl`` + ``alignments.tsv`` (after the length filter) and
``align/dropped_length.jsonl`` (what the length filter dropped, to audit it).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from occbio.align.encoders import build_encoder, resolve_encoder_name
from occbio.align.pipeline import (
    AlignedTuple,
    Doc,
    align_documents,
    filter_by_length,
    read_docs_jsonl,
    write_alignments,
)
from occbio.config import ConfigError, RunConfig
from occbio.io.jsonl import read_jsonl, write_jsonl
from occbio.records import Entity, Sentence
from occbio.run import RunDir, file_identity, fingerprint
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


def _docs_from_run(run: RunDir, langs: list[str]) -> list[Doc]:
    """Every person's sentences per language, people in the order of ``entities.jsonl``."""
    by_person: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for lang in langs:
        for s in read_jsonl(sentences_path(run, lang), Sentence):
            by_person[s.qid].setdefault(lang, []).append(s.text)
    order = [e.qid for e in read_jsonl(run.path / ENTITIES_FILE, Entity)]
    return [Doc(qid, by_person[qid]) for qid in order if qid in by_person]


def _align(
    cfg: RunConfig,
    run: RunDir,
    encoder: Any,
    docs: list[Doc],
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

    stats: Counter[str] = Counter(extra_counts)
    timings: Counter[str] = Counter()
    bar = progress_bar(show_progress, desc="align", total=len(docs), unit=" docs")
    mined: list[AlignedTuple] = []
    try:
        for t in align_documents(
            docs,
            langs=cfg.langs,
            pivot=pivot,
            encoder=encoder,
            cache_root=run.path / EMBEDDINGS_DIR,
            cfg=cfg.align,
            threshold=threshold,
            stats=stats,
            timings=timings,
        ):
            mined.append(t)
            bar.n = stats["docs_mined"]
            bar.refresh()
    finally:
        bar.close()
    kept, dropped, factors = filter_by_length(mined, pivot=pivot, cfg=cfg.align, stats=stats)
    write_jsonl(run.path / MINED_FILE, mined)
    write_jsonl(run.path / DROPPED_FILE, dropped)
    tsv = write_alignments(run.path / ALIGNMENTS_FILE, kept, cfg.langs, pivot)
    stats["docs"] = len(docs)
    stats["docs_with_tuples"] = len({t.doc for t in kept})
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
    docs = _docs_from_run(run, cfg.langs)
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
    return _align(cfg, run, encoder, docs, inputs, read_stats, show_progress=show_progress)
