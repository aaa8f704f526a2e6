"""Italian: who is the subject of a copula (``è``, ``fu``, ``è stato``...).

A predicate after the copula agrees with its subject, so it may change only when that subject
is the person. Italian drops subject pronouns and puts subjects after passive participles, so
the answer is a walk over the words around the copula; it lives here, apart from the predicate
rules that ask it (``it_lead.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.it_articles import ART_PREPS, CLOSED
from occbio.rewrite.languages.it_words import (
    _ADVERBS,
    _AGENT_PREPS,
    _CHE_CONJ,
    _CLITICS,
    _DATIVE,
    _DEMONSTRATIVES,
    _FINITE_ENDINGS,
    _FINITE_VERBS,
    _NOUN_SWAP,
    _PERSON_PRON,
    _PLAIN_ARTICLES,
    _PREDICATIVE,
    _PREPOSITIONS,
    _PRO_DROP,
    _SAYING,
)


def is_adverb(w: str) -> bool:
    return w in _ADVERBS or (w.endswith("mente") and len(w) > 7)


def person_is_subject(s: Sentence, covered: Sequence[bool], k: int, apposition=False) -> bool:
    """Is the subject of the copula at ``k`` the person? A pronoun, a changed word or a
    name says yes; a noun phrase with an article (`lo spettacolo è stato`, `la pena di
    morte fu`) that nothing changed says no; a clause with no visible subject (`In seguito
    si è dedicato`, `a 72 anni è passato`) is about the person."""
    j = k - 1
    while j >= 0 and (s.low[j] in _CLITICS or is_adverb(s.low[j])):
        if s.low[j] in _DATIVE and j == k - 1:
            return False  # `gli fu diagnosticato un cancro`: the subject is the illness
        if s.gap_after(j).strip():
            break
        j -= 1
    if not apposition and j >= 0 and s.gap_after(j).strip(" ") == ",":
        # `Montrose Cape, nello stretto di Hudson, è intitolato`: past an apposition with
        # no verb, the subject is before it; with no comma before, a clause opener
        c = j - 1
        while c >= 0 and "," not in s.gap_after(c):
            c -= 1
        segment = range(c + 1, j + 1)
        relative = c >= 0 and (
            s.low[c + 1] == "che" or (c + 2 <= j and s.low[c + 2] == "cui")
        )  # `La villa, che fu donata ..., è aperta`: the subject is before the clause
        if relative and s.gap_after(c).strip(" ") == ",":
            return person_is_subject(s, covered, c + 1, apposition=True)
        if c < 0 or any(
            s.low[x] in _FINITE_VERBS or s.low[x].endswith(_FINITE_ENDINGS) or s.low[x] in
            _PRO_DROP or s.low[x] == "che" for x in segment
        ):  # fmt: skip
            return True
        if s.gap_after(c).strip(" ") != ",":
            return True
        return person_is_subject(s, covered, c + 1, apposition=True)
    if j < 0 or (not apposition and s.gap_after(j).strip(" ")):  # a new clause, no subject
        return True
    w = s.low[j]
    if w in _PERSON_PRON or (covered[j] and w not in CLOSED):
        return True
    if s.toks[j][:1].isupper() and j > 0:
        # a name: the person, unless it follows an article (`il Capitolo`)
        while j > 0 and s.toks[j - 1][:1].isupper() and s.gap_after(j - 1) in (" ", "-"):
            j -= 1
        return j == 0 or s.low[j - 1] not in CLOSED or covered[j - 1]
    if w in _PRO_DROP or w == "si":
        return True
    if w == "che":
        return _che_person(s, covered, j)
    # walk left through the noun phrases and prepositional phrases before the copula: the
    # first article not after a preposition opens the subject
    while j >= 0:
        w = s.low[j]
        # `a lei congeniale`, `della regina`: a person after a preposition is no subject
        after_prep = j > 0 and (s.low[j - 1] in _PREPOSITIONS or s.low[j - 1] in ART_PREPS)
        if ((covered[j] and w not in CLOSED) or w in _PERSON_PRON) and not after_prep:
            return True
        if w in _PLAIN_ARTICLES or w in _DEMONSTRATIVES:
            before = s.low[j - 1] if j > 0 and not s.gap_after(j - 1).strip(" ") else ""
            if before not in _PREPOSITIONS and before not in ART_PREPS:
                # the head of the subject: up to its first preposition
                end = j + 1
                while end < k and s.low[end] not in _PREPOSITIONS | ART_PREPS:
                    end += 1
                return any(covered[x] and s.low[x] not in CLOSED for x in range(j, end)) or any(
                    w2 in _NOUN_SWAP["m2f"] or w2 in _NOUN_SWAP["f2m"] for w2 in s.low[j:end]
                )
        elif w in _PRO_DROP or w == "che" or w in _FINITE_VERBS or w.endswith(_FINITE_ENDINGS):
            return True  # a clause boundary before any subject
        elif s.toks[j][:1].isupper() and j > 0 and s.low[j - 1] not in CLOSED:
            return True  # a name inside a longer subject (`il figlio di Rossi`)
        if j > 0 and s.gap_after(j - 1).strip(" "):
            return True
        j -= 1
    return True


def _che_person(s: Sentence, covered: Sequence[bool], j: int) -> bool:
    """`che` before the copula: a relative pronoun (its antecedent) or a conjunction."""
    if j == 0:
        return True
    p = s.low[j - 1]
    if s.low[j - 1] in _SAYING or p.endswith("ndo"):
        return True
    if covered[j - 1] or p in _PERSON_PRON:
        return True
    if s.toks[j - 1][:1].isupper():
        return True
    if p in ("il", "ciò", "cosa", "quello", "quella"):
        return False  # `il che è stato commentato`
    if s.gap_after(j - 1).strip(" "):
        # `, che`: the antecedent before the comma
        k = j - 1
        return covered[k] or s.toks[k][:1].isupper()
    return p in _CHE_CONJ or p.endswith(_FINITE_ENDINGS)


def person_is_agent(s: Sentence, covered: Sequence[bool], j: int) -> bool:
    """`fu donata dalla settima baronessa`, `fu ucciso da lui`: the person is the agent of
    the passive, so the subject is someone or something else."""
    n = len(s.low)
    if j + 1 >= n or not s.joined(j) or s.low[j + 1] not in _AGENT_PREPS:
        return False
    for x in range(j + 2, min(j + 5, n)):
        if not s.joined(x - 1) and not s.low[x - 1].endswith(("'", "’")):
            break
        if s.low[x] in _PERSON_PRON or (covered[x] and s.low[x] not in CLOSED):
            return True
    return False


def subject_follows(s: Sentence, j: int) -> bool:
    """A participle followed by an article (`è stato confermato il cognome`) has its
    subject after it, unless it takes a predicate (`fu nominato il primo direttore`)."""
    if j + 1 >= len(s.low) or not s.joined(j):
        return False
    nxt = s.low[j + 1]
    if nxt not in _PLAIN_ARTICLES and nxt not in _DEMONSTRATIVES:
        return False
    return not s.low[j].startswith(_PREDICATIVE)
