"""The test set a run mined, as ``occbio evaluate`` needs it: each segment's id, document,
gender, occupations and text per language, and its counterfactual copy where there is one.

Read from ``corpus/corpus.jsonl`` (the order of ``corpus/corpus.<lang>``, so a line-aligned
translation file lines up with it) and ``corpus/counterfactual.jsonl`` (``occbio augment``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Segment", "TestSet", "TestSetError", "find_corpus", "read_testset"]

CORPUS_JSONL = "corpus.jsonl"
COUNTERFACTUAL_JSONL = "counterfactual.jsonl"


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

    def index(self) -> dict[str, int]:
        """Segment id -> its position in corpus order."""
        return {s.id: i for i, s in enumerate(self.segments)}


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


def _rows(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                text = row["text"]
                if not isinstance(text, dict) or not isinstance(row["qid"], str):
                    raise TypeError
                row["seg"] = int(row["seg"])
            except (ValueError, KeyError, TypeError):
                raise TestSetError(
                    f"{path}:{n}: not a segment of an occbio corpus (text, qid, seg expected); "
                    "was the file edited? `occbio write` writes it again"
                ) from None
            rows.append(row)
    return rows


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
    rows = _rows(corpus / CORPUS_JSONL)
    if not rows:
        raise TestSetError(f"{corpus / CORPUS_JSONL} holds no segment: the corpus is empty")
    segments, seen = [], set()
    for row in rows:
        sid = f"{row['qid']}:{row['seg']}"
        if sid in seen:
            raise TestSetError(f"{corpus / CORPUS_JSONL}: segment {sid} appears twice")
        seen.add(sid)
        text = {k: v for k, v in row["text"].items() if isinstance(v, str)}
        gender = row.get("gender") if isinstance(row.get("gender"), str) else "unknown"
        name = row.get("name") if isinstance(row.get("name"), str) else ""
        segments.append(Segment(sid, row["qid"], gender, _occupations(row), text, name))
    langs = list(segments[0].text)
    testset = TestSet(segments, langs, source=corpus)
    cf_path = corpus / COUNTERFACTUAL_JSONL
    if cf_path.is_file():
        for row in _rows(cf_path):
            sid = f"{row['qid']}:{row['seg']}"
            if sid not in seen:
                continue  # a copy of another corpus's segment: not ours to judge
            testset.counterfactual[sid] = dict(row["text"])
            testset.counterfactual_gender[sid] = str(row.get("gender", ""))
            testset.counterfactual_order.append(sid)
    return testset
