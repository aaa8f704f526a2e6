"""Rendering the parse tree: the visible prose of :mod:`mwparserfromhell`'s nodes, in order.

The walk keeps plain text, link text and the words of inline templates, and drops files,
categories, interlanguage links, list and table tags, and the trailing reference sections
(:data:`~occbio.extract.mediawiki.NON_PROSE_SECTIONS`). It is the second pass of
:func:`occbio.extract.wikitext.wikitext_to_text`, between the string pre-pass
(:mod:`occbio.extract.wikitext_prepass`) and the paragraph clean-up
(:mod:`occbio.extract.wikitext_paragraphs`). Pure: no files, no network.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import re

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

from occbio.extract.mediawiki import NON_PROSE_NAMESPACES, NON_PROSE_SECTIONS
from occbio.extract.wikitext_prepass import _MARK
from occbio.extract.wikitext_templates import (
    _WHITESPACE_RE,
    BLOCK_RENDERED,
    _template_key,
    hole,
    is_wordless,
    make_call,
    render_call,
    renderer_for,
)

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
_INLINE_SPACE_RE = re.compile(r"[^\S\n]+")


# ----- rendering the parse tree -------------------------------------------------------------


#: The wiki being rendered and the date an age "until today" counts to (the revision's date).
_WIKI: contextvars.ContextVar[tuple[str, dt.date | None]] = contextvars.ContextVar(
    "occbio_wiki", default=("en", None)
)


def _render_article(code: Wikicode, lang: str = "en", today: dt.date | None = None) -> str:
    token = _WIKI.set((lang, today))
    try:
        out: list[str] = []
        _render(code, out, top_level=True)
        return "".join(out)
    finally:
        _WIKI.reset(token)


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
        if namespace.lower() in NON_PROSE_NAMESPACES or _LANGUAGE_PREFIX_RE.match(namespace):
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
    if colon and prefix.strip().lower() in NON_PROSE_NAMESPACES:
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


def _render_template(node: Template, out: list[str]) -> None:
    """The words a template shows, by :mod:`occbio.extract.wikitext_templates`; a hole for one
    that carries words this module cannot render (or whose arguments are not as documented)."""
    key = _template_key(str(node.name))
    if renderer_for(key) is None and is_wordless(key):
        return
    lang, today = _WIKI.get()
    params = []
    raw_positional = []
    for param in node.params:
        parts: list[str] = []
        _render(param.value, parts)
        value = _INLINE_SPACE_RE.sub(" ", "".join(parts).replace(_MARK, "")).strip()
        params.append((str(param.name) if param.showkey else None, value))
        if not param.showkey:
            raw_positional.append(value)
    if ":" in key and not raw_positional:  # {{formatnum:12000}}, {{lc:Word}}: case kept
        raw_positional = [str(node.name).partition(":")[2]]
    call = make_call(key, params, lang=lang, today=today, raw_positional=raw_positional)
    text = render_call(call)
    if text is None:
        out.append(hole(key.partition(":")[0] + ":" if ":" in key else key))
        return
    out.append(text)
    if key in BLOCK_RENDERED:
        out.append("\n\n")
