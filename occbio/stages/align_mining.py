"""The align stage's mining pass: every document's tuples, with their scores, before selection.

The people are split into shards (:mod:`occbio.align.shards`) that an executor mines; each
finished shard is written to the stage's parts directory at once (its counts file is its
completion marker), so a killed or failed run mines only the shards it lacks. The shards are
then merged in run order into ``align/mined.jsonl``, which makes the file the same whatever
executor ran them and in whatever order they finished. The language background samples are
drawn here, once, and embedded by the executor's workers.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from occbio.align.background import Background
from occbio.align.cache import EmbeddingCache
from occbio.align.pipeline import block_texts, build_backgrounds, pool_offsets
from occbio.align.shards import (
    ChunkedEncoder,
    ShardResult,
    ShardTask,
    mine_shard,
    shard_count,
    shard_of,
)
from occbio.config import RunConfig
from occbio.executor import Executor
from occbio.run import RunDir, StageState, atomic_write, fingerprint
from occbio.safepaths import make_dirs, unlink
from occbio.stages.common import progress_bar

__all__ = ["BACKGROUND_DIR", "EMBEDDINGS_DIR", "MINED_FILE", "backgrounds_for", "mine_run"]

log = logging.getLogger(__name__)

MINED_FILE = "align/mined.jsonl"
BACKGROUND_DIR = "align/background"
EMBEDDINGS_DIR = "embeddings"


def backgrounds_for(
    cfg: RunConfig,
    run: RunDir,
    encoder: Any,
    docs: Any,
    inputs: dict[str, Any],
    stats: Counter[str],
) -> dict[str, Background]:
    """Each language's background sample: loaded from ``align/background/`` when drawn from
    the same input with the same encoder and size, else drawn (one pass over the documents),
    embedded through the cache and saved.

    Drawn from the documents that have every language only: the others give no tuple, so
    their sentences are never embedded, and the background holds sentences of the documents
    that are mined (as when the margins were calibrated).
    """
    fp = fingerprint(
        {
            "inputs": inputs,
            "encoder": encoder.name,
            "size": cfg.align.background_size,
            "docs": "with every language",
        }
    )
    paths = {lang: run.path / BACKGROUND_DIR / f"{encoder.name}.{lang}.npy" for lang in cfg.langs}
    loaded = {}
    for lang, path in paths.items():
        if not path.exists():
            continue
        try:
            background = Background.load(path)
            if not np.isfinite(background.vectors).all():  # a NaN would poison every margin
                raise ValueError("NaN or infinite values in its vectors")
        except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:
            log.warning("align: background sample %s unreadable (%s); drawing it again", path, exc)
            continue
        if background.fingerprint == fp and background.lang == lang:
            loaded[lang] = background
    if len(loaded) == len(paths):
        return loaded
    backgrounds = build_backgrounds(
        docs.docs_for(docs.with_every_lang(cfg.langs)[0]),
        langs=cfg.langs,
        encoder=encoder,
        cache_root=run.path / EMBEDDINGS_DIR,
        size=cfg.align.background_size,
        fingerprint=fp,
        stats=stats,
    )
    for lang, background in backgrounds.items():
        background.save(paths[lang])
    return backgrounds


def mine_run(
    cfg: RunConfig,
    run: RunDir,
    encoder: Any,
    docs: Any,
    inputs: dict[str, Any],
    state: StageState,
    stats: Counter[str],
    timings: Counter[str],
    show_progress: bool,
    executor: Executor,
    spec: tuple[str, dict[str, Any]],
) -> None:
    """Every document of ``docs`` (the stage's ``RunDocs`` or listed documents) with its tuples
    and scores into ``align/mined.jsonl``; ``spec`` builds the encoder on the workers.

    A tuple holds a sentence of every language, so a document lacking one (a person whose
    article in some language is missing, or lost all its sentences to cleaning) is neither
    read nor embedded nor mined: counted in ``people_skipped_missing_lang``, its sentences in
    ``sentences_not_encoded``.
    """
    progress = state.progress("mined")
    if progress.get("done"):
        stats.update(progress.get("stats", {}))
        return
    complete, not_encoded = docs.with_every_lang(cfg.langs)
    stats["people_skipped_missing_lang"] += len(docs) - len(complete)
    stats["sentences_not_encoded"] += not_encoded
    shard_dir = state.parts_root / "shards"
    n_shards = progress.setdefault("shards", shard_count(len(complete), cfg.align.block_docs))
    run.save()
    make_dirs(shard_dir)
    members: list[list[str]] = [[] for _ in range(n_shards)]
    for doc_id in complete:
        members[shard_of(doc_id, n_shards)].append(doc_id)
    backgrounds = None
    if cfg.align.scope == "language":
        start = time.perf_counter()
        drawn: Counter[str] = Counter()
        chunked = ChunkedEncoder(encoder, spec, executor)
        backgrounds = backgrounds_for(cfg, run, chunked, docs, inputs, drawn)
        timings["background_build_seconds"] += time.perf_counter() - start
        # counted once, by the process that drew the samples (a resumed one loads them)
        stats.update(progress.setdefault("background_stats", dict(drawn)))
    caches = {
        lang: EmbeddingCache(
            run.path / EMBEDDINGS_DIR, encoder.name, lang, encoder.dim, stats=stats
        )
        for lang in cfg.langs
    }
    if dropped := _drop_damaged_shards(shard_dir, n_shards):
        stats["align_shards_mined_again"] += dropped
    for i, ids in enumerate(members):
        if not ids and not _shard_done(shard_dir, i):
            _write_shard(shard_dir, ShardResult(i, [], {}))
    todo = [i for i in range(n_shards) if not _shard_done(shard_dir, i)]

    def tasks() -> Iterator[ShardTask]:
        for i in todo:
            shard_docs = list(docs.docs_for(members[i]))
            cached = {
                lang: caches[lang].lookup(texts)
                for lang, texts in block_texts(shard_docs, cfg.langs).items()
            }
            yield ShardTask(i, shard_docs, cached)

    shared = {
        "encoder": spec,
        "langs": cfg.langs,
        "pivot": cfg.pivot,
        "cfg": cfg.align,
        "backgrounds": backgrounds,
        "offsets": pool_offsets(backgrounds, cfg.langs, cfg.pivot, encoder, cfg.align),
    }
    done = len(complete) - sum(len(members[i]) for i in todo)
    # in sentences, embedded or read from the cache: the encoder's pace, the real cost
    total = docs.sentence_count(cfg.langs)
    bar = progress_bar(show_progress, desc="align", total=total, unit=" sentences")
    pending = set(todo)
    bar.update(_sentences_in(shard_dir, [i for i in range(n_shards) if i not in pending]))
    if executor.name == "local":  # tasks run here: every encoder call moves the bar
        shared["on_progress"] = bar.update
    try:
        for result in executor.run_tasks(mine_shard, tasks(), shared=shared):
            for lang, (texts, vectors) in result.encoded.items():
                if texts:
                    caches[lang].add(texts, vectors)
            _write_shard(shard_dir, result)
            timings.update(result.timings)
            done += len(result.docs)
            progress["consumed"] = done  # what `occbio stats` shows; the shard files decide
            run.save()
            if executor.name != "local":
                stats_of = result.stats
                bar.update(stats_of["sentences_embedded"] + stats_of["sentences_from_cache"])
    finally:
        bar.close()
    stats.update(_merge_shards(shard_dir, complete, n_shards, run.path / MINED_FILE))
    for key in ("docs_mined", "tuples_mined"):  # shown as 0 when nobody has every language
        stats.setdefault(key, 0)
    progress.update({"done": True, "stats": dict(stats)})
    run.save()


def _shard_file(shard_dir: Path, shard: int, suffix: str) -> Path:
    return shard_dir / f"{shard:05d}{suffix}"


def _drop_damaged_shards(shard_dir: Path, n_shards: int) -> int:
    """Remove finished shards whose files cannot be read (a damaged disk, a hand edit), so
    they are mined again instead of failing every resume; returns how many."""
    dropped = 0
    for i in range(n_shards):
        counts = _shard_file(shard_dir, i, ".json")
        if not counts.exists():
            continue
        try:
            ok = isinstance(json.loads(counts.read_text("utf-8"))["stats"], dict)
            ok = ok and _shard_file(shard_dir, i, ".tsv").is_file()
        except (OSError, ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            log.warning("align: shard %d in %s is unreadable; mining it again", i, shard_dir)
            unlink(counts)
            unlink(_shard_file(shard_dir, i, ".tsv"))
            dropped += 1
    return dropped


def _shard_done(shard_dir: Path, shard: int) -> bool:
    """A shard is done once its counts file exists: it is written after its tuples."""
    return _shard_file(shard_dir, shard, ".json").exists()


def _sentences_in(shard_dir: Path, shards: Iterable[int]) -> int:
    """Sentences the finished ``shards`` embedded or found in the cache."""
    n = 0
    for i in shards:
        stats = json.loads(_shard_file(shard_dir, i, ".json").read_text())["stats"]
        n += stats.get("sentences_embedded", 0) + stats.get("sentences_from_cache", 0)
    return n


def _write_shard(shard_dir: Path, result: ShardResult) -> None:
    """The shard's tuples (``doc<TAB>tuple`` lines, in its run order), then its counts."""
    with atomic_write(_shard_file(shard_dir, result.shard, ".tsv")) as fh:
        for doc_id, tuples, _ in result.docs:
            for t in tuples:
                fh.write(doc_id + "\t" + json.dumps(t.to_dict(), ensure_ascii=False) + "\n")
    with atomic_write(_shard_file(shard_dir, result.shard, ".json")) as fh:
        json.dump({"stats": result.stats}, fh, sort_keys=True)


def _merge_shards(shard_dir: Path, ids: list[str], n_shards: int, out: Path) -> Counter[str]:
    """The shards' tuples in run order into ``out``; returns the shards' counts summed."""
    counts: Counter[str] = Counter()
    with ExitStack() as stack, atomic_write(out) as fh:
        readers = []
        for i in range(n_shards):
            if not _shard_done(shard_dir, i):
                raise RuntimeError(f"align: shard {i} of {n_shards} was never mined")
            counts.update(json.loads(_shard_file(shard_dir, i, ".json").read_text())["stats"])
            lines = stack.enter_context(open(_shard_file(shard_dir, i, ".tsv"), encoding="utf-8"))
            readers.append(_Peekable(lines))
        for doc_id in ids:
            reader = readers[shard_of(doc_id, n_shards)]
            prefix = doc_id + "\t"
            while (line := reader.peek()) is not None and line.startswith(prefix):
                fh.write(line[len(prefix) :])
                reader.pop()
    return counts


class _Peekable:
    """Lines of a file, one look-ahead."""

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines = lines
        self._next: str | None = next(self._lines, None)

    def peek(self) -> str | None:
        return self._next

    def pop(self) -> None:
        self._next = next(self._lines, None)
