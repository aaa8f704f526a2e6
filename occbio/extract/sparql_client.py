"""The SPARQL client: sends SELECT queries to one endpoint, politely, and classifies failures.

The Wikidata Query Service (https://query.wikidata.org/sparql) stops every query after 60
seconds and throttles clients that use too much of its time. All requests go through
:class:`SparqlClient` (SPARQLWrapper, HTTP POST, JSON results): one at a time, with the
User-Agent Wikimedia asks for, backing off on 429/503 and honouring ``Retry-After`` (rules
shared with the web client in :mod:`occbio.net`). Failures are told apart because the caller
reacts differently to each: :class:`QueryTimeout` (split the query), :class:`EndpointUnreachable`
(no network: stop at once), :class:`SparqlError` (anything else).

This module knows nothing of what the queries ask: their text is built by
:mod:`occbio.extract.wikidata_people` and :mod:`occbio.extract.wikidata_entities` (from the
pieces in :mod:`occbio.extract.wikidata_query`), which send it through this client and split
what times out. :mod:`occbio.extract.wikidata_sparql` re-exports the public names.
"""

from __future__ import annotations

import ast
import http.client
import json
import logging
import ssl
import time
import urllib.error
from collections import Counter
from collections.abc import Callable, Mapping
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

from occbio.net import (
    RETRY_STATUSES,
    backoff_delay,
    check_client_settings,
    retry_after_seconds,
)

__all__ = [
    "WIKIDATA_ENDPOINT",
    "SparqlError",
    "EndpointUnreachable",
    "QueryTimeout",
    "SparqlClient",
]

logger = logging.getLogger(__name__)

WIKIDATA_ENDPOINT = "https://query.wikidata.org/sparql"

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
