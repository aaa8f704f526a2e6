"""Wikidata JSON dump streaming: real entity files, real dump layout, compression, bad input."""

from __future__ import annotations

import bz2
import gzip
import json
import logging
import lzma
import pickle
import tracemalloc
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from occbio.extract.wikidata_dump import (
    TruncatedWikidataDumpError,
    WikidataDumpError,
    collect_labels,
    entities_from_json_file,
    entity_from_json,
    iter_humans,
    label_occupations,
    pick_label,
    referenced_occupations,
    site_id,
)
from occbio.records import Entity, Occupation

LANGS = ["en", "es", "ca"]
FEMALE, MALE, NON_BINARY = "Q6581072", "Q6581097", "Q48270"
WRITER, POLITICIAN = "Q36180", "Q82955"

# -- building entities and dumps in the real format ------------------------------------------


def statement(
    prop: str, qid: str | None, *, rank: str = "normal", snaktype: str = "value"
) -> dict[str, Any]:
    """A statement as the current dumps write it (``id`` next to ``numeric-id``)."""
    snak: dict[str, Any] = {"snaktype": snaktype, "property": prop, "datatype": "wikibase-item"}
    if snaktype == "value" and qid is not None:
        snak["datavalue"] = {
            "value": {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid},
            "type": "wikibase-entityid",
        }
    return {"mainsnak": snak, "type": "statement", "id": f"{qid}$X", "rank": rank}


def item(
    qid: str,
    *,
    p31: Sequence[str] = ("Q5",),
    genders: Sequence[str] = (),
    occupations: Sequence[str] = (),
    langs: Iterable[str] = (),
    labels: dict[str, str] | None = None,
    extra_claims: dict[str, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A Wikidata item in dump layout ("type" and "id" first, as latest-all.json has them)."""
    claims: dict[str, list[dict[str, Any]]] = {}
    if p31:
        claims["P31"] = [statement("P31", q) for q in p31]
    if genders:
        claims["P21"] = [statement("P21", q) for q in genders]
    if occupations:
        claims["P106"] = [statement("P106", q) for q in occupations]
    claims.update(extra_claims or {})
    langs = list(langs)
    if labels is None:
        labels = {"en": f"Person {qid}"} if p31 else {}
    return {
        "type": "item",
        "id": qid,
        "labels": {k: {"language": k, "value": v} for k, v in labels.items()},
        "descriptions": {},
        "aliases": {},
        "claims": claims,
        "sitelinks": {
            site_id(lang): {"site": site_id(lang), "title": f"{qid} ({lang})", "badges": []}
            for lang in langs
        },
    }


def dump_lines(entities: Iterable[dict[str, Any]], *, compact: bool = True) -> bytes:
    """Real dump layout: ``[``, entity lines joined by ``,\\n``, ``]``."""
    seps = (",", ":") if compact else (", ", ": ")
    body = ",\n".join(json.dumps(e, ensure_ascii=False, separators=seps) for e in entities)
    return ("[\n" + body + "\n]\n").encode("utf-8")


def write(path: Path, data: bytes, compression: str = "plain") -> Path:
    opener = {"plain": open, "gz": gzip.open, "bz2": bz2.open, "xz": lzma.open}[compression]
    with opener(path, "wb") as fh:
        fh.write(data)
    return path


def humans(path: Path, langs: Sequence[str] = LANGS, **kwargs: Any) -> list[Entity]:
    return list(iter_humans(path, langs, **kwargs))


def real_entities(shared_data: Path) -> list[dict[str, Any]]:
    wd = shared_data / "wikidata"
    return [
        *entities_from_json_file(wd / "Q42.json"),
        *entities_from_json_file(wd / "Q328212.json"),
        *entities_from_json_file(wd / "Q646148.json"),
        *entities_from_json_file(wd / "wbgetentities-Oliver-Kahn.json"),
    ]


# -- pure helpers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "site"),
    [
        ("en", "enwiki"),
        ("ca", "cawiki"),
        ("simple", "simplewiki"),
        ("zh-min-nan", "zh_min_nanwiki"),
        ("roa-tara", "roa_tarawiki"),
        ("be-tarask", "be_x_oldwiki"),
    ],
)
def test_site_id(lang: str, site: str) -> None:
    assert site_id(lang) == site


@pytest.mark.parametrize(
    ("labels", "prefs", "expected"),
    [
        ({"en": "E", "es": "S"}, ["es", "en"], "S"),
        ({"en": "E", "es": "S"}, ["ca", "en"], "E"),
        ({"mul": "M", "de": "D"}, ["en"], "M"),
        ({"de": "D", "fr": "F"}, ["en"], "D"),
        ({}, ["en"], ""),
    ],
)
def test_pick_label(labels: dict[str, str], prefs: list[str], expected: str) -> None:
    as_json = {k: {"language": k, "value": v} for k, v in labels.items()}
    assert pick_label(as_json, prefs) == expected


def test_pick_label_tolerates_empty_list() -> None:
    # old dumps wrote empty maps as [] (PHP arrays)
    assert pick_label([], ["en"]) == ""


# -- real entity JSON --------------------------------------------------------------------------


def test_douglas_adams(shared_data: Path) -> None:
    [obj] = entities_from_json_file(shared_data / "wikidata" / "Q42.json")
    stats: Counter[str] = Counter()
    entity = entity_from_json(obj, LANGS, stats=stats)
    assert entity is not None
    assert entity.qid == "Q42"
    assert entity.label == "Douglas Adams"
    assert entity.genders == [MALE]
    assert entity.gender == "male"
    # playwright, screenwriter, novelist, children's writer, sf writer, comedian, dramaturge
    assert [o.qid for o in entity.occupations] == [
        "Q214917",
        "Q28389",
        "Q6625963",
        "Q4853732",
        "Q18844224",
        "Q245068",
        "Q487596",
    ]
    assert all(o.label == "" for o in entity.occupations)
    assert entity.titles == {"en": "Douglas Adams", "es": "Douglas Adams", "ca": "Douglas Adams"}
    assert stats == Counter(humans=1, humans_kept=1)


def test_douglas_adams_special_site_ids(shared_data: Path) -> None:
    [obj] = entities_from_json_file(shared_data / "wikidata" / "Q42.json")
    entity = entity_from_json(obj, ["be-tarask", "zh-min-nan"])
    assert entity is not None
    assert entity.titles == {"be-tarask": "Дуглас Адамз", "zh-min-nan": "Douglas Adams"}


def test_veronica_roth_numeric_ids_only(shared_data: Path) -> None:
    # this file is in the older layout: {"numeric-id": 36180} without "id"
    [obj] = entities_from_json_file(shared_data / "wikidata" / "Q328212.json")
    entity = entity_from_json(obj, LANGS)
    assert entity is not None
    assert (entity.qid, entity.label, entity.genders, entity.gender) == (
        "Q328212",
        "Veronica Roth",
        [FEMALE],
        "female",
    )
    assert entity.occupations == [Occupation(WRITER)]
    assert entity.titles == {"en": "Veronica Roth", "es": "Veronica Roth", "ca": "Veronica Roth"}


def test_wbgetentities_responses(shared_data: Path) -> None:
    wd = shared_data / "wikidata"
    [kahn] = entities_from_json_file(wd / "wbgetentities-Oliver-Kahn.json")
    entity = entity_from_json(kahn, LANGS, label_langs=["ca"])
    assert entity is not None
    assert (entity.qid, entity.label, entity.gender) == ("Q131261", "Oliver Rolf Kahn", "male")
    assert entity.titles["ca"] == "Oliver Rolf Kahn"
    assert [o.qid for o in entity.occupations] == ["Q201330", "Q937857"]
    [q42] = entities_from_json_file(wd / "wbgetentities-Q42-wptools.json")
    older = entity_from_json(q42, LANGS)
    assert older is not None
    assert older.qid == "Q42" and older.gender == "male"
    assert len(older.occupations) == 6  # an older revision: before "dramaturge" was added


def test_entities_from_json_file_shapes(tmp_path: Path) -> None:
    one = item("Q1")
    response = {"entities": {"Q1": one, "Q999": {"id": "Q999", "missing": ""}}}
    assert entities_from_json_file(write(tmp_path / "r.json", json.dumps(response).encode())) == [
        one
    ]
    assert entities_from_json_file(write(tmp_path / "a.json", json.dumps([one]).encode())) == [one]
    gz = write(tmp_path / "one.json.gz", json.dumps(one).encode(), "gz")
    assert entities_from_json_file(gz) == [one]
    error = {"error": {"code": "no-such-entity", "info": "Could not find an entity"}}
    with pytest.raises(WikidataDumpError, match="API error"):
        entities_from_json_file(write(tmp_path / "e.json", json.dumps(error).encode()))
    with pytest.raises(WikidataDumpError, match="not a JSON document"):
        entities_from_json_file(write(tmp_path / "h.json", b"<html></html>"))
    with pytest.raises(WikidataDumpError, match="not a Wikidata entity"):
        entities_from_json_file(write(tmp_path / "x.json", b'[{"head": {}}]'))


# -- the real 2015 dump sample ----------------------------------------------------------------


def test_sample_dump_2015(shared_data: Path) -> None:
    path = shared_data / "wikidata" / "sample-dump-20150815.json.gz"
    raw = gzip.decompress(path.read_bytes())
    lines = raw.decode().splitlines()
    assert lines[0] == "[" and lines[-1] == "]"
    # independent naive count: parse every entity line
    naive_entities = naive_humans = 0
    for line in lines[1:-1]:
        obj = json.loads(line.rstrip(","))
        naive_entities += 1
        values = [s["mainsnak"]["datavalue"]["value"] for s in obj["claims"].get("P31", [])]
        naive_humans += any(v.get("numeric-id") == 5 for v in values)
    # this sample writes P31 as {"numeric-id": 5} only: the older form must be recognised
    assert b'"Q5"' not in raw
    stats: Counter[str] = Counter()
    kept = humans(path, min_langs=1, stats=stats)
    assert stats["entities_read"] == naive_entities == 101
    assert stats["humans"] == naive_humans == 4  # Q23, Q42, Q207, Q297
    # the sample strips labels and sitelinks, so nobody has an article
    assert kept == []
    assert stats["humans_skipped_langs"] == 4
    assert stats["entities_malformed"] == 0


# -- layout and compression --------------------------------------------------------------------


@pytest.mark.parametrize("compact", [True, False])
def test_compressions_give_identical_results(
    shared_data: Path, tmp_path: Path, compact: bool
) -> None:
    objs = [*real_entities(shared_data), item("Q64", p31=["Q515"], langs=LANGS)]
    data = dump_lines(objs, compact=compact)
    expected = [e for e in (entity_from_json(o, LANGS) for o in objs) if e is not None]
    assert [e.qid for e in expected] == ["Q42", "Q328212", "Q646148", "Q131261"]
    results = {}
    for compression in ("plain", "gz", "bz2", "xz"):
        # a misleading name: compression is told by magic bytes
        path = write(tmp_path / f"dump-{compression}.json", data, compression)
        stats: Counter[str] = Counter()
        results[compression] = (humans(path, stats=stats), stats)
    for found, stats in results.values():
        assert found == expected
        assert stats == results["plain"][1]
        assert stats["entities_read"] == 5 and stats["humans_kept"] == 4


def test_layout_variants(tmp_path: Path) -> None:
    a, b, c = (item(q, genders=[FEMALE], langs=LANGS) for q in ("Q1", "Q2", "Q3"))
    expected = ["Q1", "Q2", "Q3"]
    rows = [json.dumps(x) for x in (a, b, c)]
    variants = {
        "bare lines": "\n".join(rows) + "\n",
        "bare lines, no final newline": "\n".join(rows),
        "last line with comma, blank lines": "[\n\n" + ",\n\n".join(rows) + ",\n]\n\n",
        "CRLF and BOM": "\ufeff[\r\n" + ",\r\n".join(rows) + "\r\n]\r\n",
        "commas on every line": "[\n" + "".join(r + ",\n" for r in rows) + "]",
    }
    for name, text in variants.items():
        path = write(tmp_path / "v.json", text.encode())
        assert [e.qid for e in humans(path)] == expected, name


def test_missing_closing_bracket_warns(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    data = dump_lines([item("Q1", langs=LANGS)]).rstrip(b"]\n")
    with caplog.at_level(logging.WARNING):
        assert [e.qid for e in humans(write(tmp_path / "d.json", data))] == ["Q1"]
    assert "without the closing ']'" in caplog.text


def test_content_after_closing_bracket_is_counted(tmp_path: Path) -> None:
    data = dump_lines([item("Q1", langs=LANGS)]) + json.dumps(item("Q2", langs=LANGS)).encode()
    stats: Counter[str] = Counter()
    assert [e.qid for e in humans(write(tmp_path / "d.json", data), stats=stats)] == ["Q1"]
    assert stats["entities_malformed"] == 1


# -- what is kept ------------------------------------------------------------------------------


def test_min_langs(tmp_path: Path) -> None:
    objs = [
        item("Q1", langs=["en"]),
        item("Q2", langs=["en", "es"]),
        item("Q3", langs=["en", "es", "ca"]),
        item("Q4", langs=["es", "ca", "fr"]),
        item("Q5000", langs=[]),
    ]
    path = write(tmp_path / "d.json", dump_lines(objs))
    stats: Counter[str] = Counter()
    assert [e.qid for e in humans(path, stats=stats)] == ["Q3"]
    assert (stats["humans"], stats["humans_kept"], stats["humans_skipped_langs"]) == (5, 1, 4)
    assert [e.qid for e in humans(path, min_langs=2)] == ["Q2", "Q3", "Q4"]
    assert [e.qid for e in humans(path, min_langs=1)] == ["Q1", "Q2", "Q3", "Q4"]
    assert [e.qid for e in humans(path, ["fr"])] == ["Q4"]
    q4 = humans(path, ["fr", "ca"])[0]
    assert q4.titles == {"fr": "Q4 (fr)", "ca": "Q4 (ca)"}  # in the requested order
    for bad in (0, 4):
        with pytest.raises(ValueError, match="min_langs"):
            iter_humans(path, LANGS, min_langs=bad)  # raised at the call, not on first next()


def test_ranks(tmp_path: Path) -> None:
    not_human = item("Q1", langs=LANGS, p31=[])
    not_human["claims"]["P31"] = [statement("P31", "Q5", rank="deprecated")]
    person = item("Q2", langs=LANGS)
    person["claims"]["P21"] = [
        statement("P21", MALE, rank="deprecated"),
        statement("P21", FEMALE, rank="preferred"),
    ]
    person["claims"]["P106"] = [
        statement("P106", POLITICIAN, rank="deprecated"),
        statement("P106", WRITER),
    ]
    stats: Counter[str] = Counter()
    [found] = humans(write(tmp_path / "d.json", dump_lines([not_human, person])), stats=stats)
    assert found.qid == "Q2"
    assert (found.genders, found.gender) == ([FEMALE], "female")
    assert found.occupations == [Occupation(WRITER)]
    assert stats["humans"] == 1


def test_somevalue_and_novalue_gender(tmp_path: Path) -> None:
    some = item("Q1", langs=LANGS)
    some["claims"]["P21"] = [statement("P21", None, snaktype="somevalue")]
    none = item("Q2", langs=LANGS)
    none["claims"]["P21"] = [statement("P21", None, snaktype="novalue")]
    both = item("Q3", langs=LANGS, genders=[NON_BINARY])
    both["claims"]["P21"].append(statement("P21", None, snaktype="somevalue"))
    stats: Counter[str] = Counter()
    found = humans(write(tmp_path / "d.json", dump_lines([some, none, both])), stats=stats)
    assert [(e.genders, e.gender) for e in found] == [
        ([], "unknown"),
        ([], "unknown"),
        ([NON_BINARY], "non-binary"),
    ]
    assert stats["gender_somevalue"] == 2
    assert stats["gender_novalue"] == 1
    assert stats["gender_missing"] == 2


def test_gender_counters(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    objs = [
        item("Q1", langs=LANGS, genders=["Q123456789"]),
        item("Q2", langs=LANGS, genders=["Q123456789", FEMALE]),
        item("Q3", langs=LANGS, genders=[FEMALE, MALE]),
        item("Q4", langs=LANGS),
    ]
    stats: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING):
        found = humans(write(tmp_path / "d.json", dump_lines(objs)), stats=stats)
    assert [e.gender for e in found] == ["unknown"] * 4
    assert stats["gender_unmapped"] == 2
    assert stats["gender_conflict"] == 1
    assert stats["gender_missing"] == 1
    assert caplog.text.count("Q123456789") == 1  # logged once per distinct value


def test_occupations_in_order_once(tmp_path: Path) -> None:
    objs = [
        item("Q1", langs=LANGS, occupations=[WRITER, POLITICIAN, WRITER]),
        item("Q2", langs=LANGS),
    ]
    stats: Counter[str] = Counter()
    found = humans(write(tmp_path / "d.json", dump_lines(objs)), stats=stats)
    assert found[0].occupations == [Occupation(WRITER), Occupation(POLITICIAN)]
    assert found[1].occupations == []
    assert stats["occupation_missing"] == 1


def test_person_label_preference(tmp_path: Path) -> None:
    objs = [
        item("Q1", langs=LANGS, labels={"es": "S", "en": "E"}),
        item("Q2", langs=LANGS, labels={"ca": "C", "de": "D"}),
        item("Q3", langs=LANGS, labels={"mul": "M", "de": "D"}),
        item("Q4", langs=LANGS, labels={}),
    ]
    path = write(tmp_path / "d.json", dump_lines(objs))
    assert [e.label for e in humans(path)] == ["E", "C", "M", ""]
    assert [e.label for e in humans(path, label_langs=["es"])] == ["S", "C", "M", ""]


# -- bad input ---------------------------------------------------------------------------------


def test_malformed_lines_skipped_and_counted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = [json.dumps(item(f"Q{i}", langs=LANGS)) for i in (1, 2, 3)]
    cut = good[1][: len(good[1]) // 2]  # a line cut in the middle (still mentions "Q5")
    broken = '{"type":"item","id":"Q9","claims":{"P31":"Q5",}}'  # shaped right, bad JSON
    not_entity = '{"note": "Q5"}'
    text = "[\n" + ",\n".join([good[0], cut, broken, good[2], not_entity]) + ",\n"
    bad_utf8 = b'{"type":"item","id":"Q8","labels":{"en":"\xff"},"claims":{"P31":"Q5"}}\n]\n'
    stats: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING):
        found = humans(write(tmp_path / "d.json", text.encode() + bad_utf8), stats=stats)
    assert [e.qid for e in found] == ["Q1", "Q3"]
    assert stats["entities_malformed"] == 4
    warnings = [r for r in caplog.records if "skipped" in r.getMessage()]
    assert [r.args[1] for r in warnings] == [3, 4, 6, 7]
    assert all(r.exc_info is None for r in caplog.records)  # no tracebacks
    assert all(len(r.args[3]) <= 80 for r in warnings)


def test_a_deeply_nested_line_is_a_counted_skip(tmp_path: Path) -> None:
    """A line nested beyond Python's JSON parser (RecursionError) skips that line only."""
    good = [json.dumps(item(f"Q{i}", langs=LANGS)) for i in (1, 2)]
    deep = '{"type":"item","id":"Q9","claims":{"P31":"Q5"},"x":' + "[" * 100_000 + "]" * 100_000
    text = "[\n" + ",\n".join([good[0], deep + "}", good[1]]) + "\n]\n"
    stats: Counter[str] = Counter()
    found = humans(write(tmp_path / "d.json", text.encode()), stats=stats)
    assert [e.qid for e in found] == ["Q1", "Q2"] and stats["entities_malformed"] == 1


def test_truncated_bz2_raises_after_yielding(tmp_path: Path) -> None:
    objs = [item(f"Q{i}", langs=LANGS, labels={"en": f"name {i} " * 20}) for i in range(1, 3001)]
    full = write(tmp_path / "full.json.bz2", dump_lines(objs), "bz2")
    data = full.read_bytes()
    cut = write(tmp_path / "cut.json.bz2", data[: int(len(data) * 0.6)])
    stats: Counter[str] = Counter()
    found: list[str] = []
    with pytest.raises(TruncatedWikidataDumpError) as info:
        for entity in iter_humans(cut, LANGS, stats=stats):
            found.append(entity.qid)
    assert 0 < len(found) < 3000
    assert found == [f"Q{i}" for i in range(1, len(found) + 1)]
    assert info.value.entities_read == stats["entities_read"] == len(found)
    assert info.value.path == cut
    assert str(cut) in str(info.value) and "truncated" in str(info.value)
    assert isinstance(info.value, WikidataDumpError)
    copy = pickle.loads(pickle.dumps(info.value))  # can cross a process boundary
    assert (copy.path, copy.entities_read, str(copy)) == (cut, len(found), str(info.value))


def test_truncated_gz_raises(tmp_path: Path) -> None:
    objs = [item(f"Q{i}", langs=LANGS) for i in range(1, 200)]
    data = gzip.compress(dump_lines(objs))
    with pytest.raises(TruncatedWikidataDumpError):
        humans(write(tmp_path / "cut.json.gz", data[:-100]))


def test_corrupt_bz2_raises(tmp_path: Path) -> None:
    data = bytearray(bz2.compress(dump_lines([item(f"Q{i}", langs=LANGS) for i in range(50)])))
    data[100:140] = b"\x00" * 40
    with pytest.raises(WikidataDumpError):
        humans(write(tmp_path / "bad.json.bz2", bytes(data)))


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"<!DOCTYPE html>\n<html><body>Not Found</body></html>\n", "line 1"),
        (b"\n\n<?xml version='1.0'?>\n<mediawiki>\n", "line 3"),
        (b'{"head": {"vars": ["x"]}, "results": {"bindings": []}}\n', "not a Wikidata JSON dump"),
        (b"[\n" + b'{"head": {}},\n' + b"]\n", "line 2"),
        (b'{"entities": {"Q1": {"id": "Q1", "type": "item"}}}', "entities_from_json_file"),
        (b'[{"id": "Q1", "type": "item"}]\n', "one-entity-per-line"),
        (b"", "empty"),
        (b"\n\n  \n", "blank"),
        (b"\x28\xb5\x2f\xfd\x00\x00", "zstd"),
    ],
)
def test_not_a_dump(tmp_path: Path, content: bytes, match: str) -> None:
    path = write(tmp_path / "latest-all.json", content)
    with pytest.raises(WikidataDumpError, match=match) as info:
        humans(path)
    assert str(path) in str(info.value)


def test_pretty_printed_entity_file_is_not_a_dump(shared_data: Path) -> None:
    with pytest.raises(WikidataDumpError, match="entities_from_json_file"):
        humans(shared_data / "wikidata" / "Q42.json")


# -- occupation labels -------------------------------------------------------------------------


def test_collect_and_fill_occupation_labels(tmp_path: Path) -> None:
    writer = item(WRITER, p31=["Q28640"], labels={"en": "writer", "es": "escritor"})
    politician = item(POLITICIAN, p31=["Q28640"], labels={"de": "Politiker"})
    # older layout (as in Q328212.json): the id is not at the start of the line
    politician = {k: politician[k] for k in ("labels", "claims", "sitelinks", "id", "type")}
    objs = [
        writer,  # before the people who use it
        item("Q1", langs=LANGS, occupations=[WRITER, POLITICIAN]),
        item("Q2", langs=LANGS, occupations=["Q1930187"]),  # journalist: not in this dump
        politician,  # after them
        item("Q100", p31=["Q515"], labels={"en": "a city"}),
    ]
    for compact in (True, False):
        path = write(tmp_path / "d.json.bz2", dump_lines(objs, compact=compact), "bz2")
        people = humans(path)
        wanted = referenced_occupations(people)
        assert wanted == {WRITER, POLITICIAN, "Q1930187"}
        stats: Counter[str] = Counter()
        labels = collect_labels(path, wanted, ["es", "en"], stats=stats)
        assert labels == {WRITER: "escritor", POLITICIAN: "Politiker"}
        assert (stats["labels_found"], stats["labels_missing"]) == (2, 1)
        filled = list(label_occupations(people, labels))
        assert filled[0].occupations == [
            Occupation(WRITER, "escritor"),
            Occupation(POLITICIAN, "Politiker"),
        ]
        assert filled[1].occupations == [Occupation("Q1930187", "")]
        assert people[0].occupations[0].label == ""  # the input is not modified


def test_collect_labels_stops_when_all_found(tmp_path: Path) -> None:
    objs = [item(WRITER, p31=[], labels={"en": "writer"})] + [
        item(f"Q{i}", langs=LANGS) for i in range(1, 100)
    ]
    stats: Counter[str] = Counter()
    path = write(tmp_path / "d.json", dump_lines(objs))
    assert collect_labels(path, [WRITER], ["en"], stats=stats) == {WRITER: "writer"}
    assert stats["entities_read"] == 1
    assert collect_labels(path, [], ["en"]) == {}


# -- memory ------------------------------------------------------------------------------------


def _synthetic_dump(path: Path, n: int) -> Path:
    """n small entities, one in ten a person with articles in all three languages."""
    with gzip.open(path, "wb", compresslevel=1) as fh:
        fh.write(b"[\n")
        for i in range(1, n + 1):
            if i % 10 == 0:
                obj = item(f"Q{i}", langs=LANGS, genders=[FEMALE], occupations=[WRITER])
            else:
                obj = item(f"Q{i}", p31=["Q515"], labels={"en": f"place {i}"})
            end = b",\n" if i < n else b"\n"
            fh.write(json.dumps(obj, separators=(",", ":")).encode() + end)
        fh.write(b"]\n")
    return path


def _peak_bytes(path: Path) -> tuple[int, int]:
    stats: Counter[str] = Counter()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        kept = sum(1 for _ in iter_humans(path, LANGS, stats=stats))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, kept


@pytest.mark.slow
def test_memory_is_flat(tmp_path: Path) -> None:
    small = _synthetic_dump(tmp_path / "small.json.gz", 20_000)
    large = _synthetic_dump(tmp_path / "large.json.gz", 200_000)
    small_peak, small_kept = _peak_bytes(small)
    large_peak, large_kept = _peak_bytes(large)
    assert (small_kept, large_kept) == (2_000, 20_000)
    # ten times the entities, about the same peak: nothing grows with the dump
    assert large_peak < 1.5 * small_peak + 256 * 1024, (small_peak, large_peak)
    assert large_peak < 8 * 1024 * 1024


@pytest.mark.parametrize("bad", ["Q1\tX", "../../evil", "Q01", "P31", "Q", "Q1\n"])
def test_an_id_that_is_no_item_id_is_skipped_and_counted(bad: str) -> None:
    stats: Counter[str] = Counter()
    assert entity_from_json(item(bad, genders=[FEMALE], langs=LANGS), LANGS, stats=stats) is None
    assert stats["humans_bad_qid"] == 1 and stats["humans_kept"] == 0
    assert entity_from_json(item("Q7", langs=LANGS), LANGS, stats=stats) is not None
