"""Reading single bz2 streams of a ``pages-articles-multistream`` dump, here or in workers.

:func:`_decompress_stream` decompresses the one bz2 stream that starts at a given byte offset
and checks that it ends where the index's next stream begins; :class:`_StreamReader` parses the
pages of such a stream with :class:`~occbio.extract.wikipedia_dump_page.PageParser` (the full
scan's skip rules and counters) into a :class:`_StreamResult`, or says why it could not
(``corrupt`` or ``mismatch``); :func:`_results` reads a list of streams in order, in worker
processes when asked. Kept apart from :mod:`occbio.extract.multistream`, which decides which
streams to read and what to do when they do not fit the index. The worker functions
(:func:`_init_worker`, :func:`_read_in_worker`) are handed to spawned processes by their path
in this module.
"""

from __future__ import annotations

import bz2
import collections
import multiprocessing
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from occbio.extract.multistream_index import IndexStream
from occbio.extract.wikipedia_dump import _PageReader, _Problem
from occbio.extract.wikipedia_dump_page import Page, PageParser

#: Compressed bytes read per step, and the most decompressed bytes taken out at once (a bz2
#: stream can expand a thousandfold; this keeps a worker's memory to about one page).
_READ_BYTES = 1 << 18
_OUT_BYTES = 1 << 20
#: Streams in flight per worker process (memory: the kept pages of that many streams).
_IN_FLIGHT_PER_WORKER = 4

_BZ2_MAGIC = re.compile(rb"BZh[1-9]")


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
            result.pages.extend(reader.finish_fragment())
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
