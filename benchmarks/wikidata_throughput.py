"""Entities/s and peak memory of the Wikidata dump reader on a synthetic dump of real entities.

The dump is built from a real entity JSON (Henning Christophersen, Q646148, from
../shared/data/wikidata) repeated under fresh ids; 1 line in 10 is a human, the others are the
same entity turned into a city, as in the real dump where most items are not people.

    python benchmarks/wikidata_throughput.py [--entities 50000]
"""

from __future__ import annotations

import argparse
import bz2
import copy
import gzip
import json
import multiprocessing
import resource
import tempfile
import time
from collections import Counter
from pathlib import Path

from occbio.extract.wikidata_dump import iter_humans

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wikidata" / "Q646148.json"
_DROP = ("pageid", "ns", "title", "lastrevid", "modified")


def _lines(n: int) -> tuple[str, str]:
    base = json.loads(SHARED.read_text("utf-8"))
    base = {k: v for k, v in base.items() if k not in _DROP}
    human = json.dumps(base, separators=(",", ":"), ensure_ascii=False)
    city = copy.deepcopy(base)
    for st in city["claims"]["P31"]:
        st["mainsnak"]["datavalue"]["value"] = {
            "entity-type": "item",
            "numeric-id": 515,
            "id": "Q515",
        }
    for prop in ("P21", "P106"):
        city["claims"].pop(prop, None)
    return human, json.dumps(city, separators=(",", ":"), ensure_ascii=False)


def build(directory: Path, n: int) -> dict[str, Path]:
    human, city = _lines(n)
    body = ["["]
    for i in range(n):
        line = (human if i % 10 == 0 else city).replace('"id":"Q646148"', f'"id":"Q{i + 1}"', 1)
        body.append(line + ("," if i < n - 1 else ""))
    body.append("]")
    data = ("\n".join(body) + "\n").encode()
    paths = {"plain": directory / "dump.json", "gz": directory / "dump.json.gz"}
    paths["plain"].write_bytes(data)
    paths["gz"].write_bytes(gzip.compress(data, 6))
    paths["bz2"] = directory / "dump.json.bz2"
    paths["bz2"].write_bytes(bz2.compress(data, 9))
    return paths


def _read(path: Path, queue: multiprocessing.Queue) -> None:
    """In a fresh process, so the peak memory is the reader's own."""
    stats: Counter[str] = Counter()
    start = time.perf_counter()
    kept = sum(1 for _ in iter_humans(path, ["en", "es", "ca"], min_langs=1, stats=stats))
    dt = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((stats["entities_read"], kept, dt, rss))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=50_000)
    args = parser.parse_args()
    if not SHARED.exists():
        raise SystemExit(f"needs the real entity JSON at {SHARED}")
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        # Build in a child so this process stays small: a forked reader starts with its
        # parent's peak RSS on Linux, which would hide the reader's own.
        builder = ctx.Process(target=build, args=(Path(tmp), args.entities))
        builder.start()
        builder.join()
        paths = {
            k: Path(tmp) / f"dump.json{ext}"
            for k, ext in (("plain", ""), ("gz", ".gz"), ("bz2", ".bz2"))
        }
        size_mb = paths["plain"].stat().st_size / 1e6
        print(f"{args.entities} entities, {size_mb:.0f} MB uncompressed, 10% humans")
        print(f"{'file':8} {'entities/s':>11} {'MB/s':>7} {'kept':>6} {'peak RSS MB':>12}")
        for kind, path in paths.items():
            queue = ctx.Queue()
            proc = ctx.Process(target=_read, args=(path, queue))
            proc.start()
            read, kept, dt, rss = queue.get()
            proc.join()
            rate = read / dt
            print(f"{kind:8} {rate:11.0f} {size_mb / dt:7.1f} {kept:6d} {rss:12.1f}")


if __name__ == "__main__":
    main()
