"""Gender from the agreement of a biography's lead (es, ca, it, pt, fr), alone and with pronouns,
in the text stage's article records and in a `--titles` run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from occbio.config import CleanConfig
from occbio.gender.agreement import AGREEMENT_LANGS, agreement_evidence
from occbio.gender.pronouns import (
    AGREEMENT,
    CONFLICT,
    PronounEvidence,
    combine,
    decide,
    infer_gender,
)
from occbio.records import Article
from occbio.stages.balance import article_evidence
from occbio.stages.text_workers import _init_worker, _PageJob, _process_page
from tests.factories import write_pages_dump

LEADS = Path(__file__).parent / "data" / "agreement_leads.tsv"


def _leads() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in LEADS.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            lang, title, expected, sentence, _source = line.split("\t")
            rows.append((lang, title, expected, sentence))
    return rows


@pytest.mark.parametrize(("lang", "title", "expected", "sentence"), _leads())
def test_real_leads(lang: str, title: str, expected: str, sentence: str) -> None:
    """Real Wikipedia leads (tests/data/README.md): the category read by hand."""
    ev = agreement_evidence(sentence, lang, title=title)
    assert ev.category == expected, ev.cues


def test_real_leads_cover_every_language() -> None:
    assert {lang for lang, *_ in _leads()} == AGREEMENT_LANGS


def test_the_cues_say_what_they_read() -> None:
    ev = agreement_evidence(
        "Marine Le Pen, née le 5 août 1968 à Neuilly-sur-Seine (Hauts-de-Seine), est une "
        "femme politique française.",
        "fr",
        title="Marine Le Pen",
    )
    assert (ev.female, ev.male) == (2, 0)
    assert ev.cues == ("female apposition: née", "female predicate: est une femme")


# Hand-written (occbio, MIT): the cases the rules must refuse or see through.
@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        # another person's participle or role noun
        ("es", "Su madre, nacida en Cuba, fue una actriz famosa.", "unknown"),
        ("es", "Juan Pérez (Lima, 1950) es un pintor peruano. Su esposa fue una actriz.", "male"),
        ("es", "Ana López (Lima, 1950) está casada con un actor.", "female"),
        ("ca", "El seu germà, nascut a Reus, va ser un actor.", "unknown"),
        ("es", "Juan Pérez es pintor. Su madre era maestra. Fue nombrada directora.", "male"),
        # plural subjects, quotations, pronoun subjects
        ("es", "Ana y Luis Pérez son unos actores españoles.", "unknown"),
        ("es", "«Es una actriz maravillosa», dijo Juan Pérez de su colega.", "unknown"),
        ("fr", "Il est l'une des plus grandes actrices.", "unknown"),
        # one grammatical gender whatever the person's
        ("es", "Juan Pérez es una figura clave del cine peruano.", "unknown"),
        ("it", "Mario Rossi è una figura di spicco della musica.", "unknown"),
        ("pt", "João Silva é um dos membros fundadores da banda.", "unknown"),
        ("es", "Robin Castellví es una persona cantautora catalana.", "unknown"),
        # a lead about a thing, and a dropped subject that may be a book
        ("es", "La Casa Roja es un edificio de Lima.", "unknown"),
        ("es", "Escribió su primera novela en 1950. Fue publicada en 1952.", "unknown"),
        # contradictions
        ("es", "María López es una actriz. Fue nombrado ministro en 1990.", "unknown"),
        # elision, partitives, state
        ("it", "Giulia Bianchi (Roma, 1980) è un'attrice italiana.", "female"),
        ("it", "Carlo Neri è uno dei più importanti registi italiani.", "male"),
        ("pt", "Ana Costa foi uma das primeiras mulheres eleitas.", "female"),
        ("fr", "Claire Dubois est l'une des actrices les plus connues.", "female"),
        ("ca", "Anna Puig és periodista i escriptora.", "female"),
    ],
)
def test_tricky_cases(lang: str, text: str, expected: str) -> None:
    assert agreement_evidence(text, lang).category == expected


def test_only_the_lead_is_read() -> None:
    text = "Juan Pérez (Lima, 1950) es un pintor peruano.\n\nSu hija Ana es una actriz famosa."
    assert agreement_evidence(text, "es").category == "male"
    assert agreement_evidence("\n\nAna es una actriz.", "en").category == "unknown"


def test_the_title_finds_the_name_and_may_say_the_gender() -> None:
    text = "Ana Ruiz es una actriz. Carlos Ruiz es un actor."
    assert agreement_evidence(text, "es").category == "unknown"  # two people, both read
    assert agreement_evidence(text, "es", title="Ana Ruiz").category == "female"
    assert agreement_evidence("Sin frase.", "es", title="Juan Pérez (político)").male == 1


def test_languages_without_rules_give_no_cues() -> None:
    ev = agreement_evidence("She is an actress.", "en")
    assert (ev.lang, ev.female, ev.male, ev.category) == ("en", 0, 0, "unknown")
    assert agreement_evidence("Ana es una actriz.", "es-ES").female == 1  # region dropped


# -- with pronouns ---------------------------------------------------------------------------


def test_agreement_decides_where_pronouns_are_too_few() -> None:
    text = "Laia Ferrer (Girona, 1950) es una pintora española. Ella vive en Girona."
    ev = infer_gender(text, "es", title="Laia Ferrer")
    assert (ev.female, ev.male, ev.agreement_female, ev.agreement_male) == (1, 0, 1, 0)
    assert (ev.category, ev.reason) == ("female", AGREEMENT)
    alone = infer_gender(text, "es", agreement=False)
    assert (alone.category, alone.reason) == ("unknown", "too_few")


def test_pronouns_deciding_the_other_gender_is_a_conflict() -> None:
    text = "Laia Ferrer es una pintora. " + "Él dijo que él vino y él se fue. " * 2
    ev = infer_gender(text, "es", title="Laia Ferrer")
    assert (ev.category, ev.reason) == ("unknown", CONFLICT)


def test_english_is_unchanged() -> None:
    text = "Ada Lovelace was a mathematician. She wrote notes. Her father was Byron."
    assert infer_gender(text, "en") == infer_gender(text, "en", agreement=False)


def test_combine_sums_agreement_and_refuses_a_contradiction() -> None:
    es = infer_gender("Ana Ruiz es una actriz.", "es")
    ca = infer_gender("Ana Ruiz és un actor.", "ca")
    en = infer_gender("Ana Ruiz is an actress.", "en")
    assert combine([es, en]).category == "female"
    both = combine([es, ca])
    assert (both.category, both.reason, both.agreement_female, both.agreement_male) == (
        "unknown",
        CONFLICT,
        1,
        1,
    )
    fi = infer_gender("Ana Ruiz on näyttelijä.", "fi")  # no gendered pronouns, no rules
    assert combine([fi, es]).category == "female"


def test_the_record_round_trips_and_is_decided_again() -> None:
    ev = infer_gender("Ana Ruiz es una actriz. Ella vive en Lima.", "es")
    record = ev.to_dict()
    assert record == {
        "category": "female",
        "reason": "agreement",
        "female": 1,
        "male": 0,
        "agreement": {"female": 1, "male": 0, "cues": ["female predicate: es una actriz"]},
    }
    back = PronounEvidence.from_dict("es", record)
    assert decide(back) == ev
    pronouns_only = PronounEvidence("en", 1, 0, "female", "pronouns")
    assert decide(pronouns_only, min_count=2).reason == "too_few"
    assert "agreement" not in infer_gender("She sings.", "en").to_dict()


# -- the text stage and balance ----------------------------------------------------------------


def test_the_text_worker_records_each_articles_evidence() -> None:
    _init_worker(CleanConfig(langid=False).model_dump(), ("es",), {"pronoun_min_count": 1})
    markup = "'''Laia Ferrer''' ([[Girona]], 1950) es una [[pintora]] española.\n\nElla pinta."
    job = _PageJob(qid="Q1", lang="es", title="Laia Ferrer", page_id=1, markup=markup)
    article = _process_page(job).article
    assert article is not None
    assert article.gender["category"] == "female"
    assert article.gender["agreement"]["female"] == 1 and article.gender["female"] == 1
    assert Article.from_dict(json.loads(json.dumps(article.to_dict()))).gender == article.gender


def test_balance_reads_the_record_or_the_text() -> None:
    text = "Laia Ferrer es una pintora."
    recorded = Article("Q1", "es", "Laia Ferrer", 1, "", gender={"female": 0, "male": 3})
    ev = article_evidence(recorded, min_count=3, margin=2.0)
    assert (ev.category, ev.male) == ("male", 3)  # the record, not the (empty) text
    assert article_evidence(recorded, min_count=4, margin=2.0).category == "unknown"
    old = Article("Q1", "es", "Laia Ferrer", 1, text)  # an older run's article: no record
    assert article_evidence(old, min_count=3, margin=2.0).category == "female"


# Two women and two men, Spanish and Catalan articles that translate each other (occbio, MIT).
_PEOPLE = {
    "Laia Ferrer Soler": (
        "female",
        "(Girona, 3 de mayo de 1950) es una pintora y grabadora española.",
        "(Girona, 3 de maig de 1950) és una pintora i gravadora catalana.",
    ),
    "Marta Oliveras Puig": (
        "female",
        "(Reus, 12 de enero de 1962) es una química y profesora universitaria española.",
        "(Reus, 12 de gener de 1962) és una química i professora universitària catalana.",
    ),
    "Jordi Vall Camps": (
        "male",
        "(Lleida, 8 de julio de 1948) es un escultor y dibujante español.",
        "(Lleida, 8 de juliol de 1948) és un escultor i dibuixant català.",
    ),
    "Pere Roca Mas": (
        "male",
        "(Tarragona, 21 de octubre de 1958) es un físico y profesor universitario español.",
        "(Tarragona, 21 d'octubre de 1958) és un físic i professor universitari català.",
    ),
}
_BODY = {
    "es": (
        "Estudió en la Universidad de Barcelona y trabajó cinco años en París. En 1990 regresó "
        "a su ciudad y abrió un taller. Sus obras están en museos de Madrid, Lyon y Nueva York. "
        "Recibió el Premio Nacional en 2004. Ha publicado más de cien artículos."
    ),
    "ca": (
        "Va estudiar a la Universitat de Barcelona i va treballar cinc anys a París. El 1990 va "
        "tornar a la seva ciutat i va obrir un taller. Les seves obres són en museus de Madrid, "
        "Lió i Nova York. Va rebre el Premi Nacional el 2004. Ha publicat més de cent articles."
    ),
}


@pytest.mark.slow
def test_titles_run_in_spanish_and_catalan_gets_genders_and_balances(tmp_path: Path) -> None:
    """A `--titles` es/ca run: no Wikidata, few pronouns; the leads' agreement gives everyone
    the right gender and GeBio balancing keeps them all (before it, everyone was unknown and
    nobody was kept)."""
    from occbio.cli import main

    for i, lang in enumerate(("es", "ca"), 1):
        pages = [(t, f"'''{t}''' {p[i]}\n\n{_BODY[lang]}") for t, p in _PEOPLE.items()]
        write_pages_dump(tmp_path / f"{lang}.xml.bz2", pages, lang=lang)
    titles = tmp_path / "t.tsv"
    titles.write_text("es\tca\n" + "".join(f"{t}\t{t}\n" for t in _PEOPLE), encoding="utf-8")
    out = tmp_path / "r"
    argv = ["mine", "-q", "--langs", "es,ca", "--titles", str(titles), "--out", str(out)]
    argv += ["--dump", f"es={tmp_path / 'es.xml.bz2'}", "--dump", f"ca={tmp_path / 'ca.xml.bz2'}"]
    assert main([*argv, "--balance", "gebio"]) == 0

    articles = [
        json.loads(x) for x in (out / "text" / "es.articles.jsonl").read_text().splitlines()
    ]
    assert {a["title"]: a["gender"]["category"] for a in articles} == {
        t: p[0] for t, p in _PEOPLE.items()
    }
    assert all(a["gender"]["agreement"]["cues"] for a in articles)
    people = [json.loads(x) for x in (out / "balance" / "people.jsonl").read_text().splitlines()]
    assert {p["label"]: p["gender"] for p in people} == {t: p[0] for t, p in _PEOPLE.items()}
    assert all(p["gender_reason"] == "agreement" and p["kept"] for p in people)
    assert all(p["agreement"]["female"] + p["agreement"]["male"] == 2 for p in people)
    counts = json.loads((out / "manifest.json").read_text())["stages"]["balance"]["counts"]
    assert counts["kept_people"] == 4
    assert counts["kept_sentences_female"] == counts["kept_sentences_male"] > 0
