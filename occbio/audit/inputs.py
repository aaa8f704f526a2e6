"""What ``occbio audit`` reads: any corpus file, or a run directory, as ``(lang, gender, text)``.

Formats are told by their content, not their name:

* occbio XML (``<corpus lang=..>`` with ``<doc gender=..>`` and ``<seg>``), streamed;
* JSON lines whose ``text`` is ``{lang: sentence}`` (occbio's ``corpus.jsonl``,
  ``alignments.jsonl``) or a string (with ``--lang``); a ``gender`` key is kept;
* a TSV with a header whose columns include language codes (occbio's ``corpus.tsv``), read as
  CSV-quoted like occbio writes it; a ``gender`` column is kept;
* anything else: plain text, one sentence per line, in ``--lang``.

A line that cannot be read (bad JSON in a JSON-lines file, a row of the wrong width) is skipped
and counted in the ``skipped`` counter the caller passes, never a stop. Everything streams:
memory does not grow with the file.
"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from occbio.langs import WIKIPEDIA_LANGS

__all__ = ["AuditInputError", "Record", "read_records", "run_genders", "run_sources"]

#: Genders as the audit reports them; anything else a file says is kept as it is.
UNKNOWN = "unknown"


class AuditInputError(ValueError):
    """A file the audit cannot read at all (the message names it and says why)."""


@dataclass(frozen=True, slots=True)
class Record:
    lang: str
    gender: str
    text: str


def _sniff(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError as exc:
        raise AuditInputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"<?xml") or stripped.startswith(b"<corpus"):
        return "xml"
    if stripped.startswith(b"{"):
        return "jsonl"
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")
    if "\t" in first and any(_is_lang(cell) for cell in first.split("\t")):
        return "tsv"
    return "text"


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
) -> Iterator[Record]:
    """The sentences of ``path`` with their language and the gender of their document.

    ``lang`` is the language of files that do not say it (plain text, string ``text``);
    ``langs``, when given, keeps only those languages of multilingual files; ``genders``
    gives the gender of JSON-lines documents (by ``doc`` or ``qid``) that do not carry one.
    """
    kind = _sniff(path)
    keep = set(langs) if langs else None
    if kind == "text" and path.stat().st_size == 0:  # an empty corpus: nothing to count
        return
    if kind == "xml":
        yield from _xml(path, keep, skipped)
    elif kind == "jsonl":
        yield from _jsonl(path, lang, keep, skipped, genders or {})
    elif kind == "tsv":
        yield from _tsv(path, keep, skipped)
    else:
        if lang is None:
            raise AuditInputError(f"{path} is plain text: say its language with --lang")
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.strip():
                    yield Record(lang, UNKNOWN, line.rstrip("\n"))


def _xml(path: Path, keep: set[str] | None, skipped: Counter[str]) -> Iterator[Record]:
    lang, gender = None, UNKNOWN
    try:
        for event, elem in etree.iterparse(
            str(path), events=("start", "end"), resolve_entities=False, no_network=True
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
    path: Path,
    lang: str | None,
    keep: set[str] | None,
    skipped: Counter[str],
    genders: Mapping[str, str],
) -> Iterator[Record]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
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


def _tsv(path: Path, keep: set[str] | None, skipped: Counter[str]) -> Iterator[Record]:
    csv.field_size_limit(sys.maxsize)
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        rows = csv.reader(fh, delimiter="\t")
        header = next(rows, [])
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
                except (ValueError, KeyError, TypeError):
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
