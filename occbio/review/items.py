"""The review items of a run: one per segment and non-pivot language (an annotator of the pair
en-es judges whether the Spanish sentence translates the English one), with the person, the
neighbouring sentences for context and the alignment score, and a stratified, seeded sample of
them.

Items are read from the run's corpus (``corpus/corpus.jsonl``: what is published is what gets
checked). Every item id carries the run's id, the first 12 hex digits of the SHA-256 of that
file, so judgments made on another run, or on this run before it was re-written, are told apart.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from occbio.io.corpus_segments import read_segments, segment_text

__all__ = [
    "BANDS",
    "Item",
    "ReviewError",
    "band_edges",
    "corpus_file",
    "corpus_rows",
    "read_items",
    "run_id",
    "stratified_sample",
]

#: score bands, low to high: each a third of the language pair's segments
BANDS = ("low", "mid", "high")
CONTEXT = 2  # sentences before and after, in the pivot language


class ReviewError(ValueError):
    """A run or a file ``occbio review`` cannot use (one line, no traceback)."""


@dataclass(frozen=True)
class Item:
    """One pivot sentence and its aligned sentence in one other language."""

    id: str  # RUN:QID:SEG:LANG
    run: str
    pair: str  # "en-es"
    doc: str
    seg: int
    name: str
    gender: str
    src_lang: str
    tgt_lang: str
    src: str
    tgt: str
    score: float | None
    band: str
    before: tuple[str, ...]
    after: tuple[str, ...]

    def to_dict(self) -> dict:
        return asdict(self)


def corpus_file(run_dir: Path) -> Path:
    """``RUN/corpus/corpus.jsonl``, or a one-line error."""
    path = Path(run_dir) / "corpus" / "corpus.jsonl"
    if not path.is_file():
        raise ReviewError(
            f"{run_dir} holds no corpus/corpus.jsonl: give the directory of a finished run "
            "(occbio mine --out)"
        )
    return path


def run_id(run_dir: Path) -> str:
    """The run's id: the first 12 hex digits of the SHA-256 of its corpus.jsonl."""
    digest = hashlib.sha256()
    with corpus_file(run_dir).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:12]


def corpus_rows(path: Path) -> list[dict]:
    """The segments of a ``corpus.jsonl``, each checked (:mod:`occbio.io.corpus_segments`),
    every one with a text in each of the first segment's languages."""
    rows = read_segments(path, ReviewError)
    langs = list(rows[0][1]["text"]) if rows else []
    for n, row in rows:
        segment_text(path, n, row, langs, ReviewError)
    return [row for _n, row in rows]


def band_edges(scores: Sequence[float]) -> tuple[float, float]:
    """The scores that split ``scores`` into three equal bands (tertiles)."""
    ordered = sorted(scores)
    if not ordered:
        return (float("inf"), float("inf"))
    n = len(ordered)
    return ordered[n // 3], ordered[(2 * n) // 3]


def _band(score: float | None, edges: tuple[float, float]) -> str:
    if score is None:
        return "low"
    return BANDS[(score >= edges[0]) + (score >= edges[1])]


def read_items(run_dir: Path, langs: Sequence[str] | None = None) -> tuple[list[Item], dict]:
    """Every item of the run (pivot first in each segment's text), and what was used to make
    them: ``{"run", "pivot", "langs", "edges": {pair: [low/mid, mid/high]}}``."""
    rid = run_id(run_dir)
    rows = corpus_rows(corpus_file(run_dir))
    if not rows:
        raise ReviewError(f"{corpus_file(run_dir)} holds no segment: nothing to review")
    pivot, *others = list(rows[0]["text"])
    if langs:
        unknown = [lang for lang in langs if lang not in others]
        if unknown:
            raise ReviewError(
                f"--langs: the corpus has no {', '.join(unknown)} besides its pivot {pivot} "
                f"(it has {', '.join(others)})"
            )
        others = [lang for lang in others if lang in langs]
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_doc[row["qid"]].append(row)
    edges = {}
    for lang in others:
        scores = [r.get("scores", {}).get(lang) for r in rows]
        edges[f"{pivot}-{lang}"] = band_edges([s for s in scores if isinstance(s, int | float)])
    items = []
    for doc_rows in by_doc.values():
        for i, row in enumerate(doc_rows):
            before = tuple(r["text"][pivot] for r in doc_rows[max(0, i - CONTEXT) : i])
            after = tuple(r["text"][pivot] for r in doc_rows[i + 1 : i + 1 + CONTEXT])
            for lang in others:
                score = row.get("scores", {}).get(lang)
                score = float(score) if isinstance(score, int | float) else None
                pair = f"{pivot}-{lang}"
                items.append(
                    Item(
                        id=f"{rid}:{row['qid']}:{row['seg']}:{lang}",
                        run=rid,
                        pair=pair,
                        doc=row["qid"],
                        seg=row["seg"],
                        name=str(row.get("name") or row["qid"]),
                        gender=str(row.get("gender") or "unknown"),
                        src_lang=pivot,
                        tgt_lang=lang,
                        src=row["text"][pivot],
                        tgt=row["text"][lang],
                        score=score,
                        band=_band(score, edges[pair]),
                        before=before,
                        after=after,
                    )
                )
    meta = {"run": rid, "pivot": pivot, "langs": others,
            "edges": {p: list(e) for p, e in edges.items()}}  # fmt: skip
    return items, meta


def stratified_sample(items: Sequence[Item], n: int, seed: int) -> list[Item]:
    """Up to ``n`` items of each language pair, spread evenly over the (score band, gender)
    strata: each stratum gets an equal share, a stratum with fewer items gives its rest to the
    others; seeded, and in corpus order."""
    rng = random.Random(seed)
    by_pair: dict[str, dict[tuple[str, str], list[Item]]] = defaultdict(lambda: defaultdict(list))
    for item in items:
        by_pair[item.pair][(item.band, item.gender)].append(item)
    chosen: set[str] = set()
    for strata in by_pair.values():
        pools = {key: rng.sample(group, len(group)) for key, group in sorted(strata.items())}
        left = n
        while left > 0 and any(pools.values()):
            open_ = [key for key in pools if pools[key]]
            share = max(1, left // len(open_))
            for key in open_:
                take = pools[key][:share][:left]
                pools[key] = pools[key][len(take) :]
                chosen.update(item.id for item in take)
                left -= len(take)
                if left <= 0:
                    break
    return [item for item in items if item.id in chosen]
