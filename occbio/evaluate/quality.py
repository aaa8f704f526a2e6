"""BLEU, chrF and chrF++ through sacrebleu, as sufficient statistics per segment, so that any
subset's corpus score (and a bootstrap resample's) is sacrebleu's score of the summed
statistics: the same number ``sacrebleu REF -i HYP -m bleu chrf`` prints for those lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["METRICS", "QualityError", "QualityMetric", "make_metrics", "segment_statistics"]

#: the metrics, by the names sacrebleu prints
METRICS = ("BLEU", "chrF", "chrF++")
#: references whose n-grams sacrebleu holds at once (chrF++'s counters take about 40 kB a
#: segment: 10,000 references at once were 400 MB)
REFERENCE_CHUNK = 1000


class QualityError(ValueError):
    """A metric that cannot be built as asked (one line)."""


class QualityMetric:
    """One sacrebleu metric: statistics per segment, a score from summed statistics."""

    def __init__(self, name: str, tgt: str, tokenize: str | None = None) -> None:
        from sacrebleu.metrics import BLEU, CHRF

        self.name = name
        try:
            if name == "BLEU":
                self.metric = BLEU(trg_lang=tgt, tokenize=tokenize)
            elif name == "chrF":
                self.metric = CHRF()
            elif name == "chrF++":
                self.metric = CHRF(word_order=2)
            else:
                raise QualityError(f"unknown metric {name!r}: choose from {', '.join(METRICS)}")
        except (ImportError, RuntimeError) as exc:  # ja-mecab, ko-mecab: an extra package
            why = " ".join(str(exc).split())
            raise QualityError(
                f"sacrebleu cannot tokenize {tgt!r} for BLEU here ({why}); or choose another "
                "tokenizer with --tokenize (e.g. --tokenize char)"
            ) from None
        except KeyError:  # sacrebleu's table of tokenizers
            raise QualityError(f"unknown BLEU tokenizer {tokenize!r} (--tokenize)") from None

    def signature(self) -> str:
        """sacrebleu's signature (known once statistics were extracted: it counts references)."""
        return str(self.metric.get_signature())

    def segment_stats(
        self, systems: Mapping[str, Sequence[str]], references: Sequence[str]
    ) -> dict[str, np.ndarray]:
        """Each system's (segments x statistics) integers. The references' n-grams are
        extracted once for all systems, a chunk at a time, so memory stays flat."""
        rows: dict[str, list[list[int]]] = {name: [] for name in systems}
        for start in range(0, len(references), REFERENCE_CHUNK):
            end = start + REFERENCE_CHUNK
            self.metric._ref_cache = self.metric._cache_references([list(references[start:end])])
            for name, hyps in systems.items():
                rows[name] += self.metric._extract_corpus_statistics(list(hyps[start:end]), None)
        self.metric._ref_cache = None
        return {name: np.asarray(r, dtype=np.int64) for name, r in rows.items()}

    def score(self, stats: np.ndarray) -> float:
        """The corpus score of summed statistics (NaN when nothing was summed)."""
        if not stats.any():
            return float("nan")
        return float(self.metric._compute_score_from_stats([int(x) for x in stats]).score)

    def scores(self, stats: np.ndarray) -> np.ndarray:
        """:meth:`score` of each row."""
        return np.array([self.score(row) for row in stats])


def make_metrics(
    names: Sequence[str], tgt: str, tokenize: str | None = None
) -> list[QualityMetric]:
    return [QualityMetric(n, tgt, tokenize) for n in names]


def segment_statistics(
    metrics: Sequence[QualityMetric],
    systems: Mapping[str, Sequence[str]],
    references: Sequence[str],
) -> dict[str, dict[str, np.ndarray]]:
    """metric name -> system -> (segments x statistics). With one reference, chrF's statistics
    are the character triplets that begin chrF++'s, so chrF is not extracted again when
    chrF++ is (a third of the time of the three metrics)."""
    names = [m.name for m in metrics]
    out = {}
    for metric in metrics:
        if metric.name == "chrF" and "chrF++" in names:
            continue
        out[metric.name] = metric.segment_stats(systems, references)
    if "chrF" in names and "chrF++" in names:
        chrf = next(m for m in metrics if m.name == "chrF").metric
        plus = next(m for m in metrics if m.name == "chrF++").metric
        chrf.num_refs = plus.num_refs  # what extraction sets; sacrebleu's signature needs it
        width = 3 * chrf.char_order
        out["chrF"] = {name: stats[:, :width] for name, stats in out["chrF++"].items()}
    return out
