"""Documents to align: the :class:`Doc` record and ``occbio align --input``'s reader.

Anyone's documents come as JSON lines ``{"doc": id, "lang": code, "sentences": [...]}``. They
get the same protection as the run's biographies: a bad line is skipped and counted, never
the end of the run; an id that would split a TSV row is refused; sentences outside the cleaning
length limits (``clean.min_chars``, ``clean.min_words``, ``clean.max_chars``) are left out of
alignment, counted, while every kept sentence keeps its position in the user's list.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from occbio.config import CleanConfig
from occbio.extract.clean import length_reason

__all__ = ["Doc", "InputError", "read_docs_jsonl"]

log = logging.getLogger(__name__)

#: Characters an id must not hold: they would split a TSV row or a line of a plain file.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: A surrogate left alone by ``json.loads`` (JSON may spell one, ``\ud800``); UTF-8 cannot
#: encode it, so it would stop the first write of the text.
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: How many skipped lines are logged with their number (the rest are only counted).
_MAX_LOGGED = 10


class InputError(ValueError):
    """An input file that cannot be used at all (the message names the file and line)."""


@dataclass(slots=True)
class Doc:
    """One document in several languages: ``{lang: [sentence, ...]}``.

    ``positions`` maps a language to each sentence's index in the original list when some
    were left out (absent: the list is the original one).
    """

    doc: str
    sentences: dict[str, list[str]] = field(default_factory=dict)
    positions: dict[str, list[int]] = field(default_factory=dict)

    def source_index(self, lang: str, i: int) -> int:
        """The original index of ``sentences[lang][i]``."""
        where = self.positions.get(lang)
        return i if where is None else where[i]


def _problem(row: object) -> str | None:
    """Why a parsed line is not a usable ``{doc, lang, sentences}`` object, or None."""
    if not isinstance(row, dict) or not {"doc", "lang", "sentences"} <= row.keys():
        return "not a line of the form {doc, lang, sentences}"
    doc, sentences = row["doc"], row["sentences"]
    if not isinstance(doc, str) or not doc.strip():
        return '"doc" must be a non-empty string'
    if _CONTROL.search(doc):
        return '"doc" holds a control character (tab, line break, ...)'
    if _LONE_SURROGATE.search(doc):
        return '"doc" holds a lone surrogate (an escape \\ud800-\\udfff that is no character)'
    if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
        return '"sentences" must be a list of strings'
    return None


def _within_limits(
    entry: Doc, lang: str, sentences: list[str], clean: CleanConfig, stats: Counter[str]
) -> None:
    kept, where = [], []
    for i, sentence in enumerate(sentences):
        reason = length_reason(sentence, lang, clean)
        if reason is None:
            kept.append(sentence)
            where.append(i)
        else:
            stats[f"input_sentences_{reason}"] += 1
    entry.sentences[lang] = kept
    if len(kept) < len(sentences):
        entry.positions[lang] = where


def read_docs_jsonl(
    path: Path, langs: Sequence[str], stats: Counter[str], *, clean: CleanConfig | None = None
) -> list[Doc]:
    """Documents from lines ``{"doc": id, "lang": code, "sentences": [...]}``.

    ``doc`` must be a non-empty string without control characters (a tab or a line break would
    split the TSV rows written from it); ``lang`` is matched case-insensitively, like
    ``--langs``. A malformed line, a line that is not UTF-8 (read with replacement characters),
    a line whose sentences hold lone surrogate escapes (``\\ud800``, read as U+FFFD), or one in
    a language not asked for, is counted, and the first few logged with their line number; a
    byte order mark is read past; a document given twice in one language keeps the first.
    With ``clean``, sentences outside its length limits are left out (counted). A file with no
    usable line at all, or whose documents share none of ``langs``, is an :class:`InputError`.
    """
    clean = clean or CleanConfig()
    docs: dict[str, Doc] = {}
    wanted = set(langs)
    if not Path(path).is_file():
        if Path(path).exists() and not Path(path).is_dir():
            raise InputError(
                f"input file {path} is not a regular file (a FIFO or <(...)?): it is read "
                "again by --explain and when the run resumes; save it to a file first"
            )
        raise InputError(f"input file not found: {path}")

    def skip(counter: str, line_no: int, why: str) -> None:
        stats[counter] += 1
        if stats[counter] <= _MAX_LOGGED:
            log.warning("%s:%d %s", path, line_no, why)

    with open(path, "rb") as fh:
        for line_no, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8-sig")  # a byte order mark (line 1) is no content
            except UnicodeDecodeError:
                line = raw.decode("utf-8-sig", "replace")
                skip("input_lines_invalid_utf8", line_no, "is not UTF-8: read with U+FFFD")
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                problem = _problem(row)
            except (ValueError, RecursionError) as exc:
                problem = f"not a line of the form {{doc, lang, sentences}} ({type(exc).__name__})"
            if problem is not None:
                skip("input_lines_malformed", line_no, f"skipped: {problem}")
                continue
            lang = str(row["lang"]).strip().lower()
            if lang not in wanted:
                stats["input_lines_other_lang"] += 1
                continue
            entry = docs.setdefault(row["doc"], Doc(row["doc"]))
            if lang in entry.sentences:
                stats["input_lines_duplicate"] += 1
                continue
            sentences = [s.strip() for s in row["sentences"]]
            if any(_LONE_SURROGATE.search(s) for s in sentences):
                sentences = [_LONE_SURROGATE.sub("\ufffd", s) for s in sentences]
                skip(
                    "input_lines_lone_surrogates", line_no, "lone surrogate escapes read as U+FFFD"
                )
            _within_limits(entry, lang, sentences, clean, stats)
            stats["input_lines"] += 1
    if not docs:
        raise InputError(
            f"{path}: no usable line for languages {', '.join(langs)}; expected one JSON object "
            'a line: {"doc": "<id>", "lang": "<code>", "sentences": ["...", ...]}'
        )
    if not any(all(d.sentences.get(lang) for lang in langs) for d in docs.values()):
        found = Counter(lang for d in docs.values() for lang, s in d.sentences.items() if s)
        have = ", ".join(f"{lang} in {n}" for lang, n in sorted(found.items())) or "none"
        raise InputError(
            f"{path}: none of its {len(docs)} documents has sentences in every one of "
            f"{', '.join(langs)} (sentences found: {have} documents); pass --langs with "
            "languages your documents share"
        )
    stats["input_docs"] = len(docs)
    return list(docs.values())
