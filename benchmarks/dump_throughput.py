"""Dump reading speed and memory: ``iter_pages``, + ``wikitext_to_text``, + ``clean_article``.

Streams a ``pages-articles`` dump (default: the real enwiki excerpt in ../shared/data) and
prints, per mode, the pages kept per second, the decompressed XML read per second (MB/s,
MB = 10^6 bytes) and the peak resident memory (``ru_maxrss``). Each mode runs in its own
process so one mode's peak does not hide the other's; the ``after imports`` column is that
process's peak before the dump was opened, so the difference is what reading the dump cost.

Run::

    .venv/bin/python benchmarks/dump_throughput.py
    .venv/bin/python benchmarks/dump_throughput.py PATH/TO/xxwiki-pages-articles.xml.bz2 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_DUMP = (
    REPO.parent
    / "shared"
    / "data"
    / "wikipedia-dumps"
    / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)
from occbio.extract.compressed import open_compressed  # noqa: E402

MODES = ("iter_pages", "iter_pages+wikitext_to_text", "iter_pages+wikitext_to_text+clean")


def decompressed_bytes(path: Path) -> int:
    """Size of the XML inside ``path`` (a truncated stream counts up to its break)."""
    total = 0
    with open_compressed(path)[0] as fh:
        try:
            while chunk := fh.read1(1 << 20):
                total += len(chunk)
        except EOFError:
            pass
    return total


def _max_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1e6 if sys.platform == "darwin" else peak * 1024 / 1e6  # bytes vs KiB


def measure(path: Path, mode: str, repeat: int, lang: str) -> dict[str, Any]:
    """Run one mode ``repeat`` times over the dump in this process; return its figures."""
    from occbio.config import CleanConfig
    from occbio.extract.clean import LanguageIdentifier, clean_article
    from occbio.extract.wikipedia_dump import TruncatedDumpError, iter_pages
    from occbio.extract.wikitext import wikitext_to_text
    from occbio.records import Article

    rss_after_imports = _max_rss_mb()
    convert = "wikitext_to_text" in mode
    clean = mode.endswith("+clean")
    identifier = LanguageIdentifier.for_langs([lang]) if clean else None
    pages = text_chars = sentences = 0
    stats: Counter[str] = Counter()
    truncated = False
    start = time.perf_counter()
    for _ in range(repeat):
        try:
            for page in iter_pages(path, stats=stats):
                pages += 1
                if convert:
                    text = wikitext_to_text(page.wikitext)
                    text_chars += len(text)
                if clean:
                    article = Article("Q0", lang, page.title, page.page_id, text)
                    sentences += len(
                        clean_article(article, config=CleanConfig(), identifier=identifier)
                    )
        except TruncatedDumpError:
            truncated = True
    seconds = time.perf_counter() - start
    return {
        "mode": mode,
        "pages": pages,
        "pages_read": stats["pages_read"],
        "seconds": seconds,
        "text_chars": text_chars,
        "sentences": sentences,
        "truncated": truncated,
        "rss_after_imports_mb": rss_after_imports,
        "peak_rss_mb": _max_rss_mb(),
    }


def run_in_child(path: Path, mode: str, repeat: int, lang: str) -> dict[str, Any]:
    """One mode in a fresh interpreter, so its peak memory is its own."""
    cmd = [sys.executable, __file__, str(path), "--repeat", str(repeat), "--child", mode]
    cmd += ["--lang", lang]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", nargs="?", type=Path, default=DEFAULT_DUMP)
    parser.add_argument(
        "--repeat", type=int, default=3, help="passes over the dump per mode (default 3)"
    )
    parser.add_argument("--lang", default="en", help="the dump's language (for cleaning)")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.dump.is_file():
        parser.error(f"dump not found: {args.dump} (the default needs ../shared/data)")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.child:
        print(json.dumps(measure(args.dump, args.child, args.repeat, args.lang)))
        return 0

    xml_mb = decompressed_bytes(args.dump) / 1e6
    print(
        f"dump: {args.dump.name}: {args.dump.stat().st_size / 1e6:.1f} MB on disk, "
        f"{xml_mb:.1f} MB of XML; {args.repeat} pass(es) per mode"
    )
    header = (
        f"{'mode':<34} {'pages':>7} {'read':>7} {'seconds':>8} {'pages/s':>8} "
        f"{'MB/s XML':>9} {'peak RSS MB':>12} {'after imports':>14}"
    )
    print(header)
    print("-" * len(header))
    for mode in MODES:
        r = run_in_child(args.dump, mode, args.repeat, args.lang)
        note = "  (truncated dump)" if r["truncated"] else ""
        print(
            f"{mode:<34} {r['pages']:>7} {r['pages_read']:>7} {r['seconds']:>8.2f} "
            f"{r['pages'] / r['seconds']:>8.0f} {xml_mb * args.repeat / r['seconds']:>9.1f} "
            f"{r['peak_rss_mb']:>12.1f} {r['rss_after_imports_mb']:>14.1f}{note}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
