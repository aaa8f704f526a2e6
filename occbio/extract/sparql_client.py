"""The SPARQL client: sends SELECT queries to one endpoint, politely, and classifies failures.

The Wikidata Query Service (https://query.wikidata.org/sparql) stops every query after 60
seconds and throttles clients that use too much of its time. All requests go through
:class:`SparqlClient` (the SPARQL 1.1 protocol's HTTP POST, JSON results, sent with requests
through :class:`occbio.net.GuardedAdapter`): one at a time, with the User-Agent Wikimedia asks
for, backing off on 429/503 and honouring ``Retry-After`` (rules shared with the web client in
:mod:`occbio.net`), each request bounded by an overall deadline and a size cap, and never
redirected (a POST redirected arrives as a GET without its query). Failures are told apart
because the caller reacts differently to each: :class:`QueryTimeout` (split the query),
:class:`EndpointUnreachable` (no network: stop at once), :class:`SparqlError` (anything else).

This module knows nothing of what the queries ask: their text is built by
:mod:`occbio.extract.wikidata_people` and :mod:`occbio.extract.wikidata_entities` (from the
pieces in :mod:`occbio.extract.wikidata_query`), which send it through this client and split
what times out. :mod:`occbio.extract.wikidata_sparql` re-exports the public names.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import requests
import urllib3

from occbio.net import (
    RETRY_STATUSES,
    AnswerRefused,
    GuardedAdapter,
    RedirectRefused,
    backoff_delay,
    check_client_settings,
    retry_after_seconds,
    unreachable,
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


def _cause(exc: BaseException) -> BaseException:
    """What the network stack said under the layers requests and urllib3 wrap it in."""
    reason: BaseException = exc
    for _ in range(8):
        inner = reason.args[0] if reason.args else None
        inner = getattr(inner, "reason", inner)  # MaxRetryError wraps the real cause
        if isinstance(inner, BaseException):
            reason = inner
        elif reason.__cause__ is not None:
            reason = reason.__cause__
        else:
            break
    return reason


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
    ``deadline`` bounds a whole request (a server dripping its answer never trips ``timeout``)
    and ``max_bytes`` its answer: past either, or redirected, is a :class:`SparqlError`.
    ``stats`` counts ``queries`` (requests sent), ``retries``, ``timeouts``, ``rows``, and
    ``deadline_exceeded`` / ``too_large``.
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
        deadline: float = 600.0,
        max_bytes: int = 512 * 2**20,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        check_client_settings(
            user_agent=user_agent,
            retries=retries,
            timeout=timeout,
            deadline=deadline,
            max_bytes=max_bytes,
        )
        self.endpoint = endpoint
        self.user_agent = user_agent
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.deadline = deadline
        self.max_bytes = max_bytes
        self._sleep = sleep
        self.stats: Counter[str] = Counter()
        self.session = requests.Session()
        adapter = GuardedAdapter(deadline=deadline, max_bytes=max_bytes, pool=1)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.session.headers.update(
            {"User-Agent": user_agent, "Accept": "application/sparql-results+json"}
        )

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
        try:
            response = self.session.post(
                self.endpoint, data={"query": query}, timeout=self.timeout, allow_redirects=False
            )
        except RedirectRefused as exc:
            self.stats[exc.counter] += 1
            raise SparqlError(
                f"{exc}: give that address as the endpoint if it is the one"
            ) from None
        except AnswerRefused as exc:  # past the deadline or the size cap
            self.stats[exc.counter] += 1
            raise SparqlError(str(exc)) from None
        except requests.exceptions.ConnectTimeout:
            raise EndpointUnreachable(
                f"the SPARQL endpoint {self.endpoint} cannot be reached (no answer to the "
                f"connection within {self.timeout:g} s)"
            ) from None
        except requests.exceptions.SSLError as exc:
            raise SparqlError(f"{self.endpoint}: TLS failed ({_cause(exc)})") from None
        except requests.RequestException as exc:
            if isinstance(exc, requests.exceptions.ReadTimeout) or isinstance(
                _cause(exc), (TimeoutError, urllib3.exceptions.ReadTimeoutError)
            ):
                raise self._timeout(f"no answer within the client's {self.timeout:g} s") from None
            if unreachable(exc):
                raise _Unreachable(str(_cause(exc))) from None
            raise _Transient(f"connection dropped ({_cause(exc)!r})") from None
        status = response.status_code
        if status == 200:
            try:
                return json.loads(response.content.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise _Transient(f"the answer is not JSON ({exc})") from None
        text = response.content.decode("utf-8", "replace")
        if status == 400:
            raise SparqlError(f"{self.endpoint} rejected the query (HTTP 400): {_shorten(text)}")
        if status == 504 or (status in RETRY_STATUSES and _TIMEOUT_MARKER in text):
            what = "TimeoutException: over the server's limit" if status == 500 else ""
            raise self._timeout(f"HTTP {status} {what}".strip())
        if status == 500:
            raise _Transient(f"HTTP 500: {_shorten(text)}")
        if status in RETRY_STATUSES:
            retry_after = retry_after_seconds(response.headers.get("Retry-After"))
            raise _Transient(f"HTTP {status} {response.reason}", retry_after)
        detail = f": {_shorten(text)}" if text.strip() else ""
        raise SparqlError(f"{self.endpoint} answered HTTP {status} {response.reason}{detail}")

    def _rows(self, data: Any) -> list[dict[str, str]]:
        try:
            bindings = data["results"]["bindings"]
            return [{k: _binding_value(v) for k, v in row.items()} for row in bindings]
        except (KeyError, TypeError, AttributeError):
            raise SparqlError(
                f"{self.endpoint}: the answer is not SPARQL SELECT results: "
                f"{_shorten(json.dumps(data)[:1000])}"
            ) from None
