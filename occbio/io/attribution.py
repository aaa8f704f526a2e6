"""``corpus/ATTRIBUTION.tsv``: the article, revision and history behind every document's text.

CC BY-SA 4.0 asks whoever reuses Wikipedia's text to credit its authors: a title, a link, the
licence, and the history that names the contributors. The write stage lists, for every document
and language of the corpus, the article its sentences were taken from:

``qid``, ``language``, ``title``, ``url`` (the article), ``revision_id`` and
``revision_timestamp`` (the revision read, ISO 8601 UTC; empty where the source did not say),
``revision_url`` (its permanent link, ``https://LANG.wikipedia.org/w/index.php?oldid=N``),
``history_url`` (the article's history: its authors), ``licence`` and ``source`` (where the text
was read: ``dump:FILE``, ``html-dump:FILE`` or ``web:URL@RETRIEVED``).

Written in the TSV dialect of ``corpus.tsv`` (:func:`occbio.io.corpus.tsv_writer`), one row per
document and language, in corpus order. :func:`source_summary` says in a few lines where the
text was read, for the data card.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from occbio.io.corpus_doc import article_url, clean_text, history_url, revision_url
from occbio.io.corpus_table import tsv_writer
from occbio.records import Document
from occbio.run import atomic_write

__all__ = [
    "ATTRIBUTION_COLUMNS",
    "ATTRIBUTION_FILE",
    "WIKIPEDIA_LICENCE",
    "attribution_rows",
    "source_summary",
    "write_attribution",
]

ATTRIBUTION_FILE = "ATTRIBUTION.tsv"
WIKIPEDIA_LICENCE = "CC BY-SA 4.0"
ATTRIBUTION_COLUMNS = [
    "qid",
    "language",
    "title",
    "url",
    "revision_id",
    "revision_timestamp",
    "revision_url",
    "history_url",
    "licence",
    "source",
]


def attribution_rows(
    doc: Document, langs: Sequence[str], licence: str = WIKIPEDIA_LICENCE
) -> Iterator[dict[str, str]]:
    """One row per language of ``doc`` that has an article (a title)."""
    for lang in langs:
        title = clean_text(doc.entity.titles.get(lang, ""))
        if not title:
            continue
        revision = doc.revision_ids.get(lang) or 0
        yield {
            "qid": clean_text(doc.entity.qid),
            "language": lang,
            "title": title,
            "url": article_url(lang, title),
            "revision_id": str(revision) if revision else "",
            "revision_timestamp": clean_text(doc.revision_timestamps.get(lang, "")),
            "revision_url": revision_url(lang, revision) if revision else "",
            "history_url": history_url(lang, title),
            "licence": licence,
            "source": clean_text(doc.sources.get(lang, "")),
        }


def write_attribution(path: Path, rows: Iterable[dict[str, str]]) -> int:
    """Write ``rows`` (from :func:`attribution_rows`) to ``path``; return how many."""
    n = 0
    with atomic_write(Path(path)) as fh:
        out = tsv_writer(fh)
        out.writerow(ATTRIBUTION_COLUMNS)
        for row in rows:
            out.writerow([row[c] for c in ATTRIBUTION_COLUMNS])
            n += 1
    return n


def _site(url: str) -> str:
    """``scheme://host`` of a fetched page's URL, with the base path a mirror may have (the
    part before ``/api/rest_v1/`` or ``/w/api.php``)."""
    parts = urlsplit(url)
    path = parts.path
    for marker in ("/api/rest_v1/", "/w/api.php"):
        if marker in path:
            path = path[: path.index(marker)]
            break
    return f"{parts.scheme}://{parts.netloc}{path}"


def source_summary(rows: Iterable[dict[str, str]]) -> list[str]:
    """Where the corpus's text was read, one line per dump file or web site, with how many
    articles, their revisions' dates and (web) when they were fetched; sorted."""
    dumps: dict[tuple[str, str], list[str]] = defaultdict(list)  # (kind, file) -> timestamps
    sites: dict[str, list[tuple[str, str]]] = defaultdict(list)  # site -> (timestamp, fetched)
    unknown = 0
    for row in rows:
        source, stamp = row["source"], row["revision_timestamp"]
        kind, _, where = source.partition(":")
        if kind in ("dump", "html-dump") and where:
            dumps[(kind, where)].append(stamp)
        elif kind == "web" and where:
            url, _, fetched = where.rpartition("@")
            sites[_site(url or where)].append((stamp, fetched if url else ""))
        else:
            unknown += 1
    lines = []
    for (kind, name), stamps in sorted(dumps.items()):
        what = "pages-articles XML dump" if kind == "dump" else "Enterprise HTML dump"
        lines.append(f"`{name}` ({what}): {_articles(len(stamps))}{_span('revisions', stamps)}")
    for site, got in sorted(sites.items()):
        fetched = [f for _, f in got]
        lines.append(
            f"{site} (Wikipedia web): {_articles(len(got))}"
            f"{_span('revisions', [s for s, _ in got])}{_span('fetched', fetched, '')}"
        )
    if unknown:
        lines.append(f"{_articles(unknown)} whose source was not recorded (an older run)")
    return lines


def _articles(n: int) -> str:
    return f"{n} article{'s' if n != 1 else ''}"


def _span(what: str, stamps: Sequence[str], single: str = "of ") -> str:
    """``, revisions of T`` (one time) or ``, revisions from T1 to T2``; ``""`` for none."""
    known = sorted(s for s in stamps if s)
    if not known:
        return ""
    first, last = known[0], known[-1]
    return f", {what} {single}{first}" if first == last else f", {what} from {first} to {last}"
