"""``occbio evaluate mtgeneval``: MT-GenEval's gender accuracy on MT-GenEval's own files.

The decisions are those of the published ``accuracy_metric.py`` (see
:mod:`occbio.evaluate.gender_accuracy`), and the files are read the way it reads them: UTF-8
text, universal newlines (``\\n``, ``\\r\\n`` and ``\\r`` end a line, nothing else), except that
a BOM opening a hypothesis file is dropped (theirs would glue it to the first word). What it
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

#: target languages (the published script's eight; the contextual data also has Dutch)
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


#: The most bytes read from one file: MT-GenEval's are under 1 MB, a system's translations of
#: them far under this.
MAX_FILE_BYTES = 64 << 20


def read_lines(path: Path, *, drop_bom: bool = False) -> list[str]:
    """The lines of ``path`` as the published script's ``open(f, 'r')`` yields them. A
    directory, FIFO or device is refused before it is opened (a FIFO would block), a file over
    :data:`MAX_FILE_BYTES` in one line."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise MtGenEvalError(f"{path} is not a regular file")
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise MtGenEvalError(
                f"{path}: more than {MAX_FILE_BYTES >> 20} MiB; MT-GenEval's files and their "
                "translations are far smaller: is this the right file?"
            )
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


#: per subset: the references' file names, their kinds, the folders under --data to look in
_LAYOUT = {
    "counterfactual": (
        "geneval-sentences-{kind}-{split}.en_{lang}.{lang}",
        ("feminine", "masculine"),
        ("data/sentences/{split}", "sentences/{split}", "sentences-{split}"),
    ),
    "contextual": (
        "geneval-context-wikiprofessions-{kind}-{split}.en_{lang}.{lang}",
        ("original", "flipped"),
        ("data/context", "context", "contextual-{split}"),
    ),
}


def find_references(data: Path, subset: str, split: str, lang: str) -> tuple[Path, Path]:
    """The two reference files in ``data`` itself or in a folder of :data:`_LAYOUT` under it."""
    if lang not in LANGS[subset]:
        known = ", ".join(LANGS[subset])
        raise MtGenEvalError(f"unknown language {lang!r} for the {subset} subset ({known})", 2)
    if not data.is_dir():
        raise MtGenEvalError(f"--data {data} is not a directory")
    pattern, kinds, subdirs = _LAYOUT[subset]
    first, second = (pattern.format(kind=k, split=split, lang=lang) for k in kinds)
    folders = [data, *(data / sub.format(split=split) for sub in subdirs)]
    for folder in folders:
        if (folder / first).exists():
            return folder / first, folder / second
    where = ", ".join(map(str, folders))
    raise MtGenEvalError(f"MT-GenEval reference {first} not found in {where}")


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
    plan = {"feminine": (first, second), "masculine": (second, first)}
    if subset == "contextual":
        plan = {"contextual": (first, second)}
    decisions, empty = {}, {}
    for name, (orig, cf) in plan.items():
        lines, n = read_lines(hyps[name], drop_bom=True), len(refs[orig])
        hyp = f"{name} hypothesis"
        for what, path, got in (("reference", cf, len(refs[cf])), (hyp, hyps[name], len(lines))):
            if got != n:
                raise MtGenEvalError(f"{what} {path} has {got} lines, reference {orig} has {n}")
        decisions[name] = decide_all(lines, refs[orig], refs[cf])
        empty[name] = sum(1 for line in lines if not words(line))
    return Evaluation(decisions, empty)


def summary(ev: Evaluation) -> dict[str, dict]:
    """Accuracy, counts and 95 % Wilson interval per set, with the published combined figure
    when both genders were judged."""
    flags = {name: [d.correct for d in ds] for name, ds in ev.decisions.items()}
    if "feminine" in flags:
        flags["combined"] = [
            f and m for f, m in zip(flags["feminine"], flags["masculine"], strict=True)
        ]
    out: dict[str, dict] = {"accuracy": {}, "counts": {}, "interval": {}}
    for name, fs in flags.items():
        correct, lines = sum(fs), len(fs)
        out["accuracy"][name] = correct / lines if lines else 0.0
        out["counts"][name] = {"correct": correct, "lines": lines}
        if name in ev.empty:
            out["counts"][name]["empty_hypotheses"] = ev.empty[name]
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
    lines = [
        f"MT-GenEval gender accuracy, {args.subset} subset, en-{args.lang} {args.split}",
        f"{'set':<12}{'accuracy':>9}  {'95% interval':<18}  correct / lines",
    ]
    for name, acc in result["accuracy"].items():
        (low, high), n = result["interval"][name], result["counts"][name]
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
        hyps = _hyp_paths(args)
        if args.decisions and args.decisions.resolve() in {h.resolve() for h in hyps.values()}:
            raise MtGenEvalError(f"--decisions {args.decisions} is a hypothesis file", 2)
        ev = evaluate(args.data, args.subset, args.split, args.lang, hyps)
        if args.decisions is not None:
            _write_decisions(args.decisions, ev.decisions)
    except SystemExit as exc:  # argparse: --help, or a usage error it has printed
        return exc.code if isinstance(exc.code, int) else 2
    except MtGenEvalError as exc:
        print(f"occbio: error: {exc}", file=sys.stderr)
        return exc.status
    result = summary(ev)
    for name, count in ev.empty.items():
        if count:
            lines = result["counts"][name]["lines"]
            print(
                f"occbio: warning: {count} of {lines} {name} hypothesis lines have no words; "
                "the published definition counts them Correct",
                file=sys.stderr,
            )
    meta = {"lang": args.lang, "split": args.split, "subset": args.subset, "definition": DEFINITION}
    try:
        print(json.dumps({**result, **meta}) if args.format == "json" else _text(result, args))
        sys.stdout.flush()
    except BrokenPipeError:  # `... | head -1`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
