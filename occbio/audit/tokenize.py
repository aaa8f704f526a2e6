"""Download-free word tokenisation for the GENDER-GAP lexicon counts.

The GENDER-GAP pipeline (Muller et al., 2023) tokenised with Stanza, whose models are
downloaded at run time. This module gives rule-based tokens close to Stanza's (Universal
Dependencies conventions) without any model:

* a word is a run of letters, marks and digits; hyphens, apostrophes, periods and the Catalan
  middle dot inside a word keep it whole (``grand-mère``, ``mamma's``, ``al·lot``, ``u.s``),
  except in English, where hyphenated words are split as in UD English (``mother - of -
  three``) and the clitics ``'s n't 're 've 'll 'd 'm`` are tokens of their own;
* French, Italian, Catalan and Occitan elisions end at the apostrophe (``l'`` ``homme``);
* numbers keep their separators (``1,000`` ``3.5`` ``7:55``);
* every punctuation mark or symbol is a token (``...`` and ``--`` as one);
* scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar, Tibetan) have one
  token per character (with its combining marks); :mod:`occbio.audit.lexicon` matches lexicon
  forms there as character sequences. Their word counts are therefore character counts.

Only the standard library's ``re`` is used; the character classes it lacks (letters and marks
of every script, the scripts without spaces) are built once from :mod:`unicodedata`.

:func:`normalise` prepares a line the way the method reads it: Unicode NFC, one apostrophe
(``’`` and ``ʼ`` become ``'``), invisible format characters (zero-width space, soft hyphen)
removed, and lower case (Turkish and Azerbaijani dotted and dotless I handled).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache
from typing import NamedTuple

__all__ = ["Tokenizer", "get_tokenizer", "is_no_space", "normalise", "tokenize"]

#: Scripts written without spaces between words (Han with its iteration marks, Hiragana,
#: Katakana, Thai, Lao, Tibetan, Myanmar, Khmer), as code point ranges: one token per
#: character with its combining marks.
NO_SPACE_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E01, 0x0E5B),  # Thai
    (0x0E81, 0x0EDF),  # Lao
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035),  # kana repeat marks
    (0x303B, 0x303C),  # 〻 〼
    (0x3041, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana (with ー)
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA9E0, 0xA9FF),  # Myanmar extended B
    (0xAA60, 0xAA7F),  # Myanmar extended A
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x1B000, 0x1B16F),  # kana supplement and extensions
    (0x20000, 0x323AF),  # CJK extensions B to H
)
#: Languages whose elided articles and pronouns end at the apostrophe (``l'homme``).
ELISION_LANGS = frozenset({"fra", "ita", "cat", "oci"})
#: Languages with the Turkish dotted/dotless i.
TURKIC_I_LANGS = frozenset({"tur", "aze", "azj", "azb", "crh", "gag"})
#: ISO 639-3 code of English (its own clitic and hyphen rules).
ENGLISH = "eng"

#: ``’`` and ``ʼ`` read as ``'``; a zero-width space separates words; other invisible format
#: characters (soft hyphen, BOM, word joiner, direction marks) are removed. ZWJ and ZWNJ stay:
#: they belong to words.
_REPLACEMENTS = (
    ("\u2019", "'"),
    ("\u02bc", "'"),
    ("\u200b", " "),
    ("\u00ad", ""),
    ("\ufeff", ""),
    ("\u2060", ""),
    ("\u200e", ""),
    ("\u200f", ""),
)
_TURKIC_UPPER_I = str.maketrans({"I": "ı", "\u0130": "i"})
_JOINERS = (0x200C, 0x200D)  # ZWNJ, ZWJ: inside Persian and Indic words
_SCANNED = (range(0x40000), range(0xE0000, min(0xE1000, sys.maxunicode + 1)))


def _class(ranges: list[tuple[int, int]]) -> str:
    return "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)


def _runs(codes: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for c in codes:
        if runs and runs[-1][1] == c - 1:
            runs[-1] = (runs[-1][0], c)
        else:
            runs.append((c, c))
    return runs


class _CharClasses(NamedTuple):
    word: str
    astral_word: str
    no_space: str
    astral_no_space: str
    marks: str


@cache
def _char_classes() -> _CharClasses:
    """Regex character class contents, built once from the running Python's Unicode database
    (stdlib ``re`` has no script or mark classes): word characters (letters, marks, digits,
    ZWNJ/ZWJ) outside the scripts without spaces, in the Basic Multilingual Plane and above
    it (kept apart: ``re`` checks a BMP class with a bitmap, other ranges one by one); the
    characters of the scripts without spaces; the combining marks that may follow them."""
    no_space = [False] * 0x40000
    for a, b in NO_SPACE_RANGES:
        for c in range(a, b + 1):
            no_space[c] = True
    word: list[int] = []
    marks: list[int] = []
    category = unicodedata.category
    for block in _SCANNED:
        for c in block:
            cat = category(chr(c))[0]
            if cat == "M" and c <= 0xFFFF:
                marks.append(c)
            if (cat in "LMN" or c in _JOINERS) and not (c < 0x40000 and no_space[c]):
                word.append(c)
    bmp = [c for c in word if c <= 0xFFFF]
    astral = [c for c in word if c > 0xFFFF]
    no_space_bmp = [(a, b) for a, b in NO_SPACE_RANGES if b <= 0xFFFF]
    no_space_astral = [(a, b) for a, b in NO_SPACE_RANGES if b > 0xFFFF]
    marks.extend(range(0xE0100, 0xE01F0))  # ideographic variation selectors
    return _CharClasses(
        word=_class(_runs(bmp)),
        astral_word=_class(_runs(astral)),
        no_space=_class(no_space_bmp),
        astral_no_space=_class(no_space_astral),
        marks=_class(_runs(marks)),
    )


def is_no_space(char: str) -> bool:
    """True for a character of a script written without spaces (Han, kana, Thai ...)."""
    c = ord(char)
    return any(a <= c <= b for a, b in NO_SPACE_RANGES)


def _pattern(lang: str) -> re.Pattern[str]:
    classes = _char_classes()
    w = f"[{classes.word}]"
    number = r"\d+(?:[.,:]\d+)+"
    abbreviation = rf"(?:{w}\.){{2,}}(?!{w})"  # u.s. e.g. a.m.
    if lang == ENGLISH:
        clitic_tail = r"(?:s|re|ve|ll|d|m)\b"
        word = (
            rf"{w}+(?=n't\b)"  # do|n't, ca|n't
            r"|n't\b"
            rf"|'{clitic_tail}"
            rf"|{w}+(?:\.{w}+|'(?!{clitic_tail}){w}+)*"  # u.s, o'brien; hyphens split
        )
    else:
        word = rf"{w}+(?:[-'.\u00b7]{w}+)*"  # grand-mère, mamma's, al·lot
        if lang in ELISION_LANGS:
            word = rf"{w}+'(?={w})|{word}"  # l'|homme
    no_space_char = f"[{classes.no_space}][{classes.marks}]*"
    punct = r"\.{2,}|-{2,}|[^\s\U00010000-\U0010ffff]"
    # characters above the BMP: Han extensions, Adlam ..., emoji (checked last: slow ranges)
    astral = (
        r"(?=[\U00010000-\U0010ffff])"
        f"(?:[{classes.astral_no_space}][{classes.marks}]*|[{classes.astral_word}]+|.)"
    )
    return re.compile(
        f"{number}|{abbreviation}|{word}|{no_space_char}|{punct}|{astral}", flags=re.DOTALL
    )


def normalise(line: str, lang: str = "") -> str:
    """NFC, one apostrophe, no invisible format characters, lower case (Turkish dotted and
    dotless i when ``lang`` is a Turkic language)."""
    if not unicodedata.is_normalized("NFC", line):
        line = unicodedata.normalize("NFC", line)
    for old, new in _REPLACEMENTS:  # str.translate is slower on clean text
        if old in line:
            line = line.replace(old, new)
    if lang in TURKIC_I_LANGS:
        line = line.translate(_TURKIC_UPPER_I)
    return line.lower()


class Tokenizer:
    """Rule-based tokens for one language (ISO 639-3 code); see the module docstring.

    >>> Tokenizer("eng")("the women's mother-of-three don't")
    ['the', 'women', "'s", 'mother', '-', 'of', '-', 'three', 'do', "n't"]
    >>> Tokenizer("fra")("l'homme, la grand-mère...")
    ["l'", 'homme', ',', 'la', 'grand-mère', '...']
    >>> Tokenizer("cmn")("我的妈妈")
    ['我', '的', '妈', '妈']
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._pattern = _pattern(lang)

    def __call__(self, text: str) -> list[str]:
        """Tokens of ``text``, which should be :func:`normalise`-d (lower case) first."""
        return self._pattern.findall(text)

    def __repr__(self) -> str:
        return f"Tokenizer({self.lang!r})"


@cache
def get_tokenizer(lang: str) -> Tokenizer:
    """The (cached) :class:`Tokenizer` of a language (ISO 639-3 code)."""
    return Tokenizer(lang)


def tokenize(line: str, lang: str) -> list[str]:
    """The words of ``line`` as the lexicon counts see them: :func:`normalise`, then split."""
    return get_tokenizer(lang)(normalise(line, lang))
