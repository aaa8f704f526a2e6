"""The run directory: stage manifest, atomic writes, checkpointed resume.

Every stage writes its results under ``outputs/NAME/``; ``manifest.json`` records the
configuration, package versions and, per stage, its status, fingerprint (settings + inputs),
counts and outputs. A file only ever appears under its final name once it is complete
(temporary file + ``os.replace``), so a run killed at any moment never leaves a half-written
file that looks finished. Long stages commit their output in chunks (:class:`ChunkedWriter`);
a killed run resumes after the last committed chunk and ends byte-identical to an
uninterrupted run.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import logging
import os
import platform
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import IO, Any

__all__ = [
    "RunDir",
    "StageState",
    "ChunkedWriter",
    "BatchLog",
    "atomic_write",
    "file_identity",
    "fingerprint",
]

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
_VERSIONED_PACKAGES = (
    "occbio",
    "pydantic",
    "lxml",
    "mwparserfromhell",
    "sparqlwrapper",
    "requests",
    "beautifulsoup4",
    "sentencex",
    "py3langid",
)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: Files are created through mkstemp (mode 0600); give them the usual mode under the umask.
_FILE_MODE = 0o666 & ~_umask()


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@contextlib.contextmanager
def atomic_write(path: Path, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path``; on success fsync and rename it to ``path``.

    On an exception (or a kill) the final name is untouched and the temporary file is removed
    (or, after a kill, left with a ``.tmp`` suffix that nothing reads).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


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


class RunDir:
    """A run directory and its manifest."""

    def __init__(self, path: Path, *, config: Mapping[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.manifest_path = self.path / MANIFEST
        # a kill while the manifest was being saved leaves its temporary: the manifest itself
        # is whole (renamed into place or not at all), the temporary is nothing
        for tmp in self.path.glob(f".{MANIFEST}.*.tmp"):
            tmp.unlink(missing_ok=True)
        if self.manifest_path.exists():
            try:
                self.manifest: dict[str, Any] = json.loads(self.manifest_path.read_text("utf-8"))
            except (ValueError, OSError) as exc:  # JSONDecodeError, UnicodeDecodeError
                raise RuntimeError(
                    f"{self.manifest_path} is not valid JSON ({exc}); it was not written by "
                    "occbio or was edited by hand: fix it, delete it to start the run again, "
                    "or choose another --out"
                ) from None
            if not isinstance(self.manifest, dict) or not isinstance(
                self.manifest.get("stages"), dict
            ):
                raise RuntimeError(
                    f'{self.manifest_path} is not an occbio manifest (no "stages" object): '
                    "fix it, delete it to start the run again, or choose another --out"
                )
        else:
            self.manifest = {"occbio_run": 1, "created": _now(), "stages": {}}
        self.manifest["versions"] = _package_versions()
        if config is not None:
            self.manifest["config"] = dict(config)
        self.save()

    def save(self) -> None:
        """Write the manifest atomically."""
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
        """True when this stage finished with exactly this fingerprint and its outputs exist."""
        rec = self.run.manifest["stages"].get(self.name)
        if not rec or rec.get("status") != "done" or rec.get("fingerprint") != fp:
            return False
        return all((self.run.path / out).exists() for out in rec.get("outputs", []))

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
            shutil.rmtree(self.parts_root, ignore_errors=True)
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
                "warnings": list(warnings),
                "finished": _now(),
            }
        )
        rec.pop("progress", None)
        self.run.save()
        shutil.rmtree(self.parts_root, ignore_errors=True)
        with contextlib.suppress(OSError):
            self.parts_root.parent.rmdir()  # .parts/ itself, once no stage has chunks left

    def _remove_stale(self, names: Iterable[str]) -> None:
        """Delete earlier outputs of this stage that this run did not write again (only plain
        files inside the run directory)."""
        root = self.run.path.resolve()
        for name in sorted(names):
            path = (self.run.path / name).resolve()
            if path.is_file() and root in path.parents:
                path.unlink()
                log.info(
                    "%s: removed %s, an output of an earlier run not written again", self.name, name
                )

    def _remove_temporaries(self, outputs: Iterable[str]) -> None:
        """Delete the ``.NAME.*.tmp`` files a killed :func:`atomic_write` of one of this stage's
        outputs left (only this process writes here: it holds the run directory's lock)."""
        for name in outputs:
            path = self.run.path / name
            for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
                tmp.unlink(missing_ok=True)


class ChunkedWriter:
    """Write JSON-lines outputs in committed chunks so a killed stage resumes where it stopped.

    The producer feeds one *input item* at a time (a page, a person) with the records it
    produced for each output stream. Every ``chunk_size`` items the buffered records are written
    to part files (atomically) and only then does the manifest record how many items are
    consumed, the number of parts and a snapshot of the processing counters. After a kill,
    ``consumed`` tells the producer how many input items to skip, and ``stats`` starts again
    from the snapshot. :meth:`finish` concatenates each stream's parts into its final file.
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
        state = stage.progress(key)
        self.done = bool(state.get("done")) and all(p.exists() for p in self.outputs.values())
        if state.get("done") and not self.done:
            state.clear()  # finished once, but an output has gone since: start this key again
        self.consumed: int = int(state.get("consumed", 0))
        self.chunks: int = int(state.get("chunks", 0))
        if not self.done:
            stats.update(state.get("stats", {}))
            self._drop_uncommitted_parts()
        self._buffers: dict[str, list[str]] = {name: [] for name in self.outputs}
        self._pending = 0

    def _part(self, stream: str, i: int) -> Path:
        return self.parts_dir / f"{stream}.{i:06d}.jsonl"

    def _drop_uncommitted_parts(self) -> None:
        """Remove part files written after the last recorded commit (a kill in between)."""
        if not self.parts_dir.exists():
            return
        committed = {self._part(s, i) for s in self.outputs for i in range(self.chunks)}
        for p in self.parts_dir.iterdir():
            if p not in committed:
                p.unlink()

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
        for stream, buf in self._buffers.items():
            with atomic_write(self._part(stream, self.chunks)) as fh:
                for line in buf:
                    fh.write(line + "\n")
            buf.clear()
        self.chunks += 1
        self.consumed += self._pending
        self._pending = 0
        state = self.stage.progress(self.key)
        state.update({"consumed": self.consumed, "chunks": self.chunks, "stats": dict(self.stats)})
        self.stage.run.save()

    def finish(self) -> None:
        """Commit what is buffered and join each stream's parts into its final file."""
        self.commit()
        for stream, final in self.outputs.items():
            with atomic_write(final, "wb", encoding=None) as out:
                for i in range(self.chunks):
                    with open(self._part(stream, i), "rb") as part:
                        shutil.copyfileobj(part, out)
        state = self.stage.progress(self.key)
        state.update({"done": True, "stats": dict(self.stats)})
        self.stage.run.save()
        self.done = True
        # only now: a kill before the save above must find the parts to join them again
        shutil.rmtree(self.parts_dir, ignore_errors=True)


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
        """The results recorded so far; a torn last line is dropped from the file too."""
        results: dict[str, Any] = {}
        if not self.path.exists():
            return results
        good = 0
        with open(self.path, "rb") as fh:
            for line in fh:
                try:
                    row = json.loads(line)
                except ValueError:
                    break
                if not line.endswith(b"\n"):
                    break
                results[row["key"]] = row["result"]
                good += len(line)
        if good != self.path.stat().st_size:
            with open(self.path, "r+b") as fh:
                fh.truncate(good)
        return results

    def append(self, key: str, result: Any) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"key": key, "result": result}, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
