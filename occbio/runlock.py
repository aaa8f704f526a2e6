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

A lock on the directory moves with it: after ``mv RUN RUN.old`` a second command on ``RUN``
would find a new, free directory there while the first still writes under that path. So the
path is held too: a ``flock`` on a file named after the directory's real path, in a folder of
this user's in the system's temporary folder (``$TMPDIR/occbio-locks-UID/``; the files are a few
hundred bytes and stay, as removing a lock file safely needs another lock). A second command on
the same path is refused while the first lives, and the first stops at its next commit with a
one-line error (:meth:`occbio.run.RunDir.check_place`: the path no longer leads to the directory
it opened). A folder there that is not this user's own is not used (with a warning): the lock on
the directory still holds then.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import logging
import os
import socket
import stat
import sys
import tempfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

__all__ = ["LOCK_FILE", "RunDirError", "RunLocked", "run_lock"]

LOCK_FILE = ".occbio.lock"

log = logging.getLogger(__name__)


class RunDirError(RuntimeError):
    """The run directory cannot be used at all (a file, or not writable)."""


class RunLocked(RuntimeError):
    """Another live process holds the run directory."""


def _holder(path: Path) -> str:
    """The lock holder's details as a phrase, from the details file (best effort): ``path``
    is the run directory, or a path lock's file."""
    try:
        where = path if path.is_file() else path / LOCK_FILE
        fd = os.open(where, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            info = json.loads(os.read(fd, 4096).decode("utf-8"))
        finally:
            os.close(fd)
        return f"pid {info['pid']} on {info['host']}, `{info['command']}`, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a process that left no details"


def _details() -> bytes:
    """Who holds a lock: process, machine, command, since when."""
    details = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": " ".join(["occbio", *sys.argv[1:]])[:300],
        "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return json.dumps(details).encode("utf-8")


def _write_details(path: Path) -> None:
    """Who holds the lock, for the message of a refused run (never through a link)."""
    try:
        fd = os.open(path / LOCK_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ELOOP:
            reason = "it is a symbolic link, and occbio writes through no link in a run directory"
        raise RunDirError(f"cannot write {path / LOCK_FILE}: {reason}; remove it") from None
    try:
        os.write(fd, _details())
    finally:
        os.close(fd)


def _path_locks_folder() -> Path | None:
    """This user's folder of path locks (made if needed), or ``None`` (with a warning) when
    what is there is not a private folder of this user's."""
    folder = Path(tempfile.gettempdir()) / f"occbio-locks-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    try:
        st = os.lstat(folder)
    except OSError as exc:
        log.warning("run lock: cannot use %s (%s); the run path is not locked", folder, exc)
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
        log.warning(
            "run lock: %s is not a private folder of this user's; the run path is not locked",
            folder,
        )
        return None
    return folder


@contextlib.contextmanager
def _path_lock(path: Path) -> Iterator[None]:
    """Hold the run directory's real path (see the module's text); :class:`RunLocked` when
    another process holds it."""
    folder = _path_locks_folder()
    if folder is None:
        yield
        return
    real = os.path.realpath(path)
    name = folder / (hashlib.sha256(os.fsencode(real)).hexdigest()[:32] + ".lock")
    try:
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        log.warning("run lock: cannot open %s (%s); the run path is not locked", name, exc)
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(
                f"{path} is in use by another occbio run ({_holder(name)}); wait for it to "
                "finish, or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, _details(), 0)
        yield
    finally:
        os.close(fd)  # releases the flock


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
        with _path_lock(path):  # the directory's lock moves with it (mv RUN RUN.old)
            _write_details(path)
            yield
    finally:
        os.close(fd)  # releases the flock
