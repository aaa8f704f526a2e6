"""The run directory: stage manifest, atomic writes, checkpointed resume.

Every stage writes its results under ``outputs/NAME/``; ``manifest.json`` records the
configuration, package versions and, per stage, its status, fingerprint (settings + inputs),
counts and outputs. A file only ever appears under its final name once it is complete
(temporary file + ``os.replace``), so a run killed at any moment never leaves a half-written
file that looks finished. Long stages commit their output in chunks (:class:`ChunkedWriter`);
a killed run resumes after the last committed chunk and ends byte-identical to an
uninterrupted run.

The manifest is checked against a schema when it is read (a hand edit with a wrong type is a
one-line error naming the field), and each finished output is recorded with its size and
SHA-256: an output cut short or edited since its stage finished makes the stage run again.
No write goes through a symbolic link out of the run directory: one there is refused when the
run directory is opened, and every write below it walks from the run directory one component at
a time without following a link (:mod:`occbio.safepaths`), so a link planted while the run
works is refused too.

A run directory moved or replaced while a process works in it (``mv RUN RUN.old``) stops that
process at its next commit (:meth:`RunDir.check_place`, before each manifest save and each
chunk written): it would otherwise go on writing under the old path, into whatever is there now.
Another process on the old path is refused meanwhile by the lock on the path
(:mod:`occbio.runlock`). What a kill leaves is removed on resume by names tied to its writer:
the temporaries of a chunk writer's outputs (hidden ones included) when it opens, those of a
stage's outputs when it finishes. A committed chunk found damaged on resume is set aside under
``damaged/`` (renamed ``*.damaged``, with a warning naming it), never joined into an output.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import logging
import os
import platform
import re
import stat
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from occbio.runlock import RunDirError
from occbio.safepaths import atomic_write, guard, make_dirs, open_file, remove_tree, unlink

__all__ = [
    "RunDir",
    "StageState",
    "ChunkedWriter",
    "BatchLog",
    "ManifestError",
    "atomic_write",
    "file_identity",
    "file_sum",
    "fingerprint",
    "read_manifest",
]

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
#: Where damaged committed chunks are set aside (kept for a look, never read again).
DAMAGED_DIR = "damaged"
_VERSIONED_PACKAGES = (
    "occbio",
    "pydantic",
    "lxml",
    "mwparserfromhell",
    "requests",
    "beautifulsoup4",
    "sentencex",
    "py3langid",
)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _temporaries(path: Path) -> Iterator[Path]:
    """The temporaries a killed :func:`atomic_write` of ``path`` left: ``.NAME.*.tmp`` (plain
    files only)."""
    for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if not tmp.is_symlink() and tmp.is_file():
            yield tmp


def file_identity(path: Path) -> dict[str, Any]:
    """What identifies an input file cheaply: resolved path, size, modification time."""
    st = path.stat()
    return {"path": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def fingerprint(obj: Any) -> str:
    """A short stable hash of JSON-serialisable settings and inputs."""
    blob = json.dumps(obj, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def _package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _VERSIONED_PACKAGES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[name] = metadata.version(name)
    return versions


def _sha256(fh: IO[bytes]) -> str:
    """The SHA-256 of an open file, read in blocks (``hashlib.file_digest`` is Python 3.11+)."""
    digest = hashlib.sha256()
    while block := fh.read(1 << 20):
        digest.update(block)
    return digest.hexdigest()


def file_sum(path: Path) -> dict[str, Any]:
    """A finished file's size and SHA-256, to tell later whether it is still what was written."""
    with open(path, "rb") as fh:
        digest = _sha256(fh)
        size = os.fstat(fh.fileno()).st_size
    return {"size": size, "sha256": digest}


def _changed(path: Path, recorded: Any) -> str | None:
    """Why ``path`` is no longer the file recorded by :func:`file_sum`, or ``None``."""
    try:
        size = path.stat().st_size
    except OSError:
        return "it is missing"
    if not isinstance(recorded, dict):
        return "no size and checksum were recorded for it (an older occbio wrote it)"
    if size != recorded.get("size"):
        return f"it has {size} bytes, {recorded.get('size')} when written"
    if file_sum(path)["sha256"] != recorded.get("sha256"):
        return "its content changed (another SHA-256)"
    return None


class ManifestError(RuntimeError):
    """``manifest.json`` cannot be read as an occbio manifest (one line, naming the field)."""


#: A counter's value: a number (strict: a float accepts an int, never "5" or true); only
#: checked, the manifest keeps its own values.
_Count = float


class _Schema(BaseModel):
    # strict: "5" is not a count, true is not a number; fields not named here are kept as-is
    model_config = ConfigDict(strict=True, extra="allow")


class _FileSum(_Schema):
    size: int = Field(ge=0)
    sha256: str


class _Progress(_Schema):
    consumed: int = Field(default=0, ge=0)
    chunks: int = Field(default=0, ge=0)
    done: bool = False
    stats: dict[str, _Count] = {}
    warnings: list[str] = []
    checksums: dict[str, _FileSum] = {}
    chain: dict[str, str] = {}


class _StageRecord(_Schema):
    status: Literal["running", "done", "failed"] | None = None
    fingerprint: str | None = None
    counts: dict[str, _Count] = {}
    outputs: list[str] = []
    previous_outputs: list[str] = []
    warnings: list[str] = []
    error: str | None = None
    resumed: int = Field(default=0, ge=0)
    progress: dict[str, _Progress] = {}
    checksums: dict[str, _FileSum] = {}


class _Manifest(_Schema):
    stages: dict[str, _StageRecord]
    config: dict[str, Any] | None = None


def read_manifest(path: Path) -> dict[str, Any]:
    """A run's manifest, checked against the schema of what occbio writes there: a damaged or
    hand-edited one is a :class:`ManifestError` naming the file and the first bad field. (A
    stop, not a fresh start: the manifest is what says which hours of work are finished, so
    occbio does not guess or throw it away; the user decides.)"""
    fix = "fix it, delete it to start the run again, or choose another --out"
    try:
        # never blocks on a FIFO; a FIFO, a device or a directory is not a manifest
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ManifestError(f"{path} is not a regular file; remove it or choose another --out")
        with os.fdopen(fd, "rb") as fh:
            data = json.loads(fh.read().decode("utf-8"))
    except (ValueError, OSError) as exc:  # JSONDecodeError, UnicodeDecodeError
        raise ManifestError(
            f"{path} is not valid JSON ({exc}); it was not written by occbio or was edited by "
            f"hand: {fix}"
        ) from None
    try:
        _Manifest.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        first = errors[0]
        where = ".".join(str(part) for part in first["loc"]) or "the top level"
        found = json.dumps(first["input"], default=str)
        found = found if len(found) <= 40 else found[:37] + "..."
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ManifestError(
            f"{path} is not an occbio manifest: {where}: {first['msg']}, found {found}{more}; {fix}"
        ) from None
    return dict(data)


def _links_out_of(root: Path) -> Iterator[tuple[Path, Path]]:
    """Symbolic links under ``root`` that lead outside it (or nowhere), with their targets."""
    real_root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(root):  # links to directories: not entered
        for name in (*dirnames, *filenames):
            link = Path(dirpath, name)
            if link.is_symlink():
                target = link.resolve()
                if not target.exists() or not target.is_relative_to(real_root):
                    yield link, target


class RunDir:
    """A run directory and its manifest."""

    def __init__(self, path: Path, *, config: Mapping[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        guard(self.path)
        self.manifest_path = self.path / MANIFEST
        # a kill while the manifest was being saved leaves its temporary: the manifest itself
        # is whole (renamed into place or not at all), the temporary is nothing
        for tmp in _temporaries(self.manifest_path):
            unlink(tmp)
        if link := next(_links_out_of(self.path), None):
            raise RunDirError(
                f"{link[0]} is a symbolic link to {link[1]}, outside the run directory "
                f"{self.path}: occbio writes only inside it, never through a link; remove the "
                "link or choose another --out"
            )
        st = os.stat(self.path)
        self._identity = (st.st_dev, st.st_ino)
        if self.manifest_path.exists():
            self.manifest: dict[str, Any] = read_manifest(self.manifest_path)
        else:
            self.manifest = {"occbio_run": 1, "created": _now(), "stages": {}}
        self.manifest["versions"] = _package_versions()
        if config is not None:
            self.manifest["config"] = dict(config)
        self.save()

    def check_place(self) -> None:
        """A :class:`RunDirError` when the run directory's path no longer leads to the directory
        this process opened (moved, or moved and replaced): its next write would land in
        another directory, perhaps another run's."""
        try:
            st = os.stat(self.path)
            here = (st.st_dev, st.st_ino)
        except OSError:
            here = None
        if here != self._identity:
            raise RunDirError(
                f"the run directory {self.path} was moved or replaced while this run worked in it; "
                "stopped so as to write nothing into what is there now: run the same command with "
                "--out set to where the directory went to resume it"
            )

    def save(self) -> None:
        """Write the manifest atomically (after :meth:`check_place`)."""
        self.check_place()
        with atomic_write(self.manifest_path) as fh:
            json.dump(self.manifest, fh, indent=2, sort_keys=True, default=str)
            fh.write("\n")

    def stage(self, name: str) -> StageState:
        return StageState(self, name)

    def stage_record(self, name: str) -> dict[str, Any]:
        """The manifest entry of a stage (empty when it never ran)."""
        return dict(self.manifest["stages"].get(name, {}))

    def require_done(self, name: str, *, needed_by: str, hint: str = "") -> dict[str, Any]:
        """The record of a finished earlier stage, or a clear error saying what to run first."""
        record = self.stage_record(name)
        if record.get("status") != "done":
            raise RuntimeError(
                f"the {needed_by} stage needs the {name} stage first: run `occbio {name}` "
                f"with the same --out ({self.path}){hint}"
            )
        return record


class StageState:
    """One stage's entry in the manifest: begin, checkpoint progress, finish."""

    def __init__(self, run: RunDir, name: str) -> None:
        self.run = run
        self.name = name

    @property
    def parts_root(self) -> Path:
        """Where this stage keeps committed chunks until it finishes."""
        return self.run.path / ".parts" / self.name

    @property
    def record(self) -> dict[str, Any]:
        return self.run.manifest["stages"].setdefault(self.name, {})

    def is_done(self, fp: str) -> bool:
        """True when this stage finished with exactly this fingerprint and each of its outputs
        is still the file it wrote (same size and SHA-256); an output changed since is logged
        and the stage runs again."""
        rec = self.run.manifest["stages"].get(self.name)
        if not rec or rec.get("status") != "done" or rec.get("fingerprint") != fp:
            return False
        changed = self._changed_outputs()
        for name, why in changed.items():
            log.warning(
                "%s: %s changed since the stage finished (%s); running it again",
                self.name,
                name,
                why,
            )
        return not changed

    def _changed_outputs(self) -> dict[str, str]:
        """The finished stage's outputs that are no longer what it wrote, with why."""
        rec = self.run.stage_record(self.name)
        sums = rec.get("checksums", {})
        changed = {}
        for name in rec.get("outputs", []):
            why = _changed(self.run.path / name, sums.get(name))
            if why is not None:
                changed[name] = why
        return changed

    def begin(self, fp: str, *, inputs: Any, settings: Any) -> bool:
        """Mark the stage running; return True when it resumes an unfinished run of the same
        fingerprint (its checkpoints are valid), False when it starts afresh."""
        rec = self.record
        # a stage that failed (a full disk, a site that asked to wait) resumes like a killed one
        resuming = rec.get("status") in ("running", "failed") and rec.get("fingerprint") == fp
        if not resuming:
            # what the last run of this stage left, to remove at finish what this one does not
            # write again (a re-run with fewer languages must not leave corpus.ca beside it)
            previous = sorted({*rec.get("outputs", []), *rec.get("previous_outputs", [])})
            rec.clear()
            rec.update({"progress": {}, "started": _now(), "previous_outputs": previous})
            remove_tree(self.parts_root)
        rec.pop("error", None)
        rec.update(
            {
                "status": "running",
                "fingerprint": fp,
                "inputs": inputs,
                "settings": settings,
            }
        )
        rec.setdefault("progress", {})
        rec["resumed"] = rec.get("resumed", 0) + (1 if resuming else 0)
        self.run.save()
        return resuming

    def progress(self, key: str) -> dict[str, Any]:
        return self.record["progress"].setdefault(key, {})

    def finish(
        self,
        *,
        counts: Mapping[str, int],
        outputs: Iterable[str],
        warnings: Iterable[str] = (),
    ) -> None:
        rec = self.record
        outputs = sorted(outputs)
        self._remove_stale(set(rec.pop("previous_outputs", [])) - set(outputs))
        self._remove_temporaries(outputs)
        rec.update(
            {
                "status": "done",
                "counts": dict(sorted(counts.items())),
                "outputs": outputs,
                "checksums": {
                    name: file_sum(self.run.path / name)
                    for name in outputs
                    if (self.run.path / name).is_file()
                },
                "warnings": list(warnings),
                "finished": _now(),
            }
        )
        rec.pop("progress", None)
        self.run.save()
        remove_tree(self.parts_root)
        with contextlib.suppress(OSError):
            self.parts_root.parent.rmdir()  # .parts/ itself, once no stage has chunks left

    def _remove_stale(self, names: Iterable[str]) -> None:
        """Delete earlier outputs of this stage that this run did not write again (only plain
        files inside the run directory)."""
        root = self.run.path.resolve()
        removed = []
        for name in sorted(names):
            path = (self.run.path / name).resolve()
            if path.is_file() and root in path.parents:
                path.unlink()
                removed.append(name)
        if removed:  # a user's files: said even with -q
            log.warning(
                "%s: removed %s: written by an earlier run of the stage, not by this one",
                self.name,
                _grouped(removed),
            )

    def _remove_temporaries(self, outputs: Iterable[str]) -> None:
        """Delete the ``.NAME.*.tmp`` files a killed :func:`atomic_write` of one of this stage's
        outputs left (only this process writes here: it holds the run directory's lock)."""
        for name in outputs:
            for tmp in _temporaries(self.run.path / name):
                unlink(tmp)


def _grouped(names: list[str]) -> str:
    """``corpus/counterfactual.* (10 files), corpus/corpus.ca``: files of one stem together."""
    groups: dict[str, list[str]] = {}
    for name in names:
        head, _, tail = name.rpartition("/")
        stem = tail.split(".", 1)[0]
        groups.setdefault(f"{head}/{stem}" if head else stem, []).append(name)
    return ", ".join(
        members[0] if len(members) == 1 else f"{stem}.* ({len(members)} files)"
        for stem, members in groups.items()
    )


class ChunkedWriter:
    """Write JSON-lines outputs in committed chunks so a killed stage resumes where it stopped.

    The producer feeds one *input item* at a time (a page, a person) with the records it
    produced for each output stream. Every ``chunk_size`` items the buffered records are written
    to part files (atomically) and only then does the manifest record how many items are
    consumed, the number of parts and a snapshot of the processing counters. After a kill,
    ``consumed`` tells the producer how many input items to skip, and ``stats`` starts again
    from the snapshot (also once the writer is done: the stage may still be counting on it).
    :meth:`finish` concatenates each stream's parts into its final file and records the files'
    checksums.

    Each part's name carries the SHA-256 of its content, and holds UTF-8 JSON objects, one a
    line: a part damaged since it was committed (a disk error, a hand edit, even one renamed to
    match its new content) is found on resume, set aside under ``RUN/damaged/`` with a warning
    naming it, and this key is written again from its first item, never joined into the output.
    The temporaries a kill left beside the outputs (``.NAME.*.tmp``) go when the writer
    opens: only this process writes here (it holds the run directory's lock).
    """

    def __init__(
        self,
        stage: StageState,
        key: str,
        outputs: Mapping[str, Path],
        *,
        chunk_size: int,
        stats: Counter[str],
    ) -> None:
        self.stage = stage
        self.key = key
        self.outputs = dict(outputs)
        self.chunk_size = chunk_size
        self.stats = stats
        self.parts_dir = stage.parts_root / key
        for final in self.outputs.values():
            for tmp in _temporaries(final):
                unlink(tmp)  # a kill while this key's parts were being joined into ``final``
        state = stage.progress(key)
        self.done = bool(state.get("done")) and self._outputs_intact(state)
        if state.get("done") and not self.done:
            state.clear()  # finished once, but an output has changed since: start this key again
        self.consumed: int = int(state.get("consumed", 0))
        self.chunks: int = int(state.get("chunks", 0))
        #: Each stream's committed parts in order, with the SHA-256 prefix in their names.
        self._parts: dict[str, list[tuple[Path, str]]] = {name: [] for name in self.outputs}
        if not self.done and not self._find_parts(state.get("chain")):
            state.clear()
            self.consumed = self.chunks = 0
            remove_tree(self.parts_dir)
            self._parts = {name: [] for name in self.outputs}
        #: Each stream's hash chain over its committed parts' prefixes (see :func:`_chained`).
        self._chain = {stream: _chained(parts) for stream, parts in self._parts.items()}
        stats.update(state.get("stats", {}))
        self._buffers: dict[str, list[str]] = {name: [] for name in self.outputs}
        self._pending = 0

    def _outputs_intact(self, state: Mapping[str, Any]) -> bool:
        sums = state.get("checksums", {})
        for stream, path in self.outputs.items():
            why = _changed(path, sums.get(stream))
            if why is not None:
                log.warning(
                    "%s: %s changed since it was written (%s); writing %s again",
                    self.stage.name,
                    path,
                    why,
                    self.key,
                )
                return False
        return True

    def _find_parts(self, chain: Mapping[str, str] | None) -> bool:
        """Keep the committed parts (removing what a kill left after the last commit); False
        when one of them is missing or damaged, or their names are not those committed (the
        manifest's ``chain``: a part replaced under a name made to match its new content)."""
        found: dict[tuple[str, int], tuple[Path, str]] = {}
        if self.parts_dir.exists():
            for p in sorted(self.parts_dir.iterdir()):
                m = _PART_NAME.fullmatch(p.name)
                if m and m["stream"] in self.outputs and int(m["i"]) < self.chunks:
                    found.setdefault((m["stream"], int(m["i"])), (p, m["sum"]))
                elif p.is_dir() and not p.is_symlink():
                    remove_tree(p)  # nothing occbio writes here
                else:
                    unlink(p)  # written after the last recorded commit
        for stream in self.outputs:
            for i in range(self.chunks):
                part = found.get((stream, i))
                why = "it is missing" if part is None else _part_damage(*part)
                if part is None or why is not None:
                    where = part[0] if part else self.parts_dir / f"{stream}.{i:06d}.*.jsonl"
                    aside = "" if part is None else f"; set aside as {self._set_aside(part[0])}"
                    log.warning(
                        "%s: the committed part %s is damaged (%s)%s; writing %s again from its "
                        "first item",
                        self.stage.name,
                        where,
                        why,
                        aside,
                        self.key,
                    )
                    return False
                self._parts[stream].append(part)
            if chain is not None and chain.get(stream) != _chained(self._parts[stream]):
                log.warning(
                    "%s: the committed parts of %s in %s are not those committed (one was replaced "
                    "under a name of its own); writing %s again from its first item",
                    self.stage.name,
                    stream,
                    self.parts_dir,
                    self.key,
                )
                return False
        return True

    def _set_aside(self, part: Path) -> Path:
        """Move a damaged part to ``RUN/damaged/STAGE/KEY/NAME.damaged`` (``.damaged-2``, ...
        when taken): kept for a look, out of the parts this key starts again with."""
        folder = self.stage.run.path / DAMAGED_DIR / self.stage.name / self.key
        make_dirs(folder)  # through no link
        target = folder / f"{part.name}.damaged"
        n = 1
        while target.exists():
            n += 1
            target = folder / f"{part.name}.damaged-{n}"
        os.replace(part, target)
        return target

    def add(self, records: Mapping[str, Iterable[Any]]) -> None:
        """Buffer the records one input item produced; commit every ``chunk_size`` items."""
        for stream, recs in records.items():
            buf = self._buffers[stream]
            for rec in recs:
                row = rec if isinstance(rec, dict) else rec.to_dict()
                buf.append(json.dumps(row, ensure_ascii=False))
        self._pending += 1
        if self._pending >= self.chunk_size:
            self.commit()

    def commit(self) -> None:
        if self._pending == 0:
            return
        self.stage.run.check_place()
        for stream, buf in self._buffers.items():
            digest = hashlib.sha256()
            for line in buf:
                digest.update(line.encode("utf-8") + b"\n")
            prefix = digest.hexdigest()[:16]
            part = self.parts_dir / f"{stream}.{self.chunks:06d}.{prefix}.jsonl"
            with atomic_write(part) as fh:
                for line in buf:
                    fh.write(line + "\n")
            self._parts[stream].append((part, prefix))
            self._chain[stream] = _chained([(part, prefix)], self._chain.get(stream, ""))
            buf.clear()
        self.chunks += 1
        self.consumed += self._pending
        self._pending = 0
        state = self.stage.progress(self.key)
        state.update(
            {
                "consumed": self.consumed,
                "chunks": self.chunks,
                "stats": dict(self.stats),
                "chain": dict(self._chain),
            }
        )
        self.stage.run.save()

    def finish(self) -> None:
        """Commit what is buffered and join each stream's parts into its final file (a part
        changed since it was committed stops the stage: the next run writes this key again)."""
        self.commit()
        self.stage.run.check_place()
        sums = {}
        for stream, final in self.outputs.items():
            whole = hashlib.sha256()  # the final file's, as file_sum would give it
            with atomic_write(final, "wb", encoding=None) as out:
                for part, prefix in self._parts[stream]:
                    _join_part(part, prefix, out, whole)
                size = out.tell()
            sums[stream] = {"size": size, "sha256": whole.hexdigest()}
        state = self.stage.progress(self.key)
        state.update({"done": True, "stats": dict(self.stats), "checksums": sums})
        self.stage.run.save()
        self.done = True
        # only now: a kill before the save above must find the parts to join them again
        remove_tree(self.parts_dir)


#: A committed part: ``STREAM.CHUNK.SHA256-PREFIX.jsonl``.
_PART_NAME = re.compile(r"(?P<stream>.+)\.(?P<i>\d{6})\.(?P<sum>[0-9a-f]{16})\.jsonl")


def _chained(parts: Iterable[tuple[Path, str]], chain: str = "") -> str:
    """``chain`` followed by the SHA-256 prefixes of ``parts``: what the manifest records of a
    stream's committed parts, one short hash however many there are."""
    for _, prefix in parts:
        chain = hashlib.sha256(f"{chain}{prefix}".encode()).hexdigest()[:16]
    return chain


def _part_damage(part: Path, prefix: str) -> str | None:
    """Why a committed part no longer holds what was written, or ``None``: not a regular file,
    its SHA-256 is not the one in its name, or (a part renamed after its content) a line is
    not a UTF-8 JSON object, as every line :class:`ChunkedWriter` writes is."""
    if not stat.S_ISREG(os.lstat(part).st_mode):
        return "it is not a regular file"
    with open(part, "rb") as fh:
        if _sha256(fh)[:16] != prefix:
            return "its content no longer matches the SHA-256 in its name"
        fh.seek(0)
        for line_no, line in enumerate(fh, 1):
            try:
                row = json.loads(line.decode("utf-8"))
            except UnicodeDecodeError as exc:
                return f"line {line_no} is not UTF-8: {exc.reason} at byte {exc.start}"
            except ValueError as exc:
                return f"line {line_no} is not JSON: {exc}"
            if not isinstance(row, dict) or not line.endswith(b"\n"):
                return f"line {line_no} is not a whole JSON object"
    return None


def _join_part(part: Path, prefix: str, out: IO[bytes], whole: Any) -> None:
    """Copy a committed part into ``out`` (and the ``whole`` file's hash), checking it against
    the SHA-256 in its name (a part replaced under another name is missing: named, and the next
    run writes its key again)."""
    digest = hashlib.sha256()
    with open(part, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
            whole.update(block)
            out.write(block)
    if digest.hexdigest()[:16] != prefix:
        raise RuntimeError(
            f"{part} changed after it was committed (its SHA-256 no longer matches its name); "
            "run the same command again: it writes that part's output again"
        )


class BatchLog:
    """Append-only JSON-lines record of finished batches (``key -> result``) of a live source.

    Each finished batch is one line written and flushed at once, so a kill loses at most the
    batch in flight: a torn last line is ignored on :meth:`load` and cut off before the next
    append. Used where the list of batches is only known while walking (SPARQL pages that get
    split after a timeout), so a count of consumed items cannot say where to resume.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, Any]:
        """The results recorded so far; a torn last line is dropped from the file too, and so is
        a damaged line (logged) with all after it: those batches are fetched again."""
        results: dict[str, Any] = {}
        if not self.path.exists():
            return results
        good = 0
        with os.fdopen(open_file(self.path, os.O_RDONLY, create=False), "rb") as fh:
            for line_no, line in enumerate(fh, 1):
                try:
                    row = json.loads(line)
                except ValueError:
                    row = None
                whole = (
                    isinstance(row, dict) and isinstance(row.get("key"), str) and "result" in row
                )
                if not whole or not line.endswith(b"\n"):
                    if line.endswith(b"\n"):  # not the line a kill tore: damage
                        log.warning(
                            "%s:%d is damaged; the batches from there on are fetched again",
                            self.path,
                            line_no,
                        )
                    break
                results[row["key"]] = row["result"]
                good += len(line)
        if good != self.path.stat().st_size:
            fd = open_file(self.path, os.O_WRONLY, create=False)
            try:
                os.ftruncate(fd, good)
            finally:
                os.close(fd)
        return results

    def append(self, key: str, result: Any) -> None:
        fd = open_file(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"key": key, "result": result}, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
