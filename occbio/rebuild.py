"""``occbio rebuild RUN_DIR --out DIR``: fetch exactly the revisions a corpus was made from, and
say whether its sentences come out of them again.

A published corpus records, for every document and language, the revision its text was read
from (``corpus.jsonl``'s ``revision_ids``, the XML's ``revision_id``). This command reads the
corpus, fetches each of those revisions from the Wikipedia REST API
(``/api/rest_v1/page/html/TITLE/REVID``, or ``action=parse&oldid=`` with ``--api parse``)
through the web source's own client (its cache, rate limit, retries, size caps, no redirect to
another host), turns each into sentences by the text stage's own path (HTML -> text ->
cleaning, with the run's cleaning settings when the run's manifest is there) and checks, per
document and language, which of the corpus's sentences are found among them again.

Writes ``DIR/rebuild.jsonl`` (one row per document and language: ``qid``, ``lang``, ``title``,
``revision_id``, ``status`` (``ok``, ``no_revision``: the corpus does not name one, ``missing``,
``bad_shape``, ``error``, ``other_revision``: the site answered with another revision),
``detail``, ``segments``, ``found``, ``missing_segs``) and ``DIR/articles.jsonl`` (the articles
fetched, with their provenance), and prints a summary per language. Exit status 0 when every
sentence was found again, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

__all__ = ["RebuildError", "add_rebuild_parser", "rebuild", "run_rebuild"]

log = logging.getLogger(__name__)

REPORT_FILE = "rebuild.jsonl"
ARTICLES_FILE = "articles.jsonl"


class RebuildError(ValueError):
    """The corpus cannot be rebuilt as asked (one line, no traceback)."""


def add_rebuild_parser(sub: Any) -> None:
    from occbio.cli_options import _split_assignment

    p = sub.add_parser(
        "rebuild",
        help="fetch the exact revisions a corpus was made from and check its sentences",
        description="Fetch, for every document and language of a finished run's corpus, the "
        "very revision its text was read from (REST /page/html/TITLE/REVID, through the web "
        "source's cache and politeness), clean it as the text stage does and report whether "
        "the corpus's sentences are found in it again (OUT/rebuild.jsonl; exit 1 when some "
        "are not).",
    )
    p.add_argument(
        "run_dir",
        type=Path,
        metavar="RUN_DIR",
        help="a mined run, its corpus/ folder, or a corpus.jsonl",
    )
    p.add_argument("--out", type=Path, required=True, help="where the report and articles go")
    p.add_argument(
        "--base-url",
        type=_split_assignment,
        action="append",
        default=[],
        metavar="LANG=URL",
        help="Wikipedia base URL of one language (a mirror; repeatable)",
    )
    p.add_argument("--api", choices=["rest", "parse"], default="rest", help="default: rest")
    p.add_argument("--concurrency", type=int, default=4, metavar="N", help="default: 4")
    p.add_argument("--rate", type=float, default=10.0, metavar="R", help="requests/s (10)")
    p.add_argument("--contact", default="", metavar="EMAIL|URL", help="sent in the User-Agent")
    p.add_argument(
        "--cache-dir", type=Path, metavar="DIR", help="HTTP cache (~/.cache/occbio/http)"
    )
    p.add_argument("--no-cache", action="store_true", help="fetch again, ignore the cache")
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the summary")


@dataclass
class _Wanted:
    """One document's article in one language, as the corpus gives it."""

    qid: str
    lang: str
    title: str
    page_id: int
    revision_id: int
    sentences: dict[int, str] = field(default_factory=dict)  # seg -> sentence


def _corpus_file(path: Path) -> tuple[Path, Path | None]:
    """(corpus.jsonl, the run's manifest or None) for a run, its corpus/ or the file."""
    from occbio.run import MANIFEST

    if path.is_file():
        run = path.parent.parent if path.parent.name == "corpus" else path.parent
        manifest = run / MANIFEST
        return path, manifest if manifest.is_file() else None
    for corpus, run in ((path / "corpus" / "corpus.jsonl", path),
                        (path / "corpus.jsonl", path.parent)):  # fmt: skip
        if corpus.is_file():
            manifest = run / MANIFEST
            return corpus, manifest if manifest.is_file() else None
    raise RebuildError(
        f"{path} holds no corpus (no corpus/corpus.jsonl): give the --out of a finished "
        "`occbio mine`, its corpus/ folder or a corpus.jsonl"
    )


def _title(url: str) -> str:
    """An article's title from its URL (what :func:`occbio.io.corpus.article_url` encoded)."""
    return unquote(url.rsplit("/wiki/", 1)[-1]).replace("_", " ") if "/wiki/" in url else ""


def _wanted(path: Path) -> tuple[list[_Wanted], list[str]]:
    """Every (document, language) of the corpus with its sentences; the languages in order."""
    from occbio.io.corpus_segments import read_segments, segment_provenance

    wanted: dict[tuple[str, str], _Wanted] = {}
    langs: list[str] = []
    for _, row in read_segments(path, RebuildError):
        urls = row.get("urls") if isinstance(row.get("urls"), dict) else {}
        for lang, prov in segment_provenance(row).items():
            if lang not in langs:
                langs.append(lang)
            key = (row["qid"], lang)
            if key not in wanted:
                wanted[key] = _Wanted(
                    row["qid"], lang, _title(str(urls.get(lang) or "")), prov.page_id,
                    prov.revision_id,
                )  # fmt: skip
            text = row["text"].get(lang)
            if isinstance(text, str):
                wanted[key].sentences[row["seg"]] = text
    if not wanted:
        raise RebuildError(f"{path} holds no segment: nothing to rebuild")
    return list(wanted.values()), langs


def _run_settings(manifest: Path | None) -> tuple[dict[str, Any], list[str]]:
    """The cleaning settings and languages of the run that wrote the corpus (its manifest's),
    else occbio's defaults and no languages (the corpus's are used)."""
    from occbio.config import CleanConfig

    if manifest is None:
        log.warning("no manifest.json beside the corpus: cleaning with occbio's defaults")
        return CleanConfig().model_dump(), []
    try:
        config = json.loads(manifest.read_text(encoding="utf-8")).get("config") or {}
        clean = CleanConfig(**(config.get("clean") or {})).model_dump()
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        raise RebuildError(f"{manifest} holds no cleaning settings occbio can use: {exc}") from None
    langs = config.get("langs")
    if isinstance(langs, str):
        langs = [x.strip() for x in langs.split(",") if x.strip()]
    ok = isinstance(langs, list) and all(isinstance(x, str) for x in langs)
    return clean, list(langs) if ok else []


def rebuild(
    corpus: Path,
    out: Path,
    client: Any,
    *,
    clean: dict[str, Any],
    langs: list[str],
) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Fetch every revision of ``corpus`` with ``client`` (a
    :class:`~occbio.extract.wikipedia_web.WikipediaWebClient`), clean it with ``clean`` (a
    :class:`~occbio.config.CleanConfig` as a dict; language identification among ``langs``
    and the corpus's) and write ``out/rebuild.jsonl`` and ``out/articles.jsonl``. Returns the
    report's rows and the counts (per language: ``LANG.segments``, ``LANG.found``,
    ``LANG.revisions``, and ``LANG.STATUS`` per document whose revision could not be used)."""
    from occbio.run import atomic_write
    from occbio.stages.text_workers import _init_worker

    wanted, corpus_langs = _wanted(corpus)
    # language identification among the run's languages, as the text stage did
    _init_worker(clean, (*langs, *(x for x in corpus_langs if x not in langs)))
    out.mkdir(parents=True, exist_ok=True)
    fetchable = [w for w in wanted if w.revision_id and w.title]
    results = iter(client.fetch_many((w.lang, w.title, w.revision_id) for w in fetchable))
    counts: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    with (
        atomic_write(out / REPORT_FILE) as report,
        atomic_write(out / ARTICLES_FILE) as articles,
    ):
        for w in wanted:
            row = _check(w, next(results) if w.revision_id and w.title else None, articles)
            counts[f"{w.lang}.segments"] += row["segments"]
            counts[f"{w.lang}.found"] += row["found"]
            counts[f"{w.lang}.{'revisions' if row['status'] == 'ok' else row['status']}"] += 1
            report.write(json.dumps(row, ensure_ascii=False) + "\n")
            rows.append(row)
    return rows, counts


def _check(w: _Wanted, res: Any, articles: Any) -> dict[str, Any]:
    """One document's language: its revision fetched (``res``, None when the corpus names
    none) and cleaned as the text stage does, its sentences looked for; the article goes to
    ``articles``."""
    from occbio.io.corpus_doc import clean_text
    from occbio.stages.text_workers import _PageJob, _process_page

    row: dict[str, Any] = {
        "qid": w.qid,
        "lang": w.lang,
        "title": w.title,
        "revision_id": w.revision_id or None,
        "status": "ok",
        "detail": "",
        "segments": len(w.sentences),
        "found": 0,
        "missing_segs": sorted(w.sentences),
    }
    if res is None:
        why = "the corpus names no revision" if not w.revision_id else "the corpus names no title"
        return row | {"status": "no_revision", "detail": why}
    if res.status != "ok":
        return row | {"status": res.status, "detail": res.detail}
    if res.revision_id and res.revision_id != w.revision_id:
        detail = f"asked for revision {w.revision_id}, the site answered {res.revision_id}"
        return row | {"status": "other_revision", "detail": detail}
    result = _process_page(
        _PageJob(
            w.qid,
            w.lang,
            res.final_title or w.title,
            res.page_id or w.page_id,
            res.html,
            "html",
            revision_id=w.revision_id,
            revision_timestamp=res.revision_timestamp,
            source=f"web:{res.url}@{res.retrieved}",
        )
    )
    if result.article is None:
        return row | {"status": result.skip_reason, "detail": result.detail}
    articles.write(json.dumps(result.article.to_dict(), ensure_ascii=False) + "\n")
    again = {clean_text(s.text) for s in result.sentences}
    missing = sorted(seg for seg, text in w.sentences.items() if clean_text(text) not in again)
    return row | {"found": len(w.sentences) - len(missing), "missing_segs": missing}


def _summary(counts: Counter[str], langs: list[str]) -> Iterator[str]:
    problems: dict[str, list[str]] = defaultdict(list)
    for key, n in sorted(counts.items()):
        lang, _, what = key.partition(".")
        if what not in ("segments", "found", "revisions"):
            problems[lang].append(f"{n} {what}")
    for lang in langs:
        total, found = counts[f"{lang}.segments"], counts[f"{lang}.found"]
        extra = f"; not fetched: {', '.join(problems[lang])}" if problems[lang] else ""
        yield (
            f"  {lang}: {counts[f'{lang}.revisions']} revisions fetched, {found}/{total} "
            f"sentences found again{extra}"
        )


def run_rebuild(args: argparse.Namespace) -> int:
    from occbio.config import HttpConfig
    from occbio.extract.wikipedia_web import WikipediaWebClient

    corpus, manifest = _corpus_file(args.run_dir)
    clean, langs = _run_settings(manifest)
    if not args.contact and not args.base_url:
        log.warning(
            "no contact in the User-Agent: Wikimedia asks clients of its live sites for one; "
            "pass --contact EMAIL"
        )
    http = HttpConfig(contact=args.contact, cache_dir=args.cache_dir, cache=not args.no_cache)
    client = WikipediaWebClient(
        user_agent=http.resolved_user_agent(),
        base_urls=dict(args.base_url),
        api=args.api,
        concurrency=args.concurrency,
        rate=args.rate,
        retries=http.retries,
        backoff=http.backoff,
        max_wait=http.max_wait,
        timeout=http.timeout,
        cache_dir=http.resolved_cache_dir(),
        lock_wait=http.lock_wait,
    )
    with client:
        rows, counts = rebuild(corpus, args.out, client, clean=clean, langs=langs)
    complete = all(r["found"] == r["segments"] for r in rows)
    print(
        f"rebuild: {len(rows)} articles of {len({r['qid'] for r in rows})} documents; "
        + ("every sentence found again" if complete else "some sentences not found again")
    )
    for line in _summary(counts, list(dict.fromkeys(r["lang"] for r in rows))):
        print(line)
    print(f"report: {args.out / REPORT_FILE} (articles: {args.out / ARTICLES_FILE})")
    return 0 if complete else 1
