"""Issue #30, item 1: `--target-precision P` chooses the floor on P(parallel) from the run's own
mined tuples so that what is kept is expected to be at least P precise (and, among such floors,
has the best expected F1); the manifest and the data card give its expected precision and
recall; it re-selects from align/mined.jsonl without encoding."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from occbio.align.calibration import floor_for_precision
from occbio.cli import main


def test_the_floor_keeps_an_expected_precision_of_at_least_the_target() -> None:
    rng = random.Random(7)
    probs = [rng.betavariate(0.4, 0.2) for _ in range(2000)]
    for target in (0.80, 0.90, 0.95, 0.98, 0.99):
        floor = floor_for_precision(probs, target)
        kept = [p for p in probs if p >= floor.floor]
        assert len(kept) == floor.kept > 0
        assert sum(kept) / len(kept) >= target
        assert floor.expected_precision == pytest.approx(sum(kept) / len(kept), abs=1e-4)
        assert floor.expected_recall == pytest.approx(sum(kept) / sum(probs), abs=1e-4)
    floors = [floor_for_precision(probs, t).floor for t in (0.80, 0.90, 0.95, 0.98, 0.99)]
    assert floors == sorted(floors)  # a higher target never keeps more


def test_a_mean_alone_would_admit_junk_the_f1_does_not() -> None:
    """A hundred certain tuples and five of probability 0.01: their mean is above 0.95, but
    none of the five is kept (each is far likelier wrong than right)."""
    floor = floor_for_precision([1.0] * 100 + [0.01] * 5, 0.95)
    assert floor.floor == 1.0 and floor.kept == 100 and floor.expected_precision == 1.0


def test_ties_go_together_and_an_unreachable_target_keeps_nothing() -> None:
    floor = floor_for_precision([0.99, 0.9, 0.9, 0.9, 0.2], 0.9)
    assert floor.kept == 4 and floor.floor == 0.9  # the three 0.9s together
    assert floor_for_precision([0.7, 0.6], 0.95).kept == 0
    assert floor_for_precision([1.0, 0.7, 0.6], 0.95).kept == 1
    empty = floor_for_precision([], 0.9)
    assert empty.kept == 0 and empty.expected_precision is None
    for bad in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="between 0 and 1"):
            floor_for_precision([0.5], bad)


@pytest.mark.slow
def test_target_precision_reselects_and_says_what_it_expects(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    shutil.copytree(mined_sample, out)
    args = ["align", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    record = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    assert record["target_precision"] == 0.98  # the default: a test set
    mined_at = (out / "align" / "mined.jsonl").stat().st_mtime_ns
    for target in (0.9, 0.995):
        assert main([*args, "--target-precision", str(target)]) == 0
        record = json.loads((out / "manifest.json").read_text())["stages"]["align"]
        assert record["target_precision"] == target
        kept = [json.loads(x) for x in (out / "alignments.jsonl").read_text().splitlines()]
        assert kept and all(t["prob"] >= record["min_prob"] for t in kept)
        mean = sum(t["prob"] for t in kept) / len(kept)
        assert record["expected_precision"] == pytest.approx(mean, abs=1e-4) and mean >= target
        assert 0 < record["expected_recall"] <= 1
    assert (out / "align" / "mined.jsonl").stat().st_mtime_ns == mined_at  # nothing mined
    write = ["write", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    assert main([*write, "--target-precision", "0.995"]) == 0
    card = (out / "DATACARD.md").read_text()
    assert "target precision 0.995" in card
    assert f"expected recall {record['expected_recall']:.3f}" in card
    capsys.readouterr()
    assert main(["stats", "--sample", "--langs", "en,es,ca", "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "expected precision / recall by target" in shown
    (chosen,) = [line for line in shown.splitlines() if line.endswith("<- this run")]
    assert chosen.split()[:2] == ["0.995", f"{record['min_prob']:.4f}"]
    assert main([*args, "--target-precision", "0.9", "--min-prob", "0.5"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "give one" in err[0]
    assert main([*args, "--target-precision", "1"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "target_precision" in err[0] and "Traceback" not in err[0]
