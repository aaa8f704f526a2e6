"""`occbio rewrite` and `occbio audit` on hostile input (issue #20): bytes that are not UTF-8,
very long lines, outputs that are symlinks, devices or FIFOs, inputs that are pipes, and
machine-readable reports that a parser reads back."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.rewrite import Rewriter
from occbio.rewrite.languages.base import urlish_zones
from occbio.rewrite.tokens import LONG_LINE, pieces

#: A hang guard, never a speed test: generous on a loaded machine.
HANG_GUARD_S = 300

CLI = [sys.executable, "-c", "import sys; from occbio.cli import main; sys.exit(main())"]


def _occbio(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """The command in a process of its own: real standard streams, and a hang guard."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.run(  # type: ignore[call-overload]
        [*CLI, *args], timeout=HANG_GUARD_S, **{**streams, **kwargs}
    )


# ---------------------------------------------------------------- rewrite: bytes not UTF-8
#: Lines 2 and 4 are not UTF-8 (Latin-1, a cut multi-byte character); the rest are.
MIXED = b"He is an actor.\r\n\xc9l est acteur, he said.\n\nHis name\xc3 is Tom.\nHe was a king."
REWRITTEN = [b"She is an actress.\r\n", b"\xc9l est acteur, he said.\n", b"\n",
             b"His name\xc3 is Tom.\n", b"She was a queen."]  # fmt: skip


def test_lines_not_utf8_are_copied_counted_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, out, tsv = tmp_path / "in.txt", tmp_path / "out.txt", tmp_path / "edits.tsv"
    source.write_bytes(MIXED)
    args = ["rewrite", "--lang", "en", "--to", "feminine", "--input", str(source)]
    assert main([*args, "--output", str(out), "--explain", str(tsv), "-q"]) == 0
    # one line out per line in, the unreadable ones byte for byte, the others rewritten
    assert out.read_bytes().splitlines(keepends=True) == REWRITTEN
    err = capsys.readouterr().err
    assert "2 line(s) not UTF-8, copied as they are (not rewritten): lines 2, 4" in err
    rows = [r.split("\t") for r in tsv.read_text(encoding="utf-8").splitlines()[1:]]
    assert {r[0] for r in rows} == {"1", "5"}  # the edits keep the input's line numbers


def test_lines_not_utf8_on_standard_input_and_output() -> None:
    proc = _occbio("rewrite", "--lang", "en", "--to", "feminine", input=MIXED)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines(keepends=True) == REWRITTEN
    assert b"2 line(s) not UTF-8" in proc.stderr and b"lines 2, 4" in proc.stderr


def test_many_lines_not_utf8_name_the_first_ten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(b"He is \xff.\n" * 12)
    args = ["rewrite", "--lang", "en", "--to", "feminine", "--input", str(source)]
    assert main([*args, "--output", str(tmp_path / "out.txt"), "-q"]) == 0
    assert (tmp_path / "out.txt").read_bytes() == source.read_bytes()
    err = capsys.readouterr().err
    assert "12 line(s) not UTF-8" in err
    assert "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 (and 2 more)" in err


# ---------------------------------------------------------------- rewrite: long runs
_OLD_URLISH = re.compile(r"\S*(?:://|www\.|@)\S*")


def test_url_zones_are_those_of_the_old_pattern() -> None:
    """The linear scan finds exactly what the quadratic regular expression found."""
    rng = random.Random(20)
    alphabet = ["a", "w", "ww", "www", ".", ":", "/", "//", "@", " ", "\t", "\u00a0", "\n", "é"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        assert urlish_zones(text) == [m.span() for m in _OLD_URLISH.finditer(text)], text


@pytest.mark.slow
def test_a_two_megabyte_line_is_rewritten_without_hanging(tmp_path: Path) -> None:
    """A 2 MB run of non-space characters took hours (quadratic); now about a second."""
    long_run = "x" * 2_000_000
    lines = [
        f"He is an actor. {long_run} he is a king.\n",
        "a." * 500_000 + "\n",
        f"He wrote to https://{long_run}@example.org about his work.\n",
    ]
    source = tmp_path / "in.txt"
    source.write_text("".join(lines), encoding="utf-8")
    args = ["rewrite", "--lang", "en", "--to", "feminine", "--input", str(source)]
    proc = _occbio(*args, "--output", str(tmp_path / "out.txt"))
    assert proc.returncode == 0, proc.stderr
    got = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    assert got == [
        f"She is an actress. {long_run} she is a queen.\n",
        lines[1],
        f"She wrote to https://{long_run}@example.org about her work.\n",
    ]


def test_a_long_line_is_rewritten_sentence_by_sentence() -> None:
    """Over LONG_LINE characters a line is a paragraph: each sentence is rewritten as if it
    were a line of its own, the spaces between them kept, and explain replays to it."""
    rw = Rewriter("es")
    sentences = ["El director fue nombrado.", "Él es actor!", "Juan fue elegido presidente?"]
    line = "  ".join(sentences[i % 3] for i in range(3 * LONG_LINE // 60)) + " "
    assert len(line) > LONG_LINE
    want = "  ".join(rw.rewrite(sentences[i % 3], "feminine") for i in range(3 * LONG_LINE // 60))
    assert rw.rewrite(line, "feminine") == want + " "
    replay = line
    for e in reversed(rw.explain(line, "feminine")):
        assert line[e.start : e.end] == e.old
        replay = replay[: e.start] + e.new + replay[e.end :]
    assert replay == want + " "


def test_pieces_cut_at_sentence_ends_then_at_spaces() -> None:
    text = "Aa. Bb!  Cc dd ee ff gg hh.\tIi"
    assert pieces(text, limit=100) == [(0, len(text))]
    assert [text[a:b] for a, b in pieces(text, limit=10)] == [
        "Aa.", "Bb!", "Cc dd ee", "ff gg hh.", "Ii"
    ]  # fmt: skip
    run = "x" * 50 + " y"
    assert [run[a:b] for a, b in pieces(run, limit=10)] == ["x" * 50, "y"]


@pytest.mark.slow
def test_a_megabyte_paragraph_is_rewritten_without_hanging(tmp_path: Path) -> None:
    """Each change restarts the rules' whole-sentence passes: a 20,000-character line of
    Spanish sentences took 16 s, a megabyte hours; cut into sentences, seconds."""
    line = "El director fue nombrado. " * 40_000
    source = tmp_path / "in.txt"
    source.write_text(line + "\n", encoding="utf-8")
    args = ["rewrite", "--lang", "es", "--to", "feminine", "--input", str(source)]
    proc = _occbio(*args, "--output", str(tmp_path / "out.txt"))
    assert proc.returncode == 0, proc.stderr
    want = "La directora fue nombrada. " * 40_000
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == want + "\n"


# ---------------------------------------------------------------- rewrite: where it writes
def _rewrite_to(output: Path | str, tmp_path: Path) -> int:
    source = tmp_path / "in.txt"
    source.write_text("He is an actor.\n", encoding="utf-8")
    args = ["rewrite", "--lang", "en", "--to", "feminine", "--input", str(source)]
    return main([*args, "--output", str(output), "-q"])


def test_output_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    target, link = tmp_path / "real.txt", tmp_path / "link.txt"
    target.write_text("old\n", encoding="utf-8")
    link.symlink_to(target.name)
    assert _rewrite_to(link, tmp_path) == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text(encoding="utf-8") == "She is an actress.\n"
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to("new.txt")
    assert _rewrite_to(dangling, tmp_path) == 0
    assert dangling.is_symlink()
    assert (tmp_path / "new.txt").read_text(encoding="utf-8") == "She is an actress.\n"


def test_output_to_dev_null_writes_through_and_never_replaces_it(tmp_path: Path) -> None:
    """A device node as --output (as root, /dev/null itself was replaced by a file). The test
    makes its own node with /dev/null's numbers where it may (root), so a regression replaces
    that node, not the machine's /dev/null; else it uses /dev/null, which then cannot be hurt."""
    null = tmp_path / "devnull"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
        null.open("wb").close()  # a file system mounted nodev refuses to open it
    except OSError:
        null = Path("/dev/null")
    before = os.stat(null)
    assert _rewrite_to(null, tmp_path) == 0
    link = tmp_path / "null"
    link.symlink_to(null)
    assert _rewrite_to(link, tmp_path) == 0
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert link.is_symlink()


def test_output_to_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert _rewrite_to(fifo, tmp_path) == 0
    reader.join(HANG_GUARD_S)
    assert got == [b"She is an actress.\n"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_output_to_dev_stdout_appends_to_a_redirected_file(tmp_path: Path) -> None:
    """``--output /dev/stdout >> log``: written through the descriptor, never a replaced file.
    Through a link of our own to ``/proc/self/fd/1``, which is what ``/dev/stdout`` is on
    Linux: a regression then replaces that link, not the machine's ``/dev/stdout``."""
    source, log, stdout = tmp_path / "in.txt", tmp_path / "log.txt", tmp_path / "stdout"
    source.write_text("He is an actor.\n", encoding="utf-8")
    log.write_bytes(b"kept\n")
    stdout.symlink_to("/proc/self/fd/1")
    with open(log, "ab") as fh:
        args = ["rewrite", "--lang", "en", "--to", "feminine", "--input", str(source)]
        proc = _occbio(*args, "--output", str(stdout), stdout=fh, stderr=subprocess.PIPE)
    assert proc.returncode == 0, proc.stderr
    assert log.read_bytes() == b"kept\nShe is an actress.\n"
    assert stdout.is_symlink()


def test_output_to_a_directory_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _rewrite_to(tmp_path, tmp_path) == 2
    err = capsys.readouterr().err
    assert err == f"occbio: error: {tmp_path} is a directory: give a file to write to\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


# ---------------------------------------------------------------- audit: pipes, formats
SENTENCES = [f"The woman met the man number {i}." for i in range(400)]  # > 4 KiB: past the sniff


def _audit_rows(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    assert main(["audit", *args, "--format", "json", "-q"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list)
    return rows


def _figures(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "source"}


def test_audit_reads_a_fifo_once_and_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "".join(s + "\n" for s in SENTENCES)
    plain = tmp_path / "plain.txt"
    plain.write_text(text, encoding="utf-8")
    [want] = _audit_rows(capsys, str(plain), "--lang", "en")
    assert want["lines"] == len(SENTENCES)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=(text,), daemon=True)
    writer.start()
    [got] = _audit_rows(capsys, str(fifo), "--lang", "en")
    writer.join(HANG_GUARD_S)
    assert _figures(got) == _figures(want)


@pytest.mark.parametrize("how", ["process substitution", "/dev/stdin"])
def test_audit_of_a_pipe_from_the_shell(tmp_path: Path, how: str) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("".join(s + "\n" for s in SENTENCES), encoding="utf-8")
    audit = [*CLI, "audit", "--lang", "en", "--format", "jsonl", "-q"]
    if how == "/dev/stdin":
        with open(plain, "rb") as fh:
            proc = _occbio(*audit[len(CLI) :], "/dev/stdin", stdin=fh)
    else:
        script = 'exec "$@" <(cat "$PLAIN")'
        proc = subprocess.run(
            ["bash", "-c", script, "bash", *audit],
            env={**os.environ, "PLAIN": str(plain)},
            capture_output=True,
            timeout=HANG_GUARD_S,
        )
    assert proc.returncode == 0, proc.stderr
    [row] = [json.loads(line) for line in proc.stdout.splitlines()]
    assert row["lines"] == len(SENTENCES) and row["feminine_count"] == len(SENTENCES)


#: Plain-text sentences that look like the start of another format.
LOOKALIKES = [
    "{The woman} met the man.",
    "<corpus> of the mother's letters.",
    "en\tThe father spoke.",
]


@pytest.mark.parametrize("line", LOOKALIKES)
def test_input_format_text_reads_what_looks_like_another_format(
    tmp_path: Path, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sentences.txt"
    path.write_text(f"{line}\nThe actress thanked her sister.\n", encoding="utf-8")
    # told by the content, the first line makes it JSON lines, XML or TSV: not what it is
    assert main(["audit", str(path), "--lang", "en", "--format", "jsonl", "-q"]) != 0
    capsys.readouterr()
    [row] = _audit_rows(capsys, str(path), "--lang", "en", "--input-format", "text")
    assert row["lines"] == 2 and row["matched_lines"] == 2


def test_input_format_that_does_not_fit_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sentences.txt"
    path.write_text("The woman spoke.\n", encoding="utf-8")
    for fmt, message in (
        ("tsv", "a TSV needs a header row naming its language columns"),
        ("xml", "is not well-formed XML"),
    ):
        assert main(["audit", str(path), "--input-format", fmt, "-q"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"occbio: error: {path}") and message in err
        assert err.count("\n") == 1
    run = tmp_path / "run"
    (run / "corpus").mkdir(parents=True)
    (run / "corpus" / "corpus.jsonl").write_text('{"text": {"en": "A woman."}}\n')
    assert main(["audit", str(run), "--input-format", "text", "-q"]) == 2
    assert "--input-format is for files" in capsys.readouterr().err


def test_audit_names_the_lines_not_utf8_and_counts_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"The woman spoke.\nThe actress \xe9tait l\xe0.\nThe man.\nA mother\xff.\n")
    [row] = _audit_rows(capsys, str(path), "--lang", "en")
    assert row["lines"] == 4 and row["matched_lines"] == 3  # woman, man, mother: bytes aside
    # the lines are read, not skipped; the warning says which ones hold bytes that are not UTF-8
    assert main(["audit", str(path), "--lang", "en", "-q"]) == 0
    err = capsys.readouterr().err
    assert f"{path}: 2 line(s) not UTF-8, read with U+FFFD" in err and "lines 2, 4" in err


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("text.txt", "Woman of the year.\n"),
        ("rows.jsonl", '{"text": {"en": "Woman of the year."}}\n'),
        ("rows.tsv", "en\tgender\nWoman of the year.\tfemale\n"),
    ],
)
def test_a_byte_order_mark_changes_nothing(
    tmp_path: Path, name: str, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, marked = tmp_path / name, tmp_path / f"bom-{name}"
    plain.write_text(content, encoding="utf-8")
    marked.write_text(content, encoding="utf-8-sig")
    want = _audit_rows(capsys, str(plain), "--lang", "en", "--no-by-gender")
    got = _audit_rows(capsys, str(marked), "--lang", "en", "--no-by-gender")
    assert [_figures(r) for r in got] == [_figures(r) for r in want]
    assert want[0]["feminine_count"] == 1  # `woman`, the first word


# ---------------------------------------------------------------- audit: machine-readable reports
def _run_dir(tmp_path: Path) -> Path:
    """A run directory of two documents, one per gender, in Catalan and English."""
    run = tmp_path / "run"
    (run / "corpus").mkdir(parents=True)
    docs = [
        {"text": {"ca": "La mare és actriu.", "en": "The mother is an actress."}, "gender": g}
        for g in ("female", "male")
    ]
    (run / "corpus" / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    return run


def test_csv_report_has_source_lang_and_gender_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(_run_dir(tmp_path)), "--format", "csv", "-q"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["source"], r["lang"], r["gender"]) for r in rows] == [
        ("balanced corpus", lang, gender)
        for lang in ("ca", "en")
        for gender in ("all", "female", "male")
    ]
    assert {int(r["lines"]) for r in rows if r["gender"] != "all"} == {1}
    assert all(float(r["feminine"]) > 0 for r in rows)


def test_json_report_is_one_document_and_jsonl_a_row_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = str(_run_dir(tmp_path))
    rows = _audit_rows(capsys, run)
    assert len(rows) == 6 and {r["source"] for r in rows} == {"balanced corpus"}
    assert main(["audit", run, "--format", "jsonl", "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == rows
