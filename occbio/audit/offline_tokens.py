"""Tokens of a Spanish or Catalan/Valencian sentence for the offline person-reference labeller.

:func:`tokenize` splits a sentence into words (``l'`` and ``d'`` apart, ``l·l`` and hyphens
inside), numbers and punctuation; each :class:`Token` also carries what the rules of
:class:`~occbio.audit.offline.OfflineBackend` decide about it (role, noun, person, gender). Kept
apart from the rules (:mod:`occbio.audit.offline`) and the word lists
(:mod:`occbio.audit.offline_wordlists`), which both tokenise with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from occbio.audit.person_refs import Gender

__all__ = ["Token", "tokenize"]


# ---------------------------------------------------------------------------------------------
# Tokens

_ABBR = r"(?:Sr|Sra|Srta|Sres|Sras|Srs|Dr|Dra|Excmo|Excma|Excm|Hble|Mr|Mrs|Ms|D|Dña)\."
_TOKEN_RE = re.compile(
    rf"(?P<abbr>(?<!\w){_ABBR})"
    r"|(?P<elided>(?<!\w)[lLdDsSmMtTnN]['’](?=\w))"
    r"|(?P<clitic>(?<=\w)['’](?:ls|ns|s|n|l|m|t)\b)"
    r"|(?P<word>[^\W\d_]+(?:[·\-][^\W\d_]+)*)"
    r"|(?P<num>\d+(?:[.,:]\d+)*)"
    r"|(?P<punct>[^\w\s])"
)
#: Punctuation after which a capital letter starts a sentence, not a name.
_OPENERS = frozenset('.:;!?¿¡"«“(—-')


@dataclass
class Token:
    """One token of a sentence and what the rules decided about it."""

    text: str
    kind: str  # abbr, elided, clitic, word, num, punct
    start: bool = False  # begins the sentence (a capital letter here says nothing)
    role: str = ""  # det, prep, pron, func, title, open, break
    det_gender: Gender | None = None
    noun: bool = False
    adjective: bool = False
    person: bool = False
    gender: Gender | None = None
    skip: bool = False  # a surname: not labelled

    @property
    def low(self) -> str:
        return self.text.lower().replace("’", "'")

    @property
    def capital(self) -> bool:
        return self.text[:1].isupper()

    @property
    def acronym(self) -> bool:
        return len(self.text) > 1 and self.text.isupper()


def tokenize(sentence: str) -> list[Token]:
    """Words (``l'`` and ``d'`` apart, ``l·l`` and hyphens inside), numbers, punctuation."""
    tokens: list[Token] = []
    start = True
    for match in _TOKEN_RE.finditer(sentence):
        kind = match.lastgroup or "punct"
        tok = Token(match.group(), kind, start=start and kind != "punct")
        tokens.append(tok)
        start = (start or tok.text in _OPENERS) if kind == "punct" else False
    return tokens
