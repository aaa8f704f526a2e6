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

This module holds the reading of the dump as a whole: opening and decoding it, splitting it into
pages, reading what lies between them (the root element, ``<siteinfo>``) and telling a file
that is not a dump from one that breaks off. How one page is read (:class:`Page`,
:class:`PageParser` and its skip rules, :class:`SkipLog`) lives in
:mod:`occbio.extract.wikipedia_dump_page`, shared with :mod:`occbio.extract.multistream`; its
public names are re-exported here, so ``occbio.extract.wikipedia_dump`` stays the one place to
import the dump reader from.
"""

from __future__ import annotations

import codecs
import collections
import lzma
import os
import re
import zlib
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import IO, NoReturn

from lxml import etree

from occbio.extract.compressed import CompressionError, open_compressed
from occbio.extract.mediawiki import normalise_title
from occbio.extract.wikipedia_dump_page import (
    _PARSER_OPTIONS,
    MAX_PAGE_BYTES,
    Page,
    PageParser,
    SkipLog,
    _localname,
    _xml_message,
)

__all__ = ["DumpError", "Page", "PageParser", "SkipLog", "TruncatedDumpError", "iter_pages"]

#: Bytes read from the (decompressed) dump per parser feed.
_CHUNK_BYTES = 1 << 20


# ---------------------------------------------------------------------------------------------
# Errors


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
#
# The dump is split into pages at the byte level (``<page>`` ... ``</page>``: inside text, ``<``
# is always escaped, so the markers cannot occur there; comments, CDATA sections and processing
# instructions, where they can, are stepped over as XML reads them) and each page is parsed on
# its own. A page that is not well-formed XML (an illegal character, a NUL, invalid UTF-8, an
# undefined entity, nesting past libxml2's 256 levels, a text node past its 10 MB, a comment
# that never ends) is skipped and counted, and the next page reads as if nothing happened: one
# streaming parser would stop at the first such byte. What lies between the pages (the root
# element, <siteinfo>) goes through a pull parser of its own, so a file that is not a dump, or
# one cut short, is still told apart.

_PAGE_OPEN_RE = re.compile(rb"<page[\s>]")
_PAGE_CLOSE_RE = re.compile(rb"</page>")
#: Where a literal ``<page>`` or ``</page>`` is text, not a tag: comment, CDATA, instruction.
_OPAQUE_RE = re.compile(rb"<(?:!--|!\[CDATA\[|\?)")
_OPAQUE_END = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}
#: Bytes left unscanned at the end of the buffer: a tag or an opener may be cut there.
_MARGIN = len(b"<![CDATA[") - 1
_DECLARED_ENCODING_RE = re.compile(
    rb"""^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']"""
)
_DECLARATION_ENCODING_RE = re.compile(r"""^\ufeff?(\s*<\?xml[^>]*?encoding\s*=\s*["'])[^"']*""")


class _Problem(Exception):
    """What stops the reading; turned into a :class:`DumpError` outside every handler."""

    def __init__(self, what: str, detail: str) -> None:
        super().__init__(detail)
        self.what = what
        self.detail = detail


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


def _raw_chunks(stream: IO[bytes], codec: str) -> Iterator[bytes]:
    while True:
        try:
            # read1: what one decompression step gives, so a stream that breaks off loses no
            # complete page it already decompressed.
            chunk = stream.read1(_CHUNK_BYTES)  # type: ignore[attr-defined]
        except EOFError:
            raise _Problem("stream ended", f"the {codec} stream ends early") from None
        except (OSError, lzma.LZMAError, zlib.error) as exc:
            detail = f"its {codec} data cannot be decompressed ({exc})"
            raise _Problem("corrupt", detail) from None
        if not chunk:
            return
        yield chunk


def _source_encoding(head: bytes) -> str | None:
    """The encoding to convert from, or ``None`` for UTF-8 (byte order mark, then declaration)."""
    for bom, name in (
        (b"\xff\xfe\x00\x00", "utf-32"),
        (b"\x00\x00\xfe\xff", "utf-32"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
        (b"<\x00?\x00", "utf-16-le"),
        (b"\x00<\x00?", "utf-16-be"),
    ):
        if head.startswith(bom):
            return name
    match = _DECLARED_ENCODING_RE.match(head)
    if match is None:
        return None
    name = match.group(1).decode("ascii")
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise _Problem("malformed", f"it declares an unknown encoding {name!r}") from None
    return None if codec == "utf-8" else codec


def _utf8_chunks(stream: IO[bytes], codec: str) -> Iterator[bytes]:
    """The decompressed dump as UTF-8 whatever encoding it declares (pages are split as bytes)."""
    raw = _raw_chunks(stream, codec)
    head = b""
    for chunk in raw:  # enough bytes to see a byte order mark and the XML declaration
        head += chunk
        if len(head) >= 512:
            break
    encoding = _source_encoding(head)
    if encoding is None:
        if head:
            yield head
        yield from raw
        return
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        text = decoder.decode(head)
        # The declaration now lies about the bytes that follow it: make it say UTF-8.
        yield _DECLARATION_ENCODING_RE.sub(r"\g<1>UTF-8", text, count=1).lstrip("\ufeff").encode()
        for chunk in raw:
            yield decoder.decode(chunk).encode()
        yield decoder.decode(b"", True).encode()
    except UnicodeDecodeError as exc:
        raise _Problem("malformed", f"its text is not valid {encoding} ({exc.reason})") from None


class _PageReader:
    """Splits the UTF-8 stream into pages for its :class:`PageParser`; what lies between them
    goes to a pull parser of its own, which checks the root and reads the namespace table.

    ``fragment``: the stream is a run of pages cut out of a dump (a bz2 stream of a
    multistream dump) with no root element of its own; the root is taken as read.
    """

    def __init__(self, path: Path, parser: PageParser, *, fragment: bool = False) -> None:
        self.path = path
        self.parser = parser
        self.root: etree._Element | None = None
        self._skeleton = etree.XMLPullParser(events=("start", "end"), **_PARSER_OPTIONS)
        self._buf = bytearray()
        self._offset = 0  # position of _buf[0] in the decompressed stream
        self._in_page = False
        self._scan = 0  # _buf before this is scanned: the search goes on from here
        self._opaque_end: bytes | None = None  # inside a comment (etc.) until this
        self._opaque_start = 0  # where that comment starts in _buf
        self._plain = False  # a comment never ended: tags are found without it
        self._oversized: bytes | None = None  # the start of a page too large to keep
        if fragment:
            self._skeleton.feed(b"<mediawiki>")
            self._skeleton_events()

    @property
    def namespaces(self) -> dict[str, int]:
        return self.parser.namespaces

    @property
    def pages_read(self) -> int:
        return self.parser.pages_read

    @property
    def last_title(self) -> str | None:
        return self.parser.last_title

    def feed(self, data: bytes) -> Iterator[Page]:
        """Pages completed by ``data``; what lies between pages goes to the skeleton parser."""
        self._buf += data
        return self._pages()

    def _pages(self) -> Iterator[Page]:
        buf = self._buf
        while True:
            if not self._in_page:
                opened = self._find(_PAGE_OPEN_RE)
                if opened is None:
                    if self._opaque_end is None:
                        self._consume_skeleton(self._scan)
                        return
                    # a comment between pages is held until it ends, within a page's size
                    self._consume_skeleton(self._opaque_start)
                    if len(buf) <= self.parser.max_page_bytes:
                        return
                    self._read_plain()
                    continue
                self._consume_skeleton(opened.start())
                if self.root is None:
                    raise _Problem("malformed", "a <page> comes before the <mediawiki> element")
                self._in_page, self._scan = True, 0
            closed = self._find(_PAGE_CLOSE_RE)
            if closed is None:
                if len(buf) > self.parser.max_page_bytes:
                    if self._opaque_end is not None and not self._plain:
                        self._read_plain()
                        continue
                    self._drop_oversized()
                return
            end = closed.end()
            oversized, self._oversized = self._oversized, None
            page = self.parser.parse(bytes(buf[:end]), self._offset, oversized=oversized)
            self._offset += end
            del buf[:end]
            self._in_page, self._scan, self._plain = False, 0, False
            if page is not None:
                yield page

    def _read_plain(self) -> None:
        """A comment, CDATA section or instruction never ends (within ``max_page_bytes``, or
        before the dump does): in a page, the page is broken: it ends at its first ``</page>``
        and is skipped as bad XML; between pages, the next ``<page>`` starts a page (the
        skeleton's XML stays broken, reported at the end). The pages after are read as before."""
        self._plain, self._opaque_end = True, None
        self._scan = 0 if self._in_page else self._opaque_start

    def _find(self, tag: re.Pattern[bytes]) -> re.Match[bytes] | None:
        """The next ``tag`` in the buffer that is markup, from ``_scan`` on: one inside a
        comment, CDATA section or processing instruction is text. ``None`` when the buffer
        ends first; ``_scan`` then says where the search goes on once more bytes come."""
        buf = self._buf
        pos = self._scan
        while True:
            if self._opaque_end is not None:
                end = buf.find(self._opaque_end, pos)
                if end < 0:
                    self._scan = max(pos, len(buf) - len(self._opaque_end) + 1)
                    return None
                pos, self._opaque_end = end + len(self._opaque_end), None
            found = tag.search(buf, pos)
            # an opener before the tag cannot overlap it: its only "<" is its first byte
            limit = found.start() if found else len(buf)
            opener = None if self._plain else _OPAQUE_RE.search(buf, pos, limit)
            if opener is None:
                self._scan = found.end() if found else max(pos, len(buf) - _MARGIN)
                return found
            self._opaque_end = _OPAQUE_END[opener.group()]
            self._opaque_start, pos = opener.start(), opener.end()

    def finish(self) -> None:
        """The end of the stream, after :meth:`finish_fragment`: the skeleton must close."""
        try:
            self._skeleton.close()
        except (etree.LxmlError, ValueError) as exc:
            raise _Problem("xml ended", _xml_message(exc)) from None
        self._skeleton_events()

    def finish_fragment(self) -> list[Page]:
        """The end of a run of pages: no page may be left open (the root stays open).
        Returns the pages held back by a comment that never ended (see :meth:`_read_plain`)."""
        pages: list[Page] = []
        while self._opaque_end is not None:
            self._read_plain()
            pages += self._pages()
        if self._in_page:
            raise _Problem("xml ended", "the last page has no closing </page>")
        self._consume_skeleton(len(self._buf))
        return pages

    def _consume_skeleton(self, end: int) -> None:
        """Feed ``_buf[:end]`` (no page in it) to the skeleton parser and drop it."""
        if end <= 0:
            return
        try:
            self._skeleton.feed(bytes(self._buf[:end]))
        except (etree.LxmlError, ValueError) as exc:
            problem = _Problem("malformed", _xml_message(exc))
        else:
            problem = None
        if problem is not None:
            self._skeleton_events()  # a root that is not <mediawiki> says more than the error
            raise problem
        self._offset += end
        del self._buf[:end]
        self._scan -= end
        self._opaque_start -= end
        self._skeleton_events()

    def _skeleton_events(self) -> None:
        for event, elem in self._skeleton.read_events():
            if self.root is None:
                self._check_root(elem)
            elif event == "end" and _localname(elem.tag) == "siteinfo":
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

    def _drop_oversized(self) -> None:
        """Forget the start of a page past ``max_page_bytes``, keeping what finds its end
        (the bytes not scanned yet)."""
        if self._oversized is None:
            self._oversized = bytes(self._buf[:4096])
        self._offset += self._scan
        del self._buf[: self._scan]
        self._scan = 0


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
    max_page_bytes: int = MAX_PAGE_BYTES,
) -> Iterator[Page]:
    """Yield the main-namespace, non-redirect pages of a dump, in dump order.

    ``titles`` restricts the output to those pages (titles compared after
    :func:`normalise_title`). ``stats`` receives ``pages_read``, ``pages_skipped_namespace``,
    ``pages_skipped_redirect``, ``pages_skipped_not_requested``, ``pages_kept``, and for pages
    that cannot be used at all ``pages_skipped_malformed`` (no usable id),
    ``pages_skipped_bad_xml`` (not well-formed: each logged with its byte position) and
    ``pages_skipped_too_large`` (past ``max_page_bytes``). A page is counted under the first
    reason that applies.

    Raises :class:`DumpError` for a file that is not a dump (nothing yielded) or that turns
    unreadable midway, and :class:`TruncatedDumpError` after the last complete page of a dump
    that breaks off.
    """
    path = Path(path)
    wanted = frozenset(normalise_title(t) for t in titles) if titles is not None else None
    counts = stats if stats is not None else collections.Counter()
    reader = _PageReader(path, PageParser(path, wanted, counts, max_page_bytes))
    stream, codec = _open_dump(path)
    problem: _Problem | None = None
    with stream:
        try:
            for chunk in _utf8_chunks(stream, codec):
                yield from reader.feed(chunk)
            yield from reader.finish_fragment()
            reader.finish()
        except _Problem as exc:
            problem = exc
    # Raised here, outside the handlers: the caller sees our message, not lxml's traceback.
    if problem is not None:
        _raise_problem(reader, problem.what, problem.detail)
    if reader.root is None:
        raise DumpError(f"{path} is not a MediaWiki XML dump: it holds no XML element")


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
