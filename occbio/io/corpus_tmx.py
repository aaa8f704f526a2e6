"""The TMX sink: ``{stem}.tmx``, the whole corpus as one TMX 1.4b translation memory.

One ``<tu>`` per aligned tuple, with a ``<tuv xml:lang="…">`` for every language (the pivot,
the header's ``srclang``, first), so a CAT tool or translate-toolkit
(``translate.storage.tmx``, ``pocount``, ``pogrep``) reads it as a multilingual memory::

    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE tmx SYSTEM "tmx14.dtd">
    <tmx version="1.4">
    <header creationtool="occbio" creationtoolversion="0.1.0" segtype="sentence"
            o-tmf="occbio corpus" adminlang="en" srclang="en" datatype="plaintext"/>
    <body>
    <tu tuid="Q123:1">
      <prop type="x-qid">Q123</prop>
      <prop type="x-name">Ana Pérez</prop>
      <prop type="x-seg">1</prop>
      <prop type="x-gender">female</prop>
      <prop type="x-occupations">writer|poet</prop>
      <prop type="x-occupation-qids">Q36180|Q49757</prop>
      <tuv xml:lang="en">
        <prop type="x-url">https://en.wikipedia.org/wiki/Ana_P%C3%A9rez</prop>
        <prop type="x-page-id">55</prop>
        <prop type="x-revision-id">1234</prop>
        <prop type="x-revision-timestamp">2024-05-01T10:00:00Z</prop>
        <prop type="x-source">dump:enwiki-20240601-pages-articles.xml.bz2</prop>
        <seg>Ana Pérez was born in Vic.</seg>
      </tuv>
      <tuv xml:lang="es">
        <prop type="x-score">1.2345</prop>
        …
      </tuv>
    </tu>
    </body>
    </tmx>

``tuid`` is ``QID:SEG``, the id of the segment in ``corpus.jsonl`` (and in ``occbio
review``). The person's QID is also the document's id (``docid`` of the XML files). Every
``<prop>`` type starts with ``x-`` (TMX's user-defined types); a value that is not known (no
occupation, no revision id, the pivot's score) is left out rather than written empty. A
counterfactual copy's ``<tu>`` adds ``x-counterfactual`` (``true``) and ``x-source-gender``.
``x-score`` is the margin score against the pivot as Python's shortest repr, the same float
as the TSV's, JSONL's and Parquet's.

Text and the characters XML cannot carry: every value passes through
:func:`occbio.io.corpus_doc.clean_text` first, as in every format, which removes the code
points XML 1.0 forbids (C0 controls other than tab/LF/CR, lone surrogates, U+FFFE/U+FFFF) and
collapses whitespace; lxml escapes ``<``, ``&`` and ``>`` (so ``]]>`` is harmless). No segment
is dropped for its characters: the TMX holds exactly the text of ``corpus.jsonl``.

The header has no ``creationdate`` (optional in TMX 1.4b): a date from the clock would make two
runs on the same input differ; the same input gives the same bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from lxml import etree

from occbio import __version__
from occbio.io.corpus_doc import _Add, _Doc, clean_text
from occbio.io.corpus_table import fmt_score
from occbio.run import atomic_write

_PROLOGUE = b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n'

#: ``xml:lang`` in lxml's Clark notation.
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

#: What the header says the memory's format is (TMX's ``o-tmf``, the original format).
O_TMF = "occbio corpus"


def _header(pivot: str) -> dict[str, str]:
    return {
        "creationtool": "occbio",
        "creationtoolversion": __version__,
        "segtype": "sentence",
        "o-tmf": O_TMF,
        "adminlang": "en",
        "srclang": pivot,
        "datatype": "plaintext",
    }


def _prop(parent: etree._Element, kind: str, value: str) -> None:
    """A ``<prop type="x-KIND">`` with ``value``, unless ``value`` is empty."""
    if value:
        etree.SubElement(parent, "prop", {"type": f"x-{kind}"}).text = value


def _tu(d: _Doc, i: int, langs: Sequence[str], pivot: str) -> etree._Element:
    """The ``<tu>`` of ``d``'s ``i``-th segment: the document's props, then a ``<tuv>`` per
    language with where its text came from."""
    seg_id = d.seg_id(i)
    tu = etree.Element("tu", {"tuid": f"{d.qid}:{seg_id}"})
    _prop(tu, "qid", d.qid)
    _prop(tu, "name", d.name)
    _prop(tu, "seg", str(seg_id))
    _prop(tu, "gender", d.gender)
    source_gender = clean_text(d.doc.source_gender)
    if source_gender:
        _prop(tu, "counterfactual", "true")
        _prop(tu, "source-gender", source_gender)
    _prop(tu, "occupations", d.occupation_labels())
    _prop(tu, "occupation-qids", d.occupation_qids)
    segment = d.segments[i]
    for lang in langs:
        tuv = etree.SubElement(tu, "tuv", {_XML_LANG: lang})
        if lang != pivot:
            _prop(tuv, "score", fmt_score(d.score(i, lang)))
        _prop(tuv, "url", d.url(lang))
        _prop(tuv, "page-id", d.page_id(lang))
        revision = d.revision_id(lang)
        _prop(tuv, "revision-id", "" if revision is None else str(revision))
        _prop(tuv, "revision-timestamp", d.revision_timestamp(lang))
        _prop(tuv, "source", d.source(lang))
        etree.SubElement(tuv, "seg").text = segment[lang]
    return tu


@contextlib.contextmanager
def _tmx_sink(path: Path, langs: Sequence[str], pivot: str) -> Iterator[_Add]:
    """Stream ``<tu>`` elements into ``path`` (atomically: whole or not at all); ``add``
    writes one document's segments and returns how many. The pivot's ``<tuv>`` comes first."""
    order = [pivot, *(lang for lang in langs if lang != pivot)]
    with atomic_write(path, "wb", encoding=None) as fh:
        fh.write(_PROLOGUE)
        with etree.xmlfile(fh, encoding="UTF-8") as xf, xf.element("tmx", {"version": "1.4"}):
            xf.write("\n")
            xf.write(etree.Element("header", _header(pivot)), pretty_print=True)
            with xf.element("body"):
                xf.write("\n")

                def add(d: _Doc) -> int:
                    for i in range(len(d.segments)):
                        xf.write(_tu(d, i, order, pivot), pretty_print=True)
                    return len(d.segments)

                yield add
            xf.write("\n")
        fh.write(b"\n")
