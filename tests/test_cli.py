"""The `occbio` command: help, validation, errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from occbio.cli import main

STAGES = ["entities", "text", "align", "balance", "write", "stats", "mine"]


def test_help_lists_every_stage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for stage in STAGES:
        assert stage in out


@pytest.mark.parametrize("stage", STAGES)
def test_stage_help(stage: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([stage, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for option in ("--langs", "--out", "--config", "--sample", "--limit", "--quiet"):
        assert option in out
    # each command lists the options of the stages it runs, no more
    assert ("--dump" in out) == (stage != "stats")
    assert ("--threshold" in out) == (stage in ("align", "balance", "write", "mine"))
    assert ("--balance" in out) == (stage in ("balance", "write", "mine"))


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).parent / "occbio"
    if not exe.exists():
        pytest.skip("occbio console script not installed in this environment")
    proc = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=True)
    assert proc.stdout.startswith("occbio ")


def test_unknown_language_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["entities", "--sample", "--langs", "en,xx"]) == 2
    err = capsys.readouterr().err
    assert "unknown language code(s) 'xx'" in err
    assert "Traceback" not in err


def test_bad_config_value_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[clean]\nmin_words = -3\n")
    assert main(["text", "--config", str(cfg), "--out", str(tmp_path / "o")]) == 2
    assert "clean.min_words" in capsys.readouterr().err


def test_missing_dump_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["entities", "--entities-dump", str(tmp_path / "nope.json.bz2"), "--out", str(tmp_path)]
    )
    assert code == 1
    assert "Wikidata dump not found" in capsys.readouterr().err


def test_no_dump_configured_says_how_to_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["entities", "--source", "dump", "--out", str(tmp_path)]) == 2
    assert "--entities-dump" in capsys.readouterr().err


def test_a_stage_before_its_inputs_says_what_to_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`occbio write` on a run whose balance never ran: a one-line error naming the stage."""
    from occbio.config import load_config
    from occbio.run import RunDir
    from occbio.stages.write import run_write

    cfg = load_config(None, {"sample": True, "out": tmp_path})
    with pytest.raises(RuntimeError, match="needs the balance stage first"):
        run_write(cfg, RunDir(tmp_path, config={}))


def test_stats_without_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--out", str(tmp_path / "none")]) == 2
    assert "no run at" in capsys.readouterr().err


def test_text_on_a_non_dump_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An HTML page given as a dump: a clear message, no traceback."""
    from tests.factories import human, write_wikidata_dump

    wd = write_wikidata_dump(
        tmp_path / "wd.json.bz2", [human("Q1", "A", "Q6581072", [], {"en": "A"})]
    )
    html = tmp_path / "enwiki.xml"
    html.write_text("<!DOCTYPE html><html><body>Not a dump</body></html>")
    code = main(
        [
            "text",
            "--langs",
            "en",
            "--entities-dump",
            str(wd),
            "--dump",
            f"en={html}",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert "enwiki.xml" in err and "Traceback" not in err
    # the stage is recorded as failed, with the message, not as still running
    text = json.loads((tmp_path / "o" / "manifest.json").read_text())["stages"]["text"]
    assert text["status"] == "failed" and "enwiki.xml" in text["error"]
    assert main(["stats", "--out", str(tmp_path / "o")]) == 0
    assert "[text] failed: " in capsys.readouterr().out


def test_truncated_dump_keeps_pages_and_says_so(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ukwiki excerpt cut mid-file: the pages before the break are kept, counted and warned of;
    a person whose page lay beyond the break is listed as missing, not silently dropped."""
    from occbio.extract.wikipedia_dump import TruncatedDumpError, iter_pages
    from tests.factories import human, write_wikidata_dump

    dump = shared_data / "wikipedia-dumps" / "ukwiki-truncated-100k.xml.xz"
    titles = []
    with pytest.raises(TruncatedDumpError):
        for page in iter_pages(dump):
            if len(page.wikitext) > 3000 and len(titles) < 5:
                titles.append(page.title)
    titles.append("Сторінка після обриву")  # not in the excerpt
    people = [human(f"Q{i + 1}", t, "Q6581072", [], {"uk": t}) for i, t in enumerate(titles)]
    wd = write_wikidata_dump(tmp_path / "wd.json.bz2", people)
    out = tmp_path / "run"
    code = main(
        [
            "text",
            "--langs",
            "uk",
            "--entities-dump",
            str(wd),
            "--dump",
            f"uk={dump}",
            "--out",
            str(out),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    assert "1 warning(s)" in printed and "ukwiki-truncated-100k.xml.xz is truncated" in printed
    record = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    assert record["counts"]["uk.articles"] == 5
    assert record["counts"]["uk.articles_missing"] == 1
    assert record["counts"]["uk.dump_pages_read"] > 500
    assert any("pages read before the break are kept" in w for w in record["warnings"])
    missing = [
        json.loads(line) for line in (out / "text" / "missing.jsonl").read_text().splitlines()
    ]
    assert missing == [
        {"qid": "Q6", "lang": "uk", "title": "Сторінка після обриву", "reason": "not_in_dump"}
    ]


def test_sample_without_a_language_says_which_it_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["text", "--sample", "--langs", "en,de", "--min-langs", "1", "--out", str(tmp_path)])
        == 2
    )
    assert (
        "the bundled sample has no 'de' Wikipedia; it has ca, en, es, fr" in capsys.readouterr().err
    )


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("occbio: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_damaged_run_files_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    args = ["entities", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    for manifest in ('{"stages": []}', "[1, 2]", "{trunc", b"\xff\xfe bad"):
        data = manifest if isinstance(manifest, bytes) else manifest.encode()
        (out / "manifest.json").write_bytes(data)
        assert main(args) == 1
        assert "manifest.json" in _one_line_error(capsys)
    (out / "manifest.json").unlink()
    # a directory given as a dump, a config file that is not UTF-8
    assert main(["entities", "--entities-dump", str(tmp_path), "--langs", "en,es",
                 "--out", str(out)]) == 1  # fmt: skip
    assert "Wikidata dump is a directory" in _one_line_error(capsys)
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'name = "caf\xe9"\n')
    assert main([*args, "--config", str(bad)]) == 2
    assert "is not UTF-8 text" in _one_line_error(capsys)


@pytest.mark.slow
def test_a_damaged_stats_file_is_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["mine", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    assert main(args) == 0
    (out / "stats.json").write_text('{"funnel": [trunc')
    assert main(["stats", "--out", str(out)]) == 0  # the stage counts still print
    assert "Traceback" not in capsys.readouterr().err
    # the write stage's output changed since it finished: it runs again, as the warning says
    assert main(args) == 0 and json.loads((out / "stats.json").read_text())["funnel"]
    assert "stats.json changed since the stage finished" in capsys.readouterr().err
    (out / "stats.json").unlink()  # the write stage's output is gone: it runs again
    assert main(args) == 0 and json.loads((out / "stats.json").read_text())["funnel"]


def test_a_full_disk_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("occbio.run.os.fsync", full)
    assert main(["entities", "--sample", "--langs", "en,es,ca", "--out", str(tmp_path)]) == 1
    line = _one_line_error(capsys)
    assert "No space left on device" in line and "run the same command again" in line
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


def test_sample_with_other_sources_is_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["mine", "--sample", "--dump", f"en={tmp_path / 'x.xml'}", "--out", str(tmp_path)])
    assert code == 2
    assert "--sample reads the bundled sample, so --dump would be ignored" in _one_line_error(
        capsys
    )
    assert not (tmp_path / "manifest.json").exists()


def test_inputs_are_checked_before_any_stage_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing pages-articles dump, or an encoder that cannot be built, stops `mine` before
    the entities stage has read anything."""
    from tests.factories import human, write_wikidata_dump

    wd = write_wikidata_dump(tmp_path / "wd.json.bz2", [human("Q1", "A", "Q6581072", [], {})])
    out = tmp_path / "run"
    argv = ["mine", "--langs", "en,es", "--entities-dump", str(wd), "--out", str(out)]
    argv += ["--dump", f"en={wd}", "--dump", f"es={tmp_path / 'eswiki.xml.bz2'}"]
    assert main(argv) == 1
    assert "pages-articles dump for 'es' not found" in _one_line_error(capsys)
    assert not (out / "entities.jsonl").exists()
    laser = ["mine", "--sample", "--langs", "en,es", "--out", str(out), "--encoder", "laser2"]
    assert main([*laser, "--laser-dir", str(tmp_path)]) == 1
    err = _one_line_error(capsys)
    # Without torch (the README's base install) the missing backend is named; with it, the
    # missing weights: either way the message names the encoder the user asked for.
    from importlib.util import find_spec

    has_torch = find_spec("torch") is not None
    assert "LASER2" in err
    assert ("weights not found" if has_torch else "needs torch and nano-laser") in err
    assert not (out / "entities.jsonl").exists()


def test_a_fifo_as_a_dump_is_refused_before_any_stage_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--entities-dump <(bzcat ...)` said "not found"; a dump is read more than once, so a pipe
    is refused up front, in one line, without opening it (opening a FIFO nobody writes to
    hangs)."""
    import os

    fifo = tmp_path / "wd.json.bz2"
    os.mkfifo(fifo)
    out = tmp_path / "run"
    argv = ["entities", "--langs", "en,es", "--entities-dump", str(fifo), "--out", str(out)]
    assert main(argv) == 1
    err = _one_line_error(capsys)
    assert "Wikidata dump is not a regular file" in err and str(fifo) in err
    assert not (out / "entities.jsonl").exists()


def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["mine", "--langs", "en,es", "--balance", "bogus"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalid choice: 'bogus'" in err[0]
    assert err[0].endswith("(see occbio mine --help)")
