"""Italian: object clitics that refer to the person (``gli consegnò``, ``lo premiò``,
``costringendolo``).

A clitic has no noun beside it to agree with; it changes only before a verb that fits it,
which this module recognises from word lists and endings.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.it_articles import CLOSED
from occbio.rewrite.languages.it_words import (
    _AVERE,
    _FINITE_ENDINGS,
    _NOT_VERBS,
    _PREPOSITIONS,
    _THING_VERBS,
    _VERB_ENDINGS,
    _VERBS,
)

# Only the dative `gli` (to him) → `le`: on the choosing data the accusative `lo`/`la` refers to
# a thing as often as to the person, and `le` before a verb is also `them`.
_CLITIC_M2F = {"gli": "le"}
_CLITIC_F2M = {"le": "gli"}


def _is_verb(s: Sentence, k: int, clitic: str) -> bool:
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in _NOT_VERBS or w in CLOSED:
        return False
    if w in _VERBS:
        return True
    if clitic in ("la", "lo") and w.endswith(("iva", "ano")):
        return False
    return w.endswith(_VERB_ENDINGS) and not w.endswith("i")


def _is_finite(s: Sentence, k: int) -> bool:
    """A finite verb form after an accusative clitic (`lo premiò`, `la aveva ingannata`)."""
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in CLOSED or w in _NOT_VERBS or w in _THING_VERBS:
        return False
    return w in _AVERE or w.endswith(_FINITE_ENDINGS)


def swap_clitics(d: str, s: Sentence, covered: Sequence[bool], out: Plan) -> None:
    """Object clitics before a verb: the dative `gli` ↔ `le` (`gli consegnò` → `le
    consegnò`), the accusative `lo` ↔ `la` before a plain finite verb (`lo premiò`), and
    enclitics on an infinitive or gerund (`costringendolo`, `immergerlo`)."""
    n = len(s.low)
    dative = _CLITIC_M2F if d == "m2f" else _CLITIC_F2M
    acc_src, acc_tgt = ("lo", "la") if d == "m2f" else ("la", "lo")
    for i in range(n):
        if covered[i]:
            continue
        w = s.low[i]
        prev = s.low[i - 1] if i > 0 else ""
        if prev in CLOSED and s.gap_after(i - 1) in (" ", ""):
            continue
        nxt_ok = i + 1 < n and s.gap_after(i) == " "
        if w in dative and nxt_ok and _is_verb(s, i + 1, w):
            out[i] = (1, (dative[w],))
        elif w == acc_src and nxt_ok and prev not in _PREPOSITIONS and _is_finite(s, i + 1):
            out[i] = (1, (acc_tgt,))
        elif len(w) > 6 and not s.toks[i][:1].isupper():
            for end in ("ndolo", "rlo") if d == "m2f" else ("ndola", "rla"):
                if w.endswith(end):
                    out[i] = (1, (w[:-1] + ("a" if d == "m2f" else "o"),))
                    break
