"""Portuguese predicates whose subject is the person: `ela foi presa`, `disse que estava
zangado`, `a consideram uma das maiores`, and the opening of a sentence (`Horrorizado com`,
`O policial então gritou`).

A predicate word changes only when the copula's subject is the changed person (a changed word,
a name, or no subject of its own after a conjunction), so this module finds who the subject is;
it also keeps learned participle changes off other nouns (`sua performance mais conhecida`).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    PERSON_PRED_SWAP,
    is_adverb,
    is_common_noun,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_noun_phrase import person_np
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADV,
    _AUX,
    _CONJ,
    _COPULAS,
    _INVARIANT_PERSON,
    _NAME_BLOCK,
    _OBJ_PRED,
    _OPENERS,
    _PARTICIPLE,
    _PREP,
    _SUBJ_SKIP,
    _SURE_PERSON,
    _THING_PARTICIPLES,
)


def predicate_starts(
    s: Sentence, i: int, changed: set, pron: set, lex: Lexicon, clitics: set
) -> bool:
    """Token ``i`` begins the predicate of a copula whose subject is the changed person."""
    low, toks = s.low, s.toks
    k = i - 1
    while k >= 0 and (is_adverb(low[k]) or low[k] == "se") and s.gap_after(k) in (" ", "-"):
        k -= 1
    if k >= 1 and k - 1 in clitics and low[k].startswith(_OBJ_PRED):
        return all(is_adverb(low[j]) for j in range(k + 1, i))  # `a tornasse tão feia`
    if k < 0 or low[k] not in _COPULAS:
        return False
    if low[k] in ("tornou", "torna", "tornara", "tornar"):
        if not (k + 1 < i and low[k + 1] == "se") and not (k > 0 and low[k - 1] == "se"):
            return False
    elif not all(is_adverb(low[j]) for j in range(k + 1, i)):
        return False
    j = k - 1
    while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
        j -= 1
    if j < 0:
        return bool(pron)
    if s.gap_after(j) not in (" ", "-"):
        return False
    if j in changed:
        return True
    if pron and low[j] == "e":
        return True
    # no subject: the person's (`disse que estava zangado`, `embora estivesse envolvido`)
    if changed and low[j] in _CONJ and s.gap_after(j) == " ":
        if low[j] != "que":
            return True
        return j > 0 and (j - 1 in changed or is_verb(low[j - 1], lex))
    if pron and low[j] in _PREP and low[k] in ("ser", "estar"):
        return True
    name = toks[j][:1].isupper() and (j == 0 or low[j - 1] not in _NAME_BLOCK)
    return name and j > 0


def predicate(d: str, s: Sentence, i: int, lex: Lexicon, free) -> Plan:
    low, toks, n = s.low, s.toks, len(s.low)
    out: Plan = {}
    k = i
    if not free(k) or not toks[k][:1].islower() or low[k] in _ADV:
        return out
    if k + 1 < n and low[k + 1] == "que":
        return out
    arts = ("o", "um") if d == "m2f" else ("a", "uma")
    if low[k] in arts:
        return person_np(d, s, k, lex, free)
    t = other_gender(d, low[k], lex, veto=False)
    if t is not None and t != low[k]:
        out[k] = (1, (t,))
    return out


def opening(d: str, s: Sentence, lex: Lexicon, free) -> Plan:
    """The sentence's opening: a participle clause about the subject (`Horrorizado com`,
    `Quando questionado sobre`); a subject that is a person noun for sure (`O policial então
    gritou`)."""
    low, n = s.low, len(s.low)
    k = 1 if n > 1 and low[0] in _OPENERS else 0
    w = low[k] if k < n else ""
    if (
        n > k + 2 and w.endswith(_PARTICIPLE[:4]) and free(k) and s.gap_after(k) == " "
        and ", " in s.text[s.spans[k][1] :] and (k == 0 or s.gap_after(0) == " ")
        and w not in _THING_PARTICIPLES
    ):  # fmt: skip
        t = other_gender(d, w, lex)
        if t is not None and t != w:
            return {k: (1, (t,))}
    arts = ("o", "um") if d == "m2f" else ("a", "uma")
    out: Plan = {}
    for k in [0] if n > 2 else []:
        if low[k] != arts[0] or s.gap_after(k) != " ":
            continue
        got = person_np(d, s, k, lex, free)
        for h in got:  # only a noun that is a person's for sure
            head = low[h] if d == "m2f" else got[h][1][0]
            if not (head in PERSON_PRED_SWAP["m2f"] or head in _INVARIANT_PERSON
                    or (head.endswith(_SURE_PERSON) and head not in _ADJ)):  # fmt: skip
                break
        else:
            out.update(got)
    return out


def participle_can_be_persons(s: Sentence, i: int, plan: Plan) -> bool:
    """A learned participle change (`nomeado`, `conhecida`) at ``i`` only where it can be the
    person's: not attributive to another noun (`seu gênio é conhecido`, `sua performance
    mais conhecida`), not `nomeado em homenagem a` (a thing named after the person)."""
    low = s.low
    if low[i + 1 : i + 3] == ["em", "homenagem"]:
        return False
    k = i - 1
    while k >= 0 and is_adverb(low[k]) and s.gap_after(k) == " ":
        k -= 1
    if k < 0 or s.gap_after(k) != " " or k in plan:
        return True
    if low[k] in _COPULAS:
        j = k - 1
        while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
            j -= 1
        if j < 0 or j in plan or s.gap_after(j) != " ":
            return True
        k = j
    return not is_common_noun(s, k)
