"""Portuguese: the :class:`Portuguese` rules, whose hooks hand each job to its own module.

What changes: pronouns and person nouns (the learned tables); articles, contractions and
adjectives that agree with a changed noun (``pt_agreement``); predicates after a copula whose
subject is the person (``pt_predicates``), with the noun phrases that name the person (`um dos
X`, ``pt_noun_phrase``); Wikipedia lead sentences, rewritten whole or not at all (``pt_lead``);
the sentence's opening and subjectless clauses (``pt_opening``). Word forms and the
other-gender guess are in ``pt_forms``, the word lists in ``pt_words``. With relatives kept,
the noun phrase after a kinship noun and `de` is the relative's too (`filha do pintor X`), and
so is a person noun before a first name of its own gender (`conheceu o ator Paulo Reis`);
person nouns inside the name of a place or an institution (`Rua da Princesa`, `Nossa Senhora`)
never change.

The engine's own suffix guess (any word next to any changed word) is switched off
(``suffixes=()``): every agreement here is proposed by :meth:`Portuguese.propose`, which sees the
whole sentence and so can tell an adjective after a changed noun (`o filho mais novo`) from a verb
after a changed pronoun (`ela continua`) or a noun after a changed contraction (`o parto da
duquesa`). :meth:`Portuguese.allows` vetoes, in turn, what the learned substitutions would change
wrongly: anything inside a lead's predicate its parse did not decide (and the whole sentence
when a predicate word has no known other-gender form), learned adjective changes (`novo`,
`próprio`) except next to a change or as a predicate, learned participle changes on other nouns,
a plural person noun that ends a name (`Paulo Reis`), `cara` that is a face, `nele`/`nela`
not after a verb (in a thing: `as drogas nele`), and an opening participle whose clause is
about a thing (`Considerado um clássico, o filme`).
"""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_agreement import (
    adjective_change,
    agrees_here,
    determiner_change,
    fathers_change,
    gender_word,
)
from occbio.rewrite.languages.pt_forms import (
    DETERMINER_FORMS,
    DETERMINER_SWAP,
    IRREGULAR_PARTICIPLES,
    PERSON_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_lead import sentence_lead
from occbio.rewrite.languages.pt_opening import opening, thing_subject_after_comma
from occbio.rewrite.languages.pt_predicates import (
    coordinated_role,
    elided_predicate,
    participle_can_be_persons,
    predicate,
    predicate_starts,
)
from occbio.rewrite.languages.pt_words import _ADJ, _PARTICIPLE

#: the hand-listed person nouns, either gender
PERSON_FORMS = frozenset(PERSON_SWAP["m2f"]) | frozenset(PERSON_SWAP["f2m"])


def _surname(s: Sentence, i: int) -> bool:
    """A capitalised plural person noun right after a capitalised name is a surname (`Paulo
    Reis`): a title before a name is singular (`Rei Artur`), and a title's article goes
    before the whole (`os Três Reis Magos`)."""
    toks, low = s.toks, s.low
    w = low[i]
    if i == 0 or not toks[i][:1].isupper() or not toks[i - 1][:1].isupper():
        return False
    if s.gap_after(i - 1) != " " or w not in PERSON_FORMS or not w.endswith("s"):
        return False
    b = i - 1
    while b > 0 and toks[b - 1][:1].isupper() and s.gap_after(b - 1) == " ":
        b -= 1
    return not (b > 0 and low[b - 1] in DETERMINER_FORMS) and low[i - 1] not in DETERMINER_FORMS


#: kinship (and pupil, friend) nouns whose `de` complement names another person, a relative
#: or an associate (`filha do pintor X`, `aluno do escultor Y`)
_KIN_OF = frozenset(
    """mãe pai irmã irmão filha filho tia tio sobrinha sobrinho avó avô neta neto esposa esposo
    marido prima primo cunhada cunhado sogra sogro noiva noivo viúva viúvo enteada enteado
    bisneta bisneto madrasta padrasto mães pais irmãs irmãos filhas filhos netas netos
    amigo amiga aluno aluna discípulo discípula""".split()
)
_OF = frozenset("de do da dos das".split())
_NP_STOP = frozenset("que quem e ou com em para por onde como quando mas".split())


def relative_complements(s: Sentence) -> set[int]:
    """The noun phrase after a kinship noun and `de` (`filha do político X`, `filho de um
    comerciante e de uma professora`) names the relative, not the person: its words are the
    relative's, kept with the relatives."""
    low, toks, n = s.low, s.toks, len(s.low)
    out: set[int] = set()
    for i in range(n - 2):
        if low[i] not in _KIN_OF:
            continue
        j = i + 1  # across at most two words (`o irmão mais novo do rei`)
        while j < min(i + 3, n - 1) and low[j] not in _OF and toks[j][:1].islower():
            if low[j] in _NP_STOP or low[j] in DETERMINER_FORMS or s.gap_after(j - 1) != " ":
                break
            j += 1
        if low[j] not in _OF or s.gap_after(j - 1) != " ":
            continue
        while j < n and low[j] in _OF:
            out.add(j)
            j += 1
            while j < n and s.gap_after(j - 1) == " " and toks[j][:1].islower():
                if low[j] in _NP_STOP:
                    break
                out.add(j)
                j += 1
            # `de um comerciante e de uma professora`: a coordinated second complement
            if j + 1 < n and low[j] == "e" and s.gap_after(j - 1) == " " and low[j + 1] in _OF:
                j += 1
            elif j < n and s.gap_after(j - 1) != " ":
                break
            else:
                while j < n and toks[j][:1].isupper() and s.gap_after(j - 1) in (" ", ". "):
                    j += 1  # the relative's name (`D. Carlos I`)
                if not (j + 1 < n and low[j] == "e" and low[j + 1] in _OF):
                    break
                j += 1
    return out


#: capitalised words that begin the name of a place or an institution, whose person nouns
#: name someone else (`Rua da Princesa`, `Escola Rainha Dona Leonor`, `Prémio Rainha Sofia`)
_PLACE_WORDS = frozenset(
    """rua avenida praça largo travessa estrada ponte estação igreja capela basílica catedral
    convento mosteiro paróquia colégio escola liceu universidade faculdade instituto hospital
    museu fundação teatro palácio quinta jardim parque cemitério ordem prémio prêmio medalha
    torre porto cabo baía serra ilha rio bairro vila freguesia navio""".split()
)
_NAME_LINKS = frozenset("de da do dos das e".split())


def _in_place_name(s: Sentence, i: int) -> bool:
    """The capitalised token ``i`` is inside the name of a place or an institution (a run of
    capitalised words, joined by `de`/`da`/`e`, with a place word before it), or is `Senhora`
    / `Senhor` of `Nossa Senhora` / `Nosso Senhor`."""
    low, toks = s.low, s.toks
    if not toks[i][:1].isupper() or i == 0:
        return False
    if low[i - 1] in ("nossa", "nosso") and toks[i - 1][:1].isupper():
        return True
    k = i - 1
    while k >= 0 and s.gap_after(k) == " ":
        if toks[k][:1].isupper():
            if low[k] in _PLACE_WORDS:
                return True
        elif low[k] not in _NAME_LINKS:
            return False
        k -= 1
    return False


def named_others(s: Sentence) -> set[int]:
    """A lower-case person noun, not the sentence's subject, right before a first name whose
    ending shows the noun's own gender (`conheceu o ator Paulo Reis`, `pela rainha D. Maria`):
    that named person's, with its article, kept with the relatives."""
    low, toks, n = s.low, s.toks, len(s.low)
    out: set[int] = set()
    for i in range(2, n - 1):
        w = low[i]
        masc, fem = w in PERSON_SWAP["m2f"], w in PERSON_SWAP["f2m"]
        if not (masc or fem) or not toks[i][:1].islower() or low[i - 1] not in DETERMINER_FORMS:
            continue
        j = i + 1
        if low[j] in ("d", "dom", "dona") and s.gap_after(i) == " ":
            j += 1  # `D. João`
        if j >= n or s.gap_after(j - 1) not in (" ", ". ") or not toks[j][:1].isupper():
            continue
        name = low[j]
        if len(name) < 3 or not toks[j][1:].islower():
            continue
        if (masc and name.endswith(("o", "ão"))) or (fem and name.endswith("a")):
            out.update((i - 1, i))
    return out


def _after_verb(s: Sentence, i: int) -> bool:
    """Token ``i`` follows a verb (across adverbs): `confiava muito nele`."""
    k = i - 1
    while k >= 0 and is_adverb(s.low[k]) and s.gap_after(k) == " ":
        k -= 1
    if k < 0 or s.gap_after(k) != " " or s.lex is None:
        return False
    if s.low[k].startswith(_IN_A_PLACE):
        return False  # `morava nela`: in the house
    return is_verb(s.low[k], s.lex, True) or s.low[k].endswith(("ar", "er", "ir"))


#: verbs of being or living somewhere: `nele` / `nela` after them is a place
_IN_A_PLACE = ("mor", "viv", "habit", "entr", "trabalh", "permanec", "fic", "est", "nasc")


@dataclass
class Portuguese(Language):
    def relatives(self, s: Sentence) -> set[int]:
        """Kinship nouns owned by the person (the engine's rule), the noun phrases after a
        kinship noun and `de` (:func:`relative_complements`) and other named people
        (:func:`named_others`)."""
        return super().relatives(s) | relative_complements(s) | named_others(s)

    # ---------------------------------------------------------------- substitutions
    def never_change(self, d: str) -> list[str]:
        # articles and contractions: only through the guarded rule in propose
        # `pais` (parents / fathers) and `membro` are usually left alone
        return [*sorted(DETERMINER_SWAP[d]), "o", "a", "lo", "la", "pais", "membro", "membros"]

    def allows(
        self,
        d: str,
        s: Sentence,
        i: int,
        ln: int,
        tgt: tuple[str, ...],
        plan: Plan,
        *,
        source: str = "table",
    ) -> bool:
        """Inside a lead only what its parse decided; a learned adjective change only where
        it is the person's; a learned participle change only where it can be the person's."""
        w = s.low[i]
        lead = sentence_lead(d, s, s.lex) if s.lex is not None else None
        if lead is not None:
            if lead["plan"] is None:
                return False  # a lead this cannot rewrite whole stays as it is
            if any(p in lead["span"] for p in range(i, i + ln)):
                return ln == 1 and lead["plan"].get(i) == (1, tuple(tgt))
        if w in ("nele", "nela") and not _after_verb(s, i):
            return False  # `as drogas nele`: in a thing; `acreditou nela`: the person
        if _in_place_name(s, i):
            return False  # `Rua da Princesa`, `Colégio Rainha Santa Isabel`, `Nossa Senhora`
        if _surname(s, i):
            return False  # `Paulo Reis`, `João Conde`: the end of a name, no title
        if w == "cara" and not (i > 0 and s.low[i - 1] in DETERMINER_SWAP["m2f"]):
            return False  # `a cara` is a face; only `o cara`, `um cara` is a guy
        if source == "free" and ln == 1:
            # an adjective the data changes (`novo`, `próprio`): only the person's
            masc = tgt[0] if d == "f2m" else w
            adj = masc.rstrip("s") in _ADJ and not masc.endswith(_PARTICIPLE)
            if adj and not agrees_here(s, i):
                return False
        if ln != 1 or not (w.endswith(_PARTICIPLE) or w in IRREGULAR_PARTICIPLES):
            return True
        if i == 0 and s.lex is not None and thing_subject_after_comma(d, s, 0, s.lex):
            return False  # `Considerado um clássico, o filme ...`: the thing's
        return participle_can_be_persons(s, i, plan)

    # ---------------------------------------------------------------- proposals
    def role_form(self, d: str, s: Sentence, i: int, lex: Lexicon) -> str | None:
        """A word describing the named person: its other-gender form, agent nouns included
        (``pintor`` → ``pintora``), unless the data mostly leaves it."""
        return other_gender(d, s.low[i], lex, agent=True, veto=True)

    def propose(self, d: str, s: Sentence, covered: list[bool], plan: Plan, lex: Lexicon) -> Plan:
        low, n = s.low, len(s.low)
        s.notes["covered"] = covered
        out: Plan = {}
        src_of = {}
        for i, (ln, tgt) in plan.items():
            if ln == 1 and len(tgt) == 1:
                src_of[i] = (low[i], tgt[0])
        pron = {i for i, (a, _) in src_of.items() if a in PRONOUN_FORMS}
        dets = {i for i, (a, _) in src_of.items() if a in DETERMINER_FORMS}
        nominal = {i for i in src_of if i not in pron and i not in dets}
        # object pronouns changed (`a tornasse`, `a consideram`)
        clitics = {i for i in dets if low[i] in ("o", "a") and i + 1 not in src_of}

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        lead = sentence_lead(d, s, lex)
        if lead is not None:
            if lead["plan"] is None:
                return {}
            if not s.notes.get("lead_done"):
                s.notes["lead_done"] = True
                out.update({p: v for p, v in lead["plan"].items() if free(p)})
        if not s.notes.get("opening"):
            s.notes["opening"] = True
            out.update(opening(d, s, lex, free))
        for i in range(n):
            if not free(i):
                continue
            # the first rule that proposes anything at ``i`` wins, in this order
            out.update(
                determiner_change(d, s, i, nominal, dets)
                or fathers_change(d, s, i)
                or gender_word(d, s, i, nominal)
                or adjective_change(d, s, i, lex, nominal)
                or elided_predicate(d, s, i, lex, nominal)
                or coordinated_role(d, s, i, lex, nominal)
                # predicate after a copula whose subject is the person: `ela foi presa`
                or (
                    predicate(d, s, i, lex, free)
                    if predicate_starts(s, i, pron | nominal, pron, lex, clitics)
                    else {}
                )
            )
        if lead is not None:  # inside the lead's predicate only what its parse decided
            span, lp = lead["span"], lead["plan"]
            out = {p: v for p, v in out.items() if p not in span or lp.get(p) == v}
        return out


RULES = Portuguese(
    "pt",
    copulas=frozenset(),
    name_copulas=frozenset({"foi", "é", "era", "tornou", "será"}),
    role_markers=(("como",),),
)
