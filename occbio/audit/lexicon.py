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
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any, NamedTuple

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

_DATA_PACKAGE = "occbio"
_DATA_DIR = "data/gender_gap"
_SUFFIX = "_nouns.json"

#: ISO 639-1, Wikipedia, macrolanguage and ISO 639-2/B codes -> the lexicon's ISO 639-3 code.
_ALIASES: dict[str, str] = {
    # ISO 639-1 (and the Wikipedia edition of the same code)
    "ar": "arb", "as": "asm", "be": "bel", "bn": "ben", "bg": "bul", "ca": "cat", "cs": "ces",
    "cy": "cym", "da": "dan", "de": "deu", "el": "ell", "en": "eng", "et": "est", "fi": "fin",
    "fr": "fra", "ga": "gle", "hi": "hin", "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn",
    "kn": "kan", "ka": "kat", "mn": "khk", "ky": "kir", "ko": "kor", "lt": "lit", "lg": "lug",
    "lv": "lvs", "mr": "mar", "mt": "mlt", "nl": "nld", "pa": "pan", "fa": "pes", "pl": "pol",
    "pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "es": "spa", "sv": "swe",
    "sw": "swh", "ta": "tam", "te": "tel", "tl": "tgl", "th": "tha", "tr": "tur", "ur": "urd",
    "uz": "uzn", "vi": "vie", "zh": "cmn", "zu": "zul",
    # Wikipedia editions without an ISO 639-1 code
    "simple": "eng", "zh-yue": "yue",
    # macrolanguages and close synonyms
    "ara": "arb", "zho": "cmn", "fas": "pes", "lav": "lvs", "mon": "khk", "uzb": "uzn",
    "swa": "swh", "ekk": "est", "fil": "tgl",
    # ISO 639-2/B
    "chi": "cmn", "cze": "ces", "wel": "cym", "ger": "deu", "gre": "ell", "fre": "fra",
    "per": "pes", "geo": "kat", "dut": "nld", "rum": "ron", "slo": "slk",
}  # fmt: skip


class LexiconUnavailable(ValueError):
    """No GENDER-GAP lexicon for a language; the message lists the languages there are."""


def _data_dir() -> Any:
    return resources.files(_DATA_PACKAGE).joinpath(_DATA_DIR)


@lru_cache(maxsize=1)
def available_languages() -> tuple[str, ...]:
    """ISO 639-3 codes of the shipped lexicons, sorted."""
    return tuple(
        sorted(
            entry.name[: -len(_SUFFIX)]
            for entry in _data_dir().iterdir()
            if entry.name.endswith(_SUFFIX)
        )
    )


def _available_message() -> str:
    by_code = {code: [] for code in available_languages()}
    for alias, code in _ALIASES.items():
        if len(alias) == 2 and code in by_code:
            by_code[code].append(alias)
    return ", ".join(
        f"{code} ({'/'.join(sorted(aliases))})" if aliases else code
        for code, aliases in by_code.items()
    )


def resolve_lang(lang: str) -> str:
    """The lexicon's ISO 639-3 code for an ISO 639-1/639-3 or Wikipedia code, or raise.

    Region and script subtags are dropped (``pt-BR`` -> ``por``, ``zh-Hans`` -> ``cmn``);
    other varieties are not guessed (``zh-min-nan``, ``be-tarask`` have no lexicon).

    >>> resolve_lang("ES"), resolve_lang("cat"), resolve_lang("pt_BR"), resolve_lang("zh-yue")
    ('spa', 'cat', 'por', 'yue')
    """
    code = lang.strip().lower().replace("_", "-")
    available = set(available_languages())
    for candidate in (code, _primary_subtag(code)):
        if candidate is None:
            continue
        candidate = _ALIASES.get(candidate, candidate)
        if candidate in available:
            return candidate
    raise LexiconUnavailable(
        f"no GENDER-GAP lexicon for language {lang!r}; lexicons exist for "
        f"{len(available)} languages (ISO 639-3, with ISO 639-1): {_available_message()}"
    )


def _primary_subtag(code: str) -> str | None:
    """``pt`` for ``pt-br`` / ``zh-hans`` / ``es-419``; None when the tail is not a region or
    script subtag (``zh-min-nan``)."""
    head, sep, tail = code.partition("-")
    if not sep:
        return None
    if all(len(part) in (2, 4) or (len(part) == 3 and part.isdigit()) for part in tail.split("-")):
        return head
    return None


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


@dataclass(frozen=True)
class LexiconResult:
    """The counts of an audit and the figures derived from them.

    Fields are the raw counts (exact; results of the same or of different corpora add up with
    ``+``); ``feminine``, ``masculine``, ``unspecified`` (percent of words), ``coverage``
    (percent of lines), ``gap``, ``ste`` (percentage points) and ``skewed`` are derived.
    ``both_count`` is the number of words counted as both feminine and masculine (needed for
    the standard error of the difference).
    """

    lang: str
    lines: int = 0
    matched_lines: int = 0
    words: int = 0
    feminine_count: int = 0
    masculine_count: int = 0
    unspecified_count: int = 0
    both_count: int = 0

    def _percent_of_words(self, count: int) -> float:
        return 100.0 * count / self.words if self.words else 0.0

    @property
    def feminine(self) -> float:
        """Feminine matches, percent of words."""
        return self._percent_of_words(self.feminine_count)

    @property
    def masculine(self) -> float:
        """Masculine matches, percent of words."""
        return self._percent_of_words(self.masculine_count)

    @property
    def unspecified(self) -> float:
        """Unspecified-gender matches, percent of words."""
        return self._percent_of_words(self.unspecified_count)

    @property
    def coverage(self) -> float:
        """Lines with at least one match, percent of lines."""
        return 100.0 * self.matched_lines / self.lines if self.lines else 0.0

    @property
    def gap(self) -> float:
        """``|feminine - masculine|``, percentage points."""
        return abs(self.feminine - self.masculine)

    @property
    def ste(self) -> float:
        """Standard error of the mean per-word difference of the feminine and masculine
        indicators, percentage points (sample variance; 0 with fewer than two words)."""
        n = self.words
        if n < 2:
            return 0.0
        total = self.feminine_count - self.masculine_count
        squares = self.feminine_count + self.masculine_count - 2 * self.both_count
        variance = max(0.0, (squares - total * total / n) / (n - 1))
        return 100.0 * math.sqrt(variance / n)

    @property
    def skewed(self) -> bool:
        """True when the gap exceeds twice its standard error."""
        return self.gap > 2.0 * self.ste

    def __add__(self, other: LexiconResult) -> LexiconResult:
        if not isinstance(other, LexiconResult):
            return NotImplemented
        return LexiconResult(
            lang=_join_langs(self.lang, other.lang),
            lines=self.lines + other.lines,
            matched_lines=self.matched_lines + other.matched_lines,
            words=self.words + other.words,
            feminine_count=self.feminine_count + other.feminine_count,
            masculine_count=self.masculine_count + other.masculine_count,
            unspecified_count=self.unspecified_count + other.unspecified_count,
            both_count=self.both_count + other.both_count,
        )

    def to_dict(self, *, digits: int | None = None) -> dict[str, Any]:
        """The JSON record: ``lang words feminine masculine unspecified coverage gap ste``, then
        ``skewed``, ``lines`` and the raw counts. ``digits`` rounds the floats."""

        def num(x: float) -> float:
            return round(x, digits) if digits is not None else x

        return {
            "lang": self.lang,
            "words": self.words,
            "feminine": num(self.feminine),
            "masculine": num(self.masculine),
            "unspecified": num(self.unspecified),
            "coverage": num(self.coverage),
            "gap": num(self.gap),
            "ste": num(self.ste),
            "skewed": self.skewed,
            "lines": self.lines,
            "matched_lines": self.matched_lines,
            "feminine_count": self.feminine_count,
            "masculine_count": self.masculine_count,
            "unspecified_count": self.unspecified_count,
            "both_count": self.both_count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LexiconResult:
        """Rebuild a result from :meth:`to_dict` (its raw counts), e.g. to merge saved audits."""
        return cls(
            lang=str(data["lang"]),
            lines=int(data["lines"]),
            matched_lines=int(data["matched_lines"]),
            words=int(data["words"]),
            feminine_count=int(data["feminine_count"]),
            masculine_count=int(data["masculine_count"]),
            unspecified_count=int(data["unspecified_count"]),
            both_count=int(data.get("both_count", 0)),
        )


def _join_langs(a: str, b: str) -> str:
    langs = dict.fromkeys(x for x in (*a.split("+"), *b.split("+")) if x)
    return "+".join(langs)


def merge_results(results: Iterable[LexiconResult], lang: str | None = None) -> LexiconResult:
    """The result of auditing all the inputs of ``results`` as one corpus.

    ``lang`` names the merged result (default: the languages joined with ``+``).
    """
    merged: LexiconResult | None = None
    for result in results:
        merged = result if merged is None else merged + result
    if merged is None:
        return LexiconResult(lang=lang or "")
    if lang is not None:
        merged = LexiconResult(**{**merged.__dict__, "lang": lang})
    return merged


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
