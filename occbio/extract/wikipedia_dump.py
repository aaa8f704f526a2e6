"""Stream MediaWiki ``pages-articles`` XML dumps, one page at a time.

:func:`iter_pages` streams a dump (.bz2/.xz/.gz/plain, recognised by its magic bytes; any
encoding the XML declares, UTF-16 included) with :class:`lxml.etree.XMLPullParser`, clearing
each page once read so memory stays flat on a full-size dump. It yields the main-namespace,
non-redirect pages and counts every page it passes over, by reason. A dump that breaks off (a
download cut short) yields every complete page first and then raises
:class:`TruncatedDumpError`; the caller decides whether that is fatal. Turning a page's
wikitext into prose is :mod:`occbio.extract.wikitext`'s job.

lxml rather than ``mwxml``: mwxml refuses a dump without ``<siteinfo>`` (the
``enwiki-table-markup`` excerpt) and gives no way to keep the pages read before a truncation.
"""

from __future__ import annotations

import collections
import logging
import lzma
import os
import zlib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

from lxml import etree

from occbio.extract.compressed import CompressionError, open_compressed
from occbio.extract.mediawiki import normalise_title

__all__ = ["DumpError", "Page", "TruncatedDumpError", "iter_pages"]

logger = logging.getLogger(__name__)

#: Bytes read from the (decompressed) dump per parser feed.
_CHUNK_BYTES = 1 << 20


# ---------------------------------------------------------------------------------------------
# Pages and errors


@dataclass(frozen=True, slots=True)
class Page:
    """One article as the dump holds it: title, page id, namespace and raw wikitext."""

    title: str
    page_id: int
    ns: int
    wikitext: str


class DumpError(Exception):
    """The file cannot be read as a MediaWiki XML dump; the message names the file and why."""


class TruncatedDumpError(DumpError):
    """The dump breaks off before its end; every complete page before the break was yielded.

    ``pages_read`` counts the complete pages read (kept or skipped), ``last_title`` is the
    title of the last of them (``None`` when there was none).
    """

    def __init__(self, path: Path, pages_read: int, last_title: str | None, reason: str) -> None:
        self.path = path
        self.pages_read = pages_read
        self.last_title = last_title
        self.reason = reason
        last = repr(last_title) if last_title is not None else "none"
        super().__init__(
            f"dump {path.name} is truncated: it ended after {pages_read} complete pages "
            f"(last: {last}); the pages read before the break are kept ({reason})"
        )


# ---------------------------------------------------------------------------------------------
# Reading the dump


def _open_dump(path: Path) -> tuple[IO[bytes], str]:
    """Open ``path`` for reading decompressed bytes, choosing the codec by magic bytes."""
    try:
        return open_compressed(path)
    except OSError as exc:
        raise DumpError(f"cannot read dump {path}: {exc.strerror or exc}") from exc
    except CompressionError as exc:
        problem = str(exc)  # raised below, outside the handler: no chained traceback
    raise DumpError(
        f"{path} {problem}; it is not a MediaWiki XML dump as occbio reads them "
        "(.bz2, .xz, .gz or plain XML)"
    )


def _localname(tag: object) -> str:
    """The tag without its export-schema namespace (schema versions differ; some have none)."""
    if not isinstance(tag, str):  # comments and processing instructions
        return ""
    return tag.rpartition("}")[2]


def _is_redirect_text(text: str) -> bool:
    return text.lstrip()[:9].upper() == "#REDIRECT"


class _PageReader:
    """Turns parser events into pages; owns the counters and the dump's namespace table."""

    def __init__(
        self,
        path: Path,
        wanted: frozenset[str] | None,
        stats: collections.Counter[str],
    ) -> None:
        self.path = path
        self.wanted = wanted
        self.stats = stats
        self.root: etree._Element | None = None
        self.namespaces: dict[str, int] = {}  # prefix -> key, from <siteinfo>, for old schemas
        self.pages_read = 0  # this dump's own count, whatever ``stats`` held before
        self.last_title: str | None = None
        self._revision_text: str | None = None

    def events(self, parser: etree.XMLPullParser) -> Iterator[Page]:
        """Pages completed by the events parsed so far."""
        for event, elem in parser.read_events():
            if self.root is None:
                self._check_root(elem)
                continue
            if event != "end":
                continue
            name = _localname(elem.tag)
            if name == "revision":
                # Keep only the text of the latest revision so a history dump stays flat too.
                self._revision_text = _child_text(elem, "text")
                elem.clear()
            elif name == "page":
                page = self._finish_page(elem)
                _release(elem)
                if page is not None:
                    yield page
            elif name == "siteinfo":
                self._read_siteinfo(elem)
                _release(elem)

    def _check_root(self, elem: etree._Element) -> None:
        name = _localname(elem.tag)
        if name != "mediawiki":
            hint = " (an HTML page?)" if name.lower() == "html" else ""
            raise DumpError(
                f"{self.path} is not a MediaWiki XML dump: its root element is <{name}>{hint}, "
                "expected <mediawiki>"
            )
        self.root = elem

    def _read_siteinfo(self, elem: etree._Element) -> None:
        for child in elem.iter():
            if _localname(child.tag) == "namespace" and child.text:
                try:
                    self.namespaces[child.text.strip()] = int(child.get("key", ""))
                except ValueError:
                    continue

    def _namespace_from_title(self, title: str) -> int:
        prefix, sep, _ = title.partition(":")
        return self.namespaces.get(prefix, 0) if sep else 0

    def _finish_page(self, elem: etree._Element) -> Page | None:
        title = ""
        ns_text: str | None = None
        id_text: str | None = None
        redirect = False
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
        text = self._revision_text or ""
        self._revision_text = None
        self.pages_read += 1
        self.stats["pages_read"] += 1
        self.last_title = title
        try:
            ns = int(ns_text) if ns_text is not None else self._namespace_from_title(title)
            page_id = int(id_text or "")
        except ValueError:
            logger.warning("%s: page %r has no usable <ns>/<id>; skipped", self.path.name, title)
            self.stats["pages_skipped_malformed"] += 1
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
        return Page(title=title, page_id=page_id, ns=ns, wikitext=text)


def _child_text(elem: etree._Element, name: str) -> str | None:
    for child in elem:
        if _localname(child.tag) == name:
            return child.text or ""
    return None


def _release(elem: etree._Element) -> None:
    """Free a finished element and the finished siblings before it (flat memory)."""
    elem.clear()
    parent = elem.getparent()
    if parent is not None:
        while elem.getprevious() is not None:
            del parent[0]


def iter_pages(
    path: Path | str | os.PathLike[str],
    *,
    titles: Collection[str] | None = None,
    stats: collections.Counter[str] | None = None,
) -> Iterator[Page]:
    """Yield the main-namespace, non-redirect pages of a dump, in dump order.

    ``titles`` restricts the output to those pages (titles compared after
    :func:`normalise_title`). ``stats`` receives ``pages_read``, ``pages_skipped_namespace``,
    ``pages_skipped_redirect``, ``pages_skipped_not_requested``, ``pages_kept`` (and
    ``pages_skipped_malformed`` for a page without a usable id). A page is counted under the
    first reason that applies, in that order.

    Raises :class:`DumpError` for a file that is not a dump (nothing yielded) or that turns
    unreadable midway, and :class:`TruncatedDumpError` after the last complete page of a dump
    that breaks off.
    """
    path = Path(path)
    wanted = frozenset(normalise_title(t) for t in titles) if titles is not None else None
    reader = _PageReader(path, wanted, stats if stats is not None else collections.Counter())
    stream, codec = _open_dump(path)
    parser = etree.XMLPullParser(
        events=("start", "end"),
        resolve_entities=False,
        no_network=True,
        remove_comments=True,
        remove_pis=True,
    )
    with stream:
        problem: tuple[str, str] | None = None  # (what went wrong, detail), raised at the end
        while problem is None:
            try:
                # read1: what one decompression step gives, so a stream that breaks off loses
                # no complete page it already decompressed.
                chunk = stream.read1(_CHUNK_BYTES)
            except EOFError:
                problem = ("stream ended", f"the {codec} stream ends early")
                break
            except (OSError, lzma.LZMAError, zlib.error) as exc:
                problem = ("corrupt", f"its {codec} data cannot be decompressed ({exc})")
                break
            if not chunk:
                break
            try:
                parser.feed(chunk)
            except (etree.LxmlError, ValueError) as exc:
                problem = ("malformed", _xml_message(exc))
            yield from reader.events(parser)
        if problem is None:
            try:
                parser.close()
            except (etree.LxmlError, ValueError) as exc:
                problem = ("xml ended", _xml_message(exc))
            yield from reader.events(parser)
    # Raised here, outside the handlers: the caller sees our message, not lxml's traceback.
    if problem is not None:
        _raise_problem(reader, *problem)
    if reader.root is None:
        raise DumpError(f"{path} is not a MediaWiki XML dump: it holds no XML element")


def _xml_message(exc: Exception) -> str:
    """lxml's own words, without the ``(<string>, line N)`` suffix that names no file."""
    return str(getattr(exc, "msg", None) or exc)


def _raise_problem(reader: _PageReader, what: str, detail: str) -> NoReturn:
    path = reader.path
    if reader.root is None:  # nothing dump-like was read: the file was never a dump
        why = f"it is not XML ({detail})" if what in ("malformed", "xml ended") else detail
        raise DumpError(f"{path} is not a MediaWiki XML dump: {why}")
    where = f"after {reader.pages_read} complete pages (last: {reader.last_title!r})"
    if what == "stream ended":
        raise TruncatedDumpError(path, reader.pages_read, reader.last_title, detail)
    if what == "xml ended":
        reason = f"the XML stops before its closing tags: {detail}"
        raise TruncatedDumpError(path, reader.pages_read, reader.last_title, reason)
    raise DumpError(f"dump {path.name} is {what} {where}: {detail}")
