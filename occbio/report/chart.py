"""PNG charts: people per occupation by gender, and the gender of the words, before and after
balancing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["gender_gap_chart", "occupation_chart"]

#: Colour-blind-safe (Okabe–Ito) colours for the first categories.
_COLOURS = ["#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999"]


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
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
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


def gender_gap_chart(
    path: Path,
    before: Mapping[str, tuple[float, float]],
    after: Mapping[str, tuple[float, float]],
    *,
    title: str = "",
) -> Path:
    """Feminine and masculine person nouns (% of words, GENDER-GAP lexicon) per language, in
    the aligned tuples before balancing and in the balanced corpus. ``before``/``after`` map a
    language to ``(feminine, masculine)``. The file is written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from occbio.run import atomic_write

    langs = sorted(set(before) | set(after))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
    width = 0.38
    panels = (("before balancing", before), ("balanced corpus", after))
    classes = (("feminine", _COLOURS[0]), ("masculine", _COLOURS[1]))
    for ax, (panel, data) in zip(axes, panels, strict=True):
        xs = range(len(langs))
        for k, (label, colour) in enumerate(classes):
            values = [data.get(lang, (0.0, 0.0))[k] for lang in langs]
            ax.bar([x + (k - 0.5) * width for x in xs], values, width, label=label, color=colour)
        ax.set_xticks(list(xs), langs)
        ax.set_title(panel)
    axes[0].set_ylabel("% of words")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=2, frameon=False)
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    with atomic_write(path, "wb", encoding=None) as fh:
        fig.savefig(fh, format="png", dpi=110)
    plt.close(fig)
    return path
