"""Writes that never go through a symbolic link inside a run directory.

:func:`guard` names a directory occbio writes in (a run directory, an ``--out`` of
``evaluate`` or ``review export``): the path as the user gave it is trusted, even when it is
itself a link, but from then on, in this process, every file written below it
(:func:`atomic_write`, which every output of occbio goes through, :func:`open_file`), every
folder made (:func:`make_dirs`) and every tree removed (:func:`remove_tree`) is reached one
path component at a time from a descriptor of that directory, each opened with ``O_NOFOLLOW``:
a link anywhere below the directory (planted before the run or while it works) is refused with
one line, never followed. The temporary file is created in, and renamed from, the descriptor
of its folder; just before the rename the path is walked again and must lead to that same
folder, so a folder swapped for a link (or moved away) while the file was written is refused
too. A directory swapped for another under its own name (``mv RUN RUN.old; ln -s ... RUN``)
is refused the same way. A path below a guarded directory that holds ``..`` is refused. Paths
under no guarded directory are written as they are named.

The cost is a handful of ``open``/``fstat`` calls per file written, nothing beside the
``fsync`` every write already does.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from occbio.runlock import RunDirError

__all__ = ["atomic_write", "guard", "make_dirs", "open_file", "output_dir", "remove_tree", "unlink"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Files are created with mode 0600; give them the usual mode under the umask.
_FILE_MODE = 0o666 & ~_umask()
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
#: Guarded directories: the parts of their absolute path (as given, and normalised) -> the
#: (device, inode) of the directory when it was guarded.
_ROOTS: dict[tuple[str, ...], tuple[int, int]] = {}


def _absolute(path: Path) -> Path:
    """``path`` made absolute without resolving ``..`` or links (what was asked for)."""
    return path if path.is_absolute() else Path.cwd() / path


def guard(root: Path) -> None:
    """Write below the existing directory ``root`` only through :mod:`occbio.safepaths`'
    checks, from now on in this process."""
    st = os.stat(root)
    if not stat.S_ISDIR(st.st_mode):
        raise RunDirError(f"{root} is not a directory")
    identity = (st.st_dev, st.st_ino)
    absolute = _absolute(Path(root))
    _ROOTS[absolute.parts] = identity
    _ROOTS[Path(os.path.normpath(absolute)).parts] = identity
    _ROOTS[Path(os.path.realpath(absolute)).parts] = identity


def _guarded(path: Path) -> tuple[Path, tuple[int, int], tuple[str, ...]] | None:
    """The guarded directory ``path`` lies below (the nearest), its identity and the names
    from there to ``path``; ``None`` when it lies below none."""
    parts = _absolute(path).parts
    for i in range(len(parts) - 1, 0, -1):
        identity = _ROOTS.get(parts[:i])
        if identity is not None:
            rel = parts[i:]
            if ".." in rel:
                raise RunDirError(
                    f"{path} leads out of {Path(*parts[:i])} ('..'): occbio writes only inside it"
                )
            return Path(*parts[:i]), identity, rel
    return None


def _link_error(path: Path, dir_fd: int, name: str) -> RunDirError:
    try:
        target = f" to {os.readlink(name, dir_fd=dir_fd)}"
    except OSError:
        target = ""
    return RunDirError(
        f"{path} is a symbolic link{target}: occbio writes through no link in its output "
        "directory (one planted while it works included); remove the link and run the same "
        "command again"
    )


def _open_dir(root: Path, identity: tuple[int, int], names: tuple[str, ...], create: bool) -> int:
    """A descriptor of ``root/names...``, each name opened without following a link (made
    when missing and ``create``)."""
    fd = os.open(root, _DIR_FLAGS)
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != identity:
            raise RunDirError(
                f"{root} is no longer the directory occbio started writing in (it was moved, or "
                "replaced by another or by a link, while occbio worked); nothing was written "
                "there: put it back and run the same command again"
            )
        here = root
        for name in names:
            here = here / name
            try:
                child = os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise FileNotFoundError(
                        errno.ENOENT, os.strerror(errno.ENOENT), str(here)
                    ) from None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o777, dir_fd=fd)
                child = os.open(name, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise OSError(exc.errno, exc.strerror, str(here)) from None
                if stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                    raise _link_error(here, fd, name) from None
                raise RunDirError(
                    f"{here} is not a directory, where occbio keeps a folder of its outputs: "
                    "remove or rename it"
                ) from None
            os.close(fd)
            fd = child
        return fd
    except BaseException:
        os.close(fd)
        raise


def _parent(path: Path, create: bool = True) -> tuple[int, Any]:
    """A descriptor of ``path``'s folder (made when missing and ``create``) and what
    :func:`_same_parent` needs to check it again."""
    found = _guarded(path)
    if found is None:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path.parent, _DIR_FLAGS), None
    root, identity, rel = found
    if not rel:
        raise RunDirError(f"{path} is the directory occbio writes in, not a file in it")
    return _open_dir(root, identity, rel[:-1], create), found


def _same_parent(path: Path, fd: int, found: Any) -> None:
    """The folder ``fd`` is still what ``path``'s folder names, no component a link."""
    if found is None:
        return
    root, identity, rel = found
    now = _open_dir(root, identity, rel[:-1], create=False)
    try:
        a, b = os.fstat(fd), os.fstat(now)
        if (a.st_dev, a.st_ino) != (b.st_dev, b.st_ino):
            raise RunDirError(
                f"{path.parent} was replaced while occbio wrote {path.name} in it; nothing was "
                "written there: run the same command again"
            )
    finally:
        os.close(now)


def output_dir(path: Path) -> Path:
    """Make the folder ``path`` a command writes its files in, and return it (``..`` taken
    lexically: the user named it): below a guarded directory, through no link; elsewhere (an
    ``--out`` outside the run) as named, then guarded."""
    path = Path(os.path.normpath(path))
    if _guarded(path) is None:
        path.mkdir(parents=True, exist_ok=True)
        guard(path)
    else:
        make_dirs(path)
    return path


def make_dirs(path: Path) -> None:
    """``path`` and its missing parents as folders (never through a link below a guarded
    directory)."""
    found = _guarded(path)
    if found is None:
        path.mkdir(parents=True, exist_ok=True)
    else:
        os.close(_open_dir(*found, create=True))


def _not_a_file(path: Path) -> RunDirError:
    return RunDirError(f"{path} is not a regular file, where occbio keeps one: remove it")


def open_file(path: Path, flags: int, *, create: bool = True) -> int:
    """``os.open(path, flags)`` without following a link (the file's or a folder's) and
    without blocking on a FIFO; anything but a regular file is refused."""
    dir_fd, _found = _parent(path, create=create)
    try:
        fd = os.open(path.name, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666,
                     dir_fd=dir_fd)  # fmt: skip
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link_error(path, dir_fd, path.name) from None
        if exc.errno in (errno.ENXIO, errno.ENODEV, errno.EISDIR):  # a FIFO with no reader
            raise _not_a_file(path) from None
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        os.close(dir_fd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_a_file(path)
    os.set_blocking(fd, True)
    return fd


def unlink(path: Path) -> None:
    """Remove the file ``path`` if it is there (through no link below a guarded directory)."""
    try:
        dir_fd, _found = _parent(path, create=False)
    except FileNotFoundError:
        return
    try:
        os.unlink(path.name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        os.close(dir_fd)


def remove_tree(path: Path) -> None:
    """Remove the folder ``path`` with what is in it, if it is there (a link in its place, or
    in a folder above it below a guarded directory, is left alone)."""
    try:
        dir_fd, _found = _parent(path, create=False)
    except (OSError, RunDirError):
        return
    try:
        shutil.rmtree(path.name, dir_fd=dir_fd, ignore_errors=True)
    finally:
        os.close(dir_fd)


@contextlib.contextmanager
def atomic_write(path: Path, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path``; on success fsync and rename it to ``path``.

    On an exception (or a kill) the final name is untouched and the temporary file is removed
    (or, after a kill, left with a ``.tmp`` suffix that nothing reads). Below a guarded
    directory no link is followed, at the start or at the rename.
    """
    path = Path(path)
    dir_fd, found = _parent(path)
    try:
        for _ in range(100):
            tmp = f".{path.name}.{os.urandom(4).hex()}.tmp"
            try:
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
                fd = os.open(tmp, flags, 0o600, dir_fd=dir_fd)
                break
            except FileExistsError:
                continue
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path.parent / tmp)) from None
        else:  # pragma: no cover - 100 random names taken
            raise FileExistsError(errno.EEXIST, "no free temporary name", str(path))
        try:
            kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
            with os.fdopen(fd, mode, **kwargs) as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
                os.fchmod(fh.fileno(), _FILE_MODE)
            _same_parent(path, dir_fd, found)
            try:
                os.replace(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except IsADirectoryError:
                raise RunDirError(
                    f"{path} is a directory, where occbio writes a file: remove or rename it"
                ) from None
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path)) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
            raise
    finally:
        os.close(dir_fd)
