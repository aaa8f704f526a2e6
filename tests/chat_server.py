"""A local fake of the OpenAI chat-completions API over real loopback sockets.

Used by the person-reference tests (nothing here touches the network)::

    with serve_chat({"El señor llegó.": "señor - P, M"}) as chat:
        backend = ChatBackend(chat.base_url, "fake-model")

``POST /v1/chat/completions`` answers with the OpenAI response shape (``id``, ``object``,
``created``, ``model``, ``choices[0].message.content``, ``finish_reason``, ``usage``). The test
chooses the answers: ``replies`` maps a sentence (found in the ``Frase: "..."`` line of the
Spanish and Valencian prompts) to the answer text, or a callable takes the whole prompt and
returns it; a sentence with no reply gets an empty answer.

Knobs: scripted failures for the next requests (:meth:`FakeChat.fail`: a status with headers
and the OpenAI error body, a :class:`Raw` answer of another shape, ``"drop"`` to close the
connection unanswered, or ``("slow", seconds)`` to answer late, for timeouts), a fixed
``delay`` per request, ``api_key`` (requests without ``Authorization: Bearer <key>`` get the
real 401), and a request log with headers and JSON bodies plus the most requests ever in
flight at once.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["FakeChat", "Logged", "Raw", "serve_chat"]

PATH = "/v1/chat/completions"
_SENTENCE_RE = re.compile(r'^Frase: "(.*)"$', re.M)

_ERRORS = {
    400: ("invalid_request_error", "invalid_request", "Bad request."),
    401: ("invalid_request_error", "invalid_api_key", "Incorrect API key provided."),
    404: ("invalid_request_error", "model_not_found", "The model does not exist."),
    429: ("requests", "rate_limit_exceeded", "Rate limit reached for requests."),
    500: ("server_error", None, "The server had an error while processing your request."),
    503: ("server_error", None, "The engine is currently overloaded, please try again later."),
}


@dataclass(frozen=True)
class Raw:
    """An answer served verbatim."""

    body: str | bytes
    content_type: str = "application/json"
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)


#: A scripted answer: a status, a status with headers, a Raw answer, "drop", ("slow", s).
Answer = int | str | tuple[int, dict[str, str]] | tuple[str, float] | Raw


@dataclass
class Logged:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, object] | None
    status: int = 0
    started: float = 0.0

    @property
    def prompt(self) -> str:
        try:
            return str(self.body["messages"][-1]["content"])  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return ""

    @property
    def sentence(self) -> str:
        match = _SENTENCE_RE.search(self.prompt)
        return match.group(1) if match else ""


def completion(content: str, model: str, finish_reason: str = "stop") -> dict[str, object]:
    """A chat-completions response as OpenAI sends it."""
    return {
        "id": "chatcmpl-fake0001",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 400, "completion_tokens": 20, "total_tokens": 420},
        "system_fingerprint": "fp_fake",
    }


def error_body(status: int) -> dict[str, object]:
    kind, code, message = _ERRORS.get(status, ("server_error", None, f"HTTP {status}"))
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class FakeChat:
    """The server's state: replies, knobs, the request log. Built by :func:`serve_chat`."""

    def __init__(
        self,
        replies: Mapping[str, str] | Callable[[str], str],
        *,
        delay: float = 0.0,
        api_key: str | None = None,
    ) -> None:
        self.replies = replies
        self.delay = delay
        self.api_key = api_key
        self.log: list[Logged] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.url = ""  # set by serve_chat
        self._failures: deque[Answer] = deque()
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """What a client takes as its base URL (``.../v1``)."""
        return f"{self.url}/v1"

    def fail(self, *answers: Answer) -> None:
        """Script the next answers, one per request (whatever it asks), then normal ones."""
        with self._lock:
            self._failures.extend(answers)

    def reset(self) -> None:
        with self._lock:
            self.log.clear()
            self.max_in_flight = self.in_flight

    def _next_failure(self) -> Answer | None:
        with self._lock:
            return self._failures.popleft() if self._failures else None

    def reply(self, prompt: str) -> str:
        if callable(self.replies):
            return self.replies(prompt)
        match = _SENTENCE_RE.search(prompt)
        return self.replies.get(match.group(1), "") if match else ""

    def answer(self, entry: Logged) -> tuple[int, dict[str, str], bytes] | None:
        """(status, headers, body) for a request; ``None`` to drop the connection."""
        failure = self._next_failure()
        if failure == "drop":
            return None
        if isinstance(failure, tuple) and failure[0] == "slow":
            time.sleep(float(failure[1]))
            failure = None
        if isinstance(failure, Raw):
            body = failure.body.encode() if isinstance(failure.body, str) else failure.body
            return failure.status, {"Content-Type": failure.content_type, **failure.headers}, body
        if failure is not None:
            status, headers = failure if isinstance(failure, tuple) else (failure, {})
            return self._json(int(status), error_body(int(status)), dict(headers))
        if self.api_key is not None and entry.headers.get("Authorization") != (
            f"Bearer {self.api_key}"
        ):
            return self._json(401, error_body(401))
        body = entry.body
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return self._json(400, error_body(400))
        model = str(body.get("model", ""))
        return self._json(200, completion(self.reply(entry.prompt), model))

    @staticmethod
    def _json(
        status: int, data: object, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        return (
            status,
            {"Content-Type": "application/json", **(headers or {})},
            (json.dumps(data, ensure_ascii=False).encode("utf-8")),
        )


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        chat = self.server.chat
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            body = None
        entry = Logged(self.path, dict(self.headers.items()), body, started=time.monotonic())
        with chat._lock:
            chat.log.append(entry)
            chat.in_flight += 1
            chat.max_in_flight = max(chat.max_in_flight, chat.in_flight)
        try:
            if chat.delay:
                time.sleep(chat.delay)
            if self.path != PATH:
                answer: tuple[int, dict[str, str], bytes] | None = (
                    404,
                    {"Content-Type": "application/json"},
                    json.dumps(error_body(404)).encode(),
                )
            else:
                answer = chat.answer(entry)
            if answer is None:
                self.close_connection = True
                entry.status = -1
                return
            status, headers, payload = answer
            entry.status = status
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            self.close_connection = True
        finally:
            with chat._lock:
                chat.in_flight -= 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, chat: FakeChat) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.chat = chat


@contextmanager
def serve_chat(
    replies: Mapping[str, str] | Callable[[str], str] | None = None,
    *,
    delay: float = 0.0,
    api_key: str | None = None,
) -> Iterator[FakeChat]:
    """Serve the chat-completions API on 127.0.0.1 until the block ends; yields the
    :class:`FakeChat` (``chat.base_url`` is what a client takes)."""
    chat = FakeChat(replies if replies is not None else {}, delay=delay, api_key=api_key)
    server = _Server(chat)
    host, port = server.server_address[:2]
    chat.url = f"http://{host}:{port}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-chat", daemon=True
    )
    thread.start()
    try:
        yield chat
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
