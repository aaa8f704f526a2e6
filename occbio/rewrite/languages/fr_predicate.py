"""French: noun phrases that are predicates of the person, and agree with the person.

`il est un acteur célèbre` → `elle est une actrice célèbre` (:func:`agree_predicate_np`), `l'un
des premiers chimistes` → `l'une des premières chimistes` (:func:`agree_one_of`), and the noun
phrase named by a participle of the person, `fut élu le joueur de l'année` → `fut élue la
joueuse de l'année` (:func:`agree_named_np`). Who the subject is (and so whether the predicate
is the person's) is decided in ``fr_subject``; the word forms come from ``fr_forms``.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.fr_forms import other_gender_form
from occbio.rewrite.languages.fr_lead import PERSON_F2M, PERSON_M2F
from occbio.rewrite.languages.fr_words import (
    _CLITIC_BETWEEN,
    _DET_F2M,
    _DET_M2F,
    _DETS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _NUMBERS,
    _ONE_GENDER,
    _PRE_F2M,
    _PRE_M2F,
    _PREP,
)


def agree_one_of(
    d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """`l'une des premières conservationnistes`: the plural noun phrase from ``k`` after a
    changed `l'un des`, when its noun is of both genders or takes the other form."""
    low, toks = s.low, s.toks
    n = len(low)
    if k < n and low[k] in ("ses", "ces", "nos", "leurs", "mes") and low[k - 1] in ("de", "d'"):
        k += 1
    while k < n and (low[k].isdigit() or low[k] in _NUMBERS):
        k += 1
    pre = _PRE_F2M if d == "f2m" else _PRE_M2F
    changes: dict[int, str] = {}
    superlative = False  # `plus`/`moins` waiting for its adjective
    while k < n and (low[k] in pre or low[k] in ("plus", "moins")) and s.gap_after(k - 1) == " ":
        if low[k] in pre:
            f = pre[low[k]]
            changes[k] = f[0] if isinstance(f, tuple) else f
        superlative = low[k] in ("plus", "moins")  # `l'un des plus grands peintres`
        k += 1
    if k >= n or s.gap_after(k - 1) != " " or not toks[k].islower() or not low[k].endswith("s"):
        return
    if superlative and k + 1 < n and s.gap_after(k) == " ":
        # an adjective before the noun: `des plus célèbres chanteurs`
        adj = low[k]
        g = other_gender_form(d, adj, lex, verbish_ok=False, trust_seen=False)
        if g is None and not (adj.endswith("es") and lex.zipf.get(adj, 0.0) >= 2.0):
            return
        if g is not None:
            changes[k] = g
        k += 1
        if not toks[k].islower() or not low[k].endswith("s"):
            return
    guess = other_gender_form(d, low[k], lex, verbish_ok=False, trust_seen=False)
    if guess is not None:
        changes[k] = guess
    elif not (low[k][:-1] in _EPICENE or low[k][:-1].endswith(_EPICENE_ENDINGS)):
        return
    for j, w in changes.items():
        if j not in out and not covered[j] and w != low[j]:
            out[j] = (1, (w,))


def agree_predicate_np(
    d: str, k: int, s: Sentence, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """`il est un acteur célèbre` → `elle est une actrice célèbre`: the determiner at ``k``
    and the words of its noun phrase (even an epicene noun: `une fan invétérée`)."""
    low, toks = s.low, s.toks
    n = len(low)
    words = []
    j = k + 1
    while j < n and len(words) < 4 and s.gap_after(j - 1) in (" ", "-"):
        w = low[j]
        if w in _DETS or w in _PREP or w in _CLITIC_BETWEEN or toks[j][:1].isupper():
            break
        if not w.isalpha():
            break
        words.append(j)
        j += 1
        if s.gap_after(j - 1) not in (" ", "-"):
            break
    if not words or low[words[0]] in ("des", "de", "d'"):
        return
    if low[k] in ("un", "une") and words and low[words[0]] in ("de", "des", "d'"):
        return
    changes = {}
    pre = _PRE_F2M if d == "f2m" else _PRE_M2F
    head = True
    for j in words:
        w = low[j]
        if w in pre:
            f = pre[w]
            changes[j] = f[0] if isinstance(f, tuple) else f
            continue
        if covered[j] or j in out:
            head = False
            continue
        if head and w in _ONE_GENDER:
            return  # `une personne discrète`, `le symbole de`: the noun keeps its gender
        g = other_gender_form(d, w, lex, verbish_ok=True)
        epicene = w in _EPICENE or w.endswith(_EPICENE_ENDINGS)
        if g is not None:
            changes[j] = g
        elif head and not epicene and not w.endswith(("e", "s")):
            return  # a noun of one gender (`le mec`): leave the phrase alone
        elif not epicene and lex.zipf.get(w, 0.0) < 2.0:
            return  # an unknown word
        head = False
    if low[k] not in ("un", "une", "le", "la") or k in out or covered[k]:
        return
    table = _DET_F2M if d == "f2m" else _DET_M2F
    if low[k] in table:
        out[k] = (1, (table[low[k]],))
    for j, g in changes.items():
        out[j] = (1, (g,))


def agree_named_np(
    d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """The noun phrase at ``k`` named by a participle of the person (`élue la joueuse`)."""
    low, toks = s.low, s.toks
    n = len(low)
    person = PERSON_M2F if d == "m2f" else PERSON_F2M
    if low[k] in ("un", "une", "le", "la"):
        h = k + 1
        pre = _PRE_M2F if d == "m2f" else _PRE_F2M
        while (
            h < n
            and (low[h] in pre or low[h] in ("plus", "moins"))
            and (s.gap_after(h - 1) in (" ", "-"))
        ):  # `le plus jeune joueur`
            h += 1
        if h >= n:
            return
        head = low[h]
        if (
            toks[h].isalpha()
            and toks[h].islower()
            and not (
                head in person
                or head in _EPICENE
                or head.endswith(_EPICENE_ENDINGS)
                or other_gender_form(d, head, lex, verbish_ok=False, trust_seen=False)
            )
        ):
            return  # `nommée la même année`: no person
        agree_predicate_np(d, k, s, covered, out, lex)
        return
    j = k + 1
    if low[k] not in ("l'", "l’") or j >= n or s.gap_after(k) != "" or not toks[j].islower():
        return
    if covered[j] or j in out:
        return
    guess = person.get(low[j]) or other_gender_form(d, low[j], lex, verbish_ok=False)
    if guess is not None and guess != low[j]:
        out[j] = (1, (guess,))
