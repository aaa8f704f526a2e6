"""BLEU, chrF and chrF++ through sacrebleu, as sufficient statistics per segment, so that any
subset's corpus score (and a bootstrap resample's) is sacrebleu's score of the summed
statistics: the same number ``sacrebleu REF -i HYP -m bleu chrf`` prints for those lines."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["METRICS", "QualityError", "QualityMetric", "make_metrics"]

#: the metrics, by the names sacrebleu prints
METRICS = ("BLEU", "chrF", "chrF++")


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

    def segment_stats(self, hypotheses: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """(segments x statistics) integers."""
        stats = self.metric._extract_corpus_statistics(list(hypotheses), [list(references)])
        return np.asarray(stats, dtype=np.int64)

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
