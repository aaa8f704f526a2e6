"""Turn one Wikipedia page's HTML (REST/Parsoid, ``action=parse`` or mobile) into prose.

:func:`html_to_text` gives prose paragraphs in article order, separated by a blank line: the
same format as :func:`occbio.extract.wikitext.wikitext_to_text`, so both sources give the same
:class:`~occbio.records.Article` text. Pure: no network.

What it keeps mirrors the dump path: the text of paragraphs (``<p>``, and loose text in
``<blockquote>``/``<center>``), link text included; headings, lists, tables, infoboxes,
navboxes, hatnotes, figures and their captions, references and reference marks, maths,
coordinates, edit links, the table of contents and maintenance boxes go, and so do the trailing
sections that hold references or links (``See also``, ``Referencias``, ``Einzelnachweise``,
...). Parenthesised asides and sentence boundaries are left alone: the cleaning stage owns those.
"""

from __future__ import annotations

import re

import lxml.etree
import lxml.html

from occbio.extract.mediawiki import NON_PROSE_SECTIONS

__all__ = ["PageShapeError", "html_to_text", "shape_problem"]


class PageShapeError(ValueError):
    """HTML that is not an article body we recognise (an error page, JSON, nothing, no prose)."""


#: Elements whose content is never prose (their tail text is).
_DROP_TAGS = frozenset(
    """table ul ol dl figure figcaption figure-inline img audio video source track picture
    style script noscript math svg link meta pre hr input button select textarea form map area
    caption gallery object iframe embed canvas header footer nav aside""".split()
)
#: Classes (lower-cased) that mark non-prose: infoboxes, navigation, hatnotes, references,
#: images, maintenance boxes, coordinates, maths, edit links, hidden and print-only bits.
_DROP_CLASSES = frozenset(
    """infobox sinottico toccolours navbox vertical-navbox navbox-styles navframe
    navhead navcontent sidebar metadata ambox tmbox ombox cmbox fmbox imbox dmbox mbox-small
    sistersitebox side-box portal portalbox hatnote dablink rellink relarticle homonymie
    bandeau bandeau-container bandeau-article bandeau-section article-principal toc toclimit-2
    toclimit-3 toclimit-4 toclimit-5 toclimit-6 thumb thumbinner thumbcaption thumbimage
    gallery gallerybox gallerytext floatright floatleft reflist refbegin references
    mw-references mw-references-wrap reference mw-ref mw-cite-backlink reference-text
    mw-editsection mw-editsection-bracket noprint noexcerpt nomobile error mw-ext-cite-error
    sortkey mw-empty-elt shortdescription searchaux geo coordinates mwe-math-element
    mwe-math-fallback-image-inline mwe-math-fallback-image-display mwe-math-mathml-inline
    ipa haudio audiolink unicode-audio authority-control catlinks printfooter mw-indicators
    mw-jump-link templatequote quotebox rquote cquote pullquote poem mw-highlight
    timeline-wrapper mw-graph mw-ext-score succession-box autonumber free mw-kartographer-map
    mw-kartographer-maplink plainlinks-print navigation-not-searchable""".split()
)
#: Class prefixes (lower-cased) that mark non-prose: ``infobox_v3``, ``box-Unreferenced``,
#: ``geo-dms``, ``pcs-collapse-table-container``, ``mbox-text``, ``navbox-inner``.
_DROP_CLASS_PREFIXES = ("infobox", "navbox", "box-", "mbox", "geo-", "pcs-collapse-table")
_DROP_IDS = frozenset(
    "coordinates toc catlinks sitesub contentsub jump-to-nav mw-navigation footer normdaten "
    "mw-hidden-catlinks pcs-edit-section-add-title-description".split()
)
_DROP_ROLES = frozenset({"note", "navigation"})
#: Parsoid ``typeof`` values of what is not prose: references, maths, images, maps, errors.
_DROP_TYPEOF_RE = re.compile(
    r"mw:Extension/(?:ref|references|math|chem|ce|score|timeline|graph|mapframe|gallery|"
    r"imagemap|templatestyles|syntaxhighlight|poem|indicator|inputbox|categorytree|hiero)\b"
    r"|mw:(?:Image|File|Video|Audio)\b|mw:Error\b"
)
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_HEADING_TAGS = {f"h{n}": n for n in range(1, 7)}
#: Where loose text (outside any <p>) is prose; in a <div> or <section> it is chrome.
_LOOSE_TEXT_TAGS = frozenset({"blockquote", "center"})
#: Elements that end a paragraph when they sit inside a prose block.
_BLOCK_TAGS = frozenset(
    """p div section article main blockquote center h1 h2 h3 h4 h5 h6 table ul ol dl li dd dt
    figure pre hr header footer nav aside body html""".split()
)

#: Strings every kind of article HTML has and error pages, JSON and plain text do not: Parsoid
#: metadata and attributes, the parser's output wrapper, MediaWiki's headline/heading classes,
#: reference marks and infobox/hatnote classes, and wiki links (``/wiki/``, ``./`` Parsoid).
_ARTICLE_MARKER_RE = re.compile(
    r"mw-parser-output|mw:pageId|data-mw|typeof=\"mw:|mw-content-text|mw-headline|mw-heading"
    r"|class=\"[^\"]*\b(?:infobox|hatnote|reference|mw-ref)\b"
    r"|href=\"(?:\./|/wiki/)",
)

_SPACE_RE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT_RE = re.compile(r" +([,.;:!?)\]])")
_SPACE_AFTER_OPEN_RE = re.compile(r"([(\[]) +")
_ONLY_PUNCT_RE = re.compile(r"^[\W_]*$")


def shape_problem(html: str) -> str | None:
    """Why ``html`` cannot be article HTML (cheap, string-level), or ``None``."""
    head = html.lstrip()[:1]
    if not head:
        return "empty body"
    if head in "{[":
        return "a JSON body where HTML was expected"
    if "<" not in html:
        return "no HTML markup"
    if not _ARTICLE_MARKER_RE.search(html):
        return "no MediaWiki article markup (an error page?)"
    return None


def _parse_html(html: str) -> lxml.html.HtmlElement:
    try:
        return lxml.html.document_fromstring(html)
    except ValueError:  # a str with an XML encoding declaration: parse the bytes instead
        return lxml.html.document_fromstring(html.encode("utf-8"))


def _content_root(doc: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    """The element that holds the article: the parser output, else the page body."""
    for path in (
        "//*[contains(concat(' ', normalize-space(@class), ' '), ' mw-parser-output ')]",
        "//*[@id='mw-content-text']",
        "//*[@id='bodyContent']",
        "//*[@id='content']",
        "//body",
    ):
        found = doc.xpath(path)
        if found:
            return found[0]
    return doc


def _classes(el: lxml.html.HtmlElement) -> list[str]:
    value = el.get("class")
    return value.lower().split() if value else []


def _is_dropped(el: lxml.html.HtmlElement, tag: str) -> bool:
    """Whether an element holds no prose at all (its tail still may)."""
    if tag in _DROP_TAGS:
        return True
    for cls in _classes(el):
        if cls in _DROP_CLASSES or cls.startswith(_DROP_CLASS_PREFIXES):
            return True
    attrs = el.attrib
    if "id" in attrs and attrs["id"].lower() in _DROP_IDS:
        return True
    if attrs.get("role") in _DROP_ROLES:
        return True
    typeof = attrs.get("typeof")
    if typeof and _DROP_TYPEOF_RE.search(typeof):
        return True
    style = attrs.get("style")
    return bool(style and _HIDDEN_STYLE_RE.search(style))


def _tag(el: object) -> str:
    """Lower-cased tag name; ``""`` for comments and processing instructions."""
    tag = getattr(el, "tag", None)
    return tag.lower() if isinstance(tag, str) else ""


def _tidy(text: str) -> str:
    text = _SPACE_RE.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT_RE.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN_RE.sub(r"\1", text)
    return text.strip()


class _Extractor:
    """Walks the content in document order, keeping paragraphs outside the dropped sections."""

    def __init__(self) -> None:
        self.paragraphs: list[str] = []
        self.skip_below: int | None = None  # heading level of the section being dropped

    # -- blocks ---------------------------------------------------------------------------

    def block(self, el: lxml.html.HtmlElement) -> None:
        """Visit a block-level container: headings, paragraphs, nested containers."""
        keep_loose = _tag(el) in _LOOSE_TEXT_TAGS
        run: list[str] = [el.text or ""] if keep_loose else []
        for child in el:
            tag = _tag(child)
            if not tag:
                if keep_loose:
                    run.append(child.tail or "")
                continue
            if keep_loose and tag not in _BLOCK_TAGS:
                if not _is_dropped(child, tag):
                    self.inline(child, run)
                run.append(child.tail or "")
                continue
            if keep_loose:
                self.emit("".join(run))
                run = []
            self.child_block(child, tag)
            if keep_loose:
                run.append(child.tail or "")
        if keep_loose:
            self.emit("".join(run))

    def child_block(self, el: lxml.html.HtmlElement, tag: str) -> None:
        level = _HEADING_TAGS.get(tag)
        if level is not None:
            self.heading(el, level)
        elif _is_dropped(el, tag):
            return
        elif tag == "p":
            if self.skip_below is None:
                out: list[str] = []
                self.inline_children(el, out)
                self.emit("".join(out))
        else:
            self.block(el)

    def heading(self, el: lxml.html.HtmlElement, level: int) -> None:
        if self.skip_below is not None and level > self.skip_below:
            return  # a subsection of a dropped section
        self.skip_below = None
        parts: list[str] = []
        self.inline_children(el, parts)
        title = _SPACE_RE.sub(" ", "".join(parts)).strip().strip(":.").strip().lower()
        if title in NON_PROSE_SECTIONS:
            self.skip_below = level

    def emit(self, raw: str) -> None:
        if self.skip_below is not None:
            return
        text = _tidy(raw)
        if text and not _ONLY_PUNCT_RE.match(text):
            self.paragraphs.append(text)

    # -- inline ---------------------------------------------------------------------------

    def inline(self, el: lxml.html.HtmlElement, out: list[str]) -> None:
        """Append the visible text of an inline element (not its tail)."""
        tag = _tag(el)
        if tag == "br":
            out.append(" ")
            return
        self.inline_children(el, out)

    def inline_children(self, el: lxml.html.HtmlElement, out: list[str]) -> None:
        out.append(el.text or "")
        for child in el:
            tag = _tag(child)
            if tag and not _is_dropped(child, tag):
                self.inline(child, out)
            out.append(child.tail or "")


def html_to_text(html: str) -> str:
    """Prose paragraphs of an article's HTML in article order, separated by a blank line.

    Takes Parsoid HTML (REST ``page/html``, with or without ``<section>``s), ``action=parse``
    HTML (with or without its ``mw-parser-output`` wrapper) and mobile HTML. Raises
    :class:`PageShapeError` when there is no article to read: an empty body, JSON, an error
    page, or article HTML without a single prose paragraph (only an infobox, say).
    """
    problem = shape_problem(html)
    if problem is not None:
        raise PageShapeError(f"not an article body: {problem}")
    try:
        doc = _parse_html(html)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise PageShapeError(f"not an article body: unreadable HTML ({exc})") from None
    extractor = _Extractor()
    try:
        extractor.block(_content_root(doc))
    except RecursionError:
        raise PageShapeError("not an article body: markup nested too deeply") from None
    if not extractor.paragraphs:
        raise PageShapeError("not an article body: no prose paragraphs (only boxes or lists?)")
    return "\n\n".join(extractor.paragraphs)
