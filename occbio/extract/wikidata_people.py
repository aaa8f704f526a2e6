"""Which people a run wants, how many each occupation has, and the walk over their QIDs.

The Wikidata Query Service stops every query after 60 seconds, so the work is cut into many
small queries that each finish well within the limit:

1. :func:`occupation_counts` says how many people each occupation has (to plan a run);
2. :func:`iter_people` walks the QIDs of the people of each occupation in pages
   (``ORDER BY``/``LIMIT``/``OFFSET``), splitting a page that times out into 10 partitions by
   the last digit of the person's QID (then the last two digits, ...); every finished
   :class:`Batch` is yielded with its result so a caller can store it and resume an interrupted
   run without asking again (``done``).

:class:`PeopleQuery` says which people are wanted (humans with an occupation and Wikipedia
articles in enough of the languages); the query text and its partitions are built here, sent
through :class:`~occbio.extract.sparql_client.SparqlClient`. The details of the people found
are fetched by :mod:`occbio.extract.wikidata_entities`.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from occbio.extract.sparql_client import QueryTimeout, SparqlClient
from occbio.extract.wikidata_dump import HUMAN_QID
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

__all__ = [
    "PeopleQuery",
    "Batch",
    "occupation_counts",
    "iter_people",
]

logger = logging.getLogger(__name__)

_DIGITS = re.compile(r"[0-9]*")


# --------------------------------------------------------------------------------------------
# Which people: the query pattern and its partitions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PeopleQuery:
    """Which people a run wants: humans (P31 = Q5) with the occupation (P106; with
    ``subclasses`` also any subclass of it through P279) and a Wikipedia article in at least
    ``min_langs`` of ``langs``."""

    langs: tuple[str, ...]
    min_langs: int
    subclasses: bool = False

    def __post_init__(self) -> None:
        langs = _validate_langs(self.langs)
        if not langs:
            raise ValueError("no language given: pass at least one Wikipedia language code")
        if not 1 <= self.min_langs <= len(langs):
            raise ValueError(
                f"min_langs={self.min_langs} must be between 1 and the number of languages "
                f"({len(langs)}: {', '.join(langs)})"
            )
        object.__setattr__(self, "langs", langs)  # a list given -> a hashable tuple


@dataclass(frozen=True, order=True)
class Batch:
    """One unit of the people walk: a page of one occupation's people within one partition.

    ``suffix`` restricts it to people whose QID number ends with these digits ("" = everyone);
    ``offset`` is the page's OFFSET. :attr:`key` is a stable text form for checkpoints.
    """

    occupation: str
    suffix: str = ""
    offset: int = 0

    @property
    def key(self) -> str:
        """``Q36180/7/20000``: occupation, partition suffix, offset."""
        return f"{self.occupation}/{self.suffix}/{self.offset}"


def _partition_filter(suffix: str) -> str:
    """The FILTER that keeps the people whose QID number ends with ``suffix`` ("" = no filter).

    This is ``FILTER(STRENDS(STR(?person), "7"))``: a general split of *any* query over people,
    whatever its occupation or languages, into 10 parts of about equal size (the last digits of
    QIDs are spread evenly), which can be split again (``"07"``, ``"17"``, ...) and never
    overlap; the parts of a query are known without asking the server, so a checkpoint can name
    them. With a leading 0 the item whose number is the rest alone belongs here as well (``"07"``
    holds Q7 too, as if numbers were padded with zeros), so the parts of a part cover it exactly.
    """
    if _DIGITS.fullmatch(suffix) is None:
        raise ValueError(f"partition suffix {suffix!r} must be digits")
    if not suffix:
        return ""
    test = f"STRENDS(STR(?person), {sparql_literal(suffix)})"
    rest = suffix.lstrip("0")
    if rest and rest != suffix:
        test += f" || ?person = wd:Q{rest}"
    return f"  FILTER({test})\n"


def _partitions(suffix: str) -> list[str]:
    return [digit + suffix for digit in "0123456789"]


def _people_pattern(query: PeopleQuery, occupation: str, suffix: str) -> str:
    """Rows ``?person ?site`` of the wanted people (``occupation`` is ``wd:Q..`` or ``?occ``)."""
    path = "wdt:P106/wdt:P279*" if query.subclasses else "wdt:P106"
    sites = " ".join(_site_iri(lang) for lang in query.langs)
    return (
        f"  ?person {path} {occupation} .\n"
        f"  ?person wdt:P31 wd:{HUMAN_QID} .\n"
        f"  VALUES ?site {{ {sites} }}\n"
        "  ?article schema:about ?person ; schema:isPartOf ?site .\n"
        f"{_partition_filter(suffix)}"
    )


def _having(query: PeopleQuery) -> str:
    return f"HAVING (COUNT(DISTINCT ?site) >= {int(query.min_langs)})"


def _counts_query(query: PeopleQuery, occupations: list[str] | None, suffix: str) -> str:
    if occupations is None:
        # Every occupation present: count the people once, then their direct P106 values.
        sites = " ".join(_site_iri(lang) for lang in query.langs)
        return (
            f"{PREFIXES}SELECT ?occ (COUNT(?person) AS ?n) WHERE {{\n"
            "  {\n  SELECT ?person WHERE {\n"
            f"  ?person wdt:P31 wd:{HUMAN_QID} .\n"
            f"  VALUES ?site {{ {sites} }}\n"
            "  ?article schema:about ?person ; schema:isPartOf ?site .\n"
            f"{_partition_filter(suffix)}"
            f"  }} GROUP BY ?person {_having(query)}\n"
            "  }\n"
            "  ?person wdt:P106 ?occ .\n"
            "} GROUP BY ?occ"
        )
    return (
        f"{PREFIXES}SELECT ?occ (COUNT(?person) AS ?n) WHERE {{\n"
        "  {\n  SELECT ?occ ?person WHERE {\n"
        f"  {_values('occ', occupations)}\n"
        f"{_people_pattern(query, '?occ', suffix)}"
        f"  }} GROUP BY ?occ ?person {_having(query)}\n"
        "  }\n"
        "} GROUP BY ?occ"
    )


def _page_query(
    query: PeopleQuery, occupation: str, suffix: str, page_size: int, offset: int
) -> str:
    return (
        f"{PREFIXES}SELECT ?person WHERE {{\n"
        f"{_people_pattern(query, f'wd:{occupation}', suffix)}"
        f"}} GROUP BY ?person {_having(query)}\n"
        f"ORDER BY ?person LIMIT {int(page_size)} OFFSET {int(offset)}"
    )


def _too_deep(
    what: str, suffix: str, timeouts: int, max_depth: int, query: PeopleQuery
) -> QueryTimeout:
    """Says how far the splitting really went: the parts are tried one by one, so giving up
    on the first part at the deepest level comes after a few queries, not ``10**max_depth``."""
    where = (
        f"down to the part whose QIDs end in {suffix!r} (one of {10 ** len(suffix)})"
        if suffix
        else "the whole query (max_depth=0: no splitting)"
    )
    return QueryTimeout(
        f"{what} still times out: {timeouts} queries timed out, {where}, and max_depth="
        f"{max_depth} stops the splitting there, for langs {','.join(query.langs)}: ask for "
        "fewer languages, name fewer or narrower occupations (--occupations), or raise "
        "max_depth"
    )


# --------------------------------------------------------------------------------------------
# Planning: people per occupation
# --------------------------------------------------------------------------------------------


def occupation_counts(
    client: SparqlClient,
    query: PeopleQuery,
    *,
    occupations: Sequence[str] | None = None,
    max_depth: int = 3,
) -> dict[str, int]:
    """Number of wanted people per occupation, to plan a run.

    With ``occupations`` the result has exactly those (0 for none; with ``subclasses`` people of
    subclasses count for the named occupation), in the given order. Without, every occupation
    the wanted people have as a direct P106 value (``subclasses`` does not apply), most people
    first. A query that times out is split (several occupations into one query each, then into
    QID partitions, at most ``max_depth`` digits deep) and the parts are summed.
    """
    occs = None if occupations is None else _validate_qids(occupations, what="occupation")
    if occs == []:
        return {}
    totals: Counter[str] = Counter()
    not_numbers = timeouts = 0

    def count(part_occs: list[str] | None, suffix: str) -> None:
        nonlocal not_numbers, timeouts
        try:
            rows = client.select(_counts_query(query, part_occs, suffix))
        except QueryTimeout:
            timeouts += 1
            if part_occs is not None and len(part_occs) > 1:
                logger.info("occupation counts timed out: one query per occupation")
                for occ in part_occs:
                    count([occ], suffix)
                return
            if len(suffix) >= max_depth:
                raise _too_deep(
                    "counting people per occupation", suffix, timeouts, max_depth, query
                ) from None
            logger.info("occupation counts timed out: splitting partition %r", suffix)
            for part in _partitions(suffix):
                count(part_occs, part)
            return
        for row in rows:
            qid = _qid_of(row.get("occ", ""))
            if qid is None:  # "unknown value" occupations are no occupation
                continue
            n = str(row.get("n", "0")).strip()
            if not n.isdigit():  # an endpoint of another shape: this row says nothing
                not_numbers += 1
                continue
            totals[qid] += int(n)

    count(occs, "")
    if not_numbers:
        logger.warning("%d occupation counts were not numbers and were left out", not_numbers)
    if occs is not None:
        return {occ: totals[occ] for occ in occs}
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], _qid_number(kv[0])))
    return dict(ranked)


# --------------------------------------------------------------------------------------------
# The walk: every wanted person's QID, batch by batch
# --------------------------------------------------------------------------------------------


def iter_people(
    client: SparqlClient,
    query: PeopleQuery,
    occupations: Sequence[str],
    *,
    page_size: int = 10000,
    done: Mapping[str, list[str] | None] | None = None,
    max_depth: int = 3,
) -> Iterator[tuple[Batch, list[str] | None]]:
    """Walk the QIDs of the wanted people of each occupation, one :class:`Batch` at a time.

    Order is deterministic: occupations in the given order; within one, pages of ``page_size``
    (``ORDER BY ?person LIMIT/OFFSET``; a page with fewer rows is the last). A page that times
    out is yielded as ``(batch, None)`` and replaced by its 10 partitions, each paged from
    offset 0 (recursively, ``max_depth`` digits at most, then :class:`QueryTimeout`). Finished
    batches are yielded as ``(batch, QIDs sorted by number)``.

    ``done`` maps :attr:`Batch.key` to what an earlier, interrupted walk yielded for it: those
    batches are not asked again; their stored result is yielded (``None``: go to the parts). It
    is only valid for the same query and ``page_size``.

    A person with several of the occupations comes once per occupation, and within one
    occupation a person can come twice when a page after the first had to be split (its parts
    start again from offset 0): callers keep the QIDs they have already seen.
    Arguments are checked at once, before any query is sent.
    """
    occs = _validate_qids(occupations, what="occupation")
    if page_size < 1:
        raise ValueError(f"page_size must be >= 1, got {page_size}")
    if max_depth < 0:
        raise ValueError(f"max_depth must be >= 0, got {max_depth}")
    return _walk(client, query, occs, page_size, dict(done or {}), max_depth)


def _walk(
    client: SparqlClient,
    query: PeopleQuery,
    occupations: list[str],
    page_size: int,
    done: dict[str, list[str] | None],
    max_depth: int,
) -> Iterator[tuple[Batch, list[str] | None]]:
    timeouts = 0

    def partition(occ: str, suffix: str) -> Iterator[tuple[Batch, list[str] | None]]:
        nonlocal timeouts
        offset = 0
        while True:
            batch = Batch(occ, suffix, offset)
            result: list[str] | None
            if batch.key in done:
                stored = done[batch.key]
                result = None if stored is None else list(stored)
            else:
                try:
                    rows = client.select(_page_query(query, occ, suffix, page_size, offset))
                except QueryTimeout:
                    timeouts += 1
                    if len(suffix) >= max_depth:
                        raise _too_deep(
                            f"the people of {occ} (batch {batch.key})",
                            suffix,
                            timeouts,
                            max_depth,
                            query,
                        ) from None
                    logger.info("batch %s timed out: splitting it into 10 parts", batch.key)
                    result = None
                else:
                    qids = {q for row in rows if (q := _qid_of(row.get("person", "")))}
                    result = sorted(qids, key=_qid_number)
                    if len(rows) > len(qids):
                        logger.warning(
                            "batch %s: %d rows are not items", batch.key, len(rows) - len(qids)
                        )
            yield batch, result
            if result is None:
                for part in _partitions(suffix):
                    yield from partition(occ, part)
                return
            if len(result) < page_size:
                return
            offset += page_size

    for occ in occupations:
        yield from partition(occ, "")
