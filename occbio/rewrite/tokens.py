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


#: A line longer than this (characters) is not one sentence: :func:`pieces` cuts it, so that the
#: rules' whole-sentence passes (quadratic in the words they see) stay cheap on any input.
#: The longest MT-GenEval sentence has 783.
LONG_LINE = 2000

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_SPACE = re.compile(r"\s")


def pieces(text: str, limit: int = LONG_LINE) -> list[tuple[int, int]]:
    """(start, end) of the parts of ``text`` rewritten on their own: the whole text up to
    ``limit`` characters; a longer one is cut after each sentence end (``.!?…`` and a space),
    and a part still longer at the last space before ``limit`` (or the first after it: a run
    of non-space characters is one part). The spaces at a cut belong to no part."""
    if len(text) <= limit:
        return [(0, len(text))]
    gaps = [m.span() for m in _SENTENCE_END.finditer(text)]
    starts = [0, *(end for _, end in gaps)]
    ends = [*(start for start, _ in gaps), len(text)]
    out = []
    for a, b in zip(starts, ends, strict=True):
        while b - a > limit:
            cut = text.rfind(" ", a + 1, a + limit)
            if cut < 0:
                space = _SPACE.search(text, a + limit, b)
                if space is None:
                    break
                cut = space.start()
            out.append((a, cut))
            a = cut + 1
        out.append((a, b))
    return out
