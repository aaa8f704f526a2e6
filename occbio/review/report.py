"""The review report in words: the terminal table (or JSON) and the data card's "Human
review" section, from :func:`occbio.review.judgments.build_report`'s numbers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "SECTION",
    "current_section",
    "datacard_section",
    "format_report",
    "replace_section",
]

SECTION = "## Human review"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}"


def _ci(row: Mapping[str, Any], share: str, interval: str) -> str:
    if row[share] is None:
        return "–"
    lo, hi = row[interval]
    return f"{_pct(row[share])} [{_pct(lo)}, {_pct(hi)}]"


def _kappa(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def _rows(report: Mapping[str, Any]) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The report's three tables as header and text rows (for the terminal and the card)."""
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
                r["pair"],
                r["band"],
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
                r["pair"],
                " / ".join(r["annotators"]),
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
            [r["pair"], _pct(r["target"]), "none reaches it", "–", "–"]
            if r["threshold"] is None
            else [
                r["pair"],
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


def _who(annotators: Mapping[str, int], counts: bool) -> str:
    """``ana (12), ben (6)``; beyond :data:`NAMED` annotators, those who judged most and how
    many more."""
    named = sorted(annotators, key=lambda a: (-annotators[a], a))[:NAMED]
    named = [a for a in annotators if a in set(named)]  # in the report's (name) order
    text = ", ".join(f"{a} ({annotators[a]})" if counts else a for a in named)
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
    who = _who(report["annotators"], False)
    if len(report["annotators"]) <= NAMED:
        who = f"{len(report['annotators'])} annotators: {who}"
    tables = _rows(report)
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


def current_section(card: str) -> str | None:
    """``card``'s ``## Human review`` section as written, or None."""
    lines = card.splitlines(keepends=True)
    start = next((i for i, x in enumerate(lines) if x.rstrip() == SECTION), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[start:end]).rstrip("\n") + "\n"


def replace_section(card: str, section: str) -> str:
    """``card`` with its ``## Human review`` section replaced by ``section`` (or added before
    "Known limitations", else at the end); the rest untouched."""
    lines = card.splitlines(keepends=True)
    start = next((i for i, x in enumerate(lines) if x.rstrip() == SECTION), None)
    if start is not None:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        tail = "".join(lines[end:])
        return "".join(lines[:start]) + section + ("\n" + tail if tail else "")
    at = next((i for i, x in enumerate(lines) if x.startswith("## Known limitations")), None)
    if at is None:
        return card.rstrip("\n") + "\n\n" + section if card.strip() else section
    return "".join(lines[:at]) + section + "\n" + "".join(lines[at:])


# --- the command -----------------------------------------------------------------------------
