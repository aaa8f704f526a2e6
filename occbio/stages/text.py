"""Stage ``text``: each person's biography per language, cleaned and split into sentences.

Reads ``entities.jsonl``; for every language either reads its ``pages-articles`` dump and
keeps the pages of the people's titles (with a ``multistream`` dump's index, found beside it or
given, only the bz2 streams that hold them; else the whole dump, once), or fetches each title's
page from the Wikipedia web (cached); turns wikitext or HTML into prose and prose into
:class:`Sentence` records. The manifest's ``dump_reads`` says how each dump was read.
Outputs ``text/{lang}.articles.jsonl`` and ``text/{lang}.sentences.jsonl`` (source order) and
``text/missing.jsonl`` (people whose article could not be had, with the reason).

This module is the stage itself: its inputs and fingerprint, and the per-language loop that
streams pages through the executor into the checkpointed output files. Where pages come from
(dump or web) is :mod:`occbio.stages.text_sources`; what happens to one page in a worker process
is :mod:`occbio.stages.text_workers`.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any

from occbio.config import ConfigError, RunConfig
from occbio.executor import Executor, LocalExecutor
from occbio.extract.clean import HOLE_KEY
from occbio.extract.compressed import special_file_problem
from occbio.extract.enterprise_html import is_enterprise_html_dump
from occbio.extract.mediawiki import normalise_title
from occbio.extract.wikipedia_dump import DumpError
from occbio.io.jsonl import JsonlIndex, read_jsonl
from occbio.records import Entity
from occbio.run import ChunkedWriter, RunDir, StageState, atomic_write, file_identity, fingerprint
from occbio.stages.common import StageResult, progress_bar, web_base_urls
from occbio.stages.entities import ENTITIES_FILE
from occbio.stages.entities import STAGE as ENTITIES_STAGE
from occbio.stages.text_sources import _DumpSource, _Source, _WebSource
from occbio.stages.text_workers import (
    _MIN_PAGES_FOR_WORKERS,
    _init_worker,
    _process_page,
)

__all__ = ["run_text", "articles_path", "sentences_path", "MISSING_FILE"]

log = logging.getLogger(__name__)

STAGE = "text"
TEXT_DIR = "text"
MISSING_FILE = f"{TEXT_DIR}/missing.jsonl"


def articles_path(run: RunDir, lang: str) -> Path:
    return run.path / TEXT_DIR / f"{lang}.articles.jsonl"


def sentences_path(run: RunDir, lang: str) -> Path:
    return run.path / TEXT_DIR / f"{lang}.sentences.jsonl"


def _inputs(cfg: RunConfig, entities_fp: str) -> dict[str, object]:
    if cfg.text_source == "web":
        return {"entities": entities_fp, "web": {"api": cfg.text.api, "sites": web_base_urls(cfg)}}
    dumps = {lang: cfg.resolved_text_dump(lang) for lang in cfg.langs}
    for lang, dump in dumps.items():
        if not dump.exists():
            raise FileNotFoundError(f"pages-articles dump for {lang!r} not found: {dump}")
        problem = special_file_problem(dump)
        if problem is not None:
            raise DumpError(f"pages-articles dump for {lang!r} {dump} {problem}")
    for lang, index in cfg.text.dump_indexes.items():
        if lang in dumps and is_enterprise_html_dump(dumps[lang]):
            raise ConfigError(
                f"text.dump_indexes.{lang}: {dumps[lang].name} is a Wikimedia Enterprise HTML "
                "dump, which has no multistream index: drop the index"
            )
        if lang in dumps and not cfg.sample and not index.is_file():
            problem = special_file_problem(index) or "not found"
            raise FileNotFoundError(f"multistream index for {lang!r} {problem}: {index}")
    return {"entities": entities_fp, "dumps": {lang: file_identity(p) for lang, p in dumps.items()}}


def run_text(
    cfg: RunConfig,
    run: RunDir,
    *,
    show_progress: bool = True,
    executor: Executor | None = None,
) -> StageResult:
    """Extract and clean the biographies of ``entities.jsonl``; skip when already done. Pages
    are cleaned by ``executor`` (default: worker processes on this machine)."""
    entities_rec = run.require_done(ENTITIES_STAGE, needed_by=STAGE)
    inputs = _inputs(cfg, entities_rec["fingerprint"])
    settings = {"langs": cfg.langs, "clean": cfg.clean.model_dump()}
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    if state.begin(fp, inputs=inputs, settings=settings):
        log.info("text: resuming an interrupted run")

    wanted, shared, n_people = _wanted_titles(run, cfg.langs)
    counts: Counter[str] = Counter()
    warnings: list[str] = []
    missing: list[dict[str, str]] = list(shared)
    outputs: list[str] = []
    reads: dict[str, str] = {}
    unrendered: dict[str, dict[str, int]] = {}
    n_pages = sum(len(titles) for titles in wanted.values())
    source = _WebSource(cfg) if cfg.text_source == "web" else _DumpSource(cfg, n_pages)
    executor = executor or LocalExecutor(cfg.workers)
    pool = executor.ordered_map(
        _init_worker,
        (cfg.clean.model_dump(), tuple(cfg.langs), cfg.gender.model_dump()),
        small=n_pages < _MIN_PAGES_FOR_WORKERS,
    )
    with pool, source:
        for lang in cfg.langs:
            found, skipped, lang_counts, lang_warnings = _extract_language(
                cfg, run, state, lang, source, wanted[lang], pool, show_progress=show_progress
            )
            for title, qid in wanted[lang].items():
                if qid not in found:
                    reason, detail = skipped.get(qid, (source.absent_reason, ""))
                    row = {"qid": qid, "lang": lang, "title": title, "reason": reason}
                    missing.append(row | ({"detail": detail} if detail else {}))
            holes = {k: lang_counts.pop(k) for k in list(lang_counts) if k.startswith(HOLE_KEY)}
            if holes:
                unrendered[lang] = dict(
                    sorted(((k[len(HOLE_KEY) :], v) for k, v in holes.items()),
                           key=lambda kv: (-kv[1], kv[0]))
                )  # fmt: skip
            lang_counts["articles_missing"] = len(wanted[lang]) - len(found)
            n_shared = sum(row["lang"] == lang for row in shared)
            if n_shared:
                lang_counts["people_title_shared"] = n_shared
            counts.update({f"{lang}.{k}": v for k, v in lang_counts.items()})
            warnings.extend(lang_warnings)
            if "read" in state.progress(lang):
                reads[lang] = state.progress(lang)["read"]
            outputs += [
                str(p.relative_to(run.path))
                for p in (articles_path(run, lang), sentences_path(run, lang))
            ]
            if lang_counts["articles_missing"]:
                log.warning(
                    "text: %d of %d %s articles not found in %s (listed in %s)",
                    lang_counts["articles_missing"],
                    len(wanted[lang]),
                    lang,
                    source.describe(lang),
                    MISSING_FILE,
                )
        counts.update(source.counts())

    with atomic_write(run.path / MISSING_FILE) as fh:
        for row in missing:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    outputs.append(MISSING_FILE)
    counts["people"] = n_people
    counts["people_in_all_langs"] = _people_in_all_langs(run, cfg.langs)
    if reads:
        state.record["dump_reads"] = reads
    # Sentences dropped because a template that carries words could not be rendered, by
    # template name and language: what to teach the renderer next on this dump.
    state.record["unrendered_templates"] = unrendered
    state.finish(counts=counts, outputs=outputs, warnings=warnings)
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def _wanted_titles(
    run: RunDir, langs: list[str]
) -> tuple[dict[str, dict[str, str]], list[dict[str, str]], int]:
    """{lang: {normalised title: qid}} of the people in ``entities.jsonl``, the rows of
    ``missing.jsonl`` for people whose title an earlier person has (Wikidata gives a page to
    one item only, a hand-made dump may not: the first keeps it), and the number of people."""
    wanted: dict[str, dict[str, str]] = {lang: {} for lang in langs}
    shared: list[dict[str, str]] = []
    n_people = 0
    for entity in read_jsonl(run.path / ENTITIES_FILE, Entity):
        n_people += 1
        for lang, title in entity.titles.items():
            if lang not in wanted:
                continue
            first = wanted[lang].setdefault(normalise_title(title), entity.qid)
            if first != entity.qid:
                detail = f"{first} has the same {lang} title"
                row = {"qid": entity.qid, "lang": lang, "title": title, "reason": "title_shared"}
                shared.append(row | {"detail": detail})
                log.warning("text: %s: %s; its page goes to %s only", entity.qid, detail, first)
    return wanted, shared, n_people


def _extract_language(
    cfg: RunConfig,
    run: RunDir,
    state: StageState,
    lang: str,
    source: _Source,
    wanted: dict[str, str],
    pool: Any,
    *,
    show_progress: bool,
) -> tuple[set[str], dict[str, tuple[str, str]], Counter[str], list[str]]:
    """Stream one language's pages into its articles and sentences files (checkpointed).

    Returns the QIDs with an article, {qid: (reason, detail)} of pages that could not be
    used, the counts and the warnings.
    """
    processing: Counter[str] = Counter()
    skipped_file = run.path / TEXT_DIR / f".{lang}.skipped.jsonl"
    writer = ChunkedWriter(
        state,
        lang,
        {
            "articles": articles_path(run, lang),
            "sentences": sentences_path(run, lang),
            "skipped": skipped_file,
        },
        chunk_size=cfg.checkpoint_every,
        stats=processing,
    )
    warnings: list[str] = list(state.progress(lang).get("warnings", []))
    if not writer.done:
        reader: Counter[str] = Counter()
        bar = progress_bar(show_progress, desc=f"text {lang}", total=len(wanted), unit=" pages")
        bar.update(writer.consumed)
        jobs = source.jobs(lang, wanted, skip=writer.consumed, reader=reader, warnings=warnings)
        try:
            for result in pool.map(_process_page, jobs):
                if result.article is None:
                    processing[f"pages_{result.skip_reason}"] += 1
                    row = {"qid": result.job.qid, "reason": result.skip_reason}
                    writer.add({"skipped": [row | {"detail": result.detail}]})
                    continue
                processing.update(result.stats)
                processing["articles"] += 1
                processing["sentences"] += len(result.sentences)
                writer.add({"articles": [result.article], "sentences": result.sentences})
                bar.update()
        finally:
            bar.close()
        unreadable = reader["pages_skipped_bad_xml"] + reader["pages_skipped_too_large"]
        if unreadable:
            warning = (
                f"{source.describe(lang)}: {unreadable} page(s) skipped as unreadable XML "
                "(the log names each, with its byte position)"
            )
            if warning not in warnings:
                warnings.append(warning)
        state.progress(lang)["warnings"] = warnings
        read = source.read_description(lang)
        if read is not None:
            state.progress(lang)["read"] = read
        # The dump's counts join the writer's only after its last commit, so they are saved once,
        # with ``done``: in an earlier snapshot a resume would count them twice, and saved after
        # ``done`` a kill in between would lose them.
        writer.commit()
        processing.update({f"dump_{k}": v for k, v in reader.items()})
        writer.finish()
    found = set(JsonlIndex(articles_path(run, lang), "qid").spans)  # keys only: no text parsed
    skipped: dict[str, tuple[str, str]] = {}
    with open(skipped_file, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            skipped.setdefault(row["qid"], (row["reason"], row.get("detail", "")))
    return found, skipped, processing, warnings


def _people_in_all_langs(run: RunDir, langs: list[str]) -> int:
    """How many people have at least one kept sentence in every language."""
    per_lang = []
    for lang in langs:
        with open(sentences_path(run, lang), encoding="utf-8") as fh:
            per_lang.append({json.loads(line)["qid"] for line in fh if line.strip()})
    return len(set.intersection(*per_lang)) if per_lang else 0
