"""Hostile servers and damaged caches against the three network clients (issue #20).

Every case talks to a real local server over loopback sockets (a raw one here for answers no
well-behaved server gives: a drip, a huge body, a redirect elsewhere; the fakes of
tests/wiki_server.py, tests/chat_server.py and tests/sparql_server.py otherwise) or opens a
real damaged or locked SQLite file. Deadlines and caps are made small so that nothing waits
long; no assertion depends on how fast the machine is.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from occbio.audit.chat_client import CACHE_FILE, ChatBackend, ChatError, PromptFailed
from occbio.cli import main
from occbio.extract.sparql_client import QueryTimeout, SparqlClient, SparqlError
from occbio.extract.wikidata_people import PeopleQuery, iter_people, occupation_counts
from occbio.extract.wikipedia_cache import _CACHE_FILE
from occbio.extract.wikipedia_web import WikipediaWebClient
from occbio.net import CacheError
from occbio.rewrite.chat import ChatRewriter
from tests.chat_server import serve_chat
from tests.sparql_server import SparqlProxy, timeout_rule
from tests.wiki_server import Raw, serve_wiki

UA = "occbio-tests/0.1 (https://github.com/occbio/occbio; tests@example.org)"
ADA = "<p>Ada Lovelace was an English mathematician and writer.</p>"
EMPTY_RESULTS = b'{"head": {"vars": ["person"]}, "results": {"bindings": []}}'

# ---------------------------------------------------------------------------------------------
# A raw server: answers no polite server gives


class Hostile:
    """What the raw server did: requests seen (method, path), bytes of body sent."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self.sent = 0
        self.url = ""
        self.stop = threading.Event()


Behaviour = Callable[[BaseHTTPRequestHandler, Hostile], None]


@contextmanager
def hostile(behaviour: Behaviour) -> Iterator[Hostile]:
    """Serve ``behaviour`` (it writes the raw answer) on 127.0.0.1 until the block ends."""
    state = Hostile()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            state.seen.append((self.command, self.path))
            with contextlib.suppress(OSError):  # the client hung up, as a bounded one does
                behaviour(self, state)

        do_GET = do_POST = _any

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield state
    finally:
        state.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=30)


def drip_body(body: bytes, every: float = 0.05, *, say_length: bool = True) -> Behaviour:
    """Headers at once, then the body a byte every ``every`` seconds: no read ever waits
    long enough for a per-read timeout. Without ``say_length`` the body ends when the
    connection does, so a cut one looks complete."""

    def behave(handler: BaseHTTPRequestHandler, state: Hostile) -> None:
        length = f"Content-Length: {len(body)}\r\n" if say_length else ""
        handler.wfile.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + f"{length}Connection: close\r\n\r\n".encode()
        )
        for i in range(len(body)):
            if state.stop.wait(every):
                return
            handler.wfile.write(body[i : i + 1])
            state.sent += 1

    return behave


def drip_headers(every: float = 0.05, count: int = 1000) -> Behaviour:
    """The status line, then a header a byte every ``every`` seconds."""

    def behave(handler: BaseHTTPRequestHandler, state: Hostile) -> None:
        handler.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        for _ in range(count):
            if state.stop.wait(every):
                return
            handler.wfile.write(b"a")
            state.sent += 1
        handler.wfile.write(b"\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")

    return behave


def huge_body(total: int = 1 << 30, *, say_length: bool = False) -> Behaviour:
    """A body of ``total`` bytes (1 GiB), sent as fast as the client reads it; its length
    said in a header or not (then the body ends when the connection closes)."""

    def behave(handler: BaseHTTPRequestHandler, state: Hostile) -> None:
        head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
        if say_length:
            head += f"Content-Length: {total}\r\n"
        handler.wfile.write((head + "\r\n").encode())
        chunk = b'{"pad": "' + b"x" * (1 << 16)
        while state.sent < total and not state.stop.is_set():
            handler.wfile.write(chunk)
            state.sent += len(chunk)

    return behave


def redirect_to(location: Callable[[], str], status: int = 302) -> Behaviour:
    def behave(handler: BaseHTTPRequestHandler, state: Hostile) -> None:
        handler.send_response(status)
        handler.send_header("Location", location())
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return behave


def _no_traceback(err: str) -> None:
    """The run failed with one ``occbio: error:`` line (after any warnings), no traceback."""
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("occbio: error: ")]
    assert len(errors) == 1, err


# ---------------------------------------------------------------------------------------------
# The Wikipedia web client


def web_client(base: str, **kwargs: object) -> WikipediaWebClient:
    options: dict[str, object] = {
        "user_agent": UA,
        "base_urls": {"en": base},
        "rate": 0,
        "retries": 2,
        "backoff": 1.0,
        "timeout": 10.0,
        "sleep": lambda s: None,
    }
    options.update(kwargs)
    return WikipediaWebClient(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "behaviour",
    [
        drip_body(b"<html>" + b"x" * 1000),
        drip_body(b"<html>" + b"x" * 1000, say_length=False),
        drip_headers(),
    ],
)
def test_web_a_dripping_server_is_cut_at_the_deadline(behaviour: Behaviour) -> None:
    with hostile(behaviour) as server, web_client(server.url + "/en", deadline=0.5) as client:
        res = client.fetch("en", "Ada Lovelace")
        assert res.status == "error" and "deadline of 0.5 s" in res.detail
        assert client.stats["deadline_exceeded"] == 1
        assert len(server.seen) == 1  # not retried: the same server would drip again
        assert server.sent < 1000  # it was cut off, not waited out


@pytest.mark.parametrize("say_length", [False, True])
def test_web_a_huge_answer_is_not_read_past_the_cap(say_length: bool) -> None:
    with (
        hostile(huge_body(say_length=say_length)) as server,
        web_client(server.url + "/en", max_bytes=1 << 20) as client,
    ):
        res = client.fetch("en", "Ada Lovelace")
        assert res.status == "error" and "larger than the cap of 1048576 bytes" in res.detail
        assert client.stats["too_large"] == 1 and len(server.seen) == 1
    assert server.sent < 1 << 30


def test_web_a_redirect_to_another_host_is_not_followed() -> None:
    with (
        hostile(redirect_to(lambda: "")) as elsewhere,
        serve_wiki({("en", "Ada Lovelace"): ADA}) as wiki,
    ):
        # localhost is the same machine by another name: another host to the client
        port = elsewhere.url.rsplit(":", 1)[1]
        away = f"http://localhost:{port}/en/api/rest_v1/page/html/Stranger"
        wiki.fail("en", "Ada Lovelace", Raw("", status=302, headers={"Location": away}))
        with web_client(wiki.base_url("en")) as client:
            res = client.fetch("en", "Ada Lovelace")
            assert res.status == "error" and "redirects to another host" in res.detail
            assert away in res.detail
            assert client.stats["redirects_refused"] == 1
            assert client.stats["status_ok"] == 0
    assert elsewhere.seen == []


def test_web_same_host_title_redirects_still_work() -> None:
    pages = {("en", "Ada Lovelace"): ADA}
    with (
        serve_wiki(pages, redirects={("en", "Ada Byron"): "Ada Lovelace"}) as wiki,
        web_client(wiki.base_url("en")) as client,
    ):
        res = client.fetch("en", "Ada Byron")
        assert res.status == "ok" and res.final_title == "Ada Lovelace"
        assert client.stats["redirects_refused"] == 0


@pytest.mark.parametrize("title", [".", "..", " .. ", "../Ada Lovelace", "Ada/./Lovelace"])
def test_web_dot_segment_titles_are_counted_skips(title: str) -> None:
    with (
        serve_wiki({("en", "Ada Lovelace"): ADA}) as wiki,
        web_client(wiki.base_url("en")) as client,
    ):
        res = client.fetch("en", title)
        assert res.status == "error" and "not a valid title" in res.detail
        assert client.stats["invalid_titles"] == 1
        assert wiki.log == []  # nothing asked: the URL would name another page


def test_web_negative_retry_after_backs_off_as_usual() -> None:
    waits: list[float] = []
    with serve_wiki({("en", "Ada Lovelace"): ADA}) as wiki:
        wiki.fail("en", "Ada Lovelace", (503, {"Retry-After": "-5"}), (429, {"Retry-After": "-5"}))
        with web_client(wiki.base_url("en"), sleep=waits.append, backoff=1.5) as client:
            assert client.fetch("en", "Ada Lovelace").status == "ok"
    assert waits == [1.5, 3.0]


# -- its cache ------------------------------------------------------------------------------


def _fill_web_cache(cache: Path, n: int = 60) -> dict[tuple[str, str], str]:
    pages = {
        ("en", f"Person {i}"): f"<p>Person {i} was a writer. {'Words. ' * 300}</p>"
        for i in range(n)
    }
    with serve_wiki(pages) as wiki, web_client(wiki.base_url("en"), cache_dir=cache) as client:
        for _, title in pages:
            assert client.fetch("en", title).status == "ok"
    return pages


def _random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _scribbled(path: Path) -> None:
    """Garbage over the last third: opening finds nothing wrong, reading some rows does."""
    with path.open("r+b") as fh:
        fh.seek(path.stat().st_size * 2 // 3)
        fh.write(os.urandom(16384))


def _truncated(path: Path) -> None:
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    size = path.stat().st_size
    with path.open("r+b") as fh:
        fh.truncate(size // 3)


@pytest.mark.parametrize("damage", [_random_bytes, _truncated, _scribbled])
def test_web_a_damaged_cache_is_set_aside_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: Callable[[Path], None]
) -> None:
    pages = {
        ("en", f"Person {i}"): f"<p>Person {i}: {os.urandom(2000).hex()}</p>" for i in range(60)
    }
    db = tmp_path / _CACHE_FILE
    with serve_wiki(pages) as wiki:
        with web_client(wiki.base_url("en"), cache_dir=tmp_path) as first:
            assert all(first.fetch("en", title).status == "ok" for _, title in pages)
        for side in ("-wal", "-shm"):  # all in the main file, as after a clean close
            assert not db.with_name(db.name + side).exists()
        damage(db)
        with (
            caplog.at_level(logging.WARNING),
            web_client(wiki.base_url("en"), cache_dir=tmp_path) as client,
        ):
            results = [client.fetch("en", title) for _, title in pages]
        assert all(r.status == "ok" for r in results)  # fetched again where unreadable
        assert client.stats["cache_set_aside"] == 1
        assert "set aside as" in caplog.text
        assert (tmp_path / (_CACHE_FILE + ".damaged")).is_file()  # kept for its owner
        with web_client(wiki.base_url("en"), cache_dir=tmp_path) as again:  # a new cache
            assert all(again.fetch("en", title).status == "ok" for _, title in pages)
            assert again.stats["cache_set_aside"] == again.stats["cache_unreadable"] == 0
        wiki.reset()
        with web_client(wiki.base_url("en"), cache_dir=tmp_path) as third:  # it serves
            assert all(third.fetch("en", title).status == "ok" for _, title in pages)
            assert third.stats["cache_hits"] == len(pages) and wiki.log == []


def test_web_a_directory_in_place_of_the_cache_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    (cache / _CACHE_FILE).mkdir(parents=True)
    with pytest.raises(CacheError, match="is a directory"):
        web_client("http://127.0.0.1:9", cache_dir=cache)
    with serve_wiki({("en", "Ada Lovelace"): ADA}) as wiki:
        argv = ["text", "--sample", "--langs", "en,es", "--out", str(tmp_path / "run")]
        argv += ["--text-source", "web", "--cache-dir", str(cache), "--rate", "0"]
        argv += [
            "--base-url",
            f"en={wiki.base_url('en')}",
            "--base-url",
            f"es={wiki.base_url('es')}",
        ]
        assert main(argv) == 1
    err = capsys.readouterr().err
    _no_traceback(err)
    assert "is a directory" in err and str(cache) in err
    assert (cache / _CACHE_FILE).is_dir()  # the user's directory is left alone


@contextmanager
def _locked(db: Path, *, until_said: bool = False) -> Iterator[None]:
    """Another connection holds the write lock of ``db``: to the end of the block, or
    (``until_said``) until occbio has said that it waits for it."""
    con = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    con.execute("BEGIN EXCLUSIVE")

    class ReleaseWhenSaid(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "is locked by another process" in record.getMessage() and con.in_transaction:
                con.rollback()

    said = ReleaseWhenSaid()
    if until_said:
        logging.getLogger("occbio").addHandler(said)
    try:
        yield
    finally:
        logging.getLogger("occbio").removeHandler(said)
        if con.in_transaction:
            con.rollback()
        con.close()


def test_web_a_locked_cache_is_said_then_a_one_line_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _fill_web_cache(tmp_path, n=2)
    with (
        caplog.at_level(logging.WARNING),
        _locked(tmp_path / _CACHE_FILE),
        pytest.raises(CacheError, match=r"stayed locked by another process for 0\.5 s"),
    ):
        web_client("http://127.0.0.1:9", cache_dir=tmp_path, lock_wait=0.5)
    assert "is locked by another process; waiting up to 0.5 s" in caplog.text


def test_web_a_lock_released_in_time_is_waited_for(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pages = {("en", "Person 1"): ADA}
    with serve_wiki(pages) as wiki, caplog.at_level(logging.WARNING):
        with web_client(wiki.base_url("en"), cache_dir=tmp_path) as first:
            assert first.fetch("en", "Person 1").status == "ok"
        with _locked(tmp_path / _CACHE_FILE, until_said=True):
            client = web_client(wiki.base_url("en"), cache_dir=tmp_path, lock_wait=60)
        with client:
            assert client.fetch("en", "Person 1").status == "ok"
            assert client.stats["cache_hits"] == 1
    assert "is locked by another process" in caplog.text


def test_web_a_write_lock_taken_mid_run_is_bounded(tmp_path: Path) -> None:
    """requests-cache itself retries a locked write for as long as the lock lasts."""
    pages = {("en", "Ada Lovelace"): ADA}
    with serve_wiki(pages) as wiki:
        client = web_client(wiki.base_url("en"), cache_dir=tmp_path, lock_wait=0.5)
        with (
            client,
            _locked(tmp_path / _CACHE_FILE),
            pytest.raises(CacheError, match="stayed locked"),
        ):
            client.fetch("en", "Ada Lovelace")


def test_web_cache_damage_reaches_the_text_stage_counts(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    _random_bytes(cache / _CACHE_FILE)
    with serve_wiki({("en", "Ada Lovelace"): ADA}) as wiki:
        argv = ["text", "-q", "--sample", "--langs", "en,es", "--out", str(tmp_path / "run")]
        argv += ["--text-source", "web", "--cache-dir", str(cache), "--rate", "0"]
        argv += [
            "--base-url",
            f"en={wiki.base_url('en')}",
            "--base-url",
            f"es={wiki.base_url('es')}",
        ]
        assert main(argv) == 0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    counts = manifest["stages"]["text"]["counts"]
    assert counts["web_cache_set_aside"] == 1


# ---------------------------------------------------------------------------------------------
# The SPARQL client


def sparql_client(url: str, **kwargs: object) -> tuple[SparqlClient, list[float]]:
    waits: list[float] = []
    options: dict[str, object] = {"user_agent": UA, "timeout": 10, "sleep": waits.append}
    options.update(kwargs)
    return SparqlClient(url, **options), waits  # type: ignore[arg-type]


@pytest.mark.parametrize("behaviour", [drip_body(EMPTY_RESULTS, every=0.5), drip_headers()])
def test_sparql_a_dripping_endpoint_is_cut_at_the_deadline(behaviour: Behaviour) -> None:
    with hostile(behaviour) as server:
        client, waits = sparql_client(server.url + "/sparql", deadline=0.5)
        with pytest.raises(SparqlError, match=r"deadline of 0\.5 s"):
            client.select("SELECT ?person WHERE { ?person ?p ?o }")
        assert client.stats["deadline_exceeded"] == 1 and waits == []
        assert len(server.seen) == 1 and server.sent < min(len(EMPTY_RESULTS), 1000)


def test_sparql_a_huge_answer_is_not_read_past_the_cap() -> None:
    with hostile(huge_body()) as server:
        client, _ = sparql_client(server.url + "/sparql", max_bytes=1 << 20)
        with pytest.raises(SparqlError, match="larger than the cap of 1048576 bytes"):
            client.select("SELECT ?person WHERE { ?person ?p ?o }")
        assert client.stats["too_large"] == 1 and len(server.seen) == 1
    assert server.sent < 1 << 30


@pytest.mark.parametrize("status", [301, 302, 303, 307])
def test_sparql_a_redirect_is_an_error_not_an_empty_answer(status: int) -> None:
    def empty(handler: BaseHTTPRequestHandler, state: Hostile) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/sparql-results+json")
        handler.send_header("Content-Length", str(len(EMPTY_RESULTS)))
        handler.end_headers()
        handler.wfile.write(EMPTY_RESULTS)

    with hostile(empty) as elsewhere:
        port = elsewhere.url.rsplit(":", 1)[1]
        for target in (f"http://localhost:{port}/sparql", "/sparql-moved"):
            with hostile(redirect_to(lambda t=target: t, status)) as server:
                client, _ = sparql_client(server.url + "/sparql")
                with pytest.raises(SparqlError, match="redirects"):
                    client.select("SELECT ?person WHERE { ?person ?p ?o }")
                assert client.stats["redirects_refused"] == 1
                assert server.seen == [("POST", "/sparql")]  # the moved address never asked
    assert elsewhere.seen == []


def test_sparql_a_redirecting_endpoint_fails_the_run_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with hostile(redirect_to(lambda: "http://localhost:9/sparql")) as server:
        argv = ["entities", "--langs", "en,es", "--out", str(tmp_path / "run")]
        argv += ["--source", "wikidata", "--endpoint", server.url + "/sparql"]
        assert main(argv) == 1
    err = capsys.readouterr().err
    _no_traceback(err)
    assert "redirects to another host (http://localhost:9/sparql)" in err


@pytest.mark.parametrize(
    ("setting", "behaviour", "said"),
    [
        ("deadline = 0.5", drip_body(EMPTY_RESULTS, every=0.5), r"deadline of 0.5 s"),
        ("max_answer_mb = 1", huge_body(), "larger than the cap of 1048576 bytes"),
    ],
)
def test_the_bounds_of_the_configuration_reach_the_sparql_client(
    setting: str,
    behaviour: Behaviour,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`[http] deadline` / `max_answer_mb` are what a run's requests are held to."""
    config = tmp_path / "run.toml"
    config.write_text(f"[http]\n{setting}\n", encoding="utf-8")
    with hostile(behaviour) as server:
        argv = ["entities", "--langs", "en,es", "--out", str(tmp_path / "run")]
        argv += ["--config", str(config), "--source", "wikidata"]
        argv += ["--endpoint", server.url + "/sparql"]
        assert main(argv) == 1
    err = capsys.readouterr().err
    _no_traceback(err)
    assert said in err and server.sent < 1 << 30


def test_sparql_negative_retry_after_backs_off_as_usual() -> None:
    answers = iter([(429, "-5"), (503, "-5"), (200, "")])

    def behave(handler: BaseHTTPRequestHandler, state: Hostile) -> None:
        status, after = next(answers)
        body = EMPTY_RESULTS if status == 200 else b"busy"
        handler.send_response(status)
        if after:
            handler.send_header("Retry-After", after)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    with hostile(behave) as server:
        client, waits = sparql_client(server.url + "/sparql", backoff=1.5)
        assert client.select("SELECT ?person WHERE { ?person ?p ?o }") == []
    assert waits == [1.5, 3.0]


def test_sparql_a_split_that_still_times_out_says_how_far_it_went() -> None:
    with SparqlProxy("http://127.0.0.1:9/unused") as proxy:
        proxy.rules = [timeout_rule()]
        client, _ = sparql_client(proxy.url)
        walk = iter_people(client, PeopleQuery(("en",), 1), ["Q36180"], max_depth=3)
        with pytest.raises(QueryTimeout) as info:
            list(walk)
        sent = len(proxy.requests)
        assert sent == 4  # "", "0", "00", "000": depth first, not 1000 parts
        message = str(info.value)
        assert f"{sent} queries timed out" in message
        assert "the part whose QIDs end in '000' (one of 1000)" in message
        assert "1000 parts" not in message
        proxy.reset()
        proxy.rules = [timeout_rule()]
        with pytest.raises(QueryTimeout, match=r"1 queries timed out, the whole query"):
            occupation_counts(client, PeopleQuery(("en",), 1), max_depth=0)


# ---------------------------------------------------------------------------------------------
# The chat client (audit and rewrite)


def chat_backend(base_url: str, **kwargs: object) -> ChatBackend:
    options: dict[str, object] = {
        "api_key_env": "",
        "rate": 0,
        "concurrency": 1,
        "retries": 2,
        "timeout": 10,
        "sleep": lambda s: None,
    }
    options.update(kwargs)
    return ChatBackend(base_url, "fake-model", **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("behaviour", [drip_body(b'{"choices": []}' * 70), drip_headers()])
def test_chat_a_dripping_server_fails_the_prompt_at_the_deadline(behaviour: Behaviour) -> None:
    with hostile(behaviour) as server, chat_backend(server.url + "/v1", deadline=0.5) as chat:
        labels = chat.label_one("El señor llegó.", "es")
        assert labels.failed and "deadline of 0.5 s" in labels.failed
        assert chat.stats["failed"] == 1 and chat.stats["deadline_exceeded"] == 1
        assert len(server.seen) == 1 and server.sent < 1000


def test_chat_a_huge_answer_is_not_read_past_the_cap() -> None:
    with (
        hostile(huge_body()) as server,
        chat_backend(server.url + "/v1", max_bytes=1 << 20) as chat,
    ):
        with pytest.raises(PromptFailed, match="larger than the cap"):
            chat.complete("hello")
        assert chat.stats["too_large"] == 1 and len(server.seen) == 1
    assert server.sent < 1 << 30


@pytest.mark.parametrize("same_host", [True, False])
def test_chat_a_redirected_request_is_a_chat_error(same_host: bool) -> None:
    with serve_chat({"El señor llegó.": "señor - P, M"}) as real:
        where = real.base_url if same_host else real.base_url.replace("127.0.0.1", "localhost")
        moved = redirect_to(lambda: where + "/chat/completions")
        with (
            hostile(moved) as server,
            chat_backend(server.url + "/v1") as chat,
            pytest.raises(ChatError, match="redirects"),
        ):
            chat.complete("hello")
        assert real.log == []  # the POST was not re-sent as a GET, nor anywhere else


def test_chat_negative_retry_after_backs_off_as_usual() -> None:
    waits: list[float] = []
    with serve_chat({"El señor llegó.": "señor - P, M"}) as real:
        real.fail((429, {"Retry-After": "-5"}), (503, {"Retry-After": "-5"}))
        with chat_backend(real.base_url, sleep=waits.append, backoff=1.5) as chat:
            assert chat.label_one("El señor llegó.", "es").failed == ""
    assert waits == [1.5, 3.0]


@pytest.mark.parametrize("damage", [_random_bytes, _truncated, _scribbled])
def test_chat_a_damaged_cache_is_set_aside_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: Callable[[Path], None]
) -> None:
    replies = {f"Frase {i} {os.urandom(200).hex()}.": "frase - N, F" for i in range(200)}
    with serve_chat(replies) as real:
        with chat_backend(real.base_url, cache_dir=tmp_path) as chat:
            for sentence in replies:
                chat.label_one(sentence, "es")
        damage(tmp_path / CACHE_FILE)
        with (
            caplog.at_level(logging.WARNING),
            chat_backend(real.base_url, cache_dir=tmp_path) as chat,
        ):
            labels = [chat.label_one(s, "es") for s in replies]
        assert all(not lab.failed and len(lab) == 1 for lab in labels)
        assert chat.stats["cache_set_aside"] == 1
        assert "set aside as" in caplog.text
        assert (tmp_path / (CACHE_FILE + ".damaged")).is_file()
        with chat_backend(real.base_url, cache_dir=tmp_path) as chat:  # a new cache
            assert all(not chat.label_one(s, "es").failed for s in replies)
            assert chat.stats["cache_set_aside"] == chat.stats["cache_unreadable"] == 0
        real.reset()
        with chat_backend(real.base_url, cache_dir=tmp_path) as chat:  # it serves
            assert all(not chat.label_one(s, "es").failed for s in replies)
            assert chat.stats["cache_hits"] == len(replies) and real.log == []


def test_chat_a_directory_in_place_of_the_cache_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / CACHE_FILE).mkdir()
    text = tmp_path / "corpus.es.txt"
    text.write_text("El señor llegó.\n", encoding="utf-8")
    with serve_chat({"El señor llegó.": "señor - P, M"}) as real:
        argv = ["audit", str(text), "--lang", "es", "--method", "llm", "--backend", "chat"]
        argv += ["--model", "m"]
        argv += ["--base-url", real.base_url, "--llm-cache-dir", str(tmp_path)]
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 1
    _no_traceback(err)
    assert "is a directory" in err


def test_chat_a_locked_cache_is_said_then_a_one_line_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with chat_backend("http://127.0.0.1:9/v1", cache_dir=tmp_path):
        pass
    with (
        caplog.at_level(logging.WARNING),
        _locked(tmp_path / CACHE_FILE),
        pytest.raises(CacheError, match="stayed locked"),
    ):
        chat_backend("http://127.0.0.1:9/v1", cache_dir=tmp_path, lock_wait=0.5)
    assert "is locked by another process; waiting up to 0.5 s" in caplog.text


def test_chat_rewrite_answers_with_control_characters_are_not_used() -> None:
    answers = iter(["He was an\x00 actor.", "He was an \x1b[31mactor\x1b[0m.", "He was an\tactor."])
    with (
        serve_chat(lambda prompt: next(answers)) as real,
        ChatRewriter("en", chat_backend(real.base_url)) as rewriter,
    ):
        outs = [rewriter.rewrite("She was an actress.", "masculine") for _ in range(3)]
        assert rewriter.stats["fallback_bad_answer"] == 2 and rewriter.stats["answers"] == 1
    assert outs[0] == outs[1] == rewriter.fallback.rewrite("She was an actress.", "masculine")
    assert outs[2] == "He was an\tactor."
    assert not any(c in "".join(outs) for c in "\x00\x1b")
