"""Rewriting with a chat model (occbio.rewrite.chat), against a real local chat server.

The server (tests/chat_server.py) speaks the OpenAI chat-completions protocol over loopback
sockets; the "model" is a function of the prompt the test writes. What is checked: answers are
used when they are a rewrite, cleaned of quotes and fences, refused (and replaced by the rules'
rewrite, counted) when they are not; a server that fails falls back line by line; the CLI and
the benchmark run the chat backend end to end.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from occbio.audit.chat_client import ChatBackend
from occbio.cli import main
from occbio.rewrite import Rewriter
from occbio.rewrite.chat import ChatRewriter, accept_answer, build_prompt
from tests.chat_server import serve_chat

ROOT = Path(__file__).resolve().parents[1]
_SENT = re.compile(r"^Sentence: (.*)$", re.M)


def sentence_of(prompt: str) -> str:
    match = _SENT.search(prompt)
    assert match, prompt
    return match.group(1)


#: A "model" that knows a few sentences (by their rewrite) and misbehaves on others.
KNOWN = {
    "Fue nombrado director del museo.": "Fue nombrada directora del museo.",
    "Él fue el primero en llegar.": '"Ella fue la primera en llegar."',
    "Lo recuerdan como un gran pintor.": "```\nLa recuerdan como una gran pintora.\n```",
    "Él estudió en Madrid.": "Sure! Here is the sentence:\nElla estudió en Madrid.",
    "Él nació en Sevilla.": "She was born in Seville.",
    "El museo abrió en 1900.": "El museo abrió en 1900.",
}


def model(prompt: str) -> str:
    return KNOWN.get(sentence_of(prompt), "")


def client(chat, **kw) -> ChatBackend:
    kw.setdefault("retries", 1)
    kw.setdefault("backoff", 0.0)
    return ChatBackend(chat.base_url, "fake-model", sleep=lambda s: None, **kw)


def test_prompt_names_language_target_and_sentence() -> None:
    p = build_prompt("Fue nombrado director.", "es", "feminine")
    assert "Spanish" in p and "a woman" in p and p.endswith("Sentence: Fue nombrado director.")
    assert "a man" in build_prompt("She sang.", "en", "masculine")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Ella cantó.", "Ella cantó."),
        ('"Ella cantó."', "Ella cantó."),
        ("«Ella cantó.»", "Ella cantó."),
        ("```\nElla cantó.\n```", "Ella cantó."),
        ("", None),
        ("Here you go:\nElla cantó.", None),
        ("She sang beautifully in the evening.", None),  # another language: all words changed
    ],
)
def test_accept_answer(answer: str, expected: str | None) -> None:
    assert accept_answer("Él cantó.", answer, "es") == expected


def test_accept_answer_keeps_quotes_the_sentence_has() -> None:
    assert accept_answer('"Él cantó."', '"Ella cantó."', "es") == '"Ella cantó."'


def test_answers_used_and_bad_ones_replaced_by_the_rules() -> None:
    with serve_chat(model) as chat, ChatRewriter("es", client(chat)) as rw:
        assert rw.rewrite("Fue nombrado director del museo.", "feminine") == (
            "Fue nombrada directora del museo."
        )
        assert rw.rewrite("Él fue el primero en llegar.", "feminine") == (
            "Ella fue la primera en llegar."
        )
        assert rw.rewrite("Lo recuerdan como un gran pintor.", "feminine") == (
            "La recuerdan como una gran pintora."
        )
        rules = Rewriter("es")
        for bad in ("Él estudió en Madrid.", "Él nació en Sevilla."):
            assert rw.rewrite(bad, "feminine") == rules.rewrite(bad, "feminine")
        same = "El museo abrió en 1900."
        assert rw.rewrite(same, "feminine") is same
        assert rw.stats["answers"] == 4
        assert rw.stats["unchanged"] == 1
        assert rw.stats["fallback_bad_answer"] == 2
        assert len(chat.log) == 6


def test_a_failing_server_falls_back_line_by_line() -> None:
    with serve_chat(model) as chat, ChatRewriter("es", client(chat, retries=1)) as rw:
        chat.fail(500, 503)  # both tries of the first sentence
        out = rw.rewrite("Fue nombrado director del museo.", "feminine")
        assert out == Rewriter("es").rewrite("Fue nombrado director del museo.", "feminine")
        assert rw.stats["fallback_no_answer"] == 1
        # the next sentence is answered again
        assert rw.rewrite("Él fue el primero en llegar.", "feminine") == (
            "Ella fue la primera en llegar."
        )


def test_rewrite_many_keeps_order_and_line_endings_with_concurrency() -> None:
    lines = [
        "Fue nombrado director del museo.\r\n",
        "\n",
        "Él fue el primero en llegar.\n",
        "El museo abrió en 1900.",
    ]
    with (
        serve_chat(model, delay=0.05) as chat,
        ChatRewriter("es", client(chat, concurrency=3, rate=100)) as rw,
    ):
        out = list(rw.rewrite_many(lines, "feminine", batch=3))
    assert out == [
        "Fue nombrada directora del museo.\r\n",
        "\n",
        "Ella fue la primera en llegar.\n",
        "El museo abrió en 1900.",
    ]
    assert chat.max_in_flight >= 2


def test_cli_chat_backend_with_cache(tmp_path: Path, monkeypatch, capsys) -> None:
    src = tmp_path / "in.txt"
    src.write_text("Fue nombrado director del museo.\nÉl nació en Sevilla.\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    cache = tmp_path / "cache"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with serve_chat(model) as chat:
        argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "chat",
                "--base-url", chat.base_url, "--model", "fake-model", "--llm-cache-dir",
                str(cache), "--input", str(src), "--output", str(out)]  # fmt: skip
        assert main(argv) == 0
        first = out.read_text(encoding="utf-8")
        n_requests = len(chat.log)
        assert main(argv) == 0  # the cache answers: no request
        assert len(chat.log) == n_requests == 2
    assert first == out.read_text(encoding="utf-8")
    assert first.splitlines() == [
        "Fue nombrada directora del museo.",
        Rewriter("es").rewrite("Él nació en Sevilla.", "feminine"),
    ]
    assert "rewritten by the rules instead" in capsys.readouterr().err


@pytest.mark.slow
def test_cli_chat_backend_unreachable_is_one_line_error(tmp_path: Path, capsys) -> None:
    """Nothing listens: the client's retries are spent (about 30 s of backoff), then one line."""
    src = tmp_path / "in.txt"
    src.write_text("Él nació en Sevilla.\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "chat",
            "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--input", str(src),
            "--output", str(out)]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be reached" in err
    assert not out.exists()  # no half-written output


def test_cli_chat_backend_needs_a_model(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("OCCBIO_LLM_MODEL", raising=False)
    argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "chat",
            "--base-url", "http://127.0.0.1:9/v1", "--input", str(tmp_path / "x")]  # fmt: skip
    assert main(argv) == 1
    assert "needs a model" in capsys.readouterr().err


@pytest.mark.slow
def test_benchmark_measures_the_chat_backend_the_same_way(tmp_path: Path) -> None:
    """An oracle model that answers MT-GenEval's human counterfactual scores 100 % exact."""
    data = ROOT.parent / "shared/data/mt-geneval-dev"
    if not data.exists():
        pytest.skip("MT-GenEval data not beside the repository")
    from occbio.rewrite.learn import load_mtgeneval

    pairs = load_mtgeneval(data, "es")
    oracle = {}
    for f, m in pairs:  # the benchmark asks as MT-GenEval's humans wrote: relatives change
        oracle[build_prompt(m, "es", "feminine", "change")] = f
        oracle[build_prompt(f, "es", "masculine", "change")] = m
    with serve_chat(lambda p: oracle.get(p, "")) as chat:
        res = subprocess.run(
            [
                sys.executable,
                str(ROOT / "benchmarks/rewrite.py"),
                "--langs",
                "es",
                "--backend",
                "chat",
                "--base-url",
                chat.base_url,
                "--model",
                "oracle",
                "--limit",
                "40",
                "--rate",
                "1000",
                "--data",
                str(data),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": ""},
        )
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.splitlines() if line.startswith("es ")]
    assert len(rows) == 4
    for row in rows:
        assert row[4] == "100.0" and row[5] == "100.0", row  # exact, precision
    assert "es chat: answers" in res.stdout


# -- --backend hf where torch is not installed (the base install) ---------------------------


def test_cli_hf_backend_without_torch_is_one_line_with_the_pip_line(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Runs in every install: torch is hidden, as in the base install (where it is absent)."""
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "gpt2"}', encoding="utf-8")
    (model / "model.safetensors").write_bytes(b"weights")
    monkeypatch.setitem(sys.modules, "torch", None)
    out, empty = tmp_path / "out.txt", tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "hf", "--model-dir",
            str(model), "--input", str(empty), "--output", str(out)]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: --backend hf needs torch and transformers")
    assert 'pip install "occbio[hf]"' in err and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--backend", "hf"], "--backend hf needs --model-dir DIR"),
        (["--model-dir", "m", "--device", "cpu"], "--model-dir, --device: read by --backend hf"),
        (["--backend", "chat", "--batch-size", "4"], "--batch-size: read by --backend hf only"),
        (["--backend", "hf", "--model-dir", "m", "--batch-size", "0"], "at least 1, not 0"),
    ],
)
def test_cli_hf_options_misused_are_usage_errors(extra: list[str], message: str, capsys) -> None:
    argv = ["rewrite", "--lang", "es", "--to", "feminine", "--input", "/dev/null", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: ") and message in err
    assert err.count("\n") == 1
