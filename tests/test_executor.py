"""Executors: the same outputs whether the work runs here or on a real Dask LocalCluster, and
a failed shard of people re-run alone."""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections import Counter
from collections.abc import Sequence
from multiprocessing import synchronize
from pathlib import Path

import numpy as np
import pytest

from occbio.align.encoders import register
from occbio.align.shards import shard_count, shard_of
from occbio.cli import main
from occbio.executor import DaskExecutor, LocalExecutor, OrderedPool, open_executor

#: Bookkeeping that legitimately differs between runs (times, resume counters, caches).
SKIP = ("manifest.json", ".occbio.lock", "embeddings/", "align/background/")


def outputs(run: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(run.rglob("*")):
        name = path.relative_to(run).as_posix()
        if path.is_file() and not any(name == s or name.startswith(s) for s in SKIP):
            files[name] = path.read_bytes()
    return files


def stage_counts(run: Path) -> dict[str, dict[str, int]]:
    stages = json.loads((run / "manifest.json").read_text())["stages"]
    return {name: record["counts"] for name, record in stages.items()}


def test_shards_are_stable_and_even() -> None:
    assert shard_of("Q42", 1000) == shard_of("Q42", 1000) == 749
    counts = Counter(shard_of(f"Q{i}", 10) for i in range(10_000))
    assert set(counts) == set(range(10)) and min(counts.values()) > 900
    assert (shard_count(0, 1000), shard_count(1000, 1000), shard_count(1001, 1000)) == (1, 1, 2)


def _square(x: int) -> int:
    return x * x


def _scaled(x: int, *, factor: np.ndarray) -> float:
    return float(x * factor.sum())


@pytest.mark.slow
def test_dask_local_cluster_runs_tasks_and_ordered_maps() -> None:
    executor = DaskExecutor(workers=2)
    try:
        assert executor.workers == 2
        got = sorted(executor.run_tasks(_scaled, range(20), shared={"factor": np.ones(3)}))
        assert got == [3.0 * x for x in range(20)]
        with executor.ordered_map(print, (), small=False) as pool:  # print: any initializer
            assert list(pool.map(_square, range(300))) == [x * x for x in range(300)]
    finally:
        executor.close()


def _spec_size(x: int, *, spec: tuple[str, dict[str, int]]) -> int:
    return x + len(spec)


@pytest.mark.slow
def test_calls_sharing_the_same_value_one_after_another_all_run(tmp_path: Path) -> None:
    """The align stage embeds chunk after chunk with the same shared encoder spec: with a key
    from the value's hash, one call's release dropped the next call's data ("lost
    dependencies", nearly every call when they follow at once)."""
    executor = DaskExecutor(workers=2, scratch=tmp_path)
    try:
        for _ in range(20):
            got = sorted(executor.run_tasks(_spec_size, range(8), shared={"spec": ("e", {})}))
            assert got == [x + 2 for x in range(8)]
    finally:
        executor.close()


@pytest.mark.slow
def test_a_local_cluster_keeps_its_scratch_in_the_folder_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system_tmp = tmp_path / "tmp"
    system_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))  # where $TMPDIR would point
    run = tmp_path / "run"
    executor = DaskExecutor(workers=1, scratch=run)
    try:
        (scratch,) = run.iterdir()
        assert scratch.name.startswith(".dask-") and (scratch / "dask-scratch-space").is_dir()
        assert list(executor.run_tasks(_square, [3])) == [9]
    finally:
        executor.close()
    assert list(run.iterdir()) == [] and list(system_tmp.iterdir()) == []


def _no_setup() -> None:
    return None


def test_an_ordered_pool_unlinks_its_semaphores_when_it_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spawned pool's queues hold named semaphores in /dev/shm: gone when the pool closes,
    not only when the process exits (a long run has one pool per stage)."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        pytest.skip("no /dev/shm: named semaphores live elsewhere")
    names: list[str] = []
    real_init = synchronize.SemLock.__init__

    def recording_init(self: synchronize.SemLock, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # the real semaphore; only its name is noted
        names.append(self._semlock.name)

    monkeypatch.setattr(synchronize.SemLock, "__init__", recording_init)

    def alive() -> list[str]:
        return [n for n in names if n and (shm / f"sem.{n.lstrip('/')}").exists()]

    with OrderedPool(2, _no_setup) as pool:
        assert list(pool.map(_square, range(50))) == [x * x for x in range(50)]
        assert alive()
    assert alive() == []


def test_local_executor_runs_tasks_here() -> None:
    executor = open_executor("local", workers=1)
    assert isinstance(executor, LocalExecutor)
    assert list(executor.run_tasks(_scaled, [1, 2], shared={"factor": np.ones(2)})) == [2.0, 4.0]


@pytest.mark.slow
def test_sample_mine_is_byte_identical_on_a_dask_local_cluster(tmp_path: Path) -> None:
    common = ["mine", "--sample", "--langs", "en,es,ca", "--quiet"]
    assert main([*common, "--out", str(tmp_path / "local")]) == 0
    dask = ["--executor", "dask", "--workers", "2"]
    assert main([*common, *dask, "--out", str(tmp_path / "dask")]) == 0
    local, on_dask = outputs(tmp_path / "local"), outputs(tmp_path / "dask")
    assert "align/mined.jsonl" in local and "corpus/corpus.en.xml" in local
    assert sorted(local) == sorted(on_dask)
    assert [name for name in local if local[name] != on_dask[name]] == []
    # the record of what happened too, apart from what the cache held when each began
    cache = ("sentences_embedded", "sentences_from_cache")
    want, got = stage_counts(tmp_path / "local"), stage_counts(tmp_path / "dask")
    for stage in want:
        strip = {k: v for k, v in want[stage].items() if k not in cache}
        assert strip == {k: v for k, v in got[stage].items() if k not in cache}, stage


def test_scheduler_without_dask_is_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["mine", "--sample", "--langs", "en,es", "--out", str(tmp_path / "o")]
    assert main([*args, "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "--scheduler) needs executor = dask (--executor dask)" in err
    assert "Traceback" not in err
    assert not (tmp_path / "o" / "manifest.json").exists()  # nothing ran


@pytest.mark.slow
def test_an_unreachable_scheduler_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["mine", "--sample", "--langs", "en,es", "--out", str(tmp_path / "o")]
    args += ["--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"]  # nothing listens
    assert main(args) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("occbio: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert not any("Traceback" in line for line in err)


# -- a failed shard ----------------------------------------------------------------------------

FAIL_ON: set[str] = set()
ENCODED: list[str] = []


@register("test-words")
class _WordEncoder:
    """Bag of hashed words: a deterministic encoder that can be told to fail on a sentence."""

    name = "test-words"
    dim = 64
    default_threshold = 1.0
    acceptance_rules = {("language", "ratio"): (1.0, None)}  # noqa: RUF012
    pool_drift: dict[tuple[str, int], float] = {}  # noqa: RUF012

    def __init__(self, **_: object) -> None:
        pass

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        out = np.zeros((len(sentences), self.dim), np.float32)
        for row, sentence in enumerate(sentences):
            if sentence in FAIL_ON:
                raise RuntimeError(f"encoder failed on {sentence!r}")
            ENCODED.append(sentence)
            for word in sentence.lower().split():
                bucket = hashlib.blake2b(word.encode(), digest_size=2).digest()
                out[row, int.from_bytes(bucket, "big") % self.dim] += 1.0
        out[:, 0] += 0.1  # no zero rows
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def supports(self, lang: str) -> bool:
        return True


def _documents(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            words = [f"w{i}x{j}" for j in range(6)]
            for lang in ("en", "es"):
                sentences = [f"{' '.join(words[:3])} {lang}", f"{' '.join(words[3:])} {lang}"]
                row = {"doc": f"D{i}", "lang": lang, "sentences": sentences}
                fh.write(json.dumps(row) + "\n")
    return path


def test_a_failed_shard_is_mined_again_alone(tmp_path: Path) -> None:
    docs = _documents(tmp_path / "docs.jsonl", 12)
    config = tmp_path / "small-shards.toml"
    config.write_text("[align]\nblock_docs = 2\n")
    args = ["align", "--input", str(docs), "--langs", "en,es", "--encoder", "test-words"]
    args += ["--scope", "document", "--threshold", "1.0"]  # every sentence encoded in a shard
    args += ["--config", str(config), "--quiet"]
    ENCODED.clear()
    assert main([*args, "--out", str(tmp_path / "clean")]) == 0
    clean_encoded = len(ENCODED)

    out = tmp_path / "failed"
    FAIL_ON.add("w7x3 w7x4 w7x5 es")  # one sentence of one person
    try:
        assert main([*args, "--out", str(out)]) == 1
    finally:
        FAIL_ON.clear()
    record = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    assert record["status"] == "failed" and "encoder failed" in record["error"]
    shards = out / ".parts" / "align" / "shards"
    done_before = sorted(p.name for p in shards.glob("*.json"))
    # 12 people in 6 shards (one empty), mined in order here: 0 and 1 before the failing 2
    assert done_before == ["00000.json", "00001.json", "00005.json"]

    (shards / "00001.json").write_text("{not json")  # and one finished shard damaged
    ENCODED.clear()
    assert main([*args, "--out", str(out)]) == 0
    assert 0 < len(ENCODED) < clean_encoded  # only the shards that were not done
    for name in ("alignments.jsonl", "alignments.tsv", "align/mined.jsonl"):
        assert (out / name).read_bytes() == (tmp_path / "clean" / name).read_bytes(), name
    assert not shards.exists()
    counts = json.loads((out / "manifest.json").read_text())["stages"]["align"]["counts"]
    assert counts["align_shards_mined_again"] == 1
