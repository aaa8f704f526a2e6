"""`occbio audit` on files of every format and on a run, and the audit `occbio mine` writes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from occbio.audit.lexicon import audit_lines
from occbio.cli import main

LINES = [
    "The woman met the man at the station.",
    "Her mother and her father were teachers.",
    "Nobody was there.",
    "The actress thanked the actor and the director.",
]


def _json_rows(out: str) -> list[dict]:
    """The rows of `--format json`: one JSON document, a list."""
    rows = json.loads(out)
    assert isinstance(rows, list)
    return rows


def test_plain_text_file_matches_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sentences.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    assert main(["audit", str(path), "--lang", "en", "--format", "json", "-q"]) == 0
    [row] = _json_rows(capsys.readouterr().out)
    want = audit_lines(LINES, "en").to_dict()
    assert row["source"] == "sentences.txt" and row["gender"] == "all" and row["lang"] == "en"
    for key in ("words", "feminine", "masculine", "unspecified", "coverage", "gap", "ste"):
        assert row[key] == pytest.approx(want[key]), key
    assert row["feminine_count"] >= 2 and row["masculine_count"] >= 2  # woman, mother; man, father
    assert row["coverage"] == pytest.approx(50.0)  # lines 1 and 2 (actress/actor: not listed)


def test_a_run_directory_per_language_and_gender(
    mined_sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(mined_sample), "--format", "json", "-q"]) == 0
    rows = _json_rows(capsys.readouterr().out)
    sources = {r["source"] for r in rows}
    assert sources == {"balanced corpus", "aligned (before balancing)"}
    balanced = {(r["lang"], r["gender"]): r for r in rows if r["source"] == "balanced corpus"}
    assert set(balanced) == {
        (lang, g) for lang in ("ca", "en", "es") for g in ("all", "female", "male")
    }
    for lang in ("ca", "en", "es"):  # the parts add up to the whole
        parts = balanced[lang, "female"]["words"] + balanced[lang, "male"]["words"]
        assert parts == balanced[lang, "all"]["words"]
    # what `occbio mine` wrote is the same audit
    stats = json.loads((mined_sample / "stats.json").read_text())["audit"]
    written = {(r["lang"], r["gender"]): r for r in stats["balanced corpus"]}
    want = balanced["es", "all"]["feminine"]
    assert written["es", "all"]["feminine"] == pytest.approx(want, abs=1e-4)  # 4 decimals
    card = (mined_sample / "DATACARD.md").read_text()
    assert "## Gender in the words (GENDER-GAP lexicon)" in card
    assert (mined_sample / "gender_gap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", ["corpus.tsv", "corpus.es.xml", "corpus.jsonl", "corpus.es"])
def test_every_corpus_format_gives_the_same_figures(
    mined_sample: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Spanish sentences of the corpus, read from each of occbio's formats."""
    path = mined_sample / "corpus" / name
    args = ["audit", str(path), "--langs", "es", "--lang", "es", "--format", "json", "-q"]
    assert main([*args, "--no-by-gender"]) == 0
    [row] = _json_rows(capsys.readouterr().out)
    lines = (mined_sample / "corpus" / "corpus.es").read_text("utf-8").splitlines()
    want = audit_lines(lines, "es")
    assert (row["lines"], row["words"]) == (want.lines, want.words)
    assert row["feminine_count"] == want.feminine_count
    assert row["masculine_count"] == want.masculine_count


def test_person_references_with_the_offline_backend(
    mined_sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["audit", str(mined_sample), "--method", "llm", "--langs", "es,ca", "-q"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "L(P,M)" in out and "es female" in out and "ca male" in out


def test_table_csv_and_latex(mined_sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = str(mined_sample / "corpus" / "corpus.jsonl")
    assert main(["audit", corpus, "-q"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("corpus.jsonl\nlang") and "es female" in table
    assert main(["audit", corpus, "--format", "csv", "-q"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0])[:5] == ["source", "lang", "gender", "words", "feminine"]
    keys = [(r["source"], r["lang"], r["gender"]) for r in rows]
    assert ("corpus.jsonl", "es", "female") in keys and ("corpus.jsonl", "ca", "all") in keys
    assert all(float(r["feminine"]) >= 0 for r in rows)  # the figures in their own columns
    assert main(["audit", corpus, "--format", "jsonl", "-q"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["lang"], r["gender"]) for r in lines] == [(r["lang"], r["gender"]) for r in rows]
    assert main(["audit", corpus, "--format", "latex", "-q"]) == 0
    assert "\\begin{tabular}" in capsys.readouterr().out


def test_bad_input_is_a_one_line_error_or_a_counted_skip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "plain.txt"
    text.write_text("The woman spoke.\n", encoding="utf-8")
    assert main(["audit", str(text), "-q"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"occbio: error: {text} is plain text: say its language with --lang"
    )
    assert main(["audit", str(tmp_path), "-q"]) == 2  # a directory that is not a run
    assert "holds no corpus/corpus.jsonl" in capsys.readouterr().err
    assert main(["audit", str(text), "--lang", "eu", "-q"]) == 2  # no Basque lexicon: nothing left
    assert "nothing to audit" in capsys.readouterr().err
    mixed = tmp_path / "docs.jsonl"
    rows = [{"text": {"en": "The woman spoke."}}, "{not json", {"text": {"en": "A man."}}]
    mixed.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    assert main(["audit", str(mixed), "--format", "json", "-q"]) == 0
    printed = capsys.readouterr()
    [row] = _json_rows(printed.out)
    assert row["lines"] == 2
    assert "audit: 1 lines unreadable skipped" in printed.err
    corpus = str(tmp_path / "x.txt")
    (tmp_path / "x.txt").write_text("Una mujer.\n", encoding="utf-8")
    assert main(["audit", corpus, "--lang", "es", "--method", "llm", "--format", "latex"]) == 2
    assert "--format latex is for --method lexicon" in capsys.readouterr().err


def test_validate_the_offline_backend(
    shared_data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OCCBIO_GRB_DATA", str(shared_data / "grb-corpora"))
    assert main(["audit", "--method", "llm", "--validate", "es", "-q"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert {"P%", "R%", "F%"} <= set(header)
    assert "offline-rules" in out


def test_person_references_through_a_chat_api_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`occbio audit --method llm --backend chat` against a local chat-completions server: the
    labels it answers are counted, a re-run is answered from the cache."""
    from tests.chat_server import serve_chat

    sentences = ["La doctora operó al paciente.", "El río es largo."]
    path = tmp_path / "es.txt"
    path.write_text("\n".join(sentences) + "\n", encoding="utf-8")
    replies = {
        sentences[0]: "doctora - P, F\npaciente - P, M",
        sentences[1]: "río - N, M",
    }
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with serve_chat(replies, api_key="sk-test") as chat:
        args = ["audit", str(path), "--lang", "es", "--method", "llm", "--backend", "chat"]
        args += ["--base-url", chat.base_url, "--model", "fake-model", "--format", "json"]
        args += ["--llm-cache-dir", str(tmp_path / "cache"), "-q"]
        assert main(args) == 0
        [row] = _json_rows(capsys.readouterr().out)
        asked = len(chat.log)
        assert main(args) == 0  # the same again: from the cache
        assert len(chat.log) == asked == 2
    assert (row["person_masculine"], row["person_feminine"], row["non_person"]) == (1, 1, 1)
    assert row["sentences"] == 2 and row["unparsed"] == 0
