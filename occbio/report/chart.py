"""PNG charts: people per occupation by gender, and the gender of the words, before and after
balancing.

matplotlib keeps its settings and font cache under ``~/.config/matplotlib`` and
``~/.cache/matplotlib``; an occbio run writes nowhere but its run directory, so unless the user
chose a place (``MPLCONFIGDIR``) matplotlib is first imported with a temporary folder inside
the run directory, removed once it has read it (see :func:`_pyplot`).
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

from occbio.audit.lexicon_result import LexiconResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["gender_gap_chart", "gender_gap_figure", "occupation_chart", "wilson_interval"]

#: Colour-blind-safe (Okabe–Ito) colours for the first categories.
_COLOURS = ["#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999"]
#: The normal quantile of a two-sided 95 % interval.
_Z95 = 1.959963984540054


def _pyplot(run_dir: Path | None = None) -> ModuleType:
    """``matplotlib.pyplot`` on the Agg backend. On its first import in this process, and unless
    ``MPLCONFIGDIR`` says where, matplotlib's config and font cache go to a temporary folder in
    ``run_dir`` (the system's temporary folder when ``None``), which is removed once matplotlib
    has read it; the environment is restored."""
    if "matplotlib" not in sys.modules and "MPLCONFIGDIR" not in os.environ:
        if run_dir is not None:
            run_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".matplotlib-", dir=run_dir) as scratch:
            os.environ["MPLCONFIGDIR"] = scratch
            try:
                import matplotlib

                matplotlib.use("Agg")
                import matplotlib.pyplot
            finally:
                del os.environ["MPLCONFIGDIR"]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def occupation_chart(
    path: Path,
    before: Mapping[str, Mapping[str, int]],
    after: Mapping[str, Mapping[str, int]],
    genders: Sequence[str],
    *,
    labels: Mapping[str, str] | None = None,
    top: int = 20,
    title: str = "",
    balanced: str = "balanced",
) -> Path:
    """Grouped horizontal bars, one panel before and one after balancing.

    ``before``/``after`` map an occupation QID to {gender: people}. The ``top`` occupations
    by people before balancing are drawn (labels from ``labels``, else the QID). ``balanced``
    titles the second panel: what the balancing worked on, so that a reader sees why an
    occupation vanished. People are whole numbers, and so are the axis ticks. The file is
    written atomically.
    """
    plt = _pyplot(path.parent)
    from matplotlib.ticker import MaxNLocator

    from occbio.run import atomic_write

    labels = labels or {}
    order = sorted(before, key=lambda q: (-sum(before[q].values()), q))[:top]
    order.reverse()  # the biggest at the top of the chart
    height = max(3.0, 0.35 * len(order) * max(1, len(genders)) / 2 + 1.5)
    fig, axes = plt.subplots(1, 2, figsize=(12, height), sharex=True, sharey=True)
    bar = 0.8 / max(1, len(genders))
    for ax, data, name in (
        (axes[0], before, "aligned (before balancing)"),
        (axes[1], after, balanced),
    ):
        for i, gender in enumerate(genders):
            ys = [k + (i - (len(genders) - 1) / 2) * bar for k in range(len(order))]
            xs = [data.get(q, {}).get(gender, 0) for q in order]
            ax.barh(ys, xs, height=bar, label=gender, color=_COLOURS[i % len(_COLOURS)])
        ax.set_title(name)
        ax.set_xlabel("people")
        ax.grid(axis="x", alpha=0.3)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set_yticks(range(len(order)))
    axes[0].set_yticklabels([labels.get(q) or q for q in order])
    axes[1].legend(loc="lower right")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    with atomic_write(path, "wb", encoding=None) as fh:
        fig.savefig(fh, format="png", dpi=110)
    plt.close(fig)
    return path


def wilson_interval(count: int, total: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of the share ``count / total`` (95 % by default), as fractions;
    ``(0, 0)`` when ``total`` is 0. Unlike the normal approximation it stays within [0, 1] and
    is not empty for a share of 0, which small corpora and rare words often have.

    >>> [round(x, 4) for x in wilson_interval(0, 100)]
    [0.0, 0.037]
    """
    if total <= 0:
        return 0.0, 0.0
    share = count / total
    scale = 1.0 + z * z / total
    centre = (share + z * z / (2 * total)) / scale
    half = z / scale * math.sqrt(share * (1.0 - share) / total + z * z / (4 * total * total))
    return max(0.0, centre - half), min(1.0, centre + half)


class _Bar(NamedTuple):
    """One bar of the gender-gap chart: its height and interval (% of words), its count."""

    percent: float
    below: float
    above: float
    count: int | None
    words: int


def _gap_bars(value: LexiconResult) -> tuple[_Bar, _Bar]:
    """The feminine and the masculine bar of one language (no number where no word was
    audited: the language is not in that corpus)."""

    def bar(percent: float, count: int) -> _Bar:
        lo, hi = wilson_interval(count, value.words)
        if not value.words:
            return _Bar(percent, 0.0, 0.0, None, 0)
        return _Bar(percent, max(0.0, percent - 100 * lo), max(0.0, 100 * hi - percent), count,
                    value.words)  # fmt: skip

    return bar(value.feminine, value.feminine_count), bar(value.masculine, value.masculine_count)


def gender_gap_figure(
    before: Mapping[str, LexiconResult],
    after: Mapping[str, LexiconResult],
    *,
    title: str = "",
) -> Figure:
    """The figure of :func:`gender_gap_chart`: per language, a bar of the feminine and of the
    masculine person nouns (% of words) with its 95 % Wilson interval and, above it, the number
    of words counted; the words audited under the language's name."""
    plt = _pyplot()
    langs = sorted(set(before) | set(after))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    width = 0.38
    panels = (("before balancing", before), ("balanced corpus", after))
    classes = (("feminine", _COLOURS[0]), ("masculine", _COLOURS[1]))
    for ax, (panel, data) in zip(axes, panels, strict=True):
        bars = [_gap_bars(data.get(lang, LexiconResult(lang))) for lang in langs]
        for k, (label, colour) in enumerate(classes):
            drawn = [pair[k] for pair in bars]
            xs = [x + (k - 0.5) * width for x in range(len(langs))]
            ax.bar(
                xs, [b.percent for b in drawn], width, label=label, color=colour,
                yerr=[[b.below for b in drawn], [b.above for b in drawn]], capsize=3,
                error_kw={"elinewidth": 1, "ecolor": "#333333"},
            )  # fmt: skip
            for x, b in zip(xs, drawn, strict=True):
                if b.count is not None:
                    ax.annotate(
                        f"{b.count:,}", (x, b.percent + b.above), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=7,
                    )  # fmt: skip
        ticks = [f"{lang}\n{pair[0].words:,} words" if pair[0].words else lang
                 for lang, pair in zip(langs, bars, strict=True)]  # fmt: skip
        ax.set_xticks(list(range(len(langs))), ticks)
        ax.set_title(panel)
        ax.margins(y=0.15)  # room for the counts above the tallest interval
    axes[0].set_ylabel("% of words")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower left", bbox_to_anchor=(0.06, 0), ncol=2, frameon=False)
    fig.text(0.99, 0.01, "whiskers: 95 % Wilson interval; numbers: person nouns counted",
             ha="right", va="bottom", fontsize=7, color="#555555")  # fmt: skip
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def gender_gap_chart(
    path: Path,
    before: Mapping[str, LexiconResult],
    after: Mapping[str, LexiconResult],
    *,
    title: str = "",
) -> Path:
    """Feminine and masculine person nouns (% of words, GENDER-GAP lexicon) per language, in
    the aligned tuples before balancing and in the balanced corpus (:func:`gender_gap_figure`).
    ``before``/``after`` map a language to its audit (:class:`LexiconResult`, whose counts give
    the numbers and intervals).
    The file is written atomically."""
    plt = _pyplot(path.parent)
    from occbio.run import atomic_write

    fig = gender_gap_figure(before, after, title=title)
    with atomic_write(path, "wb", encoding=None) as fh:
        fig.savefig(fh, format="png", dpi=110)
    plt.close(fig)
    return path
