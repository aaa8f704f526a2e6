"""The live sources wired into the stages: `occbio entities --source wikidata` against a local
SPARQL server (Oxigraph) loaded with the sample's own Wikidata items, and `occbio text --source
web` against a local Wikipedia serving the sample's articles as HTML. Both must give what the
dump path gives on the same data, resume without repeating finished work, and fail clearly."""

from __future__ import annotations

import html
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import main
from occbio.config import SAMPLE_DIR
from occbio.extract.wikidata_dump import entities_from_json_file
from tests.sparql_server import (
    SparqlProxy,
    closed_port,
    entities_to_turtle,
    oxigraph_binary,
    start_oxigraph,
)
from tests.wiki_server import Raw, serve_wiki

LANGS = "en,es,ca"


@pytest.fixture(scope="module")
def sample_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local SPARQL server holding the bundled sample's Wikidata items (people and
    occupations), in Wikidata's RDF shape."""
    if oxigraph_binary() is None:
        pytest.skip("the oxigraph CLI is not installed (pip install -e '.[dev]')")
    items = entities_from_json_file(SAMPLE_DIR / "wikidata-sample.json.bz2")
    with start_oxigraph(entities_to_turtle(items), tmp_path_factory.mktemp("oxigraph")) as url:
        yield url


@pytest.fixture
def proxy(sample_endpoint: str) -> Iterator[SparqlProxy]:
    with SparqlProxy(sample_endpoint) as p:
        yield p


def _config(path: Path, **sections: dict[str, Any]) -> Path:
    lines = []
    for section, values in sections.items():
        lines.append(f"[{section}]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in values.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _comparable(entity: dict[str, Any]) -> dict[str, Any]:
    """SPARQL results carry no statement order: compare value lists as sets."""
    return entity | {
        "genders": sorted(entity["genders"]),
        "occupations": sorted(entity["occupations"], key=lambda o: o["qid"]),
    }


def _manifest(out: Path) -> dict[str, Any]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_sparql_entities_equal_the_dump_entities(tmp_path: Path, sample_endpoint: str) -> None:
    dump_out, live_out = tmp_path / "dump", tmp_path / "live"
    assert main(["entities", "-q", "--sample", "--langs", LANGS, "--out", str(dump_out)]) == 0
    cfg = _config(tmp_path / "live.toml", entities={"page_size": 4, "block_size": 5})
    argv = ["entities", "-q", "--langs", LANGS, "--out", str(live_out), "--config", str(cfg)]
    assert main([*argv, "--source", "wikidata", "--endpoint", sample_endpoint]) == 0

    dump = sorted((_comparable(e) for e in _rows(dump_out / "entities.jsonl")), key=str)
    live = sorted((_comparable(e) for e in _rows(live_out / "entities.jsonl")), key=str)
    assert len(dump) >= 30
    assert live == dump
    assert _rows(live_out / "occupations.jsonl") == _rows(dump_out / "occupations.jsonl")
    record = _manifest(live_out)["stages"]["entities"]
    assert record["settings"]["source"] == "wikidata"
    assert record["inputs"] == {"endpoint": sample_endpoint}
    counts = record["counts"]
    assert counts["people"] == len(dump)
    assert counts["sparql_batches"] > counts["occupations"]  # page_size 4 pages the big ones
    assert counts["sparql_queries"] > 0


def test_occupations_restrict_and_limit(tmp_path: Path, sample_endpoint: str) -> None:
    dump_rows = []
    out = tmp_path / "all"
    assert main(["entities", "-q", "--sample", "--langs", LANGS, "--out", str(out)]) == 0
    dump_rows = _rows(out / "entities.jsonl")
    top = _rows(out / "occupations.jsonl")[0]["qid"]
    expected = sorted(e["qid"] for e in dump_rows if top in {o["qid"] for o in e["occupations"]})

    live = tmp_path / "live"
    argv = ["entities", "-q", "--langs", LANGS, "--out", str(live), "--source", "wikidata"]
    assert main([*argv, "--endpoint", sample_endpoint, "--occupations", top]) == 0
    assert sorted(e["qid"] for e in _rows(live / "entities.jsonl")) == expected

    limited = tmp_path / "limited"
    argv = ["entities", "-q", "--langs", LANGS, "--out", str(limited), "--source", "wikidata"]
    assert main([*argv, "--endpoint", sample_endpoint, "--limit", "3"]) == 0
    assert len(_rows(limited / "entities.jsonl")) == 3


def test_bad_occupation_is_refused_before_any_query(
    tmp_path: Path, proxy: SparqlProxy, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["entities", "--langs", LANGS, "--out", str(tmp_path), "--source", "wikidata"]
    assert main([*argv, "--endpoint", proxy.url, "--occupations", "Q36180,writer"]) == 2
    err = capsys.readouterr().err
    assert "'writer' is not a Wikidata item id" in err
    assert proxy.requests == []


def test_interrupted_sparql_run_resumes_without_repeating_batches(
    tmp_path: Path, proxy: SparqlProxy, capsys: pytest.CaptureFixture[str]
) -> None:
    """The details queries fail for good (503 with no retries left): the listing batches are
    logged, so the second run lists nothing again and ends with the same people."""
    from tests.sparql_server import Rule

    cfg = _config(
        tmp_path / "c.toml",
        entities={"page_size": 4, "block_size": 5},
        http={"retries": 0},
    )
    out = tmp_path / "run"
    argv = ["entities", "-q", "--langs", LANGS, "--out", str(out), "--config", str(cfg)]
    argv += ["--source", "wikidata", "--endpoint", proxy.url]
    details = Rule(lambda q: "VALUES ?person" in q, 503, "busy", {"Retry-After": "0"})
    proxy.rules.append(details)
    assert main(argv) == 1
    assert "503" in capsys.readouterr().err
    stage = _manifest(out)["stages"]["entities"]
    assert stage["status"] == "failed" and "503" in stage["error"]  # and it resumes:
    listed = [q for q in proxy.queries() if "OFFSET" in q]
    assert listed

    proxy.reset()
    assert main(argv) == 0
    assert not [q for q in proxy.queries() if "OFFSET" in q]  # no page listed twice
    reference = tmp_path / "ref"
    assert main(["entities", "-q", "--sample", "--langs", LANGS, "--out", str(reference)]) == 0
    assert sorted(e["qid"] for e in _rows(out / "entities.jsonl")) == sorted(
        e["qid"] for e in _rows(reference / "entities.jsonl")
    )
    assert _manifest(out)["stages"]["entities"]["resumed"] == 1


def test_unreachable_endpoint_fails_fast_and_points_at_offline_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/sparql"
    start = time.monotonic()
    assert main(["mine", "--langs", LANGS, "--out", str(tmp_path), "--endpoint", url]) == 1
    assert time.monotonic() - start < 10
    err = capsys.readouterr().err
    assert "cannot be reached" in err
    assert "--sample" in err and "--entities-dump" in err and "--dump" in err
    assert "Traceback" not in err


# ----- the Wikipedia web -----------------------------------------------------------------


def _parsoid_body(text: str, n: int) -> str:
    """An article body in the REST API's shape around the prose of ``text``: an infobox,
    reference marks, a hatnote, a figure, a "References" section and a navbox, all of which
    the extractor must drop."""
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    ref = (
        '<sup class="mw-ref reference" typeof="mw:Extension/ref"><a href="#cite_note-{0}">'
        '<span class="mw-reflink-text">[{0}]</span></a></sup>'
    )
    body = [
        '<section data-mw-section-id="0">',
        '<div role="note" class="hatnote navigation-not-searchable">For other people with '
        "this name, see the disambiguation page.</div>",
        '<table class="infobox vcard"><tbody><tr><th>Born</th><td>12 May 1950, Leeds'
        "</td></tr><tr><th>Occupation</th><td>Writer</td></tr></tbody></table>",
    ]
    for i, para in enumerate(paragraphs):
        if i == 1:
            body.append('</section><section data-mw-section-id="1"><h2 id="Life">Life</h2>')
            body.append(
                '<figure typeof="mw:File/Thumb"><img src="x.jpg"/><figcaption>The author '
                "in a garden, 1990.</figcaption></figure>"
            )
        body.append(f"<p>{html.escape(para)}{ref.format(i + 1)}</p>")
    body.append('</section><section data-mw-section-id="9"><h2 id="References">References</h2>')
    body.append('<div class="mw-references-wrap"><ol class="mw-references references">')
    body += [f'<li id="cite_note-{i + 1}">A source, page {i + n}.</li>' for i in range(3)]
    body.append("</ol></div></section>")
    body.append(
        '<div role="navigation" class="navbox" aria-labelledby="nb"><div id="nb">Writers '
        "of the sample</div><ul><li>Someone Else</li></ul></div>"
    )
    return "".join(body)


@pytest.fixture(scope="module")
def dump_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's entities and text from its dumps: the reference for the web source."""
    out = tmp_path_factory.mktemp("dump-run")
    assert main(["text", "-q", "--sample", "--langs", LANGS, "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def sample_pages(dump_run: Path) -> dict[tuple[str, str], str]:
    """The sample's articles as REST page HTML, by (lang, title)."""
    pages = {}
    for lang in LANGS.split(","):
        for n, article in enumerate(_rows(dump_run / "text" / f"{lang}.articles.jsonl")):
            pages[(lang, article["title"])] = _parsoid_body(article["text"], n)
    return pages


def _web_argv(out: Path, wiki: Any, cache: Path, *extra: str) -> list[str]:
    argv = ["text", "-q", "--sample", "--langs", LANGS, "--out", str(out)]
    argv += ["--text-source", "web", "--cache-dir", str(cache), "--rate", "0"]
    for lang in LANGS.split(","):
        argv += ["--base-url", f"{lang}={wiki.base_url(lang)}"]
    return [*argv, *extra]


def test_web_text_equals_the_dump_text_and_the_cache_serves_a_rerun(
    tmp_path: Path, dump_run: Path, sample_pages: dict[tuple[str, str], str]
) -> None:
    cache = tmp_path / "cache"
    with serve_wiki(sample_pages) as wiki:
        out = tmp_path / "web"
        assert main(_web_argv(out, wiki, cache)) == 0
        first_requests = len(wiki.log)
        again = tmp_path / "again"
        assert main(_web_argv(again, wiki, cache)) == 0
        assert len(wiki.log) == first_requests  # the second run fetched nothing
    assert first_requests == len(sample_pages)
    for lang in LANGS.split(","):
        web = _rows(out / "text" / f"{lang}.sentences.jsonl")
        dump = _rows(dump_run / "text" / f"{lang}.sentences.jsonl")
        assert web == dump, lang
        assert (again / "text" / f"{lang}.sentences.jsonl").read_bytes() == (
            out / "text" / f"{lang}.sentences.jsonl"
        ).read_bytes()
    counts = _manifest(out)["stages"]["text"]["counts"]
    assert counts["web_requests"] == len(sample_pages)
    assert _manifest(again)["stages"]["text"]["counts"]["web_cache_hits"] == len(sample_pages)
    text = (out / "text" / "en.articles.jsonl").read_text(encoding="utf-8")
    for junk in ("12 May 1950", "[1]", "in a garden", "A source, page", "disambiguation"):
        assert junk not in text


def test_category_members_from_the_web_equal_those_from_the_dump(tmp_path: Path) -> None:
    """`--category` with the web source lists the category through the API (every page of the
    listing) and keeps the same people as the category links of the pivot dump."""
    argv = ["entities", "-q", "--sample", "--langs", LANGS, "--category", "Living people"]
    ref = tmp_path / "dump"
    assert main([*argv, "--out", str(ref)]) == 0
    members = [e["titles"]["en"] for e in _rows(ref / "entities.jsonl")]
    assert members
    listing = {("en", "Category:Living people"): ["Not A Person", *members, "Someone Else"]}
    with serve_wiki({}, categories=listing, category_page_size=3) as wiki:
        out = tmp_path / "web"
        web = [*argv, "--out", str(out), "--text-source", "web", "--cache-dir", str(tmp_path)]
        assert main([*web, "--base-url", f"en={wiki.base_url('en')}"]) == 0
        assert len(wiki.requests(api="categorymembers")) == -(-(len(members) + 2) // 3)
    assert (out / "entities.jsonl").read_bytes() == (ref / "entities.jsonl").read_bytes()
    entities = _manifest(out)["stages"]["entities"]
    assert entities["inputs"]["category_site"] == wiki.base_url("en")
    assert entities["counts"]["category_members"] == len(members)


def test_an_unlistable_category_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve_wiki({}) as wiki:
        wiki.fail("en", "Category:Living people", Raw("<html>down</html>"))
        argv = ["entities", "-q", "--sample", "--langs", LANGS, "--out", str(tmp_path / "r")]
        argv += ["--category", "Living people", "--text-source", "web", "--no-cache"]
        assert main([*argv, "--base-url", f"en={wiki.base_url('en')}"]) == 1
    err = capsys.readouterr().err
    assert "cannot list 'Living people' on en Wikipedia" in err and "Traceback" not in err


def test_web_pages_that_cannot_be_had_are_listed_with_the_reason(
    tmp_path: Path, sample_pages: dict[tuple[str, str], str]
) -> None:
    pages = dict(sample_pages)
    es_titles = sorted(t for (lang, t) in pages if lang == "es")
    gone, odd, broken = es_titles[:3]
    del pages[("es", gone)]
    pages[("es", odd)] = Raw(
        '{"type": "https://mediawiki.org/wiki/HyperSwitch/errors"}', content_type="application/json"
    )
    with serve_wiki(pages) as wiki:
        wiki.fail("es", broken, *([503] * 10))
        cfg = _config(tmp_path / "c.toml", http={"retries": 1, "backoff": 0.0})
        out = tmp_path / "web"
        assert main(_web_argv(out, wiki, tmp_path / "cache", "--config", str(cfg))) == 0
    missing = {row["title"]: row for row in _rows(out / "text" / "missing.jsonl")}
    assert missing[gone]["reason"] == "missing"
    assert missing[odd]["reason"] == "bad_shape"
    assert missing[broken]["reason"] == "error" and "503" in missing[broken]["detail"]
    counts = _manifest(out)["stages"]["text"]["counts"]
    assert counts["es.articles_missing"] == 3
    assert counts["es.pages_missing"] == counts["es.pages_bad_shape"] == 1
    assert counts["es.pages_error"] == 1


@pytest.mark.slow
def test_mine_on_live_sources_equals_mine_on_the_sample(
    tmp_path: Path, sample_endpoint: str, sample_pages: dict[tuple[str, str], str]
) -> None:
    """`occbio mine` with no dump at all: people from SPARQL, text from the web, then align —
    the same alignments as the sample's dumps give."""
    reference = tmp_path / "ref"
    assert main(["mine", "-q", "--sample", "--langs", LANGS, "--out", str(reference)]) == 0
    with serve_wiki(sample_pages) as wiki:
        out = tmp_path / "live"
        argv = ["mine", "-q", "--langs", LANGS, "--out", str(out), "--endpoint", sample_endpoint]
        argv += ["--cache-dir", str(tmp_path / "cache"), "--rate", "0"]
        for lang in LANGS.split(","):
            argv += ["--base-url", f"{lang}={wiki.base_url(lang)}"]
        assert main(argv) == 0
    settings = _manifest(out)["stages"]
    assert settings["entities"]["settings"]["source"] == "wikidata"
    assert "web" in settings["text"]["inputs"]
    assert (out / "alignments.tsv").read_bytes() == (reference / "alignments.tsv").read_bytes()
