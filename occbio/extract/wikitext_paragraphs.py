"""From rendered text to prose paragraphs: the last pass of the wikitext extraction.

:func:`_paragraphs` splits the rendered parse tree into paragraphs, drops list, table and
heading lines, strips bold/italic apostrophes the way MediaWiki reads them, and tidies the
markup the parser left as plain text (unbalanced or too deeply nested templates, tables and
links). :func:`occbio.extract.wikitext.wikitext_to_text` runs it last, and falls back on
:func:`_drop_nested` when the parser fails. Pure: no files, no network.
"""

from __future__ import annotations

import re

from occbio.extract.mediawiki import NON_PROSE_NAMESPACES
from occbio.extract.wikitext_prepass import _MARK
from occbio.extract.wikitext_render import _INLINE_SPACE_RE, _LANGUAGE_PREFIX_RE
from occbio.extract.wikitext_templates import strip_holes

_MAGIC_WORD_RE = re.compile(r"__[^\W_]+(?:_[^\W_]+)*__")
_QUOTE_SPLIT_RE = re.compile(r"('{2,})")
_LIST_OR_TABLE_LINE_RE = re.compile(r"^(?:[*#:;]|\{\||\|\}|\||!|=.*=$|-{4,})")
_REF_RE = re.compile(r"<ref[^>]*/>|<ref[^>]*>.*?</ref\s*>|<ref[^>]*>.*$", re.IGNORECASE)
_HTML_TAG_RE = re.compile(r"</?[a-zA-Z][^<>]*>")
_BALANCED_LINK_RE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_SPACE_BEFORE_PUNCT_RE = re.compile(r" +([,.;:!?)\]])")
_ONLY_PUNCT_RE = re.compile(r"^[\W_]*$")


def _paragraphs(rendered: str) -> str:
    """Split rendered text into prose paragraphs; lists, table residue and headings go."""
    rendered = _MAGIC_WORD_RE.sub(lambda m: "" if m.group().isupper() else m.group(), rendered)
    paragraphs: list[str] = []
    current: list[str] = []
    for raw in rendered.split("\n"):
        if "''" in raw:
            raw = _strip_emphasis(raw)
        line = raw.replace(_MARK, "").strip()
        if not strip_holes(line).strip() or _LIST_OR_TABLE_LINE_RE.match(strip_holes(line)):
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
        if strip_holes(text).strip() and not _ONLY_PUNCT_RE.match(strip_holes(text)):
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
