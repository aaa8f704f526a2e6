"""The evaluation's figures as a terminal table, JSON, CSV or LaTeX, and as a chart."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from occbio.evaluate.evaluation import OCCUPATION, Row
from occbio.io.spreadsheet import spreadsheet_dict_writer

__all__ = ["FORMATS", "chart", "format_rows", "nested"]

FORMATS = ("table", "json", "csv", "latex")

_SECTIONS = ("quality", "gender accuracy", "contrastive", "gap", "comparison")
_TITLES = {
    "quality": "Translation quality (95 % bootstrap interval over documents)",
    "gender accuracy": "Gender accuracy, MT-GenEval's definition (% of judged segments)",
    "contrastive": "Output gender follows the source's when only that changed (% of segments)",
    "gap": "Gaps between genders (a - b; p: bootstrap two-sided)",
    "comparison": "Systems compared on the same resampled documents (x - y)",
}


def _num(x: float | None, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:+.1f}" if signed else f"{x:.1f}"


def _cell(r: Row) -> str:
    signed = r.section in ("gap", "comparison")
    text = f"{_num(r.value, signed)} [{_num(r.low, signed)}, {_num(r.high, signed)}]"
    if r.p is None or math.isnan(r.p):
        return text
    return text + (" p<0.001" if r.p < 0.001 else f" p={r.p:.3f}")


def _pivot(rows: Sequence[Row], section: str) -> tuple[list[str], list[list[str]]]:
    """(metrics, table rows): one row per (system, subset), one column per metric."""
    chosen = [r for r in rows if r.section == section]
    metrics = list(dict.fromkeys(r.metric for r in chosen))
    keys = list(dict.fromkeys((r.system, r.subset) for r in chosen))
    cells = {(r.system, r.subset, r.metric): r for r in chosen}
    table = []
    for system, subset in keys:
        first = next(cells[(system, subset, m)] for m in metrics if (system, subset, m) in cells)
        size = f"{first.docs}/{first.segments}" if first.docs else ""
        line = [system, subset, size]
        line += [_cell(cells[(system, subset, m)]) if (system, subset, m) in cells else ""
                 for m in metrics]  # fmt: skip
        table.append(line)
    return metrics, table


def _table(rows: Sequence[Row]) -> str:
    out = []
    for section in _SECTIONS:
        metrics, table = _pivot(rows, section)
        if not table:
            continue
        header = ["system", "subset", "docs/segs", *metrics]
        widths = [max(len(x) for x in col) for col in zip(header, *table, strict=True)]
        out.append(_TITLES[section])
        for line in [header, *table]:
            out.append("  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip())
        out.append("")
    return "\n".join(out) + "\n"


_LATEX = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#", "$": r"\$",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",
}  # fmt: skip


def _latex_escape(text: str) -> str:
    """``text`` as LaTeX prints it, in one pass (an escape is never escaped again)."""
    return "".join(_LATEX.get(c, c) for c in text)


def _latex(rows: Sequence[Row]) -> str:
    out = []
    for section in _SECTIONS:
        metrics, table = _pivot(rows, section)
        if not table:
            continue
        out += [
            f"% {_TITLES[section]}",
            r"\begin{tabular}{ll" + "r" * (1 + len(metrics)) + "}",
            r"\toprule",
            " & ".join(["System", "Subset", "Docs/segs", *map(_latex_escape, metrics)]) + r" \\",
            r"\midrule",
        ]
        out += [" & ".join(_latex_escape(x) for x in line) + r" \\" for line in table]
        out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


def _csv(rows: Sequence[Row]) -> str:
    buf = io.StringIO()
    fields = list(Row.__dataclass_fields__)
    writer = spreadsheet_dict_writer(buf, fields, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow(r.as_dict())
    return buf.getvalue()


def nested(rows: Sequence[Row]) -> dict[str, Any]:
    """``{system: {section: {subset: {metric: {value, low, high, docs, segments, p}}}}}``."""
    out: dict[str, Any] = {}
    for r in rows:
        d = r.as_dict()
        figure = {k: d[k] for k in ("value", "low", "high", "docs", "segments", "p")}
        out.setdefault(r.system, {}).setdefault(r.section, {}).setdefault(r.subset, {})[
            r.metric
        ] = figure
    return out


def format_rows(rows: Sequence[Row], fmt: str, document: dict[str, Any] | None = None) -> str:
    """The figures in ``fmt`` (one of :data:`FORMATS`); JSON is ``document`` (settings,
    counts, ...) with the figures under ``results``."""
    if fmt == "json":
        import json

        return json.dumps({**(document or {}), "results": nested(rows)}, ensure_ascii=False,
                          indent=1)  # fmt: skip
    if fmt == "csv":
        return _csv(rows)
    if fmt == "latex":
        return _latex(rows)
    return _table(rows)


def chart(rows: Sequence[Row], path: Path, title: str) -> Path:
    """Bars per subset (all and each gender), one per system, with 95 % whiskers; one panel
    per metric."""
    from occbio.report.chart import _pyplot
    from occbio.run import atomic_write

    plt = _pyplot(path.parent)
    chosen = [r for r in rows if r.section in ("quality", "gender accuracy")
              and not r.subset.startswith(OCCUPATION)]  # fmt: skip
    metrics = list(dict.fromkeys(r.metric for r in chosen))
    systems = list(dict.fromkeys(r.system for r in chosen))
    subsets = list(dict.fromkeys(r.subset for r in chosen))
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics) + 1, 3.6), squeeze=False)
    width = 0.8 / max(1, len(systems))
    cells = {(r.system, r.subset, r.metric): r for r in chosen}
    for ax, metric in zip(axes[0], metrics, strict=True):
        for k, system in enumerate(systems):
            xs, ys, lo, hi = [], [], [], []
            for j, subset in enumerate(subsets):
                r = cells.get((system, subset, metric))
                if r is None or math.isnan(r.value):
                    continue
                xs.append(j + (k - (len(systems) - 1) / 2) * width)
                ys.append(r.value)
                lo.append(max(0.0, r.value - r.low) if not math.isnan(r.low) else 0.0)
                hi.append(max(0.0, r.high - r.value) if not math.isnan(r.high) else 0.0)
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=system)
        ax.set_xticks(range(len(subsets)))
        ax.set_xticklabels(subsets, rotation=20)
        ax.set_title(metric)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(systems), frameon=False)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    with atomic_write(path, "wb", encoding=None) as fh:
        fig.savefig(fh, format="png", dpi=110)
    plt.close(fig)
    return path
