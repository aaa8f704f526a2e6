"""A local Hugging Face model directory as ``--encoder hf`` sees it, before any model loads.

* which files define the vectors (:func:`model_files`): configuration, tokenizer and
  vocabulary files and the weights transformers would load, at the top and in each
  sentence-transformers module folder of ``modules.json``;
* their content fingerprint (:func:`model_fingerprint`), which keys run signatures and the
  embedding cache; file digests are remembered per process by (path, size, mtime);
* the model's label for the encoder's name (``_label``, ``_slug``);
* the one-line checks that the directory holds a usable model (``_check_directory``), and
  the advice on getting one (``_GET_MODEL``).

Pure file reading: no torch, no transformers. Kept apart from :mod:`occbio.align.hf_encoder`,
which loads and runs the model and imports these helpers; it re-exports :func:`model_files`
and :func:`model_fingerprint`, so they stay importable from there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from pathlib import Path
from typing import Any

from occbio.align.laser import EncoderUnavailable

__all__ = [
    "model_files",
    "model_fingerprint",
]

# Logged as the encoder these helpers serve, as before the split: the logger users filter on
# stays.
log = logging.getLogger("occbio.align.hf_encoder")

_GET_MODEL = (
    "occbio models download NAME DIR (NAME: labse, e5-base, e5-large, bge-m3 or a Hugging "
    "Face repo id; needs the network) or copy a model directory from a machine that has one"
)

#: Files read by transformers / sentence-transformers besides the weights (any directory
#: level): configuration, tokenizer, vocabularies.
_SMALL_SUFFIXES = (".json", ".txt", ".model")
#: Weight files, most preferred first: transformers loads safetensors when there are any (a
#: sharded model's index files are ``.json``, so they count among the small files).
_WEIGHT_GLOBS = ("model*.safetensors", "pytorch_model*.bin")
_SKIP_NAMES = frozenset({"README.md", ".gitattributes"})
_CHUNK = 1 << 20


def _weight_files(directory: Path) -> list[Path]:
    """The weight files transformers would load from ``directory`` (empty when none)."""
    for pattern in _WEIGHT_GLOBS:
        found = sorted(p for p in directory.glob(pattern) if p.is_file())
        if found:
            return found
    return []


def _module_dirs(directory: Path) -> list[Path]:
    """The directory itself and the sentence-transformers module folders of ``modules.json``."""
    dirs = [directory]
    modules = directory / "modules.json"
    if modules.is_file():
        try:
            entries = json.loads(modules.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise EncoderUnavailable(f"{modules} is not valid JSON ({exc})") from None
        for entry in entries if isinstance(entries, list) else []:
            path = entry.get("path") if isinstance(entry, dict) else None
            if path and (directory / path).is_dir():
                dirs.append(directory / path)
    return dirs


def model_files(model_dir: str | os.PathLike[str]) -> list[Path]:
    """The files that define a model directory's vectors, sorted: configuration, tokenizer
    and vocabulary files and the weights that get loaded (safetensors over ``.bin``), at the
    top and in each sentence-transformers module folder. ONNX/TF/Flax copies, READMEs and
    other folders are left out."""
    directory = Path(model_dir)
    files: set[Path] = set()
    for folder in _module_dirs(directory):
        for path in folder.iterdir():
            if path.is_file() and path.suffix in _SMALL_SUFFIXES and path.name not in _SKIP_NAMES:
                files.add(path)
        files.update(_weight_files(folder))
    return sorted(files)


_DIGESTS: dict[tuple[str, int, int], str] = {}


def _file_digest(path: Path) -> str:
    """SHA-256 of a file's content, remembered per process by (path, size, mtime)."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    digest = _DIGESTS.get(key)
    if digest is None:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                h.update(chunk)
        digest = _DIGESTS[key] = h.hexdigest()
    return digest


def model_fingerprint(model_dir: str | os.PathLike[str], **settings: Any) -> str:
    """A hex digest of the content of :func:`model_files` (with their relative paths) and of
    ``settings`` (JSON-serialisable): equal only for the same files and settings."""
    directory = Path(model_dir)
    started = time.perf_counter()
    h = hashlib.sha256()
    for path in model_files(directory):
        h.update(f"{path.relative_to(directory).as_posix()}\0{_file_digest(path)}\n".encode())
    h.update(json.dumps(settings, sort_keys=True).encode())
    log.debug("hf: fingerprinted %s in %.1f s", directory, time.perf_counter() - started)
    return h.hexdigest()


def _label(directory: Path) -> str:
    """The model's directory name; for a Hugging Face cache snapshot
    (``models--owner--name/snapshots/<commit>``), ``owner--name``."""
    parent = directory.parent
    if parent.name == "snapshots" and parent.parent.name.startswith("models--"):
        return parent.parent.name[len("models--") :]
    return directory.name


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9._]+", "-", name.lower()).strip("-.")
    return slug[:40] or "model"


def _check_directory(directory: Path) -> None:
    """A one-line :class:`EncoderUnavailable` when ``directory`` is no usable model."""
    if not directory.exists():
        raise EncoderUnavailable(
            f"model directory {directory} (--model-dir) does not exist; get a model with "
            f"{_GET_MODEL}"
        )
    if not directory.is_dir():
        raise EncoderUnavailable(f"model directory {directory} (--model-dir) is a file")
    # a sentence-transformers model may keep its transformer in a module folder (0_Transformer)
    folders = _module_dirs(directory)
    if not any((folder / "config.json").is_file() for folder in folders):
        raise EncoderUnavailable(
            f"model directory {directory} (--model-dir) holds no Hugging Face model (no "
            f"config.json); get one with {_GET_MODEL}"
        )
    if not any(_weight_files(folder) for folder in folders):
        raise EncoderUnavailable(
            f"model directory {directory} (--model-dir) has no weights (model.safetensors or "
            f"pytorch_model.bin; an interrupted download?); get them with {_GET_MODEL}"
        )
