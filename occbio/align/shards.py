"""The align stage's unit of work: a shard of people, mined wherever an executor runs it.

People go to shards by a stable hash of their id, so a shard holds the same people whatever
the order of the run's inputs or the machine that mines it. A task carries its documents and
the vectors the embedding cache already holds for their sentences; the worker encodes the rest,
mines every document and sends back the tuples and the new vectors. The caller (one process)
keeps the cache and writes each finished shard to the run directory: workers need no shared
filesystem, and a shard's file is its completion marker.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from occbio.align.background import Background
from occbio.align.cache import check_finite
from occbio.align.encoders import build_encoder
from occbio.align.inputs import Doc
from occbio.align.pipeline import AlignedTuple, block_texts, mine_block
from occbio.config import AlignConfig

__all__ = [
    "ChunkedEncoder",
    "ShardResult",
    "ShardTask",
    "encode_chunk",
    "mine_shard",
    "shard_count",
    "shard_of",
]

#: Sentences per call to the encoder (each encoder batches further inside): progress is
#: reported after each call.
ENCODE_BATCH = 512


def shard_of(doc_id: str, shards: int) -> int:
    """A document's shard: stable across runs, machines and Python processes."""
    digest = hashlib.blake2b(doc_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % shards


def shard_count(docs: int, per_shard: int) -> int:
    return max(1, -(-docs // per_shard))


@dataclass
class ShardTask:
    """One shard's documents (in run order), with what the cache already knows."""

    shard: int
    docs: list[Doc]
    #: per language: the rows of :func:`~occbio.align.pipeline.block_texts`, cached vectors
    #: (zero rows where none) and the mask of rows still to encode
    cached: dict[str, tuple[np.ndarray, np.ndarray]]


@dataclass
class ShardResult:
    shard: int
    #: per document, in the task's order: id, tuples, how it counts
    docs: list[tuple[str, list[AlignedTuple], str]]
    #: per language: the sentences encoded for this shard and their vectors
    encoded: dict[str, tuple[list[str], np.ndarray]]
    stats: Counter[str] = field(default_factory=Counter)
    timings: Counter[str] = field(default_factory=Counter)


def mine_shard(
    task: ShardTask,
    *,
    encoder: tuple[str, Mapping[str, Any]],
    langs: Sequence[str],
    pivot: str,
    cfg: AlignConfig,
    backgrounds: Mapping[str, Background] | None,
    offsets: Mapping[str, float],
    on_progress: Callable[[int], object] | None = None,
) -> ShardResult:
    """Encode what the cache lacked, then mine every document of the shard (on any worker).

    ``on_progress`` (in this process only) hears of every batch of sentences embedded or
    found in the cache, so a progress bar follows the encoder rather than whole shards.
    """
    report = on_progress or (lambda n: None)
    name, options = encoder
    model = build_encoder(name, **options)  # once per process
    stats: Counter[str] = Counter()
    timings: Counter[str] = Counter()
    flat: dict[str, np.ndarray] = {}
    encoded: dict[str, tuple[list[str], np.ndarray]] = {}
    for lang, texts in block_texts(task.docs, langs).items():
        vectors, missing = task.cached[lang]
        vectors = vectors.copy()  # the task's arrays may be read-only (sent by Dask)
        todo = list(dict.fromkeys(texts[i] for i in np.flatnonzero(missing)))
        report(len(texts) - len(todo))
        start = time.perf_counter()
        new = np.empty((len(todo), vectors.shape[1]), np.float32)
        for at in range(0, len(todo), ENCODE_BATCH):
            batch = todo[at : at + ENCODE_BATCH]
            new[at : at + len(batch)] = model.encode(batch, lang)
            report(len(batch))
        check_finite(new, todo, f"{name} ({lang})")  # a NaN vector is never mined with
        timings["embed_seconds"] += time.perf_counter() - start
        row_of = {text: i for i, text in enumerate(todo)}
        for i in np.flatnonzero(missing):
            vectors[i] = new[row_of[texts[i]]]
        flat[lang] = vectors
        encoded[lang] = (todo, new)
        stats["sentences_embedded"] += len(todo)
        stats["sentences_from_cache"] += len(texts) - len(todo)
    docs = mine_block(
        task.docs, flat, langs=langs, pivot=pivot, cfg=cfg, backgrounds=backgrounds,
        offsets=offsets, timings=timings,
    )  # fmt: skip
    for _, tuples, kind in docs:
        stats[kind] += 1
        stats["tuples_mined"] += len(tuples)
    return ShardResult(task.shard, docs, encoded, stats, timings)


def encode_chunk(
    chunk: tuple[int, str, list[str]], *, encoder: tuple[str, Mapping[str, Any]]
) -> tuple[int, np.ndarray]:
    """One chunk of sentences embedded (on any worker): ``(position, lang, sentences)`` in,
    ``(position, vectors)`` out."""
    position, lang, sentences = chunk
    name, options = encoder
    return position, build_encoder(name, **options).encode(sentences, lang)


class ChunkedEncoder:
    """An encoder whose calls are cut into :data:`ENCODE_BATCH`-sentence chunks run by an
    executor: the background samples are embedded by the workers too, not by the process
    that reads the inputs. The chunks are the same under every executor, so are the vectors."""

    def __init__(self, encoder: Any, spec: tuple[str, Mapping[str, Any]], executor: Any) -> None:
        self.name = encoder.name
        self.dim = encoder.dim
        self.spec = spec
        self.executor = executor

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        chunks = [
            (i, lang, list(sentences[at : at + ENCODE_BATCH]))
            for i, at in enumerate(range(0, len(sentences), ENCODE_BATCH))
        ]
        parts: dict[int, np.ndarray] = dict(
            self.executor.run_tasks(encode_chunk, chunks, shared={"encoder": self.spec})
        )
        if not parts:
            return np.empty((0, self.dim), np.float32)
        return np.concatenate([parts[i] for i in range(len(chunks))]).astype(np.float32)
