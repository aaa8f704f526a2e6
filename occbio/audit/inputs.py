"""What ``occbio audit`` reads: any corpus file, or a run directory, as ``(lang, gender, text)``.

Formats are told by their content, not their name:

* occbio XML (``<corpus lang=..>`` with ``<doc gender=..>`` and ``<seg>``), streamed;
* JSON lines whose ``text`` is ``{lang: sentence}`` (occbio's ``corpus.jsonl``,
  ``alignments.jsonl``) or a string (with ``--lang``); a ``gender`` key is kept;
* a TSV with a header whose columns include language codes (occbio's ``corpus.tsv``), read as
  CSV-quoted like occbio writes it; a ``gender`` column is kept;
* anything else: plain text, one sentence per line, in ``--lang``.

``input_format`` (``--input-format``) says the format instead: a plain-text line that starts
with ``{`` or ``<corpus``, or holds a tab, is then not taken for anything else. Each file is
opened and read once, so a pipe (``<(cat f)``, a FIFO, ``/dev/stdin``) is read like a file.
A line with bytes that are not UTF-8 is read with U+FFFD in their place, and its number is
given to the caller (``not_utf8``); XML declares its own encoding.

A line that cannot be read (bad JSON in a JSON-lines file, a row of the wrong width) is skipped
and counted in the ``skipped`` counter the caller passes, never a stop. Everything streams:
memory does not grow with the file. A line (or a TSV field) longer than 8 MiB stops the read
in one line, a device (``/dev/zero``) is refused, and a FIFO that sends nothing is named in a
warning (:mod:`occbio.io.limits`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from lxml import etree

from occbio.io.limits import (
    MAX_LINE_BYTES,
    Activity,
    InputTooLarge,
    LineGuard,
    LineNumbers,
    device_problem,
    interrupted,
    is_stream,
    maybe_waiting,
)
from occbio.langs import WIKIPEDIA_LANGS

__all__ = [
    "INPUT_FORMATS",
    "AuditInputError",
    "Record",
    "line_list",
    "read_records",
    "run_genders",
    "run_sources",
]

#: What ``--input-format`` accepts: ``auto`` tells the format by the content.
INPUT_FORMATS = ("auto", "text", "jsonl", "tsv", "xml")

#: Genders as the audit reports them; anything else a file says is kept as it is.
UNKNOWN = "unknown"


class AuditInputError(ValueError):
    """A file the audit cannot read at all (the message names it and says why)."""


@dataclass(frozen=True, slots=True)
class Record:
    lang: str
    gender: str
    text: str


def _sniff(head: bytes) -> str:
    """The format of a file that starts with ``head``."""
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"<?xml") or stripped.startswith(b"<corpus"):
        return "xml"
    if stripped.startswith(b"{"):
        return "jsonl"
    first = head.split(b"\n", 1)[0].decode("utf-8-sig", "replace").rstrip("\r")
    if "\t" in first and any(_is_lang(cell) for cell in first.split("\t")):
        return "tsv"
    return "text"


class _Replay(io.RawIOBase):
    """``head`` again, then the rest of ``rest``: what was read to tell the format is not read
    twice from the file (a pipe cannot be)."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        return self._rest.readinto(buffer)  # type: ignore[attr-defined]


#: a byte that was not UTF-8, as ``surrogateescape`` decodes it
_NOT_UTF8 = re.compile("[\udc80-\udcff]")


def _lines(
    stream: BinaryIO, not_utf8: list[int] | LineNumbers, newline: str | None = None
) -> Iterator[str]:
    """The lines of ``stream`` as UTF-8 text (a byte-order mark dropped, as editors on Windows
    write one); a line with bytes that are not UTF-8 is read with U+FFFD in their place (as
    ``errors="replace"`` reads it) and its number is appended to ``not_utf8``."""
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline=newline)
    for n, line in enumerate(text, 1):
        if _NOT_UTF8.search(line):
            not_utf8.append(n)
            line = line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        yield line


def line_list(numbers: Sequence[int], shown: int = 10) -> str:
    """``line 3``, ``lines 3, 7, 9 (and 12 more)``: where a counted problem is."""
    head = ", ".join(str(n) for n in numbers[:shown])
    more = f" (and {len(numbers) - shown} more)" if len(numbers) > shown else ""
    return f"line{'s' if len(numbers) > 1 else ''} {head}{more}"


def _is_lang(code: str) -> bool:
    """A column named by a language code (``en``, not ``gender`` or ``url_en``)."""
    return code in WIKIPEDIA_LANGS


def read_records(
    path: Path,
    *,
    lang: str | None,
    langs: Sequence[str] | None,
    skipped: Counter[str],
    genders: Mapping[str, str] | None = None,
    input_format: str = "auto",
    not_utf8: list[int] | LineNumbers | None = None,
) -> Iterator[Record]:
    """The sentences of ``path`` with their language and the gender of their document.

    ``lang`` is the language of files that do not say it (plain text, string ``text``);
    ``langs``, when given, keeps only those languages of multilingual files; ``genders``
    gives the gender of JSON-lines documents (by ``doc`` or ``qid``) that do not carry one;
    ``input_format`` one of :data:`INPUT_FORMATS`; ``not_utf8`` gets the numbers of the lines
    read with U+FFFD for bytes that are not UTF-8.
    """
    if input_format not in INPUT_FORMATS:
        raise AuditInputError(f"input format must be one of {', '.join(INPUT_FORMATS)}")
    problem = device_problem(path)
    if problem is not None:
        raise AuditInputError(f"{path} {problem}")
    with maybe_waiting(path, "the corpus to audit") as activity:
        try:
            activity.waiting()  # opening a FIFO waits for its writer
            fh = open(path, "rb")  # noqa: SIM115 - closed below, when the records are read
        except OSError as exc:
            raise AuditInputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
        with fh:
            try:
                yield from _read_open(path, fh, activity, lang, langs, skipped, genders,
                                      input_format, not_utf8)  # fmt: skip
            except InputTooLarge as exc:
                raise AuditInputError(str(exc)) from None
            except KeyboardInterrupt:
                if activity.since is None or not is_stream(path):
                    raise
                raise AuditInputError(interrupted(path, "the corpus to audit")) from None


def _read_open(
    path: Path,
    fh: BinaryIO,
    activity: Activity,
    lang: str | None,
    langs: Sequence[str] | None,
    skipped: Counter[str],
    genders: Mapping[str, str] | None,
    input_format: str,
    not_utf8: list[int] | LineNumbers | None,
) -> Iterator[Record]:
    """:func:`read_records` of the open file ``fh``."""
    activity.waiting()
    head = fh.read(4096)
    activity.got()
    kind = _sniff(head) if input_format == "auto" else input_format
    if not head:  # an empty corpus: nothing to count
        return
    # a line (JSON lines, TSV, text) at most MAX_LINE_BYTES; XML is parsed as it streams
    guard = LineGuard(
        _Replay(head, fh),  # type: ignore[arg-type]
        path,
        max_line=None if kind == "xml" else MAX_LINE_BYTES,
        activity=activity,
    )
    stream = io.BufferedReader(guard)
    keep = set(langs) if langs else None
    bad = not_utf8 if not_utf8 is not None else LineNumbers()
    if kind == "xml":
        yield from _xml(path, stream, keep, skipped)
    elif kind == "jsonl":
        yield from _jsonl(_lines(stream, bad), lang, keep, skipped, genders or {})
    elif kind == "tsv":
        yield from _tsv(path, _lines(stream, bad, newline=""), keep, skipped)
    else:
        if lang is None:
            raise AuditInputError(f"{path} is plain text: say its language with --lang")
        for line in _lines(stream, bad):
            if line.strip():
                yield Record(lang, UNKNOWN, line.rstrip("\n"))


def _xml(
    path: Path, stream: BinaryIO, keep: set[str] | None, skipped: Counter[str]
) -> Iterator[Record]:
    lang, gender = None, UNKNOWN
    try:
        for event, elem in etree.iterparse(
            stream, events=("start", "end"), resolve_entities=False, no_network=True
        ):
            tag = elem.tag if isinstance(elem.tag, str) else ""
            if event == "start" and tag == "corpus":
                lang = elem.get("lang")
            elif event == "start" and tag == "doc":
                gender = elem.get("gender") or UNKNOWN
            elif event == "end" and tag == "seg":
                doc_lang = lang or elem.getparent().get("language")
                if doc_lang and (keep is None or doc_lang in keep) and elem.text:
                    yield Record(doc_lang, gender, elem.text)
                elem.clear()
            elif event == "end" and tag == "doc":
                elem.clear()
                while elem.getprevious() is not None:
                    del elem.getparent()[0]
    except etree.XMLSyntaxError as exc:
        raise AuditInputError(f"{path} is not well-formed XML ({exc.msg})") from None


def _jsonl(
    lines: Iterator[str],
    lang: str | None,
    keep: set[str] | None,
    skipped: Counter[str],
    genders: Mapping[str, str],
) -> Iterator[Record]:
    for line in lines:
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            text = row["text"]
        except (ValueError, KeyError, TypeError, RecursionError):
            skipped["lines_unreadable"] += 1
            continue
        gender = row.get("gender") or genders.get(str(row.get("doc") or row.get("qid")))
        gender = str(gender or UNKNOWN)
        if isinstance(text, dict):
            for code, sentence in text.items():
                if isinstance(sentence, str) and (keep is None or code in keep):
                    yield Record(code, gender, sentence)
        elif isinstance(text, str) and lang is not None:
            yield Record(lang, gender, text)
        else:
            skipped["lines_unreadable"] += 1


def _tsv(
    path: Path, lines: Iterator[str], keep: set[str] | None, skipped: Counter[str]
) -> Iterator[Record]:
    csv.field_size_limit(MAX_LINE_BYTES)  # a quoted field over many lines: capped like a line
    rows = csv.reader(lines, delimiter="\t")
    try:
        yield from _tsv_rows(path, rows, keep, skipped)
    except csv.Error as exc:
        raise AuditInputError(f"{path}:{rows.line_num}: not a readable TSV ({exc})") from None


def _tsv_rows(
    path: Path, rows: Any, keep: set[str] | None, skipped: Counter[str]
) -> Iterator[Record]:
    header = next(rows, [])
    if not any(_is_lang(name) for name in header):
        raise AuditInputError(
            f"{path}: a TSV needs a header row naming its language columns (en, es, ...)"
        )
    columns = [
        (i, name) for i, name in enumerate(header)
        if _is_lang(name) and (keep is None or name in keep)
    ]  # fmt: skip
    gender_at = header.index("gender") if "gender" in header else None
    for row in rows:
        if len(row) != len(header):
            skipped["rows_wrong_width"] += 1
            continue
        gender = row[gender_at] if gender_at is not None and row[gender_at] else UNKNOWN
        for i, code in columns:
            if row[i]:
                yield Record(code, gender, row[i])


def run_genders(run_dir: Path) -> dict[str, str]:
    """Each person's gender category as the balance stage decided it (empty before it ran)."""
    path = run_dir / "balance" / "people.jsonl"
    genders: dict[str, str] = {}
    if path.exists():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    row = json.loads(line)
                    genders[str(row["qid"])] = str(row.get("gender") or UNKNOWN)
                except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                    continue
    return genders


def run_sources(run_dir: Path) -> dict[str, Path]:
    """What to audit in a run directory: the corpus (after balancing) and the aligned tuples
    (before), those of the two that exist."""
    sources = {
        "balanced corpus": run_dir / "corpus" / "corpus.jsonl",
        "aligned (before balancing)": run_dir / "alignments.jsonl",
    }
    found = {name: path for name, path in sources.items() if path.exists()}
    if not found:
        raise AuditInputError(
            f"{run_dir} holds no corpus/corpus.jsonl or alignments.jsonl: run `occbio mine` "
            "(or `occbio align`) first"
        )
    return found
