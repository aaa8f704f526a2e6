"""Turn one page's wikitext into plain prose paragraphs in article order.

A pre-pass removes what MediaWiki's own preprocessor handles first (comments, ``<ref>`` and
other extension tags, templates, tables); :mod:`mwparserfromhell` parses the rest, and a walk
over its tree keeps plain text and link text and drops files, categories, interlanguage
links, headings, lists and the trailing reference sections. Parenthesised asides and sentence
boundaries are left alone: the cleaning stage owns those. Pure: no files, no network.

mwparserfromhell rather than ``wikiextractor``: wikiextractor cuts a paragraph wherever the
source wraps a line, turns italics into quotation marks, keeps ``:``-indented lines and drops
the text of any link whose title holds a colon (``[[Star Wars: Episode IV|the film]]``).
"""

from __future__ import annotations

import logging
import re

import mwparserfromhell
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

__all__ = ["wikitext_to_text"]

logger = logging.getLogger(__name__)

_WHITESPACE_RE = re.compile(r"\s+")

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
        if namespace in NON_PROSE_NAMESPACES or _LANGUAGE_PREFIX_RE.match(namespace):
            return ""
    return label if label else target
