"""Multistream dumps read through their index: the full scan's pages, only the needed streams.

Each dump here is built in the real layout (a header stream, streams of pages, a stream with
``</mediawiki>``; an ``OFFSET:PAGE_ID:TITLE`` index) by :func:`write_multistream`; the
reference is always :func:`iter_pages` reading the same file from end to end.
"""

from __future__ import annotations

import bz2
import json
import logging
import re
import shutil
from collections import Counter
from collections.abc import Collection
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from occbio.cli import main
from occbio.extract.mediawiki import normalise_title
from occbio.extract.multistream import DumpRead, read_pages, write_multistream
from occbio.extract.multistream_index import _is_normal, find_index, index_candidates
from occbio.extract.wikipedia_dump import DumpError, Page, iter_pages
from tests.factories import human, write_wikidata_dump
from tests.test_wikipedia_dump import BIOGRAPHIES, DUMPS, ENWIKI, dump_xml, page_xml

NAME = "enwiki-20240101-pages-articles-multistream.xml.bz2"
INDEX = "enwiki-20240101-pages-articles-multistream-index.txt.bz2"
HEADER = dump_xml([]).removesuffix("</mediawiki>\n").encode()

Entry = tuple[int, str, bytes]


def article(i: int, title: str | None = None, **kwargs: object) -> Entry:
    title = title or f"Person {i}"
    text = f"'''{title}''' (born {1800 + i}) was a writer. She wrote {i} novels."
    return i, title, page_xml(title, text, page_id=i, **kwargs).encode()  # type: ignore[arg-type]


def mixed_pages(n: int) -> list[Entry]:
    """Articles, with a redirect every 5th page and a talk page every 7th."""
    pages = []
    for i in range(1, n + 1):
        if i % 5 == 0:
            pages.append(article(i, f"Redirect {i}", redirect_to="Person 1"))
        elif i % 7 == 0:
            pages.append(article(i, f"Talk:Person {i}", ns=1))
        else:
            pages.append(article(i))
    return pages


def build(tmp_path: Path, pages: list[Entry], *, per_stream: int = 3, name: str = NAME) -> Path:
    path = tmp_path / name
    write_multistream(path, HEADER, pages, pages_per_stream=per_stream, compresslevel=1)
    return path


def offsets(index: Path) -> list[int]:
    """The index's stream offsets, in order."""
    lines = bz2.decompress(index.read_bytes()).decode().splitlines()
    return sorted({int(line.split(":", 1)[0]) for line in lines})


def rewrite_index(index: Path, edit: object) -> None:
    lines = bz2.decompress(index.read_bytes()).decode().splitlines(keepends=True)
    index.write_bytes(bz2.compress("".join(edit(lines)).encode()))  # type: ignore[operator]


def full_scan(path: Path, titles: Collection[str] | None) -> tuple[list[Page], Counter[str]]:
    stats: Counter[str] = Counter()
    return list(iter_pages(path, titles=titles, stats=stats)), stats


def indexed(
    path: Path, titles: Collection[str] | None, **kwargs: object
) -> tuple[list[Page], Counter[str], DumpRead]:
    stats: Counter[str] = Counter()
    read = DumpRead()
    pages = list(read_pages(path, titles=titles, stats=stats, report=read, **kwargs))  # type: ignore[arg-type]
    return pages, stats, read


def page_counts(stats: Counter[str]) -> Counter[str]:
    return Counter({k: v for k, v in stats.items() if k.startswith("pages_") and v})


# -- the same pages as the full scan, from the needed streams only ------------------------------


def test_wanted_titles_come_from_their_streams_only(tmp_path: Path) -> None:
    path = build(tmp_path, mixed_pages(30))  # 10 streams of 3 pages
    # Person 4 and Person 6 share stream 2 (pages 4-6); Person 22 is in stream 8 (pages 22-24).
    wanted = ["Person 22", "person_4", "  Person   6 ", "Redirect 10", "Talk:Person 14", "Nobody"]
    pages, stats, read = indexed(path, wanted)
    reference, full = full_scan(path, wanted)
    assert pages == reference
    assert [p.title for p in pages] == ["Person 4", "Person 6", "Person 22"]
    assert read.method == "index" and read.index == tmp_path / INDEX
    # Redirect 10 (stream 4) and Talk:Person 14 (stream 5) are in the index: their streams are
    # read, and their pages skipped for the same reasons as in the full scan (redirects 5, 10
    # and 15 are in the streams read).
    assert stats["streams_total"] == 10 and stats["streams_read"] == 4
    assert stats["pages_read"] == 12 and full["pages_read"] == 30
    assert stats["pages_kept"] == full["pages_kept"] == 3
    assert stats["pages_skipped_redirect"] == 3 and stats["pages_skipped_namespace"] == 1
    assert "4 of 10 bz2 streams read" in read.describe()


def test_real_enwiki_excerpt_as_a_multistream_dump(shared_data: Path, tmp_path: Path) -> None:
    """The 206 pages of the real excerpt, 10 to a stream: the 11 biographies, byte for byte."""
    source = shared_data / DUMPS / ENWIKI
    path = build(tmp_path, real_pages(source), per_stream=10)
    reference, _ = full_scan(source, BIOGRAPHIES)
    pages, stats, read = indexed(path, [t[0].lower() + t[1:] for t in BIOGRAPHIES])
    assert len(pages) == 11 and pages == reference
    assert read.method == "index"
    assert stats["streams_total"] == 21 and stats["streams_read"] < 21
    assert stats["pages_read"] == 10 * stats["streams_read"]


def real_pages(dump: Path) -> list[Entry]:
    """Each <page> of a real dump with its id and title (the real excerpt has no entities in
    its titles)."""
    xml = bz2.decompress(dump.read_bytes())
    pages = []
    for match in re.finditer(rb"  <page>.*?</page>\n", xml, re.S):
        page = match.group(0)
        page_id = re.search(rb"<id>(\d+)</id>", page)
        title = re.search(rb"<title>([^<]*)</title>", page)
        assert page_id and title
        pages.append((int(page_id.group(1)), title.group(1).decode(), page))
    return pages


def test_all_pages_when_no_titles_are_given(tmp_path: Path) -> None:
    path = build(tmp_path, mixed_pages(20), per_stream=4)
    pages, stats, _ = indexed(path, None)
    reference, full = full_scan(path, None)
    assert pages == reference and page_counts(stats) == page_counts(full)
    assert stats["streams_read"] == stats["streams_total"] == 5


def test_one_or_two_workers_give_the_same_pages_in_the_same_order(tmp_path: Path) -> None:
    pages = mixed_pages(120)
    path = build(tmp_path, pages, per_stream=5)
    wanted = [title for i, title, _ in pages if i % 3 == 0]
    reference, full = full_scan(path, wanted)
    one, stats_one, _ = indexed(path, wanted, workers=1)
    two, stats_two, read_two = indexed(path, wanted, workers=2)
    assert one == two == reference
    assert stats_one == stats_two
    assert page_counts(stats_one)["pages_kept"] == full["pages_kept"]
    assert read_two.workers == 2


@pytest.mark.parametrize("escaped", [True, False])
def test_titles_with_markup_characters_are_found_escaped_or_not(
    tmp_path: Path, escaped: bool
) -> None:
    """Wikimedia's index writes titles as the XML does (``AT&amp;T``); a mirror may not."""
    pages = [*mixed_pages(6), article(7, "AT&T"), article(8, 'The "Quoted" One')]
    path = build(tmp_path, pages, per_stream=2)

    def escape(lines: list[str]) -> list[str]:
        return [ln.replace("&", "&amp;").replace('"', "&quot;") for ln in lines]

    if escaped:
        rewrite_index(tmp_path / INDEX, escape)
    wanted = ["AT&T", 'The "Quoted" One']
    got, stats, read = indexed(path, wanted)
    assert got == full_scan(path, wanted)[0] and len(got) == 2
    assert read.method == "index" and stats["streams_read"] == 1


def test_an_uncompressed_index_is_found_too(tmp_path: Path) -> None:
    path = tmp_path / NAME
    plain = tmp_path / INDEX.removesuffix(".bz2")
    write_multistream(path, HEADER, mixed_pages(9), index=plain, pages_per_stream=3)
    assert index_candidates(path) == [tmp_path / INDEX, plain]
    assert find_index(path) == plain
    got, stats, read = indexed(path, ["Person 8"])
    assert [p.title for p in got] == ["Person 8"] and read.index == plain
    assert stats["streams_read"] == 1


def test_a_broken_page_in_a_stream_is_skipped_as_in_the_full_scan(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = (2, "Person 2", page_xml("Person 2", "bell \x07", page_id=2).encode())
    pages = mixed_pages(6)
    pages[1] = broken
    path = build(tmp_path, pages)
    with caplog.at_level(logging.WARNING, "occbio.extract.wikipedia_dump"):
        got, stats, _ = indexed(path, ["Person 1", "Person 2"])
    assert [p.title for p in got] == ["Person 1"]
    assert stats["pages_skipped_bad_xml"] == 1 and stats["streams_read"] == 1
    [message] = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    first = offsets(tmp_path / INDEX)[0]
    assert message.startswith(f"{NAME}: page 'Person 2' at byte ")
    assert f"in the bz2 stream at byte {first:,}" in message and "not well-formed" in message


# -- the full scan when there is no index, or one that does not fit ----------------------------


def test_no_index_means_a_full_scan(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = build(tmp_path, mixed_pages(12))
    (tmp_path / INDEX).unlink()
    with caplog.at_level(logging.INFO, "occbio.extract.multistream"):
        got, stats, read = indexed(path, ["Person 3"])
    assert got == full_scan(path, ["Person 3"])[0]
    assert read.method == "full_scan" and "no multistream index" in read.reason
    assert "streams_read" not in stats and stats["pages_read"] == 12
    assert any(INDEX in r.getMessage() for r in caplog.records)
    assert not read.warnings  # nothing is wrong: the dump is simply read whole


def test_use_index_false_reads_the_whole_dump(tmp_path: Path) -> None:
    path = build(tmp_path, mixed_pages(12))
    got, stats, read = indexed(path, ["Person 3"], use_index=False)
    assert [p.title for p in got] == ["Person 3"] and read.method == "full_scan"
    assert stats["pages_read"] == 12


def test_a_given_index_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    path = build(tmp_path, mixed_pages(3))
    with pytest.raises(DumpError, match="multistream index not found"):
        indexed(path, None, index=tmp_path / "nope-index.txt.bz2")


def _index_of_another_dump(tmp_path: Path, path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    longer = [article(i, f"Someone else {i}") for i in range(1, 13)]
    build(other, longer)
    shutil.copy(other / INDEX, tmp_path / INDEX)


def _index_without_its_last_stream(tmp_path: Path, path: Path) -> None:
    last = offsets(tmp_path / INDEX)[-1]
    rewrite_index(
        tmp_path / INDEX, lambda lines: [ln for ln in lines if int(ln.split(":")[0]) != last]
    )


def _index_with_a_wrong_id_in_the_first_stream(tmp_path: Path, path: Path) -> None:
    rewrite_index(tmp_path / INDEX, lambda lines: [lines[0].replace(":1:", ":99:"), *lines[1:]])


def _index_shifted_by_one_byte(tmp_path: Path, path: Path) -> None:
    def shift(lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            offset, rest = line.split(":", 1)
            out.append(f"{int(offset) + 1}:{rest}")
        return out

    rewrite_index(tmp_path / INDEX, shift)


def _single_stream_dump(tmp_path: Path, path: Path) -> None:
    path.write_bytes(bz2.compress(bz2.decompress(path.read_bytes())))


def _garbage_index(tmp_path: Path, path: Path) -> None:
    (tmp_path / INDEX).write_bytes(bz2.compress(b"this is not an index\n"))


MISFITS = {
    "index_of_another_dump": _index_of_another_dump,
    "index_without_its_last_stream": _index_without_its_last_stream,
    "wrong_id_in_the_first_stream": _index_with_a_wrong_id_in_the_first_stream,
    "index_shifted_by_one_byte": _index_shifted_by_one_byte,
    "dump_not_multistream": _single_stream_dump,
    "garbage_index": _garbage_index,
}


@pytest.mark.parametrize("misfit", sorted(MISFITS))
def test_an_index_that_does_not_fit_means_a_full_scan_with_a_warning(
    tmp_path: Path, misfit: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = build(tmp_path, mixed_pages(12))
    MISFITS[misfit](tmp_path, path)
    wanted = [f"Person {i}" for i in range(1, 13)]
    reference, full = full_scan(path, wanted)
    with caplog.at_level(logging.WARNING, "occbio.extract.multistream"):
        got, stats, read = indexed(path, wanted, workers=2)
    assert got == reference and len(got) == 9  # no page lost
    assert page_counts(stats) == page_counts(full) and "streams_read" not in stats
    assert read.method == "full_scan" and "does not fit the dump" in read.reason
    [warning] = read.warnings
    assert warning in caplog.text and "reading the whole dump" in warning


def test_an_index_that_stops_fitting_midway_loses_no_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """40 streams: the ids of stream 5, which the up-front check does not sample, are wrong in
    the index; reading it shows that, and a full scan yields the pages not yet yielded."""
    pages = mixed_pages(120)
    path = build(tmp_path, pages)  # 40 streams of 3
    fifth = offsets(tmp_path / INDEX)[5]

    def wrong_ids(lines: list[str]) -> list[str]:
        return [ln.replace(":16:", ":1016:") if ln.startswith(f"{fifth}:") else ln for ln in lines]

    rewrite_index(tmp_path / INDEX, wrong_ids)
    wanted = ["Person 11", "Person 17", "Person 62", "Person 100"]  # streams 3, 5, 20, 33
    reference, full = full_scan(path, wanted)
    with caplog.at_level(logging.WARNING, "occbio.extract.multistream"):
        got, stats, read = indexed(path, wanted)
    assert got == reference
    assert read.method == "index_then_full_scan" and "not the index's" in read.reason
    assert stats["streams_read"] == 2  # stream 3 (yielded), stream 5 (did not fit)
    assert page_counts(stats) == page_counts(full)  # the counts are the full scan's
    assert any("the rest is read by a full scan" in w for w in read.warnings)


# -- damaged streams ---------------------------------------------------------------------------


def corrupt_stream(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset + 100] ^= 0xFF  # inside the first block's Huffman-coded data
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_damaged_stream_is_skipped_and_counted(
    tmp_path: Path, workers: int, caplog: pytest.LogCaptureFixture
) -> None:
    path = build(tmp_path, mixed_pages(30))
    damaged = offsets(tmp_path / INDEX)[3]  # pages 10-12
    corrupt_stream(path, damaged)
    with caplog.at_level(logging.WARNING, "occbio.extract.multistream"):
        got, stats, read = indexed(path, ["Person 2", "Person 11", "Person 29"], workers=workers)
    assert [p.title for p in got] == ["Person 2", "Person 29"]
    assert stats["streams_skipped_corrupt"] == 1 and stats["pages_skipped_corrupt_stream"] == 3
    assert stats["streams_read"] == 3 and read.method == "index"
    assert f"the bz2 stream at byte {damaged:,} is damaged" in caplog.text
    [warning] = read.warnings
    assert "1 damaged bz2 stream(s) skipped, 3 page(s)" in warning
    with pytest.raises(DumpError):  # the full scan cannot go past the damage
        full_scan(path, ["Person 29"])


# -- the text stage ----------------------------------------------------------------------------


def _text_outputs(run: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((run / "text").iterdir()) if p.is_file()}


def test_text_stage_gives_the_same_outputs_with_and_without_the_index(
    shared_data: Path, tmp_path: Path
) -> None:
    people = [
        human(f"Q{i}", title, "Q6581097", [], {"en": title.replace(" ", "_")})
        for i, title in enumerate(BIOGRAPHIES, 1)
    ]
    people.append(human("Q99", "Nobody Here", "Q6581072", [], {"en": "Nobody Here"}))
    wd = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    indexed_dir, plain_dir, elsewhere = (tmp_path / d for d in ("indexed", "plain", "elsewhere"))
    for folder in (indexed_dir, plain_dir, elsewhere):
        folder.mkdir()
    dump = build(indexed_dir, real_pages(shared_data / DUMPS / ENWIKI), per_stream=10)
    shutil.copy(dump, plain_dir / NAME)
    shutil.copy(dump, elsewhere / NAME)
    shutil.move(indexed_dir / INDEX, elsewhere / "my-index.txt.bz2")
    shutil.copy(elsewhere / "my-index.txt.bz2", indexed_dir / INDEX)

    def text(folder: Path, *extra: str) -> dict:
        out = tmp_path / f"run-{folder.name}"
        args = ["text", "-q", "--langs", "en", "--entities-dump", str(wd), "--out", str(out)]
        assert main([*args, "--dump", f"en={folder / NAME}", *extra]) == 0
        return json.loads((out / "manifest.json").read_text())["stages"]["text"]

    with_index = text(indexed_dir, "--workers", "2")
    without = text(plain_dir)
    given = text(elsewhere, "--dump-index", f"en={elsewhere / 'my-index.txt.bz2'}")
    outputs = _text_outputs(tmp_path / "run-indexed")
    assert (
        outputs
        == _text_outputs(tmp_path / "run-plain")
        == _text_outputs(tmp_path / "run-elsewhere")
    )
    assert b"Albert Einstein" in outputs["en.articles.jsonl"] and b"Q99" in outputs["missing.jsonl"]

    assert with_index["dump_reads"]["en"].startswith(f"multistream index {INDEX}: ")
    assert given["dump_reads"]["en"].startswith("multistream index my-index.txt.bz2: ")
    assert without["dump_reads"]["en"].startswith("full scan (no multistream index")
    counts, plain_counts = with_index["counts"], without["counts"]
    assert counts["en.articles"] == plain_counts["en.articles"] == 11
    assert counts["en.dump_streams_total"] == 21
    assert counts["en.dump_streams_read"] < 21 and "en.dump_streams_read" not in plain_counts
    assert counts["en.dump_pages_read"] < plain_counts["en.dump_pages_read"] == 206


@settings(max_examples=1000, deadline=None)
@given(
    st.text(
        alphabet=st.characters(max_codepoint=0x7F) | st.sampled_from("é\xa0ßǆ\u3000"), max_size=12
    )
)
def test_index_titles_are_normalised_as_iter_pages_does(title: str) -> None:
    """The quick test that spares most index titles normalise_title never lets one through
    that normalise_title would change."""
    if _is_normal(title):
        assert normalise_title(title) == title
