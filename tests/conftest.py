"""Shared fixtures: the real third-party data in ../shared/data (skipped cleanly when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path to ../shared/data; tests that use it are skipped when it is not there."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent (a user's fresh clone has no ../shared)")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _no_proxy_for_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    """A developer's http_proxy must not capture the local test servers."""
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture(scope="session")
def mined_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`occbio mine --sample` (en, es, ca), run once per test session; read it, don't write."""
    from occbio.cli import main

    out = tmp_path_factory.mktemp("mined-sample") / "run"
    assert main(["mine", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]) == 0
    return out
