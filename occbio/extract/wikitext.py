"""Turn one page's wikitext into plain prose paragraphs in article order.

A pre-pass removes what MediaWiki's own preprocessor handles first (comments, ``<ref>`` and
other extension tags, templates, tables); :mod:`mwparserfromhell` parses the rest, and a walk
over its tree keeps plain text and link text and drops files, categories, interlanguage
links, headings, lists and the trailing reference sections. Parenthesised asides and sentence
boundaries are left alone: the cleaning stage owns those. Pure: no files, no network.

This module holds the entry point, :func:`wikitext_to_text`, which chains the passes and falls
back when one fails; each pass has a module of its own: :mod:`occbio.extract.wikitext_prepass`
(before parsing), :mod:`occbio.extract.wikitext_render` (the parse-tree walk, with the inline
templates of :mod:`occbio.extract.wikitext_templates`) and
:mod:`occbio.extract.wikitext_paragraphs` (paragraphs and the final tidy-up).

mwparserfromhell rather than ``wikiextractor``: wikiextractor cuts a paragraph wherever the
source wraps a line, turns italics into quotation marks, keeps ``:``-indented lines and drops
the text of any link whose title holds a colon (``[[Star Wars: Episode IV|the film]]``).
"""

from __future__ import annotations

import datetime as dt
import logging

import mwparserfromhell

from occbio.extract.wikitext_paragraphs import _drop_nested, _paragraphs
from occbio.extract.wikitext_prepass import _strip_non_prose_blocks
from occbio.extract.wikitext_render import _render_article
from occbio.extract.wikitext_templates import strip_holes

__all__ = ["wikitext_to_text"]

logger = logging.getLogger(__name__)


def wikitext_to_text(
    wikitext: str,
    lang: str = "en",
    *,
    today: dt.date | None = None,
    keep_holes: bool = False,
) -> str:
    """Plain prose paragraphs of an article in article order, separated by a blank line.

    Templates that carry words are rendered the way the ``lang`` Wikipedia writes them (an age
    "until today" counts to ``today``, the revision's date). Where a template that carries
    words could not be rendered, the text holds a hole marker naming it
    (:data:`~occbio.extract.wikitext_templates.HOLE_RE`) when ``keep_holes`` is true, so that
    the cleaning stage drops that sentence and counts it; otherwise holes are removed.
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
        code = mwparserfromhell.parse(stripped, skip_style_tags=True)
        rendered = _render_article(code, lang, today)
    except Exception:
        logger.warning("wikitext parser failed; falling back to regex stripping", exc_info=True)
        rendered = _drop_nested(stripped, "{{", "}}")
    try:
        text = _paragraphs(rendered)
    except Exception:
        logger.warning("wikitext clean-up failed; returning no text", exc_info=True)
        return ""
    return text if keep_holes else strip_holes(text)
