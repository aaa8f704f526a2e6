"""A local fake Wikipedia: REST ``page/html``, ``action=parse`` and ``list=categorymembers``
over real loopback sockets.

Used by the web client's tests and benchmarks (nothing here touches the network)::

    with serve_wiki({("en", "Ada Lovelace"): "<p>Ada was a mathematician.</p>"}) as wiki:
        client = WikipediaWebClient(user_agent="t", base_urls=wiki.base_urls)

Each language lives under a path prefix: ``{wiki.url}/{lang}`` is its base URL, so
``wiki.base_urls`` maps every language of ``pages`` to its own site. A page's value is the
article body: the server wraps it the way the real APIs do (a Parsoid document with
``mw:pageId`` and ``dc:isVersionOf`` for REST; ``{"parse": {"title", "pageid", "text"}}`` with
a ``mw-parser-output`` wrapper for ``action=parse``). A :class:`Raw` value is served as it is,
on both APIs, for answers of other shapes (an error page, JSON, an empty body).

``categories`` (``{(lang, "Category:Name"): [titles]}``) are listed ``category_page_size``
titles an answer, with ``cmcontinue`` tokens as the real API gives them.

Every page has a revision id (``revision_ids``, else one made up) that its answers carry as
the real ones do: REST in ``<html about=".../revision/N">``, ``dc:modified`` and the ETag
(``W/"N/..."``), ``action=parse`` as ``revid``. ``revisions``
(``{(lang, title, revision id): body html or Raw}``) are older revisions, served at
``/page/html/TITLE/REVID`` (and ``action=parse&oldid=``) as the real APIs do; a page's current
revision is served there too, any other revision is a 404.

Knobs: the ``date`` every answer says it was sent (``Date``), a fixed ``delay`` per request
(and ``page_delays`` per page), ``redirects`` (title -> canonical title: REST answers 302,
``action=parse`` resolves it and lists it), 404s for unknown titles with the real bodies,
scripted failures per page (:meth:`FakeWiki.fail`: statuses with headers, or ``"drop"`` to
close the connection unanswered), the real cache headers (``Cache-Control: ... max-age=0,
must-revalidate``, ``Vary``, ``Set-Cookie``), and a request log with headers plus the most
requests ever in flight at once.
"""

from __future__ import annotations

import html
import json
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, unquote, urlsplit

__all__ = ["FakeWiki", "Logged", "Raw", "serve_wiki"]

REST_PREFIX = "/api/rest_v1/page/html/"
API_PATH = "/w/api.php"
REST_CONTENT_TYPE = (
    'text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.1.0"'
)
# What the real sites send: nothing a cache should keep, by the book.
REST_CACHE_HEADERS = {
    "Cache-Control": "s-maxage=1209600, max-age=0, must-revalidate",
    "Vary": "Accept-Encoding,Cookie,Authorization",
    "Set-Cookie": "WMF-Last-Access=22-Nov-2025;Path=/;HttpOnly;secure",
}
API_CACHE_HEADERS = {
    "Cache-Control": "private, must-revalidate, max-age=0",
    "Vary": "Accept-Encoding,Treat-as-Untrusted,X-Forwarded-Proto,Cookie,Authorization",
    "Set-Cookie": "GeoIP=XX:::0.00:0.00:v4; Path=/; secure; Domain=.wikipedia.org",
}


@dataclass(frozen=True)
class Raw:
    """An answer served verbatim for a page, whichever API asks."""

    body: str | bytes
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)


#: A scripted answer: a status, a status with headers, a verbatim answer, or "drop".
Answer = int | str | tuple[int, dict[str, str]] | Raw


#: The ``dc:modified`` of every revision served (Parsoid's format).
MODIFIED = "2024-05-01T10:00:00.000Z"


@dataclass
class Logged:
    """One request the server received."""

    method: str
    path: str
    lang: str
    api: str  # "rest", "parse" or "" (anything else)
    title: str
    headers: dict[str, str]
    status: int = 0
    revision: int | None = None  # asked for a revision (/page/html/TITLE/REVID, oldid=)
    started: float = 0.0
    ended: float = 0.0


def _norm(title: str) -> str:
    return title.replace("_", " ").strip()


def _rest_document(lang: str, title: str, page_id: int, body: str, revision: int) -> str:
    href = "//{}.wikipedia.org/wiki/{}".format(lang, quote(title.replace(" ", "_"), safe="/"))
    return (
        '<!DOCTYPE html>\n<html prefix="dc: http://purl.org/dc/terms/ mw: '
        f'http://mediawiki.org/rdf/" about="http://{lang}.wikipedia.org/wiki/Special:Redirect/'
        f'revision/{revision}"><head><meta charset="utf-8"/>'
        f'<meta property="mw:pageId" content="{page_id}"/>'
        '<meta property="mw:pageNamespace" content="0"/>'
        f'<meta property="dc:modified" content="{MODIFIED}"/>'
        f'<link rel="dc:isVersionOf" href="{href}"/><title>{html.escape(title)}</title></head>'
        f'<body lang="{lang}" class="mw-content-ltr sitedir-ltr ltr mw-body-content '
        f'parsoid-body mediawiki mw-parser-output">{body}</body></html>'
    )


class FakeWiki:
    """The server's state: pages, knobs, the request log. Built by :func:`serve_wiki`."""

    def __init__(
        self,
        pages: Mapping[tuple[str, str], str | Raw],
        *,
        delay: float = 0.0,
        page_delays: Mapping[tuple[str, str], float] | None = None,
        redirects: Mapping[tuple[str, str], str] | None = None,
        page_ids: Mapping[tuple[str, str], int] | None = None,
        cache_headers: bool = True,
        categories: Mapping[tuple[str, str], Sequence[str]] | None = None,
        category_page_size: int = 2,
        revision_ids: Mapping[tuple[str, str], int] | None = None,
        revisions: Mapping[tuple[str, str, int], str | Raw] | None = None,
    ) -> None:
        self.pages = {(lang, _norm(t)): v for (lang, t), v in pages.items()}
        self.revisions = {(lang, _norm(t), r): v for (lang, t, r), v in (revisions or {}).items()}
        self.categories = {(lang, _norm(c)): list(t) for (lang, c), t in (categories or {}).items()}
        self.category_page_size = category_page_size
        self.delay = delay
        self.page_delays = {(lang, _norm(t)): d for (lang, t), d in (page_delays or {}).items()}
        self.redirects = {(lang, _norm(t)): _norm(c) for (lang, t), c in (redirects or {}).items()}
        self.page_ids = {(lang, _norm(t)): i for (lang, t), i in (page_ids or {}).items()}
        for n, key in enumerate(self.pages):
            self.page_ids.setdefault(key, 1000 + n)
        self.revision_ids = {(lang, _norm(t)): i for (lang, t), i in (revision_ids or {}).items()}
        for n, key in enumerate(self.pages):
            self.revision_ids.setdefault(key, 7000 + n)
        self.cache_headers = cache_headers
        self.log: list[Logged] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.url = ""  # set by serve_wiki
        #: The ``Date`` of every answer (an HTTP date); ``None``: the time it is sent.
        self.date: str | None = None
        self._failures: dict[tuple[str, str], deque[Answer]] = {}
        self._lock = threading.Lock()

    # -- knobs ----------------------------------------------------------------------------

    def fail(self, lang: str, title: str, *answers: Answer) -> None:
        """Script the next answers for a page (either API), one per request, then normal ones.

        An answer is a status (``503``), a status with headers (``(503, {"Retry-After":
        "7"})``), a :class:`Raw` answer, or ``"drop"`` (close the connection unanswered).
        """
        with self._lock:
            self._failures.setdefault((lang, _norm(title)), deque()).extend(answers)

    def base_url(self, lang: str) -> str:
        return f"{self.url}/{lang}"

    @property
    def base_urls(self) -> dict[str, str]:
        """A base URL for each language of the pages and redirects."""
        langs = {lang for lang, _ in self.pages} | {lang for lang, _ in self.redirects}
        return {lang: self.base_url(lang) for lang in sorted(langs)}

    def title_of(self, lang: str, revision: int) -> str:
        """The title of the page a revision id is of ("" for none)."""
        for lg, title, rev in self.revisions:
            if (lg, rev) == (lang, revision):
                return title
        for (lg, title), rev in self.revision_ids.items():
            if (lg, rev) == (lang, revision):
                return title
        return ""

    def reset(self) -> None:
        """Forget the request log and the in-flight high-water mark."""
        with self._lock:
            self.log.clear()
            self.max_in_flight = self.in_flight

    def requests(self, *, api: str | None = None) -> list[Logged]:
        with self._lock:
            return [r for r in self.log if api is None or r.api == api]

    # -- serving --------------------------------------------------------------------------

    def _next_failure(self, key: tuple[str, str]) -> Answer | None:
        with self._lock:
            queue = self._failures.get(key)
            return queue.popleft() if queue else None

    def answer(
        self, lang: str, api: str, title: str, cont: str = "", revision: int | None = None
    ) -> tuple[int, dict[str, str], bytes] | None:
        """(status, headers, body) for a request; ``None`` to drop the connection."""
        key = (lang, title)
        failure = self._next_failure(key)
        if failure == "drop":
            return None
        if isinstance(failure, Raw):
            return self._raw(failure)
        if failure is not None:
            status, headers = failure if isinstance(failure, tuple) else (failure, {})
            body = f"<html><body><h1>Error {status}</h1></body></html>".encode()
            return status, {"Content-Type": "text/html", **headers}, body
        if revision is not None:
            return self._revision(lang, api, title, revision)
        if api == "rest":
            return self._rest(lang, title)
        if api == "categorymembers":
            return self._category(lang, title, cont)
        return self._parse(lang, title)

    def _revision(
        self, lang: str, api: str, title: str, revision: int
    ) -> tuple[int, dict[str, str], bytes]:
        """One revision of a page: an older one of ``revisions``, or the current one."""
        page = self.revisions.get((lang, title, revision))
        if page is None and self.revision_ids.get((lang, title)) == revision:
            page = self.pages.get((lang, title))
        if page is None:
            if api == "rest":
                return self._not_found(lang, f"{title}/{revision}")
            return self._parse_error("nosuchrevid", f"There is no revision with ID {revision}.")
        if isinstance(page, Raw):
            return self._raw(page)
        page_id = self.page_ids.get((lang, title), 999)
        if api == "rest":
            doc = _rest_document(lang, title, page_id, page, revision)
            return 200, self._rest_headers(revision), doc.encode()
        return self._parse_answer(lang, title, page_id, revision, page, [])

    def _rest_headers(self, revision: int) -> dict[str, str]:
        etag = f'W/"{revision}/7f2b9a70-0000-11ef-8000-000000000000"'
        return {"Content-Type": REST_CONTENT_TYPE, "ETag": etag, **self._extra("rest")}

    def _not_found(self, lang: str, path: str) -> tuple[int, dict[str, str], bytes]:
        body = {
            "type": "https://mediawiki.org/wiki/HyperSwitch/errors/not_found",
            "title": "Not found.",
            "method": "get",
            "detail": "Page or revision not found.",
            "uri": f"/{lang}.wikipedia.org/v1/page/html/{quote(path.replace(' ', '_'))}",
        }
        headers = {"Content-Type": "application/problem+json", **self._extra("rest")}
        return 404, headers, json.dumps(body).encode()

    def _parse_error(self, code: str, info: str) -> tuple[int, dict[str, str], bytes]:
        body: dict[str, object] = {
            "error": {
                "code": code,
                "info": info,
                "docref": "See https://en.wikipedia.org/w/api.php for API usage.",
            },
            "servedby": "mw-api-ext.fake",
        }
        headers = {"Content-Type": "application/json; charset=utf-8", **self._extra("parse")}
        return 200, {**headers, "MediaWiki-API-Error": code}, json.dumps(body).encode()

    def _parse_answer(
        self,
        lang: str,
        title: str,
        page_id: int,
        revision: int,
        page: str,
        redirects: list[dict[str, str]],
    ) -> tuple[int, dict[str, str], bytes]:
        parse: dict[str, object] = {"title": title, "pageid": page_id, "revid": revision}
        if redirects:
            parse["redirects"] = redirects
        parse["text"] = (
            f'<div class="mw-content-ltr mw-parser-output" lang="{lang}" dir="ltr">{page}</div>'
        )
        headers = {"Content-Type": "application/json; charset=utf-8", **self._extra("parse")}
        return 200, headers, json.dumps({"parse": parse}, ensure_ascii=False).encode()

    def _category(self, lang: str, title: str, cont: str) -> tuple[int, dict[str, str], bytes]:
        members = self.categories.get((lang, title), [])
        start = int(cont.rsplit("|", 1)[-1]) if cont else 0
        end = start + self.category_page_size
        body: dict[str, object] = {
            "batchcomplete": True,
            "query": {
                "categorymembers": [
                    {"pageid": 5000 + i, "ns": 0, "title": t}
                    for i, t in enumerate(members[start:end], start)
                ]
            },
        }
        if end < len(members):
            body["continue"] = {"cmcontinue": f"page|{end:04x}|{end}", "continue": "-||"}
        headers = {"Content-Type": "application/json; charset=utf-8", **self._extra("parse")}
        return 200, headers, json.dumps(body, ensure_ascii=False).encode()

    def _extra(self, api: str) -> dict[str, str]:
        if not self.cache_headers:
            return {}
        return dict(REST_CACHE_HEADERS if api == "rest" else API_CACHE_HEADERS)

    def _rest(self, lang: str, title: str) -> tuple[int, dict[str, str], bytes]:
        key = (lang, title)
        if key in self.redirects:
            target = quote(self.redirects[key].replace(" ", "_"), safe="")
            headers = {"Location": f"{target}?redirect=true", "Content-Type": "text/html"}
            return 302, {**self._extra("rest"), **headers}, b""
        page = self.pages.get(key)
        if page is None:
            return self._not_found(lang, title)
        if isinstance(page, Raw):
            return self._raw(page)
        revision = self.revision_ids[key]
        doc = _rest_document(lang, title, self.page_ids[key], page, revision)
        return 200, self._rest_headers(revision), doc.encode()

    def _parse(self, lang: str, title: str) -> tuple[int, dict[str, str], bytes]:
        key = (lang, title)
        redirects = []
        if key in self.redirects:
            redirects = [{"from": title, "to": self.redirects[key]}]
            key = (lang, self.redirects[key])
        page = self.pages.get(key)
        if isinstance(page, Raw):
            return self._raw(page)
        if page is None:
            return self._parse_error("missingtitle", "The page you specified doesn't exist.")
        return self._parse_answer(
            lang, key[1], self.page_ids[key], self.revision_ids[key], page, redirects
        )

    @staticmethod
    def _raw(page: Raw) -> tuple[int, dict[str, str], bytes]:
        body = page.body.encode() if isinstance(page.body, str) else page.body
        return page.status, {"Content-Type": page.content_type, **page.headers}, body


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the real sites
    disable_nagle_algorithm = True  # headers and body go in two writes: no 40 ms stalls
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def date_time_string(self, timestamp: float | None = None) -> str:
        return self.server.wiki.date or super().date_time_string(timestamp)

    def do_GET(self) -> None:
        wiki = self.server.wiki
        parts = urlsplit(self.path)
        lang, _, rest = parts.path.lstrip("/").partition("/")
        rest = "/" + rest
        api, title, cont = "", "", ""
        revision: int | None = None
        if rest.startswith(REST_PREFIX):
            path = rest[len(REST_PREFIX) :]
            head, sep, tail = path.rpartition("/")  # TITLE/REVID ("/" in a title is %2F)
            if sep and tail.isdigit():
                path, revision = head, int(tail)
            api, title = "rest", _norm(unquote(path))
        elif rest == API_PATH:
            query = parse_qs(parts.query)
            if query.get("action") == ["parse"]:
                api, title = "parse", _norm(query.get("page", [""])[0])
                oldid = query.get("oldid", [""])[0]
                if oldid.isdigit():
                    revision = int(oldid)
                    title = wiki.title_of(lang, revision)
            elif query.get("action") == ["query"] and query.get("list") == ["categorymembers"]:
                api, title = "categorymembers", _norm(query.get("cmtitle", [""])[0])
                cont = query.get("cmcontinue", [""])[0]
        entry = Logged("GET", self.path, lang, api, title, dict(self.headers.items()))
        entry.revision = revision
        with wiki._lock:
            wiki.log.append(entry)
            wiki.in_flight += 1
            wiki.max_in_flight = max(wiki.max_in_flight, wiki.in_flight)
        entry.started = time.monotonic()
        try:
            pause = wiki.page_delays.get((lang, title), wiki.delay)
            if pause:
                time.sleep(pause)
            if not api:
                answer: tuple[int, dict[str, str], bytes] | None = (
                    400,
                    {"Content-Type": "text/plain"},
                    b"unknown endpoint",
                )
            else:
                answer = wiki.answer(lang, api, title, cont, revision)
            if answer is None:
                self.close_connection = True
                entry.status = -1
                return
            status, headers, body = answer
            entry.status = status
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        finally:
            entry.ended = time.monotonic()
            with wiki._lock:
                wiki.in_flight -= 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, wiki: FakeWiki) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.wiki = wiki


@contextmanager
def serve_wiki(
    pages: Mapping[tuple[str, str], str | Raw],
    *,
    delay: float = 0.0,
    page_delays: Mapping[tuple[str, str], float] | None = None,
    redirects: Mapping[tuple[str, str], str] | None = None,
    page_ids: Mapping[tuple[str, str], int] | None = None,
    cache_headers: bool = True,
    categories: Mapping[tuple[str, str], Sequence[str]] | None = None,
    category_page_size: int = 2,
    revision_ids: Mapping[tuple[str, str], int] | None = None,
    revisions: Mapping[tuple[str, str, int], str | Raw] | None = None,
) -> Iterator[FakeWiki]:
    """Serve ``pages`` (``{(lang, title): body html or Raw}``) on 127.0.0.1 until the block ends.

    Yields the :class:`FakeWiki`: ``wiki.url`` is the server, ``wiki.base_url(lang)`` /
    ``wiki.base_urls`` the per-language sites for the client's ``base_urls``.
    """
    wiki = FakeWiki(
        pages,
        delay=delay,
        page_delays=page_delays,
        redirects=redirects,
        page_ids=page_ids,
        cache_headers=cache_headers,
        categories=categories,
        category_page_size=category_page_size,
        revision_ids=revision_ids,
        revisions=revisions,
    )
    server = _Server(wiki)
    host, port = server.server_address[:2]
    wiki.url = f"http://{host}:{port}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-wiki", daemon=True
    )
    thread.start()
    try:
        yield wiki
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
