"""One broken page in a pages-articles dump is skipped, counted and logged; the rest is read.

The malformed corpus is generated here: each case is a real dump (schema 0.10, bz2) whose
second page carries one defect, between two good pages.
"""

from __future__ import annotations

import bz2
import json
import logging
from collections import Counter
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.extract.wikipedia_dump import DumpError, TruncatedDumpError, iter_pages
from tests.factories import human, write_wikidata_dump

EXPORT_NS = "http://www.mediawiki.org/xml/export-0.10/"


def page(title: str, text: bytes, page_id: int) -> bytes:
    return (
        b"  <page>\n    <title>" + title.encode() + b"</title>\n    <ns>0</ns>\n"
        b"    <id>" + str(page_id).encode() + b"</id>\n    <revision>\n"
        b"      <id>" + str(page_id * 10).encode() + b"</id>\n"
        b'      <text xml:space="preserve">' + text + b"</text>\n    </revision>\n  </page>\n"
    )


def dump(pages: list[bytes], *, doctype: bytes = b"") -> bytes:
    head = (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        + doctype
        + b'<mediawiki xmlns="'
        + EXPORT_NS.encode()
        + b'" version="0.10" xml:lang="en">\n  <siteinfo><sitename>Wikipedia</sitename>'
        b'<namespaces><namespace key="0" /></namespaces></siteinfo>\n'
    )
    return head + b"".join(pages) + b"</mediawiki>\n"


GOOD_FIRST = page("Ada Lovelace", b"'''Ada Lovelace''' was an English mathematician.", 1)
GOOD_LAST = page("Emmy Noether", b"'''Emmy Noether''' was a German mathematician.", 3)

#: name -> the broken middle page's text (or the whole page, for structural defects)
DEFECTS: dict[str, bytes] = {
    "control_char": page("Broken", b"A bell \x07 rings.", 2),
    "nul": page("Broken", b"A NUL \x00 byte.", 2),
    "char_ref_to_illegal_char": page("Broken", b"A reference &#1; to U+0001.", 2),
    "invalid_utf8": page("Broken", b"Caf\xe9 in Latin-1, not UTF-8.", 2),
    "undefined_entity": page("Broken", b"An HTML entity&nbsp;left raw.", 2),
    "text_node_over_10mb": page("Broken", b"x" * (10 * 1024 * 1024 + 10), 2),
    "nesting_over_256": page("Broken", b"<b>" * 300 + b"deep" + b"</b>" * 300, 2),
    "mismatched_tags": page("Broken", b"text</revision><revision>", 2),
}


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / f"{name}.xml.bz2"
    path.write_bytes(bz2.compress(data, compresslevel=1))
    return path


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_a_broken_page_is_skipped_counted_and_logged(
    tmp_path: Path, defect: str, caplog: pytest.LogCaptureFixture
) -> None:
    data = dump([GOOD_FIRST, DEFECTS[defect], GOOD_LAST])
    path = write(tmp_path, defect, data)
    stats: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, "occbio.extract.wikipedia_dump"):
        titles = [p.title for p in iter_pages(path, stats=stats)]
    assert titles == ["Ada Lovelace", "Emmy Noether"]
    assert stats["pages_skipped_bad_xml"] == 1
    assert stats["pages_read"] == 3 and stats["pages_kept"] == 2
    [record] = [r for r in caplog.records if "skipped" in r.getMessage()]
    message = record.getMessage()
    # the file, the page and where it starts in the decompressed XML
    start = data.index(b"<page>\n    <title>Broken")
    assert message.startswith(f"{path.name}: page 'Broken' at byte {start:,} ")
    assert "not well-formed XML" in message


def test_a_page_past_the_size_limit_is_skipped_without_holding_it(tmp_path: Path) -> None:
    big = page("Huge", b"word " * 200_000, 2)  # 1 MB of XML
    path = write(tmp_path, "big", dump([GOOD_FIRST, big, GOOD_LAST]))
    stats: Counter[str] = Counter()
    pages = list(iter_pages(path, stats=stats, max_page_bytes=100_000))
    assert [p.title for p in pages] == ["Ada Lovelace", "Emmy Noether"]
    assert stats["pages_skipped_too_large"] == 1 and stats["pages_read"] == 3


def test_many_broken_pages_are_all_counted_but_logged_only_at_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = [page(f"Broken {i}", b"\x01", i + 10) for i in range(40)]
    path = write(tmp_path, "many", dump([GOOD_FIRST, *broken, GOOD_LAST]))
    stats: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, "occbio.extract.wikipedia_dump"):
        assert len(list(iter_pages(path, stats=stats))) == 2
    assert stats["pages_skipped_bad_xml"] == 40
    assert 20 <= len(caplog.records) <= 22  # the first 20, then a line that says so


def test_an_external_dtd_entity_no_longer_cuts_a_page_silently(tmp_path: Path) -> None:
    """Before, libxml2 let the entity through (the DTD might define it) and the text node
    stopped there: the rest of the page was lost without a count."""
    doctype = b'<!DOCTYPE mediawiki SYSTEM "export-0.10.dtd">\n'
    cut = page("Cut", b"Before &unknown; and after.", 2)
    path = write(tmp_path, "dtd", dump([GOOD_FIRST, cut, GOOD_LAST], doctype=doctype))
    stats: Counter[str] = Counter()
    pages = list(iter_pages(path, stats=stats))
    assert [p.title for p in pages] == ["Ada Lovelace", "Emmy Noether"]
    assert stats["pages_skipped_bad_xml"] == 1


def test_a_file_that_is_not_xml_is_still_one_clear_error(tmp_path: Path) -> None:
    path = write(tmp_path, "binary", b"\x00\x01\x02 not xml at all <page> \xff\xfe")
    with pytest.raises(DumpError) as info:
        list(iter_pages(path))
    assert not isinstance(info.value, TruncatedDumpError)
    assert "is not a MediaWiki XML dump" in str(info.value)


def test_text_stage_goes_on_past_a_broken_page_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people = [
        human("Q1", "Ada Lovelace", "Q6581072", [], {"en": "Ada Lovelace"}),
        human("Q2", "Broken", "Q6581097", [], {"en": "Broken"}),
        human("Q3", "Emmy Noether", "Q6581072", [], {"en": "Emmy Noether"}),
    ]
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    pages = write(tmp_path, "enwiki", dump([GOOD_FIRST, DEFECTS["nul"], GOOD_LAST]))
    out = tmp_path / "run"
    args = ["text", "--langs", "en", "--entities-dump", str(entities)]
    code = main([*args, "--dump", f"en={pages}", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    assert record["counts"]["en.articles"] == 2
    assert record["counts"]["en.dump_pages_skipped_bad_xml"] == 1
    [warning] = [w for w in record["warnings"] if "unreadable" in w]
    assert "enwiki.xml.bz2" in warning and "1 page" in warning
    assert "1 warning(s)" in printed
