"""The person-reference method (Derner et al.): parser, counter, harness, chat client, offline.

The chat client talks HTTP over real loopback sockets to :mod:`tests.chat_server`, which speaks
the chat-completions API with answers the tests choose; nothing in requests is patched. Retry
pauses go through an injected ``sleep`` that records them, so waits are checked without waiting.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from occbio.audit.llm import (
    BACKENDS,
    ChatBackend,
    ChatError,
    ChatUnreachable,
    GroundTruthMissing,
    Label,
    MethodUnavailable,
    OfflineBackend,
    PersonRefCounter,
    PersonRefResult,
    SentenceLabels,
    audit_lines,
    backend_from_options,
    build_prompt,
    format_validation,
    ground_truth_path,
    parse_answer,
    read_ground_truth,
    skiplist,
    validate,
)
from occbio.audit.person_refs import DATA_DIR
from occbio.net import SiteBusy
from tests.chat_server import FakeChat, Raw, serve_chat

KEY_ENV = "OCCBIO_TEST_CHAT_KEY"


class Waits(list[float]):
    """An injected ``sleep``: records the pauses instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


class Scripted:
    """A backend whose labels the test writes (the protocol, implemented, not patched)."""

    name = "scripted"
    languages = frozenset({"es", "va", "ca"})

    def __init__(self, answers: dict[str, list[Label]]) -> None:
        self.answers = answers
        self.calls: list[list[str]] = []

    def label(self, sentences: list[str], lang: str) -> list[list[Label]]:
        self.calls.append(list(sentences))
        return [list(self.answers.get(s, [])) for s in sentences]


# ---------------------------------------------------------------------------------------------
# The parser and the prompt


def test_parser_is_strict_and_counts_what_it_cannot_read() -> None:
    answer = "\n".join(
        [
            "señor - P, M",
            "",
            "Herald of Free Enterprise - N, M",
            "Sr. - P, M",
            "- diputada - P, F",  # a list marker
            "1. mesa - N, F",  # a numbered list
            "mesa - n, f",  # lower-case tags
            "ciudadanos - P",  # no gender
            "Aquí están los sustantivos:",  # prose
            "```",
            "  personas - P, F  ",  # surrounding blanks are fine
        ]
    )
    parsed = parse_answer(answer)
    assert list(parsed) == [
        Label("señor", True, "M"),
        Label("Herald of Free Enterprise", False, "M"),
        Label("Sr.", True, "M"),
        Label("personas", True, "F"),
    ]
    assert parsed.unparsed == 6 and parsed.failed == ""
    assert str(parsed[0]) == "señor - P, M" and Label("x", True, None).code == "P, ?"
    assert parse_answer("").unparsed == 0 and list(parse_answer("\n\n")) == []


def test_prompt_is_the_papers_with_examples_and_one_line_sentence() -> None:
    prompt = build_prompt("La  diputada\nllegó.", "es")
    assert prompt.startswith('Ejemplo 1: "El señor Presidente viajó a Tokio')
    assert 'Frase: "La diputada llegó."' in prompt
    assert "<EXAMPLES>" not in prompt and "<SENTENCE>" not in prompt
    assert prompt.rstrip().endswith("sin añadir texto adicional.")
    ca = build_prompt("La consellera va arribar.", "ca")  # Catalan reads the Valencian prompt
    assert ca == build_prompt("La consellera va arribar.", "va")
    assert "Exemple 1:" in ca and "Instruccions:" in ca
    assert "USTED" in skiplist("es") and "NOSALTRES" in skiplist("va")
    with pytest.raises(MethodUnavailable, match="no prompt for 'fr'"):
        build_prompt("Elle est arrivée.", "fr")


def test_data_files_ship_with_their_source_and_licence() -> None:
    for name in ["SOURCE.md", "LICENSE-grb-corpora.txt", "lexicon-es.tsv.gz", "lexicon-va.tsv.gz"]:
        assert (DATA_DIR / name).is_file(), name
    source = (DATA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    assert "d63f1c8" in source and "MIT" in source and "CC0" in source


# ---------------------------------------------------------------------------------------------
# Counting


def test_counter_streams_in_batches_and_counts() -> None:
    answers = {f"s{i}": [Label("señor", True, "M"), Label("mesa", False, "F")] for i in range(10)}
    answers["s3"] = [Label("diputada", True, "F"), Label("usted", True, "M")]  # skip list
    answers["s4"] = [Label("periodista", True, None)]
    backend = Scripted(answers)
    pulled = 0

    def lines() -> Iterator[str]:
        nonlocal pulled
        for i in range(10):
            pulled += 1
            yield f"s{i}\n"
            if i == 5:
                yield "   \n"  # not a sentence

    counter = PersonRefCounter(backend, "es", batch_size=4)
    counter.add_many(lines())
    assert [len(c) for c in backend.calls] == [4, 4, 2]
    res = counter.result()
    assert (res.sentences, res.person_masculine, res.person_feminine) == (10, 8, 1)
    assert (res.person_unknown, res.non_person, res.skipped) == (1, 8, 1)
    assert res.ratio == 8.0 and res.ratio_text == "8.00:1"
    assert res.feminine_share == pytest.approx(1 / 9)
    counter.add_many(["s3"])  # counts accumulate across calls
    assert counter.result().person_feminine == 2

    streamed = Scripted(answers)
    seen = PersonRefCounter(streamed, "es", batch_size=3)

    def watched() -> Iterator[str]:
        for i in range(10):
            assert sum(len(c) for c in streamed.calls) >= i - 3  # never reads far ahead
            yield f"s{i}"

    seen.add_many(watched())
    assert seen.result().sentences == 10 and pulled == 10


def test_results_add_up_and_serialise() -> None:
    a = PersonRefResult("es", "x", sentences=2, person_masculine=3, person_feminine=1)
    b = PersonRefResult("es", "x", sentences=1, person_feminine=2, unparsed=4, failed=1)
    total = a + b
    assert (total.sentences, total.person_masculine, total.person_feminine) == (3, 3, 3)
    assert (total.unparsed, total.failed, total.ratio_text) == (4, 1, "1.00:1")
    data = total.to_dict()
    assert data["ratio"] == 1.0 and data["feminine_share"] == 0.5
    json.dumps(data)
    assert PersonRefResult("es").ratio_text == "n/a" and PersonRefResult("es").ratio is None
    assert PersonRefResult("es", person_masculine=2).ratio_text == "1:0"
    with pytest.raises(ValueError, match="cannot add"):
        a + PersonRefResult("va", "x")


def test_unsupported_language_is_a_clear_error() -> None:
    for backend in [OfflineBackend(), Scripted({})]:
        with pytest.raises(MethodUnavailable, match="supports ca, es, va"):
            PersonRefCounter(backend, "fr")
    with pytest.raises(MethodUnavailable):
        OfflineBackend().label(["Elle est arrivée."], "fr")
    assert issubclass(MethodUnavailable, ValueError)


# ---------------------------------------------------------------------------------------------
# The validation harness on a hand-made ground truth

TINY_GT = (
    '"El señor Presidente habló con la diputada." "señor - P, M\nPresidente - P, M\n'
    'diputada - P, F"\n\n'
    '"Yo vi la casa y la casa era grande." "casa - N, F\ncasa - N, F\nYo - P, M"\n\n'
    '"Nada aquí." ""\n'
)


def test_harness_counts_on_a_tiny_ground_truth(tmp_path: Path) -> None:
    path = tmp_path / "gt-es.txt"
    path.write_text(TINY_GT, encoding="utf-8")
    items, unparsed = read_ground_truth(path)
    assert [len(i.labels) for i in items] == [3, 3, 0] and unparsed == 0
    backend = Scripted(
        {
            # found 3: señor right, presidente (case-insensitive) right, diputada wrong gender;
            # one extra (habló)
            items[0].sentence: [
                Label("señor", True, "M"),
                Label("presidente", True, "M"),
                Label("diputada", True, "M"),
                Label("habló", False, "M"),
            ],
            # one casa of two (one missed), labelled a person (wrong); "yo" is on the skip
            # list, on both sides
            items[1].sentence: [Label("casa", True, "F"), Label("yo", True, "M")],
            items[2].sentence: [Label("aquí", False, "M")],  # extra
        }
    )
    res = validate(backend, "es", path=path)
    assert (res.sentences, res.gt_words, res.predicted_words) == (3, 5, 6)
    assert (res.identified, res.wrongly_classified, res.missed, res.extra) == (4, 2, 1, 2)
    assert res.accuracy == pytest.approx(2 / 4)
    assert res.precision == pytest.approx(2 / 6)
    assert res.recall == pytest.approx(2 / 5)
    assert res.f1 == pytest.approx(2 * (2 / 6) * (2 / 5) / (2 / 6 + 2 / 5))
    assert res.detection_f1 == pytest.approx(2 * (4 / 6) * (4 / 5) / (4 / 6 + 4 / 5))
    assert (res.gt_person_masculine, res.gt_person_feminine) == (2, 1)
    assert (res.predicted_person_masculine, res.predicted_person_feminine) == (3, 1)
    assert (res.person_correct, res.predicted_person, res.gt_person) == (2, 4, 3)
    table = format_validation(res)
    assert "scripted" in table and " 33.3 " in table and "2:1" in table
    json.dumps(res.to_dict())
    assert res.to_dict()["f1"] == round(res.f1, 4)
    # the even-numbered sentences and the odd ones
    assert validate(backend, "es", path=path, split="dev").sentences == 2
    assert validate(backend, "es", path=path, split="test").sentences == 1


def test_ground_truth_is_looked_for_and_its_absence_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OCCBIO_GRB_DATA", str(tmp_path))
    with pytest.raises(GroundTruthMissing, match="grb-corpora"):
        ground_truth_path("es")
    (tmp_path / "gt-va.txt").write_text(TINY_GT, encoding="utf-8")
    assert ground_truth_path("ca") == tmp_path / "gt-va.txt"  # Catalan: the Valencian file
    assert ground_truth_path("va", tmp_path / "gt-va.txt") == tmp_path / "gt-va.txt"
    with pytest.raises(MethodUnavailable):
        ground_truth_path("fr")
    bad = tmp_path / "bad.txt"
    bad.write_text("no quotes here\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.txt:1"):
        read_ground_truth(bad)


# ---------------------------------------------------------------------------------------------
# The chat client against a local chat-completions server


@pytest.fixture
def chat() -> Iterator[FakeChat]:
    replies = {
        "El señor llegó.": "señor - P, M",
        "La diputada habló.": "diputada - P, F",
        "La mesa.": "mesa - N, F\nAquí tienes el resultado.",
    }
    with serve_chat(replies) as server:
        yield server


def make(chat: FakeChat, **kwargs: object) -> ChatBackend:
    options: dict[str, object] = {
        "rate": 0,
        "retries": 2,
        "timeout": 5.0,
        "sleep": Waits(),
        "api_key_env": KEY_ENV,
    }
    options.update(kwargs)
    return ChatBackend(chat.base_url, "fake-model", **options)  # type: ignore[arg-type]


def test_chat_labels_in_order_with_the_key_as_bearer(
    chat: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-123")
    sentences = ["El señor llegó.", "La diputada habló.", "La mesa.", "Nada."] * 3
    with make(chat, concurrency=3) as backend:
        got = backend.label(sentences, "es")
    assert [list(g) for g in got[:4]] == [
        [Label("señor", True, "M")],
        [Label("diputada", True, "F")],
        [Label("mesa", False, "F")],
        [],
    ]
    assert got[2].unparsed == 1 and got[3].unparsed == 0
    assert len(chat.log) == 12 and chat.max_in_flight <= 3
    first = chat.log[0]
    assert first.path == "/v1/chat/completions"
    assert first.headers["Authorization"] == "Bearer sk-test-123"
    assert first.headers["User-Agent"].startswith("occbio/")
    assert first.body is not None and first.body["model"] == "fake-model"
    assert first.body["temperature"] == 0.0
    assert first.prompt == build_prompt(first.sentence, "es")


def test_no_key_no_header_and_a_refused_key_stops_the_run(
    chat: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with make(chat) as backend:
        backend.label(["El señor llegó."], "es")
    assert "Authorization" not in chat.log[0].headers
    with serve_chat({}, api_key="sk-right") as locked:
        monkeypatch.setenv(KEY_ENV, "sk-wrong")
        with make(locked) as backend, pytest.raises(ChatError, match=f"set \\${KEY_ENV}"):
            backend.label(["El señor llegó.", "La mesa."], "es")
        monkeypatch.setenv(KEY_ENV, "sk-right")
        with make(locked) as backend:
            assert backend.label(["El señor llegó."], "es")[0].failed == ""


def test_retry_after_is_honoured_on_429_and_503(chat: FakeChat) -> None:
    chat.fail((429, {"Retry-After": "7"}), (503, {"Retry-After": "3"}))
    waits = Waits()
    with make(chat, sleep=waits, retries=5) as backend:
        got = backend.label(["El señor llegó."], "es")
        assert list(got[0]) == [Label("señor", True, "M")]
        assert waits == [7.0, 3.0]
        assert backend.stats["retries"] == 2 and backend.stats["requests"] == 3
    assert [r.status for r in chat.log] == [429, 503, 200]
    assert json.loads(json.dumps(chat.log[0].body))["messages"][0]["role"] == "user"


def test_5xx_backoff_doubles_and_is_capped_then_gives_up(chat: FakeChat) -> None:
    chat.fail(500, 502, 504, 503)
    waits = Waits()
    with make(chat, sleep=waits, retries=4, backoff=2, max_wait=5) as backend:
        assert list(backend.label(["El señor llegó."], "es")[0]) == [Label("señor", True, "M")]
    assert waits == [2.0, 4.0, 5.0, 5.0]
    chat.fail(503, 503, 503)
    with make(chat, retries=2) as backend:
        res = audit_lines(["El señor llegó.", "La diputada habló."], "es", backend, batch_size=1)
        assert backend.stats["failed"] == 1
    # the first sentence got nothing after 3 tries; the run went on
    assert (res.failed, res.person_masculine, res.person_feminine) == (1, 0, 1)


def test_a_retry_after_longer_than_max_wait_stops_the_run(chat: FakeChat) -> None:
    chat.fail((429, {"Retry-After": "600"}))
    with (
        make(chat, max_wait=30) as backend,
        pytest.raises(SiteBusy, match=r"asks to wait 600 s \(more than max_wait=30 s\)"),
    ):
        backend.label(["El señor llegó."], "es")


def test_timeouts_and_dropped_connections_are_retried(chat: FakeChat) -> None:
    chat.fail(("slow", 1.0), "drop")
    start = time.monotonic()
    with make(chat, timeout=0.2, retries=3) as backend:
        got = backend.label(["La diputada habló."], "es")
        assert list(got[0]) == [Label("diputada", True, "F")]
        assert backend.stats["retries"] == 2
    assert time.monotonic() - start < 5


def test_answers_of_the_wrong_shape_fail_that_sentence_only(chat: FakeChat) -> None:
    chat.fail(
        Raw("<html>bad gateway</html>", content_type="text/html"),
        Raw('{"choices": []}'),
        Raw('{"choices": [{"message": {"content": null}}]}'),
        400,
    )
    with make(chat, concurrency=1) as backend:
        got = backend.label(["El señor llegó."] * 5, "es")
        assert backend.stats["failed"] == 4
    assert [bool(g.failed) for g in got] == [True, True, True, True, False]
    assert "not JSON" in got[0].failed and "HTTP 400" in got[3].failed
    assert list(got[4]) == [Label("señor", True, "M")]


def test_unknown_model_and_unreachable_server_are_fatal(chat: FakeChat) -> None:
    chat.fail(404)
    with make(chat) as backend, pytest.raises(ChatError, match="no such model"):
        backend.label(["El señor llegó."], "es")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    waits = Waits()
    down = ChatBackend(f"http://127.0.0.1:{port}/v1", "m", rate=0, retries=2, sleep=waits)
    with down, pytest.raises(ChatUnreachable, match="cannot be reached"):
        down.label(["El señor llegó."], "es")
    assert len(waits) == 2


def test_disk_cache_makes_a_rerun_send_nothing(chat: FakeChat, tmp_path: Path) -> None:
    sentences = ["El señor llegó.", "La diputada habló.", "La mesa."]
    chat.fail(503)  # a failure is not cached
    with make(chat, cache_dir=tmp_path, retries=0, concurrency=1) as first:
        before = first.label(sentences, "es")
        assert first.stats["requests"] == 3 and before[0].failed
    chat.reset()
    with make(chat, cache_dir=tmp_path) as second:
        after = second.label(sentences, "es")
        assert len(chat.log) == 1 and chat.log[0].sentence == "El señor llegó."
        assert second.stats["cache_hits"] == 2
    chat.reset()
    with make(chat, cache_dir=tmp_path) as third:
        again = third.label(sentences, "es")
        assert chat.log == [] and third.stats["cache_hits"] == 3
    assert [list(a) for a in again] == [list(a) for a in after]
    assert again[2].unparsed == 1  # the cached answer is parsed again, counts included
    # another model, or another temperature, is another question
    with ChatBackend(chat.base_url, "other-model", rate=0, cache_dir=tmp_path) as other:
        other.label(sentences[:1], "es")
    with make(chat, cache_dir=tmp_path, temperature=0.7) as warm:
        warm.label(sentences[:1], "es")
    assert len(chat.log) == 2


def test_rate_limit_spaces_the_requests(chat: FakeChat) -> None:
    rate = 25.0
    with make(chat, rate=rate, concurrency=4) as backend:
        backend.label(["El señor llegó."] * 7, "es")
    starts = sorted(r.started for r in chat.log)
    assert starts[-1] - starts[0] >= 0.85 * 6 / rate


def test_chat_client_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="base_url"):
        ChatBackend("api.openai.com/v1", "m")
    with pytest.raises(ValueError, match="model"):
        ChatBackend("http://127.0.0.1:9/v1", " ")
    with pytest.raises(ValueError, match="retries"):
        ChatBackend("http://127.0.0.1:9/v1", "m", retries=-1)
    backend = ChatBackend("http://127.0.0.1:9/v1/", "m")
    assert backend.url == "http://127.0.0.1:9/v1/chat/completions" and backend.name == "chat:m"
    backend.close()
    with pytest.raises(MethodUnavailable):
        backend.label(["x"], "de")


def test_backends_by_name(monkeypatch: pytest.MonkeyPatch, chat: FakeChat) -> None:
    assert set(BACKENDS) == {"offline", "chat"}
    assert isinstance(backend_from_options("offline"), OfflineBackend)
    with pytest.raises(ValueError, match="takes no options"):
        backend_from_options("offline", model="x")
    with pytest.raises(ValueError, match="unknown backend 'gpt'"):
        backend_from_options("gpt")
    monkeypatch.delenv("OCCBIO_LLM_MODEL", raising=False)
    with pytest.raises(ValueError, match="needs a model"):
        backend_from_options("chat", base_url=chat.base_url)
    monkeypatch.setenv("OCCBIO_LLM_MODEL", "env-model")
    monkeypatch.setenv("OPENAI_BASE_URL", chat.base_url)
    backend = backend_from_options("chat", rate=0, cache_dir=None)
    assert isinstance(backend, ChatBackend) and backend.name == "chat:env-model"
    res = audit_lines(["La diputada habló."], "es", backend)
    backend.close()
    assert res.backend == "chat:env-model" and res.person_feminine == 1


# ---------------------------------------------------------------------------------------------
# The offline backend on hand-written sentences


def labels_of(sentence: str, lang: str) -> dict[str, str]:
    (got,) = OfflineBackend().label([sentence], lang)
    assert isinstance(got, SentenceLabels)
    return {lab.word: lab.code for lab in got}


def test_offline_spanish() -> None:
    got = labels_of(
        "La presidenta del Gobierno recibió a los ministros y a una periodista en su despacho.",
        "es",
    )
    assert got == {
        "presidenta": "P, F",
        "Gobierno": "N, M",
        "ministros": "P, M",
        "periodista": "P, F",
        "despacho": "N, M",
    }
    got = labels_of("Las ciudadanas europeas votaron con entusiasmo por la nueva ley.", "es")
    assert got == {"ciudadanas": "P, F", "entusiasmo": "N, M", "ley": "N, F"}
    got = labels_of("Sir Tom Jones habló con el Sr. Pérez sobre la situación.", "es")
    assert got == {"Sir": "P, M", "Tom": "P, M", "Sr.": "P, M", "situación": "N, F"}


def test_offline_catalan() -> None:
    got = labels_of("La consellera d'Educació es va reunir amb els alumnes i les mestres.", "ca")
    assert got == {
        "consellera": "P, F",
        "Educació": "N, F",
        "alumnes": "P, M",
        "mestres": "P, F",
    }
    got = labels_of("El director de l'escola va presentar l'informe als pares.", "va")
    assert got == {
        "director": "P, M",
        "escola": "N, F",
        "informe": "N, M",
        "pares": "P, M",
    }


def test_offline_backend_on_the_papers_ground_truth(shared_data: Path) -> None:
    """A regression guard on the real annotations: the held-out (odd) half of each file."""
    folder = shared_data / "grb-corpora"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    backend = OfflineBackend()
    es = validate(backend, "es", path=folder, split="test")
    va = validate(backend, "va", path=folder, split="test")
    assert es.sentences == va.sentences == 50 and es.gt_unparsed == va.gt_unparsed == 0
    assert es.f1 > 0.85 and va.f1 > 0.78
    assert es.person_f1 > 0.8
