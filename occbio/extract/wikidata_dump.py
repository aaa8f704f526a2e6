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
the form older dumps use) before it is parsed; only lines that may be people are parsed.

Errors by blast radius: a line that may be a person but is not one JSON entity object (bad
JSON, nested too deep, no id) is skipped, counted (``entities_malformed``) and logged; a line
that cannot be a person (no ``Q5``) is never parsed, so a malformed one of those is neither
counted nor noticed, which costs nothing since it would be dropped anyway; a file that is not
a dump at all raises :class:`WikidataDumpError`; a compressed file cut short raises
:class:`TruncatedWikidataDumpError` after everything before the cut has been yielded.
"""

from __future__ import annotations

import contextlib
import json
import logging
import lzma
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from occbio.extract.compressed import CompressionError, open_compressed
from occbio.gender.categories import explain_gender, unmapped_gender_qids
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

HUMAN_QID = "Q5"
_P_INSTANCE_OF = "P31"
_P_GENDER = "P21"
_P_OCCUPATION = "P106"

# Wikidata site ids are database names: the language code with "-" -> "_" plus "wiki", except
# for editions renamed after their database was created.
_SPECIAL_SITE_IDS = {"be-tarask": "be_x_oldwiki"}

# Cheap tests on the raw line, run before json.loads. A false positive costs one parse; a false
# negative would lose a person, so each test matches every way a Q5 value is written.
_HUMAN_HINT = b'"Q5"'
_HUMAN_NUMERIC = re.compile(rb'"numeric-id"\s*:\s*5\s*[,}]')
# Current dumps start each line with the entity's own id: a free exact test for collect_labels.
_LEADING_ID = re.compile(rb'\{\s*"type"\s*:\s*"item"\s*,\s*"id"\s*:\s*"(Q\d+)"')
_ANY_QID = re.compile(rb'"(Q\d+)"')
_VALID_QID = re.compile(r"Q[1-9][0-9]*")

_STRIP = b" \t\r\n,"
_BOM = b"\xef\xbb\xbf"
_SNIPPET_CHARS = 80
_MAX_LOGGED_MALFORMED = 20


class WikidataDumpError(Exception):
    """The file is not a Wikidata JSON dump (or cannot be read as one); the message says why."""


class TruncatedWikidataDumpError(WikidataDumpError):
    """A compressed dump ends before its end-of-stream marker: the download or copy was cut.

    Raised after every entity before the cut has been yielded; ``entities_read`` says how many.
    """

    def __init__(self, path: Path, entities_read: int, line: int) -> None:
        self.path = path
        self.entities_read = entities_read
        self.line = line
        super().__init__(
            f"{path}: the compressed stream ends early (after line {line}, {entities_read} "
            "entities read): the file is truncated; download it again or check the copy"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # picklable, so a worker process can hand it back to its parent
        return (type(self), (self.path, self.entities_read, self.line))


# --------------------------------------------------------------------------------------------
# Pure logic: one entity's JSON -> Entity
# --------------------------------------------------------------------------------------------


def site_id(lang: str) -> str:
    """Wikidata's sitelink key of a language code: ``zh-min-nan`` -> ``zh_min_nanwiki``."""
    return _SPECIAL_SITE_IDS.get(lang, lang.replace("-", "_") + "wiki")


def _looks_like_entity(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("id"), str) and "type" in obj


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
# I/O: opening, layout, malformed lines
# --------------------------------------------------------------------------------------------


def _open_binary(path: Path) -> IO[bytes]:
    """Open a dump for reading bytes, decompressing by magic bytes (names can lie)."""
    try:
        return open_compressed(path)[0]
    except CompressionError as exc:
        problem = str(exc)  # raised below, outside the handler: no chained traceback
    raise WikidataDumpError(
        f"{path} {problem}; a Wikidata JSON dump is read as .bz2, .gz, .xz or plain"
    )


def _snippet(line: bytes) -> str:
    return line[: _SNIPPET_CHARS * 4].decode("utf-8", "replace")[:_SNIPPET_CHARS]


class _DumpReader:
    """Reads one dump's lines: layout (``[``/``]``, commas), compression errors, bad lines."""

    def __init__(self, path: Path, stats: Counter[str]) -> None:
        self.path = path
        self.stats = stats
        self.entities_read = 0
        self._malformed_logged = 0

    def malformed(self, lineno: int, line: bytes, why: str) -> None:
        """Count a skipped line; log the first few (a corrupt file should not flood the log)."""
        self.stats["entities_malformed"] += 1
        self._malformed_logged += 1
        if self._malformed_logged <= _MAX_LOGGED_MALFORMED:
            logger.warning("%s line %d skipped: %s: %r", self.path, lineno, why, _snippet(line))
            if self._malformed_logged == _MAX_LOGGED_MALFORMED:
                logger.warning("%s: further malformed lines are counted, not logged", self.path)

    def parse(self, lineno: int, line: bytes) -> dict[str, Any] | None:
        """``json.loads`` the line; a line that is not an entity object is counted and skipped."""
        try:
            obj = json.loads(line)
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            self.malformed(lineno, line, f"not valid JSON ({exc})")
            return None
        except RecursionError:  # nested deeper than Python's JSON parser goes
            self.malformed(lineno, line, "JSON nested too deep")
            return None
        if not _looks_like_entity(obj):
            self.malformed(lineno, line, "a JSON object without an entity id")
            return None
        return obj

    def _not_a_dump(self, lineno: int, line: bytes) -> WikidataDumpError:
        hint = ""
        if line[:1] == b"{":
            hint = (
                "; for a single entity file or a wbgetentities response "
                "use entities_from_json_file()"
            )
        elif line[:1] == b"[":
            hint = "; a JSON array on one line is not the dump's one-entity-per-line layout"
        return WikidataDumpError(
            f"{self.path} is not a Wikidata JSON dump: line {lineno} is {_snippet(line)!r}; "
            f"expected '[' and then one entity object per line (as in latest-all.json){hint}"
        )

    def _check_entity_line(self, lineno: int, line: bytes) -> None:
        """The first entity line decides whether this is a dump at all."""
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            raise self._not_a_dump(lineno, line) from None
        if not _looks_like_entity(obj):
            raise self._not_a_dump(lineno, line)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """Yield ``(line number, entity JSON bytes)``: stripped of whitespace and comma."""
        fh = _open_binary(self.path)
        lineno = 0
        started = array = closed = False
        checked = False
        with fh:
            try:
                for raw in fh:
                    lineno += 1
                    line = raw.strip(_STRIP)
                    if not started:
                        line = line.removeprefix(_BOM).strip(_STRIP)
                        if not line:
                            continue
                        started = True
                        if line == b"[":
                            array = True
                            continue
                    if not line:
                        continue
                    if line == b"]" and array and not closed:
                        closed = True
                        continue
                    if closed:
                        self.malformed(lineno, line, "content after the closing ']'")
                        continue
                    if line[:1] != b"{" or line[-1:] != b"}":
                        if not checked:
                            raise self._not_a_dump(lineno, line)
                        self.malformed(lineno, line, "not one JSON object on the line")
                        continue
                    if not checked:
                        self._check_entity_line(lineno, line)
                        checked = True
                    self.entities_read += 1
                    self.stats["entities_read"] += 1
                    yield lineno, line
            except EOFError as exc:
                raise TruncatedWikidataDumpError(self.path, self.entities_read, lineno) from exc
            except (OSError, zlib.error, lzma.LZMAError) as exc:
                raise WikidataDumpError(
                    f"{self.path}: cannot read past line {lineno} ({exc}): the file is corrupt"
                ) from exc
        if not started:
            raise WikidataDumpError(f"{self.path} holds only blank lines, not a Wikidata dump")
        if array and not closed:
            logger.warning(
                "%s ends after line %d without the closing ']': it may be cut short "
                "(fine for a head -n excerpt)",
                self.path,
                lineno,
            )


# --------------------------------------------------------------------------------------------
# Streaming entry points
# --------------------------------------------------------------------------------------------


def _may_be_human(line: bytes) -> bool:
    return _HUMAN_HINT in line or _HUMAN_NUMERIC.search(line) is not None


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
    result and counted in ``labels_missing``; found ones in ``labels_found``. ``stats`` also
    gets ``entities_read`` / ``entities_malformed`` for this pass: give it its own Counter
    when those should not add up with an :func:`iter_humans` pass.
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
    stats["labels_found"] += len(labels)
    missing = len(requested) - len(labels)
    if missing:
        stats["labels_missing"] += missing
        logger.info("%s: %d of the requested labels not found", path, missing)
    return labels


# --------------------------------------------------------------------------------------------
# Whole JSON files (single entities, wbgetentities responses)
# --------------------------------------------------------------------------------------------


def entities_from_json_file(path: str | Path) -> list[dict[str, Any]]:
    """Read the entity objects of one JSON document: an entity, a wbgetentities response
    (``{"entities": {...}}``), or a JSON array of entities. For small files: it loads the
    whole document. Missing entities of a wbgetentities response are left out.
    """
    path = Path(path)
    try:
        with _open_binary(path) as fh:
            data = json.load(fh)
    except ValueError as exc:
        raise WikidataDumpError(f"{path} is not a JSON document: {exc}") from None
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        raise WikidataDumpError(f"{path}: cannot read the file ({exc})") from exc
    if isinstance(data, dict) and isinstance(data.get("entities"), dict):
        items = list(data["entities"].values())
    elif isinstance(data, dict) and "error" in data and "id" not in data:
        raise WikidataDumpError(f"{path} is a Wikidata API error response: {data['error']!r}")
    elif isinstance(data, dict):
        items = [data]
    elif isinstance(data, list):
        items = data
    else:
        raise WikidataDumpError(f"{path} holds a JSON {type(data).__name__}, not entities")
    entities = [e for e in items if not (isinstance(e, dict) and "missing" in e)]
    for entity in entities:
        if not _looks_like_entity(entity):
            raise WikidataDumpError(
                f"{path}: {_snippet(json.dumps(entity).encode())!r} is not a Wikidata entity "
                "(an object with 'id' and 'type')"
            )
    return entities
