"""Writes outside the run directory (issue #29, items 1-3): an output folder that is a symbolic
link (`review export`, `evaluate`), a language key of corpus.jsonl that is a path, a link
planted while `mine` works, and the hostile round on paths after them (links at every level, a
link swapped in at the final rename, a FIFO, a directory or a hard link where a file goes,
`..` in a name). Each ends in one line or a correct write inside the run; nothing is written
outside it and nothing there is followed."""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections import Counter
from pathlib import Path

import pytest

from occbio import cli
from occbio.cli import main
from occbio.langs import WIKIPEDIA_LANGS, check_lang, is_lang_code
from occbio.run import BatchLog, ChunkedWriter, RunDir, atomic_write
from occbio.runlock import RunDirError
from occbio.safepaths import guard, make_dirs, open_file, output_dir, remove_tree
from tests.test_evaluate import SAMPLE, mine


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`occbio mine --sample --augment` (en, es, ca): read it, copy it to change it."""
    return mine(tmp_path_factory.mktemp("safe-paths") / "run")


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    return out


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A directory outside the run holding a file of someone else's."""
    path = tmp_path / "elsewhere"
    path.mkdir()
    (path / "review-en-es.html").write_text("someone else's page\n")
    return path


def snapshot(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in path.rglob("*") if p.is_file()}


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("occbio: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# 1. an output folder that is a link


@pytest.mark.parametrize(
    ("folder", "argv"),
    [
        ("review", ["review", "export", "RUN"]),
        ("evaluation", ["evaluate", "RUN", "--tgt", "es", "--simulate", "-q"]),
    ],
)
def test_an_output_folder_that_is_a_link_is_refused(
    run: Path, elsewhere: Path, folder: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(elsewhere)
    (run / folder).symlink_to(elsewhere, target_is_directory=True)
    assert main([str(run) if a == "RUN" else a for a in argv]) == 1
    assert f"{run / folder} is a symbolic link to {elsewhere}" in one_line(capsys)
    assert snapshot(elsewhere) == before


def test_a_link_below_the_output_folder_is_refused(
    run: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (run / "evaluation").mkdir()
    (run / "evaluation" / "en-es").symlink_to(elsewhere, target_is_directory=True)
    assert main(["evaluate", str(run), "--tgt", "es", "--simulate", "-q"]) == 1
    assert "en-es is a symbolic link" in one_line(capsys)
    (run / "evaluation" / "en-es").unlink()
    (run / "evaluation" / "en-es" / "systems").mkdir(parents=True)
    (run / "evaluation" / "en-es" / "scores.json").symlink_to(elsewhere / "scores.json")
    assert main(["evaluate", str(run), "--tgt", "es", "--simulate", "-q"]) == 0
    capsys.readouterr()
    # the link itself was replaced by the file; its target was never written
    assert not (run / "evaluation" / "en-es" / "scores.json").is_symlink()
    assert not (elsewhere / "scores.json").exists()


def test_an_out_the_user_names_may_be_a_link(
    run: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path given on the command line is the user's choice, a link or not."""
    link = run.parent / "my-review"
    link.symlink_to(elsewhere, target_is_directory=True)
    assert main(["review", "export", str(run), "--out", str(link), "--sample", "3"]) == 0
    capsys.readouterr()
    assert (elsewhere / "review-en-ca.csv").is_file()


# 2. a language key that is a path


def _rename_key(run: Path, old: str, new: str) -> None:
    path = run / "corpus" / "corpus.jsonl"
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    for row in rows:
        row["text"] = {(new if k == old else k): v for k, v in row["text"].items()}
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


@pytest.mark.parametrize("command", ["review", "evaluate-es", "evaluate-key"])
def test_a_language_key_that_is_a_path_is_refused(
    run: Path, tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "ca/../../../elsewhere/x"
    _rename_key(run, "ca", key)
    argv = {
        "review": ["review", "export", str(run)],
        "evaluate-es": ["evaluate", str(run), "--tgt", "es", "--simulate", "-q"],
        "evaluate-key": ["evaluate", str(run), "--tgt", key, "--simulate", "-q"],
    }[command]
    before = sorted(p for p in tmp_path.rglob("*") if "run" not in p.parts)
    assert main(argv) != 0
    line = one_line(capsys)
    assert "corpus.jsonl:1: text: 'ca/../../../elsewhere/x' is not a language code" in line
    assert sorted(p for p in tmp_path.rglob("*") if "run" not in p.parts) == before
    assert not (run / "review").exists() and not (run / "evaluation").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "RUN", "--tgt", "../../x", "--simulate"],
        ["evaluate", "RUN", "--src", "en/..", "--tgt", "es", "--simulate"],
        ["review", "export", "RUN", "--langs", "es,../x"],
    ],
)
def test_a_language_code_on_the_command_line_that_is_a_path_is_refused(
    run: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(run) if a == "RUN" else a for a in argv]
    assert main(argv) == 2
    assert "is not a language code" in one_line(capsys)
    assert not (run / "review").exists() and not (run / "evaluation").exists()


def test_every_wikipedia_code_is_a_code_and_no_path_is() -> None:
    assert all(is_lang_code(code) for code in WIKIPEDIA_LANGS)
    for bad in ["", "..", "ca/x", "ca\\x", "c.a", "CA", "ca\n", "x" * 33, 5, None, "-ca"]:
        assert not is_lang_code(bad)
    assert check_lang("zh-min-nan", "--tgt") == "zh-min-nan"


# 3. a link planted while `mine` works


def test_a_link_planted_while_mine_works_is_not_followed(
    run: Path, elsewhere: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The run directory was checked when `mine` opened it; once align/ is there (before the
    balance stage), RUN/corpus becomes a link to another directory."""
    before = snapshot(elsewhere)

    def plant(fn):  # type: ignore[no-untyped-def]
        def stage(cfg, run_dir, **kwargs):  # type: ignore[no-untyped-def]
            assert (run / "align").is_dir()
            shutil.rmtree(run / "corpus")
            (run / "corpus").symlink_to(elsewhere, target_is_directory=True)
            return fn(cfg, run_dir, **kwargs)

        return stage

    stages = [(name, plant(fn) if name == "balance" else fn) for name, fn in cli._STAGES]
    monkeypatch.setattr(cli, "_STAGES", stages)
    assert main(["mine", *SAMPLE, "--out", str(run), "-q"]) == 1
    assert f"{run / 'corpus'} is a symbolic link to {elsewhere}" in one_line(capsys)
    assert snapshot(elsewhere) == before
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["stages"]["write"]["status"] == "failed"
    # the link removed, the same command finishes the run
    (run / "corpus").unlink()
    monkeypatch.undo()
    assert main(["mine", *SAMPLE, "--out", str(run), "-q"]) == 0
    assert (run / "corpus" / "corpus.jsonl").is_file()


def _swap_for_link(folder: Path, elsewhere: Path) -> None:
    """Move ``folder`` out of the run (into ``elsewhere``) and put a link to it in its place."""
    moved = elsewhere / folder.name
    folder.rename(moved)
    folder.symlink_to(moved, target_is_directory=True)


def test_the_final_rename_into_a_folder_swapped_for_a_link_is_refused(
    tmp_path: Path, elsewhere: Path
) -> None:
    root = tmp_path / "run"
    RunDir(root)
    target = root / "corpus" / "corpus.tsv"
    with pytest.raises(RunDirError, match=r"corpus is a symbolic link"), atomic_write(target) as fh:
        fh.write("a line\n")
        _swap_for_link(root / "corpus", elsewhere)
    # nothing under its final name, no temporary left in the folder that moved out
    assert sorted(os.listdir(elsewhere / "corpus")) == []
    # the same when the folder was replaced by a new real one
    (root / "corpus").unlink()
    with (
        pytest.raises(RunDirError, match=r"was replaced while occbio wrote corpus.tsv"),
        atomic_write(target) as fh,
    ):
        fh.write("a line\n")
        (root / "corpus").rename(tmp_path / "old-corpus")
        (root / "corpus").mkdir()
    assert os.listdir(root / "corpus") == [] and os.listdir(tmp_path / "old-corpus") == []


def test_the_run_directory_itself_swapped_for_a_link_is_refused(
    tmp_path: Path, elsewhere: Path
) -> None:
    root = tmp_path / "run"
    run = RunDir(root)
    root.rename(tmp_path / "run.old")
    root.symlink_to(elsewhere, target_is_directory=True)
    before = snapshot(elsewhere)
    # the run's own check (RunDir.check_place) stops it at its next commit ...
    with pytest.raises(RunDirError, match=r"was moved or replaced while this run worked in it"):
        run.save()
    # ... and any write below the run is refused on its own
    swapped = r"no longer the directory occbio started writing in"
    with pytest.raises(RunDirError, match=swapped), atomic_write(root / "corpus.jsonl") as fh:
        fh.write("{}\n")
    assert snapshot(elsewhere) == before


def test_chunks_and_batch_logs_go_through_no_link_planted_after_the_run_opened(
    tmp_path: Path, elsewhere: Path
) -> None:
    root = tmp_path / "run"
    run = RunDir(root)
    state = run.stage("text")
    state.begin("fp", inputs={}, settings={})
    (root / ".parts").symlink_to(elsewhere, target_is_directory=True)
    writer = ChunkedWriter(
        state, "en", {"rows": root / "text" / "en.jsonl"}, chunk_size=1, stats=Counter()
    )
    with pytest.raises(RunDirError, match=r"\.parts is a symbolic link"):
        writer.add({"rows": [{"a": 1}]})
    with pytest.raises(RunDirError, match=r"\.parts is a symbolic link"):
        BatchLog(state.parts_root / "people-batches.jsonl").append("k", [1])
    remove_tree(state.parts_root)  # through the link: left alone
    state.finish(counts={}, outputs=[])
    assert snapshot(elsewhere) == {"review-en-es.html": b"someone else's page\n"}
    assert (root / ".parts").is_symlink()


def test_a_link_planted_by_another_thread_during_many_writes(
    tmp_path: Path, elsewhere: Path
) -> None:
    """A second thread swaps the folder for a link while this one writes file after file: each
    write lands inside the run or is refused; none lands outside."""
    root = tmp_path / "run"
    RunDir(root)
    make_dirs(root / "corpus")
    started = threading.Event()

    def swap() -> None:
        started.wait()
        _swap_for_link(root / "corpus", elsewhere)

    thread = threading.Thread(target=swap)
    thread.start()
    written = refused = 0
    for i in range(2000):
        try:
            with atomic_write(root / "corpus" / f"f{i}") as fh:
                fh.write("x")
            written += 1
        except RunDirError:
            refused += 1
        if i == 50:
            started.set()
    thread.join()
    assert written >= 51 and refused >= 1
    # what the thread moved away was written before the swap, inside the run
    moved = sorted(os.listdir(elsewhere / "corpus"), key=lambda n: int(n[1:]))
    assert len(moved) == written and all(not n.startswith(".") for n in moved)
    assert (root / "corpus").is_symlink()


# the hostile round on paths


def test_what_stands_where_an_output_file_goes(tmp_path: Path, elsewhere: Path) -> None:
    root = tmp_path / "run"
    RunDir(root)
    out = root / "out"
    out.mkdir()
    victim = elsewhere / "review-en-es.html"
    # a link to a file outside, a dangling link, a link to /dev/null: the link is replaced
    for name, target in [("a", victim), ("b", elsewhere / "none"), ("c", Path(os.devnull))]:
        (out / name).symlink_to(target)
        with atomic_write(out / name) as fh:
            fh.write("mine\n")
        assert not (out / name).is_symlink() and (out / name).read_text() == "mine\n"
    assert victim.read_text() == "someone else's page\n" and not (elsewhere / "none").exists()
    # a hard link: the other name keeps what it had
    os.link(victim, out / "d")
    with atomic_write(out / "d") as fh:
        fh.write("mine\n")
    assert victim.read_text() == "someone else's page\n"
    # a FIFO: replaced, never opened (no hang)
    os.mkfifo(out / "e")
    with atomic_write(out / "e") as fh:
        fh.write("mine\n")
    assert (out / "e").read_text() == "mine\n"
    # a directory: one line, the directory left as it was
    (out / "f").mkdir()
    (out / "f" / "keep").write_text("k")
    with (
        pytest.raises(RunDirError, match=r"out/f is a directory, where occbio writes a file"),
        atomic_write(out / "f") as fh,
    ):
        fh.write("mine\n")
    assert os.listdir(out / "f") == ["keep"]
    # a file where a folder goes
    (out / "g").write_text("g")
    with (
        pytest.raises(RunDirError, match=r"out/g is not a directory"),
        atomic_write(out / "g" / "x") as fh,
    ):
        fh.write("mine\n")
    # '..' in a name below the run
    with (
        pytest.raises(RunDirError, match=r"leads out of"),
        atomic_write(root / "out" / ".." / ".." / "elsewhere" / "x") as fh,
    ):
        fh.write("mine\n")
    assert not (elsewhere / "x").exists()
    assert not [n for n in os.listdir(out) if n.endswith(".tmp")]


def test_files_opened_in_place_refuse_a_link_and_a_fifo(tmp_path: Path, elsewhere: Path) -> None:
    root = tmp_path / "run"
    RunDir(root)
    (root / "log.jsonl").symlink_to(elsewhere / "review-en-es.html")
    with pytest.raises(RunDirError, match=r"log.jsonl is a symbolic link"):
        BatchLog(root / "log.jsonl").append("k", 1)
    os.mkfifo(root / "fifo.jsonl")
    with pytest.raises(RunDirError, match=r"fifo.jsonl is not a regular file"):
        BatchLog(root / "fifo.jsonl").load()
    with pytest.raises(RunDirError, match=r"is not a regular file"):
        os.close(open_file(root / "fifo.jsonl", os.O_WRONLY | os.O_APPEND))
    assert snapshot(elsewhere) == {"review-en-es.html": b"someone else's page\n"}


def test_a_run_directory_that_is_itself_a_link_is_the_users_choice(
    tmp_path: Path, elsewhere: Path
) -> None:
    link = tmp_path / "latest"
    link.symlink_to(elsewhere, target_is_directory=True)
    RunDir(link)
    with atomic_write(link / "corpus" / "x") as fh:
        fh.write("x")
    assert (elsewhere / "corpus" / "x").read_text() == "x"


def test_an_out_below_a_guarded_run_is_made_through_no_link(
    tmp_path: Path, elsewhere: Path
) -> None:
    root = tmp_path / "run"
    root.mkdir()
    guard(root)
    (root / "evaluation").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(RunDirError, match=r"evaluation is a symbolic link"):
        output_dir(root / "evaluation" / "en-es")
    assert not (elsewhere / "en-es").exists()
    output_dir(tmp_path / "mine" / "out")  # outside any run: made as named
    assert (tmp_path / "mine" / "out").is_dir()


def _unblock_after(fifo: Path, seconds: float) -> threading.Thread:
    """Give a reader stuck on ``fifo`` its end after ``seconds`` (so a bug fails, not hangs)."""

    def run() -> None:
        stop = threading.Event()
        stop.wait(seconds)
        for _ in range(200):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                return
            except OSError:
                stop.wait(0.05)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("what", ["fifo", "directory"])
def test_a_manifest_that_is_not_a_file_is_one_line(tmp_path: Path, what: str) -> None:
    root = tmp_path / "run"
    root.mkdir()
    if what == "fifo":
        os.mkfifo(root / "manifest.json")
        _unblock_after(root / "manifest.json", 5)
    else:
        (root / "manifest.json").mkdir()
    with pytest.raises(RuntimeError, match=r"manifest.json is not a regular file"):
        RunDir(root)


def test_an_out_the_user_names_with_dot_dot_is_taken_as_named(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run / "review" / ".." / ".." / "copy"
    assert main(["review", "export", str(run), "--out", str(out), "--sample", "2"]) == 0
    capsys.readouterr()
    assert (tmp_path / "copy" / "review-en-es.html").is_file()
