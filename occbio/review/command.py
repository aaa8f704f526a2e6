"""``occbio review export|import|apply``: from a run to pages annotators open in their browser,
back to a post-edited corpus with its measured precision."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["add_review_parser", "run_review"]


def add_review_parser(sub: Any) -> None:
    p = sub.add_parser(
        "review",
        help="native speakers check and post-edit a mined test set in their browser",
        description="export: one self-contained HTML page (and a CSV) per language pair for "
        "annotators; import: their judgments, validated and merged, with precision per "
        "language pair and score band, agreement and the threshold that reaches a precision; "
        "apply: the post-edited corpus (corpus/post-edited.*).",
    )
    actions = p.add_subparsers(dest="review_action", metavar="ACTION", required=True)
    ex = actions.add_parser("export", help="pages and CSV files for annotators")
    ex.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    how = ex.add_mutually_exclusive_group()
    how.add_argument("--sample", type=int, metavar="N", help="N items per language pair "
                     "(stratified by score band and gender; default 200)")  # fmt: skip
    how.add_argument("--all", action="store_true", help="every segment (for post-editing)")
    ex.add_argument("--langs", help="the non-pivot languages to export (default: all)")
    ex.add_argument("--seed", type=int, default=12345, help="sampling seed (default: %(default)s)")
    ex.add_argument("--out", type=Path, help="default: RUN_DIR/review")
    im = actions.add_parser("import", help="annotators' judgments: checked, merged, measured")
    im.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    im.add_argument(
        "files",
        type=Path,
        nargs="+",
        metavar="JUDGMENTS",
        help="files saved by the page's export button (.json) or filled CSVs",
    )
    im.add_argument(
        "--target",
        type=float,
        default=0.95,
        help="the precision to find a score threshold for (default: %(default)s)",
    )
    im.add_argument(
        "--min-shared",
        type=int,
        default=20,
        metavar="N",
        help="compare two annotators when they judged at least N of the same items (default: "
        "%(default)s); the 20 pairs sharing the most are listed, the rest summed up",
    )
    im.add_argument("--format", choices=["table", "json"], default="table")
    ap = actions.add_parser("apply", help="write corpus/post-edited.* from the judgments")
    ap.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    for q in (ex, im, ap):
        q.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
        q.add_argument("-q", "--quiet", action="store_true", help="only warnings and results")


def run_review(args: argparse.Namespace) -> int:
    """The command; errors are raised as one-line exceptions ``occbio.cli`` prints."""
    if args.review_action == "export":
        from occbio.review.export import export_review

        langs = [x.strip() for x in args.langs.split(",")] if args.langs else None
        paths = export_review(
            args.run_dir,
            out=args.out or args.run_dir / "review",
            sample=None if args.all else (200 if args.sample is None else args.sample),
            langs=langs,
            seed=args.seed,
        )
        for path in paths:
            print(path)
        return 0
    if args.review_action == "import":
        from occbio.review.judgments import import_judgments

        print(
            import_judgments(
                args.run_dir,
                args.files,
                target=args.target,
                fmt=args.format,
                min_shared=args.min_shared,
            )
        )
        return 0
    from occbio.review.apply import apply_review

    print(apply_review(args.run_dir))
    return 0
