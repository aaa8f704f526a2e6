"""A real `occbio` process killed with SIGKILL mid-stage resumes to byte-identical output.

The kill comes at a set point, not after a wait: the process runs `occbio` with its manifest
saves wrapped, and sends itself SIGKILL right after the save that records the progress the test
asks for. So no test depends on how fast a busy machine runs the stage (a watcher polling the
manifest could see the stage end before its deadline, or miss the moment).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import human, occupation, write_pages_dump, write_wikidata_dump

#: ``python -c KILL_AT STAGE CONDITION ARGV...``: `occbio ARGV` that kills itself (SIGKILL) after
#: the first manifest save where STAGE is running and CONDITION (a Python expression over its
#: manifest record ``rec``) holds.
KILL_AT = """
import os, signal, sys
from occbio import run
from occbio.cli import main

stage, condition = sys.argv[1], sys.argv[2]
save = run.RunDir.save

def save_then_maybe_die(self):
    save(self)
    rec = self.manifest["stages"].get(stage, {})
    if rec.get("status") == "running" and eval(condition, {"rec": rec}):
        os.kill(os.getpid(), signal.SIGKILL)

run.RunDir.save = save_then_maybe_die
sys.exit(main(sys.argv[3:]))
"""

#: The stage's unfinished keys have consumed at least AT input items between them.
CONSUMED_AT_LEAST = (
    'sum(p.get("consumed", 0) for p in rec.get("progress", {{}}).values() if not p.get("done"))'
    " >= {at}"
)

#: Hang guard only: a stage that never reaches its kill point must not block the suite.
HANG_GUARD = 600


def kill_at(stage: str, condition: str, argv: list[str], **kwargs: object) -> None:
    """Run `occbio ARGV` until it kills itself at ``condition`` (a failure if it ends before)."""
    done = subprocess.run(
        [sys.executable, "-c", KILL_AT, stage, condition, *argv],
        stdout=subprocess.DEVNULL,  # workers orphaned by the kill may hold a pipe open
        stderr=subprocess.DEVNULL,
        timeout=HANG_GUARD,
        **kwargs,  # type: ignore[arg-type]
    )
    assert done.returncode == -signal.SIGKILL, f"the run ended before it was killed mid-{stage}"


N_PEOPLE = 600
CITIES = ["Leeds", "Porto", "Lyon", "Dakar", "Osaka", "Quito", "Perth", "Tromso"]
JOBS = [("Q36180", "writer"), ("Q82955", "politician"), ("Q901", "scientist")]


def _article(i: int) -> str:
    city = CITIES[i % len(CITIES)]
    job = JOBS[i % len(JOBS)][1]
    born, years, age = 1900 + i % 90, 2 + i % 7, 20 + i % 40
    return (
        f"{{{{Infobox person|name=Person {i}|birth_place={city}}}}}\n"
        f"'''Person {i}''' (born {born}) is a {job} from [[{city}]].<ref>A source.</ref>\n\n"
        "== Life ==\n"
        f"They studied history at the university of {city} for {years} years before moving.\n"
        f"Their first book about the harbour of {city} appeared when they were {age} years old.\n"
        "Critics praised the clear style and the careful research of the early work.\n\n"
        f"[[Category:People from {city}]]\n"
    )


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    entities = [occupation(q, label) for q, label in JOBS]
    entities += [
        human(
            f"Q{900000 + i}",
            f"Person {i}",
            "Q6581072" if i % 3 == 0 else "Q6581097",
            [JOBS[i % len(JOBS)][0]],
            {"en": f"Person {i}"},
        )
        for i in range(N_PEOPLE)
    ]
    wd = write_wikidata_dump(d / "wikidata.json.bz2", entities)
    pages = write_pages_dump(
        d / "enwiki.xml.bz2", [(f"Person {i}", _article(i)) for i in range(N_PEOPLE)]
    )
    return {"wikidata": wd, "pages": pages}


def _args(inputs: dict[str, Path], out: Path, workers: int = 2) -> list[str]:
    return [
        "text", "--langs", "en", "--quiet",
        "--entities-dump", str(inputs["wikidata"]), "--dump", f"en={inputs['pages']}",
        "--checkpoint-every", "20", "--workers", str(workers), "--out", str(out),
    ]  # fmt: skip


def _cmd(inputs: dict[str, Path], out: Path, workers: int = 2) -> list[str]:
    return [sys.executable, "-m", "occbio.cli", *_args(inputs, out, workers)]


def _outputs(out: Path) -> dict[str, bytes]:
    names = [
        "entities.jsonl",
        "occupations.jsonl",
        "text/en.articles.jsonl",
        "text/en.sentences.jsonl",
    ]
    return {n: (out / n).read_bytes() for n in names}


@pytest.mark.slow
def test_kill_9_mid_text_stage_then_resume_is_identical(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ref = tmp_path / "reference"  # in one process; the killed run cleans pages in two workers
    subprocess.run(
        _cmd(inputs, ref, workers=1), check=True, env=env, capture_output=True, timeout=HANG_GUARD
    )
    expected = _outputs(ref)
    assert expected["text/en.sentences.jsonl"].count(b"\n") >= N_PEOPLE
    # each article names the revision it was read from, and the dump (factories: 1000 + i)
    assert (
        b'"revision_id": 1001, "revision_timestamp": "2020-01-01T00:00:00Z", "source": '
        b'"dump:enwiki.xml.bz2"' in expected["text/en.articles.jsonl"]
    )

    out = tmp_path / "killed"
    kill_at("text", CONSUMED_AT_LEAST.format(at=40), _args(inputs, out), env=env)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["stages"]["text"]["status"] == "running"
    assert not (out / "text" / "en.sentences.jsonl").exists(), (
        "no finished-looking file after a kill"
    )

    done = subprocess.run(
        _cmd(inputs, out), env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 0, done.stderr
    assert _outputs(out) == expected
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["stages"]["text"]["resumed"] == 1
    assert (
        manifest["stages"]["text"]["counts"]
        == json.loads((ref / "manifest.json").read_text())["stages"]["text"]["counts"]
    )
    assert not (out / ".parts" / "text").exists()

    # A third run finds everything done and skips both stages.
    again = subprocess.run(
        _cmd(inputs, out), env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert again.returncode == 0
    assert again.stdout.count("already done (skipped)") == 2
    assert _outputs(out) == expected


@pytest.mark.slow
def test_kill_9_mid_entities_stage_then_resume_is_identical(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ref = tmp_path / "reference"
    subprocess.run(_cmd(inputs, ref), check=True, env=env, capture_output=True, timeout=HANG_GUARD)
    out = tmp_path / "killed"
    kill_at("entities", CONSUMED_AT_LEAST.format(at=40), _args(inputs, out), env=env)
    assert json.loads((out / "manifest.json").read_text())["stages"]["entities"]["progress"]
    done = subprocess.run(
        _cmd(inputs, out), env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 0, done.stderr
    assert _outputs(out) == _outputs(ref)


@pytest.mark.slow
def test_kill_9_mid_align_stage_then_resume_is_identical(tmp_path: Path) -> None:
    """Mined tuples are committed every 2 people: a killed align resumes after the last
    commit (embeddings made since come from the cache) and ends byte-identical."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    config = tmp_path / "small-blocks.toml"
    config.write_text("[align]\nblock_docs = 2\n")
    common = ["--sample", "--langs", "en,es,ca", "--quiet", "--config", str(config)]
    ref = tmp_path / "reference"
    subprocess.run(
        [sys.executable, "-m", "occbio.cli", "text", *common, "--out", str(ref)],
        check=True, env=env, capture_output=True, timeout=HANG_GUARD,
    )  # fmt: skip
    out = tmp_path / "killed"
    shutil.copytree(ref, out)

    def align(where: Path) -> list[str]:
        return ["align", *common, "--out", str(where), "--checkpoint-every", "2"]

    def occbio(args: list[str]) -> list[str]:
        return [sys.executable, "-m", "occbio.cli", *args]

    subprocess.run(occbio(align(ref)), check=True, env=env, capture_output=True, timeout=HANG_GUARD)
    kill_at("align", CONSUMED_AT_LEAST.format(at=6), align(out), env=env)
    killed = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    consumed = killed["progress"]["mined"]["consumed"]
    assert killed["status"] == "running" and 6 <= consumed < 30
    assert not (out / "alignments.jsonl").exists()

    done = subprocess.run(
        occbio(align(out)), env=env, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 0, done.stderr
    for name in ("alignments.jsonl", "alignments.tsv", "align/mined.jsonl"):
        assert (out / name).read_bytes() == (ref / name).read_bytes(), name
    got = json.loads((out / "manifest.json").read_text())["stages"]["align"]
    want = json.loads((ref / "manifest.json").read_text())["stages"]["align"]
    assert got["resumed"] == 1
    embedded = ("sentences_embedded", "sentences_from_cache")
    assert {k: v for k, v in got["counts"].items() if k not in embedded} == {
        k: v for k, v in want["counts"].items() if k not in embedded
    }
    assert sum(got["counts"][k] for k in embedded) == sum(want["counts"][k] for k in embedded)
    assert not (out / ".parts" / "align").exists()
