"""`occbio review import`: judgment files checked before anything is written, merged, and
measured; the statistics against values worked out by hand on a small run.

The small run (:func:`make_run`): three people, six segments in en (pivot), es and ca, written
by occbio's own corpus writer; segment k (1..6, in corpus order) has the score 1.0k in both
languages, so each language pair's score bands are (tertile edges 1.03 and 1.05):
low = 1.01, 1.02; mid = 1.03, 1.04; high = 1.05, 1.06.

The judgments (:func:`hand_files`), by segment 1..6:

    en-es  ana: NP PA P  P  P  P        (P parallel, PA partial, NP not parallel)
           ben: NP P  P  PA P  P
           merged: NP NP P NP P P       (segments 2 and 4 tie 1-1: not parallel)
    en-ca  ana (CSV): P P P P PA NP     (post-edit of segment 3's Catalan)
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.io.corpus import write_corpus
from occbio.records import Document, Entity, Occupation
from occbio.review.items import ReviewError, run_id
from occbio.review.judgments import (
    JUDGMENTS_FILE,
    REPORT_FILE,
    import_judgments,
    replace_section,
)
from occbio.review.stats import cohen_kappa, majority, raw_agreement, score_threshold, tally

LANGS = ["en", "es", "ca"]
P, PA, NP = "parallel", "partial", "not_parallel"
# segment k of the corpus -> (qid, seg within the document)
SEGMENTS = [("Q1", 1), ("Q1", 2), ("Q1", 3), ("Q2", 1), ("Q2", 2), ("Q3", 1)]
ES = {"ana": [NP, PA, P, P, P, P], "ben": [NP, P, P, PA, P, P]}
CA = [P, P, P, P, PA, NP]
CARD = "# Data card: tiny\n\n## Contents\n\nSix segments.\n\n## Known limitations\n\n- Tiny.\n"


def _doc(qid: str, name: str, gender: str, sentences: list[int], page: int) -> Document:
    return Document(
        entity=Entity(
            qid=qid,
            label=name,
            gender=gender,
            occupations=[Occupation("Q36180", "writer")],
            titles={lang: f"{name} ({lang})" for lang in LANGS},
        ),
        segments=[
            {
                "en": f"English sentence {k}.",
                "es": f"Frase española {k}.",
                "ca": f"Frase catalana {k}.",
            }
            for k in sentences
        ],
        scores=[{"es": 1 + k / 100, "ca": 1 + k / 100} for k in sentences],
        page_ids={lang: page + i for i, lang in enumerate(LANGS)},
    )


def make_run(root: Path) -> Path:
    """A finished run's corpus/ (every format) and data card, six segments in three documents."""
    run = root / "run"
    docs = [
        _doc("Q1", "Ana Pérez", "female", [1, 2, 3], 100),
        _doc("Q2", "Joan Puig", "male", [4, 5], 200),
        _doc("Q3", "Rosa Vidal", "female", [6], 300),
    ]
    write_corpus(run / "corpus", LANGS, docs, pivot="en")
    (run / "DATACARD.md").write_text(CARD, encoding="utf-8")
    return run


def item_id(run: Path, k: int, lang: str) -> str:
    qid, seg = SEGMENTS[k - 1]
    return f"{run_id(run)}:{qid}:{seg}:{lang}"


def page_file(
    run: Path,
    path: Path,
    annotator: str,
    verdicts: dict[int, str],
    *,
    pair: str = "en-es",
    edits: dict[int, str] | None = None,
) -> Path:
    """A judgments file as the review page exports it."""
    lang = pair.split("-")[1]
    edits = edits or {}
    data = {
        "occbio_review": 1,
        "run": run_id(run),
        "pair": pair,
        "annotator": annotator,
        "exported": "2026-11-28T12:00:00Z",
        "judgments": [
            {"id": item_id(run, k, lang), "verdict": v, "post_edit": edits.get(k)}
            for k, v in verdicts.items()
        ],
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def csv_file(path: Path, rows: list[dict[str, str]], columns: list[str] | None = None) -> Path:
    """A filled spreadsheet, as the export's CSV (extra columns a spreadsheet keeps)."""
    columns = columns or ["id", "pair", "seg", "src", "tgt", "verdict", "post_edit"]
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, columns, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path


def hand_files(run: Path, tmp: Path) -> list[Path]:
    ana = page_file(run, tmp / "ana-es.json", "ana", dict(enumerate(ES["ana"], 1)))
    ben = page_file(run, tmp / "ben-es.json", "ben", dict(enumerate(ES["ben"], 1)))
    rows = [
        {
            "id": item_id(run, k, "ca"),
            "pair": "en-ca",
            "seg": str(k),
            "verdict": v,
            "post_edit": "Frase catalana revisada 3." if k == 3 else "",
            "src": f"English sentence {k}.",
            "tgt": f"Frase catalana {k}.",
        }
        for k, v in enumerate(CA, 1)
    ]
    return [ana, ben, csv_file(tmp / "ana.csv", rows)]


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path)


def _row(report: dict, pair: str, band: str) -> dict:
    return next(r for r in report["precision"] if r["pair"] == pair and r["band"] == band)


# --- the statistics, by hand --------------------------------------------------------------


def test_majority_and_ties_are_not_parallel() -> None:
    assert majority([P, P, PA]) == P
    assert majority([PA, P]) == NP  # 1-1: a tie
    assert majority([P, P, NP, NP, PA]) == NP  # 2-2-1: a tie at the top
    assert majority([PA]) == PA


def test_wilson_intervals_by_hand() -> None:
    # Wilson: centre = (p + z²/2n) / (1 + z²/n), half = z/(1 + z²/n) * sqrt(p(1-p)/n + z²/4n²),
    # z = 1.959964, z² = 3.841459.
    # 3 of 6: p = .5; 1 + z²/6 = 1.640243; centre = (.5 + .320122)/1.640243 = .5;
    #   half = 1.959964/1.640243 * sqrt(.041667 + .026677) = 1.194923 * .261426 = .312385
    #   -> [.187615, .812385]
    t = tally([NP, NP, P, NP, P, P])
    assert (t.judged, t.parallel, t.partial, t.not_parallel) == (6, 3, 0, 3)
    assert t.to_dict()["interval"] == pytest.approx([0.187615, 0.812385], abs=1e-5)
    # 2 of 2: 1 + z²/2 = 2.920730; centre = (1 + .960365)/2.920730 = .671195;
    #   half = 1.959964/2.920730 * sqrt(0 + 3.841459/16) = .671052 * .489998 = .328814
    #   -> [.342381, 1.0] (1.000009 capped)
    assert tally([P, P]).to_dict()["interval"] == pytest.approx([0.342381, 1.0], abs=1e-5)
    # parallel or partial, 5 of 6: p = .833333; centre = (.833333 + .320122)/1.640243 = .703220;
    #   half = 1.194923 * sqrt(.023148 + .026677) = 1.194923 * .223215 = .266725
    #   -> [.436495, .969945]
    loose = tally([P, P, P, P, PA, NP]).to_dict()
    assert loose["parallel_or_partial"] == pytest.approx(5 / 6)
    assert loose["parallel_or_partial_interval"] == pytest.approx([0.436495, 0.969945], abs=1e-5)
    assert tally([]).to_dict()["precision"] is None


def test_cohen_kappa_by_hand() -> None:
    # ana vs ben on en-es, 3x3 table (rows ana, columns ben; P, PA, NP):
    #          P  PA  NP | ana
    #   P      3   1   0 |  4
    #   PA     1   0   0 |  1
    #   NP     0   0   1 |  1
    #   ben    4   1   1 |  6
    # p_o = (3 + 0 + 1)/6 = .666667; p_e = (4*4 + 1*1 + 1*1)/36 = 18/36 = .5
    # kappa = (.666667 - .5)/(1 - .5) = .333333
    assert cohen_kappa(ES["ana"], ES["ben"]) == pytest.approx(1 / 3)
    assert raw_agreement(ES["ana"], ES["ben"]) == pytest.approx(4 / 6)
    # every item the same single verdict by both: p_e = 1, kappa undefined
    assert cohen_kappa([P, P], [P, P]) is None
    # complete disagreement between two balanced annotators: p_o = 0, p_e = (1*1 + 1*1)/4 = .5,
    # kappa = -.5/.5 = -1
    assert cohen_kappa([P, NP], [NP, P]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="pair item by item"):
        cohen_kappa([P], [P, P])


def test_score_threshold_by_hand() -> None:
    # merged en-es by score, highest first: 1.06 P, 1.05 P, 1.04 NP, 1.03 P, 1.02 NP, 1.01 NP
    # kept from each threshold: 1/1, 2/2, 2/3 = .667, 3/4 = .75, 3/5 = .6, 3/6 = .5
    scored = list(zip([1.01, 1.02, 1.03, 1.04, 1.05, 1.06], [0, 0, 1, 0, 1, 1], strict=True))
    scored = [(s, bool(ok)) for s, ok in scored]
    at95 = score_threshold(scored, 0.95)
    assert (at95.score, at95.kept, at95.judged, at95.share) == (1.05, 2, 6, pytest.approx(1 / 3))
    at70 = score_threshold(scored, 0.70)  # 1.04 keeps .667 < .70 but 1.03 keeps .75
    assert (at70.score, at70.kept, at70.precision) == (1.03, 4, 0.75)
    assert score_threshold(scored, 0.5).score == 1.01  # 3/6 = .5 keeps everything
    # en-ca: 1.06 NP, 1.05 PA, 1.04 P ...: 0/1, 0/2, 1/3, 2/4, 3/5, 4/6: never .95
    assert score_threshold([(1 + k / 100, k <= 4) for k in range(1, 7)], 0.95) is None
    # a tie of scores is kept or dropped together: 1.0 P and 1.0 NP give 1/2, not 1/1
    assert score_threshold([(1.0, True), (1.0, False)], 0.95) is None


# --- the import: report, store, data card, manifest ----------------------------------------


def test_import_report_matches_the_hand_values(run: Path, tmp_path: Path) -> None:
    # six shared items: compared only with --min-shared lowered from 20 (see the test after)
    files = hand_files(run, tmp_path)
    report = json.loads(import_judgments(run, files, fmt="json", min_shared=6))
    assert report["items_judged"] == 12 and report["ties"] == 2
    assert report["annotators"] == {"ana": 12, "ben": 6}
    es = _row(report, "en-es", "all")
    assert (es["judged"], es["parallel"], es["partial"], es["not_parallel"]) == (6, 3, 0, 3)
    assert es["precision"] == 0.5
    assert es["interval"] == pytest.approx([0.187615, 0.812385], abs=1e-5)
    # bands: low 1.01, 1.02 -> NP NP; mid 1.03, 1.04 -> P NP; high 1.05, 1.06 -> P P
    assert [_row(report, "en-es", b)["parallel"] for b in ("low", "mid", "high")] == [0, 1, 2]
    assert [_row(report, "en-es", b)["judged"] for b in ("low", "mid", "high")] == [2, 2, 2]
    assert _row(report, "en-es", "high")["interval"] == pytest.approx([0.342381, 1.0], abs=1e-5)
    ca = _row(report, "en-ca", "all")
    assert (ca["parallel"], ca["partial"], ca["not_parallel"]) == (4, 1, 1)
    assert ca["parallel_or_partial_interval"] == pytest.approx([0.436495, 0.969945], abs=1e-5)
    [agree] = report["agreement"]  # only en-es has two annotators
    assert agree == {
        "pair": "en-es",
        "annotators": ["ana", "ben"],
        "items": 6,
        "agreement": pytest.approx(4 / 6),
        "kappa": pytest.approx(1 / 3),
    }
    summary = {s["pair"]: s for s in report["agreement_summary"]}
    assert summary["en-es"]["pairs"] == 1 and summary["en-es"]["mean_kappa"] == pytest.approx(1 / 3)
    thresholds = {t["pair"]: t for t in report["threshold"]}
    assert thresholds["en-es"]["threshold"] == 1.05 and thresholds["en-es"]["kept"] == 2
    assert thresholds["en-es"]["share"] == pytest.approx(1 / 3)
    assert thresholds["en-ca"]["threshold"] is None
    assert json.loads((run / REPORT_FILE).read_text("utf-8"))["precision"] == report["precision"]


def test_agreement_needs_20_shared_items_by_default(run: Path, tmp_path: Path) -> None:
    report = json.loads(import_judgments(run, hand_files(run, tmp_path), fmt="json"))
    assert report["agreement"] == []
    es = next(s for s in report["agreement_summary"] if s["pair"] == "en-es")
    assert (es["pairs"], es["min_shared"], es["annotators_with_fewer_items"]) == (0, 20, 2)
    table = import_judgments(run, hand_files(run, tmp_path))
    assert "en-es: 0 pairs of annotators share at least 20 items (left out: 2 annotators " in table


def test_import_table_and_target(run: Path, tmp_path: Path) -> None:
    table = import_judgments(run, hand_files(run, tmp_path), target=0.7, min_shared=6)
    lines = [" ".join(line.split()) for line in table.splitlines()]  # columns aside
    assert lines[0].endswith("12 items judged by ana (12), ben (6); 2 tied (counted not parallel)")
    assert "en-es all 6 3 0 3 50.0 [18.8, 81.2] 50.0 [18.8, 81.2]" in lines
    assert "en-es ana / ben 6 66.7 0.333" in lines
    assert "en-es 70.0 1.03 66.7 (4 of 6) 75.0 [30.1, 95.4]" in lines
    assert "en-ca 70.0 none reaches it – –" in lines


def test_store_is_keyed_by_annotator_and_item_and_reimport_is_idempotent(
    run: Path, tmp_path: Path
) -> None:
    files = hand_files(run, tmp_path)
    import_judgments(run, files)
    store_path = run / JUDGMENTS_FILE
    first = store_path.read_bytes()
    stored = json.loads(first)
    assert stored["run"] == run_id(run)
    assert stored["judgments"]["ben"][item_id(run, 4, "es")] == {"verdict": PA, "post_edit": None}
    assert stored["judgments"]["ana"][item_id(run, 3, "ca")]["post_edit"] == (
        "Frase catalana revisada 3."
    )
    import_judgments(run, files)  # the same files again: nothing changes
    assert store_path.read_bytes() == first
    # ben changes his mind on segment 4 only: his other items and ana's stay
    import_judgments(run, [page_file(run, tmp_path / "ben2.json", "ben", {4: P})])
    again = json.loads(store_path.read_bytes())["judgments"]
    assert again["ben"][item_id(run, 4, "es")]["verdict"] == P
    assert again["ben"][item_id(run, 2, "es")]["verdict"] == P
    assert len(again["ben"]) == 6 and again["ana"] == stored["judgments"]["ana"]


def test_csv_annotator_column_semicolons_and_spellings(run: Path, tmp_path: Path) -> None:
    path = tmp_path / "team.csv"
    path.write_text(
        "id;verdict;post_edit;annotator\n"
        f"{item_id(run, 1, 'es')};Not parallel;;carla\n"
        f"{item_id(run, 1, 'es')};partly-parallel;;dani\n"
        f"{item_id(run, 2, 'es')};;;carla\n",  # blank verdict: not judged
        encoding="utf-8",
    )
    report = json.loads(import_judgments(run, [path], fmt="json"))
    assert report["annotators"] == {"carla": 1, "dani": 1}
    assert report["items_judged"] == 1 and report["ties"] == 1


def test_data_card_section_added_then_replaced(run: Path, tmp_path: Path) -> None:
    files = hand_files(run, tmp_path)
    import_judgments(run, files)
    card = (run / "DATACARD.md").read_text("utf-8")
    before, _, after = card.partition("## Human review\n")
    assert before == CARD.split("## Known limitations")[0]
    assert after.endswith("## Known limitations\n\n- Tiny.\n")
    assert "| en-es | all | 6 | 3 | 0 | 3 | 50.0 [18.8, 81.2] | 50.0 [18.8, 81.2] |" in after
    assert "| en-ca | 95.0 | none reaches it | – | – |" in after
    import_judgments(run, files[:1])  # ana's en-es again: the section replaced, not repeated
    assert (run / "DATACARD.md").read_text("utf-8").count("## Human review") == 1
    assert (
        replace_section("# Card\n", "## Human review\n\nx\n") == "# Card\n\n## Human review\n\nx\n"
    )


def test_import_is_recorded_in_the_manifest(run: Path, tmp_path: Path) -> None:
    import_judgments(run, hand_files(run, tmp_path))
    stage = json.loads((run / "manifest.json").read_text("utf-8"))["stages"]["review-import"]
    assert stage["status"] == "done"
    assert stage["counts"] == {
        "annotators": 2,
        "items_judged": 12,
        "judgments_imported": 18,
        "ties": 2,
    }
    assert stage["outputs"] == [JUDGMENTS_FILE, REPORT_FILE]
    assert stage["settings"] == {"target": 0.95}


# --- bad input: one line, nothing written ------------------------------------------------


def _bad_files(run: Path, tmp: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, what its one-line error must say)."""
    rid = run_id(run)
    good = page_file(run, tmp / "good.json", "ana", {1: P})
    data = json.loads(good.read_text("utf-8"))
    out = {}

    def json_file(name: str, change: dict) -> Path:
        path = tmp / f"{name}.json"
        path.write_text(json.dumps({**data, **change}), encoding="utf-8")
        return path

    unknown = f"{rid}:Q9:1:es"
    out["unknown item"] = (
        json_file("unknown", {"judgments": [{"id": unknown, "verdict": P}]}),
        f"judgments[0]: {unknown} is not an item of run {rid}",
    )
    out["another run"] = (
        json_file("other", {"run": "0123456789ab"}),
        f"holds judgments of run 0123456789ab, but this run is {rid}",
    )
    other_item = "0123456789ab:Q1:1:es"
    out["another run's item"] = (
        json_file("other-item", {"judgments": [{"id": other_item, "verdict": P}]}),
        f"item {other_item} is of run 0123456789ab, but this run is {rid}",
    )
    twice = [
        {"id": item_id(run, 1, "es"), "verdict": P},
        {"id": item_id(run, 1, "es"), "verdict": NP},
    ]
    out["duplicate"] = (
        json_file("twice", {"judgments": twice}),
        f"judgments[1] ({item_id(run, 1, 'es')}): {item_id(run, 1, 'es')} judged "
        "again by ana (first: ",
    )
    out["verdict"] = (
        json_file("verdict", {"judgments": [{"id": item_id(run, 1, "es"), "verdict": "maybe"}]}),
        "unknown verdict 'maybe'",
    )
    out["pair"] = (
        json_file("pair", {"judgments": [{"id": item_id(run, 1, "ca"), "verdict": P}]}),
        "an item of en-ca, the file is of en-es",
    )
    truncated = tmp / "truncated.json"
    truncated.write_text(good.read_text("utf-8")[:-30], encoding="utf-8")
    out["truncated"] = (truncated, "truncated.json:1: not valid JSON")
    no_cols = csv_file(tmp / "nocols.csv", [{"id": item_id(run, 1, "es")}], ["id", "post_edit"])
    out["csv columns"] = (no_cols, "nocols.csv:1: no verdict column")
    csv_twice = csv_file(tmp / "twice.csv", [{"id": item_id(run, 1, "es"), "verdict": P}] * 2)
    out["csv duplicate"] = (csv_twice, "twice.csv:3 (")
    csv_other = csv_file(tmp / "other.csv", [{"id": other_item, "verdict": P}])
    out["csv another run"] = (csv_other, "other.csv:2: item 0123456789ab:Q1:1:es is of run")
    latin = tmp / "latin.csv"
    latin.write_bytes(
        f"id,verdict,post_edit\n{item_id(run, 1, 'es')},parallel,Canción\n".encode("latin-1")
    )
    out["not utf-8"] = (latin, "latin.csv:2: not UTF-8 text")
    (tmp / "dir.json").mkdir()
    out["directory"] = (tmp / "dir.json", "dir.json is a directory")
    os.mkfifo(tmp / "fifo.json")
    out["fifo"] = (tmp / "fifo.json", "fifo.json is not a regular file")
    out["missing"] = (tmp / "missing.json", "missing.json: cannot read it (No such file")
    edit_only = csv_file(tmp / "edit.csv", [{"id": item_id(run, 1, "es"), "post_edit": "Hola."}])
    out["post-edit without verdict"] = (edit_only, "edit.csv:2 (")
    out["suffix"] = (tmp / "notes.txt", "notes.txt: neither .json")
    (tmp / "notes.txt").write_text("x", encoding="utf-8")
    return out


def test_every_bad_file_is_one_line_and_nothing_is_half_applied(run: Path, tmp_path: Path) -> None:
    good = hand_files(run, tmp_path)
    import_judgments(run, good[:1])
    watched = [run / JUDGMENTS_FILE, run / REPORT_FILE, run / "DATACARD.md", run / "manifest.json"]
    before = [p.read_bytes() for p in watched]
    bad = tmp_path / "bad"
    bad.mkdir()
    for name, (path, message) in _bad_files(run, bad).items():
        with pytest.raises(ReviewError) as info:
            import_judgments(run, [*good, path])  # good files first, then the bad one
        text = str(info.value)
        assert message in text and str(path) in text and "\n" not in text, name
        assert [p.read_bytes() for p in watched] == before, name


def test_the_same_annotator_in_two_files_of_one_import(run: Path, tmp_path: Path) -> None:
    a = page_file(run, tmp_path / "a.json", "ana", {1: P})
    b = page_file(run, tmp_path / "b.json", "ana", {1: NP})
    with pytest.raises(ReviewError, match=r"ana judged .* in .*a\.json too"):
        import_judgments(run, [a, b])


def test_cli_prints_one_line_and_exits_1(run: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"occbio_review": 1, "run": ', encoding="utf-8")
    assert main(["review", "import", str(run), str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert not (run / JUDGMENTS_FILE).exists()
    assert main(["review", "import", str(tmp_path / "nowhere"), str(bad)]) == 1
    assert "holds no corpus/corpus.jsonl" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()


def test_stale_store_of_an_earlier_corpus_is_refused(run: Path, tmp_path: Path) -> None:
    import_judgments(run, hand_files(run, tmp_path)[:1])
    with (run / "corpus" / "corpus.jsonl").open("a", encoding="utf-8") as fh:
        fh.write("\n")  # the corpus written again: another run id
    new = page_file(run, tmp_path / "new.json", "ana", {1: P})
    with pytest.raises(ReviewError, match=r"judgments\.json holds judgments of run .* move it"):
        import_judgments(run, [new])


def test_target_out_of_range(run: Path, tmp_path: Path) -> None:
    with pytest.raises(ReviewError, match=r"--target 1\.5"):
        import_judgments(run, hand_files(run, tmp_path), target=1.5)


def test_a_damaged_store_is_one_line(run: Path, tmp_path: Path) -> None:
    import_judgments(run, hand_files(run, tmp_path)[:1])
    store = run / JUDGMENTS_FILE
    data = json.loads(store.read_text("utf-8"))
    data["judgments"]["ana"][item_id(run, 1, "es")]["verdict"] = "perhaps"
    store.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReviewError, match=r"judgments\.json is damaged; delete it"):
        import_judgments(run, hand_files(run, tmp_path)[1:2])
    store.write_text('{"judgments": [1, 2]}', encoding="utf-8")
    with pytest.raises(ReviewError, match=r"judgments\.json is damaged"):
        import_judgments(run, hand_files(run, tmp_path)[1:2])


def test_a_card_made_from_nothing_is_the_section_alone(run: Path, tmp_path: Path) -> None:
    (run / "DATACARD.md").unlink()
    import_judgments(run, hand_files(run, tmp_path))
    assert (run / "DATACARD.md").read_text("utf-8").startswith("## Human review\n\n")


def test_an_unfilled_spreadsheet_is_a_warning(run: Path, tmp_path: Path, caplog) -> None:
    blank = csv_file(tmp_path / "carla.csv", [{"id": item_id(run, 1, "es"), "verdict": ""}])
    with caplog.at_level("WARNING"):
        report = json.loads(import_judgments(run, [*hand_files(run, tmp_path), blank], fmt="json"))
    assert report["imported"][str(blank)] == 0 and report["items_judged"] == 12
    assert f"{blank} holds no verdict" in caplog.text
    with pytest.raises(ReviewError, match="the files hold no verdict"):
        import_judgments(make_run(tmp_path / "other"), [blank])
