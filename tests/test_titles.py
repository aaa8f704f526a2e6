"""People given as titles (TSV or line-aligned files) and the category filter."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from occbio.extract.mediawiki import page_categories
from occbio.extract.titles import TitlesError, read_titles

LANGS = ["en", "es", "ca"]


def test_tsv_with_qids_occupations_and_gaps(tmp_path: Path) -> None:
    path = tmp_path / "people.tsv"
    path.write_text(
        "# people to mine\n"
        "qid\ten\tes\tca\toccupations\tde\n"
        "Q42\tDouglas Adams\tDouglas Adams\tDouglas Adams\tQ36180|Q28389|bad\tD\n"
        "\tAda Lovelace\tAda Lovelace\t\t\t\n"
        "\tNo Tabs Here\n"
        "Q0\tMarie Curie\tMarie Curie\tMarie Curie\t\t\n",
        encoding="utf-8",
    )
    stats: Counter[str] = Counter()
    people = list(read_titles(path, LANGS, stats=stats))
    assert [p.qid for p in people] == ["Q42", "T4"]  # Ada lacks ca; Q0 is not a QID
    assert people[0].titles == {"en": "Douglas Adams", "es": "Douglas Adams", "ca": "Douglas Adams"}
    assert [o.qid for o in people[0].occupations] == ["Q36180", "Q28389"]
    assert people[0].gender == "unknown" and people[0].label == "Douglas Adams"
    assert stats["titles_rows_malformed"] == 1
    assert stats["titles_bad_qid"] == 1
    assert stats["titles_skipped_langs"] == 1
    two = list(read_titles(path, LANGS, min_langs=2))
    assert [p.qid for p in two] == ["Q42", "T2", "T4"]


def test_line_aligned_files(tmp_path: Path) -> None:
    (tmp_path / "en.txt").write_text("Ada Lovelace\nAlan Turing\n\n", encoding="utf-8")
    (tmp_path / "es.txt").write_text("Ada Lovelace\nAlan Turing\nSolo Español\n", encoding="utf-8")
    files = {"en": tmp_path / "en.txt", "es": tmp_path / "es.txt"}
    people = list(read_titles(files, ["en", "es"]))
    assert [(p.qid, p.titles["es"]) for p in people] == [
        ("T1", "Ada Lovelace"),
        ("T2", "Alan Turing"),
    ]


def test_bad_titles_files(tmp_path: Path) -> None:
    with pytest.raises(TitlesError, match="not found"):
        list(read_titles(tmp_path / "none.tsv", LANGS))
    header = tmp_path / "header.tsv"
    header.write_text("name\ttitle\nA\tB\n", encoding="utf-8")
    with pytest.raises(TitlesError, match="names none of the run's languages"):
        list(read_titles(header, LANGS))
    latin1 = tmp_path / "latin1.tsv"
    latin1.write_bytes("en\nJosé\n".encode("latin-1"))
    with pytest.raises(TitlesError, match="not UTF-8"):
        list(read_titles(latin1, LANGS))


def test_page_categories_in_several_languages() -> None:
    text = (
        "Prose. [[Category:Living people|Adams, Douglas]] [[:Category:Linked only]]\n"
        "[[Categoría:Escritores_de España]] [[Catégorie : Romancier]] [[File:x.jpg|thumb]]"
    )
    assert page_categories(text) == {"Living people", "Escritores de España", "Romancier"}


def _sample_titles_tsv(path: Path) -> dict[str, str]:
    """The sample's people as a titles TSV without QIDs; returns {en title: true gender}."""
    from occbio.config import SAMPLE_DIR
    from occbio.extract.wikidata_dump import iter_humans

    truth = {}
    lines = ["en\tes\tca"]
    for e in iter_humans(SAMPLE_DIR / "wikidata-sample.json.bz2", LANGS):
        lines.append("\t".join(e.titles[lang] for lang in LANGS))
        truth[e.titles["en"]] = e.gender
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return truth


def test_titles_take_gender_from_pronouns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """People given as titles have no Wikidata gender: pronouns by default, Wikidata refused."""
    from occbio.cli import main

    _sample_titles_tsv(tmp_path / "t.tsv")
    argv = ["--sample", "--langs", "en,es,ca", "--titles", str(tmp_path / "t.tsv")]
    assert main(["entities", "-q", *argv, "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    wikidata = ["--gender-from", "wikidata", "--out", str(tmp_path / "w")]
    assert main(["mine", *argv, *wikidata]) == 2
    assert "people given as titles have no Wikidata gender" in capsys.readouterr().err
    assert not (tmp_path / "w" / "manifest.json").exists()


def test_category_keeps_only_its_members(tmp_path: Path) -> None:
    import json

    from occbio.cli import main

    out = tmp_path / "r"
    argv = ["entities", "-q", "--sample", "--langs", "en,es,ca", "--out", str(out)]
    assert main([*argv, "--category", "Living people"]) == 0
    counts = json.loads((out / "manifest.json").read_text())["stages"]["entities"]["counts"]
    assert counts["category_members"] == counts["people"] > 0
    assert counts["category_dropped"] > 0


@pytest.mark.slow
def test_mine_from_titles_with_pronoun_gender(tmp_path: Path) -> None:
    """GeBioToolkit's input: titles only, gender from the articles' pronouns."""
    import json

    from occbio.cli import main

    truth = _sample_titles_tsv(tmp_path / "t.tsv")
    out = tmp_path / "r"
    argv = ["mine", "-q", "--sample", "--langs", "en,es,ca", "--out", str(out)]
    argv += ["--titles", str(tmp_path / "t.tsv"), "--gender-from", "pronouns", "--balance", "gebio"]
    assert main(argv) == 0
    people = [json.loads(x) for x in (out / "balance" / "people.jsonl").read_text().splitlines()]
    assert all(p["gender_source"] == "pronouns" and p["qid"].startswith("T") for p in people)
    decided = [p for p in people if p["gender"] != "unknown"]
    assert len(decided) >= 0.8 * len(people)
    wrong = [p["label"] for p in decided if truth[p["label"]] != p["gender"]]
    assert not wrong
    counts = json.loads((out / "manifest.json").read_text())["stages"]["balance"]["counts"]
    assert counts["kept_sentences_female"] == counts["kept_sentences_male"] > 0
