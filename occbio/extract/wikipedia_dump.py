"""Stream MediaWiki ``pages-articles`` XML dumps and turn article wikitext into plain prose.

Two halves, used together by the text stage:

* :func:`iter_pages` streams a dump (.bz2/.xz/.gz/plain, recognised by its magic bytes; any
  encoding the XML declares, UTF-16 included) with :class:`lxml.etree.XMLPullParser`, one page
  at a time, clearing each page once read so memory stays flat on a full-size dump. It yields
  the main-namespace, non-redirect pages and counts every page it passes over, by reason.
  A dump that breaks off (a download cut short) yields every complete page first and then
  raises :class:`TruncatedDumpError`; the caller decides whether that is fatal.
* :func:`wikitext_to_text` turns one page's wikitext into prose paragraphs in article order.
  A pre-pass removes what MediaWiki's own preprocessor handles first (comments, ``<ref>`` and
  other extension tags, templates, tables); :mod:`mwparserfromhell` parses the rest, and a walk
  over its tree keeps plain text and link text and drops files, categories, interlanguage
  links, headings, lists and the trailing reference sections. Parenthesised asides and
  sentence boundaries are left alone: the cleaning stage owns those.

lxml rather than ``mwxml``: mwxml refuses a dump without ``<siteinfo>`` (the
``enwiki-table-markup`` excerpt) and gives no way to keep the pages read before a truncation.
mwparserfromhell rather than ``wikiextractor``: wikiextractor cuts a paragraph wherever the
source wraps a line, turns italics into quotation marks, keeps ``:``-indented lines and drops
the text of any link whose title holds a colon (``[[Star Wars: Episode IV|the film]]``).
"""

from __future__ import annotations

import collections
import logging
import lzma
import os
import re
import unicodedata
import zlib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

import mwparserfromhell
from lxml import etree
from mwparserfromhell.nodes import (
    ExternalLink,
    Heading,
    HTMLEntity,
    Tag,
    Template,
    Text,
    Wikilink,
)
from mwparserfromhell.wikicode import Wikicode

from occbio.extract.compressed import CompressionError, open_compressed

__all__ = [
    "DumpError",
    "NON_PROSE_SECTIONS",
    "Page",
    "TruncatedDumpError",
    "iter_pages",
    "normalise_title",
    "category_name",
    "page_categories",
    "wikitext_to_text",
]

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
# Titles

_WHITESPACE_RE = re.compile(r"\s+")


def normalise_title(title: str) -> str:
    """A title as MediaWiki stores it: spaces for underscores, single spaces, first letter upper.

    Both the dump's titles and requested titles go through this, so ``albert_Einstein`` finds
    ``Albert Einstein``. A first letter whose upper case is longer than one character (``ß``)
    is kept as it is, as MediaWiki does.
    """
    text = _WHITESPACE_RE.sub(" ", unicodedata.normalize("NFC", title).replace("_", " ")).strip()
    if not text:
        return text
    first = text[0].upper()
    if len(first) != 1:
        first = text[0]
    return first + text[1:]


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


# ---------------------------------------------------------------------------------------------
# Wikitext to prose

#: Sections that hold references, links or lists of works rather than prose, in the languages
#: occbio knows best (en es ca fr de it pt); compared lower-cased. The web path uses it too.
NON_PROSE_SECTIONS = frozenset(
    {
        "references",
        "external links",
        "external link",
        "see also",
        "further reading",
        "notes",
        "footnotes",
        "bibliography",
        "sources",
        "citations",
        "works cited",
        "notes and references",
        "references and notes",
        "referencias",
        "enlaces externos",
        "véase también",
        "notas",
        "bibliografía",
        "referències",
        "enllaços externs",
        "vegeu també",
        "bibliografia",
        "références",
        "liens externes",
        "voir aussi",
        "notes et références",
        "bibliographie",
        "einzelnachweise",
        "weblinks",
        "siehe auch",
        "literatur",
        "anmerkungen",
        # lists of works, and more names per language (Italian, Portuguese too)
        # en
        "works",
        "selected works",
        "selected bibliography",
        # es / ca
        "obras",
        "notas y referencias",
        "fuentes",
        "obres",
        "notes i referències",
        "altres referències",
        # fr
        "œuvres",
        "oeuvres",
        "articles connexes",
        "liens internes",
        # de
        "werke",
        "werke (auswahl)",
        "schriften",
        "schriften (auswahl)",
        "quellen",
        "fußnoten",
        "belege",
        # it
        "voci correlate",
        "note",
        "collegamenti esterni",
        "altri progetti",
        "opere",
        "fonti",
        # pt
        "ver também",
        "referências",
        "notas e referências",
        "ligações externas",
        "leitura adicional",
        "fontes",
    }
)

#: The category namespace, canonical and localized (lower-cased).
_CATEGORY_NAMESPACES = frozenset(
    {
        "category",
        "categoría",
        "categoria",
        "catégorie",
        "kategorie",
        "kategoria",
        "categorie",
        "kategori",
        "категория",
        "категорія",
        "thể loại",
        "カテゴリ",
        "分类",
        "分類",
        "تصنيف",
        "분류",
    }
)


# File and category namespaces, canonical and localized (lower-cased). A link into one of them
# is an image, a category or a media file, never prose.
_NON_PROSE_NAMESPACES = _CATEGORY_NAMESPACES | frozenset(
    {
        # files
        "file",
        "image",
        "media",
        "fichier",
        "archivo",
        "imagen",
        "fitxer",
        "imatge",
        "datei",
        "bild",
        "immagine",
        "ficheiro",
        "arquivo",
        "imagem",
        "plik",
        "bestand",
        "afbeelding",
        "файл",
        "изображение",
        "tập tin",
        "hình",
        "ファイル",
        "画像",
        "文件",
        "檔案",
        "ملف",
        "파일",
    }
)
_CATEGORY_LINK_RE = re.compile(r"\[\[\s*([^:\]|]+?)\s*:\s*([^\]|]+?)\s*(?:\|[^\]]*)?\]\]")


def category_name(category: str) -> str:
    """A category's name without its namespace, normalised: "Categoria:Escriptors_catalans",
    "Category:Living people" and "Living people" name the categories the dump and the API
    know as "Escriptors catalans" and "Living people"."""
    namespace, sep, name = category.partition(":")
    if sep and namespace.strip().lower() in _CATEGORY_NAMESPACES:
        category = name
    return normalise_title(category)


def page_categories(wikitext: str) -> set[str]:
    """The categories a page's wikitext puts it in (``[[Category:Living people|Sortkey]]``, in
    any language's namespace name), titles normalised; ``[[:Category:X]]`` links are not."""
    found = set()
    for namespace, name in _CATEGORY_LINK_RE.findall(wikitext):
        if namespace.strip().lower() in _CATEGORY_NAMESPACES:
            found.add(normalise_title(name))
    return found


_MEDIA_FILE_RE = re.compile(
    r"\.(?:jpe?g|png|gif|svg|tiff?|webp|xcf|ogg|ogv|oga|opus|webm|mp3|wav|flac|midi?|pdf|djvu|stl)$",
    re.IGNORECASE,
)
# An interlanguage link ([[fr:Paris]]) moves to the sidebar: no text in the article.
_LANGUAGE_PREFIX_RE = re.compile(r"^(?:[a-z]{2,3}(?:-[a-z0-9]{1,8})*|simple)$")

# Tags whose content is not prose at all.
_DROP_TAGS = frozenset(
    {
        "ref",
        "references",
        "table",
        "gallery",
        "imagemap",
        "math",
        "chem",
        "ce",
        "score",
        "timeline",
        "graph",
        "mapframe",
        "maplink",
        "templatestyles",
        "syntaxhighlight",
        "source",
        "pre",
        "poem",
        "noinclude",
        "includeonly",
        "categorytree",
        "inputbox",
        "hr",
        "ul",
        "ol",
        "dl",
        "li",
        "dt",
        "dd",
        "caption",
        "tr",
        "td",
        "th",
        "style",
        "script",
    }
)
_BREAK_TAGS = frozenset({"br", "p", "div", "blockquote", "center"})

# Inline templates whose output is words of the sentence; every other template is dropped.
_FIRST_ARG_TEMPLATES = frozenset(
    {"nowrap", "nobr", "nobreak", "small", "smaller", "big", "larger", "ill", "interlanguage link"}
)
_LAST_ARG_TEMPLATES = frozenset({"lang", "transl"})
_CONSTANT_TEMPLATES = {
    "ndash": "–",
    "mdash": "—",
    "snd": " – ",
    "spnd": " – ",
    "spaced ndash": " – ",
    "spaced en dash": " – ",
    "spaced mdash": " — ",
    "nbsp": " ",
    "'": "'",
    # French ordinal superscripts: 1{{er}} -> 1er, XIX{{e}} -> XIXe
    "er": "er",
    "re": "re",
    "e": "e",
    "ère": "ère",
    "1er": "1er",
    "1re": "1re",
}
# Templates whose positional arguments, joined by spaces, are the words: {{date|1|mai|1950}}.
_JOINED_ARGS_TEMPLATES = frozenset({"date", "date de naissance", "date de décès"})
_INLINE_TEMPLATES = (
    _FIRST_ARG_TEMPLATES
    | _LAST_ARG_TEMPLATES
    | _JOINED_ARGS_TEMPLATES
    | frozenset(_CONSTANT_TEMPLATES)
    | {"convert", "cvt"}
)
_CONVERT_RANGE_WORDS = frozenset({"-", "–", "to", "and", "or", "by", "x", "×", "+/-", "±"})

_MAGIC_WORD_RE = re.compile(r"__[^\W_]+(?:_[^\W_]+)*__")
_QUOTE_SPLIT_RE = re.compile(r"('{2,})")
# A line wholly in bold (a bold "Novels:") is a pseudo-heading; one wholly in italics is an
# editorial note ("See also ...") unless it reads as a sentence (a quotation).
_EMPHASIS_LINE_RE = re.compile(
    r"^[ \t\x7f]*('{2,5})((?:(?!'').)+?)\1[ \t\x7f]*([:.]?)[ \t\x7f]*$", re.MULTILINE
)
_SENTENCE_END = tuple(".!?…»\"”“'’。")
_LIST_OR_TABLE_LINE_RE = re.compile(r"^(?:[*#:;]|\{\||\|\}|\||!|=.*=$|-{4,})")
_REF_RE = re.compile(r"<ref[^>]*/>|<ref[^>]*>.*?</ref\s*>|<ref[^>]*>.*$", re.IGNORECASE)
_HTML_TAG_RE = re.compile(r"</?[a-zA-Z][^<>]*>")
_BALANCED_LINK_RE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_INLINE_SPACE_RE = re.compile(r"[^\S\n]+")
_SPACE_BEFORE_PUNCT_RE = re.compile(r" +([,.;:!?)\]])")
_ONLY_PUNCT_RE = re.compile(r"^[\W_]*$")


def wikitext_to_text(wikitext: str) -> str:
    """Plain prose paragraphs of an article in article order, separated by a blank line.

    Never raises: on input the parser cannot take, a plainer regex pass gives a best effort.
    """
    try:
        stripped = _strip_non_prose_blocks(wikitext)
    except Exception:  # one odd page must not stop a whole dump
        logger.warning("wikitext pre-pass failed; parsing the raw text", exc_info=True)
        stripped = wikitext
    try:
        # Bold/italic never spans lines on the wiki, but the parser lets an unclosed '' run
        # across headings; _paragraphs removes the quotes line by line instead.
        rendered = _render_article(mwparserfromhell.parse(stripped, skip_style_tags=True))
    except Exception:
        logger.warning("wikitext parser failed; falling back to regex stripping", exc_info=True)
        rendered = _drop_nested(stripped, "{{", "}}")
    try:
        return _paragraphs(rendered)
    except Exception:
        logger.warning("wikitext clean-up failed; returning no text", exc_info=True)
        return ""


# ----- pre-pass: what MediaWiki's preprocessor removes before it parses the rest ------------

# Put where the pre-pass removed something, like MediaWiki's strip markers: it keeps the ''
# before and after a removed <ref> from merging into one '''' run. Gone before text comes out.
_MARK = "\x7f"
# Comments first; an unclosed one hides the rest of the page, as on the wiki.
_COMMENT_RE = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
# Extension tags whose content is opaque to the wiki parser: the first closing tag ends them,
# whatever wiki markup sits inside (an unclosed '' in a <ref> must not swallow the next ref).
_OPAQUE_TAGS = (
    "ref references math chem ce gallery imagemap timeline score graph mapframe maplink "
    "templatestyles syntaxhighlight source pre poem categorytree inputbox includeonly "
    "hiero charinsert indicator section"
).split()
_OPAQUE_TAG_RE = re.compile(
    r"<(" + "|".join(_OPAQUE_TAGS) + r")\b[^>]*?(?:/>|>.*?</\1\s*>)",
    re.IGNORECASE | re.DOTALL,
)
_BRACES_RE = re.compile(r"\{\{|\}\}")
_TEMPLATE_NAME_RE = re.compile(r"[^|{}<\n]*")


def _strip_non_prose_blocks(wikitext: str) -> str:
    """Drop comments, opaque extension tags, templates and tables before parsing.

    This follows MediaWiki's own order (comments, extension tags, then braces), which is both
    more faithful than parsing them and much faster: most of an article's bytes are citation
    templates and references the parser would build into objects only to be thrown away.
    """
    text = _COMMENT_RE.sub("", wikitext)
    text = _OPAQUE_TAG_RE.sub(_MARK, text)
    if "{{" in text:
        text = _strip_templates(text)
    if "{|" in text:
        text = _strip_tables(text)
    if "''" in text:
        text = _EMPHASIS_LINE_RE.sub(_drop_emphasis_line, text)
    return text


def _drop_emphasis_line(match: re.Match[str]) -> str:
    """Drop a wholly bold/italic line that heads a list or section; keep one that opens prose.

    ``'''Novels:'''`` over a list is a heading; ``'''Name'''`` followed on the next line by
    ``(born 1926) is ...`` is the first words of the lead, which the wiki joins into one
    paragraph; an italic line that ends like a sentence is a quotation.
    """
    quotes, content, trailing = match.groups()
    ending = (content + trailing).rstrip()
    if quotes == "''" and ending.endswith(_SENTENCE_END):
        return match.group()
    if ending.endswith(":"):
        return ""
    rest = match.string[match.end() + 1 :]
    next_line = rest[: rest.find("\n")] if "\n" in rest else rest
    next_line = next_line.strip(" \t" + _MARK)
    if not next_line or next_line[0] in "*#:;=" or next_line.startswith("{|"):
        return ""
    return match.group()


def _strip_templates(text: str) -> str:
    """Remove every outermost ``{{...}}`` except the inline ones :func:`_render_template` reads.

    Braces are matched with a stack; an opener or closer without a partner stays as text (as
    on the wiki) and is dealt with after parsing.
    """
    kept: list[str] = []
    pos = 0
    for start, end in _outermost_pairs(text):
        kept.append(text[pos:start])
        name = _TEMPLATE_NAME_RE.match(text, start + 2)
        if name is not None and _template_key(name.group()) in _INLINE_TEMPLATES:
            kept.append(text[start:end])
        else:
            kept.append(_MARK)
        pos = end
    kept.append(text[pos:])
    return "".join(kept)


def _outermost_pairs(text: str) -> list[tuple[int, int]]:
    """Matched ``{{``/``}}`` pairs not enclosed by another matched pair."""
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    for match in _BRACES_RE.finditer(text):
        if match.group() == "{{":
            stack.append(match.start())
        elif stack:
            pairs.append((stack.pop(), match.end()))
    pairs.sort()
    outermost: list[tuple[int, int]] = []
    for start, end in pairs:
        if outermost and start < outermost[-1][1]:
            continue
        outermost.append((start, end))
    return outermost


def _strip_tables(text: str) -> str:
    """Drop ``{| ... |}`` tables; as on the wiki, both markers must open a line."""
    kept: list[str] = []
    depth = 0
    for line in text.split("\n"):
        marker = line.lstrip()[:2]
        if marker == "{|":
            depth += 1
            kept.append("")  # a table ends the paragraph before it
        elif depth and marker == "|}":
            depth -= 1
        elif not depth:
            kept.append(line)
    return "\n".join(kept)


# ----- rendering the parse tree -------------------------------------------------------------


def _render_article(code: Wikicode) -> str:
    out: list[str] = []
    _render(code, out, top_level=True)
    return "".join(out)


def _render(code: Wikicode, out: list[str], *, top_level: bool = False) -> None:
    """Render nodes in order; at the top level, skip the reference/link sections."""
    nodes = code.nodes
    skip_below: int | None = None
    for node in nodes:
        if top_level and isinstance(node, Heading):
            if skip_below is not None and node.level > skip_below:
                continue
            skip_below = None
            out.append("\n\n")
            if _heading_title(node) in NON_PROSE_SECTIONS:
                skip_below = node.level
            continue
        if skip_below is not None:
            continue
        _render_node(node, out)


def _heading_title(node: Heading) -> str:
    parts: list[str] = []
    _render(node.title, parts)
    title = "".join(parts).replace(_MARK, "")
    return _INLINE_SPACE_RE.sub(" ", title).strip().strip(":.").strip().lower()


def _render_node(node: object, out: list[str]) -> None:
    """Append the visible prose of one node; comments, arguments and headings add nothing."""
    if isinstance(node, Text):
        out.append(node.value)
    elif isinstance(node, Wikilink):
        _render_wikilink(node, out)
    elif isinstance(node, Tag):
        _render_tag(node, out)
    elif isinstance(node, Template):
        _render_template(node, out)
    elif isinstance(node, ExternalLink):
        # [http://x title] shows its title; a bare or numbered link shows nothing worth keeping.
        if node.brackets and node.title is not None:
            _render(node.title, out)
    elif isinstance(node, HTMLEntity):
        out.append(node.normalize())
    elif isinstance(node, Heading):
        out.append("\n\n")


def _render_wikilink(node: Wikilink, out: list[str]) -> None:
    title_parts: list[str] = []
    _render(node.title, title_parts)  # [[OS&nbsp;X]]: entities in titles are rendered too
    target = "".join(title_parts).strip()
    inline = target.startswith(":")  # [[:Category:X]] is a visible link, not a category
    target = target.lstrip(":").strip()
    prefix, colon, rest = target.partition(":")
    if colon and not inline:
        namespace = _WHITESPACE_RE.sub(" ", prefix.replace("_", " ")).strip()
        if namespace.lower() in _NON_PROSE_NAMESPACES or _LANGUAGE_PREFIX_RE.match(namespace):
            return
        if _MEDIA_FILE_RE.search(rest.strip()):  # a file namespace not in the list above
            return
    if node.text is not None:
        parts: list[str] = []
        _render(node.text, parts)
        shown = "".join(parts)
        if shown.strip():
            out.append(shown)
            return
    if colon and prefix.strip().lower() in _NON_PROSE_NAMESPACES:
        target = rest.strip()  # [[:Category:People from X]] reads as "People from X"
    out.append(target)


def _render_tag(node: Tag, out: list[str]) -> None:
    name = str(node.tag).strip().lower()
    if node.wiki_markup and name in {"li", "dt", "dd"}:
        out.append(str(node.wiki_markup))  # a list marker: the whole line is dropped later
        return
    if name in _DROP_TAGS:
        return
    if name in _BREAK_TAGS:
        out.append(" " if name == "br" else "\n\n")
    if node.contents is not None:
        _render(node.contents, out)
    if name in _BREAK_TAGS and name != "br":
        out.append("\n\n")


def _template_key(name: str) -> str:
    return _WHITESPACE_RE.sub(" ", name.replace("_", " ")).strip().lower()


def _render_template(node: Template, out: list[str]) -> None:
    name = _template_key(str(node.name))
    if name in _CONSTANT_TEMPLATES:
        out.append(_CONSTANT_TEMPLATES[name])
        return
    positional = [p for p in node.params if not p.showkey]
    if name in _FIRST_ARG_TEMPLATES and positional:
        _render(positional[0].value, out)
    elif name in _LAST_ARG_TEMPLATES and len(positional) >= 2:
        _render(positional[-1].value, out)
    elif name in _JOINED_ARGS_TEMPLATES and positional:
        out.append(" ".join(str(p.value).strip() for p in positional if str(p.value).strip()))
    elif name in {"convert", "cvt"} and len(positional) >= 2:
        values = [str(p.value).strip() for p in positional]
        if values[1] in _CONVERT_RANGE_WORDS and len(values) >= 4:
            out.append(f"{values[0]} {values[1]} {values[2]} {values[3]}")
        else:
            out.append(f"{values[0]} {values[1]}")


def _paragraphs(rendered: str) -> str:
    """Split rendered text into prose paragraphs; lists, table residue and headings go."""
    rendered = _MAGIC_WORD_RE.sub(lambda m: "" if m.group().isupper() else m.group(), rendered)
    paragraphs: list[str] = []
    current: list[str] = []
    for raw in rendered.split("\n"):
        if "''" in raw:
            raw = _strip_emphasis(raw)
        line = raw.replace(_MARK, "").strip()
        if not line or _LIST_OR_TABLE_LINE_RE.match(line):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        current.append(line)
    if current:
        paragraphs.append(" ".join(current))
    kept = []
    for paragraph in paragraphs:
        text = _tidy(paragraph)
        if text and not _ONLY_PUNCT_RE.match(text):
            kept.append(text)
    return "\n\n".join(kept)


def _tidy(text: str) -> str:
    """Remove markup the parser left as plain text (unbalanced or too deeply nested)."""
    text = _REF_RE.sub("", text)
    text = _HTML_TAG_RE.sub("", text)
    if "{{" in text or "}}" in text:
        text = _drop_nested(text, "{{", "}}")
    if "{|" in text or "|}" in text:
        text = _drop_nested(text, "{|", "|}")
    if "[[" in text or "]]" in text:
        text = _BALANCED_LINK_RE.sub(_link_residue, text)
        text = text.replace("[[", "").replace("]]", "")
    text = _INLINE_SPACE_RE.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT_RE.sub(r"\1", text)
    return text.strip()


def _strip_emphasis(line: str) -> str:
    """Remove one line's bold/italic apostrophes the way MediaWiki's doQuotes reads them.

    A run of 4 is an apostrophe plus bold, 6+ are apostrophes plus bold italics; when bold and
    italic counts are both odd, one bold run is an apostrophe plus italics (``''Eagle'''s``).
    """
    pieces = _QUOTE_SPLIT_RE.split(line)
    italics = bold = 0
    for i in range(1, len(pieces), 2):
        run = len(pieces[i])
        if run == 4 or run > 5:
            pieces[i - 1] += "'" * (run - 3 if run == 4 else run - 5)
            run = 3 if run == 4 else 5
            pieces[i] = "'" * run
        italics += run in (2, 5)
        bold += run in (3, 5)
    if italics % 2 and bold % 2:
        single = multi = space = None
        for i in range(1, len(pieces), 2):
            if len(pieces[i]) != 3:
                continue
            before = pieces[i - 1]
            x1 = before[-1:]
            x2 = before[-2] if len(before) >= 2 else before[:1]
            if x1 == " ":
                space = space if space is not None else i
            elif x2 == " ":
                single = single if single is not None else i
            else:
                multi = multi if multi is not None else i
        chosen = next((i for i in (single, multi, space) if i is not None), None)
        if chosen is not None:
            pieces[chosen - 1] += "'"
    return "".join(pieces[0::2])


def _drop_nested(text: str, opener: str, closer: str) -> str:
    """Remove ``opener ... closer`` spans, nesting-aware (templates or tables left as text).

    An unclosed opener swallows the rest of the paragraph; a stray closer ends a construct
    begun before the paragraph, so everything up to it goes.
    """
    token_re = re.compile(re.escape(opener) + "|" + re.escape(closer))
    kept: list[str] = []
    depth = 0
    pos = 0
    for match in token_re.finditer(text):
        if match.group() == opener:
            if depth == 0:
                kept.append(text[pos : match.start()])
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                pos = match.end()
        else:  # a closer with no opener in this paragraph
            kept = []
            pos = match.end()
    if depth == 0:
        kept.append(text[pos:])
    return "".join(kept)


def _link_residue(match: re.Match[str]) -> str:
    target, label = match.group(1), match.group(2)
    prefix, colon, _ = target.lstrip(":").partition(":")
    if colon and not target.startswith(":"):
        namespace = prefix.strip().lower()
        if namespace in _NON_PROSE_NAMESPACES or _LANGUAGE_PREFIX_RE.match(namespace):
            return ""
    return label if label else target
