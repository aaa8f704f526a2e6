"""The persistent cache of page answers: what is kept, and how a row is stored.

:class:`~occbio.extract.wikipedia_web.WikipediaWebClient` fetches through a requests-cache
SQLite file, :data:`_CACHE_FILE` in its ``cache_dir``. :func:`_cacheable` keeps every 200 and
404 answer that settles a page for good (an article, or no such page), whatever the server's
``Cache-Control`` says, so a re-run or a resumed run fetches nothing twice; :func:`_json_zlib`
stores each answer as zlib-compressed JSON, never a pickle. Kept apart from the client so that
the cache's format and policy can be read, and changed, in one place.

:class:`_GuardedCache` is the SQLite backend with two of requests-cache's habits removed: a
write waits for another process's lock for ever, silently (here: said, bounded by
``lock_wait``, then :class:`~occbio.net.CacheError`), and a damaged file raises
``sqlite3.DatabaseError`` mid-run (here: reads are misses and writes are skipped, counted,
and the client sets the file aside when it closes, so the next run builds a new one).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import requests
from requests_cache.backends.base import BaseCache
from requests_cache.backends.sqlite import SQLiteCache, SQLiteDict

from occbio.extract.wikipedia_answers import _classify, _Retry
from occbio.net import CacheError, sqlite_busy, sqlite_damaged, while_locked

logger = logging.getLogger(__name__)

_CACHE_FILE = "wikipedia_web.json.sqlite"  # ".json": older caches held pickles


def _cacheable(api: str, response: requests.Response) -> bool:
    """Keep only answers that settle a page for good: an article, or no such page."""
    if response.status_code not in (200, 404):
        return False
    try:
        status = _classify(api, response)[0]
    except _Retry:
        return False
    return status in ("ok", "missing")


def _json_zlib(on_unreadable: Callable[[], None]) -> Any:
    """A requests-cache serializer that stores responses as zlib-compressed JSON (status,
    headers, body): Parsoid HTML shrinks about fivefold, and a row read from a copied or
    shared cache can never run code, as a pickle can. A row that does not decode (an older
    pickle, a truncated or planted value) is reported through ``on_unreadable`` and read as a
    cache miss, so the page is fetched again and the row replaced."""
    import json

    from requests_cache.serializers.pipeline import SerializerPipeline, Stage
    from requests_cache.serializers.preconf import json_preconf_stage

    def dumps(response: Any) -> bytes:
        return zlib.compress(json.dumps(json_preconf_stage.dumps(response)).encode("utf-8"), 6)

    def loads(blob: bytes) -> Any:
        try:
            return json_preconf_stage.loads(json.loads(zlib.decompress(blob).decode("utf-8")))
        except Exception as exc:  # whatever the row holds, it is a miss, never an error
            on_unreadable()
            raise ValueError(f"unreadable cache row ({type(exc).__name__})") from None

    return SerializerPipeline([Stage(dumps=dumps, loads=loads)], name="json+zlib", is_binary=True)


class _BoundedDict(SQLiteDict):
    """requests-cache's table, but a write waits ``lock_wait`` seconds at most for a lock."""

    def __init__(self, *args: Any, lock_wait: float, **kwargs: Any) -> None:
        self.lock_wait = lock_wait
        super().__init__(*args, **kwargs)

    @contextlib.contextmanager
    def _acquire_sqlite_lock(self) -> Iterator[None]:
        # The library's own loops on "database is locked" for as long as the lock lasts.
        path = Path(str(self.db_path))
        with self._lock:
            con = self._connection
            assert con is not None
            while_locked(path, lambda: con.execute("BEGIN IMMEDIATE"), lock_wait=self.lock_wait)
            self._active_transaction = True
            try:
                yield
                con.commit()
            except sqlite3.OperationalError:
                con.rollback()
            finally:
                self._active_transaction = False


class _GuardedCache(SQLiteCache):
    """The SQLite cache backend of the web client: bounded lock waits, damage tolerated.

    A damaged file found mid-run (``sqlite3.DatabaseError``: malformed, not a database) makes
    every later read a miss and every write a no-op; ``on_damage`` is told once, and
    :attr:`damaged` says the file is to be set aside once the connections are closed."""

    def __init__(
        self,
        path: Path,
        *,
        serializer: Any,
        lock_wait: float,
        on_damage: Callable[[str], None],
    ) -> None:
        BaseCache.__init__(self, cache_name=str(path))
        options: dict[str, Any] = {"busy_timeout": 200, "wal": True, "lock_wait": lock_wait}
        self.responses = _BoundedDict(path, "responses", serializer=serializer, **options)
        self.redirects = _BoundedDict(
            path, "redirects", lock=self.responses._lock, serializer=None, **options
        )
        self.path = path
        self.lock_wait = lock_wait
        self.damaged = ""
        self._on_damage = on_damage
        self._damage_lock = threading.Lock()

    def _trouble(self, exc: sqlite3.DatabaseError) -> None:
        if sqlite_busy(exc):
            raise CacheError(
                f"the cache {self.path} stayed locked by another process: {exc}"
            ) from None
        if not sqlite_damaged(exc):
            raise CacheError(f"the cache {self.path} cannot be used: {exc}") from None
        with self._damage_lock:
            first = not self.damaged
            self.damaged = self.damaged or str(exc)
        if first:
            self._on_damage(str(exc))

    def get_response(self, key: str, default: Any = None) -> Any:
        if self.damaged:
            return default
        try:
            return super().get_response(key, default)
        except sqlite3.DatabaseError as exc:
            self._trouble(exc)
            return default

    def save_response(self, *args: Any, **kwargs: Any) -> None:
        if self.damaged:
            return
        try:
            super().save_response(*args, **kwargs)
        except sqlite3.DatabaseError as exc:
            self._trouble(exc)
