"""Templates that carry words: rendered per wiki, or the sentence dropped and counted.

The first table is issue #28's, each row a real template usage seen on Wikipedia pages: the
text occbio gives now. The rest: argument conventions (named and positional), ages counted
to the revision's date (never the day of the run), a call whose arguments are not what the
template documents, the drop and its count by template name, the real enwiki excerpt, and a
text-stage run whose manifest, ``occbio stats`` and data card name the templates.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path

import pytest

from occbio.config import CleanConfig
from occbio.extract.clean import HOLE_KEY, clean_article, dangling_word, remove_asides
from occbio.extract.wikitext import wikitext_to_text
from occbio.extract.wikitext_templates import HOLE_OPEN, format_number
from occbio.records import Article

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ENWIKI = (
    SHARED
    / "wikipedia-dumps"
    / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)


def _sentences(wikitext: str, lang: str, stats: Counter[str] | None = None) -> list[str]:
    """The production path: marked text, then the cleaning (language ID off: no model here)."""
    text = wikitext_to_text(wikitext, lang, keep_holes=True)
    article = Article(qid="Q1", lang=lang, title="T", page_id=1, text=text)
    config = CleanConfig(langid=False, min_words=1, min_chars=1)
    return [s.text for s in clean_article(article, config=config, stats=stats)]


# Issue #28's table: what occbio printed before, and the text it gives now.
ISSUE_ROWS = [
    (
        "en",
        "'''Ada Lovelace''' ({{birth date|1815|12|10}} – "
        "{{death date and age|1852|11|27|1815|12|10}}) was an English mathematician.",
        "Ada Lovelace (December 10, 1815 – November 27, 1852 (aged 36)) was an English "
        "mathematician.",
    ),
    (
        "es",
        "Nació el {{fecha|10|12|1815}} en Londres.",
        "Nació el 10 de diciembre de 1815 en Londres.",
    ),
    (
        "ca",
        "Va néixer el {{data|10|12|1815}} a Londres.",
        "Va néixer el 10 de desembre de 1815 a Londres.",
    ),
    (
        "es",
        "Murió en 1852 a los {{edad|10|12|1815|27|11|1852}} años.",
        "Murió en 1852 a los 36 años.",
    ),
    ("it", "Nata il {{data|10|dicembre|1815}}.", "Nata il 10 dicembre 1815."),
    ("de", "Sie wurde am {{Datum|10|12|1815}} geboren.", "Sie wurde am 10. Dezember 1815 geboren."),
    (
        "fr",
        "Elle est morte le {{date de décès|4|juillet|1934|7|novembre|1867}} à Passy.",
        "Elle est morte le 4 juillet 1934 (à 66 ans) à Passy.",
    ),
    ("fr", "Au {{s|XIX}}, la ville grandit.", "Au XIXe siècle, la ville grandit."),
    ("fr", "Elle mesure {{unité|1.80|m}}.", "Elle mesure 1,80 m."),
    ("fr", "La ville compte {{nombre|12000|habitants}}.", "La ville compte 12 000 habitants."),
    ("es", "Tiene {{formatnum:12000}} habitantes.", "Tiene 12 000 habitantes."),
    (
        "en",
        "{{nihongo|'''Akira Kurosawa'''|黒澤 明|Kurosawa Akira}} was a Japanese filmmaker.",
        "Akira Kurosawa (黒澤 明, Kurosawa Akira) was a Japanese filmmaker.",
    ),
]


@pytest.mark.parametrize(("lang", "wikitext", "expected"), ISSUE_ROWS)
def test_issue_rows_render_their_words(lang: str, wikitext: str, expected: str) -> None:
    assert wikitext_to_text(wikitext, lang) == expected


@pytest.mark.parametrize(("lang", "wikitext", "expected"), ISSUE_ROWS)
def test_issue_rows_reach_the_corpus_whole(lang: str, wikitext: str, expected: str) -> None:
    """Through the cleaning (asides out), each row is one whole sentence, nothing dropped."""
    stats: Counter[str] = Counter()
    assert _sentences(wikitext, lang, stats) == [remove_asides(expected)]
    assert stats["dropped_template_hole"] == stats["dropped_dangling_word"] == 0


@pytest.mark.parametrize(
    ("lang", "wikitext", "expected"),
    [
        # the fourth argument of frwiki's {{date}} picks a category, it is never printed
        ("fr", "Il joue le {{date|4|juillet|1934|en musique}}.", "Il joue le 4 juillet 1934."),
        ("fr", "Né le {{date de naissance|1|mai|1950}}.", "Né le 1er mai 1950."),
        ("fr", "Au {{s-|XIX}} et au {{-s|III}}.", "Au XIXe et au IIIe siècle av. J.-C.."),
        ("fr", "Au {{XIXe siècle}}.", "Au XIXe siècle."),
        ("fr", "Le {{2e}} et la {{1ère}} fois.", "Le 2e et la 1re fois."),
        (
            "fr",
            "Berlin a {{unité|892|km|2}} et {{unité|100000 habitants}}.",
            "Berlin a 892 km² et 100 000 habitants.",
        ),
        (
            "fr",
            "Il fait {{tmp|2|°C}}, {{incise|dit-il}}, le {{date|29 9 2019}}.",
            "Il fait 2 °C, — dit-il —, le 29 septembre 2019.",
        ),
        (
            "pt",
            "No {{séc|XX}} tinha {{fmtn|150000}} habitantes.",
            "No século XX tinha 150 000 habitantes.",
        ),
        (
            "en",
            "In 3500 {{sc|bc}}, as {{harvtxt|Smith|Jones|2010}} note.",
            "In 3500 bc, as Smith & Jones (2010) note.",
        ),
        ("es", "En el {{siglo|XIX||s}} y el {{Siglo|XX}}.", "En el siglo XIX y el XX."),
        ("ca", "Al {{segle|XIX}}.", "Al segle XIX."),
        ("ca", "El {{data|3|4|1950}}.", "El 3 d'abril de 1950."),
        ("pt", "Nasceu em {{dtlink|3|4|1950}}.", "Nasceu em 3 de abril de 1950."),
        ("en", "Born {{birth date|1950|4|3|df=y}}.", "Born 3 April 1950."),
        (
            "en",
            "{{As of|2010|5}}, it had {{formatnum:1234567}} people.",
            "As of May 2010, it had 1,234,567 people.",
        ),
        ("en", "It is {{convert|1|mi|km}} long.", "It is 1 mile long."),
        ("en", "It is {{convert|3|to|5|km|abbr=on}} long.", "It is 3 to 5 km long."),
        (
            "en",
            "In {{lang-de|Berlin}} and {{langx|fr|Paris}}.",
            "In German: Berlin and French: Paris.",
        ),
        ("en", "Born {{circa|1450}}, {{abbr|UK|United Kingdom}}.", "Born c. 1450, UK."),
        ("de", "Es hat {{formatnum:12000}} Einwohner.", "Es hat 12.000 Einwohner."),
    ],
)
def test_argument_conventions(lang: str, wikitext: str, expected: str) -> None:
    assert wikitext_to_text(wikitext, lang) == expected


def test_an_age_until_today_counts_to_the_revision_date_never_the_run_date() -> None:
    wikitext = "Tiene {{edad|10|12|1950}} años."
    assert wikitext_to_text(wikitext, "es", today=dt.date(2020, 12, 9)) == "Tiene 69 años."
    assert wikitext_to_text(wikitext, "es", today=dt.date(2020, 12, 10)) == "Tiene 70 años."
    # without the revision's date the sentence is dropped, not given today's age
    stats: Counter[str] = Counter()
    assert _sentences(wikitext, "es", stats) == []
    assert stats[HOLE_KEY + "edad"] == 1
    # enwiki shows "(age N)" with a birth date: in brackets, counted to the same date
    text = wikitext_to_text(
        "Born {{birth date and age|1950|12|10}}.", "en", today=dt.date(2020, 1, 1)
    )
    assert text == "Born December 10, 1950 (age 69)."


def test_italian_bio_writes_the_whole_lead() -> None:
    wikitext = (
        "{{Bio\n|Nome = Grazia\n|Cognome = Deledda\n|Sesso = F\n|LuogoNascita = Nuoro\n"
        "|GiornoMeseNascita = 28 settembre\n|AnnoNascita = 1871\n|LuogoMorte = Roma\n"
        "|GiornoMeseMorte = 15 agosto\n|AnnoMorte = 1936\n|Attività = scrittrice\n"
        "|Nazionalità = italiana\n|PostNazionalità = , premio Nobel per la letteratura nel 1926\n"
        "}}\nÈ l'unica donna italiana ad aver vinto il premio."
    )
    assert wikitext_to_text(wikitext, "it") == (
        "Grazia Deledda (Nuoro, 28 settembre 1871 – Roma, 15 agosto 1936) è stata una scrittrice "
        "italiana, premio Nobel per la letteratura nel 1926.\n\n"
        "È l'unica donna italiana ad aver vinto il premio."
    )
    # a real itwiki call (Annie Proulx, as quoted in the vaadwiki project's tests; CC BY-SA)
    proulx = (
        "{{Bio\n|Nome = Annie\n|Cognome = Proulx\n"
        "|PostCognomeVirgola = all'anagrafe '''Edna Annie Proulx'''\n|PreData = /pruː/\n"
        "|Sesso = F\n|LuogoNascita = Norwich\n|LuogoNascitaLink = Norwich (Connecticut)\n"
        "|GiornoMeseNascita = 22 agosto\n|AnnoNascita = 1935\n|LuogoMorte = \n"
        "|GiornoMeseMorte = \n|AnnoMorte = \n|Epoca = 1900\n|Attività = scrittrice\n"
        "|Nazionalità = statunitense\n|PostNazionalità = e di origini [[Canada|canadesi]], "
        "vincitrice del [[Premio Pulitzer per la narrativa]] con il romanzo "
        "''[[Avviso ai naviganti (romanzo)|Avviso ai naviganti]]''\n"
        "|Immagine = 2018-us-nationalbookfestival-annie-proulx.jpg\n}}"
    )
    assert wikitext_to_text(proulx, "it") == (
        "Annie Proulx, all'anagrafe Edna Annie Proulx (/pruː/; Norwich, 22 agosto 1935) è una "
        "scrittrice statunitense e di origini canadesi, vincitrice del Premio Pulitzer per la "
        "narrativa con il romanzo Avviso ai naviganti."
    )
    living = (
        "{{Bio|Nome=Marco|Cognome=Rossi|Sesso=M|AnnoNascita=1980|Attività=scultore"
        "|Nazionalità=italiano}}"
    )
    assert wikitext_to_text(living, "it") == "Marco Rossi (1980) è uno scultore italiano."


@pytest.mark.parametrize(
    "wikitext",
    [
        "Il est né le {{date|trente|juillet}} à Paris.",  # not a date
        "She was born on {{birth date|1815|13|10}} in London.",  # month 13
        "The town has {{formatnum:many}} people.",
        "It was {{convert|about}} long.",
    ],
)
def test_arguments_not_as_documented_drop_the_sentence(wikitext: str) -> None:
    lang = "fr" if "né" in wikitext else "en"
    stats: Counter[str] = Counter()
    assert _sentences(wikitext, lang, stats) == []
    assert stats["dropped_template_hole"] == 1


def test_unknown_templates_in_running_text_drop_their_sentence_counted_by_name() -> None:
    wikitext = (
        "{{Infobox person\n| name = X\n}}\n'''X''' was a painter.{{sfn|Smith|2001|p=3}} "
        "He lived in {{Unknown place|Lyon}} for years. He had {{ship|HMS|Victory}} built. "
        "He died in 1900.{{citation needed|date=May 2020}} His works sold well.\n\n"
        "{{Main|Works of X}}\nHe painted {{Unknown place|Rome}} twice."
    )
    stats: Counter[str] = Counter()
    kept = _sentences(wikitext, "en", stats)
    assert kept == ["X was a painter.", "He died in 1900.", "His works sold well."]
    assert stats["dropped_template_hole"] == 3
    assert stats[HOLE_KEY + "unknown place"] == 2
    assert stats[HOLE_KEY + "ship"] == 1
    # the stored text has no markers, and no gap where the template stood is passed off as prose
    text = wikitext_to_text(wikitext, "en")
    assert HOLE_OPEN not in text


def test_inline_formulas_are_holes_and_fragments_after_them_go() -> None:
    """Real enwiki (Albedo): "where <math>p</math> is the albedo" must not become "where is
    the albedo"; the lowercase tail after a display formula is not a sentence either."""
    stats: Counter[str] = Counter()
    wikitext = (
        "The magnitude is given by a formula.\n:<math>D = 1329 / \\sqrt{p}</math>\n"
        "where <math>p</math> is the albedo. It was measured in 1990."
    )
    assert _sentences(wikitext, "en", stats) == [
        "The magnitude is given by a formula.",
        "It was measured in 1990.",
    ]
    assert stats[HOLE_KEY + "tag:math"] == 1


def test_german_relative_pronouns_and_particles_are_not_dangling() -> None:
    """Real dewiki sentences the first dangling-word rule dropped (docs/real_pages.md)."""
    for sentence in (
        "Häufigere Begegnungen mit Goethe folgten, der in dieser Zeit seine Farbenlehre "
        "ausformulierte.",
        "Mit dem Edikt von Potsdam 1685 lud Friedrich Wilhelm die französischen Hugenotten ein.",
    ):
        assert dangling_word(sentence, "de") is None
    assert dangling_word("Er wohnte im.", "de") == "im"
    assert dangling_word("In 1993, an In Memoriam segment was introduced.", "en") is None
    assert dangling_word("He was elected member of the in March 1997.", "en") == "the in"


def test_dangling_articles_are_dropped() -> None:
    stats: Counter[str] = Counter()
    kept = _sentences("Nació el en Londres. Es el de su padre. Vive en Madrid.", "es", stats)
    assert kept == ["Es el de su padre.", "Vive en Madrid."]
    assert stats["dropped_dangling_word"] == 1
    assert dangling_word("Au, la ville grandit.", "fr") == "Au"
    assert dangling_word("Es va formar a Gal·les, a Cardiff.", "ca") is None


def test_numbers_in_each_wikis_style() -> None:
    assert format_number("1234567.5", "en") == "1,234,567.5"
    assert format_number("12000", "fr") == "12 000"
    assert format_number("1500", "fr") == "1500"
    assert format_number("1500", "de") == "1.500"


@pytest.mark.skipif(not ENWIKI.exists(), reason="../shared/data is absent")
def test_real_enwiki_excerpt_leaves_no_hole_and_few_drops() -> None:
    """The real enwiki excerpt: every kept sentence free of markers; the leads the issue named
    (Aikido's {{Nihongo}}) keep their words; drops are counted by name and are rare."""
    from occbio.extract.wikipedia_dump import iter_pages

    stats: Counter[str] = Counter()
    kept: dict[str, list[str]] = {}
    for page in iter_pages(ENWIKI):
        kept[page.title] = _sentences(page.wikitext, "en", stats)
    assert all(HOLE_OPEN not in s for sentences in kept.values() for s in sentences)
    assert kept["Aikido"][0].startswith("Aikido is a modern Japanese martial art")
    names = {k for k in stats if k.startswith(HOLE_KEY)}
    assert stats["dropped_template_hole"] > 0 and names
    assert stats["dropped_template_hole"] < 0.01 * stats["sentences_kept"]


def test_text_stage_names_the_unrendered_templates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run on a dump with an unrenderable template: the manifest, `occbio stats` and the
    text stage's counts name it; the stored article text has no marker."""
    from occbio.cli import main
    from tests.factories import write_pages_dump

    pages = [
        (
            "Ada Lovelace",
            "'''Ada Lovelace''' was born on {{birth date|1815|12|10}} in London. She worked "
            "with {{Mystery|Babbage}} on the engine. She wrote the first program.",
        )
    ]
    dump = write_pages_dump(tmp_path / "enwiki.xml.bz2", pages)
    titles = tmp_path / "t.tsv"
    titles.write_text("en\nAda Lovelace\n", encoding="utf-8")
    out = tmp_path / "r"
    argv = ["text", "-q", "--langs", "en", "--titles", str(titles), "--dump", f"en={dump}"]
    assert main([*argv, "--out", str(out)]) == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    assert record["unrendered_templates"] == {"en": {"mystery": 1}}
    assert record["counts"]["en.dropped_template_hole"] == 1
    sentences = [json.loads(x)["text"] for x in (out / "text" / "en.sentences.jsonl").open()]
    assert "Ada Lovelace was born on December 10, 1815 in London." in sentences
    assert not any("engine" in s for s in sentences)
    article = json.loads((out / "text" / "en.articles.jsonl").read_text())
    assert HOLE_OPEN not in article["text"]
    capsys.readouterr()
    assert main(["stats", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "{{mystery}}" in printed
