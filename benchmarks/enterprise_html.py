"""Enterprise HTML dump reading speed and memory: ``iter_html_pages``, + ``html_to_text``.

Builds a Wikimedia Enterprise HTML dump (a gzip'd tar of NDJSON files, one article a line, in
the Enterprise article model; see occbio/extract/enterprise_html.py) of ``--articles`` lines
from the real Parsoid HTML in ../shared/data/wikipedia-html (Douglas Adams with its wikitext as
``article_body.wikitext``, Ray Charles, Hank Crawford, the Barack Obama lead; each under many
titles, ids and items), then prints, per mode, the pages yielded per second, the lines read per
second, the decompressed NDJSON read per second (MB/s, MB = 10^6 bytes) and the peak resident
memory (``ru_maxrss``; each mode in its own process).

Modes:

- ``all``: every article parsed and yielded (no titles asked for);
- ``wanted``: ``--wanted`` % of the titles asked for (the text stage's case): only the lines
  whose raw bytes can hold a wanted title or item are parsed;
- ``wanted, parse every line``: the same, with that shortcut off (every line JSON-parsed);
- ``wanted+html_to_text``: the wanted pages also turned into prose, in this one process (the
  text stage does that part on ``--workers`` processes).

Run::

    python benchmarks/enterprise_html.py
    python benchmarks/enterprise_html.py --articles 5000 --wanted 10 --keep /tmp/dump.json.tar.gz
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
HTML_DIR = REPO.parent / "shared" / "data" / "wikipedia-html"
SOURCES = [
    ("rest_html.response.html", "Douglas Adams"),
    ("Ray_Charles.html", "Ray Charles"),
    ("Hank_Crawford.html", "Hank Crawford"),
    ("FirstParagraphRelocation-Obama.html", "Barack Obama"),
]
MODES = ("all", "wanted", "wanted, parse every line", "wanted+html_to_text")


def build(path: Path, n: int) -> None:
    """A dump of ``n`` articles cycling through the real pages, 1,000 lines per member."""
    from tests.enterprise_factory import enterprise_article, write_enterprise_dump

    html = [(HTML_DIR / name).read_text(encoding="utf-8") for name, _ in SOURCES]
    parse = json.loads((HTML_DIR / "parse.response.json").read_text(encoding="utf-8"))
    wikitext = parse.get("parse", parse).get("wikitext", "")
    articles = []
    for i in range(n):
        k = i % len(SOURCES)
        articles.append(
            enterprise_article(
                f"{SOURCES[k][1]} {i}", i + 1, html[k], revision_id=10 * i + 7,
                qid=f"Q{1_000_000 + i}", wikitext=wikitext if k == 0 else "",
            )
        )  # fmt: skip
    write_enterprise_dump(path, articles, per_member=1000)


def wanted_titles(n: int, percent: float) -> list[str]:
    step = max(1, round(100 / percent)) if percent > 0 else n + 1
    return [f"{SOURCES[i % len(SOURCES)][1]} {i}" for i in range(0, n, step)]


def decompressed_bytes(path: Path) -> int:
    from occbio.extract.compressed import open_compressed

    total = 0
    with open_compressed(path)[0] as fh:
        while chunk := fh.read1(1 << 20):  # type: ignore[attr-defined]
            total += len(chunk)
    return total


def _max_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1e6 if sys.platform == "darwin" else peak * 1024 / 1e6


def measure(path: Path, mode: str, n: int, percent: float, repeat: int) -> dict[str, Any]:
    from occbio.extract import enterprise_html
    from occbio.extract.html_text import html_to_text

    rss_after_imports = _max_rss_mb()
    titles = None if mode == "all" else wanted_titles(n, percent)
    if mode == "wanted, parse every line":
        enterprise_html._Wanted.may_hold = lambda self, line: True  # type: ignore[method-assign]
    pages = chars = 0
    stats: Counter[str] = Counter()
    start = time.perf_counter()
    for _ in range(repeat):
        for page in enterprise_html.iter_html_pages(path, titles=titles, stats=stats):
            pages += 1
            if mode.endswith("html_to_text"):
                chars += len(html_to_text(page.html))
    seconds = time.perf_counter() - start
    return {
        "pages": pages,
        "lines": stats["lines_read"],
        "seconds": seconds,
        "chars": chars,
        "rss_after_imports_mb": rss_after_imports,
        "peak_rss_mb": _max_rss_mb(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=3000, help="lines in the dump (3000)")
    parser.add_argument("--wanted", type=float, default=10.0, help="%% of titles asked for (10)")
    parser.add_argument("--repeat", type=int, default=2, help="passes per mode (2)")
    parser.add_argument("--keep", type=Path, help="write the dump here and keep it")
    parser.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child", choices=[*MODES, "build"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child == "build":  # in a process of its own: its memory is not the modes' peak
        build(args.dump, args.articles)
        return 0
    if args.child:
        result = measure(args.dump, args.child, args.articles, args.wanted, args.repeat)
        print(json.dumps(result))
        return 0
    if not HTML_DIR.is_dir():
        parser.error(f"{HTML_DIR} is absent (the benchmark needs ../shared/data)")
    with tempfile.TemporaryDirectory() as tmp:
        dump = args.keep or Path(tmp) / "enwiki-NS0-BENCH-ENTERPRISE-HTML.json.tar.gz"
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, __file__, "--child", "build", "--dump", str(dump),
             "--articles", str(args.articles)],
            check=True,
        )  # fmt: skip
        built = time.perf_counter() - start
        ndjson_mb = decompressed_bytes(dump) / 1e6
        print(
            f"dump: {args.articles:,} articles, {dump.stat().st_size / 1e6:.1f} MB on disk, "
            f"{ndjson_mb:.1f} MB of tar/NDJSON (built in {built:.1f} s); {args.wanted:g} % "
            f"of the titles wanted; {args.repeat} pass(es) per mode"
        )
        header = (
            f"{'mode':<27} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'lines/s':>8} "
            f"{'MB/s':>6} {'peak RSS MB':>12} {'after imports':>14}"
        )
        print(header)
        print("-" * len(header))
        for mode in MODES:
            cmd = [sys.executable, __file__, "--child", mode, "--dump", str(dump)]
            cmd += ["--articles", str(args.articles), "--wanted", str(args.wanted)]
            cmd += ["--repeat", str(args.repeat)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(
                f"{mode:<27} {r['pages'] // args.repeat:>6} {r['seconds']:>8.2f} "
                f"{r['pages'] / r['seconds']:>8.0f} {r['lines'] / r['seconds']:>8.0f} "
                f"{ndjson_mb * args.repeat / r['seconds']:>6.0f} {r['peak_rss_mb']:>12.1f} "
                f"{r['rss_after_imports_mb']:>14.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
