"""Formatting lexicon audits (:class:`~occbio.audit.lexicon.LexiconResult`): table, JSON, CSV,
LaTeX.

Units throughout: ``feminine``, ``masculine``, ``unspecified`` are percent of words;
``coverage`` is percent of lines with at least one match; ``gap`` and ``ste`` are percentage
points; ``skewed`` is ``gap > 2 * ste``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable

from occbio.audit.lexicon import LexiconResult
from occbio.io.spreadsheet import spreadsheet_dict_writer

__all__ = ["format_csv", "format_json", "format_latex", "format_table", "skew_label"]

#: Decimals of the machine-readable formats (JSON, CSV); the raw counts are exact.
MACHINE_DIGITS = 6

_TABLE_NOTE = (
    "fem/masc/unsp: % of words matching the lexicon class; coverage: % of lines with a match; "
    "gap = |fem - masc| +/- ste (percentage points); skewed: gap > 2 ste"
)


def skew_label(result: LexiconResult) -> str:
    """``"masculine"`` or ``"feminine"`` (the larger class) when the corpus is skewed, else
    ``"no"``."""
    if not result.skewed:
        return "no"
    return "masculine" if result.masculine > result.feminine else "feminine"


def format_table(results: Iterable[LexiconResult], *, note: bool = True) -> str:
    """A console table, one row per result, with a line on the units under it."""
    header = (
        "lang",
        "lines",
        "words",
        "fem %",
        "masc %",
        "unsp %",
        "coverage %",
        "gap",
        "ste",
        "skewed",
    )
    rows = [
        (
            r.lang,
            f"{r.lines:,}",
            f"{r.words:,}",
            f"{r.feminine:.3f}",
            f"{r.masculine:.3f}",
            f"{r.unspecified:.3f}",
            f"{r.coverage:.1f}",
            f"{r.gap:.3f}",
            f"{r.ste:.3f}",
            skew_label(r),
        )
        for r in results
    ]
    widths = [max(len(str(row[i])) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: Iterable[str]) -> str:
        out = []
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
            out.append(cell.ljust(width) if i in (0, len(header) - 1) else cell.rjust(width))
        return "  ".join(out).rstrip()

    text = [line(header), line("-" * w for w in widths), *(line(row) for row in rows)]
    if note:
        text.append(_TABLE_NOTE)
    return "\n".join(text) + "\n"


def format_json(results: Iterable[LexiconResult]) -> str:
    """One JSON object per result and line (``lang words feminine masculine unspecified coverage
    gap ste``, then ``skewed``, ``lines`` and the raw counts)."""
    return "".join(
        json.dumps(r.to_dict(digits=MACHINE_DIGITS), ensure_ascii=False) + "\n" for r in results
    )


def format_csv(results: Iterable[LexiconResult]) -> str:
    """CSV with a header row; the columns are the JSON keys."""
    buffer = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    for r in results:
        record = r.to_dict(digits=MACHINE_DIGITS)
        if writer is None:
            writer = spreadsheet_dict_writer(buffer, list(record), lineterminator="\n")
            writer.writeheader()
        writer.writerow(record)
    if writer is None:  # no result: the header alone
        fields = list(LexiconResult(lang="").to_dict())
        spreadsheet_dict_writer(buffer, fields, lineterminator="\n").writeheader()
    return buffer.getvalue()


_LATEX_SPECIALS = {c: "\\" + c for c in "&%$#_{}"}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIALS.get(c, c) for c in text)


def format_latex(results: Iterable[LexiconResult], *, caption: str | None = None) -> str:
    """A LaTeX ``tabular`` (booktabs) as in the GENDER-GAP paper's tables; ``caption`` wraps it
    in a ``table`` environment."""
    body = [
        f"{_latex_escape(r.lang)} & {r.words:,} & {r.feminine:.3f} & {r.masculine:.3f} & "
        f"{r.unspecified:.3f} & {r.coverage:.1f} & {r.gap:.3f} $\\pm$ {r.ste:.3f}"
        f"{'$^{*}$' if r.skewed else ''} \\\\"
        for r in results
    ]
    lines = [
        "\\begin{tabular}{lrrrrrr}",
        "\\toprule",
        "Lang & Words & Fem. (\\%) & Masc. (\\%) & Unsp. (\\%) & Coverage (\\%) "
        "& Gap $\\pm$ ste \\\\",
        "\\midrule",
        *body,
        "\\bottomrule",
        "\\end{tabular}",
    ]
    if caption is not None:
        lines = [
            "\\begin{table}[t]",
            "\\centering",
            *lines,
            f"\\caption{{{_latex_escape(caption)} ($^{{*}}$: gap $>$ 2 ste)}}",
            "\\end{table}",
        ]
    return "\n".join(lines) + "\n"
