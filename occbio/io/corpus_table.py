"""The tabular sinks: ``{stem}.tsv`` and ``{stem}.parquet``, the same rows and columns.

Both take their columns from ``_tsv_header`` and their rows from ``_table_rows``, which is why
they live together; :func:`tsv_writer` (the TSV dialect pandas and ``datasets`` read back
exactly) is also used for ``alignments.tsv`` by :mod:`occbio.align.pipeline`. The columns are
described in :mod:`occbio.io.corpus`.
"""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from occbio.io.corpus_doc import _Add, _Doc, clean_text
from occbio.run import atomic_write


def _tsv_header(langs: Sequence[str], pivot: str, counterfactual: bool = False) -> list[str]:
    """The TSV/Parquet columns; a counterfactual corpus adds ``source_gender`` after
    ``gender`` (which then holds the gender it was rewritten into). The provenance of each
    language's text comes last (:func:`_provenance_header`), after the scores, so the columns
    before keep their places."""
    return [
        *langs,
        "qid",
        "name",
        "occupations",
        "occupation_qids",
        "gender",
        *(["source_gender"] if counterfactual else []),
        *(f"url_{lang}" for lang in langs),
        "seg",
        *(f"score_{lang}" for lang in langs if lang != pivot),
        *_provenance_header(langs),
    ]


def _provenance_header(langs: Sequence[str]) -> list[str]:
    """``revision_id_{lang}``, ``revision_timestamp_{lang}`` and ``source_{lang}`` per
    language: the revision each language's text was read from, its time, and where."""
    return [
        *(f"revision_id_{lang}" for lang in langs),
        *(f"revision_timestamp_{lang}" for lang in langs),
        *(f"source_{lang}" for lang in langs),
    ]


#: Rows per Parquet row group (and the most rows the writer holds in memory).
PARQUET_ROWS = 10_000


def tsv_writer(fh: IO[str]) -> Any:
    """A csv writer of tab-separated rows that quotes only values with a double quote (or a
    tab or line break, which occbio's values never hold), as pandas and ``datasets`` expect."""
    return csv.writer(fh, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)


def fmt_score(x: float | None) -> str:
    """A score as TSV text: Python's shortest repr, which reads back as the very same float
    (pandas and ``datasets`` parse it exactly), as in the JSON lines and Parquet files."""
    return "" if x is None else repr(float(x))


def _table_rows(
    d: _Doc, langs: Sequence[str], pivot: str, counterfactual: bool = False
) -> Iterator[list[Any]]:
    """The TSV / Parquet rows of one document, in :func:`_tsv_header`'s column order (scores
    as floats or None, ``seg`` as an int)."""
    others = [lang for lang in langs if lang != pivot]
    fixed = [d.qid, d.name, d.occupation_labels(), d.occupation_qids, d.gender]
    if counterfactual:
        fixed.append(clean_text(d.doc.source_gender))
    urls = [d.url(lang) for lang in langs]
    provenance = [
        *(d.revision_id(lang) for lang in langs),
        *(d.revision_timestamp(lang) for lang in langs),
        *(d.source(lang) for lang in langs),
    ]
    for i, seg in enumerate(d.segments):
        yield [*(seg[lang] for lang in langs), *fixed, *urls, d.seg_id(i),
               *(d.score(i, x) for x in others), *provenance]  # fmt: skip


@contextlib.contextmanager
def _tsv_sink(
    path: Path, langs: Sequence[str], pivot: str, counterfactual: bool = False
) -> Iterator[_Add]:
    header = _tsv_header(langs, pivot, counterfactual)
    seg = header.index("seg")  # the seg column; the scores follow it, then the provenance
    scores = slice(seg + 1, seg + len(langs))
    rest = seg + len(langs)
    with atomic_write(path) as fh:
        out = tsv_writer(fh)
        out.writerow(header)

        def add(d: _Doc) -> int:
            n = 0
            for row in _table_rows(d, langs, pivot, counterfactual):
                out.writerow([*row[:seg], str(row[seg]), *map(fmt_score, row[scores]),
                              *("" if v is None else str(v) for v in row[rest:])])  # fmt: skip
                n += 1
            return n

        yield add


@contextlib.contextmanager
def _parquet_sink(
    path: Path, langs: Sequence[str], pivot: str, counterfactual: bool = False
) -> Iterator[_Add]:
    """The TSV's rows and columns as Parquet (``seg`` int32, scores float64 or null,
    ``revision_id_*`` int64 or null, an empty text value null), written in row groups of
    :data:`PARQUET_ROWS`: what Hugging Face ``datasets`` loads as it is."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    header = _tsv_header(langs, pivot, counterfactual)
    seg = header.index("seg")
    scores = set(header[seg + 1 : seg + len(langs)])
    revisions = {f"revision_id_{lang}" for lang in langs}

    def kind(name: str) -> Any:
        if name == "seg":
            return pa.int32()
        if name in scores:
            return pa.float64()
        if name in revisions:
            return pa.int64()
        return pa.string()

    schema = pa.schema([pa.field(name, kind(name)) for name in header])
    buffer: list[list[Any]] = []
    with atomic_write(path, "wb", encoding=None) as fh, pq.ParquetWriter(fh, schema) as writer:

        def flush() -> None:
            columns = list(zip(*buffer, strict=True)) if buffer else [[] for _ in header]
            writer.write_table(pa.table(dict(zip(header, columns, strict=True)), schema=schema))
            buffer.clear()

        def add(d: _Doc) -> int:
            rows = list(_table_rows(d, langs, pivot, counterfactual))
            # an empty text value is missing (null), as pandas and ``datasets`` read an empty
            # TSV cell: the same value whichever file a user loads
            buffer.extend([None if v == "" else v for v in row] for row in rows)
            if len(buffer) >= PARQUET_ROWS:
                flush()
            return len(rows)

        yield add
        if buffer:
            flush()
