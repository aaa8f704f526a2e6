"""``occbio rewrite``: sentences into another gender, one per line in, the same lines out."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import stat
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

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
        "--explain",
        type=Path,
        metavar="TSV",
        help="also write every edit (line, start, end, old, new, rule) to this file: which rule "
        "changed which words, for reviewing a counterfactual corpus (rules backend only)",
    )
    llm = p.add_argument_group("--backend chat (an LLM; the rules answer where it does not)")
    llm.add_argument(
        "--backend",
        choices=["rules", "chat"],
        default="rules",
        help="rules (default: offline, measured in the README) or chat: an OpenAI-compatible "
        "API, each answer checked and replaced by the rules' rewrite when it is not one",
    )
    llm.add_argument("--base-url", help="the API root ($OPENAI_BASE_URL); key in $OPENAI_API_KEY")
    llm.add_argument("--model", help="the chat model ($OCCBIO_LLM_MODEL)")
    llm.add_argument("--llm-cache-dir", type=Path, metavar="DIR", help="where answers are kept")
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.add_argument("-q", "--quiet", action="store_true", help="only warnings")


def run_rewrite(args: argparse.Namespace) -> int:
    """Carry out ``occbio rewrite``; an unsupported language raises before anything is read."""
    from occbio.cli_options import UsageError

    explain = getattr(args, "explain", None)
    if explain is not None and getattr(args, "backend", "rules") != "rules":
        raise UsageError("--explain reports the rules' edits: it needs --backend rules")
    if explain is not None and _is_file_or_new(explain):
        for other, what in ((args.input, "--input"), (args.output, "--output")):
            if other is not None and explain.resolve() == Path(other).resolve():
                raise UsageError(f"--explain {explain} is also the {what} file: name another")
    rewriter = make_rewriter(
        args.lang,
        getattr(args, "backend", "rules"),
        base_url=getattr(args, "base_url", None),
        model=getattr(args, "model", None),
        cache_dir=getattr(args, "llm_cache_dir", None),
        relatives=getattr(args, "relatives", "keep"),
    )
    source: IO[bytes] = (
        open(args.input, "rb")  # noqa: SIM115 - closed below
        if args.input is not None
        else sys.stdin.buffer
    )
    not_utf8: list[int] = []
    try:
        with contextlib.ExitStack() as stack:
            out = (
                sys.stdout.buffer
                if args.output is None
                else stack.enter_context(open_output(args.output))
            )
            tsv = None if explain is None else stack.enter_context(open_output(explain))
            _rewrite_lines(source, out, rewriter, args.to, tsv, not_utf8=not_utf8)
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
        stats = getattr(rewriter, "stats", None)
        if stats and stats.get("errors"):
            logger.warning(
                "%d line(s) could not be rewritten (a rule failed) and were kept as they are",
                stats["errors"],
            )
        if stats and any(k.startswith("fallback_") or k == "answers" for k in stats):
            logger.info(
                "chat rewriting: %s", ", ".join(f"{k} {v}" for k, v in sorted(stats.items()))
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
    **chat_options: Any,
) -> Any:
    """The rewriter for ``lang``: the rules, or a chat model guarded by them. An unsupported
    language or an incomplete chat setting raises before any request; ``chat_options`` go to
    :class:`~occbio.audit.chat_client.ChatBackend` (``rate``, ``concurrency``, ...);
    ``strict`` raises a rule's error instead of keeping the sentence (for measuring);
    ``relatives``: the person's relatives kept (default) or changed too."""
    from occbio.rewrite import Rewriter

    rules = Rewriter(lang.strip().lower(), strict=strict, relatives=relatives)
    if backend == "rules":
        return rules
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
    source: IO[bytes],
    out: IO[bytes],
    rewriter: Any,
    to: str,
    tsv: IO[bytes] | None = None,
    *,
    not_utf8: list[int],
) -> None:
    """Streamed (memory flat), one line out per line in (split at ``\\n``), each line's own
    ending kept; with ``tsv``, each edit too. A line that is not UTF-8 is copied byte for byte
    (the rewriter cannot read it) and its number appended to ``not_utf8``."""
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

    if tsv is None:
        for line in rewriter.rewrite_many(texts(), to):
            raw = raw_of.popleft()
            out.write(line.encode("utf-8") if raw is None else raw)
        return
    tsv.write(b"line\tstart\tend\told\tnew\trule\n")
    for n, line in enumerate(texts(), 1):
        new = next(rewriter.rewrite_many([line], to))
        raw = raw_of.popleft()
        out.write(new.encode("utf-8") if raw is None else raw)
        if new is line:
            continue
        try:
            edits = rewriter.explain(line.rstrip("\r\n"), to)
        except Exception:  # the rewrite kept the line (counted); nothing to explain
            continue
        for e in edits:
            tsv.write(f"{n}\t{e.start}\t{e.end}\t{e.old}\t{e.new}\t{e.rule}\n".encode())
