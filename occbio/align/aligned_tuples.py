"""The aligned tuple and its files: :class:`AlignedTuple` (one document's mutually parallel
sentences, with their scores) and :func:`write_alignments` (JSON lines and TSV in one pass).

The record every part of the aligner hands on: :mod:`occbio.align.block_mining` makes the
tuples, :mod:`occbio.align.selection` keeps or drops them, shard workers send them back to the
caller (pickled by this module's path) and the align stage writes them. Kept apart from
:mod:`occbio.align.pipeline` so that those modules need not import the pipeline that imports
them (an import cycle); the pipeline re-exports both names, so they stay importable from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from occbio.io.corpus import tsv_writer
from occbio.io.corpus_table import fmt_score
from occbio.run import atomic_write

__all__ = ["AlignedTuple", "write_alignments"]


@dataclass(slots=True)
class AlignedTuple:
    """Mutually parallel sentences of one document: index and text per language; per
    non-pivot language against the pivot, the margin score (the one the threshold applies to),
    the cosine and the within-document margin."""

    doc: str
    idx: dict[str, int]
    text: dict[str, str]
    score: dict[str, float]
    cos: dict[str, float] = field(default_factory=dict)
    doc_score: dict[str, float] = field(default_factory=dict)
    #: P(parallel) of the tuple (the encoder's trained model; None without one)
    prob: float | None = None
    #: per non-pivot language, what it shares with the pivot sentence (numbers, length)
    evidence: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = {
            "doc": self.doc,
            "idx": self.idx,
            "text": self.text,
            "score": self.score,
            "cos": self.cos,
            "doc_score": self.doc_score,
        }
        if self.prob is not None:
            d["prob"] = self.prob
            d["evidence"] = self.evidence
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> AlignedTuple:
        return cls(
            d["doc"],
            dict(d["idx"]),
            dict(d["text"]),
            dict(d.get("score", {})),
            dict(d.get("cos", {})),
            dict(d.get("doc_score", {})),
            d.get("prob"),
            dict(d.get("evidence", {})),
        )


def write_alignments(
    path: Path, tuples: Iterable[AlignedTuple], langs: Sequence[str], pivot: str
) -> Path:
    """``path`` (JSON lines) and the same tuples as TSV next to it (the same scores and
    cosines, to the last digit), in one pass over ``tuples``; returns the TSV's path."""
    tsv = path.with_suffix(".tsv")
    others = [lang for lang in langs if lang != pivot]
    header = ["doc", *(f"{lang}_idx" for lang in langs), *langs]
    header += [f"{name}_{x}" for x in others for name in ("score", "cos")] + ["prob"]
    with atomic_write(path) as jsonl_fh, atomic_write(tsv) as tsv_fh:
        out = tsv_writer(tsv_fh)
        out.writerow(header)
        for t in tuples:
            jsonl_fh.write(json.dumps(t.to_dict(), ensure_ascii=False) + "\n")
            row = [t.doc, *(str(t.idx[lang]) for lang in langs)]
            row += [" ".join(t.text[lang].split()) for lang in langs]
            row += [fmt_score(v[x]) for x in others for v in (t.score, t.cos)]
            row.append(fmt_score(t.prob))
            out.writerow(row)
    return tsv
