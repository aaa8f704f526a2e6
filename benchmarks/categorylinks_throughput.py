"""categorylinks SQL dump reading speed: MB/s of SQL for ``--categorylinks``.

Writes a ~100 MB categorylinks dump in the format Wikimedia publishes (tests/sql_dumps.py:
the real header, ~1 MB ``INSERT`` lines, rows of 5,000 categories plus the wanted one at 1 %),
plain and gzip-compressed, then times ``category_page_ids`` (the byte search that parses only
the wanted category's rows) on both layouts (``cl_to``; ``cl_target_id`` with ``linktarget``)
and ``iter_table_rows`` parsing every row. MB = 10^6 bytes of decompressed SQL; the best of
``--repeat`` runs. The gzip figure includes decompression (one core).

Run::

    python benchmarks/categorylinks_throughput.py
    python benchmarks/categorylinks_throughput.py --mb 300 --repeat 3
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.extract.categorylinks import category_page_ids, iter_table_rows  # noqa: E402
from tests.sql_dumps import (  # noqa: E402
    CREATE,
    FOOTER,
    HEADER,
    categorylinks_rows,
    sql_dump,
    write_linktarget,
)

WANTED = "Nacidos en 1942"


def write_dump(directory: Path, layout: str, megabytes: float) -> tuple[Path, Path, int]:
    """A plain and a gzip dump of about ``megabytes`` MB; the number of wanted rows."""
    rng = random.Random(0)
    categories = [f"Categoría de prueba número {i}" for i in range(5000)]
    ids = {c.replace(" ", "_"): 1000 + i for i, c in enumerate([WANTED, *categories])}
    rows_per_insert = 8000  # ~1 MB lines, as in the real dumps
    plain = directory / f"{layout}-categorylinks.sql"
    wanted = 0
    with plain.open("wb") as fh:
        fh.write(HEADER.format(db="eswiki", table="categorylinks", create=CREATE[layout]).encode())
        page = 0
        while fh.tell() < megabytes * 1e6:
            links = []
            for _ in range(rows_per_insert * 4):
                page += 1
                if rng.random() < 0.01:
                    links.append((page, WANTED))
                    wanted += 1
                else:
                    links.append((page, rng.choice(categories)))
            rows = categorylinks_rows(links, layout, ids)
            data = sql_dump("categorylinks", CREATE[layout], rows, rows_per_insert=rows_per_insert)
            fh.write(b"".join(x for x in data.splitlines(True) if x.startswith(b"INSERT")))
        fh.write(FOOTER.format(table="categorylinks").encode())
    packed = plain.with_suffix(".sql.gz")
    with plain.open("rb") as src, gzip.open(packed, "wb", compresslevel=6) as dst:
        while block := src.read(1 << 20):
            dst.write(block)
    return plain, packed, wanted


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The shortest of ``repeat`` runs of ``fn``, in seconds, and what it returned."""
    times, result = [], 0
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def search(path: Path, linktarget: Path | None) -> int:
    """How many pages are in the wanted category (the byte search)."""
    return sum(1 for _ in category_page_ids(path, WANTED, linktarget=linktarget))


def parse_all(path: Path) -> int:
    """How many rows the dump holds (every tuple parsed)."""
    return sum(1 for _ in iter_table_rows(path, "categorylinks", ("cl_from",)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--mb", type=float, default=100.0, help="size of the SQL (default 100)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        targets = [(1000, 14, WANTED), *((1001 + i, 14, f"Otra {i}") for i in range(5000))]
        linktarget = write_linktarget(directory / "linktarget.sql.gz", targets)
        print(f"{'layout':<11} {'reader':<28} {'file':<5} {'SQL MB':>7} {'s':>6} {'MB/s':>7}")
        for layout in ("legacy", "linktarget"):
            plain, packed, wanted = write_dump(directory, layout, args.mb)
            size = plain.stat().st_size / 1e6
            lt = linktarget if layout == "linktarget" else None
            for path, kind in ((plain, "plain"), (packed, "gzip")):
                seconds, found = best(partial(search, path, lt), args.repeat)
                assert found == wanted, (found, wanted)
                name = "category_page_ids (search)"
                print(f"{layout:<11} {name:<28} {kind:<5} {size:7.1f} {seconds:6.2f} "
                      f"{size / seconds:7.1f}")  # fmt: skip
            seconds, rows = best(partial(parse_all, plain), 1)
            name = "iter_table_rows (every row)"
            print(f"{layout:<11} {name:<28} {'plain':<5} {size:7.1f} {seconds:6.2f} "
                  f"{size / seconds:7.1f}  ({rows:,} rows, {wanted:,} wanted)")  # fmt: skip


if __name__ == "__main__":
    main()
