"""Kill `occbio mine` at random moments, resume it, and compare every output with a clean run.

A reference run (`occbio mine --sample`) is made first. Then, ``--kills`` times, a fresh run
directory is started and the same command is killed with SIGKILL after a random delay (between
0.2 s and the reference run's wall time), possibly several times in a row (``--per-run``), and
finally run to the end. Every file of the finished directory (the manifest, the lock file and
the embedding cache aside) is compared byte for byte with the reference, and the counts each
stage recorded in the manifest are compared with those of an uninterrupted run (with a cold
cache, the split between sentences encoded and read from the cache is left out: it depends
on when the kill came). Prints one line per run and a summary ``N kills, N identical``.

    python benchmarks/kill_resume.py                 # 10 runs, 1 kill each (~3-4 minutes)
    python benchmarks/kill_resume.py --kills 30 --per-run 3 --seed 7

The embedding cache is shared by all runs (``embeddings/`` copied from the reference), so the
kills land in every stage rather than mostly in encoding; ``--cold`` encodes in every run.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Not compared: run bookkeeping (times, versions, resume counters), the lock, the caches.
SKIP = ("manifest.json", ".occbio.lock", "embeddings/", "align/background/")


def _command(out: Path) -> list[str]:
    return [sys.executable, "-m", "occbio.cli", "mine", "--sample", "--langs", "en,es,ca",
            "--quiet", "--out", str(out)]  # fmt: skip


def _files(root: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_file() and not any(name == s or name.startswith(s) for s in SKIP):
            out[name] = path
    return out


def _differences(ref: Path, got: Path) -> list[str]:
    want, have = _files(ref), _files(got)
    diff = sorted(set(want) ^ set(have))
    diff += [n for n in sorted(set(want) & set(have)) if not filecmp.cmp(want[n], have[n], False)]
    return diff


#: Counts that depend on what the cache held when a process started, not on the run.
CACHE_COUNTS = ("sentences_embedded", "sentences_from_cache")


def _counts(run: Path, cold: bool) -> dict[str, object]:
    stages = json.loads((run / "manifest.json").read_text())["stages"]
    return {
        f"{stage}.{key}": value
        for stage, record in stages.items()
        for key, value in record.get("counts", {}).items()
        if not (cold and key in CACHE_COUNTS)
    }


def _count_differences(ref: Path, got: Path, cold: bool) -> list[str]:
    want, have = _counts(ref, cold), _counts(got, cold)
    return [
        f"manifest {k}: {have.get(k)} (uninterrupted: {want.get(k)})"
        for k in sorted(set(want) | set(have))
        if want.get(k) != have.get(k)
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=10, help="runs, each killed --per-run times")
    ap.add_argument("--per-run", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cold", action="store_true", help="no shared embedding cache")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="occbio-kills-") as tmp:
        ref = Path(tmp) / "reference"
        subprocess.run(_command(ref), check=True, capture_output=True)
        start = time.perf_counter()
        warm = Path(tmp) / "warm"
        shutil.copytree(ref / "embeddings", warm / "embeddings")
        subprocess.run(_command(warm), check=True, capture_output=True)
        wall = time.perf_counter() - start
        print(f"reference run done; a run with a warm cache takes {wall:.1f} s")
        identical = kills = killed_identical = 0
        for i in range(args.kills):
            out = Path(tmp) / f"run{i}"
            if not args.cold:
                shutil.copytree(ref / "embeddings", out / "embeddings")
            delays = []
            was_killed = False
            for _ in range(args.per_run):
                delay = rng.uniform(0.2, max(0.3, wall))
                proc = subprocess.Popen(
                    _command(out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
                time.sleep(delay)
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                    was_killed = True
                    delays.append(f"{delay:.1f}s")
                else:
                    delays.append(f"(finished before {delay:.1f}s)")
                proc.wait()
            done = subprocess.run(_command(out), capture_output=True, text=True)
            diff = (
                _differences(ref, out) + _count_differences(warm, out, args.cold)
                if done.returncode == 0
                else [f"(exit status {done.returncode})"]
            )
            identical += not diff
            killed_identical += was_killed and not diff
            verdict = "identical" if not diff else "DIFFERENT: " + ", ".join(diff[:5])
            print(f"run {i + 1}: killed at {', '.join(delays)} -> {verdict}")
            shutil.rmtree(out)
        print(f"{args.kills} runs, {identical} identical to the reference")
        if args.per_run == 1:
            print(f"{kills} kills, {killed_identical} identical")
        else:
            print(f"{kills} kills in {args.kills} runs, {killed_identical} killed runs identical")
    return 0 if identical == args.kills else 1


if __name__ == "__main__":
    sys.exit(main())
