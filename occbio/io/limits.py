"""Caps on what a command reads from a file it is given, and a word while it waits for a FIFO.

What ``evaluate``, ``audit``, ``rewrite`` and ``review import`` are given can be anything: a
device (``/dev/zero`` has no end and no newline), a compression bomb, a FIFO whose writer never
closes it. So a line is at most :data:`MAX_LINE_BYTES` (a sentence, a paragraph or a JSON
object is far smaller; a longer line stops the command with one line naming the file and the
line), a whole input at most what its caller derives from the test set, a device or a socket is
refused before it is opened, and a FIFO (``<(...)``, a pipe) is read once, with a warning on
standard error while it is waited for (Ctrl-C stops the wait).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from occbio.extract.compressed import special_file_problem

__all__ = [
    "MAX_LINE_BYTES",
    "InputInterrupted",
    "InputTooLarge",
    "LineGuard",
    "Activity",
    "LineNumbers",
    "bounded_lines",
    "device_problem",
    "interrupted",
    "is_stream",
    "maybe_waiting",
    "mib",
    "waiting_notice",
]

log = logging.getLogger(__name__)

#: The longest line read from a text or JSON-lines input (8 MiB: a paragraph of 200,000 words
#: fits; ``/dev/zero`` or a file without newlines does not).
MAX_LINE_BYTES = 8 << 20

#: Seconds before the first "still waiting" warning on a FIFO, then between warnings.
WAIT_FIRST_S = 5.0
WAIT_AGAIN_S = 60.0


class InputTooLarge(ValueError):
    """An input over a cap (one line naming the file, the line and the cap)."""


class InputInterrupted(ValueError):
    """Ctrl-C while a FIFO or pipe was waited for (one line: :func:`interrupted`)."""


def interrupted(path: Path | str, what: str) -> str:
    """What to say when Ctrl-C stops a wait on the FIFO or pipe ``path``."""
    return (
        f"{path}: interrupted while waiting for the end of this FIFO or pipe ({what}): its "
        "writer had not closed it"
    )


def mib(n: int) -> str:
    """``8 MiB``, ``1.5 GiB``: a cap in words."""
    if n >= 1 << 30:
        return f"{n / (1 << 30):.3g} GiB"
    return f"{n / (1 << 20):.3g} MiB"


def device_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as an input: a device or a socket (``/dev/zero``,
    ``/dev/urandom``: no end). ``None`` for a regular file, a FIFO or a pipe (read once), a
    directory or a missing path (the caller says what those are)."""
    return special_file_problem(path, stream_ok=True)


def is_stream(path: Path) -> bool:
    """Whether ``path`` is a FIFO or a pipe (``<(...)``, ``/dev/stdin`` fed by a pipe)."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


class Activity:
    """Whether a read of a stream is in progress and since when (for :func:`waiting_notice`):
    :meth:`waiting` before a read that may block (``open`` of a FIFO too), :meth:`got` after."""

    def __init__(self) -> None:
        self.since: float | None = None

    def waiting(self) -> None:
        self.since = time.monotonic()

    def got(self) -> None:
        self.since = None


@contextlib.contextmanager
def waiting_notice(path: Path | str, what: str) -> Iterator[Activity]:
    """While the body runs, warn when a read of ``path`` (a FIFO or a pipe holding ``what``)
    has waited :data:`WAIT_FIRST_S` seconds for data or for its end, then every
    :data:`WAIT_AGAIN_S` while it still waits: a writer that never closes it would otherwise
    leave the command waiting in silence. The body reports its reads to the yielded
    :class:`Activity` (time spent on what was read is not waiting)."""
    done = threading.Event()
    activity = Activity()

    def warn() -> None:
        warned: tuple[float, float] | None = None  # (the wait warned about, when)
        while not done.wait(1.0):
            since, now = activity.since, time.monotonic()
            if since is None or now - since < WAIT_FIRST_S:
                continue
            if warned and warned[0] == since and now - warned[1] < WAIT_AGAIN_S:
                continue
            log.warning(
                "%s: still waiting for the end of this FIFO or pipe (%s): nothing came for "
                "%d s and its writer has not closed it; Ctrl-C stops",
                path,
                what,
                now - since,
            )
            warned = (since, now)

    thread = threading.Thread(target=warn, name="occbio-fifo-notice", daemon=True)
    thread.start()
    try:
        yield activity
    finally:
        done.set()


@contextlib.contextmanager
def maybe_waiting(path: Path | str, what: str) -> Iterator[Activity]:
    """:func:`waiting_notice` for a FIFO or a pipe; for anything else, no warning."""
    if is_stream(Path(path)):
        with waiting_notice(path, what) as activity:
            yield activity
    else:
        yield Activity()


class LineGuard(io.RawIOBase):
    """``stream`` read as it is, but a line longer than ``max_line`` bytes, or more than
    ``max_total`` bytes in all, raises :class:`InputTooLarge` naming ``name``: a text reader
    on top (``io.TextIOWrapper``, ``csv``) never holds more than that. ``None``: no cap. Each
    read is reported to ``activity`` (see :func:`waiting_notice`)."""

    def __init__(
        self,
        stream: BinaryIO,
        name: Path | str,
        *,
        max_line: int | None = MAX_LINE_BYTES,
        max_total: int | None = None,
        what: str = "",
        activity: Activity | None = None,
    ) -> None:
        self._stream = stream
        self._activity = activity
        self._name = name
        self._max_line = max_line
        self._max_total = max_total
        self._what = what
        self._line = 1  # the line being read
        self._since_newline = 0
        self._total = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer).cast("B")
        if self._activity is not None:
            self._activity.waiting()
        n = self._stream.readinto(view)  # type: ignore[attr-defined]
        if self._activity is not None:
            self._activity.got()
        if not n:
            return 0
        self._total += n
        if self._max_total is not None and self._total > self._max_total:
            raise InputTooLarge(
                f"{self._name}: more than {mib(self._max_total)}{self._what}; is this the right "
                "file?"
            )
        if self._max_line is None:
            return n
        chunk = view[:n].tobytes()
        if n <= self._max_line:  # a line inside the chunk is shorter than the cap
            first = chunk.find(b"\n")
            if first < 0:
                self._since_newline += n
            else:
                if self._since_newline + first > self._max_line:
                    self._too_long()
                self._line += chunk.count(b"\n")
                self._since_newline = n - chunk.rfind(b"\n") - 1
        else:
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                if self._since_newline + end - start > self._max_line:
                    self._too_long()
                self._line += 1
                self._since_newline = 0
                start = end + 1
            self._since_newline += n - start
        if self._since_newline > self._max_line:
            self._too_long()
        return n

    def _too_long(self) -> None:
        raise InputTooLarge(
            f"{self._name}:{self._line}: a line longer than {mib(self._max_line)}; is this a text "
            "file?"
        )


def bounded_lines(
    stream: BinaryIO,
    name: Path | str,
    *,
    max_line: int = MAX_LINE_BYTES,
    activity: Activity | None = None,
) -> Iterator[bytes]:
    """The lines of a binary ``stream`` (split at ``\\n``, each with its ending), none longer
    than ``max_line`` bytes: a longer one raises :class:`InputTooLarge` naming ``name`` and the
    line, after at most ``max_line`` bytes were read into memory. Each read is reported to
    ``activity`` (see :func:`waiting_notice`)."""
    n = 0
    while True:
        if activity is not None:
            activity.waiting()
        line = stream.readline(max_line + 1)
        if activity is not None:
            activity.got()
        if not line:
            return
        n += 1
        if len(line) > max_line:
            raise InputTooLarge(
                f"{name}:{n}: a line longer than {mib(max_line)}; is this a text file?"
            )
        yield line


class LineNumbers:
    """The numbers of counted lines (lines not UTF-8, say): the first ``keep`` and how many in
    all, so an endless input does not grow memory. ``len`` is the count; slicing and iteration
    give the numbers kept."""

    def __init__(self, keep: int = 10) -> None:
        self._keep = keep
        self._first: list[int] = []
        self._count = 0

    def append(self, n: int) -> None:
        self._count += 1
        if len(self._first) < self._keep:
            self._first.append(n)

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def __getitem__(self, index: slice) -> list[int]:
        return self._first[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._first)
