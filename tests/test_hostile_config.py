"""Hostile configuration and options (issue #20): each bad input fed for real through the
`occbio` command, answered with one line on stderr before anything is written or sent."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.cli_options import build_parser
from occbio.config import ConfigError, load_config
from occbio.executor import max_workers
from tests.sparql_server import SparqlProxy, closed_port

LANGS = ["en", "es", "ca"]


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("occbio: error: "), err
    assert "Traceback" not in err
    return lines[0]


def _options_of(command: str) -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices[command]._option_string_actions)


# -- 1. --name is one folder under outputs/ ---------------------------------------------------


@pytest.mark.parametrize("name", ["../../x", "/ABS/x", "..", ".", "a/b", "x\ny", ""])
def test_a_name_that_is_a_path_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    cwd = tmp_path / "a" / "b"
    cwd.mkdir(parents=True)
    monkeypatch.chdir(cwd)
    name = name.replace("/ABS", str(tmp_path / "abs"))
    assert main(["entities", "-q", "--sample", "--name", name]) == 2
    assert "--out PATH" in _one_line_error(capsys)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b"]  # nothing written anywhere


def test_a_name_from_the_config_file_is_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text('name = ".."\n', encoding="utf-8")
    argv = ["entities", "-q", "--config", str(config)]  # --sample would name the run "sample"
    assert main([*argv, "--entities-dump", str(tmp_path / "none.json")]) == 2
    assert "name: '..' is not a plain folder name" in _one_line_error(capsys)
    assert not (tmp_path / "outputs").exists()


def test_a_plain_name_and_any_out_path_still_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["entities", "-q", "--sample", "--name", "my run.2"]) == 0
    assert (tmp_path / "outputs" / "my run.2" / "manifest.json").is_file()
    out = tmp_path / "elsewhere" / ".." / "chosen"
    assert main(["entities", "-q", "--sample", "--out", str(out)]) == 0
    assert (tmp_path / "chosen" / "manifest.json").is_file()


# -- 2. --workers, a FIFO as --config, a byte-order mark ----------------------------------------


@pytest.mark.parametrize("workers", ["9223372036854775807", str(max_workers() + 1)])
def test_too_many_workers_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    out = tmp_path / "r"
    assert main(["mine", "-q", "--sample", "--workers", workers, "--out", str(out)]) == 2
    assert f"at most {max_workers()}" in _one_line_error(capsys)
    assert not out.exists()


def test_workers_up_to_the_bound_are_accepted() -> None:
    assert load_config(None, {"workers": max_workers()}).workers == max_workers()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_as_config_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    argv = ["entities", "-q", "--sample", "--config", str(fifo), "--out", str(tmp_path / "r")]
    done = subprocess.run(  # a reader of the FIFO would wait for a writer forever
        [sys.executable, "-m", "occbio.cli", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"occbio: error: config file {fifo} is not a regular file: give a TOML file"
    )
    assert not (tmp_path / "r").exists()


def test_a_directory_as_config_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["entities", "-q", "--sample", "--config", str(tmp_path), "--out", str(tmp_path / "r")]
    assert main(argv) == 2
    assert "is a directory" in _one_line_error(capsys)


def test_a_config_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes('name = "bom"\nlangs = ["en", "es"]\n'.encode("utf-8-sig"))
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    cfg = load_config(path)
    assert (cfg.name, cfg.langs) == ("bom", ["en", "es"])
    path.write_bytes(b'name = "x"\n\xef\xbb\xbflangs = ["en"]\n')  # only a leading BOM is one
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


# -- 3. --genders names categories that exist ---------------------------------------------------


def test_an_unknown_gender_category_is_refused_before_mining(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    argv = ["mine", "-q", "--sample", "--genders", "female,mal", "--out", str(out)]
    assert main(argv) == 2
    line = _one_line_error(capsys)
    assert "unknown gender category 'mal'" in line
    assert "female, male, non-binary" in line
    assert not out.exists()


def test_a_category_the_mapping_adds_can_be_balanced(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        '[gender.mapping]\nQ1052281 = "trans woman"\n'
        '[balance]\ngenders = ["female", "trans woman"]\n',
        encoding="utf-8",
    )
    assert load_config(config).balance.genders == ["female", "trans woman"]
    config.write_text('[balance]\ngenders = ["female", "trans woman"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="'trans woman'"):
        load_config(config)


# -- 4. hints the printing command accepts; label_langs before any query ------------------------


def _titles_tsv(path: Path) -> None:
    from occbio.config import SAMPLE_DIR
    from occbio.extract.wikidata_dump import iter_humans

    rows = ["\t".join(LANGS)]
    rows += [
        "\t".join(e.titles[lang] for lang in LANGS)
        for e in iter_humans(SAMPLE_DIR / "wikidata-sample.json.bz2", LANGS)
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_entities_from_titles_take_gender_from_pronouns_unasked(tmp_path: Path) -> None:
    """`occbio text --titles` used to stop on "use --gender-from pronouns", which text rejects:
    people given as titles have no Wikidata gender, so their pronouns are counted unasked."""
    _titles_tsv(tmp_path / "t.tsv")
    out = tmp_path / "r"
    argv = ["entities", "-q", "--sample", "--titles", str(tmp_path / "t.tsv"), "--out", str(out)]
    assert main(argv) == 0
    config = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["config"]
    assert config["gender"]["source"] == "pronouns"
    assert load_config().gender.source == "wikidata"  # Wikidata's people: its P21


@pytest.mark.parametrize("command", ["entities", "text", "mine"])
def test_titles_with_wikidata_gender_give_a_hint_the_command_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    _titles_tsv(tmp_path / "t.tsv")
    config = tmp_path / "c.toml"
    config.write_text('[gender]\nsource = "wikidata"\n', encoding="utf-8")
    argv = [command, "-q", "--sample", "--titles", str(tmp_path / "t.tsv")]
    argv += ["--config", str(config), "--out", str(tmp_path / "r")]
    assert main(argv) == 2
    line = _one_line_error(capsys)
    assert "no Wikidata gender" in line and '"pronouns"' in line
    assert set(re.findall(r"--[a-z][a-z-]*", line)) <= _options_of(command)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("bad", ["en us", 'en"', "", "1x"])
def test_label_langs_are_checked_before_any_query(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    with SparqlProxy(f"http://127.0.0.1:{closed_port()}/sparql") as proxy:
        config = tmp_path / "c.toml"
        config.write_text(
            f"[entities]\nendpoint = {json.dumps(proxy.url)}\n"
            f'label_langs = ["en", {json.dumps(bad)}]\n[http]\nretries = 0\n',
            encoding="utf-8",
        )
        argv = ["entities", "-q", "--langs", "en,es", "--config", str(config)]
        assert main([*argv, "--out", str(tmp_path / "r")]) == 2
        assert "entities.label_langs" in _one_line_error(capsys)
        assert proxy.queries() == []
        assert not (tmp_path / "r").exists()
        # the same configuration with good label languages does reach the endpoint
        config.write_text(config.read_text().replace(json.dumps(bad), '"mul"'), encoding="utf-8")
        # (and fails: the endpoint's upstream is down)
        assert main([*argv, "--out", str(tmp_path / "good")]) != 0
        assert proxy.queries()


def test_label_langs_are_normalised_as_langs_are() -> None:
    cfg = load_config(None, {"entities": {"label_langs": ["EN", "zh_hans", "en"]}})
    assert cfg.entities.label_langs == ["en", "zh-hans"]


# -- 5. scratch files stay in the run directory --------------------------------------------------

#: Runs occbio's command line, recording the name of every named semaphore this process creates
#: (the real SemLock runs; its name is noted) into the file $SEM_LOG once the command returns.
_RECORDING_MAIN = """
import json, os, sys
import multiprocessing.synchronize as synchronize
names = []
real_init = synchronize.SemLock.__init__
def recording_init(self, *args, **kwargs):
    real_init(self, *args, **kwargs)
    if self._semlock.name:
        names.append(self._semlock.name)
synchronize.SemLock.__init__ = recording_init
from occbio.cli import main
try:
    code = main(sys.argv[1:])
finally:
    with open(os.environ["SEM_LOG"], "w") as fh:
        json.dump(names, fh)
sys.exit(code)
"""


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["local", "dask"])
def test_a_sample_run_writes_nothing_outside_its_run_directory(
    tmp_path: Path, executor: str
) -> None:
    """HOME, TMPDIR and the working directory fresh and empty: after `occbio mine --sample` with
    worker processes they are still empty (matplotlib's font cache, Dask's scratch space went
    to the run directory and are gone) but for the run path's lock file in TMPDIR (by design,
    occbio.runlock), and the named semaphores of the worker pools (/dev/shm/sem.mp-*) are
    unlinked."""
    if executor == "dask":
        pytest.importorskip("distributed")
    home, tmp, cwd = (tmp_path / name for name in ("home", "tmp", "cwd"))
    for folder in (home, tmp, cwd):
        folder.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MPL", "DASK_"))}
    env.update(HOME=str(home), TMPDIR=str(tmp), SEM_LOG=str(tmp_path / "semaphores.json"))
    out = tmp_path / "run"
    argv = ["mine", "-q", "--sample", "--workers", "2", "--executor", executor, "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", _RECORDING_MAIN, *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # -q: importing distributed set its loggers to INFO, and its close logged a traceback
    assert "INFO" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert (out / "corpus" / "corpus.jsonl").is_file() and (out / "gender_gap.png").is_file()
    assert [p for p in (home, cwd) if any(p.iterdir())] == []
    locks = tmp / f"occbio-locks-{os.getuid()}"
    assert [p.name for p in tmp.iterdir()] == [locks.name]
    assert [p.suffix for p in locks.iterdir()] == [".lock"]  # the run path's, and no other
    assert (
        sorted(p.name for p in out.iterdir() if p.name.startswith((".matplotlib", ".dask"))) == []
    )
    names = json.loads((tmp_path / "semaphores.json").read_text())
    assert names  # the workers' queues use them: the check below looks at real names
    shm = Path("/dev/shm")
    if shm.is_dir():
        assert [n for n in names if (shm / f"sem.{n.lstrip('/')}").exists()] == []


# -- 6. the gender-gap chart shows its counts and intervals --------------------------------------


def test_wilson_interval_against_published_values() -> None:
    from occbio.report.chart import wilson_interval

    # Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775
    assert [round(x, 4) for x in wilson_interval(81, 263)] == [0.2553, 0.3662]
    assert [round(x, 4) for x in wilson_interval(0, 10)] == [0.0, 0.2775]
    assert wilson_interval(3, 0) == (0.0, 0.0)


def test_the_gender_gap_figure_has_counts_and_95_percent_intervals(tmp_path: Path) -> None:
    from matplotlib.container import BarContainer

    from occbio.audit.lexicon_result import LexiconResult
    from occbio.report.chart import gender_gap_chart, gender_gap_figure, wilson_interval

    before = {
        "en": LexiconResult("en", words=263, feminine_count=81, masculine_count=100),
        "es": LexiconResult("es", words=10, feminine_count=0, masculine_count=4),
    }
    after = {"en": LexiconResult("en", words=263, feminine_count=90, masculine_count=91)}
    fig = gender_gap_figure(before, after)
    left = fig.axes[0]
    feminine, masculine = (c for c in left.containers if isinstance(c, BarContainer))
    assert [round(b.get_height(), 4) for b in feminine] == [30.7985, 0.0]  # en 81/263, es 0/10
    assert [round(b.get_height(), 4) for b in masculine] == [38.0228, 40.0]
    # the whiskers: each bar's vertical error line runs from its interval's low to high end
    for bars, counts in ((feminine, [(81, 263), (0, 10)]), (masculine, [(100, 263), (4, 10)])):
        segments = bars.errorbar.lines[2][0].get_segments()
        for segment, (count, words) in zip(segments, counts, strict=True):
            low, high = wilson_interval(count, words)
            assert segment[:, 1].round(6).tolist() == [round(100 * low, 6), round(100 * high, 6)]
    assert sorted(t.get_text() for t in left.texts) == ["0", "100", "4", "81"]
    ticks = [t.get_text() for t in left.get_xticklabels()]
    assert ticks == ["en\n263 words", "es\n10 words"]
    right = fig.axes[1]
    assert sorted(t.get_text() for t in right.texts) == ["90", "91"]  # es: not in the corpus
    path = gender_gap_chart(tmp_path / "gap.png", before, after, title="t")
    assert path.read_bytes().startswith(b"\x89PNG")
