"""What a kill, a damaged chunk or a moved run directory left half done (issue #29, items 11-14),
each fed for real: a `occbio text` killed -9 while it joins a stream's parts, a committed chunk
holding invalid bytes under the name of its own SHA-256, `mv RUN RUN.old` under a paused `mine`
and a second `mine` on `RUN`, a run on a Dask LocalCluster killed -9."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_resume import CONSUMED_AT_LEAST, HANG_GUARD, KILL_AT, kill_at

ARGS = ["--sample", "--langs", "en,es,ca", "--checkpoint-every", "2", "--workers", "1", "-q"]
LANGS = ("en", "es", "ca")

#: ``python -c KILL_IN_JOIN LANG STREAM ARGV...``: `occbio ARGV` that kills itself (SIGKILL) in the
#: text stage's join of LANG's STREAM, once its first part is copied into the output's temporary.
KILL_IN_JOIN = """
import os, signal, sys
from occbio import run
from occbio.cli import main

lang, stream = sys.argv[1], sys.argv[2]
join = run._join_part

def join_then_die(part, *args):
    join(part, *args)
    if part.parent.parent.name == "text" and part.parent.name == lang:
        if part.name.startswith(stream + "."):
            os.kill(os.getpid(), signal.SIGKILL)

run._join_part = join_then_die
sys.exit(main(sys.argv[3:]))
"""

#: ``python -c PAUSE_AT STAGE CONDITION ARGV...``: `occbio ARGV` that, after the first manifest
#: save where STAGE is running and CONDITION holds, prints ``paused`` and waits for a line on
#: its standard input (a pause that depends on no clock).
PAUSE_AT = """
import sys
from occbio import run
from occbio.cli import main

stage, condition = sys.argv[1], sys.argv[2]
save = run.RunDir.save
paused = []

def save_then_maybe_pause(self):
    save(self)
    rec = self.manifest["stages"].get(stage, {})
    if not paused and rec.get("status") == "running" and eval(condition, {"rec": rec}):
        paused.append(True)
        print("paused", flush=True)
        sys.stdin.readline()

run.RunDir.save = save_then_maybe_pause
sys.exit(main(sys.argv[3:]))
"""


def _occbio(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "occbio.cli", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def _text_files(run: Path) -> dict[str, bytes]:
    """Every file of the text stage's folder (hidden ones and leftovers too), by name."""
    return {p.name: p.read_bytes() for p in sorted((run / "text").iterdir())}


def _text_counts(run: Path) -> dict[str, float]:
    return json.loads((run / "manifest.json").read_text())["stages"]["text"]["counts"]


def _leftovers(run: Path) -> list[str]:
    """What a finished run must not hold: temporaries, chunks, Dask scratch folders."""
    return sorted(
        p.relative_to(run).as_posix()
        for p in run.rglob("*")
        if p.name.endswith(".tmp") or p.name.startswith(".dask-") or p.name == ".parts"
    )


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted `occbio text` of the sample."""
    ref = tmp_path_factory.mktemp("reference") / "run"
    done = _occbio("text", *ARGS, "--out", str(ref))
    assert done.returncode == 0, done.stderr
    return ref


def _assert_like_reference(out: Path, reference: Path) -> None:
    assert _text_files(out) == _text_files(reference)
    assert _text_counts(out) == _text_counts(reference)
    assert _leftovers(out) == []


# 11. a kill while the parts of a stream are joined into its file


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_a_kill_while_joining_a_hidden_stream_leaves_no_temporary_after_resume(
    reference: Path, tmp_path: Path, lang: str
) -> None:
    """Killed while `.LANG.skipped.jsonl` (the stage's own list, no output) is being joined: its
    temporary `..LANG.skipped.jsonl.XXXXXXXX.tmp` goes when the resumed writer opens."""
    out = tmp_path / "run"
    killed = subprocess.run(
        [sys.executable, "-c", KILL_IN_JOIN, lang, "skipped", "text", *ARGS, "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=HANG_GUARD,
    )
    assert killed.returncode == -signal.SIGKILL, "the run ended before it was killed"
    (tmp,) = (out / "text").glob(f"..{lang}.skipped.jsonl.*.tmp")  # what the kill left

    resumed = _occbio("text", *ARGS, "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert not tmp.exists()
    _assert_like_reference(out, reference)


# 12. a committed chunk whose name matches its damaged content


def _damage(part: Path, content: bytes) -> Path:
    """Replace ``part`` by ``content``, under the name of content's own SHA-256 (so the check
    of the name passes)."""
    stream, chunk, _, ext = part.name.split(".")
    name = f"{stream}.{chunk}.{hashlib.sha256(content).hexdigest()[:16]}.{ext}"
    part.unlink()
    damaged = part.with_name(name)
    damaged.write_bytes(content)
    return damaged


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["invalid-utf-8", "not-json", "emptied"])
def test_a_damaged_chunk_under_its_own_hash_is_named_set_aside_and_redone(
    reference: Path, tmp_path: Path, damage: str
) -> None:
    out = tmp_path / "run"
    kill_at("text", CONSUMED_AT_LEAST.format(at=6), ["text", *ARGS, "--out", str(out)])
    (part,) = (out / ".parts" / "text" / "en").glob("sentences.000001.*.jsonl")
    data = part.read_bytes()
    if damage == "invalid-utf-8":
        at = len(data) // 2
        data = data[:at] + b"\xff" + data[at + 1 :]
    elif damage == "not-json":
        data = data[: len(data) // 2] + b"\n"  # a line cut in two: valid UTF-8, no JSON
    else:
        data = b""  # sound, but not what was committed: the manifest's chain of names tells
    part = _damage(part, data)

    resumed = _occbio("text", *ARGS, "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    if damage == "emptied":
        assert f"the committed parts of sentences in {part.parent} are not those" in resumed.stderr
    else:
        assert f"the committed part {part} is damaged" in resumed.stderr
        aside = out / "damaged" / "text" / "en" / f"{part.name}.damaged"
        assert f"set aside as {aside}" in resumed.stderr
        assert aside.read_bytes() == data  # kept for a look, never joined
        shutil.rmtree(out / "damaged")
    _assert_like_reference(out, reference)
    assert json.loads((out / "manifest.json").read_text())["stages"]["text"]["resumed"] == 1

    again = _occbio("text", *ARGS, "--out", str(out))  # the next run finds it done
    assert again.returncode == 0 and "text: already done" in again.stdout, again.stderr


# 13. the run directory moved while a run works in it


@pytest.mark.slow
def test_a_run_directory_moved_mid_run_refuses_a_second_mine_and_stops_the_first(
    reference: Path, tmp_path: Path
) -> None:
    run, moved = tmp_path / "run", tmp_path / "run.old"
    first = subprocess.Popen(
        [sys.executable, "-c", PAUSE_AT, "text", CONSUMED_AT_LEAST.format(at=6),
         "mine", *ARGS, "--out", str(run)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert first.stdout is not None
        lines = []
        while (line := first.stdout.readline()) and line.strip() != "paused":
            lines.append(line)
        assert line.strip() == "paused", lines
        os.rename(run, moved)  # mv run run.old

        second = _occbio("mine", *ARGS, "--out", str(run))
        assert second.returncode == 1, second.stdout
        assert "is in use by another occbio run" in second.stderr
        assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
        assert not (run / "manifest.json").exists()

        out, err = first.communicate("\n", timeout=HANG_GUARD)  # the first goes on ...
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    # ... and stops at its next commit, writing nothing where it started
    assert first.returncode == 1, out
    errors = [line for line in err.splitlines() if line.startswith("occbio: error:")]
    assert len(errors) == 1 and "Traceback" not in err, err
    assert f"the run directory {run} was moved or replaced" in errors[0]
    assert not run.exists() or list(run.iterdir()) == []

    resumed = _occbio("text", *ARGS, "--out", str(moved))  # where it went, it resumes
    assert resumed.returncode == 0, resumed.stderr
    _assert_like_reference(moved, reference)
    third = _occbio("text", *ARGS, "--out", str(run))  # and the path is free again
    assert third.returncode == 0, third.stderr
    _assert_like_reference(run, reference)


# 14. a killed run's Dask scratch folder


@pytest.mark.slow
def test_a_killed_dask_runs_scratch_folder_goes_on_resume(reference: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    args = ["text", *ARGS, "--executor", "dask", "--out", str(out)]
    # in a process group of its own: the cluster's processes the kill orphans are ended after
    killed = subprocess.Popen(
        [sys.executable, "-c", KILL_AT, "text", CONSUMED_AT_LEAST.format(at=6), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert killed.wait(timeout=HANG_GUARD) == -signal.SIGKILL, "it ended before the kill"
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(killed.pid, signal.SIGKILL)
        killed.wait()
    (scratch,) = out.glob(".dask-*")
    assert (scratch / "dask-scratch-space").is_dir()

    resumed = _occbio(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert not scratch.exists()
    _assert_like_reference(out, reference)


def test_only_occbios_own_scratch_folders_are_removed(tmp_path: Path) -> None:
    from occbio.executor import remove_scratch_leftovers

    for name in (".dask-ab_c1234", ".matplotlib-x9y8z7w6", ".dask-keep", "dask-abcdefgh"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "f").write_text("x")
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    (tmp_path / ".dask-linkedto").symlink_to(elsewhere)  # a link: never followed, kept
    (tmp_path / ".dask-aaaaaaaa").write_text("a file, not a scratch folder")
    remove_scratch_leftovers(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".dask-aaaaaaaa",
        ".dask-keep",
        ".dask-linkedto",
        "dask-abcdefgh",
    ]
    assert elsewhere.is_dir()
