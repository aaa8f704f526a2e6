"""The evaluation itself, on plain data: quality (BLEU, chrF, chrF++, COMET when given) and
MT-GenEval gender accuracy per subset (all, each gender, each occupation with enough
documents), the gap between two genders and the difference between two systems, each with a
95 % interval from one bootstrap over documents shared by every figure (so a gap and a paired
comparison see the same resampled documents).

Every figure is on a 0-100 scale (accuracy and COMET times 100).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from occbio.evaluate.bootstrap import interval, resample_weights, two_sided_p
from occbio.evaluate.gender_accuracy import decide, gendered_words
from occbio.evaluate.quality import QualityMetric, segment_statistics

__all__ = ["Data", "Result", "Row", "Settings", "evaluate"]

ACCURACY = "accuracy"
FOLLOWS = "follows source"
#: the prefix of an occupation's subset name
OCCUPATION = "occupation: "


@dataclass(frozen=True)
class Settings:
    resamples: int = 1000
    seed: int = 12345
    #: an occupation is a subset when it has at least this many documents
    min_docs: int = 10
    #: gender gaps to report, (a, b) for a - b
    gaps: tuple[tuple[str, str], ...] = (("female", "male"),)
    #: system pairs to compare, (x, y) for x - y; empty: every system against the first
    compare: tuple[tuple[str, str], ...] = ()


@dataclass
class Data:
    """The test set for one direction, segment by segment (plain lists of equal length)."""

    docs: list[str]
    genders: Mapping[str, str]  # doc -> gender
    occupations: Mapping[str, Sequence[str]]  # doc -> occupation labels
    references: list[str]
    systems: dict[str, list[str]]
    #: the reference in the other gender, None where the segment has no confident one
    counterfactuals: list[str | None] = field(default_factory=list)
    #: each system's translation of the counterfactual source (None where there is none)
    counterfactual_systems: dict[str, list[str | None]] = field(default_factory=dict)
    #: segment-level COMET scores per system
    comet: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Row:
    """One figure: ``section`` is quality, gender accuracy, gap, comparison or contrastive."""

    system: str
    section: str
    subset: str
    metric: str
    value: float
    low: float
    high: float
    #: the subset's size (None for gaps and comparisons, which span two)
    docs: int | None
    segments: int | None
    p: float | None = None

    def as_dict(self) -> dict:
        """The row for JSON and CSV: NaN as None, figures to six decimals."""
        return {
            k: (None if np.isnan(v) else round(v, 6)) if isinstance(v, float) else v
            for k, v in asdict(self).items()
        }


@dataclass
class Result:
    """Every figure, and each document's own scores (``{system: {doc: {metric: value}}}``)."""

    rows: list[Row]
    documents: dict[str, dict[str, dict[str, float]]]


class _Sums:
    """Per-document sums of a statistic and their bootstrap resamples for any subset."""

    def __init__(self, seg_doc: np.ndarray, n_docs: int, weights: np.ndarray) -> None:
        self.seg_doc, self.n_docs, self.weights = seg_doc, n_docs, weights

    def per_doc(self, per_segment: np.ndarray) -> np.ndarray:
        shape = (self.n_docs, *per_segment.shape[1:])
        out = np.zeros(shape, dtype=np.float64)
        np.add.at(out, self.seg_doc, per_segment)
        return out

    def point_and_boot(self, per_doc: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
        return per_doc[mask].sum(axis=0), self.weights[:, mask] @ per_doc[mask]


def _ratio(num: np.ndarray | float, den: np.ndarray | float) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return 100.0 * np.asarray(num, dtype=float) / np.asarray(den, dtype=float)


def evaluate(data: Data, metrics: Sequence[QualityMetric], settings: Settings) -> Result:
    """Every figure of the evaluation (see :class:`Row`) and the scores of each document."""
    doc_ids = list(dict.fromkeys(data.docs))
    position = {d: i for i, d in enumerate(doc_ids)}
    seg_doc = np.array([position[d] for d in data.docs], dtype=np.int64)
    doc_gender = [data.genders.get(d, "unknown") for d in doc_ids]
    weights = resample_weights(doc_gender, settings.resamples, settings.seed)
    sums = _Sums(seg_doc, len(doc_ids), weights)
    seg_counts = np.bincount(seg_doc, minlength=len(doc_ids)).astype(float)

    subsets = _subsets(data, doc_ids, doc_gender, settings.min_docs)

    rows: list[Row] = []
    documents: dict[str, dict[str, dict[str, float]]] = {}
    boots: dict[tuple[str, str, str], tuple[float, np.ndarray]] = {}

    def add(system: str, section: str, subset: str, metric: str, mask: np.ndarray,
            point: float, boot: np.ndarray, segments: int) -> None:  # fmt: skip
        if mask.sum() < 2:  # one document resampled is always itself: no interval to give
            boot = np.full(len(boot), np.nan)
        low, high = interval(boot)
        rows.append(Row(system, section, subset, metric, point, low, high, int(mask.sum()),
                        segments))  # fmt: skip
        boots[(system, metric, subset)] = (point, boot)

    seg_stats = segment_statistics(metrics, data.systems, data.references)
    for system, hyps in data.systems.items():
        per_system = documents[system] = {d: {} for d in doc_ids}
        for metric in metrics:
            per_doc = sums.per_doc(seg_stats[metric.name][system])
            for doc, value in zip(doc_ids, metric.scores(per_doc), strict=True):
                per_system[doc][metric.name] = float(value)
            for subset, mask in subsets:
                stats, boot_stats = sums.point_and_boot(per_doc, mask)
                n_seg = int(seg_counts[mask].sum())
                add(system, "quality", subset, metric.name, mask,
                    metric.score(stats), metric.scores(boot_stats), n_seg)  # fmt: skip
        if system in data.comet:
            per_doc = sums.per_doc(np.asarray(data.comet[system], dtype=float))
            for subset, mask in subsets:
                total, boot = sums.point_and_boot(per_doc, mask)
                counts, boot_n = sums.point_and_boot(seg_counts, mask)
                add(system, "quality", subset, "COMET", mask, float(_ratio(total, counts)),
                    _ratio(boot, boot_n), int(counts))  # fmt: skip
        accuracy = _accuracy_flags(data, hyps)
        _binary_section(data, system, accuracy, ACCURACY, subsets, sums, add)
        judged = np.isfinite(accuracy)
        correct, count = sums.per_doc(np.where(judged, accuracy, 0.0)), sums.per_doc(1.0 * judged)
        for doc, c, n in zip(doc_ids, correct, count, strict=True):
            if n:
                per_system[doc][ACCURACY] = 100.0 * c / n
        if system in data.counterfactual_systems:
            flags = _follow_flags(data, hyps, data.counterfactual_systems[system])
            _binary_section(data, system, flags, FOLLOWS, subsets, sums, add)

    rows += _differences(data, metrics, settings, subsets, boots)
    return Result(rows, documents)


def _subsets(
    data: Data, doc_ids: list[str], doc_gender: list[str], min_docs: int
) -> list[tuple[str, np.ndarray]]:
    """(name, document mask): all, each gender (female, male, then the others, largest first),
    then each occupation with at least ``min_docs`` documents (largest first)."""
    subsets = [("all", np.ones(len(doc_ids), dtype=bool))]
    counts = Counter(doc_gender)
    for gender in sorted(counts, key=lambda g: (g != "female", g != "male", -counts[g], g)):
        subsets.append((gender, np.array([g == gender for g in doc_gender])))
    occ_docs = Counter(o for d in doc_ids for o in dict.fromkeys(data.occupations.get(d, ())))
    for occ, n in sorted(occ_docs.items(), key=lambda kv: (-kv[1], kv[0])):
        if n >= min_docs:
            mask = np.array([occ in data.occupations.get(d, ()) for d in doc_ids])
            subsets.append((f"{OCCUPATION}{occ}", mask))
    return subsets


def _accuracy_flags(data: Data, hyps: Sequence[str]) -> np.ndarray:
    """Per segment: 1 correct, 0 wrong, NaN not judged (no confident counterfactual, or no
    word of the counterfactual reference unique to it, so nothing could be wrong)."""
    flags = np.full(len(hyps), np.nan)
    for i, cf in enumerate(data.counterfactuals):
        if cf is not None and gendered_words(data.references[i], cf)[1]:
            flags[i] = decide(hyps[i], data.references[i], cf).correct
    return flags


def _follow_flags(data: Data, hyps: Sequence[str], cf_hyps: Sequence[str | None]) -> np.ndarray:
    """Per segment: 1 when both translations have their own source's gender (the output's
    gender followed the source's), 0 when not, NaN when it cannot be judged."""
    flags = np.full(len(hyps), np.nan)
    for i, cf in enumerate(data.counterfactuals):
        cf_hyp = cf_hyps[i]
        if cf is None or cf_hyp is None:
            continue
        ref = data.references[i]
        if gendered_words(ref, cf)[1] and gendered_words(cf, ref)[1]:
            flags[i] = decide(hyps[i], ref, cf).correct and decide(cf_hyp, cf, ref).correct
    return flags


def _binary_section(
    data: Data,
    system: str,
    flags: np.ndarray,
    metric: str,
    subsets: list[tuple[str, np.ndarray]],
    sums: _Sums,
    add: Callable[..., None],
) -> None:
    """A share of segments (accuracy, contrastive) per subset, from 0/1/NaN flags."""
    judged = np.isfinite(flags)
    if not judged.any():
        return
    correct = sums.per_doc(np.where(judged, flags, 0.0))
    count = sums.per_doc(judged.astype(float))
    section = "gender accuracy" if metric == ACCURACY else "contrastive"
    for subset, mask in subsets:
        c, boot_c = sums.point_and_boot(correct, mask)
        n, boot_n = sums.point_and_boot(count, mask)
        if n:
            add(system, section, subset, metric, mask & (count > 0), float(_ratio(c, n)),
                _ratio(boot_c, boot_n), int(n))  # fmt: skip


def _differences(
    data: Data,
    metrics: Sequence[QualityMetric],
    settings: Settings,
    subsets: list[tuple[str, np.ndarray]],
    boots: dict[tuple[str, str, str], tuple[float, np.ndarray]],
) -> list[Row]:
    """Gender gaps within each system and differences between systems, paired on the
    same resampled documents."""
    names = [m.name for m in metrics] + ["COMET", ACCURACY, FOLLOWS]
    present = {s for s, _m in subsets}
    rows = []
    for system in data.systems:
        for a, b in settings.gaps:
            if a not in present or b not in present:
                continue
            for metric in names:
                if (system, metric, a) in boots and (system, metric, b) in boots:
                    (pa, ba), (pb, bb) = boots[(system, metric, a)], boots[(system, metric, b)]
                    low, high = interval(ba - bb)
                    rows.append(Row(system, "gap", f"{a} - {b}", metric, pa - pb, low, high,
                                    None, None, two_sided_p(ba - bb)))  # fmt: skip
    systems = list(data.systems)
    pairs = settings.compare or tuple((x, systems[0]) for x in systems[1:])
    for x, y in pairs:
        for subset in [s for s, _mask in subsets if not s.startswith(OCCUPATION)]:
            for metric in names:
                if (x, metric, subset) in boots and (y, metric, subset) in boots:
                    (px, bx), (py, by) = boots[(x, metric, subset)], boots[(y, metric, subset)]
                    low, high = interval(bx - by)
                    rows.append(Row(f"{x} - {y}", "comparison", subset, metric, px - py, low,
                                    high, None, None, two_sided_p(bx - by)))  # fmt: skip
    return rows
