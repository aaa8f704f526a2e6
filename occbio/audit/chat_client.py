"""An OpenAI-compatible chat-completions client that labels sentences with the paper's prompt.

:class:`ChatBackend` sends one request per sentence (the paper's prompt holds one sentence) to
``{base_url}/chat/completions`` (OpenAI, Azure-style gateways, vLLM, llama.cpp, Ollama, ...)
and reads the answer with the strict parser of :mod:`occbio.audit.person_refs`. It is polite
the way :mod:`occbio.net` says: at most ``rate`` requests per second over all threads and
``concurrency`` in flight; 429, 5xx, timeouts and dropped connections are retried with backoff,
honouring ``Retry-After`` (one longer than ``max_wait`` stops the run with
:class:`~occbio.net.SiteBusy`). Every answer is kept in an SQLite cache on disk keyed by the
model, the prompt and the sampling settings, so a re-run sends no request at all.

Errors by blast radius: a sentence the server could not answer (retries spent, a 400 for that
prompt, an answer of the wrong shape) is counted as *failed* and the run goes on; a refused key
(401/403), an unknown model (404) or a server that cannot be reached raise :class:`ChatError`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import requests

from occbio.audit.person_refs import (
    PROMPT_LANGS,
    SentenceLabels,
    build_prompt,
    check_lang,
    parse_answer,
)
from occbio.net import (
    RETRY_STATUSES,
    AnswerRefused,
    GuardedAdapter,
    RateLimiter,
    RedirectRefused,
    SiteBusy,
    backoff_delay,
    check_client_settings,
    prepare_sqlite_cache,
    retry_after_seconds,
    set_aside,
    sqlite_damaged,
    unreachable,
    user_agent,
    while_locked,
)

__all__ = ["CACHE_FILE", "ChatBackend", "ChatError", "ChatUnreachable", "PromptFailed"]

logger = logging.getLogger(__name__)

CACHE_FILE = "chat_completions.sqlite"
#: Statuses worth another try: the shared ones plus 408 (the server timed the request out).
_RETRY = RETRY_STATUSES | {408}
#: Statuses that say the configuration is wrong, for every sentence alike.
_FATAL = {401: "the API key was refused", 403: "the API key was refused", 404: "no such model"}
_R = TypeVar("_R")


class ChatError(RuntimeError):
    """The chat server refuses every request (key, model, URL): the run stops."""


class ChatUnreachable(ChatError):
    """The chat server cannot be reached at all, even after the retries."""


class PromptFailed(Exception):
    """One prompt got no usable answer (retries spent, refused, an answer of another shape);
    the sentence is counted as failed and the run goes on."""


class _Retry(Exception):
    def __init__(self, detail: str, wait: float | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.wait = wait


class _Cache:
    """Answers on disk: sha256 key -> answer text, one SQLite file, safe across threads.

    A damaged file is set aside (renamed ``.damaged``) and rebuilt, at once when it is found
    on opening, else when the cache is closed (meanwhile reads are misses and writes are
    skipped; said, and ``on_damage`` called, once). A lock another process holds is waited for
    ``lock_wait`` seconds at most, said, then :class:`~occbio.net.CacheError`."""

    def __init__(self, folder: Path, *, lock_wait: float, on_damage: Callable[[], None]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / CACHE_FILE
        self.lock_wait = lock_wait
        self.was_set_aside = prepare_sqlite_cache(self.path, lock_wait=lock_wait)
        self.damaged = ""
        self._on_damage = on_damage
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=0.2)
        self._run(self._create)

    def _create(self) -> None:
        with self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, model TEXT, "
                "content TEXT NOT NULL, created REAL)"
            )

    def _run(self, action: Callable[[], _R]) -> _R | None:
        """``action`` under the lock, a lock held elsewhere waited for; ``None`` once the
        file is found damaged."""
        with self._lock:
            if self.damaged:
                return None
            try:
                return while_locked(self.path, action, lock_wait=self.lock_wait)
            except sqlite3.DatabaseError as exc:
                if not sqlite_damaged(exc):
                    raise
                self.damaged = str(exc)
        logger.warning(
            "the answer cache %s is damaged (%s): prompts are sent again, and it is set "
            "aside when this run ends",
            self.path,
            self.damaged,
        )
        self._on_damage()
        return None

    def get(self, key: str) -> str | None:
        def read() -> str | None:
            row = self._db.execute("SELECT content FROM answers WHERE key = ?", (key,)).fetchone()
            return row[0] if row else None

        return self._run(read)

    def put(self, key: str, model: str, content: str) -> None:
        def write() -> None:
            with self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                    (key, model, content, time.time()),
                )

        self._run(write)

    def close(self) -> None:
        """Close the file; set it aside when it was found damaged."""
        with self._lock:
            self._db.close()
        if self.damaged and self.path.exists():
            set_aside(self.path, self.damaged)
            self.was_set_aside = True


def _error_message(response: requests.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:120]
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return error["message"]
    return str(error or body)[:120]


def _content(response: requests.Response) -> str:
    """The answer text of a chat-completions response; :class:`PromptFailed` for another
    shape."""
    try:
        data: Any = response.json()
    except ValueError:
        raise PromptFailed(f"answer is not JSON: {response.text.strip()[:60]!r}") from None
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise PromptFailed("answer has no choices[0].message.content") from None
    if not isinstance(content, str):
        raise PromptFailed(f"choices[0].message.content is {type(content).__name__}, not text")
    return content


class ChatBackend:
    """Labels sentences with an LLM behind an OpenAI-compatible chat-completions API.

    ``base_url`` is the API root (``https://api.openai.com/v1``, ``http://localhost:8000/v1``);
    ``model`` the model name; the key is read from the environment variable ``api_key_env``
    and sent as ``Authorization: Bearer`` (none is sent when it is unset: local servers need
    none). ``cache_dir`` holds the answer cache (``None``: no cache). ``concurrency`` requests
    in flight, ``rate`` requests per second (cache hits are free), ``retries`` further tries
    of a failed request, pausing ``Retry-After`` or ``backoff * 2**n`` seconds up to
    ``max_wait``, each wait for the server given ``timeout`` seconds and each request
    ``deadline`` seconds in all; an answer over ``max_bytes`` is not read further. Either is
    a failed prompt, not retried; a redirect of the request is a :class:`ChatError` (the
    base URL is not where the server is). ``temperature`` 0 by default (the labels should
    not change between runs; ``None`` leaves it to the server). ``sleep`` does the pauses
    (inject it in tests). ``stats`` counts ``requests``, ``cache_hits``, ``retries``,
    ``failed`` and ``truncated`` answers, ``deadline_exceeded`` and ``too_large`` ones, and
    ``cache_unreadable`` / ``cache_set_aside`` for a damaged cache (set aside and rebuilt;
    one locked by another process is waited for ``lock_wait`` seconds at most).

    Languages: those of the paper's prompt, ``es`` and ``va``/``ca``.
    """

    languages = frozenset(PROMPT_LANGS)

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        cache_dir: str | Path | None = None,
        rate: float = 2.0,
        concurrency: int = 4,
        retries: int = 5,
        backoff: float = 1.0,
        max_wait: float = 120.0,
        timeout: float = 60.0,
        deadline: float = 300.0,
        max_bytes: int = 16 * 2**20,
        lock_wait: float = 60.0,
        temperature: float | None = 0.0,
        max_tokens: int | None = None,
        contact: str = "",
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"base_url must be http(s)://host[/path], got {base_url!r}")
        if not model.strip():
            raise ValueError("a model name is required (e.g. gpt-4-turbo)")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        agent = user_agent(contact)
        check_client_settings(
            user_agent=agent,
            retries=retries,
            timeout=timeout,
            deadline=deadline,
            max_bytes=max_bytes,
        )
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.name = f"chat:{model}"
        self.api_key_env = api_key_env
        self.concurrency = concurrency
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.timeout = timeout
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.stats: Counter[str] = Counter()
        self._sleep = sleep
        self._limiter = RateLimiter(rate)
        self._stats_lock = threading.Lock()
        adapter = GuardedAdapter(deadline=deadline, max_bytes=max_bytes, pool=concurrency)
        self._cache: _Cache | None = None
        if cache_dir is not None:
            self._cache = _Cache(
                Path(cache_dir),
                lock_wait=lock_wait,
                on_damage=lambda: self._count("cache_unreadable"),
            )
            if self._cache.was_set_aside:
                self._count("cache_set_aside")
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False
        self.session = requests.Session()
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.session.headers.update({"User-Agent": agent})
        key = os.environ.get(api_key_env, "").strip() if api_key_env else ""
        if key:
            self.session.headers["Authorization"] = f"Bearer {key}"

    # -- one request ------------------------------------------------------------------------

    def _count(self, key: str, n: int = 1) -> None:
        with self._stats_lock:
            self.stats[key] += n

    def _body(self, prompt: str) -> dict[str, object]:
        body: dict[str, object] = {
            "model": self.model,
            "messages": [{"role": "user", "content": prompt}],
        }
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    @staticmethod
    def cache_key(body: dict[str, object]) -> str:
        """The cache key of a request: the model, the prompt and the sampling settings."""
        canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def complete(self, prompt: str) -> str:
        """The model's answer to ``prompt`` (from the cache when it has it).

        Raises :class:`PromptFailed` when this prompt got no usable answer (retries spent, a
        refusal of this request, an answer that is not a chat completion), :class:`ChatError`
        when no prompt can succeed, :class:`~occbio.net.SiteBusy` when the server asks for a
        pause longer than ``max_wait``.
        """
        if self._closed:
            raise RuntimeError("ChatBackend is closed")
        body = self._body(prompt)
        key = self.cache_key(body)
        if self._cache is not None:
            cached = self._cache.get(key)
            if cached is not None:
                self._count("cache_hits")
                return cached
        content = self._post(body)
        if self._cache is not None:
            self._cache.put(key, self.model, content)
        return content

    def _post(self, body: dict[str, object]) -> str:
        attempts = self.retries + 1
        for attempt in range(1, attempts + 1):
            self._limiter.acquire()
            self._count("requests")
            try:
                response = self.session.post(
                    self.url, json=body, timeout=self.timeout, allow_redirects=False
                )
            except RedirectRefused as exc:
                raise ChatError(
                    f"{exc}: set the base URL to where the chat server really is"
                ) from None
            except AnswerRefused as exc:  # too slow in all, too large: this prompt only
                self._count(exc.counter)
                raise PromptFailed(str(exc)) from None
            except requests.RequestException as exc:
                retry = _Retry(f"{type(exc).__name__}: {exc}")
                if attempt == attempts and unreachable(exc):
                    raise ChatUnreachable(
                        f"the chat server at {self.url} cannot be reached ({retry.detail}); "
                        "check the base URL and that the server is running"
                    ) from exc
            else:
                code = response.status_code
                if code == 200:
                    content = _content(response)
                    if _finish_reason(response) == "length":
                        self._count("truncated")
                    return content
                if code in _FATAL:
                    hint = (
                        f"set ${self.api_key_env}"
                        if code in (401, 403)
                        else f"check the model name {self.model!r}"
                    )
                    raise ChatError(
                        f"{self.url}: HTTP {code}, {_FATAL[code]} ({_error_message(response)}); "
                        f"{hint}"
                    )
                if code not in _RETRY:
                    raise PromptFailed(f"HTTP {code}: {_error_message(response)}")
                retry = _Retry(
                    f"HTTP {code}", retry_after_seconds(response.headers.get("Retry-After"))
                )
            if attempt == attempts:
                raise PromptFailed(f"gave up after {attempts} attempts: {retry.detail}")
            if retry.wait is not None and retry.wait > self.max_wait:
                raise SiteBusy(
                    f"{self.url}: {retry.detail} and asks to wait {retry.wait:.0f} s (more than "
                    f"max_wait={self.max_wait:.0f} s): try again later; cached answers are kept"
                )
            wait = backoff_delay(
                attempt, base=self.backoff, cap=self.max_wait, retry_after=retry.wait
            )
            logger.debug("%s: %s; retry %d in %.1fs", self.url, retry.detail, attempt, wait)
            self._count("retries")
            self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- the Backend protocol ---------------------------------------------------------------

    def label_one(self, sentence: str, lang: str) -> SentenceLabels:
        """One sentence's labels; a sentence the server could not answer comes back empty,
        with ``failed`` saying why."""
        try:
            content = self.complete(build_prompt(sentence, lang))
        except PromptFailed as exc:
            self._count("failed")
            logger.warning("no labels for %r: %s", sentence[:60], exc)
            return SentenceLabels(failed=str(exc) or type(exc).__name__)
        return parse_answer(content)

    def label(self, sentences: list[str], lang: str) -> list[SentenceLabels]:
        """Label ``sentences`` (``concurrency`` at a time), in order."""
        code = check_lang(lang, self.languages, self.name)
        if self.concurrency == 1 or len(sentences) <= 1:
            return [self.label_one(s, code) for s in sentences]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="chat")
        futures = [self._pool.submit(self.label_one, s, code) for s in sentences]
        try:
            return [f.result() for f in futures]
        finally:
            for f in futures:
                f.cancel()

    # -- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the threads, close the connections and the cache."""
        if self._closed:
            return
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self.session.close()
        if self._cache is not None:
            self._cache.close()
            if self._cache.damaged:
                self._count("cache_set_aside")

    def __enter__(self) -> ChatBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _finish_reason(response: requests.Response) -> str:
    try:
        return str(response.json()["choices"][0].get("finish_reason") or "")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return ""
