"""Stage ``write``: the finished corpus and what describes it.

Reads the balanced tuples and each person's decision; writes ``corpus/`` (document-level XML per
language in GeBioCorpus's vocabulary, TSV, JSONL, Parquet, TMX, line-aligned text files with doc
ids), then ``stats.json`` (the funnel of OccGen's Table 1), ``DATACARD.md`` and
``occupations_by_gender.png`` (people per occupation by gender, before and after balancing).
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from occbio import __version__
from occbio.audit.command import audit_lexicon
from occbio.audit.inputs import read_records
from occbio.audit.lexicon_result import LexiconResult
from occbio.augment import check_languages, counterfactuals
from occbio.config import RunConfig
from occbio.io.attribution import (
    ATTRIBUTION_FILE,
    WIKIPEDIA_LICENCE,
    attribution_rows,
    source_summary,
    write_attribution,
)
from occbio.io.corpus import CORPUS_FORMATS, write_corpus
from occbio.io.jsonl import JsonlIndex, read_jsonl
from occbio.records import Article, Document, Entity, Occupation
from occbio.report.chart import gender_gap_chart, occupation_chart
from occbio.report.datacard import provenance, render_datacard
from occbio.report.funnel import Person, funnel
from occbio.rewrite import rules_fingerprint
from occbio.run import RunDir, StageState, atomic_write, fingerprint
from occbio.stages.align import ALIGNMENTS_FILE
from occbio.stages.balance import BALANCED_FILE, GROUPS_FILE, PEOPLE_FILE
from occbio.stages.balance import STAGE as BALANCE_STAGE
from occbio.stages.common import StageResult
from occbio.stages.entities import ENTITIES_FILE, OCCUPATIONS_FILE
from occbio.stages.text import articles_path, sentences_path

__all__ = ["run_write", "CORPUS_DIR", "STATS_FILE", "DATACARD_FILE", "CHART_FILE", "read_stats"]

log = logging.getLogger(__name__)

STAGE = "write"
CORPUS_DIR = "corpus"
STATS_FILE = "stats.json"
DATACARD_FILE = "DATACARD.md"
CHART_FILE = "occupations_by_gender.png"
GAP_CHART_FILE = "gender_gap.png"
#: The counterfactual copy's files: corpus/counterfactual.{lang}.xml, .tsv, .jsonl, ...
COUNTERFACTUAL_STEM = "counterfactual"


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    """An earlier stage's JSON lines; a damaged line is one clear error naming the file."""
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            try:
                yield json.loads(line)
            except ValueError as exc:
                raise ValueError(
                    f"{path}:{line_no} is damaged ({exc}); delete the stage's outputs and run "
                    "it again with the same --out"
                ) from None


def _articles(run: RunDir, langs: list[str], wanted: set[str]) -> dict[str, dict[str, Article]]:
    """Each wanted person's article per language, without its text (only theirs parsed): the
    page id and provenance of every document."""
    found: dict[str, dict[str, Article]] = defaultdict(dict)
    for lang in langs:
        with JsonlIndex(articles_path(run, lang), "qid") as articles:
            for qid in wanted & articles.spans.keys():
                for row in articles.rows(qid):
                    found[qid][lang] = Article.from_dict({**row, "text": ""})
    return found


def _provenance(articles: dict[str, Article]) -> dict[str, Any]:
    """A document's page ids and, where its source said, revisions and sources, by language."""
    return {
        "page_ids": {lang: a.page_id for lang, a in articles.items()},
        "revision_ids": {lang: a.revision_id for lang, a in articles.items() if a.revision_id},
        "revision_timestamps": {
            lang: a.revision_timestamp for lang, a in articles.items() if a.revision_timestamp
        },
        "sources": {lang: a.source for lang, a in articles.items() if a.source},
    }


def _documents(
    run: RunDir,
    cfg: RunConfig,
    people: dict[str, dict[str, Any]],
    entities: dict[str, Entity],
    labels: dict[str, str],
) -> Iterator[Document]:
    """The kept people's documents in QID order, segments in article order (one person's
    tuples in memory at a time)."""
    kept = [qid for qid, p in people.items() if p["kept"]]
    articles = _articles(run, cfg.langs, set(kept))
    with JsonlIndex(run.path / BALANCED_FILE, "doc") as balanced:
        for qid in kept:
            e = entities[qid]
            entity = Entity(
                qid=e.qid,
                label=e.label,
                genders=e.genders,
                gender=people[qid]["gender"],
                occupations=[
                    Occupation(o.qid, o.label or labels.get(o.qid, "")) for o in e.occupations
                ],
                titles=e.titles,
            )
            rows = sorted(balanced.rows(qid), key=lambda r: r["idx"][cfg.pivot])
            yield Document(
                entity=entity,
                segments=[{lang: r["text"][lang] for lang in cfg.langs} for r in rows],
                scores=[dict(r.get("score", {})) for r in rows],
                **_provenance(articles.get(qid, {})),
            )


def _funnel(run: RunDir, cfg: RunConfig, people: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """People, occupations and sentences after each stage, by the final gender categories."""

    def person(qid: str, sentences: int | None) -> Person:
        p = people[qid]
        return Person(qid, p["gender"], tuple(p["occupations"]), sentences)

    per_lang: list[Counter[str]] = []
    for lang in cfg.langs:
        per_lang.append(Counter(r["qid"] for r in _rows(sentences_path(run, lang))))
    in_all = set.intersection(*(set(c) for c in per_lang)) if per_lang else set()
    pivot_counts = per_lang[cfg.langs.index(cfg.pivot)] if per_lang else Counter()
    aligned = Counter(r["doc"] for r in _rows(run.path / ALIGNMENTS_FILE))
    stages = {
        "entities": [person(q, None) for q in people],
        "text": [person(q, pivot_counts[q]) for q in people if q in in_all],
        "align": [person(q, aligned[q]) for q in people if aligned.get(q)],
        "balance": [person(q, p["kept_tuples"]) for q, p in people.items() if p["kept"]],
    }
    return [row.to_dict() for row in funnel(stages, cfg.balance.genders)]


def _by_occupation(people: dict[str, dict[str, Any]], *, kept: bool) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for p in people.values():
        if kept and not p["kept"]:
            continue
        if not kept and p["reason"] == "no_aligned_sentences":
            continue
        for occ in p["occupations"]:
            out[occ][p["gender"]] += 1
    return {q: dict(c) for q, c in out.items()}


def _file(identity: dict[str, Any]) -> str:
    """A dump's name and the date of the file (dump names usually carry theirs too)."""
    day = datetime.fromtimestamp(identity["mtime_ns"] / 1e9, timezone.utc).strftime("%Y-%m-%d")
    return f"`{Path(identity['path']).name}` (file dated {day})"


#: The licence ATTRIBUTION.tsv gives the bundled sample's text (fictional, occbio's own).
SAMPLE_LICENCE = "MIT (occbio's fictional sample; no Wikipedia text)"


def _noting_credits(
    docs: Iterator[Document], langs: list[str], licence: str, credits: list[dict[str, str]]
) -> Iterator[Document]:
    """``docs`` as they are, each written document's attribution rows added to ``credits``."""
    for doc in docs:
        if doc.segments:  # a document without segments is not written
            credits.extend(attribution_rows(doc, langs, licence))
        yield doc


#: What the data card of a run on the bundled sample says first.
SAMPLE_NOTE = (
    "**Made from occbio's bundled sample, not from Wikipedia.** The people (ids `Q99000…`), "
    "their Wikidata entries and their articles are fictional, written to exercise the tool; "
    "the article URLs point to no real page."
)


def _sources(run: RunDir, *, sample: bool = False) -> dict[str, str]:
    """Each input with its URL or file and the date it was read, languages in code order (the
    manifest is saved with sorted keys: the same order whether a stage ran in this process or
    an earlier one, so a resumed run writes the same data card)."""
    if sample:
        return {
            "people and biographies": "occbio's bundled sample (`occbio/data/sample/`): "
            "fictional Wikidata entries and pages-articles dumps in the real formats",
            **{k: v for k, v in _sources(run).items() if k == "alignment"},
        }
    out = {}
    ent = run.stage_record("entities")
    when = ent.get("finished", "")[:10]
    inputs = ent.get("inputs", {})
    if "endpoint" in inputs:
        out["people"] = f"Wikidata via SPARQL at {inputs['endpoint']}, queried {when}"
    elif "dump" in inputs:
        out["people"] = f"Wikidata JSON dump {_file(inputs['dump'])}, read {when}"
    text = run.stage_record("text")
    when = text.get("finished", "")[:10]
    t_inputs = text.get("inputs", {})
    if "web" in t_inputs:
        sites = ", ".join(site for _, site in sorted(t_inputs["web"]["sites"].items()))
        out["biographies"] = (
            f"Wikipedia web ({t_inputs['web']['api']} API) at {sites}, fetched {when}"
        )
    for lang, ident in sorted(t_inputs.get("dumps", {}).items()):
        out[f"biographies ({lang})"] = f"pages-articles dump {_file(ident)}"
    align = run.stage_record("align")
    scope = align.get("settings", {}).get("mining", {}).get("scope", "?")
    floor, threshold, min_prob = align.get("min_cos"), align.get("threshold"), align.get("min_prob")
    target = align.get("target_precision")
    rule = [f"target precision {target}"] if target is not None else []
    rule += [f"P(parallel) >= {min_prob:.4g}"] if min_prob is not None else []
    rule += [f"threshold {threshold}"] if threshold is not None else []
    rule += [f"min cosine {floor}"] if floor is not None else []
    out["alignment"] = (
        f"encoder {align.get('encoder', '?')}, {scope}-normalised ratio margin, "
        + ", ".join(rule or ["threshold ?"])
    )
    expected, recall = align.get("expected_precision"), align.get("expected_recall")
    if expected is not None:
        out["alignment"] += f"; expected precision {expected:.3f}" + (
            f", expected recall {recall:.3f} (of the pairs mining retrieved)"
            if recall is not None
            else ""
        )
        calibration = align.get("calibration") or {}
        if calibration.get("source") == "review":
            kept, hits = calibration["judged_kept"], calibration["judged_kept_parallel"]
            low, high = calibration["interval"] or (0.0, 0.0)
            out["alignment"] += (
                " (the reviewed estimate before balancing: the mean P(parallel) of the aligned "
                "tuples from the encoder's model corrected by this run's review, "
                f"{calibration['judged']} judged pairs; of the judged pairs at or above the "
                f"floor, {hits} of {kept} were parallel, 95 % Wilson interval "
                f"{low:.3f}-{high:.3f})"
            )
        else:
            out["alignment"] += (
                " (the model's estimate before balancing: the mean P(parallel) of the aligned "
                "tuples, from the encoder's model trained on NTREX news, not checked on this "
                "run; see docs/alignment.md for how it compared with the precision observed on "
                "held-out biographies, and `occbio review` to check it here)"
            )
    return out


def _keep_review(run: RunDir, card: str) -> str:
    """``card`` with the "Human review" section of the card it replaces, while the corpus is
    still the one reviewed (``occbio review import`` recorded its id); otherwise as it is."""
    path = run.path / DATACARD_FILE
    judged = run.path / "review" / "judgments.json"
    if not path.is_file() or not judged.is_file():
        return card
    from occbio.review.items import ReviewError, run_id
    from occbio.review.report import kept_section, replace_section

    try:  # the section is made again from the report (names escaped); else kept as written
        report = json.loads((run.path / "review" / "report.json").read_text("utf-8"))
    except (OSError, ValueError, RecursionError):
        report = None
    try:
        reviewed = json.loads(judged.read_text(encoding="utf-8")).get("run")
        section = kept_section(path.read_text(encoding="utf-8"), report)
        if section is None or reviewed != run_id(run.path):
            return card
    except (OSError, ValueError, ReviewError, AttributeError, RecursionError):
        return card
    return replace_section(card, section)


def run_write(
    cfg: RunConfig,
    run: RunDir,
    *,
    show_progress: bool = True,
) -> StageResult:
    """Write the corpus, statistics, data card and chart; skip when already done."""
    uncertain = cfg.write.uncertain
    balance_rec = run.require_done(BALANCE_STAGE, needed_by=STAGE)
    inputs = {"balance": balance_rec["fingerprint"]}
    settings = {
        "langs": cfg.langs,
        "pivot": cfg.pivot,
        "augment": cfg.write.augment,
        # a format added to occbio (corpus.tmx) is written into a run finished without it
        "formats": list(CORPUS_FORMATS),
    }
    if cfg.write.augment:
        check_languages(cfg.langs)
        settings["relatives"] = cfg.write.relatives
        settings["uncertain"] = uncertain
        # other rules give another copy: a new occbio rewrites the corpus again
        settings["rewriter"] = rules_fingerprint(cfg.langs)
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    state.begin(fp, inputs=inputs, settings=settings)

    people = {p["qid"]: p for p in _rows(run.path / PEOPLE_FILE)}
    entities = {e.qid: e for e in read_jsonl(run.path / ENTITIES_FILE, Entity)}
    labels = {r["qid"]: r.get("label", "") for r in _rows(run.path / OCCUPATIONS_FILE)}
    docs = _documents(run, cfg, people, entities, labels)
    credits: list[dict[str, str]] = []  # one row per document and language: ATTRIBUTION.tsv
    licence = SAMPLE_LICENCE if cfg.sample else WIKIPEDIA_LICENCE
    written = write_corpus(
        run.path / CORPUS_DIR,
        cfg.langs,
        _noting_credits(docs, cfg.langs, licence, credits),
        pivot=cfg.pivot,
    )
    write_attribution(run.path / CORPUS_DIR / ATTRIBUTION_FILE, credits)
    written["files"].append(ATTRIBUTION_FILE)
    files = [f"{CORPUS_DIR}/{name}" for name in written["files"]]
    augmented: Counter[str] = Counter()
    if cfg.write.augment:
        again = _documents(run, cfg, people, entities, labels)
        cf = write_corpus(
            run.path / CORPUS_DIR,
            cfg.langs,
            counterfactuals(
                again, cfg.langs, augmented, relatives=cfg.write.relatives, uncertain=uncertain
            ),
            pivot=cfg.pivot,
            stem=COUNTERFACTUAL_STEM,
            counterfactual=True,
        )
        files += [f"{CORPUS_DIR}/{name}" for name in cf["files"]]

    rows = _funnel(run, cfg, people)
    audit = _audit(run, cfg, people)
    stats = {
        "langs": cfg.langs,
        "genders": cfg.balance.genders,
        "funnel": rows,
        "audit": {"method": "GENDER-GAP lexicon (Muller et al., 2023)", **audit},
    }
    with atomic_write(run.path / STATS_FILE) as fh:
        json.dump(stats, fh, ensure_ascii=False, indent=1)
    groups = json.loads((run.path / GROUPS_FILE).read_text(encoding="utf-8"))
    card = render_datacard(
        **provenance(cfg),
        langs=cfg.langs,
        pivot=cfg.pivot,
        sources=_sources(run, sample=cfg.sample),
        note=SAMPLE_NOTE if cfg.sample else "",
        settings={
            "clean": cfg.clean.model_dump(mode="json"),
            "align": cfg.align.model_dump(mode="json", exclude={"laser_dir", "model_dir"}),
            "gender": cfg.gender.model_dump(mode="json"),
            "balance": cfg.balance.model_dump(mode="json"),
            "min_langs": cfg.entities.min_langs,
        },
        attribution=source_summary(credits),
        funnel_rows=rows,
        extraction=_extraction(run, cfg.langs),
        occupations={g: v["people"] for g, v in groups.items()},
        occupation_labels=labels,
        genders=cfg.balance.genders,
        files=written["files"],
        created=datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        version=__version__,
        audit=audit,
        counterfactual=dict(augmented) if cfg.write.augment else None,
        uncertain=uncertain,
    )
    with atomic_write(run.path / DATACARD_FILE) as fh:
        fh.write(_keep_review(run, card))
    occupation_chart(
        run.path / CHART_FILE,
        _by_occupation(people, kept=False),
        _by_occupation(people, kept=True),
        cfg.balance.genders,
        labels=labels,
        title=f"{cfg.name}: people per occupation by gender ({cfg.balance.method})",
        balanced=_BALANCED_PANEL[cfg.balance.method],
    )
    shares = {  # the raw counts, not the rounded shares: the chart draws counts and intervals
        source: {g["lang"]: LexiconResult.from_dict(g) for g in groups if g["gender"] == "all"}
        for source, groups in audit.items()
    }
    gender_gap_chart(
        run.path / GAP_CHART_FILE,
        shares[ALIGNED],
        shares[BALANCED],
        title=f"{cfg.name}: person nouns by gender (GENDER-GAP lexicon)",
    )
    counts = {"documents": written["documents"], "segments": written["segments"], **augmented}
    outputs = [*files, STATS_FILE, DATACARD_FILE, CHART_FILE, GAP_CHART_FILE]
    state.finish(
        counts=counts,
        outputs=outputs,
        warnings=_dropped_copy(state, outputs, run) if not cfg.write.augment else [],
    )
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def _dropped_copy(state: StageState, outputs: list[str], run: RunDir) -> list[str]:
    """A warning when this write removes the counterfactual copy an earlier one wrote (a
    `mine` or `write` without --augment after `occbio augment`), with how to get it back."""
    prefix = f"{CORPUS_DIR}/{COUNTERFACTUAL_STEM}."
    previous = set(state.record.get("previous_outputs", [])) - set(outputs)
    if not any(name.startswith(prefix) for name in previous):
        return []
    return [
        f"the counterfactual copy ({prefix}*) of an earlier run is removed: this write ran "
        f"without --augment; `occbio augment {run.path}` writes it again"
    ]


ALIGNED = "aligned (before balancing)"
BALANCED = "balanced corpus"


def _audit(
    run: RunDir, cfg: RunConfig, people: dict[str, dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """The GENDER-GAP lexicon counts of the aligned tuples and of the balanced corpus, per
    language and document gender (languages without a lexicon are left out, with a warning)."""
    genders = {qid: str(p.get("gender") or "unknown") for qid, p in people.items()}
    skipped: Counter[str] = Counter()
    out = {}
    for name, path in ((ALIGNED, run.path / ALIGNMENTS_FILE),
                       (BALANCED, run.path / CORPUS_DIR / "corpus.jsonl")):  # fmt: skip
        records = read_records(path, lang=None, langs=cfg.langs, skipped=skipped, genders=genders)
        out[name] = [g.to_dict(digits=4) for g in audit_lexicon(records, source=name)]
    return out


#: The chart's second panel says what each balancing method kept.
_BALANCED_PANEL = {
    "occgen": "kept: occupation groups that have every gender,\nthe same number of people each",
    "gebio": "kept: the same number of sentences per gender\nover the whole corpus",
    "none": "kept: everyone (no balancing)",
}


def _extraction(run: RunDir, langs: list[str]) -> dict[str, dict[str, Any]]:
    """Per language: sentences dropped for an unrendered template or a dangling word, and the
    templates behind them (the text stage's record), for the data card."""
    record = run.stage_record("text") or {}
    counts = record.get("counts", {})
    unrendered = record.get("unrendered_templates", {})
    return {
        lang: {
            "kept": counts.get(f"{lang}.sentences_kept", 0),
            "template_hole": counts.get(f"{lang}.dropped_template_hole", 0),
            "dangling_word": counts.get(f"{lang}.dropped_dangling_word", 0),
            "templates": unrendered.get(lang, {}),
        }
        for lang in langs
    }


def read_stats(out_dir: Path) -> dict[str, Any] | None:
    """A finished run's ``stats.json``, or ``None`` before ``write`` ran."""
    path = out_dir / STATS_FILE
    if not path.exists():
        return None
    try:
        stats = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:  # a damaged file: the next `write` rewrites it
        log.warning("%s is unreadable (%s); run `occbio write` again to rewrite it", path, exc)
        return None
    if not _is_stats(stats):  # edited: what would print it fails on a field of another type
        log.warning("%s is not what occbio writes; run `occbio write` again to rewrite it", path)
        return None
    return stats


def _is_stats(stats: object) -> bool:
    """Whether ``stats`` has the shape this stage writes: ``langs`` and ``funnel`` rows as
    :func:`occbio.report.funnel.format_funnel` reads them."""

    def counts(value: object) -> bool:
        return isinstance(value, dict) and all(
            isinstance(n, int | float) and not isinstance(n, bool) for n in value.values()
        )

    if not isinstance(stats, dict) or not isinstance(stats.get("funnel"), list):
        return False
    langs = stats.get("langs", [])
    if not isinstance(langs, list) or not all(isinstance(x, str) for x in langs):
        return False
    return all(
        isinstance(row, dict)
        and isinstance(row.get("stage"), str)
        and counts(row.get("people"))
        and isinstance(row.get("occupations"), int | float)
        and (row.get("sentences") is None or counts(row.get("sentences")))
        for row in stats["funnel"]
    )
