"""``occbio audit``: the gender representation of any corpus files, or of a run.

``occbio audit FILE... --lang xx`` reads each file (:mod:`occbio.audit.inputs`) and counts per
language, and per document gender where the files say it; ``occbio audit RUN_DIR`` does the
same for a run's balanced corpus and for its aligned tuples before balancing. Two methods:
``lexicon`` (GENDER-GAP person nouns, :mod:`occbio.audit.lexicon`, 55 languages) and ``llm``
(person references labelled by a backend, :mod:`occbio.audit.llm`, Spanish and Catalan).
A language a method cannot measure is skipped with a warning; the others are reported.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from occbio.audit.inputs import (
    INPUT_FORMATS,
    AuditInputError,
    Record,
    line_list,
    read_records,
    run_genders,
    run_sources,
)
from occbio.audit.lexicon import LexiconCounter, LexiconResult, LexiconUnavailable, load_lexicon
from occbio.audit.report import MACHINE_DIGITS, format_latex, format_table
from occbio.io.limits import LineNumbers
from occbio.io.spreadsheet import spreadsheet_dict_writer
from occbio.langs import parse_langs
from occbio.runlock import run_lock

__all__ = ["AuditGroup", "add_audit_parser", "audit_lexicon", "run_audit"]

log = logging.getLogger(__name__)

#: The gender label of a group that counts every document.
ALL = "all"


@dataclass
class AuditGroup:
    """One row of the report: what was read (``source``), its language, a document gender (or
    ``all``) and the method's result."""

    source: str
    lang: str
    gender: str
    result: Any

    def to_dict(self, digits: int | None = None) -> dict[str, Any]:
        rounding = {"digits": digits} if isinstance(self.result, LexiconResult) else {}
        return {"source": self.source, "gender": self.gender,
                **self.result.to_dict(**rounding), "lang": self.lang}  # fmt: skip


def audit_lexicon(
    records: Iterable[Record], *, source: str, by_gender: bool = True
) -> list[AuditGroup]:
    """GENDER-GAP counts per language (and per document gender, when known), in one pass."""
    counters: dict[tuple[str, str], LexiconCounter] = {}
    unavailable: set[str] = set()
    for record in records:
        if record.lang in unavailable:
            continue
        keys = [(record.lang, ALL)]
        if by_gender and record.gender != "unknown":
            keys.append((record.lang, record.gender))
        for key in keys:
            counter = counters.get(key)
            if counter is None:
                try:
                    counter = counters[key] = LexiconCounter(load_lexicon(key[0]), lang=key[0])
                except LexiconUnavailable as exc:
                    log.warning("audit: %s skipped: %s", key[0], str(exc).split(";")[0])
                    unavailable.add(key[0])
                    break
            counter.add(record.text)
    return _groups(source, {key: c.result() for key, c in counters.items()})


def _groups(source: str, results: dict[tuple[str, str], Any]) -> list[AuditGroup]:
    def order(key: tuple[str, str]) -> tuple[str, int, str]:
        return (key[0], key[1] != ALL, key[1])

    groups = [AuditGroup(source, lang, gender, results[lang, gender]) for lang, gender in results]
    return sorted(groups, key=lambda g: order((g.lang, g.gender)))


def audit_llm(
    records: Iterable[Record], *, source: str, backend: Any, by_gender: bool = True
) -> list[AuditGroup]:
    """Person references per language (and document gender), labelled by ``backend``."""
    from occbio.audit.llm import MethodUnavailable, PersonRefCounter

    batches: dict[tuple[str, str], list[str]] = {}
    counters: dict[tuple[str, str], Any] = {}
    unavailable: set[str] = set()

    def flush(key: tuple[str, str]) -> None:
        counters[key].add_many(batches.pop(key, []))

    for record in records:
        if record.lang in unavailable:
            continue
        keys = [(record.lang, ALL)] + (
            [(record.lang, record.gender)] if by_gender and record.gender != "unknown" else []
        )
        for key in keys:
            if key not in counters:
                try:
                    counters[key] = PersonRefCounter(backend, key[0])
                except MethodUnavailable as exc:
                    log.warning("audit: %s skipped: %s", key[0], exc)
                    unavailable.add(key[0])
                    break
            batches.setdefault(key, []).append(record.text)
            if len(batches[key]) >= 256:
                flush(key)
    for key in list(batches):
        flush(key)
    return _groups(source, {key: c.result() for key, c in counters.items()})


# -- the command ---------------------------------------------------------------------------


def add_audit_parser(sub: Any) -> None:
    """Add ``occbio audit`` to the sub-parsers."""
    p = sub.add_parser(
        "audit",
        help="gender representation of a corpus: GENDER-GAP person nouns, or person references",
        description="Measure how much a corpus talks about women and men: the GENDER-GAP "
        "lexicon method (Muller et al., 2023) or the person-reference method (Derner et al., "
        "2025). PATH: corpus files (plain text with --lang, occbio JSONL/TSV/XML) or a run "
        "directory; a file is read once, so a pipe or <(command) works too.",
    )
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files, or a run directory")
    p.add_argument("--lang", help="the language of plain-text files")
    p.add_argument("--langs", type=parse_langs, help="only these languages of multilingual files")
    p.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default="auto",
        help="what the files are (default auto: told by their content; say text when a "
        "sentence may start with { or <corpus, or hold a tab)",
    )
    p.add_argument("--method", choices=["lexicon", "llm"], default="lexicon")
    p.add_argument(
        "--format",
        dest="fmt",
        choices=["table", "json", "jsonl", "csv", "latex"],
        default="table",
        help="the report: a table (default), one JSON document (a list of rows), JSON lines "
        "(a row a line), CSV (a row a line, source, lang and gender columns) or LaTeX",
    )
    p.add_argument("--no-by-gender", dest="by_gender", action="store_false",
                   help="one row per language only, not per document gender")  # fmt: skip
    llm = p.add_argument_group("--method llm")
    llm.add_argument("--backend", choices=["offline", "chat"], default="offline")
    llm.add_argument("--base-url", help="an OpenAI-compatible API ($OPENAI_BASE_URL)")
    llm.add_argument("--model", help="the chat model ($OCCBIO_LLM_MODEL); key in $OPENAI_API_KEY")
    llm.add_argument("--llm-cache-dir", type=Path, metavar="DIR", help="where answers are kept")
    llm.add_argument(
        "--validate",
        metavar="LANG",
        choices=["es", "va"],
        help="score the backend on the paper's annotated sentences instead",
    )
    llm.add_argument(
        "--ground-truth",
        type=Path,
        metavar="PATH",
        help="the gt-LANG file (default: $OCCBIO_GRB_DATA, else ../shared/data)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _backend(args: argparse.Namespace) -> Any:
    from occbio.audit.llm import backend_from_options

    if args.backend == "offline":
        return backend_from_options("offline")
    return backend_from_options(
        "chat", base_url=args.base_url, model=args.model, cache_dir=args.llm_cache_dir
    )


def _sources(args: argparse.Namespace) -> Iterator[tuple[str, Path, dict[str, str], str]]:
    """(name, path, genders, input format) of what to audit."""
    if len(args.paths) == 1 and args.paths[0].is_dir():
        run_dir = args.paths[0]
        if args.input_format != "auto":
            raise AuditInputError("--input-format is for files: a run directory holds JSON lines")
        genders = run_genders(run_dir)
        for name, path in run_sources(run_dir).items():
            yield name, path, genders, "jsonl"
        return
    for path in args.paths:
        if path.is_dir():
            raise AuditInputError(f"{path} is a directory: give one run directory, or files")
        yield path.name, path, {}, args.input_format


def run_audit(args: argparse.Namespace) -> int:
    """Carry out ``occbio audit``; prints the report, returns the exit status."""
    if args.method == "llm" and args.validate:
        from occbio.audit.llm import format_validation, validate

        print(format_validation(validate(_backend(args), args.validate, path=args.ground_truth)))
        return 0
    if not args.paths:
        raise AuditInputError("give the files to audit, or a run directory (or --validate LANG)")
    backend = _backend(args) if args.method == "llm" else None
    with contextlib.ExitStack() as stack:
        if len(args.paths) == 1 and args.paths[0].is_dir():  # a run: no writer while it is read
            stack.enter_context(run_lock(args.paths[0], shared=True))
        groups = _audit(args, backend)
    print(format_groups(groups, args.fmt), end="")
    return 0


def _audit(args: argparse.Namespace, backend: Any) -> list[AuditGroup]:
    groups: list[AuditGroup] = []
    skipped: Counter[str] = Counter()
    for name, path, genders, input_format in _sources(args):
        not_utf8 = LineNumbers()  # the first ten lines' numbers and the count
        records = read_records(
            path, lang=args.lang, langs=args.langs, skipped=skipped, genders=genders,
            input_format=input_format, not_utf8=not_utf8,
        )  # fmt: skip
        records = tqdm(records, desc=f"audit {name}", unit=" sentences",
                       disable=None if not args.quiet else True, leave=False)  # fmt: skip
        if backend is None:
            groups += audit_lexicon(records, source=name, by_gender=args.by_gender)
        else:
            groups += audit_llm(records, source=name, backend=backend, by_gender=args.by_gender)
        if not_utf8:
            log.warning(
                "audit: %s: %d line(s) not UTF-8, read with U+FFFD for the bytes that are not: %s",
                path,
                len(not_utf8),
                line_list(not_utf8),
            )
    for what, n in sorted(skipped.items()):
        log.warning("audit: %d %s skipped", n, what.replace("_", " "))
    if not groups:
        raise AuditInputError("nothing to audit: no sentence in a language the method measures")
    return groups


def format_groups(groups: list[AuditGroup], fmt: str) -> str:
    """The report in one of the formats; table and LaTeX one block per source."""
    if fmt == "json":
        return json.dumps([g.to_dict() for g in groups], ensure_ascii=False, indent=1) + "\n"
    if fmt == "jsonl":
        return "".join(json.dumps(g.to_dict(), ensure_ascii=False) + "\n" for g in groups)
    if fmt == "csv":
        return _csv(groups)
    lexicon = all(isinstance(g.result, LexiconResult) for g in groups)
    if fmt == "latex" and not lexicon:
        raise AuditInputError("--format latex is for --method lexicon; use table, json or csv")
    out = []
    for source in dict.fromkeys(g.source for g in groups):
        rows = [g for g in groups if g.source == source]
        if lexicon:
            rows_out = _labelled(rows)
            text = (
                format_latex(rows_out, caption=source)
                if fmt == "latex"
                else format_table(
                    rows_out, note=source == list(dict.fromkeys(g.source for g in groups))[-1]
                )
            )
        else:
            text = _llm_table(rows)
        out.append(f"{source}\n{text}" if fmt == "table" else text)
    return "\n".join(out)


def _csv(groups: list[AuditGroup]) -> str:
    """A header row, then a row per group: ``source``, ``lang``, ``gender``, then the method's
    figures (the lexicon's rounded to :data:`MACHINE_DIGITS` decimals, as in JSON lines)."""
    buffer = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    for g in groups:
        row = {"source": g.source, "lang": g.lang, "gender": g.gender}
        figures = g.to_dict(MACHINE_DIGITS)
        row.update((k, v) for k, v in figures.items() if k not in row)
        if writer is None:
            writer = spreadsheet_dict_writer(buffer, list(row), lineterminator="\n")
            writer.writeheader()
        writer.writerow(row)
    return buffer.getvalue()


def _labelled(groups: list[AuditGroup]) -> list[LexiconResult]:
    """The results with a row label: ``es``, ``es female``."""
    from dataclasses import replace

    return [
        replace(g.result, lang=g.lang if g.gender == ALL else f"{g.lang} {g.gender}")
        for g in groups
    ]


def _llm_table(groups: list[AuditGroup]) -> str:
    header = ("lang", "sentences", "L(P,M)", "L(P,F)", "M:F", "fem share", "unparsed")
    rows = [
        (
            g.lang if g.gender == ALL else f"{g.lang} {g.gender}",
            f"{g.result.sentences:,}",
            f"{g.result.person_masculine:,}",
            f"{g.result.person_feminine:,}",
            g.result.ratio_text,
            "-" if g.result.feminine_share is None else f"{100 * g.result.feminine_share:.1f} %",
            f"{g.result.unparsed:,}",
        )
        for g in groups
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in (header, tuple("-" * w for w in widths), *rows)
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"
