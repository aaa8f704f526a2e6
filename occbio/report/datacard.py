"""The data card (DATACARD.md) a published corpus needs: what it is, where it came from, how it
was made, what is in it by gender and occupation, what it cannot do, and its licence.

The card says what the run really read: Wikipedia's text (CC BY-SA) or the bundled sample's
fictional text (occbio's own, MIT); people from Wikidata or given as article titles; gender
from Wikidata or from the articles' pronouns. :func:`provenance` reads these from a run's
configuration, so a card never claims a source the run did not use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from occbio.report.funnel import format_funnel

if TYPE_CHECKING:
    from occbio.config import RunConfig

__all__ = ["provenance", "render_datacard"]

#: Where the corpus's text comes from: Wikipedia, or occbio's bundled fictional sample.
Origin = Literal["wikipedia", "sample"]

_GENDER_FROM_WIKIDATA = (
    "Gender comes from Wikidata's P21 statements (or pronoun counts when so configured), mapped "
    "to the categories listed above; it describes how Wikipedia and Wikidata present a person, "
    "not how the person identifies, and it may be wrong or out of date."
)
_GENDER_FROM_PRONOUNS = (
    "Gender was inferred from the pronouns of each person's articles (at least {count} of one "
    "gender and {margin} times as many as of the other; GeBioToolkit's method), not taken from "
    "Wikidata; it describes how the articles refer to a person, not how the person "
    "identifies, and it may be wrong. People whose pronouns decide nothing are `unknown`."
)
_LIMITATIONS = [
    "People with no usable gender (no value, unknown values, contradicting values) are counted "
    "as `unknown` and not balanced; see `balance/people.jsonl` for each person's reason.",
    "Sentences are aligned automatically (margin criterion over multilingual sentence "
    "embeddings) inside each person's articles; a small share of tuples are not exact "
    "translations. The articles in different languages are written independently: the "
    "corpus is comparable-derived, not translated.",
    "Balancing equalises people and sentences per gender within each occupation (OccGen) or "
    "overall (GeBio); it does not balance topics, eras, nationalities or article quality.",
]
_WIKIPEDIA_SKEW = (
    "Wikipedia's biographies over-represent some regions, eras and occupations; balancing by "
    "gender does not remove those skews."
)
_SAMPLE_LIMITATION = (
    "Made from occbio's bundled sample: a few dozen fictional people written to exercise the "
    "tool. Its counts say nothing about Wikipedia; do not train or evaluate a model on it."
)
_WIKIPEDIA_LICENCE = (
    "The sentences are taken from Wikipedia articles and are licensed under the Creative "
    "Commons Attribution-ShareAlike 4.0 licence (CC BY-SA 4.0, "
    "https://creativecommons.org/licenses/by-sa/4.0/); the authors are the Wikipedia "
    "contributors of each article, whose history is at the article's URL given for every "
    "segment in the TSV/JSONL files. Reuse must credit them and share alike."
)
_SAMPLE_LICENCE = (
    "The sentences are fictional: written for occbio's bundled sample (`occbio/data/sample/`, "
    "generated from `tools/sample_source/`) and distributed with occbio under its MIT licence. "
    "They come from no Wikipedia article and have no Wikipedia contributor to credit; the "
    "article URLs point to no real page."
)


def provenance(cfg: RunConfig) -> dict[str, Any]:
    """What :func:`render_datacard` must know of a run beyond its counts: its name (the run
    folder's, when the run was given ``--out`` and no name), whether its text is the bundled
    sample's, and the titles files its people came from (None: Wikidata)."""
    name = cfg.name
    if cfg.out is not None and "name" not in cfg.model_fields_set:
        name = cfg.out_dir.resolve().name or name
    titles = None
    if cfg.entity_source == "titles" and cfg.entities.titles is not None:
        given = cfg.entities.titles
        paths = given.values() if isinstance(given, dict) else [given]
        titles = ", ".join(f"`{path.name}`" for path in paths)
    return {"name": name, "origin": "sample" if cfg.sample else "wikipedia", "titles": titles}


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


#: What the occupations section says when no occupation group was balanced.
_NO_GROUPS = {
    "gebio": "(none: GeBio balancing keeps the same number of sentences per gender over the "
    "whole corpus; it does not balance occupation groups)",
    "none": "(none: the corpus was not balanced)",
    "occgen": "(none: no occupation group had every gender; see the balance stage's warnings)",
}


def render_datacard(
    *,
    name: str,
    langs: Sequence[str],
    pivot: str,
    sources: Mapping[str, str],
    settings: Mapping[str, Any],
    funnel_rows: Sequence[Mapping[str, Any]],
    extraction: Mapping[str, Mapping[str, Any]] | None = None,
    occupations: Mapping[str, Mapping[str, int]],
    occupation_labels: Mapping[str, str],
    genders: Sequence[str],
    files: Sequence[str],
    created: str,
    version: str,
    top: int = 30,
    note: str = "",
    audit: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    counterfactual: Mapping[str, int] | None = None,
    uncertain: str = "skip",
    origin: Origin = "wikipedia",
    titles: str | None = None,
    attribution: Sequence[str] | None = None,
) -> str:
    """Markdown for ``DATACARD.md``. ``occupations`` maps a balanced occupation group to
    {gender: people}; ``sources`` names each input and its date or URL; ``origin`` and
    ``titles`` (the files people were given in, None when they came from Wikidata) decide
    what the card says of the text's licence and the people's sources (see :func:`provenance`).
    ``attribution``: where the text was read (dump files and dates, sites and fetch times, one
    line each), said with the ``corpus/ATTRIBUTION.tsv`` it sums up; ``None``: no such file."""
    final = funnel_rows[-1] if funnel_rows else {"people": {}, "sentences": {}}
    what = "Wikipedia biographies"
    if origin == "sample":
        what = "the fictional biographies of occbio's bundled sample"
    if titles is not None and "people" not in sources:
        sources = {"people": f"article titles given with `--titles` ({titles}), not Wikidata",
                   **sources}  # fmt: skip
    people = (
        "people (Wikidata: occupation P106, gender P21, sitelinks)"
        if titles is None
        else "people (article titles given with `--titles`, not Wikidata)"
    )
    gender = settings.get("gender", {})
    # people given as titles have no Wikidata gender: "wikidata+pronouns" is pronouns for them
    by_pronouns = gender.get("source") == "pronouns" or (
        titles is not None and "pronouns" in str(gender.get("source"))
    )
    gender_note = (
        _GENDER_FROM_PRONOUNS.format(
            count=gender.get("pronoun_min_count", 3), margin=gender.get("pronoun_margin", 2.0)
        )
        if by_pronouns
        else _GENDER_FROM_WIKIDATA
    )
    limitations = [
        *([_SAMPLE_LIMITATION] if origin == "sample" else []),
        gender_note,
        *_LIMITATIONS,
        *([_WIKIPEDIA_SKEW] if origin == "wikipedia" else []),
    ]
    lines = [
        f"# Data card: {name}",
        "",
        f"A gender-balanced, document-level, multi-way parallel corpus of {what} "
        f"in {', '.join(langs)} (pivot {pivot}), made with occbio {version} on {created}.",
        "",
        *([f"> {note}", ""] if note else []),
        "## Contents",
        "",
        _table(
            ["gender", "people", "aligned sentence tuples"],
            [
                [g, final["people"].get(g, 0), (final.get("sentences") or {}).get(g, 0)]
                for g in [*genders, "total"]
            ],
        ),
        "",
        "Files (in `corpus/`): " + ", ".join(f"`{f}`" for f in files) + ".",
        "",
        *(_counterfactual_note(counterfactual, uncertain) if counterfactual is not None else []),
        "## Sources",
        "",
        *[f"- **{k}**: {v}" for k, v in sources.items()],
        "",
        "## How it was made",
        "",
        f"{people} -> each person's article per "
        "language -> cleaning and sentence splitting -> sentence embeddings -> margin-based "
        "mining inside each person's articles (margins normalised against a sample of each "
        "whole language), pivot intersection for more than two languages -> acceptance "
        "(P(parallel) from the encoder's model, or a margin threshold; optional length "
        "filter) -> balancing by gender -> document-level output.",
        "",
        "Settings:",
        "",
        "```json",
        _json(settings),
        "```",
        "",
        "## Statistics funnel",
        "",
        "People, distinct occupations and sentences after each stage, by gender (sentences: "
        "kept sentences of the pivot language after `text`, aligned tuples after `align` and "
        "`balance`).",
        "",
        "```",
        format_funnel(funnel_rows),
        "```",
        "",
        *(_extraction_section(extraction) if extraction else []),
        f"## Occupations (balanced groups, top {top} by people)",
        "",
    ]
    ranked = sorted(occupations.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))[:top]
    lines.append(
        _table(
            ["occupation", *genders],
            [
                [
                    " / ".join(occupation_labels.get(q) or q for q in group.split("|")) or "-",
                    *(counts.get(g, 0) for g in genders),
                ]
                for group, counts in ranked
            ],
        )
        if ranked
        else _NO_GROUPS.get(settings.get("balance", {}).get("method", ""), "(none)")
    )
    if audit:
        lines += ["", *_audit_section(audit, genders)]
    lines += [
        "",
        "## Known limitations",
        "",
        *[f"- {item}" for item in limitations],
        "",
        "## Licence and attribution",
        "",
        (_WIKIPEDIA_LICENCE if origin == "wikipedia" else _SAMPLE_LICENCE)
        + " "
        + _metadata(origin, titles, pronouns=by_pronouns),
        "",
        *(_attribution(attribution, origin) if attribution is not None else []),
    ]
    return "\n".join(lines)


def _extraction_section(extraction: Mapping[str, Mapping[str, Any]], top: int = 5) -> list[str]:
    """Sentences left out because a template that carries words could not be rendered (or an
    article was left dangling), per language, with the templates most often behind them."""
    rows = []
    for lang, row in extraction.items():
        templates = row.get("templates", {})
        named = ", ".join(f"`{{{{{name}}}}}` {n}" for name, n in list(templates.items())[:top])
        rows.append(
            [
                lang,
                row.get("kept", 0),
                row.get("template_hole", 0),
                row.get("dangling_word", 0),
                named or "-",
            ]
        )
    return [
        "## Text extraction",
        "",
        "Templates that carry words (dates, numbers, units, languages) are rendered the way each "
        "Wikipedia writes them. A sentence in which one could not be rendered, or that was left "
        "with an article and nothing after it, is left out rather than kept with a gap:",
        "",
        _table(
            [
                "language",
                "sentences kept",
                "dropped: unrendered template",
                "dropped: dangling word",
                "templates behind the drops (top 5)",
            ],
            rows,
        ),
        "",
    ]


def _attribution(sources: Sequence[str], origin: Origin) -> list[str]:
    """Where each document's text was read, and the file that credits each article."""
    credit = (
        "the licence of each"
        if origin == "wikipedia"
        else "the licence of each (the sample's revision ids and histories are fictional too)"
    )
    return [
        "Attribution: [`corpus/ATTRIBUTION.tsv`](corpus/ATTRIBUTION.tsv) lists the article each "
        "document's text comes from, per language: its title and URL, the revision read (its "
        "id, time and permanent link, `index.php?oldid=`), its history (the authors to "
        f"credit) and {credit}. The corpus files carry the same revision ids and sources "
        "(XML `revision_id`, `revision_timestamp`, `source`; TSV/Parquet `revision_id_LANG`, "
        "`revision_timestamp_LANG`, `source_LANG`; JSONL `revision_ids`, "
        "`revision_timestamps`, `sources`; TMX `<tuv>` props `x-revision-id`, "
        "`x-revision-timestamp`, `x-source`), so `occbio rebuild` can fetch exactly those "
        "revisions again. The text was read from:",
        "",
        *([f"- {line}" for line in sources] or ["- (no document)"]),
        "",
    ]


def _metadata(origin: Origin, titles: str | None, *, pronouns: bool) -> str:
    """Where the people's metadata comes from, and under what licence."""
    if titles is not None:
        return "The people were given as article titles, not read from Wikidata; their gender " + (
            "was inferred from the articles' pronouns." if pronouns else "is `unknown`."
        )
    if origin == "sample":
        return (
            "Its Wikidata entries are fictional too (ids Q990000001-Q990000999); only the "
            "occupation items and gender values they point to are real Wikidata items (CC0)."
        )
    return (
        "The metadata (occupations, gender statements, identifiers) comes from Wikidata under CC0."
    )


def _counterfactual_note(counts: Mapping[str, int], uncertain: str = "skip") -> list[str]:
    left_out = ", ".join(
        f"{n} {key.removeprefix('counterfactual_skipped_')}"
        for key, n in sorted(counts.items())
        if key.startswith("counterfactual_skipped_")
    )
    documents = counts.get("counterfactual_documents", 0)
    segments = counts.get("counterfactual_segments", 0)
    changed = counts.get("counterfactual_sentences_changed", 0)
    partly = counts.get("counterfactual_segments_partly_changed", 0)
    doubted = counts.get("counterfactual_segments_uncertain", 0)
    emptied = counts.get("counterfactual_documents_uncertain", 0)
    if uncertain == "skip":
        doubt = (
            f" {doubted} segments whose rewrite the rules were uncertain of in some language "
            "were left out of the copy in every language (`--uncertain keep` keeps them; each "
            "segment kept keeps its original's id, so the copy pairs with the corpus by qid and "
            "segment)"
            + (
                f", and with them {emptied} documents that had no other segment."
                if emptied
                else "."
            )
        )
    else:
        doubt = (
            f" {doubted} segments whose rewrite the rules were uncertain of in some language "
            "were kept (`--uncertain keep`): check them before training on the copy."
        )
    return [
        'Counterfactual copy (`counterfactual.*`, documents marked `counterfactual="true"` with '
        f"their `source_gender`): {documents} documents, {segments} segments, each rewritten "
        f"into the other gender in every language by occbio's rules ({changed} sentences "
        "changed; names are kept; measured exactness: benchmarks/rewrite.py)"
        + (f"; left out (no single other gender): {left_out}." if left_out else ".")
        + (doubt if doubted else "")
        + (
            f" {partly} segments were changed in some of their languages only: one language's "
            "rules found a gendered word another's missed (or the translation has none); check "
            "them before training on the copy."
            if partly
            else ""
        ),
        "",
    ]


_AUDIT_HEADER = [
    "sentences",
    "lang",
    "document gender",
    "fem %",
    "masc %",
    "coverage %",
    "gap",
    "skewed",
]


def _audit_section(
    audit: Mapping[str, Sequence[Mapping[str, Any]]], genders: Sequence[str]
) -> list[str]:
    """How much the sentences talk about women and men, whatever the people's genders."""
    rows = []
    for source, groups in audit.items():
        for g in groups:
            if g["gender"] in ("all", *genders):
                rows.append([
                    source, g["lang"], g["gender"], f"{g['feminine']:.2f}", f"{g['masculine']:.2f}",
                    f"{g['coverage']:.1f}", f"{g['gap']:.2f} ± {g['ste']:.2f}",
                    "yes" if g["skewed"] else "no",
                ])  # fmt: skip
    return [
        "## Gender in the words (GENDER-GAP lexicon)",
        "",
        "Balancing people says nothing about the words. Person nouns of the GENDER-GAP lexicon "
        "(Muller et al., 2023) as a percentage of words, per language and per gender of the "
        "person a document is about: feminine, masculine, the share of sentences with a match "
        "(coverage) and the gap with its standard error (percentage points; skewed: gap > 2 "
        "ste). `occbio audit RUN_DIR` prints more, `--method llm` counts person references in "
        "Spanish and Catalan.",
        "",
        _table(_AUDIT_HEADER, rows) if rows else "(no language of this corpus has a lexicon)",
    ]


def _json(data: Any) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True, default=str)
