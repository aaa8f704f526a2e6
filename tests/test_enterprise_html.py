"""Wikimedia Enterprise HTML dumps as a text source: the real Parsoid HTML of ../shared/data
wrapped in the Enterprise article model, read by `occbio text` end to end, and every way such a
dump can be broken (cut short, a bad line, a huge line, other namespaces, a FIFO)."""

from __future__ import annotations

import bz2
import collections
import gzip
import json
import logging
import lzma
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import main
from occbio.extract.enterprise_html import (
    TruncatedHtmlDumpError,
    is_enterprise_html_dump,
    iter_html_pages,
)
from occbio.extract.html_text import html_to_text
from occbio.extract.wikipedia_dump import DumpError, TruncatedDumpError
from tests.enterprise_factory import enterprise_article, ndjson, tar_bytes, write_enterprise_dump
from tests.factories import human, occupation, write_pages_dump, write_wikidata_dump

MALE, FEMALE = "Q6581097", "Q6581072"
DUMP_NAME = "enwiki-NS0-20240601-ENTERPRISE-HTML.json.tar.gz"

#: The real pages: (file in ../shared/data/wikipedia-html, title, page id, revision, QID, time).
REAL = [
    ("rest_html.response.html", "Douglas Adams", 8091, 793736590, "Q42",
     "2017-08-03T16:37:48.000Z"),
    ("Ray_Charles.html", "Ray Charles", 25767, 1100000001, "Q544387", "2024-05-30T08:01:02Z"),
    ("Hank_Crawford.html", "Hank Crawford", 1392210, 1100000002, "Q1camel",
     "2024-05-31T23:59:59+02:00"),
    ("FirstParagraphRelocation-Obama.html", "Barack Obama", 534366, 819947185, "Q76",
     "2018-01-12T10:00:00Z"),
]  # fmt: skip
#: The same times as the articles carry them: UTC, whole seconds.
REAL_TIMES = {
    "Douglas Adams": "2017-08-03T16:37:48Z",
    "Ray Charles": "2024-05-30T08:01:02Z",
    "Hank Crawford": "2024-05-31T21:59:59Z",
    "Barack Obama": "2018-01-12T10:00:00Z",
}


def _qid(raw: str) -> str:
    return "Q1392" if raw == "Q1camel" else raw  # Hank Crawford: a made-up item, kept valid


@pytest.fixture(scope="module")
def real_html(shared_data: Path) -> dict[str, str]:
    folder = shared_data / "wikipedia-html"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return {title: (folder / name).read_text(encoding="utf-8") for name, title, *_ in REAL}


def _real_articles(html: dict[str, str]) -> list[dict[str, Any]]:
    return [
        enterprise_article(
            title, page_id, html[title], revision_id=rev, qid=_qid(qid), date_modified=when
        )
        for _, title, page_id, rev, qid, when in REAL
    ]


def _people(titles: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Wikidata items for the four real people (``titles``: their en titles, where they differ
    from the dump's)."""
    titles = titles or {}
    out = [occupation("Q36180", "writer"), occupation("Q639669", "musician")]
    for _, title, _, _, qid, _ in REAL:
        out.append(human(_qid(qid), title, MALE, ["Q36180"], {"en": titles.get(title, title)}))
    return out


def _run_text(tmp: Path, dump: Path, people: list[dict[str, Any]], *extra: str) -> Path:
    entities = write_wikidata_dump(tmp / "wd.json.bz2", people)
    out = tmp / "run"
    argv = ["text", "-q", "--langs", "en", "--entities-dump", str(entities)]
    code = main([*argv, "--dump", f"en={dump}", "--workers", "1", "--out", str(out), *extra])
    assert code == 0
    return out


def _articles(out: Path) -> dict[str, dict[str, Any]]:
    rows = (json.loads(x) for x in (out / "text" / "en.articles.jsonl").read_text().splitlines())
    return {row["title"]: row for row in rows}


def _record(out: Path) -> dict[str, Any]:
    return json.loads((out / "manifest.json").read_text())["stages"]["text"]


def _missing(out: Path) -> dict[str, dict[str, str]]:
    lines = (out / "text" / "missing.jsonl").read_text().splitlines()
    return {row["qid"]: row for row in map(json.loads, lines)}


def _prose(i: int) -> str:
    """A small Parsoid-like page whose prose the cleaning keeps."""
    return (
        '<!DOCTYPE html><html><head><meta property="mw:pageNamespace" content="0"/></head><body>'
        f'<section data-mw-section-id="0"><p><b>Person {i}</b> (born {1900 + i % 90}) is a writer '
        f"from the town of Leeds number {i}.</p><p>They studied history at the university for "
        f"{2 + i % 7} years before moving away.</p></section></body></html>"
    )


# -- the real pages, end to end ---------------------------------------------------------------


def test_text_reads_the_real_pages_as_html_to_text_does(
    tmp_path: Path, real_html: dict[str, str]
) -> None:
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, _real_articles(real_html), per_member=3)
    out = _run_text(tmp_path, dump, _people())
    articles = _articles(out)
    assert sorted(articles) == sorted(real_html)
    for _, title, page_id, rev, qid, _ in REAL:
        row = articles[title]
        assert row["text"] == html_to_text(real_html[title])  # the web source's path
        assert (row["qid"], row["page_id"], row["revision_id"]) == (_qid(qid), page_id, rev)
        assert row["revision_timestamp"] == REAL_TIMES[title]
        assert row["source"] == f"html-dump:{DUMP_NAME}"
    assert articles["Douglas Adams"]["text"].startswith("Douglas Noel Adams (11 March 1952")
    record = _record(out)
    assert record["counts"]["en.articles"] == 4 and record["counts"]["en.sentences"] > 200
    assert record["counts"]["en.dump_pages_kept"] == 4
    assert record["dump_reads"] == {"en": "Enterprise HTML dump, full scan"}
    assert record["warnings"] == []
    sentences = (out / "text" / "en.sentences.jsonl").read_text()
    assert "Hitchhiker's Guide to the Galaxy" in sentences


def test_a_renamed_page_is_found_by_its_wikidata_item(
    tmp_path: Path, real_html: dict[str, str]
) -> None:
    """The people were read when Ray Charles's page had another title: his item finds it."""
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, _real_articles(real_html))
    out = _run_text(tmp_path, dump, _people({"Ray Charles": "Ray Charles Robinson"}))
    row = _articles(out)["Ray Charles"]
    assert row["qid"] == "Q544387" and row["title"] == "Ray Charles"
    counts = _record(out)["counts"]
    assert counts["en.dump_pages_matched_by_item"] == 1 and counts["en.articles_missing"] == 0


def test_a_title_now_about_another_item_is_refused_and_listed(tmp_path: Path) -> None:
    """The person's title is, in the dump, the page of another Wikidata item: not their page."""
    articles = [enterprise_article("Alex Doe", 7, _prose(1), qid="Q999")]
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, articles)
    people = [human("Q5001", "Alex Doe", FEMALE, [], {"en": "Alex Doe"})]
    out = _run_text(tmp_path, dump, people)
    assert not _articles(out)
    row = _missing(out)["Q5001"]
    assert row["reason"] == "other_item" and "is Q999" in row["detail"]
    assert _record(out)["counts"]["en.pages_other_item"] == 1


def test_a_title_that_is_a_redirect_finds_its_target(tmp_path: Path) -> None:
    """Redirect pages are no lines of their own: each article lists the titles redirecting to
    it, and a person known by one of them gets the article (as the web source follows a
    redirect)."""
    articles = [
        enterprise_article("Alex Doe", 7, _prose(1), qid="Q5001", redirects=["Alexandra Doe"]),
        enterprise_article("Sam Roe", 8, _prose(2), redirects=["Samuel Roe"]),
    ]
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, articles)
    people = [
        human("Q5001", "Alex Doe", FEMALE, [], {"en": "Alexandra Doe"}),
        human("Q5002", "Sam Roe", MALE, [], {"en": "samuel_Roe"}),
    ]
    out = _run_text(tmp_path, dump, people)
    assert {r["qid"]: t for t, r in _articles(out).items()} == {
        "Q5001": "Alex Doe",
        "Q5002": "Sam Roe",
    }
    counts = _record(out)["counts"]
    assert counts["en.dump_pages_matched_by_redirect"] == 1  # Alex: by item first
    assert counts["en.dump_pages_matched_by_item"] == 1


def test_a_second_page_for_one_person_keeps_the_first(tmp_path: Path) -> None:
    articles = [
        enterprise_article("Alex Doe", 7, _prose(1), qid="Q5001"),
        enterprise_article("Alex Doe (writer)", 9, _prose(2), qid="Q5001"),
    ]
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, articles)
    out = _run_text(tmp_path, dump, [human("Q5001", "Alex Doe", FEMALE, [], {"en": "Alex Doe"})])
    assert [r["page_id"] for r in _articles(out).values()] == [7]
    assert _record(out)["counts"]["en.pages_duplicate_item"] == 1


# -- reading the dump --------------------------------------------------------------------------


def test_the_reader_gives_every_field(tmp_path: Path) -> None:
    article = enterprise_article(
        "Ada Lovelace", 974, _prose(1), revision_id=1234, qid="Q7259", redirects=["Ada King"],
        date_modified="2024-02-29T23:30:00.123-01:00", lang="en",
    )  # fmt: skip
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, [article])
    [page] = iter_html_pages(dump)
    assert (page.title, page.page_id, page.revision_id, page.qid) == (
        "Ada Lovelace", 974, 1234, "Q7259",
    )  # fmt: skip
    assert page.timestamp == "2024-03-01T00:30:00Z"
    assert page.html == _prose(1) and page.redirects == ("Ada King",)
    assert page.language == "en" and page.url == "https://en.wikipedia.org/wiki/Ada_Lovelace"


@pytest.mark.parametrize("codec", ["gz", "bz2", "xz", "plain"])
@pytest.mark.parametrize("tar_format", [tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
def test_any_codec_and_long_member_names_are_read(
    tmp_path: Path, codec: str, tar_format: int
) -> None:
    import io

    long_name = "enwiki_namespace_0_" + "x" * 150 + ".ndjson"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tar_format) as tar:
        tar.addfile(tarfile.TarInfo("folder"), None)  # a directory entry: passed over
        tar.getmember("folder").type = tarfile.DIRTYPE
        for name, lines in ((long_name, [1, 2]), ("b.ndjson", [3])):
            data = ndjson(enterprise_article(f"P {i}", i, _prose(i)) for i in lines)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.pax_headers = {"comment": "é" * 10}  # a pax header wherever the format has one
            tar.addfile(info, io.BytesIO(data))
    compress = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}
    raw = buf.getvalue()
    dump = tmp_path / f"dump.{codec}"
    dump.write_bytes(compress[codec](raw) if codec in compress else raw)
    assert is_enterprise_html_dump(dump)
    assert [p.page_id for p in iter_html_pages(dump)] == [1, 2, 3]


def test_an_xml_dump_is_not_an_enterprise_dump(tmp_path: Path) -> None:
    xml = write_pages_dump(tmp_path / "enwiki.xml.bz2", [("A", "'''A''' is a page.")])
    empty = tmp_path / "empty.json.tar.gz"
    empty.write_bytes(b"")
    text = tmp_path / "notes.gz"
    text.write_bytes(gzip.compress(b"just some words, no tar header " * 40))
    assert not any(map(is_enterprise_html_dump, [xml, empty, text, tmp_path / "absent"]))
    with pytest.raises(DumpError, match="is not a Wikimedia Enterprise HTML dump: it is not a tar"):
        list(iter_html_pages(text))


def test_titles_are_found_however_the_json_spells_them(tmp_path: Path) -> None:
    """Only lines whose raw bytes can hold a wanted title or item are parsed: the shortcut must
    find a title escaped (ASCII-only JSON, ``\\u0026``), spaced (`": "`), or given as the
    person's title is (underscores, lower-case first letter)."""
    titles = ["Gabriel García Márquez", "AT&T Smith", "Ωmega Person", 'Zoë "Z" Doe', "Ed_Li"]
    lines = []
    for i, title in enumerate(titles, 1):
        article = enterprise_article(title.replace("_", " "), i, _prose(i), qid=f"Q{100 + i}")
        lines.append(json.dumps(article, ensure_ascii=True).replace("&", "\\u0026").encode())
        lines.append(json.dumps({**article, "identifier": 50 + i}, ensure_ascii=False).encode())
    lines.append(ndjson([enterprise_article("Not Wanted", 99, _prose(9))]).strip())
    dump = tmp_path / DUMP_NAME
    dump.write_bytes(gzip.compress(tar_bytes({"a.ndjson": ndjson(lines)})))
    asked = ["gabriel García Márquez", "AT&T_Smith", "ωmega Person", 'Zoë "Z" Doe', "Ed Li"]
    stats: collections.Counter[str] = collections.Counter()
    got = [p.page_id for p in iter_html_pages(dump, titles=asked, stats=stats)]
    assert got == [1, 51, 2, 52, 3, 53, 4, 54, 5, 55]
    assert stats["pages_skipped_not_requested"] == 1 and stats["lines_read"] == 11
    # and by item alone, whatever the title
    assert [p.page_id for p in iter_html_pages(dump, titles=[], qids=["Q103"])] == [3, 53]


def test_other_namespaces_and_redirect_pages_are_counted_skips(tmp_path: Path) -> None:
    redirect_html = '<html><body><link rel="mw:PageProp/redirect" href="./Alex_Doe"/></body></html>'
    articles = [
        enterprise_article("Alex Doe", 1, _prose(1)),
        enterprise_article("Talk:Alex Doe", 2, _prose(2), namespace=1),
        enterprise_article("Alex Doe", 3, _prose(3), namespace=118),
        enterprise_article("Alexandra Doe", 4, redirect_html),
    ]
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, articles)
    stats: collections.Counter[str] = collections.Counter()
    pages = list(iter_html_pages(dump, titles=["Alex Doe", "Alexandra Doe"], stats=stats))
    assert [p.page_id for p in pages] == [1]
    assert stats["pages_skipped_namespace"] == 1  # ns 118 with the wanted title
    assert stats["pages_skipped_redirect"] == 1
    assert stats["pages_skipped_not_requested"] == 1  # "Talk:Alex Doe" is not a wanted title
    assert [p.page_id for p in iter_html_pages(dump)] == [1]  # every page: only ns 0, no redirect


def test_a_bad_json_line_is_a_counted_skip_named_in_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = [enterprise_article(f"Person {i}", i, _prose(i), qid=f"Q{5000 + i}") for i in (1, 3)]
    broken = b'{"name":"Person 2","identifier":2,"article_body":{"html":"<p>cut'
    dump = tmp_path / DUMP_NAME
    dump.write_bytes(
        gzip.compress(tar_bytes({"part_0.ndjson": ndjson([good[0], broken, good[1]])}))
    )
    out = _run_text(
        tmp_path, dump,
        [human(f"Q{5000 + i}", f"Person {i}", FEMALE, [], {"en": f"Person {i}"})
         for i in (1, 2, 3)],
    )  # fmt: skip
    assert sorted(_articles(out)) == ["Person 1", "Person 3"]
    record = _record(out)
    assert record["counts"]["en.dump_lines_bad_json"] == 1
    assert _missing(out)["Q5002"]["reason"] == "not_in_dump"
    [warning] = record["warnings"]
    assert f"{DUMP_NAME}: 1 line(s) skipped as unreadable" in warning
    assert "'Person 2' at line 2 of part_0.ndjson skipped: not JSON" in capsys.readouterr().err


def test_a_huge_line_is_skipped_without_holding_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A line past the limit is never held whole: it is counted, logged with its title, member
    and line, and the next line reads as usual."""
    huge = enterprise_article("Huge Page", 2, "<p>" + "word " * 200_000 + "</p>")
    articles = [
        enterprise_article("Small A", 1, _prose(1)),
        huge,
        enterprise_article("Small B", 3, _prose(3)),
    ]
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, articles)
    stats: collections.Counter[str] = collections.Counter()
    with caplog.at_level(logging.WARNING):
        pages = list(iter_html_pages(dump, stats=stats, max_line_bytes=64 << 10))
    assert [p.title for p in pages] == ["Small A", "Small B"]
    assert stats["lines_too_large"] == 1 and stats["lines_read"] == 3
    assert "'Huge Page' at line 2 of enwiki_namespace_0_0.ndjson skipped" in caplog.text
    assert "passes 65,536 bytes" in caplog.text


def _cut(data: bytes, where: str) -> bytes:
    return data[: len(data) // 2] if where == "middle" else data[:-6]


@pytest.mark.parametrize("where", ["middle", "trailer"])
def test_a_truncated_dump_keeps_its_pages_and_says_so(tmp_path: Path, where: str) -> None:
    import random

    rng = random.Random(3)
    people = [human(f"Q{6000 + i}", f"P {i}", FEMALE, [], {"en": f"Person {i}"}) for i in range(40)]
    articles = [
        enterprise_article(f"Person {i}", i + 1, _prose(i) + f"<!-- {rng.randbytes(900).hex()} -->")
        for i in range(40)
    ]
    full = tmp_path / "full.json.tar.gz"
    write_enterprise_dump(full, articles, per_member=15)
    dump = tmp_path / DUMP_NAME
    dump.write_bytes(_cut(full.read_bytes(), where))
    out = _run_text(tmp_path, dump, people)
    record = _record(out)
    [warning] = record["warnings"]
    assert f"dump {DUMP_NAME} is truncated" in warning and "gzip stream ends early" in warning
    assert "the pages read before the break are kept" in warning
    n = record["counts"]["en.articles"]
    assert (n == 40) if where == "trailer" else (0 < n < 40)


def test_a_tar_cut_short_without_compression_says_where(tmp_path: Path) -> None:
    data = tar_bytes(
        {f"m{j}.ndjson": ndjson(enterprise_article(f"P{j}{i}", 10 * j + i, _prose(i))
                                for i in range(5)) for j in range(2)}
    )  # fmt: skip
    dump = tmp_path / "dump.tar"
    dump.write_bytes(data[: data.index(b'"P12"')])  # inside the second member's third line
    pages = []
    with pytest.raises(TruncatedHtmlDumpError) as info:
        pages.extend(iter_html_pages(dump))
    assert isinstance(info.value, TruncatedDumpError)  # what the text stage keeps pages after
    assert 5 <= len(pages) < 10 and info.value.pages_read == len(pages)
    assert "of m1.ndjson" in str(info.value) and "the tar archive ends" in str(info.value)


def test_a_fifo_is_a_one_line_error_without_hanging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / DUMP_NAME
    os.mkfifo(fifo)
    assert not is_enterprise_html_dump(fifo)
    with pytest.raises(DumpError, match="is not a regular file"):
        list(iter_html_pages(fifo))
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", _people())
    argv = ["text", "--langs", "en", "--entities-dump", str(entities), "--dump", f"en={fifo}"]
    assert main([*argv, "--out", str(tmp_path / "run")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert "is not a regular file" in err[-1] and "Traceback" not in "".join(err)


def test_a_multistream_index_for_an_enterprise_dump_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, [enterprise_article("A", 1, _prose(1))])
    index = tmp_path / "index.txt.bz2"
    index.write_bytes(bz2.compress(b"1:1:A\n"))
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", _people())
    argv = ["text", "--langs", "en", "--entities-dump", str(entities), "--dump", f"en={dump}"]
    assert main([*argv, "--dump-index", f"en={index}", "--out", str(tmp_path / "run")]) != 0
    assert "is a Wikimedia Enterprise HTML dump, which has no multistream index" in (
        capsys.readouterr().err
    )


def test_a_changed_dump_file_runs_the_stage_again(tmp_path: Path) -> None:
    """The stage's fingerprint holds the dump's identity: another file, another run."""
    people = [human("Q5001", "Alex Doe", FEMALE, [], {"en": "Alex Doe"})]
    dump = write_enterprise_dump(
        tmp_path / DUMP_NAME, [enterprise_article("Alex Doe", 1, _prose(1))]
    )
    out = _run_text(tmp_path, dump, people)
    first = _record(out)["fingerprint"]
    write_enterprise_dump(dump, [enterprise_article("Alex Doe", 1, _prose(2), revision_id=77)])
    out = _run_text(tmp_path, dump, people)
    assert _record(out)["fingerprint"] != first
    assert next(iter(_articles(out).values()))["revision_id"] == 77


# -- mine, resume, Dask -------------------------------------------------------------------------


@pytest.mark.slow
def test_mine_runs_to_a_corpus_from_enterprise_dumps(tmp_path: Path) -> None:
    """Two languages, each from an Enterprise dump: the whole pipeline, with provenance."""
    n = 12
    people = [
        human(f"Q{7000 + i}", f"Person {i}", FEMALE if i % 2 else MALE, ["Q36180"],
              {"en": f"Person {i}", "es": f"Persona {i}"})
        for i in range(n)
    ]  # fmt: skip
    entities = write_wikidata_dump(
        tmp_path / "wd.json.bz2", [occupation("Q36180", "writer"), *people]
    )
    es_html = _prose(0).replace(
        "<p><b>Person 0</b> (born 1900) is a writer from the town of Leeds number 0.</p>"
        "<p>They studied history at the university for 2 years before moving away.</p>",
        "<p><b>Persona {i}</b> es una escritora de la ciudad de Leeds número {i}.</p>"
        "<p>Estudió historia en la universidad durante {y} años antes de mudarse.</p>",
    )
    assert "Persona {i}" in es_html
    en = write_enterprise_dump(
        tmp_path / DUMP_NAME,
        [enterprise_article(f"Person {i}", i + 1, _prose(i), qid=f"Q{7000 + i}") for i in range(n)],
    )
    es = write_enterprise_dump(
        tmp_path / "eswiki-NS0-20240601-ENTERPRISE-HTML.json.tar.gz",
        [
            enterprise_article(f"Persona {i}", i + 1, es_html.format(i=i, y=2 + i % 7),
                               qid=f"Q{7000 + i}", lang="es")
            for i in range(n)
        ],
        prefix="eswiki_namespace_0",
    )  # fmt: skip
    out = tmp_path / "run"
    argv = ["mine", "-q", "--langs", "en,es", "--entities-dump", str(entities)]
    argv += ["--dump", f"en={en}", "--dump", f"es={es}", "--out", str(out)]
    assert main(argv) == 0
    stages = json.loads((out / "manifest.json").read_text())["stages"]
    assert stages["text"]["counts"]["es.articles"] == n
    assert stages["write"]["status"] == "done"
    row = json.loads((out / "text" / "es.articles.jsonl").read_text().splitlines()[0])
    assert row["source"].startswith("html-dump:eswiki-NS0") and row["revision_id"] == 10


def _resume_inputs(d: Path, n: int) -> tuple[Path, Path]:
    people = [
        human(f"Q{900000 + i}", f"Person {i}", FEMALE if i % 3 == 0 else MALE, [],
              {"en": f"Person {i}"})
        for i in range(n)
    ]  # fmt: skip
    entities = write_wikidata_dump(d / "wd.json.bz2", people)
    articles = [
        enterprise_article(f"Person {i}", i + 1, _prose(i), qid=f"Q{900000 + i}") for i in range(n)
    ]
    dump = write_enterprise_dump(d / DUMP_NAME, articles, per_member=97)
    return entities, dump


@pytest.mark.slow
def test_kill_9_mid_text_stage_then_resume_is_identical(tmp_path: Path) -> None:
    from tests.test_resume import CONSUMED_AT_LEAST, HANG_GUARD, kill_at

    entities, dump = _resume_inputs(tmp_path, 400)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}

    def args(out: Path, workers: int) -> list[str]:
        return [
            "text", "--langs", "en", "--quiet", "--entities-dump", str(entities),
            "--dump", f"en={dump}", "--checkpoint-every", "20", "--workers", str(workers),
            "--out", str(out),
        ]  # fmt: skip

    names = ["entities.jsonl", "text/en.articles.jsonl", "text/en.sentences.jsonl"]
    ref = tmp_path / "reference"
    cmd = [sys.executable, "-m", "occbio.cli"]
    subprocess.run([*cmd, *args(ref, 1)], check=True, env=env, timeout=HANG_GUARD)
    expected = {n: (ref / n).read_bytes() for n in names}
    assert expected["text/en.articles.jsonl"].count(b"\n") == 400

    out = tmp_path / "killed"
    kill_at("text", CONSUMED_AT_LEAST.format(at=100), args(out, 2), env=env)
    assert json.loads((out / "manifest.json").read_text())["stages"]["text"]["status"] == "running"
    done = subprocess.run(
        [*cmd, *args(out, 2)], env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 0, done.stderr
    assert {n: (out / n).read_bytes() for n in names} == expected
    record = _record(out)
    assert record["resumed"] == 1 and record["counts"] == _record(ref)["counts"]


@pytest.mark.slow
def test_text_from_an_enterprise_dump_on_a_dask_local_cluster(
    tmp_path: Path, real_html: dict[str, str]
) -> None:
    pytest.importorskip("distributed")
    dump = write_enterprise_dump(tmp_path / DUMP_NAME, _real_articles(real_html))
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", _people())
    argv = ["text", "-q", "--langs", "en", "--entities-dump", str(entities), "--dump", f"en={dump}"]
    assert main([*argv, "--workers", "1", "--out", str(tmp_path / "local")]) == 0
    dask = ["--executor", "dask", "--workers", "2", "--out", str(tmp_path / "dask")]
    assert main([*argv, *dask]) == 0
    for name in ("text/en.articles.jsonl", "text/en.sentences.jsonl", "text/missing.jsonl"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_category_from_an_html_dump_sees_template_added_categories(tmp_path: Path) -> None:
    """The Enterprise line lists the article's rendered categories, those a template adds
    (eswiki's {{NF|1942|…}}) included: ``--category`` keeps exactly their members."""
    articles = [
        enterprise_article("Ana", 1, _prose(1), lang="es", categories=["Nacidos en 1942"]),
        enterprise_article("Beto", 2, _prose(2), lang="es", categories=["Nacidos en 1950"]),
    ]
    dump = write_enterprise_dump(tmp_path / "eswiki-NS0-20240601-ENTERPRISE-HTML.json.tar.gz",
                                 articles, prefix="eswiki_namespace_0")  # fmt: skip
    people = [occupation("Q36180", "writer")]
    people += [human(f"Q{i}", t, MALE, ["Q36180"], {"es": t}) for i, t in ((1, "Ana"), (2, "Beto"))]
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    out = tmp_path / "run"
    argv = ["entities", "-q", "--langs", "es", "--entities-dump", str(entities)]
    argv += ["--dump", f"es={dump}", "--category", "Nacidos en 1942", "--out", str(out)]
    assert main(argv) == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["entities"]
    kept = [json.loads(x)["label"] for x in (out / "entities.jsonl").read_text().splitlines()]
    assert kept == ["Ana"]
    assert record["counts"]["category_pages"] == 2
    assert not record.get("warnings")
