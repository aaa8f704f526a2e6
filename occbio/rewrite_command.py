"""``occbio rewrite``: sentences into another gender, one per line in, the same lines out."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import stat
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from occbio.io.limits import LineNumbers

__all__ = ["add_rewrite_parser", "make_rewriter", "run_rewrite"]

logger = logging.getLogger("occbio.rewrite")


def add_rewrite_parser(sub: Any) -> None:
    from occbio.cli_options import RELATIVES_HELP

    p = sub.add_parser(
        "rewrite",
        help="rewrite sentences so the person they are about has another gender",
        description="Rewrite each line (one sentence) so that the person it is about has the "
        "target gender: pronouns, person nouns and titles, articles, adjectives and participles "
        "that agree; everything else is left as it is, and a line with nothing to change comes "
        "out byte-identical, and so does a line that is not UTF-8 (counted, and named in a "
        "warning). Reads stdin and writes stdout unless --input/--output are given; --output "
        "replaces a file atomically (through a symlink, the file it points to) and writes to a "
        "device or FIFO as it is.",
    )
    p.add_argument("--lang", required=True, help="the language of the sentences")
    p.add_argument("--to", required=True, choices=["feminine", "masculine"])
    p.add_argument("--input", type=Path, metavar="FILE", help="default: standard input")
    p.add_argument("--output", type=Path, metavar="FILE", help="default: standard output")
    p.add_argument(
        "--relatives",
        choices=["keep", "change"],
        default="keep",
        help=RELATIVES_HELP,
    )
    p.add_argument(
        "--name",
        metavar="NAME",
        help="the name of the person every line is about (`Ada Lovelace`): a role in "
        "apposition to it, after a copula or after als/como/comme/come/as changes too, where no "
        "pronoun tells who it describes (rules backend only)",
    )
    p.add_argument(
        "--input-format",
        choices=["text", "jsonl"],
        default="text",
        help="text (default: one sentence a line) or jsonl: one JSON object a line with "
        "a `text` string and an optional `name` string (the person, as --name, for that line "
        "only); the same objects come out with `text` rewritten (rules backend only)",
    )
    p.add_argument(
        "--explain",
        type=Path,
        metavar="TSV",
        help="also write every edit (line, start, end, old, new, rule) to this file: which rule "
        "changed which words, for reviewing a counterfactual corpus; and each line's verdict "
        "(rewritten, uncertain or unchanged), score and reason to standard error (rules "
        "backend only)",
    )
    p.add_argument(
        "--uncertain",
        choices=["keep", "skip"],
        default="keep",
        help="a line whose rewrite the rules are not sure of (a word they know to change left "
        "unchanged, see docs/rewrite.md): keep it as rewritten (default: every line rewritten, "
        "as before) or skip it: written as an empty line (in JSONL, an empty text), so line "
        "numbers stay aligned (rules backend only)",
    )
    llm = p.add_argument_group(
        "--backend chat or hf (a language model; the rules answer where it does not)"
    )
    llm.add_argument(
        "--backend",
        choices=["rules", "chat", "hf"],
        default="rules",
        help="rules (default: offline, measured in the README), chat: an OpenAI-compatible "
        "API, or hf: a local transformers model (--model-dir); each answer is checked and "
        "replaced by the rules' rewrite when it is not one",
    )
    llm.add_argument("--base-url", help="the API root ($OPENAI_BASE_URL); key in $OPENAI_API_KEY")
    llm.add_argument("--model", help="the chat model ($OCCBIO_LLM_MODEL)")
    llm.add_argument("--llm-cache-dir", type=Path, metavar="DIR", help="where answers are kept")
    llm.add_argument(
        "--model-dir",
        type=Path,
        metavar="DIR",
        help="--backend hf: a local seq2seq or causal model directory, read offline (get one "
        "with `occbio models download OWNER/NAME DIR`); not measured by occbio",
    )
    llm.add_argument(
        "--device",
        choices=["auto", "cpu", "cuda"],
        help="--backend hf: where the model runs (default auto: the GPU when torch sees one)",
    )
    llm.add_argument(
        "--batch-size", type=int, metavar="N", help="--backend hf: sentences a batch (default 16)"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings")


def run_rewrite(args: argparse.Namespace) -> int:
    """Carry out ``occbio rewrite``; an unsupported language raises before anything is read."""
    from occbio.cli_options import UsageError

    explain = getattr(args, "explain", None)
    if explain is not None and getattr(args, "backend", "rules") != "rules":
        raise UsageError("--explain reports the rules' edits: it needs --backend rules")
    skip = getattr(args, "uncertain", "keep") == "skip"
    if skip and getattr(args, "backend", "rules") != "rules":
        raise UsageError("--uncertain skip judges the rules' rewrite: it needs --backend rules")
    name = getattr(args, "name", None)
    jsonl = getattr(args, "input_format", "text") == "jsonl"
    if (name is not None or jsonl) and getattr(args, "backend", "rules") != "rules":
        what = "--name" if name is not None else "--input-format jsonl"
        raise UsageError(f"{what} anchors the rules on the person's name: it needs --backend rules")
    if explain is not None and _is_file_or_new(explain):
        for other, what in ((args.input, "--input"), (args.output, "--output")):
            if other is not None and explain.resolve() == Path(other).resolve():
                raise UsageError(f"--explain {explain} is also the {what} file: name another")
    hf_options = {
        k: v
        for k, v in (
            ("model_dir", getattr(args, "model_dir", None)),
            ("device", getattr(args, "device", None)),
            ("batch_size", getattr(args, "batch_size", None)),
        )
        if v is not None
    }
    if getattr(args, "backend", "rules") == "hf":
        if "model_dir" not in hf_options:
            raise UsageError("--backend hf needs --model-dir DIR (a local transformers model)")
        if hf_options.get("batch_size", 1) < 1:
            raise UsageError(f"--batch-size must be at least 1, not {args.batch_size}")
    elif hf_options:
        names = ", ".join("--" + k.replace("_", "-") for k in hf_options)
        raise UsageError(f"{names}: read by --backend hf only")
    from occbio.io.limits import (
        InputInterrupted,
        bounded_lines,
        device_problem,
        interrupted,
        is_stream,
        maybe_waiting,
    )

    if args.input is not None and (problem := device_problem(args.input)) is not None:
        raise UsageError(f"--input {args.input} {problem}")
    rewriter = make_rewriter(
        args.lang,
        getattr(args, "backend", "rules"),
        base_url=getattr(args, "base_url", None),
        model=getattr(args, "model", None),
        cache_dir=getattr(args, "llm_cache_dir", None),
        relatives=getattr(args, "relatives", "keep"),
        **hf_options,
    )
    waiting = (
        maybe_waiting(args.input, "the lines to rewrite")
        if args.input is not None
        else contextlib.nullcontext(None)
    )
    with waiting as activity:
        if activity is not None:
            activity.waiting()  # opening a FIFO waits for its writer
        source: IO[bytes] = (
            open(args.input, "rb")  # noqa: SIM115 - closed below
            if args.input is not None
            else sys.stdin.buffer
        )
        if activity is not None:
            activity.got()
        lines = bounded_lines(
            source,
            "standard input" if args.input is None else args.input,
            activity=activity,
        )
        try:
            return _rewrite_source(args, rewriter, source, lines, explain, name, jsonl, skip)
        except KeyboardInterrupt:
            if activity is None or activity.since is None or not is_stream(args.input):
                raise
            raise InputInterrupted(interrupted(args.input, "the lines to rewrite")) from None


def _rewrite_source(
    args: argparse.Namespace,
    rewriter: Any,
    source: IO[bytes],
    lines: Iterator[bytes],
    explain: Path | None,
    name: str | None,
    jsonl: bool,
    skip: bool,
) -> int:
    """:func:`run_rewrite` once its input is open: ``lines``, read from ``source``."""
    from occbio.io.limits import LineNumbers

    not_utf8 = LineNumbers()  # the first ten lines' numbers and the count
    # the uncertain lines' numbers, when lines are judged (to skip them, or to explain them)
    uncertain = LineNumbers() if skip or explain is not None else None
    try:
        with contextlib.ExitStack() as stack:
            out = (
                sys.stdout.buffer
                if args.output is None
                else stack.enter_context(open_output(args.output))
            )
            tsv = None if explain is None else stack.enter_context(open_output(explain))
            if jsonl:
                _rewrite_jsonl(
                    lines, out, rewriter, args.to, tsv, name=name, uncertain=uncertain, skip=skip
                )
            else:
                _rewrite_lines(
                    lines,
                    out,
                    rewriter,
                    args.to,
                    tsv,
                    not_utf8=not_utf8,
                    name=name,
                    uncertain=uncertain,
                    skip=skip,
                )
            out.flush()
    finally:
        if source is not sys.stdin.buffer:
            source.close()
        if not_utf8:
            from occbio.audit.inputs import line_list

            logger.warning(
                "%d line(s) not UTF-8, copied as they are (not rewritten): %s",
                len(not_utf8),
                line_list(not_utf8),
            )
        if uncertain:
            from occbio.audit.inputs import line_list

            logger.warning(
                "%d line(s) uncertain, %s: %s",
                len(uncertain),
                "written as empty lines (--uncertain skip)" if skip else "kept as rewritten",
                line_list(uncertain),
            )
        stats = getattr(rewriter, "stats", None)
        if stats and stats.get("errors"):
            logger.warning(
                "%d line(s) could not be rewritten (a rule failed) and were kept as they are",
                stats["errors"],
            )
        if stats and any(k.startswith("fallback_") or k == "answers" for k in stats):
            logger.info(
                "%s rewriting: %s",
                getattr(args, "backend", "chat"),
                ", ".join(f"{k} {v}" for k, v in sorted(stats.items())),
            )
            fallbacks = sum(v for k, v in stats.items() if k.startswith("fallback_"))
            if fallbacks:
                logger.warning(
                    "%d line(s) got no usable answer from the model and were rewritten by the "
                    "rules instead",
                    fallbacks,
                )
        close = getattr(rewriter, "close", None)
        if close is not None:
            close()
    return 0


def make_rewriter(
    lang: str,
    backend: str = "rules",
    *,
    base_url: str | None = None,
    model: str | None = None,
    cache_dir: Path | None = None,
    strict: bool = False,
    relatives: str = "keep",
    model_dir: Path | None = None,
    device: str = "auto",
    batch_size: int = 16,
    **chat_options: Any,
) -> Any:
    """The rewriter for ``lang``: the rules, or a chat or local (``hf``: ``model_dir``,
    ``device``, ``batch_size``) model guarded by them. An unsupported language, an incomplete
    chat setting or a directory without a usable model raises before any request;
    ``chat_options`` go to :class:`~occbio.audit.chat_client.ChatBackend` (``rate``,
    ``concurrency``, ...); ``strict`` raises a rule's error instead of keeping the sentence
    (for measuring); ``relatives``: the person's relatives kept (default) or changed too."""
    from occbio.rewrite import Rewriter

    rules = Rewriter(lang.strip().lower(), strict=strict, relatives=relatives)
    if backend == "rules":
        return rules
    if backend == "hf":
        from occbio.rewrite.hf_backend import HFRewriter

        if model_dir is None:
            raise ValueError("backend hf needs model_dir")
        return HFRewriter(
            rules.lang,
            model_dir,
            device=device,
            batch_size=batch_size,
            fallback=rules,
            relatives=relatives,
        )
    from occbio.audit.llm import backend_from_options
    from occbio.rewrite.chat import ChatRewriter

    client = backend_from_options(
        "chat", base_url=base_url, model=model, cache_dir=cache_dir, **chat_options
    )
    return ChatRewriter(rules.lang, client, fallback=rules, relatives=relatives)


def open_output(path: Path) -> contextlib.AbstractContextManager[IO[bytes]]:
    """Where ``--output``/``--explain`` go, as bytes. A regular file (or a new name) is
    replaced atomically; through a symlink, the file it points to is (the link stays); a
    device or a FIFO (``/dev/null``, a pipe) is written to as it is, never replaced; our own
    standard output or error (``/dev/stdout``, even redirected to a file) is written through
    its descriptor, so ``>>`` appends. A directory is an error."""
    from occbio.cli_options import UsageError
    from occbio.run import atomic_write

    try:
        st = path.stat()
    except FileNotFoundError:  # a new file, or a symlink to one
        return atomic_write(path.resolve() if path.is_symlink() else path, "wb")
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            if os.path.samestat(st, os.fstat(fd)):
                return open(os.dup(fd), "wb")
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{path} is a directory: give a file to write to")
    if stat.S_ISREG(st.st_mode):
        return atomic_write(path.resolve(), "wb")
    return open(path, "wb")  # a device or a FIFO: written to, never replaced


def _is_file_or_new(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except FileNotFoundError:
        return True


def _rewrite_lines(
    source: Iterable[bytes],
    out: IO[bytes],
    rewriter: Any,
    to: str,
    tsv: IO[bytes] | None = None,
    *,
    not_utf8: LineNumbers,
    name: str | None = None,
    uncertain: LineNumbers | None = None,
    skip: bool = False,
) -> None:
    """Streamed (memory flat), one line out per line in (split at ``\\n``), each line's own
    ending kept; with ``tsv``, each edit too (and each line's verdict on standard error). A
    line that is not UTF-8 is copied byte for byte (the rewriter cannot read it) and its number
    appended to ``not_utf8``. ``name``: the person every line is about (rules only). With
    ``uncertain``, each line is judged and the uncertain ones' numbers appended; ``skip``
    writes those as empty lines."""
    named = {} if name is None else {"name": name}
    raw_of: deque[bytes | None] = deque()  # what to copy instead of a rewrite, in line order

    def texts() -> Iterator[str]:
        for n, raw in enumerate(source, 1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                not_utf8.append(n)
                raw_of.append(raw)
                yield ""  # nothing to rewrite: the rewriter passes it on unchanged
                continue
            raw_of.append(None)
            yield text

    if uncertain is None:
        for line in rewriter.rewrite_many(texts(), to, **named):
            raw = raw_of.popleft()
            out.write(line.encode("utf-8") if raw is None else raw)
        return
    if tsv is not None:
        tsv.write(b"line\tstart\tend\told\tnew\trule\n")
    for n, line in enumerate(texts(), 1):
        body = line.rstrip("\r\n")
        verdict = rewriter.judge(body, to, **named)
        raw = raw_of.popleft()
        text = _verdict_text(verdict, n, uncertain, skip, tsv is not None and raw is None)
        new = line if text is body else text + line[len(body) :]
        out.write(new.encode("utf-8") if raw is None else raw)
        if tsv is None or raw is not None or verdict.text is body or not text:
            continue  # nothing changed, or nothing written: no edit to replay
        try:
            edits = rewriter.explain(line.rstrip("\r\n"), to, **named)
        except Exception:  # the rewrite kept the line (counted); nothing to explain
            continue
        for e in edits:
            tsv.write(f"{n}\t{e.start}\t{e.end}\t{e.old}\t{e.new}\t{e.rule}\n".encode())


def _rewrite_jsonl(
    source: Iterable[bytes],
    out: IO[bytes],
    rewriter: Any,
    to: str,
    tsv: IO[bytes] | None = None,
    *,
    name: str | None = None,
    uncertain: LineNumbers | None = None,
    skip: bool = False,
) -> None:
    """``--input-format jsonl``: each line a JSON object with a ``text`` string and an optional
    ``name`` string (else ``name``, the ``--name``); the object comes out with ``text``
    rewritten (its other fields and their order kept), a line with nothing to change byte for
    byte. A line that is not such an object is a usage error naming the line; a blank line is
    copied. ``uncertain`` and ``skip`` as for :func:`_rewrite_lines`."""
    import json

    from occbio.cli_options import UsageError

    if tsv is not None:
        tsv.write(b"line\tstart\tend\told\tnew\trule\n")
    for n, raw in enumerate(source, 1):
        if not raw.strip():
            out.write(raw)
            continue
        try:
            obj = json.loads(raw)
        except (UnicodeDecodeError, ValueError) as exc:
            raise UsageError(f"--input-format jsonl: line {n} is not JSON ({exc})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise UsageError(f'--input-format jsonl: line {n} has no "text" string')
        own = obj.get("name", name)
        if own is not None and not isinstance(own, str):
            raise UsageError(f'--input-format jsonl: line {n}: "name" is not a string')
        text = obj["text"]
        if uncertain is None:
            new = rewriter.rewrite(text, to, name=own)
        else:
            verdict = rewriter.judge(text, to, name=own)
            new = _verdict_text(verdict, n, uncertain, skip, tsv is not None)
        if new is text:
            out.write(raw)
            continue
        obj["text"] = new
        ending = raw[len(raw.rstrip(b"\r\n")) :]
        out.write(json.dumps(obj, ensure_ascii=False).encode("utf-8") + ending)
        if tsv is not None and new != "":
            for e in rewriter.explain(text, to, name=own):
                row = f"{n}\t{e.start}\t{e.end}\t{e.old}\t{e.new}\t{e.rule}\n"
                tsv.write(row.encode())


def _verdict_text(verdict: Any, n: int, uncertain: LineNumbers, skip: bool, show: bool) -> str:
    """The text to write for line ``n`` judged ``verdict``: empty when uncertain and skipped.
    ``show`` prints the verdict to standard error (``--explain``)."""
    if show:
        print(f"line {n}: {verdict.verdict} ({verdict.score:.2f}): {verdict.reason}",
              file=sys.stderr)  # fmt: skip
    if verdict.verdict != "uncertain":
        return verdict.text
    uncertain.append(n)
    return "" if skip else verdict.text
