"""Reading a Wikipedia's answers: what a page fetch or a category listing came back with.

:func:`_classify` reads a 200/404 answer to a page request (REST/Parsoid HTML or
``action=parse`` JSON) into a :class:`FetchResult` status, the article HTML, the title after
redirects and the page id; :func:`_category_page` reads one ``list=categorymembers`` answer.
Both raise :class:`_Retry` for an answer that says "busy, try again", which
:class:`~occbio.extract.wikipedia_web.WikipediaWebClient` catches and retries. Kept apart from
the client so that the rules for what counts as an article, a missing page or a bad shape live
in one place, shared with the cache's choice of what to keep
(:mod:`occbio.extract.wikipedia_cache`). Turning the HTML into prose is
:mod:`occbio.extract.html_text`'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Literal, NamedTuple
from urllib.parse import unquote, urlsplit

import requests

from occbio.extract.html_text import shape_problem
from occbio.extract.mediawiki import utc_timestamp
from occbio.net import retry_after_seconds

__all__ = [
    "CategoryError",
    "FetchResult",
    "Status",
]

Status = Literal["ok", "missing", "bad_shape", "error"]


class CategoryError(RuntimeError):
    """A category's members could not be listed (the message says which and why)."""


@dataclass(frozen=True)
class FetchResult:
    """One page's fetch: ``status`` says whether ``html`` holds the article.

    ``missing``: no such page (404, or ``missingtitle``). ``bad_shape``: the server answered
    200 with something that is not article HTML (or JSON of an unexpected shape). ``error``:
    gave up after the retries, or the server refused the request (another 4xx). ``detail``
    says why a page is not ``ok``. ``final_title`` is the page's title after redirects (with
    spaces), ``page_id`` its page id.

    Provenance, of an ``ok`` page: ``revision_id`` (REST: the ``about`` of Parsoid's
    ``<html>``, else its ETag; ``action=parse``: ``revid``), ``revision_timestamp`` (REST:
    ``dc:modified``, ISO 8601 UTC; ``""`` from ``action=parse``), ``url`` the URL asked for and
    ``retrieved`` when (the answer's ``Date``, kept in the cache with it: a page served from
    the cache says when it was fetched, not when it was read again).
    """

    lang: str
    title: str
    status: Status
    html: str = ""
    final_title: str = ""
    page_id: int | None = None
    from_cache: bool = False
    detail: str = ""
    revision_id: int | None = None
    revision_timestamp: str = ""
    url: str = ""
    retrieved: str = ""


#: ``action=parse`` error codes that mean there is no such page.
_MISSING_CODES = frozenset({"missingtitle", "nosuchpageid", "nosuchrevid"})
#: ``action=parse`` error codes worth another try (served with HTTP 200).
_RETRY_CODES = frozenset({"maxlag", "ratelimited", "readonly", "internal_api_error"})

_VERSION_OF_RE = re.compile(r"<link\b[^>]*\brel=\"dc:isVersionOf\"[^>]*>")
_PAGE_ID_RE = re.compile(r"<meta\b[^>]*\bproperty=\"mw:pageId\"[^>]*>")
_HREF_RE = re.compile(r"\bhref=\"([^\"]*)\"")
_CONTENT_RE = re.compile(r"\bcontent=\"(\d+)\"")
_ABOUT_REVISION_RE = re.compile(r"<html\b[^>]*\babout=\"[^\"]*/revision/(\d+)\"")
_MODIFIED_RE = re.compile(r"<meta\b[^>]*\bproperty=\"dc:modified\"[^>]*>")
_ANY_CONTENT_RE = re.compile(r"\bcontent=\"([^\"]*)\"")
#: A Parsoid answer's ETag: ``W/"REVID/RENDER-ID"`` (or without ``W/``).
_ETAG_RE = re.compile(r'^(?:W/)?"(\d+)/')


class _Answer(NamedTuple):
    """What :func:`_classify` reads from a 200/404 answer."""

    status: Status
    html: str = ""
    final_title: str = ""
    page_id: int | None = None
    detail: str = ""
    revision_id: int | None = None
    revision_timestamp: str = ""


class _Retry(Exception):
    """A transient answer: try again after ``wait`` seconds (``None``: exponential backoff)."""

    def __init__(self, detail: str, wait: float | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.wait = wait


def _head(html: str) -> str:
    end = html.find("<body")
    return html if end < 0 else html[:end]


def _title_from_wiki_href(href: str) -> str:
    _, sep, rest = href.partition("/wiki/")
    if not sep:
        return ""
    return unquote(rest.split("?", 1)[0].split("#", 1)[0]).replace("_", " ")


def _rest_metadata(html: str, final_url: str) -> tuple[str, int | None]:
    """(title after redirects, page id) from a Parsoid document's head, else from the URL."""
    head = _head(html)
    title = ""
    link = _VERSION_OF_RE.search(head)
    if link:
        href = _HREF_RE.search(link.group())
        if href:
            title = _title_from_wiki_href(href.group(1))
    if not title:
        path = urlsplit(final_url).path
        _, sep, rest = path.partition("/page/html/")
        if sep:
            title = unquote(rest.split("/", 1)[0] if "/" in rest else rest).replace("_", " ")
    page_id = None
    meta = _PAGE_ID_RE.search(head)
    if meta:
        content = _CONTENT_RE.search(meta.group())
        if content:
            page_id = int(content.group(1))
    return title, page_id


def _rest_revision(html: str, etag: str) -> tuple[int | None, str]:
    """(revision id, timestamp) of a Parsoid document: ``<html about=".../revision/N">``
    (else the ETag's ``N/``) and ``<meta property="dc:modified">``."""
    head = _head(html)
    match = _ABOUT_REVISION_RE.search(head) or _ETAG_RE.match(etag.strip())
    revision = int(match.group(1)) if match else None
    modified = _MODIFIED_RE.search(head)
    content = _ANY_CONTENT_RE.search(modified.group()) if modified else None
    return revision, utc_timestamp(content.group(1) if content else "")


def _retrieved(response: requests.Response) -> str:
    """When ``response`` was fetched, ISO 8601 UTC: its ``Date`` header (stored in the cache
    with it), else when the cache stored it, else now."""
    when: datetime | None = None
    try:
        when = parsedate_to_datetime(response.headers.get("Date", ""))
    except (TypeError, ValueError, IndexError):
        when = None
    if when is None or when.tzinfo is None:
        created = getattr(response, "created_at", None)
        when = created if isinstance(created, datetime) else datetime.now(timezone.utc)
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _json_error(response: requests.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    if isinstance(body, dict):
        for key in ("detail", "title", "message"):
            if isinstance(body.get(key), str):
                return body[key]
    return ""


def _classify(api: str, response: requests.Response) -> _Answer:
    """(status, html, final title, page id, detail, revision id, revision timestamp) of a
    200/404 answer; ``_Retry`` if busy."""
    code = response.status_code
    if code == 404:
        why = _json_error(response) or response.reason or "Not Found"
        return _Answer("missing", detail=f"HTTP 404: {why}")
    ctype = response.headers.get("Content-Type", "").lower()
    if "charset" not in ctype:
        response.encoding = "utf-8"  # every Wikipedia page is UTF-8, whatever the header says
    if api == "rest":
        html = response.text
        if "json" in ctype:
            return _Answer("bad_shape", detail=f"not HTML: the server sent {ctype}")
        problem = shape_problem(html)
        if problem is not None:
            return _Answer("bad_shape", detail=problem)
        title, page_id = _rest_metadata(html, response.url)
        revision, timestamp = _rest_revision(html, response.headers.get("ETag", ""))
        return _Answer("ok", html, title, page_id, "", revision, timestamp)
    try:
        data: Any = response.json()
    except ValueError:
        head = response.text.lstrip()[:60]
        return _Answer("bad_shape", detail=f"action=parse answer is not JSON: {head!r}")
    if not isinstance(data, dict):
        return _Answer("bad_shape", detail="action=parse answer is not a JSON object")
    error = data.get("error")
    if isinstance(error, dict):
        err_code = str(error.get("code", ""))
        info = str(error.get("info", ""))
        if err_code in _MISSING_CODES:
            return _Answer("missing", detail=f"{err_code}: {info}")
        if err_code in _RETRY_CODES or err_code.startswith("internal_api_error"):
            raise _Retry(
                f"API error {err_code}", retry_after_seconds(response.headers.get("Retry-After"))
            )
        return _Answer("error", detail=f"API error {err_code}: {info}")
    parse = data.get("parse")
    text = parse.get("text") if isinstance(parse, dict) else None
    if isinstance(text, dict):  # formatversion=1: {"*": html}
        text = text.get("*")
    if not isinstance(text, str):
        return _Answer("bad_shape", detail="action=parse answer has no parse.text")
    assert isinstance(parse, dict)
    problem = shape_problem(text)
    if problem is not None:
        return _Answer("bad_shape", detail=problem)
    page_id = parse.get("pageid")
    revid = parse.get("revid")
    return _Answer(
        "ok",
        text,
        str(parse.get("title") or ""),
        page_id if isinstance(page_id, int) else None,
        "",
        revid if isinstance(revid, int) and not isinstance(revid, bool) and revid > 0 else None,
    )


def _category_page(response: requests.Response) -> tuple[list[str], str]:
    """(titles, cmcontinue) of a ``list=categorymembers`` answer; ``_Retry`` if busy."""
    if response.status_code == 404:  # no API there (a wrong base URL): not an empty category
        raise CategoryError(f"HTTP 404 from {response.url}")
    try:
        data: Any = response.json()
    except ValueError:
        raise CategoryError(
            f"the category listing is not JSON: {response.text.lstrip()[:60]!r}"
        ) from None
    if not isinstance(data, dict):
        raise CategoryError("the category listing is not a JSON object")
    error = data.get("error")
    if isinstance(error, dict):
        code = str(error.get("code", ""))
        if code in _RETRY_CODES or code.startswith("internal_api_error"):
            raise _Retry(
                f"API error {code}", retry_after_seconds(response.headers.get("Retry-After"))
            )
        raise CategoryError(f"API error {code}: {error.get('info', '')}")
    query = data.get("query", {})
    members = query.get("categorymembers", []) if isinstance(query, dict) else None
    if not isinstance(members, list):
        raise CategoryError("the category listing has no query.categorymembers list")
    titles = [
        m["title"] for m in members if isinstance(m, dict) and isinstance(m.get("title"), str)
    ]
    more = data.get("continue")
    return titles, str(more.get("cmcontinue", "")) if isinstance(more, dict) else ""
