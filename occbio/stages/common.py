"""What every stage shares: its result summary and a progress bar."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tqdm import tqdm

from occbio.config import RunConfig
from occbio.extract.wikipedia_web import WikipediaWebClient, default_base_url

__all__ = [
    "LogProgress",
    "StageResult",
    "keep_until_truncated",
    "progress_bar",
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

    def summary(self, keys: tuple[str, ...] = (), *, names: Mapping[str, str] = {}) -> str:
        """One line: ``entities: done, people=34 occupations=9`` (the chosen keys, or all;
        ``names``: a counter's printed name where it differs from its key)."""
        shown = keys or tuple(self.counts)
        parts = [f"{names.get(k, k)}={self.counts[k]}" for k in shown if k in self.counts]
        status = "done" if self.ran else "already done (skipped)"
        extra = f", {len(self.warnings)} warning(s)" if self.warnings else ""
        return f"{self.stage}: {status}{extra}; " + " ".join(parts)


def progress_bar(enabled: bool, **kwargs: Any) -> tqdm | LogProgress:
    """Progress on stderr: a tqdm bar on a terminal; elsewhere (a batch job, a pipe) a log line
    every :data:`LOG_EVERY` seconds with the count, the rate and the time left. Nothing when
    ``enabled`` is false."""
    if enabled and not sys.stderr.isatty():
        return LogProgress(**kwargs)
    return tqdm(disable=None if enabled else True, leave=False, dynamic_ncols=True, **kwargs)


#: Seconds between two progress lines in a non-interactive run.
LOG_EVERY = 30.0


class LogProgress:
    """What a tqdm bar shows, as log lines: ``align: 1,200/9,000 docs (13.2/s, 9m50s left)``.

    The rate is measured over this run only (``initial`` items were done before it), so the
    time left follows the real pace of a resumed run.
    """

    def __init__(
        self,
        *,
        desc: str = "",
        total: int | None = None,
        unit: str = " items",
        initial: int = 0,
        every: float | None = None,
    ) -> None:
        self.desc, self.total, self.unit = desc, total, unit
        self.n = initial
        self._start_n = initial
        self._start = self._last = time.monotonic()
        self.every = LOG_EVERY if every is None else every

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            log.info("%s", self.line(now))

    def line(self, now: float | None = None) -> str:
        elapsed = (now or time.monotonic()) - self._start
        done = self.n - self._start_n
        rate = done / elapsed if elapsed > 0 else 0.0
        count = f"{self.n:,}" + (f"/{self.total:,}" if self.total is not None else "")
        left = ""
        if self.total is not None and rate > 0:
            left = f", {_duration((self.total - self.n) / rate)} left"
        return f"{self.desc}: {count}{self.unit} ({rate:,.1f}/s{left})"

    def close(self) -> None:
        return None


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


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
        lock_wait=cfg.http.lock_wait,
        **cfg.http.bounds(),
    )
