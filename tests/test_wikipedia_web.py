"""The web source: HTML to prose on real Wikipedia pages, and the client against a fake Wikipedia.

The client tests talk HTTP over real loopback sockets to :mod:`tests.wiki_server`; nothing in
requests or urllib3 is patched. Retry pauses go through an injected ``sleep`` that records
them, so the waits are checked without waiting.
"""

from __future__ import annotations

import difflib
import itertools
import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from occbio.config import CleanConfig
from occbio.extract.clean import clean_article
from occbio.extract.html_text import PageShapeError, html_to_text
from occbio.extract.wikipedia_web import (
    CategoryError,
    FetchResult,
    SiteUnreachable,
    WikipediaWebClient,
    default_base_url,
    parse_url,
    rest_url,
)
from occbio.extract.wikitext import wikitext_to_text
from occbio.net import SiteBusy
from occbio.records import Article
from tests.wiki_server import FakeWiki, Raw, serve_wiki

HTML_DIR = "wikipedia-html"
UA = "occbio-tests/0.1 (https://github.com/occbio/occbio; tests@example.org)"


# ---------------------------------------------------------------------------------------------
# helpers


def sentences(text: str, lang: str = "en") -> list[str]:
    article = Article(qid="Q42", lang=lang, title="T", page_id=1, text=text)
    return [s.text for s in clean_article(article, config=CleanConfig())]


def page_text(html: str) -> str:
    """All visible text of a page, whitespace-normalised (to prove a needle is really there)."""
    return re.sub(r"\s+", " ", BeautifulSoup(html, "lxml").get_text(""))


def in_order(needles: list[str], haystack: list[str]) -> bool:
    """Whether every needle is one of the haystack's items, in the needles' order."""
    positions = [haystack.index(n) for n in needles if n in haystack]
    return len(positions) == len(needles) and positions == sorted(positions)


@pytest.fixture(scope="module")
def html_dir(shared_data: Path) -> Path:
    path = shared_data / HTML_DIR
    if not path.is_dir():
        pytest.skip(f"{path} is absent")
    return path


@pytest.fixture(scope="module")
def rest_html(html_dir: Path) -> str:
    return (html_dir / "rest_html.response.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def parse_json(html_dir: Path) -> dict[str, object]:
    data = json.loads((html_dir / "parse.response.json").read_text(encoding="utf-8"))
    return data["parse"]


# ---------------------------------------------------------------------------------------------
# html_to_text on real pages


def test_rest_douglas_adams_keeps_the_prose_in_order(rest_html: str) -> None:
    text = html_to_text(rest_html)
    assert "\n\n\n" not in text and text == text.strip()
    got = sentences(text)
    expected = [
        "Douglas Noel Adams was an English author, scriptwriter, essayist, humorist, satirist "
        "and dramatist.",
        "Adams's contribution to UK radio is commemorated in The Radio Academy's Hall of Fame.",
        "Adams attended Primrose Hill Primary School in Brentwood.",
        "Adams had two brief appearances in the fourth series of Monty Python's Flying Circus.",
        'Adams described himself as a "radical atheist", adding "radical" for emphasis so he '
        "would not be asked if he meant agnostic.",
        "Adams died of a heart attack on 11 May 2001, aged 49, after resting from his regular "
        "workout at a private gym in Montecito, California.",
        "On 11 March 2013, Adams's 61st birthday was celebrated with an interactive Google Doodle.",
    ]
    assert in_order(expected, got), [e for e in expected if e not in got]
    # The last prose paragraph is the last thing kept: awards table, works list, notes,
    # references, further reading, external links and navboxes are all gone.
    assert got[-1] == expected[-1]
    assert len(got) > 150


@pytest.mark.parametrize(
    "needle",
    [
        "Resting place",  # infobox field
        "1952-03-11",  # infobox hidden date
        "Cambridge, EnglandDied",  # infobox values run together
        "in full surgeon's garb",  # image caption
        "Towel Day 2005 in Innsbruck",  # image caption
        "Adams's gravestone",  # image caption
        "For other people named Douglas Adams",  # hatnote
        "Warning: Page using Template",  # error hatnote
        "Is there an Artificial God",  # "References" section
        '"The Radio Academy Hall of Fame". The Radio Academy',  # "Notes" (reference list)
        "The Private Life of Genghis Khan",  # "Works" list
        "Hugo Award",  # awards table
        "Library resources about",  # "External links" box
        "Listen to this article",  # spoken Wikipedia box
        "Works by Douglas Adams",  # navbox
        "Authority control",  # navbox
        "Preceded by",  # succession box
    ],
)
def test_rest_douglas_adams_drops_non_prose(rest_html: str, needle: str) -> None:
    assert needle in page_text(rest_html)  # the needle is really on the page ...
    assert needle not in html_to_text(rest_html)  # ... and not in the prose


def test_rest_douglas_adams_has_no_reference_marks(rest_html: str) -> None:
    assert re.search(r"\[\d+\]", page_text(rest_html))
    text = html_to_text(rest_html)
    assert not re.search(r"\[\d+\]|\[citation needed\]|↑|\bedit\]", text)
    assert "Upper Street, Islington, in 1981 and" in text  # a "[45]" sat before " and"


def test_parse_html_matches_the_dump_text_of_the_same_revision(
    parse_json: dict[str, object],
) -> None:
    """action=parse HTML and its own wikitext through the dump path give the same sentences."""
    assert isinstance(parse_json["text"], str) and isinstance(parse_json["wikitext"], str)
    web = sentences(html_to_text(parse_json["text"]))
    dump = sentences(wikitext_to_text(parse_json["wikitext"]))
    found = sum(s in set(web) for s in dump) / len(dump)
    extra = sum(s not in set(dump) for s in web) / len(web)
    # Measured on this page: 212 of 212 dump sentences found, none extra.
    assert found >= 0.95, f"only {found:.1%} of the dump's sentences in the web text"
    assert extra <= 0.05, f"{extra:.1%} of the web sentences are not in the dump text"
    assert in_order([s for s in dump if s in web][:50], web)


def test_rest_and_parse_give_nearly_the_same_sentences(
    rest_html: str, parse_json: dict[str, object]
) -> None:
    """The two fixtures are different revisions (2017 REST, later parse): most sentences are
    identical, nearly all of the rest are edits of one another, in the same order."""
    assert isinstance(parse_json["text"], str)
    rest = sentences(html_to_text(rest_html))
    parse = sentences(html_to_text(parse_json["text"]))
    exact = [s for s in rest if s in parse]
    assert len(exact) / len(rest) >= 0.75  # measured 149/184 = 81 %
    close = sum(
        1 for s in rest if difflib.get_close_matches(s, parse, n=1, cutoff=0.8) or s in parse
    )
    assert close / len(rest) >= 0.9  # measured 95 %
    positions = [parse.index(s) for s in exact]
    ordered = sum(a < b for a, b in itertools.pairwise(positions))
    assert ordered / (len(positions) - 1) >= 0.95


def test_obama_lead_paragraphs_kept_hatnote_infobox_ipa_dropped(html_dir: Path) -> None:
    html = (html_dir / "FirstParagraphRelocation-Obama.html").read_text(encoding="utf-8")
    text = html_to_text(html)
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == 4
    assert paragraphs[0].startswith("Barack Hussein Obama II (")
    assert paragraphs[1].startswith("Obama was born in 1961 in Honolulu, Hawaii")
    assert paragraphs[3].startswith("After winning re-election by defeating Republican")
    got = sentences(text)
    assert got[0] == (
        "Barack Hussein Obama II is an American politician who served as the 44th President "
        "of the United States from 2009 to 2017."
    )
    for needle in ["redirect here", "Preceded by", "In office", "Malia", "listen", "[1]", "ɑː"]:
        assert needle in page_text(html)
        assert needle not in text, needle


def test_ray_charles_mobile_html(html_dir: Path) -> None:
    html = (html_dir / "Ray_Charles.html").read_text(encoding="utf-8")
    text = html_to_text(html)
    got = sentences(text)
    assert got[0] == (
        "Ray Charles Robinson was an American singer, songwriter, pianist, and composer."
    )
    assert in_order(
        [
            'He was often referred to as "The Genius."',
            "Charles is a 17-time Grammy Award winner.",
            "He became friends with Quincy Jones.",
        ],
        got,
    )
    assert len(text.split("\n\n")) == 6
    # Page title heading, infobox, and the mirror's licence footer are not prose.
    for needle in ["Background information", "Swing Time", "This article is issued from"]:
        assert needle in page_text(html)
        assert needle not in text, needle
    assert not text.startswith("Ray Charles\n")


def test_hank_crawford_one_lead_paragraph(html_dir: Path) -> None:
    html = (html_dir / "Hank_Crawford.html").read_text(encoding="utf-8")
    text = html_to_text(html)
    assert "\n\n" not in text
    assert text.startswith('Bennie Ross "Hank" Crawford, Jr. (December 21, 1934')
    assert text.endswith("releasing many well-regarded albums on Atlantic, CTI and Milestone.")
    assert "Memphis, Tennessee" not in text and "Richie Cole" not in text


def test_mobile_michael_lewis_is_only_an_infobox(html_dir: Path) -> None:
    html = (html_dir / "Mobile_Michael_Lewis_Infobox.html").read_text(encoding="utf-8")
    with pytest.raises(PageShapeError, match="no prose"):
        html_to_text(html)
    # The same page with a lead paragraph gives only the paragraph.
    lead = "<p>Michael Lewis is a former American football wide receiver.</p>"
    text = html_to_text(html.replace("</table>\n</div>", f"</table>\n{lead}</div>"))
    assert text == "Michael Lewis is a former American football wide receiver."


@pytest.mark.parametrize(
    "name", ["rest_summary.response.json", "query.response.json", "redirect.response.json"]
)
def test_json_bodies_are_not_article_html(html_dir: Path, name: str) -> None:
    with pytest.raises(PageShapeError, match="JSON"):
        html_to_text((html_dir / name).read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# html_to_text on the shapes we write ourselves

PARSOID_WITH_SECTIONS = """<!DOCTYPE html>
<html prefix="dc: http://purl.org/dc/terms/ mw: http://mediawiki.org/rdf/"><head>
<meta property="mw:pageId" content="7"/><link rel="dc:isVersionOf" href="//en.wikipedia.org/wiki/Ada_Lovelace"/>
<style>p { color: red }</style><script>var x = "script text";</script></head>
<body class="mw-content-ltr sitedir-ltr ltr mw-body-content parsoid-body mediawiki mw-parser-output">
<section data-mw-section-id="0" id="mwAQ">
<div class="shortdescription nomobile noexcerpt noprint searchaux" style="display:none">English mathematician (1815-1852)</div>
<div role="note" class="hatnote navigation-not-searchable">For the play, see Ada (play).</div>
<table class="infobox vcard"><tbody><tr><th>Born</th><td>10 December 1815</td></tr></tbody></table>
<p><b>Ada Lovelace</b> (10 December 1815<sup about="#mwt5" class="mw-ref reference" typeof="mw:Extension/ref" id="cite_ref-1"><a href="./Ada#cite_note-1"><span class="mw-reflink-text">[1]</span></a></sup>) was an English <a rel="mw:WikiLink" href="./Mathematician">mathematician</a>.</p>
<figure typeof="mw:File/Thumb"><a href="./File:Ada.jpg"><img src="ada.jpg"/></a><figcaption>Portrait by Alfred Chalon</figcaption></figure>
<p>She worked on the <a href="./Analytical_Engine">Analytical Engine</a>.<sup class="noprint Inline-Template Template-Fact"><i>[citation needed]</i></sup></p>
</section>
<section data-mw-section-id="1"><div class="mw-heading mw-heading2"><h2 id="Life">Life</h2></div>
<p>She lived in London<span class="geo-inline"><span class="geo-dms">51°30′N 0°7′W</span></span> with her mother.<br/>Her father was <a href="./Lord_Byron">Lord Byron</a>.</p>
<p>Her formula <span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display: none"><math><mi>x</mi></math></span><img alt="x^2" class="mwe-math-fallback-image-inline"/></span> was short.</p>
<ul><li>A list item is not prose.</li></ul>
<dl><dd>An indented line is not prose.</dd></dl>
<ul class="gallery mw-gallery-traditional"><li class="gallerybox"><div class="gallerytext">Gallery caption text.</div></li></ul>
<blockquote><p>A quoted paragraph stays.</p></blockquote>
<blockquote>Loose quoted text stays too.</blockquote>
<div>Loose text in a plain div is page chrome.</div>
<section data-mw-section-id="2"><div class="mw-heading mw-heading3"><h3 id="Work">Work</h3></div>
<p>Her notes were published in 1843.</p></section>
</section>
<section data-mw-section-id="3"><div class="mw-heading mw-heading2"><h2 id="See_also">See also</h2></div>
<p>Prose under See also goes.</p>
<section data-mw-section-id="4"><div class="mw-heading mw-heading3"><h3 id="Sub">Sub</h3></div>
<p>A subsection of See also goes too.</p></section>
</section>
<section data-mw-section-id="5"><div class="mw-heading mw-heading2"><h2 id="Legacy">Legacy</h2></div>
<p>Legacy prose after a dropped section stays.</p>
<div role="navigation" class="navbox"><table><tr><td>Navbox text</td></tr></table></div>
</section>
<section data-mw-section-id="6"><div class="mw-heading mw-heading2"><h2 id="References">References</h2></div>
<div class="mw-references-wrap"><ol class="mw-references references"><li>Reference text.</li></ol></div>
<p>Text after the reference list goes.</p>
</section>
</body></html>
"""  # noqa: E501


def test_parsoid_sections_and_dropped_elements() -> None:
    text = html_to_text(PARSOID_WITH_SECTIONS)
    assert text.split("\n\n") == [
        "Ada Lovelace (10 December 1815) was an English mathematician.",
        "She worked on the Analytical Engine.",
        "She lived in London with her mother. Her father was Lord Byron.",
        "Her formula was short.",
        "A quoted paragraph stays.",
        "Loose quoted text stays too.",
        "Her notes were published in 1843.",
        "Legacy prose after a dropped section stays.",
    ]


def test_action_parse_html_headings_and_edit_links() -> None:
    html = """<div class="mw-content-ltr mw-parser-output" lang="en" dir="ltr">
    <p>Lead paragraph is kept.</p>
    <div class="mw-heading mw-heading2"><h2 id="Career">Career</h2><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?action=edit">edit</a><span class="mw-editsection-bracket">]</span></span></div>
    <p>Career prose is kept, with an <a class="external text" href="http://x.org">external link</a> and a numbered one<a class="external autonumber" href="http://y.org">[1]</a>.</p>
    <div class="thumb tright"><div class="thumbinner"><a class="image" href="/wiki/File:X.jpg"><img src="x.jpg"/></a><div class="thumbcaption">A thumbnail caption.</div></div></div>
    <h2><span class="mw-headline" id="Notes">Notes</span><span class="mw-editsection">[<a href="/w/index.php?action=edit">edit</a>]</span></h2>
    <p>Notes prose goes.</p>
    <h2><span class="mw-headline" id="Later_life">Later life</span></h2>
    <p>Later prose is kept.</p>
    <div id="toc" class="toc"><p>Contents</p></div>
    </div>"""  # noqa: E501
    assert html_to_text(html).split("\n\n") == [
        "Lead paragraph is kept.",
        "Career prose is kept, with an external link and a numbered one.",
        "Later prose is kept.",
    ]


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("en", "See also"),
        ("en", "References"),
        ("en", "Notes"),
        ("en", "Further reading"),
        ("en", "External links"),
        ("en", "Bibliography"),
        ("en", "Works"),
        ("es", "Véase también"),
        ("es", "Referencias"),
        ("es", "Enlaces externos"),
        ("ca", "Vegeu també"),
        ("ca", "Referències"),
        ("ca", "Enllaços externs"),
        ("fr", "Voir aussi"),
        ("fr", "Notes et références"),
        ("fr", "Liens externes"),
        ("de", "Siehe auch"),
        ("de", "Einzelnachweise"),
        ("de", "Weblinks"),
        ("it", "Voci correlate"),
        ("it", "Collegamenti esterni"),
        ("pt", "Ver também"),
        ("pt", "Referências"),
        ("pt", "Ligações externas"),
    ],
)
def test_reference_and_link_sections_dropped_in_each_language(lang: str, heading: str) -> None:
    html = (
        f'<div class="mw-parser-output" lang="{lang}"><p>Body text stays here.</p>'
        f"<h2>{heading}:</h2><p>Section text goes.</p><h3>Sub</h3><p>Sub text goes.</p></div>"
    )
    assert html_to_text(html) == "Body text stays here."


def test_mobile_html_header_is_not_prose() -> None:
    html = """<html><body><div id="pcs" class="mw-parser-output">
    <header><h1 class="pcs-edit-section-title">Ada Lovelace</h1>
    <p id="pcs-edit-section-title-description">English mathematician</p></header>
    <section data-mw-section-id="0"><div class="pcs-collapse-table-container">
    <div class="pcs-collapse-table-collapsed-container"><strong>Quick facts</strong></div>
    <table class="infobox"><tr><td>Born 1815</td></tr></table></div>
    <p>Ada Lovelace was an English mathematician.</p></section></div></body></html>"""
    assert html_to_text(html) == "Ada Lovelace was an English mathematician."


WIKIMEDIA_ERROR_PAGE = """<!DOCTYPE html>
<html lang="en"><meta charset="utf-8"><title>Wikimedia Error</title>
<div class="content" role="main"><a href="https://www.wikimedia.org"><img src="logo.png" alt="Wikimedia"></a>
<h1>Error</h1>
<p>Our servers are currently under maintenance or experiencing a technical problem. Please try again in a few&nbsp;minutes.</p>
</div><div class="footer"><p>If you report this error to the Wikimedia System Administrators, please include the details below.</p></div>
</html>"""  # noqa: E501


@pytest.mark.parametrize(
    ("html", "why"),
    [
        ("", "empty"),
        ("   \n", "empty"),
        ('{"type": "https://mediawiki.org/wiki/HyperSwitch/errors/not_found"}', "JSON"),
        ("[1, 2]", "JSON"),
        ("Just some words, no markup at all.", "no HTML"),
        (WIKIMEDIA_ERROR_PAGE, "error page"),
        ("<html><body><p>A paragraph on some other site.</p></body></html>", "error page"),
        (
            '<div class="mw-parser-output"><table class="infobox"><tr><th>Born</th>'
            "<td>1815</td></tr></table></div>",
            "no prose",
        ),
        ('<div class="mw-parser-output"><ul><li>Only a list.</li></ul></div>', "no prose"),
    ],
)
def test_page_shape_errors(html: str, why: str) -> None:
    with pytest.raises(PageShapeError, match=why):
        html_to_text(html)


def test_xml_declaration_and_entities() -> None:
    html = (
        '<?xml version="1.0" encoding="utf-8"?><div class="mw-parser-output">'
        "<p>Caf&eacute; owner&nbsp;and <i>poet</i> &amp; painter.</p></div>"
    )
    assert html_to_text(html) == "Café owner and poet & painter."


# ---------------------------------------------------------------------------------------------
# URLs


def test_urls() -> None:
    assert default_base_url("en") == "https://en.wikipedia.org"
    assert default_base_url("zh-yue") == "https://zh-yue.wikipedia.org"
    with pytest.raises(ValueError):
        default_base_url("en.evil.com/")
    assert (
        rest_url("https://en.wikipedia.org/", "AC/DC (band) & co?")
        == "https://en.wikipedia.org/api/rest_v1/page/html/AC%2FDC_%28band%29_%26_co%3F"
        "?redirect=true"
    )
    assert rest_url("http://x", "Émile Zola").endswith("/html/%C3%89mile_Zola?redirect=true")
    assert parse_url("https://fr.wikipedia.org", "Émile Zola") == (
        "https://fr.wikipedia.org/w/api.php?action=parse&page=%C3%89mile%20Zola"
        "&prop=text%7Crevid&redirects=1&format=json&formatversion=2&disableeditsection=1"
        "&disabletoc=1"
    )
    # one revision: REST's /page/html/TITLE/REVID, action=parse's oldid (no redirect to follow)
    assert rest_url("http://x", "AC/DC", 42) == "http://x/api/rest_v1/page/html/AC%2FDC/42"
    assert parse_url("http://x", "AC/DC", 42) == (
        "http://x/w/api.php?action=parse&oldid=42&prop=text%7Crevid&format=json"
        "&formatversion=2&disableeditsection=1&disabletoc=1"
    )


# ---------------------------------------------------------------------------------------------
# the client against the fake Wikipedia

LEAD = "<p>{name} was a person of some note.</p>"
PAGES: dict[tuple[str, str], str | Raw] = {
    ("en", "Ada Lovelace"): LEAD.format(name="Ada Lovelace"),
    ("en", "AC/DC"): LEAD.format(name="AC/DC"),
    ("fr", "Ada Lovelace"): "<p>Ada Lovelace était une mathématicienne.</p>",
    ("en", "Infobox Only"): '<table class="infobox"><tr><th>Born</th><td>1900</td></tr></table>',
    ("en", "Error Page"): Raw(WIKIMEDIA_ERROR_PAGE),
    ("en", "Json Page"): Raw('{"batchcomplete": true}', content_type="application/json"),
    ("en", "Empty Page"): Raw(""),
}
REDIRECTS = {("en", "Lovelace"): "Ada Lovelace"}


@pytest.fixture
def wiki() -> Iterator[FakeWiki]:
    with serve_wiki(PAGES, redirects=REDIRECTS) as server:
        yield server


class Waits(list[float]):
    """An injected ``sleep``: records the pauses instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make_client(wiki: FakeWiki, **kwargs: object) -> WikipediaWebClient:
    options: dict[str, object] = {
        "user_agent": UA,
        "base_urls": wiki.base_urls,
        "rate": 0,
        "retries": 2,
        "backoff": 1.0,
        "timeout": 5.0,
        "sleep": Waits(),
    }
    options.update(kwargs)
    return WikipediaWebClient(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize("api", ["rest", "parse"])
def test_fetch_ok_redirect_and_missing(wiki: FakeWiki, api: str) -> None:
    with make_client(wiki, api=api) as client:
        ok = client.fetch("en", "Ada Lovelace")
        assert (ok.status, ok.final_title, ok.page_id, ok.from_cache) == (
            "ok",
            "Ada Lovelace",
            wiki.page_ids[("en", "Ada Lovelace")],
            False,
        )
        assert html_to_text(ok.html) == "Ada Lovelace was a person of some note."
        slash = client.fetch("en", "AC/DC")
        assert (slash.status, slash.final_title) == ("ok", "AC/DC")

        moved = client.fetch("en", "Lovelace")
        assert (moved.title, moved.status, moved.final_title) == ("Lovelace", "ok", "Ada Lovelace")
        assert moved.page_id == ok.page_id

        gone = client.fetch("en", "Nobody Atall")
        assert gone == FetchResult(
            "en", "Nobody Atall", "missing", detail=gone.detail, from_cache=False
        )
        expected = "Page or revision not found" if api == "rest" else "missingtitle"
        assert expected in gone.detail

        fr = client.fetch("fr", "Ada Lovelace")
        assert html_to_text(fr.html) == "Ada Lovelace était une mathématicienne."
        assert client.stats["status_ok"] == 4 and client.stats["status_missing"] == 1

    logged = wiki.requests(api=api)
    assert {r.lang for r in logged} == {"en", "fr"}
    assert all(r.headers.get("User-Agent") == UA for r in wiki.log)
    assert not any("Cookie" in r.headers for r in wiki.log)  # the server sets them; never sent
    if api == "rest":  # a redirect costs a hop: 302, then the canonical page
        hops = [r.status for r in logged if r.lang == "en" and "Lovelace" in r.title]
        assert hops == [200, 302, 200]


@pytest.mark.parametrize("api", ["rest", "parse"])
def test_answers_of_the_wrong_shape(wiki: FakeWiki, api: str) -> None:
    with make_client(wiki, api=api) as client:
        for title in ["Error Page", "Json Page", "Empty Page"]:
            res = client.fetch("en", title)
            assert res.status == "bad_shape", (title, res)
            assert res.html == "" and res.detail
        # Article HTML with no prose: fetched fine, html_to_text refuses it.
        infobox = client.fetch("en", "Infobox Only")
        assert infobox.status == "ok"
        with pytest.raises(PageShapeError):
            html_to_text(infobox.html)
        assert client.stats["status_bad_shape"] == 3


def test_utf8_without_a_charset_header() -> None:
    body = '<div class="mw-parser-output"><p>Émile Zola était un écrivain français.</p></div>'
    pages = {("fr", "Émile Zola"): Raw(body.encode("utf-8"), content_type="text/html")}
    with serve_wiki(pages) as wiki, make_client(wiki) as client:
        res = client.fetch("fr", "Émile Zola")
    assert res.status == "ok" and res.final_title == "Émile Zola"
    assert html_to_text(res.html) == "Émile Zola était un écrivain français."


def test_client_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="base URL"):
        WikipediaWebClient(user_agent=UA, base_urls={"en": "en.wikipedia.org"})
    with pytest.raises(ValueError, match="User-Agent"):
        WikipediaWebClient(user_agent=" ")
    with pytest.raises(ValueError, match="api"):
        WikipediaWebClient(user_agent=UA, api="html")  # type: ignore[arg-type]
    client = WikipediaWebClient(user_agent=UA, base_urls={"en": "http://127.0.0.1:9/x/"})
    assert client.url("en", "A B") == "http://127.0.0.1:9/x/api/rest_v1/page/html/A_B?redirect=true"
    assert client.url("de", "A").startswith("https://de.wikipedia.org/api/rest_v1/")
    client.close()
    with pytest.raises(RuntimeError, match="closed"):
        client.fetch("en", "A")


def test_parse_api_busy_error_is_retried(wiki: FakeWiki) -> None:
    maxlag = json.dumps({"error": {"code": "maxlag", "info": "Waiting for a database: 6 s"}})
    wiki.fail(
        "en",
        "Ada Lovelace",
        Raw(maxlag, content_type="application/json", headers={"Retry-After": "5"}),
    )
    waits = Waits()
    with make_client(wiki, api="parse", sleep=waits) as client:
        assert client.fetch("en", "Ada Lovelace").status == "ok"
    assert waits == [5.0]


def test_retry_after_is_honoured(wiki: FakeWiki) -> None:
    wiki.fail("en", "Ada Lovelace", (503, {"Retry-After": "7"}), (429, {"Retry-After": "3"}))
    waits = Waits()
    with make_client(wiki, sleep=waits, retries=5) as client:
        res = client.fetch("en", "Ada Lovelace")
        assert res.status == "ok"
        assert waits == [7.0, 3.0]
        assert client.stats["retries"] == 2 and client.stats["requests"] == 3


def test_backoff_doubles_and_is_capped(wiki: FakeWiki) -> None:
    wiki.fail("en", "Ada Lovelace", 500, 502, 504, 503, 500)
    waits = Waits()
    with make_client(wiki, sleep=waits, retries=5, backoff=4, max_wait=30) as client:
        assert client.fetch("en", "Ada Lovelace").status == "ok"
    assert waits == [4.0, 8.0, 16.0, 30.0, 30.0]


def test_a_retry_after_longer_than_max_wait_stops_the_run(wiki: FakeWiki) -> None:
    """As the SPARQL client and the README say: no hammering a site that asks for a pause."""
    wiki.fail("en", "Ada Lovelace", 500, (503, {"Retry-After": "600"}))
    waits = Waits()
    with (
        make_client(wiki, sleep=waits, retries=5, backoff=0.5, max_wait=30) as client,
        pytest.raises(SiteBusy, match=r"asks to wait 600 s \(more than max_wait=30 s\)"),
    ):
        client.fetch("en", "Ada Lovelace")
    assert waits == [0.5]


def test_retries_exhausted_is_an_error(wiki: FakeWiki) -> None:
    wiki.fail("en", "Ada Lovelace", 503, 503, 503)
    waits = Waits()
    with make_client(wiki, sleep=waits, retries=2) as client:
        res = client.fetch("en", "Ada Lovelace")
        assert res.status == "error"
        assert res.detail == "gave up after 3 attempts: HTTP 503"
        assert len(waits) == 2 and client.stats["status_error"] == 1
        # A refusal is not retried.
        wiki.fail("en", "AC/DC", 403)
        refused = client.fetch("en", "AC/DC")
        assert refused.status == "error" and refused.detail.startswith("HTTP 403")
        assert len(waits) == 2


def test_dropped_connections_are_retried_not_unreachable(wiki: FakeWiki) -> None:
    wiki.fail("en", "Ada Lovelace", "drop")
    with make_client(wiki) as client:
        assert client.fetch("en", "Ada Lovelace").status == "ok"
        wiki.fail("en", "AC/DC", "drop", "drop", "drop")
        res = client.fetch("en", "AC/DC")
        assert res.status == "error" and "ConnectionError" in res.detail
        assert client.fetch("en", "Ada Lovelace").status == "ok"  # the site is fine


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_site_raises_quickly() -> None:
    base = f"http://127.0.0.1:{_closed_port()}"
    waits = Waits()
    client = WikipediaWebClient(
        user_agent=UA, base_urls={"xx": base}, retries=3, sleep=waits, rate=0
    )
    start = time.monotonic()
    with client:
        with pytest.raises(SiteUnreachable) as info:
            client.fetch("xx", "Anyone")
        assert "'xx'" in str(info.value) and base in str(info.value)
        assert len(waits) == 3 and client.stats["requests"] == 4  # it did retry first
        with pytest.raises(SiteUnreachable):  # and then knows without asking again
            list(client.fetch_many([("xx", f"P{i}") for i in range(50)]))
        assert client.stats["requests"] == 4
    assert time.monotonic() - start < 3


def test_fetch_many_bounds_concurrency_and_keeps_order() -> None:
    titles = [f"Person {i}" for i in range(12)]
    pages = {("en", t): LEAD.format(name=t) for t in titles}
    # The first pages are the slowest: results still come back in input order.
    slow = {("en", t): 0.25 - 0.02 * i for i, t in enumerate(titles)}
    with serve_wiki(pages, page_delays=slow) as wiki, make_client(wiki, concurrency=3) as c:
        results = list(c.fetch_many(("en", t) for t in titles))
        assert [r.title for r in results] == titles
        assert all(r.status == "ok" for r in results)
        assert wiki.max_in_flight == 3


def test_fetch_many_streams_its_input() -> None:
    titles = [f"Person {i}" for i in range(40)]
    pages = {("en", t): LEAD.format(name=t) for t in titles}
    pulled = 0

    def items() -> Iterator[tuple[str, str]]:
        nonlocal pulled
        for t in titles:
            pulled += 1
            yield ("en", t)

    with serve_wiki(pages, delay=0.005) as wiki, make_client(wiki, concurrency=2) as client:
        for taken, _ in enumerate(client.fetch_many(items()), start=1):
            assert pulled <= taken + 2 * client.concurrency
        assert taken == 40


def test_rate_limit_over_all_threads() -> None:
    titles = [f"Person {i}" for i in range(9)]
    pages = {("en", t): LEAD.format(name=t) for t in titles}
    rate = 25.0
    with serve_wiki(pages) as wiki, make_client(wiki, concurrency=4, rate=rate) as client:
        list(client.fetch_many(("en", t) for t in titles))
        starts = sorted(r.started for r in wiki.log)
    assert len(starts) == 9
    span = starts[-1] - starts[0]
    assert span >= 0.85 * (len(starts) - 1) / rate  # 8 gaps of 40 ms
    # No burst: never more than 3 requests in any 2/rate window.
    assert all(b - a >= 1.5 / rate for a, b in zip(starts, starts[3:], strict=False))


@pytest.mark.parametrize("api", ["rest", "parse"])
def test_cache_second_run_makes_no_requests(wiki: FakeWiki, tmp_path: Path, api: str) -> None:
    items = [("en", "Ada Lovelace"), ("en", "Lovelace"), ("en", "Nobody"), ("fr", "Ada Lovelace")]
    with make_client(wiki, api=api, cache_dir=tmp_path) as first:
        before = [first.fetch(lang, title) for lang, title in items]
        assert [r.status for r in before] == ["ok", "ok", "missing", "ok"]
        assert first.stats["requests"] == 4
        if api == "rest":  # the redirect's second hop is the page already cached
            assert first.stats["cache_hits"] == 1 and before[1].from_cache
    wiki.reset()
    with make_client(wiki, api=api, cache_dir=tmp_path, user_agent=UA + " again") as second:
        after = list(second.fetch_many(items))
        assert wiki.log == []  # nothing fetched twice, the redirect included
        assert second.stats["requests"] == 0 and second.stats["cache_hits"] == len(items)
    assert all(r.from_cache for r in after)

    def strip(results: list[FetchResult]) -> list[tuple[object, ...]]:
        return [(r.status, r.html, r.final_title, r.page_id, r.detail) for r in results]

    assert strip(before) == strip(after)


def test_cache_keeps_no_failures(wiki: FakeWiki, tmp_path: Path) -> None:
    wiki.fail("en", "Ada Lovelace", 503)
    with make_client(wiki, cache_dir=tmp_path, retries=0) as first:
        assert first.fetch("en", "Ada Lovelace").status == "error"
        assert first.fetch("en", "Error Page").status == "bad_shape"
    wiki.reset()
    with make_client(wiki, cache_dir=tmp_path) as second:
        assert second.fetch("en", "Ada Lovelace").status == "ok"
        assert second.fetch("en", "Error Page").status == "bad_shape"
        assert sorted(r.title for r in wiki.log) == ["Ada Lovelace", "Error Page"]
        assert second.stats["cache_hits"] == 0


class _Planted:
    """A pickle that creates a file when loaded: what a shared pickle cache would run."""

    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self) -> tuple[object, ...]:
        return (Path.write_text, (self.target, "pwned"))


def test_cache_rows_cannot_run_code_and_bad_rows_are_counted_misses(
    wiki: FakeWiki, tmp_path: Path
) -> None:
    import pickle
    import sqlite3
    import zlib

    with make_client(wiki, cache_dir=tmp_path) as first:
        good = first.fetch("en", "Ada Lovelace")
        assert good.status == "ok" and first.fetch("en", "Nobody").status == "missing"
    db = next(tmp_path.glob("*.sqlite"))
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT key, value FROM responses").fetchall()
        assert len(rows) == 2
        # stored as zlib-compressed JSON: status, headers and body, nothing executable
        stored = json.loads(zlib.decompress(rows[0][1]))
        assert {"status_code", "headers"} <= set(stored)
        target = tmp_path / "planted"
        planted = zlib.compress(pickle.dumps(_Planted(target)))
        con.execute("UPDATE responses SET value = ? WHERE key = ?", (planted, rows[0][0]))
        con.execute("UPDATE responses SET value = ? WHERE key = ?", (b"\x00garbage", rows[1][0]))
    wiki.reset()
    with make_client(wiki, cache_dir=tmp_path) as second:
        again = second.fetch("en", "Ada Lovelace")
        assert second.fetch("en", "Nobody").status == "missing"
        assert second.stats["cache_unreadable"] == 2 and second.stats["cache_hits"] == 0
        assert len(wiki.log) == 2  # both fetched again
    assert not target.exists(), "a cache row ran code"
    assert (again.status, again.html) == (good.status, good.html)
    with make_client(wiki, cache_dir=tmp_path) as third:  # the rows were replaced
        third.fetch("en", "Ada Lovelace")
        assert third.stats["cache_hits"] == 1 and third.stats["cache_unreadable"] == 0


def test_cache_under_the_thread_pool(tmp_path: Path) -> None:
    titles = [f"Person {i}" for i in range(80)]
    pages = {("en", t): LEAD.format(name=t) * 50 for t in titles}
    with serve_wiki(pages, delay=0.002) as wiki:
        with make_client(wiki, cache_dir=tmp_path, concurrency=12) as first:
            fetched = list(first.fetch_many(("en", t) for t in titles))
        wiki.reset()
        results: list[list[FetchResult]] = []

        def read() -> None:
            with make_client(wiki, cache_dir=tmp_path, concurrency=6) as again:
                results.append(list(again.fetch_many(("en", t) for t in titles)))

        threads = [threading.Thread(target=read) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert wiki.log == []
    assert [r.status for r in fetched] == ["ok"] * 80
    for got in results:
        assert [r.html for r in got] == [r.html for r in fetched]
        assert all(r.from_cache for r in got)


# --------------------------------------------------------------------------------------------
# Category members (list=categorymembers)

WRITERS = [
    "Mercè Rodoreda",
    "Montserrat Roig",
    "Maria Aurèlia Capmany",
    "Caterina Albert",
    "Víctor Català",
]


def test_category_members_follow_every_continuation(tmp_path: Path) -> None:
    cats = {("ca", "Category:Escriptors"): WRITERS, ("en", "Category:Living people"): ["A B"]}
    with serve_wiki({}, categories=cats) as wiki:
        base_urls = {"ca": wiki.base_url("ca"), "en": wiki.base_url("en")}
        with make_client(wiki, base_urls=base_urls, cache_dir=tmp_path) as client:
            assert client.category_members("ca", "Categoria:Escriptors") == WRITERS
            listing = wiki.requests(api="categorymembers")
            assert len(listing) == 3  # 2 titles an answer
            assert all("cmnamespace=0" in r.path for r in listing)
            assert client.category_members("en", "Living people") == ["A B"]  # prefix added
            assert client.category_members("en", "Category:No such") == []
            wiki.reset()
            assert client.category_members("ca", "Categoria:Escriptors") == WRITERS
            assert len(wiki.requests(api="categorymembers")) == 3  # never from the cache
            assert client.stats["cache_hits"] == 0


def test_category_listing_retries_then_fails_clearly() -> None:
    cats = {("en", "Category:Poets"): ["P1", "P2", "P3"]}
    error = {"error": {"code": "invalidcategory", "info": "The category name is not valid."}}
    with serve_wiki({}, categories=cats) as wiki:
        base_urls = {"en": wiki.base_url("en")}
        wiki.fail("en", "Category:Poets", (503, {"Retry-After": "7"}))
        with make_client(wiki, base_urls=base_urls) as client:
            assert client.category_members("en", "Poets") == ["P1", "P2", "P3"]
            assert client.stats["retries"] == 1 and client._sleep == [7.0]
        failures: list[tuple[list[object], str]] = [
            ([500] * 3, "cannot list 'Poets' on en Wikipedia: gave up"),  # 3 attempts
            ([Raw("<html>maintenance</html>", content_type="text/html")], "not JSON"),
            ([Raw(json.dumps(error), content_type="application/json")], "invalidcategory"),
            ([Raw("{}", status=404, content_type="application/json")], "HTTP 404 from http"),
        ]
        for answers, message in failures:
            wiki.fail("en", "Category:Poets", *answers)
            with (
                make_client(wiki, base_urls=base_urls) as client,
                pytest.raises(CategoryError, match=message),
            ):
                client.category_members("en", "Poets")
