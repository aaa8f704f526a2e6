"""Fetch biographies from the live Wikipedias, politely, with a persistent cache.

:class:`WikipediaWebClient` fetches a page's HTML per language, from the REST API
(``/api/rest_v1/page/html/{title}``, Parsoid HTML, the default) or from ``action=parse``. It is
polite the way :mod:`occbio.net` says: a User-Agent on every request, at most ``rate`` network
requests per second and ``concurrency`` in flight, retries with backoff on 429/5xx, timeouts and
dropped connections, honouring ``Retry-After``. A persistent on-disk cache (requests-cache,
SQLite, values stored as zlib-compressed JSON) keeps every 200 and 404 answer for ever, whatever
the server's ``Cache-Control`` says, so a re-run or a resumed run fetches nothing twice. A site
that cannot be reached at all raises :class:`SiteUnreachable` rather than failing each of its
pages one by one. Turning the HTML into prose is :mod:`occbio.extract.html_text`'s job.

This module holds the fetching itself: the session, its politeness and retries, and the
thread pool. What it fetches from is built in :mod:`occbio.extract.wikipedia_urls`, how an
answer is read (article, missing, bad shape, busy) in :mod:`occbio.extract.wikipedia_answers`,
and what the cache keeps and how in :mod:`occbio.extract.wikipedia_cache`; the public names of
those modules are re-exported here, so ``occbio.extract.wikipedia_web`` stays the one place to
import the web source from.
"""

from __future__ import annotations

import http.cookiejar
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

import requests

from occbio.extract.wikipedia_answers import (
    CategoryError,
    FetchResult,
    Status,
    _category_page,
    _classify,
    _json_error,
    _retrieved,
    _Retry,
)
from occbio.extract.wikipedia_cache import _CACHE_FILE, _cacheable, _GuardedCache, _json_zlib
from occbio.extract.wikipedia_urls import (
    category_members_url,
    default_base_url,
    parse_url,
    rest_url,
)
from occbio.net import (
    RETRY_STATUSES,
    AnswerRefused,
    DaemonPool,
    GuardedAdapter,
    RateLimiter,
    SiteBusy,
    backoff_delay,
    check_client_settings,
    prepare_sqlite_cache,
    retry_after_seconds,
    set_aside,
    unreachable,
)

# CategoryError, FetchResult and the URL builders are re-exported from the modules that hold them.
__all__ = [
    "CategoryError",
    "FetchResult",
    "SiteUnreachable",
    "WikipediaWebClient",
    "category_members_url",
    "default_base_url",
    "parse_url",
    "rest_url",
]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
_END: Any = object()


class SiteUnreachable(RuntimeError):
    """A language's site cannot be reached at all (DNS, refused, TLS), even after the retries."""

    def __init__(self, lang: str, base_url: str, reason: str) -> None:
        self.lang = lang
        self.base_url = base_url
        self.reason = reason
        super().__init__(
            f"the {lang!r} Wikipedia at {base_url} cannot be reached ({reason}); check the "
            "network, a proxy, or text.base_urls"
        )


#: Request errors another try cannot mend.
_NOT_RETRIED = (
    requests.exceptions.InvalidURL,
    requests.exceptions.InvalidHeader,
    requests.exceptions.TooManyRedirects,
)


def _dot_title(title: str) -> bool:
    """Whether MediaWiki refuses ``title`` for its dot segments (``.``, ``..``, ``a/../b``):
    no page has such a title, and in a URL path they would name another page."""
    t = title.strip().replace(" ", "_")
    return (
        t in (".", "..")
        or t.startswith(("./", "../"))
        or t.endswith(("/.", "/.."))
        or ("/./" in t or "/../" in t)
    )


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """Never store or send a cookie: the answers must not depend on earlier requests."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False

    def return_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


class _PoliteAdapter(GuardedAdapter):
    """Every network request (cache misses only) passes here: rate limit, bound, count."""

    def __init__(self, client: WikipediaWebClient, pool: int) -> None:
        super().__init__(deadline=client.deadline, max_bytes=client.max_bytes, pool=pool)
        self._client = client

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> Any:
        client = self._client
        with client._in_flight:
            client._limiter.acquire()
            client._count("requests")
            return super().send(request, *args, **kwargs)


def _drop_vary(response: requests.Response, *args: Any, **kwargs: Any) -> requests.Response:
    # Wikipedia answers "Vary: Accept-Encoding,Cookie,Authorization"; our requests are all
    # alike, and a cached answer must match a later run's request whatever its headers.
    response.headers.pop("Vary", None)
    return response


class WikipediaWebClient:
    """Fetches article HTML from the Wikipedias, politely and through a persistent cache.

    ``base_urls`` maps a language to its site (default :func:`default_base_url`); ``api`` is
    ``rest`` (Parsoid HTML) or ``parse`` (``action=parse`` JSON). ``concurrency`` bounds the
    requests in flight, ``rate`` the network requests per second over all threads (cache hits
    are free). Transient failures (429, 5xx, timeouts, dropped connections, busy API errors)
    are retried up to ``retries`` times, pausing ``Retry-After`` or ``backoff * 2**n`` seconds
    (capped at ``max_wait``); a ``Retry-After`` longer than ``max_wait`` raises
    :class:`~occbio.net.SiteBusy`, which stops the run, as the SPARQL client does; ``sleep``
    does those pauses (inject it in tests). ``timeout`` bounds each wait for the server,
    ``deadline`` a whole request (a server dripping its answer), ``max_bytes`` an answer;
    a page past either, or redirected to another host, is an ``error`` (not retried).
    ``cache_dir`` holds the SQLite cache (``None``: no cache): a damaged one is set aside
    (renamed ``.damaged``) and rebuilt, a locked one waited for ``lock_wait`` seconds at most.
    ``stats`` counts ``requests`` (network), ``cache_hits``, ``retries``, ``status_*`` per
    result, and ``deadline_exceeded``, ``too_large``, ``redirects_refused``,
    ``invalid_titles``, ``cache_unreadable`` (rows, or a whole damaged cache, read as misses)
    and ``cache_set_aside``.
    """

    def __init__(
        self,
        *,
        user_agent: str,
        base_urls: Mapping[str, str] | None = None,
        api: Literal["rest", "parse"] = "rest",
        concurrency: int = 4,
        rate: float = 10.0,
        retries: int = 5,
        backoff: float = 1.0,
        max_wait: float = 120.0,
        timeout: float = 30.0,
        deadline: float = 120.0,
        max_bytes: int = 64 * 2**20,
        cache_dir: Path | None = None,
        lock_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if api not in ("rest", "parse"):
            raise ValueError(f"api must be 'rest' or 'parse', got {api!r}")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        check_client_settings(
            user_agent=user_agent,
            retries=retries,
            timeout=timeout,
            deadline=deadline,
            max_bytes=max_bytes,
        )
        self.api = api
        self.concurrency = concurrency
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.timeout = timeout
        self.deadline = deadline
        self.max_bytes = max_bytes
        self.cache_dir = cache_dir
        self.lock_wait = lock_wait
        self.stats: Counter[str] = Counter()
        self._base_urls = {k: v.rstrip("/") for k, v in (base_urls or {}).items()}
        for lang, base in self._base_urls.items():
            parts = urlsplit(base)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(f"base URL of {lang!r} must be http(s)://host[/path]: {base!r}")
        self._sleep = sleep
        self._limiter = RateLimiter(rate)
        self._in_flight = threading.BoundedSemaphore(concurrency)
        self._stats_lock = threading.Lock()
        self._unreachable: dict[str, SiteUnreachable] = {}
        self._closed = False
        self._cache: _GuardedCache | None = None
        self.session = self._make_session(user_agent)

    def _make_session(self, user_agent: str) -> requests.Session:
        session: requests.Session
        if self.cache_dir is None:
            session = requests.Session()
        else:
            import requests_cache

            self.cache_dir.mkdir(parents=True, exist_ok=True)
            path = self.cache_dir / _CACHE_FILE
            if prepare_sqlite_cache(path, lock_wait=self.lock_wait):
                self._count("cache_set_aside")
            self._cache = _GuardedCache(
                path,
                serializer=_json_zlib(lambda: self._count("cache_unreadable")),
                lock_wait=self.lock_wait,
                on_damage=self._cache_damaged,
            )
            api = self.api
            session = requests_cache.CachedSession(
                backend=self._cache,
                expire_after=requests_cache.NEVER_EXPIRE,
                cache_control=False,  # Wikipedia says max-age=0: keep the answers anyway
                allowable_codes=(200, 404),
                allowable_methods=("GET",),
                filter_fn=lambda response: _cacheable(api, response),
            )
        adapter = _PoliteAdapter(self, pool=max(self.concurrency, 4))
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        session.headers.update({"User-Agent": user_agent, "Accept-Encoding": "gzip"})
        session.cookies.set_policy(_NoCookies())
        session.hooks["response"].append(_drop_vary)
        return session

    # -- helpers ---------------------------------------------------------------------------

    def _count(self, key: str, n: int = 1) -> None:
        with self._stats_lock:
            self.stats[key] += n

    def _cache_damaged(self, why: str) -> None:
        self._count("cache_unreadable")
        logger.warning(
            "the cache %s is damaged (%s): pages are fetched again, and it is set aside when "
            "this run ends",
            self._cache.path if self._cache is not None else self.cache_dir,
            why,
        )

    def base_url(self, lang: str) -> str:
        """The site of ``lang``: from ``base_urls``, else https://{lang}.wikipedia.org."""
        return self._base_urls.get(lang) or default_base_url(lang)

    def url(self, lang: str, title: str, revision: int | None = None) -> str:
        """The URL fetched for a page (``revision``: that revision of it) with the configured
        API."""
        base = self.base_url(lang)
        if self.api == "rest":
            return rest_url(base, title, revision)
        return parse_url(base, title, revision)

    def _result(self, lang: str, title: str, status: Status, **kw: Any) -> FetchResult:
        self._count(f"status_{status}")
        return FetchResult(lang=lang, title=title, status=status, **kw)

    # -- fetching --------------------------------------------------------------------------

    def _get(
        self, lang: str, url: str, classify: Callable[[requests.Response], _T]
    ) -> tuple[_T, bool] | str:
        """GET ``url`` with the politeness rules: ``classify`` reads a 200/404 answer (raising
        :class:`_Retry` for a busy one). Returns its result and whether the answer came from
        the cache, or why it gave up (retries spent, or a 4xx refusal). Raises
        :class:`SiteUnreachable` when ``lang``'s site cannot be reached."""
        if self._closed:
            raise RuntimeError("WikipediaWebClient is closed")
        attempts = self.retries + 1
        for attempt in range(1, attempts + 1):
            if lang in self._unreachable:
                raise self._unreachable[lang]
            try:
                response = self.session.get(url, timeout=self.timeout)
            except AnswerRefused as exc:  # too slow in all, too large, another host
                self._count(exc.counter)
                return str(exc)
            except _NOT_RETRIED as exc:  # a title that makes no valid URL, say
                return f"{type(exc).__name__}: {exc}"
            except requests.RequestException as exc:
                retry = _Retry(f"{type(exc).__name__}: {exc}")
                if attempt == attempts and unreachable(exc):
                    down = SiteUnreachable(lang, self.base_url(lang), retry.detail)
                    self._unreachable[lang] = down
                    raise down from exc
            else:
                from_cache = bool(getattr(response, "from_cache", False))
                if from_cache:
                    self._count("cache_hits")
                code = response.status_code
                try:
                    if code in (200, 404):
                        return classify(response), from_cache
                    if code not in RETRY_STATUSES:
                        why = _json_error(response) or response.reason or ""
                        return f"HTTP {code}: {why}".rstrip(": ")
                    raise _Retry(
                        f"HTTP {code}", retry_after_seconds(response.headers.get("Retry-After"))
                    )
                except _Retry as exc:
                    retry = exc
            if attempt == attempts:
                return f"gave up after {attempts} attempts: {retry.detail}"
            if retry.wait is not None and retry.wait > self.max_wait:
                raise SiteBusy(
                    f"{self.base_url(lang)}: {retry.detail} and asks to wait {retry.wait:.0f} s "
                    f"(more than max_wait={self.max_wait:.0f} s): try again later; the run "
                    "resumes where it stopped"
                )
            wait = backoff_delay(
                attempt, base=self.backoff, cap=self.max_wait, retry_after=retry.wait
            )
            logger.debug("%s: %s; retry %d in %.1fs", url, retry.detail, attempt, wait)
            self._count("retries")
            self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def fetch(self, lang: str, title: str, revision: int | None = None) -> FetchResult:
        """One page: its current revision, or ``revision`` (a revision id) of it. Raises
        :class:`SiteUnreachable` when ``lang``'s site cannot be reached."""
        if _dot_title(title):  # in a URL path, "." and ".." would name another page
            self._count("invalid_titles")
            return self._result(lang, title, "error", detail=f"not a valid title: {title!r}")

        def classify(response: requests.Response) -> tuple[Any, str]:
            return _classify(self.api, response), _retrieved(response)

        # the URL asked for, not the answer's: the cache keeps a normalised form of that
        url = self.url(lang, title, revision)
        got = self._get(lang, url, classify)
        if isinstance(got, str):
            return self._result(lang, title, "error", detail=got)
        (answer, retrieved), from_cache = got
        ok = answer.status == "ok"
        return self._result(
            lang,
            title,
            answer.status,
            html=answer.html,
            final_title=answer.final_title or (title if ok else ""),
            page_id=answer.page_id,
            from_cache=from_cache,
            detail=answer.detail,
            revision_id=answer.revision_id if ok else None,
            revision_timestamp=answer.revision_timestamp if ok else "",
            url=url if ok else "",
            retrieved=retrieved if ok else "",
        )

    def category_members(self, lang: str, category: str) -> list[str]:
        """The titles of the articles in ``category`` on ``lang``'s Wikipedia (direct members,
        namespace 0), every page of the listing followed. Never cached: membership changes.

        Raises :class:`CategoryError` when the listing fails (no such category gives an empty
        list, as the API does), :class:`SiteUnreachable` when the site cannot be reached.
        """
        titles: list[str] = []
        cont = ""
        while True:
            url = category_members_url(self.base_url(lang), category, cont)
            try:
                got = self._get(lang, url, _category_page)
            except CategoryError as exc:
                got = str(exc)
            if isinstance(got, str):
                raise CategoryError(f"cannot list {category!r} on {lang} Wikipedia: {got}")
            (page, cont), _ = got
            titles += page
            if not cont:
                return titles

    def fetch_many(
        self, items: Iterable[tuple[str, str] | tuple[str, str, int | None]]
    ) -> Iterator[FetchResult]:
        """Fetch ``(lang, title)`` pairs (or ``(lang, title, revision)``), yielding results in
        input order.

        ``concurrency`` threads fetch; at most ``2 * concurrency`` results wait to be taken, so
        ``items`` is read lazily and can be as long as it likes. Raises
        :class:`SiteUnreachable` (and stops fetching) when a language's site is down.
        """
        window = 2 * self.concurrency
        pending: deque[Future[FetchResult]] = deque()
        source = iter(items)
        pool = DaemonPool(self.concurrency, "wikipedia-web")  # Ctrl-C waits for no request
        try:
            exhausted = False
            while True:
                while not exhausted and len(pending) < window:
                    item = next(source, _END)
                    if item is _END:
                        exhausted = True
                        break
                    pending.append(pool.submit(self.fetch, *item))
                if not pending:
                    return
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
            pool.shutdown()

    # -- lifetime --------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connections and the cache (setting a damaged one aside)."""
        if not self._closed:
            self._closed = True
            self.session.close()
            cache = self._cache
            if cache is not None and cache.damaged and cache.path.exists():
                set_aside(cache.path, cache.damaged)
                self._count("cache_set_aside")

    def __enter__(self) -> WikipediaWebClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
