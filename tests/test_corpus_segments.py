"""The one reader of a finished run's JSONL corpus (evaluate and review both use it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from occbio.io.corpus_segments import read_segments, segment_text
from occbio.review.items import ReviewError, corpus_rows


def _write(path: Path, *lines: bytes) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _row(**kw: object) -> bytes:
    row = {"qid": "Q1", "seg": 1, "text": {"en": "A.", "es": "B."}, **kw}
    return json.dumps(row).encode()


def test_good_rows_keep_their_line_numbers(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.jsonl", _row(), b"", _row(seg=2))
    assert [n for n, _ in read_segments(path)] == [1, 3]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"\xff\xfe bad", "c.jsonl:2: not UTF-8"),
        (_row(seg=2.5), "c.jsonl:2: not a segment"),  # not truncated to 2
        (_row(seg=True), "c.jsonl:2: not a segment"),
        (_row(qid=7), "c.jsonl:2: not a segment"),
        (b'{"qid": "Q1", "seg": 2, "text": ["A."]}', "c.jsonl:2: not a segment"),
        (b'{"qid": "Q1", "seg"', "c.jsonl:2: not a segment"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, line: bytes, message: str) -> None:
    path = _write(tmp_path / "c.jsonl", _row(), line)
    with pytest.raises(ReviewError, match=message):
        read_segments(path, ReviewError)


def test_a_segment_missing_a_language_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.jsonl", _row(), _row(seg=2, text={"en": "A.", "es": None}))
    rows = read_segments(path)
    assert segment_text(path, *rows[0], ["en", "es"]) == {"en": "A.", "es": "B."}
    with pytest.raises(ValueError, match=r"c\.jsonl:2: segment Q1:2 has no es text"):
        segment_text(path, *rows[1], ["en", "es"])
    with pytest.raises(ReviewError, match="has no es text"):
        corpus_rows(path)
