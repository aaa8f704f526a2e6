"""`occbio evaluate` at scale: 10,000 segments x 3 systems, wall time, peak memory and where
the time goes.

Builds a synthetic mined run in a temporary directory: N segments (default 10,000) in N/10
documents of 5 to 15 segments, people female/male/non-binary about 45/45/10, each with one or
two of 30 occupations. corpus/corpus.jsonl and corpus/counterfactual.jsonl have the schema
`occbio write` and `occbio augment` write (text, qid, seg, name, gender, occupations, urls,
scores; source_gender in the copy). The sentences are MT-GenEval's feminine/masculine pairs
(en-es dev, brackets removed, cycled): a woman's segment has the feminine one as its text and
the masculine one as its counterfactual, a man's the reverse; a non-binary person's has the
masculine one and, as `occbio augment` does, no counterfactual.

Three systems, as translation files line-aligned with corpus/corpus.es: the reference itself,
a noisy copy (about one word in six dropped, one adjacent pair in ten swapped, seeded) and a
masculine copy (every segment's masculine sentence: a system that defaults to the masculine).

Times the real command, `occbio evaluate RUN --tgt es --system ... --format json`, through
`occbio.cli.main` in this process (--repeat times) and as a subprocess (the wall time and peak
RSS a user sees, Python start-up and imports included), then profiles one in-process run with
cProfile and splits its time into reading, sacrebleu's statistics, scores from statistics (per
document and per bootstrap resample), gender accuracy, the rest of the bootstrap and outputs.

    python benchmarks/evaluate.py [--segments 10000] [--resamples 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from occbio.cli import main as occbio_main
from occbio.evaluate.simulate import noisy

DATA = Path(__file__).resolve().parents[2] / "shared/data/mt-geneval-dev/sentences-dev"
SYSTEMS = ("reference", "noisy", "masculine")
GENDERS = (("female", 0.45), ("male", 0.45), ("non-binary", 0.10))
#: (Wikidata QID, English label): 30 common occupations of people with biographies
OCCUPATIONS = (
    ("Q82955", "politician"), ("Q33999", "actor"), ("Q36180", "writer"),
    ("Q177220", "singer"), ("Q1028181", "painter"), ("Q901", "scientist"),
    ("Q39631", "physician"), ("Q937857", "association football player"),
    ("Q1930187", "journalist"), ("Q40348", "lawyer"), ("Q37226", "teacher"),
    ("Q81096", "engineer"), ("Q42973", "architect"), ("Q639669", "musician"),
    ("Q2526255", "film director"), ("Q1622272", "university teacher"),
    ("Q169470", "physicist"), ("Q593644", "chemist"), ("Q170790", "mathematician"),
    ("Q201788", "historian"), ("Q4964182", "philosopher"), ("Q49757", "poet"),
    ("Q33231", "photographer"), ("Q2066131", "athlete"), ("Q36834", "composer"),
    ("Q3282637", "film producer"), ("Q483501", "artist"), ("Q1281618", "sculptor"),
    ("Q1234713", "theologian"), ("Q185351", "jurist"),
)  # fmt: skip
#: profile breakdown: (part, [(file name, function, caller function or None)]); the functions
#: do not call one another, so their cumulative times add up
PARTS = (
    ("reading", [("testset.py", "read_testset", None), ("hypotheses.py", "read_hypotheses", None)]),
    ("sacrebleu statistics", [("quality.py", "segment_stats", None)]),
    ("scores from statistics", [("quality.py", "scores", None)]),
    ("gender accuracy", [("evaluation.py", "_accuracy_flags", None)]),
    ("bootstrap (weights, sums, intervals, gaps)", [
        ("bootstrap.py", "resample_weights", None), ("evaluation.py", "point_and_boot", None),
        ("bootstrap.py", "interval", "add"), ("evaluation.py", "_differences", None),
    ]),
    ("outputs (files, chart, printed JSON)", [
        ("command.py", "_write_outputs", None), ("report.py", "format_rows", "run_evaluate"),
    ]),
)  # fmt: skip


def _pairs(data: Path) -> list[tuple[dict[str, str], dict[str, str]]]:
    """MT-GenEval's en-es dev pairs: ({lang: feminine text}, {lang: masculine text})."""
    texts = {}
    for gender in ("feminine", "masculine"):
        for lang in ("en", "es"):
            path = data / f"geneval-sentences-{gender}-dev.en_es.{lang}"
            if not path.is_file():
                raise SystemExit(f"evaluate.py: {path} is missing (--data: MT-GenEval's sentences)")
            lines = path.read_text(encoding="utf-8").splitlines()
            texts[gender, lang] = [re.sub(r"[\[\]]", "", line).strip() for line in lines]
    n = len(texts["feminine", "en"])
    return [
        ({x: texts["feminine", x][i] for x in ("en", "es")},
         {x: texts["masculine", x][i] for x in ("en", "es")})
        for i in range(n)
    ]  # fmt: skip


def _doc_sizes(segments: int, rng: random.Random) -> list[int]:
    """Document sizes of 5 to 15 segments (about 10) that add up to ``segments``."""
    sizes, left = [], segments
    while left > 0:
        size = min(left, rng.randint(5, 15))
        sizes.append(size)
        left -= size
    return sizes


def build_run(run: Path, segments: int, data: Path, seed: int = 0) -> dict[str, Path]:
    """Write the synthetic run and the three systems' files; returns name -> file."""
    rng = random.Random(seed)
    pairs = _pairs(data)
    corpus = run / "corpus"
    corpus.mkdir(parents=True)
    names, weights = zip(*GENDERS, strict=True)
    hyps: dict[str, list[str]] = {name: [] for name in SYSTEMS}
    refs = []
    n = 0
    with (
        (corpus / "corpus.jsonl").open("w", encoding="utf-8") as out,
        (corpus / "counterfactual.jsonl").open("w", encoding="utf-8") as cf_out,
    ):
        for d, size in enumerate(_doc_sizes(segments, rng)):
            qid, gender = f"Q99{d:07d}", rng.choices(names, weights)[0]
            occs = rng.sample(OCCUPATIONS, rng.choice((1, 1, 2)))
            person = {
                "qid": qid,
                "name": f"Person {d}",
                "occupations": [{"qid": q, "label": label} for q, label in occs],
                "urls": {x: f"https://{x}.wikipedia.org/wiki/Person_{d}" for x in ("en", "es")},
            }
            for seg in range(1, size + 1):
                feminine, masculine = pairs[n % len(pairs)]
                n += 1
                text, other = (feminine, masculine) if gender == "female" else (masculine, feminine)
                scores = {"es": round(rng.uniform(1.06, 1.3), 5)}
                row = {"text": text, **person, "gender": gender, "seg": seg, "scores": scores}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                if gender in ("female", "male"):
                    cf_gender = "male" if gender == "female" else "female"
                    cf = {**row, "text": other, "gender": cf_gender, "source_gender": gender}
                    cf_out.write(json.dumps(cf, ensure_ascii=False) + "\n")
                refs.append(text["es"])
                hyps["reference"].append(text["es"])
                hyps["noisy"].append(noisy(text["es"], rng))
                hyps["masculine"].append(masculine["es"])
    (corpus / "corpus.es").write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    files = {}
    for name, lines in hyps.items():
        files[name] = run / f"{name}.es"
        files[name].write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return files


def _argv(run: Path, files: dict[str, Path], resamples: int) -> list[str]:
    systems = [f"--system={name}={path}" for name, path in files.items()]
    return ["evaluate", str(run), "--tgt", "es", *systems, "--resamples", str(resamples),
            "--format", "json", "--quiet"]  # fmt: skip


def _in_process(argv: list[str]) -> tuple[float, str]:
    """One run of ``occbio evaluate`` in this process: (seconds, what it printed)."""
    printed = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(printed):
        status = occbio_main(argv)
    took = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"occbio {' '.join(argv)} failed with status {status}")
    return took, printed.getvalue()


def _subprocess(argv: list[str]) -> tuple[float, float, float]:
    """One run as its own process: (wall seconds, CPU seconds, peak RSS in MiB); the CPU time
    hardly depends on what else the machine runs, the wall time does."""
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a chatty run cannot block
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "occbio.cli", *argv], stdout=subprocess.DEVNULL, stderr=err
        )
        _pid, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"occbio {' '.join(argv)} failed:\n{err.read().decode()}")
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KiB -> MiB


def _cumulative(stats: pstats.Stats, file: str, func: str, caller: str | None) -> float | None:
    """Cumulative seconds in ``file:func`` (only its calls from ``caller`` when given);
    None when the profile has no such function (the code was reorganised)."""
    total, found = 0.0, False
    for (path, _line, name), (_cc, _nc, _tt, ct, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if name != func or not path.endswith(os.sep + file):
            continue
        found = True
        if caller is None:
            total += ct
        else:
            total += sum(c[3] for (_p, _l, n), c in callers.items() if n == caller)
    return total if found else None


def _profile(argv: list[str]) -> tuple[float, list[tuple[str, float | None]]]:
    """One profiled run: (seconds under the profiler, [(part, seconds)])."""
    profiler = cProfile.Profile()
    with contextlib.redirect_stdout(io.StringIO()):
        profiler.enable()
        status = occbio_main(argv)
        profiler.disable()
    if status != 0:
        raise SystemExit(f"occbio {' '.join(argv)} failed with status {status}")
    stats = pstats.Stats(profiler)
    total = _cumulative(stats, "cli.py", "main", None) or 0.0
    parts: list[tuple[str, float | None]] = []
    for label, funcs in PARTS:
        times = [_cumulative(stats, f, fn, c) for f, fn, c in funcs]
        known = [t for t in times if t is not None]
        parts.append((label, sum(known) if known else None))
    parts.append(("other", total - sum(t for _l, t in parts if t is not None)))
    return total, parts


def _figures(results: dict) -> list[str]:
    """Markdown rows of what the run measured (so the timing is of a meaningful evaluation):
    each system's BLEU and chrF++ overall, its gender accuracy and the female - male gap."""

    def cell(figure: dict | None) -> str:
        if not figure or figure["value"] is None:
            return "-"
        return f"{figure['value']:.1f} [{figure['low']:.1f}, {figure['high']:.1f}]"

    lines = []
    for name in SYSTEMS:
        r = results.get(name, {})
        quality = r.get("quality", {}).get("all", {})
        accuracy = r.get("gender accuracy", {})
        gap = r.get("gap", {}).get("female - male", {}).get("accuracy")
        cells = [quality.get("BLEU"), quality.get("chrF++"), accuracy.get("female", {}).get(
            "accuracy"), accuracy.get("male", {}).get("accuracy"), gap]  # fmt: skip
        lines.append(f"| {name} | " + " | ".join(cell(c) for c in cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=10_000, help="default: %(default)s")
    parser.add_argument("--resamples", type=int, default=1000, help="default: %(default)s")
    parser.add_argument("--repeat", type=int, default=3, help="in-process runs (default: 3)")
    parser.add_argument("--data", type=Path, default=DATA, help="MT-GenEval's sentences-dev")
    args = parser.parse_args(argv)
    if args.segments < 1 or args.resamples < 1 or args.repeat < 1:
        parser.error("--segments, --resamples and --repeat must be at least 1")

    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        start = time.perf_counter()
        files = build_run(run, args.segments, args.data)
        built = time.perf_counter() - start
        command = _argv(run, files, args.resamples)
        times, printed = [], ""
        for _ in range(args.repeat):
            took, printed = _in_process(command)
            times.append(took)
        document = json.loads(printed)
        wall, cpu, peak = _subprocess(command)
        profiled, parts = _profile(command)

    counts, results = document.get("counts", {}), document.get("results", {})
    occupations = {k for r in results.values() for k in r.get("quality", {})
                   if k.startswith("occupation: ")}  # fmt: skip
    print(f"test set built in {built:.1f} s: {counts.get('segments')} segments, "
          f"{counts.get('documents')} documents {counts.get('documents_by_gender')}, "
          f"{counts.get('segments_with_counterfactual')} with a counterfactual, "
          f"{len(occupations)} occupations reported")  # fmt: skip
    print(f"occbio evaluate RUN --tgt es --system x3 --resamples {args.resamples} --format json")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load} (other work slows every figure)\n")
    print(f"| segments | systems | resamples | in-process s (min / median of {args.repeat}) "
          "| subprocess wall s | subprocess CPU s | peak RSS MiB |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.segments:,} | {len(files)} | {args.resamples} | {min(times):.1f} / "
          f"{statistics.median(times):.1f} | {wall:.1f} | {cpu:.1f} | {peak:.0f} |\n")  # fmt: skip
    print(f"| part (cProfile, one run: {profiled:.1f} s under the profiler) | s | share |")
    print("|---|---:|---:|")
    for label, seconds in parts:
        if seconds is None:
            print(f"| {label} | — | not in the profile |")
        else:
            print(f"| {label} | {seconds:.1f} | {100 * seconds / profiled:.0f} % |")
    print("\n| system | BLEU | chrF++ | accuracy female | accuracy male | female - male |")
    print("|---|---:|---:|---:|---:|---:|")
    print("\n".join(_figures(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
