"""``occbio align --explain DOC``: one document's candidate pairs, their scores, their fate.

For a user choosing a threshold, or wondering why a sentence they expected is missing: the
document is scored exactly as the align stage scores it (same encoder, cache, background
samples, pool correction). A long document has hundreds of candidate pairs (over 1,100 lines
for the sample's first biography), so what is printed by default is a summary of some 30
lines: the tuples kept and dropped by reason, per language pair the candidates by fate, the
kept tuples nearest the rule, the dropped tuples nearest to passing it (each naming the score
that failed it: a tuple falls on its weakest language, which need not be the pair listed) and
each pair's best candidates that were not kept. ``--full`` adds the table: every candidate
pair with its cosine, within-document margin and margin score, and the reason it was kept or
dropped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from occbio.align.aligned_tuples import AlignedTuple
from occbio.align.cache import EmbeddingCache
from occbio.align.evidence import pair_evidence
from occbio.align.filters import Acceptance
from occbio.align.margin import mine_pairs, score_candidates
from occbio.align.pipeline import block_denominators, doc_tuples, pool_offsets, reject_reason
from occbio.align.selection import (
    choose_floor,
    evidence_factors_of,
    mined_probabilities,
    probability_model,
    with_probability,
)
from occbio.config import RunConfig
from occbio.io.jsonl import read_jsonl
from occbio.review.calibration import reviewed_model
from occbio.run import RunDir
from occbio.stages.align import STAGE, acceptance_rule, align_inputs, encoder_for
from occbio.stages.align_mining import EMBEDDINGS_DIR, MINED_FILE, backgrounds_for

__all__ = ["explain"]


def _short(text: str, width: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


#: How many tuples and candidates the summary shows (the rest: ``--full``).
_KEPT_SHOWN, _DROPPED_SHOWN, _CANDIDATES_SHOWN = 3, 4, 4


def explain(
    cfg: RunConfig, doc_id: str, *, input_path: Path | None = None, full: bool = False
) -> str:
    """A readable report of document ``doc_id``'s candidate pairs (see the module docstring):
    the summary, and with ``full`` every candidate pair."""
    run = RunDir(cfg.out_dir)
    docs, inputs = align_inputs(cfg, run, input_path, Counter())
    doc = next((d for d in docs.iter_from(0) if d.doc == doc_id), None)
    if doc is None:
        return f"explain: no document {doc_id!r} in the run's input"
    encoder = encoder_for(cfg)
    rule = _with_floor(acceptance_rule(cfg, encoder), cfg, run, encoder)
    pivot, langs = cfg.pivot, cfg.langs
    missing = [lang for lang in langs if not doc.sentences.get(lang)]
    head = ", ".join(f"{lang} {len(doc.sentences.get(lang, []))}" for lang in langs)
    lines = [f"{doc_id}: sentences {head}"]
    if missing:
        return "\n".join([*lines, f"  no sentence in {', '.join(missing)}: nothing to align"])
    a = cfg.align
    lines.append(
        f"  {encoder.name}, {a.margin} margin, {a.scope} scope, k={a.k}, mode {a.mode}; "
        f"kept when {rule.describe()}"
        + (f"; length filter {a.max_length_ratio} or +{a.length_slack}" if a.length_filter else "")
    )
    vectors = {}
    for lang in langs:
        cache = EmbeddingCache(run.path / EMBEDDINGS_DIR, encoder.name, lang, encoder.dim)
        vectors[lang], _ = cache.embed(
            doc.sentences[lang], lambda batch, lang=lang: encoder.encode(batch, lang)
        )
    backgrounds = None
    if a.scope == "language":
        backgrounds = backgrounds_for(cfg, run, encoder, docs, inputs, Counter())
    offsets = pool_offsets(backgrounds, langs, pivot, encoder, a)
    per_lang = block_denominators(
        {lang: [v] for lang, v in vectors.items()}, [doc_id], backgrounds, pivot=pivot, k=a.k
    )
    denominators = {lang: (d[0][0], d[1][0]) for lang, d in per_lang.items()}
    record = run.stage_record(STAGE)
    factors = record.get("length_factors", {})
    model = reviewed_model(run.path, probability_model(a, encoder))[0]
    ev_factors = record.get("evidence_factors") or {}
    if model is not None and rule.min_prob is not None:
        lines.append(
            "  P(parallel): the model over the score, the numbers both sentences carry "
            "(shared/in either) and the length deviation (standard deviations from the "
            "language pair's usual ratio); a tuple's is its weakest pair's"
        )
    verdict = {}  # pivot sentence (the user's index) -> (tuple indices, verdict)
    tuple_counts: Counter[str] = Counter()
    judged: list[tuple[AlignedTuple, str]] = []
    for t in doc_tuples(
        doc, vectors, denominators, pivot=pivot, langs=langs, cfg=a, offsets=offsets
    ):
        with_probability(t, pivot=pivot, model=model, factors=ev_factors)
        why = reject_reason(t, rule=rule, pivot=pivot, cfg=a, factors=factors)
        tuple_counts[why or "kept"] += 1
        verdict[t.idx[pivot]] = (t.idx, _detail(why, t, rule) if why else "KEPT")
        judged.append((t, verdict[t.idx[pivot]][1]))
    summary = [
        f"  {sum(tuple_counts.values())} tuples aligned in every language: "
        + _counts(tuple_counts, first="kept")
    ]
    details = []
    missed: dict[str, list[str]] = {}  # each pair's best candidates not kept, best first
    per_pair = max(1, _CANDIDATES_SHOWN // max(1, len(langs) - 1))
    rows = 0
    for lang in langs:
        if lang == pivot:
            continue
        x_den, y_den = denominators.get(lang, (None, None))
        cand = score_candidates(vectors[pivot], vectors[lang], k=a.k, margin=a.margin,
                                x_den=x_den, y_den=y_den)  # fmt: skip
        chosen = {
            (p.src, p.trg)
            for p in mine_pairs(vectors[pivot], vectors[lang], k=a.k, margin=a.margin,
                                mode=a.mode, threshold=-np.inf, x_den=x_den, y_den=y_den)
        }  # fmt: skip
        details.append(f"\n  {pivot}-{lang} candidate pairs (best score first; pool correction "
                       f"-{offsets.get(lang, 0.0):.4f}):")  # fmt: skip
        evidence_head = "  numbers  length      P" if model is not None else ""
        details.append(f"  {pivot:>4} {lang:>4}    cos  doc-margin  score{evidence_head}  verdict")
        seen = set()
        fates: Counter[str] = Counter()
        for i in np.argsort(-cand.score, kind="stable"):
            src, trg = int(cand.src[i]), int(cand.trg[i])
            if (src, trg) in seen:
                continue
            seen.add((src, trg))
            rows += 1
            if (src, trg) not in chosen:
                why = f"not retrieved ({a.mode}: a better pair took one side)"
            elif doc.source_index(pivot, src) not in verdict:
                why = "not aligned in every language"
            else:
                idx, why = verdict[doc.source_index(pivot, src)]
                if idx[lang] != doc.source_index(lang, trg):  # another target of it won
                    why = "not retrieved"
            fates[_fate(why)] += 1
            score = float(cand.score[i]) - offsets.get(lang, 0.0)
            if why != "KEPT" and len(missed.get(lang, [])) < per_pair:
                x, y = doc.sentences[pivot][src], doc.sentences[lang][trg]
                missed.setdefault(lang, []).append(
                    f"    {pivot}-{lang} {doc.source_index(pivot, src):>4} "
                    f"{doc.source_index(lang, trg):>4}  score {score:.3f}  {why}\n"
                    f"{'':>16}{_short(x, 36)} | {_short(y, 36)}"
                )
            evidence = ""
            if model is not None:
                x, y = doc.sentences[pivot][src], doc.sentences[lang][trg]
                ev = pair_evidence(x, y, ev_factors.get(lang, 1.0))
                numbers = f"{ev.numbers_shared}/{ev.numbers_total}"
                evidence = (f"  {numbers:>7}  {ev.length_deviation:>6.2f}  "
                            f"{model.probability(score, ev):.3f}")  # fmt: skip
            details.append(
                f"  {doc.source_index(pivot, src):>4} {doc.source_index(lang, trg):>4}  "
                f"{cand.cos[i]:.3f}  {cand.doc_score[i]:>10.3f}  {score:.3f}{evidence}  {why}"
            )
            details.append(f"{'':>13}{pivot}: {_short(doc.sentences[pivot][src])}")
            details.append(f"{'':>13}{lang}: {_short(doc.sentences[lang][trg])}")
        summary.append(
            f"  {pivot}-{lang}: {len(seen)} candidate pairs: " + _counts(fates, first="kept")
        )
    if full:
        return "\n".join([*lines, *summary, *details])
    closest = _closest(judged, langs, pivot, rule)
    if missed:
        closest += ["", "  the best candidate pairs not kept, per language pair:"]
        closest += [line for lang in langs for line in missed.get(lang, [])]
    more = f"  every candidate pair with its scores and verdict ({rows} rows): add --full"
    return "\n".join([*lines, *summary, *closest, "", more])


def _with_floor(rule: Acceptance, cfg: RunConfig, run: RunDir, encoder: object) -> Acceptance:
    """A target precision's floor: the one the run's align stage chose for it, else chosen
    from the run's mined tuples as that stage would; without either, no floor (a note says)."""
    if rule.target_precision is None:
        return rule
    record = run.stage_record(STAGE)
    if record.get("target_precision") == rule.target_precision and record.get("min_prob"):
        return replace(rule, min_prob=record["min_prob"])
    mined = run.path / MINED_FILE
    model = reviewed_model(run.path, probability_model(cfg.align, encoder))[0]
    if not mined.is_file() or model is None:
        return rule
    factors = evidence_factors_of(read_jsonl(mined, AlignedTuple), pivot=cfg.pivot, model=model)
    tuples = read_jsonl(mined, AlignedTuple)
    probs = mined_probabilities(tuples, pivot=cfg.pivot, model=model, factors=factors)
    return choose_floor(rule, probs)[0]


def _strength(t: AlignedTuple, rule: Acceptance) -> float:
    """How well a tuple does under the rule: its probability under a probability rule, else
    its weakest score (what a threshold compares)."""
    if rule.min_prob is not None and t.prob is not None:
        return t.prob
    return min(t.score.values()) if t.score else float("-inf")


def _closest(
    judged: list[tuple[AlignedTuple, str]], langs: list[str], pivot: str, rule: Acceptance
) -> list[str]:
    """The kept tuples nearest the rule (weakest first) and the dropped ones nearest to
    passing it (strongest first), two lines each."""
    kept = sorted((t for t, why in judged if why == "KEPT"), key=lambda t: _strength(t, rule))
    dropped = sorted(
        ((t, why) for t, why in judged if why != "KEPT"), key=lambda tw: -_strength(tw[0], rule)
    )
    out = []
    for title, chosen, total in (
        ("kept tuples nearest the rule", [(t, "KEPT") for t in kept[:_KEPT_SHOWN]], len(kept)),
        ("dropped tuples nearest to passing", dropped[:_DROPPED_SHOWN], len(dropped)),
    ):
        if not chosen:
            continue
        out += ["", f"  {title} ({len(chosen)} of {total}):"]
        for t, why in chosen:
            where = " ".join(f"{lang} {t.idx[lang]}" for lang in langs if lang in t.idx)
            scores = " ".join(f"{lang} {s:.3f}" for lang, s in t.score.items())
            prob = f"  P {t.prob:.3f}" if t.prob is not None else ""
            out.append(f"    {where}  scores {scores}{prob}  {why}")
            out.append(f"      {pivot}: {_short(t.text.get(pivot, ''), 72)}")
    return out


def _detail(reason: str, t: AlignedTuple, rule: Acceptance) -> str:
    """A dropped tuple's reason with the scores that failed, e.g. ``below_threshold: ca
    score 0.990 < 1.010``: a tuple falls on its lowest language, not always the one listed."""
    if reason == "below_threshold" and rule.threshold is not None:
        failed = [f"{x} score {s:.3f}" for x, s in t.score.items() if s < rule.threshold]
        return f"{reason}: {', '.join(failed)} < {rule.threshold:.3f}"
    if reason == "below_min_prob" and rule.min_prob is not None and t.prob is not None:
        return f"{reason}: P(parallel) {t.prob:.3f} < {rule.min_prob:.4g}"
    if reason == "below_min_cos" and rule.min_cos is not None:
        failed = [f"{x} cos {c:.3f}" for x, c in t.cos.items() if c < rule.min_cos]
        return f"{reason}: {', '.join(failed)} < {rule.min_cos:.2f}"
    return reason


def _fate(verdict: str) -> str:
    """A row's verdict without its detail: what the summary counts."""
    return "kept" if verdict == "KEPT" else verdict.split(" (")[0].split(":")[0]


def _counts(counts: Counter[str], *, first: str) -> str:
    """``12 kept, 5 not retrieved, 2 below_threshold``: ``first`` first (even at 0), then
    the others, most common first."""
    rest = [(n, why) for why, n in counts.most_common() if why != first]
    return ", ".join(f"{n} {why}" for n, why in [(counts[first], first), *rest])
