"""Opening dumps: parallel bz2 gives the same bytes as :mod:`bz2`, and breaks the same way."""

from __future__ import annotations

import bz2
import logging
import os
from pathlib import Path

import pytest

from occbio.extract.compressed import THREADS_ENV, default_threads, open_compressed


def _read(path: Path, threads: int, chunk: int = 65536) -> tuple[bytes, type[BaseException] | None]:
    """Everything readable, in ``chunk``-sized reads, and the error that ended it (if any)."""
    stream, codec = open_compressed(path, threads=threads)
    assert codec == "bz2"
    got = bytearray()
    try:
        with stream:
            while block := stream.read(chunk):
                got += block
    except (EOFError, OSError) as exc:
        return bytes(got), type(exc)
    return bytes(got), None


def _lines(path: Path, threads: int) -> tuple[int, type[BaseException] | None]:
    """The number of lines read before the error that ended the file, and that error."""
    stream, _ = open_compressed(path, threads=threads)
    n = 0
    try:
        with stream:
            for _line in stream:
                n += 1
    except (EOFError, OSError) as exc:
        return n, type(exc)
    return n, None


def _pages(n: int) -> bytes:
    """Text that compresses poorly enough to fill several 100 kB bz2 blocks."""
    return b"".join(
        f"<page><title>Person {i}</title><text>{os.urandom(300).hex()}</text></page>\n".encode()
        for i in range(n)
    )


def test_parallel_bz2_reads_the_real_dumps_byte_for_byte(shared_data: Path) -> None:
    dumps = sorted(shared_data.glob("**/*.bz2"))
    assert dumps, "no bz2 dump in the shared data"
    for path in dumps:
        expected = bz2.decompress(path.read_bytes())
        assert _read(path, threads=2) == (expected, None), path.name
        assert _read(path, threads=1) == (expected, None), path.name


def test_parallel_bz2_reads_multistream_files(tmp_path: Path) -> None:
    """Wikimedia's multistream dumps are bz2 streams one after another."""
    parts = [_pages(40), _pages(3), _pages(60)]
    path = tmp_path / "multi.xml.bz2"
    path.write_bytes(b"".join(bz2.compress(p, compresslevel=1) for p in parts))
    assert _read(path, threads=2) == (b"".join(parts), None)


@pytest.mark.parametrize("damage", ["cut", "zeroed"])
def test_a_broken_file_yields_the_complete_blocks_then_the_bz2_error(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The parallel reader fails for its whole window, good blocks too; the fallback reads
    them again. Where exactly the error cuts in depends on read sizes (bz2 hands out a damaged
    block's first bytes before its checksum fails), so the test asks for the same data up to
    the shorter of the two and for every block before the damage."""
    data = bytearray(bz2.compress(_pages(600), compresslevel=1))  # ~100 kB blocks
    middle = len(data) * 2 // 3
    if damage == "cut":
        data = data[:middle]
    else:
        data[middle : middle + 64] = bytes(64)
    path = tmp_path / f"{damage}.xml.bz2"
    path.write_bytes(bytes(data))
    error = EOFError if damage == "cut" else OSError
    with caplog.at_level(logging.WARNING, logger="occbio.extract.compressed"):
        for chunk in (4096, 65536, 1 << 22):
            serial, serial_error = _read(path, threads=1, chunk=chunk)
            parallel, parallel_error = _read(path, threads=2, chunk=chunk)
            assert serial_error is parallel_error is error
            shorter = min(len(serial), len(parallel))
            assert serial[:shorter] == parallel[:shorter]
            if chunk < 1 << 20:  # a 4 MB read that meets the error returns nothing, in bz2 too
                assert len(parallel) > 150_000  # the blocks before the damage
        assert _lines(path, threads=2)[1] is error
    assert "reading it again on one thread" in caplog.text


def test_decompression_threads_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert default_threads() == max(1, min(4, os.cpu_count() or 1))
    monkeypatch.setenv(THREADS_ENV, "3")
    assert default_threads() == 3
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv(THREADS_ENV, bad)
        with caplog.at_level(logging.WARNING, logger="occbio.extract.compressed"):
            assert default_threads() == 1
        assert f"{THREADS_ENV}={bad!r} is not a whole number" in caplog.text
