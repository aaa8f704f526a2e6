"""Asides: parentheses, square brackets and footnote marks removed from a paragraph.

:func:`remove_asides` is the first step of cleaning (:func:`occbio.extract.clean.clean_article`
runs it on each paragraph before :func:`~occbio.extract.sentence_split.split_sentences`):
asides differ between language editions and get in the way of alignment. Its own module
because the rules for what is an aside and what is part of the sentence are a job of their own.
Pure logic: regular expressions only, no file or network I/O.
"""

from __future__ import annotations

import re

__all__ = ["remove_asides"]

# --------------------------------------------------------------------------------------------
# Asides: parentheses, brackets, footnote marks
# --------------------------------------------------------------------------------------------

#: Innermost parenthesised aside (ASCII or full-width); content has no parenthesis of its own,
#: so repeated substitution peels nested asides from the inside out and an unmatched "(" is
#: never paired with anything: the text after it stays.
_PAREN = re.compile(r" *[(（][^()（）\n]*[)）]")
#: Innermost square-bracketed span (ASCII or full-width), with the character before it.
_BRACKET = re.compile(r"(^|.)[\[［]([^\[\]［］\n]*)[\]］]", re.MULTILINE)
#: Bracket content that is a footnote or maintenance mark rather than part of the sentence:
#: ``[1]``, ``[a]``, ``[iv]``, ``[nota 1]``, ``[note a]``, ``[n. 3]``, ``[sic]``, ``[…]``.
_FOOTNOTE_CONTENT = re.compile(
    r"""^\s*(?:
        \d+[a-z]?                                   # [1] [12b]
      | [A-Za-z]                                    # [a]
      | (?-i:[ivx]{1,5})                            # [iv]
      | [^\W\d_]{1,12}(?:\.\s*|\s+)(?:\d+|[a-z])     # [nota 1] [note a] [n. 3] [Anm. 2]
      | sic!?                                       # [sic]
      | (?:\.\.\.|…)                                # [...]
      | \s*                                         # []
    )\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
#: A bracket glued to the character before it is a footnote mark: ``word[1]``, ``end.[3]``,
#: ``claim[citation needed]``. An editorial insertion stands after a space or an opening quote:
#: ``right up [her] alley``, ``“[He] was``.
_GLUED_BEFORE = re.compile(r"[\w.,;:!?)\]”’»%]")
#: Superscript digits after punctuation are footnote marks (``end.³``); after a letter they are
#: usually units (``km²``) and stay.
_SUPERSCRIPT_NOTE = re.compile(r"(?<=[.,;:!?)\]\"”’»])[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SPACED_WORD = re.compile(r"[^\W_\u3040-\u30ff\u3400-\u9fff\u0e00-\u0e7f]")
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200e\u200f\u2060\ufeff]")
_SPACES = re.compile(r"[^\S\n]+")
_SPACE_BEFORE_PUNCT = re.compile(r" +(?=[,.;:!?)\]）])")
_SPACE_AFTER_OPEN = re.compile(r"(?<=[(\[（]) +")
#: Punctuation left doubled after an aside went: ``born ,,`` / ``Inc..`` / ``, .`` -- but never
#: an ellipsis (``...``).
_DOUBLE_COMMA = re.compile(r",(?:\s*,)+")
_COMMA_BEFORE_STOP = re.compile(r",\s*(?=[.;:!?])")
_DOUBLE_PERIOD = re.compile(r"(?<![.…])\.\s*\.(?![.…])")
_LEADING_PUNCT = re.compile(r"^[,;:]\s*", re.MULTILINE)


def _paren(match: re.Match[str]) -> str:
    # "word(aside)word" must not fuse into one word; a space only between letters or digits of
    # a spaced script (CJK text has no spaces to keep).
    text, start, end = match.string, match.start(), match.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if _SPACED_WORD.match(before) and _SPACED_WORD.match(after):
        return " "
    return ""


def _bracket(match: re.Match[str]) -> str:
    before, content = match.group(1), match.group(2)
    after = match.string[match.end() : match.end() + 1]
    if after.isalpha() and content.isalpha() and not (before and before.isalnum()):
        return before + content  # "[T]he Articles": a letter the quoting author changed
    if _FOOTNOTE_CONTENT.match(content) or (before and _GLUED_BEFORE.match(before)):
        return before
    return before + content  # an editorial insertion is part of the sentence: keep its words


def remove_asides(text: str) -> str:
    """Remove parenthesised asides and footnote marks, then tidy whitespace and punctuation.

    Asides (dates, transliterations, pronunciations) differ between language editions and get
    in the way of alignment, so ``(...)`` and ``（...）`` go with their content, nested ones too.
    Square brackets go when they are footnote marks (``[1]``, ``[a]``, ``[nota 1]``,
    ``word[citation needed]``, ``[sic]``), and so do carets and superscript digits after
    punctuation (``^``, ``end.³``); an editorial insertion inside a quotation
    (``right up [her] alley``) keeps its words and loses only the brackets, so the sentence
    still reads. A bracket never spans a line break, and an opening bracket without its closing
    one is left as it is, so a stray ``(`` cannot swallow the rest of a paragraph.
    Paragraph breaks (``\\n\\n``) and line breaks are kept.
    """
    text = _INVISIBLE.sub("", text)
    text = _SPACES.sub(" ", text).replace("^", "")
    text = _SUPERSCRIPT_NOTE.sub("", text)
    while True:
        new = _BRACKET.sub(_bracket, _PAREN.sub(_paren, text))
        if new == text:
            break
        text = new
    text = _SPACES.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT.sub("", text)
    text = _SPACE_AFTER_OPEN.sub("", text)
    text = _DOUBLE_COMMA.sub(",", text)
    text = _COMMA_BEFORE_STOP.sub("", text)
    text = _DOUBLE_PERIOD.sub(".", text)
    text = _LEADING_PUNCT.sub("", text)
    return "\n".join(line.strip() for line in text.split("\n"))
