"""Issue #29, items 8, 9, 10 and 15: `evaluate`, `review export` and `audit` hold the run lock
(shared: they read the run; a command that writes it is refused meanwhile, and they are refused
while one writes), their output folder alone, and check the corpus before they write; a
counterfactual copy removed by a re-run is a warning that names `occbio augment`, even with -q;
a damaged corpus file's advice works when followed; `--explain` prints a summary, `--full` the
table. Every case with a real second process where one is involved."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.runlock import LOCK_FILE
from tests.test_runlock import _holder

#: Hang guard only: a command that waited for a lock instead of being refused.
HANG_GUARD = 300
SAMPLE = ["--sample", "--langs", "en,es,ca"]

#: `occbio ARGS` whose scoring waits for a line on stdin once it has read the corpus and the
#: translations (it says "scoring" first): an evaluation caught in the middle, for as long as
#: the test needs, never for a set time.
_PAUSED_EVALUATE = """
import sys
import occbio.evaluate.command as command
real = command.evaluate
def paused(*args, **kwargs):
    print("scoring", flush=True)
    sys.stdin.readline()
    return real(*args, **kwargs)
command.evaluate = paused
from occbio.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _occbio(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "occbio.cli", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


@pytest.fixture
def run(mined_sample: Path, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(mined_sample, out)
    return out


@pytest.fixture(scope="module")
def augmented(mined_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample run with its counterfactual copy (`occbio augment`); copy it to change it."""
    out = tmp_path_factory.mktemp("augmented") / "run"
    shutil.copytree(mined_sample, out)
    assert main(["augment", str(out), "-q"]) == 0
    return out


def _system(run: Path, tmp_path: Path) -> Path:
    """A system's translations: the Spanish references."""
    path = tmp_path / "system.es"
    shutil.copyfile(run / "corpus" / "corpus.es", path)
    return path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _segments(run: Path) -> int:
    return (run / "corpus" / "corpus.jsonl").read_text("utf-8").count("\n")


@pytest.fixture
def paused(tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    """Start evaluations paused mid-way (:data:`_PAUSED_EVALUATE`); killed if a test fails."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


def _pause(procs: list[subprocess.Popen[str]], tmp_path: Path, *args: str) -> subprocess.Popen:
    err = (tmp_path / f"paused-{len(procs)}.err").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-c", _PAUSED_EVALUATE, "evaluate", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
    )
    procs.append(proc)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "scoring"
    return proc


def _resume(proc: subprocess.Popen[str]) -> str:
    out, _ = proc.communicate("go\n", timeout=HANG_GUARD)
    assert proc.returncode == 0
    return out


# --- item 8: the run lock


def test_evaluate_review_export_and_audit_wait_for_no_writer(run: Path, tmp_path: Path) -> None:
    """A second process holds the run (as `mine` does): the readers are refused at once,
    naming it, and write nothing, not even their output folder."""
    system = _system(run, tmp_path)
    holder = _holder(run)
    try:
        for args in (
            ("evaluate", str(run), "--tgt", "es", "--system", f"s={system}"),
            ("review", "export", str(run), "--sample", "5"),
            ("audit", str(run)),
        ):
            refused = _occbio(*args)
            assert refused.returncode == 1, (args, refused.stderr)
            err = refused.stderr
            assert err.startswith("occbio: error: ") and err.count("\n") == 1, err
            assert "is being written by another occbio command" in err, err
            assert f"pid {holder.pid}" in err and "Traceback" not in err
            assert refused.stdout == ""
        assert not (run / "evaluation").exists() and not (run / "review").exists()
    finally:
        holder.communicate("")
    assert _occbio("review", "export", str(run), "--sample", "5").returncode == 0


def test_mine_cannot_replace_the_corpus_while_evaluate_reads_it(
    run: Path, tmp_path: Path, paused: list[subprocess.Popen[str]]
) -> None:
    """The issue's case: `mine --balance gebio` (36 -> 150 segments) started while `evaluate`
    scores. The real `mine` is refused, naming the evaluation; the evaluation's scores.json
    is of the corpus on disk, whose SHA-256 it records."""
    segments = _segments(run)
    system = _system(run, tmp_path)
    evaluation = _pause(paused, tmp_path, str(run), "--tgt", "es", "--system", f"s={system}")
    # a reader does not keep another reader out
    assert _occbio("audit", str(run)).returncode == 0
    refused = _occbio("mine", *SAMPLE, "--balance", "gebio", "--out", str(run), "-q")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "is in use by another occbio run" in refused.stderr
    assert f"pid {evaluation.pid}" in refused.stderr and "occbio evaluate" in refused.stderr
    assert _segments(run) == segments
    _resume(evaluation)
    scores = json.loads((run / "evaluation" / "en-es" / "scores.json").read_text("utf-8"))
    assert scores["counts"]["segments"] == _segments(run)
    assert scores["corpus_sha256"] == _sha256(run / "corpus" / "corpus.jsonl")
    assert (
        scores["corpus_files"]["corpus.jsonl"]["size"]
        == (run / "corpus/corpus.jsonl").stat().st_size
    )
    # the evaluation is over: the lock went with it
    done = _occbio("mine", *SAMPLE, "--balance", "gebio", "--out", str(run), "-q")
    assert done.returncode == 0, done.stderr
    assert _segments(run) > segments


def test_details_copied_with_a_run_or_left_by_an_ended_reader_name_no_one(
    mined_sample: Path, tmp_path: Path, paused: list[subprocess.Popen[str]]
) -> None:
    """CI's failure: the sample run's details named a reader in the (living) test process;
    a copy of the run carried them, so the evaluation left them as they were and the refused
    `mine` named the wrong process. Details are of one directory, and a reader that ends
    clears its own."""
    assert main(["audit", str(mined_sample), "-q"]) == 0  # a reader in this living process
    assert (mined_sample / LOCK_FILE).read_text("utf-8") == ""
    planted = tmp_path / "planted"
    shutil.copytree(mined_sample, planted)
    details = {"pid": os.getpid(), "host": os.uname().nodename, "command": "occbio audit"}
    (planted / LOCK_FILE).write_text(json.dumps({**details, "since": "x", "shared": True}))
    system = _system(planted, tmp_path)
    evaluation = _pause(paused, tmp_path, str(planted), "--tgt", "es", "--system", f"s={system}")
    refused = _occbio("mine", *SAMPLE, "--out", str(planted), "-q")
    assert f"pid {evaluation.pid}" in refused.stderr and "occbio evaluate" in refused.stderr
    _resume(evaluation)


def test_two_evaluations_never_fill_one_folder(
    run: Path, tmp_path: Path, paused: list[subprocess.Popen[str]]
) -> None:
    """Two evaluations en-es at once would leave one's scores.json beside the other's
    documents.csv: the second is refused; en-ca, another folder, runs beside it."""
    system = _system(run, tmp_path)
    ca = tmp_path / "system.ca"
    shutil.copyfile(run / "corpus" / "corpus.ca", ca)
    first = _pause(paused, tmp_path, str(run), "--tgt", "es", "--system", f"first={system}")
    second = _occbio("evaluate", str(run), "--tgt", "es", "--system", f"second={system}")
    assert second.returncode == 1
    assert "is being written by another occbio command" in second.stderr, second.stderr
    assert "one `occbio evaluate` at a time" in second.stderr
    assert second.stderr.count("\n") == 1
    other = _occbio("evaluate", str(run), "--tgt", "ca", "--system", f"s={ca}", "-q")
    assert other.returncode == 0, other.stderr
    _resume(first)
    scores = json.loads((run / "evaluation" / "en-es" / "scores.json").read_text("utf-8"))
    assert list(scores["systems"]) == ["first"]


def test_a_killed_reader_holds_nothing_and_its_lock_file_is_not_the_lock(
    run: Path, tmp_path: Path, paused: list[subprocess.Popen[str]]
) -> None:
    system = _system(run, tmp_path)
    reader = _pause(paused, tmp_path, str(run), "--tgt", "es", "--system", f"s={system}")
    (run / LOCK_FILE).unlink()  # the details file, not the lock: still refused
    args = ("mine", *SAMPLE, "--balance", "gebio", "--out", str(run), "-q")
    refused = _occbio(*args)
    assert refused.returncode == 1 and "is in use by another occbio run" in refused.stderr
    os.kill(reader.pid, signal.SIGKILL)
    reader.wait()
    assert _occbio(*args).returncode == 0
    # the killed evaluation wrote nothing
    assert not (run / "evaluation" / "en-es" / "scores.json").exists()


def test_a_corpus_replaced_behind_the_lock_is_an_error_and_nothing_is_written(
    augmented: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A writer that ignores the lock (another machine on a network file system, a script)
    replaces corpus.jsonl between evaluate's read and its write: one line, and no file of the
    evaluation (scores, simulated systems) is written."""
    run = tmp_path / "run"
    shutil.copytree(augmented, run)
    corpus = run / "corpus" / "corpus.jsonl"
    import occbio.evaluate.command as command

    real = command.evaluate

    def replacing(*args: object, **kwargs: object) -> object:
        lines = corpus.read_text("utf-8").splitlines(keepends=True)
        (run / "new.jsonl").write_text("".join(lines[:-1]), "utf-8")
        os.replace(run / "new.jsonl", corpus)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "evaluate", replacing)
    out = run / "evaluation" / "en-es"
    assert main(["evaluate", str(run), "--tgt", "es", "--simulate", "--resamples", "20"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: ") and err.count("\n") == 1, err
    assert f"{corpus} changed while the evaluation ran" in err and "nothing written" in err
    assert [p.name for p in out.rglob("*")] == []  # no scores, no simulated system, no .tmp


def test_review_export_checks_the_corpus_before_it_writes(
    run: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = run / "corpus" / "corpus.jsonl"
    import occbio.review.export as export

    real = export.stratified_sample

    def replacing(*args: object, **kwargs: object) -> object:
        lines = corpus.read_text("utf-8").splitlines(keepends=True)
        corpus.write_text("".join(lines[:-1]), "utf-8")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(export, "stratified_sample", replacing)
    assert main(["review", "export", str(run), "--sample", "5"]) == 1
    err = capsys.readouterr().err
    assert "changed while it was read" in err and err.count("\n") == 1, err
    assert not list((run / "review").glob("*"))


def test_a_read_only_run_is_still_read(run: Path, tmp_path: Path) -> None:
    """The shared lock needs no write: evaluate, review export (--out elsewhere) and audit
    work on a run that cannot be written; writing into it is a one-line error."""
    system = _system(run, tmp_path)
    os.chmod(run, 0o555)
    try:
        if os.access(run, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        ok = _occbio("evaluate", str(run), "--tgt", "es", "--system", f"s={system}",
                     "--out", str(tmp_path / "eval"), "-q")  # fmt: skip
        assert ok.returncode == 0, ok.stderr
        assert _occbio("review", "export", str(run), "--out", str(tmp_path / "rev")).returncode == 0
        assert _occbio("audit", str(run)).returncode == 0
        refused = _occbio("evaluate", str(run), "--tgt", "es", "--system", f"s={system}")
        assert refused.returncode == 1 and refused.stderr.count("\n") == 1
        assert "Traceback" not in refused.stderr
    finally:
        os.chmod(run, 0o755)


# --- item 9: a removed counterfactual copy is said, even with -q


def test_mine_without_augment_says_it_removes_the_counterfactual_copy(
    augmented: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(augmented, run)
    copy = sorted(p.name for p in (run / "corpus").glob("counterfactual.*"))
    assert len(copy) == 11  # every format, TMX included
    assert main(["mine", *SAMPLE, "--out", str(run), "-q"]) == 0
    captured = capsys.readouterr()
    assert not list((run / "corpus").glob("counterfactual.*"))
    assert "removed corpus/counterfactual.* (11 files)" in captured.err, captured.err
    warning = f"`occbio augment {run}` writes it again"
    assert "counterfactual copy" in captured.out and warning in captured.out
    # and its advice works
    assert main(["augment", str(run), "-q"]) == 0
    assert sorted(p.name for p in (run / "corpus").glob("counterfactual.*")) == copy


# --- item 10: the advice for a damaged corpus file works


def test_a_truncated_counterfactual_copy_gives_advice_that_works(
    augmented: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(augmented, run)
    copy = run / "corpus" / "counterfactual.jsonl"
    whole = copy.read_bytes()
    copy.write_bytes(whole[: len(whole) // 2])  # cut in the middle of a line
    args = ["evaluate", str(run), "--tgt", "es", "--simulate", "--resamples", "20", "-q"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "`occbio write`" not in err and f"`occbio augment {run}` writes it again" in err, err
    # cut at a line's end: no line is damaged, but the copy is not what the run wrote
    copy.write_bytes(whole[: whole.index(b"\n") + 1])
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "counterfactual.jsonl is not the file the run wrote" in err, err
    assert f"`occbio augment {run}` writes it again" in err
    assert main(["augment", str(run), "-q"]) == 0  # the advice, followed
    assert copy.read_bytes() == whole
    assert main(args) == 0
    assert "not the file the run wrote" not in capsys.readouterr().err


def test_a_damaged_corpus_of_a_run_without_augment_names_mine(
    run: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    corpus = run / "corpus" / "corpus.jsonl"
    whole = corpus.read_bytes()
    corpus.write_bytes(whole[: len(whole) // 2])
    system = _system(run, tmp_path)
    assert main(["evaluate", str(run), "--tgt", "es", "--system", f"s={system}", "-q"]) == 1
    err = capsys.readouterr().err
    assert "`occbio write`" not in err and "`occbio mine` that made the run" in err, err
    assert main(["mine", *SAMPLE, "--out", str(run), "-q"]) == 0  # the advice, followed
    assert corpus.read_bytes() == whole


# --- item 15: --explain opens with a summary a person reads


def test_explain_prints_a_summary_and_the_table_on_request(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["align", *SAMPLE, "--out", str(run), "-q", "--explain", "Q990000001"]
    assert main(args) == 0
    text = capsys.readouterr().out
    report = text[text.index("Q990000001: sentences") :].splitlines()
    assert len(report) <= 40, "\n".join(report)
    assert any(line.startswith("  en-es: ") and "candidate pairs" in line for line in report)
    assert any(line.startswith("  en-ca: ") and "candidate pairs" in line for line in report)
    assert any("kept tuples nearest the rule" in line for line in report)
    assert any("best candidate pairs not kept" in line for line in report)
    assert report[-1].endswith("add --full")
    rows = int(report[-1].split("(")[1].split(" rows")[0])
    assert rows > 300
    assert main([*args, "--full"]) == 0
    full = capsys.readouterr().out
    table = full[full.index("Q990000001: sentences") :].splitlines()
    assert len(table) > rows and "add --full" not in full
    assert table[: table.index("")] == report[: report.index("")]  # the same summary first
