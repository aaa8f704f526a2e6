"""Read only the bz2 streams of a ``pages-articles-multistream`` dump that hold wanted pages.

Wikimedia's ``*-pages-articles-multistream.xml.bz2`` is a concatenation of independent bz2
streams: the first holds the XML header and ``<siteinfo>``, each of the next up to 100
``<page>`` elements, the last ``</mediawiki>``. Beside it, ``*-multistream-index.txt.bz2``
has a line ``OFFSET:PAGE_ID:TITLE`` per page, OFFSET being where the page's stream starts in
the .bz2 file. With the index, :func:`read_pages` decompresses only the streams that hold a
wanted title, in worker processes when asked, parses their pages with
:class:`~occbio.extract.wikipedia_dump.PageParser` (the full scan's skip rules and counters)
and yields them in dump order, the same pages in the same order as :func:`iter_pages`,
whatever the number of workers. Without an index, it is :func:`iter_pages`.

An index is trusted only once it is seen to fit the dump: the header stream must end where the
index's first stream begins; the first and the last page stream (and, in a large dump, a few
between) must each end where the next begins and hold exactly the index's page ids; and only a
stream with ``</mediawiki>`` may follow the last. An index that does not fit is logged and the
whole dump is read. Every stream read is checked the same way: at the first that does not fit,
the rest is read by a full scan that yields the wanted pages not yet yielded, so a wrong index
can cost time, never a page it describes rightly. A stream whose bz2 data is damaged is
skipped, counted and logged, and the reading goes on (the full scan has to stop there).

This module holds the decision of how to read a dump (:func:`read_pages`: the index or a full
scan, and the full scan that takes over from an index that stops fitting) and its account
(:class:`DumpRead`). The rest lives in one module per job: the index file itself in
:mod:`occbio.extract.multistream_index`, checking it against the dump in
:mod:`occbio.extract.multistream_check`, reading single bz2 streams (here or in worker
processes) in :mod:`occbio.extract.multistream_streams`, and writing a multistream dump, for
tests and benchmarks, in :mod:`occbio.extract.multistream_write` (re-exported here).
"""

from __future__ import annotations

import collections
import logging
import os
from array import array
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from occbio.extract.mediawiki import normalise_title
from occbio.extract.multistream_check import _check, _misfit
from occbio.extract.multistream_index import (
    IndexPlan,
    IndexUnusable,
    find_index,
    index_candidates,
    scan_index,
)
from occbio.extract.multistream_streams import _results, _StreamReader
from occbio.extract.multistream_write import write_multistream
from occbio.extract.wikipedia_dump import DumpError, iter_pages
from occbio.extract.wikipedia_dump_page import MAX_PAGE_BYTES, Page, SkipLog

__all__ = ["DumpRead", "read_pages", "write_multistream"]

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# How a dump was read


@dataclass
class DumpRead:
    """How :func:`read_pages` read a dump: ``method`` is ``index``, ``full_scan`` or
    ``index_then_full_scan`` (an index that stopped fitting midway); ``reason`` says why the
    whole dump was read; ``warnings`` what the user should hear of (also logged)."""

    method: str = "full_scan"
    index: Path | None = None
    reason: str = ""
    streams_read: int = 0
    streams_total: int = 0
    workers: int = 1
    warnings: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """One line for the log and the manifest."""
        if self.method == "full_scan":
            return f"full scan ({self.reason})" if self.reason else "full scan"
        name = self.index.name if self.index is not None else "?"
        how = (
            f"multistream index {name}: {self.streams_read:,} of {self.streams_total:,} bz2 "
            f"streams read ({self.workers} worker{'s' if self.workers != 1 else ''})"
        )
        if self.method == "index_then_full_scan":
            how += f", then a full scan ({self.reason})"
        return how


# ---------------------------------------------------------------------------------------------
# Reading


def read_pages(
    path: Path | str | os.PathLike[str],
    *,
    titles: Collection[str] | None = None,
    stats: collections.Counter[str] | None = None,
    index: Path | str | os.PathLike[str] | None = None,
    use_index: bool = True,
    workers: int = 1,
    max_page_bytes: int = MAX_PAGE_BYTES,
    report: DumpRead | None = None,
) -> Iterator[Page]:
    """The pages :func:`iter_pages` yields, in the same order, reading only what is needed.

    ``index`` is the multistream index (default: the one beside the dump, see
    :func:`find_index`); ``use_index=False`` reads the whole dump. With an index that fits the
    dump, only the streams holding a wanted title are decompressed, by ``workers`` processes
    (1: in this one); ``stats`` then counts only their pages, plus ``streams_total`` (page
    streams in the index), ``streams_read`` and, for damaged streams that were skipped,
    ``streams_skipped_corrupt`` and ``pages_skipped_corrupt_stream`` (the pages the index lists
    in them). ``report``, when given, is filled in with the way the dump was read.

    Raises what :func:`iter_pages` raises, and :class:`DumpError` for a given index that
    cannot be opened.
    """
    path = Path(path)
    wanted = frozenset(normalise_title(t) for t in titles) if titles is not None else None
    counts = stats if stats is not None else collections.Counter()
    read = report if report is not None else DumpRead()
    prepared = _prepare(path, index, use_index, wanted, read)
    if prepared is None:
        yield from iter_pages(path, titles=wanted, stats=counts, max_page_bytes=max_page_bytes)
        return
    plan, namespaces = prepared
    read.method, read.streams_total = "index", plan.streams_total
    read.workers = max(1, min(workers, len(plan.wanted)))
    counts["streams_total"] += plan.streams_total
    logger.info(
        "%s: %s of %s bz2 streams hold wanted pages; reading them through the multistream "
        "index %s (%d worker(s))",
        path.name,
        f"{len(plan.wanted):,}",
        f"{plan.streams_total:,}",
        read.index.name if read.index is not None else "",
        read.workers,
    )
    stream_reader = _StreamReader(path, wanted, namespaces, max_page_bytes)
    skip_log = SkipLog(path.name)
    page_counts: collections.Counter[str] = collections.Counter()
    yielded = array("q")  # the ids of the pages yielded, for a full scan after a misfit
    misfit: str | None = None
    results = _results(stream_reader, plan.wanted, read.workers)
    try:
        for stream, result in results:
            counts["streams_read"] += 1
            read.streams_read += 1
            misfit = result.detail if result.status == "mismatch" else None
            if result.status == "ok":
                misfit = _misfit(stream, result)
            if misfit is not None:
                break
            if result.status == "corrupt":
                counts["streams_skipped_corrupt"] += 1
                counts["pages_skipped_corrupt_stream"] += stream.n_pages
                logger.warning(
                    "%s: %s; its %d page(s) skipped", path.name, result.detail, stream.n_pages
                )
                continue
            counts.update(result.counts)
            page_counts.update(result.counts)
            where = f"of the XML in the bz2 stream at byte {stream.offset:,}"
            for title, at, detail in result.skips:
                skip_log(title, f"byte {at:,} {where}", detail)
            for page in result.pages:
                yielded.append(page.page_id)
                yield page
    finally:
        results.close()  # the worker processes end here, before any full scan
        stream_reader.close()
    if misfit is None:
        if counts["streams_skipped_corrupt"]:
            read.warnings.append(
                f"{path.name}: {counts['streams_skipped_corrupt']} damaged bz2 stream(s) "
                f"skipped, {counts['pages_skipped_corrupt_stream']} page(s) in them "
                "(the log gives each stream's byte offset)"
            )
        return
    # The index stopped fitting the dump: read it all, yielding what was not yielded yet.
    read.method, read.reason = "index_then_full_scan", f"the index does not fit: {misfit}"
    warning = (
        f"{path.name}: the multistream index {read.index.name if read.index else ''} does not "
        f"fit the dump ({misfit}); the rest is read by a full scan"
    )
    logger.warning("%s", warning)
    read.warnings.append(warning)
    counts.subtract(page_counts)  # the full scan counts every page of the dump again
    done = set(yielded)
    del yielded
    for page in iter_pages(path, titles=wanted, stats=counts, max_page_bytes=max_page_bytes):
        if page.page_id not in done:
            yield page


def _prepare(
    path: Path,
    index: Path | str | os.PathLike[str] | None,
    use_index: bool,
    wanted: frozenset[str] | None,
    read: DumpRead,
) -> tuple[IndexPlan, dict[str, int]] | None:
    """The streams to read and the namespace table, or ``None`` for a full scan (logged)."""
    if not use_index:
        read.reason = "the index is not used, as asked"
        return None
    if index is None:
        found = find_index(path)
        if found is None:
            looked = ", ".join(p.name for p in index_candidates(path))
            read.reason = (
                f"no multistream index beside the dump (looked for {looked})"
                if looked
                else "not a .xml.bz2 dump: no multistream index is looked for"
            )
            logger.info("%s: %s; reading the whole dump", path.name, read.reason)
            return None
        index = found
    index = Path(index)
    if not index.is_file():
        raise DumpError(f"multistream index not found: {index}")
    read.index = index
    try:
        plan = scan_index(index, wanted)
        namespaces = _check(path, plan)
    except IndexUnusable as exc:
        read.reason = f"the index {index.name} does not fit the dump: {exc}"
        warning = f"{path.name}: {read.reason}; reading the whole dump"
        logger.warning("%s", warning)
        read.warnings.append(warning)
        return None
    return plan, namespaces
