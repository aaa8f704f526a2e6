"""What every stage shares: its result summary and a progress bar."""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, TypeVar

from tqdm import tqdm

from occbio.config import RunConfig
from occbio.extract.wikipedia_web import WikipediaWebClient, default_base_url

__all__ = [
    "OrderedPool",
    "StageResult",
    "keep_until_truncated",
    "progress_bar",
    "resolve_workers",
    "web_base_urls",
    "web_client",
]

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")


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


def resolve_workers(workers: int) -> int:
    """``0`` means one worker per CPU core available to this process."""
    if workers > 0:
        return workers
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class OrderedPool:
    """``map(fn, items)`` over worker processes, results in input order, memory bounded.

    Items are handed out ``batch * workers`` at a time, so a dump of any size never queues up
    in memory. With one worker everything runs in this process (easy to debug and profile).
    Workers are spawned, not forked (the parent may hold threads, e.g. progress bars), once
    per stage: each loads what ``initializer`` loads (a model) once.
    """

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., None],
        initargs: tuple[object, ...] = (),
        *,
        batch: int = 64,
    ) -> None:
        self.workers = workers
        self.batch = batch
        self._pool = None
        if workers <= 1:
            initializer(*initargs)
        else:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ctx.Pool(workers, initializer=initializer, initargs=initargs)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        if self._pool is None:
            yield from map(fn, items)
            return
        it = iter(items)
        size = self.batch * self.workers
        while block := list(islice(it, size)):
            yield from self._pool.imap(
                fn, block, chunksize=max(1, len(block) // (self.workers * 4))
            )

    def __enter__(self) -> OrderedPool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()


def web_base_urls(cfg: RunConfig) -> dict[str, str]:
    """Each language's Wikipedia site: ``text.base_urls``, else https://{lang}.wikipedia.org."""
    return {lang: cfg.text.base_urls.get(lang) or default_base_url(lang) for lang in cfg.langs}


def web_client(cfg: RunConfig) -> WikipediaWebClient:
    """The Wikipedia web client with the run's politeness settings and cache."""
    return WikipediaWebClient(
        user_agent=cfg.http.resolved_user_agent(),
        base_urls=web_base_urls(cfg),
        api=cfg.text.api,
        concurrency=cfg.text.concurrency,
        rate=cfg.text.rate,
        retries=cfg.http.retries,
        backoff=cfg.http.backoff,
        max_wait=cfg.http.max_wait,
        timeout=cfg.http.timeout,
        cache_dir=cfg.http.resolved_cache_dir(),
    )
