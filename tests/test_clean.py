"""Cleaning: asides, sentence splitting, language ID and the per-article filters."""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path

import pytest

from occbio.config import CleanConfig
from occbio.extract import clean
from occbio.extract.clean import (
    LanguageIdentifier,
    clean_article,
    remove_asides,
    split_sentences,
)
from occbio.records import Article

DROP_KEYS = (
    "dropped_too_short",
    "dropped_too_long",
    "dropped_no_final_punct",
    "dropped_duplicate",
    "dropped_wrong_lang",
)


@pytest.fixture(scope="module")
def identifier() -> LanguageIdentifier:
    """One identifier for the module: the model loads once (about half a second)."""
    return LanguageIdentifier.for_langs(["en", "es", "ca"])


def article(text: str, lang: str = "en") -> Article:
    return Article(qid="Q1", lang=lang, title="T", page_id=1, text=text)


def assert_funnel(stats: Counter[str]) -> None:
    """Every sentence split is kept or dropped for exactly one reason."""
    assert stats["sentences_split"] == stats["sentences_kept"] + sum(stats[k] for k in DROP_KEYS)


# ----- remove_asides -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Ada Lovelace (born Augusta Ada Byron; 10 December 1815 – 27 November 1852 "
            "(aged 36)) was an English mathematician.",
            "Ada Lovelace was an English mathematician.",
        ),
        ("A [he (the king) said] b.", "A he said b."),
        ("Li Bai（701年－762年）was a poet.", "Li Bai was a poet."),
        ("李白（701年－762年）是诗人。", "李白是诗人。"),
        ("word(aside)word", "word word"),
    ],
)
def test_remove_asides_nested_and_full_width(text: str, expected: str) -> None:
    assert remove_asides(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He won.[1][2] She lost.", "He won. She lost."),
        ("She lost[citation needed]. It rained.", "She lost. It rained."),
        ("It rained [nota 1] a lot.[a] Then [iv] snow.", "It rained a lot. Then snow."),
        ("The end.³ Area: 5 km².", "The end. Area: 5 km²."),
        ("Mark^ here.", "Mark here."),
        # An editorial insertion is part of the quotation: its words stay.
        ("It was right up [her] alley, he said [sic].", "It was right up her alley, he said."),
    ],
)
def test_remove_asides_footnotes(text: str, expected: str) -> None:
    assert remove_asides(text) == expected


def test_remove_asides_unbalanced_parenthesis_keeps_the_rest() -> None:
    text = "He was born in Paris (France and moved. Later (in 1990) he left."
    assert remove_asides(text) == "He was born in Paris (France and moved. Later he left."
    # ... and never reaches into the next paragraph.
    assert remove_asides("A (b c.\n\nD (e) f.") == "A (b c.\n\nD f."
    assert remove_asides("a) first, b) second.") == "a) first, b) second."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Foo ( ) bar , baz  ..", "Foo bar, baz."),
        ("Acme Inc. (company). Next.", "Acme Inc. Next."),
        ("Born in Rome (Italy), , he left .", "Born in Rome, he left."),
        ("He waited... (a long time) and left.", "He waited... and left."),
        ("(Born 1950) He sang.\n\n  Two  spaces\there.", "He sang.\n\nTwo spaces here."),
    ],
)
def test_remove_asides_tidies_whitespace_and_punctuation(text: str, expected: str) -> None:
    assert remove_asides(text) == expected


# ----- split_sentences ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        (
            "en",
            "Dr. Smith moved to St. Louis in 1990. He met J. R. R. Tolkien and John F. Kennedy "
            "there. The church was built c. 1850. It burned down.",
            [
                "Dr. Smith moved to St. Louis in 1990.",
                "He met J. R. R. Tolkien and John F. Kennedy there.",
                "The church was built c. 1850.",
                "It burned down.",
            ],
        ),
        (
            "en",
            "He was the father of Clint Murchison Jr. He died in 1969. He fought in World War I. "
            'She said, "I will never go back." She never did. Unemployment rose to 3.5 percent... '
            "Prices rose too.",
            [
                "He was the father of Clint Murchison Jr.",
                "He died in 1969.",
                "He fought in World War I.",
                'She said, "I will never go back."',
                "She never did.",
                "Unemployment rose to 3.5 percent...",
                "Prices rose too.",
            ],
        ),
        (
            "es",
            "La Sra. García nació en Madrid. El Dr. Pérez, p. ej., llegó tarde. Gabriela "
            "Mistral, n. 1889 en Vicuña, fue poeta. El 1.º de mayo fundó la revista. Vivió en "
            "EE. UU. durante años. Escribió novelas, cuentos, etc. y teatro. Estudió historia, "
            "etc. En 1939 se exilió. Trabajó para una empresa de EE. UU. Después volvió.",
            [
                "La Sra. García nació en Madrid.",
                "El Dr. Pérez, p. ej., llegó tarde.",
                "Gabriela Mistral, n. 1889 en Vicuña, fue poeta.",
                "El 1.º de mayo fundó la revista.",
                "Vivió en EE. UU. durante años.",
                "Escribió novelas, cuentos, etc. y teatro.",
                "Estudió historia, etc.",
                "En 1939 se exilió.",
                "Trabajó para una empresa de EE. UU.",
                "Después volvió.",
            ],
        ),
        (
            "ca",
            "El Sr. Puig va néixer c. 1850 a Reus. Mercè Rodoreda, n. 1908, va escriure molt. "
            "Mn. Jacint Verdaguer era poeta. La Dra. Vila i M. Àngels Anglada hi van anar. Va "
            "estudiar dret, història, etc. El 1939 s'exilià. Va estudiar a St. Andrews.",
            [
                "El Sr. Puig va néixer c. 1850 a Reus.",
                "Mercè Rodoreda, n. 1908, va escriure molt.",
                "Mn. Jacint Verdaguer era poeta.",
                "La Dra. Vila i M. Àngels Anglada hi van anar.",
                "Va estudiar dret, història, etc.",
                "El 1939 s'exilià.",
                "Va estudiar a St. Andrews.",
            ],
        ),
        (
            "de",
            "Er starb im 19. Jahrhundert. Sie belegte Platz 88. Sie wuchs in Berlin auf. Sie "
            "studierte in Wien. 1914 ging sie nach Paris.",
            [
                "Er starb im 19. Jahrhundert.",
                "Sie belegte Platz 88.",
                "Sie wuchs in Berlin auf.",
                "Sie studierte in Wien.",
                "1914 ging sie nach Paris.",
            ],
        ),
        ("hi", "उन्होंने शिक्षा पूरी की| वह लेखिका थीं।", ["उन्होंने शिक्षा पूरी की|", "वह लेखिका थीं।"]),
    ],
)
def test_split_sentences(lang: str, text: str, expected: list[str]) -> None:
    assert split_sentences(text, lang) == expected


def test_split_sentences_line_break_ends_a_sentence() -> None:
    assert split_sentences("Early life\nShe was born in 1950.\n\n", "en") == [
        "Early life",
        "She was born in 1950.",
    ]
    assert split_sentences("", "en") == []


def test_split_sentences_keeps_text_exactly() -> None:
    text = "El 1.º de mayo fue fiesta.  Fue la 2.ª mujer en llegar."
    assert split_sentences(text, "es") == [
        "El 1.º de mayo fue fiesta.",
        "Fue la 2.ª mujer en llegar.",
    ]


# ----- language identification -------------------------------------------------------------

CATALAN = [
    "Va néixer a Barcelona l'any 1950.",
    "La seva mare era mestra d'escola.",
    "Va estudiar a la Universitat de València.",
    "Després es va traslladar a viure a Girona.",
    "Els seus pares treballaven al camp.",
]
SPANISH = [
    "Nació en Barcelona en el año 1950.",
    "Su madre era maestra de escuela.",
    "Estudió en la Universidad de Valencia.",
    "Después se trasladó a vivir a Gerona.",
    "Sus padres trabajaban en el campo.",
]


def test_langid_tells_catalan_from_spanish(identifier: LanguageIdentifier) -> None:
    assert identifier.detect_batch(CATALAN) == ["ca"] * len(CATALAN)
    assert identifier.detect_batch(SPANISH) == ["es"] * len(SPANISH)
    assert identifier.is_lang(CATALAN + SPANISH, "ca") == [True] * 5 + [False] * 5
    assert identifier.is_lang(CATALAN + SPANISH, "es") == [False] * 5 + [True] * 5


def test_langid_english_and_no_letters(identifier: LanguageIdentifier) -> None:
    assert identifier.detect("She was born in London in 1950.") == "en"
    assert identifier.detect("Er wurde 1950 in Berlin geboren.") == "de"  # a default candidate
    assert identifier.detect("1950–2001") is None
    assert identifier.is_lang(["1950–2001"], "ca") == [True]


def test_langid_min_prob_bounds() -> None:
    english = ["She was born in London in 1950 and died in Paris."]
    assert LanguageIdentifier(["ca"], min_prob=0.0).is_lang(english, "ca") == [True]
    assert LanguageIdentifier(["ca"], min_prob=1.0).is_lang(english, "ca") == [False]
    with pytest.raises(ValueError, match="min_prob"):
        LanguageIdentifier(["ca"], min_prob=1.5)


def test_langid_unsupported_language() -> None:
    ident = LanguageIdentifier(["ast"], extra=["es"])
    assert not ident.supports("ast")
    assert ident.supports("es")
    assert not ident.supports("ca")  # known to the model, but not a candidate here
    with pytest.raises(ValueError, match="ast"):
        ident.is_lang(["Nació en Xixón."], "ast")


def test_for_langs_is_shared() -> None:
    assert LanguageIdentifier.for_langs(["ca", "en"]) is LanguageIdentifier.for_langs(["en", "ca"])


# ----- clean_article -----------------------------------------------------------------------


def test_clean_article_drops_and_counts(identifier: LanguageIdentifier) -> None:
    text = (
        "Early life and education\n\n"
        "She was born in Barcelona in 1950 (the second of four children). Yes. "
        "She studied law at the University of Barcelona. "
        "She was born in Barcelona in 1950.\n\n"
        "Su madre era maestra de escuela en el pueblo. "
        "She moved to London, where she worked as a journalist for twenty years. "
        + "She wrote "
        + "many long books, " * 10
        + "and poems.\n\n"
        "Selected works and prizes of her career:"
    )
    stats: Counter[str] = Counter()
    dropped: list[tuple[str, str]] = []
    config = CleanConfig(max_chars=150)
    sentences = clean_article(
        article(text), config=config, stats=stats, identifier=identifier, dropped=dropped
    )
    assert [s.text for s in sentences] == [
        "She was born in Barcelona in 1950.",
        "She studied law at the University of Barcelona.",
        "She moved to London, where she worked as a journalist for twenty years.",
    ]
    assert [s.idx for s in sentences] == [0, 1, 2]
    assert {(s.qid, s.lang) for s in sentences} == {("Q1", "en")}
    reasons = Counter(reason for reason, _ in dropped)
    assert reasons == Counter(
        dropped_no_final_punct=2,  # the heading, the list's lead-in
        dropped_too_short=1,  # "Yes."
        dropped_duplicate=1,
        dropped_wrong_lang=1,
        dropped_too_long=1,
    )
    assert ("dropped_wrong_lang", "Su madre era maestra de escuela en el pueblo.") in dropped
    assert stats["sentences_kept"] == 3
    assert stats["sentences_split"] == 9
    assert_funnel(stats)


def test_clean_article_duplicates_keep_the_first(identifier: LanguageIdentifier) -> None:
    text = (
        "She was born in Vic in 1950.  She studied law in Girona.\n\n"
        "She was born  in Vic in 1950. She died in 2001 in Vic."
    )
    stats: Counter[str] = Counter()
    sentences = clean_article(
        article(text), config=CleanConfig(), stats=stats, identifier=identifier
    )
    assert [(s.idx, s.text) for s in sentences] == [
        (0, "She was born in Vic in 1950."),
        (1, "She studied law in Girona."),
        (2, "She died in 2001 in Vic."),
    ]
    assert stats["dropped_duplicate"] == 1
    kept_all = clean_article(article(text), config=CleanConfig(dedup=False), identifier=identifier)
    assert len(kept_all) == 4


def test_clean_article_langid_off_keeps_foreign(identifier: LanguageIdentifier) -> None:
    text = "She studied law in Girona. " + " ".join(SPANISH)
    on = clean_article(article(text), config=CleanConfig(), identifier=identifier)
    off = clean_article(article(text), config=CleanConfig(langid=False), identifier=identifier)
    assert len(on) == 1
    assert len(off) == 1 + len(SPANISH)


def test_clean_article_empty() -> None:
    stats: Counter[str] = Counter()
    assert clean_article(article("  \n\n "), config=CleanConfig(), stats=stats) == []
    assert stats == Counter(articles_empty=1)


def test_clean_article_unsupported_language_does_not_crash(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(clean, "_WARNED_UNSUPPORTED", set())
    text = "Nació en Xixón nel añu 1950. Estudió Derechu na Universidá d'Uviéu."
    stats: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, logger="occbio.extract.clean"):
        first = clean_article(article(text, "ast"), config=CleanConfig(), stats=stats)
        second = clean_article(article(text, "ast"), config=CleanConfig(), stats=stats)
    assert [s.text for s in first] == [
        "Nació en Xixón nel añu 1950.",
        "Estudió Derechu na Universidá d'Uviéu.",
    ]
    assert first == second
    assert stats["langid_unsupported"] == 2
    assert sum("'ast'" in r.getMessage() for r in caplog.records) == 1  # warned once
    assert_funnel(stats)


def test_clean_article_unspaced_script_counts_characters() -> None:
    text = "李白是唐代著名的浪漫主义诗人，被后人誉为诗仙。他是诗人。"
    sentences = clean_article(article(text, "zh"), config=CleanConfig(langid=False))
    assert [s.text for s in sentences] == ["李白是唐代著名的浪漫主义诗人，被后人誉为诗仙。"]


# ----- end to end on real biographies ------------------------------------------------------


def _plain_text(wikitext: str) -> str:
    try:
        from occbio.extract.wikitext import wikitext_to_text
    except ImportError:  # the extractor is another module's; crude stripping is enough here
        import mwparserfromhell

        return mwparserfromhell.parse(wikitext).strip_code()
    return wikitext_to_text(wikitext)


BIOGRAPHIES = {
    "Elizabeth-Gilbert": ("en", "Gilbert was born in Waterbury, Connecticut."),
    "julia_kristeva": ("en", "She is prominent in structuralist and poststructuralist thought."),
    "al_Haytham": ("en", "During this time, he wrote his influential Book of Optics."),
    "Allen-R.-Morris": ("en", "Their family was one of the first to move in."),
    "Sara-C.-Bisel": (
        "de",
        "Zudem konnten Schmuck und zahllose Alltagsgegenstände geborgen werden.",
    ),
    "Mark-Behr": ("af", "Hy het in Afrikaans sowel as Engels geskryf."),
}


@pytest.mark.parametrize("name", sorted(BIOGRAPHIES))
def test_clean_article_real_biographies(shared_data: Path, name: str) -> None:
    lang, expected = BIOGRAPHIES[name]
    wikitext = (shared_data / "wikitext" / f"{name}.txt").read_text(encoding="utf-8")
    ident = LanguageIdentifier.for_langs(["en", lang])
    stats: Counter[str] = Counter()
    dropped: list[tuple[str, str]] = []
    config = CleanConfig()
    sentences = clean_article(
        Article(qid="Q1", lang=lang, title=name, page_id=1, text=_plain_text(wikitext)),
        config=config,
        stats=stats,
        identifier=ident,
        dropped=dropped,
    )
    texts = [s.text for s in sentences]
    assert expected in texts
    assert len(sentences) >= 10
    assert [s.idx for s in sentences] == list(range(len(sentences)))
    assert len(set(texts)) == len(texts)
    for text in texts:
        assert config.min_chars <= len(text) <= config.max_chars
        assert len(text.split()) >= config.min_words
        assert not any(mark in text for mark in ("[1]", "{{", "}}", "[[", "  "))
    assert_funnel(stats)
    assert stats["sentences_kept"] == len(sentences)
    assert len(dropped) == sum(stats[k] for k in DROP_KEYS)


def test_clean_article_real_biography_in_the_wrong_language(shared_data: Path) -> None:
    """A German biography filed as English: language ID drops its German prose."""
    wikitext = (shared_data / "wikitext" / "Sara-C.-Bisel.txt").read_text(encoding="utf-8")
    stats: Counter[str] = Counter()
    dropped: list[tuple[str, str]] = []
    clean_article(
        article(_plain_text(wikitext), "en"),
        config=CleanConfig(),
        stats=stats,
        identifier=LanguageIdentifier.for_langs(["en", "de"]),
        dropped=dropped,
    )
    german = BIOGRAPHIES["Sara-C.-Bisel"][1]
    assert ("dropped_wrong_lang", german) in dropped
    # What stays is English: titles of her English publications, if the text still has them.
    assert stats["dropped_wrong_lang"] > 2 * stats["sentences_kept"]
    assert_funnel(stats)
