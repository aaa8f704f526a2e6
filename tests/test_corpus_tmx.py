"""corpus.tmx: the corpus as a TMX 1.4b memory, read back with translate-toolkit (what a CAT
tool or `tmx2po` reads) and with lxml; skipped cleanly where translate-toolkit is absent."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lxml import etree

from occbio.io.corpus import clean_text, write_corpus, write_tmx
from occbio.records import Document, Entity, Occupation

tmx = pytest.importorskip("translate.storage.tmx")

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
LANGS = ["en", "es", "ca"]


def _props(element: etree._Element) -> dict[str, str]:
    """An element's own ``<prop>``s, by type (each type appears once in occbio's TMX)."""
    props = {p.get("type"): p.text for p in element.findall("prop")}
    assert len(props) == len(element.findall("prop"))  # no type twice
    return props


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def _read(path: Path) -> list:
    with open(path, "rb") as fh:
        return tmx.tmxfile(fh).units


def _texts(unit) -> dict[str, str]:
    """Each language's text of a translate-toolkit unit."""
    return {node.get(XML_LANG): unit.getNodeText(node) for node in unit.getlanguageNodes()}


def test_sample_corpus_reads_back_with_translate_toolkit(mined_sample: Path) -> None:
    corpus = mined_sample / "corpus"
    rows = _jsonl(corpus / "corpus.jsonl")
    units = _read(corpus / "corpus.tmx")
    assert rows and len(units) == len(rows)
    for unit, row in zip(units, rows, strict=True):
        assert unit.getid() == f"{row['qid']}:{row['seg']}"
        assert _texts(unit) == row["text"]
        assert unit.source == row["text"]["en"]  # the pivot is the source language
        props = _props(unit.xmlelement)
        assert props["x-qid"] == row["qid"] and props["x-seg"] == str(row["seg"])
        assert props["x-gender"] == row["gender"] and props["x-name"] == row["name"]
        occupations = row["occupations"]
        assert props.get("x-occupation-qids", "") == "|".join(o["qid"] for o in occupations)
        for tuv in unit.getlanguageNodes():
            lang, said = tuv.get(XML_LANG), _props(tuv)
            assert said["x-revision-id"] == str(row["revision_ids"][lang])
            assert said["x-page-id"] == str(row["page_ids"][lang])
            assert said["x-url"] == row["urls"][lang]
            assert said.get("x-revision-timestamp") == row["revision_timestamps"].get(lang)
            assert said.get("x-source") == row["sources"].get(lang)
            score = row["scores"].get(lang)
            assert said.get("x-score") == (None if score is None else repr(score))
        assert "x-score" not in _props(unit.getlanguageNodes()[0])  # no score for the pivot


def test_sample_tmx_is_well_formed_with_the_header_and_in_the_run(mined_sample: Path) -> None:
    root = etree.parse(str(mined_sample / "corpus" / "corpus.tmx")).getroot()
    assert root.tag == "tmx" and root.get("version") == "1.4"
    assert root.getroottree().docinfo.system_url == "tmx14.dtd"
    header = root.find("header")
    assert dict(header.attrib) == {
        "creationtool": "occbio",
        "creationtoolversion": header.get("creationtoolversion"),
        "segtype": "sentence",
        "o-tmf": "occbio corpus",
        "adminlang": "en",
        "srclang": "en",
        "datatype": "plaintext",
    }
    assert header.get("creationtoolversion")
    for tu in root.find("body"):
        assert [tuv.get(XML_LANG) for tuv in tu.findall("tuv")] == LANGS
        assert [child.tag for child in tu][-3:] == ["tuv"] * 3  # props before the tuvs
        for tuv in tu.findall("tuv"):
            assert [child.tag for child in tuv][-1] == "seg"  # props before the seg
    manifest = json.loads((mined_sample / "manifest.json").read_text("utf-8"))
    assert "corpus/corpus.tmx" in manifest["stages"]["write"]["outputs"]
    assert "`corpus.tmx`" in (mined_sample / "DATACARD.md").read_text("utf-8")


def _person(qid: str = "Q1", **kw) -> Entity:
    return Entity(
        qid=qid,
        label=kw.pop("label", "Ana"),
        gender="female",
        occupations=[Occupation("Q36180", "writer"), Occupation("Q49757", "poet")],
        titles={lang: "Ana" for lang in LANGS},
        **kw,
    )


HOSTILE = {
    "en": "Bell\x07 \x00tab\x0bform\x0c feed\x1b ]]> <b>&amp; & 'q' \"qq\" 👩🏽‍🔬 x\ud800y\ufffe",
    "es": "\u200fمرحبا\u200e Ana\u202e reversed\u202c \U0001f600 <![CDATA[x]]>",
    "ca": "  spaces\t\ttabs\nnew line\r\n\u2028sep\u00a0nbsp  ",
}


def test_hostile_text_round_trips_as_the_jsonl_has_it(tmp_path: Path) -> None:
    doc = Document(
        entity=_person(label="Ana <\x01> & ]]>"),
        segments=[HOSTILE, {"en": "Plain.", "es": "Llano.", "ca": "Pla."}],
        scores=[{"es": 1.0000000000000002, "ca": 0.1}, {}],
        page_ids={"en": 1, "es": 2, "ca": 3},
        revision_ids={"en": 10},
        sources={"en": "dump:en\x01wiki <1>.xml"},
    )
    written = write_corpus(tmp_path, LANGS, [doc], pivot="en")
    assert written["segments"] == 2  # nothing skipped: the forbidden characters removed
    raw = (tmp_path / "corpus.tmx").read_bytes()
    root = etree.fromstring(raw)  # well-formed
    assert len(root.findall("body/tu")) == 2
    rows = _jsonl(tmp_path / "corpus.jsonl")
    units = _read(tmp_path / "corpus.tmx")
    assert [_texts(u) for u in units] == [r["text"] for r in rows]
    texts = _texts(units[0])
    assert texts == {lang: clean_text(text) for lang, text in HOSTILE.items()}
    assert "\x07" not in texts["en"] and "]]> <b>&amp; &" in texts["en"] and "👩🏽‍🔬" in texts["en"]
    assert texts["es"].startswith("\u200fمرحبا\u200e") and "<![CDATA[x]]>" in texts["es"]
    assert texts["ca"] == "spaces tabs new line sep nbsp"
    tu = root.find("body/tu")
    assert _props(tu)["x-name"] == "Ana <> & ]]>"
    en, es, _ = tu.findall("tuv")
    assert _props(en) == {
        "x-url": "https://en.wikipedia.org/wiki/Ana",
        "x-page-id": "1",
        "x-revision-id": "10",
        "x-source": "dump:enwiki <1>.xml",
    }
    assert _props(es)["x-score"] == "1.0000000000000002"  # the very float, as in the TSV
    assert float(_props(es)["x-score"]) == rows[0]["scores"]["es"]
    assert "x-score" not in _props(root.findall("body/tu")[1].find("tuv[2]"))  # none known


def test_the_same_documents_give_the_same_bytes(tmp_path: Path) -> None:
    def docs() -> list[Document]:
        return [
            Document(entity=_person(f"Q{n}"), segments=[HOSTILE] * n, scores=[{"es": 1.5}] * n)
            for n in (3, 1, 2)
        ]

    write_tmx(tmp_path / "a.tmx", LANGS, docs(), pivot="en")
    write_tmx(tmp_path / "b.tmx", LANGS, docs(), pivot="en")
    assert (tmp_path / "a.tmx").read_bytes() == (tmp_path / "b.tmx").read_bytes()
    assert b"creationdate" not in (tmp_path / "a.tmx").read_bytes()  # no clock in the file
    assert [u.getid() for u in _read(tmp_path / "a.tmx")] == [
        "Q3:1", "Q3:2", "Q3:3", "Q1:1", "Q2:1", "Q2:2",
    ]  # fmt: skip


def test_pivot_first_occupations_and_a_counterfactual_copy(tmp_path: Path) -> None:
    doc = Document(
        entity=_person("Q7"),
        segments=[{"en": "He wrote.", "es": "Escribió.", "ca": "Va escriure."}],
        scores=[{"en": 1.1, "ca": 1.2}],
        seg_ids=[4],
        source_gender="male",
    )
    write_tmx(tmp_path / "cf.tmx", LANGS, [doc], pivot="es")
    root = etree.parse(str(tmp_path / "cf.tmx")).getroot()
    assert root.find("header").get("srclang") == "es"
    tu = root.find("body/tu")
    assert tu.get("tuid") == "Q7:4"
    assert [tuv.get(XML_LANG) for tuv in tu.findall("tuv")] == ["es", "en", "ca"]
    assert _props(tu) == {
        "x-qid": "Q7",
        "x-name": "Ana",
        "x-seg": "4",
        "x-gender": "female",
        "x-counterfactual": "true",
        "x-source-gender": "male",
        "x-occupations": "writer|poet",
        "x-occupation-qids": "Q36180|Q49757",
    }
    (unit,) = _read(tmp_path / "cf.tmx")
    assert unit.source == "Escribió." and unit.gettarget("ca") == "Va escriure."
    assert [_props(tuv).get("x-score") for tuv in tu.findall("tuv")] == [None, "1.1", "1.2"]


def test_a_document_without_segments_is_left_out(tmp_path: Path) -> None:
    empty = Document(entity=_person("Q2"))
    assert write_tmx(tmp_path / "x.tmx", LANGS, [empty], pivot="en") == 0
    root = etree.parse(str(tmp_path / "x.tmx")).getroot()
    assert root.find("body") is not None and len(root.find("body")) == 0
    assert _read(tmp_path / "x.tmx") == []


def test_a_run_written_before_tmx_gets_it_the_same_bytes(
    mined_sample: Path, tmp_path: Path
) -> None:
    """A run finished by an occbio without TMX: its write stage runs again (the formats are in
    its settings) and writes corpus.tmx, the bytes of a fresh run's; the rest unchanged."""
    from occbio.cli import main
    from occbio.run import fingerprint

    run = tmp_path / "run"
    shutil.copytree(mined_sample, run)
    (run / "corpus" / "corpus.tmx").unlink()
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    write = manifest["stages"]["write"]
    assert write["fingerprint"] == fingerprint(
        {"inputs": write["inputs"], "settings": write["settings"]}
    )  # recomputed below as an occbio without TMX had it
    del write["settings"]["formats"]  # as an occbio without TMX recorded it
    write["fingerprint"] = fingerprint({"inputs": write["inputs"], "settings": write["settings"]})
    write["outputs"].remove("corpus/corpus.tmx")
    write["checksums"].pop("corpus/corpus.tmx", None)
    (run / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    before = {p.name: p.read_bytes() for p in (run / "corpus").iterdir()}

    assert main(["write", "--sample", "--langs", "en,es,ca", "--out", str(run), "-q"]) == 0
    fresh = mined_sample / "corpus" / "corpus.tmx"
    assert (run / "corpus" / "corpus.tmx").read_bytes() == fresh.read_bytes()
    assert {n: (run / "corpus" / n).read_bytes() for n in before} == before
    write = json.loads((run / "manifest.json").read_text("utf-8"))["stages"]["write"]
    assert "corpus/corpus.tmx" in write["outputs"] and "tmx" in write["settings"]["formats"]
