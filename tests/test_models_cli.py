"""`occbio models`: names, which files a download takes, a real download from a local
Hugging Face Hub server (huggingface_hub's own client over loopback), and the one-line error
when the network is not there."""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("huggingface_hub")

from occbio.cli import main
from occbio.models import KNOWN_MODELS, ModelsError, pick_files, resolve_repo

#: The file listing of sentence-transformers/LaBSE as the Hub shows it (names only).
LABSE_FILES = [
    ".gitattributes", "1_Pooling/config.json", "2_Dense/config.json",
    "2_Dense/model.safetensors", "2_Dense/pytorch_model.bin", "3_Normalize/config.json",
    "README.md", "config.json", "config_sentence_transformers.json", "model.safetensors",
    "modules.json", "onnx/model.onnx", "openvino/openvino_model.bin", "pytorch_model.bin",
    "sentence_bert_config.json", "special_tokens_map.json", "tf_model.h5", "tokenizer.json",
    "tokenizer_config.json", "vocab.txt",
]  # fmt: skip


def test_short_names_and_repository_ids() -> None:
    assert resolve_repo("labse") == "sentence-transformers/LaBSE"
    assert resolve_repo("E5-Large") == "intfloat/multilingual-e5-large"
    assert resolve_repo("bge-m3") == "BAAI/bge-m3"
    assert resolve_repo("someone/my-model.v2") == "someone/my-model.v2"
    for bad in ("labse2", "../etc", "a/b/c", ""):
        with pytest.raises(ModelsError, match="unknown model"):
            resolve_repo(bad)


def test_pick_files_takes_one_copy_of_the_weights() -> None:
    assert pick_files(LABSE_FILES) == [
        "1_Pooling/config.json", "2_Dense/config.json", "2_Dense/model.safetensors",
        "3_Normalize/config.json", "config.json", "config_sentence_transformers.json",
        "model.safetensors", "modules.json", "sentence_bert_config.json",
        "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt",
    ]  # fmt: skip
    # a repository with .bin weights only (and a sharded one) keeps them
    assert pick_files(["config.json", "pytorch_model.bin", "colbert_linear.pt"]) == [
        "config.json",
        "pytorch_model.bin",
    ]
    sharded = ["config.json", "model-00001-of-00002.safetensors",
               "model-00002-of-00002.safetensors", "model.safetensors.index.json"]  # fmt: skip
    assert pick_files(sharded) == sorted(sharded)


def test_models_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    for name, (repo, _, _) in KNOWN_MODELS.items():
        assert name in out and repo in out
    assert '"query: "' in out and "laser2" in out


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_download_offline_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    endpoint = f"http://127.0.0.1:{_closed_port()}"
    assert main(["models", "download", "labse", str(tmp_path / "m"), "--endpoint", endpoint]) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: cannot download sentence-transformers/LaBSE from ")
    assert "Is the network reachable" in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert main(["models", "download", "no-such-name", str(tmp_path / "m")]) == 1
    assert "unknown model 'no-such-name'" in capsys.readouterr().err


# -- a local Hub ----------------------------------------------------------------------------

COMMIT = "0123456789abcdef0123456789abcdef01234567"
#: Fields of the Hub's model info that huggingface_hub clients (0.23 on) require.
MODEL_INFO = {"private": False, "downloads": 0, "likes": 0, "tags": [], "gated": False,
              "disabled": False, "lastModified": "2024-01-01T00:00:00.000Z"}  # fmt: skip


def _tree_entry(name: str, body: bytes) -> dict[str, object]:
    return {"type": "file", "path": name, "size": len(body), "oid": hashlib.sha1(body).hexdigest()}


@contextmanager
def serve_hub(repos: dict[str, dict[str, bytes]]) -> Iterator[tuple[str, list[str]]]:
    """The Hub's model API for ``{repo: {path: content}}``: file tree, revision, resolve."""
    log: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _reply(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, data: object) -> None:
            self._reply(200, json.dumps(data).encode(), {"Content-Type": "application/json"})

        def do_GET(self) -> None:
            log.append(f"{self.command} {self.path}")
            path = self.path.split("?")[0]
            for repo, files in repos.items():
                api = f"/api/models/{repo}/"
                if path.startswith(api + "tree/"):
                    tree = [_tree_entry(name, body) for name, body in files.items()]
                    return self._json(tree)
                if path.startswith(api + "revision/") or path == api.rstrip("/"):
                    siblings = [{"rfilename": name} for name in files]
                    info = {"id": repo, "sha": COMMIT, "siblings": siblings, **MODEL_INFO}
                    return self._json(info)
                resolve = f"/{repo}/resolve/"
                if path.startswith(resolve):
                    name = path[len(resolve) :].partition("/")[2]
                    if name in files:
                        body = files[name]
                        etag = f'"{hashlib.sha256(body).hexdigest()}"'
                        return self._reply(200, body, {"X-Repo-Commit": COMMIT, "ETag": etag})
            self._reply(404, b'{"error": "Repository not found"}', {"X-Error-Code": "RepoNotFound"})

        do_HEAD = do_GET

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", log
    finally:
        server.shutdown()
        server.server_close()


def test_download_from_a_hub_takes_what_the_encoder_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    files = {name: f"content of {name}".encode() for name in LABSE_FILES}
    dest = tmp_path / "labse"
    with serve_hub({"sentence-transformers/LaBSE": files}) as (endpoint, log):
        assert main(["models", "download", "labse", str(dest), "--endpoint", endpoint]) == 0
        out = capsys.readouterr().out
        assert f"--encoder hf --model-dir {dest}" in out
        got = sorted(
            p.relative_to(dest).as_posix()
            for p in dest.rglob("*")
            if p.is_file() and not p.relative_to(dest).parts[0].startswith(".")  # hub metadata
        )
        assert got == pick_files(LABSE_FILES)
        assert (dest / "vocab.txt").read_bytes() == b"content of vocab.txt"
        assert not any("onnx" in line or "tf_model" in line for line in log)
        # an unknown repository: one line, exit 1
        none = ["models", "download", "acme/none", str(tmp_path / "x"), "--endpoint", endpoint]
        assert main(none) == 1
        err = capsys.readouterr().err
        assert "cannot download acme/none" in err and "no such repository" in err
        assert err.count("\n") == 1
