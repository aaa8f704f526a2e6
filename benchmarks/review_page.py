"""`occbio review export` at scale: the size of a 5,000-item page and how fast it opens.

Builds a synthetic run in a temporary directory: N segments (default 5,000) of English and
Spanish in documents of 5 to 15 segments, women and men alternating, scores spread evenly. The
sentences are MT-GenEval's en-es dev sentences (taken from Wikipedia, so of Wikipedia's length;
brackets removed, feminine then masculine, cycled), from ../shared/data. `occbio review export
RUN --all` writes one page of N items (each with two sentences of context either side).

Prints the export's wall time, the page's and the CSV's size, then opens the page from its
file:// URL in headless Chromium (the system's: apt-get install chromium; driven by Playwright)
--repeat times, each in a fresh profile, and prints the time to first render: the page's
`performance.now()` when the first item is on screen (milliseconds since navigation began:
reading, parsing the embedded JSON, drawing one item). Then, with every item judged in local
storage, the reload's first render and the time one verdict key takes (it saves the whole
state). Figures only; nothing is asserted.

    python benchmarks/review_page.py [--items 5000] [--repeat 5]
    python benchmarks/review_page.py --screenshot docs/images/review_page.png

`--screenshot PATH` instead mines the bundled sample (en, es, ca), exports 20 items per pair
and saves a 1000x700 picture of the en-es page mid-review (a few items judged, the last one
shown).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from occbio.cli import main as occbio_main

DATA = Path(__file__).resolve().parents[2] / "shared/data/mt-geneval-dev/sentences-dev"


def _sentences(data: Path) -> list[tuple[str, str]]:
    """MT-GenEval's en-es dev sentence pairs, feminine then masculine, brackets removed."""
    pairs = []
    for gender in ("feminine", "masculine"):
        texts = []
        for lang in ("en", "es"):
            path = data / f"geneval-sentences-{gender}-dev.en_es.{lang}"
            if not path.is_file():
                raise SystemExit(f"review_page.py: {path} is missing (--data: MT-GenEval)")
            lines = path.read_text(encoding="utf-8").splitlines()
            texts.append([re.sub(r"[\[\]]", "", line).strip() for line in lines])
        pairs += list(zip(*texts, strict=True))
    return pairs


def build_run(run: Path, segments: int, data: Path) -> None:
    """A run directory with corpus/corpus.jsonl of ``segments`` en-es segments."""
    pairs = _sentences(data)
    (run / "corpus").mkdir(parents=True)
    sizes = [5 + d % 11 for d in range(segments)]  # 5..15, about 10 a document
    n = 0
    with (run / "corpus" / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for d, size in enumerate(sizes):
            for seg in range(1, size + 1):
                if n == segments:
                    return
                en, es = pairs[n % len(pairs)]
                row = {
                    "text": {"en": en, "es": es},
                    "qid": f"Q99{d:07d}",
                    "name": f"Person {d}",
                    "gender": ("female", "male")[d % 2],
                    "seg": seg,
                    "scores": {"es": round(1.06 + (n * 7919 % 1000) / 4000, 5)},
                }
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                n += 1


def _export(run: Path, *args: str) -> list[Path]:
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = occbio_main(["review", "export", str(run), *args, "-q"])
    if code:
        raise SystemExit(f"review_page.py: occbio review export failed ({code})")
    return [Path(line) for line in stdout.getvalue().split()]


def _browser(p):
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise SystemExit("review_page.py: no system Chromium (apt-get install chromium)")
    return p.chromium.launch(executable_path=path)


def _open(browser, page_path: Path, state: str | None = None) -> tuple[float, object, object]:
    """(first render in ms, context, page): a fresh profile, optionally with saved work."""
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    if state is not None:
        page.goto(page_path.as_uri())
        page.wait_for_selector("body[data-ready]")
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", state)
        page.reload()
    else:
        page.goto(page_path.as_uri())
    page.wait_for_selector("body[data-ready]", timeout=60_000)
    return page.evaluate("window.occbioFirstRender"), context, page


def measure(items: int, repeat: int, data: Path) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="occbio-review-bench-") as tmp:
        run = Path(tmp) / "run"
        build_run(run, items, data)
        start = time.perf_counter()
        paths = _export(run, "--all", "--out", str(run / "review"))
        took = time.perf_counter() - start
        page_path, csv_path = paths[0], paths[1]
        embedded = page_path.read_text(encoding="utf-8")
        count = embedded.count('"id":"')
        print(f"items on the page: {count:,}; export: {took:.2f} s wall")
        page_mb, csv_mb = page_path.stat().st_size / 1e6, csv_path.stat().st_size / 1e6
        print(f"page: {page_mb:.2f} MB; CSV: {csv_mb:.2f} MB")
        with sync_playwright() as p:
            browser = _browser(p)
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"browser: Chromium {browser.version} (headless); load average {load}")
            firsts = []
            for _ in range(repeat):
                ms, context, _page = _open(browser, page_path)
                firsts.append(ms)
                context.close()
            print(
                f"first render, fresh profile: min {min(firsts):.0f} ms, "
                f"median {statistics.median(firsts):.0f} ms ({repeat} opens)"
            )
            data_ = json.loads(embedded.split('id="items">', 1)[1].split("</script>", 1)[0])
            key = f"occbio-review:{data_['run']}:{data_['pair']}"
            judged = {it["id"]: {"verdict": "parallel"} for it in data_["items"]}
            state = json.dumps({"annotator": "bench", "pos": 0, "judgments": judged})
            firsts, keys = [], []
            for _ in range(repeat):
                ms, context, page = _open(browser, page_path, state=[key, state])
                firsts.append(ms)
                keys.append(
                    page.evaluate("""() => {
                    const t0 = performance.now();
                    document.dispatchEvent(new KeyboardEvent("keydown", {key: "2"}));
                    return performance.now() - t0; }""")
                )
                context.close()
            print(
                f"first render, all {count:,} judged in storage: min {min(firsts):.0f} ms, "
                f"median {statistics.median(firsts):.0f} ms"
            )
            print(
                f"one verdict key (save + next item) with all judged: "
                f"median {statistics.median(keys):.1f} ms"
            )
            browser.close()


def screenshot(path: Path) -> None:
    """The en-es page of the bundled sample, mid-review, saved as ``path``."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="occbio-review-shot-") as tmp:
        run = Path(tmp) / "run"
        with contextlib.redirect_stdout(io.StringIO()):
            code = occbio_main(["mine", "--sample", "--langs", "en,es,ca", "--out", str(run), "-q"])
        if code:
            raise SystemExit(f"review_page.py: occbio mine --sample failed ({code})")
        page_path = _export(run, "--sample", "20")[0]
        with sync_playwright() as p:
            browser = _browser(p)
            _, context, page = _open(browser, page_path)
            page.fill("#annotator", "Núria Vidal")
            page.keyboard.press("Escape")
            # judge on to the first item with context on both sides; judge it, come back
            while not page.locator("#before p").count() and page.is_enabled("#next"):
                page.keyboard.press("1")
            page.keyboard.press("2")
            page.keyboard.press("k")
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))
            context.close()
            browser.close()
    print(f"{path}: {path.stat().st_size / 1e3:.0f} kB")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=5000, help="items on the page (default 5000)")
    ap.add_argument("--repeat", type=int, default=5, help="opens to time (default 5)")
    ap.add_argument("--data", type=Path, default=DATA, help="MT-GenEval's sentences-dev folder")
    ap.add_argument(
        "--screenshot",
        type=Path,
        metavar="PATH",
        help="save a picture of the sample's page mid-review instead",
    )
    args = ap.parse_args(argv)
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise SystemExit(
            "review_page.py: pip install playwright (and apt-get install chromium)"
        ) from None
    if args.screenshot:
        screenshot(args.screenshot)
    else:
        measure(args.items, args.repeat, args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
