"""Stage ``entities``: people with occupations, gender and article titles, from Wikidata.

The source is a Wikidata JSON dump (streamed once, flat memory) or the SPARQL endpoint
(queried in pages and blocks small enough for its 60-second limit).

Outputs ``entities.jsonl`` (one :class:`~occbio.records.Entity` a line, in dump order, each
person once) and ``occupations.jsonl`` (each occupation's QID, label and number of people).
The people before their occupations are labelled lie in the stage's ``.parts`` directory, which
a resumed run keeps and a finished one removes, temporaries included.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path

from occbio.align.inputs import InputError
from occbio.config import RunConfig
from occbio.extract.categorylinks import (
    CategoryLinksError,
    TruncatedCategoryLinksError,
    category_page_ids,
)
from occbio.extract.compressed import special_file_problem
from occbio.extract.enterprise_html import is_enterprise_html_dump, iter_html_pages
from occbio.extract.mediawiki import category_name, normalise_title, page_categories
from occbio.extract.titles import TitlesError, read_titles
from occbio.extract.wikidata_dump import (
    TruncatedWikidataDumpError,
    WikidataDumpError,
    collect_labels,
    iter_humans,
    label_occupations,
)
from occbio.extract.wikidata_sparql import (
    PeopleQuery,
    SparqlClient,
    fetch_entities,
    fetch_labels,
    iter_people,
    occupation_counts,
)
from occbio.extract.wikipedia_dump import TruncatedDumpError, iter_pages
from occbio.gender.categories import GENDER_CATEGORIES
from occbio.io.jsonl import read_jsonl, write_jsonl
from occbio.records import Entity
from occbio.run import (
    BatchLog,
    ChunkedWriter,
    RunDir,
    StageState,
    atomic_write,
    file_identity,
    fingerprint,
)
from occbio.stages.common import (
    StageResult,
    keep_until_truncated,
    progress_bar,
    web_base_urls,
    web_client,
)

__all__ = ["run_entities", "ENTITIES_FILE", "OCCUPATIONS_FILE"]

log = logging.getLogger(__name__)

STAGE = "entities"
ENTITIES_FILE = "entities.jsonl"
OCCUPATIONS_FILE = "occupations.jsonl"
_RAW_FILE = "entities.unlabelled.jsonl"
#: How many repeated people are logged one by one (the rest are only counted).
_MAX_LOGGED = 10


def _settings(cfg: RunConfig) -> dict[str, object]:
    settings: dict[str, object] = {
        "source": cfg.entity_source,
        "langs": cfg.langs,
        "min_langs": cfg.entities.min_langs,
        "label_langs": cfg.entities.label_langs,
        "limit": cfg.limit,
    }
    if cfg.entities.category is not None:
        settings["category"] = cfg.entities.category
    if cfg.entity_source == "wikidata":
        settings["occupations"] = cfg.entities.occupations
        settings["occupation_subclasses"] = cfg.entities.occupation_subclasses
        settings["page_size"] = cfg.entities.page_size  # the keys of the logged batches
    return settings


def _inputs(cfg: RunConfig) -> dict[str, object]:
    inputs: dict[str, object] = {}
    if cfg.entities.category is not None:
        if cfg.text_source == "web":
            inputs["category_site"] = web_base_urls(cfg)[cfg.pivot]
        else:
            inputs["category_dump"] = file_identity(cfg.resolved_text_dump(cfg.pivot))
            for key, files in (
                ("categorylinks", cfg.entities.categorylinks),
                ("linktarget", cfg.entities.linktargets),
            ):
                if cfg.pivot in files:
                    inputs[f"category_{key}"] = file_identity(_sql_dump(files[cfg.pivot], key))
    return inputs | _source_inputs(cfg)


def _sql_dump(path: Path, what: str) -> Path:
    """``path`` when it is a regular file, else a one-line error (before the stage starts)."""
    if not path.exists():
        raise CategoryLinksError(f"{what} dump not found: {path}")
    if path.is_dir():
        raise CategoryLinksError(f"{what} dump {path} is a directory, not a file")
    problem = special_file_problem(path)
    if problem is not None:
        raise CategoryLinksError(f"{what} dump {path} {problem}")
    return path


def _source_inputs(cfg: RunConfig) -> dict[str, object]:
    if cfg.entity_source == "titles":
        titles = cfg.entities.titles
        assert titles is not None  # the config checks it
        if isinstance(titles, dict):
            return {"titles": {lang: file_identity(p) for lang, p in titles.items()}}
        return {"titles": file_identity(titles)}
    if cfg.entity_source == "wikidata":
        return {"endpoint": cfg.entities.endpoint}
    dump = cfg.resolved_entity_dump()
    if not dump.exists():
        raise FileNotFoundError(f"Wikidata dump not found: {dump}")
    problem = special_file_problem(dump)
    if problem is not None:
        raise WikidataDumpError(f"Wikidata dump {dump} {problem}")
    return {"dump": file_identity(dump)}


#: Collects the occupation labels of the given QIDs (from the dump or the endpoint).
LabelSource = Callable[[set[str]], dict[str, str]]


def run_entities(cfg: RunConfig, run: RunDir, *, show_progress: bool = True) -> StageResult:
    """People from a Wikidata dump or the SPARQL endpoint into ``entities.jsonl``; skip when
    already done."""
    inputs = _inputs(cfg)
    settings = _settings(cfg)
    fp = fingerprint({"inputs": inputs, "settings": settings})
    state = run.stage(STAGE)
    if state.is_done(fp):
        return StageResult.skipped(STAGE, run.stage_record(STAGE))
    resuming = state.begin(fp, inputs=inputs, settings=settings)
    if resuming:
        log.info("entities: resuming an interrupted run")
    # where earlier versions kept the unlabelled people (and a kill left its temporary)
    for leftover in run.path.glob(f"*{_RAW_FILE}*"):
        leftover.unlink(missing_ok=True)

    raw = state.parts_root / _RAW_FILE
    if cfg.entity_source == "wikidata":
        counts, warnings, labels_of = _people_from_sparql(cfg, run, state, raw, show_progress)
    elif cfg.entity_source == "titles":
        counts, warnings, labels_of = _people_from_titles(cfg, raw)
    else:
        counts, warnings, labels_of = _people_from_dump(cfg, run, state, raw, show_progress)

    if cfg.entities.category is not None:
        for key in ["people", *(f"gender_{g}" for g in GENDER_CATEGORIES)]:
            counts.pop(key, None)  # counted again over the members only
        counts.update(_keep_category_members(cfg, raw, warnings))
    occ_counts: Counter[str] = Counter(
        o.qid for e in read_jsonl(raw, Entity) for o in e.occupations
    )
    labels = labels_of(set(occ_counts))
    unlabelled = sorted(q for q in occ_counts if q not in labels)
    if unlabelled:
        log.warning(
            "entities: %d occupation(s) have no label (kept with their QID): %s",
            len(unlabelled),
            ", ".join(unlabelled[:10]),
        )
    write_jsonl(run.path / ENTITIES_FILE, label_occupations(read_jsonl(raw, Entity), labels))
    with atomic_write(run.path / OCCUPATIONS_FILE) as fh:
        for qid, n in sorted(occ_counts.items(), key=lambda kv: (-kv[1], kv[0])):
            fh.write(json.dumps({"qid": qid, "label": labels.get(qid, ""), "people": n}) + "\n")
    counts["occupations"] = len(occ_counts)
    counts["occupations_unlabelled"] = len(unlabelled)
    state.finish(counts=counts, outputs=[ENTITIES_FILE, OCCUPATIONS_FILE], warnings=warnings)
    return StageResult.finished(STAGE, run.stage_record(STAGE))


def _unique_people(people: Iterable[Entity], stats: Counter[str]) -> Iterator[Entity]:
    """Each person once: a QID that came before (a dump that repeats an entity, a titles file
    that names a person twice) is skipped and counted in ``people_duplicate``; the first
    stays. Later stages key everything on the QID, so a repeat would stop them."""
    seen: set[str] = set()
    for entity in people:
        if entity.qid in seen:
            stats["people_duplicate"] += 1
            if stats["people_duplicate"] <= _MAX_LOGGED:
                log.warning("entities: %s comes again; the first one is kept", entity.qid)
            continue
        seen.add(entity.qid)
        yield entity


def _people_from_dump(
    cfg: RunConfig, run: RunDir, state: StageState, raw: Path, show_progress: bool
) -> tuple[Counter[str], list[str], LabelSource]:
    """Stream the dump's humans into the unlabelled people file (checkpointed)."""
    dump = cfg.resolved_entity_dump()
    reader_stats: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    warnings: list[str] = []
    writer = ChunkedWriter(
        state,
        "humans",
        {"people": raw},
        chunk_size=cfg.checkpoint_every,
        stats=kept,
    )
    if not writer.done:
        found = iter_humans(
            dump,
            cfg.langs,
            min_langs=cfg.entities.min_langs,
            label_langs=tuple(cfg.entities.label_langs),
            stats=reader_stats,
        )
        # counted in reader_stats: a resumed run reads the dump from its start again
        humans = _unique_people(found, reader_stats)
        if cfg.limit is not None:
            humans = islice(humans, cfg.limit)
        bar = progress_bar(show_progress, desc="entities", unit=" people", initial=writer.consumed)
        try:
            for i, entity in enumerate(
                keep_until_truncated(humans, TruncatedWikidataDumpError, warnings)
            ):
                if i < writer.consumed:
                    continue
                kept["people"] += 1
                kept[f"gender_{entity.gender}"] += 1
                writer.add({"people": [entity]})
                bar.update()
        finally:
            bar.close()
        # saved with ``done`` by finish: a kill between two saves would lose the reader's counts
        progress = state.progress("humans")
        progress.update({"reader": dict(reader_stats), "warnings": warnings})
        writer.finish()
    else:
        progress = state.progress("humans")
        reader_stats.update(progress.get("reader", {}))
        warnings = list(progress.get("warnings", []))
    counts = Counter(reader_stats)
    counts.update(kept)

    # Occupation labels: the dump may hold occupation items anywhere, so one more streaming
    # pass collects the labels of exactly the occupations the kept people have.
    def labels_of(qids: set[str]) -> dict[str, str]:
        return collect_labels(dump, qids, tuple(cfg.entities.label_langs) + tuple(cfg.langs))

    return counts, warnings, labels_of


def _people_from_titles(cfg: RunConfig, raw: Path) -> tuple[Counter[str], list[str], LabelSource]:
    """People given as titles: no Wikidata, so no labels to look up for occupations."""
    titles = cfg.entities.titles
    assert titles is not None
    stats: Counter[str] = Counter()
    people = _unique_people(
        read_titles(titles, cfg.langs, min_langs=cfg.entities.min_langs, stats=stats), stats
    )
    if cfg.limit is not None:
        people = islice(people, cfg.limit)
    try:
        n = write_jsonl(raw, people)
    except TitlesError as exc:
        raise InputError(str(exc)) from None
    stats["people"] = n
    stats["gender_unknown"] = n
    return stats, [], lambda qids: {}


def _category_members(
    cfg: RunConfig, titles: set[str], warnings: list[str], counts: Counter[str]
) -> set[str]:
    """Which of ``titles`` (pivot-language pages) are in ``entities.category``: from the
    category's listing on the web, or one streaming pass over the pivot dump (only the
    people's pages parsed), whose pages' ids are then looked up in the pivot's categorylinks
    dump when one is given, else their wikitext's category links."""
    category = category_name(cfg.entities.category or "")
    if cfg.text_source == "web":
        with web_client(cfg) as client:
            listed = client.category_members(cfg.pivot, category)
        members = {normalise_title(t) for t in listed} & titles
        counts["category_pages"] = len(titles)
        _warn_if_empty(cfg, members, len(titles), warnings, templates=None)
        return members
    categorylinks = cfg.entities.categorylinks.get(cfg.pivot)
    dump = cfg.resolved_text_dump(cfg.pivot)
    if categorylinks is None and is_enterprise_html_dump(dump):
        # The HTML dump lists each article's categories as rendered: template-added included.
        html_pages = iter_html_pages(dump, titles=titles)
        seen: dict[str, set[str]] = {}
        for html_page in keep_until_truncated(html_pages, TruncatedDumpError, warnings):
            seen[normalise_title(html_page.title)] = {
                category_name(c) for c in html_page.categories
            }
        counts["category_pages"] = len(seen)
        members = {title for title, cats in seen.items() if category in cats}
        _warn_if_empty(cfg, members, len(seen), warnings, templates=None)
        return members
    page_ids: dict[str, int] = {}
    members = set()
    templates = _TemplateUse(category)
    pages = iter_pages(dump, titles=titles)
    for page in keep_until_truncated(pages, TruncatedDumpError, warnings):
        title = normalise_title(page.title)
        page_ids[title] = page.page_id
        if categorylinks is None:
            if category in page_categories(page.wikitext):
                members.add(title)
            else:
                templates.add(page.wikitext)
    counts["category_pages"] = len(page_ids)
    if categorylinks is not None:
        members = _members_from_categorylinks(cfg, categorylinks, page_ids, warnings, counts)
        _warn_if_empty(cfg, members, len(page_ids), warnings, templates=None)
    else:
        _warn_if_empty(cfg, members, len(page_ids), warnings, templates=templates)
    return members


def _members_from_categorylinks(
    cfg: RunConfig,
    categorylinks: Path,
    page_ids: dict[str, int],
    warnings: list[str],
    counts: Counter[str],
) -> set[str]:
    """The titles whose pivot page id (from the pivot dump) the categorylinks dump lists
    under the category (``cl_from``)."""
    if not page_ids:  # none of the people's pages is in the pivot dump: nothing to look up
        return set()
    stats: Counter[str] = Counter()
    found = category_page_ids(
        categorylinks,
        cfg.entities.category or "",
        linktarget=cfg.entities.linktargets.get(cfg.pivot),
        pages=set(page_ids.values()),
        stats=stats,
    )
    ids = set(keep_until_truncated(found, TruncatedCategoryLinksError, warnings))
    for key in ("rows_read", "rows_malformed", "lines_skipped"):
        for table in ("categorylinks", "linktarget"):
            if stats[f"{table}_{key}"]:
                counts[f"{table}_{key}"] = stats[f"{table}_{key}"]
    counts["categorylinks_category_rows"] = stats["categorylinks_category_rows"]
    if stats["categorylinks_rows_malformed"] or stats["categorylinks_lines_skipped"]:
        warning = (
            f"categorylinks dump {categorylinks.name}: skipped "
            f"{stats['categorylinks_rows_malformed']} row(s) and "
            f"{stats['categorylinks_lines_skipped']} line(s) that do not parse"
        )
        log.warning("entities: %s", warning)
        warnings.append(warning)
    return {title for title, page_id in page_ids.items() if page_id in ids}


#: A template call's name and arguments (innermost calls only: no braces inside).
_TEMPLATE_RE = re.compile(r"\{\{\s*([^{}|#:\n]+?)\s*(\|[^{}]*)?\}\}")
_WORD_RE = re.compile(r"\w{4,}|\d+")


class _TemplateUse:
    """Which templates the pages outside the category call, to name the likely culprits of a
    category that no page's wikitext links to (``{{NF|1942|…}}`` for *Nacidos en 1942*)."""

    def __init__(self, category: str) -> None:
        self.words = {w.lower() for w in _WORD_RE.findall(category)}
        self.pages = 0
        self.calls: Counter[str] = Counter()
        self.suspects: Counter[str] = Counter()

    def add(self, wikitext: str) -> None:
        names: set[str] = set()
        suspects: set[str] = set()
        for name, args in _TEMPLATE_RE.findall(wikitext):
            name = normalise_title(name)
            names.add(name)
            if self.words & {w.lower() for w in _WORD_RE.findall(args or "")}:
                suspects.add(name)
        if names:
            self.pages += 1
        self.calls.update(names)
        self.suspects.update(suspects)

    def examples(self) -> str:
        ranked = self.suspects or self.calls
        return ", ".join("{{" + name + "}}" for name, _ in ranked.most_common(3))


def _warn_if_empty(
    cfg: RunConfig,
    members: set[str],
    pages: int,
    warnings: list[str],
    *,
    templates: _TemplateUse | None,
) -> None:
    """A category that matches none of the people's pages is a warning that says why it may
    be (template-added categories, a misspelt name) and what to pass, not a silent empty
    run."""
    if members:
        return
    category = category_name(cfg.entities.category or "")
    lang = cfg.pivot
    warning = f"category {category!r} matched 0 of {pages} {lang} pages"
    if cfg.entities.categorylinks.get(lang) is not None:
        warning += (
            " in the categorylinks dump: check the name as the wiki spells it (its "
            "Category: page's title)"
        )
    elif templates is not None and templates.pages:
        warning += (
            f"; {templates.pages} of them use templates that may add categories (e.g. "
            f"{templates.examples()}), which occbio cannot see in wikitext: pass "
            f"--categorylinks {lang}={lang}wiki-DATE-categorylinks.sql.gz (with "
            f",{lang}wiki-DATE-linktarget.sql.gz for dumps of MediaWiki 1.45 on)"
        )
    elif pages:
        warning += ": check the name as the wiki spells it (its Category: page's title)"
    log.warning("entities: %s", warning)
    warnings.append(warning)


def _keep_category_members(cfg: RunConfig, raw: Path, warnings: list[str]) -> Counter[str]:
    """Keep the people whose pivot-language page is in ``entities.category``."""
    category = category_name(cfg.entities.category or "")
    people = list(read_jsonl(raw, Entity))
    titles = {normalise_title(e.titles[cfg.pivot]) for e in people if cfg.pivot in e.titles}
    counts: Counter[str] = Counter()
    members = _category_members(cfg, titles, warnings, counts)
    kept = [e for e in people if normalise_title(e.titles.get(cfg.pivot, "")) in members]
    write_jsonl(raw, kept)
    log.info("entities: %d of %d people are in category %r", len(kept), len(people), category)
    counts.update({"category_members": len(kept), "category_dropped": len(people) - len(kept)})
    counts["people"] = len(kept)
    counts.update(f"gender_{e.gender}" for e in kept)
    return counts


def _qid_number(qid: str) -> int:
    return int(qid[1:])


def _people_from_sparql(
    cfg: RunConfig, run: RunDir, state: StageState, raw: Path, show_progress: bool
) -> tuple[Counter[str], list[str], LabelSource]:
    """People from the SPARQL endpoint: occupations, then the people of each occupation in
    pages (each finished page logged, so a resumed run queries only what is left), then their
    details in blocks (checkpointed)."""
    ent = cfg.entities
    client = SparqlClient(
        ent.endpoint,
        user_agent=cfg.http.resolved_user_agent(),
        timeout=cfg.http.timeout,
        retries=cfg.http.retries,
        backoff=cfg.http.backoff,
        max_wait=cfg.http.max_wait,
        **cfg.http.bounds(),
    )
    query = PeopleQuery(
        tuple(cfg.langs), min_langs=cfg.required_langs, subclasses=ent.occupation_subclasses
    )
    plan = state.progress("occupations")
    if "order" not in plan:
        counts = occupation_counts(client, query, occupations=ent.occupations or None)
        missing = [q for q in ent.occupations if not counts.get(q)]
        if missing:
            log.warning("entities: no such people for occupation(s) %s", ", ".join(missing))
        order = sorted(counts, key=lambda q: (-counts[q], _qid_number(q)))
        plan.update({"order": order, "people": {q: counts[q] for q in order}})
        run.save()
    order: list[str] = plan["order"]
    log.info("entities: %d occupation(s) to list from %s", len(order), ent.endpoint)

    batch_log = BatchLog(state.parts_root / "people-batches.jsonl")
    done = batch_log.load()
    found: dict[str, None] = {}
    listing: Counter[str] = Counter()
    bar = progress_bar(
        show_progress, desc="entities (list)", unit=" people", total=sum(plan["people"].values())
    )
    try:
        for batch, qids in iter_people(client, query, order, page_size=ent.page_size, done=done):
            if batch.key not in done:
                batch_log.append(batch.key, qids)
            if qids is None:
                listing["batches_split"] += 1
                continue
            listing["batches"] += 1
            bar.update(len(qids))
            for qid in qids:
                found.setdefault(qid)
            if cfg.limit is not None and len(found) >= cfg.limit:
                break
    finally:
        bar.close()
    people = sorted(list(found)[: cfg.limit], key=_qid_number)

    stats: Counter[str] = Counter()
    writer = ChunkedWriter(state, "details", {"people": raw}, chunk_size=1, stats=stats)
    if not writer.done:
        blocks = [people[i : i + ent.block_size] for i in range(0, len(people), ent.block_size)]
        bar = progress_bar(
            show_progress, desc="entities (details)", unit=" people", total=len(people)
        )
        bar.update(min(len(people), writer.consumed * ent.block_size))
        try:
            for block in blocks[writer.consumed :]:
                entities = fetch_entities(
                    client, block, cfg.langs, label_langs=ent.label_langs, stats=stats
                )
                for entity in entities:
                    stats["people"] += 1
                    stats[f"gender_{entity.gender}"] += 1
                writer.add({"people": entities})
                bar.update(len(block))
        finally:
            bar.close()
        writer.finish()
    counts = Counter(stats)
    counts["people_listed"] = len(found)
    counts.update({f"sparql_{k}": v for k, v in listing.items()})
    counts.update({f"sparql_{k}": v for k, v in client.stats.items()})

    def labels_of(qids: set[str]) -> dict[str, str]:
        prefs = tuple(ent.label_langs) + tuple(cfg.langs)
        return fetch_labels(client, sorted(qids, key=_qid_number), prefs)

    return counts, [], labels_of
