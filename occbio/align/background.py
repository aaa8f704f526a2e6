"""Language-wide neighbourhoods for the margin: a fixed-size sample of each language's sentences.

The margin divides a pair's cosine by how close each sentence is to its k nearest neighbours in
the other language. Taken inside one document pair (the within-document margin), that
neighbourhood is the document itself: a one-sentence stub scores cos/cos = 1 and can never
align, and in a 3-sentence document the best random pair clears any useful threshold. Taken
against *every* sentence of the other language (WikiMatrix, stopes), the scores mean the same in
documents of any size.

Here the neighbourhood of a sentence is the other language's sentences of its own document
plus a **background**: a sample of at most ``size`` sentences of that language from the rest
of the run (rows of the sentence's own document excluded, since they are already counted).
The sample is the ``size`` sentences with the smallest hash of their text (a bottom-k sketch):
it is drawn in one streaming pass, does not depend on the order of the input, and the same
sentence is in or out of it whatever else the run holds. A fixed size keeps the index small
(exact inner-product search) and makes scores comparable between a 30-person sample and a
million-person run once the pool exceeds ``size``; below it the denominators are computed
from fewer sentences and the caller corrects scores with :func:`pool_offset`.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import faiss
import numpy as np

from occbio.align.margin import neighbourhood_means
from occbio.io.binary import save_npy
from occbio.run import atomic_write

__all__ = [
    "Background",
    "BackgroundSampler",
    "doc_denominators",
    "pool_offset",
]


def _text_key(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


class BackgroundSampler:
    """Streaming bottom-``size`` sample of distinct sentence texts, with the document of each
    (the first document a text was seen in, so the result is order-independent only up to
    that) and the number of sentences seen (the pool)."""

    def __init__(self, size: int) -> None:
        if size < 0:
            raise ValueError(f"background size must be >= 0, got {size}")
        self.size = size
        self.pool = 0
        self._heap: list[tuple[int, str, str]] = []  # (-key, text, doc): a max-heap on key
        self._keys: set[int] = set()

    def add(self, text: str, doc: str) -> None:
        self.pool += 1
        if self.size == 0:
            return
        key = _text_key(text)
        if key in self._keys:
            return
        if len(self._heap) < self.size:
            heapq.heappush(self._heap, (-key, text, doc))
            self._keys.add(key)
        elif key < -self._heap[0][0]:
            old = heapq.heapreplace(self._heap, (-key, text, doc))
            self._keys.discard(-old[0])
            self._keys.add(key)

    def add_all(self, texts: Iterable[str], doc: str) -> None:
        for text in texts:
            self.add(text, doc)

    def sample(self) -> list[tuple[str, str]]:
        """``(text, doc)`` of the sample, ordered by hash (deterministic)."""
        return [(text, doc) for _, text, doc in sorted(self._heap, reverse=True)]


@dataclass
class Background:
    """One language's background sample: unit vectors, each row's document, and the number
    of the language's sentences in the run it was drawn from."""

    lang: str
    vectors: np.ndarray
    docs: np.ndarray  # str, one per row
    pool_size: int
    #: What the sample was built from (input, encoder, size): a saved sample is reused only
    #: when this matches.
    fingerprint: str = ""
    _index: faiss.Index | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.vectors)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Cosines and row ids of each query's ``k`` nearest background rows (exact)."""
        k_eff = min(k, len(self))
        if k_eff == 0 or len(queries) == 0:
            shape = (len(queries), k_eff)
            return np.zeros(shape, np.float32), np.zeros(shape, np.int64)
        if self._index is None:
            self._index = faiss.IndexFlatIP(self.vectors.shape[1])
            self._index.add(np.ascontiguousarray(self.vectors, np.float32))
        return self._index.search(np.ascontiguousarray(queries, np.float32), k_eff)

    def save(self, path: Path) -> None:
        """``path`` (.npy vectors) and ``path`` + ``.json`` (documents, pool size), atomically."""
        save_npy(path, np.ascontiguousarray(self.vectors, np.float32))
        meta = {
            "lang": self.lang,
            "pool_size": self.pool_size,
            "fingerprint": self.fingerprint,
            "docs": self.docs.tolist(),
        }
        with atomic_write(Path(f"{path}.json")) as fh:
            json.dump(meta, fh, ensure_ascii=False)

    @classmethod
    def load(cls, path: Path) -> Background:
        meta = json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))
        vectors = np.load(path, allow_pickle=False)
        docs = np.array(meta["docs"], dtype=str)
        if vectors.ndim != 2 or len(vectors) != len(docs):
            raise ValueError(f"{path}: {vectors.shape} vectors for {len(docs)} documents")
        return cls(meta["lang"], vectors, docs, int(meta["pool_size"]), str(meta["fingerprint"]))


def doc_denominators(
    queries: Sequence[np.ndarray],
    others: Sequence[np.ndarray],
    doc_ids: Sequence[str],
    background: Background,
    k: int,
) -> list[np.ndarray]:
    """Neighbourhood means of every document's query sentences in the other language.

    ``queries[d]`` are document ``d``'s sentences in one language, ``others[d]`` its sentences
    in the other language, whose ``background`` is searched. One batched search serves all the
    documents; a sentence's neighbourhood is the ``k`` nearest among ``others[d]`` and the
    background rows of other documents.
    """
    if not queries:
        return []
    bg_sims, bg_ids = background.search(np.concatenate(queries), k)
    out = []
    start = 0
    for q, other, doc in zip(queries, others, doc_ids, strict=True):
        n = len(q)
        sims = bg_sims[start : start + n].copy()
        sims[background.docs[bg_ids[start : start + n]] == doc] = -np.inf
        own = np.asarray(q, np.float32) @ np.asarray(other, np.float32).T
        out.append(neighbourhood_means(own, sims, k))
        start += n
    return out


def pool_offset(background_rows: int, size: int, drift: float) -> float:
    """What to subtract from a margin whose denominators came from only ``background_rows``
    sentences instead of ``size``: ``drift`` per halving of the background (a smaller pool
    holds fewer close neighbours, so margins come out higher)."""
    if background_rows <= 0 or background_rows >= size or drift == 0:
        return 0.0
    return drift * math.log2(size / background_rows)
