"""``occbio rewrite --backend hf``: a local transformers model, with tiny models built here.

Nothing is downloaded: each test model is a random GPT-2, BART or T5 from a config, with a
word-level tokenizer built from a word list, saved to a temporary directory as any Hub model
is. A random model's answers are not rewrites, so they fall back to the rules, counted. For an
answer that passes, the model's saved ``generation_config.json`` carries a ``sequence_bias``
that forces the words ``Ella cantó .`` after the prompt: the backend loads and runs it as it
would any model. Skipped without torch and transformers (the base install).
"""

from __future__ import annotations

import itertools
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from occbio.cli import main  # noqa: E402
from occbio.rewrite import Rewriter  # noqa: E402
from occbio.rewrite.hf_backend import HFRewriter, ModelUnavailable  # noqa: E402
from tests.factories import write_tiny_bert  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WORDS = (
    "Él Ella él ella cantó . , : nació en Sevilla fue nombrado nombrada director directora del "
    "museo Sentence Rewritten sentence rewrite to feminine masculine Answer"
).split()
SPECIAL = ["<pad>", "<unk>", "</s>"]
#: What the forced models answer to every prompt.
FORCED = ["Ella", "cantó", "."]
#: A chat template whose generation prompt ends with ":", as the plain prompt's cue does.
TEMPLATE = (
    "{% for m in messages %}{{ m['content'] }}{% endfor %}"
    "{% if add_generation_prompt %}\nAnswer:{% endif %}"
)


def write_tokenizer(directory: Path, chat_template: str | None = None):
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: i for i, w in enumerate([*SPECIAL, *WORDS])}
    core = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    tok = transformers.PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token="<pad>", unk_token="<unk>", eos_token="</s>"
    )
    if chat_template:
        tok.chat_template = chat_template
    directory.mkdir(parents=True, exist_ok=True)
    tok.save_pretrained(str(directory))
    return tok


def forcing(tok, first: str) -> list:
    """A ``sequence_bias`` (list form, as JSON keeps it) that makes ``first`` -> FORCED -> end."""
    chain = [first, *FORCED, "</s>"]
    ids = tok.convert_tokens_to_ids(chain)
    return [[[a, b], 100.0] for a, b in itertools.pairwise(ids)]


def write_gpt2(
    directory: Path,
    *,
    forced: bool = False,
    chat_template: str | None = None,
    endless: bool = False,
    vocab_size: int | None = None,
) -> Path:
    tok = write_tokenizer(directory, chat_template)
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=vocab_size or len(tok),
        n_embd=16,
        n_layer=2,
        n_head=2,
        n_positions=256,
        bos_token_id=tok.eos_token_id,
        eos_token_id=tok.eos_token_id,
    )
    model = transformers.GPT2LMHeadModel(config)
    if forced:
        model.generation_config.sequence_bias = forcing(tok, ":")
    if endless:  # never ends: runs to the length bound
        model.generation_config.suppress_tokens = [tok.eos_token_id]
    model.save_pretrained(str(directory))
    return directory


def write_bart(directory: Path, *, forced: bool = False) -> Path:
    tok = write_tokenizer(directory)
    torch.manual_seed(0)
    config = transformers.BartConfig(
        vocab_size=len(tok),
        d_model=16,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        max_position_embeddings=64,
        pad_token_id=tok.pad_token_id,
        bos_token_id=tok.eos_token_id,
        eos_token_id=tok.eos_token_id,
        decoder_start_token_id=tok.eos_token_id,
        forced_eos_token_id=None,
    )
    model = transformers.BartForConditionalGeneration(config)
    if forced:  # the decoder starts with </s>
        model.generation_config.sequence_bias = forcing(tok, "</s>")
    model.save_pretrained(str(directory))
    return directory


def write_t5(directory: Path) -> Path:
    tok = write_tokenizer(directory)
    torch.manual_seed(0)
    config = transformers.T5Config(
        vocab_size=len(tok),
        d_model=16,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_heads=2,
        pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id,
        decoder_start_token_id=tok.pad_token_id,
    )
    transformers.T5ForConditionalGeneration(config).save_pretrained(str(directory))
    return directory


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hf-rewrite")
    return {
        "gpt2": write_gpt2(root / "gpt2", endless=True),
        "gpt2-forced": write_gpt2(root / "gpt2-forced", forced=True),
        "gpt2-chat": write_gpt2(root / "gpt2-chat", forced=True, chat_template=TEMPLATE),
        "bart": write_bart(root / "bart"),
        "bart-forced": write_bart(root / "bart-forced", forced=True),
        "t5": write_t5(root / "t5"),
    }


SENTENCES = ["Él cantó.", "Él nació en Sevilla.", "Fue nombrado director del museo."]


@pytest.mark.parametrize(
    ("name", "kind"), [("gpt2", "causal"), ("bart", "seq2seq"), ("t5", "seq2seq")]
)
def test_random_models_answers_fall_back_to_the_rules_counted(
    models: dict[str, Path], name: str, kind: str
) -> None:
    rw = HFRewriter("es", models[name], device="cpu", batch_size=2)
    assert rw.kind == kind and not rw.templated
    rules = Rewriter("es")
    lines = [s + "\n" for s in SENTENCES]
    assert list(rw.rewrite_many(lines, "feminine")) == [
        rules.rewrite(s, "feminine") + "\n" for s in SENTENCES
    ]
    assert rw.stats == {"fallback_bad_answer": 3}


def test_an_endless_answer_is_bounded_by_the_sentences_length(models: dict[str, Path]) -> None:
    """The random GPT-2 cannot end (its end token is suppressed): it stops at 2 × the
    sentence's tokens + 16 new tokens, and its answer is real generated text."""
    rw = HFRewriter("es", models["gpt2"], device="cpu")
    (answer,) = rw._generate(["Él cantó."], "feminine")
    n_tokens = len(rw._tokenizer("Él cantó.", add_special_tokens=False).input_ids)
    assert answer and len(answer.split()) <= 2 * n_tokens + 16
    assert set(answer.split()) <= set(WORDS)


@pytest.mark.parametrize("name", ["gpt2-forced", "gpt2-chat", "bart-forced"])
def test_an_answer_that_passes_the_checks_is_used(models: dict[str, Path], name: str) -> None:
    rw = HFRewriter("es", models[name], device="cpu", batch_size=3)
    assert rw.templated == (name == "gpt2-chat")
    lines = ["Él cantó.\r\n", "\n", "  Él cantó.  \n", "Él nació en Sevilla.", SENTENCES[2]]
    out = list(rw.rewrite_many(lines, "feminine"))
    rules = Rewriter("es")
    assert out == [
        "Ella cantó .\r\n",  # the model's answer, not the rules' `Ella cantó.`
        "\n",  # a blank line is not sent
        "  Ella cantó .  \n",  # the line's own spaces kept
        # `Ella cantó .` changes too many words of these: the rules answer
        rules.rewrite("Él nació en Sevilla.", "feminine"),
        rules.rewrite(SENTENCES[2], "feminine"),
    ]
    assert rw.stats == {"answers": 2, "fallback_bad_answer": 2}


def test_a_sentence_too_long_for_the_model_is_not_sent(models: dict[str, Path]) -> None:
    """BART here has 64 positions: a 40-word sentence and its answer do not fit."""
    rw = HFRewriter("es", models["bart-forced"], device="cpu")
    long = "Él cantó en Sevilla, " * 10 + "en el museo."
    assert rw.rewrite(long, "feminine") == Rewriter("es").rewrite(long, "feminine")
    assert rw.rewrite("Él cantó.", "feminine") == "Ella cantó ."
    assert rw.stats == {"fallback_too_long": 1, "answers": 1}


def test_loading_and_rewriting_never_reach_the_network(
    models: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from huggingface_hub import constants

    def refuse(*args: object) -> None:
        raise OSError("no network in this test")

    offline_before = constants.HF_HUB_OFFLINE
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    rw = HFRewriter("es", models["gpt2-chat"], device="auto")
    assert rw.rewrite("Él cantó.", "feminine") == "Ella cantó ."
    assert offline_before == constants.HF_HUB_OFFLINE  # put back for `occbio models download`


def test_cli_hf_backend_end_to_end(models: dict[str, Path], tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.txt"
    src.write_text("Él cantó.\n\nÉl nació en Sevilla.\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "hf", "--model-dir",
            str(models["gpt2-forced"]), "--device", "cpu", "--batch-size", "2", "--input",
            str(src), "--output", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert out.read_text(encoding="utf-8").splitlines() == [
        "Ella cantó .",
        "",
        Rewriter("es").rewrite("Él nació en Sevilla.", "feminine"),
    ]
    err = capsys.readouterr().err
    assert "1 line(s) got no usable answer from the model" in err and "Traceback" not in err


def _broken_dirs(models: dict[str, Path], root: Path) -> dict[str, tuple[Path, str]]:
    empty = root / "empty"
    empty.mkdir()
    damaged = shutil.copytree(models["gpt2"], root / "damaged")
    (damaged / "model.safetensors").write_bytes(b"<html>not a model</html>")
    no_weights = shutil.copytree(models["gpt2"], root / "no-weights")
    (no_weights / "model.safetensors").unlink()
    bad_json = shutil.copytree(models["gpt2"], root / "bad-json")
    (bad_json / "config.json").write_text("{not json", encoding="utf-8")
    a_file = root / "a-file"
    a_file.write_text("x", encoding="utf-8")
    return {
        "missing": (root / "nowhere", "does not exist"),
        "a file": (a_file, "is a file"),
        "no config": (empty, r"no config\.json"),
        "no weights": (no_weights, "has no weights"),
        "bad config": (bad_json, "cannot load the model in"),
        "damaged weights": (damaged, "cannot load the model in"),
        "an encoder": (write_tiny_bert(root / "bert", ["[PAD]", "[UNK]", "a"]), "BertModel"),
        "mismatched tokenizer": (
            write_gpt2(root / "small-vocab", vocab_size=len(SPECIAL) + 3),
            "do not belong together",
        ),
    }


def test_a_directory_that_is_not_a_usable_model_is_a_one_line_error(
    models: dict[str, Path], tmp_path: Path, capsys
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("Él cantó.\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    broken = _broken_dirs(models, tmp_path)
    capsys.readouterr()  # saving the test models draws progress bars
    for what, (directory, message) in broken.items():
        with pytest.raises(ModelUnavailable, match=message):
            HFRewriter("es", directory, device="cpu")
        argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "hf", "--model-dir",
                str(directory), "--input", str(src), "--output", str(out)]  # fmt: skip
        assert main(argv) == 1, what
        err = capsys.readouterr().err
        assert err.startswith("occbio: error: ") and err.count("\n") == 1, (what, err)
        assert not out.exists(), what


def test_missing_transformers_says_what_to_install(
    models: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(
        ModelUnavailable, match=r'transformers is missing\): pip install "occbio\[hf\]"'
    ):
        HFRewriter("es", models["gpt2"])


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_cuda_without_a_gpu_is_a_one_line_error(
    models: dict[str, Path], tmp_path: Path, capsys
) -> None:
    empty = tmp_path / "empty.txt"  # a regular file: a device (/dev/null) is refused first
    empty.write_text("", encoding="utf-8")
    argv = ["rewrite", "--lang", "es", "--to", "feminine", "--backend", "hf", "--model-dir",
            str(models["gpt2"]), "--device", "cuda", "--input", str(empty)]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "--device cuda" in err and err.count("\n") == 1


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU here")
def test_on_the_gpu_the_same_answers(models: dict[str, Path]) -> None:
    for name in ("gpt2-forced", "gpt2-chat", "bart-forced"):
        rw = HFRewriter("es", models[name], device="cuda", batch_size=2)
        assert rw.device == "cuda"
        lines = ["Él cantó.\n", "Él nació en Sevilla.\n", "Él cantó."]
        assert list(rw.rewrite_many(lines, "feminine")) == [
            "Ella cantó .\n",
            Rewriter("es").rewrite("Él nació en Sevilla.", "feminine") + "\n",
            "Ella cantó .",
        ]


@pytest.mark.slow
def test_benchmark_runs_the_hf_backend(models: dict[str, Path]) -> None:
    """The benchmark measures a local model as it measures chat; this random one never
    answers usably, so every sentence is counted as a fallback."""
    data = ROOT.parent / "shared/data/mt-geneval-dev"
    if not data.exists():
        pytest.skip("MT-GenEval data not beside the repository")
    argv = ["--langs", "es", "--backend", "hf", "--model-dir", str(models["bart"]), "--device",
            "cpu", "--limit", "5", "--no-held-out", "--data", str(data)]  # fmt: skip
    res = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/rewrite.py"), *argv],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.splitlines() if line.startswith("es ")]
    assert len(rows) == 2  # m→f and f→m, choosing part only
    counts = [line for line in res.stdout.splitlines() if "es hf:" in line]
    assert counts and "fallback_" in counts[0] and "answers" not in counts[0], res.stdout
