"""Writers of the finished corpus: GeBioCorpus-style XML, TSV, JSON lines and plain text.

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
    language, ``seg`` (1-based) and ``score_{lang}`` (4 decimals) per non-pivot language.
    Values never contain a tab or a line break; a value with a double quote is quoted the CSV
    way (``"`` around it, inner ``"`` doubled), so pandas (``pd.read_csv(path, sep="\t")``)
    and Hugging Face ``datasets`` (``load_dataset("csv", data_files=path, delimiter="\t")``)
    read every value back exactly with their default settings.
``{stem}.parquet`` (:func:`write_corpus`)
    The TSV's rows and columns as Parquet (``seg`` an integer, scores floats or null), for
    ``load_dataset("parquet", data_files=path)`` or ``pd.read_parquet``.
``{stem}.jsonl`` (:func:`write_jsonl`)
    The same rows as JSON objects (``text``, ``urls`` and ``scores`` keyed by language,
    ``occupations`` as ``[{qid, label}]``).
``{stem}.{lang}`` + ``{stem}.docids`` (:func:`write_plain`)
    sacrebleu-style plain text: one sentence a line, line-aligned across languages, and the
    qid of each line.

:func:`write_corpus` writes all of them in a single pass over the documents (all files open at
once), so a generator is enough. Documents with no segments are skipped by every writer (and
counted by :func:`write_corpus`).
"""

from __future__ import annotations

import contextlib
import csv
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

from lxml import etree

from occbio.records import Document
from occbio.run import atomic_write

__all__ = [
    "PARQUET_ROWS",
    "clean_text",
    "tsv_writer",
    "article_url",
    "write_xml",
    "write_tsv",
    "write_jsonl",
    "write_plain",
    "write_corpus",
]

#: Code points XML 1.0 forbids (C0 controls except tab/LF/CR, surrogates, U+FFFE/U+FFFF).
_XML_ILLEGAL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

#: What MediaWiki's ``wfUrlencode`` leaves unescaped in a page URL (besides ``A-Za-z0-9_.-~``).
_URL_SAFE = ";@$!*(),/~:"

_XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'


def clean_text(text: str) -> str:
    """``text`` fit for every output format: XML-illegal characters removed, whitespace collapsed.

    Removes what XML 1.0 cannot carry (C0 controls other than tab, LF and CR; lone surrogates;
    U+FFFE, U+FFFF), then turns every run of whitespace (as :meth:`str.split` sees it: tabs,
    line breaks, U+0085, U+2028/9, no-break spaces, ...) into one space, and strips the ends. The
    result has no tab and no line break, so it fits a TSV cell and a line of a plain file.
    """
    return " ".join(_XML_ILLEGAL_RE.sub("", text).split())


def article_url(lang: str, title: str) -> str:
    """The URL of the article ``title`` in ``lang``'s Wikipedia, encoded the way Wikipedia does.

    Spaces become underscores; the rest is percent-encoded as UTF-8 except letters, digits,
    ``_.-~`` and ``;@$!*(),/:`` (what MediaWiki's ``wfUrlencode`` keeps readable), e.g.
    ``article_url("es", "Ana María (escritora)")`` is
    ``https://es.wikipedia.org/wiki/Ana_Mar%C3%ADa_(escritora)``.
    """
    path = quote(title.strip().replace(" ", "_"), safe=_URL_SAFE)
    return f"https://{lang}.wikipedia.org/wiki/{path}"


class _Doc:
    """One document's fields, cleaned once and shared by every writer."""

    __slots__ = (
        "_segments",
        "_urls",
        "doc",
        "gender",
        "name",
        "occupation_qids",
        "occupations",
        "qid",
    )

    def __init__(self, doc: Document) -> None:
        e = doc.entity
        self.doc = doc
        self.qid = clean_text(e.qid)
        self.gender = clean_text(e.gender)
        self.occupations = [(clean_text(o.qid), clean_text(o.label)) for o in e.occupations]
        self.occupation_qids = "|".join(q for q, _ in self.occupations)
        self.name = clean_text(e.label) or next(
            (t for t in (clean_text(t) for t in e.titles.values()) if t), ""
        )
        self._urls: dict[str, str] = {}
        self._segments: list[dict[str, str]] | None = None

    @property
    def segments(self) -> list[dict[str, str]]:
        """The aligned segments, every sentence cleaned (once, whatever number of writers)."""
        if self._segments is None:
            self._segments = [
                {lang: clean_text(text) for lang, text in seg.items()} for seg in self.doc.segments
            ]
        return self._segments

    def occupation_labels(self) -> str:
        return "|".join(label for _, label in self.occupations)

    def title(self, lang: str) -> str:
        return clean_text(self.doc.entity.titles.get(lang, ""))

    def url(self, lang: str) -> str:
        """The article's URL in ``lang`` ("" when the person has no title there)."""
        if lang not in self._urls:
            title = self.title(lang)
            self._urls[lang] = article_url(lang, title) if title else ""
        return self._urls[lang]

    def page_id(self, lang: str) -> str:
        pid = self.doc.page_ids.get(lang)
        return "" if pid is None else str(pid)

    def score(self, i: int, lang: str) -> float | None:
        scores = self.doc.scores
        return scores[i].get(lang) if i < len(scores) else None

    def check_aligned(self, langs: Sequence[str]) -> None:
        """Every segment must have a sentence in every language (else the files misalign)."""
        for i, seg in enumerate(self.segments):
            missing = [lang for lang in langs if lang not in seg]
            if missing:
                raise ValueError(
                    f"document {self.qid}: segment {i + 1} has no sentence in "
                    f"{', '.join(missing)} (every segment must have every language)"
                )


def _check_langs(langs: Sequence[str], pivot: str | None = None) -> list[str]:
    langs = list(langs)
    if not langs:
        raise ValueError("no languages given")
    if len(set(langs)) != len(langs):
        raise ValueError(f"a language is given twice: {', '.join(langs)}")
    if pivot is not None and pivot not in langs:
        raise ValueError(f"the pivot {pivot!r} is not one of the languages ({', '.join(langs)})")
    return langs


# --- sinks: open a file, take one document at a time, return what they wrote ----------------

_Add = Callable[[_Doc], int]


@contextlib.contextmanager
def _xml_sink(path: Path, lang: str) -> Iterator[_Add]:
    with atomic_write(path, "wb", encoding=None) as fh:
        fh.write(_XML_DECLARATION)
        with etree.xmlfile(fh, encoding="UTF-8") as xf, xf.element("corpus", {"lang": lang}):
            xf.write("\n")

            def add(d: _Doc) -> int:
                segs = [(i, seg[lang]) for i, seg in enumerate(d.segments) if lang in seg]
                if not segs:
                    return 0
                el = etree.Element(
                    "doc",
                    {
                        "docid": d.qid,
                        "wpid": d.page_id(lang),
                        "language": lang,
                        "gender": d.gender,
                        "occupation": d.occupation_labels(),
                        "occupation_qids": d.occupation_qids,
                        "url": d.url(lang),
                        **_counterfactual_attrs(d),
                    },
                )
                etree.SubElement(el, "title").text = d.title(lang)
                for i, text in segs:
                    etree.SubElement(el, "seg", {"id": str(i + 1)}).text = text
                xf.write(el, pretty_print=True)
                return 1

            yield add
        fh.write(b"\n")


def _counterfactual_attrs(d: _Doc) -> dict[str, str]:
    """``counterfactual="true"`` and the gender before rewriting, on a rewritten document."""
    source = d.doc.source_gender
    return {"counterfactual": "true", "source_gender": clean_text(source)} if source else {}


def _tsv_header(langs: Sequence[str], pivot: str, counterfactual: bool = False) -> list[str]:
    """The TSV/Parquet columns; a counterfactual corpus adds ``source_gender`` after
    ``gender`` (which then holds the gender it was rewritten into)."""
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
    ]


#: Rows per Parquet row group (and the most rows the writer holds in memory).
PARQUET_ROWS = 10_000


def tsv_writer(fh: IO[str]) -> Any:
    """A csv writer of tab-separated rows that quotes only values with a double quote (or a
    tab or line break, which occbio's values never hold), as pandas and ``datasets`` expect."""
    return csv.writer(fh, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)


def _fmt_score(x: float | None) -> str:
    return "" if x is None else f"{x:.4f}"


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
    for i, seg in enumerate(d.segments):
        yield [*(seg[lang] for lang in langs), *fixed, *urls, i + 1,
               *(d.score(i, x) for x in others)]  # fmt: skip


@contextlib.contextmanager
def _tsv_sink(
    path: Path, langs: Sequence[str], pivot: str, counterfactual: bool = False
) -> Iterator[_Add]:
    n_scores = len(langs) - 1
    with atomic_write(path) as fh:
        out = tsv_writer(fh)
        out.writerow(_tsv_header(langs, pivot, counterfactual))

        def add(d: _Doc) -> int:
            n = 0
            for row in _table_rows(d, langs, pivot, counterfactual):
                seg = len(row) - n_scores - 1  # the seg column; the scores follow it
                out.writerow([*row[:seg], str(row[seg]), *map(_fmt_score, row[seg + 1 :])])
                n += 1
            return n

        yield add


@contextlib.contextmanager
def _parquet_sink(
    path: Path, langs: Sequence[str], pivot: str, counterfactual: bool = False
) -> Iterator[_Add]:
    """The TSV's rows and columns as Parquet (``seg`` int32, scores float64 or null), written in
    row groups of :data:`PARQUET_ROWS`: what Hugging Face ``datasets`` loads as it is."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    header = _tsv_header(langs, pivot, counterfactual)
    n_scores = len(langs) - 1
    fields = [pa.field(name, pa.string()) for name in header[: -n_scores - 1]]
    fields.append(pa.field("seg", pa.int32()))
    fields += [pa.field(name, pa.float64()) for name in header[len(header) - n_scores :]]
    schema = pa.schema(fields)
    buffer: list[list[Any]] = []
    with atomic_write(path, "wb", encoding=None) as fh, pq.ParquetWriter(fh, schema) as writer:

        def flush() -> None:
            columns = list(zip(*buffer, strict=True)) if buffer else [[] for _ in header]
            writer.write_table(pa.table(dict(zip(header, columns, strict=True)), schema=schema))
            buffer.clear()

        def add(d: _Doc) -> int:
            rows = list(_table_rows(d, langs, pivot, counterfactual))
            buffer.extend(rows)
            if len(buffer) >= PARQUET_ROWS:
                flush()
            return len(rows)

        yield add
        if buffer:
            flush()


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
                scores[lang] = round(float(x), 4)
        yield {
            "text": {lang: seg[lang] for lang in row_langs},
            "qid": d.qid,
            "name": d.name,
            "occupations": occupations,
            "gender": d.gender,
            "urls": {lang: d.url(lang) for lang in row_langs},
            "seg": i + 1,
            "scores": scores,
            **({"source_gender": d.doc.source_gender} if d.doc.source_gender else {}),
        }


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


def _plain_paths(directory: Path, langs: Sequence[str], stem: str) -> dict[str, Path]:
    paths = {lang: directory / f"{stem}.{lang}" for lang in langs}
    paths["docids"] = directory / f"{stem}.docids"
    return paths


@contextlib.contextmanager
def _plain_sink(directory: Path, langs: Sequence[str], stem: str) -> Iterator[_Add]:
    paths = _plain_paths(directory, langs, stem)
    with contextlib.ExitStack() as stack:
        fhs: dict[str, IO[str]] = {
            key: stack.enter_context(atomic_write(p)) for key, p in paths.items()
        }

        def add(d: _Doc) -> int:
            for seg in d.segments:
                for lang in langs:
                    fhs[lang].write(seg[lang] + "\n")
                fhs["docids"].write(d.qid + "\n")
            return len(d.segments)

        yield add


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
    ``{stem}.parquet``, ``{stem}.jsonl``, ``{stem}.{lang}`` per language and
    ``{stem}.docids``; each is the same as the matching single-format writer gives. If
    anything fails midway no file is replaced.

    Returns ``{"files": [names], "documents": n, "segments": n, "skipped_empty": n}`` where
    ``skipped_empty`` counts the documents that had no segments.
    """
    langs = _check_langs(langs, pivot)
    directory = Path(directory)
    xml_names = [f"{stem}.{lang}.xml" for lang in langs]
    tsv_name, jsonl_name, parquet_name = f"{stem}.tsv", f"{stem}.jsonl", f"{stem}.parquet"
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
            add_plain(d)
            n_docs += 1
    return {
        "files": [*xml_names, tsv_name, parquet_name, jsonl_name, *plain_names],
        "documents": n_docs,
        "segments": n_segs,
        "skipped_empty": skipped,
    }
