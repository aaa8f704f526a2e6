"""Portuguese predicates whose subject is the person: `ela foi presa`, `disse que estava
zangado`, `a consideram uma das maiores`, and the opening of a sentence (`Horrorizado com`,
`O policial então gritou`).

A predicate word changes only when the copula's subject is the changed person (a changed word,
a name after a changed title, a name that is the sentence's only person, or no subject of its
own after a conjunction, a preposition or a comma), so this module finds who the subject is.
Reflexive verbs with a predicate (`se declarou culpado`) count as copulas, plural copulas only
after a changed subject, and a participle after `e` whose copula is elided (`foi contratado
... e transferido`) follows the first. It also keeps learned participle changes off other nouns
(`sua performance mais conhecida`, `o vulcão, conhecido por`, `isto foi considerado`).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    DETERMINER_FORMS,
    PERSON_PRED_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_common_noun,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_noun_phrase import is_sure_person, person_np
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADV,
    _AUX,
    _CONJ,
    _COPULAS,
    _COPULAS_PL,
    _EPICENE,
    _FUNCTION,
    _HEAD_END,
    _INVARIANT_PERSON,
    _NAME_BLOCK,
    _NOT_ADJ,
    _OBJ_PRED,
    _OPENERS,
    _PARTICIPLE,
    _PREP,
    _PROMOTED,
    _SUBJ_SKIP,
    _SURE_PERSON,
    _THING_PARTICIPLES,
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
    if low[k] == "sendo" and k > 0 and s.gap_after(k - 1) == ", " and pron:
        return True  # `..., sendo um homossexual assumido`: the main clause's subject
    j = k - 1
    while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
        j -= 1
    if j < 0:
        return bool(pron)
    if s.gap_after(j) not in (" ", "-"):
        return False
    if j in changed and low[j] in ("dele", "dela") and j > 0 and s.gap_after(j - 1) == " ":
        return j - 1 in changed  # `o pai dele foi`, not `por parte dele se tornou`
    if j in changed:
        return True
    # no subject: the person's (`disse que estava zangado`, `embora estivesse envolvido`)
    if changed and low[j] in _CONJ and s.gap_after(j) == " ":
        if low[j] != "que":
            return True
        return j > 0 and (j - 1 in changed or is_verb(low[j - 1], lex))
    # an infinitive clause after a preposition: `após ser libertado`, `por ter sido preso`
    if pron and low[j] in _PREP and low[k] in ("ser", "estar", "sido", "ficar"):
        return True
    return (j > 0 and _is_name_end(s, j, changed)) or (not changed and _sole_name(s, j))


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


#: participles that do not end in -ado / -ido
_IRREGULAR_PARTICIPLES = frozenset(
    """preso presa presos presas eleito eleita eleitos eleitas reeleito reeleita morto morta
    mortos mortas aceito aceita suspenso suspensa expulso expulsa solto solta visto vista
    escrito escrita coberto coberta aberto aberta feito feita dito dita posto posta""".split()
)


def _participle(w: str) -> bool:
    return w.endswith(_PARTICIPLE) or w in _IRREGULAR_PARTICIPLES


def elided_predicate(d: str, s: Sentence, i: int, lex: Lexicon, nominal: set) -> Plan:
    """`foi contratado pela Petrobras e transferido para`: a participle after `e` whose copula
    is elided, coordinated with a changed predicate participle of the same clause (no comma,
    verb, pronoun or `que` between)."""
    low, toks = s.low, s.toks
    w = low[i]
    if not (i > 1 and low[i - 1] == "e" and toks[i][:1].islower() and _participle(w)):
        return {}
    if s.gap_after(i - 1) != " " or s.gap_after(i - 2) != " ":
        return {}
    for p in range(i - 2, max(i - 10, 0), -1):
        if s.gap_after(p) not in (" ", "-"):
            return {}
        if p in nominal and _participle(low[p]):
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
    irregular = w in _IRREGULAR_PARTICIPLES and w.endswith(ending)  # `suspenso`
    if not irregular and (len(w) < 7 or not w.endswith(src) or w in _NOT_ADJ):
        return None
    if w.endswith("s"):
        return w[:-2] + ("as" if d == "m2f" else "os")
    return w[:-1] + ("a" if d == "m2f" else "o")


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
        and w not in _THING_PARTICIPLES and not _thing_subject_after_comma(d, s, k, lex)
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


def _thing_subject_after_comma(d: str, s: Sentence, k: int, lex: Lexicon) -> bool:
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
