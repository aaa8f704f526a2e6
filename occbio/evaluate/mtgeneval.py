"""``occbio evaluate mtgeneval``: MT-GenEval's gender accuracy on MT-GenEval's own files.

The decisions are those of the published ``accuracy_metric.py`` (see
:mod:`occbio.evaluate.gender_accuracy`), and the files are read the way it reads them: UTF-8
text, universal newlines (``\\n``, ``\\r\\n`` and ``\\r`` end a line, nothing else). What it
leaves to an ``assert`` or to chance, this command checks: line counts, encoding, paths.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from occbio.cli_options import _Parser
from occbio.evaluate.gender_accuracy import Decision, decide_all, words
from occbio.report.chart import wilson_interval

__all__ = ["DEFINITION", "Evaluation", "MtGenEvalError", "evaluate", "run_mtgeneval", "summary"]

#: The target languages of each subset (the published script lists the first eight; the
#: contextual data also has Dutch).
LANGS = {
    "counterfactual": ("ar", "de", "es", "fr", "hi", "it", "pt", "ru"),
    "contextual": ("ar", "de", "es", "fr", "hi", "it", "nl", "pt", "ru"),
}
DEFINITION = (
    "MT-GenEval accuracy_metric.py (Currey et al., 2022): lines lowercased, ASCII punctuation "
    "to spaces, word sets; a hypothesis is Incorrect when it has a word of the counterfactual "
    "reference that the original reference lacks; accuracy = Correct / lines; combined: a "
    "segment is Correct only when its feminine and masculine hypotheses both are"
)


class MtGenEvalError(Exception):
    """A one-line error for the user; ``status`` is 2 for usage, 1 for data."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def read_lines(path: Path, *, drop_bom: bool = False) -> list[str]:
    """The lines of ``path`` as the published script's ``open(f, 'r')`` yields them. A
    directory, FIFO or device is refused before it is opened (a FIFO would block)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise MtGenEvalError(f"{path} is not a regular file")
        data = path.read_bytes()
    except FileNotFoundError:
        raise MtGenEvalError(f"{path} not found") from None
    except OSError as exc:
        raise MtGenEvalError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8") + "x"  # "x": the line of the bad byte
        line = len(io.StringIO(before, newline=None).readlines())
        raise MtGenEvalError(f"{path} is not UTF-8 (line {line})") from None
    if drop_bom:
        text = text.removeprefix("\ufeff")
    return list(io.StringIO(text, newline=None))


def _names(subset: str, split: str, lang: str) -> tuple[str, str]:
    """File names of the (original, counterfactual) references; for the counterfactual
    subset the feminine reference is the first."""
    if subset == "contextual":
        stem = f"geneval-context-wikiprofessions-{{}}-{split}.en_{lang}.{lang}"
        return stem.format("original"), stem.format("flipped")
    stem = f"geneval-sentences-{{}}-{split}.en_{lang}.{lang}"
    return stem.format("feminine"), stem.format("masculine")


def find_references(data: Path, subset: str, split: str, lang: str) -> tuple[Path, Path]:
    """The two reference files under ``data``: MT-GenEval's folder of that subset, its
    repository root (``data/sentences/{split}``, ``data/context``) or a folder holding
    ``sentences-{split}`` / ``contextual-{split}``."""
    if lang not in LANGS[subset]:
        known = ", ".join(LANGS[subset])
        raise MtGenEvalError(f"unknown language {lang!r} for the {subset} subset ({known})", 2)
    if not data.is_dir():
        raise MtGenEvalError(f"--data {data} is not a directory")
    if subset == "contextual":
        subdirs = ["data/context", "context", f"contextual-{split}"]
    else:
        subdirs = [f"data/sentences/{split}", f"sentences/{split}", f"sentences-{split}"]
    first, second = _names(subset, split, lang)
    for folder in [data, *(data / sub for sub in subdirs)]:
        if (folder / first).exists():
            return folder / first, folder / second
    where = ", ".join(str(data / sub) for sub in ["", *subdirs])
    raise MtGenEvalError(f"MT-GenEval reference {first} not found in {where}")


def _hypotheses(path: Path, name: str, reference: Path, n: int) -> list[str]:
    lines = read_lines(path, drop_bom=True)
    if len(lines) != n:
        raise MtGenEvalError(
            f"{name} hypothesis {path} has {len(lines)} lines, reference {reference} has {n}"
        )
    return lines


@dataclass(frozen=True)
class Evaluation:
    """Decisions per set (``feminine`` and ``masculine``, or ``contextual``), line by line."""

    decisions: dict[str, list[Decision]]
    #: per set, the hypotheses without a word after cleaning (Correct under the definition)
    empty: dict[str, int]


def evaluate(data: Path, subset: str, split: str, lang: str, hyps: dict[str, Path]) -> Evaluation:
    """Judge the hypothesis files of ``hyps`` (keyed by set) against the references."""
    first, second = find_references(data, subset, split, lang)
    refs = {first: read_lines(first), second: read_lines(second)}
    if len(refs[first]) != len(refs[second]):
        raise MtGenEvalError(
            f"references differ in length: {first} has {len(refs[first])} lines, "
            f"{second} has {len(refs[second])}"
        )
    n = len(refs[first])
    if subset == "contextual":
        plan = {"contextual": (first, second)}
    else:
        plan = {"feminine": (first, second), "masculine": (second, first)}
    decisions, empty = {}, {}
    for name, (orig, cf) in plan.items():
        lines = _hypotheses(hyps[name], name, orig, n)
        decisions[name] = decide_all(lines, refs[orig], refs[cf])
        empty[name] = sum(1 for line in lines if not words(line))
    return Evaluation(decisions, empty)


def summary(decisions: dict[str, list[Decision]]) -> dict[str, dict]:
    """Accuracy, counts and 95 % Wilson interval per set, with the published combined figure
    when both genders were judged."""
    flags = {name: [d.correct for d in ds] for name, ds in decisions.items()}
    if "feminine" in flags:
        flags["combined"] = [
            f and m for f, m in zip(flags["feminine"], flags["masculine"], strict=True)
        ]
    out: dict[str, dict] = {"accuracy": {}, "counts": {}, "interval": {}}
    for name, fs in flags.items():
        correct, lines = sum(fs), len(fs)
        out["accuracy"][name] = correct / lines if lines else 0.0
        out["counts"][name] = {"correct": correct, "lines": lines}
        out["interval"][name] = list(wilson_interval(correct, lines))
    return out


def _write_decisions(path: Path, decisions: dict[str, list[Decision]]) -> None:
    names = list(decisions)
    header = ["segment", *names] + (["combined"] if len(names) == 2 else [])
    header += [f"{name}_wrong_words" for name in names]
    rows = ["\t".join(header)]
    for i, ds in enumerate(zip(*decisions.values(), strict=True), start=1):
        verdicts = ["Correct" if d.correct else "Incorrect" for d in ds]
        if len(ds) == 2:
            verdicts.append("Correct" if all(d.correct for d in ds) else "Incorrect")
        rows.append("\t".join([str(i), *verdicts, *(" ".join(sorted(d.wrong)) for d in ds)]))
    try:
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    except OSError as exc:
        raise MtGenEvalError(f"cannot write {path}: {exc.strerror or exc}") from None


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="occbio evaluate mtgeneval",
        description="MT-GenEval gender accuracy, decision for decision as its accuracy_metric.py",
    )
    p.add_argument("--data", type=Path, required=True, help="MT-GenEval's data or repository")
    p.add_argument("--lang", required=True, help="target language (English is the source)")
    p.add_argument("--split", choices=["dev", "test"], required=True)
    p.add_argument("--subset", choices=list(LANGS), default="counterfactual")
    p.add_argument("--hyp-feminine", type=Path, help="translations of the feminine sources")
    p.add_argument("--hyp-masculine", type=Path, help="translations of the masculine sources")
    p.add_argument("--hyp", type=Path, help="translations of the contextual sources")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--decisions", type=Path, help="write each segment's decisions here (TSV)")
    return p


def _hyp_paths(args: argparse.Namespace) -> dict[str, Path]:
    given = {"feminine": args.hyp_feminine, "masculine": args.hyp_masculine}
    if args.subset == "contextual":
        if args.hyp is None or any(given.values()):
            raise MtGenEvalError("the contextual subset takes --hyp only", 2)
        return {"contextual": args.hyp}
    if args.hyp is not None or not all(given.values()):
        raise MtGenEvalError(
            "the counterfactual subset takes --hyp-feminine and --hyp-masculine", 2
        )
    return given


def _text(result: dict[str, dict], args: argparse.Namespace) -> str:
    lines = [f"MT-GenEval gender accuracy, {args.subset} subset, en-{args.lang} {args.split}"]
    lines.append(f"{'set':<12}{'accuracy':>9}  {'95% interval':<18}  correct / lines")
    for name, acc in result["accuracy"].items():
        low, high = result["interval"][name]
        n = result["counts"][name]
        lines.append(
            f"{name:<12}{acc:>9.4f}  [{low:.4f}, {high:.4f}]  {n['correct']} / {n['lines']}"
        )
    if "combined" in result["accuracy"]:
        lines.append("combined: a segment counts only when both of its hypotheses are Correct")
    return "\n".join(lines)


def run_mtgeneval(argv: Sequence[str]) -> int:
    """``occbio evaluate mtgeneval ...``; prints its own errors and returns the exit status."""
    try:
        args = _parser().parse_args(argv)
        ev = evaluate(args.data, args.subset, args.split, args.lang, _hyp_paths(args))
        if args.decisions is not None:
            _write_decisions(args.decisions, ev.decisions)
    except SystemExit as exc:  # argparse: --help, or a usage error it has printed
        return exc.code if isinstance(exc.code, int) else 2
    except MtGenEvalError as exc:
        print(f"occbio: error: {exc}", file=sys.stderr)
        return exc.status
    for name, count in ev.empty.items():
        if count:
            print(
                f"occbio: warning: {count} of {len(ev.decisions[name])} {name} hypothesis lines "
                "have no words; the published definition counts them Correct",
                file=sys.stderr,
            )
    result = summary(ev.decisions)
    result["counts"].update(
        {name: {**result["counts"][name], "empty_hypotheses": n} for name, n in ev.empty.items()}
    )
    meta = {"lang": args.lang, "split": args.split, "subset": args.subset}
    try:
        if args.format == "json":
            print(json.dumps({**result, **meta, "definition": DEFINITION}, ensure_ascii=False))
        else:
            print(_text(result, args))
        sys.stdout.flush()
    except BrokenPipeError:  # `... | head -1`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
