"""A local stand-in for the Wikidata Query Service, for tests that must not fake the network.

Three plain helpers (no pytest fixtures, so any test module or conftest can build on them):

* :func:`entities_to_turtle` turns Wikidata entity JSON (real files from ../shared/data, or
  ``tests.factories.human(...)`` output) into RDF shaped like Wikidata's own: truthy ``wdt:``
  triples (best rank, non-deprecated), full statements (``p:``/``ps:``/``wikibase:rank``),
  ``rdfs:label`` with language tags and Wikipedia sitelinks (``schema:about``/``isPartOf``/
  ``name``), for P31, P21, P106 and P279;
* :func:`start_oxigraph` loads such Turtle into an Oxigraph store and serves it over HTTP on a
  free local port (the real ``oxigraph`` binary: real SPARQL, real sockets);
* :class:`SparqlProxy` is a threaded HTTP server in front of it that forwards queries and, by
  rule, misbehaves as Wikidata does: HTTP 500 with a ``TimeoutException`` body, 429 with
  ``Retry-After``, hanging, dropping the connection. It records every request it gets.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from occbio.extract.wikidata_dump import site_id
from occbio.extract.wikidata_sparql import sparql_literal
from occbio.langs import WIKIPEDIA_LANGS

__all__ = [
    "TURTLE_PREFIXES",
    "WIKIDATA_TIMEOUT_BODY",
    "entity_json_to_turtle",
    "entities_to_turtle",
    "subclass_turtle",
    "oxigraph_binary",
    "free_port",
    "closed_port",
    "start_oxigraph",
    "Rule",
    "timeout_rule",
    "throttle_rule",
    "hang_rule",
    "drop_rule",
    "RecordedRequest",
    "SparqlProxy",
    "partition_suffix",
]

TURTLE_PREFIXES = """\
@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix p: <http://www.wikidata.org/prop/> .
@prefix ps: <http://www.wikidata.org/prop/statement/> .
@prefix wdno: <http://www.wikidata.org/prop/novalue/> .
@prefix wikibase: <http://wikiba.se/ontology#> .
@prefix schema: <http://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""

#: What Wikidata's endpoint answers (HTTP 500) when a query runs past its 60 s limit.
WIKIDATA_TIMEOUT_BODY = (
    "SPARQL-QUERY: queryStr=SELECT ...\n"
    "java.util.concurrent.ExecutionException: java.util.concurrent.TimeoutException\n"
    "\tat java.util.concurrent.FutureTask.report(FutureTask.java:122)\n"
    "\tat java.util.concurrent.FutureTask.get(FutureTask.java:206)\n"
    "\tat com.bigdata.rdf.sail.webapp.BigdataServlet.submitApiTask(BigdataServlet.java:292)\n"
    "Caused by: java.util.concurrent.TimeoutException\n"
)

_PROPS = ("P31", "P21", "P106", "P279")
_RANKS = {
    "preferred": "wikibase:PreferredRank",
    "normal": "wikibase:NormalRank",
    "deprecated": "wikibase:DeprecatedRank",
}
_LANG_TAG = re.compile(r"[a-zA-Z]+(-[a-zA-Z0-9]+)*")
_WIKI_LANG = {site_id(lang): lang for lang in WIKIPEDIA_LANGS}
_STATEMENT = "http://www.wikidata.org/entity/statement/"

# --------------------------------------------------------------------------------------------
# Entity JSON -> Wikidata-shaped Turtle
# --------------------------------------------------------------------------------------------


def _literal(text: str, lang: str | None = None) -> str:
    """A Turtle string literal (same escapes as SPARQL's), with a language tag if given."""
    return sparql_literal(text) + (f"@{lang}" if lang else "")


def _item_qid(value: Any) -> str | None:
    """QID of a wikibase-entityid value (``id``, or ``numeric-id`` alone in older files)."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("id"), str):
        return value["id"]
    if isinstance(value.get("numeric-id"), int):
        return f"Q{value['numeric-id']}"
    return None


def _statements(qid: str, prop: str, claims: Mapping[str, Any]) -> list[str]:
    """Full statements (every rank) plus the truthy ``wdt:`` triples (best non-deprecated)."""
    lines: list[str] = []
    statements = [s for s in claims.get(prop) or () if isinstance(s, dict)]
    best = "preferred" if any(s.get("rank") == "preferred" for s in statements) else "normal"
    for i, st in enumerate(statements):
        node = f"<{_STATEMENT}{qid}-{prop}-{i}>"
        rank = st.get("rank", "normal")
        snak = st.get("mainsnak") or {}
        kind = snak.get("snaktype")
        if kind == "value":
            target = _item_qid((snak.get("datavalue") or {}).get("value"))
            if target is None:
                continue
            value = f"wd:{target}"
        elif kind == "somevalue":
            value = f"_:sv_{qid}_{prop}_{i}"
        elif kind == "novalue":
            lines.append(f"wd:{qid} p:{prop} {node} .")
            lines.append(
                f"{node} a wdno:{prop} ; wikibase:rank {_RANKS.get(rank, _RANKS['normal'])} ."
            )
            continue
        else:
            continue
        lines.append(f"wd:{qid} p:{prop} {node} .")
        lines.append(
            f"{node} ps:{prop} {value} ; wikibase:rank {_RANKS.get(rank, _RANKS['normal'])} ."
        )
        if rank == best:
            lines.append(f"wd:{qid} wdt:{prop} {value} .")
    return lines


def _entity_lines(obj: Mapping[str, Any]) -> list[str]:
    qid = str(obj["id"])
    lines: list[str] = []
    for lang, label in (obj.get("labels") or {}).items():
        value = label.get("value") if isinstance(label, dict) else None
        if isinstance(value, str) and _LANG_TAG.fullmatch(lang):
            lines.append(f"wd:{qid} rdfs:label {_literal(value, lang)} .")
    claims = obj.get("claims") or {}
    for prop in _PROPS:
        lines.extend(_statements(qid, prop, claims))
    for key, link in (obj.get("sitelinks") or {}).items():
        lang = _WIKI_LANG.get(key)
        title = link.get("title") if isinstance(link, dict) else None
        if lang is None or not isinstance(title, str):
            continue  # Wikiquote, Commons, ...: not a Wikipedia article
        path = urllib.parse.quote(title.replace(" ", "_"), safe="")
        article = f"<https://{lang}.wikipedia.org/wiki/{path}>"
        lines.append(
            f"{article} schema:about wd:{qid} ; schema:isPartOf <https://{lang}.wikipedia.org/> ; "
            f"schema:name {_literal(title, lang)} ."
        )
    return lines


def entity_json_to_turtle(obj: Mapping[str, Any]) -> str:
    """Turtle for one Wikidata entity object (with prefixes; pieces can be concatenated)."""
    return TURTLE_PREFIXES + "\n".join(_entity_lines(obj)) + "\n"


def entities_to_turtle(objs: Iterable[Mapping[str, Any]]) -> str:
    """Turtle for many Wikidata entity objects."""
    lines = [line for obj in objs for line in _entity_lines(obj)]
    return TURTLE_PREFIXES + "\n".join(lines) + "\n"


def subclass_turtle(pairs: Iterable[tuple[str, str]]) -> str:
    """``wd:child wdt:P279 wd:parent`` triples, for occupations built without P279 claims."""
    lines = [f"wd:{child} wdt:P279 wd:{parent} ." for child, parent in pairs]
    return TURTLE_PREFIXES + "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Oxigraph
# --------------------------------------------------------------------------------------------


def oxigraph_binary() -> str | None:
    """The ``oxigraph`` CLI: next to the running Python (a venv's bin/) or on PATH."""
    beside = Path(sys.executable).parent / "oxigraph"
    if beside.is_file():
        return str(beside)
    return shutil.which("oxigraph")


def free_port() -> int:
    """A local TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def closed_port() -> int:
    """A local port nothing listens on: connecting to it is refused at once."""
    return free_port()


_NO_PROXY_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _wait_until_answers(url: str, proc: subprocess.Popen[bytes], deadline: float) -> None:
    probe = url + "?" + urllib.parse.urlencode({"query": "ASK {}"})
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"oxigraph serve exited with status {proc.returncode}")
        try:
            with _NO_PROXY_OPENER.open(probe, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"oxigraph serve did not answer at {url}")
        time.sleep(0.05)


@contextmanager
def start_oxigraph(turtle: str, workdir: Path, *, startup_s: float = 20.0) -> Iterator[str]:
    """Load ``turtle`` into a store under ``workdir``, serve it, yield the query endpoint URL
    (``http://127.0.0.1:PORT/query``); the server is stopped on exit."""
    binary = oxigraph_binary()
    if binary is None:
        raise RuntimeError("the oxigraph CLI is not installed (pip install oxigraph)")
    workdir.mkdir(parents=True, exist_ok=True)
    data = workdir / "data.ttl"
    data.write_text(turtle, encoding="utf-8")
    store = workdir / "store"
    loaded = subprocess.run(
        [binary, "load", "--location", str(store), "--file", str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if loaded.returncode != 0:
        raise RuntimeError(f"oxigraph load failed: {loaded.stderr.strip()}")
    for _ in range(3):  # the free port may be taken between the probe and the bind
        port = free_port()
        with (workdir / "serve.log").open("ab") as log:
            proc = subprocess.Popen(
                [binary, "serve", "--location", str(store), "--bind", f"127.0.0.1:{port}"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/query"
        try:
            _wait_until_answers(url, proc, time.monotonic() + startup_s)
        except RuntimeError:
            _stop(proc)
            continue
        try:
            yield url
        finally:
            _stop(proc)
        return
    raise RuntimeError(f"oxigraph serve did not start; see {workdir / 'serve.log'}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------------------------
# The misbehaving proxy
# --------------------------------------------------------------------------------------------

_PARTITION = re.compile(r'STRENDS\(STR\(\?person\), "([0-9]+)"\)')


def partition_suffix(query: str) -> str:
    """The partition digits of a query (``""`` when it has no partition FILTER)."""
    match = _PARTITION.search(query)
    return match.group(1) if match else ""


def _always(_query: str) -> bool:
    return True


@dataclass
class Rule:
    """How to answer queries for which ``match(query)`` is true, the first ``times`` times
    (``None``: always): after ``delay`` seconds, drop the connection (``drop``), forward the
    query (``forward``), or answer ``status`` with ``body`` and ``headers``."""

    match: Callable[[str], bool] = _always
    status: int = 500
    body: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    times: int | None = None
    delay: float = 0.0
    drop: bool = False
    forward: bool = False
    hits: int = 0


def timeout_rule(match: Callable[[str], bool] = _always, *, times: int | None = None) -> Rule:
    """Wikidata's answer to a query over its 60-second limit."""
    return Rule(match, 500, WIKIDATA_TIMEOUT_BODY, {"Content-Type": "text/plain"}, times)


def throttle_rule(times: int | None, retry_after: str | None = "3", *, status: int = 429) -> Rule:
    """429 (or 503) with ``Retry-After`` (omitted when ``None``)."""
    headers = {"Content-Type": "text/plain"}
    if retry_after is not None:
        headers["Retry-After"] = retry_after
    return Rule(_always, status, "Too Many Requests", headers, times)


def hang_rule(seconds: float, match: Callable[[str], bool] = _always) -> Rule:
    """Say nothing for ``seconds`` (longer than the client's timeout), then forward."""
    return Rule(match, delay=seconds, forward=True)


def drop_rule(times: int | None = 1) -> Rule:
    """Close the connection without answering."""
    return Rule(_always, drop=True, times=times)


@dataclass
class RecordedRequest:
    """What the proxy got: method, path, headers (as sent) and the SPARQL query text."""

    method: str
    path: str
    headers: dict[str, str]
    query: str


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    proxy: SparqlProxy


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        pass

    def do_GET(self) -> None:
        parsed = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(parsed.query).get("query", [""])[0]
        self._handle(query, None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if kind == "application/sparql-query":
            query = body.decode("utf-8")
        else:
            query = urllib.parse.parse_qs(body.decode("ascii")).get("query", [""])[0]
        self._handle(query, body)

    def _handle(self, query: str, body: bytes | None) -> None:
        proxy = self.server.proxy
        rule = proxy._record_and_match(
            RecordedRequest(self.command, self.path, dict(self.headers.items()), query)
        )
        try:
            if rule is not None and rule.delay and proxy._stopping.wait(rule.delay):
                return  # shutting down: the upstream may be gone already
            if rule is not None and rule.drop:
                self.close_connection = True
                return
            if rule is None or rule.forward:
                status, headers, payload = proxy._forward(self, body)
            else:
                status, headers, payload = rule.status, dict(rule.headers), rule.body.encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout): nothing to tell it


class SparqlProxy:
    """A local HTTP server that forwards SPARQL requests to ``upstream``, misbehaving by
    :attr:`rules` (first matching rule wins) and recording :attr:`requests`.

    Use as a context manager; :attr:`url` is its endpoint. :meth:`reset` clears both lists.
    """

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.rules: list[Rule] = []
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.proxy = self
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/query"

    def queries(self) -> list[str]:
        with self._lock:
            return [r.query for r in self.requests]

    def reset(self) -> None:
        with self._lock:
            self.rules = []
            self.requests = []

    def __enter__(self) -> SparqlProxy:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _record_and_match(self, request: RecordedRequest) -> Rule | None:
        with self._lock:
            self.requests.append(request)
            for rule in self.rules:
                if (rule.times is None or rule.hits < rule.times) and rule.match(request.query):
                    rule.hits += 1
                    return rule
        return None

    def _forward(
        self, handler: BaseHTTPRequestHandler, body: bytes | None
    ) -> tuple[int, dict[str, str], bytes]:
        url = self.upstream
        if body is None:
            url += "?" + (urllib.parse.urlsplit(handler.path).query or "")
        request = urllib.request.Request(url, data=body, method=handler.command)
        for name in ("Content-Type", "Accept"):
            value = handler.headers.get(name)
            if value:
                request.add_header(name, value)
        try:
            with _NO_PROXY_OPENER.open(request, timeout=30) as response:
                kind = response.headers.get("Content-Type", "application/octet-stream")
                return response.status, {"Content-Type": kind}, response.read()
        except urllib.error.HTTPError as exc:
            kind = exc.headers.get("Content-Type", "text/plain")
            return exc.code, {"Content-Type": kind}, exc.read()
        except (urllib.error.URLError, OSError) as exc:
            return 502, {"Content-Type": "text/plain"}, f"upstream failed: {exc}".encode()
