"""What every stage shares: its result summary and a progress bar."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tqdm import tqdm

__all__ = ["StageResult", "progress_bar", "keep_until_truncated"]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class StageResult:
    """What a stage reports back: whether it ran, its counts and warnings."""

    stage: str
    ran: bool
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def finished(cls, stage: str, record: dict[str, Any]) -> StageResult:
        return cls(stage, True, dict(record.get("counts", {})), list(record.get("warnings", [])))

    @classmethod
    def skipped(cls, stage: str, record: dict[str, Any]) -> StageResult:
        return cls(stage, False, dict(record.get("counts", {})), list(record.get("warnings", [])))

    def summary(self, keys: tuple[str, ...] = ()) -> str:
        """One line: ``entities: done, people=34 occupations=9`` (the chosen keys, or all)."""
        shown = keys or tuple(self.counts)
        parts = [f"{k}={self.counts[k]}" for k in shown if k in self.counts]
        status = "done" if self.ran else "already done (skipped)"
        extra = f", {len(self.warnings)} warning(s)" if self.warnings else ""
        return f"{self.stage}: {status}{extra}; " + " ".join(parts)


def progress_bar(enabled: bool, **kwargs: Any) -> tqdm:
    """A tqdm bar on stderr; off when ``enabled`` is false or stderr is not a terminal."""
    return tqdm(disable=None if enabled else True, leave=False, dynamic_ncols=True, **kwargs)


def keep_until_truncated(
    items: Iterator[T], error: type[Exception], warnings: list[str]
) -> Iterator[T]:
    """Yield every item read before a truncated input broke off, then record the truncation
    as a warning (logged and kept in the manifest): the items are kept, the break is not
    silently accepted."""
    try:
        yield from items
    except error as exc:
        log.warning("%s", exc)
        warnings.append(str(exc))
