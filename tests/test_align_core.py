"""Margin scoring, retrieval modes, pivot intersection and the length filter, on small
hand-computable inputs."""

from __future__ import annotations

import numpy as np
import pytest

from occbio.align.filters import Acceptance, estimate_length_factors, length_ok, text_length
from occbio.align.margin import knn, margin_retrieve, mine_pairs, score_candidates
from occbio.align.mine import mine_document

# x = the unit vectors e0, e1, e2, so cos(x_i, y_j) = y_j[i]: the similarity matrix is
#        y0     y1     y2
# x0   0.900  0.200  0.100
# x1   0.300  0.800  0.400
# x2   0.316  0.566  0.911
X = np.eye(3, dtype=np.float32)
Y = np.array(
    [[0.9, 0.3, np.sqrt(0.10)], [0.2, 0.8, np.sqrt(0.32)], [0.1, 0.4, np.sqrt(0.83)]],
    dtype=np.float32,
)
# k = 2. Mean of the 2 nearest:  x0 (0.9+0.2)/2 = 0.55      x1 (0.8+0.4)/2 = 0.60
#                                x2 (0.911+0.566)/2 = 0.73835
#                                y0 (0.9+0.316)/2 = 0.60811 y1 (0.8+0.566)/2 = 0.68284
#                                y2 (0.911+0.4)/2 = 0.65552
# ratio margin (i, j) = cos / ((mean_x_i + mean_y_j) / 2):
#   (0,0) 0.9 / 0.579057 = 1.55425   (1,1) 0.8 / 0.641421 = 1.24723
#   (2,2) 0.911 / 0.696936 = 1.30720  (0,1) 0.2 / 0.616421 = 0.32445
HAND_RATIO = {(0, 0): 1.55425, (1, 1): 1.24723, (2, 2): 1.30720, (0, 1): 0.32445}
# distance margin (0,0) = 0.9 - 0.579057 = 0.32094
HAND_DISTANCE = {(0, 0): 0.32094, (1, 1): 0.15858, (2, 2): 0.21411}


def _scores(margin: str) -> dict[tuple[int, int], float]:
    c = score_candidates(X, Y, k=2, margin=margin)  # type: ignore[arg-type]
    return {(int(s), int(t)): float(v) for s, t, v in zip(c.src, c.trg, c.score, strict=True)}


@pytest.mark.parametrize(("margin", "hand"), [("ratio", HAND_RATIO), ("distance", HAND_DISTANCE)])
def test_margin_scores_match_hand_computation(margin: str, hand: dict) -> None:
    scores = _scores(margin)
    for pair, expected in hand.items():
        assert scores[pair] == pytest.approx(expected, abs=1e-4), pair


def test_knn_caps_k_and_handles_empty_sides() -> None:
    sims, ids = knn(X, Y[:1], 4)
    assert sims.shape == (3, 1) and ids.tolist() == [[0], [0], [0]]
    assert knn(X, Y[:0], 4)[0].shape == (3, 0)
    assert knn(X[:0], Y, 4)[0].shape == (0, 3)
    assert mine_pairs(X, Y[:0], threshold=1.0) == []
    assert mine_pairs(X[:0], Y, threshold=1.0) == []


def test_one_sentence_documents_give_margin_one() -> None:
    """k = 1 on both sides: the margin of the only pair is cos / cos = 1 (never a crash)."""
    pairs = mine_pairs(X[:1], Y[:1], k=4, threshold=0.0)
    assert [p[:3] for p in pairs] == [(0, 0, pytest.approx(1.0))]
    assert mine_pairs(X[:1], Y[:1], k=4, threshold=1.01) == []


# Two sources that both prefer y0: forward keeps both, backward and max keep one per target.
A = np.array([[1.0, 0.0], [0.96, 0.28]], dtype=np.float32)  # cos(a0,a1) = 0.96
B = np.array([[0.99, 0.141], [0.0, 1.0]], dtype=np.float32)
B /= np.linalg.norm(B, axis=1, keepdims=True)


def test_retrieval_modes_differ_as_defined() -> None:
    fwd = mine_pairs(A, B, k=2, mode="fwd", threshold=0.0)
    bwd = mine_pairs(A, B, k=2, mode="bwd", threshold=0.0)
    both = mine_pairs(A, B, k=2, mode="intersect", threshold=0.0)
    greedy = mine_pairs(A, B, k=2, mode="max", threshold=0.0)
    assert [(p.src, p.trg) for p in fwd] == [(0, 0), (1, 0)]  # many-to-one allowed
    assert sorted(p.trg for p in bwd) == [0, 1]  # one per target
    assert len({p.trg for p in greedy}) == len(greedy)  # 1:1
    assert len({p.src for p in greedy}) == len(greedy)
    assert set(both) <= set(fwd)
    assert {(p.src, p.trg) for p in both} <= {(p.src, p.trg) for p in bwd}


@pytest.mark.parametrize("mode", ["max", "intersect", "fwd", "bwd"])
def test_every_mode_honours_the_threshold(mode: str) -> None:
    all_pairs = mine_pairs(X, Y, k=2, mode=mode, threshold=-1e9)  # type: ignore[arg-type]
    cut = 1.3
    kept = mine_pairs(X, Y, k=2, mode=mode, threshold=cut)  # type: ignore[arg-type]
    assert kept == [p for p in all_pairs if p[2] >= cut]
    assert all(p.score >= cut for p in kept)


def test_unknown_mode_and_margin_are_errors() -> None:
    with pytest.raises(ValueError, match="retrieval mode"):
        mine_pairs(X, Y, mode="best", threshold=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="margin"):
        mine_pairs(X, Y, margin="log", threshold=1.0)  # type: ignore[arg-type]


def test_margin_retrieve_is_forward_best() -> None:
    best, scores = margin_retrieve(X, Y, k=2)
    assert best.tolist() == [0, 1, 2]
    assert scores[0] == pytest.approx(HAND_RATIO[(0, 0)], abs=1e-4)
    assert margin_retrieve(X, Y[:0])[0].tolist() == [-1, -1, -1]


def test_pivot_intersection_keeps_sentences_aligned_everywhere() -> None:
    rng = np.random.default_rng(0)
    base = rng.normal(size=(5, 16)).astype(np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    noisy = base + 0.05 * rng.normal(size=base.shape).astype(np.float32)
    noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
    es = noisy[[2, 0, 1, 3, 4]]  # shuffled
    ca = noisy[[0, 1, 2, 3]]  # sentence 4 has no Catalan counterpart
    vectors = {"en": base, "es": es, "ca": ca}
    tuples = mine_document(vectors, pivot="en", langs=["en", "es", "ca"], threshold=1.0)
    assert [t.idx for t in tuples] == [
        {"en": 0, "es": 1, "ca": 0},
        {"en": 1, "es": 2, "ca": 1},
        {"en": 2, "es": 0, "ca": 2},
        {"en": 3, "es": 3, "ca": 3},
    ]
    assert all(set(t.score) == {"es", "ca"} for t in tuples)
    # a language missing from the document: no tuple at all
    assert (
        mine_document({"en": base, "es": es}, pivot="en", langs=["en", "es", "ca"], threshold=1.0)
        == []
    )
    pairs = mine_document({"en": base, "es": es}, pivot="en", langs=["en", "es"], threshold=1.0)
    assert len(pairs) == 5
    with pytest.raises(ValueError, match="pivot"):
        mine_document(vectors, pivot="fr", langs=["en", "es"], threshold=1.0)


def test_text_length_units() -> None:
    assert text_length("Ella nació en Girona.", "es") == 4
    assert text_length("彼女はジローナで生まれた。", "ja") == 13
    assert text_length("Ella nació", "es", "chars") == 9
    # every Unicode space is left out, as str.isspace() says: no-break, ideographic, U+2028
    odd = "a\u00a0b\u3000c\u2028d\te\x1cf g"
    assert text_length(odd, "en", "chars") == sum(not ch.isspace() for ch in odd) == 7


def test_length_filter_edges() -> None:
    def ok(texts: dict[str, str], **kw: object) -> bool:
        return length_ok(texts, pivot="en", unit="words", **kw)  # type: ignore[arg-type]

    five, six, seven = "a b c d e", "a b c d e f", "a b c d e f g"
    assert ok({"en": five, "es": six}, max_ratio=1.2)  # exactly 20 % longer
    assert not ok({"en": five, "es": seven}, max_ratio=1.2)
    assert ok({"en": five, "es": seven}, max_ratio=1.2, slack=2)  # 2 words longer: slack
    assert not ok({"en": "", "es": "uno"})
    assert ok({"en": "", "es": "uno"}, slack=1)
    assert ok({"en": "", "es": ""})  # nothing against nothing: no length to disagree on
    assert ok({"en": "only one"})
    assert length_ok(
        {"en": "a b c d e", "ja": "あいうえおかきくけこ"}, pivot="en", factors={"ja": 2.0}
    )
    assert not length_ok({"en": "a b c d e", "ja": "あいうえおかきくけこ"}, pivot="en")
    # the pivot against each language, never the longest of a tuple against its shortest:
    # es 20 % shorter and ca 20 % longer than en are both fine at 1.25
    ten = " ".join("abcdefghij")
    assert ok({"en": ten, "es": " ".join("abcdefgh"), "ca": " ".join("abcdefghijkl")},
              max_ratio=1.25)  # fmt: skip
    with pytest.raises(ValueError):
        ok({"en": "a"}, max_ratio=0.5)
    with pytest.raises(ValueError):
        ok({"en": "a"}, slack=-1)
    with pytest.raises(ValueError, match="pivot"):
        ok({"es": "a"})


def test_acceptance_rule() -> None:
    rule = Acceptance(1.05, min_cos=0.8)
    assert rule.reject_reason({"es": 1.06, "ca": 1.05}, {"es": 0.9, "ca": 0.8}) is None
    assert rule.reject_reason({"es": 1.06, "ca": 1.04}, {"es": 0.9, "ca": 0.9}) == (
        "below_threshold"
    )
    assert rule.reject_reason({"es": 1.2}, {"es": 0.79}) == "below_min_cos"
    assert Acceptance(1.05).reject_reason({"es": 1.2}, {"es": 0.1}) is None


def test_estimated_length_factors() -> None:
    tuples = [
        {"en": "a b c d", "es": "a b c d e"},
        {"en": "a b", "es": "a b c"},
        {"en": "", "es": "x"},
    ]
    factors = estimate_length_factors(tuples, pivot="en")
    assert factors == {"en": 1.0, "es": pytest.approx((1.25 + 1.5) / 2)}


def test_bwd_mode_keeps_the_best_pair_of_a_pivot_sentence() -> None:
    """In bwd mode two targets may pick one pivot sentence; the pivot keeps the better one."""
    en = np.eye(4, dtype=np.float32)[:3]
    es = np.array([[1, 0, 0, 0], [1, 0.2, 0, 0.6], [0, 1, 0, 0], [0, 0, 1, 0]], np.float32)
    es /= np.linalg.norm(es, axis=1, keepdims=True)
    pairs = mine_pairs(en, es, k=2, mode="bwd", threshold=0.0)
    best = max((p for p in pairs if p.src == 0), key=lambda p: p.score)
    tuples = mine_document(
        {"en": en, "es": es}, pivot="en", langs=["en", "es"], k=2, mode="bwd", threshold=0.0
    )
    assert tuples[0].idx == {"en": 0, "es": best.trg}
    assert tuples[0].score["es"] == pytest.approx(best.score)


def test_ratio_margin_of_an_unlike_sentence_is_not_huge() -> None:
    x = np.array([[1.0, 0.0]], np.float32)
    y = np.array([[0.0, 1.0], [-0.1, 0.995]], np.float32)
    assert all(p.score < 1.0 for p in mine_pairs(x, y, k=2, threshold=-1e9))
