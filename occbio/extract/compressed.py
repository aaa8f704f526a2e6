"""Open a dump whatever its compression, recognised by magic bytes (file names can lie).

bz2, the format of Wikimedia's dumps, decompresses at ~35 MB/s on one core: the bound of
reading a Wikidata dump. With more than one thread a bz2 file is decompressed block-parallel by
``indexed_bzip2`` (each 900 kB bz2 block on its own core; ``$OCCBIO_DECOMPRESS_THREADS``, by
default the cores up to 4); a broken file ends as with :mod:`bz2`: every complete block read,
then ``EOFError`` for a file that breaks off, ``OSError`` for damaged data.
"""

from __future__ import annotations

import bz2
import gzip
import io
import logging
import lzma
import os
import stat
from pathlib import Path
from typing import IO, Any

try:
    import indexed_bzip2
except ImportError:  # pragma: no cover - a platform without its wheel: bz2 on one thread
    indexed_bzip2 = None

__all__ = [
    "THREADS_ENV",
    "CompressionError",
    "default_threads",
    "open_compressed",
    "special_file_problem",
]

log = logging.getLogger(__name__)

_CODECS = (
    (b"BZh", "bz2", bz2.BZ2File),
    (b"\xfd7zXZ\x00", "xz", lzma.LZMAFile),
    (b"\x1f\x8b", "gzip", gzip.GzipFile),
)
_UNSUPPORTED = (
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive", "decompress it, or use the .bz2 dump"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "decompress it first (zstd -d)"),
    (b"PK\x03\x04", "a zip archive", "unzip it first"),
)


class CompressionError(Exception):
    """The file is empty or in a container occbio does not read; the message says what to do.

    The message reads after the file's name: ``f"{path} {exc}"``.
    """


#: Environment variable that sets the bz2 decompression threads (1 turns parallelism off).
THREADS_ENV = "OCCBIO_DECOMPRESS_THREADS"


def default_threads() -> int:
    """``$OCCBIO_DECOMPRESS_THREADS``, else the cores up to 4 (beyond that the parser, not
    bz2, bounds a reader)."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value:
        try:
            threads = int(value)
        except ValueError:
            threads = 0
        if threads < 1:
            log.warning(
                "%s=%r is not a whole number >= 1; decompressing on 1 thread", THREADS_ENV, value
            )
            return 1
        return threads
    return max(1, min(4, os.cpu_count() or 1))


class _ParallelBz2(io.RawIOBase):
    """A block-parallel bz2 reader that ends the way :class:`bz2.BZ2File` does.

    When the data breaks off or is damaged, the parallel reader fails for its whole window of
    blocks in flight, some of them good. So at the first error the file is read again with
    :class:`bz2.BZ2File` from the position reached: every complete block is delivered, and the
    error raised is the one :mod:`bz2` raises at the true point (a slow path, on broken files
    only).
    """

    def __init__(self, path: Path, threads: int) -> None:
        self._path = path
        self._file: Any = indexed_bzip2.open(str(path), parallelization=threads)
        self._parallel = True
        self._pos = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._parallel:
            try:
                n = self._file.readinto(buffer)
            except (RuntimeError, ValueError) as exc:
                log.warning(
                    "%s: bz2 data broken after %d bytes (%s); reading it again on one thread "
                    "to keep every complete block",
                    self._path,
                    self._pos,
                    exc,
                )
                self._file.close()
                self._file = bz2.BZ2File(self._path)
                self._file.seek(self._pos)
                self._parallel = False
            else:
                self._pos += n
                return n
        # read1: one decompressed chunk at a time, so the chunks before an error are returned
        # (readinto would fill the whole buffer first and lose them with the error)
        data = self._file.read1(len(buffer))
        buffer[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._file.close()
        super().close()


def special_file_problem(path: Path, *, stream_ok: bool = False) -> str | None:
    """Why ``path`` cannot be a dump although it exists: a FIFO (``<(bzcat ...)``), a socket or
    a device. A dump is opened more than once (its magic bytes, a second pass, a resumed run),
    which a stream cannot give; opening a FIFO nobody writes to would also hang. ``None`` for a
    regular file, and for a directory or a missing path (``open`` says what those are).

    ``stream_ok``: for an input read once (a FIFO or a pipe is then fine), why a device or a
    socket is not (``/dev/zero``, ``/dev/urandom`` never end)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stream_ok:
        if stat.S_ISFIFO(mode):
            return None
        return (
            "is a device or a socket, not a file (/dev/zero and /dev/urandom never end): give a "
            "file, or a FIFO or <(...), which is read once"
        )
    return (
        "is not a regular file (a FIFO or <(...), a socket or a device): a dump is read more "
        "than once, so give the file itself (occbio reads .bz2, .gz and .xz as they are)"
    )


def open_compressed(path: Path, *, threads: int | None = None) -> tuple[IO[bytes], str]:
    """Open ``path`` for reading decompressed bytes; return the stream and the codec's name
    (``bz2``, ``xz``, ``gzip`` or ``plain``). bz2 is decompressed on ``threads`` threads
    (default :func:`default_threads`). ``OSError`` when the file cannot be read,
    :class:`CompressionError` when it is not a regular file (see :func:`special_file_problem`)."""
    threads = default_threads() if threads is None else threads
    problem = special_file_problem(path)
    if problem is not None:
        raise CompressionError(problem)
    with open(path, "rb") as fh:
        head = fh.read(8)
    if not head:
        raise CompressionError("is empty")
    for magic, what, fix in _UNSUPPORTED:
        if head.startswith(magic):
            raise CompressionError(f"is {what}, which occbio does not read: {fix}")
    if head.startswith(b"BZh") and threads > 1 and indexed_bzip2 is not None:
        return io.BufferedReader(_ParallelBz2(path, threads), 1 << 20), "bz2"
    for magic, name, opener in _CODECS:
        if head.startswith(magic):
            return opener(path), name
    return open(path, "rb", buffering=1 << 20), "plain"
