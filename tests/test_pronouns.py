"""Pronoun-count gender inference (occbio.gender.pronouns): tables, context rules, decisions.

The sentences are written for these tests. The shared-data tests at the end run on real
Wikipedia text (../shared/data) and are skipped without it.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from occbio.extract.wikipedia_dump import iter_pages
from occbio.extract.wikitext import wikitext_to_text
from occbio.gender.categories import FEMALE, MALE, UNKNOWN
from occbio.gender.pronouns import (
    NO_GENDERED_PRONOUNS,
    PRONOUNS,
    REASONS,
    PronounEvidence,
    combine,
    count_pronouns,
    infer_gender,
)

# lang -> (female-only text, male-only text, mixed text below the margin); each side of the
# first two holds at least three pronouns, the mixed one at least three of each.
TEXTS: dict[str, tuple[str, str, str]] = {
    "en": (
        "She was born in Leeds. Her first book made her famous, and the prize was hers.",
        "He was born in Leeds. His first book made him famous; he wrote it himself.",
        "She met him in Paris. He admired her work and she admired his; he wrote to her.",
    ),
    "es": (
        "Ella nació en Sevilla. A ella le dieron el premio y con ella llegó el éxito.",
        "Él nació en Sevilla. A él le dieron el premio y con él llegó el éxito.",
        "Ella conoció a Juan; él la admiraba y ella a él. Con ella viajó él a Roma.",
    ),
    "ca": (
        "Ella va néixer a Girona. El premi va ser per a ella, i d'ella es parla encara.",
        "Ell va néixer a Girona. El premi va ser per a ell, i d'ell es parla encara.",
        "Ella va conèixer en Joan; ell l'admirava i ella a ell. Amb ell va viatjar ella.",
    ),
    "fr": (
        "Elle est née à Lyon. On dit qu'elle écrivait la nuit ; elle publia dix romans.",
        "Il est né à Lyon. On dit qu'il écrivait la nuit ; il publia dix romans.",
        "Elle rencontra Paul ; il l'admirait, elle aussi. Il partit avec elle, puis il revint.",
    ),
    "de": (
        "Sie wurde in Bonn geboren. Ihr erstes Buch machte sie berühmt; ihre Mutter war stolz.",
        "Er wurde in Bonn geboren. Sein Buch machte ihn berühmt; seine Mutter war stolz auf ihn.",
        "Sie traf ihn in Wien. Er bewunderte ihre Arbeit, sie seine; er schrieb ihr Briefe.",
    ),
    "it": (
        "Lei nacque a Torino. Fu lei a fondare la rivista, e a lei si deve il successo.",
        "Lui nacque a Torino. Fu lui a fondare la rivista, e a lui si deve il successo; egli morì.",
        "Lei conobbe lui a Roma; lui la ammirava e lei pure. Con lui lei partì, e lui tornò.",
    ),
    "pt": (
        "Ela nasceu em Braga. O prémio foi dela, e nela confiavam todos.",
        "Ele nasceu em Braga. O prémio foi dele, e nele confiavam todos.",
        "Ela conheceu o João; ele admirava-a e ela a ele. O livro dela e o dele saíram juntos.",
    ),
    "nl": (
        "Marie werd in Gent geboren. Haar vader gaf haar een viool en haar moeder leerde spelen.",
        "Hij werd in Gent geboren. Zijn vader gaf hem een viool; hij leerde spelen van hem.",
        "Hij ontmoette haar in Brugge; hij schreef haar brieven, haar zus bewaarde ze voor hem.",
    ),
    "af": (
        "Marie is in Pretoria gebore. Haar pa het haar 'n viool gegee en haar ma het gespeel.",
        "Hy is in Pretoria gebore. Sy pa het hom 'n viool gegee en hy het gespeel.",
        "Hy het haar in Kaapstad ontmoet; hy het haar briewe geskryf en haar ma het hom gehaat.",
    ),
    "sv": (
        "Hon föddes i Lund. Hennes far gav henne en fiol och hon spelade varje dag.",
        "Han föddes i Lund. Hans far gav honom en fiol och han spelade varje dag.",
        "Hon träffade honom i Lund; han skrev till henne och hon svarade hans brev.",
    ),
    "da": (
        "Hun blev født i Odense. Hendes far gav hende en violin, og hun spillede hver dag.",
        "Han blev født i Odense. Hans far gav ham en violin, og han spillede hver dag.",
        "Hun mødte ham i Odense; han skrev til hende, og hun besvarede hans breve.",
    ),
    "no": (
        "Hun ble født i Bergen. Hennes far ga henne en fiolin, og hun spilte hver dag.",
        "Han ble født i Bergen. Hans far ga ham en fiolin, og han spilte hver dag.",
        "Hun møtte ham i Bergen; han skrev til henne, og hun svarte på hans brev.",
    ),
    "nn": (
        "Ho vart fødd i Voss. Faren hennar gav henne ei fele, og ho spelte kvar dag.",
        "Han vart fødd i Voss. Faren hans gav honom ei fele, og han spelte kvar dag.",
        "Ho møtte honom på Voss; han skreiv til henne, og ho svara på brevet hans.",
    ),
    "pl": (
        "Ona urodziła się w Krakowie. Jej ojciec dał jej skrzypce i nauczył ją grać.",
        "On urodził się w Krakowie. Jego ojciec dał mu skrzypce i nauczył go grać.",
        "Ona poznała go w Krakowie; on pisał do niej, a ona odpisywała mu i jego bratu.",
    ),
    "ru": (
        "Она родилась в Казани. Её отец подарил ей скрипку, и с ней она не расставалась.",
        "Он родился в Казани. Его отец подарил ему скрипку, и он играл каждый день.",
        "Она встретила его в Казани; он писал ей, она отвечала ему и его брату.",
    ),
    "uk": (
        "Вона народилася у Львові. Її батько подарував їй скрипку, і вона грала щодня.",
        "Він народився у Львові. Його батько подарував йому скрипку, і він грав щодня.",
        "Вона зустріла його у Львові; він писав їй, вона відповідала йому і його братові.",
    ),
}


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_female_text_is_female(lang: str) -> None:
    ev = infer_gender(TEXTS[lang][0], lang)
    assert (ev.category, ev.reason, ev.male) == (FEMALE, "pronouns", 0), ev
    assert ev.female >= 3


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_male_text_is_male(lang: str) -> None:
    ev = infer_gender(TEXTS[lang][1], lang)
    assert (ev.category, ev.reason, ev.female) == (MALE, "pronouns", 0), ev
    assert ev.male >= 3


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_mixed_text_below_the_margin_is_unknown(lang: str) -> None:
    ev = infer_gender(TEXTS[lang][2], lang)
    assert (ev.category, ev.reason) == (UNKNOWN, "no_margin"), ev
    assert ev.female >= 3 and ev.male >= 3


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_text_without_pronouns_is_too_few(lang: str) -> None:
    ev = infer_gender("Lisboa, Barcelona, 1950, 2001 — Toronto.", lang)
    assert ev == PronounEvidence(lang, 0, 0, UNKNOWN, "too_few")
    assert infer_gender("", lang) == PronounEvidence(lang, 0, 0, UNKNOWN, "too_few")


def test_every_language_with_pronouns_has_a_test() -> None:
    assert set(PRONOUNS) == set(TEXTS)


# ---------------------------------------------------------------------------------------------
# Tables


def test_tables_are_lowercase_nfc_and_disjoint() -> None:
    for lang, table in PRONOUNS.items():
        assert set(table) == {FEMALE, MALE}, lang
        assert table[FEMALE] and table[MALE], lang
        assert not table[FEMALE] & table[MALE], lang
        for word in table[FEMALE] | table[MALE]:
            assert word == word.lower() == unicodedata.normalize("NFC", word), (lang, word)
            assert word.isalpha(), (lang, word)
    assert not set(PRONOUNS) & NO_GENDERED_PRONOUNS


# Words that look like gendered pronouns but are also articles, plurals, verbs, "they"/"you"
# or not gendered for the person: they must stay out of the tables.
EXCLUDED = {
    "en": "they them their it",
    "es": "el la lo le los las ellos ellas su suyo suya",
    "ca": "el la lo li els les ells elles seu seva",
    "fr": "ils elles le la les leur son sa ses",
    "de": "sein ihnen dessen deren es",
    "it": "lo la gli le esso essa loro suo sua",
    "pt": "o a os as lhe eles elas seu sua",
    "nl": "zij ze zijn het",
    "af": "sy hulle",
    "pl": "nim oni one ich",
    "ru": "им ним они их",
    "uk": "ним їм вони їх",
}


@pytest.mark.parametrize("lang", sorted(EXCLUDED))
def test_ambiguous_words_are_not_in_the_table(lang: str) -> None:
    words = PRONOUNS[lang][FEMALE] | PRONOUNS[lang][MALE]
    assert not words & set(EXCLUDED[lang].split())
    assert count_pronouns(EXCLUDED[lang], lang) == (0, 0)


@pytest.mark.parametrize(
    ("lang", "text", "counts"),
    [
        # es/ca/it/pt: articles and clitics that double as him/her are not counted
        ("es", "El libro la hizo famosa; lo leyó la crítica y le dieron el premio.", (0, 0)),
        ("es", "El padre de él y la madre de ella.", (1, 1)),
        (
            "ca",
            "El llibre la va fer famosa; el va llegir la crítica i li van donar el premi.",
            (0, 0),
        ),
        ("it", "Lo disse la madre; gli diedero le chiavi e la casa.", (0, 0)),
        ("pt", "O livro a tornou famosa; o pai deu-lhe a casa.", (0, 0)),
        # nl: zij/ze are also "they", zijn also "to be"
        ("nl", "Zij zijn broers; ze wonen in Gent en zijn daar gelukkig.", (0, 0)),
        # af: sy is both "she" and "his"
        ("af", "Sy boek en sy pa.", (0, 0)),
        # plurals are not counted
        ("fr", "Elles partirent ; ils restèrent.", (0, 0)),
        ("ru", "Они приехали; им дали дом, и с ним рядом сад.", (0, 0)),
    ],
)
def test_excluded_uses(lang: str, text: str, counts: tuple[int, int]) -> None:
    assert count_pronouns(text, lang) == counts


# ---------------------------------------------------------------------------------------------
# Context rules: French impersonal il and indirect-object lui, German formal Sie


@pytest.mark.parametrize(
    "text",
    [
        "Il y a deux versions de cette histoire.",
        "Il n'y a aucune preuve.",
        "Y a-t-il une preuve ?",
        "Il faut noter que le manuscrit est perdu.",
        "Faut-il le croire ?",
        "Il s'agit d'un roman.",
        "Il existe trois portraits.",
        "Il semble que le texte soit perdu.",
        "Il est possible que le texte soit perdu.",
        "Il était donc évident que le texte était perdu.",
        "Il fut annoncé que le prix serait décerné.",
        "Il a été décidé que le prix serait décerné.",
        "Il lui a fallu trois ans.",
        "Il était de coutume de se lever tôt.",
    ],
)
def test_french_impersonal_il_is_not_counted(text: str) -> None:
    assert count_pronouns(text, "fr") == (0, 0)


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("Il y a vécu dix ans.", (0, 1)),  # he lived there
        ("Il est né à Lyon.", (0, 1)),
        ("Il est devenu professeur.", (0, 1)),
        ("Il s'est marié en 1950.", (0, 1)),
        ("Il faisait froid quand il partit.", (0, 2)),  # not in the impersonal list: counted
    ],
)
def test_french_personal_il_is_counted(text: str, counts: tuple[int, int]) -> None:
    assert count_pronouns(text, "fr") == counts


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("On lui décerna le prix.", (0, 0)),  # to him or to her
        ("Elle lui succéda.", (1, 0)),
        ("Pour lui rendre hommage, la ville donna son nom à une rue.", (0, 0)),
        ("Elle partit avec lui.", (1, 1)),
        ("Il l'a écrit lui-même.", (0, 2)),
        ("Lui aussi voulait partir.", (0, 1)),
        ("Le prix de 1941, lui valut la gloire.", (0, 0)),  # "de 1941, lui": not "de lui"
    ],
)
def test_french_lui_only_counts_as_stressed_pronoun(text: str, counts: tuple[int, int]) -> None:
    assert count_pronouns(text, "fr") == counts


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("Sie schrieb: „Können Sie mir helfen?“", (1, 0)),  # the second Sie is formal "you"
        ("Er fragte, ob Sie Ihre Karte haben.", (0, 1)),
        ("Er sagte: Sie kommt morgen.", (1, 1)),  # capital after a colon starts a sentence
        ("„Sie kommt morgen“, sagte er.", (1, 1)),
        ("Er wollte Arzt sein.", (0, 1)),  # sein: the verb
        ("Sie sind Brüder. Ihnen gehört das Haus.", (1, 0)),  # plural sie: counted, ihnen not
    ],
)
def test_german_formal_sie_and_verb_sein(text: str, counts: tuple[int, int]) -> None:
    assert count_pronouns(text, "de") == counts


# ---------------------------------------------------------------------------------------------
# Tokenisation


@pytest.mark.parametrize(
    ("lang", "text", "counts"),
    [
        ("fr", "Il dit qu'elle viendrait, puisqu'elle l'avait promis.", (2, 1)),
        ("fr", "A-t-elle écrit ? L'a-t-il lu ? Elle-même le dit.", (2, 1)),
        ("fr", "Le livre d’elle et celui d’Anne.", (1, 0)),  # typographic apostrophe
        ("ca", "El record d'ella i el d'ell; l'obra d’ella.", (2, 1)),
        ("ca", "Ella va estudiar al col·legi amb il·lusió.", (1, 0)),
        ("it", "C'era lei, e dell'opera di lui si parlò.", (1, 1)),
        ("en", "She's here and he'd gone; He’s back.", (1, 2)),
        ("en", "SHE and HE; She and He.", (2, 2)),
        ("en", "Shell, Sheldon, heir, hero, Hisham, theme, Hershey and there.", (0, 0)),
        ("es", "ÉL y Él y él; el y El.", (0, 3)),
        ("es", unicodedata.normalize("NFD", "Él y él."), (0, 2)),  # decomposed accents
        ("pt", "Ela, dela, nela; ele, dele, nele; eles, elas, delas.", (3, 3)),
        ("uk", "Її книга; ЇЙ дали премію.", (2, 0)),
        ("de", "Er war 1990 in Bonn; 2000 war er in Wien.", (0, 2)),
    ],
)
def test_words_are_whole_words_case_insensitive(
    lang: str, text: str, counts: tuple[int, int]
) -> None:
    assert count_pronouns(text, lang) == counts


# ---------------------------------------------------------------------------------------------
# Decisions


@pytest.mark.parametrize(
    ("female", "male", "category", "reason"),
    [
        (3, 0, FEMALE, "pronouns"),
        (0, 3, MALE, "pronouns"),
        (2, 0, UNKNOWN, "too_few"),
        (0, 0, UNKNOWN, "too_few"),
        (2, 2, UNKNOWN, "too_few"),
        (4, 2, FEMALE, "pronouns"),  # exactly the margin
        (5, 3, UNKNOWN, "no_margin"),
        (3, 3, UNKNOWN, "no_margin"),  # a tie is never decided
        (3, 9, MALE, "pronouns"),
    ],
)
def test_decision_rule(female: int, male: int, category: str, reason: str) -> None:
    text = "she " * female + "he " * male
    ev = infer_gender(text, "en")
    assert ev == PronounEvidence("en", female, male, category, reason)


def test_a_tie_is_unknown_even_with_margin_one() -> None:
    ev = infer_gender("she he she he she he", "en", min_count=1, margin=1.0)
    assert (ev.category, ev.reason) == (UNKNOWN, "no_margin")
    ev = infer_gender("she she he", "en", min_count=1, margin=1.0)
    assert ev.category == FEMALE


def test_thresholds_are_parameters() -> None:
    assert infer_gender("she she", "en", min_count=2).category == FEMALE
    assert infer_gender("she she she he he", "en", margin=1.5).category == FEMALE
    assert infer_gender("she she she he he", "en").reason == "no_margin"
    with pytest.raises(ValueError):
        infer_gender("she", "en", min_count=0)
    with pytest.raises(ValueError):
        infer_gender("she", "en", margin=0.5)
    with pytest.raises(ValueError):
        combine([], margin=0.9)


@pytest.mark.parametrize("lang", ["fi", "hu", "tr", "et", "fa", "id", "ms", "hi", "eu"])
def test_language_without_gendered_pronouns(lang: str) -> None:
    assert lang in NO_GENDERED_PRONOUNS
    ev = infer_gender("she she she he her his", lang)
    assert ev == PronounEvidence(lang, 0, 0, UNKNOWN, "no_gendered_pronouns")
    assert count_pronouns("she she she", lang) == (0, 0)


@pytest.mark.parametrize("lang", ["ar", "he", "zh", "xx", ""])
def test_language_without_a_table(lang: str) -> None:
    ev = infer_gender("she she she", lang)
    assert (ev.category, ev.reason, ev.female, ev.male) == (UNKNOWN, "no_table", 0, 0)


def test_language_codes_are_normalised_and_aliased() -> None:
    assert infer_gender("She she her", "EN").category == FEMALE
    assert infer_gender("She she her", "simple") == PronounEvidence("en", 3, 0, FEMALE, "pronouns")
    assert infer_gender("hun hun henne", "nb").lang == "no"
    assert infer_gender("hun hun henne", "nb").category == FEMALE


def test_reasons_are_the_documented_ones() -> None:
    assert REASONS == (
        "pronouns",
        "too_few",
        "no_margin",
        "no_gendered_pronouns",
        "no_table",
        "agreement",
        "conflict",
    )


# ---------------------------------------------------------------------------------------------
# combine


def test_combine_sums_counts_across_languages() -> None:
    parts = [
        infer_gender("Ella nació en Vic.", "es"),
        infer_gender("Ella va néixer a Vic.", "ca"),
        infer_gender("Elle est née à Vic.", "fr"),
    ]
    assert all(p.reason == "too_few" for p in parts)
    assert combine(parts) == PronounEvidence("es+ca+fr", 3, 0, FEMALE, "pronouns")


def test_combine_skips_languages_without_a_table() -> None:
    parts = [
        infer_gender("He was born in Turku. His father ... him.", "en"),
        infer_gender("Hän syntyi Turussa.", "fi"),
        infer_gender("هو", "ar"),
    ]
    assert combine(parts) == PronounEvidence("en", 0, 3, MALE, "pronouns")


def test_combine_decides_on_the_sums_with_its_own_thresholds() -> None:
    parts = [infer_gender("she she he", "en"), infer_gender("elle elle il", "fr")]
    assert combine(parts) == PronounEvidence("en+fr", 4, 2, FEMALE, "pronouns")
    assert combine(parts, margin=3.0).reason == "no_margin"
    assert combine(parts, min_count=5).reason == "too_few"


def test_combine_without_usable_evidence() -> None:
    assert combine([]) == PronounEvidence("", 0, 0, UNKNOWN, "too_few")
    only_fi = [infer_gender("Hän", "fi"), infer_gender("Hän", "et")]
    assert combine(only_fi) == PronounEvidence("fi+et", 0, 0, UNKNOWN, "no_gendered_pronouns")
    assert combine([infer_gender("x", "ar")]).reason == "no_table"
    tie = [infer_gender("she he", "en"), infer_gender("elle il", "fr")]
    assert combine(tie) == PronounEvidence("en+fr", 2, 2, UNKNOWN, "too_few")


# ---------------------------------------------------------------------------------------------
# Real Wikipedia biographies (../shared/data)

ENWIKI = "wikipedia-dumps/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
GOLD = Path(__file__).resolve().parents[1] / "benchmarks" / "pronoun_gold.json"


def test_enwiki_dump_biographies(shared_data: Path) -> None:
    """The 11 full biographies of the real enwiki excerpt: every decided one is right, and at
    least 90% are decided (measured: 11 of 11, Ayn Rand 249f/24m, the closest call)."""
    truth = {p["title"]: p["gender"] for p in json.loads(GOLD.read_text())["enwiki_dump"]["people"]}
    assert len(truth) == 11 and list(truth.values()).count(FEMALE) == 1
    results = {
        page.title: infer_gender(wikitext_to_text(page.wikitext), "en")
        for page in iter_pages(shared_data / ENWIKI, titles=truth)
    }
    assert set(results) == set(truth)
    decided = {t: ev for t, ev in results.items() if ev.category != UNKNOWN}
    assert all(ev.category == truth[t] for t, ev in decided.items()), decided
    assert len(decided) / len(truth) >= 0.9


def test_wikitext_biographies(shared_data: Path) -> None:
    """The single-person biographies of ../shared/data/wikitext (en, de, af): no decided one is
    wrong (measured: 20 of 22 decided; Britt Morgan 1f and Jerry Mumphrey 2m are too short)."""
    people = json.loads(GOLD.read_text())["wikitext"]["people"]
    wrong, decided = [], 0
    for person in people:
        wikitext = (shared_data / "wikitext" / person["file"]).read_text(encoding="utf-8")
        ev = infer_gender(wikitext_to_text(wikitext), person["lang"])
        if ev.category != UNKNOWN:
            decided += 1
            if ev.category != person["gender"]:
                wrong.append((person["file"], ev))
    assert not wrong
    assert decided >= 0.85 * len(people)


GENEVAL_LANGS = ["es", "fr", "de", "it", "pt", "ru"]


@pytest.mark.parametrize("lang", GENEVAL_LANGS)
def test_mt_geneval_sentences(shared_data: Path, lang: str) -> None:
    """MT-GenEval dev, each translated sentence alone (min_count=1): the table picks the gender
    of the set (feminine/masculine) for at least 97% of the sentences it decides (measured:
    es 99.0, fr 99.4, de 97.2, it 100, pt 99.7, ru 99.2)."""
    folder = shared_data / "mt-geneval-dev" / "sentences-dev"
    decided = correct = 0
    for gender_set, truth in (("feminine", FEMALE), ("masculine", MALE)):
        path = folder / f"geneval-sentences-{gender_set}-dev.en_{lang}.{lang}"
        for line in path.read_text(encoding="utf-8").splitlines():
            ev = infer_gender(line, lang, min_count=1)
            if ev.category != UNKNOWN:
                decided += 1
                correct += ev.category == truth
    assert decided >= 240  # Italian, the most pro-drop, decides 12.6% of 2,400
    assert correct / decided >= 0.97
