"""Portuguese: the :class:`Portuguese` rules, whose hooks hand each job to its own module.

What changes: pronouns and person nouns (``extra_subs``); articles, contractions and
adjectives that agree with a changed noun (``pt_agreement``); predicates after a copula whose
subject is the person, and the sentence's opening (``pt_predicates``); noun phrases that name the
person, `um dos X`, `como` + noun phrase and appositions (``pt_noun_phrase``); object clitics
(``pt_pronouns``); Wikipedia lead sentences, rewritten whole or not at all (``pt_lead``). Word
forms and the other-gender guess are in ``pt_forms``, the word lists in ``pt_words``.

The engine's own suffix guess (any word next to any changed word) is switched off
(``suffixes=()``): every agreement here is proposed by :meth:`Portuguese.propose`, which sees the
whole sentence and so can tell an adjective after a changed noun (`o filho mais novo`) from a verb
after a changed pronoun (`ela continua`) or a noun after a changed contraction (`o parto da
duquesa`). :meth:`Portuguese.allows` vetoes, in turn, what the learned substitutions would change
wrongly: anything inside a lead's predicate its parse did not decide (and the whole sentence
when a predicate word has no known other-gender form), learned adjective changes (`novo`,
`próprio`) except next to a change or as a predicate, learned participle changes on other nouns,
a plural person noun that ends a name (`Paulo Reis`) and `cara` that is a face.
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
    PERSON_SWAP,
    PRONOUN_FORMS,
    PRONOUN_SWAP,
)
from occbio.rewrite.languages.pt_lead import sentence_lead
from occbio.rewrite.languages.pt_noun_phrase import (
    apposition_np,
    como_np,
    head_after_adjective,
)
from occbio.rewrite.languages.pt_predicates import (
    elided_predicate,
    opening,
    participle_can_be_persons,
    predicate,
    predicate_starts,
)
from occbio.rewrite.languages.pt_pronouns import enclitic_change, proclitic_change
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


@dataclass
class Portuguese(Language):
    # ---------------------------------------------------------------- substitutions
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        out = {s: ("free", t) for s, t in PERSON_SWAP[d].items()}
        out.update({s: ("free", t) for s, t in PRONOUN_SWAP[d].items()})
        return out

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
        if ln != 1 or not w.endswith(_PARTICIPLE):
            return True
        return participle_can_be_persons(s, i, plan)

    # ---------------------------------------------------------------- proposals
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
        person_seen = bool(pron) or bool(nominal)

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
                # predicate after a copula whose subject is the person: `ela foi presa`
                or (
                    predicate(d, s, i, lex, free)
                    if predicate_starts(s, i, pron | nominal, pron, lex, clitics)
                    else {}
                )
                or (como_np(d, s, i, lex, free) if pron else {})
                or apposition_np(d, s, i, lex, free, nominal)
                or head_after_adjective(d, s, i, lex, nominal, dets)
                or proclitic_change(d, s, i, lex, covered)
                or (enclitic_change(d, s, i) if person_seen else {})
            )
        if lead is not None:  # inside the lead's predicate only what its parse decided
            span, lp = lead["span"], lead["plan"]
            out = {p: v for p, v in out.items() if p not in span or lp.get(p) == v}
        return out


RULES = Portuguese(
    "pt",
    copulas=frozenset(),
)
