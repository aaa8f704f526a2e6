"""Gender representation by lexicon counts: the GENDER-GAP method (Muller et al., WMT 2023).

Each line is lower-cased and split into words (:mod:`occbio.audit.tokenize`); a word counts for
a class (feminine, masculine, unspecified) when it equals one of the class's lexicon forms,
singular or plural. A form listed in several classes counts in each. For one corpus:

* a class's score is its count as a percentage of all words (every token, punctuation too, as
  Stanza's token counts in the paper);
* ``coverage`` is the percentage of lines (non-blank) with at least one match;
* ``gap`` is ``|feminine - masculine|`` (percentage points) and ``ste`` the standard error of
  the mean of the per-word difference ``d = f - m`` of the feminine and masculine indicators
  (percentage points, sample variance): ``sqrt(var(d) / n)``. ``d`` is -1, 0 or 1, so
  ``sum d = F - M`` and ``sum d**2 = F + M - 2B`` (``B``: words counted in both classes) give
  ``var(d)`` from running counts, with no per-word storage;
* the corpus is ``skewed`` when ``gap > 2 * ste``.

Forms of several words (``ancienne combattante``; in Chinese, Japanese or Thai every form of
two characters or more, since those scripts are split into characters) match as token
sequences: at each position the longest form starting there is taken and counts once for each
class it belongs to, so each word position still holds a 0/1 indicator per class.

Counts are plain integers in :class:`LexiconResult`, so results add up exactly: audit shards,
documents, genders or languages separately and combine them with ``+`` or :func:`merge_results`.

The method is spread over three modules: this one matches lines against a lexicon
(:class:`Lexicon`, :func:`load_lexicon`) and counts a corpus (:class:`LexiconCounter`,
:func:`audit_lines`); :mod:`occbio.audit.lexicon_languages` says which languages have a
shipped lexicon and resolves language codes to them; :mod:`occbio.audit.lexicon_result` holds
the counts and the figures derived from them (:class:`LexiconResult`, :func:`merge_results`).
This module re-exports the public names of both, so ``occbio.audit.lexicon`` stays the one
place to import from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import NamedTuple

from occbio.audit.lexicon_languages import (
    _SUFFIX,
    LexiconUnavailable,
    _data_dir,
    available_languages,
    resolve_lang,
)
from occbio.audit.lexicon_result import LexiconResult, _join_langs, merge_results
from occbio.audit.tokenize import get_tokenizer, is_no_space, normalise

__all__ = [
    "CLASSES",
    "Lexicon",
    "LexiconCounter",
    "LexiconResult",
    "LexiconUnavailable",
    "LineCounts",
    "audit_lines",
    "available_languages",
    "iter_line_counts",
    "load_lexicon",
    "merge_results",
    "resolve_lang",
]

#: The lexicon's classes, in report order.
CLASSES: tuple[str, ...] = ("feminine", "masculine", "unspecified")
_FEM, _MASC, _UNSP = 1, 2, 4
_BIT = {"feminine": _FEM, "masculine": _MASC, "unspecified": _UNSP}
#: Class names as some lexicon files spell them.
_CLASS_ALIASES = {"female": "feminine", "male": "masculine", "neutral": "unspecified"}
#: Placeholder forms meaning "no such form" in the lexicon files.
_NO_FORM = frozenset({"", "-"})

#: ``resolve_lang`` lives in :mod:`occbio.audit.lexicon_languages`; its doctest still runs with
#: this module's (``doctest.testmod(occbio.audit.lexicon)``).
__test__ = {"resolve_lang": resolve_lang}


class LineCounts(NamedTuple):
    """The counts of one line: its words and the words matching each class."""

    words: int
    feminine: int
    masculine: int
    unspecified: int

    @property
    def matched(self) -> bool:
        return bool(self.feminine or self.masculine or self.unspecified)


class Lexicon:
    """The lexicon of one language, compiled for matching.

    ``forms`` maps each class to its forms as loaded (trimmed, lower-cased, NFC). Build one from
    the shipped files with :func:`load_lexicon`, or from your own forms with
    ``Lexicon("eng", {"feminine": [...], "masculine": [...], "unspecified": [...]})``; ``lang``
    (ISO 639-3) picks the tokenisation rules.
    """

    def __init__(self, lang: str, forms: Mapping[str, Iterable[str]]) -> None:
        self.lang = lang
        self._tokenize = get_tokenizer(lang)
        classes: dict[str, set[str]] = {name: set() for name in CLASSES}
        for name, values in forms.items():
            key = _CLASS_ALIASES.get(name, name)
            if key not in classes:
                raise ValueError(f"unknown lexicon class {name!r}: expected one of {CLASSES}")
            for value in values:
                form = " ".join(normalise(value, lang).split())
                if form not in _NO_FORM:
                    classes[key].add(form)
        self.forms: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in classes.items()}
        single: dict[str, int] = {}
        multi: dict[tuple[str, ...], int] = {}
        for name, values in self.forms.items():
            for form in values:
                tokens = tuple(self._tokenize(form))
                if len(tokens) == 1:
                    single[tokens[0]] = single.get(tokens[0], 0) | _BIT[name]
                elif tokens:
                    multi[tokens] = multi.get(tokens, 0) | _BIT[name]
        self._single = single
        by_first: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        for tokens, mask in multi.items():
            by_first.setdefault(tokens[0], []).append((tokens, mask))
        # longest first, so the first sequence that fits is the longest match
        self._multi = {
            first: tuple(sorted(seqs, key=lambda s: -len(s[0]))) for first, seqs in by_first.items()
        }
        self._multi_first = frozenset(self._multi)

    @classmethod
    def from_json(cls, lang: str, data: Mapping[str, Iterable[Mapping[str, str]]]) -> Lexicon:
        """From the GENDER-GAP file layout: ``{class: [{"singular": s, "plural": p}, ...]}``."""
        return cls(
            lang,
            {
                name: [form for entry in entries for form in entry.values()]
                for name, entries in data.items()
            },
        )

    def __len__(self) -> int:
        return sum(len(v) for v in self.forms.values())

    def __repr__(self) -> str:
        sizes = ", ".join(f"{k}={len(v)}" for k, v in self.forms.items())
        return f"Lexicon({self.lang!r}, {sizes})"

    def words(self, line: str) -> list[str]:
        """The words of ``line`` as counted: normalised (lower case) and tokenised."""
        return self._tokenize(normalise(line, self.lang))

    def _scan(self, tokens: list[str]) -> Iterator[tuple[int, int, int]]:
        """``(start, length, class bits)`` of each match: the longest form at each position."""
        single, multi = self._single, self._multi
        i, n = 0, len(tokens)
        while i < n:
            token = tokens[i]
            step, mask = 1, single.get(token, 0)
            for seq, seq_mask in multi.get(token, ()):
                if len(seq) <= n - i and tuple(tokens[i : i + len(seq)]) == seq:
                    step, mask = len(seq), seq_mask
                    break
            if mask:
                yield i, step, mask
            i += step

    def masks(self, tokens: list[str]) -> list[int]:
        """The class bits (1 feminine, 2 masculine, 4 unspecified) of each match in ``tokens``."""
        if not self._multi_first or self._multi_first.isdisjoint(tokens):
            return [m for m in map(self._single.get, tokens) if m]
        return [mask for _, _, mask in self._scan(tokens)]

    def matches(self, line: str) -> list[tuple[str, tuple[str, ...]]]:
        """The matched forms of ``line`` with their classes, e.g. ``[("mother", ("feminine",))]``
        (for inspecting what a score is made of; :meth:`count` is the fast path)."""
        tokens = self.words(line)
        out = []
        for start, length, mask in self._scan(tokens):
            words = tokens[start : start + length]
            joiner = "" if is_no_space(words[0][0]) else " "
            out.append((joiner.join(words), tuple(c for c in CLASSES if mask & _BIT[c])))
        return out

    def count(self, line: str) -> LineCounts:
        """The counts of one line."""
        tokens = self.words(line)
        masks = self.masks(tokens) if tokens else []
        if not masks:
            return LineCounts(len(tokens), 0, 0, 0)
        return LineCounts(
            len(tokens),
            sum(1 for m in masks if m & _FEM),
            sum(1 for m in masks if m & _MASC),
            sum(1 for m in masks if m & _UNSP),
        )


@cache
def _load(code: str) -> Lexicon:
    text = _data_dir().joinpath(f"{code}{_SUFFIX}").read_text(encoding="utf-8")
    return Lexicon.from_json(code, json.loads(text))


def load_lexicon(lang: str) -> Lexicon:
    """The shipped GENDER-GAP lexicon of ``lang`` (ISO 639-1, ISO 639-3 or Wikipedia code).

    Raises :class:`LexiconUnavailable` (a ``ValueError``) for a language without a lexicon.
    """
    return _load(resolve_lang(lang))


class LexiconCounter:
    """Streaming audit: :meth:`add` one line at a time, :meth:`result` at any point.

    Memory is constant (running counts). Blank lines (no word) are not counted as lines.
    """

    def __init__(self, lexicon: Lexicon, *, lang: str | None = None) -> None:
        self.lexicon = lexicon
        self.lang = lang or lexicon.lang
        self.lines = 0
        self.matched_lines = 0
        self.words = 0
        self.feminine_count = 0
        self.masculine_count = 0
        self.unspecified_count = 0
        self.both_count = 0
        self._words = lexicon.words
        self._masks = lexicon.masks

    def add(self, line: str) -> LineCounts:
        """Count one line; returns its counts (words and matches per class)."""
        tokens = self._words(line)
        n = len(tokens)
        if not n:
            return LineCounts(0, 0, 0, 0)
        self.lines += 1
        self.words += n
        masks = self._masks(tokens)
        if not masks:
            return LineCounts(n, 0, 0, 0)
        self.matched_lines += 1
        fem = masc = unsp = both = 0
        for m in masks:
            if m & _FEM:
                fem += 1
                if m & _MASC:
                    both += 1
            if m & _MASC:
                masc += 1
            if m & _UNSP:
                unsp += 1
        self.feminine_count += fem
        self.masculine_count += masc
        self.unspecified_count += unsp
        self.both_count += both
        return LineCounts(n, fem, masc, unsp)

    def update(self, lines: Iterable[str]) -> LexiconCounter:
        """Count every line of ``lines`` (streamed); returns ``self``."""
        add = self.add
        for line in lines:
            add(line)
        return self

    def merge(self, other: LexiconCounter | LexiconResult) -> LexiconCounter:
        """Add another counter's (or a result's) counts to this one; returns ``self``."""
        for name in (
            "lines",
            "matched_lines",
            "words",
            "feminine_count",
            "masculine_count",
            "unspecified_count",
            "both_count",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if other.lang != self.lang:
            self.lang = _join_langs(self.lang, other.lang)
        return self

    def result(self) -> LexiconResult:
        """The counts so far as a :class:`LexiconResult`."""
        return LexiconResult(
            lang=self.lang,
            lines=self.lines,
            matched_lines=self.matched_lines,
            words=self.words,
            feminine_count=self.feminine_count,
            masculine_count=self.masculine_count,
            unspecified_count=self.unspecified_count,
            both_count=self.both_count,
        )


def audit_lines(lines: Iterable[str], lang: str | Lexicon) -> LexiconResult:
    """Audit ``lines`` (any iterable, streamed) with the lexicon of ``lang`` (a code or a
    :class:`Lexicon`); the result is named ``lang`` as given (or the lexicon's code)."""
    if isinstance(lang, Lexicon):
        return LexiconCounter(lang).update(lines).result()
    return LexiconCounter(load_lexicon(lang), lang=lang).update(lines).result()


def iter_line_counts(lines: Iterable[str], lexicon: Lexicon) -> Iterator[LineCounts]:
    """The counts of each line, one at a time."""
    for line in lines:
        yield lexicon.count(line)
