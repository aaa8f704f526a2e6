"""One occbio process per run directory.

Two processes writing the same run directory corrupt it quietly: they write the same part files
and each saves its own manifest, so one method's corpus can end up under another's manifest and
later runs skip it as done. :func:`run_lock` takes an exclusive ``flock`` on the run directory
itself (an open descriptor of the directory) for as long as a command works there; a second
command is refused at once with who holds the lock and since when. A lock on the directory
cannot be deleted from under its holder the way a lock *file* can (``rm RUN/.occbio.lock``
would let a second run in). The holder's details go to ``RUN_DIR/.occbio.lock``, which is only
read for the message. The kernel releases a ``flock`` when its process dies, however it dies,
so a killed run never blocks the next one. ``flock`` is advisory and local: on a network file
system that does not support it, two machines are not kept apart.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

__all__ = ["LOCK_FILE", "RunDirError", "RunLocked", "run_lock"]

LOCK_FILE = ".occbio.lock"


class RunDirError(RuntimeError):
    """The run directory cannot be used at all (a file, or not writable)."""


class RunLocked(RuntimeError):
    """Another live process holds the run directory."""


def _holder(path: Path) -> str:
    """The lock holder's details as a phrase, from the details file (best effort)."""
    try:
        fd = os.open(path / LOCK_FILE, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            info = json.loads(os.read(fd, 4096).decode("utf-8"))
        finally:
            os.close(fd)
        return f"pid {info['pid']} on {info['host']}, `{info['command']}`, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that left no details"


def _write_details(path: Path) -> None:
    """Who holds the lock, for the message of a refused run (never through a link)."""
    details = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": " ".join(["occbio", *sys.argv[1:]])[:300],
        "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    try:
        fd = os.open(path / LOCK_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ELOOP:
            reason = "it is a symbolic link, and occbio writes through no link in a run directory"
        raise RunDirError(f"cannot write {path / LOCK_FILE}: {reason}; remove it") from None
    try:
        os.write(fd, json.dumps(details).encode("utf-8"))
    finally:
        os.close(fd)


@contextlib.contextmanager
def run_lock(path: Path) -> Iterator[None]:
    """Hold the directory ``path`` (created if needed) for this process; :class:`RunLocked`
    when another process holds it, :class:`RunDirError` when it cannot be a directory of ours."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RunDirError(f"cannot use {path} as the run directory (--out): {reason}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(
                f"{path} is in use by another occbio run ({_holder(path)}); wait for it to "
                "finish, or choose another --out"
            ) from None
        _write_details(path)
        yield
    finally:
        os.close(fd)  # releases the flock
