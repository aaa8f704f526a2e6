"""The cleaned view of one document that every corpus format is written from.

:func:`occbio.io.corpus.write_corpus` and the single-format writers hand each
:class:`occbio.records.Document` to one sink per format (:mod:`occbio.io.corpus_xml`,
:mod:`occbio.io.corpus_table`, :mod:`occbio.io.corpus_jsonl`, :mod:`occbio.io.corpus_tmx`,
:mod:`occbio.io.corpus_plain`).
This module holds what they all share, so the same cleaned text appears in every format:
:func:`clean_text`, :func:`article_url`, ``_Doc`` (a document's fields, cleaned once),
``_check_langs`` and ``_Add``, the signature of a sink's ``add``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from urllib.parse import quote

from occbio.records import Document

#: Code points XML 1.0 forbids (C0 controls except tab/LF/CR, surrogates, U+FFFE/U+FFFF).
_XML_ILLEGAL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

#: What MediaWiki's ``wfUrlencode`` leaves unescaped in a page URL (besides ``A-Za-z0-9_.-~``).
_URL_SAFE = ";@$!*(),/~:"


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


def revision_url(lang: str, revision_id: int) -> str:
    """The permanent URL of one revision: ``https://LANG.wikipedia.org/w/index.php?oldid=N``."""
    return f"https://{lang}.wikipedia.org/w/index.php?oldid={int(revision_id)}"


def history_url(lang: str, title: str) -> str:
    """The URL of an article's history (its authors, whom CC BY-SA asks to credit)."""
    path = quote(title.strip().replace(" ", "_"), safe=_URL_SAFE)
    return f"https://{lang}.wikipedia.org/w/index.php?title={path}&action=history"


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

    def revision_id(self, lang: str) -> int | None:
        """The revision ``lang``'s text was read from (``None``: the source did not say)."""
        return self.doc.revision_ids.get(lang) or None

    def revision_timestamp(self, lang: str) -> str:
        return clean_text(self.doc.revision_timestamps.get(lang, ""))

    def source(self, lang: str) -> str:
        """Where ``lang``'s text was read: ``dump:FILE``, ``web:URL@RETRIEVED``, ..."""
        return clean_text(self.doc.sources.get(lang, ""))

    def seg_id(self, i: int) -> int:
        return self.doc.seg_id(i)

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
