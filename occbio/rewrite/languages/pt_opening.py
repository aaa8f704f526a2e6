"""Portuguese sentence openings: a participle clause about the subject (`Horrorizado com`,
`Presa em 1962, ...`), a subject that is a person noun for sure (`O policial então gritou`), and
the subjectless clause after an opening (`Em 1999, foi agraciada`), whose subject is the person
a biography is about.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    PERSON_PRED_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_participle,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_noun_phrase import person_np
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _AUX,
    _COPULAS,
    _FUNCTION,
    _HEAD_END,
    _INVARIANT_PERSON,
    _OPENERS,
    _PARTICIPLE,
    _PRE_ADJ,
    _PRE_ADJ_PL,
    _SURE_PERSON,
    _THING_PARTICIPLES,
)

#: prepositions that open an adverbial before a subjectless clause (`Em 1999, foi`)
_ADVERBIAL = frozenset("em aos após durante depois desde entre no na".split())
#: participles of things made (`Em 1990, foi publicado o seu livro`: the subject follows)
_THING_STEMS = tuple(
    """publicad lançad editad gravad construíd realizad produzid estread exibid inaugurad
    fundad traduzid vendid adaptad""".split()
)
_ARTICLES = frozenset("o a um uma".split())
#: infinitives, personal ones too (`fazer`, `ficarmos`)
_INFINITIVE = ("ar", "er", "ir", "armos", "ermos", "irmos", "arem", "erem", "irem")
#: participles of saying and deciding: an impersonal passive (`Foi dito pela empresa que`)
_SAID = frozenset(
    """dito comunicado anunciado decidido informado noticiado relatado referido revelado
    sabido estimado previsto divulgado acordado""".split()
)
#: adjectives that are a person's state after a subjectless copula (`É casado`, `Foi preso`)
_ROLE_OK = frozenset("casado casada solteiro solteira viúvo viúva".split())


def persons_predicate(s: Sentence, i: int) -> bool:
    """The word at ``i`` can be the predicate of a dropped subject, the person: not a
    participle of a thing made, whose subject follows it; a noun phrase only when its head is
    a person noun for sure (`Foi o primeiro reitor`, not `Foi considerado um clássico`)."""
    low, n = s.low, len(s.low)
    if low[i].startswith(_THING_STEMS):
        return False
    nxt = low[i + 1] if i + 1 < n and s.gap_after(i) == " " else ""
    if nxt == "que" or (len(nxt) > 3 and nxt.endswith(_INFINITIVE)) or low[i] in _SAID:
        return False  # impersonal: `É necessário fazer`, `Foi decidido que`, `Foi dito`
    if i + 1 >= n or s.gap_after(i).strip() in (".", "!", "?", "..."):
        return False  # `Foi complicado.`: nothing says whose
    if low[i] not in _ARTICLES and not is_participle(low[i]) and low[i] not in _ROLE_OK:
        return any(low[i] in PERSON_PRED_SWAP[d] for d in ("m2f", "f2m"))
    if low[i] not in _ARTICLES:
        # `Foi estancada a hemorragia`: a subject after the participle is a thing's
        nxt = low[i + 1] if i + 1 < n and s.gap_after(i) == " " else ""
        return not (nxt in _ARTICLES or nxt in ("os", "as")) or not is_participle(low[i])
    h = i + 1
    while h < n and (low[h] in ("dos", "das", "mais", "menos") or low[h] in _PRE_ADJ
                     or low[h] in _PRE_ADJ_PL or low[h].rstrip("s") in _ADJ):  # fmt: skip
        h += 1
    if h >= n:
        return False
    w = low[h]
    sg = w[:-2] if w.endswith("es") and not w.endswith("ses") else w.rstrip("s")
    if any(x in PERSON_PRED_SWAP[d] for d in ("m2f", "f2m") for x in (w, sg)):
        return True
    return w in _INVARIANT_PERSON or sg.endswith((*_SURE_PERSON, "ólogo", "ógrafo", "ora"))


def dropped_subject(s: Sentence, j: int, changed: set) -> bool:
    """Tokens ``0..j`` are an opening before a comma and a subjectless clause: an adverbial
    (`Em 1999,`) with no person in it, or a changed participle clause (`Presa em 1962,`)."""
    low = s.low
    if any(s.gap_after(p) not in (" ", ". ") for p in range(j)):
        return False  # one opening, no earlier comma
    if 0 in changed and is_participle(low[0]):
        return True
    if low[0] not in _ADVERBIAL:
        return False
    return not any(p in changed or low[p] in PRONOUN_FORMS for p in range(j + 1))


#: irregular participles that open a sentence about the person (`Presa em 1962, ...`)
_OPENING_IRREGULAR = frozenset(
    """preso presa eleito eleita reeleito reeleita suspenso suspensa expulso expulsa descrito
    descrita""".split()
)


def opening(d: str, s: Sentence, lex: Lexicon, free) -> Plan:
    """The sentence's opening: a participle clause about the subject (`Horrorizado com`,
    `Quando questionado sobre`); a subject that is a person noun for sure (`O policial então
    gritou`)."""
    low, n = s.low, len(s.low)
    k = 1 if n > 1 and low[0] in _OPENERS else 0
    w = low[k] if k < n else ""
    if (
        n > k + 2 and (w.endswith(_PARTICIPLE[:4]) or w in _OPENING_IRREGULAR)
        and free(k) and s.gap_after(k) == " "
        and ", " in s.text[s.spans[k][1] :] and (k == 0 or s.gap_after(0) == " ")
        and w not in _THING_PARTICIPLES and not thing_subject_after_comma(d, s, k, lex)
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
            if _noun_follows(s, h, lex):  # `A esmagadora maioria`: an adjective
                break
        else:
            out.update(got)
    return out


def _noun_follows(s: Sentence, h: int, lex: Lexicon) -> bool:
    """The word after ``h`` is a noun of its own (no gender counterpart, no verb, no
    function word): ``h`` is then an adjective before it (`a esmagadora maioria`)."""
    low, toks = s.low, s.toks
    j = h + 1
    if j >= len(low) or s.gap_after(h) != " " or not toks[j][:1].islower():
        return False
    w = low[j]
    if w in _HEAD_END or w in _FUNCTION or w in _COPULAS or w in _AUX or is_adverb(w):
        return False
    if is_verb(w, lex, True) or w.endswith(_PARTICIPLE):
        return False
    return other_gender("m2f", w, lex) is None and other_gender("f2m", w, lex) is None


def thing_subject_after_comma(d: str, s: Sentence, k: int, lex: Lexicon) -> bool:
    """An opening participle clause (`Marcado para ..., o comício`) whose main clause's
    subject, after the comma, is an article and a noun that is no person's."""
    low = s.low
    c = next((j for j in range(k, len(low) - 2) if s.gap_after(j) == ", "), None)
    if c is None or low[c + 1] not in ("o", "a", "os", "as", "um", "uma"):
        return False
    w = low[c + 2]
    if not s.toks[c + 2][:1].islower() or w in PERSON_PRED_SWAP[d] or w in _INVARIANT_PERSON:
        return False
    t = other_gender(d, w, lex, agent=True)
    return t is None or t == w
