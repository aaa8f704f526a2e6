"""Stream people out of a Wikidata JSON dump (``latest-all.json.bz2`` or any extract of it).

The dump is one JSON array with one entity per line: ``[``, then ``{...},`` lines, then ``]``.
We read it line by line, so memory stays flat whatever the size (the largest single entity is
the only thing held at once). Also read: a last entity line without a comma, blank lines, a file
of bare JSON lines, and .bz2 / .gz / .xz / plain files (told apart by their magic bytes, not
their names).

Occupation labels need a second look at the dump, because an occupation's entity (Q36180
writer) may come before or after the people who reference it. Rather than buffer people, the
work is split so every step streams:

1. :func:`iter_humans` yields :class:`~occbio.records.Entity` records with occupation QIDs but
   empty labels;
2. the caller gathers the referenced QIDs (:func:`referenced_occupations`) while writing them;
3. :func:`collect_labels` makes one pass that keeps labels for just those QIDs;
4. :func:`label_occupations` fills the labels in while the caller rewrites its file.

Speed: most lines are not people, so a line is searched for ``"Q5"`` (or ``"numeric-id": 5``,
the form older dumps use, or either spelled with ``\\u`` escapes) before it is parsed; only
lines that may be people are parsed.

Errors by blast radius: a line that may be a person but is not one JSON entity object (bad
JSON, nested too deep, no id) is skipped, counted (``entities_malformed``) and logged; a line
that cannot be a person (no ``Q5``) is never parsed, so a malformed one of those is neither
counted nor noticed, which costs nothing since it would be dropped anyway; a file that is not
a dump at all raises :class:`WikidataDumpError`; a compressed file cut short raises
:class:`TruncatedWikidataDumpError` after everything before the cut has been yielded.

This module holds the streaming passes (:func:`iter_humans`, :func:`collect_labels`) and the
label plumbing between them; the rest lives in one module per job, and their public names are
re-exported here, so ``occbio.extract.wikidata_dump`` stays the one place to import the dump
reader from:

- :mod:`occbio.extract.wikidata_entity_json`: one entity's JSON -> :class:`Entity`
  (:func:`entity_from_json`, :func:`pick_label`, :func:`site_id`, ``HUMAN_QID``), shared with
  the SPARQL side;
- :mod:`occbio.extract.wikidata_dump_reader`: the file itself: compression, the dump's line
  layout, malformed lines and the errors (:class:`WikidataDumpError`,
  :class:`TruncatedWikidataDumpError`), and :func:`entities_from_json_file` for small JSON
  documents read whole.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from occbio.extract.wikidata_dump_reader import (
    TruncatedWikidataDumpError,
    WikidataDumpError,
    _DumpReader,
    entities_from_json_file,
)
from occbio.extract.wikidata_entity_json import (
    HUMAN_QID,
    _required_langs,
    entity_from_json,
    pick_label,
    site_id,
)
from occbio.gender.categories import unmapped_gender_qids
from occbio.langs import validate_langs
from occbio.records import Entity, Occupation

__all__ = [
    "WikidataDumpError",
    "TruncatedWikidataDumpError",
    "HUMAN_QID",
    "site_id",
    "pick_label",
    "entity_from_json",
    "iter_humans",
    "collect_labels",
    "referenced_occupations",
    "label_occupations",
    "entities_from_json_file",
]

logger = logging.getLogger(__name__)


def _json_spelled(text: str) -> bytes:
    """A regex of ``text`` as JSON may spell it: each character as itself or ``\\u00XX``
    (hex digits in either case)."""
    parts = []
    for c in text:
        hex_digits = "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in f"{ord(c):04x}")
        parts.append(b"(?:" + re.escape(c.encode()) + rb"|\\u" + hex_digits.encode() + b")")
    return b"".join(parts)


# Cheap tests on the raw line, run before json.loads. A false positive costs one parse; a false
# negative would lose a person, so each test matches every way a Q5 value is written.
_HUMAN_HINT = b'"Q5"'
_HUMAN_NUMERIC = re.compile(rb'"numeric-id"\s*:\s*5\s*[,}]')
# The same with \u escapes (``"Q\u0035"``), which JSON allows for any character: tried only
# on a line that has one.
_HUMAN_ESCAPED = re.compile(
    b'"' + _json_spelled("Q5") + b'"|"' + _json_spelled("numeric-id") + rb'"\s*:\s*5\s*[,}]'
)
# Current dumps start each line with the entity's own id: a free exact test for collect_labels.
_LEADING_ID = re.compile(rb'\{\s*"type"\s*:\s*"item"\s*,\s*"id"\s*:\s*"(Q\d+)"')
_ANY_QID = re.compile(rb'"(Q\d+)"')


def referenced_occupations(entities: Iterable[Entity]) -> set[str]:
    """The occupation QIDs the entities refer to: what :func:`collect_labels` should look for."""
    return {occ.qid for entity in entities for occ in entity.occupations}


def label_occupations(entities: Iterable[Entity], labels: Mapping[str, str]) -> Iterator[Entity]:
    """Yield copies of ``entities`` with occupation labels from ``labels`` (others kept as is)."""
    for entity in entities:
        yield replace(
            entity,
            occupations=[Occupation(o.qid, labels.get(o.qid, o.label)) for o in entity.occupations],
        )


# --------------------------------------------------------------------------------------------
# Streaming entry points
# --------------------------------------------------------------------------------------------


def _may_be_human(line: bytes) -> bool:
    return (
        _HUMAN_HINT in line
        or _HUMAN_NUMERIC.search(line) is not None
        or (b"\\u" in line and _HUMAN_ESCAPED.search(line) is not None)
    )


def iter_humans(
    path: str | Path,
    langs: Sequence[str],
    *,
    min_langs: int | None = None,
    label_langs: Sequence[str] = ("en",),
    stats: Counter[str] | None = None,
) -> Iterator[Entity]:
    """Stream the people of a Wikidata JSON dump with articles in enough of ``langs``.

    Yields :class:`Entity` records in dump order with occupation labels left empty (fill them
    with :func:`collect_labels` + :func:`label_occupations`). The person's label comes from
    ``label_langs``, then ``langs``, then ``mul``, then any language. Counters go to ``stats``
    (see :func:`entity_from_json`, plus ``entities_read`` and ``entities_malformed``).

    Raises ``ValueError`` / :class:`~occbio.langs.LanguageError` at once for bad arguments,
    :class:`WikidataDumpError` when the file is not a dump, and
    :class:`TruncatedWikidataDumpError` when a compressed file is cut short.
    """
    checked_langs = validate_langs(langs)
    _required_langs(checked_langs, min_langs)
    return _iter_humans(
        Path(path),
        checked_langs,
        min_langs=min_langs,
        label_langs=tuple(label_langs),
        stats=stats if stats is not None else Counter(),
    )


def _iter_humans(
    path: Path,
    langs: list[str],
    *,
    min_langs: int | None,
    label_langs: tuple[str, ...],
    stats: Counter[str],
) -> Iterator[Entity]:
    reader = _DumpReader(path, stats)
    warned_unmapped: set[str] = set()
    for lineno, line in reader.lines():
        if not _may_be_human(line):
            continue
        obj = reader.parse(lineno, line)
        if obj is None:
            continue
        try:
            entity = entity_from_json(
                obj, langs, min_langs=min_langs, label_langs=label_langs, stats=stats
            )
        except (AttributeError, TypeError, KeyError) as exc:
            reader.malformed(lineno, line, f"unexpected entity structure ({exc!r})")
            continue
        if entity is None:
            continue
        for qid in unmapped_gender_qids(entity.genders):
            if qid not in warned_unmapped:
                warned_unmapped.add(qid)
                logger.warning(
                    "gender value %s (first seen on %s) is not in GENDER_QIDS: such people get "
                    "gender 'unknown'",
                    qid,
                    entity.qid,
                )
        yield entity
    logger.info(
        "%s: %d entities, %d humans, %d kept",
        path,
        reader.entities_read,
        stats["humans"],
        stats["humans_kept"],
    )


def _may_be_wanted(line: bytes, wanted: set[bytes]) -> bool:
    match = _LEADING_ID.match(line)
    if match is not None:
        return match.group(1) in wanted
    return not wanted.isdisjoint(_ANY_QID.findall(line))


def collect_labels(
    path: str | Path,
    qids: Iterable[str],
    label_langs: Sequence[str],
    *,
    stats: Counter[str] | None = None,
) -> dict[str, str]:
    """One streaming pass over the dump that returns ``{qid: label}`` for just ``qids``.

    Labels follow ``label_langs``, then ``mul``, then any language. The pass stops as soon as
    every QID is found. QIDs absent from the dump (or without any label) are left out of the
    result and counted in ``labels_missing``; found ones in ``labels_found``. A compressed dump
    cut short gives the labels before the cut (logged; :func:`iter_humans` raises there).
    ``stats`` also gets ``entities_read`` / ``entities_malformed`` for this pass: give it its
    own Counter when those should not add up with an :func:`iter_humans` pass.
    """
    stats = stats if stats is not None else Counter()
    requested = set(qids)
    remaining = set(requested)
    labels: dict[str, str] = {}
    if not remaining:
        return labels
    prefs = tuple(label_langs)
    wanted = {qid.encode() for qid in remaining}
    reader = _DumpReader(Path(path), stats)
    with contextlib.closing(reader.lines()) as lines:
        try:
            for lineno, line in lines:
                if not _may_be_wanted(line, wanted):
                    continue
                obj = reader.parse(lineno, line)
                if obj is None or obj["id"] not in remaining:
                    continue
                qid = obj["id"]
                remaining.discard(qid)
                wanted.discard(qid.encode())
                label = pick_label(obj.get("labels"), prefs)
                if label:
                    labels[qid] = label
                if not remaining:
                    break
        except TruncatedWikidataDumpError as exc:  # the people pass has said so already
            logger.warning("%s; the labels read before the cut are kept", exc)
    stats["labels_found"] += len(labels)
    missing = len(requested) - len(labels)
    if missing:
        stats["labels_missing"] += missing
        logger.info("%s: %d of the requested labels not found", path, missing)
    return labels
