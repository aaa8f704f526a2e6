"""`occbio review apply`: the post-edited corpus in every format, read back as a user would.

On the small run of :mod:`tests.test_review_judgments` with its hand-made judgments, the merged
verdicts by segment 1..6 are en-es NP NP P NP P P and en-ca P P P P PA NP, so segments 1, 2, 4
(not parallel in Spanish) and 6 (not parallel in Catalan) go in every language: Ana Pérez (Q1)
keeps her segment 3, Joan Puig (Q2) his segment 2 (corpus segment 5), and Rosa Vidal (Q3), whose
only segment goes, is dropped. Segment 3's Catalan is post-edited.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from lxml import etree

from occbio.cli import main
from occbio.review.apply import apply_review, post_edits
from occbio.review.items import ReviewError, read_items
from occbio.review.judgments import JUDGMENTS_FILE, import_judgments
from occbio.run import file_sum
from tests.test_review_judgments import hand_files, make_run, page_file

P, NP = "parallel", "not_parallel"
EDITED = "Frase catalana revisada 3."
PLAIN = ["en", "es", "ca", "docids"]
FORMATS = ["en.xml", "es.xml", "ca.xml", "tsv", "parquet", "jsonl", "tmx", *PLAIN]


@pytest.fixture
def applied(tmp_path: Path) -> tuple[Path, str]:
    run = make_run(tmp_path)
    import_judgments(run, hand_files(run, tmp_path))
    originals = {p.name: p.read_bytes() for p in (run / "corpus").iterdir()}
    out = apply_review(run)
    assert {p.name: p.read_bytes() for p in (run / "corpus").glob("corpus.*")} == originals
    return run, out


def _corpus(run: Path, fmt: str) -> Path:
    return run / "corpus" / f"post-edited.{fmt}"


def test_every_format_is_written_and_the_original_untouched(applied: tuple[Path, str]) -> None:
    run, out = applied
    for fmt in FORMATS:
        assert _corpus(run, fmt).is_file(), fmt
        assert str(_corpus(run, fmt)) in out


def test_xml_keeps_numbers_page_ids_and_titles(applied: tuple[Path, str]) -> None:
    run, _ = applied
    for lang, offset in (("en", 0), ("es", 1), ("ca", 2)):
        docs = etree.parse(str(_corpus(run, f"{lang}.xml"))).getroot().findall("doc")
        assert [d.get("docid") for d in docs] == ["Q1", "Q2"]  # Q3 lost its only segment
        assert [d.get("wpid") for d in docs] == [str(100 + offset), str(200 + offset)]
        assert docs[0].findtext("title") == f"Ana Pérez ({lang})"
        assert [[s.get("id") for s in d.findall("seg")] for d in docs] == [["3"], ["2"]]
    ca = etree.parse(str(_corpus(run, "ca.xml"))).getroot().findall("doc/seg")
    assert [s.text for s in ca] == [EDITED, "Frase catalana 5."]
    es = etree.parse(str(_corpus(run, "es.xml"))).getroot().findall("doc/seg")
    assert [s.text for s in es] == ["Frase española 3.", "Frase española 5."]


def test_tables_read_back_with_pandas_and_pyarrow(applied: tuple[Path, str]) -> None:
    run, _ = applied
    tsv = pd.read_csv(_corpus(run, "tsv"), sep="\t")
    parquet = pq.read_table(_corpus(run, "parquet")).to_pandas()
    for table in (tsv, parquet):
        assert list(table["qid"]) == ["Q1", "Q2"]
        assert list(table["seg"]) == [3, 2]
        assert list(table["en"]) == ["English sentence 3.", "English sentence 5."]
        assert list(table["ca"]) == [EDITED, "Frase catalana 5."]
        assert list(table["score_es"]) == [1.03, 1.05]
    rows = [json.loads(line) for line in _corpus(run, "jsonl").read_text("utf-8").splitlines()]
    assert [(r["qid"], r["seg"], r["text"]["ca"]) for r in rows] == [
        ("Q1", 3, EDITED),
        ("Q2", 2, "Frase catalana 5."),
    ]
    assert rows[0]["name"] == "Ana Pérez" and rows[0]["gender"] == "female"
    assert rows[0]["occupations"] == [{"qid": "Q36180", "label": "writer"}]
    original = json.loads((run / "corpus" / "corpus.jsonl").read_text("utf-8").splitlines()[2])
    assert rows[0]["urls"] == original["urls"]  # titles survive the round trip


def test_tmx_has_the_kept_segments_post_edited(applied: tuple[Path, str]) -> None:
    run, _ = applied
    tus = etree.parse(str(_corpus(run, "tmx"))).getroot().findall("body/tu")
    assert [tu.get("tuid") for tu in tus] == ["Q1:3", "Q2:2"]
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    ca = [tuv.findtext("seg") for tu in tus for tuv in tu.findall("tuv") if tuv.get(lang) == "ca"]
    assert ca == [EDITED, "Frase catalana 5."]


def test_plain_text_stays_line_aligned(applied: tuple[Path, str]) -> None:
    run, _ = applied
    lines = {fmt: _corpus(run, fmt).read_text("utf-8").splitlines() for fmt in PLAIN}
    assert lines["docids"] == ["Q1", "Q2"]
    assert lines["en"] == ["English sentence 3.", "English sentence 5."]
    assert lines["ca"] == [EDITED, "Frase catalana 5."]
    assert len(lines["es"]) == 2


def test_counts_printed_and_in_the_manifest(applied: tuple[Path, str]) -> None:
    run, out = applied
    counts = {
        "documents": 2,
        "documents_dropped": 1,
        "segments_kept": 2,
        "segments_removed": 4,
        "texts_post_edited": 1,
        "post_edit_conflicts": 0,
    }
    for key, value in counts.items():
        assert f"{key.replace('_', ' ')}: {value}" in out.splitlines()
    stage = json.loads((run / "manifest.json").read_text("utf-8"))["stages"]["review-apply"]
    assert stage["status"] == "done" and stage["counts"] == counts
    assert sorted(stage["outputs"]) == sorted(f"corpus/post-edited.{f}" for f in FORMATS)


def test_post_edit_conflicts_take_the_majority_else_the_first_by_name() -> None:
    store = {
        "ben": {"x": {"verdict": P, "post_edit": "Hola."}, "y": {"verdict": P, "post_edit": "B"}},
        "ana": {"x": {"verdict": P, "post_edit": "Ola."}, "y": {"verdict": P, "post_edit": "A"}},
        "carla": {
            "x": {"verdict": P, "post_edit": " Hola. "},
            "y": {"verdict": NP, "post_edit": None},
        },
    }
    chosen, conflicts = post_edits(store)
    # x: "Hola." twice (carla's once cleaned) against ana's "Ola.": the majority's
    # y: "A" (ana) against "B" (ben), a tie: ana's, first by name
    assert chosen == {"x": "Hola.", "y": "A"} and conflicts == 2


def test_conflicting_post_edits_in_a_run(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    import_judgments(run, hand_files(run, tmp_path))
    import_judgments(
        run,
        [
            page_file(run, tmp_path / "b2.json", "ben", {5: P}, edits={5: "Frase de Ben 5."}),
            page_file(run, tmp_path / "a2.json", "ana", {5: P}, edits={5: "Frase de Ana 5."}),
        ],
    )
    out = apply_review(run)
    assert "post edit conflicts: 1" in out and "texts post edited: 2" in out
    rows = [json.loads(x) for x in _corpus(run, "jsonl").read_text("utf-8").splitlines()]
    assert rows[1]["text"]["es"] == "Frase de Ana 5."


def test_without_judgments_a_one_line_error(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path)
    with pytest.raises(ReviewError, match=r"run `occbio review import .* first"):
        apply_review(run)
    assert main(["review", "apply", str(run)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: ") and err.count("\n") == 1
    assert not _corpus(run, "tsv").exists()


def test_judgments_of_an_earlier_corpus_are_refused(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    import_judgments(run, hand_files(run, tmp_path))
    with (run / "corpus" / "corpus.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("\n")
    with pytest.raises(ReviewError, match="the corpus was written again since"):
        apply_review(run)


def test_nothing_removed_when_every_item_is_parallel(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    import_judgments(
        run, [page_file(run, tmp_path / "a.json", "ana", dict.fromkeys(range(1, 7), P))]
    )
    out = apply_review(run)
    assert "segments kept: 6" in out and "segments removed: 0" in out
    digest = hashlib.sha256
    assert (
        digest(_corpus(run, "en").read_bytes()).digest()
        == digest((run / "corpus" / "corpus.en").read_bytes()).digest()
    )


@pytest.mark.slow
def test_end_to_end_on_the_mined_sample(mined_sample: Path, tmp_path: Path, capsys) -> None:
    run = tmp_path / "run"
    shutil.copytree(mined_sample, run)
    items, meta = read_items(run)
    es = [i for i in items if i.pair == "en-es"]
    verdicts = {i.id: (NP if n % 4 == 0 else P) for n, i in enumerate(es)}
    path = tmp_path / "ana.json"
    path.write_text(
        json.dumps(
            {
                "occbio_review": 1,
                "run": meta["run"],
                "pair": "en-es",
                "annotator": "ana",
                "exported": "2026-11-28T12:00:00Z",
                "judgments": [
                    {"id": k, "verdict": v, "post_edit": None} for k, v in verdicts.items()
                ],
            }
        ),
        encoding="utf-8",
    )
    assert main(["review", "import", str(run), str(path)]) == 0
    assert "items judged by ana" in capsys.readouterr().out
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    # the card is still what the write stage's record says: a resumed mine keeps it
    card = manifest["stages"]["write"]["checksums"]["DATACARD.md"]
    assert card == file_sum(run / "DATACARD.md")
    assert "## Human review" in (run / "DATACARD.md").read_text("utf-8")
    assert main(["review", "apply", str(run)]) == 0
    removed = sum(v == NP for v in verdicts.values())
    assert f"segments removed: {removed}" in capsys.readouterr().out
    kept = pd.read_parquet(run / "corpus" / "post-edited.parquet")
    assert len(kept) == len(es) - removed
    assert (run / JUDGMENTS_FILE).is_file()


def test_without_the_xml_files_titles_come_from_the_urls(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    import_judgments(run, hand_files(run, tmp_path))
    for lang in ("en", "es", "ca"):
        (run / "corpus" / f"corpus.{lang}.xml").unlink()
    apply_review(run)
    doc = etree.parse(str(_corpus(run, "es.xml"))).getroot().find("doc")
    assert doc.findtext("title") == "Ana Pérez (es)" and doc.get("wpid") == ""


def test_a_segment_missing_a_language_is_one_line(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    import_judgments(run, hand_files(run, tmp_path))
    path = run / "corpus" / "corpus.jsonl"
    lines = path.read_text("utf-8").splitlines()
    row = json.loads(lines[1])
    del row["text"]["ca"]
    lines[1] = json.dumps(row, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # the corpus changed, so the judgments are refused first; judging it afresh is refused too:
    # its items are read before anything is written
    (run / JUDGMENTS_FILE).unlink()
    with pytest.raises(ReviewError, match=r"corpus\.jsonl:2: segment Q1:2 has no ca text"):
        import_judgments(run, [page_file(run, tmp_path / "x.json", "ana", {1: P})])
    assert not (run / JUDGMENTS_FILE).exists()
    with pytest.raises(ReviewError, match="import"):
        apply_review(run)
    assert not _corpus(run, "jsonl").exists()
