"""Open a dump whatever its compression, recognised by magic bytes (file names can lie)."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path
from typing import IO

__all__ = ["CompressionError", "open_compressed"]

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


def open_compressed(path: Path) -> tuple[IO[bytes], str]:
    """Open ``path`` for reading decompressed bytes; return the stream and the codec's name
    (``bz2``, ``xz``, ``gzip`` or ``plain``). ``OSError`` when the file cannot be read."""
    with open(path, "rb") as fh:
        head = fh.read(8)
    if not head:
        raise CompressionError("is empty")
    for magic, what, fix in _UNSUPPORTED:
        if head.startswith(magic):
            raise CompressionError(f"is {what}, which occbio does not read: {fix}")
    for magic, name, opener in _CODECS:
        if head.startswith(magic):
            return opener(path), name
    return open(path, "rb", buffering=1 << 20), "plain"
