"""Binary files written whole and atomically, whose write errors name the file and its cause.

``np.save`` on an open file writes through ``ndarray.tofile``, whose short write on a full
disk raises ``OSError("124800 requested and 94176 written")``: no errno, no path, so nobody
can tell that the disk is full. Arrays are therefore serialised in memory and written with
Python's own file writes, which raise the operating system's error (``ENOSPC``, ``EDQUOT``);
the path it concerns is added, so ``occbio``'s handler prints one line with the path and,
for a full disk, that the same command resumes.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from occbio.run import atomic_write

__all__ = ["npy_bytes", "save_npy", "write_bytes"]


def npy_bytes(array: np.ndarray) -> bytes:
    """``array`` in ``.npy`` format, byte for byte what ``np.save`` writes to a file."""
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def write_bytes(path: Path, data: bytes) -> None:
    """``data`` into ``path`` atomically; an ``OSError`` that names no file gets ``path``."""
    try:
        with atomic_write(path, "wb", encoding=None) as fh:
            fh.write(data)
    except OSError as exc:
        if exc.filename is not None or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc


def save_npy(path: Path, array: np.ndarray) -> None:
    """``array`` as ``path`` (``.npy``), atomically, with :func:`write_bytes`'s errors."""
    write_bytes(path, npy_bytes(array))
