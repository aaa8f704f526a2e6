"""``occbio rewrite``: sentences into another gender, one per line in, the same lines out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Any

__all__ = ["add_rewrite_parser", "run_rewrite"]


def add_rewrite_parser(sub: Any) -> None:
    p = sub.add_parser(
        "rewrite",
        help="rewrite sentences so the person they are about has another gender",
        description="Rewrite each line (one sentence) so that the person it is about has the "
        "target gender: pronouns, person nouns and titles, articles, adjectives and participles "
        "that agree; everything else is left as it is, and a line with nothing to change comes "
        "out byte-identical. Reads stdin and writes stdout unless --input/--output are given.",
    )
    p.add_argument("--lang", required=True, help="the language of the sentences")
    p.add_argument("--to", required=True, choices=["feminine", "masculine"])
    p.add_argument("--input", type=Path, metavar="FILE", help="default: standard input")
    p.add_argument("--output", type=Path, metavar="FILE", help="default: standard output")
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings")


def run_rewrite(args: argparse.Namespace) -> int:
    """Carry out ``occbio rewrite``; an unsupported language raises before anything is read."""
    from occbio.rewrite import Rewriter
    from occbio.run import atomic_write

    rewriter = Rewriter(args.lang.strip().lower())
    source: IO[str] = (
        open(args.input, encoding="utf-8", newline="")  # noqa: SIM115 - closed below
        if args.input is not None
        else sys.stdin
    )
    try:
        if args.output is None:
            _rewrite_lines(source, sys.stdout, rewriter, args.to)
        else:
            with atomic_write(args.output) as out:
                _rewrite_lines(source, out, rewriter, args.to)
    finally:
        if source is not sys.stdin:
            source.close()
    return 0


def _rewrite_lines(source: IO[str], out: IO[str], rewriter: Any, to: str) -> None:
    """Line by line (memory flat), each line's own ending kept."""
    for line in source:
        body = line.rstrip("\r\n")
        out.write(rewriter.rewrite(body, to) + line[len(body) :])
