"""Hostile dumps and input files (issue #20): one bad record must not stop a whole stage.

Each case feeds a real file (or a FIFO) through the reader or the ``occbio`` command and checks
what was promised: a counted skip that reaches the manifest, a logged warning, or a one-line
``occbio: error: ...`` without a traceback.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import main
from occbio.config import SAMPLE_DIR
from occbio.extract.wikidata_dump import WikidataDumpError, iter_humans
from tests.factories import human, occupation, write_wikidata_dump

FEMALE, MALE = "Q6581072", "Q6581097"


def _people(n: int) -> list[dict[str, Any]]:
    return [
        human(f"Q{i}", f"Person {i}", FEMALE, ["Q36180"], {"en": f"Person {i}"})
        for i in range(1, n + 1)
    ]


def _dump_text(lines: list[str]) -> bytes:
    """The dump layout: ``[``, one entity a line with a comma, ``]``."""
    return ("[\n" + ",\n".join(lines) + "\n]\n").encode()


def _entities(tmp_path: Path, dump: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    """`occbio entities` on ``dump``: the exit code and the stage's manifest record."""
    out = tmp_path / "run"
    code = main(
        ["entities", "-q", "--langs", "en", "--entities-dump", str(dump), "--out", str(out), *extra]
    )
    manifest = out / "manifest.json"
    record = (
        json.loads(manifest.read_text())["stages"].get("entities", {}) if manifest.exists() else {}
    )
    return code, record


def _one_error_line(err: str) -> str:
    """The ``occbio: error:`` line of a failed command; there is one and no traceback."""
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("occbio: error:")]
    assert len(errors) == 1, err
    return errors[0]


# -- 1. the dump's format is decided from more than its first line ------------------------------


def test_a_corrupt_first_entity_line_is_a_counted_skip(tmp_path: Path) -> None:
    good = [json.dumps(p) for p in _people(3)]
    corrupt = good[0][: len(good[0]) // 2] + "}"  # cut, still one {...} line
    dump = tmp_path / "wd.json"
    dump.write_bytes(_dump_text([corrupt, good[1], good[2]]))
    code, record = _entities(tmp_path, dump)
    assert code == 0
    assert record["counts"]["entities_malformed"] == 1
    assert record["counts"]["people"] == 2
    people = [
        json.loads(x)["qid"] for x in (tmp_path / "run" / "entities.jsonl").read_text().splitlines()
    ]
    assert people == ["Q2", "Q3"]


def test_first_lines_of_garbage_then_entities_are_read(tmp_path: Path) -> None:
    lines = ["not json", '{"note": "not an entity"}', *(json.dumps(p) for p in _people(2))]
    stats: Counter[str] = Counter()
    dump = tmp_path / "wd.json"
    dump.write_bytes(_dump_text(lines))
    assert [e.qid for e in iter_humans(dump, ["en"], stats=stats)] == ["Q1", "Q2"]
    assert stats["entities_malformed"] == 2 and stats["entities_read"] == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (json.dumps([human("Q1", "A", FEMALE, [], {"en": "A"})], indent=2), "pretty-printed"),
        (json.dumps(human("Q1", "A", FEMALE, [], {"en": "A"}), indent=1), "pretty-printed"),
        (json.dumps([human("Q1", "A", FEMALE, [], {"en": "A"})]), "one-entity-per-line"),
    ],
    ids=["pretty-printed array", "pretty-printed entity", "array on one line"],
)
def test_a_dump_of_another_json_shape_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    dump = tmp_path / "wd.json"
    dump.write_text(text + "\n", encoding="utf-8")
    code, _ = _entities(tmp_path, dump)
    line = _one_error_line(capsys.readouterr().err)
    assert code == 1
    assert "is not a Wikidata JSON dump" in line and expected in line and str(dump) in line


def test_a_long_file_of_other_json_is_refused_after_a_few_lines(tmp_path: Path) -> None:
    """No entity among the first lines: refused, naming the first line, without reading on."""
    dump = tmp_path / "wd.json"
    dump.write_bytes(b"".join(b'{"n": %d}\n' % i for i in range(100_000)))
    with pytest.raises(WikidataDumpError, match=r"line 1 is .* none of its first 100 lines"):
        list(iter_humans(dump, ["en"]))


# -- 2. a person repeated in the dump --------------------------------------------------------


def test_a_person_repeated_in_the_dump_is_kept_once_and_counted(tmp_path: Path) -> None:
    people = _people(3)
    dump = write_wikidata_dump(tmp_path / "wd.json.bz2", [*people, people[1], people[1]])
    code, record = _entities(tmp_path, dump)
    assert code == 0
    qids = [
        json.loads(x)["qid"] for x in (tmp_path / "run" / "entities.jsonl").read_text().splitlines()
    ]
    assert qids == ["Q1", "Q2", "Q3"]
    assert record["counts"]["people_duplicate"] == 2 and record["counts"]["people"] == 3


def test_a_person_named_twice_in_a_titles_file_is_kept_once(tmp_path: Path) -> None:
    titles = tmp_path / "t.tsv"
    titles.write_text(
        "qid\ten\nQ1\tAda Lovelace\nQ2\tEmmy Noether\nQ1\tAda Lovelace\n", encoding="utf-8"
    )
    out = tmp_path / "run"
    argv = [
        "entities",
        "-q",
        "--sample",
        "--langs",
        "en",
        "--out",
        str(out),
        "--titles",
        str(titles),
    ]
    assert main(argv) == 0
    qids = [json.loads(x)["qid"] for x in (out / "entities.jsonl").read_text().splitlines()]
    assert qids == ["Q1", "Q2"]
    counts = json.loads((out / "manifest.json").read_text())["stages"]["entities"]["counts"]
    assert counts["people_duplicate"] == 1 and counts["people"] == 2


@pytest.mark.slow
def test_a_repeated_person_no_longer_stops_balance(tmp_path: Path) -> None:
    """The issue's case: the sample dump with one person twice, through entities to balance."""
    lines = (
        bz2.decompress((SAMPLE_DIR / "wikidata-sample.json.bz2").read_bytes()).decode().splitlines()
    )
    person = next(x for x in lines if '"Q5"' in x).rstrip(",")
    dump = tmp_path / "wd.json.bz2"
    dump.write_bytes(bz2.compress("\n".join([*lines[:-1], person + ",", lines[-1]]).encode()))
    out = tmp_path / "run"
    argv = ["balance", "-q", "--langs", "en,es,ca", "--entities-dump", str(dump), "--out", str(out)]
    for lang in ("en", "es", "ca"):
        argv += ["--dump", f"{lang}={SAMPLE_DIR / f'{lang}wiki-sample-pages-articles.xml.bz2'}"]
    assert main(argv) == 0
    stages = json.loads((out / "manifest.json").read_text())["stages"]
    assert stages["entities"]["counts"]["people_duplicate"] == 1
    assert stages["balance"]["status"] == "done"


# -- 3. lone surrogates ------------------------------------------------------------------------


def test_a_lone_surrogate_in_a_label_is_replaced_and_counted(tmp_path: Path) -> None:
    people = _people(2)
    lines = [json.dumps(p) for p in people]
    lines[0] = lines[0].replace('"value": "Person 1"', '"value": "Person \\ud800 1"')
    lines[1] = lines[1].replace('"value": "Person 2"', '"value": "Person \\udfff\\ud83d\\ude00 2"')
    assert lines[0] != json.dumps(people[0]) and lines[1] != json.dumps(people[1])
    dump = tmp_path / "wd.json"
    dump.write_bytes(_dump_text(lines))
    code, record = _entities(tmp_path, dump)
    assert code == 0
    labels = [
        json.loads(x)["label"]
        for x in (tmp_path / "run" / "entities.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert labels == ["Person \ufffd 1", "Person \ufffd\U0001f600 2"]  # a whole pair stays
    assert record["counts"]["entities_lone_surrogates"] == 2


# -- 6. the byte pre-filter keeps what the JSON parse keeps --------------------------------------


def _escaped(value: Any) -> str:
    """``value`` as JSON with every character of every string and key \\u-escaped."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_escaped(k)}: {_escaped(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_escaped(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + "".join(f"\\u{ord(c):04X}" if ord(c) < 0x10000 else c for c in value) + '"'
    return json.dumps(value)


@pytest.mark.parametrize("form", ["id only", "numeric-id only"])
def test_a_human_with_an_escaped_q5_is_kept(tmp_path: Path, form: str) -> None:
    person = human("Q7", "Escaped", FEMALE, [], {"en": "Escaped"})
    value = person["claims"]["P31"][0]["mainsnak"]["datavalue"]["value"]
    del value["numeric-id" if form == "id only" else "id"]
    line = _escaped(person)
    assert '"Q5"' not in line and "numeric-id" not in line
    assert json.loads(line) == person
    dump = tmp_path / "wd.json"
    dump.write_bytes(_dump_text([line]))
    stats: Counter[str] = Counter()
    assert [e.qid for e in iter_humans(dump, ["en"], stats=stats)] == ["Q7"]
    assert stats["humans"] == 1


def test_the_escaped_q5_reaches_the_entities_file(tmp_path: Path) -> None:
    lines = [json.dumps(p) for p in _people(2)]
    lines[1] = lines[1].replace('"numeric-id": 5, "id": "Q5"', '"id": "Q\\u0035"')
    assert "Q\\u0035" in lines[1]
    dump = tmp_path / "wd.json"
    dump.write_bytes(_dump_text(lines))
    code, record = _entities(tmp_path, dump)
    assert code == 0 and record["counts"]["people"] == 2 and record["counts"]["humans"] == 2


# -- 8. what a kill during the entities join leaves ---------------------------------------------


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_the_unlabelled_people_live_where_a_resume_cleans_up(tmp_path: Path) -> None:
    dump = write_wikidata_dump(tmp_path / "wd.json.bz2", _people(3))
    out = tmp_path / "run"
    code, _ = _entities(tmp_path, dump)
    assert code == 0
    finished = {".occbio.lock", "manifest.json", "entities.jsonl", "occupations.jsonl"}
    assert _files(out) == finished

    # A kill while the people file was being joined leaves the stage running and the join's
    # temporary behind (atomic_write's .NAME.XXXX.tmp), here or where earlier versions wrote it.
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["stages"]["entities"]["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "entities.jsonl").unlink()
    parts = out / ".parts" / "entities"
    parts.mkdir(parents=True)
    (parts / ".entities.unlabelled.jsonl.k1ll3d.tmp").write_text('{"qid": "Q1"')
    (out / ".entities.unlabelled.jsonl.k1ll3d.tmp").write_text('{"qid": "Q1"')
    (out / "entities.unlabelled.jsonl").write_text('{"qid": "Q1"}\n')

    code, record = _entities(tmp_path, dump)
    assert code == 0 and record["resumed"] == 1
    assert _files(out) == finished
    qids = [json.loads(x)["qid"] for x in (out / "entities.jsonl").read_text().splitlines()]
    assert qids == ["Q1", "Q2", "Q3"]


# -- 3 and 7. align --input: lone surrogates, a byte order mark, a FIFO ---------------------------

_DOCS = [
    {
        "doc": "d1",
        "lang": "en",
        "sentences": [
            "Ada Lovelace was an English mathematician and writer.",
            "She worked on the Analytical Engine of Charles Babbage.",
            "Her notes hold the first published \ud800 algorithm for a machine.",
        ],
    },
    {
        "doc": "d1",
        "lang": "es",
        "sentences": [
            "Ada Lovelace fue una matemática y escritora inglesa.",
            "Trabajó en la máquina analítica de Charles Babbage.",
            "Sus notas contienen el primer algoritmo publicado para una máquina.",
        ],
    },
    {"doc": "d2\udc00", "lang": "en", "sentences": ["Emmy Noether was a German mathematician."]},
    {"doc": "d2\udc00", "lang": "es", "sentences": ["Emmy Noether fue una matemática alemana."]},
]


def _docs_file(path: Path) -> Path:
    """The documents as JSON lines (json.dumps spells the lone surrogates as escapes), with a
    UTF-8 byte order mark before line 1, as Windows editors save."""
    text = "".join(json.dumps(row) + "\n" for row in _DOCS)
    assert "\\ud800" in text and "\\udc00" in text
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("ascii"))
    return path


def test_align_input_reads_past_a_bom_and_lone_surrogates(tmp_path: Path) -> None:
    from occbio.align.inputs import read_docs_jsonl

    stats: Counter[str] = Counter()
    docs = read_docs_jsonl(_docs_file(tmp_path / "docs.jsonl"), ["en", "es"], stats)
    assert [d.doc for d in docs] == ["d1"]  # line 1 read despite the BOM
    assert (
        docs[0].sentences["en"][2]
        == "Her notes hold the first published \ufffd algorithm for a machine."
    )
    assert stats["input_lines"] == 2
    assert stats["input_lines_lone_surrogates"] == 1
    assert stats["input_lines_malformed"] == 2  # the id d2\udc00: refused, not altered


@pytest.mark.slow
def test_align_input_with_lone_surrogates_writes_its_alignments(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = ["align", "-q", "--input", str(_docs_file(tmp_path / "docs.jsonl")), "--langs", "en,es"]
    assert main([*argv, "--out", str(out)]) == 0
    counts = json.loads((out / "manifest.json").read_text())["stages"]["align"]["counts"]
    assert counts["input_lines_lone_surrogates"] == 1 and counts["input_lines_malformed"] == 2
    rows = [
        json.loads(x) for x in (out / "alignments.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert any("\ufffd" in row["text"]["en"] for row in rows)


def test_align_input_from_a_fifo_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "docs.fifo"
    os.mkfifo(fifo)  # nobody writes to it: opening it would hang
    argv = ["align", "-q", "--input", str(fifo), "--langs", "en,es", "--out", str(tmp_path / "run")]
    assert main(argv) == 1
    line = _one_error_line(capsys.readouterr().err)
    assert str(fifo) in line and "not a regular file" in line


# -- 4. comments, CDATA and instructions in a pages-articles dump --------------------------------


def _page(title: str, text: bytes, page_id: int, *, before_revision: bytes = b"") -> bytes:
    return (
        b"  <page>\n    <title>" + title.encode() + b"</title>\n    <ns>0</ns>\n"
        b"    <id>" + str(page_id).encode() + b"</id>\n" + before_revision + b"    <revision>\n"
        b'      <id>1</id>\n      <text xml:space="preserve">' + text + b"</text>\n"
        b"    </revision>\n  </page>\n"
    )


def _pages_dump(*pages: bytes) -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">\n'
        b'  <siteinfo><namespaces><namespace key="0" /></namespaces></siteinfo>\n'
        + b"".join(pages)
        + b"</mediawiki>\n"
    )


ADA = _page("Ada Lovelace", b"'''Ada Lovelace''' was an English mathematician.", 1)
EMMY = _page("Emmy Noether", b"'''Emmy Noether''' was a German mathematician.", 3)

#: name -> (what lies between Ada and Emmy, the pages expected with their wikitext)
MARKUP_CASES: dict[str, tuple[bytes, dict[str, str]]] = {
    "comment with </page> inside a page": (
        _page("Marie Curie", b"Physicist.", 2, before_revision=b"    <!-- a </page> here -->\n"),
        {"Marie Curie": "Physicist."},
    ),
    "comment with <page> between pages": (
        b"  <!-- <page> -->\n" + _page("Marie Curie", b"Physicist.", 2),
        {"Marie Curie": "Physicist."},
    ),
    "CDATA with both tags inside a page": (
        _page("Marie Curie", b"<![CDATA[Physicist </page> <page> & chemist.]]>", 2),
        {"Marie Curie": "Physicist </page> <page> & chemist."},
    ),
    "instruction with </page> inside a page": (
        _page("Marie Curie", b"Physicist.", 2, before_revision=b"    <?note </page> ?>\n"),
        {"Marie Curie": "Physicist."},
    ),
    "comment with <page> and </page> between pages": (
        b"  <!-- <page><title>Ghost</title></page> -->\n" + _page("Marie Curie", b"Physicist.", 2),
        {"Marie Curie": "Physicist."},
    ),
}


@pytest.mark.parametrize("case", sorted(MARKUP_CASES))
@pytest.mark.parametrize("compression", ["plain", "bz2"])
def test_tags_inside_comments_cdata_and_instructions_are_text(
    tmp_path: Path, case: str, compression: str
) -> None:
    from occbio.extract.wikipedia_dump import iter_pages

    middle, expected = MARKUP_CASES[case]
    data = _pages_dump(ADA, middle, EMMY)
    path = tmp_path / "enwiki.xml"
    path.write_bytes(bz2.compress(data) if compression == "bz2" else data)
    stats: Counter[str] = Counter()
    pages = {p.title: p.wikitext for p in iter_pages(path, stats=stats)}
    assert list(pages) == ["Ada Lovelace", *expected, "Emmy Noether"]
    assert {t: pages[t] for t in expected} == expected
    assert stats["pages_read"] == 3 and stats["pages_kept"] == 3


def test_a_comment_across_read_chunks_is_still_a_comment(tmp_path: Path) -> None:
    """A comment of 3 MB (the dump is read 1 MiB at a time) full of page tags."""
    from occbio.extract.wikipedia_dump import iter_pages

    filler = b"<page><title>Ghost</title></page> </page> " * 70_000
    middle = b"  <!-- " + filler + b" -->\n" + _page("Marie Curie", b"Physicist.", 2)
    path = tmp_path / "enwiki.xml.bz2"
    path.write_bytes(bz2.compress(_pages_dump(ADA, middle, EMMY), compresslevel=1))
    stats: Counter[str] = Counter()
    titles = [p.title for p in iter_pages(path, stats=stats)]
    assert titles == ["Ada Lovelace", "Marie Curie", "Emmy Noether"]
    assert stats == Counter({"pages_read": 3, "pages_kept": 3})  # no ghost page read


@pytest.mark.parametrize("opener", [b"<!--", b"<![CDATA[", b"<?x"])
def test_a_comment_that_never_ends_costs_its_page_only(
    tmp_path: Path, opener: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """Not well-formed: the page ends at its first </page>, is skipped and counted, and the
    pages after it are read (they are not swallowed by the open comment)."""
    from occbio.extract.wikipedia_dump import iter_pages

    broken = _page("Broken", b"Text " + opener + b" never closed.", 2)
    path = tmp_path / "enwiki.xml"
    path.write_bytes(_pages_dump(ADA, broken, _page("Marie Curie", b"Physicist.", 4), EMMY))
    stats: Counter[str] = Counter()
    titles = [p.title for p in iter_pages(path, stats=stats)]
    assert titles == ["Ada Lovelace", "Marie Curie", "Emmy Noether"]
    assert stats["pages_skipped_bad_xml"] == 1 and stats["pages_read"] == 4
    assert "'Broken'" in caplog.text and "not well-formed" in caplog.text


def test_a_comment_that_never_ends_in_a_multistream_stream(tmp_path: Path) -> None:
    from occbio.extract.multistream import DumpRead, read_pages, write_multistream

    header = _pages_dump().removesuffix(b"</mediawiki>\n")
    pages = [
        (1, "Ada Lovelace", ADA),
        (2, "Broken", _page("Broken", b"Text <!-- never closed.", 2)),
        (3, "Emmy Noether", EMMY),
        (4, "Marie Curie", _page("Marie Curie", b"<!-- a </page> --> Physicist.", 4)),
    ]
    path = tmp_path / "enwiki-20240101-pages-articles-multistream.xml.bz2"
    write_multistream(path, header, pages, pages_per_stream=3, compresslevel=1)
    stats: Counter[str] = Counter()
    read = DumpRead()
    got = read_pages(path, titles=["Emmy Noether", "Marie Curie"], stats=stats, report=read)
    assert [(p.title, p.wikitext) for p in got] == [
        ("Emmy Noether", "'''Emmy Noether''' was a German mathematician."),
        ("Marie Curie", " Physicist."),
    ]
    assert read.method == "index" and stats["pages_skipped_bad_xml"] == 1


def test_text_stage_reads_a_page_with_a_commented_page_tag(tmp_path: Path) -> None:
    people = [
        human("Q1", "Ada Lovelace", FEMALE, [], {"en": "Ada Lovelace"}),
        human("Q2", "Marie Curie", FEMALE, [], {"en": "Marie Curie"}),
        human("Q3", "Emmy Noether", FEMALE, [], {"en": "Emmy Noether"}),
    ]
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    middle = b"  <!-- <page> -->\n" + _page(
        "Marie Curie",
        b"'''Marie Curie''' was a Polish physicist and chemist.",
        2,
        before_revision=b"    <!-- </page> -->\n",
    )
    pages = tmp_path / "enwiki.xml.bz2"
    pages.write_bytes(bz2.compress(_pages_dump(ADA, middle, EMMY)))
    out = tmp_path / "run"
    argv = ["text", "-q", "--langs", "en", "--entities-dump", str(entities)]
    assert main([*argv, "--dump", f"en={pages}", "--out", str(out)]) == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    assert record["counts"]["en.articles"] == 3 and record["counts"]["en.articles_missing"] == 0
    assert not record["warnings"]


# -- 5. a truncated .gz / .xz dump is reported as bz2's is ---------------------------------------

_COMPRESS = {"gz": gzip.compress, "xz": lzma.compress}


def _cut(data: bytes, where: str) -> bytes:
    """``middle``: half the file; ``trailer``: only the last bytes (gzip's CRC and size, xz's
    index and footer), so every byte of the XML is there but the stream has no end."""
    return data[: len(data) // 2] if where == "middle" else data[:-6]


@pytest.mark.parametrize("where", ["middle", "trailer"])
@pytest.mark.parametrize("codec", sorted(_COMPRESS))
def test_a_truncated_pages_dump_keeps_its_pages_and_says_so(
    tmp_path: Path, codec: str, where: str
) -> None:
    rng = random.Random(7)
    people = [
        human(f"Q{i}", f"Person {i}", FEMALE, [], {"en": f"Person {i}"}) for i in range(1, 41)
    ]
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    pages = [
        _page(
            f"Person {i}",
            f"'''Person {i}''' was a writer. Notes: {rng.randbytes(600).hex()}.".encode(),
            i,
        )
        for i in range(1, 41)
    ]
    dump = tmp_path / f"enwiki.xml.{codec}"
    dump.write_bytes(_cut(_COMPRESS[codec](_pages_dump(*pages)), where))
    out = tmp_path / "run"
    argv = ["text", "-q", "--langs", "en", "--entities-dump", str(entities), "--dump", f"en={dump}"]
    assert main([*argv, "--out", str(out)]) == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    [warning] = record["warnings"]
    name = {"gz": "gzip", "xz": "xz"}[codec]
    assert (
        f"dump {dump.name} is truncated" in warning and f"the {name} stream ends early" in warning
    )
    articles = record["counts"]["en.articles"]
    assert (articles == 40) if where == "trailer" else (0 < articles < 40)


@pytest.mark.parametrize("codec", sorted(_COMPRESS))
def test_a_truncated_wikidata_dump_keeps_its_people_and_labels_and_says_so(
    tmp_path: Path, codec: str
) -> None:
    """The label pass meets the cut too: the writer's label (before it) is kept, the poet's
    (after it) is missing, and the stage goes on."""
    rng = random.Random(7)
    writer, poet = occupation("Q36180", "writer"), occupation("Q49757", "poet")
    people = [
        human(
            f"Q{i}",
            f"Person {rng.randbytes(300).hex()}",
            FEMALE,
            [writer["id"], poet["id"]],
            {"en": f"P{i}"},
        )
        for i in range(1, 61)
    ]
    data = _dump_text([json.dumps(x) for x in (writer, *people, poet)])
    dump = tmp_path / f"wd.json.{codec}"
    dump.write_bytes(_cut(_COMPRESS[codec](data), "middle"))
    code, record = _entities(tmp_path, dump)
    assert code == 0
    [warning] = record["warnings"]
    assert str(dump) in warning and "truncated" in warning
    assert 0 < record["counts"]["people"] < 60
    assert record["counts"]["occupations_unlabelled"] == 1
    rows = [json.loads(x) for x in (tmp_path / "run" / "entities.jsonl").read_text().splitlines()]
    assert {(o["qid"], o["label"]) for row in rows for o in row["occupations"]} == {
        ("Q36180", "writer"),
        ("Q49757", ""),
    }


# -- 9. a FIFO (or <(bzcat ...)) as a dump --------------------------------------------------------


def test_a_fifo_is_refused_by_both_dump_readers_without_hanging(tmp_path: Path) -> None:
    """Nobody writes to the FIFO: opening it would block for ever, so it must not be opened."""
    from occbio.extract.wikipedia_dump import DumpError, iter_pages

    fifo = tmp_path / "dump.xml.bz2"
    os.mkfifo(fifo)
    with pytest.raises(DumpError, match=r"is not a regular file .* give the file itself"):
        list(iter_pages(fifo))
    with pytest.raises(WikidataDumpError, match=r"is not a regular file .* give the file itself"):
        list(iter_humans(fifo, ["en"]))


@pytest.mark.parametrize("which", ["entities", "text"])
def test_the_stages_say_a_fifo_dump_is_not_a_regular_file(tmp_path: Path, which: str) -> None:
    from occbio.config import load_config
    from occbio.extract.wikipedia_dump import DumpError
    from occbio.run import RunDir
    from occbio.stages.entities import run_entities
    from occbio.stages.text import run_text

    fifo = tmp_path / "dump.fifo"
    os.mkfifo(fifo)
    people = write_wikidata_dump(tmp_path / "wd.json.bz2", _people(2))
    pages = tmp_path / "enwiki.xml.bz2"
    pages.write_bytes(bz2.compress(_pages_dump(ADA)))
    entities, text = (fifo, pages) if which == "entities" else (people, fifo)
    overrides = {"langs": ["en"], "out": tmp_path / "run", "entities": {"dump": entities}}
    cfg = load_config(None, overrides | {"text": {"dumps": {"en": text}}})
    run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
    with pytest.raises((DumpError, WikidataDumpError)) as info:
        run_entities(cfg, run, show_progress=False)
        run_text(cfg, run, show_progress=False)
    message = str(info.value)
    assert f"{fifo} is not a regular file" in message and "give the file itself" in message


# -- 7. a title twice: two pages of the dump, or two people ---------------------------------------


def _text_stage(tmp_path: Path, people: list[dict[str, Any]], *pages: bytes) -> Path:
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    dump = tmp_path / "enwiki.xml.bz2"
    dump.write_bytes(bz2.compress(_pages_dump(*pages)))
    out = tmp_path / "run"
    argv = ["text", "-q", "--langs", "en", "--entities-dump", str(entities), "--dump", f"en={dump}"]
    assert main([*argv, "--out", str(out)]) == 0
    return out


def test_a_page_title_twice_in_the_dump_keeps_the_first_counted_and_logged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people = [human("Q1", "Ada Lovelace", FEMALE, [], {"en": "Ada Lovelace"})]
    again = _page("Ada_Lovelace", b"'''Ada Lovelace''' was a poet's daughter.", 9)
    out = _text_stage(tmp_path, people, ADA, again, EMMY)
    counts = json.loads((out / "manifest.json").read_text())["stages"]["text"]["counts"]
    assert counts["en.pages_duplicate_title"] == 1 and counts["en.articles"] == 1
    [article] = (out / "text" / "en.articles.jsonl").read_text().splitlines()
    assert json.loads(article)["page_id"] == 1
    assert "'Ada_Lovelace' (id 9) repeats the title of an earlier page" in capsys.readouterr().err


def test_two_people_with_one_title_the_second_is_listed_missing(tmp_path: Path) -> None:
    people = [
        human("Q1", "Ada Lovelace", FEMALE, [], {"en": "Ada Lovelace"}),
        human("Q2", "Ada Lovelace's double", FEMALE, [], {"en": "Ada_Lovelace"}),
    ]
    out = _text_stage(tmp_path, people, ADA, EMMY)
    counts = json.loads((out / "manifest.json").read_text())["stages"]["text"]["counts"]
    assert counts["en.people_title_shared"] == 1 and counts["en.articles"] == 1
    missing = [json.loads(x) for x in (out / "text" / "missing.jsonl").read_text().splitlines()]
    assert missing == [
        {
            "qid": "Q2",
            "lang": "en",
            "title": "Ada_Lovelace",
            "reason": "title_shared",
            "detail": "Q1 has the same en title",
        }
    ]


def test_a_multistream_index_with_a_bom_is_still_used(tmp_path: Path) -> None:
    from occbio.extract.multistream import DumpRead, read_pages, write_multistream

    header = _pages_dump().removesuffix(b"</mediawiki>\n")
    pages = [(1, "Ada Lovelace", ADA), (3, "Emmy Noether", EMMY)]
    path = tmp_path / "enwiki-20240101-pages-articles-multistream.xml.bz2"
    index = tmp_path / "enwiki-20240101-pages-articles-multistream-index.txt"
    write_multistream(path, header, pages, index=index, pages_per_stream=1, compresslevel=1)
    index.write_bytes(b"\xef\xbb\xbf" + index.read_bytes())
    read = DumpRead()
    got = [p.title for p in read_pages(path, titles=["Emmy Noether"], index=index, report=read)]
    assert got == ["Emmy Noether"]
    assert read.method == "index" and read.streams_read == 1, read.describe()


def test_a_truncated_pivot_dump_keeps_the_category_pass_going(tmp_path: Path) -> None:
    """--category reads the pivot dump in the entities stage: a cut there is a warning too."""
    rng = random.Random(7)
    people = _people(30)
    dump = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    pages = [
        _page(
            f"Person {i}",
            f"Notes {rng.randbytes(600).hex()}. [[Category:Living people]]".encode(),
            i,
        )
        for i in range(1, 31)
    ]
    pivot = tmp_path / "enwiki.xml.gz"
    pivot.write_bytes(_cut(gzip.compress(_pages_dump(*pages)), "middle"))
    code, record = _entities(tmp_path, dump, "--dump", f"en={pivot}", "--category", "Living people")
    assert code == 0
    [warning] = record["warnings"]
    assert f"dump {pivot.name} is truncated" in warning
    assert 0 < record["counts"]["category_members"] < 30
    assert record["counts"]["category_members"] + record["counts"]["category_dropped"] == 30


def test_a_comment_between_pages_that_never_ends_loses_no_page(tmp_path: Path) -> None:
    """The pages after it are read; the broken XML around them is reported at the end."""
    from occbio.extract.wikipedia_dump import TruncatedDumpError, iter_pages

    path = tmp_path / "enwiki.xml.bz2"
    middle = b"  <!-- never closed\n" + _page("Marie Curie", b"Physicist.", 2)
    path.write_bytes(bz2.compress(_pages_dump(ADA, middle, EMMY)))
    titles: list[str] = []
    with pytest.raises(TruncatedDumpError, match="Comment not terminated"):
        titles.extend(p.title for p in iter_pages(path))
    assert titles == ["Ada Lovelace", "Marie Curie", "Emmy Noether"]
