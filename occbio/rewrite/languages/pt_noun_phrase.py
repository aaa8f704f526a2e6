"""Portuguese noun phrases that name the person: `um especialista`, `o primeiro reitor`,
`um dos maiores imperadores`.

Given the article (or the first word) of a noun phrase, find its head and decide whether it is
a person noun; only then change it (or mark a noun of both genders as the person, unchanged).
The article and the adjectives follow through the agreement rules. Used by predicates, the
opening subject and lead sentences alike.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import DETERMINER_SWAP, PERSON_PRED_SWAP, other_gender
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADJ_ENDINGS,
    _EPICENE,
    _HEAD_END,
    _INVARIANT_PERSON,
    _INVARIANT_PERSON_ENDINGS,
    _INVARIANT_PLURAL,
    _NOT_ADJ,
    _NOT_PERSON,
    _PERSON_ENDINGS,
    _PRE_ADJ,
    _PRE_ADJ_PL,
    _SURE_PERSON,
)


def is_sure_person(d: str, w: str, t: str, lex: Lexicon) -> bool:
    """``w`` (changing to ``t``) is a person noun for sure: a listed one, an agent noun,
    or one the data changes (not `como um dado adquirido`)."""
    masc = t if d == "f2m" else w
    sg = masc[:-2] if masc.endswith("es") and not masc.endswith("ses") else masc.rstrip("s")
    if masc in PERSON_PRED_SWAP["m2f"] or sg in PERSON_PRED_SWAP["m2f"]:
        return True
    if sg.endswith((*_SURE_PERSON, "ólogo", "ógrafo")) and sg not in _ADJ:
        return True
    seen = lex.seen.get(w)
    return seen is not None and seen[0] >= 1 and seen[0] * 2 >= seen[1]


def person_np(
    d: str,
    s: Sentence,
    k: int,
    lex: Lexicon,
    free,
    bare: bool = False,
    sure: bool = False,
) -> Plan:
    """``k`` is an article; if the noun phrase it opens names a person (`um especialista`,
    `o primeiro reitor`), change its head noun (or mark a noun of both genders as the
    person, unchanged); the article and the adjectives follow through propose."""
    low, toks, n = s.low, s.toks, len(s.low)
    h = k if bare else k + 1
    if not bare and h + 1 < n and free(h) and low[h] in ("dos", "das") and s.joined(k):
        return group_np(d, s, k, h, lex, free)
    fallback: Plan = {}
    while h < n and toks[h][:1].islower() and s.gap_after(h - 1) == " ":
        w = low[h]
        if not free(h):
            break
        if w in _EPICENE:  # `uma pessoa honesta`: nothing agrees with the person
            return {}
        if w in PERSON_PRED_SWAP[d]:
            return {h: (1, (PERSON_PRED_SWAP[d][w],))}
        nxt_ok = h + 1 < n and free(h + 1) and s.gap_after(h) == " "
        nxt_ok = nxt_ok and toks[h + 1][:1].islower() and low[h + 1] not in _HEAD_END
        if w in _PRE_ADJ and nxt_ok:  # `um grande líder`, `um jovem barão`
            if w in _INVARIANT_PERSON:
                fallback = {h: (1, (w,))}
            h += 1
            continue
        if w in _INVARIANT_PERSON or (
            w.endswith(_INVARIANT_PERSON_ENDINGS)
            and (lex.zipf.get(w, 0) >= 2 or (w.endswith("ista") and len(w) > 6))
            and w not in _NOT_PERSON
        ):
            return {h: (1, (w,))}
        t = other_gender(d, w, lex, veto=False, agent=True)
        masc0 = t if (t and d == "f2m") else w
        # a listed adjective before a noun that is no person's is no person (`a primeira vez`)
        thing_next = nxt_ok and not low[h + 1].endswith((*_PERSON_ENDINGS, "a", "as"))
        # ... and one before a noun of both genders leaves the head to it (`a primeira
        # presidente eleita`)
        invariant_next = nxt_ok and (
            low[h + 1] in _INVARIANT_PERSON or low[h + 1].endswith(_INVARIANT_PERSON_ENDINGS)
        )
        personlike = (
            t is not None and masc0.endswith(_PERSON_ENDINGS)
            and not (masc0.rstrip("s") in _ADJ and (thing_next or invariant_next))
        ) or (bare and d == "m2f" and w.endswith("o") and w not in _NOT_ADJ)  # fmt: skip
        if sure and personlike:
            personlike = t is not None and is_sure_person(d, w, t, lex)
        if (
            t is not None and t != w and personlike
            and not (nxt_ok and w in _ADJ and other_gender(d, low[h + 1], lex))
        ):  # fmt: skip
            return {h: (1, (t,))}
        if not bare and w in ("mais", "menos"):
            h += 1
            continue
        masc = t if (t and d == "f2m") else w
        adj = masc in _ADJ or masc.rstrip("s") in _ADJ or masc.endswith(("oso", "osos"))
        # an adjective as the head: `o mais novo das quatro crianças`, `o primeiro a`
        head_end = h + 1 >= n or low[h + 1] in _HEAD_END or s.gap_after(h) != " "
        adjlike = adj or (masc.endswith(_ADJ_ENDINGS) and not sure)
        if not bare and t and adjlike and head_end:
            return {h: (1, (t,))}
        if not bare and adj:
            h += 1
            continue
        # an adjective the lists lack, before a person noun: `um astuto empresário`
        t2 = None if bare or not nxt_ok else other_gender(d, w, lex, adjlike=False)
        if t2 is not None and t2 != w:
            rest = person_np(d, s, h, lex, free, sure=True)
            if rest:
                return {h: (1, (t2,)), **rest}
        return fallback
    return fallback


def group_np(d: str, s: Sentence, k: int, h: int, lex: Lexicon, free) -> Plan:
    """`um dos maiores imperadores`: the person among a group of their kind, which the
    references put in the person's gender (`uma das maiores imperatrizes`)."""
    low, toks, n = s.low, s.toks, len(s.low)
    det = DETERMINER_SWAP[d]
    if low[k] not in det or low[h] not in det:
        return {}
    out: Plan = {k: (1, (det[low[k]],)), h: (1, (det[low[h]],))}
    j = h + 1
    while j < n and toks[j][:1].islower() and s.gap_after(j - 1) == " ":
        if not free(j):  # the head noun is changed already (`dos maiores imperadores`)
            return out if s.notes["covered"][j] else {}
        w = low[j]
        if w in _EPICENE:
            return {}
        if w in PERSON_PRED_SWAP[d] or (w == "pais" and d == "m2f"):
            out[j] = (1, (PERSON_PRED_SWAP[d].get(w, "mães"),))
            return out
        # `dos mais famosos e traduzidos escritores`: degree words, coordinated adjectives,
        # adjectives of both genders (`dos mais importantes pintores`)
        if w in _PRE_ADJ_PL or w in ("mais", "menos") or (w in ("e", "ou") and j - 1 in out):
            j += 1
            continue
        if w.endswith(_INVARIANT_PLURAL) or w.rstrip("s") in _INVARIANT_PERSON:
            out[j] = (1, (w,))
            return out
        t = other_gender(d, w, lex, veto=False, agent=True)
        if t is None or t == w:
            return {}
        masc = t if d == "f2m" else w
        stem = masc[:-2] if masc.endswith("es") else masc.rstrip("s")
        if stem.endswith(_PERSON_ENDINGS):
            out[j] = (1, (t,))
            return out
        if masc in _ADJ or stem in _ADJ or stem.endswith(_ADJ_ENDINGS):
            out[j] = (1, (t,))
            j += 1
            continue
        return {}
    return {}
