"""Stage ``entities``: people with occupations, gender and article titles, from a Wikidata dump.

Outputs ``entities.jsonl`` (one :class:`~occbio.records.Entity` a line, in dump order) and
``occupations.jsonl`` (each occupation's QID, label and number of people).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from itertools import islice

from occbio.config import RunConfig
from occbio.extract.wikidata_dump import (
    TruncatedWikidataDumpError,
    collect_labels,
    iter_humans,
    label_occupations,
)
from occbio.io.jsonl import read_jsonl, write_jsonl
from occbio.records import Entity
from occbio.run import ChunkedWriter, RunDir, atomic_write, file_identity, fingerprint
from occbio.stages.common import StageResult, keep_until_truncated, progress_bar

__all__ = ["run_entities", "ENTITIES_FILE", "OCCUPATIONS_FILE"]

log = logging.getLogger(__name__)

STAGE = "entities"
ENTITIES_FILE = "entities.jsonl"
OCCUPATIONS_FILE = "occupations.jsonl"
_RAW_FILE = "entities.unlabelled.jsonl"


def _settings(cfg: RunConfig) -> dict[str, object]:
    return {
        "langs": cfg.langs,
        "min_langs": cfg.entities.min_langs,
        "label_langs": cfg.entities.label_langs,
        "limit": cfg.limit,
    }


def run_entities(cfg: RunConfig, run: RunDir, *, show_progress: bool = True) -> StageResult:
    """Stream the Wikidata dump into ``entities.jsonl``; skip when already done."""
    dump = cfg.resolved_entity_dump()
    if not dump.exists():
        raise FileNotFoundError(f"Wikidata dump not found: {dump}")
    inputs = {"dump": file_identity(dump)}
    settings = _settings(cfg)
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    resuming = state.begin(fp, inputs=inputs, settings=settings)
    if resuming:
        log.info("entities: resuming an interrupted run")

    reader_stats: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    warnings: list[str] = []
    writer = ChunkedWriter(
        state,
        "humans",
        {"people": run.path / _RAW_FILE},
        chunk_size=cfg.checkpoint_every,
        stats=kept,
    )
    if not writer.done:
        humans = iter_humans(
            dump,
            cfg.langs,
            min_langs=cfg.entities.min_langs,
            label_langs=tuple(cfg.entities.label_langs),
            stats=reader_stats,
        )
        if cfg.limit is not None:
            humans = islice(humans, cfg.limit)
        bar = progress_bar(show_progress, desc="entities", unit=" people", initial=writer.consumed)
        try:
            for i, entity in enumerate(
                keep_until_truncated(humans, TruncatedWikidataDumpError, warnings)
            ):
                if i < writer.consumed:
                    continue
                kept["people"] += 1
                kept[f"gender_{entity.gender}"] += 1
                writer.add({"people": [entity]})
                bar.update()
        finally:
            bar.close()
        writer.finish()
        progress = state.progress("humans")
        progress.update({"reader": dict(reader_stats), "warnings": warnings})
        run.save()
    else:
        progress = state.progress("humans")
        reader_stats.update(progress.get("reader", {}))
        warnings = list(progress.get("warnings", []))

    # Occupation labels: the dump may hold occupation items anywhere, so one more streaming
    # pass collects the labels of exactly the occupations the kept people have.
    raw = run.path / _RAW_FILE
    occ_counts: Counter[str] = Counter(
        o.qid for e in read_jsonl(raw, Entity) for o in e.occupations
    )
    labels = collect_labels(
        dump, set(occ_counts), tuple(cfg.entities.label_langs) + tuple(cfg.langs)
    )
    unlabelled = sorted(q for q in occ_counts if q not in labels)
    if unlabelled:
        log.warning(
            "entities: %d occupation(s) have no label in the dump (kept with their QID): %s",
            len(unlabelled),
            ", ".join(unlabelled[:10]),
        )
    write_jsonl(run.path / ENTITIES_FILE, label_occupations(read_jsonl(raw, Entity), labels))
    with atomic_write(run.path / OCCUPATIONS_FILE) as fh:
        for qid, n in sorted(occ_counts.items(), key=lambda kv: (-kv[1], kv[0])):
            fh.write(json.dumps({"qid": qid, "label": labels.get(qid, ""), "people": n}) + "\n")
    counts = Counter(reader_stats)
    counts.update(kept)
    counts["occupations"] = len(occ_counts)
    counts["occupations_unlabelled"] = len(unlabelled)
    state.finish(counts=counts, outputs=[ENTITIES_FILE, OCCUPATIONS_FILE], warnings=warnings)
    raw.unlink(missing_ok=True)
    return StageResult.finished(STAGE, run.stage_record(STAGE))
