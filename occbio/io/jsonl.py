"""JSON-lines reading and writing of :mod:`occbio.records` types (streaming, one record a line)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

from occbio.run import atomic_write

__all__ = ["read_jsonl", "write_jsonl"]


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
