"""The whole `text` stage on a real dump: pages/s and sentences/s with 1 and N workers.

Every main-namespace article of the dump (default: the real enwiki excerpt in ../shared/data)
becomes one "person" of a generated Wikidata dump, so the stage extracts and cleans them all
through the same code as `occbio text`.

    python benchmarks/text_stage.py [DUMP] [--lang en] [--workers 1 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.cli import main as occbio  # noqa: E402
from occbio.extract.wikipedia_dump import TruncatedDumpError, iter_pages  # noqa: E402
from tests.factories import human, write_wikidata_dump  # noqa: E402

DEFAULT_DUMP = (
    REPO.parent
    / "shared/data/wikipedia-dumps"
    / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", nargs="?", type=Path, default=DEFAULT_DUMP)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    titles: list[str] = []
    try:
        for page in iter_pages(args.dump):
            titles.append(page.title)
    except TruncatedDumpError as exc:
        print(exc)
    with tempfile.TemporaryDirectory() as tmp:
        people = [
            human(f"Q{i + 1}", t, "Q6581072", [], {args.lang: t}) for i, t in enumerate(titles)
        ]
        wd = write_wikidata_dump(Path(tmp) / "wd.json.bz2", people)
        print(f"{args.dump.name}: {len(titles)} articles")
        print(f"{'workers':>7} {'seconds':>8} {'pages/s':>8} {'sentences/s':>12}")
        for workers in args.workers:
            out = Path(tmp) / f"run{workers}"
            start = time.perf_counter()
            code = occbio(
                ["text", "--langs", args.lang, "--entities-dump", str(wd), "-q",
                 "--dump", f"{args.lang}={args.dump}", "--workers", str(workers),
                 "--out", str(out)]
            )  # fmt: skip
            seconds = time.perf_counter() - start
            if code != 0:
                raise SystemExit(f"occbio text failed with exit status {code}")
            counts = json.loads((out / "manifest.json").read_text())["stages"]["text"]["counts"]
            pages, sentences = counts[f"{args.lang}.articles"], counts[f"{args.lang}.sentences"]
            print(
                f"{workers:>7} {seconds:>8.2f} {pages / seconds:>8.1f} {sentences / seconds:>12.0f}"
            )


if __name__ == "__main__":
    main()
