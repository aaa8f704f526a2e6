"""The pre-pass: what MediaWiki's preprocessor removes before it parses the rest.

Comments, ``<ref>`` and other opaque extension tags, every template but the inline ones
(:mod:`occbio.extract.wikitext_templates`), tables and wholly bold/italic pseudo-heading lines
go before :mod:`mwparserfromhell` sees the text (:func:`occbio.extract.wikitext.wikitext_to_text`
runs it first). Its own module because this is plain string work (regular expressions and a
brace stack), separate from the parse-tree walk. It also owns ``_MARK``, the strip marker the
later passes remove. Pure: no files, no network.
"""

from __future__ import annotations

import re

from occbio.extract.wikitext_templates import (
    BLOCK_RENDERED,
    _template_key,
    hole,
    is_wordless,
    renderer_for,
)

# A line wholly in bold (a bold "Novels:") is a pseudo-heading; one wholly in italics is an
# editorial note ("See also ...") unless it reads as a sentence (a quotation).
_EMPHASIS_LINE_RE = re.compile(
    r"^[ \t\x7f]*('{2,5})((?:(?!'').)+?)\1[ \t\x7f]*([:.]?)[ \t\x7f]*$", re.MULTILINE
)
_SENTENCE_END = tuple(".!?…»\"”“'’。")

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
    text = _OPAQUE_TAG_RE.sub(_opaque_tag, text)
    if "{{" in text:
        text = _strip_templates(text)
    if "{|" in text:
        text = _strip_tables(text)
    if "''" in text:
        text = _EMPHASIS_LINE_RE.sub(_drop_emphasis_line, text)
    return text


#: Opaque tags that stand for words of the sentence (a formula, a chemical formula, a score):
#: inline, they leave a hole, so the sentence they stood in is dropped and counted.
_WORD_TAGS = frozenset({"math", "chem", "ce", "score", "hiero"})


def _opaque_tag(match: re.Match[str]) -> str:
    tag = match.group(1).lower()
    return hole(f"tag:{tag}") if tag in _WORD_TAGS else _MARK


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
    """Keep the templates :mod:`occbio.extract.wikitext_templates` renders; drop the rest.

    A dropped template that carries no words (a footnote, an infobox: several lines, or a
    known wordless name) leaves the strip marker; any other one leaves a hole naming it, so
    that the sentence it stood in is dropped and counted rather than kept with a gap. Braces
    are matched with a stack; an opener or closer without a partner stays as text (as on the
    wiki) and is dealt with after parsing.
    """
    kept: list[str] = []
    pos = 0
    for start, end in _outermost_pairs(text):
        kept.append(text[pos:start])
        name = _TEMPLATE_NAME_RE.match(text, start + 2)
        key = _template_key(name.group()) if name is not None else ""
        multiline = "\n" in text[start:end]
        if key in BLOCK_RENDERED:
            kept.append(text[start:end] + "\n\n")
        elif renderer_for(key) is not None and not multiline:
            kept.append(text[start:end])
        elif multiline or is_wordless(key) or key.startswith("#tag:"):
            kept.append(_MARK)
        else:
            kept.append(hole(key))
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
