"""`occbio mine --langs en,es,ca --sample` end to end: a finished, balanced corpus with its
statistics, data card and chart, and balancing properties that hold on the real output."""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from occbio.cli import main

LANGS = ["en", "es", "ca"]
pytestmark = pytest.mark.slow


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mine") / "sample"
    assert main(["mine", "-q", "--sample", "--langs", ",".join(LANGS), "--out", str(out)]) == 0
    return out


def test_every_output_is_written(run: Path) -> None:
    corpus = run / "corpus"
    for lang in LANGS:
        assert (corpus / f"corpus.{lang}.xml").stat().st_size > 0
        assert (corpus / f"corpus.{lang}").stat().st_size > 0
    for name in ("corpus.tsv", "corpus.jsonl", "corpus.docids"):
        assert (corpus / name).stat().st_size > 0
    assert (run / "stats.json").exists()
    assert (run / "DATACARD.md").exists()
    assert (run / "occupations_by_gender.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    manifest = json.loads((run / "manifest.json").read_text())
    done = {s for s, r in manifest["stages"].items() if r["status"] == "done"}
    assert done == {"entities", "text", "align", "balance", "write"}


def test_balanced_output_satisfies_the_balancing_properties(run: Path) -> None:
    people = _rows(run / "balance" / "people.jsonl")
    kept = [p for p in people if p["kept"]]
    assert kept, "the sample must give a non-empty balanced corpus"
    groups: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for p in kept:
        assert p["gender"] in ("female", "male")
        groups[p["group"]][p["gender"]].append(p)
    for group, by_gender in groups.items():
        assert set(by_gender) == {"female", "male"}, group
        assert len(by_gender["female"]) == len(by_gender["male"]), group
        sentences = {g: sum(p["kept_tuples"] for p in ps) for g, ps in by_gender.items()}
        assert sentences["female"] == sentences["male"], group
    # the balanced tuples are exactly the kept people's kept tuples
    balanced = Counter(r["doc"] for r in _rows(run / "balance" / "balanced.jsonl"))
    assert balanced == Counter({p["qid"]: p["kept_tuples"] for p in kept})
    reasons = Counter(p["reason"] for p in people)
    assert sum(reasons.values()) == len(people)


def test_xml_is_gebio_shaped_and_agrees_with_the_tsv(run: Path) -> None:
    kept = {p["qid"]: p for p in _rows(run / "balance" / "people.jsonl") if p["kept"]}
    segs_per_doc: dict[str, dict[str, list[str]]] = {}
    for lang in LANGS:
        root = etree.parse(str(run / "corpus" / f"corpus.{lang}.xml")).getroot()
        docs = root.findall("doc")
        assert {d.get("docid") for d in docs} == set(kept)
        for doc in docs:
            assert doc.get("language") == lang
            assert doc.get("gender") == kept[doc.get("docid")]["gender"]
            assert doc.findtext("title")
            segs = doc.findall("seg")
            assert [s.get("id") for s in segs] == [str(i) for i in range(1, len(segs) + 1)]
            assert len(segs) == kept[doc.get("docid")]["kept_tuples"]
            segs_per_doc.setdefault(doc.get("docid"), {})[lang] = [s.text for s in segs]
    with open(run / "corpus" / "corpus.tsv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert len(rows) == sum(p["kept_tuples"] for p in kept.values())
    for lang in LANGS:
        lines = (run / "corpus" / f"corpus.{lang}").read_text(encoding="utf-8").splitlines()
        assert lines == [r[lang] for r in rows]
        first = rows[0]
        assert segs_per_doc[first["qid"]][lang][0] == first[lang]


def test_stats_funnel_and_data_card(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = json.loads((run / "stats.json").read_text())
    stages = [row["stage"] for row in stats["funnel"]]
    assert stages == ["entities", "text", "align", "balance"]
    people = [row["people"]["total"] for row in stats["funnel"]]
    assert people == sorted(people, reverse=True) and people[-1] > 0
    final = stats["funnel"][-1]
    assert final["people"]["female"] == final["people"]["male"]
    assert final["sentences"]["female"] == final["sentences"]["male"]
    card = (run / "DATACARD.md").read_text(encoding="utf-8")
    for needed in ("en, es, ca", "MIT licence", "Known limitations", "Statistics funnel", "female"):
        assert needed in card
    # the sample's people are fictional, and the card says so before anything else
    assert "Made from occbio's bundled sample, not from Wikipedia" in card.split("## Contents")[0]
    assert "file dated" not in card
    assert main(["stats", "--out", str(run)]) == 0
    printed = capsys.readouterr().out
    assert "funnel" in printed and "balance" in printed


def test_rebalancing_reuses_the_alignment(run: Path) -> None:
    """Another balancing method re-runs only balance and write."""
    before = json.loads((run / "manifest.json").read_text())["stages"]["align"]["finished"]
    assert main(["mine", "-q", "--sample", "--langs", "en,es,ca", "--out", str(run),
                 "--balance", "gebio"]) == 0  # fmt: skip
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["stages"]["align"]["finished"] == before
    assert manifest["stages"]["balance"]["settings"]["balance"]["method"] == "gebio"
    counts = manifest["stages"]["balance"]["counts"]
    assert counts["kept_sentences_female"] == counts["kept_sentences_male"] > 0
    assert "groups_kept" not in counts  # GeBio balances no occupation groups ...
    card = (run / "DATACARD.md").read_text(encoding="utf-8")
    assert "GeBio balancing keeps the same number of sentences per gender" in card  # ... says so


def test_a_balance_that_keeps_nobody_says_why(run: Path) -> None:
    """No occupation of the sample has a non-binary person beside a woman and a man: OccGen
    keeps nobody, says so in the manifest, and the corpus files are still well-formed."""
    assert main(["mine", "-q", "--sample", "--langs", "en,es,ca", "--out", str(run),
                 "--balance", "occgen", "--genders", "female,male,non-binary"]) == 0  # fmt: skip
    stage = json.loads((run / "manifest.json").read_text())["stages"]["balance"]
    assert stage["counts"]["kept_people"] == 0
    assert any("kept nobody: no occupation group" in w for w in stage["warnings"])
    for lang in LANGS:
        root = etree.parse(str(run / "corpus" / f"corpus.{lang}.xml")).getroot()
        assert root.tag == "corpus" and len(root.findall("doc")) == 0


def test_a_rerun_with_fewer_languages_leaves_only_its_own_files(run: Path) -> None:
    """Fewer --langs into the same directory: the Catalan corpus and text files of the earlier
    run go, so no file is left that is no longer line-aligned with the others."""
    assert main(["mine", "-q", "--sample", "--langs", "en,es", "--out", str(run)]) == 0
    corpus = sorted(p.name for p in (run / "corpus").iterdir())
    assert not [name for name in corpus if ".ca" in name], corpus
    assert not (run / "text" / "ca.sentences.jsonl").exists()
    manifest = json.loads((run / "manifest.json").read_text())
    assert all((run / out).exists() for s in manifest["stages"].values() for out in s["outputs"])
    assert all("previous_outputs" not in s for s in manifest["stages"].values())
    en = (run / "corpus" / "corpus.en").read_text().splitlines()
    assert len(en) == len((run / "corpus" / "corpus.es").read_text().splitlines()) > 0


@pytest.mark.slow
def test_stages_as_separate_commands_write_the_same_corpus(run: Path, tmp_path: Path) -> None:
    """One `mine`, or each stage as its own command (the manifest reloaded in between): the
    same files, the data card included."""
    whole, split = tmp_path / "whole", tmp_path / "split"
    args = ["--sample", "--langs", "en,ca,es", "-q"]
    assert main(["mine", *args, "--out", str(whole)]) == 0
    for stage in ("entities", "text", "align", "balance", "write"):
        assert main([stage, *args, "--out", str(split)]) == 0
    names = ["DATACARD.md", "stats.json", "corpus/corpus.tsv", "corpus/corpus.ca.xml"]
    for name in names:
        assert (whole / name).read_bytes() == (split / name).read_bytes(), name
