"""Stage ``balance``: decide each person's gender, then keep a gender-balanced set of people and
sentences (OccGen within occupations, GeBio overall, or none).

Reads ``entities.jsonl``, ``alignments.jsonl`` and, for pronoun-based gender, the articles (their
``gender`` evidence, written by the text stage: pronoun counts and, in es/ca/it/pt/fr, the lead's
agreement cues, decided again here with the run's thresholds; an article without it, from an
older run, is read again with the same function).
Outputs ``balance/people.jsonl`` (one line per person: gender and where it came from, occupation
group, kept or dropped and why, tuples kept) and ``balance/balanced.jsonl`` (the kept aligned
tuples, same rows as ``alignments.jsonl``). A change of method, genders or mapping re-runs only
this stage and the ones after it.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from occbio.balance.core import Candidate, Decision, summarise
from occbio.balance.methods import balance
from occbio.config import RunConfig
from occbio.gender.categories import UNKNOWN, explain_gender
from occbio.gender.pronouns import PronounEvidence, combine, decide, infer_gender
from occbio.io.jsonl import JsonlIndex, read_jsonl
from occbio.records import Article, Entity
from occbio.run import RunDir, atomic_write, fingerprint
from occbio.stages.align import ALIGNMENTS_FILE
from occbio.stages.align import STAGE as ALIGN_STAGE
from occbio.stages.common import StageResult
from occbio.stages.entities import ENTITIES_FILE
from occbio.stages.text import articles_path

__all__ = [
    "BALANCED_FILE",
    "GROUPS_FILE",
    "PEOPLE_FILE",
    "PersonGender",
    "article_evidence",
    "decide_genders",
    "run_balance",
]

log = logging.getLogger(__name__)

STAGE = "balance"
PEOPLE_FILE = "balance/people.jsonl"
BALANCED_FILE = "balance/balanced.jsonl"
GROUPS_FILE = "balance/groups.json"


@dataclass(frozen=True)
class PersonGender:
    """A person's gender category and where it came from."""

    category: str
    source: str  # "wikidata" or "pronouns"
    reason: str  # explain_gender's reason, or the pronoun evidence's
    female: int = 0  # pronoun counts (when pronouns were consulted)
    male: int = 0
    agreement_female: int = 0  # agreement cues of the leads (es, ca, it, pt, fr)
    agreement_male: int = 0


def article_evidence(article: Article, *, min_count: int, margin: float) -> PronounEvidence:
    """The article's gender evidence: the text stage's record (``article.gender``) decided with
    these thresholds, or, for an article without one, read again from its text."""
    if article.gender and "female" in article.gender:
        recorded = PronounEvidence.from_dict(article.lang, article.gender)
        return decide(recorded, min_count=min_count, margin=margin)
    return infer_gender(
        article.text, article.lang, min_count=min_count, margin=margin, title=article.title
    )


def decide_genders(
    entities: Iterable[Entity],
    cfg: RunConfig,
    articles: Iterable[Article] = (),
) -> dict[str, PersonGender]:
    """Each person's category by the configured source: Wikidata's P21 values through the
    (overridable) mapping, the pronouns (and lead agreement) of their articles, or those where
    Wikidata says nothing usable."""
    g = cfg.gender
    decided: dict[str, PersonGender] = {}
    for entity in entities:
        category, reason = explain_gender(entity.genders, g.mapping)
        decided[entity.qid] = PersonGender(category, "wikidata", reason)
    if g.source == "wikidata":
        return decided
    evidence: dict[str, list[PronounEvidence]] = defaultdict(list)
    for article in articles:
        if article.qid in decided:
            evidence[article.qid].append(
                article_evidence(article, min_count=g.pronoun_min_count, margin=g.pronoun_margin)
            )
    for qid, current in decided.items():
        if g.source == "wikidata+pronouns" and current.category != UNKNOWN:
            continue
        found = combine(
            evidence.get(qid, []), min_count=g.pronoun_min_count, margin=g.pronoun_margin
        )
        decided[qid] = PersonGender(
            found.category,
            "pronouns",
            found.reason,
            found.female,
            found.male,
            found.agreement_female,
            found.agreement_male,
        )
    return decided


def _tuple_score(row: dict[str, Any]) -> float:
    scores = list(row.get("score", {}).values())
    return sum(scores) / len(scores) if scores else 0.0


def _scores_by_person(path: Path) -> dict[str, list[float]]:
    """Each person's tuple scores in file order: all balancing needs of the alignments (the
    tuples themselves are read again, person by person, only for the people kept)."""
    by_person: dict[str, list[float]] = defaultdict(list)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            by_person[row["doc"]].append(_tuple_score(row))
    return by_person


def run_balance(cfg: RunConfig, run: RunDir, *, show_progress: bool = True) -> StageResult:
    """Balance the aligned people by gender; skip when already done with the same inputs."""
    align_rec = run.require_done(ALIGN_STAGE, needed_by=STAGE)
    if "text" not in align_rec.get("inputs", {}):
        raise RuntimeError(
            "the balance stage needs people from `occbio entities`: the alignments of this run "
            "came from `occbio align --input`, which has no gender or occupation to balance by"
        )
    inputs = {"align": align_rec["fingerprint"]}
    settings = {"balance": cfg.balance.model_dump(), "gender": cfg.gender.model_dump()}
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    state.begin(fp, inputs=inputs, settings=settings)

    entities = list(read_jsonl(run.path / ENTITIES_FILE, Entity))
    articles: Iterable[Article] = ()
    if cfg.gender.source != "wikidata":
        articles = (a for lang in cfg.langs for a in read_jsonl(articles_path(run, lang), Article))
    genders = decide_genders(entities, cfg, articles)
    scores = _scores_by_person(run.path / ALIGNMENTS_FILE)
    candidates = [
        Candidate(
            qid=e.qid,
            gender=genders[e.qid].category,
            occupations=tuple(dict.fromkeys(o.qid for o in e.occupations)),
            scores=tuple(scores.get(e.qid, ())),
        )
        for e in entities
    ]
    del scores
    decisions = balance(candidates, method=cfg.balance.method, genders=cfg.balance.genders)
    by_qid = {e.qid: e for e in entities}
    _write_people(run.path / PEOPLE_FILE, decisions, by_qid, genders)
    with (
        JsonlIndex(run.path / ALIGNMENTS_FILE, "doc") as alignments,
        atomic_write(run.path / BALANCED_FILE) as fh,
    ):
        for d in decisions:
            if d.kept_indices:
                rows = alignments.rows(d.qid)
                for i in d.kept_indices:
                    fh.write(json.dumps(rows[i], ensure_ascii=False) + "\n")

    summary = summarise(decisions)
    counts: Counter[str] = Counter()
    counts.update({f"people_{r}": n for r, n in summary["reasons"].items()})
    counts.update({f"kept_people_{g}": n for g, n in summary["kept_people"].items()})
    counts.update({f"kept_sentences_{g}": n for g, n in summary["kept_sentences"].items()})
    counts["people"] = len(decisions)
    counts["kept_people"] = sum(summary["kept_people"].values())
    counts["kept_sentences"] = sum(summary["kept_sentences"].values())
    if cfg.balance.method == "occgen":  # the other methods do not balance occupation groups
        counts["groups_kept"] = len(summary["groups"])
    counts.update(Counter(f"gender_{g.source}_{g.category}" for g in genders.values()))
    counts.update(Counter(f"gender_reason_{g.reason}" for g in genders.values()))
    warnings = []
    if counts["kept_people"] == 0:
        why = {
            "occgen": "no occupation group has all the genders; try --balance gebio, fewer "
            "genders, or more people",
            "gebio": "some gender has no person with aligned sentences; try fewer genders "
            "or more people",
            "none": "nobody has aligned sentences",
        }[cfg.balance.method]
        warnings.append(
            f"balance ({cfg.balance.method}, genders {','.join(cfg.balance.genders)}) kept "
            f"nobody: {why}"
        )
        log.warning("%s", warnings[-1])
    with atomic_write(run.path / GROUPS_FILE) as fh:
        json.dump(summary["groups"], fh, ensure_ascii=False, indent=1, sort_keys=True)
    outputs = [PEOPLE_FILE, BALANCED_FILE, GROUPS_FILE]
    state.finish(counts=counts, outputs=outputs, warnings=warnings)
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def _write_people(
    path: Path,
    decisions: list[Decision],
    entities: dict[str, Entity],
    genders: dict[str, PersonGender],
) -> None:
    with atomic_write(path) as fh:
        for d in decisions:
            e, g = entities[d.qid], genders[d.qid]
            row = {
                "qid": d.qid,
                "label": e.label,
                "gender": g.category,
                "gender_source": g.source,
                "gender_reason": g.reason,
                "occupations": [o.qid for o in e.occupations],
                "category": d.category,
                "group": d.group,
                "kept": d.kept,
                "reason": d.reason,
                "kept_tuples": len(d.kept_indices),
            }
            if g.source == "pronouns":
                row["pronouns"] = {"female": g.female, "male": g.male}
                row["agreement"] = {"female": g.agreement_female, "male": g.agreement_male}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
