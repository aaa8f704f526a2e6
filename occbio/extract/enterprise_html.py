"""Stream Wikimedia Enterprise HTML dumps: rendered (Parsoid) HTML of every article, with ids.

An Enterprise HTML dump (``LANGwiki-NS0-DATE-ENTERPRISE-HTML.json.tar.gz``, from
https://dumps.wikimedia.org/other/enterprise_html/, or a Snapshot API download) is a gzip'd
tar of NDJSON files, one article per line, in the Wikimedia Enterprise article model
(https://enterprise.wikimedia.com/docs/data-dictionary/; the same reading as mwparserfromhtml's
``HTMLDump``). The fields read here:

- ``name``: the page title; ``identifier``: the page id; ``namespace.identifier``;
- ``version.identifier``: the revision id; ``date_modified``: that revision's time (ISO 8601);
- ``main_entity.identifier``: the page's Wikidata item (QID); ``redirects[].name``: the titles
  that redirect to the page (redirect pages are not lines of their own);
- ``article_body.html``: the page as Parsoid renders it, templates expanded; ``url`` and
  ``in_language.identifier``.

:func:`iter_html_pages` reads the file once, as a stream: the tar is walked header by header over
the decompressed bytes (:func:`occbio.extract.compressed.open_compressed`: gzip, or bz2/xz/plain)
and each member is read line by line, never whole. A line longer than ``max_line_bytes`` is
skipped and counted (only its first bytes are ever held), and so is a line that is not JSON; a
tar that breaks off (a download cut short) yields every complete line first, then raises
:class:`TruncatedHtmlDumpError` (a :class:`~occbio.extract.wikipedia_dump.TruncatedDumpError`).

Only the lines that can be wanted are parsed: a line's ``"name"`` and ``"identifier"`` values are
looked up in its raw bytes first (a quote inside a JSON string is always escaped, so ``"name":``
occurs in the bytes only as a key) and the rest is skipped unparsed: a quarter less time when a
tenth of the pages are wanted (``benchmarks/enterprise_html.py``), where gzip is the bound. A key
spelled with escapes (``"n\\u0061me"``), which no JSON encoder writes, would not be seen; and a
line skipped unparsed is not checked either, so ``lines_bad_json`` counts the broken lines that
could have been wanted. Turning the HTML into prose is
:func:`occbio.extract.html_text.html_to_text`'s job, as for pages fetched from the web.
"""

from __future__ import annotations

import collections
import io
import json
import logging
import lzma
import os
import re
import tarfile
import zlib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from occbio.extract.compressed import CompressionError, open_compressed
from occbio.extract.mediawiki import normalise_title
from occbio.extract.wikipedia_dump import DumpError, SkipLog, TruncatedDumpError

__all__ = [
    "MAX_LINE_BYTES",
    "HtmlPage",
    "TruncatedHtmlDumpError",
    "is_enterprise_html_dump",
    "iter_html_pages",
]

log = logging.getLogger(__name__)

#: A line (one article) past this size is skipped and counted. Wikipedia caps an article at
#: 2 MiB of wikitext; its HTML and wikitext together, JSON-escaped, stay far below.
MAX_LINE_BYTES = 64 << 20
_BLOCK = 512
#: Largest pax or GNU long-name header read (a name, a size: a few bytes in any real tar).
_MAX_META_BYTES = 1 << 20
_READ_BYTES = 1 << 20

_VALUE_RE = re.compile(rb'\s*:\s*"((?:[^"\\]|\\.)*)"')
_QID_RE = re.compile(r"Q[1-9][0-9]*")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_REDIRECT_RE = re.compile(r"""<link\s[^>]*rel=["']mw:PageProp/redirect["']""")
#: The title at the start of a line (Enterprise writes ``name`` first), for the log only.
_LEADING_NAME_RE = re.compile(rb'^\s*\{\s*"name"\s*:\s*"((?:[^"\\]|\\.){0,300})"')


@dataclass(frozen=True, slots=True)
class HtmlPage:
    """One article line of an Enterprise HTML dump (the fields occbio uses)."""

    title: str
    page_id: int
    revision_id: int
    #: ``date_modified`` as ``YYYY-MM-DDTHH:MM:SSZ`` (UTC), ``""`` when absent or unreadable.
    timestamp: str
    #: ``main_entity.identifier`` (``Q42``), ``""`` when the page has no Wikidata item.
    qid: str
    html: str
    redirects: tuple[str, ...] = ()
    language: str = ""
    url: str = ""
    #: The article's categories as rendered (template-added ones included), without the
    #: namespace prefix: ``Living people``.
    categories: tuple[str, ...] = ()


class TruncatedHtmlDumpError(TruncatedDumpError):
    """The dump breaks off before its end; every complete line before the break was read.

    ``pages_read`` counts the complete lines read, ``last_title`` is ``None``; ``where`` names
    the member and line the break came after.
    """

    def __init__(self, path: Path, pages_read: int, where: str, reason: str) -> None:
        self.path = path
        self.pages_read = pages_read
        self.last_title = None
        self.where = where
        self.reason = reason
        DumpError.__init__(
            self,
            f"dump {path.name} is truncated: it ended after {pages_read} complete lines "
            f"({where}); the pages read before the break are kept ({reason})",
        )


class _Cut(Exception):
    """The decompressed stream ends (or its codec says it ends) before the tar does."""


class _Corrupt(Exception):
    """The stream cannot be read on: damaged compressed data, a tar header that is no header."""


class _NotTar(Exception):
    """The first block of the decompressed file is no tar header."""


# ---------------------------------------------------------------------------------------------
# Telling the format


def is_enterprise_html_dump(path: Path | str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a tar archive (gzip'd, or bz2/xz/plain): an Enterprise HTML dump
    rather than a pages-articles XML dump. Told by the content (a valid tar header first), not
    by the name; a file that cannot be opened is not one (the XML reader says why)."""
    try:
        stream, _ = open_compressed(Path(path), threads=1)
    except (OSError, CompressionError):
        return False
    try:
        with stream:
            head = _read_exact(stream, _BLOCK)
    except (OSError, EOFError, lzma.LZMAError, zlib.error):
        return False
    if len(head) < _BLOCK:
        return False
    try:
        tarfile.TarInfo.frombuf(head, "utf-8", "surrogateescape")
    except tarfile.HeaderError:
        return False
    return True


# ---------------------------------------------------------------------------------------------
# Walking the tar


def _read_exact(stream: IO[bytes], n: int) -> bytes:
    """``n`` bytes, fewer only at the end of the stream."""
    data = stream.read(n)
    if len(data) == n or not data:
        return data
    parts = [data]
    got = len(data)
    while got < n:
        more = stream.read(n - got)
        if not more:
            break
        parts.append(more)
        got += len(more)
    return b"".join(parts)


class _Member(io.RawIOBase):
    """The bytes of one tar member, read from the archive's stream as they are asked for."""

    def __init__(self, stream: IO[bytes], size: int) -> None:
        self._stream = stream
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.left <= 0:
            return 0
        n = min(len(buffer), self.left)
        got = self._stream.readinto(memoryview(buffer)[:n])  # type: ignore[attr-defined]
        if not got:
            raise _Cut("the tar archive ends inside a member")
        self.left -= got
        return got


def _pax_records(data: bytes) -> dict[str, str]:
    """The ``LENGTH key=value`` records of a pax extended header."""
    records: dict[str, str] = {}
    pos = 0
    while pos < len(data) and data[pos:pos + 1] != b"\x00":  # fmt: skip
        space = data.find(b" ", pos)
        try:
            length = int(data[pos:space])
        except ValueError:
            raise _Corrupt("a pax header is malformed") from None
        if space < 0 or length <= 0 or pos + length > len(data):
            raise _Corrupt("a pax header is malformed")
        key, _, value = data[space + 1 : pos + length - 1].partition(b"=")
        records[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        pos += length
    return records


def _members(stream: IO[bytes]) -> Iterator[tuple[str, _Member]]:
    """Each regular file of the tar: its name and its bytes, to be read before the next one.

    pax (``x``) and GNU long-name (``L``) headers give the next member's name and size;
    directories, links and global headers are passed over. Ends at the end-of-archive block,
    then reads the stream to its end (a compressed stream cut in its trailer says so there).
    """
    name_override: str | None = None
    size_override: int | None = None
    first = True
    while True:
        block = _read_exact(stream, _BLOCK)
        if not block:
            raise _Cut("the tar archive ends without its end-of-archive block")
        if len(block) < _BLOCK:
            raise _Cut("the tar archive ends inside a header")
        try:
            info = tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
        except tarfile.EOFHeaderError:  # a block of zeros: the end of the archive
            while stream.read(_READ_BYTES):
                pass
            return
        except tarfile.HeaderError as exc:
            if first:
                raise _NotTar(f"it is not a tar archive ({exc})") from None
            raise _Corrupt(f"a tar header cannot be read ({exc})") from None
        first = False
        size = size_override if size_override is not None else info.size
        name = name_override if name_override is not None else info.name
        name_override = size_override = None
        if info.type in (tarfile.XHDTYPE, tarfile.GNUTYPE_LONGNAME):
            if info.size > _MAX_META_BYTES:
                raise _Corrupt(f"a tar header of {info.size:,} bytes is not a name or a size")
            data = _read_exact(stream, info.size + (-info.size % _BLOCK))
            if len(data) < info.size:
                raise _Cut("the tar archive ends inside a header")
            if info.type == tarfile.GNUTYPE_LONGNAME:
                name_override = data[: info.size].rstrip(b"\x00").decode("utf-8", "replace")
                continue
            records = _pax_records(data[: info.size])
            name_override = records.get("path")
            if "size" in records:
                try:
                    size_override = int(records["size"])
                except ValueError:
                    raise _Corrupt("a pax header gives a size that is no number") from None
            continue
        if info.type == tarfile.GNUTYPE_SPARSE:
            raise _Corrupt(f"member {name!r} is a sparse file, which occbio does not read")
        member = _Member(stream, size)
        if info.type in tarfile.REGULAR_TYPES:
            yield name, member
        while member.left:  # what the reader left unread, or a directory's or link's payload
            member.readinto(memoryview(bytearray(min(member.left, _READ_BYTES))))
        padding = -size % _BLOCK
        if padding and len(_read_exact(stream, padding)) < padding:
            raise _Cut("the tar archive ends inside a member's padding")


# ---------------------------------------------------------------------------------------------
# Choosing the lines worth parsing


class _Wanted:
    """Which lines can hold a wanted page, judged from their raw bytes (no JSON parse)."""

    def __init__(self, titles: Collection[str] | None, qids: Collection[str]) -> None:
        self.titles = frozenset(titles) if titles is not None else None
        self.qids = frozenset(qids)
        self._title_bytes = frozenset(t.encode() for t in self.titles or ())
        self._qid_bytes = frozenset(q.encode() for q in self.qids)

    def everything(self) -> bool:
        return self.titles is None

    def may_hold(self, line: bytes) -> bool:
        """False only when no ``"name"`` value normalises to a wanted title and no
        ``"identifier"`` value is a wanted QID: the line cannot be wanted."""
        if self._qid_bytes:
            for raw in _values(line, b'"identifier"'):
                if raw in self._qid_bytes:
                    return True
        return any(self._is_title(raw) for raw in _values(line, b'"name"'))

    def _is_title(self, raw: bytes) -> bool:
        if (
            raw.isascii()
            and b"\\" not in raw
            and b"_" not in raw
            and b"  " not in raw
            and raw[:1] != b" "
            and raw[-1:] != b" "
        ):  # normalise_title would only upper-case the first letter
            return raw[:1].upper() + raw[1:] in self._title_bytes
        try:
            text = json.loads(b'"' + raw + b'"')
        except ValueError:
            return False
        return normalise_title(text) in self.titles  # type: ignore[operator]


def _values(line: bytes, key: bytes) -> Iterator[bytes]:
    """The raw (still escaped) string values of ``key`` anywhere in the JSON ``line``."""
    at = line.find(key)
    while at != -1:
        match = _VALUE_RE.match(line, at + len(key))
        if match is not None:
            yield match.group(1)
        at = line.find(key, at + len(key))


# ---------------------------------------------------------------------------------------------
# One line


class _LineProblem(Exception):
    def __init__(self, counter: str, title: str | None, detail: str) -> None:
        super().__init__(detail)
        self.counter = counter
        self.title = title
        self.detail = detail


def _timestamp(value: object) -> str:
    """``date_modified`` as ``YYYY-MM-DDTHH:MM:SSZ`` in UTC (a time without a zone is UTC)."""
    if not isinstance(value, str) or not value:
        return ""
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _field(obj: dict[str, Any], outer: str, inner: str) -> Any:
    value = obj.get(outer)
    return value.get(inner) if isinstance(value, dict) else None


def _clean(text: str, counts: collections.Counter[str]) -> str:
    """A JSON escape that is no character (a lone ``\\ud800``) becomes U+FFFD, counted."""
    if _SURROGATE_RE.search(text) is None:
        return text
    counts["pages_lone_surrogates"] += 1
    return _SURROGATE_RE.sub("\ufffd", text)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _page(obj: Any, counts: collections.Counter[str]) -> HtmlPage:
    """The article of one parsed line; :class:`_LineProblem` when it is not one."""
    if not isinstance(obj, dict):
        raise _LineProblem("pages_skipped_malformed", None, "the line is not a JSON object")
    title = _str(obj.get("name"))
    if not title.strip():
        raise _LineProblem("pages_skipped_malformed", None, "it has no name (title)")
    page_id = _int(obj.get("identifier"))
    if page_id is None or page_id < 0:
        raise _LineProblem("pages_skipped_malformed", title, "it has no page id (identifier)")
    html = _field(obj, "article_body", "html")
    if not isinstance(html, str):
        raise _LineProblem("pages_skipped_malformed", title, "it has no article_body.html")
    qid = _str(_field(obj, "main_entity", "identifier"))
    redirects = obj.get("redirects")
    listed = redirects if isinstance(redirects, list) else []
    names = [_str(r.get("name")) for r in listed if isinstance(r, dict)]
    cats = obj.get("categories")
    categories = [
        _str(c.get("name")).partition(":")[2] or _str(c.get("name"))
        for c in (cats if isinstance(cats, list) else [])
        if isinstance(c, dict)
    ]
    return HtmlPage(
        title=_clean(title, counts),
        page_id=page_id,
        revision_id=_int(_field(obj, "version", "identifier")) or 0,
        timestamp=_timestamp(obj.get("date_modified")),
        qid=qid if _QID_RE.fullmatch(qid) else "",
        html=_clean(html, counts),
        redirects=tuple(_clean(n, counts) for n in names if n),
        language=_str(_field(obj, "in_language", "identifier")),
        url=_str(obj.get("url")),
        categories=tuple(_clean(c, counts).strip() for c in categories if c.strip()),
    )


def _namespace(obj: dict[str, Any]) -> int | None:
    """``namespace.identifier``; a line without one counts as the main namespace (an NS0 dump
    is one namespace's file), one that is no number as ``None``."""
    if "namespace" not in obj:
        return 0
    return _int(_field(obj, "namespace", "identifier"))


def _leading_title(line: bytes) -> str | None:
    match = _LEADING_NAME_RE.match(line)
    if match is None:
        return None
    try:
        return str(json.loads(b'"' + match.group(1) + b'"'))
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# The dump


def iter_html_pages(
    path: Path | str | os.PathLike[str],
    *,
    titles: Collection[str] | None = None,
    qids: Collection[str] = (),
    stats: collections.Counter[str] | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Iterator[HtmlPage]:
    """Yield the main-namespace articles of an Enterprise HTML dump, in dump order.

    ``titles`` (compared after :func:`normalise_title`) and ``qids`` restrict the output to the
    articles whose title, one of whose redirects' titles or whose Wikidata item is wanted;
    ``titles=None`` yields every article. ``stats`` receives ``lines_read`` (every non-blank
    line), ``pages_skipped_not_requested``, ``pages_skipped_namespace``,
    ``pages_skipped_redirect`` and ``pages_kept``; for lines that cannot be used
    ``lines_bad_json``, ``lines_too_large`` (past ``max_line_bytes``) and
    ``pages_skipped_malformed`` (no title, page id or HTML), each logged with its member and
    line number (the first 20; then only counted); and ``pages_lone_surrogates`` (pages with a
    JSON escape that is no character, read as U+FFFD).

    Raises :class:`DumpError` for a file that is not a tar archive or that turns unreadable
    midway, and :class:`TruncatedHtmlDumpError` after the last complete line of one that
    breaks off.
    """
    path = Path(path)
    wanted = _Wanted(
        {normalise_title(t) for t in titles} if titles is not None else None,
        qids,
    )
    counts = stats if stats is not None else collections.Counter()
    skip_log = SkipLog(path.name)
    try:
        stream, codec = open_compressed(path)
    except OSError as exc:
        raise DumpError(f"cannot read dump {path}: {exc.strerror or exc}") from exc
    except CompressionError as exc:
        raise DumpError(f"{path} {exc}; it is not a Wikimedia Enterprise HTML dump") from None
    where = "none"
    lines = 0
    problem: tuple[str, str] | None = None
    with stream:
        try:
            for member_name, member in _members(stream):
                reader = io.BufferedReader(member, _READ_BYTES)
                number = 0
                while True:
                    line = reader.readline(max_line_bytes + 1)
                    if not line:
                        break
                    number += 1
                    where = f"line {number:,} of {member_name}"
                    if len(line) > max_line_bytes and not line.endswith(b"\n"):
                        title = _leading_title(line)
                        del line
                        while (rest := reader.readline(_READ_BYTES)) and not rest.endswith(b"\n"):
                            pass
                        lines += 1
                        counts["lines_read"] += 1
                        counts["lines_too_large"] += 1
                        skip_log(title, where, f"the line passes {max_line_bytes:,} bytes")
                        continue
                    if not line.strip():
                        continue
                    lines += 1
                    counts["lines_read"] += 1
                    page = _read_line(line, wanted, counts, skip_log, where)
                    if page is not None:
                        yield page
        except _NotTar as exc:
            problem = ("not a dump", str(exc))
        except _Cut as exc:
            problem = ("cut", str(exc))
        except EOFError:
            problem = ("cut", f"the {codec} stream ends early")
        except _Corrupt as exc:
            problem = ("corrupt", str(exc))
        except (OSError, lzma.LZMAError, zlib.error) as exc:
            problem = ("corrupt", f"its {codec} data cannot be decompressed ({exc})")
    if problem is None:
        return
    what, detail = problem
    if what == "not a dump":
        raise DumpError(f"{path} is not a Wikimedia Enterprise HTML dump: {detail}")
    if what == "cut":
        raise TruncatedHtmlDumpError(path, lines, f"last: {where}", detail)
    raise DumpError(f"dump {path.name} is corrupt after {lines} complete lines ({where}): {detail}")


def _read_line(
    line: bytes,
    wanted: _Wanted,
    counts: collections.Counter[str],
    skip_log: SkipLog,
    where: str,
) -> HtmlPage | None:
    """The page of one line when it is wanted; counted (and logged when unusable) when not."""
    if not wanted.everything() and not wanted.may_hold(line):
        counts["pages_skipped_not_requested"] += 1
        return None
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as exc:
        counts["lines_bad_json"] += 1
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        skip_log(_leading_title(line), where, f"not JSON ({detail})")
        return None
    try:
        page = _page(obj, counts)
    except _LineProblem as exc:
        counts[exc.counter] += 1
        skip_log(exc.title, where, exc.detail)
        return None
    namespace = _namespace(obj)
    if namespace != 0:
        counts["pages_skipped_namespace"] += 1
        return None
    if not _wanted_page(page, wanted):
        counts["pages_skipped_not_requested"] += 1
        return None
    if _REDIRECT_RE.search(page.html) is not None:
        counts["pages_skipped_redirect"] += 1
        return None
    counts["pages_kept"] += 1
    return page


def _wanted_page(page: HtmlPage, wanted: _Wanted) -> bool:
    if wanted.titles is None:
        return True
    if page.qid and page.qid in wanted.qids:
        return True
    if normalise_title(page.title) in wanted.titles:
        return True
    return any(normalise_title(r) in wanted.titles for r in page.redirects)
