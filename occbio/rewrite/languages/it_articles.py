"""Italian determiners: the forms of articles, articulated prepositions and determiner-like
words, and their agreement with the next word when it changed.

Articles (``il``/``lo``/``l'``/``la``, ``un``/``uno``/``una``/``un'``), articulated prepositions
(``del``/``dello``/``dell'``/``della``...), ``quel``/``questo``/``nessun``/``ciascun`` agree with
the next word when it changed: their gender follows the direction, their number their own
form, and their shape the first sounds of the new next word (``lo``/``gli``/``uno`` before
s + consonant, z, gn, ps, pn, x, y; elision before a vowel or h). Its own module because every
other Italian rule asks it what is a determiner (:data:`CLOSED`) and how one agrees.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.it_words import (
    _DEMONSTRATIVES,
    _INVARIANT_ADJ,
    _LEXICAL_GENDER,
    _NUMBERS,
    _PLAIN_ARTICLES,
    _PRON_NEXT,
    _VOWELS,
)

# Each determiner family: cells (gender, number, sound) -> form. Sounds: C consonant,
# S "impure" (s + consonant, z, gn, ps, pn, x, y), V vowel or h.
DEFINITE = {
    ("m", "sg", "C"): "il",
    ("m", "sg", "S"): "lo",
    ("m", "sg", "V"): "l'",
    ("m", "pl", "C"): "i",
    ("m", "pl", "S"): "gli",
    ("m", "pl", "V"): "gli",
    ("f", "sg", "C"): "la",
    ("f", "sg", "S"): "la",
    ("f", "sg", "V"): "l'",
    ("f", "pl", "C"): "le",
    ("f", "pl", "S"): "le",
    ("f", "pl", "V"): "le",
}


def _articulated(prefix: str) -> dict[tuple[str, str, str], str]:
    """Articulated preposition: ``de`` + ``l`` → ``del``, ``dello``, ``dell'``, ``dei``..."""
    out = {}
    for cell, art in DEFINITE.items():
        if art == "il":
            out[cell] = prefix + "l"
        elif art in ("i", "gli"):
            out[cell] = prefix + art
        else:
            out[cell] = prefix + "l" + art
    return out


def _family(m_c, m_s, m_v, m_pl_c, m_pl_v, f_c, f_v, f_pl):
    return {
        ("m", "sg", "C"): m_c,
        ("m", "sg", "S"): m_s,
        ("m", "sg", "V"): m_v,
        ("m", "pl", "C"): m_pl_c,
        ("m", "pl", "S"): m_pl_v,
        ("m", "pl", "V"): m_pl_v,
        ("f", "sg", "C"): f_c,
        ("f", "sg", "S"): f_c,
        ("f", "sg", "V"): f_v,
        ("f", "pl", "C"): f_pl,
        ("f", "pl", "S"): f_pl,
        ("f", "pl", "V"): f_pl,
    }


FAMILIES: list[dict[tuple[str, str, str], str]] = [
    DEFINITE,
    _articulated("de"),
    _articulated("a"),
    _articulated("da"),
    _articulated("ne"),
    _articulated("su"),
    # indefinite: no plural of its own (the partitive is ``dei``/``delle``)
    {k: v for k, v in _family("un", "uno", "un", "", "", "una", "un'", "").items() if k[1] == "sg"},
    _family("quel", "quello", "quell'", "quei", "quegli", "quella", "quell'", "quelle"),
    _family("questo", "questo", "quest'", "questi", "questi", "questa", "quest'", "queste"),
    {
        k: v
        for k, v in _family("nessun", "nessuno", "nessun", "", "", "nessuna", "nessun'", "").items()
        if k[1] == "sg"
    },
    {
        k: v
        for k, v in _family(
            "ciascun", "ciascuno", "ciascun", "", "", "ciascuna", "ciascun'", ""
        ).items()
        if k[1] == "sg"
    },
]

#: form -> [(family index, gender or None when ambiguous, number)]
FORMS: dict[str, list[tuple[int, str | None, str]]] = {}
for _k, _fam in enumerate(FAMILIES):
    _cells: dict[str, set[tuple[str, str]]] = {}
    for (_g, _n, _s), _w in _fam.items():
        _cells.setdefault(_w, set()).add((_g, _n))
    for _w, _gn in _cells.items():
        _genders = {g for g, _ in _gn}
        _numbers = {n for _, n in _gn}
        if len(_numbers) == 1:
            FORMS.setdefault(_w, []).append(
                (_k, next(iter(_genders)) if len(_genders) == 1 else None, next(iter(_numbers)))
            )


def onset_sound(word: str) -> str:
    """The sound class of the start of ``word``: C consonant, S impure, V vowel or h."""
    w = word.lower()
    if not w or not w[0].isalpha():
        return "C"
    if w[0] in _VOWELS:
        return "V"
    if w[0] in "zxy" or w.startswith(("gn", "ps", "pn")):
        return "S"
    if w[0] == "s" and len(w) > 1 and w[1].isalpha() and w[1] not in _VOWELS:
        return "S"
    return "C"


def agree_determiner(det: str, gender: str, next_word: str) -> str | None:
    """The form of determiner ``det`` for ``gender`` before ``next_word``."""
    entries = FORMS.get(det)
    if not entries:
        return None
    fam_i, _, number = entries[0]
    return FAMILIES[fam_i].get((gender, number, onset_sound(next_word))) or None


#: every determiner form: the closed class the other rules stop at
CLOSED = frozenset(FORMS) | {w.replace("'", "’") for w in FORMS if w.endswith("'")}

#: articulated prepositions (`del`, `nella`, `agli`...)
ART_PREPS = frozenset(
    w for w in CLOSED if w not in _PLAIN_ARTICLES and w not in _DEMONSTRATIVES
    and w[:2] in ("de", "al", "ag", "ai", "da", "ne", "su") and not w.startswith("nes")
)  # fmt: skip

#: the pronoun forms of a determiner family, used before ``di``/``tra`` or another determiner
#: (``uno dei primi``, ``quella della sua città``)
_PRONOUN = {
    "un": "uno",
    "nessun": "nessuno",
    "ciascun": "ciascuno",
    "quel": "quello",
    "quei": "quelli",
    "quegli": "quelli",
    "quell'": "quello",
    "quest'": "questo",
    "un'": "una",
    "nessun'": "nessuna",
    "ciascun'": "ciascuna",
}
_PRON_FEM = {"quell'": "quella", "quest'": "questa"}


def _invariant(s: Sentence, k: int, plural: bool) -> bool:
    """A word that does not change with gender between a determiner and its noun."""
    w = s.low[k]
    if w in _NUMBERS or w.isdigit():
        return plural  # `dei due principi`, not `nel 1628 lui`
    if len(w) > 5 and w.endswith(("ante", "ente", "ale", "ile", "ese")) and not plural:
        return True  # an adjective of one form before the noun: `un importante maestro`
    return w in ("loro", "più", "meno") or w in _INVARIANT_ADJ


def _determiner_form(src: str, gender: str, first: str) -> str | None:
    """The form of ``src`` for ``gender`` before the word ``first``, or its pronoun form."""
    if first in CLOSED or first in _PRON_NEXT:  # a pronoun: `uno dei primi`
        new = agree_determiner(src, gender, "x" if src in ("un", "uno", "un'", "una") else "c")
        if new:
            new = (_PRON_FEM if gender == "f" else _PRONOUN).get(new, new)
        return new
    return agree_determiner(src, gender, first)


def agree_determiners(d: str, s: Sentence, covered: Sequence[bool], plan: Plan, out: Plan) -> None:
    """Determiners before a word the plan changed take its gender and its first sounds."""
    gender = "m" if d == "f2m" else "f"
    n = len(s.low)
    for i in range(n - 1):
        src = s.low[i].replace("’", "'")
        if covered[i] or src not in CLOSED:
            continue
        # the changed word this determiner agrees with, maybe past invariant words
        # (`il loro coordinatore`, `dei due principi`, `il giovane attore`)
        k = i + 1
        plural = FORMS[src][0][2] == "pl"
        while k < n and k not in plan and k - i <= 2 and _invariant(s, k, plural):
            if s.gap_after(k - 1) != " " and not s.low[k - 1].endswith("'"):
                break
            k += 1
        if k not in plan:
            continue
        ln, tgt = plan[k]
        if s.low[k] in _LEXICAL_GENDER:
            continue  # `al maschile` → `al femminile`: the article agrees with a noun left out
        same = " ".join(tgt).lower() == " ".join(s.low[k : k + ln])
        if same and k not in s.notes.get("person", ()):
            continue
        if k > i + 1 and (s.low[k] in CLOSED or tgt[0].lower() in CLOSED):
            continue
        if any(s.gap_after(j) not in (" ", "") for j in range(i, k)):
            continue
        # an elided determiner is glued to its word; a plain one needs a single space
        gap = s.gap_after(i)
        if src.endswith("'"):
            if gap != "":
                continue
        elif gap != " ":
            continue
        first = tgt[0].lower() if k == i + 1 else s.low[i + 1]
        new = _determiner_form(src, gender, first)
        if new and new != src:
            if "’" in s.low[i]:
                new = new.replace("'", "’")
            out[i] = (1, (new,))


def target_gender_before(d: str, s: Sentence, i: int) -> bool:
    """The determiner right before word ``i`` already has the target gender (`delle
    cameriere`, `un signore`): the word is not of the source gender, whatever it looks like
    (`cameriere` is a waiter or waitresses, `signore` a lord or ladies)."""
    if i == 0 or not s.joined(i - 1) or s.covered[i - 1] or s.low[i] in _LEXICAL_GENDER:
        return False
    entries = FORMS.get(s.low[i - 1].replace("’", "'"))
    if not entries or entries[0][1] is None:
        return False
    return entries[0][1] == ("m" if d == "f2m" else "f")
