"""Fetching biographies from the web: pages/s at a concurrency and rate, and the cache's hit rate.

A local fake Wikipedia (tests/wiki_server.py) serves N copies of the real Douglas Adams REST
page (265 kB, ../shared/data/wikipedia-html, or a small written page when absent) with a fixed
delay per request, standing in for the network's round trip. Each setting fetches every page
once into an empty cache, then a second client on the same cache fetches them all again: that
run must make no request at all (hit rate 100 %). Last, html_to_text's own speed.

    python benchmarks/web_fetch.py [--pages 300] [--delay 0.05] [--concurrency 1 4 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.config import HttpConfig, TextConfig  # noqa: E402
from occbio.extract.html_text import html_to_text  # noqa: E402
from occbio.extract.wikipedia_web import WikipediaWebClient  # noqa: E402
from tests.wiki_server import Raw, serve_wiki  # noqa: E402

REAL_PAGE = REPO.parent / "shared/data/wikipedia-html/rest_html.response.html"


def _page() -> str:
    if REAL_PAGE.exists():
        return REAL_PAGE.read_text(encoding="utf-8")
    para = "<p>Ada Lovelace was an English mathematician and writer.</p>" * 40
    return f"<html><body><section>{para}</section></body></html>"


def _fetch_all(
    base_urls: dict[str, str], titles: list[str], cache: Path, concurrency: int, rate: float
) -> tuple[float, dict[str, int], int]:
    client = WikipediaWebClient(
        user_agent="occbio-benchmark/0.1 (local)",
        base_urls=base_urls,
        concurrency=concurrency,
        rate=rate,
        cache_dir=cache,
    )
    start = time.perf_counter()
    with client:
        ok = sum(r.status == "ok" for r in client.fetch_many(("en", t) for t in titles))
    return time.perf_counter() - start, dict(client.stats), ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds per request")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 8])
    args = parser.parse_args()
    defaults = TextConfig()
    html = _page()
    titles = [f"Person {i}" for i in range(args.pages)]
    pages = {("en", t): Raw(html) for t in titles}
    settings = [(c, 0.0) for c in args.concurrency]
    settings.append((defaults.concurrency, defaults.rate))
    print(
        f"{args.pages} pages of {len(html) / 1000:.0f} kB, {args.delay * 1000:.0f} ms per "
        f"request; default settings: concurrency {defaults.concurrency}, rate "
        f"{defaults.rate:g}/s, retries {HttpConfig().retries}"
    )
    print(
        f"{'concurrency':>11} {'rate/s':>7} {'pages/s':>8} {'bound':>7} "
        f"{'2nd run pages/s':>16} {'2nd requests':>13} {'hit rate':>9}"
    )
    with serve_wiki(pages, delay=args.delay, cache_headers=True) as wiki:
        for concurrency, rate in settings:
            with tempfile.TemporaryDirectory() as tmp:
                cache = Path(tmp) / "http"
                first, _stats, ok = _fetch_all(wiki.base_urls, titles, cache, concurrency, rate)
                assert ok == len(titles), f"only {ok} of {len(titles)} pages fetched"
                second, stats2, ok2 = _fetch_all(wiki.base_urls, titles, cache, concurrency, rate)
                assert ok2 == len(titles)
            bound = concurrency / args.delay
            if rate > 0:
                bound = min(bound, rate)
            hits = stats2.get("cache_hits", 0) / len(titles)
            print(
                f"{concurrency:>11} {rate or 'none':>7} {len(titles) / first:>8.1f} "
                f"{bound:>7.1f} {len(titles) / second:>16.0f} "
                f"{stats2.get('requests', 0):>13} {hits:>9.0%}"
            )
    start = time.perf_counter()
    n = 20
    for _ in range(n):
        text = html_to_text(html)
    took = time.perf_counter() - start
    print(f"html_to_text: {n / took:.1f} pages/s on this page ({len(text.split())} words of prose)")


if __name__ == "__main__":
    main()
