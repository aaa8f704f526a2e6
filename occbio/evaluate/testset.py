"""The test set a run mined, as ``occbio evaluate`` needs it: each segment's id, document,
gender, occupations and text per language, and its counterfactual copy where there is one.

Read from ``corpus/corpus.jsonl`` (the order of ``corpus/corpus.<lang>``, so a line-aligned
translation file lines up with it) and ``corpus/counterfactual.jsonl`` (``occbio augment``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from occbio.io.corpus_segments import read_segments, redo_hint, segment_text
from occbio.run import MANIFEST, file_sum

__all__ = ["Segment", "TestSet", "TestSetError", "find_corpus", "read_testset"]

CORPUS_JSONL = "corpus.jsonl"
COUNTERFACTUAL_JSONL = "counterfactual.jsonl"

log = logging.getLogger(__name__)


class TestSetError(ValueError):
    """The run holds no usable test set (one line, no traceback)."""

    __test__ = False  # not a pytest class


@dataclass(frozen=True)
class Segment:
    """One segment of the test set: ``id`` is ``QID:SEG`` (the corpus's doc id and seg id)."""

    id: str
    doc: str
    gender: str
    occupations: tuple[str, ...]
    text: dict[str, str]
    #: the person's name (the pivot language's label)
    name: str = ""


@dataclass
class TestSet:
    """The segments in corpus order, and the counterfactual text of those that have one."""

    __test__ = False

    segments: list[Segment]
    langs: list[str]
    #: segment id -> {lang: text in the other gender}; empty without ``occbio augment``
    counterfactual: dict[str, dict[str, str]] = field(default_factory=dict)
    #: segment id -> the counterfactual's gender
    counterfactual_gender: dict[str, str] = field(default_factory=dict)
    #: the counterfactual copy's segment ids, in the order of ``counterfactual.<lang>``
    counterfactual_order: list[str] = field(default_factory=list)
    source: Path | None = None
    #: file name -> size and SHA-256 of the file as read (``None``: there was none)
    checksums: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    def index(self) -> dict[str, int]:
        """Segment id -> its position in corpus order."""
        return {s.id: i for i, s in enumerate(self.segments)}

    def changed(self) -> str | None:
        """Which file read has been replaced or changed on disk since (another process wrote
        the corpus while a command worked on it), or ``None``."""
        assert self.source is not None
        for name, recorded in self.checksums.items():
            if _sum(self.source / name) != recorded:
                return str(self.source / name)
        return None


def _sum(path: Path) -> dict[str, Any] | None:
    try:
        return file_sum(path)
    except FileNotFoundError:
        return None


def find_corpus(path: Path) -> Path:
    """The corpus directory of a run directory, of its ``corpus/`` folder or of a
    ``corpus.jsonl`` file."""
    path = Path(path)
    for candidate in (path / "corpus", path, path.parent):
        if (candidate / CORPUS_JSONL).is_file():
            return candidate
    if not path.exists():
        raise TestSetError(f"{path} does not exist: give a run directory (occbio mine --out)")
    raise TestSetError(
        f"{path} holds no corpus/{CORPUS_JSONL}: give the directory of a finished run "
        "(occbio mine --out) or its corpus/ folder"
    )


def _occupations(row: dict) -> tuple[str, ...]:
    labels = []
    for occ in row.get("occupations") or []:
        label = occ.get("label") or occ.get("qid") if isinstance(occ, dict) else occ
        if isinstance(label, str) and label:
            labels.append(label)
    return tuple(labels)


def read_testset(path: Path) -> TestSet:
    """The test set of the run (or corpus folder) at ``path``."""
    corpus = find_corpus(path)
    path = corpus / CORPUS_JSONL
    checksums = {name: _sum(corpus / name) for name in (CORPUS_JSONL, COUNTERFACTUAL_JSONL)}
    rows = read_segments(path, TestSetError)
    if not rows:
        raise TestSetError(f"{path} holds no segment: the corpus is empty")
    langs = list(rows[0][1]["text"])
    if not langs:
        raise TestSetError(f"{path}:{rows[0][0]}: a segment with no text; was the file edited?")
    segments, seen = [], set()
    for n, row in rows:
        sid = f"{row['qid']}:{row['seg']}"
        if sid in seen:
            raise TestSetError(f"{path}:{n}: segment {sid} appears twice")
        seen.add(sid)
        text = segment_text(path, n, row, langs, TestSetError)
        gender = row.get("gender") if isinstance(row.get("gender"), str) else "unknown"
        name = row.get("name") if isinstance(row.get("name"), str) else ""
        segments.append(Segment(sid, row["qid"], gender, _occupations(row), text, name))
    testset = TestSet(segments, langs, source=corpus, checksums=checksums)
    cf_path = corpus / COUNTERFACTUAL_JSONL
    if cf_path.is_file():
        _read_counterfactual(testset, cf_path)
    changed = testset.changed()
    if changed is not None:
        raise TestSetError(
            f"{changed} changed while it was read (another process is writing the corpus); "
            "run the command again once it is done"
        )
    for name, recorded in checksums.items():
        if recorded is not None:
            _warn_if_not_as_written(corpus, name, recorded)
    return testset


def _warn_if_not_as_written(corpus: Path, name: str, read: dict[str, Any]) -> None:
    """A corpus file of a run that is no longer what the run's write stage wrote (cut short at
    a line's end, edited): said, since the figures would silently be of fewer segments."""
    try:
        manifest = json.loads((corpus.parent / MANIFEST).read_text(encoding="utf-8"))
        written = manifest["stages"]["write"]["checksums"][f"{corpus.name}/{name}"]
        if not isinstance(written, dict):
            return
    except (OSError, ValueError, KeyError, TypeError):
        return  # a corpus folder on its own, or a run written before checksums
    if written.get("sha256") != read["sha256"]:
        log.warning(
            "%s is not the file the run wrote (%d bytes, %s when written): cut short or "
            "edited since; %s",
            corpus / name, read["size"], written.get("size"), redo_hint(corpus / name),
        )  # fmt: skip


def _read_counterfactual(testset: TestSet, path: Path) -> None:
    """The counterfactual copy into ``testset``: each row must be the copy of one of its
    segments, once, with the other gender; a copy of another corpus (stale after the corpus
    was written again) would judge the translations against the wrong sentences."""
    gender = {s.id: s.gender for s in testset.segments}
    for n, row in read_segments(path, TestSetError):
        sid = f"{row['qid']}:{row['seg']}"
        stale = "the counterfactual copy is not of this corpus: run `occbio augment` again"
        if sid not in gender:
            raise TestSetError(f"{path}:{n}: segment {sid} is not in {CORPUS_JSONL}; {stale}")
        if sid in testset.counterfactual:
            raise TestSetError(f"{path}:{n}: segment {sid} appears twice")
        source = row.get("source_gender")
        if source is not None and source != gender[sid]:
            raise TestSetError(
                f"{path}:{n}: segment {sid} is the copy of a {source} person's, but "
                f"{CORPUS_JSONL} has it as {gender[sid]}; {stale}"
            )
        testset.counterfactual[sid] = segment_text(path, n, row, testset.langs, TestSetError)
        testset.counterfactual_gender[sid] = str(row.get("gender", ""))
        testset.counterfactual_order.append(sid)
