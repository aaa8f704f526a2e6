"""Embedding cache: every sentence is embedded once per encoder, whatever re-runs follow.

Vectors are stored per encoder and language, content-addressed by a hash of the sentence text,
in shards written atomically (``part-NNNNNN.npy`` vectors + ``part-NNNNNN.keys.npy`` hashes).
A shard is complete or absent, so an interrupted embedding run resumes from the last shard and
a re-run with another threshold, mode or cleaning setting embeds only sentences it has never
seen.
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


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=_KEY_BYTES).digest()


class EmbeddingCache:
    """Content-addressed vectors of one encoder in one language."""

    def __init__(self, root: Path, encoder: str, lang: str, dim: int, *, shard_size: int = 4096):
        self.dir = Path(root) / encoder / lang
        self.dir.mkdir(parents=True, exist_ok=True)
        self.dim = dim
        self.shard_size = shard_size
        self._where: dict[bytes, tuple[int, int]] = {}
        self._shards: dict[int, np.ndarray] = {}
        self._next = 0
        for keys_path in sorted(self.dir.glob("part-*.keys.npy")):
            match = _PART.search(keys_path.name)
            vec_path = keys_path.with_name(keys_path.name.replace(".keys.npy", ".npy"))
            if match is None or not vec_path.exists():
                continue
            part = int(match.group(1))
            for row, key in enumerate(np.load(keys_path)):
                self._where.setdefault(key.tobytes(), (part, row))
            self._next = max(self._next, part + 1)

    def __len__(self) -> int:
        return len(self._where)

    def _vectors(self, part: int) -> np.ndarray:
        if part not in self._shards:
            self._shards[part] = np.load(self.dir / f"part-{part:06d}.npy", mmap_mode="r")
        return self._shards[part]

    def _write_shard(self, keys: list[bytes], vectors: np.ndarray) -> None:
        part = self._next
        # vectors first, keys last: a shard counts only once its keys file exists
        with atomic_write(self.dir / f"part-{part:06d}.npy", "wb", encoding=None) as fh:
            np.save(fh, np.ascontiguousarray(vectors, np.float32))
        with atomic_write(self.dir / f"part-{part:06d}.keys.npy", "wb", encoding=None) as fh:
            # raw uint8 rows: a bytes dtype ("S16") would drop trailing NUL bytes on reading
            np.save(fh, np.frombuffer(b"".join(keys), np.uint8).reshape(-1, _KEY_BYTES))
        for row, key in enumerate(keys):
            self._where.setdefault(key, (part, row))
        self._next += 1

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
        keys = [_digest(t) for t in texts]
        missing: dict[bytes, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in self._where and key not in missing:
                missing[key] = text
        todo = list(missing.items())
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
        out = np.empty((len(texts), self.dim), np.float32)
        for i, key in enumerate(keys):
            part, row = self._where[key]
            out[i] = self._vectors(part)[row]
        return out, len(todo)
