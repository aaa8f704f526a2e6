"""Where the text stage's pages come from: a language's pages-articles dump, or its Wikipedia.

Each source turns a language's wanted titles into :class:`_PageJob` records for the workers of
:mod:`occbio.stages.text_workers`, in source order, able to start after the pages a resumed run
has already committed. :class:`_DumpSource` reads the dump (through its multistream index when it
has one); :class:`_WebSource` fetches each page (cached). Kept apart from the stage so the stage
reads as what it does with the pages, not how each kind of source finds them.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator

from occbio.config import RunConfig
from occbio.executor import resolve_workers
from occbio.extract.mediawiki import normalise_title
from occbio.extract.multistream import DumpRead, read_pages
from occbio.extract.wikipedia_dump import TruncatedDumpError
from occbio.stages.common import keep_until_truncated, web_base_urls, web_client
from occbio.stages.text_workers import _MIN_PAGES_FOR_WORKERS, _PageJob

log = logging.getLogger(__name__)

#: How many pages that repeat a title are logged one by one (all are counted).
_MAX_LOGGED = 10


class _DumpSource:
    """Pages from each language's pages-articles dump, in dump order: through the dump's
    multistream index when it has one that fits (``workers`` processes decompress the
    streams), else by reading the whole dump."""

    absent_reason = "not_in_dump"

    def __init__(self, cfg: RunConfig, n_pages: int) -> None:
        self.dumps = {lang: cfg.resolved_text_dump(lang) for lang in cfg.langs}
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
