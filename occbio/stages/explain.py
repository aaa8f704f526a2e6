"""``occbio align --explain DOC``: every candidate pair of one document, its scores, its fate.

For a user choosing a threshold, or wondering why a sentence they expected is missing: the
document is scored exactly as the align stage scores it (same encoder, cache, background
samples, pool correction), and each candidate pair is listed with its cosine, within-document
margin and margin score, and the reason it was kept or dropped.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from occbio.align.cache import EmbeddingCache
from occbio.align.margin import mine_pairs, score_candidates
from occbio.align.pipeline import block_denominators, doc_tuples, pool_offsets, reject_reason
from occbio.config import RunConfig
from occbio.run import RunDir
from occbio.stages.align import STAGE, acceptance_rule, align_inputs, encoder_for
from occbio.stages.align_mining import EMBEDDINGS_DIR, backgrounds_for

__all__ = ["explain"]


def _short(text: str, width: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def explain(cfg: RunConfig, doc_id: str, *, input_path: Path | None = None) -> str:
    """A readable report of document ``doc_id``'s candidate pairs (see the module docstring)."""
    run = RunDir(cfg.out_dir)
    docs, inputs = align_inputs(cfg, run, input_path, Counter())
    doc = next((d for d in docs.iter_from(0) if d.doc == doc_id), None)
    if doc is None:
        return f"explain: no document {doc_id!r} in the run's input"
    encoder = encoder_for(cfg)
    rule = acceptance_rule(cfg, encoder)
    pivot, langs = cfg.pivot, cfg.langs
    missing = [lang for lang in langs if not doc.sentences.get(lang)]
    head = ", ".join(f"{lang} {len(doc.sentences.get(lang, []))}" for lang in langs)
    lines = [f"{doc_id}: sentences {head}"]
    if missing:
        return "\n".join([*lines, f"  no sentence in {', '.join(missing)}: nothing to align"])
    a = cfg.align
    lines.append(
        f"  {encoder.name}, {a.margin} margin, {a.scope} scope, k={a.k}, mode {a.mode}; "
        f"kept when every score >= {rule.threshold:.3f}"
        + ("" if rule.min_cos is None else f" and every cosine >= {rule.min_cos:.2f}")
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
    factors = run.stage_record(STAGE).get("length_factors", {})
    verdict = {}  # pivot sentence (the user's index) -> (tuple indices, verdict)
    for t in doc_tuples(
        doc, vectors, denominators, pivot=pivot, langs=langs, cfg=a, offsets=offsets
    ):
        why = reject_reason(t, rule=rule, pivot=pivot, cfg=a, factors=factors)
        verdict[t.idx[pivot]] = (t.idx, why or "KEPT")
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
        lines.append(f"\n  {pivot}-{lang} candidate pairs (best score first; pool correction "
                     f"-{offsets.get(lang, 0.0):.4f}):")  # fmt: skip
        lines.append(f"  {pivot:>4} {lang:>4}    cos  doc-margin  score  verdict")
        seen = set()
        for i in np.argsort(-cand.score, kind="stable"):
            src, trg = int(cand.src[i]), int(cand.trg[i])
            if (src, trg) in seen:
                continue
            seen.add((src, trg))
            if (src, trg) not in chosen:
                why = f"not retrieved ({a.mode}: a better pair took one side)"
            elif doc.source_index(pivot, src) not in verdict:
                why = "not aligned in every language"
            else:
                idx, why = verdict[doc.source_index(pivot, src)]
                if idx[lang] != doc.source_index(lang, trg):  # another target of it won
                    why = "not retrieved"
            score = float(cand.score[i]) - offsets.get(lang, 0.0)
            lines.append(
                f"  {doc.source_index(pivot, src):>4} {doc.source_index(lang, trg):>4}  "
                f"{cand.cos[i]:.3f}  {cand.doc_score[i]:>10.3f}  {score:.3f}  {why}"
            )
            lines.append(f"{'':>13}{pivot}: {_short(doc.sentences[pivot][src])}")
            lines.append(f"{'':>13}{lang}: {_short(doc.sentences[lang][trg])}")
    return "\n".join(lines)
