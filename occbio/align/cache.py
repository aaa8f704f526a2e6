"""Embedding cache: every sentence is embedded once per encoder, whatever re-runs follow.

Vectors are stored per encoder and language, content-addressed by a hash of the sentence text,
in shards written atomically (``part-NNNNNN.npy`` vectors + ``part-NNNNNN.keys.npy`` hashes,
with ``part-NNNNNN.sum``: the CRC-32 of both files). A shard is complete or absent, so an
interrupted embedding run resumes from the last shard and a re-run with another threshold,
mode or cleaning setting embeds only sentences it has never seen.

A shard is trusted only once checked: its keys when the cache opens, its vectors (checksum,
and no NaN or infinite value) the first time this process reads from it. A bit flip or a NaN
behind an intact header would otherwise reach the margins and silently empty the corpus; a
damaged shard is removed with a warning, counted in ``dropped_shards``, and its sentences are
encoded again. Shards written before checksums existed are checked for NaN and infinite
values and given their checksum then. An encoder that returns NaN or infinite values is an
error: such a vector is never stored nor used.

The index stays small at Wikipedia scale: keys live in one sorted numpy array (24 bytes a
sentence with their locations, not a Python dict's ~150), and a shard is mapped only while
rows are copied out of it (an open map holds a file descriptor and counts its pages as the
process's memory).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from occbio.io.binary import npy_bytes, write_bytes
from occbio.safepaths import make_dirs, unlink

__all__ = ["EmbeddingCache", "NonFiniteVectors", "check_finite"]

log = logging.getLogger(__name__)

_PART = re.compile(r"part-(\d{6})\.keys\.npy$")
_KEY_BYTES = 16  # 128-bit BLAKE2b digest of the sentence text, stored as uint8 rows
_KEY = np.dtype(f"V{_KEY_BYTES}")  # one digest as an opaque value: sortable, searchable
_SUMS = ("vectors", "keys")  # what part-NNNNNN.sum records: the CRC-32 of each file's bytes


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=_KEY_BYTES).digest()


class NonFiniteVectors(RuntimeError):
    """An encoder returned NaN or infinite values (a broken model, or half precision that
    overflowed): such a vector would poison every margin it takes part in."""


def check_finite(vectors: np.ndarray, texts: Sequence[str], what: str) -> None:
    """Raise :class:`NonFiniteVectors` when a row of ``vectors`` (one per text) holds NaN or
    an infinity; ``what`` names the encoder and language in the message."""
    bad = np.flatnonzero(~np.isfinite(vectors).all(axis=1))
    if len(bad):
        raise NonFiniteVectors(
            f"the encoder {what} returned NaN or infinite values for {len(bad)} of "
            f"{len(texts)} sentences (the first: {texts[bad[0]][:60]!r}); nothing of that batch "
            "was cached (try --device cpu, or another encoder)"
        )


def _crc(data: bytes) -> int:
    return zlib.crc32(data)


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
        stats: Counter[str] | None = None,
    ):
        """``stats`` (a stage's counters) hears of every damaged shard dropped, as
        ``embedding_shards_dropped``, whenever it is found."""
        self.dir = Path(root) / encoder / lang
        self._what = f"{encoder} ({lang})"
        make_dirs(self.dir)  # through no link in the run directory
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
        #: shards this process has checked (or written): their vectors are trusted
        self._checked: set[int] = set()
        self.dropped_shards = 0
        self._stats = stats
        keys, parts, rows = [], [], []
        for keys_path in sorted(self.dir.glob("part-*.keys.npy")):
            match = _PART.search(keys_path.name)
            vec_path = keys_path.with_name(keys_path.name.replace(".keys.npy", ".npy"))
            if match is None or not vec_path.exists():
                continue
            part = int(match.group(1))
            self._next = max(self._next, part + 1)
            shard_keys = self._verified_keys(part)
            if shard_keys is None:
                continue
            keys.append(shard_keys)
            parts.append(np.full(len(shard_keys), part, np.int32))
            rows.append(np.arange(len(shard_keys), dtype=np.int32))
        if keys:
            self._merge(np.concatenate(keys), np.concatenate(parts), np.concatenate(rows))

    def __len__(self) -> int:
        return len(self._keys) + len(self._recent)

    def _paths(self, part: int) -> tuple[Path, Path, Path]:
        """A shard's vectors, keys and checksum files."""
        stem = self.dir / f"part-{part:06d}"
        return Path(f"{stem}.npy"), Path(f"{stem}.keys.npy"), Path(f"{stem}.sum")

    def _sums(self, part: int) -> dict[str, int] | None:
        """A shard's recorded checksums; None for a shard written before checksums existed."""
        path = self._paths(part)[2]
        if not path.exists():
            return None
        sums = json.loads(path.read_text("utf-8"))
        if not (isinstance(sums, dict) and all(isinstance(sums.get(k), int) for k in _SUMS)):
            raise ValueError(f"{path.name} is not a checksum record")
        return sums

    def _verified_keys(self, part: int) -> np.ndarray | None:
        """A shard's keys when both its files are whole numeric arrays that agree (row counts,
        dimension) and its keys match their checksum; else the shard is dropped (see
        :meth:`_drop`) and its sentences are encoded again when next asked for."""
        vec_path, keys_path, _ = self._paths(part)
        try:
            data = keys_path.read_bytes()
            raw = np.load(io.BytesIO(data), allow_pickle=False)
            vectors = np.load(vec_path, mmap_mode="r", allow_pickle=False)
            sums = self._sums(part)
            ok = (
                raw.dtype == np.uint8
                and raw.ndim == 2
                and raw.shape[1] == _KEY_BYTES
                and vectors.dtype == np.float32
                and vectors.shape == (raw.shape[0], self.dim)
            )
            if not ok:
                reason = f"keys {raw.dtype}{raw.shape}, vectors {vectors.dtype}{vectors.shape}"
            elif sums is not None and sums["keys"] != _crc(data):
                reason = "its keys do not match their checksum"
            else:
                return raw.reshape(-1).view(_KEY)
        except (ValueError, OSError, EOFError) as exc:
            reason = str(exc)
        self._drop(part, reason)
        return None

    def _drop(self, part: int, reason: str) -> None:
        """Remove a damaged shard (files and index entries), with a warning and a count."""
        self.dropped_shards += 1
        if self._stats is not None:
            self._stats["embedding_shards_dropped"] += 1
        vec_path, keys_path, sum_path = self._paths(part)
        log.warning(
            "embedding cache: removed the damaged shard %s (%s); its sentences will be "
            "encoded again",
            vec_path,
            reason,
        )
        unlink(keys_path)  # the completion marker first
        unlink(vec_path)
        unlink(sum_path)
        self._checked.discard(part)
        keep = self._part != part
        self._keys, self._part, self._row = self._keys[keep], self._part[keep], self._row[keep]
        self._recent = {k: v for k, v in self._recent.items() if v[0] != part}

    def _damage(self, part: int) -> str | None:
        """Why a shard's vectors cannot be trusted (checksum, NaN or infinity), or None."""
        vec_path, keys_path, sum_path = self._paths(part)
        try:
            sums = self._sums(part)
            data = vec_path.read_bytes()
            if sums is not None and sums["vectors"] != _crc(data):
                return "its vectors do not match their checksum"
            vectors = np.load(io.BytesIO(data), allow_pickle=False)
            if not np.isfinite(vectors).all():
                return "NaN or infinite values in its vectors"
            keys = keys_path.read_bytes()
        except (ValueError, OSError, EOFError) as exc:
            return str(exc)
        if sums is None:  # written before checksums: checked now, so later damage shows
            record = {"vectors": _crc(data), "keys": _crc(keys)}
            # a sound shard stays in use even where its checksum cannot be written (a full
            # disk: the next shard's write says so)
            with contextlib.suppress(OSError):
                write_bytes(sum_path, json.dumps(record).encode())
        return None

    def _check(self, parts: Iterable[int]) -> bool:
        """Check the shards of ``parts`` this process has not checked yet, dropping the damaged
        ones; True when one was dropped (its sentences are then missing)."""
        dropped = False
        for part in map(int, parts):
            if part in self._checked:
                continue
            reason = self._damage(part)
            if reason is None:
                self._checked.add(part)
            else:
                self._drop(part, reason)
                dropped = True
        return dropped

    def _located(self, digests: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_locate`, once every shard it points to has been checked."""
        parts, rows = self._locate(digests)
        if self._check(np.unique(parts[parts >= 0])):
            parts, rows = self._locate(digests)
        return parts, rows

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
        vec_path, keys_path, sum_path = self._paths(part)
        vec_data = npy_bytes(np.ascontiguousarray(vectors, np.float32))
        # raw uint8 rows: a bytes dtype ("S16") would drop trailing NUL bytes on reading
        keys_data = npy_bytes(np.frombuffer(b"".join(keys), np.uint8).reshape(-1, _KEY_BYTES))
        # vectors and checksums first, keys last: a shard counts only once its keys file exists
        write_bytes(vec_path, vec_data)
        sums = {"vectors": _crc(vec_data), "keys": _crc(keys_data)}
        write_bytes(sum_path, json.dumps(sums).encode())
        write_bytes(keys_path, keys_data)
        self._checked.add(part)
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
        parts, rows = self._located([_digest(t) for t in texts])
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
        parts, _ = self._located(digests)
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
            check_finite(vectors, [text for _, text in block], self._what)
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
        parts, rows = self._located(digests)
        todo = _missing(parts, digests, texts)
        if self._store(todo, encode, on_progress):
            parts, rows = self._locate(digests)
        out = np.empty((len(texts), self.dim), np.float32)
        for part in np.unique(parts):
            here = np.flatnonzero(parts == part)
            out[here] = self._vectors(int(part))[rows[here]]
        return out, len(todo)
