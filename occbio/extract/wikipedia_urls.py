"""The URLs of a Wikipedia's pages and API calls, built from a site's base URL.

:func:`default_base_url` gives a language's site; :func:`rest_url` (Parsoid HTML),
:func:`parse_url` (``action=parse``) and :func:`category_members_url`
(``list=categorymembers``) the requests :class:`~occbio.extract.wikipedia_web.WikipediaWebClient`
sends to it. They are pure string work, kept apart from the fetching so that the URLs can be
built and checked without a client or a network.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

from occbio.extract.mediawiki import category_name

__all__ = [
    "category_members_url",
    "default_base_url",
    "parse_url",
    "rest_url",
]

_LANG_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def default_base_url(lang: str) -> str:
    """``https://{lang}.wikipedia.org``; ``ValueError`` for a code that cannot be a subdomain."""
    if not _LANG_RE.fullmatch(lang):
        raise ValueError(f"not a Wikipedia language code: {lang!r}")
    return f"https://{lang}.wikipedia.org"


def _path_title(title: str) -> str:
    """A title as one URL path segment: underscores for spaces, everything else escaped."""
    return quote(title.strip().replace(" ", "_"), safe="")


def rest_url(base: str, title: str, revision: int | None = None) -> str:
    """The REST (Parsoid) HTML of ``title``, following redirects to the canonical page; with
    ``revision``, that revision of it (``/page/html/TITLE/REVID``: a revision is of one page,
    never a redirect)."""
    path = f"{base.rstrip('/')}/api/rest_v1/page/html/{_path_title(title)}"
    if revision is not None:
        return f"{path}/{int(revision)}"
    return f"{path}?redirect=true"


def parse_url(base: str, title: str, revision: int | None = None) -> str:
    """``action=parse`` for ``title``: its HTML as JSON with the revision id, redirects
    resolved, no edit links/TOC; with ``revision``, that revision (``oldid``) instead."""
    exact = revision is not None
    params = {
        "action": "parse",
        **({"oldid": str(int(revision))} if exact else {"page": title.strip()}),
        "prop": "text|revid",
        **({} if exact else {"redirects": "1"}),
        "format": "json",
        "formatversion": "2",
        "disableeditsection": "1",
        "disabletoc": "1",
    }
    return f"{base.rstrip('/')}/w/api.php?{urlencode(params, quote_via=quote)}"


def category_members_url(base: str, category: str, cont: str = "") -> str:
    """``list=categorymembers``: up to 500 articles (namespace 0) of ``category`` (with or
    without its namespace, in any language) per answer, ``cont`` the ``cmcontinue`` of the
    answer before."""
    params = {
        "action": "query",
        "list": "categorymembers",
        # the canonical namespace name: every wiki accepts it besides its own
        "cmtitle": f"Category:{category_name(category)}",
        "cmnamespace": "0",
        "cmtype": "page",
        "cmlimit": "max",
        "format": "json",
        "formatversion": "2",
    }
    if cont:
        params |= {"cmcontinue": cont, "continue": "-||"}
    return f"{base.rstrip('/')}/w/api.php?{urlencode(params, quote_via=quote)}"
