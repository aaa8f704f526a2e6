"""Stage ``text``: each person's biography per language, cleaned and split into sentences.

Reads ``entities.jsonl``; for every language streams its ``pages-articles`` dump once, keeps the
pages of the people's titles, turns wikitext into prose and prose into :class:`Sentence`
records. Outputs ``text/{lang}.articles.jsonl`` and ``text/{lang}.sentences.jsonl`` (dump
order) and ``text/missing.jsonl`` (people whose article was not in the dump).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from occbio.config import CleanConfig, RunConfig
from occbio.extract.clean import LanguageIdentifier, clean_article
from occbio.extract.wikipedia_dump import (
    Page,
    TruncatedDumpError,
    iter_pages,
    normalise_title,
    wikitext_to_text,
)
from occbio.io.jsonl import read_jsonl
from occbio.records import Article, Entity, Sentence
from occbio.run import ChunkedWriter, RunDir, StageState, atomic_write, file_identity, fingerprint
from occbio.stages.common import (
    OrderedPool,
    StageResult,
    keep_until_truncated,
    progress_bar,
    resolve_workers,
)
from occbio.stages.entities import ENTITIES_FILE
from occbio.stages.entities import STAGE as ENTITIES_STAGE

__all__ = ["run_text", "articles_path", "sentences_path", "MISSING_FILE"]

log = logging.getLogger(__name__)

STAGE = "text"
_MIN_PAGES_FOR_WORKERS = 300
TEXT_DIR = "text"
MISSING_FILE = f"{TEXT_DIR}/missing.jsonl"


def articles_path(run: RunDir, lang: str) -> Path:
    return run.path / TEXT_DIR / f"{lang}.articles.jsonl"


def sentences_path(run: RunDir, lang: str) -> Path:
    return run.path / TEXT_DIR / f"{lang}.sentences.jsonl"


def run_text(cfg: RunConfig, run: RunDir, *, show_progress: bool = True) -> StageResult:
    """Extract and clean the biographies of ``entities.jsonl``; skip when already done."""
    entities_rec = run.require_done(ENTITIES_STAGE, needed_by=STAGE)
    dumps = {lang: cfg.resolved_text_dump(lang) for lang in cfg.langs}
    for lang, dump in dumps.items():
        if not dump.exists():
            raise FileNotFoundError(f"pages-articles dump for {lang!r} not found: {dump}")
    inputs = {
        "entities": entities_rec["fingerprint"],
        "dumps": {lang: file_identity(p) for lang, p in dumps.items()},
    }
    settings = {"langs": cfg.langs, "clean": cfg.clean.model_dump()}
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    if state.begin(fp, inputs=inputs, settings=settings):
        log.info("text: resuming an interrupted run")

    wanted, n_people = _wanted_titles(run, cfg.langs)
    counts: Counter[str] = Counter()
    warnings: list[str] = []
    missing: list[dict[str, str]] = []
    outputs: list[str] = []
    # Spawning workers costs about a second: left to choose (workers = 0), a handful of pages
    # is cleaned in this process.
    n_pages = sum(len(titles) for titles in wanted.values())
    auto_small = cfg.workers == 0 and n_pages < _MIN_PAGES_FOR_WORKERS
    workers = 1 if auto_small else resolve_workers(cfg.workers)
    pool = OrderedPool(workers, _init_worker, (cfg.clean.model_dump(), tuple(cfg.langs)))
    with pool:
        for lang in cfg.langs:
            found, lang_counts, lang_warnings = _extract_language(
                cfg, run, state, lang, dumps[lang], wanted[lang], pool, show_progress=show_progress
            )
            for title, qid in wanted[lang].items():
                if qid not in found:
                    missing.append({"qid": qid, "lang": lang, "title": title})
            lang_counts["articles_missing"] = len(wanted[lang]) - len(found)
            counts.update({f"{lang}.{k}": v for k, v in lang_counts.items()})
            warnings.extend(lang_warnings)
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
                    dumps[lang].name,
                    MISSING_FILE,
                )

    with atomic_write(run.path / MISSING_FILE) as fh:
        for row in missing:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    outputs.append(MISSING_FILE)
    counts["people"] = n_people
    counts["people_in_all_langs"] = _people_in_all_langs(run, cfg.langs)
    state.finish(counts=counts, outputs=outputs, warnings=warnings)
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def _wanted_titles(run: RunDir, langs: list[str]) -> tuple[dict[str, dict[str, str]], int]:
    """{lang: {normalised title: qid}} of the people in ``entities.jsonl``, and their number."""
    wanted: dict[str, dict[str, str]] = {lang: {} for lang in langs}
    n_people = 0
    for entity in read_jsonl(run.path / ENTITIES_FILE, Entity):
        n_people += 1
        for lang, title in entity.titles.items():
            if lang in wanted:
                wanted[lang][normalise_title(title)] = entity.qid
    return wanted, n_people


def _extract_language(
    cfg: RunConfig,
    run: RunDir,
    state: StageState,
    lang: str,
    dump: Path,
    wanted: dict[str, str],
    pool: OrderedPool,
    *,
    show_progress: bool,
) -> tuple[set[str], Counter[str], list[str]]:
    """Stream one language's dump into its articles and sentences files (checkpointed)."""
    processing: Counter[str] = Counter()
    writer = ChunkedWriter(
        state,
        lang,
        {"articles": articles_path(run, lang), "sentences": sentences_path(run, lang)},
        chunk_size=cfg.checkpoint_every,
        stats=processing,
    )
    warnings: list[str] = list(state.progress(lang).get("warnings", []))
    if not writer.done:
        reader: Counter[str] = Counter()
        bar = progress_bar(show_progress, desc=f"text {lang}", total=len(wanted), unit=" pages")
        bar.update(writer.consumed)
        pages = keep_until_truncated(
            iter_pages(dump, titles=wanted, stats=reader), TruncatedDumpError, warnings
        )
        jobs = _page_jobs(pages, wanted, lang, skip=writer.consumed)
        try:
            for result in pool.map(_process_page, jobs):
                if result is None:  # a second page with the same title: the first one counts
                    processing["pages_duplicate_title"] += 1
                    writer.add({})
                    continue
                article, sentences, page_stats = result
                processing.update(page_stats)
                processing["articles"] += 1
                processing["sentences"] += len(sentences)
                writer.add({"articles": [article], "sentences": sentences})
                bar.update()
        finally:
            bar.close()
        state.progress(lang)["warnings"] = warnings
        writer.finish()
        processing.update({f"dump_{k}": v for k, v in reader.items()})
        state.progress(lang)["stats"] = dict(processing)
        state.run.save()
    else:
        processing = Counter(state.progress(lang).get("stats", {}))
    found = {a.qid for a in read_jsonl(articles_path(run, lang), Article)}
    return found, processing, warnings


@dataclass(frozen=True, slots=True)
class _PageJob:
    qid: str
    lang: str
    page: Page | None  # None: a repeated title, nothing to do


def _page_jobs(
    pages: Iterator[Page], wanted: dict[str, str], lang: str, *, skip: int
) -> Iterator[_PageJob]:
    """One job per kept page after the first ``skip`` (committed before an interruption)."""
    seen: set[str] = set()
    for i, page in enumerate(pages):
        qid = wanted[normalise_title(page.title)]
        duplicate = qid in seen
        seen.add(qid)
        if i >= skip:
            yield _PageJob(qid, lang, None if duplicate else page)


# What each worker process loads once: the cleaning settings and the language identifier.
_worker: dict[str, Any] = {}


def _init_worker(clean: dict[str, Any], langs: tuple[str, ...]) -> None:
    config = CleanConfig(**clean)
    _worker["config"] = config
    _worker["identifier"] = (
        LanguageIdentifier.for_langs(langs, min_prob=config.langid_min_prob)
        if config.langid
        else None
    )


def _process_page(job: _PageJob) -> tuple[Article, list[Sentence], Counter[str]] | None:
    """Wikitext -> prose -> cleaned sentences, for one page (runs in a worker process)."""
    if job.page is None:
        return None
    page = job.page
    article = Article(
        qid=job.qid,
        lang=job.lang,
        title=page.title,
        page_id=page.page_id,
        text=wikitext_to_text(page.wikitext),
    )
    stats: Counter[str] = Counter()
    sentences = clean_article(
        article, config=_worker["config"], stats=stats, identifier=_worker["identifier"]
    )
    return article, sentences, stats


def _people_in_all_langs(run: RunDir, langs: list[str]) -> int:
    """How many people have at least one kept sentence in every language."""
    per_lang = []
    for lang in langs:
        with open(sentences_path(run, lang), encoding="utf-8") as fh:
            per_lang.append({json.loads(line)["qid"] for line in fh if line.strip()})
    return len(set.intersection(*per_lang)) if per_lang else 0
