"""Caps on what `evaluate`, `audit`, `rewrite` and `review import` read and allocate (issue #29,
items 6 and 7), fed the real hostile input: gzip bombs written here (a few MB expanding to
GiBs), /dev/zero and /dev/urandom, a FIFO whose writer never closes it, a billion resamples, a
CSV with one annotator per row.

Each command runs in a process of its own, under an address-space limit (so a regression fails
with a MemoryError instead of taking the machine's memory) and a hang guard (a kill, never a
speed test); it must end in one `occbio: error:` line, or succeed, with a peak RSS under
:data:`RSS_BOUND`.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import occbio
from tests.test_evaluate import TGT, Corpus, mine, write_lines
from tests.test_review_judgments import SEGMENTS, csv_file, item_id, make_run

#: The repository whose occbio the child processes run (this checkout's, or main's).
ROOT = Path(occbio.__file__).resolve().parent.parent
#: A hang guard, never a speed test: generous on a loaded machine.
HANG_GUARD_S = 240
#: The address space a child may take: a regression hits MemoryError here, not the machine.
ADDRESS_SPACE = 3 << 30
#: The peak resident memory a capped command stays under (it needs ~150 MB).
RSS_BOUND = 500 << 20

CHILD = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))
from occbio.cli import main
try:
    rc = main(sys.argv[1:])
finally:
    # VmHWM: this process's own peak (ru_maxrss would keep the forking parent's across exec)
    peak = [x for x in open("/proc/self/status") if x.startswith("VmHWM:")][0].split()[1]
    sys.stderr.write(f"\\nPEAK_RSS {{int(peak) * 1024}}\\n")
sys.exit(rc)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "OCCBIO_DECOMPRESS_THREADS": "1"}


def occbio_run(*args: str, stdin: object = None) -> tuple[int, str, list[str], int]:
    """(exit status, stdout, stderr's lines, peak RSS in bytes) of ``occbio ARGS``."""
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, *args],
        stdin=stdin,  # type: ignore[arg-type]
        capture_output=True,
        timeout=HANG_GUARD_S,
        env=_env(),
        cwd=ROOT,
    )
    err = proc.stderr.decode("utf-8", "replace").splitlines()
    peaks = [int(x.split()[1]) for x in err if x.startswith("PEAK_RSS ")]
    err = [x for x in err if x.strip() and not x.startswith("PEAK_RSS ")]
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), err, (peaks or [-1])[0]


def one_line_error(*args: str, stdin: object = None, status: int | None = None) -> str:
    """A command that must stop in one `occbio: error:` line, within the memory bound."""
    rc, _, err, peak = occbio_run(*args, stdin=stdin)
    assert not any("Traceback" in x or "MemoryError" in x for x in err), "\n".join(err)
    assert rc != 0 and (status is None or rc == status), (rc, err)
    assert len(err) == 1 and err[0].startswith("occbio: error: "), err
    assert 0 < peak < RSS_BOUND, peak
    return err[0]


def gzip_bomb(path: Path, block: bytes, total: int) -> Path:
    """A gzip file of ``total`` bytes repeating ``block``: one member compressed once, written
    ``total // len(block)`` times (gzip readers read concatenated members as one stream)."""
    member = gzip.compress(block, compresslevel=9)
    with path.open("wb") as fh:
        for _ in range(total // len(block)):
            fh.write(member)
    return path


# --- evaluate ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mine(tmp_path_factory.mktemp("caps") / "run")


@pytest.fixture(scope="module")
def system(run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference as a system's translations: a file that scores."""
    return write_lines(tmp_path_factory.mktemp("system") / f"system.{TGT}", Corpus(run).refs)


def evaluate_args(run: Path, out: Path, *args: str) -> list[str]:
    return ["evaluate", str(run), "--tgt", TGT, "--out", str(out), "--resamples", "20", *args]


@pytest.mark.parametrize(
    "block", [b"\0" * (16 << 20), b"la casa es grande\n" * (1 << 20)], ids=["zeros", "lines"]
)
def test_evaluate_gzip_bomb_stops_at_the_cap(run: Path, tmp_path: Path, block: bytes) -> None:
    bomb = gzip_bomb(tmp_path / f"bomb.{TGT}.gz", block, 2 << 30)  # 2 GiB from ~2 MB
    assert bomb.stat().st_size < 8 << 20
    line = one_line_error(*evaluate_args(run, tmp_path / "out", "--system", f"s={bomb}"))
    assert f"{bomb}: more than " in line and "of translations once decompressed" in line
    assert not (tmp_path / "out" / "scores.json").exists()


def test_evaluate_a_gzipped_system_under_the_cap_still_scores(
    run: Path, system: Path, tmp_path: Path
) -> None:
    packed = tmp_path / f"system.{TGT}.gz"
    packed.write_bytes(gzip.compress(system.read_bytes()))
    rc, _, err, peak = occbio_run(*evaluate_args(run, tmp_path / "out", "--system", f"s={packed}"))
    assert rc == 0, err
    assert peak < RSS_BOUND
    doc = json.loads((tmp_path / "out" / "scores.json").read_text("utf-8"))
    assert doc["systems"]["s"]["size"] == packed.stat().st_size


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_evaluate_refuses_a_device(run: Path, tmp_path: Path, device: str) -> None:
    line = one_line_error(*evaluate_args(run, tmp_path / "out", "--system", f"s={device}"))
    assert f"{device} is a device or a socket, not a file" in line
    assert "(the translations of s)" in line


def test_evaluate_an_endless_pipe_stops_at_the_cap(run: Path, tmp_path: Path) -> None:
    """`--system s=/dev/stdin` fed by a pipe that never ends: read up to the cap, then stop."""
    feeder = subprocess.Popen(  # an endless stream of lines, as `yes` writes
        [sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'y\\n' * 4096)"],
        stdout=subprocess.PIPE,
    )
    try:
        line = one_line_error(
            *evaluate_args(run, tmp_path / "out", "--system", "s=/dev/stdin"), stdin=feeder.stdout
        )
    finally:
        feeder.kill()
        feeder.wait()
    assert "/dev/stdin: more than " in line and "of translations, for a test set of" in line


def _read_until(stream: object, needle: str, found: threading.Event, seen: list[str]) -> None:
    for raw in stream:  # type: ignore[attr-defined]
        seen.append(raw.decode("utf-8", "replace"))
        if needle in seen[-1]:
            found.set()


def fifo_left_open(fifo: Path, data: bytes, *args: str) -> tuple[bool, int, list[str]]:
    """``occbio ARGS`` reading ``fifo``, whose writer writes ``data`` then keeps it open (a hung
    pipeline): (whether a "still waiting" warning came, the exit status after Ctrl-C, stderr's
    lines). A silent wait fails at the guard instead of hanging."""
    os.mkfifo(fifo)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfh = open(sys.argv[1], 'wb')\nfh.write(sys.stdin.buffer.read())"
            "\nfh.flush()\ntime.sleep(3600)",
            str(fifo),
        ],
        stdin=subprocess.PIPE,
    )
    assert writer.stdin is not None
    writer.stdin.write(data)
    writer.stdin.close()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=_env(),
        cwd=ROOT,
    )
    found, seen = threading.Event(), []
    reader = threading.Thread(
        target=_read_until, args=(child.stderr, "still waiting", found, seen), daemon=True
    )
    reader.start()
    try:
        warned = found.wait(HANG_GUARD_S)  # the guard: a silent wait fails here
        child.send_signal(signal.SIGINT)
        rc = child.wait(timeout=HANG_GUARD_S)
        reader.join(timeout=HANG_GUARD_S)
    finally:
        for proc in (child, writer):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    err = [x.rstrip("\n") for x in seen if x.strip() and not x.startswith("PEAK_RSS ")]
    assert not any("Traceback" in x for x in err), err
    return warned, rc, err


def test_evaluate_a_fifo_whose_writer_never_closes_says_so_and_stops_on_ctrl_c(
    run: Path, system: Path, tmp_path: Path
) -> None:
    """The writer writes every translation, then keeps the FIFO open. The command must say
    what it waits for (a warning naming the FIFO), and Ctrl-C must stop it in one line naming
    the FIFO."""
    fifo = tmp_path / f"fifo.{TGT}"
    args = evaluate_args(run, tmp_path / "out", "--system", f"s={fifo}")
    warned, rc, err = fifo_left_open(fifo, system.read_bytes(), *args)
    assert warned, err
    warning = next(x for x in err if "still waiting" in x)
    assert str(fifo) in warning and "the translations of s" in warning and "Ctrl-C" in warning
    assert rc == 1, err
    assert err[-1].startswith(f"occbio: error: {fifo}: interrupted while waiting for the end")
    assert not (tmp_path / "out" / "scores.json").exists()


@pytest.mark.parametrize(
    ("command", "what"),
    [
        (["audit", "{fifo}", "--lang", "en"], "the corpus to audit"),
        (["rewrite", "--lang", "en", "--to", "masculine", "--input", "{fifo}"], "the lines to "),
    ],
    ids=["audit", "rewrite"],
)
def test_audit_and_rewrite_a_fifo_left_open_say_so_and_stop_on_ctrl_c(
    tmp_path: Path, command: list[str], what: str
) -> None:
    fifo = tmp_path / "fifo.txt"
    args = [x.format(fifo=fifo) for x in command]
    warned, rc, err = fifo_left_open(fifo, b"She is an actress.\n", *args)
    assert warned, err
    assert any(str(fifo) in x and what in x and "Ctrl-C" in x for x in err), err
    assert rc in (1, 2), err
    assert err[-1].startswith(f"occbio: error: {fifo}: interrupted while waiting for the end")


def test_evaluate_a_billion_resamples_is_one_line(run: Path, system: Path, tmp_path: Path) -> None:
    line = one_line_error(
        "evaluate", str(run), "--tgt", TGT, "--out", str(tmp_path / "out"),
        "--system", f"s={system}", "--resamples", "1000000000",
    )  # fmt: skip
    assert line.startswith("occbio: error: --resamples 1000000000: at most 100,000")


def test_evaluate_resamples_times_documents_is_capped() -> None:
    from occbio.evaluate.command import EvaluateError, _check_bootstrap_memory

    _check_bootstrap_memory(1000, 100_000)  # 1.5 GiB: a big test set at the default
    with pytest.raises(EvaluateError, match=r"^--resamples 100000: 100,000 resamples of "
                       r"10,000 documents need about 14\.9 GiB, more than the 4 GiB"):  # fmt: skip
        _check_bootstrap_memory(100_000, 10_000)


@pytest.mark.parametrize("command", ["evaluate", "review"])
def test_a_corpus_jsonl_of_one_2_gib_line_is_one_line(
    run: Path, tmp_path: Path, command: str
) -> None:
    """The run's own corpus.jsonl grown to 2 GiB by NUL bytes without a newline (sparse)."""
    copy = tmp_path / "run"
    shutil.copytree(run / "corpus", copy / "corpus")
    with (copy / "corpus" / "corpus.jsonl").open("r+b") as fh:
        fh.truncate(2 << 30)
    args = ["--tgt", TGT, "--simulate"] if command == "evaluate" else []
    line = one_line_error(
        *(["evaluate", str(copy)] if command == "evaluate" else ["review", "export", str(copy)]),
        *args,
    )
    lines = (run / "corpus" / "corpus.jsonl").read_bytes().count(b"\n")
    assert f"corpus.jsonl:{lines + 1}: a line longer than 8 MiB" in line


def test_evaluate_mtgeneval_a_hypothesis_of_2_gib_is_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for kind in ("feminine", "masculine"):
        (data / f"geneval-sentences-{kind}-dev.en_fr.fr").write_text("Elle est actrice.\n")
    sparse = tmp_path / "hyp.f"
    with sparse.open("wb") as fh:
        fh.truncate(2 << 30)  # 2 GiB of NUL bytes, on no disk
    (tmp_path / "hyp.m").write_text("Il est acteur.\n")
    line = one_line_error(
        "evaluate", "mtgeneval", "--data", str(data), "--lang", "fr", "--split", "dev",
        "--hyp-feminine", str(sparse), "--hyp-masculine", str(tmp_path / "hyp.m"),
    )  # fmt: skip
    assert line.startswith(f"occbio: error: {sparse}: more than 64 MiB")


# --- audit and rewrite -------------------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_audit_refuses_a_device(device: str) -> None:
    line = one_line_error("audit", device, "--lang", "en", status=2)
    assert f"{device} is a device or a socket, not a file" in line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_rewrite_refuses_a_device(device: str) -> None:
    args = ["rewrite", "--lang", "en", "--to", "feminine", "--input", device]
    line = one_line_error(*args, status=2)
    assert f"--input {device} is a device or a socket, not a file" in line


def test_rewrite_zeros_on_standard_input_stop_at_the_line_cap() -> None:
    with open("/dev/zero", "rb") as zero:
        line = one_line_error("rewrite", "--lang", "en", "--to", "feminine", stdin=zero)
    assert line == "occbio: error: standard input:1: a line longer than 8 MiB; is this a text file?"


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_audit_a_line_without_end_stops_at_the_line_cap(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "long.txt"
    with path.open("wb") as fh:
        fh.write(b'{"text": "She is an actress."}\nShe is an actress.\n')
        fh.write(b"x" * (20 << 20))  # 20 MiB without a newline
    args = ["audit", str(path), "--lang", "en", "--input-format", fmt]
    line = one_line_error(*args, status=2)
    assert line == f"occbio: error: {path}:3: a line longer than 8 MiB; is this a text file?"


def test_audit_a_tsv_quote_never_closed_stops_at_the_field_cap(tmp_path: Path) -> None:
    path = tmp_path / "corpus.tsv"
    with path.open("w", encoding="utf-8") as fh:
        fh.write("en\tes\tgender\nShe is an actress.\tEs actriz.\tfemale\n")
        fh.write('"an open quote\tx\tfemale\n')
        fh.writelines("She is an actress.\tEs actriz.\tfemale\n" for _ in range(400_000))
    line = one_line_error("audit", str(path), status=2)
    assert line.startswith(f"occbio: error: {path}:") and "not a readable TSV" in line


def test_audit_a_pipe_of_urandom_counts_lines_not_utf8_in_bounded_memory(tmp_path: Path) -> None:
    """16 MiB of random bytes through a pipe: about 60,000 lines not UTF-8, of which the
    warning names ten; the numbers kept do not grow with the input."""
    feeder = subprocess.Popen(["head", "-c", str(16 << 20), "/dev/urandom"], stdout=subprocess.PIPE)
    try:
        rc, _, err, peak = occbio_run("audit", "/dev/stdin", "--lang", "en", stdin=feeder.stdout)
    finally:
        feeder.wait()
    assert rc == 0 and not any("Traceback" in x for x in err), err
    assert peak < RSS_BOUND
    warning = next((x for x in err if "not UTF-8" in x), "")
    assert "(and " in warning and " more)" in warning, err


# --- review import -----------------------------------------------------------------------


def test_review_import_one_annotator_per_row_is_bounded(tmp_path: Path) -> None:
    """16,000 rows, each its own annotator (a CSV's `annotator` column): 190 s, a 470 MB
    report.json and 3.5 M lines of output before; now the report stays small, the terminal
    table short, and nothing is quadratic in annotators."""
    run = make_run(tmp_path)
    n = len(SEGMENTS)
    rows = [
        {"id": item_id(run, 1 + i % n, "es"), "verdict": "parallel", "annotator": f"a{i:05d}"}
        for i in range(16_000)
    ]
    path = csv_file(tmp_path / "crowd.csv", rows, ["id", "verdict", "annotator"])
    rc, out, err, peak = occbio_run("review", "import", str(run), str(path))
    assert rc == 0, err
    assert not any("Traceback" in x for x in err), err
    assert peak < RSS_BOUND
    assert len(out.splitlines()) < 60, out[:2000]
    assert len(out) < 20_000
    report = json.loads((run / "review" / "report.json").read_text("utf-8"))
    assert (run / "review" / "report.json").stat().st_size < 2 << 20
    assert (run / "DATACARD.md").stat().st_size < 64 << 10
    assert len(report["annotators"]) == 16_000 and report["agreement"] == []
    [es] = [s for s in report["agreement_summary"] if s["pair"] == "en-es"]
    assert es["annotators_with_fewer_items"] == 16_000 and es["pairs"] == 0
    assert "16,000 annotators, the 10 who judged most" in out
    card = (run / "DATACARD.md").read_text("utf-8")
    assert "16,000 annotators, the 10 who judged most" in card and "a15999" not in card


def test_agreement_of_many_annotators_is_bounded_and_summed_up() -> None:
    """300 annotators judging the same 30 items: 100 compared (4,950 pairs, not 44,850), the
    20 sharing the most listed, the rest counted."""
    from occbio.review.stats import agreement

    verdicts = ["parallel", "partial", "not_parallel"]
    judged = {
        f"a{k:03d}": {f"i{i:02d}": verdicts[(i * (k % 7 + 1)) % 3] for i in range(30 - k % 5)}
        for k in range(300)
    }
    judged["loner"] = {"i00": "parallel"}
    rows, summary = agreement(judged)
    assert len(rows) == 20 and all(r["items"] >= 20 for r in rows)
    assert [r["items"] for r in rows] == sorted((r["items"] for r in rows), reverse=True)
    assert summary["annotators_compared"] == 100 and summary["pairs"] == 4950
    assert summary["annotators_not_compared"] == 200
    assert summary["annotators_with_fewer_items"] == 1
    assert -1.0 <= summary["median_kappa"] <= 1.0


def test_review_import_refuses_a_file_larger_than_the_run_can_have(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    path = tmp_path / "huge.csv"
    with path.open("wb") as fh:
        fh.write(b"id,verdict\n")
        fh.write((b"x" * 1023 + b"\n") * (80 << 10))  # 80 MiB
    line = one_line_error("review", "import", str(run), str(path))
    assert f"{path}: 80.0 MiB, more than the" in line


def test_the_notice_names_a_fifo_only_while_a_read_waits(caplog: pytest.LogCaptureFixture) -> None:
    """Time spent on what was read is not waiting: no warning then."""
    from occbio.io import limits

    old = limits.WAIT_FIRST_S
    limits.WAIT_FIRST_S = 0.2
    try:
        with limits.waiting_notice("F", "x") as activity:
            time.sleep(2.0)  # no read in progress: nothing to say
            assert not caplog.records
            activity.waiting()
            deadline = time.monotonic() + HANG_GUARD_S
            while not caplog.records and time.monotonic() < deadline:
                time.sleep(0.1)
    finally:
        limits.WAIT_FIRST_S = old
    assert "F: still waiting for the end of this FIFO or pipe (x)" in caplog.records[0].message
