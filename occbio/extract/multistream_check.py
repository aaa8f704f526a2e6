"""Checking a ``pages-articles-multistream`` index against its dump before trusting it.

:func:`_check` reads the dump's header stream (which must end where the index's first page
stream begins; its namespace table is returned), a sample of page streams (each must end where
the next begins and hold exactly the index's page ids, :func:`_misfit`) and what follows the
index's last stream (only ``</mediawiki>``); anything else raises
:class:`~occbio.extract.multistream_index.IndexUnusable`. Kept apart from
:mod:`occbio.extract.multistream`, which reads the pages, so that what makes an index fit lives
in one place: :func:`_misfit` is also how every stream read later is checked.
"""

from __future__ import annotations

import collections
import logging
import os
from pathlib import Path
from typing import IO

from occbio.extract.multistream_index import IndexPlan, IndexStream, IndexUnusable, ids_crc
from occbio.extract.multistream_streams import (
    _BZ2_MAGIC,
    _BadStream,
    _decompress_stream,
    _StreamReader,
    _StreamResult,
)
from occbio.extract.wikipedia_dump import DumpError, _PageReader, _Problem, _source_encoding
from occbio.extract.wikipedia_dump_page import MAX_PAGE_BYTES, PageParser

# Logged as the multistream reader it serves, as before the split: the logger name stays.
logger = logging.getLogger("occbio.extract.multistream")

#: At most this many compressed bytes may follow the index's last stream (``</mediawiki>``).
_MAX_TAIL_BYTES = 1 << 16


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
