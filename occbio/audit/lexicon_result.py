"""The result of a GENDER-GAP lexicon audit: exact counts, the figures derived from them.

:class:`LexiconResult` holds the raw counts of an audit (lines, matched lines, words, and the
words of each class) and derives the scores, ``coverage``, ``gap``, ``ste`` and ``skewed`` as
:mod:`occbio.audit.lexicon` defines them. The counts are plain integers, so results add up
exactly with ``+`` or :func:`merge_results` (shards, documents, genders or languages audited
separately), and :meth:`~LexiconResult.to_dict` / :meth:`~LexiconResult.from_dict` save and
restore them. Kept apart from the matching and counting (:mod:`occbio.audit.lexicon`), which
produces these results, and from their formatting (:mod:`occbio.audit.report`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["LexiconResult", "merge_results"]


@dataclass(frozen=True)
class LexiconResult:
    """The counts of an audit and the figures derived from them.

    Fields are the raw counts (exact; results of the same or of different corpora add up with
    ``+``); ``feminine``, ``masculine``, ``unspecified`` (percent of words), ``coverage``
    (percent of lines), ``gap``, ``ste`` (percentage points) and ``skewed`` are derived.
    ``both_count`` is the number of words counted as both feminine and masculine (needed for
    the standard error of the difference).
    """

    lang: str
    lines: int = 0
    matched_lines: int = 0
    words: int = 0
    feminine_count: int = 0
    masculine_count: int = 0
    unspecified_count: int = 0
    both_count: int = 0

    def _percent_of_words(self, count: int) -> float:
        return 100.0 * count / self.words if self.words else 0.0

    @property
    def feminine(self) -> float:
        """Feminine matches, percent of words."""
        return self._percent_of_words(self.feminine_count)

    @property
    def masculine(self) -> float:
        """Masculine matches, percent of words."""
        return self._percent_of_words(self.masculine_count)

    @property
    def unspecified(self) -> float:
        """Unspecified-gender matches, percent of words."""
        return self._percent_of_words(self.unspecified_count)

    @property
    def coverage(self) -> float:
        """Lines with at least one match, percent of lines."""
        return 100.0 * self.matched_lines / self.lines if self.lines else 0.0

    @property
    def gap(self) -> float:
        """``|feminine - masculine|``, percentage points."""
        return abs(self.feminine - self.masculine)

    @property
    def ste(self) -> float:
        """Standard error of the mean per-word difference of the feminine and masculine
        indicators, percentage points (sample variance; 0 with fewer than two words)."""
        n = self.words
        if n < 2:
            return 0.0
        total = self.feminine_count - self.masculine_count
        squares = self.feminine_count + self.masculine_count - 2 * self.both_count
        variance = max(0.0, (squares - total * total / n) / (n - 1))
        return 100.0 * math.sqrt(variance / n)

    @property
    def skewed(self) -> bool:
        """True when the gap exceeds twice its standard error."""
        return self.gap > 2.0 * self.ste

    def __add__(self, other: LexiconResult) -> LexiconResult:
        if not isinstance(other, LexiconResult):
            return NotImplemented
        return LexiconResult(
            lang=_join_langs(self.lang, other.lang),
            lines=self.lines + other.lines,
            matched_lines=self.matched_lines + other.matched_lines,
            words=self.words + other.words,
            feminine_count=self.feminine_count + other.feminine_count,
            masculine_count=self.masculine_count + other.masculine_count,
            unspecified_count=self.unspecified_count + other.unspecified_count,
            both_count=self.both_count + other.both_count,
        )

    def to_dict(self, *, digits: int | None = None) -> dict[str, Any]:
        """The JSON record: ``lang words feminine masculine unspecified coverage gap ste``, then
        ``skewed``, ``lines`` and the raw counts. ``digits`` rounds the floats."""

        def num(x: float) -> float:
            return round(x, digits) if digits is not None else x

        return {
            "lang": self.lang,
            "words": self.words,
            "feminine": num(self.feminine),
            "masculine": num(self.masculine),
            "unspecified": num(self.unspecified),
            "coverage": num(self.coverage),
            "gap": num(self.gap),
            "ste": num(self.ste),
            "skewed": self.skewed,
            "lines": self.lines,
            "matched_lines": self.matched_lines,
            "feminine_count": self.feminine_count,
            "masculine_count": self.masculine_count,
            "unspecified_count": self.unspecified_count,
            "both_count": self.both_count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LexiconResult:
        """Rebuild a result from :meth:`to_dict` (its raw counts), e.g. to merge saved audits."""
        return cls(
            lang=str(data["lang"]),
            lines=int(data["lines"]),
            matched_lines=int(data["matched_lines"]),
            words=int(data["words"]),
            feminine_count=int(data["feminine_count"]),
            masculine_count=int(data["masculine_count"]),
            unspecified_count=int(data["unspecified_count"]),
            both_count=int(data.get("both_count", 0)),
        )


def _join_langs(a: str, b: str) -> str:
    langs = dict.fromkeys(x for x in (*a.split("+"), *b.split("+")) if x)
    return "+".join(langs)


def merge_results(results: Iterable[LexiconResult], lang: str | None = None) -> LexiconResult:
    """The result of auditing all the inputs of ``results`` as one corpus.

    ``lang`` names the merged result (default: the languages joined with ``+``).
    """
    merged: LexiconResult | None = None
    for result in results:
        merged = result if merged is None else merged + result
    if merged is None:
        return LexiconResult(lang=lang or "")
    if lang is not None:
        merged = LexiconResult(**{**merged.__dict__, "lang": lang})
    return merged
