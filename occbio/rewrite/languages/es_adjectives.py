"""Spanish: adjectives that agree with a changed person noun before them.

``hermanos pequeños`` → ``hermanas pequeñas``, ``una mujer muy culta y sencilla``: an adjective
right after a changed noun agrees with it, in number too and across ``más``/``muy``/``no`` and
invariable adjectives (:func:`adjectives_after_noun`). Words of gender themselves (``masculino``
↔ ``femenino``, ``paterno`` ↔ ``materno``) swap their stem and take the ending of a changed noun
before them, or keep their own (:func:`gender_words`). The forms come from ``es_predicates``;
``free``/``changed``/``put`` are the rewriter's live view of the sentence, as there.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.es_predicates import Morph, Put, demonyms
from occbio.rewrite.languages.es_subject import Check
from occbio.rewrite.languages.es_words import (
    _GENDER_STEMS,
    _GENDER_WORD,
    _MODS,
    _NO_GUESS,
    _NOT_PARTICIPLE,
    _invariable_adj,
    _is_common,
)

#: changed words that are not nouns: an adjective after them agrees with something else
_NOT_ANCHOR = frozenset(
    {"el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al", "lo", "le", "él",
     "ella", "este", "esta", "ese", "esa", "aquel", "aquella", "estos", "estas", "esos", "esas",
     "uno", "mismo", "misma", "sí"}
)  # fmt: skip

#: words between a changed noun and its adjective (`una mujer muy culta`)
_POST_BRIDGE = frozenset({"más", "muy", "tan", "menos", "bastante", "no", "poco", "sumamente"})
#: source endings of an adjective after a noun, per direction and number
_POST_SG = {"m2f": ("o", "és", "ol"), "f2m": ("a", "esa", "ola")}
_POST_PL = {"m2f": ("os", "eses", "oles"), "f2m": ("as", "esas", "olas")}
_PART_F = ("ada", "ida", "adas", "idas")


def _post_form(d: str, w: str, lex: Lexicon, morph: Morph) -> str | None:
    """The other-gender form of an adjective that follows a changed noun (the noun decides,
    whatever the data says about the word elsewhere)."""
    if w in _NO_GUESS or w in _NOT_PARTICIPLE or not w.isalpha():
        return None
    z_src = lex.zipf.get(w, 0.0)
    best = None
    for cand in morph(d, w) + demonyms(d, w):
        z = lex.zipf.get(cand, 0.0)
        if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
            best = (z, cand)
    if best:
        return best[1]
    cands = morph(d, w)
    if not cands:
        return None
    if d == "m2f" and z_src < 3.0 and w.endswith(("o", "os")):
        return cands[-1]  # a rare adjective: its feminine is regular (`monomaníaca`)
    if d == "f2m" and w.endswith(_PART_F) and z_src < 3.0:
        return cands[-1]
    return None


def adjectives_after_noun(
    d: str,
    s: Sentence,
    plan: Plan,
    free: Check,
    changed: Check,
    put: Put,
    lex: Lexicon,
    morph: Morph,
    skip: frozenset[str],
) -> None:
    """An adjective right after a changed person noun agrees with it, across `más`/`muy`/`no`
    and invariable adjectives (`una mujer joven vestida`), in number too (`hermanos pequeños`
    → `hermanas pequeñas`); a second adjective after `y` agrees with the first."""
    low, toks = s.low, s.toks
    n = len(low)
    for st in sorted(plan):
        ln, tgt = plan[st]
        i = st + ln - 1
        if ln != 1 or len(tgt) != 1 or not changed(i) or low[i] in skip:
            continue
        if not toks[i].isalpha() or not tgt[0].isalpha():
            continue
        plural = low[i].endswith("s") and tgt[0].endswith("s")
        ends = _POST_PL[d] if plural else _POST_SG[d]
        k = i + 1
        while k < n and s.joined(k - 1) and k - i <= 3:
            w = low[k]
            if w in _POST_BRIDGE or w in _MODS or (_invariable_adj(w) and not _is_common(w)):
                k += 1
                continue
            break
        while k < n and s.joined(k - 1):
            w = low[k]
            if not free(k):
                # agreed already (`tímida y reservada`): go on after its `y`
                if not changed(k) or not (k + 2 < n and low[k + 1] in ("y", "e")):
                    break
                if not (s.joined(k) and s.joined(k + 1)):
                    break
                k += 2
                continue
            if not toks[k].islower() or not w.endswith(ends) or _GENDER_WORD.match(w):
                break  # `paterno` ↔ `materno`: a word of gender, agreed on its own
            if d == "f2m" and not w.endswith(("as", *_PART_F)) and lex.zipf.get(w + "n", 0) >= 2.0:
                break  # `la reina gobierna`: a verb
            g = _post_form(d, w, lex, morph)
            if g is None:
                break
            put(k, g)
            # `culta y sencilla`: a second adjective after `y`
            if k + 2 < n and s.joined(k) and low[k + 1] in ("y", "e") and s.joined(k + 1):
                k += 2
                continue
            break


def name_adjectives(
    d: str,
    s: Sentence,
    plan: Plan,
    free: Check,
    changed: Check,
    put: Put,
    lex: Lexicon,
    morph: Morph,
) -> None:
    """Inside a name, a capitalised adjective right after a changed capitalised noun agrees
    with it (`un Hombre Dorado` → `una Mujer Dorada`); the name's other words stay."""
    toks, low = s.toks, s.low
    for k in sorted(plan):
        i = k + 1
        if plan[k][0] != 1 or not changed(k) or i >= len(low) or not free(i):
            continue
        if not toks[k][:1].isupper() or not toks[i][:1].isupper() or not s.joined(k):
            continue
        if not toks[i][1:].islower() or low[i] in _NO_GUESS:
            continue
        z_src = lex.zipf.get(low[i], 0.0)
        for cand in morph(d, low[i]):
            if lex.zipf.get(cand, 0.0) >= max(2.0, z_src - 1.0):
                put(i, cand)
                break


def gender_words(d: str, s: Sentence, covered: Sequence[bool], free: Check, put: Put) -> None:
    """Words of gender itself: `masculino` ↔ `femenino`, `paterno` ↔ `materno`; the ending
    agrees with a changed noun before it (`protagonista masculino` → `protagonista femenina`)
    and is kept otherwise (`maratón masculino` → `maratón femenino`)."""
    low = s.low
    n = len(low)
    f2m = d == "f2m"
    for i in range(n):
        m = _GENDER_WORD.match(low[i])
        if m is None or not free(i) or not s.toks[i].isalpha():
            continue
        stem, end = m.group(1), m.group(2)
        swap = _GENDER_STEMS[d].get(stem)
        if swap is None:
            continue
        # the noun it describes, right before it or one word earlier (`actor revelación
        # masculino`): a changed word or a person noun of common gender
        noun = False
        for k in (i - 1, i - 2):
            if k < 0 or not all(s.joined(x) for x in range(k, i)):
                break
            if covered[k] or _is_common(low[k]):
                noun = True
                break
        if noun:
            plural = end.endswith("s")
            end = ("os" if plural else "o") if f2m else ("as" if plural else "a")
        put(i, swap + end)
