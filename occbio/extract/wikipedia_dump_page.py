"""One ``<page>`` element of a MediaWiki XML dump -> :class:`Page`, or a counted skip.

:class:`PageParser` holds the skip rules and counters of
:func:`~occbio.extract.wikipedia_dump.iter_pages` for one page at a time: a page that is not
well-formed XML, too large or without a usable id is skipped and reported (:class:`SkipLog`
logs the first few of a dump); pages of other namespaces, redirects and pages not asked for are
skipped and counted. Both readers feed it: the full scan of
:mod:`occbio.extract.wikipedia_dump`, which splits pages out of the whole dump, and
:mod:`occbio.extract.multistream`, which reads single bz2 streams. Kept apart from the full scan
so that both read a page by the same rules; :mod:`occbio.extract.wikipedia_dump` re-exports the
public names.
"""

from __future__ import annotations

import collections
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from occbio.extract.mediawiki import normalise_title, utc_timestamp

__all__ = ["MAX_PAGE_BYTES", "Page", "PageParser", "SkipLog", "SkipReport"]

# Logged as the dump reader it serves, as before the split: the logger users filter on stays.
logger = logging.getLogger("occbio.extract.wikipedia_dump")

#: A page is skipped (and counted) when its XML passes this size without a closing tag.
#: Wikipedia caps an article at 2 MiB of wikitext; only a broken dump or a page with its whole
#: history comes near.
MAX_PAGE_BYTES = 64 << 20

_TITLE_RE = re.compile(rb"<title>([^<]{0,300})</title>")
_PAGE_ID_RE = re.compile(rb"</title>\s*(?:<ns>[^<]*</ns>\s*)?<id>\s*(\d+)\s*</id>")
#: Skipped pages are logged one by one up to this many per dump, then only counted.
_LOGGED_SKIPS = 20


@dataclass(frozen=True, slots=True)
class Page:
    """One article as the dump holds it: title, page id, namespace and raw wikitext, and the
    revision the wikitext is (its ``<revision><id>`` and ``<timestamp>``, ISO 8601 UTC; the
    latest where a history dump has several; 0 and ``""`` where the dump does not say)."""

    title: str
    page_id: int
    ns: int
    wikitext: str
    revision_id: int = 0
    revision_timestamp: str = ""


class SkipLog:
    """Logs one dump's skipped pages: the first :data:`_LOGGED_SKIPS` one by one, then a line
    saying that the rest are only counted."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.logged = 0

    def __call__(self, title: str | None, where: str, detail: str) -> None:
        self.logged += 1
        if self.logged > _LOGGED_SKIPS:
            return
        shown = repr(title) if title is not None else "(no title)"
        logger.warning("%s: page %s at %s skipped: %s", self.name, shown, where, detail)
        if self.logged == _LOGGED_SKIPS:
            logger.warning("%s: further skipped pages are only counted", self.name)


#: ``report(title, offset, detail)``: a page skipped as unusable (not well-formed, too large,
#: no id), ``offset`` being where its XML starts in what the parser was fed.
SkipReport = Callable[[str | None, int, str], None]


class PageParser:
    """Turns one ``<page>`` element's bytes into a :class:`Page`, or counts why not.

    The skip rules and counters of :func:`iter_pages`, for one page at a time: the full scan
    feeds it the pages it splits out of the dump, :mod:`occbio.extract.multistream` the pages
    of one bz2 stream. ``namespaces`` (prefix -> key, from ``<siteinfo>``) gives the namespace
    of a page without ``<ns>`` (old schemas). ``page_ids``, when a list, receives the id of
    every page parsed (``None`` where none can be read), kept or not.
    """

    def __init__(
        self,
        path: Path,
        wanted: frozenset[str] | None,
        stats: collections.Counter[str],
        max_page_bytes: int = MAX_PAGE_BYTES,
        *,
        namespaces: dict[str, int] | None = None,
        report: SkipReport | None = None,
    ) -> None:
        self.path = path
        self.wanted = wanted
        self.stats = stats
        self.max_page_bytes = max_page_bytes
        self.namespaces: dict[str, int] = namespaces if namespaces is not None else {}
        self.pages_read = 0  # this parser's own count, whatever ``stats`` held before
        self.last_title: str | None = None
        self.page_ids: list[int | None] | None = None
        self._parser = etree.XMLParser(**_PARSER_OPTIONS)
        if report is None:
            log = SkipLog(path.name)

            def report(title: str | None, offset: int, detail: str) -> None:
                log(title, f"byte {offset:,} of the decompressed XML", detail)

        self._report = report

    def parse(self, xml: bytes, offset: int, *, oversized: bytes | None = None) -> Page | None:
        """The page in ``xml`` (which starts at ``offset``), or ``None`` when it is skipped.

        ``oversized`` is the start of a page whose XML was dropped for passing
        ``max_page_bytes`` (``xml`` is then only its end).
        """
        self.pages_read += 1
        self.stats["pages_read"] += 1
        if oversized is not None or len(xml) > self.max_page_bytes:
            head = oversized or xml[:4096]
            self._note_unreadable(head)
            self._skip("too_large", offset, f"its XML passes {self.max_page_bytes:,} bytes")
            return None
        try:
            elem = etree.fromstring(xml, self._parser)
        except (etree.LxmlError, ValueError) as exc:
            self._note_unreadable(xml)
            self._skip("bad_xml", offset, f"it is not well-formed XML: {_xml_message(exc)}")
            return None
        return self._page(elem, offset)

    def _note_unreadable(self, xml: bytes) -> None:
        self.last_title = _title_in(xml)
        if self.page_ids is not None:
            match = _PAGE_ID_RE.search(xml)
            self.page_ids.append(int(match.group(1)) if match else None)

    def _skip(self, reason: str, offset: int, detail: str) -> None:
        self.stats[f"pages_skipped_{reason}"] += 1
        self._report(self.last_title, offset, detail)

    def _namespace_from_title(self, title: str) -> int:
        prefix, sep, _ = title.partition(":")
        return self.namespaces.get(prefix, 0) if sep else 0

    def _page(self, elem: etree._Element, offset: int) -> Page | None:
        title = ""
        ns_text: str | None = None
        id_text: str | None = None
        redirect = False
        text = ""
        revision: etree._Element | None = None
        for child in elem:
            name = _localname(child.tag)
            if name == "title":
                title = child.text or ""
            elif name == "ns":
                ns_text = child.text
            elif name == "id":
                id_text = child.text
            elif name == "redirect":
                redirect = True
            elif name == "revision":  # the latest revision wins (a history dump has several)
                text = _child_text(child, "text") or ""
                revision = child
        self.last_title = title
        page_id = _int_or_none(id_text)
        if self.page_ids is not None:
            self.page_ids.append(page_id)
        ns = _int_or_none(ns_text) if ns_text is not None else self._namespace_from_title(title)
        if page_id is None or ns is None:
            self._skip("malformed", offset, "it has no usable <ns>/<id>")
            return None
        if ns != 0:
            self.stats["pages_skipped_namespace"] += 1
            return None
        if redirect or _is_redirect_text(text):
            self.stats["pages_skipped_redirect"] += 1
            return None
        if self.wanted is not None and normalise_title(title) not in self.wanted:
            self.stats["pages_skipped_not_requested"] += 1
            return None
        self.stats["pages_kept"] += 1
        rev_id = _int_or_none(_child_text(revision, "id")) if revision is not None else None
        return Page(
            title=title,
            page_id=page_id,
            ns=ns,
            wikitext=text,
            revision_id=rev_id if rev_id is not None and rev_id > 0 else 0,
            revision_timestamp=utc_timestamp(
                _child_text(revision, "timestamp") if revision is not None else None
            ),
        )


_PARSER_OPTIONS = {
    "resolve_entities": False,
    "no_network": True,
    "remove_comments": True,
    "remove_pis": True,
}


def _localname(tag: object) -> str:
    """The tag without its export-schema namespace (schema versions differ; some have none)."""
    if not isinstance(tag, str):  # comments and processing instructions
        return ""
    return tag.rpartition("}")[2]


def _is_redirect_text(text: str) -> bool:
    return text.lstrip()[:9].upper() == "#REDIRECT"


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text or "")
    except ValueError:
        return None


def _title_in(xml: bytes) -> str | None:
    """A broken page's title, for the log, if one can be read from its bytes."""
    match = _TITLE_RE.search(xml)
    return match.group(1).decode("utf-8", "replace") if match else None


def _child_text(elem: etree._Element, name: str) -> str | None:
    for child in elem:
        if _localname(child.tag) == name:
            return child.text or ""
    return None


def _xml_message(exc: Exception) -> str:
    """lxml's own words, without the ``(<string>, line N)`` suffix that names no file."""
    return " ".join(str(getattr(exc, "msg", None) or exc).split())
