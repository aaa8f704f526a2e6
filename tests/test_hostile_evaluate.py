"""`occbio evaluate RUN_DIR` on hostile input (issue #22): translation files that do not line up,
are not UTF-8, come as JSON lines with bad ids, a FIFO, a directory or nothing; runs without a
corpus or a counterfactual copy, a damaged corpus; options that contradict each other. Each is a
one-line `occbio: error: ...` with no traceback, or is accepted with the same figures (a BOM,
CRLF) or a counted warning (empty translations); never a silent misalignment."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import main
from tests.test_evaluate import TGT, Corpus, mine, perturbed, read_lines, write_lines

#: a FIFO nobody opens again is given an end after this long, so a bug fails instead of hanging
HANG_GUARD = 300


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mine(tmp_path_factory.mktemp("hostile-evaluate") / "run")


@pytest.fixture(scope="module")
def corpus(run: Path) -> Corpus:
    return Corpus(run)


@pytest.fixture(scope="module")
def hyps(corpus: Corpus) -> list[str]:
    """A system's translations: the reference, perturbed (no empty line)."""
    lines = perturbed(corpus.refs)
    lines[4] = corpus.refs[4]
    return lines


@pytest.fixture
def system(hyps: list[str], tmp_path: Path) -> Path:
    return write_lines(tmp_path / f"system.{TGT}", hyps)


@pytest.fixture
def run_copy(run: Path, tmp_path: Path) -> Path:
    """The run's corpus, copied for a test to damage."""
    shutil.copytree(run / "corpus", tmp_path / "run" / "corpus")
    return tmp_path / "run"


def evaluate(
    capsys: pytest.CaptureFixture[str], run: Path, out: Path, *args: str
) -> tuple[dict[str, Any], str]:
    """A run that must succeed: (scores.json, what went to stderr)."""
    capsys.readouterr()
    argv = ["evaluate", str(run), "--tgt", TGT, "--out", str(out), "--resamples", "50", *args]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return json.loads((out / "scores.json").read_text(encoding="utf-8")), err


def error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """A run that must fail in one line (exit 1), writing no figures; the line."""
    capsys.readouterr()
    assert main(["evaluate", *args, "--resamples", "50"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("occbio: error: "), err
    return lines[0]


def quality(doc: dict[str, Any], name: str = "s") -> dict[str, Any]:
    return doc["results"][name]["quality"]


# --- line-aligned files


def test_one_line_too_few_or_too_many(
    run: Path, hyps: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    n = len(hyps)
    short = write_lines(tmp_path / "short.es", hyps[:-1])
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={short}")
    assert f"{short} has {n - 1} lines but corpus/corpus.{TGT} has {n}" in line
    long = write_lines(tmp_path / "long.es", [*hyps[:10], "an extra line", *hyps[10:]])
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={long}")
    assert f"{long} has {n + 1} lines but corpus/corpus.{TGT} has {n}" in line
    assert "empty" not in line
    assert not (run / "evaluation" / f"en-{TGT}" / "scores.json").exists()


def test_a_trailing_empty_line_is_one_line_too_many(
    run: Path, hyps: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """sacrebleu refuses it too; the message says where the extra line is."""
    path = write_lines(tmp_path / "blank.es", [*hyps, ""])
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={path}")
    assert f"has {len(hyps) + 1} lines" in line and "the last line is empty" in line


def test_latin1_bytes_are_named_by_file_and_line(
    run: Path, hyps: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = list(hyps)
    k = next(i for i, h in enumerate(lines) if "ó" in h)
    path = tmp_path / "latin1.es"
    path.write_bytes(
        "".join(h + "\n" for h in lines)
        .encode("utf-8")
        .replace(lines[k].encode("utf-8"), lines[k].encode("latin-1"), 1)
    )
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={path}")
    assert f"{path}:{k + 1}: not UTF-8" in line


def test_utf16_and_nul_bytes(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    utf16 = tmp_path / "utf16.es"
    utf16.write_bytes(system.read_text(encoding="utf-8").encode("utf-16"))
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={utf16}")
    assert f"{utf16}:1: not UTF-8" in line
    nul = tmp_path / "nul.es"
    lines = read_lines(system)
    lines[5] = lines[5] + "\x00"
    write_lines(nul, lines)
    assert f"{nul}:6: a NUL byte" in error(capsys, str(run), "--tgt", TGT, "--system", f"s={nul}")


def test_bom_crlf_gzip_and_no_final_newline_score_the_same(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, _ = evaluate(capsys, run, tmp_path / "plain", "--system", f"s={system}")
    raw = system.read_bytes()
    variants = {
        "bom.es": b"\xef\xbb\xbf" + raw,
        "crlf.es": raw.replace(b"\n", b"\r\n"),
        "bom-crlf.es": b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"),
        "no-final-newline.es": raw.removesuffix(b"\n"),
        "system.es.gz": gzip.compress(raw),
    }
    for name, data in variants.items():
        path = tmp_path / name
        path.write_bytes(data)
        doc, err = evaluate(capsys, run, tmp_path / f"out-{name}", "--system", f"s={path}")
        assert doc["results"] == plain["results"], name
        assert doc["systems"]["s"]["size"] == len(data), name
        assert "WARNING" not in err, name
    assert quality(plain)["all"]["BLEU"]["value"] < 100


def test_empty_translations_are_counted_and_scored(
    run: Path, hyps: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = write_lines(tmp_path / "full.es", hyps)
    holes = list(hyps)
    holes[0], holes[7] = "", "   "
    path = write_lines(tmp_path / "holes.es", holes)
    before, _ = evaluate(capsys, run, tmp_path / "full", "--system", f"s={full}")
    doc, err = evaluate(capsys, run, tmp_path / "holes", "--system", f"s={path}")
    warnings = [line for line in err.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1
    assert f"{path}: 2 of {len(hyps)} translations are empty" in warnings[0]
    assert doc["systems"]["s"]["empty"] == 2
    for metric in ("BLEU", "chrF", "chrF++"):  # scored as misses, not left out
        assert quality(doc)["all"][metric]["segments"] == len(hyps)
        assert quality(doc)["all"][metric]["value"] < quality(before)["all"][metric]["value"]


# --- JSON lines by segment id


def _jsonl(path: Path, rows: list[Any]) -> Path:
    return write_lines(path, [json.dumps(r, ensure_ascii=False) for r in rows])


def test_jsonl_in_any_order_scores_as_the_aligned_file(
    run: Path,
    corpus: Corpus,
    hyps: list[str],
    system: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = [{"id": sid, "text": h} for sid, h in zip(corpus.ids, hyps, strict=True)]
    random.Random(5).shuffle(rows)
    assert [r["id"] for r in rows] != corpus.ids
    by_id = _jsonl(tmp_path / "shuffled.jsonl", rows)
    qid_seg = [
        {"qid": r["id"].split(":")[0], "seg": int(r["id"].split(":")[1]), "translation": r["text"]}
        for r in rows
    ]
    lines = [json.dumps(r) for r in qid_seg]
    by_qid = write_lines(tmp_path / "qid-seg.jsonl", [*lines[:3], "", *lines[3:]])
    aligned, _ = evaluate(capsys, run, tmp_path / "aligned", "--system", f"s={system}")
    for path in (by_id, by_qid):
        doc, _ = evaluate(capsys, run, tmp_path / path.stem, "--system", f"s={path}")
        assert doc["results"] == aligned["results"], path.name


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("unknown", ":37: segment 'Q1:1' is not in the test set"),
        ("duplicate", ":37: segment '{first}' is translated twice"),
        ("missing", ": 1 of 36 segments have no translation (the first: {last})"),
        ("malformed", ':6: expected {{"id": "QID:SEG", "text": "..."}}'),
        ("not an object", ':1: expected {{"id": "QID:SEG", "text": "..."}}'),
        ("text null", ':2: expected {{"id": "QID:SEG", "text": "..."}}'),
        ("fractional seg", ':1: expected {{"id": "QID:SEG", "text": "..."}}'),
    ],
)
def test_bad_jsonl(
    case: str,
    message: str,
    run: Path,
    corpus: Corpus,
    hyps: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows: list[Any] = [{"id": s, "text": h} for s, h in zip(corpus.ids, hyps, strict=True)]
    lines = [json.dumps(r) for r in rows]
    if case == "unknown":
        lines.append(json.dumps({"id": "Q1:1", "text": "x"}))
    elif case == "duplicate":
        lines.append(lines[0])
    elif case == "missing":
        lines.pop()
    elif case == "malformed":
        lines[5] = lines[5][:20]
    elif case == "not an object":
        lines.insert(0, json.dumps([corpus.ids[0], hyps[0]]))
    elif case == "text null":
        lines[1] = json.dumps({"id": corpus.ids[1], "text": None})
    elif case == "fractional seg":  # 2.5 is no segment number (not a truncated 2)
        qid, seg = corpus.ids[0].split(":")
        lines[0] = json.dumps({"qid": qid, "seg": int(seg) + 0.5, "text": hyps[0]})
    path = write_lines(tmp_path / "system.jsonl", lines)
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={path}")
    assert f"{path}{message.format(first=corpus.ids[0], last=corpus.ids[-1])}" in line


# --- what is given as the translation file


def test_a_fifo_is_read_once(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / f"fifo.{TGT}"
    os.mkfifo(fifo)
    data = system.read_bytes()

    def write() -> None:
        with fifo.open("wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    # should occbio open it a second time, that read gets an end (and fails) instead of hanging
    guard = threading.Timer(HANG_GUARD, lambda: fifo.open("wb").close())
    guard.daemon = True
    guard.start()
    try:
        doc, _ = evaluate(capsys, run, tmp_path / "fifo", "--system", f"s={fifo}")
    finally:
        guard.cancel()
    writer.join(timeout=HANG_GUARD)
    plain, _ = evaluate(capsys, run, tmp_path / "plain", "--system", f"s={system}")
    assert doc["results"] == plain["results"]
    assert doc["systems"]["s"]["size"] == len(data)


def test_a_directory_or_a_missing_file(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"s={tmp_path}")
    assert f"{tmp_path} is a directory" in line
    missing = tmp_path / "nowhere.es"
    line = error(capsys, str(run), "--tgt", TGT, "--system", f"mine={missing}")
    assert f"{missing}: No such file or directory (the translations of mine)" in line
    line = error(capsys, str(run), "--tgt", TGT, "--system", "=x.es")
    assert "--system expects NAME=PATH" in line


def test_a_damaged_gzip_file(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.es.gz"
    path.write_bytes(gzip.compress(system.read_bytes())[:-20])
    assert f"{path}: a damaged gzip file" in error(
        capsys, str(run), "--tgt", TGT, "--system", f"s={path}"
    )


@pytest.mark.slow
def test_a_translation_of_200000_words(
    run: Path, hyps: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(3)
    vocabulary = "la el de una que en hombre mujer fue ingeniera ingeniero hijo hija".split()
    lines = list(hyps)
    lines[2] = " ".join(rng.choice(vocabulary) for _ in range(200_000))
    path = write_lines(tmp_path / "huge.es", lines)
    doc, _ = evaluate(capsys, run, tmp_path / "out", "--system", f"s={path}")
    bleu = quality(doc)["all"]["BLEU"]["value"]
    assert 0 < bleu < 5  # 200,000 words that mostly match nothing: the precisions collapse
    assert doc["results"]["s"]["gender accuracy"]["all"]["accuracy"]["segments"] > 0


# --- the run


def test_no_run_or_no_corpus(
    tmp_path: Path, system: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = error(capsys, str(tmp_path / "nowhere"), "--system", f"s={system}")
    assert "does not exist: give a run directory" in line
    line = error(capsys, str(tmp_path), "--system", f"s={system}")
    assert "holds no corpus/corpus.jsonl" in line


LATIN1 = "a latin-1 byte"


def _edit_jsonl(path: Path, n: int, edit: Any) -> None:
    """Line ``n`` (from 1) of a JSONL file through ``edit`` (a row -> row, or a str)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[n - 1] = edit if isinstance(edit, str) else json.dumps(edit(json.loads(lines[n - 1])))
    write_lines(path, lines)


def _without(key: str, lang: str) -> Any:
    def edit(row: dict[str, Any]) -> dict[str, Any]:
        del row[key][lang]
        return row

    return edit


@pytest.mark.parametrize(
    ("file", "n", "edit", "message"),
    [
        ("corpus.jsonl", 5, '{"text": {"en": "cut', "corpus.jsonl:5: not a segment of an occbio"),
        ("corpus.jsonl", 7, _without("text", TGT), "corpus.jsonl:7: segment {sid7} has no es text"),
        (
            "corpus.jsonl",
            1,
            lambda r: {**r, "text": {**r["text"], "ca": None}},
            "corpus.jsonl:1: segment {sid1} has no ca text",
        ),
        (
            "corpus.jsonl",
            3,
            lambda r: {**r, "seg": 1},
            "corpus.jsonl:3: segment {sid1} appears twice",
        ),
        ("corpus.jsonl", 4, LATIN1, "corpus.jsonl:4: not UTF-8"),
        ("counterfactual.jsonl", 2, '{"qid"', "counterfactual.jsonl:2: not a segment"),
        (
            "counterfactual.jsonl",
            2,
            _without("text", "en"),
            "counterfactual.jsonl:2: segment {cf2} has no en text",
        ),
        (
            "counterfactual.jsonl",
            2,
            lambda r: {**r, "qid": "Q1"},
            "counterfactual.jsonl:2: segment Q1:",
        ),
        (
            "counterfactual.jsonl",
            3,
            lambda r: {**r, "source_gender": r["gender"]},
            "counterfactual.jsonl:3: segment {cf3} is the copy of a",
        ),
    ],
)
def test_a_damaged_corpus(
    file: str,
    n: int,
    edit: Any,
    message: str,
    run_copy: Path,
    corpus: Corpus,
    system: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = run_copy / "corpus" / file
    if edit == LATIN1:  # a latin-1 byte in the middle of the line
        lines = path.read_bytes().split(b"\n")
        lines[n - 1] = lines[n - 1].replace(b'"en": "', b'"en": "\xe9', 1)
        path.write_bytes(b"\n".join(lines))
    else:
        _edit_jsonl(path, n, edit)
    ids = {
        "sid7": corpus.ids[6],
        "sid1": corpus.ids[0],
        "cf2": corpus.cf_ids[1],
        "cf3": corpus.cf_ids[2],
    }
    line = error(capsys, str(run_copy), "--tgt", TGT, "--system", f"s={system}")
    assert message.format(**ids) in line
    if "counterfactual" in file and "not a segment" not in message and "no en" not in message:
        assert "run `occbio augment` again" in line


def test_the_run_its_corpus_folder_or_its_corpus_file(
    run_copy: Path, system: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each names the same run; the evaluation goes to RUN/evaluation/SRC-TGT by default."""
    results = []
    for given in (run_copy, run_copy / "corpus", run_copy / "corpus" / "corpus.jsonl"):
        capsys.readouterr()
        argv = ["evaluate", str(given), "--tgt", TGT, "--system", f"s={system}", "-q"]
        assert main([*argv, "--resamples", "50", "--format", "json"]) == 0
        results.append(json.loads(capsys.readouterr().out)["results"])
        written = run_copy / "evaluation" / f"en-{TGT}" / "scores.json"
        assert json.loads(written.read_text(encoding="utf-8"))["results"] == results[-1]
        written.unlink()
    assert results[0] == results[1] == results[2]


def test_out_is_a_file(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = write_lines(tmp_path / "taken", ["a file"])
    line = error(capsys, str(run), "--tgt", TGT, "--out", str(taken), "--system", f"s={system}")
    assert str(taken) in line


def test_comet_without_a_model_or_without_the_package(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(run), "--tgt", TGT, "--system", f"s={system}", "--out", str(tmp_path / "o")]
    line = error(capsys, *argv, "--comet-model", str(tmp_path))
    assert f"{tmp_path} holds no COMET checkpoint" in line
    try:
        import comet  # noqa: F401
    except ImportError:
        ckpt = tmp_path / "model" / "checkpoints" / "model.ckpt"
        ckpt.parent.mkdir(parents=True)
        ckpt.write_bytes(b"not read")
        line = error(capsys, *argv, "--comet-model", str(tmp_path / "model"))
        assert "pip install unbabel-comet" in line


def test_an_empty_corpus(run_copy: Path, system: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run_copy / "corpus" / "corpus.jsonl").write_text("\n", encoding="utf-8")
    assert "holds no segment" in error(capsys, str(run_copy), "--system", f"s={system}")


# --- options


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tgt", "xx"], "the corpus has no 'xx' (it has en, es, ca)"),
        (["--tgt", "es", "--src", "es"], "--src and --tgt are the same language"),
        ([], "the corpus has en, es, ca: say which with --tgt"),
        (["--tgt", "es", "--system", "s={system}"], "--system: two systems are named 's'"),
        (
            ["--tgt", "es", "--counterfactual-system", "t={system}"],
            "--counterfactual-system t: no --system of that name",
        ),
        (["--tgt", "es", "--metrics", "BLEU,foo"], "--metrics: choose from BLEU, chrF, chrF++"),
        (["--tgt", "es", "--tokenize", "foo"], "unknown BLEU tokenizer 'foo'"),
        (["--tgt", "es", "--compare", "s,zzz"], "--compare: no system named 'zzz'"),
        (["--tgt", "es", "--min-docs", "0"], "--resamples and --min-docs must be at least 1"),
        (
            ["--tgt", "es", "--system", "reference={system}", "--simulate"],
            "--simulate makes a system named 'reference'",
        ),
        (
            ["--tgt", "es", "--counterfactual-system", "s={cf}"],
            "has 36 lines but corpus/counterfactual.en has 33",
        ),
    ],
)
def test_options_that_cannot_be_carried_out(
    args: list[str],
    message: str,
    run: Path,
    system: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [a.format(system=system, cf=system) for a in args]
    out = tmp_path / "out"
    line = error(capsys, str(run), "--out", str(out), "--system", f"s={system}", *argv)
    assert message in line, line
    assert not (out / "scores.json").exists()


def test_no_systems(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "--system NAME=PATH (or --simulate)" in error(capsys, str(run), "--tgt", TGT)


def test_a_run_without_augment(
    run_copy: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (run_copy / "corpus").glob("counterfactual.*"):
        path.unlink()
    line = error(capsys, str(run_copy), "--tgt", TGT, "--simulate")
    assert f"--simulate needs the run's counterfactual copy: occbio augment {run_copy}" in line
    line = error(
        capsys,
        str(run_copy),
        "--tgt",
        TGT,
        "--system",
        f"s={system}",
        "--counterfactual-system",
        f"s={system}",
    )
    assert "the run has no counterfactual copy: run `occbio augment` first" in line
    doc, _ = evaluate(capsys, run_copy, tmp_path / "out", "--system", f"s={system}")
    assert set(doc["results"]["s"]) == {"quality", "gap"}
    assert doc["counts"]["segments_with_counterfactual"] == 0


def test_a_run_without_augment_says_why_there_is_no_gender_accuracy(
    run_copy: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (run_copy / "corpus").glob("counterfactual.*"):
        path.unlink()
    _, err = evaluate(capsys, run_copy, tmp_path / "out", "--system", f"s={system}")
    assert "WARNING" in err and "occbio augment" in err


def test_a_gap_with_a_gender_the_test_set_lacks(
    run: Path, system: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = error(
        capsys,
        str(run),
        "--tgt",
        TGT,
        "--out",
        str(tmp_path),
        "--system",
        f"s={system}",
        "--gap",
        "female,non-binary",
    )
    assert "non-binary" in line and "female, male" in line


def test_argparse_errors_exit_2(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["--gap", "female"], ["--format", "yaml"], ["--resamples", "many"]):
        with pytest.raises(SystemExit) as exc:
            main(["evaluate", str(run), "--tgt", TGT, "--simulate", *bad])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "occbio evaluate: error:" in err and "Traceback" not in err


def test_the_simulated_systems_files_match_the_corpus(
    run: Path, corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--simulate on another direction (ca -> es): the systems' files line up with their
    reference files, so a user can score them again with --system."""
    doc, _ = evaluate(capsys, run, tmp_path / "out", "--src", "ca", "--simulate")
    systems = tmp_path / "out" / "systems"
    assert len(read_lines(systems / f"noisy.{TGT}")) == len(corpus.refs)
    assert len(read_lines(systems / f"counterfactual.noisy.{TGT}")) == len(corpus.cf_refs)
    assert doc["src"] == "ca"
    again, _ = evaluate(
        capsys,
        run,
        tmp_path / "again",
        "--src",
        "ca",
        "--system",
        f"noisy={systems / f'noisy.{TGT}'}",
        "--counterfactual-system",
        f"noisy={systems / f'counterfactual.noisy.{TGT}'}",
    )
    assert again["results"]["noisy"] == doc["results"]["noisy"]


def test_a_gender_with_one_document_has_no_interval(
    run_copy: Path, corpus: Corpus, system: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A corpus with one non-binary person (no counterfactual copy: augment makes none)."""
    lone = next(d for d in corpus.docs if corpus.gender[d] == "male")
    path = run_copy / "corpus" / "corpus.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    write_lines(path, [json.dumps({**r, "gender": "non-binary"} if r["qid"] == lone else r)
                       for r in rows])  # fmt: skip
    cf_path = run_copy / "corpus" / "counterfactual.jsonl"
    cf_rows = [json.loads(line) for line in cf_path.read_text(encoding="utf-8").splitlines()]
    write_lines(cf_path, [json.dumps(r) for r in cf_rows if r["qid"] != lone])
    doc, _ = evaluate(capsys, run_copy, tmp_path / "out", "--system", f"s={system}",
                      "--gap", "female,non-binary")  # fmt: skip
    lone_bleu = quality(doc)["non-binary"]["BLEU"]
    assert lone_bleu["docs"] == 1 and lone_bleu["value"] > 0
    assert lone_bleu["low"] is None and lone_bleu["high"] is None
    gap = doc["results"]["s"]["gap"]["female - non-binary"]["BLEU"]
    assert gap["low"] is None and gap["high"] is None
