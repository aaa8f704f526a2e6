"""Portuguese object pronouns that stand for the person: proclitic (`que o levou`, `alguns o
verem`) and enclitic (`levou-o`, `conhecê-lo`).

`o`/`a` are also the articles, and a clitic may stand for a thing rather than the person, so
each has its own guard: a proclitic changes only before a verb form (a word whose infinitive is
frequent) and not after an article-taking word; an enclitic is kept when a noun of its gender
stands between it and the person (`a casa ... vendê-la`).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import is_adverb, is_common_noun, is_verb
from occbio.rewrite.languages.pt_words import _ART_BEFORE, _CLITIC_STRONG, _FUNCTION

#: articles of a thing the object clitic may stand for, per direction (source gender)
_RIVAL_ARTS = {
    "m2f": frozenset("o um do no ao pelo num dum este esse aquele seu".split()),
    "f2m": frozenset("a uma da na à pela numa duma esta essa aquela sua".split()),
}


def proclitic_change(d: str, s: Sentence, i: int, lex: Lexicon, covered) -> Plan:
    """A proclitic object pronoun at ``i`` before a verb: `alguns o verem`, `que o levou`."""
    low, toks, n = s.low, s.toks, len(s.low)
    w = low[i]
    if (
        w == ("o" if d == "m2f" else "a") and i < n - 1 and s.gap_after(i) == " "
        and (i == 0 or (low[i - 1] not in _ART_BEFORE
                        and s.gap_after(i - 1) in (" ", ", ", ") ")
                        # after a verb it is the article (`há a garantia`, `disse a verdade`)
                        and not _after_existential(s, i)))
        and low[i + 1] not in _FUNCTION
        and toks[i + 1][:1].islower() and not covered[i + 1]
        and is_verb(low[i + 1], lex, i > 0 and low[i - 1] in _CLITIC_STRONG)
        and not (w == "a" and low[i + 1].endswith(("rem", "r")))  # `a venderem`
        and not _neuter_do(s, i + 1)
    ):  # fmt: skip
        return {i: (1, ("a" if d == "m2f" else "o",))}
    return {}


def _after_existential(s: Sentence, i: int) -> bool:
    """`há a garantia`, `não há ainda a garantia`: after `há` (across adverbs) `a` / `o` is
    the article of the thing there is."""
    k = i - 1
    while k > 0 and is_adverb(s.low[k]) and s.gap_after(k) == " ":
        k -= 1
    return s.low[k] in ("há", "houve", "havia", "haverá", "haveria", "haja")


_FAZER = frozenset(
    "faz fez fazia faria fará fazer fizesse fizera fizeram fazem faziam fazendo".split()
)


def _neuter_do(s: Sentence, v: int, verb: str = "") -> bool:
    """`o faz`, `o fez`, `fazê-lo` without an infinitive after it: `o` is `it` (`e o fez com
    sucesso`), not the person (`o fez rir`). ``v``: the word before the infinitive."""
    low = s.low
    if not verb and low[v] not in _FAZER:
        return False
    nxt = low[v + 1] if v + 1 < len(low) and s.gap_after(v) == " " else ""
    return not (len(nxt) > 3 and nxt.endswith(("ar", "er", "ir", "ôr")))


def enclitic_change(d: str, s: Sentence, i: int) -> Plan:
    """An object clitic at ``i`` after a hyphen: `levou-o`, `conhecê-lo`."""
    if i > 0 and s.gap_after(i - 1) == "-":
        cl = {"o": "a", "lo": "la", "no": "na"} if d == "m2f" else {
            "a": "o", "la": "lo", "na": "no"}  # fmt: skip
        w = s.low[i]
        verb = s.low[i - 1]
        if verb in ("fazê", "fê", "fá", "fazendo", "fez", "faz") and _neuter_do(s, i, verb):
            return {}  # `fazê-lo`: do it
        if w in cl and not _rival_noun_between(d, s, i):
            return {i: (1, (cl[w],))}
    return {}


def _rival_noun_between(d: str, s: Sentence, i: int) -> bool:
    """An unchanged noun of the clitic's gender stands between the person's last changed
    word and the object clitic at ``i``: the clitic may be that thing's (`a casa ...
    vendê-la`)."""
    low, cov = s.low, s.covered
    arts = _RIVAL_ARTS[d]
    k = i - 1
    while k >= 0 and not cov[k]:
        if low[k] in arts and k + 1 < i and not cov[k + 1] and is_common_noun(s, k + 1):
            return True
        k -= 1
    return False
