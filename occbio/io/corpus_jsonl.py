"""The JSON lines sink: ``{stem}.jsonl``, one JSON object per aligned tuple.

Used by :func:`occbio.io.corpus.write_jsonl` and :func:`occbio.io.corpus.write_corpus`; the row
layout is described in :mod:`occbio.io.corpus`. (:mod:`occbio.io.jsonl` is the generic JSON
lines reader/writer of the pipeline's intermediate files, not the corpus format.)
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from occbio.io.corpus_doc import _Add, _Doc
from occbio.run import atomic_write


def _jsonl_rows(
    d: _Doc, langs: Sequence[str] | None, pivot: str | None
) -> Iterator[dict[str, Any]]:
    occupations = [{"qid": q, "label": label} for q, label in d.occupations]
    for i, seg in enumerate(d.segments):
        row_langs = list(seg) if langs is None else langs
        scores: dict[str, float] = {}
        for lang in row_langs:
            x = d.score(i, lang)
            if lang != pivot and x is not None:
                scores[lang] = float(x)  # exactly the TSV's and Parquet's
        yield {
            "text": {lang: seg[lang] for lang in row_langs},
            "qid": d.qid,
            "name": d.name,
            "occupations": occupations,
            "gender": d.gender,
            "urls": {lang: d.url(lang) for lang in row_langs},
            "seg": d.seg_id(i),
            "scores": scores,
            **({"source_gender": d.doc.source_gender} if d.doc.source_gender else {}),
            **_provenance(d, row_langs),
        }


def _provenance(d: _Doc, langs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Page ids, revision ids, revision timestamps and sources by language (a language the
    source said nothing of is left out of each)."""
    out: dict[str, dict[str, Any]] = {
        "page_ids": {},
        "revision_ids": {},
        "revision_timestamps": {},
        "sources": {},
    }
    for lang in langs:
        page_id = d.page_id(lang)
        if page_id:
            out["page_ids"][lang] = int(page_id)
        revision = d.revision_id(lang)
        if revision is not None:
            out["revision_ids"][lang] = revision
        if timestamp := d.revision_timestamp(lang):
            out["revision_timestamps"][lang] = timestamp
        if source := d.source(lang):
            out["sources"][lang] = source
    return out


@contextlib.contextmanager
def _jsonl_sink(path: Path, langs: Sequence[str] | None, pivot: str | None) -> Iterator[_Add]:
    with atomic_write(path) as fh:

        def add(d: _Doc) -> int:
            n = 0
            for row in _jsonl_rows(d, langs, pivot):
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                n += 1
            return n

        yield add
