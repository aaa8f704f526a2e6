"""Hostile inputs to the run directory's state (issue #20): a manifest with wrong types, outputs
changed after their stage finished, a garbled committed chunk, a kill between a writer's end and
its stage's end, a symbolic link out of the run directory, and what `stats` prints."""

from __future__ import annotations

import json
import logging
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import _warn_without_contact, main
from occbio.config import load_config
from tests.factories import human, occupation, write_wikidata_dump
from tests.test_resume import CONSUMED_AT_LEAST, HANG_GUARD, kill_at

SAMPLE = ["--sample", "--langs", "en,es,ca"]


@pytest.fixture
def run_copy(mined_sample: Path, tmp_path: Path) -> Path:
    """A finished `occbio mine --sample` of this test's own, to damage."""
    out = tmp_path / "run"
    shutil.copytree(mined_sample, out)
    return out


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("occbio: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _occbio(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "occbio.cli", *args],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
    )


# 1. a manifest that is JSON but not what occbio writes


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(manifest: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = manifest
        for key in parents:
            node = node[key]
        node[last] = value

    return edit


BAD_MANIFESTS = {
    "stages.align": _set("stages.align", "x"),
    "stages": _set("stages", ["entities"]),
    "stages.write.outputs": _set("stages.write.outputs", 5),
    "stages.write.warnings": _set("stages.write.warnings", 7),
    "stages.entities.counts": _set("stages.entities.counts", "x"),
    "stages.text.counts.people": _set("stages.text.counts.people", "30"),
    "stages.balance.status": _set("stages.balance.status", True),
}


@pytest.mark.slow
@pytest.mark.parametrize("field", sorted(BAD_MANIFESTS))
def test_a_manifest_with_wrong_types_is_a_one_line_error_naming_the_field(
    run_copy: Path, field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest_path = run_copy / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    BAD_MANIFESTS[field](manifest)
    manifest_path.write_text(json.dumps(manifest))
    damaged = manifest_path.read_bytes()
    for argv in (
        ["mine", *SAMPLE, "--out", str(run_copy), "-q"],
        ["stats", "--out", str(run_copy)],
        ["augment", str(run_copy), "-q"],
    ):
        assert main(argv) == 1, argv
        line = _one_line_error(capsys)
        assert str(manifest_path) in line and f": {field}: " in line, line
        assert manifest_path.read_bytes() == damaged, "the manifest is left for the user to fix"


# 2, 3. an output changed after its stage finished


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["corpus/corpus.en.xml", "corpus/corpus.tsv", "DATACARD.md", "stats.json"]
)
def test_an_output_cut_short_makes_its_stage_run_again(
    run_copy: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = run_copy / name
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert main(["mine", *SAMPLE, "--out", str(run_copy)]) == 0
    out, err = capsys.readouterr()
    assert "write: done;" in out and "write: already done" not in out
    assert out.count("already done (skipped)") == 4, "only the write stage ran again"
    assert f"write: {name} changed since the stage finished (it has {len(whole) // 2} bytes" in err
    assert path.read_bytes() == whole
    # the same size, other bytes: found by the checksum
    path.write_bytes(whole[:-1] + b"?")
    assert main(["mine", *SAMPLE, "--out", str(run_copy), "-q"]) == 0
    assert "its content changed (another SHA-256)" in capsys.readouterr().err
    assert path.read_bytes() == whole


@pytest.mark.slow
def test_an_earlier_stages_output_cut_short_runs_that_stage_again(
    run_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = run_copy / "text" / "es.sentences.jsonl"
    whole = path.read_bytes()
    path.write_bytes(whole[:100])
    assert main(["mine", *SAMPLE, "--out", str(run_copy)]) == 0
    out, err = capsys.readouterr()
    assert "text: done;" in out and "text/es.sentences.jsonl changed since" in err
    assert path.read_bytes() == whole


def test_a_damaged_stats_file_says_how_to_rewrite_it_and_that_works(
    run_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = (run_copy / "stats.json").read_bytes()
    (run_copy / "stats.json").write_text('{"funnel": [trunc')
    assert main(["stats", "--out", str(run_copy)]) == 0
    assert "run `occbio write` again" in capsys.readouterr().err
    assert main(["write", *SAMPLE, "--out", str(run_copy), "-q"]) == 0
    assert "write: done;" in capsys.readouterr().out
    assert (run_copy / "stats.json").read_bytes() == whole


# 4. a kill after a chunk writer finished, before its stage did


def _dump(tmp_path: Path, n: int = 60) -> Path:
    entities = [occupation("Q36180", "writer"), occupation("Q82955", "politician")]
    entities += [
        human(
            f"Q{700000 + i}",
            f"Person {i}",
            "Q6581072" if i % 3 else "Q6581097",
            ["Q36180" if i % 2 else "Q82955"],
            {"en": f"Person {i}", "es": f"Persona {i}"},
        )
        for i in range(n)
    ]
    return write_wikidata_dump(tmp_path / "wikidata.json.bz2", entities)


@pytest.mark.slow
def test_a_kill_after_the_writer_finished_keeps_the_stage_counters(tmp_path: Path) -> None:
    """Killed in the occupation-label pass (the people file joined and recorded as done):
    the resumed stage counts the people it did not read again."""
    dump = _dump(tmp_path)
    args = ["entities", "--langs", "en,es", "--entities-dump", str(dump), "--checkpoint-every", "7"]
    ref, out = tmp_path / "reference", tmp_path / "killed"
    assert _occbio(*args, "--out", str(ref), "-q").returncode == 0
    writer_done = 'rec["progress"].get("humans", {}).get("done")'  # the first save that says so
    kill_at("entities", writer_done, [*args, "--out", str(out), "-q"])
    resumed = _occbio(*args, "--out", str(out), "-q")
    assert resumed.returncode == 0, resumed.stderr
    got = json.loads((out / "manifest.json").read_text())["stages"]["entities"]
    want = json.loads((ref / "manifest.json").read_text())["stages"]["entities"]
    assert got["resumed"] == 1
    assert got["counts"] == want["counts"] and got["counts"]["people"] == 60
    assert (out / "entities.jsonl").read_bytes() == (ref / "entities.jsonl").read_bytes()


@pytest.mark.slow
def test_a_kill_right_after_a_language_is_done_keeps_the_dumps_counts(tmp_path: Path) -> None:
    """The dump reader's counts (pages read, duplicate titles ...) were saved after the save
    that marked the language done: a kill in between lost them on resume."""
    args = ["text", *SAMPLE, "--checkpoint-every", "2", "--workers", "1"]
    ref, out = tmp_path / "reference", tmp_path / "killed"
    assert _occbio(*args, "--out", str(ref), "-q").returncode == 0
    kill_at("text", 'rec["progress"].get("en", {}).get("done")', [*args, "--out", str(out), "-q"])
    resumed = _occbio(*args, "--out", str(out), "-q")
    assert resumed.returncode == 0, resumed.stderr
    got = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    want = json.loads((ref / "manifest.json").read_text())["stages"]["text"]
    assert got["resumed"] == 1 and got["counts"] == want["counts"]
    assert any(k.startswith("en.dump_") for k in got["counts"]), got["counts"]


# 5. a committed chunk garbled before the stage resumes


@pytest.mark.slow
def test_a_garbled_committed_chunk_is_named_and_written_again(tmp_path: Path) -> None:
    args = ["text", *SAMPLE, "--checkpoint-every", "2", "--workers", "1"]
    ref, out = tmp_path / "reference", tmp_path / "killed"
    assert _occbio(*args, "--out", str(ref), "-q").returncode == 0
    kill_at("text", CONSUMED_AT_LEAST.format(at=6), [*args, "--out", str(out), "-q"])
    (part,) = (out / ".parts" / "text" / "en").glob("sentences.000001*.jsonl")
    part.write_bytes(b'{"qid": "Q1", "te\xff garbled\n')
    resumed = _occbio(*args, "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert f"the committed part {part} is damaged" in resumed.stderr
    for name in ("en", "es", "ca"):
        for kind in ("articles", "sentences"):
            rel = f"text/{name}.{kind}.jsonl"
            assert (out / rel).read_bytes() == (ref / rel).read_bytes(), rel
    got = json.loads((out / "manifest.json").read_text())["stages"]["text"]
    want = json.loads((ref / "manifest.json").read_text())["stages"]["text"]
    assert got["counts"] == want["counts"] and got["resumed"] == 1


# 6. a symbolic link out of the run directory


@pytest.mark.slow
@pytest.mark.parametrize("command", ["augment", "mine"])
def test_a_link_out_of_the_run_directory_is_refused_and_its_target_untouched(
    run_copy: Path, tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.move(run_copy / "corpus", elsewhere)
    (elsewhere / "corpus.tsv").write_text("someone else's file\n")
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    (run_copy / "corpus").symlink_to(elsewhere, target_is_directory=True)
    argv = {
        "augment": ["augment", str(run_copy), "-q"],
        "mine": ["mine", *SAMPLE, "--augment", "--out", str(run_copy), "-q"],
    }[command]
    assert main(argv) == 1
    line = _one_line_error(capsys)
    assert f"{run_copy / 'corpus'} is a symbolic link to {elsewhere}" in line
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before


def test_a_link_that_stays_inside_the_run_directory_is_allowed(
    run_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (run_copy / "latest-corpus").symlink_to(run_copy / "corpus", target_is_directory=True)
    assert main(["mine", *SAMPLE, "--out", str(run_copy), "-q"]) == 0
    assert capsys.readouterr().out.count("already done (skipped)") == 5


# 8. what `stats` prints


def test_stats_prints_the_stages_in_pipeline_order_and_names_wikidatas_gender(
    mined_sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--out", str(mined_sample)]) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("[")]
    assert heads == ["[entities] done", "[text] done", "[align] done", "[balance] done",
                     "[write] done"]  # fmt: skip
    entities = out.split("[entities] done\n")[1].split("[text]")[0]
    assert "gender_wikidata_female" in entities and " gender_female " not in entities
    assert "people by the gender the balance stage decided" in out


@pytest.mark.slow
def test_a_pronoun_runs_entities_line_says_its_genders_are_wikidatas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Wikidata's genders (entities) and the pronouns' (balance, the funnel) differ: each is
    printed under a name that says which it is."""
    argv = ["mine", *SAMPLE, "--gender-from", "pronouns", "--out", str(tmp_path / "run")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    (entities,) = [line for line in out.splitlines() if line.startswith("entities: done")]
    assert "gender_wikidata_unknown=" in entities and " gender_unknown=" not in entities
    assert main(["stats", "--out", str(tmp_path / "run")]) == 0
    stats = capsys.readouterr().out
    balance = stats.split("[balance] done\n")[1].split("[write]")[0]
    pronoun_people = {
        line.split()[0].removeprefix("gender_pronouns_"): int(line.split()[1])
        for line in balance.splitlines()
        if line.strip().startswith("gender_pronouns_")
    }
    funnel = json.loads((tmp_path / "run" / "stats.json").read_text())["funnel"]
    by_gender = {g: n for g, n in funnel[0]["people"].items() if g != "total" and n}
    assert pronoun_people == by_gender, "the funnel's people are the genders balance decided"


# 9. the User-Agent warning


@pytest.fixture
def refused_endpoint() -> Iterator[str]:
    """A local URL whose connections are refused at once (its port is bound, never listening)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/sparql"


def test_no_user_agent_warning_when_nothing_live_is_contacted(
    tmp_path: Path, refused_endpoint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = _dump(tmp_path, n=3)
    argv = ["entities", "--langs", "en,es", "--entities-dump", str(dump), "--out", str(tmp_path)]
    assert main(argv) == 0
    assert "User-Agent" not in capsys.readouterr().err
    # the same command with a SPARQL endpoint is warned (this one refuses at once)
    config = tmp_path / "no-retries.toml"
    config.write_text("[http]\nretries = 0\n")
    argv = ["entities", "--langs", "en,es", "--source", "wikidata", "--endpoint",
            refused_endpoint, "--config", str(config), "--out", str(tmp_path / "live")]  # fmt: skip
    assert main(argv) == 1
    assert "no contact in the User-Agent" in capsys.readouterr().err


@pytest.mark.parametrize(("upto", "warned"), [("entities", False), ("text", True), ("mine", True)])
def test_the_user_agent_warning_follows_the_stages_that_run(
    tmp_path: Path, upto: str, warned: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """Entities from a dump, text from the web: only a command that reaches text is warned."""
    cfg = load_config(
        None, {"langs": ["en", "es"], "entities": {"dump": str(tmp_path / "wd.json.bz2")}}
    )
    assert (cfg.entity_source, cfg.text_source) == ("dump", "web")
    with caplog.at_level(logging.WARNING):
        _warn_without_contact(cfg, "write" if upto == "mine" else upto)
    assert ("no contact in the User-Agent" in caplog.text) == warned
