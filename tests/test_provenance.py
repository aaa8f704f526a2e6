"""Every sentence traceable: the revision each article was read from, where and when, carried
from the sources (dump, web) to every corpus format, ATTRIBUTION.tsv and the data card, and
`occbio rebuild`, which fetches those very revisions again and finds the sentences in them."""

from __future__ import annotations

import csv
import hashlib
import html
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from occbio.cli import main
from occbio.config import CleanConfig
from occbio.extract.wikipedia_web import WikipediaWebClient
from occbio.io.attribution import ATTRIBUTION_COLUMNS, source_summary
from occbio.io.corpus import write_corpus
from occbio.io.corpus_segments import Provenance, read_segments, segment_provenance
from occbio.io.gebio_reader import read_gebio_xml
from occbio.rebuild import rebuild
from occbio.records import Document, Entity
from occbio.review.apply import post_edit_documents
from tests.wiki_server import REST_CONTENT_TYPE, Raw, serve_wiki

LANGS = ["en", "es", "ca"]
UA = "occbio-tests/1.0 (provenance; test@example.org)"
ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
#: Douglas Adams as the REST API served revision 793736590 (real Parsoid HTML).
ADAMS_FILE = "wikipedia-html/rest_html.response.html"
ADAMS_REVISION = 793736590
#: Two sentences of that revision as the text stage cleans them, and one it does not hold.
ADAMS_SENTENCES = {
    1: "Douglas Noel Adams was an English author, scriptwriter, essayist, humorist, satirist "
    "and dramatist.",
    2: "Adams's contribution to UK radio is commemorated in The Radio Academy's Hall of Fame.",
    3: "Douglas Noel Adams was a Scottish author.",  # edited: not in the revision
}


def _rows(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _client(wiki: Any, **kwargs: Any) -> WikipediaWebClient:
    options: dict[str, Any] = {
        "user_agent": UA,
        "base_urls": wiki.base_urls,
        "rate": 0,
        "retries": 1,
        "timeout": 5.0,
        "sleep": lambda s: None,
    }
    return WikipediaWebClient(**(options | kwargs))


def _articles(run: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """(qid, lang) -> the run's article row (its text stage's record)."""
    return {
        (a["qid"], lang): a
        for lang in LANGS
        for a in _rows(run / "text" / f"{lang}.articles.jsonl")
    }


# ---------------------------------------------------------------------------------------------
# The web source: revision, time, and when the page was fetched (kept in the cache)


@pytest.mark.parametrize("api", ["rest", "parse"])
def test_web_fetch_records_the_revision_and_when_it_was_fetched(tmp_path: Path, api: str) -> None:
    pages = {("en", "Ada Lovelace"): "<p>Ada Lovelace was a mathematician.</p>"}
    with serve_wiki(pages, revision_ids={("en", "Ada Lovelace"): 4242}) as wiki:
        with _client(wiki, api=api, cache_dir=tmp_path) as client:
            first = client.fetch("en", "Ada Lovelace")
        with _client(wiki, api=api, cache_dir=tmp_path) as client:
            again = client.fetch("en", "Ada Lovelace")
        assert len(wiki.log) == 1  # the second came from the cache
    assert first.revision_id == again.revision_id == 4242
    # Parsoid says when the revision was made; action=parse does not
    assert first.revision_timestamp == ("2024-05-01T10:00:00Z" if api == "rest" else "")
    assert first.url.startswith(wiki.base_url("en")) and ISO_UTC.fullmatch(first.retrieved)
    # read from the cache, the page says when it was fetched, not when it was read again
    assert (again.from_cache, again.retrieved, again.url) == (True, first.retrieved, first.url)


def test_real_parsoid_html_gives_its_revision_page_and_time(shared_data: Path) -> None:
    doc = (shared_data / ADAMS_FILE).read_text(encoding="utf-8")
    page = Raw(doc, content_type=REST_CONTENT_TYPE)  # no ETag: the <html about> says it
    with serve_wiki({("en", "Douglas Adams"): page}) as wiki, _client(wiki) as client:
        got = client.fetch("en", "Douglas Adams")
    assert (got.status, got.page_id, got.revision_id, got.revision_timestamp) == (
        "ok",
        8091,
        ADAMS_REVISION,
        "2017-08-03T16:37:48Z",
    )


def test_one_revision_is_fetched_by_its_id_and_an_unknown_one_is_missing() -> None:
    old = {("en", "Ada Lovelace", 11): "<p>Ada Lovelace was a poet's daughter.</p>"}
    pages = {("en", "Ada Lovelace"): "<p>Ada Lovelace was a mathematician.</p>"}
    with serve_wiki(pages, revisions=old, revision_ids={("en", "Ada Lovelace"): 12}) as wiki:
        for api in ("rest", "parse"):
            with _client(wiki, api=api) as client:
                then = client.fetch("en", "Ada Lovelace", revision=11)
                now = client.fetch("en", "Ada Lovelace", revision=12)
                gone = client.fetch("en", "Ada Lovelace", revision=13)
            assert (then.status, then.revision_id, now.revision_id) == ("ok", 11, 12), api
            assert "daughter" in then.html and "mathematician" in now.html
            assert gone.status == "missing", api
        assert [r.revision for r in wiki.requests(api="rest")] == [11, 12, 13]
        assert "oldid=11" in wiki.requests(api="parse")[0].path


# ---------------------------------------------------------------------------------------------
# A mined sample run: every format carries the provenance, read back by its usual reader


def test_documents_carry_their_articles_provenance(mined_sample: Path) -> None:
    articles = _articles(mined_sample)
    rows = _rows(mined_sample / "corpus" / "corpus.jsonl")
    assert rows
    for row in rows:
        for lang in LANGS:
            a = articles[(row["qid"], lang)]
            assert a["revision_id"] > 0 and ISO_UTC.fullmatch(a["revision_timestamp"])
            assert a["source"] == f"dump:{lang}wiki-sample-pages-articles.xml.bz2"
            assert row["page_ids"][lang] == a["page_id"]
            assert row["revision_ids"][lang] == a["revision_id"]
            assert row["revision_timestamps"][lang] == a["revision_timestamp"]
            assert row["sources"][lang] == a["source"]
        assert segment_provenance(row)["es"] == Provenance(
            row["page_ids"]["es"],
            row["revision_ids"]["es"],
            row["revision_timestamps"]["es"],
            row["sources"]["es"],
        )


def test_xml_carries_the_provenance_per_language(mined_sample: Path) -> None:
    articles = _articles(mined_sample)
    for lang in LANGS:
        path = mined_sample / "corpus" / f"corpus.{lang}.xml"
        docs = etree.parse(str(path)).getroot().findall("doc")
        assert docs
        for el in docs:
            a = articles[(el.get("docid"), lang)]
            assert el.get("wpid") == str(a["page_id"])
            assert el.get("revision_id") == str(a["revision_id"])
            assert el.get("revision_timestamp") == a["revision_timestamp"]
            assert el.get("source") == a["source"]
        # the tolerant GeBioCorpus reader gives the same
        for doc in read_gebio_xml(path):
            a = articles[(doc.docid, lang)]
            assert (doc.revision_id, doc.revision_timestamp, doc.source) == (
                a["revision_id"],
                a["revision_timestamp"],
                a["source"],
            )


def test_parquet_and_tsv_carry_the_provenance_columns(mined_sample: Path) -> None:
    pd = pytest.importorskip("pandas")
    pq = pytest.importorskip("pyarrow.parquet")
    corpus = mined_sample / "corpus"
    jsonl = _rows(corpus / "corpus.jsonl")
    table = pq.read_table(corpus / "corpus.parquet")
    tsv = pd.read_csv(corpus / "corpus.tsv", sep="\t")
    for lang in LANGS:
        assert str(table.schema.field(f"revision_id_{lang}").type) == "int64"
        assert table.column(f"revision_id_{lang}").to_pylist() == [
            r["revision_ids"][lang] for r in jsonl
        ]
        assert tsv[f"revision_id_{lang}"].tolist() == [r["revision_ids"][lang] for r in jsonl]
        for column, key in (("revision_timestamp", "revision_timestamps"), ("source", "sources")):
            want = [r[key][lang] for r in jsonl]
            assert table.column(f"{column}_{lang}").to_pylist() == want
            assert tsv[f"{column}_{lang}"].tolist() == want
    # the provenance comes after the scores: the columns before keep their places
    assert list(tsv.columns).index("score_ca") < list(tsv.columns).index("revision_id_en")


def test_attribution_tsv_credits_every_article(mined_sample: Path) -> None:
    path = mined_sample / "corpus" / "ATTRIBUTION.tsv"
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert list(rows[0]) == ATTRIBUTION_COLUMNS
    articles = _articles(mined_sample)
    docs = list(dict.fromkeys(r["qid"] for r in _rows(mined_sample / "corpus" / "corpus.jsonl")))
    # one row per document and language, in corpus order
    assert [(r["qid"], r["language"]) for r in rows] == [(q, lang) for q in docs for lang in LANGS]
    for r in rows:
        a = articles[(r["qid"], r["language"])]
        lang, rev = r["language"], a["revision_id"]
        assert r["title"] == a["title"]
        assert r["url"].startswith(f"https://{lang}.wikipedia.org/wiki/")
        assert r["revision_id"] == str(rev) and r["revision_timestamp"] == a["revision_timestamp"]
        assert r["revision_url"] == f"https://{lang}.wikipedia.org/w/index.php?oldid={rev}"
        assert r["history_url"].startswith(f"https://{lang}.wikipedia.org/w/index.php?title=")
        assert r["history_url"].endswith("&action=history")
        assert r["source"] == a["source"]
        assert r["licence"].startswith("MIT")  # the sample's text is occbio's own
    # a manifest output like the others, with its size and SHA-256
    write = json.loads((mined_sample / "manifest.json").read_text())["stages"]["write"]
    assert "corpus/ATTRIBUTION.tsv" in write["outputs"]
    data = path.read_bytes()
    assert write["checksums"]["corpus/ATTRIBUTION.tsv"] == {
        "sha256": hashlib.sha256(data).hexdigest(),
        "size": len(data),
    }
    card = (mined_sample / "DATACARD.md").read_text(encoding="utf-8")
    licence = card[card.index("## Licence and attribution") :]
    assert "corpus/ATTRIBUTION.tsv" in licence
    for lang in LANGS:
        assert f"`{lang}wiki-sample-pages-articles.xml.bz2` (pages-articles XML dump)" in licence


def test_attribution_of_wikipedia_text_and_the_sources_said(tmp_path: Path) -> None:
    doc = Document(
        entity=Entity(
            "Q42", "Douglas Adams", titles={"en": "Douglas Adams", "es": "Douglas Adams"}
        ),
        segments=[{"en": "He wrote.", "es": "Escribió."}],
        page_ids={"en": 8091, "es": 1},
        revision_ids={"en": ADAMS_REVISION},
        revision_timestamps={"en": "2017-08-03T16:37:48Z"},
        sources={
            "en": "web:https://en.wikipedia.org/api/rest_v1/page/html/Douglas_Adams?redirect=true"
            "@2024-06-01T09:00:00Z",
            "es": "dump:eswiki-20240601-pages-articles.xml.bz2",
        },
    )
    from occbio.io.attribution import attribution_rows

    rows = list(attribution_rows(doc, ["en", "es"]))
    assert [r["licence"] for r in rows] == ["CC BY-SA 4.0"] * 2
    assert rows[0]["revision_url"] == f"https://en.wikipedia.org/w/index.php?oldid={ADAMS_REVISION}"
    assert rows[1]["revision_id"] == rows[1]["revision_url"] == ""  # the source did not say
    assert source_summary(rows) == [
        "`eswiki-20240601-pages-articles.xml.bz2` (pages-articles XML dump): 1 article",
        "https://en.wikipedia.org (Wikipedia web): 1 article, revisions of "
        "2017-08-03T16:37:48Z, fetched 2024-06-01T09:00:00Z",
    ]


def test_a_corpus_without_provenance_still_reads(tmp_path: Path) -> None:
    """An older corpus (no provenance keys, attributes or columns) reads as 'not said'."""
    old = Document(
        entity=Entity("Q1", "Ana", titles={"en": "Ana", "es": "Ana"}),
        segments=[{"en": "Ana wrote.", "es": "Ana escribió."}],
        page_ids={"en": 5, "es": 6},
    )
    assert Document.from_dict(old.to_dict()) == old
    assert "revision_ids" not in old.to_dict()
    write_corpus(tmp_path, ["en", "es"], [old], pivot="en")
    row = _rows(tmp_path / "corpus.jsonl")[0]
    for key in ("revision_ids", "revision_timestamps", "sources"):
        assert row[key] == {}
        del row[key]
    del row["page_ids"]
    assert segment_provenance(row) == {"en": Provenance(), "es": Provenance()}
    (doc,) = read_gebio_xml(tmp_path / "corpus.en.xml")
    assert (doc.revision_id, doc.revision_timestamp, doc.source) == (None, "", "")


def test_post_edited_corpus_keeps_the_provenance(mined_sample: Path) -> None:
    rows = [r for _, r in read_segments(mined_sample / "corpus" / "corpus.jsonl")]
    docs = post_edit_documents(rows, "run", {}, {}, {}, Counter())
    assert docs and all(d.revision_ids == rows[0]["revision_ids"] for d in docs[:1])
    assert docs[0].sources == rows[0]["sources"]


# ---------------------------------------------------------------------------------------------
# Rebuild: the exact revisions fetched again, the sentences found in them


def _adams_corpus(path: Path) -> Path:
    """A corpus.jsonl of Douglas Adams at revision 793736590, a revision no site has, and an
    older corpus's document that names none."""
    url = "https://en.wikipedia.org/wiki/Douglas_Adams"
    rows = [
        {"text": {"en": text}, "qid": "Q42", "seg": seg, "urls": {"en": url},
         "page_ids": {"en": 8091}, "revision_ids": {"en": ADAMS_REVISION},
         "revision_timestamps": {"en": "2017-08-03T16:37:48Z"},
         "sources": {"en": "dump:enwiki-20170820-pages-articles.xml.bz2"}}
        for seg, text in ADAMS_SENTENCES.items()
    ]  # fmt: skip
    rows.append({"text": {"en": "Gone."}, "qid": "Q1", "seg": 1,
                 "urls": {"en": "https://en.wikipedia.org/wiki/Nobody"},
                 "revision_ids": {"en": 5}})  # fmt: skip
    rows.append({"text": {"en": "Old."}, "qid": "Q2", "seg": 1,
                 "urls": {"en": "https://en.wikipedia.org/wiki/Old"}})  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_rebuild_fetches_the_exact_revision_and_finds_its_sentences(
    tmp_path: Path, shared_data: Path
) -> None:
    doc = (shared_data / ADAMS_FILE).read_text(encoding="utf-8")
    served = {("en", "Douglas Adams", ADAMS_REVISION): Raw(doc, content_type=REST_CONTENT_TYPE)}
    current = {("en", "Douglas Adams"): "<p>Douglas Adams is a much edited page now.</p>"}
    corpus = _adams_corpus(tmp_path / "corpus.jsonl")
    with serve_wiki(current, revisions=served) as wiki:
        with _client(wiki, cache_dir=tmp_path / "cache") as client:
            rows, counts = rebuild(
                corpus, tmp_path / "out", client, clean=CleanConfig().model_dump(), langs=["en"]
            )
        asked = [(r.title, r.revision) for r in wiki.requests(api="rest")]
    # the revision the corpus names, not the page's current one; no request without a revision
    assert sorted(asked) == [("Douglas Adams", ADAMS_REVISION), ("Nobody", 5)]
    adams, gone, old = rows
    assert (adams["status"], adams["segments"], adams["found"], adams["missing_segs"]) == (
        "ok",
        3,
        2,
        [3],  # the edited sentence
    )
    assert (gone["status"], old["status"]) == ("missing", "no_revision")
    assert counts["en.revisions"] == 1 and counts["en.found"] == 2
    assert _rows(tmp_path / "out" / "rebuild.jsonl") == rows
    (article,) = _rows(tmp_path / "out" / "articles.jsonl")
    assert (article["revision_id"], article["revision_timestamp"], article["page_id"]) == (
        ADAMS_REVISION,
        "2017-08-03T16:37:48Z",
        8091,
    )
    assert article["source"].startswith(f"web:{wiki.base_url('en')}/api/rest_v1/page/html/")


def _sample_revisions(run: Path) -> dict[tuple[str, str, int], str]:
    """The run's articles as Parsoid bodies, each at the revision its dump gave."""
    out = {}
    for (_, lang), a in _articles(run).items():
        body = "".join(f"<p>{html.escape(p)}</p>" for p in a["text"].split("\n\n"))
        out[(lang, a["title"], a["revision_id"])] = body
    return out


def test_rebuild_command_finds_every_sentence_of_the_mined_sample(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serve_wiki({}, revisions=_sample_revisions(mined_sample)) as wiki:
        argv = ["rebuild", str(mined_sample), "--cache-dir", str(tmp_path / "cache")]
        argv += ["--rate", "0", "-q"]
        for lang in LANGS:
            argv += ["--base-url", f"{lang}={wiki.base_url(lang)}"]
        assert main([*argv, "--out", str(tmp_path / "first")]) == 0
        n_requests = len(wiki.log)
        assert main([*argv, "--out", str(tmp_path / "again")]) == 0
        assert len(wiki.log) == n_requests  # the second came from the cache
    jsonl = _rows(mined_sample / "corpus" / "corpus.jsonl")
    assert n_requests == len({r["qid"] for r in jsonl}) * len(LANGS)
    report = _rows(tmp_path / "first" / "rebuild.jsonl")
    assert all(r["status"] == "ok" and r["found"] == r["segments"] > 0 for r in report)
    assert sum(r["found"] for r in report) == len(jsonl) * len(LANGS)
    for name in ("rebuild.jsonl", "articles.jsonl"):  # served from the cache: the same bytes
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "first" / name).read_bytes()
    out = capsys.readouterr().out
    assert "every sentence found again" in out


def test_rebuild_says_what_is_not_found_and_exits_1(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revisions = _sample_revisions(mined_sample)
    first = _rows(mined_sample / "corpus" / "corpus.jsonl")[0]
    dropped = next(k for k in revisions if k[0] == "es" and k[2] == first["revision_ids"]["es"])
    del revisions[dropped]  # no site has it any more
    with serve_wiki({}, revisions=revisions) as wiki:
        argv = ["rebuild", str(mined_sample / "corpus"), "--out", str(tmp_path), "--no-cache"]
        argv += ["--rate", "0", "-q"]
        for lang in LANGS:
            argv += ["--base-url", f"{lang}={wiki.base_url(lang)}"]
        assert main(argv) == 1
    report = _rows(tmp_path / "rebuild.jsonl")
    (miss,) = [r for r in report if r["status"] != "ok"]
    assert (miss["lang"], miss["title"], miss["revision_id"], miss["status"]) == (
        "es",
        dropped[1],
        dropped[2],
        "missing",
    )
    assert miss["found"] == 0 and miss["missing_segs"]
    n_docs = len({r["qid"] for r in report})
    out = capsys.readouterr().out
    assert f"es: {n_docs - 1} revisions fetched" in out and "1 missing" in out


def test_rebuild_of_a_folder_without_a_corpus_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rebuild", str(tmp_path), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "holds no corpus" in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# A killed and resumed web run: the same bytes as a run served from the cache


@pytest.mark.slow
def test_killed_web_run_resumes_to_the_bytes_of_a_cached_run(tmp_path: Path) -> None:
    """The fetch time a page records is the one its answer gave and the cache kept: pages
    fetched before a kill keep theirs after the resume, and a run served from the cache
    writes the very same articles."""
    import os
    import subprocess
    import sys

    from tests.test_resume import CONSUMED_AT_LEAST, kill_at

    langs = "en,es"
    ref = tmp_path / "dump"
    assert main(["text", "-q", "--sample", "--langs", langs, "--out", str(ref)]) == 0
    pages = {}
    for lang in langs.split(","):
        for a in _rows(ref / "text" / f"{lang}.articles.jsonl"):
            body = "".join(f"<p>{html.escape(p)}</p>" for p in a["text"].split("\n\n"))
            pages[(lang, a["title"])] = body
    cache = tmp_path / "cache"
    before, after = "Sat, 01 Jun 2024 09:00:00 GMT", "Sun, 02 Jun 2024 18:30:00 GMT"
    with serve_wiki(pages) as wiki:

        def argv(out: Path) -> list[str]:
            args = ["text", "-q", "--sample", "--langs", langs, "--out", str(out)]
            args += ["--text-source", "web", "--cache-dir", str(cache), "--rate", "0"]
            args += ["--checkpoint-every", "2", "--workers", "1", "--concurrency", "1"]
            for lang in langs.split(","):
                args += ["--base-url", f"{lang}={wiki.base_url(lang)}"]
            return args

        wiki.date = before
        killed = tmp_path / "killed"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        kill_at("text", CONSUMED_AT_LEAST.format(at=6), argv(killed), env=env)
        fetched_before = len(wiki.log)
        wiki.date = after  # pages fetched from now on say so
        done = subprocess.run(
            [sys.executable, "-m", "occbio.cli", *argv(killed)],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads((killed / "manifest.json").read_text())["stages"]["text"]["resumed"]
        fetched = len(wiki.log)
        cached = tmp_path / "cached"
        assert main(argv(cached)) == 0
        assert len(wiki.log) == fetched  # all from the cache
    assert 0 < fetched_before < fetched == len(pages)
    for lang in langs.split(","):
        for name in (f"{lang}.articles.jsonl", f"{lang}.sentences.jsonl"):
            got = (killed / "text" / name).read_bytes()
            assert got == (cached / "text" / name).read_bytes(), name
    sources = [a["source"] for a in _rows(killed / "text" / "en.articles.jsonl")]
    times = Counter(s.rpartition("@")[2] for s in sources)
    # fetched before the kill, after it: each page keeps the time its answer gave
    assert set(times) == {"2024-06-01T09:00:00Z", "2024-06-02T18:30:00Z"}
    assert all(s.startswith(f"web:{wiki.base_url('en')}/api/rest_v1/page/html/") for s in sources)
    revisions = [a["revision_id"] for a in _rows(killed / "text" / "en.articles.jsonl")]
    assert all(r > 0 for r in revisions) and len(set(revisions)) == len(revisions)
