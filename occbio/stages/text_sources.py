"""Where the text stage's pages come from: a language's dump, or its Wikipedia.

Each source turns a language's wanted titles into :class:`_PageJob` records for the workers of
:mod:`occbio.stages.text_workers`, in source order, able to start after the pages a resumed run
has already committed. :class:`_DumpSource` reads the dump (through its multistream index when it
has one), handing the languages whose dump is a Wikimedia Enterprise HTML dump to
:class:`_HtmlDumpSource`; :class:`_WebSource` fetches each page (cached). Kept apart from the
stage so the stage reads as what it does with the pages, not how each kind of source finds them.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from occbio.config import RunConfig
from occbio.executor import resolve_workers
from occbio.extract.enterprise_html import HtmlPage, is_enterprise_html_dump, iter_html_pages
from occbio.extract.mediawiki import normalise_title
from occbio.extract.multistream import DumpRead, read_pages
from occbio.extract.wikipedia_dump import TruncatedDumpError
from occbio.stages.common import keep_until_truncated, web_base_urls, web_client
from occbio.stages.text_workers import _MIN_PAGES_FOR_WORKERS, _PageJob

log = logging.getLogger(__name__)

_QID = re.compile(r"Q[1-9][0-9]*")

#: How many pages that repeat a title are logged one by one (all are counted).
_MAX_LOGGED = 10


class _DumpSource:
    """Pages from each language's pages-articles dump, in dump order: through the dump's
    multistream index when it has one that fits (``workers`` processes decompress the
    streams), else by reading the whole dump. A language whose dump is an Enterprise HTML
    dump (told by its content) is read by :class:`_HtmlDumpSource`."""

    absent_reason = "not_in_dump"

    def __init__(self, cfg: RunConfig, n_pages: int) -> None:
        self.dumps = {lang: cfg.resolved_text_dump(lang) for lang in cfg.langs}
        self.html = _HtmlDumpSource(
            {lang: p for lang, p in self.dumps.items() if is_enterprise_html_dump(p)}
        )
        self.indexes = {} if cfg.sample else dict(cfg.text.dump_indexes)
        # Local processes (the dump is a local file, whatever the executor); spawning them
        # costs about a second: left to choose, a few pages are read in this process.
        small = cfg.workers == 0 and n_pages < _MIN_PAGES_FOR_WORKERS
        self.workers = 1 if small else resolve_workers(cfg.workers)
        self.reads: dict[str, DumpRead] = {}

    def describe(self, lang: str) -> str:
        return self.dumps[lang].name

    def read_description(self, lang: str) -> str | None:
        """How ``lang``'s dump was read (for the manifest), once it was."""
        if lang in self.html.dumps:
            return self.html.read_description(lang)
        read = self.reads.get(lang)
        return read.describe() if read is not None else None

    def jobs(
        self,
        lang: str,
        wanted: dict[str, str],
        *,
        skip: int,
        reader: Counter[str],
        warnings: list[str],
    ) -> Iterator[_PageJob]:
        """One job per kept page after the first ``skip`` (committed before an interruption)."""
        if lang in self.html.dumps:
            yield from self.html.jobs(lang, wanted, skip=skip, reader=reader, warnings=warnings)
            return
        read = self.reads[lang] = DumpRead()
        found = read_pages(
            self.dumps[lang],
            titles=wanted,
            stats=reader,
            index=self.indexes.get(lang),
            workers=self.workers,
            report=read,
        )
        pages = keep_until_truncated(found, TruncatedDumpError, warnings)
        # where each page was read: the dump's file name (which carries its date, as
        # enwiki-20240601-pages-articles.xml.bz2 does), never its path on this machine
        source = f"dump:{self.dumps[lang].name}"
        seen: set[str] = set()
        logged = 0
        for i, page in enumerate(pages):
            qid = wanted[normalise_title(page.title)]
            duplicate = qid in seen
            seen.add(qid)
            if i < skip:
                continue
            if duplicate:  # a second page with the same title: the first one counts
                logged += 1
                if logged <= _MAX_LOGGED:
                    log.warning(
                        "text: %s: page %r (id %d) repeats the title of an earlier page; the "
                        "first is kept (counted in pages_duplicate_title)",
                        self.dumps[lang].name,
                        page.title,
                        page.page_id,
                    )
                yield _PageJob(
                    qid, lang, page.title, page.page_id, None, skip_reason="duplicate_title"
                )
            else:
                yield _PageJob(
                    qid,
                    lang,
                    page.title,
                    page.page_id,
                    page.wikitext,
                    revision_id=page.revision_id,
                    revision_timestamp=page.revision_timestamp,
                    source=source,
                )
        warnings.extend(w for w in read.warnings if w not in warnings)

    def counts(self) -> dict[str, int]:
        return {}

    def __enter__(self) -> _DumpSource:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _HtmlDumpSource:
    """Pages from each language's Wikimedia Enterprise HTML dump, in dump order (one streaming
    pass: :mod:`occbio.extract.enterprise_html`); the rendered HTML is cleaned by
    :func:`~occbio.extract.html_text.html_to_text`, as pages fetched from the web are, so the
    output of templates is kept. Each article carries its revision id and time.

    Which person a page is for: the one whose Wikidata item is the page's
    (``main_entity.identifier``), whatever the page's title (a page renamed since the people
    were read); else the one whose title is the page's, or the title of one of its redirects.
    A title match is refused when page and person both have a Wikidata item and the items
    differ (the title went to another subject): the person is listed missing with reason
    ``other_item``, which names the page and its item.
    """

    absent_reason = "not_in_dump"

    def __init__(self, dumps: dict[str, Path]) -> None:
        self.dumps = dumps
        self.read: set[str] = set()

    def describe(self, lang: str) -> str:
        return self.dumps[lang].name

    def read_description(self, lang: str) -> str | None:
        return "Enterprise HTML dump, full scan" if lang in self.read else None

    def jobs(
        self,
        lang: str,
        wanted: dict[str, str],
        *,
        skip: int,
        reader: Counter[str],
        warnings: list[str],
    ) -> Iterator[_PageJob]:
        """One job per matched page after the first ``skip`` (committed before an interruption)."""
        path = self.dumps[lang]
        items = {qid for qid in wanted.values() if _QID.fullmatch(qid)}
        title_of = {qid: title for title, qid in wanted.items()}
        found = iter_html_pages(path, titles=wanted, qids=items, stats=reader)
        seen: set[str] = set()
        logged = 0
        language_checked = False
        jobs = 0
        for page in keep_until_truncated(found, TruncatedDumpError, warnings):
            if not language_checked and page.language:
                language_checked = True
                if page.language != lang:
                    log.warning(
                        "text: %s holds %r pages, not %r: is it that language's dump?",
                        path.name,
                        page.language,
                        lang,
                    )
            job = self._job(lang, page, wanted, items, title_of, seen, reader)
            if job is None:
                continue
            jobs += 1
            if jobs <= skip:
                continue
            if job.skip_reason.startswith("duplicate_"):
                logged += 1
                if logged <= _MAX_LOGGED:
                    log.warning(
                        "text: %s: page %r (id %d) is a second page for %s; the first is kept "
                        "(counted in pages_%s)",
                        path.name,
                        page.title,
                        page.page_id,
                        job.qid,
                        job.skip_reason,
                    )
            yield job
        self.read.add(lang)
        unreadable = reader["lines_bad_json"] + reader["lines_too_large"]
        warning = (
            f"{path.name}: {unreadable} line(s) skipped as unreadable (not JSON, or past the "
            "line size limit; the log names each, with its member and line)"
        )
        if unreadable and warning not in warnings:
            warnings.append(warning)

    def _job(
        self,
        lang: str,
        page: HtmlPage,
        wanted: dict[str, str],
        items: set[str],
        title_of: dict[str, str],
        seen: set[str],
        reader: Counter[str],
    ) -> _PageJob | None:
        """The job of one page the reader kept (cleaning, or a skip saying why not), ``None``
        for a page that is no wanted person's."""
        title = normalise_title(page.title)
        if page.qid in items:
            qid, how = page.qid, "item"
            if title_of[qid] != title:
                reader["pages_matched_by_item"] += 1
        else:
            named = [title, *(normalise_title(r) for r in page.redirects)]
            qid = next((wanted[t] for t in named if t in wanted), "")
            if not qid:
                return None
            how = "title" if title in wanted else "redirect"
            if page.qid and _QID.fullmatch(qid):
                detail = f"the dump's page {page.title!r} (id {page.page_id}) is {page.qid}"
                return _PageJob(
                    qid, lang, page.title, page.page_id, None, "html",
                    skip_reason="other_item", detail=detail,
                )  # fmt: skip
            if how == "redirect":
                reader["pages_matched_by_redirect"] += 1
        provenance = {
            "revision_id": page.revision_id,
            "revision_timestamp": page.timestamp,
            "source": f"html-dump:{self.dumps[lang].name}",
        }
        if qid in seen:  # a second page for the same person: the first one counts
            reason = "duplicate_title" if how == "title" else "duplicate_item"
            return _PageJob(
                qid, lang, page.title, page.page_id, None, "html", skip_reason=reason, **provenance
            )
        seen.add(qid)
        return _PageJob(qid, lang, page.title, page.page_id, page.html, "html", **provenance)

    def counts(self) -> dict[str, int]:
        return {}

    def __enter__(self) -> _HtmlDumpSource:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _WebSource:
    """Pages fetched from each language's Wikipedia (cached), one job per wanted title."""

    absent_reason = "not_fetched"

    def __init__(self, cfg: RunConfig) -> None:
        self.sites = web_base_urls(cfg)
        self.client = web_client(cfg)

    def describe(self, lang: str) -> str:
        return self.sites[lang]

    def read_description(self, lang: str) -> str | None:
        return None

    def jobs(
        self,
        lang: str,
        wanted: dict[str, str],
        *,
        skip: int,
        reader: Counter[str],
        warnings: list[str],
    ) -> Iterator[_PageJob]:
        titles = list(wanted)[skip:]
        for res in self.client.fetch_many((lang, title) for title in titles):
            qid = wanted[res.title]
            if res.status == "ok":
                yield _PageJob(
                    qid,
                    lang,
                    res.final_title or res.title,
                    res.page_id or 0,
                    res.html,
                    "html",
                    revision_id=res.revision_id or 0,
                    revision_timestamp=res.revision_timestamp,
                    # when the page was fetched (the cache keeps it): a resumed run, or one
                    # served from the cache, writes the same
                    source=f"web:{res.url}@{res.retrieved}",
                )
            else:
                yield _PageJob(
                    qid,
                    lang,
                    res.title,
                    0,
                    None,
                    "html",
                    skip_reason=res.status,
                    detail=res.detail,
                )

    def counts(self) -> dict[str, int]:
        stats = self.client.stats
        always = ("requests", "cache_hits", "retries")
        when_any = ("cache_unreadable", "cache_set_aside", "deadline_exceeded", "too_large",
                    "redirects_refused", "invalid_titles")  # fmt: skip
        return {f"web_{k}": stats[k] for k in always} | {
            f"web_{k}": stats[k] for k in when_any if stats[k]
        }

    def __enter__(self) -> _WebSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()


_Source = _DumpSource | _WebSource
