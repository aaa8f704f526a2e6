"""Stage ``align``: each person's sentences mined into multi-way parallel tuples.

Reads ``text/{lang}.sentences.jsonl`` (or, for ``occbio align --input``, anyone's documents),
draws each language's background sample (``align/background/``, for the language-normalised
margin), embeds every sentence once per encoder (``embeddings/``, content-addressed and
resumable), mines pivot–X pairs with the margin criterion and keeps pivot sentences aligned in
every language. Outputs ``align/mined.jsonl`` (every retrieved tuple with its scores, before
any threshold), ``alignments.jsonl`` + ``alignments.tsv`` (the tuples the acceptance rule and
the length filter keep) and ``align/dropped.jsonl`` (the others with the reason, to audit a
threshold). A re-run that changes only the threshold, the cosine floor or the length filter
reuses ``align/mined.jsonl``: it takes seconds and encodes nothing.

Memory follows the number of people, not of sentences: a person's sentences are read when
their turn comes (through a byte-offset index of the sentences files), mined tuples are
committed to disk in chunks (so a killed run resumes after the last chunk) and the length
filter streams over them.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from occbio.align.calibration import precision_curve
from occbio.align.encoders import build_encoder, encoder_options, resolve_encoder_name
from occbio.align.inputs import Doc, read_docs_jsonl
from occbio.align.pipeline import (
    AlignedTuple,
    acceptance,
    block_texts,
    length_factors,
    select_tuples,
    write_alignments,
)
from occbio.align.selection import (
    choose_floor,
    evidence_factors_of,
    mined_probabilities,
    probability_model,
    with_probability,
)
from occbio.config import ConfigError, RunConfig
from occbio.executor import Executor, LocalExecutor
from occbio.io.jsonl import JsonlIndex, read_jsonl
from occbio.records import Entity, Sentence
from occbio.review.calibration import judged_above, reviewed_model
from occbio.run import RunDir, atomic_write, file_identity, fingerprint
from occbio.stages.align_mining import (
    MINED_FILE,
    mine_run,
)
from occbio.stages.common import StageResult
from occbio.stages.entities import ENTITIES_FILE
from occbio.stages.text import STAGE as TEXT_STAGE
from occbio.stages.text import sentences_path

__all__ = ["ALIGNMENTS_FILE", "run_align", "run_align_input"]

log = logging.getLogger(__name__)

STAGE = "align"
ALIGNMENTS_FILE = "alignments.jsonl"
DROPPED_FILE = "align/dropped.jsonl"
#: Settings that cannot change a tuple: where the weights lie and how the model runs (the
#: encoder's name fingerprints its weights, prefix and pooling), how many people a shard holds.
_NOT_MINING_KEYS = frozenset(
    {"laser_dir", "model_dir", "device", "batch_size", "prefix", "pooling", "block_docs"}
)
#: Settings that change what is selected from the mined tuples, not the mining itself.
_SELECTION_KEYS = frozenset(
    "threshold min_prob target_precision min_cos length_filter max_length_ratio length_slack "
    "length_unit length_factors "
    "estimate_length_factors".split()
)


def encoder_spec(cfg: RunConfig) -> tuple[str, dict[str, Any]]:
    """The registered name and options that build the run's encoder (on any worker)."""
    name = resolve_encoder_name(cfg.align.encoder, laser_dir=cfg.align.laser_dir)
    return name, encoder_options(name, cfg.align)  # device resolved here, once


def encoder_for(cfg: RunConfig) -> Any:
    name, options = encoder_spec(cfg)
    encoder = build_encoder(name, **options)
    unsupported = [lang for lang in cfg.langs if not encoder.supports(lang)]
    if unsupported:
        log.warning(
            "align: encoder %s was not trained on %s; alignments there will be poor",
            encoder.name,
            ", ".join(unsupported),
        )
    return encoder


def acceptance_rule(cfg: RunConfig, encoder: Any) -> Any:
    try:
        return acceptance(cfg.align, encoder)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


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

    def ids(self) -> list[str]:
        return self.order

    def sentence_count(self, langs: Sequence[str]) -> int:
        """Sentences of the documents that have every language: what the align stage embeds."""
        lines = [self.index[lang].lines for lang in langs]
        return sum(sum(n[qid] for n in lines) for qid in self.order if all(n[qid] for n in lines))

    def with_every_lang(self, langs: Sequence[str]) -> tuple[list[str], int]:
        """The people with a sentence in every one of ``langs`` (in run order), and how many
        sentences the others hold: a tuple needs every language, so only the former are read,
        embedded and mined (found from the index, without reading a sentence)."""
        lines = [self.index[lang].lines for lang in langs]
        complete = [qid for qid in self.order if all(n[qid] for n in lines)]
        held = sum(n[qid] for qid in self.order for n in lines)
        return complete, held - self.sentence_count(langs)

    def iter_from(self, skip: int = 0) -> Iterator[Doc]:
        """The documents after the first ``skip``."""
        return self.docs_for(self.order[skip:])

    def docs_for(self, ids: Iterable[str]) -> Iterator[Doc]:
        """The documents of ``ids``, in that order."""
        with ExitStack() as stack:
            for index in self.index.values():
                stack.enter_context(index)
            for qid in ids:
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

    def ids(self) -> list[str]:
        return [doc.doc for doc in self.docs]

    def sentence_count(self, langs: Sequence[str]) -> int:
        return sum(len(texts) for texts in block_texts(self.docs, langs).values())

    def with_every_lang(self, langs: Sequence[str]) -> tuple[list[str], int]:
        complete = [doc.doc for doc in self.docs if all(doc.sentences.get(x) for x in langs)]
        held = sum(len(doc.sentences.get(lang, ())) for doc in self.docs for lang in langs)
        return complete, held - self.sentence_count(langs)

    def iter_from(self, skip: int = 0) -> Iterator[Doc]:
        return iter(self.docs[skip:])

    def docs_for(self, ids: Iterable[str]) -> Iterator[Doc]:
        by_id = {doc.doc: doc for doc in self.docs}
        return (by_id[i] for i in ids)


def _align(
    cfg: RunConfig,
    run: RunDir,
    encoder: Any,
    docs: RunDocs | _ListedDocs,
    inputs: dict[str, Any],
    extra_counts: Counter[str],
    *,
    show_progress: bool,
    executor: Executor | None,
) -> StageResult:
    rule = acceptance_rule(cfg, encoder)
    pivot = cfg.pivot
    align_settings = cfg.align.model_dump(mode="json", exclude=_NOT_MINING_KEYS)
    mining = {
        "langs": cfg.langs,
        "pivot": pivot,
        "encoder": encoder.name,
        **{k: v for k, v in align_settings.items() if k not in _SELECTION_KEYS},
    }
    selection = {
        **{k: v for k, v in align_settings.items() if k in _SELECTION_KEYS},
        "threshold": rule.threshold,
        "min_prob": rule.min_prob,
        "min_cos": rule.min_cos,
    }
    # corrected by the run's own review where `occbio review import` wrote a calibration
    model, reviewed = reviewed_model(run.path, probability_model(cfg.align, encoder))
    if model is not None:  # another model (a new occbio, a new review) selects again
        selection["model"] = fingerprint(model.to_dict())
    settings = {"mining": mining, "selection": selection}
    mine_fp = fingerprint({"inputs": inputs, "mining": mining})
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    previous = dict(state.record)
    mined_path = run.path / MINED_FILE
    reuse = (
        previous.get("mine_fingerprint") == mine_fp
        and isinstance(previous.get("mined_stats"), dict)
        and mined_path.exists()
    )
    state.begin(fp, inputs=inputs, settings=settings)
    log.info(
        "align: encoder %s, %s margin (%s scope, k=%d), kept when %s, pivot %s",
        encoder.name,
        cfg.align.margin,
        cfg.align.scope,
        cfg.align.k,
        rule.describe(),
        pivot,
    )

    stats: Counter[str] = Counter()
    timings: Counter[str] = Counter()
    if reuse:
        log.info("align: only the selection changed; reusing %s (nothing is encoded)", MINED_FILE)
        stats.update(previous["mined_stats"])
    else:
        executor = executor or LocalExecutor(cfg.workers)
        mine_run(
            cfg, run, encoder, docs, inputs, state, stats, timings, show_progress, executor,
            encoder_spec(cfg),
        )  # fmt: skip
    state.record.update({"mine_fingerprint": mine_fp, "mined_stats": dict(stats)})
    run.save()

    def mined() -> Iterator[AlignedTuple]:
        return read_jsonl(mined_path, AlignedTuple)

    ev_factors = evidence_factors_of(mined(), pivot=pivot, model=model)
    # a target precision's floor, from every mined tuple's probability
    probs = (
        mined_probabilities(mined(), pivot=pivot, model=model, factors=ev_factors)
        if model is not None
        else []
    )
    rule, floor = choose_floor(rule, probs)
    if floor is not None and floor.kept == 0 and probs:
        log.warning(
            "align: no floor on P(parallel) reaches the target precision %g on this run's "
            "%d mined tuples (%s): nothing is kept; lower --target-precision",
            rule.target_precision, len(probs),
            "the model corrected by the run's review" if model and model.recalibration
            else "the shipped model",
        )  # fmt: skip
    elif floor is not None:
        log.info(
            "align: P(parallel) >= %.4f keeps %d of the mined tuples, expected precision %s "
            "(target %g), expected recall %s",
            floor.floor, floor.kept, floor.expected_precision, rule.target_precision,
            floor.expected_recall,
        )  # fmt: skip
    if model is not None:  # the length filter's factors come from tuples the rule accepts
        factors = length_factors(
            (with_probability(t, pivot=pivot, model=model, factors=ev_factors) for t in mined()),
            pivot=pivot, cfg=cfg.align, rule=rule,
        )  # fmt: skip
    else:
        factors = length_factors(mined(), pivot=pivot, cfg=cfg.align, rule=rule)
    docs_with_tuples: set[str] = set()
    kept_probs: list[float] = []
    with atomic_write(run.path / DROPPED_FILE) as dropped_fh:

        def on_drop(t: AlignedTuple, reason: str) -> None:
            # those are all in mined.jsonl with their scores
            if reason not in ("below_threshold", "below_min_prob"):
                row = {**t.to_dict(), "reason": reason}
                dropped_fh.write(json.dumps(row, ensure_ascii=False) + "\n")

        def kept() -> Iterator[AlignedTuple]:
            for t in select_tuples(
                mined(),
                rule=rule,
                pivot=pivot,
                cfg=cfg.align,
                factors=factors,
                stats=stats,
                on_drop=on_drop,
                model=model,
                evidence_factors=ev_factors,
            ):
                docs_with_tuples.add(t.doc)
                if t.prob is not None:
                    kept_probs.append(t.prob)
                yield t

        tsv = write_alignments(run.path / ALIGNMENTS_FILE, kept(), cfg.langs, pivot)
    stats.update(extra_counts)
    stats["docs"] = len(docs)
    stats["docs_with_tuples"] = len(docs_with_tuples)
    state.record.update(
        {
            "encoder": encoder.name,
            "threshold": rule.threshold,
            "min_prob": rule.min_prob,
            "target_precision": rule.target_precision,
            # the model's precision/recall curve on this run's mined tuples (occbio stats)
            "precision_curve": precision_curve(probs) if probs else None,
            "min_cos": rule.min_cos,
            "length_factors": factors,
            "evidence_factors": ev_factors,
            # the mean P(parallel) of the kept tuples: the corpus's expected precision
            "expected_precision": (
                round(sum(kept_probs) / len(kept_probs), 4) if kept_probs else None
            ),
            # whose estimate that is: the shipped model's, or corrected by the run's review
            # (with how the judged pairs above the floor fared)
            "calibration": (
                {"source": "review", **judged_above(model, reviewed, rule.min_prob)}
                if model is not None and model.recalibration
                else {"source": "model"}
                if model is not None
                else None
            ),
            # their sum over that of every mined tuple: the share of the true pairs mining
            # retrieved that the corpus keeps, as the model expects it
            "expected_recall": (
                round(sum(kept_probs) / sum(probs), 4) if kept_probs and sum(probs) else None
            ),
            "seconds": {k: round(v, 3) for k, v in timings.items()},
        }
    )
    outputs = [ALIGNMENTS_FILE, str(tsv.relative_to(run.path)), MINED_FILE, DROPPED_FILE]
    state.finish(counts=stats, outputs=outputs)
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def align_inputs(
    cfg: RunConfig, run: RunDir, input_path: Path | None, read_stats: Counter[str]
) -> tuple[RunDocs | _ListedDocs, dict[str, Any]]:
    """The documents to align and what identifies them: the run's biographies (after the
    ``text`` stage), or the documents of ``input_path``."""
    if input_path is not None:
        docs = read_docs_jsonl(input_path, cfg.langs, read_stats, clean=cfg.clean)
        return _ListedDocs(docs), {"input": file_identity(input_path)}
    text_rec = run.require_done(
        TEXT_STAGE, needed_by=STAGE, hint=", or `occbio align --input FILE` for your own documents"
    )
    return RunDocs(run, cfg.langs), {"text": text_rec["fingerprint"]}


def run_align(
    cfg: RunConfig,
    run: RunDir,
    *,
    show_progress: bool = True,
    executor: Executor | None = None,
) -> StageResult:
    """Align the run directory's biographies (after the ``text`` stage); the shards of people
    run on ``executor`` (default: this process)."""
    docs, inputs = align_inputs(cfg, run, None, Counter())
    encoder = encoder_for(cfg)
    return _align(
        cfg, run, encoder, docs, inputs, Counter(), show_progress=show_progress, executor=executor
    )


def run_align_input(
    cfg: RunConfig,
    run: RunDir,
    input_path: Path,
    *,
    show_progress: bool = True,
    executor: Executor | None = None,
) -> StageResult:
    """Align documents given as JSON lines ``{"doc", "lang", "sentences"}``."""
    encoder = encoder_for(cfg)  # an unknown encoder is reported before the input is read
    read_stats: Counter[str] = Counter()
    docs, inputs = align_inputs(cfg, run, input_path, read_stats)
    return _align(
        cfg, run, encoder, docs, inputs, read_stats, show_progress=show_progress, executor=executor
    )
