"""The statistics funnel and the data card, on plain data."""

from __future__ import annotations

from occbio.report.datacard import render_datacard
from occbio.report.funnel import Person, format_funnel, funnel


def _people() -> dict[str, list[Person]]:
    everyone = [
        Person("Q1", "female", ("Q36180",)),
        Person("Q2", "male", ("Q36180", "Q82955")),
        Person("Q3", "non-binary", ("Q901",)),
        Person("Q4", "unknown", ()),
    ]
    return {
        "entities": everyone,
        "align": [Person(p.qid, p.gender, p.occupations, 5) for p in everyone[:3]],
        "balance": [],
    }


def test_funnel_counts_people_occupations_and_sentences_by_gender() -> None:
    rows = [r.to_dict() for r in funnel(_people(), ["female", "male"])]
    assert rows[0] == {
        "stage": "entities",
        "people": {"female": 1, "male": 1, "non-binary": 1, "unknown": 1, "total": 4},
        "occupations": 3,
        "sentences": None,
    }
    assert rows[1]["sentences"] == {"female": 5, "male": 5, "non-binary": 5, "total": 15}
    # a stage that kept nobody still has sentence counts, all zero
    assert rows[2]["people"] == {"female": 0, "male": 0, "total": 0}
    assert rows[2]["sentences"] == {"female": 0, "male": 0, "total": 0}
    table = format_funnel(rows).splitlines()
    assert table[1].split()[:3] == ["stage", "occupations", "female"]
    assert table[2].split()[:2] == ["entities", "3"] and table[2].split()[-1] == "-"


def test_data_card_names_sources_counts_and_licence() -> None:
    rows = [r.to_dict() for r in funnel(_people(), ["female", "male"])]
    card = render_datacard(
        name="demo",
        langs=["en", "es"],
        pivot="en",
        sources={"people": "Wikidata via SPARQL at https://query.wikidata.org/sparql"},
        settings={"balance": {"method": "occgen"}},
        funnel_rows=rows,
        occupations={"Q36180": {"female": 2, "male": 2}, "Q36180|Q82955": {"female": 1}},
        occupation_labels={"Q36180": "writer", "Q82955": "politician"},
        genders=["female", "male"],
        files=["corpus.en.xml"],
        created="2026-11-22",
        version="0.1.0",
    )
    assert "# Data card: demo" in card
    assert "https://query.wikidata.org/sparql" in card
    assert "| writer | 2 | 2 |" in card
    assert "| writer / politician | 1 | 0 |" in card
    assert "CC BY-SA 4.0" in card and "CC0" in card
    assert "## Known limitations" in card
