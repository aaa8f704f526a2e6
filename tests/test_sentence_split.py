"""Sentence splitting: the repair layer over sentencex, on its known traps and on real text.

Each defect seen on real Wikipedia pages has a case here (words sentencex takes for
abbreviations, a formula's last letter taken for an initial, units after a number, French
"J.-C."), next to what the repair layer must keep doing (initials, "U.S.", "Jr.", decimals,
ordinals, abbreviations before numbers). The tests at the end read real text from ../shared/data
and skip when it is absent.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from occbio.extract.clean import remove_asides
from occbio.extract.sentence_split import split_sentences
from occbio.extract.wikipedia_dump import iter_pages
from occbio.extract.wikitext import wikitext_to_text

ENWIKI = "wikipedia-dumps/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
GENEVAL = "mt-geneval-dev/sentences-dev"


def one_of_each(*sentences: str) -> tuple[str, list[str]]:
    return " ".join(sentences), list(sentences)


# ----- what used to be merged ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "sentences"),
    [
        # 1. An ordinary word that sentencex's abbreviation list holds ("art." = article):
        # sentencex splits before "He" or "The" but not before a name.
        ("en", ["She sold her first work of art.", "Hirst bought it in 1990."]),
        ("en", ["The Courtauld Institute of Art.", "Hirst studied there."]),
        ("en", ["He was seriously ill.", "Zeise visited him."]),
        ("fr", ["Elle étudie l'histoire de l'art.", "Picasso l'encourage."]),
        ("ca", ["Va estudiar història de l'art.", "Picasso hi era."]),
        ("es", ["Vivía junto al mar.", "Juan era pescador."]),
        ("es", ["Todo saldrá bien.", "Pompeo lo dijo."]),
        ("it", ["Morì due anni fa.", "Rossi lo seppe."]),
        ("it", ["Sedeva di fronte al re.", "Queste fazioni erano potenti."]),
        ("de", ["Er war ein Mann dieser Art.", "Er starb 1900."]),
        # 2. The last letter of a formula, or a capital after a number, is no initial.
        ("en", ["The mass number is A = Z + N.", "Since N varies, isotopes differ."]),
        ("en", ["The reaction gives H+ + A.", "In solution the two balance."]),
        ("en", ["The force is 100 N.", "Since then it has been measured often."]),
        ("en", ["It rarely rises above 35 C.", "The summers are mild."]),
        # 3. A unit after a number ends the sentence before a capitalised word.
        ("fr", ["Elle remporte le 400 m.", "Elle gagne ensuite le 800 m."]),
        ("en", ["He won gold in the 400 m.", "Johnson came second."]),
        ("en", ["The baby weighed 500 g.", "Doctors kept her in hospital."]),
        ("en", ["Its burrows can be as long as 13 m.", "These burrows can be large."]),
        ("en", ["The deceleration peaked at 6 g.", "With the computer in control, it landed."]),
        ("en", ["The recipe asks for 2 bars (7 oz.)", "In summer 2020, she became coach."]),
        ("de", ["Das Visier reichte bis etwa 360 m.", "Später wurde es vereinfacht."]),
        ("es", ["Corrió los 1,5 km.", "Después ganó."]),
        ("it", ["Fino a 10 cm.", "Per le aree vicine fu una benedizione."]),
        # 4. "J.-C." stays whole and "av. J.-C." does not split.
        ("fr", ["Socrate meurt en 399 av. J.-C. à Athènes.", "Platon fonde l'Académie."]),
        ("fr", ["Né vers 427 av. J.-C., il meurt en 348 av. J.-C.", "Platon enseigne."]),
        ("fr", ["Auguste règne de 27 av. J.-C. à 14 apr. J.-C.", "Il meurt à Nola."]),
        ("fr", ["Le skieur J.-C. Killy remporte trois médailles.", "Il devient célèbre."]),
        ("en", ["In Les Navigateurs de l'Infini of J.-H. Rosny aîné, the word was used."]),
        ("en", ["It has a steep reflectivity-vs.-incident-angle curve.", "So it shines."]),
        # French "M." is "Monsieur".
        ("fr", ["Elle épouse M. Dupont en 1950.", "Ils ont deux enfants."]),
    ],
)
def test_split_sentences_repairs(lang: str, sentences: list[str]) -> None:
    text, expected = one_of_each(*sentences)
    assert split_sentences(text, lang) == expected


# ----- what must keep working ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "sentences"),
    [
        ("en", ["J. R. R. Tolkien was a professor at Oxford.", "He wrote The Hobbit."]),
        ("en", ["In 1950, J. Smith founded the company.", "It grew quickly."]),
        ("en", ["The David O. McKay Events Center opened.", "It was renamed in 2010."]),
        ("en", ["He served in the U.S. Army.", "He later became a lawyer."]),
        ("en", ["He was the father of Clint Murchison Jr.", "He died in 1969."]),
        ("en", ["Dr. Martin Luther King Jr. was born in Atlanta.", "He studied at Morehouse."]),
        ("en", ["Pi is about 3.14 in most schoolbooks.", "It is irrational."]),
        ("en", ["He fought in World War I.", "He came back."]),
        ("en", ["Article 5 is cited as art. 5 of the law.", "It was repealed."]),
        ("en", ["The church was built c. 1850 by masons.", "It burned down."]),
        ("en", ["She ran 400 m in 1950 and won.", "It was her best year."]),
        ("de", ["Am 1. Januar 1900 wurde er geboren.", "Er starb im 19. Jahrhundert."]),
        ("de", ["Sie belegte Platz 88.", "Sie wuchs in Berlin auf."]),
        ("de", ["Nach Art. 5 GG gilt das.", "Es ist Gesetz."]),
        ("de", ["Er lebte im 5. Jh. v. Chr. in Athen.", "Er war Philosoph."]),
        ("es", ["El 1.º de mayo fundó la revista.", "Duró dos años."]),
        ("es", ["El emperador murió en el año 14 d. C. en Nola.", "Le sucedió Tiberio."]),
        ("es", ["La obra de J. L. Borges influyó mucho.", "Su primer libro es de 1923."]),
        ("es", ["El mar Mediterráneo baña la costa.", "Es un mar cerrado."]),
        ("ca", ["Salvador Dalí (Figueres, 1904 – m. 1989) fou pintor.", "Morí a Figueres."]),
        ("ca", ["La Dra. Vila i M. Àngels Anglada hi van anar.", "Van tornar."]),
        ("ca", ["Fou un cromosoma Y.", "La resta eren X."]),
        ("fr", ["Le Dr Martin arrive le 1er mai.", "Il repart."]),
    ],
)
def test_split_sentences_keeps_working(lang: str, sentences: list[str]) -> None:
    text, expected = one_of_each(*sentences)
    assert split_sentences(text, lang) == expected


def test_hyphen_after_a_space_still_starts_a_sentence() -> None:
    """Only a hyphen glued to the full stop ("J." + "-C.") continues the word."""
    assert split_sentences("He won. -Mary said so.", "en") == ["He won.", "-Mary said so."]


# ----- real text ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def enwiki_sentences(shared_data: Path) -> dict[str, list[str]]:
    """The sentences of a few real pages of the enwiki dump excerpt, split as occbio does."""
    titles = ["Art", "Acid", "Aldous Huxley", "Apollo", "Apollo 8", "Atomic number", "Astronaut"]
    pages = iter_pages(shared_data / ENWIKI, titles=titles)
    return {
        p.title: split_sentences(remove_asides(wikitext_to_text(p.wikitext)), "en") for p in pages
    }


def _has_break(sentences: list[str], end: str, start: str) -> bool:
    return any(a.endswith(end) and b.startswith(start) for a, b in pairwise(sentences))


@pytest.mark.parametrize(
    ("title", "end", "start"),
    [
        ("Art", "in a gallery as work of art.", "Hirst came up with"),  # defect 1
        ("Art", "instead of art.", "Likewise, if the skill"),
        ("Apollo", "the form of a work of art.", "Spiritual life is incorporated"),
        ("Aldous Huxley", "she became terminally ill.", "After Hillside"),
        ("Apollo 8", "awoke feeling ill.", "He vomited twice"),
        ("Atomic number", "A = Z + N.", ""),  # defect 2: no initial after "+"
        ("Acid", "+ A.", "In solution there exists"),
    ],
)
def test_real_enwiki_breaks(
    enwiki_sentences: dict[str, list[str]], title: str, end: str, start: str
) -> None:
    assert _has_break(enwiki_sentences[title], end, start)


def test_real_enwiki_hyphenated_initials(enwiki_sentences: dict[str, list[str]]) -> None:
    sentences = enwiki_sentences["Astronaut"]
    assert any("of J.-H. Rosny aîné, the word" in s for s in sentences)
    assert not any(s.endswith("J.-H.") for s in sentences)


def _geneval_lines(shared_data: Path, pattern: str) -> list[str]:
    lines: list[str] = []
    for path in sorted((shared_data / GENEVAL).glob(pattern)):
        lines.extend(line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return lines


def test_real_geneval_sentence_ending_in_art_or_ill(shared_data: Path) -> None:
    """MT-GenEval lines are real Wikipedia sentences; one ending in "art." or "ill." followed by
    the next line splits back into the two lines."""
    lines = _geneval_lines(shared_data, "geneval-sentences-*-dev.en_*.en")
    pairs = [
        (a, b)
        for a, b in pairwise(lines)
        if re.search(r" (art|ill)\.$", a) and re.match(r"[A-Z][a-z]", b) and ". " not in a
    ]
    assert len(pairs) >= 5
    for a, b in pairs:
        assert split_sentences(f"{a} {b}", "en")[0] == a


def test_real_geneval_two_sentences_in_one_line(shared_data: Path) -> None:
    """A real line holding two sentences, the first ending in "lying ill." (before "She" or
    "He"), with "St. Petersburg" kept whole."""
    lines = [
        line
        for line in _geneval_lines(shared_data, "geneval-sentences-*-dev.en_*.en")
        if "where Berckheim was lying ill." in line
    ]
    assert lines
    for line in lines:
        first, second = split_sentences(line, "en")
        assert first.endswith("where Berckheim was lying ill.")
        assert "St. Petersburg" in first
        assert second.startswith(("He ", "She "))


@pytest.mark.parametrize(
    ("pattern", "lang", "fragment"),
    [
        ("*.en_de.en", "en", "highly critical of U.S. trade policies"),
        ("*.en_de.en", "en", "at a rate of 5.6 per million"),
        ("*.en_*.en", "en", "the David O. McKay Events Center"),
        ("*.en_*.en", "en", "billed as Canek Jr., confusing"),
        ("*.en_de.de", "de", "Am 14. Juni 2021 teilte Templeton mit"),
        ("*.en_de.de", "de", "im 19. Jahrhundert und früher war"),
        ("*.en_es.es", "es", "el 29.º Festival internacional"),
        ("*.en_es.es", "es", "(de W. W. Norton)"),
    ],
)
def test_real_geneval_sentences_stay_whole(
    shared_data: Path, pattern: str, lang: str, fragment: str
) -> None:
    lines = [
        line
        for line in _geneval_lines(shared_data, f"geneval-sentences-*-dev{pattern}")
        if fragment in line
    ]
    assert lines
    for line in lines:
        assert split_sentences(line, lang) == [line]
