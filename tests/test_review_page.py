"""``occbio review export``: the pages and CSV files annotators get, and the page itself driven
with the keyboard in a real headless Chromium (the Debian package; nothing is downloaded)."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import shutil
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.review.export import CSV_COLUMNS, page_data
from occbio.review.items import read_items, run_id

HOSTILE = "</script><script>window.pwned = 1</script><!-- \"quoted\" & 'single' <b>bold</b>"
ARABIC = "وُلدت في القاهرة عام 1950 ودرست الطب."
HEBREW = 'היא נולדה בתל אביב ב-1962 ולמדה "משפטים".'


def _corpus(run: Path, rows: list[dict]) -> Path:
    path = run / "corpus" / "corpus.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return run


def _row(qid: str, seg: int, gender: str, texts: dict[str, str], score: float) -> dict:
    langs = [lang for lang in texts if lang != "en"]
    return {
        "text": texts,
        "qid": qid,
        "name": f"Person {qid}",
        "gender": gender,
        "seg": seg,
        "scores": {lang: score for lang in langs},
    }


@pytest.fixture
def hostile_run(tmp_path: Path) -> Path:
    """Two documents; one sentence tries to close the items' script, others are right-to-left."""
    rows = [
        _row(
            "Q1",
            1,
            "female",
            {
                "en": "She was born in Cairo in 1950 and studied medicine.",
                "ar": ARABIC,
                "he": HEBREW,
            },
            1.10,
        ),
        _row("Q1", 2, "female", {"en": HOSTILE, "ar": HOSTILE, "he": "טקסט"}, 1.05),
        _row(
            "Q1",
            3,
            "female",
            {"en": "She retired in 2010.", "ar": "تقاعدت عام 2010.", "he": "היא פרשה ב-2010."},
            1.20,
        ),
        _row(
            "Q2",
            1,
            "male",
            {"en": "He is a lawyer.", "ar": "هو محامٍ.", "he": "הוא עורך דין."},
            1.15,
        ),
    ]
    return _corpus(tmp_path / "hostile", rows)


@pytest.fixture
def stratified_run(tmp_path: Path) -> Path:
    """60 segments of 12 people (6 female, 6 male), scores spread over the three bands."""
    rows = []
    for person in range(12):
        gender = "female" if person % 2 else "male"
        for seg in range(1, 6):
            score = 1.0 + ((person * 5 + seg) % 30) / 100
            rows.append(
                _row(
                    f"Q{100 + person}",
                    seg,
                    gender,
                    {
                        "en": f"English sentence {seg} of person {person}.",
                        "es": f"Frase española {seg} de la persona {person}.",
                        "ca": f"Frase catalana {seg} de la persona {person}.",
                    },
                    score,
                )
            )
    return _corpus(tmp_path / "strat", rows)


def _export(run: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> list[Path]:
    assert main(["review", "export", str(run), *args, "-q"]) == 0
    return [Path(line) for line in capsys.readouterr().out.split()]


def _read_csv(path: Path) -> list[dict[str, str]]:
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"  # the BOM Excel needs to read UTF-8
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
        return list(reader)


def _embedded(page: Path) -> dict:
    """The items' JSON as the browser sees it: up to the first ``</script>`` after the tag."""
    html = page.read_text("utf-8")
    start = html.index('<script type="application/json" id="items">')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    assert "<!--" not in body
    return json.loads(body)


# --- export: files, CSV, sampling ---------------------------------------------------------------


def test_export_all_writes_a_page_and_csv_per_pair(
    stratified_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = stratified_run / "review"
    paths = _export(stratified_run, "--all", capsys=capsys)
    assert paths == [
        out / "review-en-es.html",
        out / "review-en-es.csv",
        out / "review-en-ca.html",
        out / "review-en-ca.csv",
    ]
    items, _ = read_items(stratified_run)
    rid = run_id(stratified_run)
    for pair in ("en-es", "en-ca"):
        rows = _read_csv(out / f"review-{pair}.csv")
        expected = [it for it in items if it.pair == pair]
        assert [r["id"] for r in rows] == [it.id for it in expected]
        assert len(rows) == 60
        assert all(r["id"].startswith(f"{rid}:") and r["pair"] == pair for r in rows)
        assert all(r["verdict"] == "" and r["post_edit"] == "" for r in rows)
        third = rows[2]  # the person's 3rd sentence: two before, two after
        assert (
            third["before"] == "English sentence 1 of person 0. / English sentence 2 of person 0."
        )
        assert third["after"] == "English sentence 4 of person 0. / English sentence 5 of person 0."
        assert third["src"] == "English sentence 3 of person 0."
        assert third["tgt"].startswith("Frase") and third["tgt"].endswith("3 de la persona 0.")
        assert float(third["score"]) == pytest.approx(1.03)
        assert {r["band"] for r in rows} == {"low", "mid", "high"}
        data = _embedded(out / f"review-{pair}.html")
        assert data["run"] == rid and data["pair"] == pair and len(data["items"]) == 60
        assert "score" not in data["items"][0]  # judges do not see the aligner's confidence


def test_sample_is_stratified_per_pair_and_seeded(
    stratified_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _export(stratified_run, "--sample", "12", "--out", str(tmp_path / "a"), capsys=capsys)
    b = _export(stratified_run, "--sample", "12", "--out", str(tmp_path / "b"), capsys=capsys)
    c = _export(
        stratified_run, "--sample", "12", "--seed", "7", "--out", str(tmp_path / "c"), capsys=capsys
    )
    for pa, pb in zip(a, b, strict=True):
        assert pa.read_bytes() == pb.read_bytes()
    rows = _read_csv(tmp_path / "a" / "review-en-es.csv")
    assert len(rows) == 12
    # 6 strata (3 bands x 2 genders) with 10 items each: 2 items from every one
    assert Counter((r["band"], r["gender"]) for r in rows) == {
        (band, gender): 2 for band in ("low", "mid", "high") for gender in ("female", "male")
    }
    assert len(_read_csv(tmp_path / "a" / "review-en-ca.csv")) == 12
    other = {r["id"] for r in _read_csv(tmp_path / "c" / "review-en-es.csv")}
    assert other != {r["id"] for r in rows}
    assert c[0].name == "review-en-es.html"


def test_langs_chooses_the_pairs(stratified_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _export(stratified_run, "--all", "--langs", "ca", capsys=capsys)
    assert [p.name for p in paths] == ["review-en-ca.html", "review-en-ca.csv"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sample", "-1"], "--sample -1: give at least 1 item per language pair"),
        (["--sample", "0"], "--sample 0: give at least 1 item per language pair"),
        (["--langs", "fr"], "--langs: the corpus has no fr besides its pivot en"),
    ],
)
def test_bad_options_are_one_line_errors(
    stratified_run: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", str(stratified_run), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"occbio: error: {message}") and err.count("\n") == 1
    assert not (stratified_run / "review").exists()


def test_out_that_is_a_file_is_a_one_line_error(
    stratified_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = stratified_run / "taken"
    blocker.write_text("not a directory")
    assert main(["review", "export", str(stratified_run), "--out", str(blocker / "x")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: ") and "Traceback" not in err
    assert blocker.read_text() == "not a directory"


def test_hostile_text_stays_text_in_the_files(
    hostile_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _export(hostile_run, "--all", capsys=capsys)
    page = hostile_run / "review" / "review-en-ar.html"
    html = page.read_text("utf-8")
    # only the page's own two scripts open and close: no sentence ends the items' element
    assert html.count("<script") == 2 and html.count("</script>") == 2
    assert "pwned" in html and "<b>bold" not in html
    items, meta = read_items(hostile_run, ["ar"])
    assert _embedded(page) == page_data(items, run=meta["run"], pair="en-ar")
    rows = _read_csv(hostile_run / "review" / "review-en-ar.csv")
    assert [r["src"] for r in rows][1] == HOSTILE and rows[0]["tgt"] == ARABIC
    assert rows[0]["after"] == f"{HOSTILE} / She retired in 2010."
    assert _read_csv(hostile_run / "review" / "review-en-he.csv")[0]["tgt"] == HEBREW
    assert len(paths) == 4


# --- the page in a real browser -----------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium():
    """Headless Chromium from the system (``apt-get install chromium``), driven by Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.skip("no system Chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path)
        yield browser
        browser.close()


class PageLog:
    """A browser tab that remembers every request and script error."""

    def __init__(self, context) -> None:
        self.page = context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: Path):
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("body[data-ready]", timeout=30_000)
        return self.page

    def text(self, selector: str) -> str:
        return self.page.text_content(selector) or ""


def _pressed(page) -> str | None:
    return page.evaluate(
        "document.querySelector('#verdicts button[aria-pressed=\"true\"]')?.dataset.verdict ?? null"
    )


@pytest.mark.slow
def test_hostile_text_shows_as_text_in_the_browser(
    chromium, hostile_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _export(hostile_run, "--all", capsys=capsys)
    items_ar = _embedded(hostile_run / "review" / "review-en-ar.html")["items"]
    context = chromium.new_context(accept_downloads=True)
    tab = PageLog(context)
    page = tab.open(hostile_run / "review" / "review-en-ar.html")
    assert tab.text("#tgt") == ARABIC and page.input_value("#post-edit") == ARABIC
    assert page.get_attribute("#tgt", "lang") == "ar"
    assert page.evaluate("getComputedStyle(document.querySelector('#tgt')).direction") == "rtl"
    assert tab.text("#after p:first-child") == HOSTILE  # context is text too
    page.keyboard.press("j")
    assert tab.text("#src") == HOSTILE and tab.text("#tgt") == HOSTILE
    assert page.input_value("#post-edit") == HOSTILE
    assert page.evaluate("window.pwned") is None
    assert page.locator("#card b, #card script").count() == 0
    # export without a name: told to type it, nothing saved
    page.click("#export")
    assert "Type your name" in tab.text("#status")
    assert page.evaluate("document.activeElement.id") == "annotator"
    # a name with a path in it: the download's name keeps letters, not directories
    page.fill("#annotator", "../Ana Ruiz/x")
    page.keyboard.press("Escape")
    page.keyboard.press("3")
    with page.expect_download() as info:
        page.click("#export")
    assert info.value.suggested_filename == "judgments-en-ar-_Ana_Ruiz_x.json"
    saved = json.loads(Path(info.value.path()).read_text("utf-8"))
    assert saved["annotator"] == "../Ana Ruiz/x"
    assert saved["judgments"] == [
        {"id": items_ar[1]["id"], "verdict": "not_parallel", "post_edit": None}
    ]
    assert tab.requests == [(hostile_run / "review" / "review-en-ar.html").as_uri()]
    assert tab.errors == []
    context.close()


@pytest.mark.slow
def test_keyboard_review_survives_reload_and_exports_judgments(
    chromium, mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    shutil.copytree(mined_sample, run)
    _export(run, "--sample", "20", capsys=capsys)
    html = run / "review" / "review-en-es.html"
    items = _embedded(html)["items"]
    assert len(items) == 20
    context = chromium.new_context(accept_downloads=True, viewport={"width": 1000, "height": 700})
    tab = PageLog(context)
    page = tab.open(html)
    assert tab.text("#progress") == "0 / 20 judged" and tab.text("#src") == items[0]["src"]
    page.click("#annotator")
    page.keyboard.type("Jake Núñez 3")  # letters and digits that are keys elsewhere: text here
    assert tab.text("#progress") == "0 / 20 judged" and tab.text("#position") == "Item 1 of 20"

    page.keyboard.press("Escape")  # leave the name field
    page.keyboard.press("1")  # item 0: parallel, on to item 1
    assert tab.text("#position") == "Item 2 of 20" and tab.text("#src") == items[1]["src"]
    page.keyboard.press("3")  # item 1: not parallel
    page.keyboard.press("e")  # item 2: post-edit, digits typed are text, not verdicts
    assert page.evaluate("document.activeElement.id") == "post-edit"
    edited = items[2]["tgt"] + " 1 2 3 j k"
    page.keyboard.type(" 1 2 3 j k")  # the caret starts at the end
    assert page.input_value("#post-edit") == edited
    assert tab.text("#progress") == "2 / 20 judged" and tab.text("#position") == "Item 3 of 20"
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") != "post-edit"
    page.keyboard.press("2")  # item 2: partly parallel
    assert tab.text("#progress") == "3 / 20 judged"
    assert page.evaluate("document.querySelector('#bar').value") == 3
    page.keyboard.press("ArrowLeft")
    assert _pressed(page) == "partial" and page.input_value("#post-edit") == edited
    page.keyboard.press("k")
    assert _pressed(page) == "not_parallel"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("?")
    assert page.is_visible("#help")
    page.keyboard.press("1")  # nothing is judged behind the help
    assert tab.text("#progress") == "3 / 20 judged" and tab.text("#position") == "Item 3 of 20"
    page.keyboard.press("Escape")
    assert not page.is_visible("#help")
    page.screenshot(path=str(tmp_path / "mid-review.png"))

    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert tab.text("#progress") == "3 / 20 judged"
    assert page.input_value("#annotator") == "Jake Núñez 3"
    assert tab.text("#position") == "Item 3 of 20"
    assert _pressed(page) == "partial" and page.input_value("#post-edit") == edited

    with page.expect_download() as info:
        page.click("#export")
    download = info.value
    assert download.suggested_filename == "judgments-en-es-Jake_Núñez_3.json"
    judgments_file = tmp_path / download.suggested_filename
    download.save_as(judgments_file)
    saved = json.loads(judgments_file.read_text("utf-8"))
    assert set(saved) == {"occbio_review", "run", "pair", "annotator", "exported", "judgments"}
    assert saved["occbio_review"] == 1 and saved["run"] == run_id(run)
    assert saved["pair"] == "en-es" and saved["annotator"] == "Jake Núñez 3"
    assert datetime.fromisoformat(saved["exported"].replace("Z", "+00:00")).tzinfo is not None
    assert saved["judgments"] == [
        {"id": items[0]["id"], "verdict": "parallel", "post_edit": None},
        {"id": items[1]["id"], "verdict": "not_parallel", "post_edit": None},
        {"id": items[2]["id"], "verdict": "partial", "post_edit": edited},
    ]
    assert "Saved 3 judgments" in tab.text("#status")

    # the other pair's page keeps its own work (none yet) but knows the annotator
    other = tab.open(run / "review" / "review-en-ca.html")
    assert tab.text("#progress") == "0 / 20 judged"
    assert other.input_value("#annotator") == "Jake Núñez 3"
    assert all(url.startswith("file://") for url in tab.requests)
    assert tab.errors == []
    context.close()

    _import_and_apply(run, judgments_file, items, edited, capsys)


def _import_and_apply(run: Path, judgments: Path, items: list[dict], edited: str, capsys) -> None:
    """The page's file through ``occbio review import`` and ``apply``, where they exist."""
    for module in ("occbio.review.judgments", "occbio.review.apply"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not built yet: import and apply not checked")
    assert main(["review", "import", str(run), str(judgments), "-q"]) == 0
    assert main(["review", "apply", str(run), "-q"]) == 0
    capsys.readouterr()
    rows = [
        json.loads(line) for line in (run / "corpus" / "post-edited.jsonl").open(encoding="utf-8")
    ]
    key = {(r["qid"], int(r["seg"])): r for r in rows}

    def where(item: dict) -> tuple[str, int]:
        _, qid, seg, _ = item["id"].split(":")
        return qid, int(seg)

    assert where(items[1]) not in key  # not parallel: gone in every language
    assert key[where(items[2])]["text"]["es"] == edited
    assert key[where(items[0])]["text"]["es"] == items[0]["tgt"]
    original = (run / "corpus" / "corpus.jsonl").read_text("utf-8").splitlines()
    assert len(rows) == len(original) - 1


@pytest.mark.slow
def test_benchmark_prints_size_and_first_render(chromium) -> None:
    """benchmarks/review_page.py on a small page: the figures it prints are there and sane."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    if not (root.parent / "shared/data/mt-geneval-dev/sentences-dev").is_dir():
        pytest.skip("MT-GenEval's sentences are not in ../shared/data")
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks/review_page.py"), "--items", "60", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    out = done.stdout
    assert "items on the page: 60;" in out
    page_mb = float(re.search(r"page: ([\d.]+) MB", out).group(1))
    assert 0.01 < page_mb < 0.2  # about 1 kB an item
    first = float(re.search(r"first render, fresh profile: min (\d+) ms", out).group(1))
    assert first > 0
    assert re.search(r"one verdict key .* median [\d.]+ ms", out)


@pytest.mark.slow
def test_csv_filled_in_a_spreadsheet_goes_back_through_import_and_apply(
    mined_sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CSV, filled as a spreadsheet saves it (UTF-8 with BOM), is what import reads."""
    for module in ("occbio.review.judgments", "occbio.review.apply"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not built yet")
    run = tmp_path / "run"
    shutil.copytree(mined_sample, run)
    _export(run, "--sample", "6", "--langs", "ca", capsys=capsys)
    rows = _read_csv(run / "review" / "review-en-ca.csv")
    assert len(rows) == 6
    rows[0]["verdict"], rows[1]["verdict"], rows[2]["verdict"] = (
        "parallel",
        "not_parallel",
        "partial",
    )
    rows[2]["post_edit"] = rows[2]["tgt"].rstrip(".") + ", segons la premsa."
    filled = tmp_path / "marta.csv"
    with filled.open("w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    assert main(["review", "import", str(run), str(filled), "--format", "json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    overall = next(r for r in report["precision"] if r["pair"] == "en-ca" and r["band"] == "all")
    assert (overall["judged"], overall["parallel"], overall["partial"]) == (3, 1, 1)
    assert main(["review", "apply", str(run), "-q"]) == 0
    capsys.readouterr()
    edited = [
        json.loads(line) for line in (run / "corpus" / "post-edited.jsonl").open(encoding="utf-8")
    ]
    by_seg = {(r["qid"], int(r["seg"])): r for r in edited}
    assert (rows[1]["doc"], int(rows[1]["seg"])) not in by_seg
    assert by_seg[rows[2]["doc"], int(rows[2]["seg"])]["text"]["ca"] == rows[2]["post_edit"]


@pytest.mark.slow
def test_storage_that_refuses_work_is_said_on_the_page(
    chromium, hostile_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full or disabled local storage: the annotator is told to export, the page still works."""
    _export(hostile_run, "--all", capsys=capsys)
    context = chromium.new_context()
    context.add_init_script(
        "Storage.prototype.setItem = function () {"
        " throw new DOMException('quota exceeded', 'QuotaExceededError'); };"
    )
    tab = PageLog(context)
    page = tab.open(hostile_run / "review" / "review-en-he.html")
    assert tab.text("#status") == ""
    page.keyboard.press("1")
    assert "could not be kept" in tab.text("#status") and "export" in tab.text("#status")
    assert page.get_attribute("#status", "class") == "warn"
    assert tab.text("#progress") == "1 / 4 judged" and tab.text("#position") == "Item 2 of 4"
    assert tab.errors == []
    context.close()
