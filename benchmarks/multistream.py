"""Multistream index vs full scan: the time to take wanted pages out of a pages-articles dump.

Builds a ``pages-articles-multistream`` dump and its index from the real enwiki excerpt in
../shared/data: the excerpt's 206 pages (real articles, redirects and one project page),
copied with new titles and ids until the XML reaches ``--mb`` MB, 100 pages to a bz2 stream as
Wikimedia writes them (``bzip2 -9``). Then, for wanted titles drawn at random (seeded) from 0.1 %,
1 %, 10 % and 100 % of the pages, it times

* the full scan: :func:`iter_pages` over the whole dump (what a dump without an index costs;
  its bz2 is decompressed block-parallel on ``$OCCBIO_DECOMPRESS_THREADS`` threads, by default
  the cores up to 4);
* :func:`read_pages` through the index, with each ``--workers`` count (the time includes
  reading the index and checking it against the dump);

and checks that both give the same pages. ``index overhead`` is the index path with no wanted
title: reading the index and checking it. Each figure is the best of ``--repeat`` runs.
MB = 10^6 bytes.

Run::

    .venv/bin/python benchmarks/multistream.py
    .venv/bin/python benchmarks/multistream.py --mb 300 --workers 1,2,4 --repeat 3
"""

from __future__ import annotations

import argparse
import bz2
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_SOURCE = (
    REPO.parent
    / "shared"
    / "data"
    / "wikipedia-dumps"
    / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)
from occbio.extract.compressed import default_threads  # noqa: E402
from occbio.extract.multistream import DumpRead, read_pages, write_multistream  # noqa: E402
from occbio.extract.wikipedia_dump import Page, iter_pages  # noqa: E402

DUMP_NAME = "enwiki-20990101-pages-articles-multistream.xml.bz2"
FRACTIONS = (0.001, 0.01, 0.1, 1.0)
_PAGE_RE = re.compile(rb"  <page>.*?</page>\n", re.S)
_TITLE_RE = re.compile(rb"<title>([^<]*)</title>")
_ID_RE = re.compile(rb"(</ns>\s*<id>)(\d+)(</id>)")


def build(source: Path, folder: Path, mb: float) -> tuple[Path, list[str], int, int]:
    """The dump (index beside it), every page's title, the XML's size in bytes and the
    number of pages in ``source``."""
    xml = bz2.decompress(source.read_bytes())
    header = xml[: xml.index(b"</siteinfo>") + len(b"</siteinfo>\n")]
    originals = [m.group(0) for m in _PAGE_RE.finditer(xml)]
    titles: list[str] = []
    size = len(header)

    def pages() -> Iterator[tuple[int, str, bytes]]:
        nonlocal size
        copy = 0
        while size < mb * 1e6:
            for page in originals:
                title_match = _TITLE_RE.search(page)
                id_match = _ID_RE.search(page)
                assert title_match and id_match
                title = title_match.group(1).decode()
                page_id = int(id_match.group(2)) + copy * 1_000_000
                if copy:
                    title = f"{title} ({copy})"
                    page = _TITLE_RE.sub(
                        lambda _m, t=title: b"<title>" + t.encode() + b"</title>", page, count=1
                    )
                    page = _ID_RE.sub(
                        lambda m, i=page_id: m.group(1) + str(i).encode() + m.group(3),
                        page,
                        count=1,
                    )
                titles.append(title)
                size += len(page)
                yield page_id, title, page
            copy += 1

    path = folder / DUMP_NAME
    write_multistream(path, header, pages())
    return path, titles, size + len(b"</mediawiki>\n"), len(originals)


def _cpu() -> float:
    """CPU seconds of this process (all its threads) and of its ended child processes."""
    me, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def best_of(repeat: int, run: Callable[[], list[Page]]) -> tuple[float, float, list[Page]]:
    """The shortest wall-clock time of ``repeat`` runs, that run's CPU time, and its pages."""
    best, best_cpu, pages = float("inf"), 0.0, []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu()
        pages = run()
        seconds = time.perf_counter() - start
        if seconds < best:
            best, best_cpu = seconds, _cpu() - cpu
    return best, best_cpu, pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="a real XML dump")
    parser.add_argument("--mb", type=float, default=100.0, help="XML size to build (MB)")
    parser.add_argument("--workers", default="1,2", help="worker counts to time (default 1,2)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure (best kept)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--work", type=Path, help="folder for the built dump (default: a temp)")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        parser.error(f"dump not found: {args.source} (the default needs ../shared/data)")
    worker_counts = [int(w) for w in args.workers.split(",")]
    folder = args.work or Path(tempfile.mkdtemp(prefix="occbio-multistream-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        start = time.perf_counter()
        path, titles, xml_bytes, originals = build(args.source, folder, args.mb)
        built = time.perf_counter() - start
        streams = -(-len(titles) // 100)
        print(
            f"dump: {len(titles):,} pages (the {originals} of {args.source.name}, "
            f"{-(-len(titles) // originals)} times), {xml_bytes / 1e6:.1f} MB of XML, "
            f"{path.stat().st_size / 1e6:.1f} MB "
            f"bz2 in {streams:,} streams of 100 pages; built in {built:.1f} s"
        )
        print(
            f"full scan: bz2 on {default_threads()} thread(s); index path: "
            f"{', '.join(map(str, worker_counts))} worker process(es); best of {args.repeat}"
        )
        run_fractions(path, titles, worker_counts, args.repeat, args.seed)
    finally:
        if args.work is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


def run_fractions(
    path: Path, titles: list[str], worker_counts: list[int], repeat: int, seed: int
) -> None:
    def index_path(wanted: Collection[str] | None, workers: int) -> Callable[[], list[Page]]:
        def run() -> list[Page]:
            stats: Counter[str] = Counter()
            read = DumpRead()
            pages = list(read_pages(path, titles=wanted, stats=stats, workers=workers, report=read))
            last[workers] = stats
            if read.method != "index":
                raise SystemExit(f"the index was not used: {read.describe()}")
            return pages

        return run

    last: dict[int, Counter[str]] = {}
    overhead, _, _ = best_of(repeat, index_path([], 1))
    print(f"index overhead (read the index, check it against the dump): {overhead:.2f} s")
    print("times: wall-clock seconds (CPU seconds, worker processes included)")
    cols = "".join(f" {f'index {w}w':>14} {f'speedup {w}w':>11}" for w in worker_counts)
    header = (
        f"{'wanted':>7} {'titles':>7} {'kept':>6} {'streams read':>13} {'pages read':>11} "
        f"{'full scan':>14}{cols}"
    )
    print(header)
    print("-" * len(header))
    rng = random.Random(seed)
    for fraction in FRACTIONS:
        n = max(1, round(fraction * len(titles)))
        wanted = None if fraction == 1.0 else rng.sample(titles, n)

        def scan(wanted: Collection[str] | None = wanted) -> list[Page]:
            return list(iter_pages(path, titles=wanted))

        full_s, full_cpu, reference = best_of(repeat, scan)
        row = ""
        for workers in worker_counts:
            seconds, cpu, pages = best_of(repeat, index_path(wanted, workers))
            if pages != reference:
                raise SystemExit(f"{fraction:.1%}, {workers} worker(s): not the full scan's pages")
            row += f" {_timing(seconds, cpu):>14} {full_s / seconds:>10.1f}x"
        stats = last[worker_counts[0]]
        read = f"{stats['streams_read']:,}/{stats['streams_total']:,}"
        print(
            f"{fraction:>7.1%} {n:>7,} {len(reference):>6,} {read:>13} "
            f"{stats['pages_read']:>11,} {_timing(full_s, full_cpu):>14}{row}"
        )


def _timing(seconds: float, cpu: float) -> str:
    return f"{seconds:.2f} ({cpu:.2f})"


if __name__ == "__main__":
    raise SystemExit(main())
