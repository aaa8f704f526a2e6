"""``occbio evaluate RUN_DIR --tgt XX --system NAME=PATH ...``: how a translation system does for
women and for men on a mined test set.

Reads the run's corpus (and its counterfactual copy, for gender accuracy), each system's
translations, scores them (:mod:`occbio.evaluate.evaluation`), prints the table in the chosen
format and writes everything (scores.json with the settings, scores.csv, documents.csv,
chart.png) to the evaluation directory.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import re
import shutil
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from occbio.evaluate.evaluation import Data, Result, Settings, evaluate
from occbio.evaluate.gender_accuracy import gendered_words
from occbio.evaluate.hypotheses import Hypotheses, parse_system, read_hypotheses
from occbio.evaluate.quality import METRICS, QualityMetric, make_metrics
from occbio.evaluate.report import FORMATS, chart, format_rows
from occbio.evaluate.shift import shift_suspect
from occbio.evaluate.simulate import SYSTEMS, simulate
from occbio.evaluate.testset import (
    CORPUS_JSONL,
    COUNTERFACTUAL_JSONL,
    TestSet,
    find_corpus,
    read_testset,
)
from occbio.langs import check_lang
from occbio.runlock import output_lock, run_lock
from occbio.safepaths import guard, output_dir

__all__ = ["EvaluateError", "add_evaluate_parser", "run_evaluate"]

log = logging.getLogger(__name__)


class EvaluateError(ValueError):
    """A request ``occbio evaluate`` cannot carry out (one line)."""


#: The most bootstrap resamples, and the most memory their counts may take: resamples x
#: documents x 16 bytes (the int32 counts, a subset's copy of them and its float64 product).
MAX_RESAMPLES = 100_000
MAX_BOOTSTRAP_BYTES = 4 << 30
BOOTSTRAP_BYTES_PER_CELL = 16


def _check_bootstrap_memory(resamples: int, documents: int) -> None:
    need = resamples * documents * BOOTSTRAP_BYTES_PER_CELL
    if need > MAX_BOOTSTRAP_BYTES:
        raise EvaluateError(
            f"--resamples {resamples}: {resamples:,} resamples of {documents:,} documents need "
            f"about {need / (1 << 30):.1f} GiB, more than the {MAX_BOOTSTRAP_BYTES >> 30} GiB "
            f"allowed; at most {MAX_BOOTSTRAP_BYTES // (documents * BOOTSTRAP_BYTES_PER_CELL):,}"
        )


def _pair(text: str) -> tuple[str, str]:
    a, sep, b = text.partition(",")
    if not sep or not a.strip() or not b.strip():
        raise argparse.ArgumentTypeError(f"expected A,B, got {text!r}")
    return a.strip(), b.strip()


def _seed(text: str) -> int:
    """``--seed``: a whole number from 0, in ASCII digits (what numpy's generator takes)."""
    if not re.fullmatch(r"[0-9]{1,40}", text.strip()):
        raise argparse.ArgumentTypeError(f"expected a whole number from 0, got {text!r}")
    return int(text)


def add_evaluate_parser(sub: Any) -> None:
    p = sub.add_parser(
        "evaluate",
        help="score translation systems on a mined test set by gender and occupation",
        description="BLEU, chrF and chrF++ (sacrebleu) and MT-GenEval gender accuracy of each "
        "system on the run's test set, overall, per gender and per occupation, with 95 % "
        "bootstrap intervals over documents, the female - male gap and paired system "
        "comparisons. For MT-GenEval's own files: occbio evaluate mtgeneval --help.",
    )
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a mined run (or its corpus/)")
    p.add_argument("--tgt", help="the target language (default: the one besides --src)")
    p.add_argument("--src", help="the source language (default: the corpus's pivot)")
    p.add_argument(
        "--system",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a system's translations: one per line in the order of corpus/corpus.TGT, or JSON "
        'lines {"id": "QID:SEG", "text": ...} (.jsonl); repeat for several systems',
    )
    p.add_argument(
        "--counterfactual-system",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="the same system's translations of the counterfactual source "
        "(corpus/counterfactual.SRC, from occbio augment): the contrastive figures",
    )
    p.add_argument(
        "--simulate",
        action="store_true",
        help="also score three simulated systems built from the test set: the reference, a "
        "masculine-defaulting one and a noisy one (written to OUT/systems/)",
    )
    p.add_argument("--metrics", default=",".join(METRICS), help="default: %(default)s")
    p.add_argument("--tokenize", help="sacrebleu's BLEU tokenizer (default: its choice for TGT)")
    p.add_argument(
        "--gap",
        action="append",
        type=_pair,
        metavar="A,B",
        help="a gender gap to report (A - B); default: female,male",
    )
    p.add_argument(
        "--compare",
        action="append",
        type=_pair,
        metavar="X,Y",
        help="compare system X with Y (X - Y); default: every system with the first",
    )
    p.add_argument(
        "--min-docs",
        type=int,
        default=10,
        help="an occupation is reported when it has this many documents (default: %(default)s)",
    )
    p.add_argument(
        "--resamples",
        type=int,
        default=1000,
        help="bootstrap resamples (default: %(default)s; at most 100,000, and resamples x "
        "documents x 16 bytes at most 4 GiB)",
    )
    p.add_argument(
        "--seed", type=_seed, default=12345, help="bootstrap seed (default: %(default)s)"
    )
    p.add_argument("--format", choices=FORMATS, default="table", help="what is printed")
    p.add_argument("--out", type=Path, help="default: RUN_DIR/evaluation/SRC-TGT")
    p.add_argument("--comet-model", type=Path, metavar="DIR", help="a local COMET model directory")
    p.add_argument("--comet-gpus", type=int, default=0, help="GPUs for COMET (default: 0)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="only the table")


def _direction(testset: TestSet, src: str | None, tgt: str | None) -> tuple[str, str]:
    for option, code in (("--src", src), ("--tgt", tgt)):
        if code is not None:
            check_lang(code, option)  # a code is part of a path: evaluation/SRC-TGT
    langs = testset.langs
    src = src or langs[0]
    if tgt is None:
        others = [x for x in langs if x != src]
        if len(others) != 1:
            raise EvaluateError(f"the corpus has {', '.join(langs)}: say which with --tgt")
        tgt = others[0]
    for lang in (src, tgt):
        if lang not in langs:
            raise EvaluateError(f"the corpus has no {lang!r} (it has {', '.join(langs)})")
    if src == tgt:
        raise EvaluateError("--src and --tgt are the same language")
    return src, tgt


def _systems(values: list[str], option: str) -> dict[str, Path]:
    systems: dict[str, Path] = {}
    for value in values:
        name, path = parse_system(value)
        if name in systems:
            raise EvaluateError(f"{option}: two systems are named {name!r}")
        systems[name] = path
    return systems


def _write_text(path: Path, lines: list[str]) -> Path:
    from occbio.run import atomic_write

    with atomic_write(path) as fh:
        fh.writelines(line.replace("\n", " ") + "\n" for line in lines)
    return path


def _check(args: argparse.Namespace) -> list[str]:
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    unknown = [m for m in metrics if m not in METRICS]
    if unknown or not metrics:
        raise EvaluateError(f"--metrics: choose from {', '.join(METRICS)}")
    if args.resamples < 1 or args.min_docs < 1:
        raise EvaluateError("--resamples and --min-docs must be at least 1")
    if args.resamples > MAX_RESAMPLES:
        raise EvaluateError(
            f"--resamples {args.resamples}: at most {MAX_RESAMPLES:,} (1,000 give 95 % "
            "intervals to a tenth of a point)"
        )
    if not args.system and not args.simulate:
        raise EvaluateError("give the translations to score: --system NAME=PATH (or --simulate)")
    return metrics


def run_evaluate(args: argparse.Namespace) -> int:
    """The command; returns the exit status (errors are raised, ``occbio.cli`` prints them).

    The run is locked shared for as long as the command reads it (no `mine`, `augment` or
    `review apply` can replace the corpus meanwhile; other readers can work), its output
    folder exclusively (two evaluations never mix their files); the corpus read is checked
    against the file on disk before anything is written, and its SHA-256 goes in scores.json.
    """
    metric_names = _check(args)
    corpus = find_corpus(args.run_dir)
    run_dir = corpus.parent if corpus.name == "corpus" else corpus
    # --out RUN itself: the run's own folder is written, so it is held alone
    inside = args.out is not None and _same_dir(args.out, run_dir)
    with contextlib.ExitStack() as stack:
        stack.enter_context(run_lock(run_dir, shared=not inside))
        return _evaluate(args, metric_names, run_dir, stack, lock_out=not inside)


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _evaluate(
    args: argparse.Namespace,
    metric_names: list[str],
    run_dir: Path,
    stack: contextlib.ExitStack,
    *,
    lock_out: bool,
) -> int:
    testset = read_testset(args.run_dir)
    src, tgt = _direction(testset, args.src, args.tgt)
    out: Path = args.out or run_dir / "evaluation" / f"{src}-{tgt}"
    present = sorted({s.gender for s in testset.segments})
    for a, b in args.gap or ():
        if a == b:  # as --compare X,X: a gap of 0 whatever the systems do
            raise EvaluateError(f"--gap {a},{b}: a gender compared with itself")
        for g in (a, b):
            if g not in present:
                raise EvaluateError(
                    f"--gap {a},{b}: the test set has no {g} document (it has {', '.join(present)})"
                )

    segs = testset.segments
    _check_bootstrap_memory(args.resamples, len({s.doc for s in segs}))
    ids, refs = [s.id for s in segs], [s.text.get(tgt, "") for s in segs]
    systems = _systems(args.system, "--system")
    cf_systems = _systems(args.counterfactual_system, "--counterfactual-system")
    for name in cf_systems:
        if name not in systems:
            raise EvaluateError(f"--counterfactual-system {name}: no --system of that name")
    for x, y in args.compare or ():
        if x == y:
            raise EvaluateError(f"--compare {x},{y}: a system compared with itself")
        for name in (x, y):
            if name not in systems and not (args.simulate and name in SYSTEMS):
                raise EvaluateError(f"--compare: no system named {name!r}")
    if cf_systems and not testset.counterfactual:
        raise EvaluateError("the run has no counterfactual copy: run `occbio augment` first")
    if args.simulate and not testset.counterfactual:
        raise EvaluateError(
            f"--simulate needs the run's counterfactual copy: occbio augment {run_dir}"
        )
    guard(run_dir)  # nothing below the run is written through a link
    out = output_dir(out)
    if lock_out:
        stack.enter_context(output_lock(out, "evaluate"))
    _remove_staged(out)  # what a killed evaluation left (this process holds OUT)
    simulated: dict[str, Path] = {}  # staged file -> its place in OUT/systems/
    if args.simulate:
        stage = Path(tempfile.mkdtemp(prefix=_STAGED_PREFIX, suffix=".tmp", dir=out))
        stack.callback(shutil.rmtree, stage, ignore_errors=True)
        for name, (hyps, cf_hyps) in simulate(testset, tgt, args.seed).items():
            if name in systems:
                raise EvaluateError(f"--simulate makes a system named {name!r}: rename yours")
            for key, table, lines, file in (
                (name, systems, hyps, f"{name}.{tgt}"),
                (name, cf_systems, cf_hyps, f"counterfactual.{name}.{tgt}"),
            ):
                table[key] = _write_text(stage / file, lines)
                simulated[table[key]] = out / "systems" / file

    if not testset.counterfactual:
        log.warning(
            "%s has no counterfactual copy: no gender accuracy (run `occbio augment %s`)",
            testset.source, run_dir,
        )  # fmt: skip
    against = f"corpus/corpus.{tgt}"
    hyps = {n: read_hypotheses(n, p, ids, refs, against) for n, p in systems.items()}
    for h in hyps.values():  # the simulated systems are named where they will be
        h.path = simulated.get(h.path, h.path)
    shifted = {}
    for name, h in hyps.items():
        offset = shift_suspect(h.lines, refs)
        if offset is not None:
            shifted[name] = offset
            log.warning(
                "%s: its lines look shifted by %+d against %s (most share more words with a "
                "neighbouring reference than with their own): check the file's first lines",
                h.path, offset, against,
            )  # fmt: skip
    cf_order = testset.counterfactual_order
    cf_refs = [testset.counterfactual[sid].get(tgt, "") for sid in cf_order]
    position = testset.index()
    cf_hyps: dict[str, list[str | None]] = {}
    for name, path in cf_systems.items():
        lines = read_hypotheses(name, path, cf_order, cf_refs, f"corpus/counterfactual.{src}")
        aligned: list[str | None] = [None] * len(segs)
        for sid, line in zip(cf_order, lines.lines, strict=True):
            aligned[position[sid]] = line
        cf_hyps[name] = aligned
    cf_systems = {n: simulated.get(p, p) for n, p in cf_systems.items()}

    data = Data(
        docs=[s.doc for s in segs],
        genders={s.doc: s.gender for s in segs},
        occupations={s.doc: s.occupations for s in segs},
        references=refs,
        systems={n: h.lines for n, h in hyps.items()},
        counterfactuals=[testset.counterfactual.get(s.id, {}).get(tgt) for s in segs],
        counterfactual_systems=cf_hyps,
    )
    if args.comet_model is not None:
        from occbio.evaluate.comet import comet_scores

        sources = [s.text.get(src, "") for s in segs]
        for name, h in hyps.items():
            data.comet[name] = comet_scores(
                args.comet_model, sources, h.lines, refs, gpus=args.comet_gpus
            )
    settings = Settings(
        resamples=args.resamples,
        seed=args.seed,
        min_docs=args.min_docs,
        gaps=tuple(args.gap or [("female", "male")]),
        compare=tuple(args.compare or ()),
    )
    metrics = make_metrics(metric_names, tgt, args.tokenize)
    result = evaluate(data, metrics, settings)
    document = _document(args, testset, src, tgt, hyps, cf_systems, metrics, settings, data)
    for name, offset in shifted.items():
        document["systems"][name]["looks_shifted_by"] = offset
    changed = testset.changed()
    if changed is not None:  # a writer that ignored the lock (another machine, an editor)
        raise EvaluateError(
            f"{changed} changed while the evaluation ran (another process wrote the corpus): "
            f"nothing written to {out}; run the command again"
        )
    for staged, final in simulated.items():
        _place(staged, final)
    _write_outputs(out, result, document, data, src, tgt)
    print(format_rows(result.rows, args.format, document), end="")
    if not args.quiet:
        print(f"evaluation: {out} (scores.json, scores.csv, documents.csv, chart.png)",
              file=sys.stderr)  # fmt: skip
    return 0


#: where --simulate's systems wait (in OUT) until the evaluation is written
_STAGED_PREFIX = ".simulated-"


def _place(staged: Path, final: Path) -> None:
    """Copy a staged system to its place in OUT/systems/, written as every output is (through
    no link: a ``systems`` planted as a link to elsewhere is refused, not written through)."""
    from occbio.run import atomic_write

    with atomic_write(final, "wb") as fh, staged.open("rb") as src:
        shutil.copyfileobj(src, fh)


def _remove_staged(out: Path) -> None:
    for left in out.glob(f"{_STAGED_PREFIX}*.tmp"):
        if left.is_dir() and not left.is_symlink():
            shutil.rmtree(left, ignore_errors=True)


def _document(
    args: argparse.Namespace,
    testset: TestSet,
    src: str,
    tgt: str,
    hyps: dict[str, Hypotheses],
    cf_systems: dict[str, Path],
    metrics: list[QualityMetric],
    settings: Settings,
    data: Data,
) -> dict[str, Any]:
    """Settings, inputs and counts: everything needed to say what was measured."""
    from occbio import __version__

    with_cf = sum(cf is not None for cf in data.counterfactuals)
    judged = sum(
        1
        for ref, cf in zip(data.references, data.counterfactuals, strict=True)
        if cf is not None and gendered_words(ref, cf)[1]
    )
    docs = {s.doc: s.gender for s in testset.segments}
    by_gender: dict[str, int] = {}
    for g in docs.values():
        by_gender[g] = by_gender.get(g, 0) + 1
    return {
        "occbio": __version__,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "corpus": str(testset.source),
        # the files scored against, as read (size, SHA-256; null: the run had none)
        "corpus_sha256": (testset.checksums.get(CORPUS_JSONL) or {}).get("sha256"),
        "corpus_files": {
            name: testset.checksums.get(name) for name in (CORPUS_JSONL, COUNTERFACTUAL_JSONL)
        },
        "src": src,
        "tgt": tgt,
        "systems": {
            n: {"path": str(h.path), "size": h.size, "sha256": h.sha256, "empty": h.empty}
            for n, h in hyps.items()
        },
        "counterfactual_systems": {n: str(p) for n, p in cf_systems.items()},
        "signatures": {m.name: m.signature() for m in metrics},
        "settings": {
            "resamples": settings.resamples,
            "seed": settings.seed,
            "interval": "95 % percentile bootstrap over documents, stratified by gender",
            "min_docs": settings.min_docs,
            "gaps": [list(g) for g in settings.gaps],
            "compare": [list(c) for c in settings.compare],
            "comet_model": str(args.comet_model) if args.comet_model else None,
            "gender_accuracy": "MT-GenEval (Currey et al., 2022): wrong when the hypothesis has "
            "a word unique to the counterfactual reference",
        },
        "counts": {
            "segments": len(testset.segments),
            "documents": len(docs),
            "documents_by_gender": by_gender,
            "segments_with_counterfactual": with_cf,
            "segments_without_confident_counterfactual": len(testset.segments) - with_cf,
            # the copy has no word the reference lacks: nothing a translation could get wrong
            "segments_without_gendered_words": with_cf - judged,
            "segments_judged_for_gender": judged,
        },
    }


def _write_outputs(
    out: Path, result: Result, document: dict[str, Any], data: Data, src: str, tgt: str
) -> None:
    from occbio.io.spreadsheet import spreadsheet_writer
    from occbio.run import atomic_write

    with atomic_write(out / "scores.json") as fh:
        fh.write(format_rows(result.rows, "json", document) + "\n")
    with atomic_write(out / "scores.csv") as fh:
        fh.write(format_rows(result.rows, "csv"))
    with atomic_write(out / "documents.csv") as fh:
        metrics = list(dict.fromkeys(m for docs in result.documents.values()
                                     for scores in docs.values() for m in scores))  # fmt: skip
        writer = spreadsheet_writer(fh, lineterminator="\n")
        writer.writerow(["system", "doc", "gender", "occupations", *metrics])
        for system, docs in result.documents.items():
            for doc, scores in docs.items():
                occ = "; ".join(data.occupations.get(doc, ()))
                values = [f"{scores[m]:.2f}" if m in scores else "" for m in metrics]
                writer.writerow([system, doc, data.genders.get(doc, ""), occ, *values])
    chart(result.rows, out / "chart.png", f"{src} → {tgt} by gender (95 % bootstrap intervals)")
