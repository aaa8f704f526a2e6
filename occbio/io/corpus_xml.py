"""The XML sink: ``{stem}.{lang}.xml`` in the GeBioCorpus vocabulary, one file per language.

The file layout is described in :mod:`occbio.io.corpus`; :func:`occbio.io.corpus.write_xml`
and :func:`occbio.io.corpus.write_corpus` write through ``_xml_sink``, which streams one
``<doc>`` at a time with :func:`lxml.etree.xmlfile`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from occbio.io.corpus_doc import _Add, _Doc, clean_text
from occbio.run import atomic_write

_XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'


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
                        **_provenance_attrs(d, lang),
                        **_counterfactual_attrs(d),
                    },
                )
                etree.SubElement(el, "title").text = d.title(lang)
                for i, text in segs:
                    etree.SubElement(el, "seg", {"id": str(d.seg_id(i))}).text = text
                xf.write(el, pretty_print=True)
                return 1

            yield add
        fh.write(b"\n")


def _provenance_attrs(d: _Doc, lang: str) -> dict[str, str]:
    """The revision the text was read from, when, and where (each only when known)."""
    revision = d.revision_id(lang)
    attrs = {
        "revision_id": "" if revision is None else str(revision),
        "revision_timestamp": d.revision_timestamp(lang),
        "source": d.source(lang),
    }
    return {k: v for k, v in attrs.items() if v}


def _counterfactual_attrs(d: _Doc) -> dict[str, str]:
    """``counterfactual="true"`` and the gender before rewriting, on a rewritten document."""
    source = d.doc.source_gender
    return {"counterfactual": "true", "source_gender": clean_text(source)} if source else {}
