"""One Wikidata entity's JSON -> :class:`~occbio.records.Entity`: the rules of who is kept.

:func:`entity_from_json` decides whether an entity object is a person to keep (a non-deprecated
P31 = Q5, articles in enough of the languages) and builds the record: gender, occupation QIDs,
the person's label (:func:`pick_label`) and article titles (:func:`site_id`). Occupation labels
are left empty: they are filled in by a second pass over the dump, as the doc of
:mod:`occbio.extract.wikidata_dump` describes.

Pure logic, no I/O: the dump reader (:mod:`occbio.extract.wikidata_dump`) feeds it parsed
lines, and the SPARQL side (:mod:`occbio.extract.wikidata_entities`) picks labels by the same
rule. Kept apart from the dump reader so that these rules live in one place whatever the entity
came from; :mod:`occbio.extract.wikidata_dump` re-exports the public names.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from occbio.gender.categories import explain_gender, unmapped_gender_qids
from occbio.records import Entity, Occupation

__all__ = ["HUMAN_QID", "site_id", "pick_label", "entity_from_json"]

# Logged as the dump reader it serves, as before the split: the logger users filter on stays.
logger = logging.getLogger("occbio.extract.wikidata_dump")

HUMAN_QID = "Q5"
_P_INSTANCE_OF = "P31"
_P_GENDER = "P21"
_P_OCCUPATION = "P106"

# Wikidata site ids are database names: the language code with "-" -> "_" plus "wiki", except
# for editions renamed after their database was created.
_SPECIAL_SITE_IDS = {"be-tarask": "be_x_oldwiki"}

_VALID_QID = re.compile(r"Q[1-9][0-9]*")


def site_id(lang: str) -> str:
    """Wikidata's sitelink key of a language code: ``zh-min-nan`` -> ``zh_min_nanwiki``."""
    return _SPECIAL_SITE_IDS.get(lang, lang.replace("-", "_") + "wiki")


def _item_qid(value: Any) -> str | None:
    """QID of a ``wikibase-entityid`` value: ``id``, or ``numeric-id`` alone in older dumps."""
    if not isinstance(value, dict):
        return None
    qid = value.get("id")
    if isinstance(qid, str):
        return qid
    number = value.get("numeric-id")
    if isinstance(number, int) and value.get("entity-type", "item") == "item":
        return f"Q{number}"
    return None


def _statement_values(claims: Mapping[str, Any], prop: str) -> tuple[list[str], int, int]:
    """``(QIDs, somevalue count, novalue count)`` of ``prop``'s non-deprecated statements.

    QIDs come in statement order, once each. Deprecated statements are ones Wikidata itself marks
    as wrong, so they are skipped; "unknown value" / "no value" snaks carry no QID and are only
    counted.
    """
    qids: list[str] = []
    somevalue = novalue = 0
    for statement in claims.get(prop) or ():
        if statement.get("rank") == "deprecated":
            continue
        snak = statement.get("mainsnak") or {}
        kind = snak.get("snaktype")
        if kind == "value":
            qid = _item_qid((snak.get("datavalue") or {}).get("value"))
            if qid is not None and qid not in qids:
                qids.append(qid)
        elif kind == "somevalue":
            somevalue += 1
        elif kind == "novalue":
            novalue += 1
    return qids, somevalue, novalue


def pick_label(labels: Any, prefs: Iterable[str]) -> str:
    """The first label in ``prefs`` order, then ``mul`` (Wikidata's all-language label), then any.

    Returns "" when the entity has no label at all.
    """
    if not isinstance(labels, dict) or not labels:
        return ""
    for lang in (*prefs, "mul"):
        label = labels.get(lang)
        if isinstance(label, dict) and isinstance(label.get("value"), str):
            return label["value"]
    for label in labels.values():
        if isinstance(label, dict) and isinstance(label.get("value"), str):
            return label["value"]
    return ""


def _titles(sitelinks: Any, langs: Sequence[str]) -> dict[str, str]:
    if not isinstance(sitelinks, dict):
        return {}
    titles: dict[str, str] = {}
    for lang in langs:
        link = sitelinks.get(site_id(lang))
        if isinstance(link, dict) and isinstance(link.get("title"), str) and link["title"]:
            titles[lang] = link["title"]
    return titles


def _required_langs(langs: Sequence[str], min_langs: int | None) -> int:
    if not langs:
        raise ValueError("no language given: pass at least one Wikipedia language code")
    if min_langs is None:
        return len(langs)
    if not 1 <= min_langs <= len(langs):
        raise ValueError(
            f"min_langs={min_langs} must be between 1 and the number of languages "
            f"({len(langs)}: {', '.join(langs)}); None keeps people with articles in all of them"
        )
    return min_langs


def entity_from_json(
    obj: Mapping[str, Any],
    langs: Sequence[str],
    *,
    min_langs: int | None = None,
    label_langs: Sequence[str] = ("en",),
    stats: Counter[str] | None = None,
) -> Entity | None:
    """Build the :class:`Entity` of one Wikidata entity object, or ``None`` when it is dropped.

    Dropped: not a human (no non-deprecated P31 = Q5), or articles in fewer than ``min_langs`` of
    ``langs`` (``None``: all). Occupation labels are left empty (see the module doc). Counters
    go to ``stats``: ``humans``, ``humans_kept``, ``humans_skipped_langs``, and for kept people
    ``gender_missing``, ``gender_somevalue``, ``gender_novalue``, ``gender_unmapped`` (one per
    unknown QID), ``gender_conflict``, ``occupation_missing``; ``humans_bad_qid`` for a human
    whose id is not an item id (skipped).
    """
    stats = stats if stats is not None else Counter()
    need = _required_langs(langs, min_langs)
    claims = obj.get("claims")
    if not isinstance(claims, dict):
        return None
    if HUMAN_QID not in _statement_values(claims, _P_INSTANCE_OF)[0]:
        return None
    stats["humans"] += 1
    if not _VALID_QID.fullmatch(obj["id"]):
        # an id that is no item id ("Q1\t...", "../../evil") would corrupt the TSV rows and
        # file names built from it
        stats["humans_bad_qid"] += 1
        if stats["humans_bad_qid"] <= 10:
            logger.warning(
                "skipped an entity whose id %r is not a Wikidata item id", obj["id"][:80]
            )
        return None
    titles = _titles(obj.get("sitelinks"), langs)
    if len(titles) < need:
        stats["humans_skipped_langs"] += 1
        return None

    genders, somevalue, novalue = _statement_values(claims, _P_GENDER)
    gender, reason = explain_gender(genders)
    if not genders:
        stats["gender_missing"] += 1
    if somevalue:
        stats["gender_somevalue"] += 1
    if novalue:
        stats["gender_novalue"] += 1
    unmapped = unmapped_gender_qids(genders)
    if unmapped:
        stats["gender_unmapped"] += len(unmapped)
    if reason == "conflict_female_male":
        stats["gender_conflict"] += 1
    occupations = _statement_values(claims, _P_OCCUPATION)[0]
    if not occupations:
        stats["occupation_missing"] += 1
    stats["humans_kept"] += 1
    return Entity(
        qid=str(obj["id"]),
        label=pick_label(obj.get("labels"), (*label_langs, *langs)),
        genders=genders,
        gender=gender,
        occupations=[Occupation(qid) for qid in occupations],
        titles=titles,
    )
