"""The pure core of ``occbio evaluate``: the bootstrap over documents, the figures per subset
and the formats, on hand-made data whose answers are worked out here."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from occbio.evaluate import quality
from occbio.evaluate.bootstrap import interval, resample_weights, two_sided_p
from occbio.evaluate.evaluation import Data, Row, Settings, evaluate
from occbio.evaluate.quality import QualityError, QualityMetric, make_metrics, segment_statistics
from occbio.evaluate.report import format_rows

# --- the bootstrap ---------------------------------------------------------------------------


def test_each_resample_draws_every_stratum_at_its_own_size() -> None:
    strata = ["female"] * 3 + ["male"] * 5 + ["non-binary"]
    w = resample_weights(strata, 200, seed=1)
    assert w.shape == (200, 9)
    assert (w[:, :3].sum(axis=1) == 3).all()
    assert (w[:, 3:8].sum(axis=1) == 5).all()
    assert (w[:, 8] == 1).all()  # a stratum of one is always itself
    assert len({tuple(row) for row in w[:, :8]}) > 50  # and the others really vary


def test_the_same_seed_gives_the_same_resamples_and_another_does_not() -> None:
    strata = ["a", "b"] * 20
    assert (resample_weights(strata, 50, 7) == resample_weights(strata, 50, 7)).all()
    assert (resample_weights(strata, 50, 7) != resample_weights(strata, 50, 8)).any()


def test_interval_is_the_percentile_interval_without_nans() -> None:
    samples = np.array([*range(101), np.nan, np.nan], dtype=float)
    assert interval(samples) == pytest.approx((2.5, 97.5))
    assert all(math.isnan(x) for x in interval(np.array([np.nan])))


def test_two_sided_p() -> None:
    assert two_sided_p(np.array([1.0, 2.0, 3.0, 4.0])) == 0.0
    assert two_sided_p(np.array([-1.0, 1.0, 2.0, 3.0])) == 0.5
    assert two_sided_p(np.zeros(10)) == 1.0


# --- the figures -----------------------------------------------------------------------------

REFS = [
    "Ella es una ingeniera famosa.",  # d1 (female)
    "Nació en Lima.",  # d1
    "Ella fue directora del museo.",  # d2 (female)
    "Él es un ingeniero famoso.",  # d3 (male)
    "Él fue director del museo.",  # d4 (male)
]
COUNTERFACTUALS = [
    "Él es un ingeniero famoso.",
    "Nació en Lima.",  # nothing gendered: not judged
    "Él fue director del museo.",
    "Ella es una ingeniera famosa.",
    None,  # no confident counterfactual: not judged
]
#: a system that gets d2 wrong (masculine) and everything else right
WRONG_D2 = [REFS[0], REFS[1], "Él fue director del museo.", REFS[3], REFS[4]]


def _data(**systems: list[str]) -> Data:
    return Data(
        docs=["d1", "d1", "d2", "d3", "d4"],
        genders={"d1": "female", "d2": "female", "d3": "male", "d4": "male"},
        occupations={"d1": ["engineer"], "d2": ["curator"], "d3": ["engineer"], "d4": ["curator"]},
        references=REFS,
        systems=systems,
        counterfactuals=COUNTERFACTUALS,
    )


def _cells(rows: list[Row]) -> dict[tuple[str, str, str, str], Row]:
    return {(r.system, r.section, r.subset, r.metric): r for r in rows}


def test_gender_accuracy_per_subset_by_hand() -> None:
    result = evaluate(
        _data(ref=REFS, wrong=WRONG_D2), make_metrics(["chrF"], "es"), Settings(resamples=50)
    )
    cells = _cells(result.rows)
    # judged: seg 1 (d1), seg 3 (d2), seg 4 (d3); seg 2 has no gendered word, seg 5 no copy
    acc = cells[("wrong", "gender accuracy", "female", "accuracy")]
    assert (acc.value, acc.segments, acc.docs) == (50.0, 2, 2)
    assert cells[("wrong", "gender accuracy", "male", "accuracy")].value == 100.0
    assert cells[("wrong", "gender accuracy", "all", "accuracy")].value == pytest.approx(200 / 3)
    assert cells[("ref", "gender accuracy", "all", "accuracy")].value == 100.0
    gap = cells[("wrong", "gap", "female - male", "accuracy")]
    assert gap.value == -50.0
    # one male document was judged: it has no interval, so neither has the gap
    male = cells[("wrong", "gender accuracy", "male", "accuracy")]
    assert male.docs == 1 and math.isnan(male.low) and math.isnan(gap.low) and math.isnan(gap.p)
    female = cells[("wrong", "gender accuracy", "female", "accuracy")]
    assert 0.0 <= female.low <= female.value <= female.high <= 100.0
    assert cells[("ref", "gap", "female - male", "accuracy")].value == 0.0
    assert result.documents["wrong"]["d2"]["accuracy"] == 0.0
    assert "accuracy" not in result.documents["wrong"]["d4"]  # nothing judged there


def test_quality_per_subset_is_sacrebleus_corpus_score_of_its_lines() -> None:
    noisy = ["Ella es ingeniera.", "Nació Lima.", "Fue directora.", "Es un ingeniero.", "Él fue."]
    result = evaluate(
        _data(noisy=noisy), make_metrics(["BLEU", "chrF", "chrF++"], "es"), Settings(resamples=20)
    )
    cells = _cells(result.rows)
    subsets = {"all": [0, 1, 2, 3, 4], "female": [0, 1, 2], "male": [3, 4]}
    for subset, idx in subsets.items():
        hyps, refs = [noisy[i] for i in idx], [[REFS[i] for i in idx]]
        expected = {
            "BLEU": BLEU(trg_lang="es").corpus_score(hyps, refs).score,
            "chrF": CHRF().corpus_score(hyps, refs).score,
            "chrF++": CHRF(word_order=2).corpus_score(hyps, refs).score,
        }
        for metric, score in expected.items():
            assert cells[("noisy", "quality", subset, metric)].value == pytest.approx(score)
    assert result.documents["noisy"]["d1"]["chrF"] == pytest.approx(
        CHRF().corpus_score(noisy[:2], [REFS[:2]]).score
    )


def test_statistics_in_chunks_for_all_systems_are_sacrebleus_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """References cached once per chunk for every system, and chrF taken from chrF++'s
    character triplets: the same statistics as sacrebleu extracting each system alone, and
    the same signatures."""
    monkeypatch.setattr(quality, "REFERENCE_CHUNK", 2)  # 5 segments: chunks of 2, 2 and 1
    systems = {
        "noisy": ["Ella es ingeniera.", "Nació Lima.", "", "Es un ingeniero.", "Él fue."],
        "ref": REFS,
    }
    metrics = make_metrics(["BLEU", "chrF", "chrF++"], "es")
    stats = segment_statistics(metrics, systems, REFS)
    own = {"BLEU": BLEU(trg_lang="es"), "chrF": CHRF(), "chrF++": CHRF(word_order=2)}
    for metric in metrics:
        for name, hyps in systems.items():
            expected = own[metric.name]._extract_corpus_statistics(hyps, [REFS])
            assert stats[metric.name][name].tolist() == expected
        assert metric.signature() == str(own[metric.name].get_signature())


def test_occupations_below_the_minimum_are_not_subsets() -> None:
    rows = evaluate(_data(ref=REFS), make_metrics(["chrF"], "es"), Settings(min_docs=2)).rows
    subsets = {r.subset for r in rows if r.section == "quality"}
    assert subsets == {"all", "female", "male", "occupation: engineer", "occupation: curator"}
    rows = evaluate(_data(ref=REFS), make_metrics(["chrF"], "es"), Settings(min_docs=3)).rows
    assert {r.subset for r in rows if r.section == "quality"} == {"all", "female", "male"}


def test_systems_are_compared_on_the_same_resampled_documents() -> None:
    result = evaluate(
        _data(ref=REFS, same=list(REFS), wrong=WRONG_D2),
        make_metrics(["chrF"], "es"),
        Settings(resamples=100),
    )
    cells = _cells(result.rows)
    same = cells[("same - ref", "comparison", "all", "chrF")]
    # identical outputs: every paired resample differs by exactly 0
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0)
    wrong = cells[("wrong - ref", "comparison", "female", "chrF")]
    assert wrong.value < 0 and wrong.high <= 0
    assert ("wrong - ref", "comparison", "occupation: engineer", "chrF") not in cells


def test_contrastive_follows_the_source_only_when_both_translations_do() -> None:
    data = _data(ref=REFS, wrong=WRONG_D2)
    data.counterfactual_systems = {
        "ref": list(COUNTERFACTUALS),  # translates the counterfactual source perfectly
        # ignores the source's gender: the same masculine output for both sources of d2
        "wrong": [COUNTERFACTUALS[0], None, "Él fue director del museo.", REFS[3], None],
    }
    cells = _cells(evaluate(data, make_metrics(["chrF"], "es"), Settings(resamples=20)).rows)
    assert cells[("ref", "contrastive", "all", "follows source")].value == 100.0
    # judged: segs 1, 3, 4; seg 4 (d3): the wrong system's counterfactual output is the
    # masculine original, so it did not follow the feminine source either
    follows = cells[("wrong", "contrastive", "all", "follows source")]
    assert follows.value == pytest.approx(100 / 3) and follows.segments == 3


def test_the_same_seed_gives_the_same_intervals() -> None:
    n = 24  # documents of one segment each, translated with more or fewer words dropped
    words = "Ella fue la primera directora del museo de arte moderno de la ciudad".split()
    data = Data(
        docs=[f"d{i}" for i in range(n)],
        genders={f"d{i}": ("female", "male")[i % 2] for i in range(n)},
        occupations={},
        references=[" ".join(words)] * n,
        systems={"s": [" ".join(words[: 3 + i % 9]) for i in range(n)]},
    )

    def run(seed: int) -> list[Row]:
        settings = Settings(resamples=200, seed=seed)
        return evaluate(data, make_metrics(["chrF"], "es"), settings).rows

    a, b, c = run(3), run(3), run(4)
    assert a == b
    assert [r.value for r in a] == [r.value for r in c]
    assert [(r.low, r.high) for r in a] != [(r.low, r.high) for r in c]


def test_metric_errors_are_one_line() -> None:
    with pytest.raises(QualityError, match="unknown BLEU tokenizer"):
        QualityMetric("BLEU", "es", tokenize="nonsense")
    with pytest.raises(QualityError, match="unknown metric"):
        QualityMetric("METEOR", "es")


# --- the formats -----------------------------------------------------------------------------


def _rows() -> list[Row]:
    return [
        Row("sys_1", "quality", "all", "BLEU", 30.0, 28.0, 32.5, 4, 40),
        Row("sys_1", "quality", "occupation: R&D", "BLEU", 10.0, float("nan"), 12.0, 1, 3),
        Row("sys_1", "gap", "female - male", "BLEU", -2.0, -4.0, -0.5, None, None, 0.0004),
    ]


def test_table_shows_intervals_and_p() -> None:
    table = format_rows(_rows(), "table")
    assert "30.0 [28.0, 32.5]" in table and "4/40" in table
    assert "-2.0 [-4.0, -0.5] p<0.001" in table
    assert "10.0 [-, 12.0]" in table


def test_csv_json_and_latex() -> None:
    rows = list(csv.DictReader(io.StringIO(format_rows(_rows(), "csv"))))
    assert rows[0]["value"] == "30.0" and rows[1]["low"] == "" and rows[2]["docs"] == ""
    doc = json.loads(format_rows(_rows(), "json", {"tgt": "es"}))
    assert doc["tgt"] == "es"
    assert doc["results"]["sys_1"]["gap"]["female - male"]["BLEU"]["p"] == 0.0004
    assert doc["results"]["sys_1"]["quality"]["occupation: R&D"]["BLEU"]["low"] is None
    latex = format_rows(_rows(), "latex")
    assert r"\begin{tabular}" in latex and r"sys\_1" in latex and r"R\&D" in latex


# --- a shifted translation file ----------------------------------------------------------------

BIO = [
    "Marie Curie nació en Varsovia en 1867.",
    "Estudió física y matemáticas en la Sorbona de París.",
    "En 1903 recibió el Premio Nobel de Física junto a Pierre Curie.",
    "Fue la primera mujer en obtener una cátedra en la Sorbona.",
    "En 1911 ganó un segundo Premio Nobel, esta vez de Química.",
    "Descubrió el polonio y el radio con su marido.",
    "Durante la Primera Guerra Mundial organizó unidades de radiología móviles.",
    "Dirigió el Instituto del Radio de París desde 1914.",
    "Murió en 1934 en Passy, en los Alpes franceses.",
    "Sus restos reposan en el Panteón de París desde 1995.",
    "Su hija Irène Joliot-Curie también recibió el Premio Nobel.",
    "Escribió una biografía de su marido publicada en 1923.",
]


def test_a_file_shifted_by_a_line_is_caught_and_an_aligned_one_is_not() -> None:
    from occbio.evaluate.shift import shift_suspect

    # a weak system: every other word dropped, still lined up
    weak = [" ".join(s.split()[::2]) for s in BIO]
    assert shift_suspect(BIO, BIO) is None
    assert shift_suspect(weak, BIO) is None
    assert shift_suspect(["", *weak[:-1]], BIO) == -1  # a line inserted at the top
    assert shift_suspect([*weak[1:], ""], BIO) == 1  # the first line lost
    assert shift_suspect(BIO[:5], BIO[:5]) is None  # too few lines to tell
