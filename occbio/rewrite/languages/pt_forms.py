"""Portuguese word forms: what a word is (a verb, an adverb, a common noun) and its form in the
other gender.

Every Portuguese rule module asks the same two questions of a word, so they are answered once,
here: the (feminine, masculine) pairs of ``pt_words`` turned into ``{direction: {source:
target}}`` tables, the word-class tests, and :func:`other_gender`, the suffix guess checked
against word frequencies (wordfreq, through ``lex.zipf``).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Sentence
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADJ_ENDINGS,
    _ADV,
    _AGENT,
    _AUX,
    _COPULAS,
    _DETS,
    _FUNCTION,
    _IRREGULAR_ADJ,
    _IRREGULAR_VERBS,
    _NATIONS,
    _NOT_ADJ,
    _NOT_VERB,
    _PARTICIPLE,
    _PERSON,
    _PERSON_PRED,
    _PRE_ADJ,
    _PRE_ADJ_PL,
    _PRONOUNS,
    _SUFFIXES,
    _THING_OR,
    _VERB_ENDINGS,
    _VERB_FORMS,
    _VERB_FORMS_SG,
)

DIRECTIONS = ("m2f", "f2m")
#: person-noun endings whose other gender is always the regular one, per direction (source)
_REGULAR_PERSON = {
    "m2f": ("ário", "eiro", "ários", "eiros"),
    "f2m": (),  # `-eira`, `-ária` things are many (`carreira`, `bandeira`)
}


def swap_table(pairs, d: str) -> dict[str, str]:
    """{source: target} for direction d from (masculine, feminine) pairs."""
    return {m: f for m, f in pairs} if d == "m2f" else {f: m for m, f in pairs}


#: articles, contractions, possessives, demonstratives, quantifiers: {direction: {source: target}}
DETERMINER_SWAP = {"m2f": {m: f for f, m in _DETS}, "f2m": {f: m for f, m in _DETS}}
#: every gendered determiner, either gender
DETERMINER_FORMS = frozenset(w for p in _DETS for w in p)
#: every personal pronoun of the third person, either gender
PRONOUN_FORMS = frozenset(w for p in _PRONOUNS for w in p) | {"eles", "elas"}
#: person nouns changed anywhere: {direction: {source: target}}
PERSON_SWAP = {d: swap_table(_PERSON, d) for d in DIRECTIONS}
#: adjectives whose other form is no suffix change (`bom` / `boa`)
IRREGULAR_ADJ_SWAP = {d: swap_table(_IRREGULAR_ADJ, d) for d in DIRECTIONS}
#: person nouns and predicate words changed where they are the person's
PERSON_PRED_SWAP = {d: {**swap_table(_PERSON_PRED, d), **PERSON_SWAP[d]} for d in DIRECTIONS}


def is_verb(w: str, lex: Lexicon, sg: bool = False) -> bool:
    """``w`` looks like a finite verb form or a gerund: its infinitive is a frequent word."""
    if w in _IRREGULAR_VERBS:
        return True
    if w in _NOT_VERB:
        return False
    for end, infs in _VERB_FORMS + (_VERB_FORMS_SG if sg else ()):
        if w.endswith(end) and len(w) - len(end) >= 2:
            stem = w[: len(w) - len(end)]
            if any(lex.zipf.get(stem + inf, 0.0) >= 3.0 for inf in infs):
                return True
    return False


def is_adverb(w: str) -> bool:
    """``w`` is a listed adverb or one in `-mente`."""
    return w in _ADV or (w.endswith("mente") and len(w) > 7)


def is_common_noun(s: Sentence, k: int) -> bool:
    """Token ``k`` is a common noun (lower case, no verb, pronoun or function word)."""
    w = s.low[k]
    return (
        s.toks[k][:1].islower() and len(w) > 3 and w not in _FUNCTION
        and w not in _COPULAS and w not in _AUX and not is_adverb(w)
        and not w.endswith(_PARTICIPLE) and not w.endswith(_VERB_ENDINGS)
    )  # fmt: skip


def other_gender(
    d: str,
    w: str,
    lex: Lexicon,
    adjlike: bool = True,
    veto: bool = False,
    agent: bool = False,
) -> str | None:
    """The other-gender form of an adjective / person noun ``w``, or None.

    ``adjlike``: a suffix swap only where the masculine looks like an adjective (or the data
    changes it); ``veto``: None where the data mostly leaves ``w`` as it is; ``agent``: agent
    nouns too (`pintor` → `pintora`), whose feminine is rarer in text."""
    if w in PERSON_PRED_SWAP[d]:
        return PERSON_PRED_SWAP[d][w]
    if w in IRREGULAR_ADJ_SWAP[d]:
        return IRREGULAR_ADJ_SWAP[d][w]
    seen = lex.seen.get(w)
    if veto and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
        return None
    if w in _NOT_ADJ or w in _PRE_ADJ or w in _PRE_ADJ_PL or w in _THING_OR:
        return None
    best = None
    z_src = lex.zipf.get(w, 0.0)
    for fem, mas in _SUFFIXES:
        src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
        if not (w.endswith(src) and len(w) > len(src) + 2):
            continue
        cand = w[: len(w) - len(src)] + tgt
        masc = cand if d == "f2m" else w
        if adjlike and not (
            masc in _ADJ
            or masc.rstrip("s") in _ADJ
            or masc.endswith(_ADJ_ENDINGS)
            or masc.rstrip("s").endswith(_ADJ_ENDINGS)
            or (masc.endswith("ores") and masc[:-2].endswith(_ADJ_ENDINGS))
            or (masc.endswith("eses") and masc[:-4] + "ês" in _NATIONS)  # `portugueses`
            or (seen is not None and seen[0] >= 2)
        ):
            continue
        z = lex.zipf.get(cand, 0.0)
        # feminine agent nouns are much rarer in text than the masculine ones
        drop = 2.0 if fem in ("ora", "oras") or (agent and fem in ("a", "as")) else 1.0
        if z >= 2.0 and z >= z_src - drop and (best is None or z > best[0]):
            best = (z, cand)
    if best is None and agent and d == "m2f" and w.endswith(_AGENT) and len(w) > 5:
        return w[:-2] + "as" if w.endswith("es") else w + "a"
    if best is None and agent and w.endswith(_REGULAR_PERSON[d]) and len(w) > 6:
        # `-ário`, `-eiro` person nouns have regular feminines (`prebendário`)
        return (
            w[:-2] + ("as" if d == "m2f" else "os")
            if w.endswith("s")
            else w[:-1] + ("a" if d == "m2f" else "o")
        )
    return best[1] if best else None


#: participles that do not end in -ado / -ido
IRREGULAR_PARTICIPLES = frozenset(
    """preso presa presos presas eleito eleita eleitos eleitas reeleito reeleita morto morta
    mortos mortas aceito aceita suspenso suspensa expulso expulsa solto solta visto vista
    escrito escrita coberto coberta aberto aberta feito feita dito dita posto posta descrito
    descrita inscrito inscrita""".split()
)


def is_participle(w: str) -> bool:
    """``w`` is a past participle: in -ado / -ido or a listed irregular one."""
    return w.endswith(_PARTICIPLE) or w in IRREGULAR_PARTICIPLES
