"""French: the form of a word, alone: its other-gender form by suffix, elision, adverbs.

:func:`other_gender_form` makes the other-gender form of a word by its suffix (-eur/-euse,
-teur/-trice, -ien/-ienne, -if/-ive, -er/-ère, -é/-ée, a dropped or added `-e` ...), accepted only
when the result is a word of French (wordfreq) about as frequent as the source; it is asked
with its context by the noun-phrase, predicate and subject modules instead of by the engine.
:func:`starts_vowel` says whether an article elides before a word (`l'acteur`, not `le héros`).
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _H_ASPIRE,
    _H_MUET,
    _NO_GUESS,
    _SUFFIXES,
    _VERBLIKE_M,
    _VOWELS,
)


def starts_vowel(word: str) -> bool:
    """Whether an article before ``word`` elides (`l'acteur`, `l'homme`, not `le héros`)."""
    w = word.lower()
    if not w:
        return False
    if w[0] == "h":
        if w.startswith(_H_MUET):
            return True
        return not w.startswith(_H_ASPIRE)
    return w[0] in _VOWELS


def skip_adverbs(low: Sequence[str], k: int) -> int:
    """The first token from ``k`` on that is no adverb (`très`, `brièvement`, `d'abord`)."""
    n = len(low)
    while k < n:
        w = low[k]
        if w in _ADVERBS or (len(w) > 6 and w.endswith("ment")):
            k += 1
        elif w in ("d'", "de") and k + 1 < n and low[k + 1] in ("abord", "ailleurs", "nouveau"):
            k += 2
        else:
            break
    return k


def is_free(s: Sentence, covered: Sequence[bool], out: Plan, i: int) -> bool:
    """Token ``i`` exists and is changed neither by the engine nor by a proposal so far."""
    return 0 <= i < len(s.low) and not covered[i] and i not in out


#: feminine endings whose masculine drops the `-e` (`noire`, `laide`, `restreinte`,
#: `couverte`, `musulmane`, `dure`, `lourde`, `blonde`; `dévote` below), beyond the suffix pairs
_E_DROP = ("ire", "aide", "inte", "erte", "ane", "ure", "urde", "onde")


def other_gender_form(
    d: str, word: str, lex: Lexicon, verbish_ok: bool, trust_seen: bool = True
) -> str | None:
    """The other-gender form of ``word`` by suffix, when it is a French word."""
    verblike = word.endswith(_VERBLIKE_M) and not word.endswith(("ais", "ois"))
    if d == "m2f" and not verbish_ok and verblike:
        return None
    if word in _NO_GUESS:
        return None
    seen = lex.seen.get(word)
    if trust_seen and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
        return None
    z_src = lex.zipf.get(word, 0.0)
    plural = word.endswith(("s", "x"))

    def zipf(cand: str) -> float:
        z = lex.zipf.get(cand, 0.0)
        if not z and plural and cand.endswith("s"):  # a rare plural of a known singular
            z = lex.zipf.get(cand[:-1], 0.0) - 0.3
        return z

    best = None
    for fem, mas in _SUFFIXES:
        src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
        if word.endswith(src) and len(word) > len(src) + 2:
            cand = word[: len(word) - len(src)] + tgt
            z = zipf(cand)
            if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
                best = (z, cand)
        if d == "m2f" and src == "é" and word.endswith("é"):
            break
    short = 2 if verbish_ok and word.endswith(("u", "é")) else 3  # `élu`, `vu`
    if best is None and d == "m2f" and len(word) > short and word[-1] in "tdslnrué":
        cand = word + "e"
        z = lex.zipf.get(cand, 0.0)
        if z >= 2.0 and z >= z_src - 1.5:
            best = (z, cand)
    stem = word[:-1] if word.endswith("es") else word
    general = len(stem) > 5 and stem[-2] in "tdslnr" and stem[-1] == "e"
    # not a noun of both genders (`touriste`) nor a doubled consonant (`princesse`)
    general = general and not stem.endswith(_EPICENE_ENDINGS) and stem[-3] != stem[-2]
    if (
        best is None
        and d == "f2m"
        and (stem.endswith(_E_DROP) or general)
        and word not in _EPICENE
        and zipf(word[:-1]) <= z_src + 1.0
    ):
        # the masculine of a feminine in `-e` / `-es`: `noire`, `laides`, `restreinte`
        cand = word[:-1] if word[-1] == "e" else word[:-2] + "s"
        if cand.endswith(_VERBLIKE_M) and not verbish_ok:
            cand = ""  # `suite` is no `suit`
        z = zipf(cand) if cand else 0.0
        if z >= 2.0 and z >= z_src - 1.5:
            best = (z, cand)
    return best[1] if best else None
