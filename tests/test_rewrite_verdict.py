"""A verdict per line (issue #21): `Rewriter.judge`, `occbio rewrite --uncertain keep|skip` and
the verdicts `--explain` prints."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.rewrite import Rewriter, supported_languages
from occbio.rewrite.confidence import THRESHOLD, Confidence, Verdict, judge, score_line

DEV = Path(__file__).resolve().parents[2] / "shared/data/mt-geneval-dev"

# (lang, sentence, target): the rules leave a word they know to change (`famoso`: the
# person's predicate, `director` is read as someone else's post)
UNSURE = ("es", "El director del museo fue famoso.", "feminine")


@pytest.fixture(scope="module")
def es() -> Rewriter:
    return Rewriter("es")


def test_verdicts_of_a_rewritten_an_unchanged_and_an_uncertain_line(es: Rewriter) -> None:
    sure = es.judge("Él fue un periodista y corresponsal.", "feminine")
    assert sure == Verdict(es.rewrite("Él fue un periodista y corresponsal.", "feminine"),
                           "rewritten", sure.score, sure.reason)  # fmt: skip
    assert sure.text == "Ella fue una periodista y corresponsal." and sure.score >= THRESHOLD
    same = es.judge("Nada que cambiar.", "feminine")
    assert same.verdict == "unchanged" and same.score == 1.0 and same.text == "Nada que cambiar."
    _lang, src, to = UNSURE
    doubt = es.judge(src, to)
    assert doubt.verdict == "uncertain" and 0.0 <= doubt.score < THRESHOLD
    assert doubt.text == es.rewrite(src, to)  # the text is the rewrite, whatever the verdict
    assert "'famoso' left unchanged" in doubt.reason


@pytest.mark.parametrize("line", ["", " ", "\t", "\u00a0"])
def test_a_blank_line_is_unchanged_and_comes_back_as_it_is(es: Rewriter, line: str) -> None:
    v = es.judge(line, "masculine")
    assert v.verdict == "unchanged" and v.text is line and v.score == 1.0


def test_judge_rejects_a_bad_target_like_rewrite(es: Rewriter) -> None:
    with pytest.raises(ValueError, match="target must be"):
        es.judge("Ella fue actriz.", "neuter")  # type: ignore[arg-type]


def test_a_kept_relative_is_not_a_missed_word() -> None:
    """`her mother` is left alone on purpose (relatives keep): no doubt from it."""
    v = Rewriter("en").judge("Her mother was a painter and she was a singer.", "masculine")
    assert v.text == "His mother was a painter and he was a singer."
    assert v.verdict == "rewritten" and v.score == 1.0


def test_score_line_multiplies_the_chance_of_each_missed_word() -> None:
    assert score_line([]) == (1.0, "nothing suggests a missed word")
    score, reason = score_line([("famoso", 3, 4), ("del", 1, 100)])
    assert score == 0.25 and "'famoso' left unchanged (the human pairs change it 3/4)" in reason
    assert score_line([("famoso", 3, 4)], conf=Confidence(leftovers=False))[0] == 1.0
    score, reason = score_line([], ["extranjero"])
    assert score == 0.5 and "'extranjero' near a change" in reason
    assert score_line([], ["extranjero"], conf=Confidence(neighbour_risk=0.0))[0] == 1.0


@pytest.mark.skipif(not DEV.exists(), reason="no MT-GenEval dev data (../shared)")
@pytest.mark.parametrize("lang", ["en", "es", "fr", "it", "pt", "de", "ru"])
def test_judge_gives_exactly_the_rewrite_on_every_dev_sentence(lang: str) -> None:
    from occbio.rewrite.learn import load_mtgeneval

    rw = Rewriter(lang, relatives="change")
    pairs = load_mtgeneval(DEV, lang)[::3]
    kinds = set()
    for f, m in pairs:
        for src, to in ((m, "feminine"), (f, "masculine")):
            v = rw.judge(src, to)
            assert v.text == rw.rewrite(src, to) and 0.0 <= v.score <= 1.0 and v.reason
            assert (v.verdict == "uncertain") == (v.score < THRESHOLD)
            kinds.add(v.verdict)
    assert "rewritten" in kinds


@pytest.mark.slow
def test_a_very_long_line_is_judged_and_gives_the_rewrite(es: Rewriter) -> None:
    line = " ".join(["Él fue nombrado director del museo y fue muy famoso."] * 4000)
    v = es.judge(line, "feminine")
    assert v.text == es.rewrite(line, "feminine") and v.verdict == "uncertain"


@pytest.mark.parametrize("lang", supported_languages())
def test_every_language_judges(lang: str) -> None:
    v = judge(Rewriter(lang), "x", "feminine")
    assert v.verdict == "unchanged" and v.text == "x"


# ---------------------------------------------------------------- the command line
LINES = [
    "Fue nombrado director del museo.\r\n",  # sure
    "\n",
    "El director del museo fue famoso.\r\n",  # uncertain
    "Nada que cambiar.\n",
    "El director del museo fue famoso.",  # uncertain, no line ending
]


def _run(tmp_path: Path, *extra: str, data: bytes | None = None) -> tuple[int, bytes]:
    source, out = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_bytes(data if data is not None else "".join(LINES).encode())
    args = ["rewrite", "--lang", "es", "--to", "feminine", "--input", str(source)]
    code = main([*args, "--output", str(out), *extra])
    return code, out.read_bytes() if out.exists() else b""


def test_uncertain_skip_writes_empty_lines_numbers_aligned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, got = _run(tmp_path, "--uncertain", "skip")
    assert code == 0
    lines = got.decode().splitlines(keepends=True)
    assert lines == ["Fue nombrada directora del museo.\r\n", "\n", "\r\n",
                     "Nada que cambiar.\n", ""][:4]  # fmt: skip
    assert got.endswith(b"\r\nNada que cambiar.\n")  # the last line: empty, no ending
    err = capsys.readouterr().err
    assert "2 line(s) uncertain, written as empty lines (--uncertain skip): lines 3, 5" in err


def test_uncertain_keep_is_the_output_without_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, plain = _run(tmp_path)
    assert code == 0 and "uncertain" not in capsys.readouterr().err
    code, kept = _run(tmp_path, "--uncertain", "keep")
    assert code == 0 and kept == plain
    assert plain.count(b"\n") == 4 and b"El directora" not in plain


def test_a_line_not_utf8_is_copied_not_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = b"El director del museo fue famoso.\n\xff\xfe Caf\xe9 \n"
    code, got = _run(tmp_path, "--uncertain", "skip", data=data)
    assert code == 0 and got == b"\n\xff\xfe Caf\xe9 \n"
    err = capsys.readouterr().err
    assert "1 line(s) uncertain" in err and "lines 2" not in err.split("uncertain")[1]


def test_explain_prints_every_lines_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tsv = tmp_path / "edits.tsv"
    code, _ = _run(tmp_path, "--explain", str(tsv))
    assert code == 0
    shown = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("line ")]
    assert [ln.split(":")[1].split()[0] for ln in shown] == [
        "rewritten", "unchanged", "uncertain", "unchanged", "uncertain"]  # fmt: skip
    assert "'famoso' left unchanged" in shown[2]
    rows = tsv.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "line\tstart\tend\told\tnew\trule" and {r[0] for r in rows[1:]} == set("135")
    # skipped, an uncertain line is written empty: its edits are not listed (nothing replays)
    code, got = _run(tmp_path, "--explain", str(tsv), "--uncertain", "skip")
    assert code == 0 and got.count(b"\n") == 4
    assert {r.split("\t")[0] for r in tsv.read_text(encoding="utf-8").splitlines()[1:]} == {"1"}


def test_uncertain_skip_with_the_chat_backend_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, got = _run(tmp_path, "--uncertain", "skip", "--backend", "chat", "--model", "m")
    assert code == 2 and got == b""
    err = capsys.readouterr().err.strip()
    assert err.startswith("occbio: error:") and "--uncertain skip" in err
    assert len(err.splitlines()) == 1


def test_uncertain_skip_on_jsonl_empties_the_text(tmp_path: Path) -> None:
    rows = [{"text": "El director del museo fue famoso.", "id": 1},
            {"text": "Fue nombrado director del museo.", "id": 2}]  # fmt: skip
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
    code, got = _run(tmp_path, "--uncertain", "skip", "--input-format", "jsonl", data=data)
    assert code == 0
    out = [json.loads(x) for x in got.decode().splitlines()]
    assert out == [{"text": "", "id": 1}, {"text": "Fue nombrada directora del museo.", "id": 2}]


def test_uncertain_skip_reads_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as fh:
            fh.write("".join(LINES).encode())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out = tmp_path / "out.txt"
    args = ["rewrite", "--lang", "es", "--to", "feminine", "--uncertain", "skip"]
    assert main([*args, "--input", str(fifo), "--output", str(out), "-q"]) == 0
    writer.join(timeout=300)
    assert out.read_bytes().count(b"\n") == 4 and b"famos" not in out.read_bytes()
