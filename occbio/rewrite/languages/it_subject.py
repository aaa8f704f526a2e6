"""Italian: who is the subject of a copula (``è``, ``fu``, ``è stato``...).

A predicate after the copula agrees with its subject, so it may change only when that subject
is the person. Italian drops subject pronouns and puts subjects after passive participles, so
the answer is a walk over the words around the copula; it lives here, apart from the predicate
rules that ask it (``it_lead.py``), with the participle or adjective fronted before a comma
(``Spagnolo, fu uno dei primi``), which agrees with the subject of the main clause.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.it_articles import ART_PREPS, CLOSED
from occbio.rewrite.languages.it_words import (
    _ADVERBS,
    _AGENT_PREPS,
    _AUX,
    _CHE_CONJ,
    _CLITICS,
    _COPULA_VERBS,
    _DATIVE,
    _DEMONSTRATIVES,
    _FINITE_ENDINGS,
    _FINITE_VERBS,
    _GENERIC,
    _MODALS,
    _NOUN_SWAP,
    _PERSON_PRON,
    _PLAIN_ARTICLES,
    _POSSESSIVE,
    _PREDICATIVE,
    _PREPOSITIONS,
    _PRO_DROP,
    _QUOTES,
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
    if s.low[k] == "essere" and j >= 0 and s.low[j] in _MODALS and s.joined(j):
        return person_is_subject(s, covered, j, apposition)  # `potrebbe essere rinviato`
    if (
        s.low[k] == "essere"
        and j > 0
        and s.low[j] in ("dovuto", "potuto", "voluto")
        and s.low[j - 1] in _AUX
        and s.joined(j - 1)
        and s.joined(j)
    ):
        return person_is_subject(s, covered, j - 1, apposition)  # `avrebbe dovuto essere`
    while j >= 0 and (s.low[j] in _CLITICS or is_adverb(s.low[j])):
        if s.low[j] in _DATIVE and j == k - 1:
            return False  # `gli fu diagnosticato un cancro`: the subject is the illness
        if _gap(s, j):
            break
        j -= 1
    if not apposition and j >= 0 and _gap(s, j) == ",":
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
    if j < 0 or (not apposition and _gap(s, j)):  # a new clause, no subject
        return True
    w = s.low[j]
    if w in ("c'", "c’", "ci") and s.joined(j):
        return False  # `c'è stato un incendio`: the subject follows
    if w in ("ciò", "tutto", "quanto", "nulla", "niente", "questo", "quello") or w in _GENERIC:
        return False  # `ciò non è avvenuto`, `ora tutto è bloccato`, `nessuno si era`
    if (
        len(w) > 4
        and w.endswith(("are", "ere", "ire"))
        and not (j > 0 and s.joined(j - 1) and (s.low[j - 1] in _PREPOSITIONS or
                                                 s.low[j - 1] in ART_PREPS))
    ):  # fmt: skip
        return False  # `viaggiare è costoso`: an infinitive clause is the subject
    after_prep = j > 0 and s.low[j - 1] in _PREPOSITIONS and s.joined(j - 1)
    if (w in _PERSON_PRON or (covered[j] and w not in CLOSED)) and not after_prep:
        return True  # (`su di lui è falso`: a pronoun after a preposition is no subject)
    if s.toks[j][:1].isupper() and j > 0:
        # a name: the person, unless it follows an article (`il Capitolo`) or a preposition
        # (`L'establishment di Washington fu`: the subject is before it)
        while (
            j > 0
            and s.toks[j - 1][:1].isupper()
            and s.gap_after(j - 1) in (" ", "-")
            and s.low[j - 1] not in CLOSED  # `Il Rangers è`: the article opens a noun phrase
        ):
            j -= 1
        if (
            j > 0
            and s.joined(j - 1)
            and (s.low[j - 1] in _PREPOSITIONS or s.low[j - 1] in ART_PREPS)
            and s.low[j - 1] != "come"
        ):
            # `Il numero di vittime in Indonesia è`: a name inside a prepositional phrase
            return _np_before(s, covered, j - 1)
        if j > 1 and s.joined(j - 1) and s.low[j - 2] in _PLAIN_ARTICLES and s.joined(j - 2):
            # `Il tiralatte Elvie è`, `il pittore Rossi fu`: the noun before the name tells
            return covered[j - 1] or person_noun(s.low[j - 1])
        if (
            j > 1
            and s.joined(j - 1)
            and s.joined(j - 2)
            and s.low[j - 2] in ART_PREPS
            and not covered[j - 1]
            and s.low[j - 1].isalpha()
            and not s.toks[j - 1][:1].isupper()
        ):  # `la discriminazione delle persone LGBT è`: the name modifies a noun in a PP
            return _np_before(s, covered, j - 2)
        return j == 0 or s.low[j - 1] not in CLOSED or covered[j - 1]
    if w in ("e", "ed", "ma") and not apposition and j > 0:
        v = _previous_verb(s, j)
        if v is not None:  # `Il libro vinse il premio e fu tradotto`: the first clause's subject
            return person_is_subject(s, covered, v)
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
        if w in _PLAIN_ARTICLES or w in _DEMONSTRATIVES or w in ("tale", "tali", "ogni", "qualche"):
            before = s.low[j - 1] if j > 0 and not s.gap_after(j - 1).strip(" ") else ""
            if before not in _PREPOSITIONS and before not in ART_PREPS:
                # the head of the subject: up to its first preposition
                end = j + 1
                while end < k and s.low[end] not in _PREPOSITIONS | ART_PREPS:
                    end += 1
                return any(covered[x] and s.low[x] not in CLOSED for x in range(j, end)) or any(
                    w2 in _NOUN_SWAP["m2f"] or w2 in _NOUN_SWAP["f2m"] for w2 in s.low[j:end]
                )
        elif w in ("e", "ed", "o") and _np_coordination(s, j, k):
            pass  # `di bellezza e farmaceutici si è`: two modifiers inside the subject
        elif w in _PRO_DROP or w == "che" or w in _FINITE_VERBS or _finite_shape(s, j):
            # `Il compito che lui doveva affrontare era`: a relative clause after the subject
            c = _relative_start(s, j)
            if c is not None:
                return _np_before(s, covered, c)
            if w == "che" and j > 0 and s.joined(j - 1) and s.low[j - 1].isalpha():
                # `una pena che dal 1953 non è mai stata comminata`: `che` is the subject, its
                # antecedent before it tells
                return _che_person(s, covered, j)
            # a clause boundary before any subject, unless the clause is a relative of
            # `ciò che` (`Ciò che è stato scritto su di lui è falso`)
            return not _headed_by_pronoun(s, j)
        elif (
            s.toks[j][:1].isupper()
            and j > 0
            and s.low[j - 1] not in CLOSED
            and (j == 1 or s.gap_after(j - 1).strip(" ") or s.low[j - 1] in _PRO_DROP)
        ):
            # a name opening the clause is the person; inside a longer subject its head
            # decides (`la lettera W in gallese viene pronunciata`, `il figlio di Rossi`)
            return True
        if j > 0 and _gap(s, j - 1):
            return True
        j -= 1
    return True


def _gap(s: Sentence, j: int) -> str:
    """What stands between word ``j`` and the next one, spaces aside, where it can end a
    clause: not quotes or a percent sign (`il caso “non era”`, `il 90% è`), nor the
    separator inside a number (`un calo del 4,8 percento`)."""
    g = s.gap_after(j).strip(" ")
    if not g or all(c in _QUOTES for c in g) or s.gap_after(j) in ("-", "‑"):
        return ""  # (`l'hip-hop si è`: a hyphen joins one word)
    if g in (",", ".") and s.low[j].isdigit() and j + 1 < len(s.low) and s.low[j + 1].isdigit():
        return ""
    return g


def _np_coordination(s: Sentence, j: int, k: int) -> bool:
    """The conjunction at ``j`` joins two words of one noun phrase (`prodotti di bellezza e
    farmaceutici`), not two clauses (`e nel 1990 è`, `e poi fu`): a plain word follows it,
    not a preposition, article, adverb, name or verb."""
    if j + 1 >= k or not s.joined(j) or j == 0 or not s.joined(j - 1):
        return False
    w = s.low[j + 1]
    return (
        w.isalpha()
        and not s.toks[j + 1][:1].isupper()
        and w not in CLOSED
        and w not in _PREPOSITIONS
        and w not in _PRO_DROP
        and w not in _CLITICS
        and w not in _PERSON_PRON
        and w not in _FINITE_VERBS
        and not is_adverb(w)
        and not _finite_shape(s, j + 1)
        and s.low[j - 1].isalpha()
    )


def _previous_verb(s: Sentence, j: int) -> int | None:
    """The finite verb of the clause before the coordinator at ``j`` (`ha` in `Il libro ha
    vinto il premio ed è stato tradotto`), within the sentence and not past `che`."""
    for x in range(j - 1, max(-1, j - 16), -1):
        if s.gap_after(x).strip(" ") in (".", ";", ":") or s.low[x] in ("che", "cui"):
            return None
        if s.low[x] in _FINITE_VERBS or (s.low[x] in _COPULA_VERBS and s.joined(x)):
            return x
    return None


def _finite_shape(s: Sentence, j: int) -> bool:
    """Word ``j`` ends like a finite verb and no determiner stands right before it (after
    one it is a noun: `L'interesse si è`, `la badessa`)."""
    if not s.low[j].endswith(_FINITE_ENDINGS):
        return False
    return not (j > 0 and s.joined(j - 1) and (s.low[j - 1] in CLOSED or s.low[j - 1] in
                                               _POSSESSIVE))  # fmt: skip


def _relative_start(s: Sentence, j: int) -> int | None:
    """The `che` opening a relative clause that holds word ``j`` and ends before the
    copula, when a plain noun phrase (`Il compito che`) stands before it; else None."""
    c = j if s.low[j] == "che" else j - 1
    while c > 0 and s.low[c] != "che" and s.joined(c - 1) and j - c < 6:
        c -= 1
    if c < 2 or s.low[c] != "che" or not s.joined(c - 1):
        return None
    noun, det = s.low[c - 1], s.low[c - 2]
    if not noun.isalpha() or s.toks[c - 1][:1].isupper() or noun in CLOSED:
        return None
    if (det not in _PLAIN_ARTICLES and det not in _DEMONSTRATIVES) or not s.joined(c - 2):
        return None
    if c > 2 and s.joined(c - 3) and (s.low[c - 3] in _PREPOSITIONS or s.low[c - 3] in _SAYING):
        return None
    return c - 1


def _headed_by_pronoun(s: Sentence, j: int) -> bool:
    """Word ``j`` is inside a relative clause of `ciò che`, `quello che`, `tutto ciò che`."""
    c = j
    while c > 0 and s.low[c] != "che" and s.joined(c - 1) and j - c < 8:
        c -= 1
    return c > 0 and s.low[c] == "che" and s.low[c - 1] in ("ciò", "quello", "quanto", "tutto")


def person_noun(w: str) -> bool:
    """A noun that names a person (`pittore`, `cantante`, `regista`), as far as its shape
    or the hand list tell."""
    from occbio.rewrite.languages.it_forms import same_for_both

    if w in _NOUN_SWAP["m2f"] or w in _NOUN_SWAP["f2m"] or same_for_both(w, loose=True):
        return True
    return w.endswith(("tore", "trice", "essa", "iere", "iera", "ario", "aria", "ista", "ologo"))


def _np_before(s: Sentence, covered: Sequence[bool], j: int) -> bool:
    """The noun phrase that ends at word ``j`` (or right before a preposition at ``j``) and
    opens the clause: is it the person? Walks left to its determiner."""
    x = j
    while x > 0 and s.joined(x - 1):
        w = s.low[x]
        if (covered[x] and w not in CLOSED) or w in _PERSON_PRON:
            return True
        if w in _NOUN_SWAP["m2f"] or w in _NOUN_SWAP["f2m"]:
            return True
        if w in _PLAIN_ARTICLES or w in _DEMONSTRATIVES:
            before = s.low[x - 1] if x > 0 and s.joined(x - 1) else ""
            return before in _PREPOSITIONS or before in ART_PREPS  # a PP: not the subject
        if s.low[x - 1] in _FINITE_VERBS or s.low[x - 1].endswith(_FINITE_ENDINGS):
            return True
        x -= 1
    if x >= 0 and s.low[x] in _PLAIN_ARTICLES | _DEMONSTRATIVES:
        return covered[x]
    return True


def _che_person(s: Sentence, covered: Sequence[bool], j: int) -> bool:
    """`che` before the copula: a relative pronoun (its antecedent) or a conjunction."""
    if j == 0:
        return True
    p = s.low[j - 1]
    if p in ("il", "ciò", "cosa", "quello", "quella", "quanto"):
        return False  # `il che è stato commentato`, `Ciò che è certo`
    if s.low[j - 1] in _SAYING or p.endswith("ndo"):
        return True
    if covered[j - 1] or p in _PERSON_PRON:
        return True
    if s.toks[j - 1][:1].isupper():
        return True
    if s.gap_after(j - 1).strip(" "):
        # `, che`: the antecedent before the comma
        k = j - 1
        return covered[k] or s.toks[k][:1].isupper()
    return p in _CHE_CONJ or p.endswith(_FINITE_ENDINGS)


def person_is_agent(s: Sentence, covered: Sequence[bool], j: int) -> bool:
    """`fu donata dalla settima baronessa`, `fu ucciso da lui`: the person is the agent of
    the passive, so the subject is someone or something else."""
    n = len(s.low)
    if j + 2 < n and s.joined(j) and s.joined(j + 1) and s.low[j + 2] in ("lui", "lei"):
        return s.low[j + 1] in _PREPOSITIONS  # `è intitolato a lui`: dedicated to the person
    if j + 1 >= n or not s.joined(j) or s.low[j + 1] not in _AGENT_PREPS:
        return False
    if j + 2 < n and s.low[j + 2] in ("un", "uno", "una", "un'", "un’"):
        return False  # `fu accolto da un poliziotto`: someone else, not the known person
    for x in range(j + 2, min(j + 5, n)):
        if not s.joined(x - 1) and not s.low[x - 1].endswith(("'", "’")):
            break
        if s.low[x] in _PERSON_PRON:
            return True
        if covered[x] and s.low[x] not in CLOSED and s.low[x] not in _POSSESSIVE:
            # `inviata da sua zia`: a relative of the person is someone else
            return s.low[x - 1] not in _POSSESSIVE
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


def fronted_predicate(lang, d: str, s: Sentence, covered: Sequence[bool], lex, out) -> None:
    """A participle or adjective opening the sentence before a comma agrees with the subject
    of the main clause (`Attanagliato dal dilemma, Burghley era meno propenso`, `Spagnolo,
    fu uno dei primi`): it changes with the person when that subject is the person (no
    subject, a pronoun or a name) and the main clause already changed a word of theirs."""
    from occbio.rewrite.languages.it_forms import agree_form

    n = len(s.low)
    i = 1 if n > 1 and is_adverb(s.low[0]) and s.joined(0) else 0
    c = next((x for x in range(i, n - 1) if "," in s.gap_after(x)), None)
    if c is None or covered[i] or c - i > 12 or s.gap_after(c).strip() != ",":
        return
    if any(
        s.low[x] in _FINITE_VERBS or s.low[x].endswith(_FINITE_ENDINGS) for x in range(i, c + 1)
    ):
        return  # a clause of its own
    nxt = s.low[c + 1]
    if nxt in CLOSED and nxt not in _CLITICS:
        return  # `Costruito nel 1900, il teatro fu`: the subject is a noun phrase
    subject = (
        nxt in _PERSON_PRON
        or nxt in _CLITICS
        or nxt in _FINITE_VERBS
        or nxt.endswith(_FINITE_ENDINGS)
        or (s.toks[c + 1][:1].isupper() and nxt.isalpha())
    )
    if not subject or not any(covered[x] and s.low[x] not in CLOSED for x in range(c + 1, n)):
        return
    w = s.low[i]
    if (d == "m2f" and not w.endswith("o")) or (d == "f2m" and not w.endswith("a")):
        return
    after = s.low[i + 1]
    if i < c and not (after in _PREPOSITIONS or after in ART_PREPS or is_adverb(after)):
        return  # `Poco tempo dopo,`: the adjective of a noun
    new = agree_form(lang, d, lex, w)
    if new:
        out[i] = (1, (new,))
