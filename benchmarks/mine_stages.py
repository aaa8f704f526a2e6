"""`occbio mine --sample` stage by stage: wall time and peak memory of each stage.

Each stage runs as its own `occbio STAGE` process on the same run directory (exactly what
`occbio mine` does in one process), so its peak RSS is its own: `os.wait4` gives the child's
resource usage (worker processes of the text stage included in the times; the peak is the
largest single process). A second `occbio mine` over the finished run shows the cost of
skipping everything.

    python benchmarks/mine_stages.py [--langs en,es,ca] [--extra "--balance gebio"]
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STAGES = ["entities", "text", "align", "balance", "write"]


def _run(args: list[str]) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "occbio.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _pid, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"occbio {' '.join(args)} failed:\n{err}")
    return took, usage.ru_maxrss / 1024  # kB -> MB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", default="en,es,ca")
    parser.add_argument("--extra", default="", help="more options for every stage")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        common = ["--sample", "--quiet", "--langs", args.langs, "--out", f"{tmp}/run"]
        common += shlex.split(args.extra)
        print(f"occbio mine --sample --langs {args.langs} {args.extra}".rstrip())
        print(f"{'stage':<10} {'wall s':>8} {'peak RSS MB':>12}")
        total = 0.0
        for stage in STAGES:
            took, peak = _run([stage, *common])
            total += took
            print(f"{stage:<10} {took:>8.2f} {peak:>12.0f}")
        print(f"{'total':<10} {total:>8.2f}")
        took, peak = _run(["mine", *common])
        print(f"{'re-run':<10} {took:>8.2f} {peak:>12.0f}   (every stage skipped)")
        print(f"run directory size: {_size(Path(tmp) / 'run') / 1e6:.1f} MB")


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


if __name__ == "__main__":
    main()
