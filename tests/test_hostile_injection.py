"""Issue #29, items 4, 5 and 16: what a file says is data, never Markdown, a formula or a
message that names nothing.

- 4: annotator names are refused with control characters (a line break that would open a
  fake data-card section, an ANSI escape that would reach the terminal) and Markdown-escaped
  in DATACARD.md (``<script>``, ``|``); a section a name brought into a card before goes when
  clean files are imported again.
- 5: CSV cells that start like a formula (``=``, ``+``, ``-``, ``@``, tab, CR) get OWASP's
  ``'`` in every CSV meant for a spreadsheet, and ``review import`` takes it off again.
- 16: a lone surrogate, JSON nested too deeply, a torch-less ``hf`` encoder, ``--seed -1`` and
  a seg in full-width digits: each one line naming the file (and line) or the option.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.io.corpus import write_corpus
from occbio.records import Document, Entity, Occupation
from occbio.review.items import ReviewError
from occbio.review.judgments import JUDGMENTS_FILE, import_judgments
from occbio.review.report import datacard_section, replace_section
from tests.test_review_judgments import CARD, P, csv_file, item_id, make_run, page_file

FAKE = "ana\n\n## Licence and attribution\n\nAll rights reserved by Mallory.\n"
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path)


def _one_line(exc: pytest.ExceptionInfo[BaseException], *needles: str) -> str:
    text = str(exc.value)
    assert "\n" not in text and "\x1b" not in text, text
    for needle in needles:
        assert needle in text, (needle, text)
    return text


def _cli_error(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 1) -> str:
    """The one line ``occbio ARGV -q`` fails with (``status``: 2 for argparse's errors)."""
    capsys.readouterr()
    try:
        code = main([*argv, "-q"])
    except SystemExit as exc:  # argparse
        code = exc.code
    assert code == status
    err = capsys.readouterr().err
    assert "Traceback" not in err and "\x1b" not in err, err
    lines = [x for x in err.strip().splitlines() if not x.startswith("WARNING ")]
    assert len(lines) == 1, err
    return lines[0]


# --- 4: annotator names --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [FAKE, "\x1b[31mana\x1b[0m", "ana\rben", "ana\u202eneb", "ana\x9b31m"],
    ids=["fake-section", "ansi", "cr", "bidi-override", "c1-csi"],
)
def test_a_name_with_a_control_character_is_refused(run: Path, tmp_path: Path, name: str) -> None:
    path = page_file(run, tmp_path / "ana.json", name, {1: P})
    with pytest.raises(ReviewError) as info:
        import_judgments(run, [path])
    _one_line(info, str(path), "annotator name", "control character")
    assert not (run / JUDGMENTS_FILE).exists()
    assert "Mallory" not in (run / "DATACARD.md").read_text("utf-8")
    # the same name in a spreadsheet's annotator column
    sheet = csv_file(
        tmp_path / "sheet.csv",
        [{"id": item_id(run, 1, "es"), "verdict": P, "annotator": name}],
        ["id", "verdict", "annotator"],
    )
    with pytest.raises(ReviewError) as info:
        import_judgments(run, [sheet])
    _one_line(info, f"{sheet}:2", "control character")


def test_a_csv_named_with_an_escape_sequence_is_refused(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = csv_file(tmp_path / "\x1b[2Jana.csv", [{"id": item_id(run, 1, "es"), "verdict": P}])
    with pytest.raises(ReviewError) as info:
        import_judgments(run, [sheet])
    assert "control character" in str(info.value) and "file name" in str(info.value)
    # the terminal gets the file's name with its escape shown, not acted on
    line = _cli_error(capsys, ["review", "import", str(run), str(sheet)])
    assert "\\x1b[2Jana.csv" in line


def test_a_store_with_a_hostile_name_or_an_unknown_item_is_one_line(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``review/judgments.json`` edited by hand: a name with an escape, an item no segment has
    (a KeyError traceback on import, judgments dropped without a word on apply)."""
    clean = page_file(run, tmp_path / "ana.json", "ana", {1: P})
    import_judgments(run, [clean])
    store = run / JUDGMENTS_FILE
    data = json.loads(store.read_text("utf-8"))
    data["judgments"]["\x1b[31mmallory"] = data["judgments"]["ana"]
    store.write_text(json.dumps(data), encoding="utf-8")
    for action in (["import", str(run), str(clean)], ["apply", str(run)]):
        line = _cli_error(capsys, ["review", *action])
        assert str(store) in line and "control character" in line
    del data["judgments"]["\x1b[31mmallory"]
    data["judgments"]["ana"][item_id(run, 1, "es").replace(":Q1:", ":Q9:")] = {
        "verdict": P,
        "post_edit": None,
    }
    store.write_text(json.dumps(data), encoding="utf-8")
    for action in (["import", str(run), str(clean)], ["apply", str(run)]):
        line = _cli_error(capsys, ["review", *action])
        assert str(store) in line and "is damaged" in line and ":Q9:" in line


def test_a_rewritten_card_makes_the_section_again_from_the_report() -> None:
    """The write stage (``augment``, a resumed ``mine``) keeps the review section: made again
    from review/report.json, so neither a section a name brought into the card before nor a
    name with a line break in the report comes back as a heading."""
    from occbio.review.report import kept_section

    report = {
        "annotators": {FAKE: 1},
        "items_judged": 1,
        "ties": 0,
        "precision": [],
        "agreement": [],
        "threshold": [{"pair": "en-es", "target": 0.95, "threshold": None, "judged": 1}],
    }
    written = datacard_section({**report, "annotators": {"NAME": 1}}, date="2026-01-01")
    legacy = replace_section(CARD, written.replace("NAME", FAKE))  # the name, raw
    assert "\n## Licence and attribution\n" in legacy  # as occbio wrote it before
    section = kept_section(legacy, report)
    assert section is not None and "imported 2026-01-01" in section
    assert [x for x in section.splitlines() if x.startswith("## ")] == ["## Human review"]
    assert "\n## Licence" not in replace_section(CARD, section)


def test_a_huge_name_is_refused(run: Path, tmp_path: Path) -> None:
    path = page_file(run, tmp_path / "ana.json", "a" * 1_000_000, {1: P})
    with pytest.raises(ReviewError) as info:
        import_judgments(run, [path])
    assert len(_one_line(info, "1000000 characters")) < 300


def test_names_are_markdown_escaped_in_the_card(run: Path, tmp_path: Path) -> None:
    script = "<script>alert(1)</script>"
    piped = "ana | ben"
    a = page_file(run, tmp_path / "a.json", script, {1: P, 2: P})
    b = page_file(run, tmp_path / "b.json", piped, {1: P, 2: P})
    assert main(["review", "import", str(run), str(a), str(b), "-q"]) == 0
    card = (run / "DATACARD.md").read_text("utf-8")
    assert "<script>" not in card and "&lt;script&gt;" in card
    assert "ana | ben" not in card and "ana \\| ben" in card
    # every row of every table has as many cells as its header
    for table in re.findall(r"(?:^\|.*\|\n)+", card, flags=re.M):
        widths = {len(re.split(r"(?<!\\)\|", row)) for row in table.splitlines()}
        assert len(widths) == 1, table


def test_a_section_a_name_brought_in_goes_when_clean_files_are_imported(
    run: Path, tmp_path: Path
) -> None:
    """The card as an earlier occbio wrote it with a name holding a heading; then the store is
    deleted and clean files imported: the fake section goes with the old one, and the write
    stage's checksum is of the card as it is now (so `mine` skips write rightly)."""
    fake = datacard_section(
        {
            "annotators": {"NAME": 1},
            "items_judged": 1,
            "ties": 0,
            "precision": [],
            "agreement": [],
            "threshold": [{"pair": "en-es", "target": 0.95, "threshold": None, "judged": 1}],
        },
        date="2026-01-01",
    ).replace("NAME", FAKE)  # the name, raw, as occbio wrote it before
    (run / "DATACARD.md").write_text(replace_section(CARD, fake), encoding="utf-8")
    assert "Mallory" in (run / "DATACARD.md").read_text("utf-8")
    clean = page_file(run, tmp_path / "ana.json", "ana", {1: P, 2: P})
    import_judgments(run, [clean])
    card = (run / "DATACARD.md").read_text("utf-8")
    assert "Mallory" not in card and "## Licence and attribution" not in card
    assert card.count("## Human review") == 1
    assert card.startswith(CARD.split("## Known limitations")[0])
    assert card.endswith("## Known limitations\n\n- Tiny.\n")


# --- 5: formula injection ------------------------------------------------------------------


def _formula_run(root: Path) -> Path:
    langs = ["en", "es"]
    sentences = [
        ('=HYPERLINK("http://evil.example","x")', "=1+1 es dos."),
        ("+cmd|' /C calc'!A0", "-5 grados y bajando."),
        ("@SUM(A1:A9)", "'=ya con comilla."),
        ("Plain sentence.", "Frase normal."),
    ]
    doc = Document(
        entity=Entity(
            qid="Q1",
            label='=HYPERLINK("http://evil.example")',
            gender="female",
            occupations=[Occupation("Q36180", "-writer")],
            titles={lang: "Ana" for lang in langs},
        ),
        segments=[{"en": en, "es": es} for en, es in sentences],
        scores=[{"es": 1.0} for _ in sentences],
        page_ids={"en": 1, "es": 2},
    )
    run = root / "formula"
    write_corpus(run / "corpus", langs, [doc], pivot="en")
    (run / "DATACARD.md").write_text(CARD, encoding="utf-8")
    return run


FORMULA = re.compile(r"[=+\-@\t\r]")


def _cells(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.reader(fh))


def test_the_spreadsheet_cell_rule() -> None:
    from occbio.io.spreadsheet import from_spreadsheet, spreadsheet_cell

    for raw in ["=1+1", "+x", "-x", "@x", "\tx", "\rx", "'=x", "''-x"]:
        assert spreadsheet_cell(raw) == "'" + raw
        assert from_spreadsheet(spreadsheet_cell(raw)) == raw
    for raw in ["plain", "-0.25", "+3", "1e-5", "'plain", "", "a=b"]:
        assert spreadsheet_cell(raw) == raw and from_spreadsheet(raw) == raw
    assert spreadsheet_cell(-0.25) == -0.25


def test_review_csv_cells_are_neutralised_and_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _formula_run(tmp_path)
    assert main(["review", "export", str(run), "--all", "-q"]) == 0
    capsys.readouterr()
    header, *rows = _cells(run / "review" / "review-en-es.csv")
    for row in rows:
        for cell in row:
            assert not FORMULA.match(cell) or re.fullmatch(r"-?[\d.]+", cell), cell
    col = {name: i for i, name in enumerate(header)}
    assert rows[0][col["name"]] == '\'=HYPERLINK("http://evil.example")'
    assert rows[1][col["tgt"]] == "'-5 grados y bajando."
    assert rows[2][col["tgt"]] == "''=ya con comilla."
    # a spreadsheet user copies tgt into post_edit (the ' and all) and saves: import undoes it
    for row in rows[:3]:
        row[col["verdict"]] = "parallel"
        row[col["post_edit"]] = row[col["tgt"]].replace("grados", "grados Celsius")
    filled = tmp_path / "marta.csv"
    with filled.open("w", encoding="utf-8-sig", newline="") as fh:
        csv.writer(fh).writerows([header, *rows])
    assert main(["review", "import", str(run), str(filled), "-q"]) == 0
    assert main(["review", "apply", str(run), "-q"]) == 0
    capsys.readouterr()
    edited = [json.loads(x) for x in (run / "corpus" / "post-edited.jsonl").open(encoding="utf-8")]
    assert [r["text"]["es"] for r in edited[:3]] == [
        "=1+1 es dos.",
        "-5 grados Celsius y bajando.",
        "'=ya con comilla.",
    ]


def test_evaluate_csv_cells_are_neutralised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _formula_run(tmp_path)
    system = tmp_path / "sys.es"
    system.write_text(
        "".join(
            line + "\n"
            for line in (run / "corpus" / "corpus.es").read_text("utf-8").split("\n")[:-1]
        ),
        encoding="utf-8",
    )
    out = tmp_path / "eval"
    argv = ["evaluate", str(run), "--tgt", "es", "--out", str(out), "--min-docs", "1"]
    assert main([*argv, "--system", f"@evil={system}", "--resamples", "20", "-q"]) == 0
    capsys.readouterr()
    for name in ("documents.csv", "scores.csv"):
        for row in _cells(out / name)[1:]:
            for cell in row:
                assert not FORMULA.match(cell) or re.fullmatch(r"-?[\d.]+", cell), (name, cell)
    docs = _cells(out / "documents.csv")
    assert docs[1][:4] == ["'@evil", "Q1", "female", "'-writer"]


def test_audit_csv_cells_are_neutralised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("=cmd.txt").write_text("Ella es escritora.\nÉl es escritor.\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["audit", "=cmd.txt", "--lang", "es", "--format", "csv", "-q"]) == 0
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[1][0] == "'=cmd.txt"


# --- 16: messages that name nothing --------------------------------------------------------


def test_a_lone_surrogate_in_a_post_edit_names_the_file_and_line(run: Path, tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    page_file(run, path, "ana", {1: P}, edits={1: "x"})
    data = json.loads(path.read_text("utf-8"))
    data["judgments"][0]["post_edit"] = "Hola\ud800"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")  # "\ud800" escaped, as JSON does
    with pytest.raises(ReviewError) as info:
        import_judgments(run, [path])
    line = next(n for n, x in enumerate(path.read_text("utf-8").splitlines(), 1) if "\\ud800" in x)
    _one_line(info, f"{path}:{line}:", "\\ud800", "surrogate")
    assert not (run / JUDGMENTS_FILE).exists()


def test_deeply_nested_json_names_the_file(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    judged = tmp_path / "deep.json"
    judged.write_text(DEEP, encoding="utf-8")
    with pytest.raises(ReviewError) as info:
        import_judgments(run, [judged])
    _one_line(info, str(judged), "nested")
    # the store
    import_judgments(run, [page_file(run, tmp_path / "ana.json", "ana", {1: P})])
    store = run / JUDGMENTS_FILE
    store.write_text(DEEP, encoding="utf-8")
    line = _cli_error(capsys, ["review", "import", str(run), str(tmp_path / "ana.json")])
    assert str(store) in line and "nested" in line
    line = _cli_error(capsys, ["review", "apply", str(run)])
    assert str(store) in line and "nested" in line
    # a translation file of JSON lines
    hyps = tmp_path / "sys.jsonl"
    hyps.write_text('{"id": "Q1:1", "text": "x"}\n' + DEEP + "\n", encoding="utf-8")
    argv = ["evaluate", str(run), "--tgt", "es", "--out", str(tmp_path / "ev")]
    line = _cli_error(capsys, [*argv, "--system", f"s={hyps}"])
    assert f"{hyps}:2:" in line and "nested" in line
    # the corpus itself
    with (run / "corpus" / "corpus.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(DEEP + "\n")
    line = _cli_error(capsys, ["review", "export", str(run)])
    assert "corpus.jsonl:7:" in line


def test_a_seg_in_full_width_digits_is_refused(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [json.loads(x) for x in (run / "corpus" / "corpus.jsonl").open(encoding="utf-8")]
    hyps = tmp_path / "sys.jsonl"
    lines = [{"qid": r["qid"], "seg": str(r["seg"]), "text": r["text"]["es"]} for r in rows]
    lines[0]["seg"] = "１"  # FULLWIDTH DIGIT ONE, which int() reads as 1
    hyps.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    argv = ["evaluate", str(run), "--tgt", "es", "--out", str(tmp_path / "ev")]
    line = _cli_error(capsys, [*argv, "--system", f"s={hyps}", "--resamples", "10"])
    assert f"{hyps}:1:" in line and "ASCII digits" in line


def test_a_negative_seed_names_the_option(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["evaluate", str(run), "--tgt", "es", "--system", "s=x.es", "--seed", "-1"]
    line = _cli_error(capsys, argv, status=2)
    assert "--seed" in line and "'-1'" in line


def test_the_hf_encoder_without_torch_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from occbio.align import hf_encoder

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch: ModuleNotFoundError
    with pytest.raises(Exception) as info:
        hf_encoder._import_backend(False)
    text = str(info.value)
    assert "torch and torch" not in text and "torch and transformers" in text
    assert "torch does not import" in text
