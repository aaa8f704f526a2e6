"""Politeness rules every client of the live sites shares: User-Agent, backoff, Retry-After, rate.

Wikimedia asks for a User-Agent that names the tool and a way to reach its operator, for
clients that back off on 429/503 and honour ``Retry-After``, and for bounded request rates
(https://meta.wikimedia.org/wiki/User-Agent_policy, https://www.mediawiki.org/wiki/API:Etiquette).
The SPARQL client, the web client and the chat client all take these from here so they cannot
disagree, and the bounds a hostile or broken server must not get past: :class:`GuardedAdapter`
(an overall deadline per request, a size cap on answers, no redirect to another host or of a
POST) and the handling of their SQLite caches (:func:`prepare_sqlite_cache`: a damaged one is
set aside and rebuilt, a locked one waited for, said and bounded).
"""

from __future__ import annotations

import contextlib
import email.utils
import logging
import math
import os
import queue
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from requests.adapters import HTTPAdapter

from occbio import __version__

__all__ = [
    "unreachable",
    "PROJECT_URL",
    "RETRY_STATUSES",
    "AnswerRefused",
    "AnswerTooLarge",
    "CacheError",
    "DaemonPool",
    "DeadlineExceeded",
    "GuardedAdapter",
    "RateLimiter",
    "RedirectRefused",
    "SiteBusy",
    "backoff_delay",
    "check_client_settings",
    "prepare_sqlite_cache",
    "redirect_problem",
    "retry_after_seconds",
    "set_aside",
    "sqlite_busy",
    "sqlite_damaged",
    "user_agent",
    "while_locked",
]

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

PROJECT_URL = "https://github.com/occbio/occbio"

#: HTTP statuses worth another try after a pause (the server is busy or briefly broken).
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def user_agent(contact: str = "", *, tool: str = "occbio") -> str:
    """``occbio/0.1.0 (https://github.com/occbio/occbio; contact)``: the form Wikimedia asks for."""
    who = f"{PROJECT_URL}; {contact}" if contact.strip() else PROJECT_URL
    return f"{tool}/{__version__} ({who})"


def check_client_settings(
    *,
    user_agent: str,
    retries: int,
    timeout: float,
    deadline: float = math.inf,
    max_bytes: float = math.inf,
) -> None:
    """Refuse settings no polite client may run with: no User-Agent, retries < 0, no timeout;
    and bounds that bound nothing (a deadline or a size cap not above 0)."""
    if not user_agent or not user_agent.strip():
        raise ValueError(
            "a User-Agent is required: Wikimedia blocks clients without a descriptive one "
            "(use occbio.net.user_agent(contact))"
        )
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    if deadline <= 0:
        raise ValueError(f"deadline must be positive, got {deadline}")
    if max_bytes < 1:
        raise ValueError(f"max_bytes must be at least 1, got {max_bytes}")


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date); ``None``
    when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:  # a negative or non-finite delay is no delay the server meant: back off as usual
        return seconds if 0.0 <= seconds < math.inf else None
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


class DaemonPool:
    """Threads that run requests, like :class:`concurrent.futures.ThreadPoolExecutor`'s but
    daemons: the interpreter does not wait for them when occbio exits. After Ctrl-C a request
    still in flight (a server that never answers, a retry's backoff) would otherwise keep the
    process alive for minutes after it said it was interrupted."""

    def __init__(self, workers: int, name: str) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._workers = workers
        for i in range(workers):
            threading.Thread(target=self._work, name=f"{name}_{i}", daemon=True).start()

    def submit(self, fn: Callable[..., _T], *args: Any) -> Future[_T]:
        future: Future[_T] = Future()
        self._jobs.put((future, fn, args))
        return future

    def shutdown(self) -> None:
        """Let each thread end once its job is done (cancel what waits first)."""
        for _ in range(self._workers):
            self._jobs.put(None)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, fn, args = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)
            else:
                future.set_result(result)


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


# --------------------------------------------------------------------------------------------
# Every request bounded: an overall deadline, a size cap, no redirect to another host
# --------------------------------------------------------------------------------------------

#: Bytes read at a time from an answer's body.
_CHUNK = 64 * 1024


class AnswerRefused(requests.exceptions.RequestException):
    """An answer the client will not take: too slow in all, too large, or sent elsewhere.
    Not worth another try (the same server would do the same); ``counter`` names the
    ``stats`` key that counts it."""

    counter = "answers_refused"


class DeadlineExceeded(AnswerRefused):
    """The whole exchange (headers and body) took longer than the client's deadline: a
    server that drips its answer a byte at a time never trips the per-read ``timeout``."""

    counter = "deadline_exceeded"


class AnswerTooLarge(AnswerRefused):
    """The answer is larger than the client's size cap (reading stopped at the cap)."""

    counter = "too_large"


class RedirectRefused(AnswerRefused):
    """A redirect to another host, or of a POST (which would arrive as a GET without its
    body): never followed silently."""

    counter = "redirects_refused"


def redirect_problem(method: str, url: str, status: int, location: str) -> str | None:
    """Why a redirect from ``url`` to ``location`` must not be followed, or ``None``: another
    host may answer anything (a stranger's page stored as a person's article), and a POST
    redirected with 301/302/303 is re-sent as a GET without its query."""
    target = urljoin(url, location)
    here, there = urlsplit(url).hostname or "", urlsplit(target).hostname or ""
    if here.lower() != there.lower():
        return f"{url} redirects to another host ({target}); not followed"
    if method.upper() != "GET":
        return f"{url} redirects the {method} (HTTP {status}) to {target}; not followed"
    return None


class _Watch:
    """The deadline of one request: at ``ends`` the socket it reads is shut down, which wakes
    a read blocked on it, and :attr:`expired` tells the reader why."""

    def __init__(self, ends: float) -> None:
        self.ends = ends
        self.expired = False
        self._timer: threading.Timer | None = None

    def arm(self, sock: socket.socket) -> None:
        self.disarm()
        self._timer = threading.Timer(max(0.0, self.ends - time.monotonic()), self._expire, [sock])
        self._timer.daemon = True
        self._timer.start()

    def _expire(self, sock: socket.socket) -> None:
        self.expired = True
        with contextlib.suppress(OSError):
            socket.socket.shutdown(sock, socket.SHUT_RDWR)  # the plain socket's, under TLS too

    @property
    def armed(self) -> bool:
        return self._timer is not None

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


_WATCH = threading.local()


class _WatchedConnection:
    """Mixed into urllib3's connections: the request's deadline watches the socket from the
    moment the answer is awaited (headers included) until its body is read."""

    sock: socket.socket | None

    def getresponse(self) -> Any:
        watch: _Watch | None = getattr(_WATCH, "current", None)
        if watch is not None and self.sock is not None:
            watch.arm(self.sock)
        return super().getresponse()  # type: ignore[misc]


class _HTTPConnection(_WatchedConnection, urllib3.connection.HTTPConnection):
    pass


class _HTTPSConnection(_WatchedConnection, urllib3.connection.HTTPSConnection):
    pass


class _HTTPPool(urllib3.HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(urllib3.HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


_WATCHED_POOLS = {"http": _HTTPPool, "https": _HTTPSPool}


class GuardedAdapter(HTTPAdapter):
    """A ``requests`` transport that bounds every request: at most ``deadline`` seconds from
    sending to the last byte of the answer (:class:`DeadlineExceeded`), at most ``max_bytes``
    of (decoded) answer, reading stopped there (:class:`AnswerTooLarge`), and no redirect to
    another host or of a POST (:class:`RedirectRefused`). The body is always read here, so
    callers get ``response.content`` already bounded."""

    def __init__(self, *, deadline: float, max_bytes: int, pool: int = 10) -> None:
        self.deadline = deadline
        self.max_bytes = max_bytes
        super().__init__(pool_connections=pool, pool_maxsize=pool, max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _WATCHED_POOLS

    def proxy_manager_for(self, proxy: str, **kwargs: Any) -> Any:
        manager = super().proxy_manager_for(proxy, **kwargs)
        if type(manager) is urllib3.ProxyManager:  # SOCKS has its own: watched from the body
            manager.pool_classes_by_scheme = _WATCHED_POOLS
        return manager

    def send(  # type: ignore[override]
        self, request: requests.PreparedRequest, stream: bool = False, **kwargs: Any
    ) -> requests.Response:
        watch = _Watch(time.monotonic() + self.deadline)
        _WATCH.current = watch
        try:
            try:
                response = super().send(request, stream=True, **kwargs)
            finally:
                _WATCH.current = None
            if not watch.armed:  # a connection of another class (a SOCKS proxy's)
                sock = getattr(getattr(response.raw, "connection", None), "sock", None)
                if isinstance(sock, socket.socket):
                    watch.arm(sock)
            try:
                self._check_redirect(request, response)
                self._read_body(response)
                if watch.expired:  # a body that ends with the connection ends when cut, too
                    raise self._late(request)
            except BaseException:
                response.close()
                raise
        except requests.RequestException as exc:
            if watch.expired and not isinstance(exc, AnswerRefused):
                raise self._late(request) from None
            raise
        finally:
            watch.disarm()
        return response

    def _late(self, request: requests.PreparedRequest) -> DeadlineExceeded:
        return DeadlineExceeded(
            f"{request.url}: no complete answer within the deadline of {self.deadline:g} s",
            request=request,
        )

    @staticmethod
    def _check_redirect(request: requests.PreparedRequest, response: requests.Response) -> None:
        location = response.headers.get("Location")
        if response.is_redirect and location:
            why = redirect_problem(
                request.method or "GET", request.url or "", response.status_code, location
            )
            if why is not None:
                raise RedirectRefused(why, request=request, response=response)

    def _read_body(self, response: requests.Response) -> None:
        cap = self.max_bytes
        length = response.headers.get("Content-Length", "")
        if length.isdigit() and int(length) > cap:
            raise self._too_large(response, f"it says {int(length)} bytes")
        body = bytearray()
        for chunk in response.iter_content(_CHUNK):
            body += chunk
            if len(body) > cap:
                raise self._too_large(response, "reading stopped there")
        response._content = bytes(body)
        response.raw.release_conn()

    def _too_large(self, response: requests.Response, how: str) -> AnswerTooLarge:
        return AnswerTooLarge(
            f"{response.url}: the answer is larger than the cap of {self.max_bytes} bytes ({how})",
            request=response.request,
            response=response,
        )


# --------------------------------------------------------------------------------------------
# SQLite caches: set aside when damaged, waited for (said, bounded) when locked
# --------------------------------------------------------------------------------------------

#: SQLite result codes (primary) that say the file is not a usable database.
_DAMAGED = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
#: ... that say another connection holds a lock.
_BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED


class CacheError(RuntimeError):
    """A cache that can neither be used nor set aside: a directory in its place, a lock held
    for longer than the client waits, a file it may not write."""


def sqlite_damaged(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says the database file is damaged (not a database, malformed)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _DAMAGED


def sqlite_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another connection holds a lock."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in _BUSY


def set_aside(path: Path, why: str) -> Path:
    """Rename a damaged cache ``path`` (and its ``-wal``/``-shm``/``-journal`` files) to
    ``path.damaged`` (``.damaged-2``, ... when taken), said in a warning; returns the new
    name. Nothing is deleted: the file may be looked at, and removed, by its owner."""
    target = path.with_name(path.name + ".damaged")
    n = 1
    while target.exists() or target.with_name(target.name + "-wal").exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{n}")
    for side in ("-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.replace(path.with_name(path.name + side), target.with_name(target.name + side))
    os.replace(path, target)
    logger.warning(
        "the cache %s cannot be read (%s): set aside as %s; a new one is built", path, why, target
    )
    return target


def while_locked(path: Path, action: Callable[[], _T], *, lock_wait: float) -> _T:
    """Run ``action`` (an SQLite operation on ``path`` whose busy timeout is short), again
    while another process holds a lock, saying so once, for ``lock_wait`` seconds at most;
    then :class:`CacheError`."""
    give_up = time.monotonic() + lock_wait
    warned = False
    while True:
        try:
            return action()
        except sqlite3.OperationalError as exc:
            if not sqlite_busy(exc):
                raise
            if not warned:
                logger.warning(
                    "the cache %s is locked by another process; waiting up to %g s",
                    path,
                    lock_wait,
                )
                warned = True
            if time.monotonic() >= give_up:
                raise CacheError(
                    f"the cache {path} stayed locked by another process for {lock_wait:g} s "
                    "(another occbio run using the same cache?): wait for it to end, or give "
                    "this run its own cache directory"
                ) from None
            time.sleep(0.1)


def prepare_sqlite_cache(path: Path, *, lock_wait: float) -> bool:
    """Make ``path`` fit to be opened as an SQLite cache; returns whether a damaged one was set
    aside (:func:`set_aside`; a new one is built in its place). A lock another process holds
    is waited for (:func:`while_locked`); a directory in its place, or a file that cannot be
    written, is a :class:`CacheError`."""
    if path.is_dir():
        raise CacheError(
            f"the cache {path} is a directory, not a cache file: move it away, or choose "
            "another cache directory"
        )
    if not path.exists():
        return False

    def probe() -> None:
        with contextlib.closing(sqlite3.connect(path, timeout=0.2)) as db:
            tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            for (table,) in tables:
                db.execute(f'SELECT * FROM "{table}" LIMIT 1').fetchall()
            db.execute("BEGIN IMMEDIATE")  # a lock held elsewhere shows here, not mid-run
            db.execute("ROLLBACK")

    try:
        while_locked(path, probe, lock_wait=lock_wait)
    except sqlite3.DatabaseError as exc:
        if not sqlite_damaged(exc):
            raise CacheError(f"the cache {path} cannot be used: {exc}") from None
        set_aside(path, str(exc))
        return True
    return False
