"""GENDER-GAP lexicon counts (occbio.audit.lexicon, .tokenize, .report).

The small lexicons and lines are written for these tests, with their counts worked out by
hand next to them. The last tests use the shipped lexicon on real NTREX-128 text
(../shared/data) and are skipped without it.
"""

from __future__ import annotations

import csv
import doctest
import io
import json
import math
import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from occbio.audit import lexicon as lexicon_module
from occbio.audit import tokenize as tokenize_module
from occbio.audit.lexicon import (
    Lexicon,
    LexiconCounter,
    LexiconResult,
    LexiconUnavailable,
    audit_lines,
    available_languages,
    load_lexicon,
    merge_results,
    resolve_lang,
)
from occbio.audit.report import format_csv, format_json, format_latex, format_table
from occbio.audit.tokenize import tokenize

# "spouse" stands in all three classes: it counts in each.
HAND = Lexicon(
    "eng",
    {
        "feminine": ["woman", "women", "mother", "spouse"],
        "masculine": ["man", "men", "father", "spouse"],
        "unspecified": ["person", "people", "spouse"],
    },
)

HAND_LINES = [
    # the woman , her mother and a man .        9 words: fem 2 (woman, mother), masc 1
    "The Woman, her MOTHER and a man.",
    # people 's spouse - to - be !              8 words: unsp 2, fem 1, masc 1 (spouse: both)
    "People's spouse-to-be!",
    # no match here .                           4 words
    "No match here.",
    # blank: not a line
    "   ",
    # men ( and women ) wait                    6 words: masc 1, fem 1
    "Men (and women) wait",
]
#: The per-word (feminine, masculine) indicators of HAND_LINES, every word in order.
HAND_INDICATORS = (
    [(0, 0), (1, 0), (0, 0), (0, 0), (1, 0), (0, 0), (0, 0), (0, 1), (0, 0)]
    + [(0, 0), (0, 0), (1, 1), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
    + [(0, 0)] * 4
    + [(0, 1), (0, 0), (0, 0), (1, 0), (0, 0), (0, 0)]
)


def direct_ste(indicators: list[tuple[int, int]]) -> float:
    """Standard error of the mean of d = f - m, percentage points, straight from the list."""
    d = [f - m for f, m in indicators]
    return 100 * statistics.stdev(d) / math.sqrt(len(d))


def test_hand_counts() -> None:
    result = audit_lines(HAND_LINES, HAND)
    assert result.lang == "eng"
    assert (result.lines, result.matched_lines, result.words) == (4, 3, 27)
    assert (result.feminine_count, result.masculine_count, result.unspecified_count) == (4, 3, 2)
    assert result.both_count == 1
    assert result.feminine == pytest.approx(100 * 4 / 27)
    assert result.masculine == pytest.approx(100 * 3 / 27)
    assert result.unspecified == pytest.approx(100 * 2 / 27)
    assert result.coverage == pytest.approx(75.0)
    assert result.gap == pytest.approx(100 * 1 / 27)
    assert len(HAND_INDICATORS) == result.words
    assert sum(f for f, _ in HAND_INDICATORS) == result.feminine_count
    assert sum(m for _, m in HAND_INDICATORS) == result.masculine_count
    assert result.ste == pytest.approx(direct_ste(HAND_INDICATORS))
    assert result.skewed is (result.gap > 2 * result.ste)
    assert result.skewed is False


def test_per_line_counts_case_and_punctuation() -> None:
    assert HAND.words("The Woman, her MOTHER and a man.") == [
        "the",
        "woman",
        ",",
        "her",
        "mother",
        "and",
        "a",
        "man",
        ".",
    ]
    counts = HAND.count("The Woman, her MOTHER and a man.")
    assert (counts.words, counts.feminine, counts.masculine, counts.unspecified) == (9, 2, 1, 0)
    assert HAND.count("spouse").matched and not HAND.count("spouses").matched
    # a form in several classes counts in each
    assert HAND.count("Spouse!")[1:] == (1, 1, 1)
    assert HAND.matches("The spouse.") == [("spouse", ("feminine", "masculine", "unspecified"))]


def test_form_in_two_classes_in_the_shipped_lexicon() -> None:
    spa = load_lexicon("es")
    assert "abuelo" in spa.forms["masculine"] and "abu" in spa.forms["feminine"]
    counts = spa.count("¡Mi abu, la abuela!")
    assert (counts.feminine, counts.masculine, counts.unspecified) == (2, 1, 0)


def test_multi_word_and_hyphenated_forms() -> None:
    fra = Lexicon(
        "fra",
        {"feminine": ["grand-mère", "ancienne combattante "], "masculine": ["ancien combattant"]},
    )
    line = "Une ancienne combattante et sa Grand-Mère, l'ancien combattant."
    # une ancienne combattante et sa grand-mère , l' ancien combattant .  (11 words)
    counts = fra.count(line)
    assert (counts.words, counts.feminine, counts.masculine) == (11, 2, 1)
    assert [form for form, _ in fra.matches(line)] == [
        "ancienne combattante",
        "grand-mère",
        "ancien combattant",
    ]


def test_scripts_without_spaces_match_character_sequences() -> None:
    cmn = Lexicon("cmn", {"feminine": ["女儿", "女儿们"], "masculine": ["儿子"]})
    counts = cmn.count("我的女儿们和儿子。")
    # 9 characters; the longest form at a position wins (女儿们, not 女儿 then 们)
    assert (counts.words, counts.feminine, counts.masculine) == (9, 1, 1)
    assert [form for form, _ in cmn.matches("我的女儿们和儿子。")] == ["女儿们", "儿子"]


def test_tokenizer_rules() -> None:
    assert tokenize("Women’s rights don't wait, the U.S. said.", "eng") == [
        "women",
        "'s",
        "rights",
        "do",
        "n't",
        "wait",
        ",",
        "the",
        "u.s.",
        "said",
        ".",
    ]
    assert tokenize("L’homme et 1,000 grands-mères...", "fra") == [
        "l'",
        "homme",
        "et",
        "1,000",
        "grands-mères",
        "...",
    ]
    assert tokenize("mamma's", "nld") == ["mamma's"]
    assert tokenize("İSTANBUL'da KIZ", "tur") == ["istanbul'da", "kız"]
    assert tokenize("a\u200bb mo\u00adther", "eng") == ["a", "b", "mother"]
    assert tokenize("", "eng") == []


def test_doctests() -> None:
    for module in (tokenize_module, lexicon_module):
        failures, _ = doctest.testmod(module)
        assert failures == 0, module.__name__


def test_streaming_counter_equals_batch() -> None:
    counter = LexiconCounter(HAND)
    per_line = [counter.add(line) for line in HAND_LINES]
    streamed = counter.result()
    assert streamed == audit_lines(iter(HAND_LINES), HAND)
    assert streamed.words == sum(c.words for c in per_line)
    assert streamed.feminine_count == sum(c.feminine for c in per_line)
    # result() is a snapshot: counting goes on after it
    counter.add("a woman")
    assert counter.result().feminine_count == streamed.feminine_count + 1


def test_merging_equals_auditing_the_concatenation() -> None:
    whole = audit_lines(HAND_LINES, HAND)
    for cut in range(len(HAND_LINES) + 1):
        first = audit_lines(HAND_LINES[:cut], HAND)
        second = audit_lines(HAND_LINES[cut:], HAND)
        assert first + second == whole
        assert merge_results([first, second]) == whole
        assert LexiconCounter(HAND).update(HAND_LINES[:cut]).merge(second).result() == whole
    assert LexiconResult.from_dict(json.loads(json.dumps(whole.to_dict()))) == whole
    assert merge_results([]) == LexiconResult(lang="")


def test_merging_languages_names_both() -> None:
    eng = audit_lines(["a woman"], "en")
    spa = audit_lines(["una mujer"], "es")
    both = eng + spa
    assert both.lang == "en+es"
    assert (both.words, both.feminine_count, both.lines) == (4, 2, 2)
    assert merge_results([eng, spa], lang="all").lang == "all"


VOCABULARY = ["woman", "Men", "spouse", "people", "the", "a", ",", ".", "dog", "MOTHER", "x-y"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(VOCABULARY), max_size=12).map(" ".join), max_size=15),
    st.integers(min_value=0, max_value=15),
)
def test_merge_and_ste_properties(lines: list[str], cut: int) -> None:
    whole = audit_lines(lines, HAND)
    assert audit_lines(lines[:cut], HAND) + audit_lines(lines[cut:], HAND) == whole
    indicators = []
    for line in lines:
        for word in HAND.words(line):
            indicators.append(
                (int(word in HAND.forms["feminine"]), int(word in HAND.forms["masculine"]))
            )
    assert len(indicators) == whole.words
    if whole.words >= 2:
        assert whole.ste == pytest.approx(direct_ste(indicators), abs=1e-12)


def test_unknown_language() -> None:
    with pytest.raises(LexiconUnavailable) as info:
        load_lexicon("xx")
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "'xx'" in message and "spa (es)" in message and "yue" in message
    for code in ("zh-min-nan", "be-tarask", "", "no"):
        with pytest.raises(LexiconUnavailable):
            resolve_lang(code)


def test_language_codes() -> None:
    assert len(available_languages()) == 55
    assert load_lexicon("es") is load_lexicon("spa") is load_lexicon("ES")
    assert [resolve_lang(c) for c in ("ca", "cat", "pt-BR", "zh_Hans", "zh-yue", "sw", "lv")] == [
        "cat",
        "cat",
        "por",
        "cmn",
        "yue",
        "swh",
        "lvs",
    ]


def test_every_shipped_lexicon_loads() -> None:
    for code in available_languages():
        lex = load_lexicon(code)
        assert lex.forms["feminine"] and lex.forms["masculine"], code
        for forms in lex.forms.values():
            assert all(f == f.strip().lower() and f not in ("", "-") for f in forms), code
    data = Path(lexicon_module.__file__).parents[1] / "data" / "gender_gap"
    assert "Attribution-ShareAlike 4.0" in (data / "LICENSE").read_text(encoding="utf-8")
    assert "CC BY-SA 4.0" in (data / "README.md").read_text(encoding="utf-8")


def test_report_formats() -> None:
    results = [audit_lines(HAND_LINES, HAND), audit_lines(["una mujer y un hombre"], "es")]
    table = format_table(results)
    assert table.splitlines()[0].split()[:3] == ["lang", "lines", "words"]
    assert "eng" in table and "es" in table
    records = [json.loads(line) for line in format_json(results).splitlines()]
    assert [r["lang"] for r in records] == ["eng", "es"]
    for record in records:
        for key in (
            "lang",
            "words",
            "feminine",
            "masculine",
            "unspecified",
            "coverage",
            "gap",
            "ste",
        ):
            assert key in record
    assert records[0]["feminine"] == pytest.approx(100 * 4 / 27, abs=1e-6)
    rows = list(csv.DictReader(io.StringIO(format_csv(results))))
    assert [r["lang"] for r in rows] == ["eng", "es"] and rows[1]["words"] == "5"
    assert format_csv([]).startswith("lang,words,")
    latex = format_latex(results, caption="A & B")
    assert "\\begin{tabular}" in latex and "A \\& B" in latex


NTREX_LANG = "spa"


def test_ntrex_reproduction(shared_data: Path) -> None:
    """The paper's Spanish NTREX figures within the bar: class scores +/-0.01 pp, coverage
    +/-1 point (the whole table: benchmarks/gender_gap_ntrex.py)."""
    folder = shared_data / "ntrex-128"
    with (folder / "gender-gap-reference.tsv").open(encoding="utf-8") as handle:
        ref = next(r for r in csv.DictReader(handle, delimiter="\t") if r["lang"] == NTREX_LANG)
    with (folder / f"newstest2019-ref.{NTREX_LANG}.txt").open(encoding="utf-8") as handle:
        ours = audit_lines(handle, NTREX_LANG)
    assert ours.lines == 1997
    for name in ("feminine", "masculine", "unspecified"):
        assert getattr(ours, name) == pytest.approx(float(ref[f"{name}_pct"]), abs=0.01), name
    assert ours.coverage == pytest.approx(float(ref["matched_sentences_pct"]), abs=1.0)
    assert ours.gap == pytest.approx(float(ref["gap_fem_masc"]), abs=0.02)
    # the paper prints ste as a fraction; ours is in percentage points
    assert ours.ste == pytest.approx(100 * float(ref["ste"]), abs=0.005)
    assert ours.skewed
