"""``--category`` from the categorylinks SQL dump (issue #28): template-added categories.

The dumps are written in the exact format Wikimedia publishes (tests/sql_dumps.py): the
three layouts of ``categorylinks`` (with ``cl_to``; with ``cl_target_id`` too; only
``cl_target_id``, with its ``linktarget`` dump), escaped strings, gzip; then the bad inputs,
and the ``occbio entities`` runs with and without ``--categorylinks``.
"""

from __future__ import annotations

import gzip
import json
import os
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import main
from occbio.extract.categorylinks import (
    CategoryLinksError,
    TruncatedCategoryLinksError,
    category_page_ids,
    iter_table_rows,
    table_columns,
)
from tests.factories import human, write_pages_dump, write_wikidata_dump
from tests.sql_dumps import (
    CREATE,
    FOOTER,
    HEADER,
    sql_dump,
    write_categorylinks,
    write_linktarget,
)

FEMALE, MALE = "Q6581072", "Q6581097"
BORN = "Nacidos en 1942"

#: (page id, category) as eswiki would list them; 3 and 5 are born in 1942 (one of them by a
#: template), 4 is in a category whose name has a quote, 6 in one with a non-ASCII letter.
LINKS = [
    (3, BORN),
    (3, "Escritores de España"),
    (4, "Personas de O'Higgins"),
    (5, BORN),
    (6, "Nacidos en 1943"),
    (7, "Nacidos en 1942 (desambiguación)"),
]


def _ids(path: Path, category: str = BORN, **kw: Any) -> list[int]:
    return list(category_page_ids(path, category, **kw))


# -- reading the three layouts -------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["legacy", "migration"])
def test_a_category_is_read_by_its_cl_to(tmp_path: Path, layout: str) -> None:
    path = write_categorylinks(tmp_path / "eswiki-categorylinks.sql.gz", LINKS, layout=layout)
    assert table_columns(path, "categorylinks")[:2] == ["cl_from", "cl_to"]
    stats: Counter[str] = Counter()
    assert _ids(path, stats=stats) == [3, 5]
    assert stats["categorylinks_rows_read"] == len(LINKS)
    assert stats["categorylinks_category_rows"] == 2
    assert _ids(path, "Personas de O'Higgins") == [4]
    assert _ids(path, "Escritores de España") == [3]
    assert _ids(path, BORN, pages={5, 99}) == [5]


@pytest.mark.parametrize(
    "name",
    [
        "Nacidos en 1942",
        "nacidos en 1942",
        "Nacidos_en_1942",
        "Categoría:Nacidos en 1942",
        "Category: nacidos_en  1942 ",
    ],
)
def test_category_names_match_as_mediawiki_stores_them(tmp_path: Path, name: str) -> None:
    path = write_categorylinks(tmp_path / "cl.sql.gz", LINKS)
    assert _ids(path, name) == [3, 5]


def test_the_new_layout_finds_the_category_through_linktarget(tmp_path: Path) -> None:
    ids = {"Nacidos_en_1942": 71812955, "Escritores_de_España": 7}
    path = write_categorylinks(
        tmp_path / "eswiki-categorylinks.sql.gz", LINKS, layout="linktarget", target_ids=ids
    )
    assert "cl_to" not in table_columns(path, "categorylinks")
    targets = [
        (5, 0, BORN),  # an article of the same title: not the category
        (71812955, 14, BORN),
        (7, 14, "Escritores de España"),
        (8, 10, "NF"),
    ]
    linktarget = write_linktarget(tmp_path / "eswiki-linktarget.sql.gz", targets)
    stats: Counter[str] = Counter()
    assert _ids(path, linktarget=linktarget, stats=stats) == [3, 5]
    assert stats["categorylinks_target_ids"] == 1
    assert _ids(path, "Escritores de España", linktarget=linktarget) == [3]
    assert _ids(path, "No such category", linktarget=linktarget) == []
    with pytest.raises(CategoryLinksError, match=r"no cl_to\).*linktarget dump too"):
        _ids(path)


def test_a_dump_with_cl_to_does_not_need_its_linktarget(tmp_path: Path) -> None:
    path = write_categorylinks(tmp_path / "cl.sql.gz", LINKS, layout="migration")
    assert _ids(path, linktarget=tmp_path / "never-read.sql.gz") == [3, 5]


def test_rows_found_across_reads_and_behind_brackets_in_strings(tmp_path: Path) -> None:
    """One INSERT line of 12 MB (read 1 MB at a time), the category's id last in each row,
    sortkeys full of ``(``, ``),(`` and quotes: every wanted row is found, no other."""
    awkward = ["A (b),(c", "x'),(1,'y", "(9,'", "((", "plain"]
    rows, wanted = [], []
    for i in range(1, 200_001):
        target = 700 if i % 7 == 0 else 701
        if target == 700:
            wanted.append(i)
        key = awkward[i % len(awkward)]
        rows.append((i, key, "2025-04-01 15:20:47", key, "page", 1, target))
    path = tmp_path / "cl.sql.gz"
    data = sql_dump("categorylinks", CREATE["linktarget"], rows, rows_per_insert=len(rows))
    assert len(data) > 10 << 20
    path.write_bytes(gzip.compress(data, compresslevel=1))
    linktarget = write_linktarget(tmp_path / "lt.sql.gz", [(700, 14, BORN), (701, 14, "Otros")])
    stats: Counter[str] = Counter()
    assert _ids(path, linktarget=linktarget, stats=stats) == wanted
    # counted by their "),(" separators, which these sortkeys hold too
    assert stats["categorylinks_rows_read"] >= len(rows)
    assert not stats["categorylinks_rows_malformed"]
    every = iter_table_rows(path, "categorylinks", ("cl_from", "cl_sortkey", "cl_target_id"))
    assert [(int(a), b.decode(), int(c)) for a, b, c in every] == [  # type: ignore[arg-type]
        (r[0], r[1], r[6]) for r in rows
    ]


def test_escapes_in_strings_are_read_as_mysql_writes_them(tmp_path: Path) -> None:
    awkward = [
        "it's",
        "a),(b",
        "back\\slash",
        "line\nbreak",
        "nul\0byte",
        'say "hi"',
        "ctrl-z\x1a",
        "(\\'),('",
        "Ñandú ünï",
    ]
    rows = [
        (i, f"Cat_{i}", s, "2025-04-01 15:20:47", s, "uca", "page") for i, s in enumerate(awkward)
    ]
    path = tmp_path / "cl.sql"
    path.write_bytes(sql_dump("categorylinks", CREATE["legacy"], rows, rows_per_insert=4))
    got = list(iter_table_rows(path, "categorylinks", ("cl_from", "cl_sortkey", "cl_type")))
    assert got == [(str(i).encode(), s.encode(), b"page") for i, s in enumerate(awkward)]
    # a category whose name has a quote and a backslash is matched unescaped
    rows = [(1, "O'Brien\\x", "K", "2025-04-01 15:20:47", "", "uca", "page")]
    path.write_bytes(sql_dump("categorylinks", CREATE["legacy"], rows))
    assert _ids(path, "O'Brien\\x") == [1]


def test_other_spellings_of_values_are_read(tmp_path: Path) -> None:
    """``''`` for a quote, ``_binary '…'``, ``0x`` hex, spaces around tuples, NULL: read when
    every row is parsed; the search for a category finds it as mysqldump spells it."""
    body = (
        "INSERT INTO `categorylinks` VALUES (1,'Nacidos_en_1942','O''Hara','t','','u','page'),\n"
        " (2, _binary 'Nacidos_en_1942' ,'K','t','','u','page') ,"
        "(3,0x4e616369646f735f656e5f31393432,NULL,'t','','u','page');\n"
    )
    path = tmp_path / "cl.sql"
    path.write_text(_dump_text(body))
    rows = list(iter_table_rows(path, "categorylinks", ("cl_from", "cl_to", "cl_sortkey")))
    assert rows == [
        (b"1", b"Nacidos_en_1942", b"O'Hara"),
        (b"2", b"Nacidos_en_1942", b"K"),
        (b"3", b"Nacidos_en_1942", None),
    ]
    assert _ids(path) == [1]


def test_columns_named_in_the_insert_are_used(tmp_path: Path) -> None:
    """``mysqldump --complete-insert`` names the columns: their order wins."""
    body = (
        "INSERT INTO `categorylinks` (`cl_to`, `cl_from`) VALUES "
        "('Nacidos_en_1942',8),('Otros',9);\n"
    )
    path = tmp_path / "cl.sql"
    path.write_text(_dump_text(body))
    assert _ids(path) == [8]


# -- bad input: a counted skip, or a one-line error --------------------------------------------


def _dump_text(body: str, layout: str = "legacy") -> str:
    head = HEADER.format(db="eswiki", table="categorylinks", create=CREATE[layout])
    return head + body + FOOTER.format(table="categorylinks")


def _row(page_id: int, category: str = "Nacidos_en_1942") -> str:
    return f"({page_id},'{category}','K','2025-04-01 15:20:47','','uca-es','page')"


def test_malformed_tuples_and_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    body = (
        f"INSERT INTO `categorylinks` VALUES {_row(1)},(2,'Nacidos_en_1942',oops),{_row(3)};\n"
        "this line is not SQL\n"
        f"INSERT INTO `categorylinks` VALUES {_row(4)},(5,'unclosed),{_row(6)};\n"
        f"INSERT INTO `categorylinks` VALUES {_row(7)} {_row(8)},{_row(9)};\n"
        "INSERT INTO\n"
        f"INSERT INTO `categorylinks` VALUES {_row(10)};\n"
    )
    path = tmp_path / "cl.sql.gz"
    path.write_bytes(gzip.compress(_dump_text(body).encode()))
    stats: Counter[str] = Counter()
    # 2 does not parse; 5's open quote does not hide 6; 7 and 8 lack a comma between them
    # but each parses (only a full parse of every row would see that)
    assert _ids(path, stats=stats) == [1, 3, 4, 6, 7, 8, 9, 10]
    assert stats["categorylinks_rows_malformed"] == 1
    assert stats["categorylinks_lines_skipped"] == 2
    every = [r[0] for r in iter_table_rows(path, "categorylinks", ("cl_from",))]
    assert every == [b"1", b"3", b"4", b"6", b"7", b"9", b"10"]  # all parsed: 8 is refused


@pytest.mark.parametrize("codec", ["gzip", "plain"])
def test_a_truncated_dump_keeps_the_rows_read_and_says_so(tmp_path: Path, codec: str) -> None:
    rows = [_row(i) for i in range(1, 2001)]
    body = "".join(f"INSERT INTO `categorylinks` VALUES {','.join(rows[i:i + 100])};\n"
                   for i in range(0, 2000, 100))  # fmt: skip
    data = _dump_text(body).encode()
    path = tmp_path / ("cl.sql.gz" if codec == "gzip" else "cl.sql")
    path.write_bytes(gzip.compress(data)[:-6] if codec == "gzip" else data[: len(data) // 2])
    ids: list[int] = []
    with pytest.raises(TruncatedCategoryLinksError, match="is truncated"):
        ids.extend(category_page_ids(path, BORN))
    assert ids[:3] == [1, 2, 3] and 900 < len(ids) <= 2000


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: None, "not found"),
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: os.mkfifo(p), "not a regular file"),
        (lambda p: p.write_bytes(b""), "is empty"),
        (lambda p: p.write_bytes(os.urandom(5 << 20)), "not a MySQL dump"),
        (
            lambda p: p.write_text("-- just a comment\n" * 10),
            "no CREATE TABLE `categorylinks` and no INSERT",
        ),
        (
            lambda p: p.write_bytes(
                sql_dump(
                    "pagelinks",
                    "CREATE TABLE `pagelinks` (\n  `pl_from` int(8) unsigned NOT NULL\n);",
                    [(1,)],
                )
            ),
            "holds table `pagelinks`, not `categorylinks`",
        ),
        (
            lambda p: p.write_text(f"INSERT INTO `categorylinks` VALUES {_row(1)};\n"),
            "no CREATE TABLE `categorylinks` before its INSERT",
        ),
    ],
    ids=["missing", "directory", "fifo", "empty", "random", "comments", "other", "no create"],
)
def test_a_file_that_is_no_categorylinks_dump_is_one_error(
    tmp_path: Path, make: Any, expected: str
) -> None:
    path = tmp_path / "eswiki-categorylinks.sql.gz"
    make(path)
    with pytest.raises(CategoryLinksError, match=expected) as info:
        _ids(path)
    assert "\n" not in str(info.value)


def test_a_huge_line_is_streamed_in_bounded_memory(tmp_path: Path) -> None:
    """One 40 MB INSERT line, one of its values 8 MB long (never a real row): read in pieces,
    the giant tuple skipped, the rows around it kept."""
    path = tmp_path / "cl.sql"
    with path.open("w") as fh:
        fh.write(HEADER.format(db="eswiki", table="categorylinks", create=CREATE["legacy"]))
        fh.write("INSERT INTO `categorylinks` VALUES ")
        rows = ",".join(_row(i, "Otros") for i in range(1, 10001))
        for _ in range(50):
            fh.write(rows + ",")
        fh.write(f"(7,'Nacidos_en_1942','{'x' * (8 << 20)}','t','','u','page'),")
        for _ in range(50):
            fh.write(rows + ",")
        fh.write(_row(123456) + ";\n")
    assert path.stat().st_size > 40 << 20
    stats: Counter[str] = Counter()
    tracemalloc.start()
    try:
        assert _ids(path, stats=stats) == [123456]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak
    assert stats["categorylinks_rows_malformed"] == 1
    assert stats["categorylinks_rows_read"] == 1_000_002  # counted by their separators


# -- occbio entities with --category ------------------------------------------------------------


#: eswiki biographies: the birth year comes from {{NF}}, which adds the category; only Ana's
#: page also links it in its wikitext.
PAGES = [
    (
        "Ana Pérez",
        "'''Ana''' es escritora.{{NF|1942|2010|Pérez, Ana}} [[Categoría:Nacidos en 1942]]",
    ),
    ("Luis Gómez", "'''Luis''' es pintor.\n{{NF|1942||Gómez, Luis}}\n{{Control de autoridades}}"),
    ("Marta Ruiz", "'''Marta''' es poeta.\n{{NF|1950||Ruiz, Marta}}"),
    ("Jon Sáez", "'''Jon''' es actor.\n{{NF|1942|2001|Sáez, Jon}}"),
]


def _people_and_pages(tmp_path: Path, pages: list[tuple[str, str]]) -> tuple[Path, Path]:
    genders = [FEMALE, MALE, FEMALE, MALE]
    people = [
        human(f"Q{i}", title, genders[i - 1], ["Q36180"], {"es": title})
        for i, (title, _) in enumerate(pages, 1)
    ]
    wikidata = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    dump = write_pages_dump(tmp_path / "eswiki-pages-articles.xml.bz2", pages, lang="es")
    return wikidata, dump  # page ids 1..4 in the pages' order


def _entities(
    tmp_path: Path, *extra: str, pages: list[tuple[str, str]] = PAGES, out: str = "run"
) -> tuple[int, dict[str, Any]]:
    wikidata, dump = _people_and_pages(tmp_path, pages)
    run = tmp_path / out
    argv = ["entities", "-q", "--langs", "es", "--entities-dump", str(wikidata)]
    argv += ["--dump", f"es={dump}", "--out", str(run), "--category", BORN, *extra]
    code = main(argv)
    manifest = run / "manifest.json"
    record = (
        json.loads(manifest.read_text())["stages"].get("entities", {}) if manifest.exists() else {}
    )
    return code, record


def _kept(tmp_path: Path, out: str = "run") -> list[str]:
    lines = (tmp_path / out / "entities.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(x)["titles"]["es"] for x in lines]


@pytest.mark.parametrize("layout", ["legacy", "linktarget"])
def test_categorylinks_finds_the_people_a_template_put_in_the_category(
    tmp_path: Path, layout: str
) -> None:
    links = [(1, BORN), (2, BORN), (2, "Pintores de España"), (3, "Nacidos en 1950"), (4, BORN)]
    cl = write_categorylinks(tmp_path / "eswiki-categorylinks.sql.gz", links, layout=layout)
    files = str(cl)
    if layout == "linktarget":
        targets = [
            (1000, 14, BORN),
            (1001, 14, "Pintores de España"),
            (1002, 14, "Nacidos en 1950"),
        ]
        files += "," + str(write_linktarget(tmp_path / "eswiki-linktarget.sql.gz", targets))
    code, record = _entities(tmp_path, "--categorylinks", f"es={files}")
    assert code == 0
    assert _kept(tmp_path) == ["Ana Pérez", "Luis Gómez", "Jon Sáez"]
    counts = record["counts"]
    assert counts["category_members"] == 3 and counts["category_dropped"] == 1
    assert counts["categorylinks_category_rows"] == 3
    assert record["warnings"] == []
    assert record["inputs"]["category_categorylinks"]["path"] == str(cl.resolve())
    assert ("category_linktarget" in record["inputs"]) == (layout == "linktarget")


def test_without_categorylinks_an_empty_match_is_a_warning_naming_the_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = [(t, text.replace(" [[Categoría:Nacidos en 1942]]", "")) for t, text in PAGES]
    code, record = _entities(tmp_path, pages=pages)
    assert code == 0
    assert record["counts"]["category_members"] == 0
    [warning] = record["warnings"]
    assert "category 'Nacidos en 1942' matched 0 of 4 es pages" in warning
    assert "4 of them use templates that may add categories (e.g. {{NF}})" in warning
    assert "--categorylinks es=eswiki-DATE-categorylinks.sql.gz" in warning
    out = capsys.readouterr().out
    assert "warning: category 'Nacidos en 1942' matched 0 of 4" in out


def test_the_wikitext_alone_finds_only_the_linked_page(tmp_path: Path) -> None:
    code, record = _entities(tmp_path)
    assert code == 0 and _kept(tmp_path) == ["Ana Pérez"]
    assert record["warnings"] == []  # a match: no warning, though templates may add more


def test_a_misspelt_category_in_categorylinks_is_a_warning(tmp_path: Path) -> None:
    cl = write_categorylinks(tmp_path / "cl.sql.gz", [(1, "Nacidos en 1943")])
    code, record = _entities(tmp_path, "--categorylinks", f"es={cl}")
    assert code == 0
    [warning] = record["warnings"]
    assert "matched 0 of 4 es pages in the categorylinks dump" in warning


def test_skipped_rows_of_categorylinks_reach_the_manifest(tmp_path: Path) -> None:
    body = f"INSERT INTO `categorylinks` VALUES {_row(2)},(3,'Nacidos_en_1942',x),{_row(4)};\n"
    cl = tmp_path / "cl.sql.gz"
    cl.write_bytes(gzip.compress(_dump_text(body).encode()))
    code, record = _entities(tmp_path, "--categorylinks", f"es={cl}")
    assert code == 0 and _kept(tmp_path) == ["Luis Gómez", "Jon Sáez"]
    assert record["counts"]["categorylinks_rows_malformed"] == 1
    assert any("skipped 1 row(s)" in w for w in record["warnings"])


def test_a_truncated_categorylinks_dump_is_a_warning_with_the_rows_read(tmp_path: Path) -> None:
    cl = tmp_path / "cl.sql.gz"
    body = f"INSERT INTO `categorylinks` VALUES {_row(1)},{_row(2)};\n" + "-- pad\n" * 5000
    cl.write_bytes(gzip.compress(_dump_text(body).encode())[:-6])
    code, record = _entities(tmp_path, "--categorylinks", f"es={cl}")
    assert code == 0 and _kept(tmp_path) == ["Ana Pérez", "Luis Gómez"]
    assert any("cl.sql.gz is truncated" in w for w in record["warnings"])


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = [x for x in err.splitlines() if x.startswith("occbio: error:")]
    return line


@pytest.mark.parametrize(
    ("extra", "code", "expected"),
    [
        (["--categorylinks", "es={missing}"], 1, "categorylinks dump not found"),
        (["--categorylinks", "es={fifo}"], 1, "not a regular file"),
        (["--categorylinks", "es=a,b,c"], 2, "takes LANG=CATEGORYLINKS[,LINKTARGET]"),
        (["--categorylinks", "en={missing}"], 2, "no file for the pivot language 'es'"),
        (["--categorylinks", "es={newlayout}"], 1, "give its linktarget dump too"),
    ],
    ids=["missing", "fifo", "three files", "not the pivot", "needs linktarget"],
)
def test_bad_categorylinks_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], code: int, expected: str
) -> None:
    fifo = tmp_path / "cl.fifo"
    os.mkfifo(fifo)  # nobody writes to it: opening it would hang
    newlayout = write_categorylinks(tmp_path / "new.sql.gz", [(1, BORN)], layout="linktarget")
    names = {"missing": tmp_path / "nope.sql.gz", "fifo": fifo, "newlayout": newlayout}
    got, _ = _entities(tmp_path, *(x.format(**names) for x in extra))
    assert got == code
    assert expected in _error(capsys)


def test_categorylinks_without_category_or_with_the_web_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cl = write_categorylinks(tmp_path / "cl.sql.gz", LINKS)
    base = ["entities", "-q", "--langs", "es", "--out", str(tmp_path / "r")]
    assert main([*base, "--sample", "--categorylinks", f"es={cl}"]) == 2
    assert "read for entities.category only" in _error(capsys)
    web = [*base, "--category", BORN, "--text-source", "web", "--categorylinks", f"es={cl}"]
    assert main(web) == 2
    assert "already includes template-added categories" in _error(capsys)
