"""How strict should a learned substitution be? A sweep on the CHOOSING half only.

    python benchmarks/rewrite_thresholds.py [--langs es fr ...]

For each (free_count, free_share) of ``occbio.rewrite.Thresholds``: the 2-fold estimate inside
the choosing half (tables learned on one half of it, scored on the other), exact % / edit
precision % per direction. The held-out half is never read. No assertions: a report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rewrite import evaluate  # noqa: E402

from occbio.rewrite import Rewriter, Thresholds  # noqa: E402
from occbio.rewrite.learn import learn, load_mtgeneval, split_pairs  # noqa: E402

GRID = ((2, 0.75), (3, 0.75), (2, 0.85), (3, 0.85), (4, 0.8))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/mt-geneval-dev")
    ap.add_argument("--langs", nargs="*", default=["en", "es", "fr", "it", "pt", "de", "ru"])
    a = ap.parse_args(argv)
    print(
        f"{'lang':4} {'count':>5} {'share':>5}   m→f exact/P     f→m exact/P   (cv, choosing only)"
    )
    for lang in a.langs:
        choose, _ = split_pairs(load_mtgeneval(a.data, lang), lang)
        half = len(choose) // 2
        folds = ((choose[:half], choose[half:]), (choose[half:], choose[:half]))
        tables = [learn(train, lang) for train, _ in folds]
        for count, share in GRID:
            th = Thresholds(free_count=count, free_share=share)
            cells = []
            for to in ("feminine", "masculine"):
                n = exact = tp = hyp = 0.0
                for (_, test), tb in zip(folds, tables, strict=True):
                    r = evaluate(
                        Rewriter(lang, tables=tb, thresholds=th, strict=True, relatives="change"),
                        test,
                        to,
                    )
                    n += r["n"]
                    exact += r["exact"] * r["n"]
                    tp += r["tp"]
                    hyp += r["hyp_w"]
                cells.append(f"{100 * exact / n:5.1f} / {100 * tp / max(hyp, 1):5.1f}")
            print(f"{lang:4} {count:5d} {share:5.2f}   {cells[0]}   {cells[1]}")


if __name__ == "__main__":
    main()
