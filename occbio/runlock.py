"""One occbio process per run directory.

Two processes writing the same run directory corrupt it quietly: they write the same part files
and each saves its own manifest, so one method's corpus can end up under another's manifest and
later runs skip it as done. :func:`run_lock` takes an exclusive ``flock`` on
``RUN_DIR/.occbio.lock`` for as long as a command works there; a second command is refused at
once with who holds the lock and since when. The kernel releases a ``flock`` when its process
dies, however it dies, so a lock left by a killed run never blocks the next one (the file stays,
holding the last holder's details, and means nothing by itself). ``flock`` is advisory and
local: on a network file system that does not support it, two machines are not kept apart.
"""

from __future__ import annotations

import contextlib
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


def _holder(fd: int) -> str:
    """The lock holder's details as a phrase, from the lock file (best effort)."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
        return f"pid {info['pid']} on {info['host']}, `{info['command']}`, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that left no details"


@contextlib.contextmanager
def run_lock(path: Path) -> Iterator[None]:
    """Hold ``path`` (created if needed) for this process; :class:`RunLocked` when another
    process holds it, :class:`RunDirError` when it cannot be a directory of ours."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RunDirError(f"cannot use {path} as the run directory (--out): {reason}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(
                f"{path} is in use by another occbio run ({_holder(fd)}); wait for it to "
                "finish, or choose another --out"
            ) from None
        details = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "command": " ".join(["occbio", *sys.argv[1:]])[:300],
            "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(details).encode("utf-8"), 0)
        yield
    finally:
        os.close(fd)  # releases the flock
