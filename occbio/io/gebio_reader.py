"""A tolerant reader of GeBioCorpus-style XML (the published corpus and :func:`write_xml`'s files).

The published GeBioCorpus (GeBioToolkit, LREC 2020) is XML-like rather than XML: segments close
with ``<\\seg>``, there is no root element (many ``<doc>`` at the top level), some documents
say ``genre=`` for ``gender=``, a document can be split over two ``<doc>`` blocks with the same
``docid``, ``&`` is not always escaped, and files may start with a BOM and use CRLF line ends.

Why a small tokenizer and not lxml with ``recover=True``: every one of those quirks is lexical,
and the vocabulary is tiny (``doc``, ``title``, ``seg``). libxml2's recovery is a black box
here: it drops text silently (an undefined entity, the word after a stray ``&``), stops at the
second top-level element unless the text is rewritten first, and reports line numbers only for
elements, so "where is this file broken" cannot be answered for stray text. The tokenizer below
reads the file a line at a time (streaming: one document in memory), makes every repair
explicitly, and knows the line of every token, so a file that is not this format at all fails
with ``ValueError("FILE:LINE: ...")`` rather than a traceback from inside a parser or a silent
empty result.

What it accepts, beyond well-formed XML:

* ``<\\seg>`` (any ``<\\name>``) as a closing tag;
* no root element, or any root/container elements around the ``<doc>`` elements (a ``lang``
  attribute on one, like ``write_xml``'s ``<corpus lang="xx">``, is the default language);
* ``genre=`` when there is no ``gender=``;
* consecutive ``<doc>`` blocks with the same ``docid`` are merged (attributes of the first,
  missing ones filled from the next; segments in file order). A ``docid`` that comes back after
  other documents is yielded again as its own document, with a warning logged;
* a stray ``&`` (not starting ``&name;`` / ``&#N;``) is kept literally; HTML named entities
  (``&nbsp;``, ``&eacute;``) are decoded as well as the XML ones; a ``<`` that starts no tag is
  text;
* a missing ``</seg>``, ``</title>`` or ``</doc>`` before the next ``<seg>``/``<doc>`` (closed
  there, with a warning); unknown elements inside a segment are kept as literal text;
* a UTF-8 BOM, CRLF line ends, comments, processing instructions, a DOCTYPE, CDATA sections.

What it refuses (``ValueError`` naming the file and line): bytes that are not UTF-8, text
outside any ``<doc>``, ``<seg>``/``<title>`` outside a ``<doc>``, a ``<doc>`` without
``docid``, a file that ends inside a ``<doc>``, a comment or tag or CDATA section that never
ends.
"""

from __future__ import annotations

import codecs
import html.entities
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["GebioDoc", "read_gebio_xml"]

log = logging.getLogger(__name__)


@dataclass
class GebioDoc:
    """One ``<doc>``: its main attributes, all attributes as written, and its segments.

    ``gender`` is ``gender=`` (or ``genre=`` where the file uses that); ``lang`` is
    ``language=`` (or the enclosing element's ``lang=``); ``segments`` are ``(seg id, text)``
    in file order, the text with entities decoded and the ends stripped. ``revision_id``,
    ``revision_timestamp`` and ``source`` give occbio's provenance attributes where the file
    has them.
    """

    docid: str
    lang: str
    gender: str
    wpid: str
    title: str
    occupation: str
    attrs: dict[str, str] = field(default_factory=dict)
    segments: list[tuple[str, str]] = field(default_factory=list)

    @property
    def revision_id(self) -> int | None:
        """The revision the text was read from (occbio's ``revision_id=``; ``None`` in a file
        without it: the published GeBioCorpus, an older occbio's)."""
        value = self.attrs.get("revision_id", "").strip()
        return int(value) if value.isdigit() else None

    @property
    def revision_timestamp(self) -> str:
        """That revision's time, ISO 8601 UTC (``""`` when the file does not say)."""
        return self.attrs.get("revision_timestamp", "")

    @property
    def source(self) -> str:
        """Where the text was read (``dump:FILE``, ``web:URL@RETRIEVED``; ``""`` if unsaid)."""
        return self.attrs.get("source", "")


#: A tag, attribute values quoted properly (they may hold ``>``)...
_TAG_STRICT_RE = re.compile(r"""<([/\\]?)([A-Za-z_][\w.:-]*)((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>""")
#: ... or, failing that (an unbalanced quote), anything up to the next ``>``.
_TAG_LOOSE_RE = re.compile(r"<([/\\]?)([A-Za-z_][\w.:-]*)([^<>]*)>")
_TAG_START_RE = re.compile(r"<[/\\]?[A-Za-z_]")
_ATTR_RE = re.compile(r"""([^\s=/"'<>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))""")
_ENTITY_RE = re.compile(r"&(#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")
_ATTR_SPACE_RE = re.compile(r"[\t\n\r]")

#: How far to look for the end of something that starts like a tag before calling it text.
_LOOKAHEAD = 1 << 16


def _entity(m: re.Match[str]) -> str:
    ref = m.group(1)
    if ref[0] == "#":
        try:
            cp = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
        except ValueError:
            return m.group(0)
        if 0 < cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF:
            return chr(cp)
        return m.group(0)
    return html.entities.html5.get(ref + ";", m.group(0))


def _unescape(text: str) -> str:
    return _ENTITY_RE.sub(_entity, text) if "&" in text else text


def _attrs(blob: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR_RE.finditer(blob):
        raw = next(g for g in m.groups()[1:] if g is not None)
        out.setdefault(m.group(1), _unescape(_ATTR_SPACE_RE.sub(" ", raw)))
    return out


@dataclass
class _Tok:
    kind: str  # "text", "cdata", "start", "end", "skip" (comment, PI, DOCTYPE)
    line: int
    text: str = ""  # text / cdata content, or the raw tag
    name: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    empty: bool = False  # <seg/>


class _Lexer:
    """Tokens of a GeBioCorpus-ish file, read a line at a time, each with its line number."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.buf = ""
        self.pos = 0
        self.line = 1  # the line of buf[pos]
        self._lines = self._read_lines()
        self.eof = False

    def error(self, line: int, msg: str) -> ValueError:
        return ValueError(f"{self.path}:{line}: {msg}")

    def _read_lines(self) -> Iterator[str]:
        with open(self.path, "rb") as fh:
            for no, raw in enumerate(fh, 1):
                if no == 1 and raw.startswith(codecs.BOM_UTF8):
                    raw = raw[len(codecs.BOM_UTF8) :]
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise self.error(
                        no, f"not UTF-8 text ({exc.reason} at byte {exc.start} of the line)"
                    ) from None
                yield line[:-2] + "\n" if line.endswith("\r\n") else line

    def _more(self) -> bool:
        """Append the next line to the buffer; False at the end of the file."""
        if self.eof:
            return False
        line = next(self._lines, None)
        if line is None:
            self.eof = True
            return False
        if self.pos:
            self.buf = self.buf[self.pos :]
            self.pos = 0
        self.buf += line
        return True

    def _take(self, end: int) -> str:
        s = self.buf[self.pos : end]
        self.line += s.count("\n")
        self.pos = end
        return s

    def _markup(self) -> _Tok | None:
        """The markup at ``pos`` (a ``<``), consumed; None when that ``<`` starts no markup.

        Reads more lines while the markup is incomplete (a comment or a tag over several lines),
        up to ``_LOOKAHEAD`` characters; past that, the ``<`` is text.
        """
        while True:
            tok = self._try_markup()
            if not isinstance(tok, str):
                return tok
            if len(self.buf) - self.pos < _LOOKAHEAD and self._more():
                continue
            if self.eof:
                raise self.error(self.line, f"{tok} (from here to the end of the file)")
            return None

    def _try_markup(self) -> _Tok | str | None:
        """Like :meth:`_markup`, or a string saying what is incomplete (nothing consumed)."""
        buf, i = self.buf, self.pos
        line = self.line
        for opener, closer, kind in (
            ("<!--", "-->", "comment"),
            ("<![CDATA[", "]]>", "CDATA section"),
            ("<?", "?>", "processing instruction"),
            ("<!", ">", "declaration"),
        ):
            if buf.startswith(opener, i):
                end = buf.find(closer, i + len(opener))
                if end < 0:
                    return f"a {kind} that never ends"
                raw = self._take(end + len(closer))
                if opener == "<![CDATA[":
                    return _Tok("cdata", line, raw[len(opener) : -len(closer)])
                return _Tok("skip", line)
        if not _TAG_START_RE.match(buf, i):
            return None
        if buf.find(">", i) < 0:
            return "a tag that never ends"
        m = _TAG_STRICT_RE.match(buf, i) or _TAG_LOOSE_RE.match(buf, i)
        if m is None:  # another "<" before the ">": this one is text
            return None
        raw = self._take(m.end())
        closing, name, blob = m.groups()
        if closing:
            return _Tok("end", line, raw, name.lower())
        blob = blob.rstrip()
        empty = blob.endswith("/")
        return _Tok("start", line, raw, name.lower(), _attrs(blob.rstrip("/")), empty)

    def tokens(self) -> Iterator[_Tok]:
        while True:
            lt = self.buf.find("<", self.pos)
            if lt < 0:
                if self.pos < len(self.buf):
                    line = self.line
                    yield _Tok("text", line, self._take(len(self.buf)))
                if not self._more():
                    return
                continue
            if lt > self.pos:
                line = self.line
                yield _Tok("text", line, self._take(lt))
            line = self.line
            tok = self._markup()
            if tok is None:
                yield _Tok("text", line, self._take(self.pos + 1))
            elif tok.kind != "skip":
                yield tok


@dataclass
class _Open:
    """A ``<doc>`` being read."""

    attrs: dict[str, str]
    line: int
    title: str | None = None
    segments: list[tuple[str, str]] = field(default_factory=list)


def _merge(into: _Open, more: _Open) -> None:
    for k, v in more.attrs.items():
        into.attrs.setdefault(k, v)
    if not into.title:
        into.title = more.title
    into.segments.extend(more.segments)


def _finish(d: _Open, default_lang: str) -> GebioDoc:
    a = d.attrs
    return GebioDoc(
        docid=a["docid"],
        lang=a.get("language") or a.get("lang") or default_lang,
        gender=a.get("gender") or a.get("genre", ""),
        wpid=a.get("wpid", ""),
        title=d.title if d.title is not None else a.get("title", ""),
        occupation=a.get("occupation", ""),
        attrs=dict(a),
        segments=d.segments,
    )


def read_gebio_xml(path: Path | str) -> Iterator[GebioDoc]:
    """Stream the documents of a GeBioCorpus-style XML file (see the module docstring)."""
    path = Path(path)
    lexer = _Lexer(path)
    default_lang = ""
    doc: _Open | None = None
    pending: _Open | None = None  # a finished doc, held back in case the next one continues it
    seen: dict[str, int] = {}  # docid -> line of its first block
    field_name: str | None = None  # "title" / "seg" while inside one
    field_attrs: dict[str, str] = {}
    parts: list[str] = []

    def close_field() -> None:
        nonlocal field_name
        assert doc is not None
        text = "".join(parts).strip()
        if field_name == "title":
            doc.title = text
        elif field_name == "seg":
            doc.segments.append((field_attrs.get("id", str(len(doc.segments) + 1)), text))
        field_name = None
        parts.clear()

    def close_doc() -> Iterator[GebioDoc]:
        nonlocal doc, pending
        assert doc is not None
        if field_name is not None:
            log.warning("%s:%d: <%s> not closed before </doc>", path, doc.line, field_name)
            close_field()
        done, doc = doc, None
        docid = done.attrs["docid"]
        if pending is not None and pending.attrs["docid"] == docid:
            _merge(pending, done)
            return
        if docid in seen:
            log.warning(
                "%s:%d: docid %s already had a <doc> at line %d (not adjacent: not merged)",
                path,
                done.line,
                docid,
                seen[docid],
            )
        else:
            seen[docid] = done.line
        if pending is not None:
            yield _finish(pending, default_lang)
        pending = done

    for tok in lexer.tokens():
        if tok.kind in ("text", "cdata"):
            text = _unescape(tok.text) if tok.kind == "text" else tok.text
            if field_name is not None:
                parts.append(text)
            elif doc is None and text.strip():
                stripped = tok.text.lstrip()
                line = tok.line + tok.text[: len(tok.text) - len(stripped)].count("\n")
                raise lexer.error(
                    line,
                    f"text outside any <doc> ({stripped[:40]!r}): not a GeBioCorpus-style XML file",
                )
            continue
        if tok.kind == "start":
            if tok.name == "doc":
                if doc is not None:
                    log.warning("%s:%d: <doc> not closed before the next <doc>", path, doc.line)
                    yield from close_doc()
                if "docid" not in tok.attrs:
                    raise lexer.error(tok.line, "a <doc> without a docid attribute")
                doc = _Open(dict(tok.attrs), tok.line)
                if tok.empty:
                    yield from close_doc()
            elif tok.name in ("seg", "title"):
                if doc is None:
                    raise lexer.error(tok.line, f"<{tok.name}> outside any <doc>")
                if (field_name == "seg" and tok.name == "seg") or field_name == "title":
                    log.warning("%s:%d: <%s> not closed", path, tok.line, field_name)
                    close_field()
                if field_name is not None:  # a <title> inside a <seg>: text
                    parts.append(tok.text)
                    continue
                field_name, field_attrs = tok.name, dict(tok.attrs)
                if tok.empty:
                    close_field()
            elif field_name is not None:
                parts.append(tok.text)  # inline markup inside a segment: keep it as text
            elif doc is None and "lang" in tok.attrs:
                default_lang = tok.attrs["lang"]
            continue
        # an end tag
        if field_name is not None and tok.name == field_name:
            close_field()
        elif tok.name == "doc" and doc is not None:
            yield from close_doc()
        elif field_name is not None:
            parts.append(tok.text)
    if doc is not None:
        raise lexer.error(
            doc.line,
            f"the file ends inside <doc docid={doc.attrs['docid']!r}> opened here (truncated?)",
        )
    if pending is not None:
        yield _finish(pending, default_lang)
