"""Writers of the finished corpus: GeBioCorpus-style XML, TSV, JSON lines, TMX and plain text.

The input is a stream of :class:`occbio.records.Document` (one person, all languages, aligned
segments in article order). Every writer streams (one document in memory at a time), writes
UTF-8 through :func:`occbio.run.atomic_write` (a file appears complete under its final name or
not at all) and passes every value through :func:`clean_text` first, so the same cleaned text
appears in every format.

Files
-----
``{stem}.{lang}.xml`` (:func:`write_xml`)
    The GeBioCorpus vocabulary (GeBioToolkit, LREC 2020), one file per language, wrapped in a
    ``<corpus lang="xx">`` root (GeBioCorpus had no root element; we add one so the file is
    well-formed XML)::

        <?xml version="1.0" encoding="UTF-8"?>
        <corpus lang="en">
        <doc docid="Q123" wpid="55" language="en" gender="female" occupation="writer|poet"
             occupation_qids="Q36180|Q49757" url="https://en.wikipedia.org/wiki/Ana_Pérez">
          <title>Ana Pérez</title>
          <seg id="1">Ana Pérez was born in Vic.</seg>
        </doc>
        </corpus>

    ``seg id`` is the 1-based position of the aligned tuple in the document, so the same id
    names parallel segments in every language's file.
``{stem}.tsv`` (:func:`write_tsv`)
    One row per aligned tuple: one sentence column per language, then ``qid``, ``name``,
    ``occupations`` / ``occupation_qids`` (``|``-joined), ``gender``, ``url_{lang}`` per
    language, ``seg`` (1-based) and ``score_{lang}`` per non-pivot language (Python's shortest
    repr: read back, the very same float). Values never contain a tab or a line break; a value
    with a double quote is quoted the CSV way (``"`` around it, inner ``"`` doubled), so pandas
    (``pd.read_csv(path, sep="\t")``) and Hugging Face ``datasets``
    (``load_dataset("csv", data_files=path, delimiter="\t")``) read every value back exactly
    with their default settings, an empty cell (no occupation, no score) as missing. Those
    defaults also take a cell that is exactly ``NA``, ``None``, ``null`` or ``nan`` for
    missing: ``pd.read_csv(path, sep="\t", keep_default_na=False, na_values=[""])`` keeps
    such text and still reads an empty cell as missing.
``{stem}.parquet`` (:func:`write_corpus`)
    The TSV's rows and columns as Parquet (``seg`` an integer, scores floats or null, an empty
    text value null: what the TSV's empty cell reads as), for
    ``load_dataset("parquet", data_files=path)`` or ``pd.read_parquet``.
``{stem}.jsonl`` (:func:`write_jsonl`)
    The same rows as JSON objects (``text``, ``urls`` and ``scores`` keyed by language,
    ``occupations`` as ``[{qid, label}]``, ``[]`` for none; scores the same floats as the
    TSV's and Parquet's).
``{stem}.tmx`` (:func:`write_tmx`)
    The same tuples as a TMX 1.4b translation memory: one ``<tu tuid="QID:SEG">`` per tuple
    with every language's ``<tuv>`` (the pivot's first, the header's ``srclang``), the person,
    segment, gender and occupations as ``<prop>`` of the ``<tu>``, and each language's score,
    URL, page id, revision id, revision time and source as ``<prop>`` of its ``<tuv>``
    (:mod:`occbio.io.corpus_tmx` has the details), for a CAT tool or translate-toolkit.
``{stem}.{lang}`` + ``{stem}.docids`` (:func:`write_plain`)
    sacrebleu-style plain text: one sentence a line, line-aligned across languages, and the
    qid of each line.

:func:`write_corpus` writes all of them in a single pass over the documents (all files open at
once), so a generator is enough. Documents with no segments are skipped by every writer (and
counted by :func:`write_corpus`).

This module holds the public writers and the loop that feeds documents to them; each format's
sink (the code that opens one file and writes one document at a time) lives in a module of its
own, and what every sink shares in :mod:`occbio.io.corpus_doc`:

* :mod:`occbio.io.corpus_doc`: :func:`clean_text`, :func:`article_url` and the cleaned
  per-document view every sink reads;
* :mod:`occbio.io.corpus_xml`: the GeBioCorpus XML sink;
* :mod:`occbio.io.corpus_table`: the TSV and Parquet sinks (same rows), :func:`tsv_writer` and
  :data:`PARQUET_ROWS`;
* :mod:`occbio.io.corpus_jsonl`: the JSON lines sink;
* :mod:`occbio.io.corpus_tmx`: the TMX sink;
* :mod:`occbio.io.corpus_plain`: the plain-text sink.

:func:`clean_text`, :func:`article_url`, :func:`tsv_writer` and :data:`PARQUET_ROWS` are
re-exported here, so ``from occbio.io.corpus import ...`` keeps working for all of them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from occbio.io.corpus_doc import _Add, _check_langs, _Doc, article_url, clean_text
from occbio.io.corpus_jsonl import _jsonl_sink
from occbio.io.corpus_plain import _plain_paths, _plain_sink
from occbio.io.corpus_table import PARQUET_ROWS, _parquet_sink, _tsv_sink, tsv_writer
from occbio.io.corpus_tmx import _tmx_sink
from occbio.io.corpus_xml import _xml_sink
from occbio.records import Document

__all__ = [
    "CORPUS_FORMATS",
    "PARQUET_ROWS",
    "clean_text",
    "tsv_writer",
    "article_url",
    "write_xml",
    "write_tsv",
    "write_jsonl",
    "write_plain",
    "write_tmx",
    "write_corpus",
]

#: The formats :func:`write_corpus` writes (recorded in the write stage's settings, so a run
#: finished before a format was added writes its corpus again, the new format included).
CORPUS_FORMATS = ("xml", "tsv", "parquet", "jsonl", "tmx", "plain")


def _feed(docs: Iterable[Document], add: _Add, langs: Sequence[str] | None = None) -> int:
    n = 0
    for doc in docs:
        if not doc.segments:
            continue
        d = _Doc(doc)
        if langs is not None:
            d.check_aligned(langs)
        n += add(d)
    return n


# --- public writers --------------------------------------------------------------------------


def write_xml(path: Path, lang: str, docs: Iterable[Document]) -> int:
    """Write ``lang``'s side of the corpus as GeBioCorpus-style XML; return the documents written.

    Only segments with a sentence in ``lang`` are written (``seg id`` keeps the tuple's position
    in the document); a document with none is skipped.
    """
    with _xml_sink(Path(path), lang) as add:
        return _feed(docs, add)


def write_tsv(path: Path, langs: Sequence[str], docs: Iterable[Document], *, pivot: str) -> int:
    """Write one TSV row per aligned tuple (columns in the module docstring); return the rows."""
    langs = _check_langs(langs, pivot)
    with _tsv_sink(Path(path), langs, pivot) as add:
        return _feed(docs, add, langs)


def write_jsonl(
    path: Path,
    docs: Iterable[Document],
    *,
    langs: Sequence[str] | None = None,
    pivot: str | None = None,
) -> int:
    """Write one JSON object per aligned tuple; return the rows written.

    ``langs`` restricts (and orders) the languages of ``text``/``urls``/``scores``; by default a
    row has every language of its segment, in the segment's order. ``pivot``'s score, should a
    document carry one, is left out.
    """
    if langs is not None:
        langs = _check_langs(langs, pivot)
    with _jsonl_sink(Path(path), langs, pivot) as add:
        return _feed(docs, add, langs)


def write_tmx(path: Path, langs: Sequence[str], docs: Iterable[Document], *, pivot: str) -> int:
    """Write one TMX ``<tu>`` per aligned tuple, every language's ``<tuv>`` in it (the pivot's
    first); return the tuples written."""
    langs = _check_langs(langs, pivot)
    with _tmx_sink(Path(path), langs, pivot) as add:
        return _feed(docs, add, langs)


def write_plain(
    directory: Path, langs: Sequence[str], docs: Iterable[Document], *, stem: str = "corpus"
) -> dict[str, Path]:
    """Write ``{stem}.{lang}`` (one sentence a line, line-aligned) and ``{stem}.docids``.

    Returns the paths by language, plus ``"docids"``.
    """
    langs = _check_langs(langs)
    directory = Path(directory)
    with _plain_sink(directory, langs, stem) as add:
        _feed(docs, add, langs)
    return _plain_paths(directory, langs, stem)


def write_corpus(
    directory: Path,
    langs: Sequence[str],
    docs: Iterable[Document],
    *,
    pivot: str,
    stem: str = "corpus",
    counterfactual: bool = False,
) -> dict[str, Any]:
    """Write every format in one pass over ``docs`` (which may be a generator).
    ``counterfactual``: rewritten documents (their ``source_gender`` set), marked in every
    format.

    Files (relative to ``directory``): ``{stem}.{lang}.xml`` per language, ``{stem}.tsv``,
    ``{stem}.parquet``, ``{stem}.jsonl``, ``{stem}.tmx``, ``{stem}.{lang}`` per language and
    ``{stem}.docids``; each is the same as the matching single-format writer gives. If
    anything fails midway no file is replaced.

    Returns ``{"files": [names], "documents": n, "segments": n, "skipped_empty": n}`` where
    ``skipped_empty`` counts the documents that had no segments.
    """
    langs = _check_langs(langs, pivot)
    directory = Path(directory)
    xml_names = [f"{stem}.{lang}.xml" for lang in langs]
    tsv_name, jsonl_name, parquet_name = f"{stem}.tsv", f"{stem}.jsonl", f"{stem}.parquet"
    tmx_name = f"{stem}.tmx"
    plain_names = [p.name for p in _plain_paths(directory, langs, stem).values()]
    n_docs = n_segs = skipped = 0
    with contextlib.ExitStack() as stack:
        xml_adds = [
            stack.enter_context(_xml_sink(directory / f"{stem}.{lang}.xml", lang)) for lang in langs
        ]
        add_tsv = stack.enter_context(_tsv_sink(directory / tsv_name, langs, pivot, counterfactual))
        add_parquet = stack.enter_context(
            _parquet_sink(directory / parquet_name, langs, pivot, counterfactual)
        )
        add_jsonl = stack.enter_context(_jsonl_sink(directory / jsonl_name, langs, pivot))
        add_tmx = stack.enter_context(_tmx_sink(directory / tmx_name, langs, pivot))
        add_plain = stack.enter_context(_plain_sink(directory, langs, stem))
        for doc in docs:
            if not doc.segments:
                skipped += 1
                continue
            d = _Doc(doc)
            d.check_aligned(langs)
            for add in xml_adds:
                add(d)
            n_segs += add_tsv(d)
            add_parquet(d)
            add_jsonl(d)
            add_tmx(d)
            add_plain(d)
            n_docs += 1
    return {
        "files": [*xml_names, tsv_name, parquet_name, jsonl_name, tmx_name, *plain_names],
        "documents": n_docs,
        "segments": n_segs,
        "skipped_empty": skipped,
    }
