"""One process per run directory: a second one is refused with who holds it; a killed
holder never blocks the next run; an --out that cannot be a directory is a one-line error."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.runlock import LOCK_FILE, RunLocked, run_lock

_HOLD = """
import sys, time
from pathlib import Path
from occbio.runlock import run_lock
with run_lock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


def _holder(out: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(out)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_process_is_refused_and_a_killed_holder_blocks_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    holder = _holder(out)
    try:
        start = time.monotonic()
        assert main(["entities", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]) == 1
        err = capsys.readouterr().err
        assert time.monotonic() - start < 5, "refused at once, not after waiting"
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
