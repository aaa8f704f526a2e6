"""French: who the subject of a clause is, and the predicates that agree with it.

A participle or adjective after a copula agrees with the subject (``elle est devenue
célèbre``), across adverbs (``fut bientôt très demandée``) and coordinations (``calme,
curieuse et active``), but only when that subject is the person: a changed pronoun, a name,
``lui-même``, a left-out subject (``... et fut acceptée``), the subject of an infinitive
(``d'être nommée``), an opening participle (``Née à Lyon, elle``) or a role (``en tant que
serveuse``). It must not agree when the subject is a thing (``le lieu est devenu``) or after
``avoir`` (``il a nommé``); ``fr_things`` takes those back from the plan.
Finding the subject is this module's job; the word forms come from ``fr_forms``, the
predicate noun phrases from ``fr_predicate``.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.fr_forms import is_free, other_gender_form, skip_adverbs
from occbio.rewrite.languages.fr_predicate import agree_named_np, agree_one_of, agree_predicate_np
from occbio.rewrite.languages.fr_words import (
    _AGENT_F,
    _AGENT_M,
    _AUX_ETRE,
    _AVOIR,
    _CLITIC_BETWEEN,
    _COPULA,
    _DETS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _INF_COPULA,
    _NAMING,
    _NOT_PARTICIPLE,
    _PARTICIPLE,
    _POSSESSIVE,
    _PRE_F2M,
    _PRE_M2F,
    _PREP,
    _REFLEXIVE_DATIVE,
    _SUBJECT_WORDS,
)


def agree_roles(d: str, s: Sentence, covered: Sequence[bool], out: Plan, lex: Lexicon) -> None:
    """A role after `en tant que`, `comme`: `en tant que serveuse`."""
    low, toks = s.low, s.toks
    n = len(low)
    for i in range(1, n - 1):
        as_role = low[i] in ("que", "qu'") and low[i - 1] == "tant" and low[i - 2 : i - 1] == ["en"]
        if not as_role and low[i] != "comme":
            continue
        k = i + 1
        if (
            not is_free(s, covered, out, k)
            or not toks[k].islower()
            or s.gap_after(i) not in (" ", "")
        ):
            continue
        w = low[k]
        if w in _DETS or w in _PREP or (not as_role and not w.endswith(_AGENT_M + _AGENT_F)):
            continue
        guess = other_gender_form(d, w, lex, verbish_ok=as_role, trust_seen=False)
        if guess is not None:
            out[k] = (1, (guess,))
        elif w in _EPICENE or w.endswith(_EPICENE_ENDINGS):
            out[k] = (1, (w,))  # the person, of both genders: its adjectives agree


def agree_opening_participle(
    d: str, s: Sentence, covered: Sequence[bool], changed_pron: set[int], out: Plan, lex: Lexicon
) -> None:
    """An opening participle: `Né à Lisbonne, il étudia` → `Née à Lisbonne, elle`."""
    low, toks = s.low, s.toks
    n = len(low)
    k = 0
    if low[:2] == ["ayant", "été"] or low[:3] == ["après", "avoir", "été"]:
        k = low.index("été") + 1
    if k < n and is_free(s, covered, out, k) and toks[k][:1].isupper() == (k == 0) and changed_pron:
        c = next((j for j in range(k, n - 1) if s.gap_after(j).strip() == ","), -1)
        if c > k and (c + 1) in changed_pron and low[k].endswith(_PARTICIPLE):
            guess = other_gender_form(d, low[k], lex, verbish_ok=True, trust_seen=False)
            if guess is not None:
                out[k] = (1, (guess,))


def agree_predicates(
    d: str,
    s: Sentence,
    covered: Sequence[bool],
    plan: Plan,
    changed_pron: set[int],
    nominal: Sequence[int],
    out: Plan,
    lex: Lexicon,
) -> None:
    """Predicates after a copula whose subject is the person: a changed pronoun or noun,
    `lui-même`, a left-out subject, or a name."""
    low = s.low
    n = len(low)
    gap = s.gap_after
    subjects = sorted(
        i for i, (ln, t) in plan.items()
        if ln == 1 and ((i in changed_pron and t[0] in ("il", "elle")) or i in nominal)
    )  # fmt: skip
    starts: list[tuple[int, bool, bool]] = []  # (copula, reflexive, subject is a pronoun)
    for i in subjects:
        k = i + 1
        if low[k : k + 1] == ["qui"] and gap(i) == " " and i not in changed_pron:
            k += 1  # a relative clause on the noun: `le baron qui fut nommé`
            i = k - 1
        reflexive = False
        while k < n and low[k] in _CLITIC_BETWEEN:
            reflexive = reflexive or low[k] in ("se", "s'")
            k += 1
        if k >= n or (i not in changed_pron and k > i + 1):
            continue
        if i not in changed_pron and _in_complement(s, i):
            continue  # `la maisonnée de la reine était gérée`: not the subject
        opening = i not in changed_pron and _opens_sentence(s, i)
        starts.append((k, reflexive, i in changed_pron or opening))
    for i in plan:  # `Goldfaden lui-même était un mauvais chanteur`
        emphatic = low[i] in ("lui", "elle") and low[i + 1 : i + 2] == ["même"]
        if emphatic and gap(i) == "-" and (i == 0 or gap(i - 1) == " "):
            starts.append((i + 2, False, True))
    starts += _elided_subjects(s, changed_pron)
    if d == "f2m" or changed_pron:
        # a feminine predicate after a name shows a woman, most likely the person; a masculine
        # one shows nothing unless the person's pronouns are there too (the name may be
        # anyone's: `Chequers n'est pas apprécié`)
        starts += _name_subjects(s, lex)
    for k, reflexive, pron in starts:
        _agree_predicate(d, s, k, reflexive, pron, covered, out, lex)


def _agree_predicate(
    d: str,
    s: Sentence,
    k: int,
    reflexive: bool,
    pron: bool,
    covered: Sequence[bool],
    out: Plan,
    lex: Lexicon,
) -> None:
    """The predicate of the copula at ``k`` whose subject is the person: `est devenue
    célèbre`, `a même été nommée`, `s'est retrouvée seule`, `était calme, agitée et active`."""
    low, toks = s.low, s.toks
    n = len(low)
    if k >= n:
        return
    if low[k] in _AUX_ETRE or low[k] == "avoir":
        k = skip_adverbs(low, k + 1)
        if k >= n or low[k] != "été":
            return
        k += 1
    elif low[k] in _COPULA or low[k] in _INF_COPULA:
        k += 1
    else:
        return
    k = skip_adverbs(low, k)
    if k + 2 < n and low[k] in ("lui", "elle") and s.gap_after(k) == "-" and low[k + 1] == "même":
        k = skip_adverbs(low, k + 2)  # `s'est lui-même comporté`
    if k >= n or s.gap_after(k - 1) != " ":
        return
    w = low[k]
    nxt = low[k + 1] if k + 1 < n else ""
    if w == "fait" or (reflexive and w in _REFLEXIVE_DATIVE):
        return
    if reflexive and w == "rendu" and nxt == "compte":
        return
    if w == "l'" and nxt in ("un", "une"):
        free_one = k + 1 not in out and not covered[k + 1]
        if free_one and low[k + 2 : k + 3] and low[k + 2] in ("des", "de", "d'"):
            out[k + 1] = (1, ("un" if d == "f2m" else "une",))
            agree_one_of(d, s, k + 3, covered, out, lex)
        return
    if w in ("un", "une", "le", "la") and k + 1 < n:
        agree_predicate_np(d, k, s, covered, out, lex)
        return
    if w in _NAMING and k + 2 < n and s.gap_after(k) == " ":
        # `fut élu le joueur le plus populaire`, `a été nommé l'entraîneur du club`
        if not covered[k] and k not in out:
            guess = other_gender_form(d, w, lex, verbish_ok=True, trust_seen=False)
            if guess is not None:
                out[k] = (1, (guess,))
        agree_named_np(d, s, k + 1, covered, out, lex)
        return
    if covered[k] and w.endswith(_PARTICIPLE) and toks[k].islower():
        _agree_participle_after_et(d, s, k, covered, out, lex)
    if covered[k] or k in out or toks[k][:1].isupper():
        return

    def same_form(w: str) -> bool:  # an adjective of both genders: `calme`, `sceptique`
        return w.endswith("e") and not w.endswith("ée") and lex.zipf.get(w, 0.0) >= 2.0

    guess = other_gender_form(d, w, lex, verbish_ok=True, trust_seen=not pron)
    if guess is not None:
        out[k] = (1, (guess,))
        if w.endswith(_PARTICIPLE):
            _agree_participle_after_et(d, s, k, covered, out, lex)
    elif not same_form(w) or s.gap_after(k) not in (", ", " "):
        return
    # coordinated predicates: `calme, agitée et active`
    steps = 0
    while steps < 3:
        g = s.gap_after(k)
        j = k + 1
        if j < n and g == " " and low[j] in ("et", "ou"):
            j += 1
        elif g != ", ":
            break
        j = skip_adverbs(low, j)
        if j >= n or (j > k + 1 and s.gap_after(j - 1) != " ") or covered[j] or j in out:
            break
        if toks[j][:1].isupper() or len(low[j]) < 3:
            break
        guess = other_gender_form(d, low[j], lex, verbish_ok=True)
        if guess is not None:
            out[j] = (1, (guess,))
        elif not same_form(low[j]):
            break
        k = j
        steps += 1


def _agree_participle_after_et(
    d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """A participle after `et` that shares the auxiliary of the person's participle at ``k``:
    `a été arrêté par la police et condamné` → `arrêtée ... et condamnée`."""
    low, toks = s.low, s.toks
    n = len(low)
    j = k + 1
    while j < min(n, k + 8):
        if s.gap_after(j - 1).strip():
            return  # a comma or a bracket ends the clause
        w = low[j]
        if w in _SUBJECT_WORDS or w in _COPULA or w in _AVOIR or w in _CLITIC_BETWEEN:
            return
        if w == "et":
            p = j + 1
            ok = p < n and s.gap_after(j) == " " and toks[p].islower()
            ok = ok and is_free(s, covered, out, p) and low[p].endswith(_PARTICIPLE)
            if ok and low[p] not in _NOT_PARTICIPLE:
                guess = other_gender_form(d, low[p], lex, verbish_ok=True, trust_seen=False)
                if guess is not None:
                    out[p] = (1, (guess,))
            return
        j += 1


def _elided_subjects(s: Sentence, changed_pron: set[int]) -> list[tuple[int, bool, bool]]:
    """Copulas whose subject is left out or is a relative pronoun standing for the
    person: `il posa sa candidature et fut accepté`, `le baron, qui fut nommé`."""
    low = s.low
    n = len(low)
    found = []
    ends = (".", ";", ":", "?", "!")

    def subject_before(j: int) -> int:
        while j >= 0 and low[j] not in _SUBJECT_WORDS:
            if s.gap_after(j).strip() in ends:
                return -1
            j -= 1
        return j

    def subject_after(j: int) -> int:
        while j < n and low[j] not in _SUBJECT_WORDS:
            if s.gap_after(j).strip() in ends:
                return -1
            j += 1
        return j if j < n else -1

    for c in range(1, n):
        if low[c] in _INF_COPULA or (low[c] == "avoir" and "été" in low[c + 1 : c + 3]):
            # an infinitive: its subject is the clause's, before it or after it
            j = subject_before(c - 1)
            if j < 0 and all(t not in _SUBJECT_WORDS for t in low[:c]):
                j = subject_after(c + 1)
            if j >= 0 and j in changed_pron:
                found.append((c, False, True))
            continue
        if low[c] not in _COPULA and low[c] not in _AUX_ETRE:
            continue
        k = c - 1
        reflexive = False
        while k > 0 and low[k] in ("ne", "n'", "se", "s'", "y", "en"):
            reflexive = reflexive or low[k] in ("se", "s'")
            k -= 1
        if low[k] in ("et", "puis", "mais") or s.gap_after(k).strip() == ",":
            # the nearest subject before, in this sentence, must be the changed pronoun
            after_and = low[k] in ("et", "puis", "mais")
            j = subject_before(k - 1 if after_and else k)
            if not after_and and subject_before(j - 1) >= 0:
                continue  # `Ce qui, comme il l'a vu, était`: not the subject of a clause
            if j >= 0 and j in changed_pron:
                found.append((c, reflexive, True))
    return found


def _name_subjects(s: Sentence, lex: Lexicon) -> list[tuple[int, bool, bool]]:
    """Copulas right after a name that opens a clause (`Graham est revenu`, `que Doherty
    ne serait pas revenu`), in a sentence whose pronouns show the person's gender."""
    low, toks = s.low, s.toks
    n = len(low)
    found = []
    for t in range(n - 1):
        tok = toks[t]
        if not tok[:1].isupper() or not tok.isalpha() or lex.zipf.get(low[t], 0.0) >= 4.0:
            continue
        opens = (
            t == 0
            or s.gap_after(t - 1).strip() in (".", ";", ":")
            or (low[t - 1] in ("que", "qu'", "et", "lorsque", "quand", "lorsqu'"))
        )
        if t > 0 and toks[t - 1][:1].isupper() and s.gap_after(t - 1) == " ":
            opens = t == 1 or low[t - 2] in ("que", "qu'")  # `Mary Smith est née`
        if not opens or s.gap_after(t) != " ":
            continue
        k = t + 1
        reflexive = False
        while k < n and low[k] in ("ne", "n'", "se", "s'", "y", "en"):
            reflexive = reflexive or low[k] in ("se", "s'")
            k += 1
        if k < n and (low[k] in _COPULA or low[k] in _AUX_ETRE):
            found.append((k, reflexive, True))
    return found


def _in_complement(s: Sentence, i: int) -> bool:
    """The noun at ``i`` is the complement of a preposition (`de la reine`, `du roi`)."""
    low = s.low
    k = i - 1
    while k >= 0 and (low[k] in _PRE_F2M or low[k] in _PRE_M2F):
        k -= 1
    if k < 0:
        return False
    if low[k] in ("du", "des", "au", "aux") or low[k] in _PREP:
        return True
    return k > 0 and (low[k] in _DETS or low[k] in _POSSESSIVE) and low[k - 1] in _PREP


def _opens_sentence(s: Sentence, i: int) -> bool:
    """The noun at ``i`` heads the noun phrase that opens the sentence (`Ce comédien`), or
    the changed adjective at ``i`` follows that noun (`Le prince héritier`)."""
    low = s.low
    k = i - 1
    noun = k > 0 and s.covered and s.covered[k] and low[k].isalpha()
    if noun and s.gap_after(k) == " " and low[k] not in _DETS and low[k] not in _POSSESSIVE:
        k -= 1  # the changed noun before its changed adjective
    while k >= 0 and (low[k] in _PRE_F2M or low[k] in _PRE_M2F) and s.gap_after(k) == " ":
        k -= 1
    if k < 0 or not (low[k] in _DETS or low[k] in _POSSESSIVE):
        return False
    return k == 0 or s.gap_after(k - 1).strip() in (".", ";", ":")
