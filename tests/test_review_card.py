"""The data card's "Human review" section outlives a write stage that re-writes the same corpus
(``occbio augment``), and goes when the corpus changes (its judgments no longer apply)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.review.items import read_items, run_id


@pytest.mark.slow
def test_the_review_section_follows_the_corpus_it_judged(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(mined_sample, run)
    items, _meta = read_items(run)
    rid = run_id(run)
    judged = tmp_path / "judgments-en-es-ana.json"
    judged.write_text(json.dumps({
        "occbio_review": 1, "run": rid, "pair": "en-es", "annotator": "ana",
        "exported": "2026-11-28T12:00:00Z",
        "judgments": [{"id": i.id, "verdict": "parallel", "post_edit": None}
                      for i in items if i.pair == "en-es"][:10],
    }), encoding="utf-8")  # fmt: skip
    assert main(["review", "import", str(run), str(judged), "-q"]) == 0
    assert "## Human review" in (run / "DATACARD.md").read_text()
    # the write stage again, on the same corpus: the section stays
    assert main(["augment", str(run), "-q"]) == 0
    assert run_id(run) == rid
    card = (run / "DATACARD.md").read_text()
    assert "## Human review" in card and "Counterfactual copy" in card
    # another selection changes the corpus: the judgments were of another one
    args = ["mine", "--sample", "--langs", "en,es,ca", "--out", str(run), "-q"]
    assert main([*args, "--min-prob", "0.999", "--balance", "gebio"]) == 0
    capsys.readouterr()
    assert run_id(run) != rid
    assert "## Human review" not in (run / "DATACARD.md").read_text()
