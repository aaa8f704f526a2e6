"""The details of people and the labels of occupations, from the SPARQL endpoint.

1. :func:`fetch_entities` gets the details of a block of people (gender, occupations, label,
   article titles) in one ``VALUES`` query and builds the same
   :class:`~occbio.records.Entity` records as :func:`~occbio.extract.wikidata_dump.entity_from_json`
   builds from the dump (same label rule, same gender mapping, non-deprecated statements of any
   rank, titles only for the requested languages). SPARQL results carry no statement order, so
   genders and occupations come sorted by QID number;
2. :func:`fetch_labels` gets occupation labels, as
   :func:`~occbio.extract.wikidata_dump.collect_labels` does for the dump.

A block that times out is halved until it passes. The QIDs come from the people walk in
:mod:`occbio.extract.wikidata_people`; queries go through
:class:`~occbio.extract.sparql_client.SparqlClient`.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from occbio.extract.sparql_client import QueryTimeout, SparqlClient
from occbio.extract.wikidata_dump import pick_label
from occbio.extract.wikidata_query import (
    PREFIXES,
    _qid_number,
    _qid_of,
    _site_iri,
    _validate_langs,
    _validate_qids,
    _values,
    sparql_literal,
)
from occbio.gender.categories import explain_gender, unmapped_gender_qids
from occbio.records import Entity, Occupation

__all__ = [
    "fetch_entities",
    "fetch_labels",
]

logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------------------------
# Details of people and labels of occupations
# --------------------------------------------------------------------------------------------


def _non_deprecated(prop: str, var: str) -> str:
    """Values of ``prop``'s statements of any rank but deprecated, as the dump reader takes
    them (``wdt:`` would give the best rank only: a preferred value would hide normal ones)."""
    return (
        f"?person p:{prop} ?st_{var} . ?st_{var} ps:{prop} ?{var} ; "
        f"wikibase:rank ?rank_{var} . FILTER(?rank_{var} != wikibase:DeprecatedRank)"
    )


def _label_branches(var: str, prefs: Sequence[str]) -> str:
    """UNION branches binding ``?value``/``?key`` to the labels ``pick_label`` may choose:
    those in ``prefs`` (+ ``mul``) and, for items with none of them, all of them."""
    langs = ", ".join(sparql_literal(lang) for lang in dict.fromkeys((*prefs, "mul")))
    return (
        f"  {{ ?{var} rdfs:label ?value . FILTER(LANG(?value) IN ({langs})) "
        'BIND("label" AS ?kind) BIND(LANG(?value) AS ?key) }\n'
        f"  UNION {{ ?{var} rdfs:label ?value . FILTER NOT EXISTS {{ ?{var} rdfs:label ?pref . "
        f"FILTER(LANG(?pref) IN ({langs})) }} "
        'BIND("label" AS ?kind) BIND(LANG(?value) AS ?key) }\n'
    )


def _entities_query(qids: Sequence[str], langs: Sequence[str], prefs: Sequence[str]) -> str:
    sites = " ".join(_site_iri(lang) for lang in langs)
    return (
        f"{PREFIXES}SELECT ?person ?kind ?value ?key WHERE {{\n"
        f"  {_values('person', qids)}\n"
        "  FILTER EXISTS { ?person p:P31 ?st31 . ?st31 ps:P31 wd:Q5 ; wikibase:rank ?rank31 . "
        "FILTER(?rank31 != wikibase:DeprecatedRank) }\n"
        '  { BIND("human" AS ?kind) }\n'
        f'  UNION {{ {_non_deprecated("P21", "value")} BIND("gender" AS ?kind) }}\n'
        f'  UNION {{ {_non_deprecated("P106", "value")} BIND("occupation" AS ?kind) }}\n'
        f"  UNION\n{_label_branches('person', prefs)}"
        f"  UNION {{ VALUES ?site {{ {sites} }} ?article schema:about ?person ; "
        "schema:isPartOf ?site ; schema:name ?value . "
        'BIND("title" AS ?kind) BIND(STR(?site) AS ?key) }\n'
        "}"
    )


def _labels_query(qids: Sequence[str], prefs: Sequence[str]) -> str:
    return (
        f"{PREFIXES}SELECT ?item ?value ?key WHERE {{\n"
        f"  {_values('item', qids)}\n"
        f"{_label_branches('item', prefs)}"
        "}"
    )


def _halving(
    qids: list[str], run: Callable[[list[str]], list[dict[str, str]]], what: str
) -> list[dict[str, str]]:
    """``run(qids)``; on a timeout the block is halved and each half run (recursively)."""
    try:
        return run(qids)
    except QueryTimeout:
        if len(qids) == 1:
            raise QueryTimeout(
                f"{what} of {qids[0]} alone times out: the endpoint is overloaded, try later"
            ) from None
        half = len(qids) // 2
        logger.info("%s of %d items timed out: halving the block", what, len(qids))
        return _halving(qids[:half], run, what) + _halving(qids[half:], run, what)


@dataclass
class _Person:
    genders: list[str]
    occupations: list[str]
    labels: dict[str, dict[str, str]]
    titles: dict[str, str]
    gender_somevalue: bool = False


def fetch_entities(
    client: SparqlClient,
    qids: Sequence[str],
    langs: Sequence[str],
    *,
    label_langs: Sequence[str] = ("en",),
    stats: Counter[str] | None = None,
) -> list[Entity]:
    """The :class:`Entity` of each person in ``qids`` (one query; a block of a few hundred).

    Built as :func:`~occbio.extract.wikidata_dump.entity_from_json` builds it from the dump:
    non-deprecated P21/P106 values of any rank, gender by
    :func:`~occbio.gender.categories.explain_gender`, the label by
    :func:`~occbio.extract.wikidata_dump.pick_label` over ``label_langs`` then ``langs`` (then
    ``mul``, then the smallest language code where the dump takes its first), titles for
    ``langs`` only, occupation labels empty (:func:`fetch_labels`). Genders and occupations are
    sorted by QID number: SPARQL results have no statement order.

    Returned in the order of ``qids``; people the endpoint no longer has as humans are left out
    and counted in ``people_vanished``. ``stats`` also gets ``humans``, ``gender_missing``,
    ``gender_somevalue``, ``gender_unmapped``, ``gender_conflict``, ``occupation_missing``.
    A block that times out is halved until it passes.
    """
    wanted = _validate_qids(qids, what="person")
    checked_langs = _validate_langs(langs)
    if not checked_langs:
        raise ValueError("no language given: pass at least one Wikipedia language code")
    prefs = (*_validate_langs(label_langs, what="label language"), *checked_langs)
    stats = stats if stats is not None else Counter()
    if not wanted:
        return []
    rows = _halving(
        wanted,
        lambda block: client.select(_entities_query(block, checked_langs, prefs)),
        "the details",
    )
    site_lang = {_site_iri(lang)[1:-1]: lang for lang in checked_langs}
    people: dict[str, _Person] = {}
    for row in rows:
        qid = _qid_of(row.get("person", ""))
        if qid is None:
            continue
        person = people.setdefault(qid, _Person([], [], {}, {}))
        kind, value, key = row.get("kind"), row.get("value", ""), row.get("key", "")
        if kind == "gender":
            gender = _qid_of(value)
            if gender is None:
                person.gender_somevalue = True
            elif gender not in person.genders:
                person.genders.append(gender)
        elif kind == "occupation":
            occ = _qid_of(value)
            if occ is not None and occ not in person.occupations:
                person.occupations.append(occ)
        elif kind == "label" and key:
            person.labels[key] = {"language": key, "value": value}
        elif kind == "title" and key in site_lang and value:
            person.titles[site_lang[key]] = value

    entities: list[Entity] = []
    for qid in wanted:
        person = people.get(qid)
        if person is None:
            stats["people_vanished"] += 1
            continue
        entities.append(_entity(qid, person, checked_langs, prefs, stats))
    return entities


def _entity(
    qid: str,
    person: _Person,
    langs: Sequence[str],
    prefs: Sequence[str],
    stats: Counter[str],
) -> Entity:
    """Counters and mapping exactly as ``entity_from_json`` does them for a kept person."""
    stats["humans"] += 1
    genders = sorted(person.genders, key=_qid_number)
    gender, reason = explain_gender(genders)
    if not genders:
        stats["gender_missing"] += 1
    if person.gender_somevalue:
        stats["gender_somevalue"] += 1
    unmapped = unmapped_gender_qids(genders)
    if unmapped:
        stats["gender_unmapped"] += len(unmapped)
        logger.debug("%s: gender value(s) %s not in GENDER_QIDS", qid, ", ".join(unmapped))
    if reason == "conflict_female_male":
        stats["gender_conflict"] += 1
    occupations = sorted(person.occupations, key=_qid_number)
    if not occupations:
        stats["occupation_missing"] += 1
    labels = dict(sorted(person.labels.items()))  # fallback "any label": the smallest code
    return Entity(
        qid=qid,
        label=pick_label(labels, prefs),
        genders=genders,
        gender=gender,
        occupations=[Occupation(occ) for occ in occupations],
        titles={lang: person.titles[lang] for lang in langs if lang in person.titles},
    )


def fetch_labels(
    client: SparqlClient, qids: Sequence[str], prefs: Sequence[str], *, block: int = 500
) -> dict[str, str]:
    """``{qid: label}`` of items (occupations), by :func:`pick_label`'s rule over ``prefs``.

    Asked in ``VALUES`` blocks of ``block`` items (halved when one times out); items without
    any label are left out.
    """
    items = _validate_qids(qids, what="item")
    checked_prefs = _validate_langs(prefs, what="label language")
    if block < 1:
        raise ValueError(f"block must be >= 1, got {block}")
    labels: dict[str, dict[str, dict[str, str]]] = {}
    for start in range(0, len(items), block):
        rows = _halving(
            items[start : start + block],
            lambda part: client.select(_labels_query(part, checked_prefs)),
            "the labels",
        )
        for row in rows:
            qid, key = _qid_of(row.get("item", "")), row.get("key", "")
            if qid is not None and key:
                labels.setdefault(qid, {})[key] = {"language": key, "value": row.get("value", "")}
    result: dict[str, str] = {}
    for qid in items:
        label = pick_label(dict(sorted(labels.get(qid, {}).items())), checked_prefs)
        if label:
            result[qid] = label
    return result
