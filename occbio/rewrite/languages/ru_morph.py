"""Russian: the analyser (pymorphy3) and what the Russian rules ask it."""

from __future__ import annotations

import re
from functools import cache

from occbio.rewrite.languages.base import Plan, Sentence

_HARD = re.compile(r"[.!?;:]")


def m():
    from occbio.rewrite.languages.ru import _morph

    return _morph()


@cache
def parses(word: str):
    an = m()
    return tuple(an.parse(word)) if an is not None else ()


def is_agreeing(word: str, g: str) -> bool:
    """A singular past-tense verb, short adjective or short participle of gender ``g``: by the
    likeliest analysis, or a later one when the likeliest is a place or name (``назван``)."""
    for n, p in enumerate(parses(word)[:3]):
        t = p.tag
        if t.POS == "VERB" and "past" in t and g in t and "sing" in t:
            return True
        if t.POS in ("ADJS", "PRTS") and g in t and "sing" in t:
            return True
        if n == 0 and not ({"Geox", "Name", "Surn", "Abbr"} & t.grammemes):
            return False
    return False


def inflect(word: str, grams: set[str], pos: tuple[str, ...], g_src: str | None = None):
    """``word`` re-inflected into ``grams`` (its first analysis of a part of speech in ``pos``,
    and of gender ``g_src`` when given), or None."""
    an = m()
    if an is None:
        return None
    known = an.word_is_known(word)
    for p in parses(word):
        if p.tag.POS not in pos or (g_src and g_src not in p.tag):
            continue
        q = p.inflect(grams)
        if q is None or q.word == word:
            return None
        new = q.word if "ё" in word else q.word.replace("ё", "е")
        if known and an.word_is_known(new):
            return new
        # a word the dictionary lacks: only the regular endings (``экстрадирован``)
        regular = {(word + "а"), (word[:-2] + "ась" if word.endswith("ся") else "")}
        regular |= {word[:-1], word[:-3] + "ся" if word.endswith("ась") else ""}
        ok = p.tag.POS in ("VERB", "PRTS") and new in regular - {""}
        return new if ok else None
    return None


def changed(plan: Plan, s: Sentence, j: int) -> bool:
    e = plan.get(j)
    return e is not None and e[0] == 1 and len(e[1]) == 1 and e[1][0] != s.low[j]


PROPER = frozenset({"Abbr", "Geox", "Name", "Surn", "Patr", "Orgn", "Trad"})


def nominal(word: str, case: str = "nomn"):
    """Noun or pronoun analyses of ``word`` in ``case``; a common noun's, when its likeliest
    analysis is one (``в`` is not the abbreviation, ``экстрадирован`` not a place)."""
    ps = parses(word)
    if not ps or ps[0].tag.POS not in ("NOUN", "NPRO") or PROPER & ps[0].tag.grammemes:
        return []
    return [
        p
        for p in ps
        if p.tag.POS in ("NOUN", "NPRO") and case in p.tag and not (PROPER & p.tag.grammemes)
    ]


def is_name(s: Sentence, j: int) -> bool:
    """Capitalised inside the sentence, or at its start and a first name, surname or
    patronymic or a word the analyser does not know."""
    if not s.toks[j][:1].isupper():
        return False
    an = m()
    if an is None or not an.word_is_known(s.low[j]):
        return True
    top = parses(s.low[j])[:3]
    if any({"Name", "Surn", "Patr"} & p.tag.grammemes for p in top):
        return True
    # inside the sentence, unless only a thing (``Палата общин``)
    inner = j > 0 and not _HARD.search(s.gap_after(j - 1))
    return inner and any("anim" in p.tag or p.tag.POS not in ("NOUN", "ADJF") for p in top)
