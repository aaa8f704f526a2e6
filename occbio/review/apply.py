"""``occbio review apply``: the post-edited corpus, ``corpus/post-edited.*``.

Built from the published corpus (``corpus/corpus.jsonl``, with each article's page id and
title from ``corpus/corpus.{lang}.xml``) and the imported judgments, and written in every
format by :func:`occbio.io.corpus.write_corpus`; the original files stay as they are. A segment
judged not parallel in any language of its tuple is removed in every language, so the documents
stay multi-way parallel; the others keep their numbers (``seg``), so each still pairs with its
original and its judgments. A post-edit replaces that language's sentence.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from lxml import etree

from occbio.io.corpus import clean_text, write_corpus
from occbio.io.corpus_segments import segment_provenance
from occbio.records import Document, Entity, Occupation
from occbio.review.items import ReviewError, corpus_file, corpus_rows, run_id
from occbio.review.judgments import JUDGMENTS_FILE, item_verdicts, load_judgments
from occbio.review.stats import NOT_PARALLEL
from occbio.run import RunDir, file_sum, fingerprint
from occbio.runlock import run_lock

__all__ = ["STEM", "apply_review", "post_edit_documents", "post_edits"]

log = logging.getLogger(__name__)

STEM = "post-edited"
STAGE = "review-apply"


def post_edits(
    store: Mapping[str, Mapping[str, Mapping[str, Any]]],
) -> tuple[dict[str, str], int]:
    """Each item's post-edit, and how many items had different ones: the text most of its
    post-editors wrote, on a tie the first annotator's (by name) among the tied texts."""
    by_item: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for annotator, judged in sorted(store.items()):
        for item_id, j in judged.items():
            if j.get("post_edit"):
                by_item[item_id].append((annotator, clean_text(j["post_edit"])))
    chosen, conflicts = {}, 0
    for item_id, edits in by_item.items():
        counts = Counter(text for _, text in edits)
        top = max(counts.values())
        conflicts += len(counts) > 1
        chosen[item_id] = next(text for _, text in edits if counts[text] == top)
    return chosen, conflicts


def post_edit_documents(
    rows: Iterable[Mapping[str, Any]],
    run: str,
    verdicts: Mapping[str, str],
    edits: Mapping[str, str],
    articles: Mapping[tuple[str, str], tuple[int | None, str]],
    counts: Counter[str],
) -> list[Document]:
    """The corpus's documents with the judgments applied (``rows``: corpus.jsonl's, in order;
    ``articles``: (qid, lang) -> (page id, title)); ``counts`` gets segments kept, removed and
    post-edited, documents kept and dropped (every segment removed)."""
    by_doc: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_doc[row["qid"]].append(row)
    docs = []
    for qid, doc_rows in by_doc.items():
        first = doc_rows[0]
        langs = list(first["text"])
        segments, scores, seg_ids = [], [], []
        for row in doc_rows:
            ids = {lang: f"{run}:{qid}:{row['seg']}:{lang}" for lang in langs}
            if any(verdicts.get(i) == NOT_PARALLEL for i in ids.values()):
                counts["segments_removed"] += 1
                continue
            text = dict(row["text"])
            for lang, item_id in ids.items():
                edit = edits.get(item_id)
                if edit is not None and edit != clean_text(text[lang]):
                    text[lang] = edit
                    counts["texts_post_edited"] += 1
            counts["segments_kept"] += 1
            segments.append(text)
            scores.append(dict(row.get("scores") or {}))
            seg_ids.append(int(row["seg"]))
        if not segments:
            counts["documents_dropped"] += 1
            continue
        counts["documents"] += 1
        entity = Entity(
            qid=qid,
            label=str(first.get("name") or ""),
            gender=str(first.get("gender") or "unknown"),
            occupations=[
                Occupation(str(o.get("qid", "")), str(o.get("label", "")))
                for o in first.get("occupations") or []
            ],
            titles={
                lang: articles.get((qid, lang), (None, ""))[1] or _title(url)
                for lang, url in (first.get("urls") or {}).items()
                if url
            },
        )
        page_ids = {
            lang: pid
            for lang in langs
            if (pid := articles.get((qid, lang), (None, ""))[0]) is not None
        }
        # the revisions the text was read from, as the corpus says (none in an older corpus)
        provenance = segment_provenance(dict(first))
        docs.append(
            Document(
                entity=entity,
                segments=segments,
                scores=scores,
                page_ids=page_ids,
                seg_ids=seg_ids,
                revision_ids={k: p.revision_id for k, p in provenance.items() if p.revision_id},
                revision_timestamps={
                    k: p.revision_timestamp for k, p in provenance.items() if p.revision_timestamp
                },
                sources={k: p.source for k, p in provenance.items() if p.source},
            )
        )
    return docs


def _title(url: str) -> str:
    """An article's title from its URL (what :func:`occbio.io.corpus.article_url` encoded)."""
    return unquote(url.rsplit("/wiki/", 1)[-1]).replace("_", " ")


def _articles(
    corpus_dir: Path, langs: Iterable[str]
) -> dict[tuple[str, str], tuple[int | None, str]]:
    """(qid, lang) -> (page id, title) from the corpus's XML files (those that exist)."""
    out = {}
    for lang in langs:
        path = corpus_dir / f"corpus.{lang}.xml"
        if not path.is_file():
            continue
        try:
            for _, el in etree.iterparse(str(path), tag="doc"):
                wpid = el.get("wpid") or ""
                out[(el.get("docid", ""), lang)] = (
                    int(wpid) if wpid.isdigit() else None,
                    el.findtext("title") or "",
                )
                el.clear()
        except etree.XMLSyntaxError as exc:
            raise ReviewError(f"{path}: damaged XML ({exc})") from None
    return out


def apply_review(run_dir: Path) -> str:
    """Write ``corpus/post-edited.*`` from the judgments, record the counts in the manifest,
    and return what was written."""
    run_dir = Path(run_dir)
    rid = run_id(run_dir)
    with run_lock(run_dir):
        store = load_judgments(run_dir, rid)
        if not store:
            raise ReviewError(
                f"{run_dir / JUDGMENTS_FILE} does not exist: run `occbio review import "
                f"{run_dir} JUDGMENTS...` first"
            )
        rows = corpus_rows(corpus_file(run_dir))
        if not rows:
            raise ReviewError(f"{corpus_file(run_dir)} holds no segment")
        langs = list(rows[0]["text"])
        known = {f"{rid}:{r['qid']}:{r['seg']}:{lang}" for r in rows for lang in langs[1:]}
        unknown = next((i for judged in store.values() for i in judged if i not in known), None)
        if unknown is not None:  # judgments no item takes would be dropped without a word
            raise ReviewError(
                f"{run_dir / JUDGMENTS_FILE} is damaged ({unknown[:60]!r} is not an item of run "
                f"{rid}); delete it and import every annotator's file again"
            )
        edits, conflicts = post_edits(store)
        counts: Counter[str] = Counter()
        docs = post_edit_documents(
            rows, rid, item_verdicts(store), edits, _articles(run_dir / "corpus", langs), counts
        )
        counts["post_edit_conflicts"] = conflicts
        if conflicts:
            log.warning(
                "%d items had different post-edits: took the majority's, on a tie the "
                "first annotator's by name",
                conflicts,
            )
        run = RunDir(run_dir)
        state = run.stage(STAGE)
        inputs = {"run": rid, "judgments": file_sum(run_dir / JUDGMENTS_FILE)["sha256"]}
        state.begin(fingerprint(inputs), inputs=inputs, settings={})
        written = write_corpus(run_dir / "corpus", langs, docs, pivot=langs[0], stem=STEM)
        files = [f"corpus/{name}" for name in written["files"]]
        keys = (
            "documents",
            "documents_dropped",
            "segments_kept",
            "segments_removed",
            "texts_post_edited",
            "post_edit_conflicts",
        )
        state.finish(counts={k: counts[k] for k in keys}, outputs=files)
    lines = [f"{k.replace('_', ' ')}: {counts[k]}" for k in keys]
    return "\n".join([*lines, *(str(run_dir / f) for f in files)])
