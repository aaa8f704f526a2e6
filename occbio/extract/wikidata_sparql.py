"""Get people from the Wikidata SPARQL endpoint: the live alternative to a full JSON dump.

The Wikidata Query Service (https://query.wikidata.org/sparql) stops every query after 60
seconds and throttles clients that use too much of its time, so the work is cut into many small
queries that each finish well within the limit:

1. :func:`occupation_counts` says how many people each occupation has (to plan a run);
2. :func:`iter_people` walks the QIDs of the people of each occupation in pages
   (``ORDER BY``/``LIMIT``/``OFFSET``), splitting a page that times out into 10 partitions by
   the last digit of the person's QID (then the last two digits, ...); every finished
   :class:`Batch` is yielded with its result so a caller can store it and resume an interrupted
   run without asking again (``done``);
3. :func:`fetch_entities` gets the details of a block of people (gender, occupations, label,
   article titles) in one ``VALUES`` query and builds the same
   :class:`~occbio.records.Entity` records as :func:`~occbio.extract.wikidata_dump.entity_from_json`
   builds from the dump (same label rule, same gender mapping, non-deprecated statements of any
   rank, titles only for the requested languages). SPARQL results carry no statement order, so
   genders and occupations come sorted by QID number;
4. :func:`fetch_labels` gets occupation labels, as
   :func:`~occbio.extract.wikidata_dump.collect_labels` does for the dump.

All requests go through :class:`SparqlClient` (SPARQLWrapper, HTTP POST, JSON results): one at a
time, with the User-Agent Wikimedia asks for, backing off on 429/503 and honouring
``Retry-After`` (rules shared with the web client in :mod:`occbio.net`). Failures are told apart
because the caller reacts differently to each: :class:`QueryTimeout` (split the query),
:class:`EndpointUnreachable` (no network: stop at once), :class:`SparqlError` (anything else).

Every value put into a query is validated (QIDs, language codes, partition digits) or escaped
(string literals), and every query declares its prefixes, so the same text runs on Wikidata
(which predeclares them) and on any SPARQL 1.1 store holding Wikidata-shaped RDF (the tests use
a local Oxigraph server).
"""

from __future__ import annotations

import ast
import http.client
import json
import logging
import re
import ssl
import time
import urllib.error
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from SPARQLWrapper import JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import (
    EndPointInternalError,
    EndPointNotFound,
    QueryBadFormed,
    SPARQLWrapperException,
    Unauthorized,
    URITooLong,
)

from occbio.extract.wikidata_dump import HUMAN_QID, pick_label
from occbio.gender.categories import explain_gender, unmapped_gender_qids
from occbio.net import (
    RETRY_STATUSES,
    backoff_delay,
    check_client_settings,
    retry_after_seconds,
)
from occbio.records import Entity, Occupation

__all__ = [
    "WIKIDATA_ENDPOINT",
    "SparqlError",
    "EndpointUnreachable",
    "QueryTimeout",
    "validate_qid",
    "sparql_literal",
    "SparqlClient",
    "PeopleQuery",
    "Batch",
    "occupation_counts",
    "iter_people",
    "fetch_entities",
    "fetch_labels",
]

logger = logging.getLogger(__name__)

WIKIDATA_ENDPOINT = "https://query.wikidata.org/sparql"

ENTITY_PREFIX = "http://www.wikidata.org/entity/"

PREFIXES = """\
PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX p: <http://www.wikidata.org/prop/>
PREFIX ps: <http://www.wikidata.org/prop/statement/>
PREFIX wikibase: <http://wikiba.se/ontology#>
PREFIX schema: <http://schema.org/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
"""

_QID = re.compile(r"Q[1-9][0-9]*")
_LANG = re.compile(r"[a-z][a-z0-9-]*")
_DIGITS = re.compile(r"[0-9]*")

# What Wikidata's Blazegraph puts in the body of the HTTP 500 it answers when a query runs past
# its 60-second limit.
_TIMEOUT_MARKER = "java.util.concurrent.TimeoutException"
# DNS failure, connection refused, no route: a couple of quick tries cover a blip, more would
# only delay telling the user that the network (or the endpoint URL) is wrong.
_UNREACHABLE_RETRIES = 2
_UNREACHABLE_PAUSE = 1.0
_MAX_ERROR_TEXT = 500


class SparqlError(RuntimeError):
    """The endpoint failed for good (bad query, refused access, retries used up, bad answer)."""


class EndpointUnreachable(SparqlError):
    """No connection to the endpoint at all: DNS failure, connection refused, no route."""


class QueryTimeout(SparqlError):
    """The query ran too long (the server's limit or the client's socket timeout).

    Not retried by :class:`SparqlClient`: the same query would time out again; callers split it.
    """


class _Transient(Exception):
    """A failure worth another try after a pause (busy server, dropped connection)."""

    def __init__(self, why: str, retry_after: float | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.retry_after = retry_after


class _Unreachable(Exception):
    """No connection could be made; ``why`` says what the network stack said."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


# --------------------------------------------------------------------------------------------
# Validation and escaping of everything that goes into a query
# --------------------------------------------------------------------------------------------


def validate_qid(value: str, *, what: str = "QID") -> str:
    """Return ``value`` when it is a Wikidata item id (``Q36180``), else raise ``ValueError``.

    Every QID is checked before it is put into a query, so no input can change a query's meaning.
    """
    if not isinstance(value, str) or _QID.fullmatch(value) is None:
        raise ValueError(
            f"{what} {value!r} is not a Wikidata item id (Q followed by digits, e.g. Q36180)"
        )
    return value


def _validate_qids(values: Sequence[str] | str, *, what: str) -> list[str]:
    """Validated QIDs, duplicates removed, order kept; a bare string is refused (not a list)."""
    if isinstance(values, str):
        raise TypeError(f"{what}s must be a sequence of QIDs, not the string {values!r}")
    return list(dict.fromkeys(validate_qid(v, what=what) for v in values))


def _validate_lang(code: str, *, what: str = "language code") -> str:
    if not isinstance(code, str) or _LANG.fullmatch(code) is None:
        raise ValueError(
            f"{what} {code!r} is not a language code (lower-case letters, digits and '-', "
            "e.g. en, zh-min-nan)"
        )
    return code


def _validate_langs(codes: Sequence[str] | str, *, what: str = "language code") -> tuple[str, ...]:
    if isinstance(codes, str):
        raise TypeError(f"{what}s must be a sequence of codes, not the string {codes!r}")
    return tuple(dict.fromkeys(_validate_lang(c, what=what) for c in codes))


def sparql_literal(text: str) -> str:
    """A SPARQL string literal of ``text`` with quotes, backslashes and line breaks escaped."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )
    return f'"{escaped}"'


def _site_iri(lang: str) -> str:
    """The ``schema:isPartOf`` of a Wikipedia sitelink: ``<https://en.wikipedia.org/>``."""
    return f"<https://{lang}.wikipedia.org/>"


def _qid_of(iri: str) -> str | None:
    """``Q42`` from ``http://www.wikidata.org/entity/Q42``; ``None`` for anything else (e.g. the
    blank node of an "unknown value" statement)."""
    if not iri.startswith(ENTITY_PREFIX):
        return None
    qid = iri[len(ENTITY_PREFIX) :]
    return qid if _QID.fullmatch(qid) else None


def _qid_number(qid: str) -> int:
    return int(qid[1:])


def _values(var: str, qids: Sequence[str]) -> str:
    return f"VALUES ?{var} {{ {' '.join(f'wd:{q}' for q in qids)} }}"


# --------------------------------------------------------------------------------------------
# The client: one polite request at a time
# --------------------------------------------------------------------------------------------


def _server_text(exc: SPARQLWrapperException) -> str:
    """The response body SPARQLWrapper folded into its exception message (as a bytes repr)."""
    message = str(exc)
    _, sep, tail = message.partition("Response:\n")
    if not sep:
        return message
    try:
        body = ast.literal_eval(tail.strip())
    except (ValueError, SyntaxError):
        return tail.strip()
    if isinstance(body, bytes):
        return body.decode("utf-8", "replace")
    return str(body)


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_ERROR_TEXT else text[:_MAX_ERROR_TEXT] + " ..."


def _binding_value(cell: Mapping[str, Any]) -> str:
    """A result cell as text; blank nodes get ``_:`` so they cannot pass for literals."""
    value = str(cell.get("value", ""))
    return "_:" + value if cell.get("type") == "bnode" else value


class SparqlClient:
    """Sends SELECT queries to one SPARQL endpoint, politely, and classifies its failures.

    ``timeout`` is the socket timeout: a little above Wikidata's own 60-second limit, so the
    server's timeout (which says "split me") normally comes first. 429/503 and other busy answers
    are retried up to ``retries`` times after ``Retry-After`` (when given, up to ``max_wait``) or
    an exponential pause from ``backoff``. ``sleep`` is injectable so tests can record the waits.
    ``stats`` counts ``queries`` (requests sent), ``retries``, ``timeouts`` and ``rows``.
    """

    def __init__(
        self,
        endpoint: str = WIKIDATA_ENDPOINT,
        *,
        user_agent: str,
        timeout: float = 65.0,
        retries: int = 5,
        backoff: float = 2.0,
        max_wait: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        check_client_settings(user_agent=user_agent, retries=retries, timeout=timeout)
        self.endpoint = endpoint
        self.user_agent = user_agent
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self._sleep = sleep
        self.stats: Counter[str] = Counter()

    def select(self, query: str) -> list[dict[str, str]]:
        """Run a SELECT query and return its rows as ``{variable: value}`` (unbound ones absent).

        Raises :class:`QueryTimeout` at once (a retry would time out again), and
        :class:`EndpointUnreachable` after two quick retries; busy answers are retried.
        """
        busy = unreachable = 0
        while True:
            self.stats["queries"] += 1
            try:
                data = self._post(query)
            except _Transient as exc:
                busy += 1
                if busy > self.retries:
                    raise SparqlError(
                        f"{self.endpoint}: {exc.why}; gave up after {self.retries} retries"
                    ) from None
                if exc.retry_after is not None and exc.retry_after > self.max_wait:
                    raise SparqlError(
                        f"{self.endpoint}: {exc.why} and asks to wait {exc.retry_after:.0f} s "
                        f"(more than max_wait={self.max_wait:.0f} s): try again later"
                    ) from None
                wait = backoff_delay(
                    busy, base=self.backoff, cap=self.max_wait, retry_after=exc.retry_after
                )
                logger.warning(
                    "%s: %s; retry %d/%d in %.1f s",
                    self.endpoint,
                    exc.why,
                    busy,
                    self.retries,
                    wait,
                )
                self.stats["retries"] += 1
                self._sleep(wait)
                continue
            except _Unreachable as exc:
                unreachable += 1
                if unreachable > _UNREACHABLE_RETRIES:
                    raise EndpointUnreachable(
                        f"the SPARQL endpoint {self.endpoint} cannot be reached ({exc.why}): "
                        "check the network connection and the endpoint URL"
                    ) from None
                self.stats["retries"] += 1
                self._sleep(_UNREACHABLE_PAUSE)
                continue
            rows = self._rows(data)
            self.stats["rows"] += len(rows)
            return rows

    def _timeout(self, why: str) -> QueryTimeout:
        self.stats["timeouts"] += 1
        return QueryTimeout(f"{self.endpoint}: the query timed out ({why})")

    def _post(self, query: str) -> Any:
        """One HTTP request; returns the parsed JSON or raises one of the classified errors."""
        wrapper = SPARQLWrapper(self.endpoint, agent=self.user_agent)
        wrapper.setMethod(POST)
        wrapper.setReturnFormat(JSON)
        wrapper.setOnlyConneg(True)  # Accept header only: no format=/output= parameters
        wrapper.setQuery(query)
        # setTimeout() truncates to int (0.5 -> 0 = no timeout): set the attribute directly.
        wrapper.timeout = self.timeout
        try:
            result = wrapper.query()
            try:
                body = result.response.read()
            finally:
                result.response.close()
        except QueryBadFormed as exc:
            raise SparqlError(
                f"{self.endpoint} rejected the query (HTTP 400): {_shorten(_server_text(exc))}"
            ) from None
        except EndPointInternalError as exc:
            text = _server_text(exc)
            if _TIMEOUT_MARKER in text:
                raise self._timeout("HTTP 500 TimeoutException: over the server's limit") from None
            raise _Transient(f"HTTP 500: {_shorten(text)}") from None
        except (EndPointNotFound, Unauthorized, URITooLong) as exc:
            raise SparqlError(f"{self.endpoint}: {_shorten(str(exc))}") from None
        except urllib.error.HTTPError as exc:
            self._http_error(exc)
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, TimeoutError):
                raise EndpointUnreachable(
                    f"the SPARQL endpoint {self.endpoint} cannot be reached (no answer to the "
                    f"connection within {self.timeout:g} s)"
                ) from None
            if isinstance(reason, ssl.SSLError):
                raise SparqlError(f"{self.endpoint}: TLS failed ({reason})") from None
            if isinstance(reason, OSError):
                raise _Unreachable(str(reason) or type(reason).__name__) from None
            raise SparqlError(f"{self.endpoint}: {reason}") from None
        except TimeoutError:
            raise self._timeout(f"no answer within the client's {self.timeout:g} s") from None
        except (http.client.HTTPException, ConnectionError) as exc:
            raise _Transient(f"connection dropped ({exc!r})") from None
        try:
            return json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise _Transient(f"the answer is not JSON ({exc})") from None

    def _http_error(self, exc: urllib.error.HTTPError) -> NoReturn:
        try:
            text = exc.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            text = ""
        finally:
            exc.close()
        status = exc.code
        if status == 504 or (status in RETRY_STATUSES and _TIMEOUT_MARKER in text):
            raise self._timeout(f"HTTP {status}")
        if status in RETRY_STATUSES:
            retry_after = retry_after_seconds(exc.headers.get("Retry-After"))
            raise _Transient(f"HTTP {status} {exc.reason}", retry_after)
        detail = f": {_shorten(text)}" if text.strip() else ""
        raise SparqlError(f"{self.endpoint} answered HTTP {status} {exc.reason}{detail}")

    def _rows(self, data: Any) -> list[dict[str, str]]:
        try:
            bindings = data["results"]["bindings"]
            return [{k: _binding_value(v) for k, v in row.items()} for row in bindings]
        except (KeyError, TypeError, AttributeError):
            raise SparqlError(
                f"{self.endpoint}: the answer is not SPARQL SELECT results: "
                f"{_shorten(json.dumps(data)[:1000])}"
            ) from None


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


def _too_deep(what: str, max_depth: int, query: PeopleQuery) -> QueryTimeout:
    return QueryTimeout(
        f"{what} still times out after splitting the people into {10**max_depth} parts "
        f"(max_depth={max_depth}) for langs {','.join(query.langs)}: ask for fewer languages, "
        "name fewer or narrower occupations (--occupations), or raise max_depth"
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
    not_numbers = 0

    def count(part_occs: list[str] | None, suffix: str) -> None:
        nonlocal not_numbers
        try:
            rows = client.select(_counts_query(query, part_occs, suffix))
        except QueryTimeout:
            if part_occs is not None and len(part_occs) > 1:
                logger.info("occupation counts timed out: one query per occupation")
                for occ in part_occs:
                    count([occ], suffix)
                return
            if len(suffix) >= max_depth:
                raise _too_deep("counting people per occupation", max_depth, query) from None
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
    def partition(occ: str, suffix: str) -> Iterator[tuple[Batch, list[str] | None]]:
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
                    if len(suffix) >= max_depth:
                        raise _too_deep(
                            f"the people of {occ} (batch {batch.key})", max_depth, query
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
