"""Tokenisation shared by the rewriter, the learner and the benchmark.

A sentence is split into word tokens with their character spans; everything between two words
(spaces, punctuation, quotes) is kept verbatim, so a rewrite only touches the words it changes.
In the Romance languages an elided article or preposition keeps its apostrophe (`l'`, `un'`,
`d'`) so that `l'attrice` is the two tokens `l'` + `attrice`.
"""

from __future__ import annotations

import re

_WORD_PLAIN = re.compile(r"\w+", re.UNICODE)
_WORD_ELIDED = re.compile(r"\w+['’]?", re.UNICODE)

# Languages where a word-final apostrophe belongs to the word (elision).
ELIDING = frozenset({"fr", "it", "ca", "pt"})


def word_spans(text: str, lang: str) -> list[tuple[int, int]]:
    """(start, end) of every word token in ``text``."""
    rx = _WORD_ELIDED if lang in ELIDING else _WORD_PLAIN
    return [m.span() for m in rx.finditer(text)]


def words(text: str, lang: str) -> list[str]:
    return [text[a:b] for a, b in word_spans(text, lang)]


def match_case(model: str, word: str) -> str:
    """``word`` (lower case) written in the case pattern of ``model``: He→She, HE→SHE."""
    if not model or not word:
        return word
    letters = [c for c in model if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return word.upper()
    if model[0].isupper():
        return word[0].upper() + word[1:]
    return word
