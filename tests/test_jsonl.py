"""JSON-lines helpers: the per-key index the align, balance and write stages read through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from occbio.io.jsonl import JsonlIndex


def _write(path: Path, rows: list[dict]) -> Path:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    path.write_text(text + "\n", encoding="utf-8")  # a trailing blank line is ignored
    return path


def test_rows_by_key_in_file_order_even_when_split(tmp_path: Path) -> None:
    rows = [
        {"doc": "Q1", "n": 0, "text": "One\u2028line, one record."},  # U+2028 stays inside
        {"doc": "Q2", "n": 0},
        {"doc": "Q1", "n": 1},
        {"doc": "Q1", "n": 2},
    ]
    with JsonlIndex(_write(tmp_path / "a.jsonl", rows), "doc") as index:
        assert len(index) == 2 and "Q1" in index and "Q3" not in index
        assert index.spans["Q1"][1][0] == index.spans["Q2"][0][1]  # two runs of Q1
        assert index.rows("Q1") == [rows[0], rows[2], rows[3]]
        assert index.rows("Q2") == [rows[1]]
        assert index.rows("Q3") == []
        assert index.rows("Q1") == [rows[0], rows[2], rows[3]]  # seeking, not streaming


def test_keys_are_read_off_the_line_start_or_parsed(tmp_path: Path) -> None:
    rows = [
        {"qid": "Q42", "text": "the usual shape"},
        {"qid": 'T"7', "text": "a quote in the key"},
        {"qid": "T\\8", "text": "a backslash in the key"},
        {"text": "another key order", "qid": "Q9"},
        {"qid": "Ω1", "text": "non-ASCII key"},
    ]
    with JsonlIndex(_write(tmp_path / "k.jsonl", rows), "qid") as index:
        assert sorted(index.spans) == sorted(r["qid"] for r in rows)
        for row in rows:
            assert index.rows(row["qid"]) == [row]


def test_a_line_without_the_key_is_a_clear_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "bad.jsonl", [{"doc": "Q1"}, {"other": 1}])
    with pytest.raises(ValueError, match=r"bad\.jsonl: a line without a 'doc'"):
        JsonlIndex(path, "doc")
