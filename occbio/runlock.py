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

Commands that only *read* the run's data and write their results into a folder of their own
(``evaluate``, ``review export``) take the lock shared (``run_lock(path, shared=True)``): any
number of them work side by side, while a command that writes the run (``mine``, ``augment``,
``review import|apply``) is refused as long as one reads, and they are refused while one writes.
Their output folder gets an exclusive lock of its own (:func:`output_lock`), so two commands
never fill the same folder with a mixture of their files.

A lock on the directory moves with it: after ``mv RUN RUN.old`` a second command on ``RUN`` would
find a new, free directory there while the first still writes under that path. So the path is held
too: a ``flock`` on a file named after the directory's real path, in a folder of this user's in the
system's temporary folder (``$TMPDIR/occbio-locks-UID/``; the files are a few hundred bytes and
stay, as removing a lock file safely needs another lock; readers hold it shared, like the
directory). A second command on the same path is refused while the first lives, and the first stops
at its next commit with a one-line error (:meth:`occbio.run.RunDir.check_place`: the path no longer
leads to the directory it opened). A folder there that is not this user's own is not used (with a
warning): the lock on the directory still holds then.
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

__all__ = ["LOCK_FILE", "RunDirError", "RunLocked", "output_lock", "run_lock"]

LOCK_FILE = ".occbio.lock"
#: How the details are read: never through a link, never waiting on a FIFO.
_READ_DETAILS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK

log = logging.getLogger(__name__)


class RunDirError(RuntimeError):
    """The run directory cannot be used at all (a file, or not writable)."""


class RunLocked(RuntimeError):
    """Another live process holds the run directory."""


def _identity(path: Path) -> list[int]:
    """The directory's device and inode: details copied with a run (``cp -r``) are not of it."""
    st = os.stat(path)
    return [st.st_dev, st.st_ino]


def _read_details(path: Path) -> dict:
    """The details of ``path`` (the run directory, whose details file must name it, or a path
    lock's file); :class:`ValueError` when there are none of it."""
    where = path if path.is_file() else path / LOCK_FILE
    fd = os.open(where, _READ_DETAILS)
    try:
        info = json.loads(os.read(fd, 4096).decode("utf-8"))
    finally:
        os.close(fd)
    if not isinstance(info, dict) or (where != path and info.get("dir") != _identity(path)):
        raise ValueError("details of another directory")
    return info


def _holder(path: Path) -> str:
    """The lock holder's details as a phrase, from the details file (best effort): ``path``
    is the run directory, or a path lock's file."""
    try:
        info = _read_details(path)
        pid, host = int(info["pid"]), str(info["host"])
        if host == socket.gethostname() and not _alive(pid):
            # a reader that has ended since (readers share the lock and the details file)
            return "a process that left no current details"
        return f"pid {pid} on {host}, `{info['command']}`, since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError, OverflowError):
        return "a process that left no details"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return pid > 0


def _details(path: Path, *, shared: bool) -> bytes:
    """Who holds the lock of the directory ``path``: process, machine, command, since when."""
    details: dict[str, object] = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": " ".join(["occbio", *sys.argv[1:]])[:300],
        "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "dir": _identity(path),
    }
    if shared:
        details["shared"] = True
    return json.dumps(details).encode("utf-8")


def _write_details(path: Path, *, shared: bool = False) -> None:
    """Who holds the lock, for the message of a refused run (never through a link)."""
    try:
        # O_NONBLOCK: a FIFO in its place is an error at once, not a wait for a reader
        flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = os.open(path / LOCK_FILE, flags, 0o644)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ELOOP:
            reason = "it is a symbolic link, and occbio writes through no link in a run directory"
        if exc.errno == errno.ENXIO:
            reason = "it is a FIFO, not a regular file"
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise RunDirError(
                f"cannot write {path / LOCK_FILE}: {reason}; this command writes the run, so "
                "its directory must be writable"
            ) from None
        raise RunDirError(f"cannot write {path / LOCK_FILE}: {reason}; remove it") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RunDirError(f"cannot write {path / LOCK_FILE}: not a regular file; remove it")
        os.ftruncate(fd, 0)
        os.write(fd, _details(path, shared=shared))
    finally:
        os.close(fd)


def _note_reader(path: Path) -> None:
    """A reader's details, for the message of a writer it keeps out: best effort, only in a
    run directory (a corpus folder given on its own gets no file), never through a link."""
    if (path / "manifest.json").is_file() and not _read_by_live_reader(path):
        with contextlib.suppress(RunDirError, OSError):  # a read-only run is still read
            _write_details(path, shared=True)


def _forget_reader(path: Path) -> None:
    """A reader that ends clears the details it left, so that a later reader in the same
    (still living) process, or another one, leaves its own: best effort."""
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        info = _read_details(path)
        if info.get("shared") is True and int(info["pid"]) == os.getpid():
            fd = os.open(path / LOCK_FILE, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    os.ftruncate(fd, 0)
            finally:
                os.close(fd)


def _read_by_live_reader(path: Path) -> bool:
    """Whether the details file names another reader, alive on this host: a second reader
    leaves them as they are (it may end first while the other reads on). Details of a writer
    are stale once a reader holds the lock, so they are replaced."""
    try:
        info = _read_details(path)
        host, pid = str(info["host"]), int(info["pid"])
        return info.get("shared") is True and host == socket.gethostname() and _alive(pid)
    except (OSError, ValueError, KeyError, TypeError, OverflowError):
        return False


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
def _path_lock(path: Path, *, shared: bool) -> Iterator[None]:
    """Hold the run directory's real path (see the module's text), shared by readers;
    :class:`RunLocked` when another process holds it. Its file holds the holder's details."""
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
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(
                f"{path} is in use by another occbio run ({_holder(name)}); wait for it to "
                "finish, or choose another --out"
            ) from None
        mine = not shared or not _read_by_live_reader(name)
        if mine:  # a second reader leaves the first's details, as in the directory
            os.ftruncate(fd, 0)
            os.pwrite(fd, _details(path, shared=shared), 0)
        yield
        if shared and mine:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # releases the flock


def _open_dir(path: Path, *, create: bool, what: str) -> int:
    """A descriptor of the directory ``path`` to lock (made first when ``create``), or one
    line naming it as ``what``."""
    try:
        if create:
            path.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RunDirError(f"cannot use {path} as {what} (--out): {reason}") from None


@contextlib.contextmanager
def run_lock(path: Path, *, shared: bool = False) -> Iterator[None]:
    """Hold the directory ``path`` (created if needed) for this process; :class:`RunLocked`
    when another process holds it, :class:`RunDirError` when it cannot be a directory of ours.
    ``shared``: for a command that only reads the run (the directory must exist); readers
    hold it together, a writer holds it alone."""
    path = Path(path)
    fd = _open_dir(path, create=not shared, what="the run directory")
    try:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            if shared:
                raise RunLocked(
                    f"{path} is being written by another occbio command ({_holder(path)}); "
                    "wait for it to finish, then run this one again"
                ) from None
            raise RunLocked(
                f"{path} is in use by another occbio run ({_holder(path)}); wait for it to "
                "finish, or choose another --out"
            ) from None
        with _path_lock(path, shared=shared):  # the directory's lock moves with it
            if shared:
                _note_reader(path)
            else:
                _write_details(path)
            yield
            if shared:
                _forget_reader(path)
    finally:
        os.close(fd)  # releases the flock


@contextlib.contextmanager
def output_lock(path: Path, command: str) -> Iterator[None]:
    """Hold the output folder ``path`` (created if needed) of a command that fills it with
    several files (``evaluate``, ``review export``) for this process alone; :class:`RunLocked`
    when another process fills it. Nothing is written for the lock itself."""
    path = Path(path)
    fd = _open_dir(path, create=True, what="the output folder")
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLocked(
                f"{path} is being written by another occbio command (one `occbio {command}` "
                "at a time fills a folder); wait for it to finish, or choose another --out"
            ) from None
        yield
    finally:
        os.close(fd)
