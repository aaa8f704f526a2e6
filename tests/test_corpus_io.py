"""The corpus writers (XML, TSV, JSONL, plain) and the tolerant GeBioCorpus XML reader."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from occbio.io.corpus import (
    article_url,
    clean_text,
    write_corpus,
    write_jsonl,
    write_plain,
    write_tmx,
    write_tsv,
    write_xml,
)
from occbio.io.gebio_reader import GebioDoc, read_gebio_xml
from occbio.records import Document, Entity, Occupation

LANGS = ["en", "es", "ca"]
PIVOT = "en"
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'


def _docs() -> list[Document]:
    rodoreda = Document(
        entity=Entity(
            qid="Q233265",
            label="Mercè Rodoreda",
            genders=["Q6581072"],
            gender="female",
            occupations=[Occupation("Q36180", "writer"), Occupation("Q6625963", "novelist")],
            titles={
                "en": "Mercè Rodoreda",
                "es": "Mercè Rodoreda",
                "ca": "Mercè Rodoreda i Gurguí",
            },
        ),
        segments=[
            {
                "en": "Mercè Rodoreda was born in Barcelona in 1908.",
                "es": "Mercè Rodoreda nació en Barcelona en 1908.",
                "ca": "Mercè Rodoreda va néixer a Barcelona el 1908.",
            },
            {
                "en": 'She wrote "La plaça del Diamant" & other novels (<1960).',
                "es": "Escribió «La plaça del Diamant» & otras novelas (<1960).",
                "ca": "Va escriure «La plaça del Diamant» i altres novel·les (<1960).",
            },
            {
                "en": "Her work\x0bwas translated\tinto 30 languages.",
                "es": "Su obra fue  traducida a 30 idiomas.\n",
                "ca": " La seva obra s'ha traduït a 30 llengües.",
            },
        ],
        scores=[{"es": 1.2345678, "ca": 1.1}, {"es": 1.05, "ca": 1.0}, {"es": 1.3, "ca": 1.25}],
        page_ids={"en": 1234567, "es": 234567, "ca": 34567},
        # provenance in two languages only: Catalan's source said nothing of its revision
        revision_ids={"en": 1200000001, "es": 150000002},
        revision_timestamps={"en": "2024-05-30T12:00:01Z", "es": "2024-05-29T08:30:00Z"},
        sources={
            "en": "dump:enwiki-20240601-pages-articles.xml.bz2",
            "es": "web:https://es.wikipedia.org/api/rest_v1/page/html/Merc%C3%A8_Rodoreda"
            "?redirect=true@2024-06-02T10:00:00Z",
        },
    )
    nobody = Document(  # no aligned segment: skipped by every writer
        entity=Entity(
            qid="Q1",
            label="Nobody",
            gender="male",
            titles={"en": "Nobody", "es": "Nadie", "ca": "Ningú"},
        ),
        page_ids={"en": 1, "es": 2, "ca": 3},
    )
    obrien = Document(
        entity=Entity(
            qid="Q5",
            label="Flann O'Brien",
            gender="male",
            occupations=[Occupation("Q1930187", "journalist"), Occupation("Q36180", "writer")],
            titles={
                "en": "Flann O'Brien",
                "es": "Flann O'Brien (escritor)",
                "ca": "Flann O'Brien",
            },
        ),
        segments=[
            {
                "en": "Brian O'Nolan wrote as Flann O'Brien & Myles na gCopaleen.",
                "es": "Brian O'Nolan escribió como Flann O'Brien y Myles na gCopaleen.",
                "ca": "Brian O'Nolan va escriure com a Flann O'Brien i Myles na gCopaleen.",
            }
        ],
        scores=[{"es": 1.4, "ca": 1.3333333}],
        page_ids={"en": 11, "es": 22, "ca": 33},
    )
    ana = Document(  # a score missing for the second segment, a label with "|"-free labels
        entity=Entity(
            qid="Q77",
            label="Ana María Matute",
            gender="female",
            occupations=[Occupation("Q36180", "writer")],
            titles={"en": "Ana María Matute", "es": "Ana María Matute", "ca": "Ana María Matute"},
        ),
        segments=[
            {
                "en": "Ana María Matute was a writer.",
                "es": "Fue escritora.",
                "ca": "Fou escriptora.",
            },
            {"en": "She won the Cervantes Prize.", "es": "Ganó el Cervantes.", "ca": "Guanyà."},
        ],
        scores=[{"es": 1.2, "ca": 1.1}],
        page_ids={"en": 7, "es": 8, "ca": 9},
    )
    return [rodoreda, nobody, obrien, ana]


def _kept() -> list[Document]:
    return [d for d in _docs() if d.segments]


def _url(doc: Document, lang: str) -> str:
    return article_url(lang, doc.entity.titles[lang])


# --- helpers -----------------------------------------------------------------------------------


def test_clean_text():
    assert clean_text("  a\tb\nc\r\nd  ") == "a b c d"
    assert clean_text("x\x0by\x00z\x1f") == "xyz"
    assert clean_text("a\u2028b\x85c\u00a0d") == "a b c d"
    assert clean_text("bad \ud800surrogate\uffff") == "bad surrogate"
    assert clean_text('Mercè & <b> «x» "q"') == 'Mercè & <b> «x» "q"'
    assert clean_text("") == ""


def test_article_url():
    assert (
        article_url("en", "Mercè Rodoreda") == "https://en.wikipedia.org/wiki/Merc%C3%A8_Rodoreda"
    )
    assert (
        article_url("es", "Ana María (escritora)")
        == "https://es.wikipedia.org/wiki/Ana_Mar%C3%ADa_(escritora)"
    )
    assert article_url("en", "AC/DC") == "https://en.wikipedia.org/wiki/AC/DC"
    assert article_url("en", "Flann O'Brien") == "https://en.wikipedia.org/wiki/Flann_O%27Brien"
    assert article_url("en", "C++") == "https://en.wikipedia.org/wiki/C%2B%2B"
    assert article_url("en", "Q&A? #1") == "https://en.wikipedia.org/wiki/Q%26A%3F_%231"
    assert article_url("en", "Saint-Just, Louis: a life") == (
        "https://en.wikipedia.org/wiki/Saint-Just,_Louis:_a_life"
    )


# --- XML ---------------------------------------------------------------------------------------


def _expected_attrs(doc: Document, lang: str) -> dict[str, str]:
    e = doc.entity
    return {
        "docid": e.qid,
        "wpid": str(doc.page_ids[lang]),
        "language": lang,
        "gender": e.gender,
        "occupation": "|".join(o.label for o in e.occupations),
        "occupation_qids": "|".join(o.qid for o in e.occupations),
        "url": _url(doc, lang),
        # provenance, where the source said it (none in Catalan, nor for the other people)
        **({"revision_id": str(doc.revision_ids[lang])} if lang in doc.revision_ids else {}),
        **(
            {"revision_timestamp": doc.revision_timestamps[lang]}
            if lang in doc.revision_timestamps
            else {}
        ),
        **({"source": doc.sources[lang]} if lang in doc.sources else {}),
    }


@pytest.mark.parametrize("lang", LANGS)
def test_write_xml_parses_strictly_and_round_trips(tmp_path: Path, lang: str):
    path = tmp_path / f"corpus.{lang}.xml"
    assert write_xml(path, lang, iter(_docs())) == 3
    text = path.read_text("utf-8")
    assert text.splitlines()[0] == DECLARATION
    assert "\x0b" not in text and "\t" not in text
    root = etree.parse(str(path), etree.XMLParser(recover=False, resolve_entities=False)).getroot()
    assert root.tag == "corpus" and root.get("lang") == lang
    docs = root.findall("doc")
    kept = _kept()
    assert len(docs) == len(kept)
    for el, doc in zip(docs, kept, strict=True):
        assert dict(el.attrib) == _expected_attrs(doc, lang)
        assert [c.tag for c in el] == ["title"] + ["seg"] * len(doc.segments)
        assert el.findtext("title") == doc.entity.titles[lang]
        segs = el.findall("seg")
        assert [s.get("id") for s in segs] == [str(i) for i in range(1, len(doc.segments) + 1)]
        assert [s.text for s in segs] == [clean_text(s[lang]) for s in doc.segments]
    # one element per line: every <seg> and <doc> starts its own line
    lines = text.splitlines()
    assert sum(line.lstrip().startswith("<seg ") for line in lines) == 6
    assert sum(line.startswith("<doc ") for line in lines) == 3


def test_write_xml_escapes(tmp_path: Path):
    path = tmp_path / "c.xml"
    write_xml(path, "en", _docs())
    text = path.read_text("utf-8")
    assert "&amp; other novels (&lt;1960)." in text
    assert "Flann_O%27Brien" in text


def test_write_xml_empty_and_missing_language(tmp_path: Path):
    path = tmp_path / "empty.xml"
    assert write_xml(path, "en", []) == 0
    root = etree.parse(str(path)).getroot()
    assert root.tag == "corpus" and len(root) == 0
    assert list(read_gebio_xml(path)) == []
    # a language nobody has: nothing written, still a well-formed file
    assert write_xml(tmp_path / "fr.xml", "fr", _docs()) == 0
    assert len(etree.parse(str(tmp_path / "fr.xml")).getroot()) == 0


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.one_of(
                st.characters(),
                st.sampled_from("&<>\"'\t\n\r\x0b\x00\ud800\ufffe]]>;#"),
            ),
            max_size=40,
        ),
        min_size=1,
        max_size=4,
    ),
    st.text(max_size=20),
)
def test_any_text_survives_xml(tmp_path_factory, sentences: list[str], label: str):
    path = tmp_path_factory.mktemp("hyp") / "c.xml"
    doc = Document(
        entity=Entity(
            qid="Q9",
            label=label,
            gender="female",
            occupations=[Occupation("Q1", label)],
            titles={"en": label + "&x"},
        ),
        segments=[{"en": s} for s in sentences],
        page_ids={"en": 9},
    )
    write_xml(path, "en", [doc])
    el = etree.parse(str(path)).getroot().find("doc")
    assert el.get("occupation") == clean_text(label)
    assert el.findtext("title") == clean_text(label + "&x")
    assert [s.text or "" for s in el.findall("seg")] == [clean_text(s) for s in sentences]
    (back,) = read_gebio_xml(path)
    assert back.occupation == clean_text(label)
    assert back.title == clean_text(label + "&x")
    assert [t for _, t in back.segments] == [clean_text(s) for s in sentences]


# --- TSV / JSONL / plain ---------------------------------------------------------------------


TSV_HEADER = [
    "en",
    "es",
    "ca",
    "qid",
    "name",
    "occupations",
    "occupation_qids",
    "gender",
    "url_en",
    "url_es",
    "url_ca",
    "seg",
    "score_es",
    "score_ca",
    "revision_id_en",
    "revision_id_es",
    "revision_id_ca",
    "revision_timestamp_en",
    "revision_timestamp_es",
    "revision_timestamp_ca",
    "source_en",
    "source_es",
    "source_ca",
]


def _read_tsv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh, delimiter="\t"))


def test_write_tsv(tmp_path: Path):
    path = tmp_path / "c.tsv"
    assert write_tsv(path, LANGS, iter(_docs()), pivot=PIVOT) == 6
    rows = _read_tsv(path)
    assert rows[0] == TSV_HEADER
    assert len(rows) == 1 + 6
    assert all(len(r) == len(TSV_HEADER) for r in rows)
    first = dict(zip(TSV_HEADER, rows[1], strict=True))
    assert first == {
        "en": "Mercè Rodoreda was born in Barcelona in 1908.",
        "es": "Mercè Rodoreda nació en Barcelona en 1908.",
        "ca": "Mercè Rodoreda va néixer a Barcelona el 1908.",
        "qid": "Q233265",
        "name": "Mercè Rodoreda",
        "occupations": "writer|novelist",
        "occupation_qids": "Q36180|Q6625963",
        "gender": "female",
        "url_en": "https://en.wikipedia.org/wiki/Merc%C3%A8_Rodoreda",
        "url_es": "https://es.wikipedia.org/wiki/Merc%C3%A8_Rodoreda",
        "url_ca": "https://ca.wikipedia.org/wiki/Merc%C3%A8_Rodoreda_i_Gurgu%C3%AD",
        "seg": "1",
        "score_es": "1.2345678",  # every digit: read back, the same float
        "score_ca": "1.1",
        "revision_id_en": "1200000001",
        "revision_id_es": "150000002",
        "revision_id_ca": "",  # not said: an empty cell
        "revision_timestamp_en": "2024-05-30T12:00:01Z",
        "revision_timestamp_es": "2024-05-29T08:30:00Z",
        "revision_timestamp_ca": "",
        "source_en": "dump:enwiki-20240601-pages-articles.xml.bz2",
        "source_es": "web:https://es.wikipedia.org/api/rest_v1/page/html/Merc%C3%A8_Rodoreda"
        "?redirect=true@2024-06-02T10:00:00Z",
        "source_ca": "",
    }
    third = dict(zip(TSV_HEADER, rows[3], strict=True))
    assert third["en"] == "Her workwas translated into 30 languages."
    assert third["es"] == "Su obra fue traducida a 30 idiomas."
    assert third["seg"] == "3"
    # the second segment of the last document has no score
    last = dict(zip(TSV_HEADER, rows[-1], strict=True))
    assert (last["qid"], last["seg"], last["score_es"], last["score_ca"]) == ("Q77", "2", "", "")
    # every sentence column holds exactly the cleaned sentence
    tuples = [(d, i, s) for d in _kept() for i, s in enumerate(d.segments)]
    for row, (doc, i, seg) in zip(rows[1:], tuples, strict=True):
        assert row[:3] == [clean_text(seg[lang]) for lang in LANGS]
        assert row[3] == doc.entity.qid and row[11] == str(i + 1)


def _expected_jsonl() -> list[dict]:
    out = []
    for doc in _kept():
        e = doc.entity
        for i, seg in enumerate(doc.segments):
            scores = doc.scores[i] if i < len(doc.scores) else {}
            out.append(
                {
                    "text": {lang: clean_text(seg[lang]) for lang in LANGS},
                    "qid": e.qid,
                    "name": e.label,
                    "occupations": [{"qid": o.qid, "label": o.label} for o in e.occupations],
                    "gender": e.gender,
                    "urls": {lang: _url(doc, lang) for lang in LANGS},
                    "seg": i + 1,
                    "scores": dict(scores),
                    "page_ids": dict(doc.page_ids),
                    "revision_ids": dict(doc.revision_ids),
                    "revision_timestamps": dict(doc.revision_timestamps),
                    "sources": dict(doc.sources),
                }
            )
    return out


def test_write_jsonl(tmp_path: Path):
    path = tmp_path / "c.jsonl"
    assert write_jsonl(path, iter(_docs())) == 6
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert rows == _expected_jsonl()
    # restricting the languages
    write_jsonl(tmp_path / "enca.jsonl", _docs(), langs=["en", "ca"], pivot="en")
    row = json.loads((tmp_path / "enca.jsonl").read_text("utf-8").splitlines()[0])
    assert list(row["text"]) == ["en", "ca"] and list(row["urls"]) == ["en", "ca"]
    assert row["scores"] == {"ca": 1.1}


def test_write_plain(tmp_path: Path):
    paths = write_plain(tmp_path, LANGS, iter(_docs()), stem="test")
    assert set(paths) == {*LANGS, "docids"}
    assert paths["es"] == tmp_path / "test.es" and paths["docids"] == tmp_path / "test.docids"
    lines = {k: p.read_text("utf-8").split("\n") for k, p in paths.items()}
    for k in paths:
        assert lines[k][-1] == ""  # every line ends with a newline
        lines[k] = lines[k][:-1]
        assert len(lines[k]) == 6
    tuples = [(d.entity.qid, s) for d in _kept() for s in d.segments]
    assert lines["docids"] == [q for q, _ in tuples]
    for lang in LANGS:
        assert lines[lang] == [clean_text(s[lang]) for _, s in tuples]


# --- write_corpus ------------------------------------------------------------------------------


def test_write_corpus_one_pass_equals_separate_writers(tmp_path: Path):
    pulled: list[str] = []

    def stream() -> Iterator[Document]:
        for d in _docs():
            pulled.append(d.entity.qid)
            yield d

    gen = stream()
    result = write_corpus(tmp_path / "all", LANGS, gen, pivot=PIVOT)
    assert pulled == ["Q233265", "Q1", "Q5", "Q77"]  # each document pulled once
    assert next(gen, None) is None
    files = [
        "corpus.en.xml",
        "corpus.es.xml",
        "corpus.ca.xml",
        "corpus.tsv",
        "corpus.parquet",
        "corpus.jsonl",
        "corpus.tmx",
        "corpus.en",
        "corpus.es",
        "corpus.ca",
        "corpus.docids",
    ]
    assert result == {"files": files, "documents": 3, "segments": 6, "skipped_empty": 1}
    assert sorted(os.listdir(tmp_path / "all")) == sorted(files)  # no temporary file left

    sep = tmp_path / "sep"
    for lang in LANGS:
        write_xml(sep / f"corpus.{lang}.xml", lang, _docs())
    write_tsv(sep / "corpus.tsv", LANGS, _docs(), pivot=PIVOT)
    write_jsonl(sep / "corpus.jsonl", _docs(), langs=LANGS, pivot=PIVOT)
    write_plain(sep, LANGS, _docs())
    write_tmx(sep / "corpus.tmx", LANGS, _docs(), pivot=PIVOT)
    for name in files:
        if name != "corpus.parquet":  # written by write_corpus only; checked below
            assert (tmp_path / "all" / name).read_bytes() == (sep / name).read_bytes(), name
    # with the documents' own language order, plain write_jsonl gives the same file
    write_jsonl(sep / "default.jsonl", _docs())
    assert (sep / "default.jsonl").read_bytes() == (sep / "corpus.jsonl").read_bytes()


def test_write_corpus_failure_leaves_nothing_half_written(tmp_path: Path):
    out = tmp_path / "out"
    write_corpus(out, LANGS, _docs()[:1], pivot=PIVOT)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken() -> Iterator[Document]:
        yield from _docs()
        raise RuntimeError("source died")

    with pytest.raises(RuntimeError, match="source died"):
        write_corpus(out, LANGS, broken(), pivot=PIVOT)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_writers_refuse_misaligned_documents(tmp_path: Path):
    bad = _docs()
    del bad[0].segments[1]["ca"]
    with pytest.raises(ValueError, match=r"Q233265: segment 2 has no sentence in ca"):
        write_corpus(tmp_path, LANGS, bad, pivot=PIVOT)
    with pytest.raises(ValueError, match="segment 2"):
        write_plain(tmp_path, LANGS, bad)
    assert list(tmp_path.iterdir()) == []
    # the XML of one language writes what that language has
    assert write_xml(tmp_path / "ca.xml", "ca", bad) == 3
    ids = [s.get("id") for s in etree.parse(str(tmp_path / "ca.xml")).getroot()[0].iter("seg")]
    assert ids == ["1", "3"]
    with pytest.raises(ValueError, match="pivot"):
        write_tsv(tmp_path / "x.tsv", LANGS, [], pivot="fr")
    with pytest.raises(ValueError, match="twice"):
        write_tsv(tmp_path / "x.tsv", ["en", "en"], [], pivot="en")


# --- the reader --------------------------------------------------------------------------------

#: The published GeBioCorpus's shape with its quirks: a BOM, CRLF, no root element, "<\seg>",
#: "genre=", a stray "&", a document split in two blocks, an HTML entity.
GEBIO_SNIPPET = "\ufeff" + "\r\n".join(
    [
        '<doc docid="Q1234" wpid="55" language="en" genre="female" occupation="writer">',
        "<title>Ana Pérez</title>",
        '<seg id="1">Ana was born in Vic.<\\seg>',
        '<seg id="2">She studied in Barcelona & Paris.<\\seg>',
        "</doc>",
        '<doc docid="Q9876" wpid="77" language="en" gender="male" occupation="poet">',
        "<title>Joan & Co</title>",
        '<seg id="1">Joan wrote poems &amp; plays.<\\seg>',
        '<seg id="2">He lived in Girona&nbsp;(Catalonia) 5 < 6.<\\seg>',
        "</doc>",
        '<doc docid="Q9876" wpid="77" language="en" gender="male" occupation="poet">',
        '<seg id="3">He died in 1950.<\\seg>',
        "</doc>",
        "",
    ]
)


def test_read_gebio_quirks(tmp_path: Path):
    path = tmp_path / "GeBioCorpus.en.xml"
    path.write_bytes(GEBIO_SNIPPET.encode("utf-8"))
    docs = list(read_gebio_xml(path))
    assert docs == [
        GebioDoc(
            docid="Q1234",
            lang="en",
            gender="female",
            wpid="55",
            title="Ana Pérez",
            occupation="writer",
            attrs={
                "docid": "Q1234",
                "wpid": "55",
                "language": "en",
                "genre": "female",
                "occupation": "writer",
            },
            segments=[("1", "Ana was born in Vic."), ("2", "She studied in Barcelona & Paris.")],
        ),
        GebioDoc(
            docid="Q9876",
            lang="en",
            gender="male",
            wpid="77",
            title="Joan & Co",
            occupation="poet",
            attrs={
                "docid": "Q9876",
                "wpid": "77",
                "language": "en",
                "gender": "male",
                "occupation": "poet",
            },
            segments=[
                ("1", "Joan wrote poems & plays."),
                ("2", "He lived in Girona\u00a0(Catalonia) 5 < 6."),
                ("3", "He died in 1950."),
            ],
        ),
    ]


def test_read_gebio_more_quirks(tmp_path: Path):
    path = tmp_path / "odd.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!-- a comment -->\n<corpus lang="es">\n'
        '<doc docid=\'Q1\' gender="female"\n     occupation="escritora">\n'
        "<title>Rosalía</title>\n"
        '<seg id="1">Nació en <![CDATA[Santiago & <Galicia>]]>.</seg>\n'
        '<seg id="2">Sin cierre\n'
        '<seg id="3"/>\n'
        "</doc>\n</corpus>\n",
        encoding="utf-8",
    )
    (doc,) = read_gebio_xml(path)
    assert (doc.docid, doc.lang, doc.gender, doc.title) == ("Q1", "es", "female", "Rosalía")
    assert doc.segments == [
        ("1", "Nació en Santiago & <Galicia>."),
        ("2", "Sin cierre"),
        ("3", ""),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_read_gebio_reads_write_xml(tmp_path: Path, lang: str):
    path = tmp_path / "c.xml"
    write_xml(path, lang, _docs())
    docs = list(read_gebio_xml(path))
    assert [d.docid for d in docs] == [d.entity.qid for d in _kept()]
    for got, doc in zip(docs, _kept(), strict=True):
        assert got.attrs == _expected_attrs(doc, lang)
        assert (got.lang, got.gender, got.wpid) == (
            lang,
            doc.entity.gender,
            str(doc.page_ids[lang]),
        )
        assert got.title == doc.entity.titles[lang]
        assert got.occupation == "|".join(o.label for o in doc.entity.occupations)
        assert (got.revision_id, got.revision_timestamp, got.source) == (
            doc.revision_ids.get(lang),
            doc.revision_timestamps.get(lang, ""),
            doc.sources.get(lang, ""),
        )
        assert got.segments == [
            (str(i + 1), clean_text(s[lang])) for i, s in enumerate(doc.segments)
        ]


@pytest.mark.parametrize(
    ("content", "line", "match"),
    [
        (b"this is not xml at all\nnor is this\n", 1, "text outside any <doc>"),
        (b'{"json": true}\n', 1, "text outside any <doc>"),
        (b"\n\n<html><body><p>hello</p></body></html>\n", 3, "text outside any <doc>"),
        (b'<doc docid="Q1"><seg id="1">ok</seg></doc>\n\x89PNG\xff\xfe\n', 2, "not UTF-8"),
        (b'<doc docid="Q1">\n<seg id="1">cut off here', 1, "ends inside <doc"),
        (b'<doc wpid="3">\n<seg id="1">x</seg></doc>\n', 1, "without a docid"),
        (b'<seg id="1">x</seg>\n', 1, "outside any <doc>"),
        (b"<doc docid='Q1'>\n<!-- never closed\n", 2, "comment that never ends"),
        (b'<doc docid="Q1"\n', 1, "tag that never ends"),
    ],
)
def test_read_gebio_garbage_is_a_clear_error(tmp_path: Path, content: bytes, line: int, match: str):
    path = tmp_path / "garbage.xml"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=match) as exc:
        list(read_gebio_xml(path))
    assert str(exc.value).startswith(f"{path}:{line}: ")


def test_read_gebio_repeats_and_unclosed_docs(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    path = tmp_path / "repeat.xml"
    path.write_text(
        '<doc docid="Q1" language="ca" gender="female"><seg id="1">a</seg>\n'  # no </doc>
        '<doc docid="Q2" language="ca" gender="male"><seg id="1">b</seg></doc>\n'
        '<doc docid="Q1" language="ca" gender="female"><seg id="2">c</seg></doc>\n',
        encoding="utf-8",
    )
    with caplog.at_level("WARNING", logger="occbio.io.gebio_reader"):
        docs = list(read_gebio_xml(str(path)))
    assert [(d.docid, d.segments) for d in docs] == [
        ("Q1", [("1", "a")]),
        ("Q2", [("1", "b")]),
        ("Q1", [("2", "c")]),
    ]
    assert "not closed" in caplog.text
    assert "docid Q1 already had a <doc> at line 1" in caplog.text


def test_pandas_and_parquet_read_every_value_back(tmp_path: Path) -> None:
    """pandas' defaults read the TSV back exactly (a sentence that starts with a quote keeps
    it), and the Parquet file holds the same rows with typed columns."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    docs = _docs()
    quoted = '"Aloma" (1938) was her first novel, she said: "the best".'
    docs[0].segments[0] = {**docs[0].segments[0], "en": quoted}
    write_corpus(tmp_path, LANGS, docs, pivot=PIVOT)
    rows = _read_tsv(tmp_path / "corpus.tsv")
    frame = pd.read_csv(tmp_path / "corpus.tsv", sep="\t", dtype=str, keep_default_na=False)
    assert frame.columns.tolist() == rows[0]
    assert frame.values.tolist() == rows[1:]
    assert frame["en"][0] == quoted
    typed = pd.read_csv(tmp_path / "corpus.tsv", sep="\t")  # all defaults
    assert typed["en"][0] == quoted and typed["seg"].tolist() == [1, 2, 3, 1, 1, 2]
    table = pd.read_parquet(tmp_path / "corpus.parquet")
    assert table.columns.tolist() == rows[0]
    assert table["en"].tolist() == frame["en"].tolist()
    assert table["seg"].tolist() == [1, 2, 3, 1, 1, 2]
    assert table["score_es"][0] == 1.2345678
    assert pd.isna(table["score_es"].iloc[-1])


def test_every_format_reads_back_the_same_values_with_pandas(tmp_path: Path) -> None:
    """Issue #20: scores were rounded to 4 decimals in the TSV and JSON lines but not in
    Parquet, and a person with no occupation read back ``NaN`` from the TSV but ``''`` from
    Parquet. Now each score is the same float in every file, and an empty value is missing
    in both tables; the exact recipe also keeps a sentence that is literally ``NA``."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    scores = [0.1 + 0.2, 1.0000000000000002, 1.2345678901234567e-7, 1.08654]
    doc = Document(
        entity=Entity(
            qid="Q9",
            label="Nobody Known",
            gender="female",
            titles={lang: "Nobody Known" for lang in LANGS},
        ),
        segments=[{"en": "NA", "es": "None", "ca": "null"}]
        + [{"en": f"Line {i}.", "es": f"Línea {i}.", "ca": f"Línia {i}."} for i in range(3)],
        scores=[{"es": s, "ca": scores[-1 - i]} for i, s in enumerate(scores)],
    )
    write_corpus(tmp_path, LANGS, [*_docs(), doc], pivot=PIVOT)
    parquet = pd.read_parquet(tmp_path / "corpus.parquet")
    exact = pd.read_csv(tmp_path / "corpus.tsv", sep="\t", keep_default_na=False, na_values=[""])
    pd.testing.assert_frame_equal(exact, parquet, check_dtype=False)
    mine = parquet[parquet["qid"] == "Q9"]
    assert mine["score_es"].tolist() == scores and mine["score_ca"].tolist() == scores[::-1]
    assert mine["en"].iloc[0] == "NA" and mine["es"].iloc[0] == "None"
    assert mine["occupations"].isna().all() and mine["occupation_qids"].isna().all()
    # pandas' defaults read the empty occupation as missing too (and the literal NA as well)
    defaults = pd.read_csv(tmp_path / "corpus.tsv", sep="\t")
    others = defaults["qid"] != "Q9"
    pd.testing.assert_frame_equal(defaults[others], parquet[others], check_dtype=False)
    assert defaults[~others]["occupations"].isna().all()
    assert defaults[~others]["score_es"].tolist() == scores
    # JSON lines: the same floats, no occupation an empty list
    rows = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text().splitlines()]
    assert [r["scores"].get("es") for r in rows if r["qid"] == "Q9"] == scores
    assert all(r["occupations"] == [] for r in rows if r["qid"] == "Q9")
    jsonl_scores = [r["scores"].get("es") for r in rows]
    assert [None if pd.isna(x) else x for x in parquet["score_es"]] == jsonl_scores
