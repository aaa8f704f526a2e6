"""Issue #29's own hostile round on `evaluate`, `review`, `augment`, `audit`, `rebuild` and
`stats`: each defect it found, fed the real hostile input.

- a corpus.jsonl row whose descriptive keys (``occupations``, ``urls``, ``scores``) have another
  shape than occbio writes: one line naming the file and line, never a traceback in `evaluate`
  or `review export|import|apply`;
- a revision id no wiki gives (past int64, negative) from an Enterprise HTML dump or an edited
  corpus: no id, never a Parquet overflow at the end of `review apply` or `mine`;
- `evaluate --simulate` with ``systems/`` a link out of the run: refused, nothing written there;
- Ctrl-C while occbio loads (seconds on a busy machine): one line, no traceback (a real SIGINT,
  sent while a module loads);
- Ctrl-C in `rebuild` while a server never answers: the process ends, it does not wait minutes
  for the request's retries;
- a review CSV with the verdict column twice: refused, naming it (it read the blank first one);
- `occbio stats` on a stats.json of another shape (a warning, no traceback) and on a manifest
  naming a counter with a terminal escape (shown as U+FFFD).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import occbio
from occbio.cli import main
from tests.enterprise_factory import enterprise_article, write_enterprise_dump
from tests.factories import human, occupation, write_wikidata_dump
from tests.test_review_judgments import csv_file, item_id, make_run, page_file

ROOT = Path(occbio.__file__).resolve().parent.parent
#: A hang guard, never a speed test.
HANG_GUARD_S = 300


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _one_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one `occbio: error:` line ``occbio ARGV`` fails with, in this process."""
    capsys.readouterr()
    assert main([*argv, "-q"]) != 0
    err = capsys.readouterr().err
    lines = [x for x in err.strip().splitlines() if not x.startswith("WARNING ")]
    assert "Traceback" not in err and len(lines) == 1, err
    assert lines[0].startswith("occbio: error: "), err
    return lines[0]


def _edit_rows(path: Path, **fields: Any) -> None:
    """Set ``fields`` in every row of the corpus.jsonl ``path``."""
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    text = "".join(json.dumps({**row, **fields}, ensure_ascii=False) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8")


# --- corpus rows of another shape ------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("occupations", 5),  # evaluate: 'int' object is not iterable
        ("occupations", ["writer"]),  # review apply: 'str' object has no attribute 'get'
        ("urls", "https://x/wiki/Y"),  # review apply: 'str' object has no attribute 'items'
        ("scores", "1.0"),  # review export and import: 'str' object has no attribute 'get'
    ],
)
def test_a_corpus_row_of_another_shape_is_one_line_in_every_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: Any
) -> None:
    run = make_run(tmp_path)
    corpus = run / "corpus" / "corpus.jsonl"
    _edit_rows(corpus, **{key: value})
    system = tmp_path / "system.es"
    system.write_text("".join(f"Frase {k}.\n" for k in range(1, 7)), encoding="utf-8")
    judged = page_file(run, tmp_path / "ana.json", "ana", dict.fromkeys(range(1, 7), "parallel"))
    commands = [
        ["evaluate", str(run), "--tgt", "es", "--system", f"s={system}", "--resamples", "5"],
        ["review", "export", str(run), "--all"],
        ["review", "import", str(run), str(judged)],
    ]
    for argv in commands:
        line = _one_error(capsys, argv)
        assert f"{corpus}:1: {key!r} is not" in line, line
    assert not (run / "review" / "judgments.json").exists()


# --- ids that are no ids ---------------------------------------------------------------------


def test_review_apply_with_a_revision_id_past_int64_writes_no_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow.parquet as pq

    run = make_run(tmp_path)
    _edit_rows(run / "corpus" / "corpus.jsonl", revision_ids={"en": 10**30, "es": -7, "ca": 42})
    verdicts = dict.fromkeys(range(1, 7), "parallel")
    assert main(["review", "import", str(run), str(page_file(run, tmp_path / "a.json", "a",
                                                             verdicts)), "-q"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["review", "apply", str(run), "-q"]) == 0  # was: OverflowError from pyarrow
    assert "Traceback" not in capsys.readouterr().err
    table = pq.read_table(run / "corpus" / "post-edited.parquet").to_pydict()
    assert set(table["revision_id_en"]) == {None}  # no id: past what any wiki gives
    assert set(table["revision_id_es"]) == {None}  # negative: no id either
    assert set(table["revision_id_ca"]) == {42}
    rows = [json.loads(x) for x in (run / "corpus" / "post-edited.jsonl").open()]
    assert all(row["revision_ids"] == {"ca": 42} for row in rows)


def test_an_enterprise_dump_with_revision_ids_no_wiki_gives_records_none(tmp_path: Path) -> None:
    prose = (
        "<!DOCTYPE html><html><body><section data-mw-section-id='0'><p><b>{0}</b> (born 1950) "
        "is a writer from the town of Leeds.</p><p>She studied history at the university for "
        "four years before moving away.</p></section></body></html>"
    )
    revisions = {"Q1": 2**70, "Q2": -5, "Q3": 2**63, "Q4": 2**63 - 1}
    articles = [
        enterprise_article(f"Person {q}", i + 1, prose.format(q), revision_id=rev, qid=q)
        for i, (q, rev) in enumerate(revisions.items())
    ]
    dump = write_enterprise_dump(tmp_path / "enwiki-NS0-20240601-ENTERPRISE-HTML.json.tar.gz",
                                 articles)  # fmt: skip
    people = [occupation("Q36180", "writer")] + [
        human(q, f"Person {q}", "Q6581072", ["Q36180"], {"en": f"Person {q}"}) for q in revisions
    ]
    entities = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    out = tmp_path / "run"
    argv = ["text", "-q", "--langs", "en", "--entities-dump", str(entities), "--workers", "1"]
    assert main([*argv, "--dump", f"en={dump}", "--out", str(out)]) == 0
    lines = (out / "text" / "en.articles.jsonl").read_text(encoding="utf-8").splitlines()
    got = {row["qid"]: row["revision_id"] for row in map(json.loads, lines)}
    assert got == {"Q1": 0, "Q2": 0, "Q3": 0, "Q4": 2**63 - 1}


# --- evaluate --simulate and a link in its output --------------------------------------------


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.test_evaluate import mine

    return mine(tmp_path_factory.mktemp("round4") / "run")


@pytest.mark.slow
def test_simulated_systems_go_through_no_link(
    mined: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "evaluation"
    out.mkdir()
    (out / "systems").symlink_to(elsewhere)
    argv = ["evaluate", str(mined), "--tgt", "es", "--simulate", "--resamples", "5"]
    line = _one_error(capsys, [*argv, "--out", str(out)])
    assert "symbolic link" in line, line
    assert list(elsewhere.iterdir()) == []  # was: the six simulated systems written there
    assert not (out / "scores.json").exists()


# --- Ctrl-C ----------------------------------------------------------------------------------

#: Runs occbio as `python -m occbio.cli` (``runpy``) or as the `occbio` script does (``entry``),
#: sending itself a real SIGINT while ``occbio.stages.text`` loads.
_INTERRUPTED_WHILE_LOADING = """
import importlib.abc, os, runpy, signal, sys
class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "occbio.stages.text":
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Hook())
sys.argv = ["occbio", "stats", "--out", sys.argv[2]]
if os.environ["HOW"] == "runpy":
    runpy.run_module("occbio.cli", run_name="__main__", alter_sys=True)
else:
    from occbio.cli import main
    sys.exit(main())
"""


@pytest.mark.parametrize("how", ["runpy", "entry"])
def test_ctrl_c_while_occbio_loads_is_one_line(tmp_path: Path, how: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED_WHILE_LOADING, "x", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        env={**_env(), "HOW": how},
        cwd=ROOT,
    )
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "occbio: interrupted; run the same command again to resume where it stopped"
    ], proc.stderr


class _SilentServer:
    """A TCP server that accepts connections and never answers (a stalled site)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = threading.Event()
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            self.accepted.set()

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        self.sock.close()


@pytest.mark.slow
def test_ctrl_c_in_rebuild_while_a_site_never_answers_ends_the_process(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    _edit_rows(run / "corpus" / "corpus.jsonl", revision_ids={"en": 1, "es": 2, "ca": 3})
    server = _SilentServer()
    try:
        base = f"http://127.0.0.1:{server.port}"
        argv = ["rebuild", str(run), "--out", str(tmp_path / "rebuilt"), "--no-cache", "-q"]
        for lang in ("en", "es", "ca"):
            argv += ["--base-url", f"{lang}={base}"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "occbio.cli", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
            cwd=ROOT,
        )
        try:
            assert server.accepted.wait(HANG_GUARD_S), "rebuild never asked"
            proc.send_signal(signal.SIGINT)
            # was: "interrupted" printed, then minutes waiting for the request's retries
            _, err = proc.communicate(timeout=HANG_GUARD_S // 2)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    finally:
        server.close()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith("to resume where it stopped"), err


# --- review import: a column twice -----------------------------------------------------------


def test_a_review_csv_with_the_verdict_column_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path)
    sheet = tmp_path / "ana.csv"
    rows = [{"id": item_id(run, k, "es"), "verdict": ""} for k in range(1, 7)]
    csv_file(sheet, rows, ["id", "verdict"])
    # the annotator filled a second verdict column, leaving the export's one blank
    lines = sheet.read_text(encoding="utf-8").splitlines()
    sheet.write_text(
        "\n".join([lines[0] + ",verdict", *(x + ",parallel" for x in lines[1:])]) + "\n",
        encoding="utf-8",
    )
    line = _one_error(capsys, ["review", "import", str(run), str(sheet)])
    assert "the verdict column appears more than once" in line, line  # was: "no verdict"


# --- stats -----------------------------------------------------------------------------------


def _stats_run(root: Path, counts: dict[str, int]) -> Path:
    run = root / "run"
    run.mkdir()
    stage = {"status": "done", "counts": counts}
    (run / "manifest.json").write_text(json.dumps({"stages": {"text": stage}}), encoding="utf-8")
    return run


@pytest.mark.parametrize(
    "stats",
    [
        {"funnel": [{"stage": "text"}]},
        {"langs": 5, "funnel": []},
        {"funnel": [{"stage": "a", "people": {"f": 1}, "occupations": 2, "sentences": 3}]},
    ],
)
def test_stats_with_a_stats_json_of_another_shape_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stats: dict[str, Any]
) -> None:
    run = _stats_run(tmp_path, {"people": 3})
    (run / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    assert main(["stats", "--out", str(run)]) == 0  # was: KeyError, TypeError, AttributeError
    captured = capsys.readouterr()
    assert "people" in captured.out and "Traceback" not in captured.err


def test_stats_shows_no_control_character_from_the_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _stats_run(tmp_path, {"x\x1b[2J\n[fake] done": 1})
    assert main(["stats", "--out", str(run)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\n[fake]" not in out, out
    assert "x\ufffd[2J\ufffd[fake] done" in out


def test_a_gap_of_a_gender_with_itself_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path)
    system = tmp_path / "system.es"
    system.write_text("".join(f"Frase {k}.\n" for k in range(1, 7)), encoding="utf-8")
    argv = ["evaluate", str(run), "--tgt", "es", "--system", f"s={system}", "--resamples", "5"]
    line = _one_error(capsys, [*argv, "--gap", "female,female"])  # was: a gap of 0, reported
    assert "--gap female,female: a gender compared with itself" in line, line
    assert not (run / "evaluation").exists()
