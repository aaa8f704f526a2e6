"""JSON-lines reading and writing of :mod:`occbio.records` types (streaming, one record a line)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

from occbio.run import atomic_write

__all__ = ["JsonlIndex", "read_jsonl", "write_jsonl"]


class _Serialisable(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


T = TypeVar("T")


class _Loader(Protocol[T]):
    def from_dict(self, d: dict[str, Any]) -> T: ...


def read_jsonl(path: Path, record_type: _Loader[T]) -> Iterator[T]:
    """Stream records of ``record_type`` from a JSON-lines file."""
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield record_type.from_dict(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{path}:{line_no}: not a valid record ({exc})") from None


def write_jsonl(path: Path, records: Iterable[_Serialisable]) -> int:
    """Write records atomically; return how many were written."""
    n = 0
    with atomic_write(path) as fh:
        for rec in records:
            fh.write(json.dumps(rec.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n


class JsonlIndex(AbstractContextManager["JsonlIndex"]):
    """Where each key's lines lie in a JSON-lines file, to read one key's rows at a time.

    One pass over the file records the byte spans of each value of ``key`` (a person's
    sentences, a person's tuples); :meth:`rows` then reads a key's rows by seeking, so a stage
    holds one person's rows at a time instead of the whole file. Memory grows with the number
    of keys, not of lines. A key's lines need not be contiguous (each run is a span).
    """

    def __init__(self, path: Path, key: str) -> None:
        self.path = Path(path)
        self.key = key
        self._prefix = b'{"' + key.encode() + b'": "'
        self.spans: dict[str, list[tuple[int, int]]] = {}
        self.lines: Counter[str] = Counter()  # rows per key
        previous, offset = None, 0
        with open(self.path, "rb") as fh:
            for line in fh:
                end = offset + len(line)
                if line.strip():
                    value = self.key_of(line)
                    self.lines[value] += 1
                    spans = self.spans.setdefault(value, [])
                    if value == previous:  # the same key's next line: extend its span
                        spans[-1] = (spans[-1][0], end)
                    else:
                        spans.append((offset, end))
                    previous = value
                offset = end
        self._fh: IO[bytes] | None = None

    def key_of(self, line: bytes) -> str:
        """The key of a line: read off its start where the line begins with it (records'
        ``to_dict`` put it first), else parsed as JSON."""
        if line.startswith(self._prefix):
            end = line.find(b'"', len(self._prefix))
            value = line[len(self._prefix) : end]
            if end > 0 and b"\\" not in value:
                return value.decode("utf-8")
        try:
            return str(json.loads(line)[self.key])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{self.path}: a line without a {self.key!r} ({exc})") from None

    def __contains__(self, value: object) -> bool:
        return value in self.spans

    def __len__(self) -> int:
        return len(self.spans)

    def rows(self, value: str) -> list[dict[str, Any]]:
        """The rows of ``value`` in file order (none for an unknown key)."""
        if self._fh is None:
            self._fh = open(self.path, "rb")  # noqa: SIM115 - closed by close() / the with block
        out = []
        for start, end in self.spans.get(value, ()):
            self._fh.seek(start)
            # split on b"\n" only: a text may hold U+2028, which str.splitlines would split on
            out += [json.loads(x) for x in self._fh.read(end - start).split(b"\n") if x.strip()]
        return out

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __exit__(self, *exc: object) -> None:
        self.close()
