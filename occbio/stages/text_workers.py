"""The text stage's page cleaning, the part that runs in worker processes.

A :class:`_PageJob` (one wanted page's markup, from a dump or the web) goes in; a
:class:`_PageResult` (its :class:`~occbio.records.Article` and cleaned :class:`Sentence` records,
or why it could not be used) comes out. The article carries its gender evidence (``gender``:
pronoun counts, the lead's agreement cues, the decision with the run's thresholds; see
:func:`occbio.gender.pronouns.infer_gender`), which the balance stage reads back. The executor
hands :func:`_init_worker` and :func:`_process_page` to spawned processes or Dask workers by
their module path, so they live here, in a module with no import of the stage itself: keep this
path stable.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from occbio.config import CleanConfig
from occbio.extract.clean import LanguageIdentifier, clean_article
from occbio.extract.html_text import PageShapeError, html_to_text
from occbio.extract.wikitext import wikitext_to_text
from occbio.extract.wikitext_templates import strip_holes
from occbio.gender.pronouns import infer_gender
from occbio.records import Article, Sentence, wiki_id

_MIN_PAGES_FOR_WORKERS = 300


@dataclass(frozen=True, slots=True)
class _PageJob:
    """One wanted page to clean, or (``markup`` None) one that cannot be, and why."""

    qid: str
    lang: str
    title: str
    page_id: int
    markup: str | None
    kind: Literal["wikitext", "html"] = "wikitext"
    skip_reason: str = ""
    detail: str = ""
    revision_id: int = 0
    revision_timestamp: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class _PageResult:
    job: _PageJob
    article: Article | None = None
    sentences: list[Sentence] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    skip_reason: str = ""
    detail: str = ""


# What each worker process loads once: the cleaning settings and the language identifier.
_worker: dict[str, Any] = {}


def _init_worker(
    clean: dict[str, Any], langs: tuple[str, ...], gender: dict[str, Any] | None = None
) -> None:
    """Load the cleaning settings, the language identifier and the gender thresholds
    (``gender``: ``pronoun_min_count``, ``pronoun_margin``; the defaults when None)."""
    config = CleanConfig(**clean)
    _worker["config"] = config
    gender = gender or {}
    _worker["gender"] = {
        "min_count": int(gender.get("pronoun_min_count", 3)),
        "margin": float(gender.get("pronoun_margin", 2.0)),
    }
    _worker["identifier"] = (
        LanguageIdentifier.for_langs(langs, min_prob=config.langid_min_prob)
        if config.langid
        else None
    )


def _process_page(job: _PageJob) -> _PageResult:
    """Markup -> prose -> cleaned sentences, for one page (runs in a worker process)."""
    if job.markup is None:
        return _PageResult(job, skip_reason=job.skip_reason, detail=job.detail)
    if job.kind == "html":
        try:
            text = html_to_text(job.markup)
        except PageShapeError as exc:
            return _PageResult(job, skip_reason="bad_shape", detail=str(exc))
    else:
        text = wikitext_to_text(
            job.markup, job.lang, today=_revision_date(job.revision_timestamp), keep_holes=True
        )
    thresholds = _worker.get("gender") or {"min_count": 3, "margin": 2.0}
    evidence = infer_gender(strip_holes(text), job.lang, title=job.title, **thresholds)
    article = Article(
        qid=job.qid,
        lang=job.lang,
        title=job.title,
        page_id=job.page_id,
        text=text,
        revision_id=wiki_id(job.revision_id),  # what a dump or site gave, checked
        revision_timestamp=job.revision_timestamp,
        source=job.source,
        gender=evidence.to_dict(),
    )
    stats: Counter[str] = Counter()
    sentences = clean_article(
        article, config=_worker["config"], stats=stats, identifier=_worker["identifier"]
    )
    article.text = strip_holes(article.text)  # the holes served the cleaning; not stored
    return _PageResult(job, article, sentences, stats)


def _revision_date(timestamp: str) -> dt.date | None:
    """The date of an ISO 8601 revision timestamp (an age "until today" counts to it)."""
    try:
        return dt.date.fromisoformat(timestamp[:10]) if timestamp else None
    except ValueError:
        return None
