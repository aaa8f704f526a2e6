"""One process per run directory: a second one is refused with who holds it; a killed
holder never blocks the next run; an --out that cannot be a directory is a one-line error."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.runlock import LOCK_FILE, RunLocked, run_lock

#: Holds the lock until its stdin closes (or it is killed): never for a set time, so a slow
#: machine cannot see the lock go early.
_HOLD = """
import sys
from pathlib import Path
from occbio.runlock import run_lock
with run_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""

#: Hang guard only: a second run that waited for the lock instead of being refused.
HANG_GUARD = 300


def _holder(out: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def _occbio(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "occbio.cli", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


def test_a_second_process_is_refused_and_a_killed_holder_blocks_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    holder = _holder(out)
    try:
        # the holder never lets go: a run that waited for the lock would hit the hang guard
        refused = _occbio("entities", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q")
        assert refused.returncode == 1
        err = refused.stderr
        assert "is in use by another occbio run" in err and f"pid {holder.pid}" in err
        assert "since" in err and "Traceback" not in err
        assert not (out / "manifest.json").exists(), "the refused run wrote nothing"
        # stats only reads: not refused while another process works (here: nothing to show)
        main(["stats", "--out", str(out)])
        assert "in use" not in capsys.readouterr().err
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    capsys.readouterr()
    # the holder was killed -9: its lock went with it
    assert main(["entities", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]) == 0
    assert (out / LOCK_FILE).exists()


def test_the_lock_is_exclusive_within_and_across_processes(tmp_path: Path) -> None:
    with (
        run_lock(tmp_path),
        pytest.raises(RunLocked, match=str(os.getpid())),
        run_lock(tmp_path),
    ):
        pass  # pragma: no cover
    with run_lock(tmp_path):  # released on exit
        pass


def test_an_out_that_cannot_be_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert main(["entities", "--sample", "--out", str(a_file), "-q"]) == 1
    err = capsys.readouterr().err
    assert "cannot use" in err and "run directory" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_deleting_the_lock_file_lets_no_second_run_in(tmp_path: Path) -> None:
    """The lock is on the run directory itself: removing (or replacing) ``.occbio.lock`` while
    a run holds it changes nothing."""
    out = tmp_path / "run"
    holder = _holder(out)
    try:
        (out / LOCK_FILE).unlink()
        args = ("entities", "--sample", "--langs", "en,es", "--out", str(out), "-q")
        refused = _occbio(*args)
        assert refused.returncode == 1 and "is in use by another occbio run" in refused.stderr
        (out / LOCK_FILE).write_text("{}")  # a fresh file in its place: still refused
        refused = _occbio(*args)
        assert refused.returncode == 1 and "is in use by another occbio run" in refused.stderr
        assert not (out / "manifest.json").exists()
    finally:
        holder.communicate("")  # closes its stdin: it lets go and exits
    assert _occbio(*args).returncode == 0


def test_a_lock_file_that_is_a_link_is_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (out / LOCK_FILE).symlink_to(victim)
    assert main(["entities", "--sample", "--langs", "en,es", "--out", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: ") and err.count("\n") == 1, err
    assert LOCK_FILE in err and "symbolic link" in err
    assert victim.read_text() == "keep me\n"
    assert not (out / "manifest.json").exists()
