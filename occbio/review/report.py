"""The review report in words: the terminal table (or JSON) and the data card's "Human
review" section, from :func:`occbio.review.judgments.build_report`'s numbers."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "SECTION",
    "markdown_text",
    "current_section",
    "is_control",
    "kept_section",
    "datacard_section",
    "format_report",
    "replace_section",
]

SECTION = "## Human review"
#: the heading the section is written before (the write stage's card always has it)
_BEFORE = "## Known limitations"
#: characters Markdown (CommonMark, GitHub's tables and maths) gives a meaning inside a line
#: bidirectional embeddings, overrides and isolates: they reorder the text shown around them
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_control(c: str) -> bool:
    """Whether character ``c`` acts on what shows rather than showing: a C0 or C1 control
    (line breaks, terminal escapes), a line or paragraph separator, half a surrogate pair, a
    bidirectional override. (Joiners, which some scripts need, are not.)"""
    return c in _BIDI or unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")


_MARKDOWN = {c: "\\" + c for c in "\\`*_[]|~$"} | {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def markdown_text(text: str) -> str:
    """``text`` (a name) as Markdown shows it, as text, on one line: no emphasis, link, table
    cell, HTML or maths can start in it, and a control character (a line break that would
    start a heading, a terminal escape; refused on import, but a report written before may
    hold one) shows as U+FFFD."""
    return "".join("\ufffd" if is_control(c) else _MARKDOWN.get(c, c) for c in text)


def kept_section(card: str, report: Mapping[str, Any] | None) -> str | None:
    """The ``## Human review`` section a re-written card keeps: made again from the review's
    report (``review/report.json``), dated as ``card``'s section says, so nothing but the
    figures and the escaped names comes back; ``card``'s own section when there is no
    report to make it from; None when the card has none."""
    section = current_section(card)
    if section is None or report is None:
        return section
    try:
        date = re.search(r"imported (\d{4}-\d{2}-\d{2})", section)
        return datacard_section(report, date=date.group(1) if date else "earlier")
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return section


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def _ci(row: Mapping[str, Any], share: str, interval: str) -> str:
    if row[share] is None:
        return "–"
    lo, hi = row[interval]
    return f"{_pct(row[share])} [{_pct(lo)}, {_pct(hi)}]"


def _kappa(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def _rows(
    report: Mapping[str, Any], text: Callable[[str], str] = str
) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The report's three tables as header and text rows (for the terminal and the card);
    ``text`` writes a pair, band or name (Markdown-escaped for the card)."""
    precision = (
        [
            "pair",
            "band",
            "judged",
            "parallel",
            "partial",
            "not parallel",
            "precision % [95% CI]",
            "parallel or partial % [95% CI]",
        ],
        [
            [
                text(r["pair"]),
                text(r["band"]),
                str(r["judged"]),
                str(r["parallel"]),
                str(r["partial"]),
                str(r["not_parallel"]),
                _ci(r, "precision", "interval"),
                _ci(r, "parallel_or_partial", "parallel_or_partial_interval"),
            ]
            for r in report["precision"]
        ],
    )
    agreement = (
        ["pair", "annotators", "items both judged", "agreement %", "Cohen's kappa"],
        [
            [
                text(r["pair"]),
                " / ".join(map(text, r["annotators"])),
                str(r["items"]),
                _pct(r["agreement"]),
                _kappa(r["kappa"]),
            ]
            for r in report["agreement"]
        ],
    )
    threshold = (
        ["pair", "target %", "lowest score", "keeps % of judged", "precision % [95% CI]"],
        [
            [text(r["pair"]), _pct(r["target"]), "none reaches it", "–", "–"]
            if r["threshold"] is None
            else [
                text(r["pair"]),
                _pct(r["target"]),
                f"{r['threshold']:g}",
                f"{_pct(r['share'])} ({r['kept']} of {r['judged']})",
                _ci(r, "precision", "interval"),
            ]
            for r in report["threshold"]
        ],
    )
    return {"precision": precision, "agreement": agreement, "threshold": threshold}


def _plain(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    lines = [header, *rows]
    return "\n".join(
        "  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip() for r in lines
    )


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(r) + " |" for r in lines)


_TITLES = {
    "precision": "precision per language pair and score band (an item's verdict: its "
    "annotators' majority, a tie not parallel)",
    "agreement": "agreement between annotators on the items both judged (the pairs sharing "
    "the most items)",
    "threshold": "the lowest alignment score whose kept judged items reach the target precision",
}


#: Annotators named in the terminal's first line and the data card (those who judged most);
#: the others are counted.
NAMED = 10


def _who(annotators: Mapping[str, int], counts: bool, name: Callable[[str], str] = str) -> str:
    """``ana (12), ben (6)``; beyond :data:`NAMED` annotators, those who judged most and how
    many more. ``name`` writes a name (Markdown-escaped for the card)."""
    named = sorted(annotators, key=lambda a: (-annotators[a], a))[:NAMED]
    named = [a for a in annotators if a in set(named)]  # in the report's (name) order
    text = ", ".join(f"{name(a)} ({annotators[a]})" if counts else name(a) for a in named)
    if len(annotators) > NAMED:
        text = f"{len(annotators):,} annotators, the {NAMED} who judged most: {text}; "
        text += f"{len(annotators) - NAMED:,} more"
    return text


def _summary_lines(report: Mapping[str, Any]) -> list[str]:
    """One line per language pair: the pairs of annotators compared and what was left out."""
    lines = []
    for s in report.get("agreement_summary", ()):
        if s["annotators"] < 2:
            continue  # one annotator: nobody to agree with
        left = []
        if s["pairs"] > s["pairs_shown"]:
            left.append(f"{s['pairs'] - s['pairs_shown']:,} more pairs not listed")
        if s["pairs_sharing_fewer"]:
            left.append(f"{s['pairs_sharing_fewer']:,} pairs sharing fewer items")
        if s["annotators_with_fewer_items"]:
            left.append(
                f"{s['annotators_with_fewer_items']:,} annotators with fewer than "
                f"{s['min_shared']} items"
            )
        if s["annotators_not_compared"]:
            left.append(
                f"{s['annotators_not_compared']:,} annotators beyond the "
                f"{s['annotators_compared']} who judged most"
            )
        kappa = (
            f"Cohen's kappa mean {_kappa(s['mean_kappa'])}, median {_kappa(s['median_kappa'])}"
            if s["mean_kappa"] is not None
            else "no kappa defined"
        )
        text = (
            f"{s['pair']}: {s['pairs']:,} pairs of annotators share at least {s['min_shared']} "
            "items" + (f"; {kappa}" if s["pairs"] else "")
        )
        lines.append(text + (f" (left out: {'; '.join(left)})" if left else ""))
    return lines


def format_report(report: Mapping[str, Any]) -> str:
    """The report as plain-text tables for the terminal."""
    parts = [
        f"run {report['run']}: {report['items_judged']} items judged by "
        f"{_who(report['annotators'], True)}; {report['ties']} tied (counted not parallel)"
    ]
    for key, (header, rows) in _rows(report).items():
        table = _plain(header, rows) if rows else "(none)"
        if key == "agreement":
            table = "\n".join([table, *_summary_lines(report)])
        parts.append(f"{_TITLES[key]}:\n" + table)
    return "\n\n".join(parts)


def datacard_section(report: Mapping[str, Any], *, date: str) -> str:
    """The data card's ``## Human review`` section."""
    who = _who(report["annotators"], False, markdown_text)
    if len(report["annotators"]) <= NAMED:
        who = f"{len(report['annotators'])} annotators: {who}"
    tables = _rows(report, markdown_text)
    parts = [
        SECTION,
        f"Native speakers judged {report['items_judged']} items of this corpus with `occbio "
        f"review` ({who}; imported {date}). An item is "
        "a pivot sentence and its aligned sentence in one language; its verdict is its "
        f"annotators' majority, a tie counted as not parallel ({report['ties']} ties). "
        'Precision is the share judged parallel, with its 95 % Wilson interval; "parallel or '
        'partial" also counts the items judged partly parallel. Score bands are thirds of the '
        "language pair's segments by alignment score.",
        _markdown(*tables["precision"]),
    ]
    if tables["agreement"][1]:
        parts += [
            "Agreement on the items two annotators both judged (the pairs sharing the most items):",
            _markdown(*tables["agreement"]),
        ]
    summary = _summary_lines(report)
    if summary:
        parts.append("\n".join(f"- {line}" for line in summary))
    parts += [
        f"The lowest alignment score whose kept judged items are at least "
        f"{_pct(report['threshold'][0]['target'])} % parallel:",
        _markdown(*tables["threshold"]),
    ]
    return "\n\n".join(parts) + "\n"


def _span(lines: list[str]) -> tuple[int, int] | None:
    """Where the ``## Human review`` section of a card's ``lines`` starts and ends: up to the
    last "Known limitations" heading after it (the section is always written before it), else
    to the end. Not at the next heading: a card written before annotator names were checked
    may hold headings a name brought in (``"x\\n## Licence and attribution\\n..."``), and
    those go with the section when it is written again."""
    start = next((i for i, x in enumerate(lines) if x.rstrip() == SECTION), None)
    if start is None:
        return None
    after = [i for i in range(start + 1, len(lines)) if lines[i].rstrip() == _BEFORE]
    return start, after[-1] if after else len(lines)


def current_section(card: str) -> str | None:
    """``card``'s ``## Human review`` section as written, or None."""
    lines = card.splitlines(keepends=True)
    span = _span(lines)
    if span is None:
        return None
    return "".join(lines[span[0] : span[1]]).rstrip("\n") + "\n"


def replace_section(card: str, section: str) -> str:
    """``card`` with its ``## Human review`` section replaced by ``section`` (or added before
    "Known limitations", else at the end); the rest untouched."""
    lines = card.splitlines(keepends=True)
    span = _span(lines)
    if span is not None:
        start, end = span
        tail = "".join(lines[end:])
        return "".join(lines[:start]) + section + ("\n" + tail if tail else "")
    at = next((i for i, x in enumerate(lines) if x.startswith(_BEFORE)), None)
    if at is None:
        return card.rstrip("\n") + "\n\n" + section if card.strip() else section
    return "".join(lines[:at]) + section + "\n" + "".join(lines[at:])


# --- the command -----------------------------------------------------------------------------
