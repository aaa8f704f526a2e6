"""The index of a ``pages-articles-multistream`` dump: where it lies, and which streams to read.

Beside ``NAME.xml.bz2``, Wikimedia's ``NAME-index.txt.bz2`` has a line ``OFFSET:PAGE_ID:TITLE``
per page, OFFSET being where the page's bz2 stream starts. :func:`scan_index` makes one pass
over it and keeps only the streams that hold a wanted title, plus a sample of streams that
:mod:`occbio.extract.multistream_check` checks against the dump before it trusts the index.
"""

from __future__ import annotations

import io
import re
import zlib
from array import array
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from occbio.extract.compressed import CompressionError, open_compressed
from occbio.extract.mediawiki import normalise_title

__all__ = [
    "IndexPlan",
    "IndexStream",
    "IndexUnusable",
    "find_index",
    "ids_crc",
    "index_candidates",
    "scan_index",
]

#: Streams checked against the index before it is trusted, besides the first and the last:
#: one per this many streams, up to _SAMPLES (each stream read in a check is time spent).
_SAMPLES = 8
_STREAMS_PER_SAMPLE = 1000

_ENTITY_RE = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]+|#[xX][0-9a-fA-F]+);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


class IndexUnusable(Exception):
    """The index cannot be used for this dump; the message says why."""


# ---------------------------------------------------------------------------------------------
# Finding the index


def index_candidates(dump: Path) -> list[Path]:
    """Where a multistream dump's index would be: ``NAME-index.txt.bz2`` or ``NAME-index.txt``
    beside ``NAME.xml.bz2`` (none for a dump not named so)."""
    name = dump.name
    if not name.endswith(".xml.bz2"):
        return []
    stem = name[: -len(".xml.bz2")]
    return [dump.with_name(stem + suffix) for suffix in ("-index.txt.bz2", "-index.txt")]


def find_index(dump: Path) -> Path | None:
    """The index beside ``dump`` (see :func:`index_candidates`), if there is one."""
    return next((p for p in index_candidates(dump) if p.is_file()), None)


# ---------------------------------------------------------------------------------------------
# The index


@dataclass(slots=True)
class IndexStream:
    """One bz2 stream as the index describes it: where it starts and ends (``end``: where the
    next begins; ``None`` for the last until it is read), its number of pages and a checksum
    of their ids."""

    offset: int
    end: int | None
    n_pages: int
    ids_crc: int


@dataclass
class IndexPlan:
    streams_total: int
    wanted: list[IndexStream]
    checks: list[IndexStream]  # the first, the last and a sample between, in offset order
    first: IndexStream
    last: IndexStream


def ids_crc(ids: Collection[int]) -> int:
    return zlib.crc32(array("q", ids).tobytes())


def _unescape(title: str) -> str:
    """An XML-escaped index title (``AT&amp;T``) as the page's parsed <title> reads."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name[0] != "#":
            return _ENTITIES[name]
        code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
        return chr(code) if 0 < code <= 0x10FFFF else match.group(0)

    return _ENTITY_RE.sub(one, title)


def _is_normal(title: str) -> bool:
    """True for a title :func:`normalise_title` leaves as it is, tested quickly (most titles
    of an index are plain ASCII; normalising each would double the time of a scan)."""
    return (
        title.isascii()
        and title.isprintable()  # no tab, newline or other control character
        and "_" not in title
        and "  " not in title
        and title[:1] != " "
        and title[-1:] != " "
        and not title[:1].islower()
    )


def _is_wanted(title: str, wanted: frozenset[str]) -> bool:
    return (title if _is_normal(title) else normalise_title(title)) in wanted


def scan_index(index: Path, wanted: frozenset[str] | None) -> IndexPlan:
    """One pass over the index: the streams that hold a wanted title and a sample to check.

    Only those streams are kept in memory, whatever the size of the index.
    """
    try:
        raw, _codec = open_compressed(index)
    except (OSError, CompressionError) as exc:
        raise IndexUnusable(f"it cannot be read ({exc})") from None
    wanted_streams: list[IndexStream] = []
    samples: list[tuple[int, IndexStream]] = []
    step = 1
    n_streams = 0
    first: IndexStream | None = None
    cur_text: str | None = None
    cur_offset = -1
    ids: list[int] = []
    hit = False

    def close(end: int | None) -> IndexStream:
        nonlocal n_streams, step, samples, first
        stream = IndexStream(cur_offset, end, len(ids), ids_crc(ids))
        if first is None:
            first = stream
        if hit:
            wanted_streams.append(stream)
        if n_streams % step == 0:
            samples.append((n_streams, stream))
            if len(samples) > 2 * _SAMPLES:  # keep an even spread: every other one, twice apart
                step *= 2
                samples = [(i, s) for i, s in samples if i % step == 0]
        n_streams += 1
        return stream

    lineno = 0
    try:
        # utf-8-sig: a byte order mark (an index saved by a Windows editor) is no offset
        with raw, io.TextIOWrapper(raw, encoding="utf-8-sig", newline="\n") as text:
            for lineno, line in enumerate(text, 1):
                off_text, _, rest = line.partition(":")
                id_text, sep, title = rest.partition(":")
                if not sep:
                    if not line.strip():
                        continue
                    raise IndexUnusable(f"line {lineno:,} is not OFFSET:PAGE_ID:TITLE")
                if off_text != cur_text:
                    offset = int(off_text)
                    if offset <= cur_offset:
                        raise IndexUnusable(f"its offsets go backwards at line {lineno:,}")
                    if cur_text is not None:
                        close(offset)
                    cur_text, cur_offset, ids, hit = off_text, offset, [], wanted is None
                ids.append(int(id_text))
                if not hit:
                    title = title.rstrip("\r\n")
                    hit = _is_wanted(title, wanted)  # type: ignore[arg-type]
                    if not hit and "&" in title:  # XML-escaped, as Wikimedia's indexes are
                        hit = _is_wanted(_unescape(title), wanted)  # type: ignore[arg-type]
    except ValueError as exc:  # a number that is not one, or text that is not UTF-8
        raise IndexUnusable(f"line {lineno:,} cannot be read ({exc})") from None
    except (OSError, EOFError) as exc:
        raise IndexUnusable(f"it cannot be decompressed ({exc})") from None
    if cur_text is None:
        raise IndexUnusable("it is empty")
    last = close(None)
    assert first is not None  # set by the first close()
    n_samples = min(_SAMPLES, n_streams // _STREAMS_PER_SAMPLE)
    spread = samples[:: max(1, len(samples) // n_samples)][:n_samples] if n_samples else []
    checks = {id(s): s for s in [first, *(s for _, s in spread), last]}
    return IndexPlan(
        n_streams, wanted_streams, sorted(checks.values(), key=lambda s: s.offset), first, last
    )
