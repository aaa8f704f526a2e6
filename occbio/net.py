"""Politeness rules every client of the live sites shares: User-Agent, backoff, Retry-After, rate.

Wikimedia asks for a User-Agent that names the tool and a way to reach its operator, for
clients that back off on 429/503 and honour ``Retry-After``, and for bounded request rates
(https://meta.wikimedia.org/wiki/User-Agent_policy, https://www.mediawiki.org/wiki/API:Etiquette).
The SPARQL client and the web client both take these from here so they cannot disagree.
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone

from occbio import __version__

__all__ = [
    "unreachable",
    "PROJECT_URL",
    "RETRY_STATUSES",
    "RateLimiter",
    "SiteBusy",
    "backoff_delay",
    "check_client_settings",
    "retry_after_seconds",
    "user_agent",
]

PROJECT_URL = "https://github.com/occbio/occbio"

#: HTTP statuses worth another try after a pause (the server is busy or briefly broken).
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def user_agent(contact: str = "", *, tool: str = "occbio") -> str:
    """``occbio/0.1.0 (https://github.com/occbio/occbio; contact)``: the form Wikimedia asks for."""
    who = f"{PROJECT_URL}; {contact}" if contact.strip() else PROJECT_URL
    return f"{tool}/{__version__} ({who})"


def check_client_settings(*, user_agent: str, retries: int, timeout: float) -> None:
    """Refuse settings no polite client may run with: no User-Agent, retries < 0, no timeout."""
    if not user_agent or not user_agent.strip():
        raise ValueError(
            "a User-Agent is required: Wikimedia blocks clients without a descriptive one "
            "(use occbio.net.user_agent(contact))"
        )
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date); ``None``
    when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    current = datetime.now(timezone.utc).timestamp() if now is None else now
    return max(0.0, when.timestamp() - current)


class SiteBusy(RuntimeError):
    """A live site asks to wait longer than the client's ``max_wait``: the run stops (and
    resumes when started again) rather than hammering a site that is overloaded."""


def backoff_delay(
    attempt: int, *, base: float, cap: float, retry_after: float | None = None
) -> float:
    """The pause before retry number ``attempt`` (1-based): the server's ``Retry-After`` when it
    gave one, else exponential ``base * 2**(attempt-1)``; never more than ``cap``."""
    if retry_after is not None:
        return min(retry_after, cap)
    return min(base * 2 ** (attempt - 1), cap)


class RateLimiter:
    """At most ``rate`` acquisitions per second over all threads (evenly spaced, no bursts).

    ``rate`` <= 0 means no limit.
    """

    def __init__(
        self,
        rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._lock = threading.Lock()

    def acquire(self) -> None:
        """Block until this caller may send its request."""
        if self.interval == 0.0:
            return
        with self._lock:
            now = self._clock()
            slot = max(now, self._next)
            self._next = slot + self.interval
        wait = slot - now
        if wait > 0:
            self._sleep(wait)


def unreachable(exc: Exception) -> bool:
    """Whether a ``requests`` exception says the server itself cannot be reached (refused, DNS,
    TLS, a proxy, a connect timeout), not one request's bad luck."""
    import requests
    import urllib3.exceptions as u3

    if isinstance(exc, (requests.exceptions.SSLError, requests.exceptions.ProxyError)):
        return True
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    if not isinstance(exc, requests.ConnectionError):
        return False
    reason: object = exc.args[0] if exc.args else None
    reason = getattr(reason, "reason", reason)  # MaxRetryError wraps the real cause
    return isinstance(reason, (u3.NewConnectionError, u3.ConnectTimeoutError))
