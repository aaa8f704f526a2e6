"""Any sentence-transformers or Hugging Face encoder in a local directory (``--encoder hf``).

LaBSE, multilingual-e5-base/large, bge-m3 and the like: the directory is what
``occbio models download NAME DIR`` (or the Hub's own download command with ``--local-dir``)
leaves. Nothing is ever downloaded here: every load passes ``local_files_only=True``.

Two backends, chosen by the directory:

* a **sentence-transformers** model (it has ``modules.json``: LaBSE, e5, bge-m3 as published)
  is run by sentence-transformers itself, so its own pooling, dense layers and normalisation
  apply exactly as its authors saved them;
* any other transformers model is run with ``AutoModel`` + ``AutoTokenizer`` and pooled here:
  the mean of the token vectors (``pooling="mean"``, the default) or the first token's
  (``pooling="cls"``).

Rows are L2-normalised float32. Sentences are sorted by length before batching (by tokens
here, by characters inside sentence-transformers) and put back in order, so little time goes
to padding and the result does not depend on the batch size beyond float rounding. On a GPU
the model runs in fp16 (``fp16=None`` means: on CUDA yes, on the CPU no).

The encoder's :attr:`~HFEncoder.name` is ``hf-<directory name>-<fingerprint>``, with ``-fp16``
appended when it runs in fp16. The fingerprint hashes the content of the files that define
the vectors (configuration, tokenizer, the weights that get loaded, sentence-transformers
module files) and the settings that change them (backend, prefix, pooling, maximum length):
another model, or the same one with another prefix, never reuses cached vectors.

No acceptance threshold has been measured for these models, so none is assumed: runs with
``--encoder hf`` need ``--threshold`` (see docs/encoders.md for how to pick one).

The directory's side (which files define the vectors, their fingerprint, the label in the
name, the checks that it holds a model) lives in :mod:`occbio.align.hf_model_dir`, plain file
reading; this module loads and runs the model. :func:`model_files` and
:func:`model_fingerprint` are re-exported from there.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from occbio.align.cpu_encoders import XLMR_LANGS
from occbio.align.encoders import EncoderUnavailable, torch_device
from occbio.align.hf_model_dir import (
    _GET_MODEL,
    _check_directory,
    _label,
    _module_dirs,
    _slug,
    model_files,
    model_fingerprint,
)

__all__ = [
    "HF_INSTALL_HINT",
    "HFEncoder",
    "model_files",
    "model_fingerprint",
]

log = logging.getLogger(__name__)

#: The one install advice for ``--encoder hf``, here, in the CLI and in the README.
HF_INSTALL_HINT = (
    'pip install "occbio[hf]" (transformers and sentence-transformers; for a CPU-only torch, '
    "which is much smaller, first run: pip install torch --index-url "
    "https://download.pytorch.org/whl/cpu)"
)

#: Model types built on XLM-R (multilingual-e5, bge-m3): XLM-R's training languages.
_XLMR_TYPES = frozenset({"xlm-roberta", "xlm-roberta-xl"})


def _import_backend(sentence_transformers: bool) -> tuple[Any, Any]:
    """torch and transformers (or sentence-transformers), their absence as an install hint."""
    try:
        import torch

        if sentence_transformers:
            import sentence_transformers as backend
        else:
            import transformers as backend
    except ImportError as exc:
        backend_name = "sentence-transformers" if sentence_transformers else "transformers"
        raise EncoderUnavailable(
            f"encoder 'hf' needs torch and {backend_name} ({exc.name or exc} does not import): "
            f"{HF_INSTALL_HINT}"
        ) from exc
    return torch, backend


@contextmanager
def _quiet_loading() -> Iterator[None]:
    """No download/loading progress bars while a model loads (the align stage has its own)."""
    try:
        from transformers.utils import logging as tf_logging
    except ImportError:  # pragma: no cover - transformers is imported before this
        yield
        return
    was_enabled = tf_logging.is_progress_bar_enabled()
    tf_logging.disable_progress_bar()
    st_log = logging.getLogger("sentence_transformers")  # "Loading SentenceTransformer ..."
    level = st_log.level
    st_log.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        st_log.setLevel(level)
        if was_enabled:
            tf_logging.enable_progress_bar()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


class HFEncoder:
    """A local sentence-transformers / transformers model: ``encode(sentences, lang)`` ->
    float32 ``(n, dim)`` with unit rows.

    ``model_dir``: the model directory. ``device``: ``cpu``, ``cuda`` or ``auto`` (CUDA when
    torch sees a GPU). ``prefix``: text put before every sentence, e.g. ``"query: "`` for the
    e5 family (their recipe for symmetric tasks); with sentence-transformers it is passed as
    the prompt, so a model that excludes the prompt from pooling does so. ``pooling``:
    ``mean`` (default) or ``cls``, for plain transformers models only (a sentence-transformers
    model pools as it was saved). ``max_length``: tokens kept per sentence (default: the
    model's own limit). ``fp16``: half precision (default: on CUDA only). ``batch_size``:
    sentences per forward pass. ``num_threads``: torch CPU threads during :meth:`encode`
    (default: torch's).

    Building loads the model and encodes one probe sentence, so a broken directory fails
    here with :class:`EncoderUnavailable`, never in the middle of a run.
    """

    #: No threshold has been measured for an arbitrary model: runs need ``--threshold``.
    default_threshold: float | None = None
    default_distance_threshold: float | None = None
    acceptance_rules: ClassVar[dict[tuple[str, str], tuple[float, float | None]]] = {}

    def __init__(
        self,
        model_dir: str | os.PathLike[str],
        *,
        device: str = "cpu",
        batch_size: int = 128,
        prefix: str = "",
        pooling: str | None = None,
        max_length: int | None = None,
        fp16: bool | None = None,
        num_threads: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        if max_length is not None and max_length < 2:
            raise ValueError(f"max_length must be >= 2, not {max_length}")
        if num_threads is not None and num_threads < 1:
            raise ValueError(f"num_threads must be >= 1 or None, not {num_threads}")
        if pooling not in (None, "mean", "cls"):
            raise ValueError(f"pooling must be 'mean' or 'cls', not {pooling!r}")
        directory = Path(model_dir).expanduser()
        _check_directory(directory)
        self.model_dir = directory.resolve()
        self.backend = (
            "sentence-transformers" if (directory / "modules.json").is_file() else "transformers"
        )
        if self.backend == "sentence-transformers" and pooling is not None:
            raise EncoderUnavailable(
                f"{directory} is a sentence-transformers model, which pools as it was saved "
                f"(see its modules.json); pooling {pooling!r} applies to plain transformers "
                "models only: leave it unset"
            )
        self._torch, backend = _import_backend(self.backend == "sentence-transformers")
        self.device = torch_device(device)
        self.fp16 = self.device == "cuda" if fp16 is None else bool(fp16)
        self.batch_size = batch_size
        self.prefix = prefix
        self.pooling = pooling or "mean"
        self.num_threads = num_threads
        self._lock = threading.Lock()
        self._config = self._read_config(directory)
        started = time.perf_counter()
        try:
            with _quiet_loading():
                if self.backend == "sentence-transformers":
                    self._load_sentence_transformers(backend, max_length)
                else:
                    self._load_transformers(backend, max_length)
        except EncoderUnavailable:
            raise
        except Exception as exc:  # a foreign or damaged file fails in many ways inside torch
            raise EncoderUnavailable(
                f"cannot load the model in {directory} ({_first_line(exc)}); if a file is "
                f"damaged, get it again with {_GET_MODEL}"
            ) from exc
        settings = {
            "backend": self.backend,
            "prefix": self.prefix,
            "pooling": self.pooling if self.backend == "transformers" else None,
            "max_length": self.max_length,
        }
        fingerprint = model_fingerprint(directory, **settings)
        self.fingerprint = fingerprint
        #: Written into run signatures and the embedding cache's folder names.
        self.name = f"hf-{_slug(_label(directory.absolute()))}-{fingerprint[:10]}" + (
            "-fp16" if self.fp16 else ""
        )
        try:
            self.dim = int(self.encode(["."], "en").shape[1])
        except Exception as exc:
            raise EncoderUnavailable(
                f"the model in {directory} does not encode ({_first_line(exc)}); is it a text "
                "encoder?"
            ) from exc
        log.info(
            "hf: loaded %s (%s, %d-dim, %s%s) in %.1f s as %s",
            directory,
            self.backend,
            self.dim,
            self.device,
            ", fp16" if self.fp16 else "",
            time.perf_counter() - started,
            self.name,
        )

    @staticmethod
    def _read_config(directory: Path) -> dict[str, Any]:
        """The transformer's config.json (at the top, or in a sentence-transformers module
        folder): its ``model_type`` says which languages it knows."""
        for folder in _module_dirs(directory):
            path = folder / "config.json"
            if not path.is_file():
                continue
            try:
                config = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise EncoderUnavailable(f"{path} is not valid JSON ({exc})") from None
            if isinstance(config, dict) and "model_type" in config:
                return config
        return {}

    def _load_sentence_transformers(self, st: Any, max_length: int | None) -> None:
        model = st.SentenceTransformer(
            str(self.model_dir), device=self.device, local_files_only=True, trust_remote_code=False
        )
        if max_length is not None:
            model.max_seq_length = min(max_length, model.max_seq_length or max_length)
        if self.fp16:
            model.half()
        model.eval()
        self._model = model
        self._tokenizer = None
        self.max_length = int(model.max_seq_length) if model.max_seq_length else None

    def _load_transformers(self, transformers: Any, max_length: int | None) -> None:
        kwargs = {"local_files_only": True, "trust_remote_code": False}
        tokenizer = transformers.AutoTokenizer.from_pretrained(str(self.model_dir), **kwargs)
        model = transformers.AutoModel.from_pretrained(str(self.model_dir), **kwargs)
        limit = getattr(tokenizer, "model_max_length", None)
        if not isinstance(limit, int) or limit > 100_000:  # unset: transformers' huge sentinel
            limit = int(self._config.get("max_position_embeddings", 512))
            if "roberta" in str(self._config.get("model_type", "")):
                limit -= 2  # RoBERTa's positions start after the padding index
        self.max_length = min(limit, max_length) if max_length is not None else limit
        model.to(self.device)
        if self.fp16:
            model.half()
        model.eval()
        self._model = model
        self._tokenizer = tokenizer

    def supports(self, lang: str) -> bool:
        """XLM-R's training languages for XLM-R-based models (e5, bge-m3); any other model's
        coverage is unknown here, so every language passes."""
        if self._config.get("model_type") in _XLMR_TYPES:
            code = lang.strip().lower().replace("_", "-")
            return ("en" if code == "simple" else code) in XLMR_LANGS
        return True

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        """Unit vectors of ``sentences``; ``lang`` is unused (one model for all languages)."""
        del lang
        texts = list(sentences)
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), np.float32)
        torch = self._torch
        with self._lock:
            previous_threads = torch.get_num_threads()
            if self.num_threads is not None:
                torch.set_num_threads(self.num_threads)
            try:
                with torch.inference_mode():
                    if self._tokenizer is None:
                        out = self._encode_sentence_transformers(texts)
                    else:
                        out = self._encode_transformers(texts)
            finally:
                torch.set_num_threads(previous_threads)
        out = np.ascontiguousarray(out, dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.maximum(norms, np.float32(1e-12))
        return out

    def _encode_sentence_transformers(self, texts: list[str]) -> np.ndarray:
        # prompt="" when there is no prefix: a model's default prompt must not slip in
        return np.asarray(
            self._model.encode(
                texts,
                prompt=self.prefix,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=False,
                show_progress_bar=False,
            ),
            dtype=np.float32,
        )

    def _encode_transformers(self, texts: list[str]) -> np.ndarray:
        tokenizer = self._tokenizer
        encoded = tokenizer(
            [self.prefix + t for t in texts], truncation=True, max_length=self.max_length
        )
        lengths = np.array([len(ids) for ids in encoded["input_ids"]])
        order = np.argsort(-lengths, kind="stable")  # longest first: a memory error shows early
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        for start in range(0, len(texts), self.batch_size):
            rows = order[start : start + self.batch_size]
            batch = tokenizer.pad(
                {key: [values[i] for i in rows] for key, values in encoded.items()},
                padding=True,
                return_tensors="pt",
            )
            batch = {key: value.to(self.device) for key, value in batch.items()}
            hidden = self._model(**batch)[0].float()  # last_hidden_state, pooled in fp32
            if self.pooling == "cls":
                pooled = hidden[:, 0]
            else:
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
            parts.append((rows, pooled.cpu().numpy()))
        out = np.empty((len(texts), parts[0][1].shape[1]), np.float32)
        for rows, vectors in parts:
            out[rows] = vectors
        return out

    def describe(self) -> dict[str, Any]:
        """What ``occbio models check`` prints: the name, backend, size and settings."""
        return {
            "name": self.name,
            "model_dir": str(self.model_dir),
            "backend": self.backend,
            "dim": self.dim,
            "device": self.device,
            "fp16": self.fp16,
            "prefix": self.prefix,
            "pooling": self.pooling if self.backend == "transformers" else "(the model's own)",
            "max_length": self.max_length,
            "model_type": self._config.get("model_type"),
        }
