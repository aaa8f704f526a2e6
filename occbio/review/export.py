"""``occbio review export``: one self-contained HTML page and one CSV file per language pair.

The page is a single file (CSS, script and items inline; no network) so it can be mailed to an
annotator and opened from a file:// URL. The items travel as JSON inside a
``<script type="application/json">`` element, with every ``<`` written as ``\\u003c`` so no
sentence can close that element; the page's script puts text in with ``textContent`` and
``value`` only. The score and its band are left off the page (a judge who sees the aligner's
confidence leans on it) but kept in the CSV, which is the analyst's copy as well as the
spreadsheet user's.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from html import escape
from importlib import resources
from pathlib import Path

from occbio.io.spreadsheet import spreadsheet_writer
from occbio.langs import check_lang
from occbio.review.items import (
    Item,
    ReviewError,
    corpus_file,
    read_items,
    run_id,
    stratified_sample,
)
from occbio.run import atomic_write
from occbio.runlock import output_lock, run_lock
from occbio.safepaths import guard, output_dir

__all__ = ["CSV_COLUMNS", "CONTEXT_SEPARATOR", "export_review", "page_data", "render_page"]

CSV_COLUMNS = ("id", "pair", "doc", "name", "gender", "seg", "score", "band",
               "before", "src", "tgt", "after", "verdict", "post_edit")  # fmt: skip
#: joins the neighbouring sentences in one CSV cell
CONTEXT_SEPARATOR = " / "
_ITEMS_MARK = "__OCCBIO_ITEMS__"
_TITLE_MARK = "__OCCBIO_TITLE__"


def page_data(items: Sequence[Item], *, run: str, pair: str) -> dict:
    """What the page's script reads: the run, the pair and, per item, what an annotator sees."""
    src_lang, tgt_lang = pair.split("-", 1)
    return {
        "occbio_review": 1,
        "run": run,
        "pair": pair,
        "src_lang": src_lang,
        "tgt_lang": tgt_lang,
        "items": [
            {
                "id": it.id,
                "name": it.name,
                "gender": it.gender,
                "before": list(it.before),
                "src": it.src,
                "tgt": it.tgt,
                "after": list(it.after),
            }
            for it in items
        ],
    }


def _template() -> str:
    return resources.files("occbio.review").joinpath("page.html").read_text(encoding="utf-8")


def render_page(data: dict) -> str:
    """The page with ``data`` embedded; ``<`` escaped so no text can end the script element."""
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    head, sep, tail = _template().partition(_ITEMS_MARK)
    if not sep:
        raise RuntimeError("occbio/review/page.html lacks its items marker")
    title = escape(f"occbio review {data['pair']} · run {data['run']}")
    return head.replace(_TITLE_MARK, title) + blob + tail


def _csv_row(item: Item) -> list[object]:
    score = "" if item.score is None else item.score
    return [item.id, item.pair, item.doc, item.name, item.gender, item.seg, score, item.band,
            CONTEXT_SEPARATOR.join(item.before), item.src, item.tgt,
            CONTEXT_SEPARATOR.join(item.after), "", ""]  # fmt: skip


def _write_csv(path: Path, items: Sequence[Item]) -> None:
    # utf-8-sig: Excel reads a CSV without the byte-order mark as the local code page
    with atomic_write(path, encoding="utf-8-sig") as fh:
        writer = spreadsheet_writer(fh, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        writer.writerows(_csv_row(item) for item in items)


def export_review(
    run_dir: Path,
    *,
    out: Path,
    sample: int | None,
    langs: Sequence[str] | None = None,
    seed: int = 12345,
) -> list[Path]:
    """Write ``OUT/review-PAIR.html`` and ``OUT/review-PAIR.csv`` for each language pair:
    ``sample`` items per pair (stratified, seeded) or, with ``sample=None``, every item.
    Returns the paths written, each pair's page then its CSV.

    The run is locked shared while it is read (no command that writes it can run meanwhile),
    ``OUT`` exclusively while it is written; a corpus changed by a process that ignored the
    lock is an error before anything is written."""
    if sample is not None and sample < 1:
        raise ReviewError(f"--sample {sample}: give at least 1 item per language pair")
    for lang in langs or ():
        check_lang(lang, "--langs")
    run_dir = Path(run_dir)
    run_id(run_dir)  # no corpus: one line, before any lock
    inside = _same_dir(Path(out), run_dir)  # --out RUN: the run's own folder, held alone
    with contextlib.ExitStack() as stack:
        stack.enter_context(run_lock(run_dir, shared=not inside))
        items, meta = read_items(run_dir, langs)
        chosen = list(items) if sample is None else stratified_sample(items, sample, seed)
        guard(run_dir)  # nothing below the run is written through a link
        out = output_dir(Path(out))
        if not inside:
            stack.enter_context(output_lock(out, "review export"))
        if run_id(run_dir) != meta["run"]:
            raise ReviewError(
                f"{corpus_file(run_dir)} changed while it was read (another process wrote the "
                f"corpus): nothing written to {out}; run the command again"
            )
        paths: list[Path] = []
        for lang in meta["langs"]:
            pair = f"{meta['pivot']}-{lang}"
            pair_items = [item for item in chosen if item.pair == pair]
            page = out / f"review-{pair}.html"
            with atomic_write(page) as fh:
                fh.write(render_page(page_data(pair_items, run=meta["run"], pair=pair)))
            table = out / f"review-{pair}.csv"
            _write_csv(table, pair_items)
            paths += [page, table]
    return paths


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
