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
"""

from __future__ import annotations

import bz2
import collections
import logging
import multiprocessing
import os
import re
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from occbio.extract.mediawiki import normalise_title
from occbio.extract.multistream_index import (
    IndexPlan,
    IndexStream,
    IndexUnusable,
    find_index,
    ids_crc,
    index_candidates,
    scan_index,
)
from occbio.extract.wikipedia_dump import (
    MAX_PAGE_BYTES,
    DumpError,
    Page,
    PageParser,
    SkipLog,
    _PageReader,
    _Problem,
    _source_encoding,
    iter_pages,
)

__all__ = ["DumpRead", "read_pages", "write_multistream"]

logger = logging.getLogger(__name__)

#: Compressed bytes read per step, and the most decompressed bytes taken out at once (a bz2
#: stream can expand a thousandfold; this keeps a worker's memory to about one page).
_READ_BYTES = 1 << 18
_OUT_BYTES = 1 << 20
#: Streams in flight per worker process (memory: the kept pages of that many streams).
_IN_FLIGHT_PER_WORKER = 4
#: At most this many compressed bytes may follow the index's last stream (``</mediawiki>``).
_MAX_TAIL_BYTES = 1 << 16

_BZ2_MAGIC = re.compile(rb"BZh[1-9]")


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


class _BadStream(Exception):
    """One stream could not be read: ``kind`` is ``corrupt`` (damaged bz2 data or garbage
    between pages: skip it) or ``mismatch`` (not where or what the index says)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


# ---------------------------------------------------------------------------------------------
# The stream


def _decompress_stream(
    fh: IO[bytes], offset: int, end: int | None, sink: Callable[[bytes], None]
) -> int:
    """Feed ``sink`` the decompressed bytes of the bz2 stream at ``offset``; return where it
    ends. The stream must end exactly at ``end`` when that is given."""
    fh.seek(offset)
    dec = bz2.BZ2Decompressor()
    fed = 0
    limit = None if end is None else end - offset
    while True:
        data = b""
        if dec.needs_input:
            size = _READ_BYTES if limit is None else min(_READ_BYTES, limit - fed)
            data = fh.read(size) if size > 0 else b""
            if fed == 0 and not _BZ2_MAGIC.match(data):
                raise _BadStream("mismatch", f"no bz2 stream starts at byte {offset:,}")
            if not data:
                past = "the end of the file" if limit is None or size > 0 else f"byte {end:,}"
                raise _BadStream("mismatch", f"the bz2 stream at byte {offset:,} runs past {past}")
            fed += len(data)
        try:
            out = dec.decompress(data, _OUT_BYTES)
        except (OSError, ValueError, EOFError) as exc:
            detail = f"the bz2 stream at byte {offset:,} is damaged ({exc})"
            raise _BadStream("corrupt", detail) from None
        if out:
            sink(out)
        if dec.eof:
            break
    stream_end = offset + fed - len(dec.unused_data)
    if end is not None and stream_end != end:
        raise _BadStream(
            "mismatch",
            f"the bz2 stream at byte {offset:,} ends at byte {stream_end:,}, not at byte "
            f"{end:,} where the index's next stream begins",
        )
    return stream_end


@dataclass(slots=True)
class _StreamResult:
    """What reading one stream gave: ``status`` ``ok``, ``corrupt`` or ``mismatch``."""

    offset: int
    status: str
    detail: str = ""
    end: int = 0
    pages: list[Page] = field(default_factory=list)
    ids: list[int | None] = field(default_factory=list)
    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    skips: list[tuple[str | None, int, str]] = field(default_factory=list)


class _StreamReader:
    """Reads single streams of one dump (in a worker process, or in this one)."""

    def __init__(
        self,
        path: Path,
        wanted: frozenset[str] | None,
        namespaces: dict[str, int],
        max_page_bytes: int,
    ) -> None:
        self.path = path
        self.wanted = wanted
        self.namespaces = namespaces
        self.max_page_bytes = max_page_bytes
        self._fh: IO[bytes] | None = None

    def read(self, offset: int, end: int | None) -> _StreamResult:
        if self._fh is None:
            self._fh = open(self.path, "rb")  # noqa: SIM115 - kept open for the next streams
        result = _StreamResult(offset, "ok")
        parser = PageParser(
            self.path,
            self.wanted,
            result.counts,
            self.max_page_bytes,
            namespaces=self.namespaces,
            report=lambda title, at, detail: result.skips.append((title, at, detail)),
        )
        parser.page_ids = result.ids
        reader = _PageReader(self.path, parser, fragment=True)
        try:
            result.end = _decompress_stream(
                self._fh, offset, end, lambda data: result.pages.extend(reader.feed(data))
            )
            reader.finish_fragment()
        except _BadStream as exc:
            return _StreamResult(offset, exc.kind, exc.detail)
        except _Problem as exc:
            # a page cut at the stream's end: pages do not sit whole in streams, as the index
            # says they do; anything else between pages is damage
            kind = "mismatch" if exc.what == "xml ended" else "corrupt"
            where = f"the bz2 stream at byte {offset:,}"
            return _StreamResult(offset, kind, f"{where}: {exc.detail}")
        return result

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _misfit(stream: IndexStream, result: _StreamResult) -> str | None:
    """Why ``result`` is not the stream the index describes, or ``None`` when it is."""
    ids = result.ids
    if len(ids) != stream.n_pages:
        return (
            f"the bz2 stream at byte {stream.offset:,} holds {len(ids)} pages, "
            f"the index lists {stream.n_pages}"
        )
    if None not in ids and ids_crc(ids) != stream.ids_crc:  # type: ignore[arg-type]
        return f"the page ids in the bz2 stream at byte {stream.offset:,} are not the index's"
    return None


# Worker processes: each opens the dump once and reads the streams it is handed.
_worker: dict[str, _StreamReader] = {}


def _init_worker(
    path: str, wanted: frozenset[str] | None, namespaces: dict[str, int], max_page_bytes: int
) -> None:
    _worker["reader"] = _StreamReader(Path(path), wanted, namespaces, max_page_bytes)


def _read_in_worker(offset: int, end: int | None) -> _StreamResult:
    return _worker["reader"].read(offset, end)


def _results(
    reader: _StreamReader, streams: list[IndexStream], workers: int
) -> Iterator[tuple[IndexStream, _StreamResult]]:
    """Each stream with what reading it gave, in the order of ``streams``; with more than one
    worker, read ahead by a bounded number of streams in worker processes."""
    if workers <= 1:
        for stream in streams:
            yield stream, reader.read(stream.offset, stream.end)
        return
    # spawned, not forked: the caller may hold threads (progress bars, a web client)
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(str(reader.path), reader.wanted, reader.namespaces, reader.max_page_bytes),
    )
    pending: collections.deque[tuple[IndexStream, Future[_StreamResult]]] = collections.deque()
    todo = iter(streams)
    try:
        for stream in todo:
            pending.append((stream, pool.submit(_read_in_worker, stream.offset, stream.end)))
            if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
                break
        while pending:
            stream, future = pending.popleft()
            result = future.result()
            following = next(todo, None)
            if following is not None:
                pending.append(
                    (following, pool.submit(_read_in_worker, following.offset, following.end))
                )
            yield stream, result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------------------------
# Checking the index against the dump


def _read_header(path: Path, fh: IO[bytes], first: IndexStream) -> dict[str, int]:
    """The namespace table of the header stream, which must end where the first page stream
    begins and hold no page."""
    parser = PageParser(path, frozenset(), collections.Counter())
    reader = _PageReader(path, parser)
    started = False

    def sink(data: bytes) -> None:
        nonlocal started
        if not started and _source_encoding(data[:512]) is not None:
            raise IndexUnusable("the dump's XML is not UTF-8")
        started = True
        for _ in reader.feed(data):
            pass

    try:
        _decompress_stream(fh, 0, first.offset, sink)
        reader.finish_fragment()
    except _BadStream as exc:
        raise IndexUnusable(f"its first stream is not the dump's header ({exc.detail})") from None
    except (_Problem, DumpError) as exc:
        raise IndexUnusable(f"the dump's header cannot be read ({exc})") from None
    if reader.root is None or parser.pages_read:
        raise IndexUnusable("the dump's first bz2 stream is not its header alone")
    return dict(reader.namespaces)


def _check_tail(fh: IO[bytes], start: int, size: int) -> None:
    """After the index's last stream only ``</mediawiki>`` may follow, in streams of its own."""
    if size - start > _MAX_TAIL_BYTES:
        raise IndexUnusable(
            f"{size - start:,} bytes follow the index's last stream: it does not cover the "
            "whole dump"
        )
    tail = bytearray()
    pos = start
    while pos < size:
        try:
            pos = _decompress_stream(fh, pos, None, tail.extend)
        except _BadStream as exc:
            raise IndexUnusable(f"what follows the index's last stream: {exc.detail}") from None
        if len(tail) > _MAX_TAIL_BYTES:
            break
    if bytes(tail).strip() != b"</mediawiki>":
        raise IndexUnusable("what follows the index's last stream is not the closing </mediawiki>")


def _check(path: Path, plan: IndexPlan) -> dict[str, int]:
    """Check the index against the dump; return the dump's namespace table."""
    reader = _StreamReader(path, frozenset(), {}, MAX_PAGE_BYTES)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise DumpError(f"cannot read dump {path}: {exc.strerror or exc}") from exc
    with fh:
        if not _BZ2_MAGIC.match(fh.read(4)):
            raise IndexUnusable("the dump is not bz2-compressed")
        namespaces = _read_header(path, fh, plan.first)
        reader.namespaces = namespaces
        try:
            for stream in plan.checks:
                result = reader.read(stream.offset, stream.end)
                if result.status == "corrupt":  # damage says nothing of the index
                    logger.debug("%s: %s", path.name, result.detail)
                    continue
                problem = result.detail if result.status == "mismatch" else None
                problem = problem or _misfit(stream, result)
                if problem:
                    raise IndexUnusable(problem)
                if stream is plan.last:
                    stream.end = result.end
        finally:
            reader.close()
        if plan.last.end is not None:
            _check_tail(fh, plan.last.end, os.fstat(fh.fileno()).st_size)
    return namespaces


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


# ---------------------------------------------------------------------------------------------
# Writing (tests and benchmarks build their dumps with it)


def write_multistream(
    path: Path,
    header: bytes,
    pages: Iterable[tuple[int, str, bytes]],
    *,
    index: Path | None = None,
    pages_per_stream: int = 100,
    compresslevel: int = 9,
) -> Path:
    """Write a multistream dump and its index the way Wikimedia lays them out.

    ``header`` is the XML up to ``</siteinfo>``; ``pages`` gives each page's id, title and
    ``<page>`` element. One bz2 stream holds the header, then one each ``pages_per_stream``
    pages, then one ``</mediawiki>``. The index (default: the first of
    :func:`index_candidates`) is bz2-compressed when its name ends in ``.bz2``. Returns its path.
    """
    index = index if index is not None else index_candidates(path)[0]
    lines: list[str] = []
    with open(path, "wb") as out:
        out.write(bz2.compress(header, compresslevel))
        batch: list[tuple[int, str, bytes]] = []

        def flush() -> None:
            offset = out.tell()
            out.write(bz2.compress(b"".join(xml for _, _, xml in batch), compresslevel))
            lines.extend(f"{offset}:{page_id}:{title}\n" for page_id, title, _ in batch)
            batch.clear()

        for page in pages:
            batch.append(page)
            if len(batch) == pages_per_stream:
                flush()
        if batch:
            flush()
        out.write(bz2.compress(b"</mediawiki>\n", compresslevel))
    data = "".join(lines).encode()
    index.write_bytes(bz2.compress(data) if index.name.endswith(".bz2") else data)
    return index
