"""Embedding cache: every sentence is embedded once per encoder, whatever re-runs follow.

Vectors are stored per encoder and language, content-addressed by a hash of the sentence text,
in shards written atomically (``part-NNNNNN.npy`` vectors + ``part-NNNNNN.keys.npy`` hashes).
A shard is complete or absent, so an interrupted embedding run resumes from the last shard and
a re-run with another threshold, mode or cleaning setting embeds only sentences it has never
seen.

The index stays small at Wikipedia scale: keys live in one sorted numpy array (24 bytes a
sentence with their locations, not a Python dict's ~150), and a shard is mapped only while
rows are copied out of it (an open map holds a file descriptor and counts its pages as the
process's memory).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from occbio.run import atomic_write

__all__ = ["EmbeddingCache"]

log = logging.getLogger(__name__)

_PART = re.compile(r"part-(\d{6})\.keys\.npy$")
_KEY_BYTES = 16  # 128-bit BLAKE2b digest of the sentence text, stored as uint8 rows
_KEY = np.dtype(f"V{_KEY_BYTES}")  # one digest as an opaque value: sortable, searchable


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=_KEY_BYTES).digest()


def _missing(
    parts: np.ndarray, digests: list[bytes], texts: Sequence[str]
) -> list[tuple[bytes, str]]:
    """The (digest, text) pairs located nowhere (``parts`` -1), each once, first seen first."""
    missing: dict[bytes, str] = {}
    for i in np.flatnonzero(parts < 0):
        missing.setdefault(digests[i], texts[i])
    return list(missing.items())


class EmbeddingCache:
    """Content-addressed vectors of one encoder in one language."""

    def __init__(
        self,
        root: Path,
        encoder: str,
        lang: str,
        dim: int,
        *,
        shard_size: int = 4096,
        merge_every: int = 1 << 15,
    ):
        self.dir = Path(root) / encoder / lang
        self.dir.mkdir(parents=True, exist_ok=True)
        self.dim = dim
        self.shard_size = shard_size
        self.merge_every = max(1, merge_every)
        # The index: sorted unique keys and where each lives (shard, row); keys written since
        # the last merge wait in a small dict.
        self._keys = np.empty(0, _KEY)
        self._part = np.empty(0, np.int32)
        self._row = np.empty(0, np.int32)
        self._recent: dict[bytes, tuple[int, int]] = {}
        self._next = 0
        self.dropped_shards = 0
        keys, parts, rows = [], [], []
        for keys_path in sorted(self.dir.glob("part-*.keys.npy")):
            match = _PART.search(keys_path.name)
            vec_path = keys_path.with_name(keys_path.name.replace(".keys.npy", ".npy"))
            if match is None or not vec_path.exists():
                continue
            part = int(match.group(1))
            self._next = max(self._next, part + 1)
            shard_keys = self._verified_keys(keys_path, vec_path)
            if shard_keys is None:
                continue
            keys.append(shard_keys)
            parts.append(np.full(len(shard_keys), part, np.int32))
            rows.append(np.arange(len(shard_keys), dtype=np.int32))
        if keys:
            self._merge(np.concatenate(keys), np.concatenate(parts), np.concatenate(rows))

    def __len__(self) -> int:
        return len(self._keys) + len(self._recent)

    def _verified_keys(self, keys_path: Path, vec_path: Path) -> np.ndarray | None:
        """A shard's keys when both its files are whole numeric arrays that agree (row counts,
        dimension); else the shard is removed, logged and counted in ``dropped_shards``, and
        the sentences it held are simply encoded again when next asked for."""
        try:
            raw = np.load(keys_path, allow_pickle=False)
            vectors = np.load(vec_path, mmap_mode="r", allow_pickle=False)
            ok = (
                raw.dtype == np.uint8
                and raw.ndim == 2
                and raw.shape[1] == _KEY_BYTES
                and vectors.dtype == np.float32
                and vectors.shape == (raw.shape[0], self.dim)
            )
            if ok:
                return raw.reshape(-1).view(_KEY)
            reason = f"keys {raw.dtype}{raw.shape}, vectors {vectors.dtype}{vectors.shape}"
        except (ValueError, OSError, EOFError) as exc:
            reason = str(exc)
        self.dropped_shards += 1
        log.warning("embedding cache: removed the damaged shard %s (%s)", vec_path, reason)
        keys_path.unlink(missing_ok=True)
        vec_path.unlink(missing_ok=True)
        return None

    def _merge(self, keys: np.ndarray, parts: np.ndarray, rows: np.ndarray) -> None:
        """Add keys to the sorted index; a key already there (or repeated) keeps its first place."""
        order = np.argsort(keys, kind="stable")
        keys, parts, rows = keys[order], parts[order], rows[order]
        first = np.ones(len(keys), bool)
        first[1:] = keys[1:] != keys[:-1]
        keys, parts, rows = keys[first], parts[first], rows[first]
        if len(self._keys):
            new = ~self._contains(keys)
            keys, parts, rows = keys[new], parts[new], rows[new]
            at = np.searchsorted(self._keys, keys)
            keys = np.insert(self._keys, at, keys)
            parts = np.insert(self._part, at, parts)
            rows = np.insert(self._row, at, rows)
        self._keys, self._part, self._row = keys, parts, rows

    def _positions(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Index positions of ``keys`` and whether each was found there."""
        at = np.searchsorted(self._keys, keys)
        found = at < len(self._keys)
        found[found] = self._keys[at[found]] == keys[found]
        return at, found

    def _contains(self, keys: np.ndarray) -> np.ndarray:
        return self._positions(keys)[1]

    def _flush_recent(self) -> None:
        if not self._recent:
            return
        keys = np.frombuffer(b"".join(self._recent), _KEY)
        locations = np.array(list(self._recent.values()), np.int32).reshape(-1, 2)
        self._recent = {}
        self._merge(keys, locations[:, 0].copy(), locations[:, 1].copy())

    def _locate(self, digests: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
        """(shard, row) of every digest, -1 where it is not cached."""
        parts = np.full(len(digests), -1, np.int32)
        rows = np.full(len(digests), -1, np.int32)
        if not digests:
            return parts, rows
        keys = np.frombuffer(b"".join(digests), _KEY)
        if len(self._keys):
            at, found = self._positions(keys)
            parts[found], rows[found] = self._part[at[found]], self._row[at[found]]
        if self._recent:
            for i in np.flatnonzero(parts < 0):
                where = self._recent.get(digests[i])
                if where is not None:
                    parts[i], rows[i] = where
        return parts, rows

    def _vectors(self, part: int) -> np.ndarray:
        """A shard's vectors, memory-mapped (the map closes when the array is dropped)."""
        return np.load(self.dir / f"part-{part:06d}.npy", mmap_mode="r")

    def _write_shard(self, keys: list[bytes], vectors: np.ndarray) -> None:
        part = self._next
        # vectors first, keys last: a shard counts only once its keys file exists
        with atomic_write(self.dir / f"part-{part:06d}.npy", "wb", encoding=None) as fh:
            np.save(fh, np.ascontiguousarray(vectors, np.float32))
        with atomic_write(self.dir / f"part-{part:06d}.keys.npy", "wb", encoding=None) as fh:
            # raw uint8 rows: a bytes dtype ("S16") would drop trailing NUL bytes on reading
            np.save(fh, np.frombuffer(b"".join(keys), np.uint8).reshape(-1, _KEY_BYTES))
        for row, key in enumerate(keys):
            self._recent.setdefault(key, (part, row))
        self._next += 1
        # A recent key costs ~200 bytes in the dict, a merged one 24 in the arrays, and a merge
        # copies the arrays: merging once the dict holds a sixteenth of the index keeps both
        # the memory and the copying small.
        if len(self._recent) >= max(self.merge_every, len(self._keys) // 16):
            self._flush_recent()

    def lookup(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The cached vectors of ``texts`` (zero rows where there is none) and a mask of the
        rows that are missing; nothing is encoded."""
        parts, rows = self._locate([_digest(t) for t in texts])
        out = np.zeros((len(texts), self.dim), np.float32)
        for part in np.unique(parts[parts >= 0]):
            here = np.flatnonzero(parts == part)
            out[here] = self._vectors(int(part))[rows[here]]
        return out, parts < 0

    def add(self, texts: Sequence[str], vectors: np.ndarray) -> int:
        """Store vectors encoded elsewhere (a Dask worker); returns how many were new."""
        if vectors.shape != (len(texts), self.dim):
            raise ValueError(f"{vectors.shape} vectors for {len(texts)} sentences, dim {self.dim}")
        row_of = dict(zip(texts, range(len(texts)), strict=True))
        digests = [_digest(t) for t in row_of]
        parts, _ = self._locate(digests)
        missing = _missing(parts, digests, list(row_of))
        return self._store(missing, lambda batch: vectors[[row_of[t] for t in batch]])

    def _store(
        self,
        todo: list[tuple[bytes, str]],
        encode: Callable[[list[str]], np.ndarray],
        on_progress: Callable[[int], None] | None = None,
    ) -> int:
        """Encode ``todo`` ``shard_size`` sentences at a time, each result a new shard."""
        for start in range(0, len(todo), self.shard_size):
            block = todo[start : start + self.shard_size]
            vectors = encode([text for _, text in block])
            if vectors.shape != (len(block), self.dim):
                raise RuntimeError(
                    f"encoder returned shape {vectors.shape} for {len(block)} sentences "
                    f"(expected dimension {self.dim})"
                )
            self._write_shard([key for key, _ in block], vectors)
            if on_progress is not None:
                on_progress(len(block))
        return len(todo)

    def embed(
        self,
        texts: Sequence[str],
        encode: Callable[[list[str]], np.ndarray],
        *,
        on_progress: Callable[[int], None] | None = None,
    ) -> tuple[np.ndarray, int]:
        """Vectors of ``texts`` (rows in order), encoding only those not cached yet.

        Returns the vectors and how many sentences were newly encoded. ``encode`` is called
        with at most ``shard_size`` sentences at a time; each result is committed as a shard.
        """
        digests = [_digest(t) for t in texts]
        parts, rows = self._locate(digests)
        todo = _missing(parts, digests, texts)
        if self._store(todo, encode, on_progress):
            parts, rows = self._locate(digests)
        out = np.empty((len(texts), self.dim), np.float32)
        for part in np.unique(parts):
            here = np.flatnonzero(parts == part)
            out[here] = self._vectors(int(part))[rows[here]]
        return out, len(todo)
