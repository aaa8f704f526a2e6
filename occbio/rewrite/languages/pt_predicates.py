"""Portuguese predicates whose subject is the person: `ela foi presa`, `disse que estava
zangado`, `a consideram uma das maiores`, `considera-o um dos melhores`.

A predicate word changes only when the copula's subject is the changed person (a changed word,
a name after a changed title, a name that is the sentence's only person, or no subject of its
own: after a conjunction, a preposition or a comma, at the very start of a biography's sentence
(`Foi eleito deputado`), after an opening (`Em 1999, foi agraciado`, see ``pt_opening``) or
after `e` in a sentence that opens with its verb), so this module finds who the subject is.
Reflexive verbs with a predicate (`se declarou culpado`, `tornando-se o primeiro`) count as
copulas, plural copulas only after a changed subject, and a participle after `e` whose copula
is elided (`foi contratado ... e transferido`) follows the first, as a bare role noun follows a
changed one (`foi deputado ... e vereador`). It also keeps learned participle changes off other
nouns (`sua performance mais conhecida`, `o vulcão, conhecido por`, `isto foi considerado`, `a
chamada`, `uma criada`).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    DETERMINER_FORMS,
    IRREGULAR_PARTICIPLES,
    PERSON_PRED_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_common_noun,
    is_participle,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_noun_phrase import is_sure_person, person_np
from occbio.rewrite.languages.pt_opening import dropped_subject, persons_predicate
from occbio.rewrite.languages.pt_words import (
    _ADV,
    _AUX,
    _CONJ,
    _COPULAS,
    _COPULAS_PL,
    _EPICENE,
    _FUNCTION,
    _HEAD_END,
    _NAME_BLOCK,
    _NOT_ADJ,
    _OBJ_PRED,
    _PRE_ADJ,
    _PREP,
    _PROMOTED,
    _SUBJ_SKIP,
)

#: verbs whose reflexive takes a predicate (`mostrou-se orgulhoso`, `sentiu-se traído`)
_REFLEXIVE_PRED = (*_OBJ_PRED, "mostr", "revel", "sent", "mant", "ach")


def predicate_starts(
    s: Sentence, i: int, changed: set, pron: set, lex: Lexicon, clitics: set
) -> bool:
    """Token ``i`` begins the predicate of a copula whose subject is the changed person."""
    low = s.low
    k = i - 1
    while k >= 0 and (is_adverb(low[k]) or low[k] == "se") and s.gap_after(k) in (" ", "-"):
        k -= 1
    if k >= 1 and k - 1 in clitics and low[k].startswith(_OBJ_PRED):
        return all(is_adverb(low[j]) for j in range(k + 1, i))  # `a tornasse tão feia`
    if (
        k == i - 1 and k >= 1 and s.covered[k] and low[k] in _ENCLITICS
        and s.gap_after(k - 1) == "-" and s.gap_after(k) == " "
        and low[k - 1].startswith(_OBJ_PRED)
    ):  # fmt: skip
        return True  # `considera-o um dos melhores`: the object's predicate
    if (
        i > 0 and i - 1 in changed and low[i - 1].startswith(_OBJ_PRED[1:])
        and is_participle(low[i - 1]) and s.gap_after(i - 1) == " "
        and low[i] in ("o", "a", "um", "uma") and persons_predicate(s, i)
    ):  # fmt: skip
        return True  # `Considerado um dos maiores`, `foi considerada a fundadora`
    if i > 1 and low[i - 1] == "a" and low[i - 2].startswith(_PROMOTED) and i - 2 in changed:
        # `foi promovida a capitã`
        return is_common_noun(s, i) and low[i] not in DETERMINER_FORMS and _role_end(s, i)
    if k == i - 1 and k in changed and low[k].startswith(_NAMED_AS) and s.gap_after(k) == " ":
        # `foi nomeada ministra`, `eleito o melhor jogador`: the predicate of a changed
        # participle (not `eleita pelo conselho`)
        if low[i] in ("o", "a", "um", "uma"):
            return True
        return is_common_noun(s, i) and low[i] not in DETERMINER_FORMS and _role_end(s, i)
    if k < 0 or s.gap_after(k) not in (" ", "-"):
        return False  # `é, claro, o agente`: no predicate after a comma
    if low[k] in _COPULAS_PL:  # `seus netos foram presos`: the changed subject only
        if not all(is_adverb(low[j]) for j in range(k + 1, i)):
            return False
        j = k - 1
        while j >= 0 and low[j] in _SUBJ_SKIP and s.gap_after(j) == " ":
            j -= 1
        if j > 0 and low[j] in ("dele", "dela") and s.gap_after(j - 1) == " ":
            j -= 1  # `os netos dele foram presos`
        return j >= 0 and j in changed and low[j] not in PRONOUN_FORMS and s.gap_after(j) == " "
    # a reflexive verb with a predicate: `se declarou culpado`, `considerava-se feliz`
    reflexive = low[k].startswith(_REFLEXIVE_PRED) and (
        (k > 0 and low[k - 1] == "se" and s.gap_after(k - 1) == " ")
        or (k + 1 < i and low[k + 1] == "se" and s.gap_after(k) == "-")
    )
    if low[k] not in _COPULAS and not reflexive:
        return False
    if reflexive:
        if not all(is_adverb(low[j]) or low[j] == "se" for j in range(k + 1, i)):
            return False
        k -= 1 if low[k - 1 : k] == ["se"] else 0
    elif low[k] in ("tornou", "torna", "tornara", "tornar"):
        if not (k + 1 < i and low[k + 1] == "se") and not (k > 0 and low[k - 1] == "se"):
            return False
    elif not all(is_adverb(low[j]) for j in range(k + 1, i)):
        return False
    if low[k] in ("sendo", "tornando") and k > 0 and s.gap_after(k - 1) == ", " and pron:
        return True  # `..., sendo um homossexual assumido`: the main clause's subject
    j = k - 1
    while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
        j -= 1
    if j < 0:
        # a sentence that opens with its verb has the person as its subject: `É casado
        # com`, `Foi eleito deputado` (a biography's own sentence)
        return bool(pron) or (k == 0 and s.toks[0][:1].isupper() and persons_predicate(s, i))
    after_opening = s.gap_after(j) == ", " or (s.gap_after(j) == " " and low[j].isdigit())
    if after_opening and j + 1 == k and dropped_subject(s, j, changed):
        return persons_predicate(s, i)  # `Em 1999, foi agraciada`, `Presa em 1962, esteve`
    if s.gap_after(j) not in (" ", "-"):
        return False
    if j in changed and low[j] in ("dele", "dela") and j > 0 and s.gap_after(j - 1) == " ":
        return j - 1 in changed  # `o pai dele foi`, not `por parte dele se tornou`
    if j in changed:
        return True
    # no subject: the person's (`disse que estava zangado`, `embora estivesse envolvido`)
    verb_first = not changed and _verb_first(s, lex) and persons_predicate(s, i)
    if (changed or verb_first) and low[j] in _CONJ and s.gap_after(j) == " ":
        if low[j] != "que":
            return True
        return j > 0 and (j - 1 in changed or is_verb(low[j - 1], lex))
    # an infinitive clause after a preposition: `após ser libertado`, `por ter sido preso`
    if pron and low[j] in _PREP and low[k] in ("ser", "estar", "sido", "ficar"):
        return True
    return (j > 0 and _is_name_end(s, j, changed)) or (not changed and _sole_name(s, j))


def _verb_first(s: Sentence, lex: Lexicon) -> bool:
    """The sentence opens with a finite verb and no subject (`Recebeu o prémio em 2001 e
    foi condecorada`): its subject is the person."""
    w = s.low[0]
    return (
        len(s.low) > 3
        and s.toks[0][:1].isupper()
        and w.endswith(("ou", "eu", "iu"))
        and (is_verb(w, lex, True))
    )


def _sole_name(s: Sentence, j: int) -> bool:
    """Token ``j`` ends a name that opens the sentence, and nothing else in it names a
    person (the caller checks that nothing is changed): `Macquarie ficou impressionado`.
    One word must be no common word (`Tudo parece`)."""
    low, toks = s.low, s.toks
    b = j
    while b > 0 and toks[b - 1][:1].isupper() and s.gap_after(b - 1) == " ":
        b -= 1
    if b != 0 or not toks[j][:1].isupper() or s.lex is None:
        return False
    run = low[: j + 1]
    if any(w in _FUNCTION or w in _NAME_BLOCK or w in PRONOUN_FORMS for w in run):
        return False
    return j > 0 or s.lex.zipf.get(low[0], 0.0) < 3.0


def _is_name_end(s: Sentence, j: int, changed: set) -> bool:
    """Token ``j`` ends the name of the person: a capitalised run (not an acronym) right
    after a changed title (`a Sra. Gradgrind`). A bare name may be anyone's (the choosing
    pairs: as often another person as the person), so it is not enough."""
    low, toks = s.low, s.toks
    if not toks[j][:1].isupper() or (len(toks[j]) > 1 and toks[j].isupper()):
        return False
    b = j
    while (
        b > 0 and toks[b - 1][:1].isupper() and s.gap_after(b - 1) == " "
        and low[b - 1] not in _NAME_BLOCK
    ):  # fmt: skip
        b -= 1
    return b > 0 and (b - 1) in changed


def elided_predicate(d: str, s: Sentence, i: int, lex: Lexicon, nominal: set) -> Plan:
    """`foi contratado pela Petrobras e transferido para`: a participle after `e` whose copula
    is elided, coordinated with a changed predicate participle of the same clause (no comma,
    verb, pronoun or `que` between)."""
    low, toks = s.low, s.toks
    w = low[i]
    if not (i > 1 and low[i - 1] == "e" and toks[i][:1].islower() and is_participle(w)):
        return {}
    if s.gap_after(i - 1) != " " or s.gap_after(i - 2) != " ":
        return {}
    for p in range(i - 2, max(i - 10, 0), -1):
        if s.gap_after(p) not in (" ", "-"):
            return {}
        if p in nominal and is_participle(low[p]):
            k = p - 1
            while k >= 0 and is_adverb(low[k]) and s.gap_after(k) == " ":
                k -= 1
            if k < 0 or low[k] not in _COPULAS:
                return {}
            t = other_gender(d, w, lex)
            return {i: (1, (t,))} if t is not None and t != w else {}
        q = low[p]
        if q in ("que", "e", "ou", "mas") or q in PRONOUN_FORMS or q in _COPULAS:
            return {}
        if toks[p][:1].islower() and p not in nominal and is_verb(q, lex):
            return {}
    return {}


def coordinated_role(d: str, s: Sentence, i: int, lex: Lexicon, nominal: set) -> Plan:
    """`Foi deputada à Assembleia e vereadora da Câmara`: a bare role noun after `e`,
    coordinated with a changed bare role noun that is a copula's predicate (no comma, verb,
    pronoun or `que` between); only a person noun for sure."""
    low, toks = s.low, s.toks
    w = low[i]
    if not (i > 1 and low[i - 1] in ("e", "ou") and toks[i][:1].islower()):
        return {}
    if s.gap_after(i - 1) != " " or s.gap_after(i - 2) != " " or w in DETERMINER_FORMS:
        return {}
    if not _role_end(s, i):
        return {}
    for p in range(i - 2, max(i - 10, 0), -1):
        if s.gap_after(p) not in (" ", "-"):
            return {}
        q = low[p]
        if p in nominal and q not in DETERMINER_FORMS:
            b = p - 1  # across its changed article and adjectives (`o atual líder`)
            while (
                b > 0
                and low[b] not in PRONOUN_FORMS
                and (s.covered[b] or low[b] in DETERMINER_FORMS or low[b] in _PRE_ADJ)
            ):
                b -= 1
            if not (low[b] in _COPULAS or low[b].startswith(_NAMED_AS)):
                return {}
            if s.gap_after(b) != " ":
                return {}
            t = other_gender(d, w, lex, adjlike=False, veto=False, agent=True)
            if t is None or t == w or not is_sure_person(d, w, t, lex):
                return {}
            return {i: (1, (t,))}
        if q in ("que", "e", "ou", "mas") or q in PRONOUN_FORMS or q in _COPULAS:
            return {}
        if toks[p][:1].islower() and low[p - 1] not in DETERMINER_FORMS and is_verb(q, lex):
            return {}  # a verb (after an article a noun: `do partido`)
    return {}


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
    t = other_gender(d, low[k], lex, veto=False) or _regular_participle(d, low[k])
    if t is None and _role_end(s, k) and low[k] not in _EPICENE:
        # a bare role noun: `foi nomeado ministro da`, `foi aluno do` (a person noun for sure)
        t = other_gender(d, low[k], lex, adjlike=False, veto=False, agent=True)
        named = k > 0 and low[k - 1].startswith(_NAMED_AS)
        named = named or (k > 1 and low[k - 1] == "a" and low[k - 2].startswith(_PROMOTED))
        if t is not None and not named and not is_sure_person(d, low[k], t, lex):
            t = None
    if t is not None and t != low[k]:
        out[k] = (1, (t,))
    return out


#: object clitics after a hyphen (`considera-o`)
_ENCLITICS = frozenset("o a lo la no na".split())

#: participles that take a role noun as the person's predicate (`nomeado ministro`)
_NAMED_AS = ("nomead", "eleit", "reeleit", "proclamad", "coroad", "empossad", "designad")


def _role_end(s: Sentence, k: int) -> bool:
    """A bare noun at ``k`` ends before a preposition or punctuation (`ministro da Saúde`)."""
    return k + 1 >= len(s.low) or s.gap_after(k) != " " or s.low[k + 1] in _HEAD_END


def _regular_participle(d: str, w: str) -> str | None:
    """The other form of a participle in -ado / -ido (always regular) or of a listed
    irregular one, where the word lists lack it (`condecorado`, `suspenso`)."""
    src = ("ado", "ido", "ados", "idos") if d == "m2f" else ("ada", "ida", "adas", "idas")
    ending = ("o", "os") if d == "m2f" else ("a", "as")
    irregular = w in IRREGULAR_PARTICIPLES and w.endswith(ending)  # `suspenso`
    if not irregular and (len(w) < 7 or not w.endswith(src) or w in _NOT_ADJ):
        return None
    if w.endswith("s"):
        return w[:-2] + ("as" if d == "m2f" else "os")
    return w[:-1] + ("a" if d == "m2f" else "o")


_MASC_DETS = frozenset("o os um uns do dos no nos ao aos pelo pelos seu seus este esse".split())
_FEM_DETS = frozenset("a as uma umas da das na nas à às pela pelas sua suas esta essa".split())


def _gender_of(w: str) -> str | None:
    """The gender a word's ending shows: `-o(s)` masculine, `-a(s)`, `-ção`, `-dade`
    feminine, else None."""
    if w.endswith(("o", "os")):
        return "m"
    if w.endswith(("a", "as", "ção", "ções", "dade", "dades")):
        return "f"
    return None


def _gender(s: Sentence, k: int) -> str | None:
    """The gender of the noun at ``k``: its determiner's, else its ending's."""
    prev = s.low[k - 1] if k > 0 else ""
    if prev in _MASC_DETS:
        return "m"
    if prev in _FEM_DETS:
        return "f"
    return _gender_of(s.low[k])


#: articles that make a participle a noun (`a chamada`, `uma criada`)
_NOMINALISING = frozenset("o a um uma do da no na ao à pelo pela num numa".split())

#: neuter pronouns: a subject that is no person
_NEUTER = frozenset("isto isso aquilo tudo nada algo".split())


def _attributive(s: Sentence, i: int) -> bool:
    """The participle at ``i`` stands before a common noun (no verb) and is no person noun
    itself (`marido`, `enteado` end like participles)."""
    low = s.low
    if i + 1 >= len(low) or s.gap_after(i) != " " or not is_common_noun(s, i + 1):
        return False
    if low[i] in PERSON_PRED_SWAP["m2f"] or low[i] in PERSON_PRED_SWAP["f2m"]:
        return False
    return s.lex is not None and not is_verb(low[i + 1], s.lex, True)


def participle_can_be_persons(s: Sentence, i: int, plan: Plan) -> bool:
    """A learned participle change (`nomeado`, `conhecida`) at ``i`` only where it can be the
    person's: not attributive to another noun (`seu gênio é conhecido`, `sua performance
    mais conhecida`), not `nomeado em homenagem a` (a thing named after the person)."""
    low = s.low
    if low[i + 1 : i + 3] == ["em", "homenagem"]:
        return False
    if (
        i > 0 and i - 1 not in plan and low[i - 1] in _NOMINALISING and s.gap_after(i - 1) == " "
        and not (i > 1 and low[i - 2] in _COPULAS)
        and low[i] not in PERSON_PRED_SWAP["m2f"] and low[i] not in PERSON_PRED_SWAP["f2m"]
    ):  # fmt: skip
        return False  # `atendeu a chamada`, `uma criada`: a noun of its own, not a predicate
    k = i - 1
    while k >= 0 and is_adverb(low[k]) and s.gap_after(k) == " ":
        k -= 1
    if k >= 0 and s.gap_after(k) == ", " and k not in plan and k > 0 and k - 1 not in plan:
        # `O vulcão, conhecido por`: an apposition to the thing just named, when the
        # thing's gender is the participle's (`a equipa, contratado por` is the person's)
        return not (is_common_noun(s, k) and _gender(s, k) in (None, _gender_of(low[i])))
    if k < 0 or s.gap_after(k) != " " or k in plan:
        return True
    if low[k] in DETERMINER_FORMS and _attributive(s, i):
        return False  # `um conhecido restaurante`: the noun's; agreement decides
    if low[k] in _COPULAS:
        j = k - 1
        while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
            j -= 1
        if j < 0 or j in plan or s.gap_after(j) != " ":
            return True
        k = j
    return not is_common_noun(s, k) and low[k] not in _NEUTER  # `isto foi considerado`
