"""The ``occbio`` command: a thin shell over the stages (parse, validate, build config, run)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

#: What Ctrl-C prints, at any moment of any command.
INTERRUPTED = "occbio: interrupted; run the same command again to resume where it stopped"

try:  # loading occbio takes seconds on a busy machine: Ctrl-C then is one line too
    from occbio.align.encoders import UnknownEncoder
    from occbio.align.inputs import InputError
    from occbio.audit.command import run_audit
    from occbio.audit.inputs import AuditInputError
    from occbio.augment import check_languages
    from occbio.augment_command import run_augment
    from occbio.cli_options import UsageError, build_parser, overrides
    from occbio.config import ConfigError, RunConfig, load_config
    from occbio.evaluate.command import run_evaluate
    from occbio.executor import LazyExecutor, remove_scratch_leftovers
    from occbio.extract.compressed import special_file_problem
    from occbio.extract.wikidata_dump import WikidataDumpError
    from occbio.extract.wikidata_sparql import EndpointUnreachable
    from occbio.extract.wikipedia_dump import DumpError
    from occbio.extract.wikipedia_web import SiteUnreachable
    from occbio.langs import LanguageError
    from occbio.models import run_models
    from occbio.report.funnel import format_funnel
    from occbio.review.command import run_review
    from occbio.review.report import is_control
    from occbio.rewrite_command import run_rewrite
    from occbio.run import RunDir, read_manifest
    from occbio.runlock import run_lock
    from occbio.stages.align import (
        ALIGNMENTS_FILE,
        acceptance_rule,
        encoder_for,
        run_align,
        run_align_input,
    )
    from occbio.stages.balance import run_balance
    from occbio.stages.common import StageResult
    from occbio.stages.entities import run_entities
    from occbio.stages.explain import explain
    from occbio.stages.text import run_text
    from occbio.stages.write import CORPUS_DIR, DATACARD_FILE, read_stats, run_write
except KeyboardInterrupt:
    print(INTERRUPTED, file=sys.stderr)
    raise SystemExit(130) from None

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
    "align": (
        "docs",
        "people_skipped_missing_lang",
        "docs_with_tuples",
        "tuples_mined",
        "tuples_kept",
        "sentences_embedded",
    ),
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


def _configure_logging(verbose: bool, quiet: bool) -> None:
    level = logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", force=True)
    # third-party INFO lines (matplotlib's font cache) say nothing to an occbio user
    noisy_loggers = ("matplotlib", "PIL", "requests_cache", "urllib3", "distributed")
    for noisy in (*noisy_loggers, "httpx", "httpx2"):  # httpx: huggingface_hub's requests
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))


def _shown(stage: str, key: str) -> str:
    """A counter's name as printed. The entities stage counts Wikidata's gender (P21), which
    the balance stage may replace (``--gender-from pronouns``); the funnel shows the gender
    balance decided, so entities' ``gender_unknown`` is printed as ``gender_wikidata_unknown``
    (the balance stage's own counters are named ``gender_SOURCE_CATEGORY`` already)."""
    if stage == "entities" and key.startswith("gender_"):
        return "gender_wikidata_" + key.removeprefix("gender_")
    return key


#: What heads the funnel table: its people are counted by their final gender.
_FUNNEL_TITLE = "funnel ({langs}; people by the gender the balance stage decided):"


def _print_stats(cfg: RunConfig) -> None:
    manifest = cfg.out_dir / "manifest.json"
    if not manifest.exists():
        raise UsageError(f"no run at {cfg.out_dir} (no manifest.json): run a stage first")
    stages = read_manifest(manifest)["stages"]  # read-only: no RunDir (it saves the manifest)
    stats = read_stats(cfg.out_dir)
    lines = []
    if stats is not None:
        lines += [_FUNNEL_TITLE.format(langs=", ".join(stats.get("langs", []))),
                  *format_funnel(stats["funnel"]).splitlines(), ""]  # fmt: skip
    order = {name: i for i, (name, _) in enumerate(_STAGES)}  # run order; others after
    for name in sorted(stages, key=lambda n: (order.get(n, len(order)), n)):
        rec = stages[name]
        status = rec.get("status", "?")
        error = f": {rec['error']}" if status == "failed" and rec.get("error") else ""
        lines.append(f"[{name}] {status}{error}")
        for key, value in rec.get("counts", {}).items():
            lines.append(f"  {_shown(name, key):<40} {value:>10}")
        for lang, templates in rec.get("unrendered_templates", {}).items():
            lines.append(
                f"  {lang}: sentences dropped by unrendered template (top 10 of {len(templates)}):"
            )
            for template, count in list(templates.items())[:10]:
                lines.append(
                    f"    {{{{{template}}}}}{'':<{max(1, 36 - len(template))}} {count:>10}"
                )
        if rec.get("precision_curve"):
            lines += _format_curve(rec)
        lines.extend(f"  warning: {warning}" for warning in rec.get("warnings", []))
    # names from files (a template's from a dump, a key in an edited manifest) reach the
    # terminal: a control character in one (an escape sequence, a line break) shows as U+FFFD
    for line in lines:
        print("".join("\ufffd" if is_control(c) else c for c in line))


def _format_curve(align: dict) -> list[str]:
    """The align record's precision/recall curve as the lines ``occbio stats`` prints (one
    line saying so when an edited manifest holds something else)."""
    try:
        return _curve_lines(align)
    except (TypeError, KeyError, ValueError, AttributeError):
        return ["  the precision curve in the manifest is damaged: `occbio align` writes it again"]


def _curve_lines(align: dict) -> list[str]:
    chosen = align.get("target_precision")
    lines = [
        "  expected precision / recall by target (the model on this run's mined tuples):",
        f"    {'target':>8} {'P(parallel) >=':>15} {'precision':>10} {'recall':>8} {'kept':>8}",
    ]
    for row in align["precision_curve"]:
        mark = "  <- this run" if row["target"] == chosen else ""
        prec, rec = row["expected_precision"], row["expected_recall"]
        lines.append(
            f"    {row['target']:>8g} {row['floor']:>15.4f} "
            f"{'-' if prec is None else f'{prec:.3f}':>10} "
            f"{'-' if rec is None else f'{rec:.3f}':>8} {row['kept']:>8}{mark}"
        )
    return lines


def _warn_without_contact(cfg: RunConfig, upto: str) -> None:
    """Wikimedia asks its live sites' clients for a contact: warn when a stage that will run
    queries one (SPARQL, the Wikipedia web), not when every input is a local file."""
    will_run = _stages_upto(upto)
    web = cfg.text_source == "web"
    live = ("text" in will_run and web) or (
        "entities" in will_run
        and (cfg.entity_source == "wikidata" or (web and cfg.entities.category is not None))
    )
    if live and not cfg.http.contact and cfg.http.user_agent is None:
        log.warning(
            "no contact in the User-Agent: Wikimedia asks clients of its live sites for one; "
            "pass --contact EMAIL (or set http.contact) before long runs"
        )


def _check_inputs_up_front(cfg: RunConfig, upto: str) -> None:
    """What would otherwise stop the run only after earlier stages: a dump file that is not
    there, an encoder that cannot be built (``--encoder laser2`` without torch)."""
    will_run = _stages_upto(upto)
    files: list[tuple[str, Path]] = []
    if "entities" in will_run and cfg.entity_source == "dump" and not cfg.sample:
        files.append(("Wikidata dump", cfg.resolved_entity_dump()))
    if "text" in will_run and cfg.text_source == "dump" and not cfg.sample:
        files += [(f"pages-articles dump for {lang!r}", cfg.resolved_text_dump(lang))
                  for lang in cfg.langs]  # fmt: skip
    for what, path in files:
        if not path.is_file():
            if path.is_dir():
                problem = "is a directory, not a file"
            elif path.exists():  # a FIFO or <(bzcat ...): refused before anything opens it
                problem = special_file_problem(path) or "is not a regular file"
            else:
                problem = "not found"
            raise FileNotFoundError(f"{what} {problem}: {path} (checked before any stage ran)")
    if "align" in will_run:
        # EncoderUnavailable names the missing package or weights; a ConfigError, the missing
        # --threshold of an encoder without a measured one (hf)
        acceptance_rule(cfg, encoder_for(cfg))
    if "write" in will_run and cfg.write.augment:
        check_languages(cfg.langs)  # a language the rewriter lacks, before hours of mining


def _stages_upto(upto: str) -> set[str]:
    """The stages a command that ends with ``upto`` runs (or finds done)."""
    stages = [name for name, _ in _STAGES]
    return set(stages[: stages.index(upto) + 1])


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
    _warn_without_contact(cfg, upto)
    run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
    results = []
    with _executor(cfg) as executor:
        for name, fn in _STAGES:
            extra = {"executor": executor} if name in _EXECUTOR_STAGES else {}
            try:
                result = fn(cfg, run, show_progress=show_progress, **extra)
            except BaseException as exc:
                _record_failure(run, name, exc)
                raise
            keys = _SUMMARY_KEYS.get(name, ())
            print(result.summary(keys, names={k: _shown(name, k) for k in keys}))
            for warning in result.warnings:
                print(f"  warning: {warning}")
            results.append(result)
            if name == upto:
                break
    return results


#: Stages whose work runs on the executor (`--executor`).
_EXECUTOR_STAGES = frozenset({"text", "align"})


def _executor(cfg: RunConfig) -> LazyExecutor:
    remove_scratch_leftovers(cfg.out_dir)  # a killed run's Dask scratch (this process holds it)
    return LazyExecutor(
        cfg.executor, scheduler=cfg.scheduler, workers=cfg.workers, scratch=cfg.out_dir
    )


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
        with _executor(cfg) as executor:
            try:
                result = run_align_input(
                    cfg, run, args.input, show_progress=not args.quiet, executor=executor
                )
            except BaseException as exc:
                _record_failure(run, "align", exc)
                raise
        print(result.summary(_SUMMARY_KEYS["align"]))
        print(f"alignments: {cfg.out_dir / ALIGNMENTS_FILE} (and .tsv)")
        if args.explain is not None:
            print(explain(cfg, args.explain, input_path=args.input, full=args.full))
        return
    upto = "write" if args.command == "mine" else args.command
    _check_inputs_up_front(cfg, upto)
    _run_stages(cfg, upto, show_progress=not args.quiet)
    if args.command == "align" and args.explain is not None:
        print(explain(cfg, args.explain, full=args.full))
    if upto == "write":
        stats = read_stats(cfg.out_dir)
        if stats is not None and not args.quiet:
            print(_FUNNEL_TITLE.format(langs=", ".join(cfg.langs)))
            print(format_funnel(stats["funnel"]))
        print(f"corpus: {cfg.out_dir / CORPUS_DIR} (data card: {cfg.out_dir / DATACARD_FILE})")


def _message(exc: BaseException) -> str:
    """An error's message for the terminal: a control character a file's name or contents
    brought in (an escape sequence, a line break, a bidirectional override) shown as its
    escape, so the message stays one line and the terminal does nothing it says."""
    text = str(exc)
    return "".join(repr(c)[1:-1] if is_control(c) else c for c in text)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``occbio`` command; returns the exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # parsing and --help included, not only the commands' work
        print(INTERRUPTED, file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:2] == ["evaluate", "mtgeneval"]:  # MT-GenEval's own files: no run, no config
        from occbio.evaluate.mtgeneval import run_mtgeneval

        return run_mtgeneval(argv[2:])
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose, args.quiet)
    try:
        if args.command == "models":  # no run directory, no configuration
            return run_models(args)
        if args.command == "audit":  # reads files or a finished run; writes nothing
            return run_audit(args)
        if args.command == "rewrite":  # a filter: lines in, lines out
            return run_rewrite(args)
        if args.command == "score":  # rows in, their P(parallel) out
            from occbio.score_command import run_score

            return run_score(args)
        if args.command == "augment":  # the write stage again, with the run's own settings
            return run_augment(args)
        if args.command == "evaluate":  # reads a run and translations; writes its evaluation
            return run_evaluate(args)
        if args.command == "review":  # a finished run's pages, judgments, post-edited corpus
            return run_review(args)
        if args.command == "rebuild":  # a corpus's exact revisions, fetched and checked
            from occbio.rebuild import run_rebuild

            return run_rebuild(args)
        cfg = load_config(args.config, overrides(args))
        if args.command == "stats":
            _print_stats(cfg)
            return 0
        with run_lock(cfg.out_dir):
            _run_command(args, cfg)
        return 0
    except (ConfigError, LanguageError, UsageError, UnknownEncoder, AuditInputError) as exc:
        print(f"occbio: error: {_message(exc)}", file=sys.stderr)
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
    except (
        FileNotFoundError, DumpError, WikidataDumpError, InputError, RuntimeError, ValueError
    ) as exc:  # fmt: skip
        print(f"occbio: error: {_message(exc)}", file=sys.stderr)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
