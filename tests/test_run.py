"""The run directory: atomic writes, manifest, checkpointed chunks that survive a kill."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from occbio.records import Sentence
from occbio.run import (
    BatchLog,
    ChunkedWriter,
    ManifestError,
    RunDir,
    atomic_write,
    file_sum,
    fingerprint,
)
from occbio.runlock import RunDirError


def test_atomic_write_leaves_nothing_on_error(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_write(target) as fh:
        fh.write("half a file")
        raise RuntimeError("boom")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]


def test_atomic_write_replaces(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "out.txt"
    with atomic_write(target) as fh:
        fh.write("new")
    assert target.read_text() == "new"


def test_fingerprint_is_stable_and_sensitive() -> None:
    assert fingerprint({"a": 1, "b": [1, 2]}) == fingerprint({"b": [1, 2], "a": 1})
    assert fingerprint({"a": 1}) != fingerprint({"a": 2})


def test_manifest_records_versions_and_config(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "r", config={"langs": ["en"]})
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["config"] == {"langs": ["en"]}
    assert "python" in manifest["versions"] and "occbio" in manifest["versions"]
    assert run.stage_record("entities") == {}


def test_corrupt_manifest_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(RuntimeError, match="not valid JSON"):
        RunDir(tmp_path)


def _sentences(i: int) -> list[Sentence]:
    return [Sentence("Q1", "en", i, f"sentence {i}")]


def test_stage_done_only_with_same_fingerprint_and_outputs(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    st = run.stage("text")
    assert st.begin("fp1", inputs={}, settings={}) is False
    (tmp_path / "a.jsonl").write_text("")
    st.finish(counts={"n": 1}, outputs=["a.jsonl"])
    assert st.is_done("fp1")
    assert not st.is_done("fp2")
    (tmp_path / "a.jsonl").unlink()
    assert not st.is_done("fp1"), "a missing output means the stage must run again"


def test_chunked_writer_resumes_after_simulated_kill(tmp_path: Path) -> None:
    """Items 0..9 with chunks of 3: 'kill' after 7 items (6 committed), resume, compare."""
    final = tmp_path / "s.jsonl"

    def reference() -> bytes:
        ref_run = RunDir(tmp_path / "ref")
        st = ref_run.stage("x")
        st.begin("fp", inputs={}, settings={})
        w = ChunkedWriter(st, "k", {"s": tmp_path / "ref.jsonl"}, chunk_size=3, stats=Counter())
        for i in range(10):
            w.add({"s": _sentences(i)})
        w.finish()
        return (tmp_path / "ref.jsonl").read_bytes()

    run = RunDir(tmp_path / "run")
    st = run.stage("x")
    assert st.begin("fp", inputs={}, settings={}) is False
    stats: Counter[str] = Counter()
    w = ChunkedWriter(st, "k", {"s": final}, chunk_size=3, stats=stats)
    for i in range(7):
        stats["items"] += 1
        w.add({"s": _sentences(i)})
    # killed here: item 6 is buffered only; a stray part file from an unrecorded commit exists
    (w.parts_dir / "s.000099.jsonl").write_text("garbage\n")
    assert not final.exists()

    run2 = RunDir(tmp_path / "run")
    st2 = run2.stage("x")
    assert st2.begin("fp", inputs={}, settings={}) is True
    stats2: Counter[str] = Counter()
    w2 = ChunkedWriter(st2, "k", {"s": final}, chunk_size=3, stats=stats2)
    assert w2.consumed == 6
    assert stats2["items"] == 6, "counters restart from the last committed snapshot"
    for i in range(10):
        if i < w2.consumed:
            continue
        stats2["items"] += 1
        w2.add({"s": _sentences(i)})
    w2.finish()
    assert final.read_bytes() == reference()
    assert stats2["items"] == 10
    assert not w2.parts_dir.exists()


def test_a_kill_while_finishing_leaves_the_parts_to_join_again(tmp_path: Path) -> None:
    """Killed after the final file is joined but before the manifest says so: the resumed
    writer still has every committed part and joins them again."""
    final = tmp_path / "s.jsonl"
    run = RunDir(tmp_path / "run")
    st = run.stage("x")
    st.begin("fp", inputs={}, settings={})
    w = ChunkedWriter(st, "k", {"s": final}, chunk_size=2, stats=Counter())
    for i in range(5):
        w.add({"s": _sentences(i)})
    w.commit()
    expected = b"".join(p.read_bytes() for p in sorted(w.parts_dir.iterdir()))

    def killed() -> None:
        raise KeyboardInterrupt

    run.save = killed  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        w.finish()
    assert final.read_bytes() == expected and w.parts_dir.exists()

    st2 = RunDir(tmp_path / "run").stage("x")
    assert st2.begin("fp", inputs={}, settings={}) is True
    w2 = ChunkedWriter(st2, "k", {"s": final}, chunk_size=2, stats=Counter())
    assert (w2.done, w2.consumed) == (False, 5)
    w2.finish()
    assert final.read_bytes() == expected and not w2.parts_dir.exists()


def test_new_fingerprint_discards_old_checkpoints(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    st = run.stage("x")
    st.begin("fp1", inputs={}, settings={})
    w = ChunkedWriter(st, "k", {"s": tmp_path / "s.jsonl"}, chunk_size=1, stats=Counter())
    w.add({"s": _sentences(0)})
    assert st.begin("fp2", inputs={}, settings={}) is False
    w2 = ChunkedWriter(st, "k", {"s": tmp_path / "s.jsonl"}, chunk_size=1, stats=Counter())
    assert w2.consumed == 0 and w2.chunks == 0


def test_finished_key_whose_output_vanished_starts_again(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    st = run.stage("x")
    st.begin("fp", inputs={}, settings={})
    out = tmp_path / "s.jsonl"
    w = ChunkedWriter(st, "k", {"s": out}, chunk_size=2, stats=Counter())
    for i in range(3):
        w.add({"s": _sentences(i)})
    w.finish()
    out.unlink()
    w2 = ChunkedWriter(st, "k", {"s": out}, chunk_size=2, stats=Counter())
    assert (w2.done, w2.consumed, w2.chunks) == (False, 0, 0)
    for i in range(3):
        w2.add({"s": _sentences(i)})
    w2.finish()
    assert out.read_text().count("\n") == 3


def test_require_done_names_what_to_run_first(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    with pytest.raises(RuntimeError, match=r"the text stage needs the entities stage first"):
        run.require_done("entities", needed_by="text")
    st = run.stage("entities")
    st.begin("fp", inputs={}, settings={})
    st.finish(counts={"people": 2}, outputs=[])
    assert run.require_done("entities", needed_by="text")["counts"] == {"people": 2}


def test_a_rerun_removes_the_outputs_it_does_not_write_again(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    for name in ("a.txt", "b.txt"):
        (run.path / name).write_text(name)
    (tmp_path / "outside.txt").write_text("not ours")
    st = run.stage("write")
    st.begin("fp1", inputs={}, settings={})
    st.finish(counts={}, outputs=["a.txt", "b.txt", "../outside.txt"])
    st.begin("fp2", inputs={}, settings={})  # another setting: b.txt is not written again
    assert (run.path / "b.txt").exists(), "nothing is removed before the stage finishes"
    st.finish(counts={}, outputs=["a.txt"])
    assert (run.path / "a.txt").exists() and not (run.path / "b.txt").exists()
    assert (tmp_path / "outside.txt").exists(), "never a file outside the run directory"
    assert "previous_outputs" not in run.stage_record("write")


def test_finish_removes_the_temporaries_a_kill_left(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / ".c.tsv.abc123.tmp").write_text("half")
    (tmp_path / "corpus" / ".other.tsv.x.tmp").write_text("not this stage's")
    st = run.stage("write")
    st.begin("fp", inputs={}, settings={})
    (tmp_path / "corpus" / "c.tsv").write_text("whole")
    st.finish(counts={}, outputs=["corpus/c.tsv"])
    assert sorted(p.name for p in (tmp_path / "corpus").iterdir()) == [
        ".other.tsv.x.tmp",
        "c.tsv",
    ]


def test_a_manifest_temporary_left_by_a_kill_is_removed_on_open(tmp_path: Path) -> None:
    RunDir(tmp_path)
    (tmp_path / ".manifest.json.k1ll3d.tmp").write_text('{"half": ')
    RunDir(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json"]


def test_a_manifest_field_of_the_wrong_type_is_named(tmp_path: Path) -> None:
    for field, stage in [
        ("stages.x.counts.n", {"counts": {"n": "1"}}),
        ("stages.x.progress.k.consumed", {"progress": {"k": {"consumed": -1}}}),
        ("stages.x.checksums.a.size", {"checksums": {"a": {"size": 1.5, "sha256": "0"}}}),
    ]:
        (tmp_path / "manifest.json").write_text(json.dumps({"stages": {"x": stage}}))
        with pytest.raises(
            ManifestError, match=rf"manifest.json is not an occbio manifest: {field}: "
        ):
            RunDir(tmp_path)


def test_an_output_changed_since_its_stage_finished_is_not_done(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    run = RunDir(tmp_path)
    st = run.stage("x")
    st.begin("fp", inputs={}, settings={})
    (tmp_path / "a.txt").write_text("abcd")
    st.finish(counts={}, outputs=["a.txt"])
    assert run.stage_record("x")["checksums"]["a.txt"]["size"] == 4
    assert st.is_done("fp")
    (tmp_path / "a.txt").write_text("abce")
    assert not st.is_done("fp")
    assert "x: a.txt changed since the stage finished (its content changed" in caplog.text
    (tmp_path / "a.txt").write_text("ab")
    assert not st.is_done("fp")
    assert "(it has 2 bytes, 4 when written)" in caplog.text


def _write_items(w: ChunkedWriter, stats: Counter[str], items: range) -> None:
    for i in items:
        stats["items"] += 1
        w.add({"s": _sentences(i)})


def test_a_finished_writer_gives_back_its_counters(tmp_path: Path) -> None:
    """A kill after a writer finished but before its stage did: the stage, run again, skips
    the writer's input and still has its counters."""
    st = RunDir(tmp_path).stage("x")
    st.begin("fp", inputs={}, settings={})
    stats: Counter[str] = Counter()
    w = ChunkedWriter(st, "k", {"s": tmp_path / "s.jsonl"}, chunk_size=3, stats=stats)
    _write_items(w, stats, range(7))
    w.finish()
    recorded = st.record["progress"]["k"]["checksums"]["s"]
    assert recorded == file_sum(tmp_path / "s.jsonl"), "hashed while joined, as file_sum would"
    st2 = RunDir(tmp_path).stage("x")
    assert st2.begin("fp", inputs={}, settings={}) is True
    again: Counter[str] = Counter()
    w2 = ChunkedWriter(st2, "k", {"s": tmp_path / "s.jsonl"}, chunk_size=3, stats=again)
    assert w2.done and again == Counter({"items": 7})


def test_a_damaged_committed_part_is_written_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    final = tmp_path / "s.jsonl"
    st = RunDir(tmp_path / "run").stage("x")
    st.begin("fp", inputs={}, settings={})
    stats: Counter[str] = Counter()
    w = ChunkedWriter(st, "k", {"s": final}, chunk_size=3, stats=stats)
    _write_items(w, stats, range(7))  # killed here: two parts committed
    (damaged,) = w.parts_dir.glob("s.000001.*.jsonl")
    damaged.write_text(damaged.read_text().replace("sentence", "sentense"))

    st2 = RunDir(tmp_path / "run").stage("x")
    st2.begin("fp", inputs={}, settings={})
    stats2: Counter[str] = Counter()
    w2 = ChunkedWriter(st2, "k", {"s": final}, chunk_size=3, stats=stats2)
    assert f"the committed part {damaged} is damaged" in caplog.text
    assert (w2.consumed, w2.chunks, stats2["items"]) == (0, 0, 0), "the key starts again"
    _write_items(w2, stats2, range(10))
    w2.finish()
    assert final.read_text().splitlines() == [
        json.dumps(s.to_dict()) for i in range(10) for s in _sentences(i)
    ]
    assert stats2["items"] == 10


def test_a_part_changed_during_the_run_stops_the_join(tmp_path: Path) -> None:
    final = tmp_path / "s.jsonl"
    st = RunDir(tmp_path / "run").stage("x")
    st.begin("fp", inputs={}, settings={})
    w = ChunkedWriter(st, "k", {"s": final}, chunk_size=2, stats=Counter())
    _write_items(w, Counter(), range(5))
    (part,) = w.parts_dir.glob("s.000000.*.jsonl")
    part.write_text("{}\n")
    with pytest.raises(RuntimeError, match=rf"{part} changed after it was committed"):
        w.finish()
    assert not final.exists() and not st.run.stage_record("x")["progress"]["k"].get("done")


def test_a_damaged_batch_log_line_is_logged_and_what_follows_fetched_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "batches.jsonl"
    lines = [json.dumps({"key": "a", "result": [1]}), '{"key": 5}', "[]",
             json.dumps({"key": "c", "result": None})]  # fmt: skip
    path.write_text("\n".join(lines) + "\n")
    assert BatchLog(path).load() == {"a": [1]}
    assert f"{path}:2 is damaged" in caplog.text
    assert path.read_text() == lines[0] + "\n"


def test_a_symbolic_link_out_of_the_run_directory_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "corpus").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (run / "corpus" / "corpus.tsv").symlink_to(outside / "mine.tsv")  # dangling: refused too
    with pytest.raises(RunDirError, match=r"corpus.tsv is a symbolic link to .*outside/mine"):
        RunDir(run)
    (run / "corpus" / "corpus.tsv").unlink()
    (run / "embeddings").symlink_to(outside, target_is_directory=True)
    with pytest.raises(RunDirError, match=r"embeddings is a symbolic link to .*outside"):
        RunDir(run)
    (run / "embeddings").unlink()
    (run / "latest").symlink_to(run / "corpus", target_is_directory=True)  # inside: fine
    RunDir(run)
