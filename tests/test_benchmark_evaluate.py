"""benchmarks/evaluate.py: the synthetic run it times is a test set `occbio evaluate` reads as
described (sizes, genders, counterfactuals, systems lined up), and the script runs."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from occbio.evaluate.testset import read_testset


def _load_benchmark() -> ModuleType:
    """benchmarks/evaluate.py under a name no installed package has."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "evaluate.py"
    spec = importlib.util.spec_from_file_location("benchmark_evaluate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load_benchmark()
DATA, build_run, main = bench.DATA, bench.build_run, bench.main
pytestmark = pytest.mark.skipif(not DATA.exists(), reason=f"{DATA} is absent")


def test_the_synthetic_run_is_the_test_set_described(tmp_path: Path) -> None:
    files = build_run(tmp_path / "run", 3000, DATA)
    testset = read_testset(tmp_path / "run")
    segs = testset.segments
    assert len(segs) == 3000 and testset.langs == ["en", "es"]
    sizes = Counter(s.doc for s in segs)
    assert all(5 <= n <= 15 for n in list(sizes.values())[:-1])  # the last one takes the rest
    genders = Counter(s.gender for s in {s.doc: s for s in segs}.values())
    assert 0.35 < genders["female"] / len(sizes) < 0.55
    assert 0.04 < genders["non-binary"] / len(sizes) < 0.16
    assert len({o for s in segs for o in s.occupations}) == 30
    # a counterfactual for every woman's and man's segment, none for a non-binary person's
    assert set(testset.counterfactual) == {s.id for s in segs if s.gender != "non-binary"}
    refs = [s.text["es"] for s in segs]
    lines = {name: path.read_text(encoding="utf-8").splitlines() for name, path in files.items()}
    assert lines["reference"] == refs
    assert all(len(x) == len(refs) for x in lines.values())
    for seg, masc in zip(segs, lines["masculine"], strict=True):
        expected = (
            testset.counterfactual[seg.id]["es"] if seg.gender == "female" else seg.text["es"]
        )
        assert masc == expected
    assert sum(n != r for n, r in zip(lines["noisy"], refs, strict=True)) > 0.5 * len(refs)


@pytest.mark.slow
def test_the_benchmark_prints_its_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--segments", "300", "--resamples", "20", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "| 300 | 3 | 20 |" in out
    assert "| sacrebleu statistics |" in out and "not in the profile" not in out
    assert "| masculine |" in out and "-100.0 [-100.0, -100.0]" in out
