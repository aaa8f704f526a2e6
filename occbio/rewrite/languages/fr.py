"""French: the language's hooks for the rewriter, each dispatching to the module of its job.

The learned tables (``learned_fr.json``) give the frequent person words (``acteur``/``actrice``,
``né``/``née``); what French grammar knows better than counts lives in one module per job:

* ``fr_pronouns``: pronouns and person words by their role (``il``/``elle``, impersonal ``il``,
  stressed ``lui``, ``fille``/``fils``, titles) and object clitics ``le``/``la`` before a verb;
* ``fr_agreement``: the other-gender form of a word by suffix (-eur/-euse, -teur/-trice,
  -ien/-ienne, -if/-ive, -er/-ère, -é/-ée ..., made here with its context instead of by the
  engine, and a word of French by wordfreq), the noun phrase of a changed noun (determiner,
  adjectives, quantifiers, ``l'une des premières``), elision and contraction of the result;
* ``fr_subject``: who the subject is, and predicates after a copula, roles (``en tant que
  serveuse``) and opening participles that agree with it;
* ``fr_lead``: a biography's lead sentence, rewritten whole or left as it is;
* ``fr_words``: the hand-written word lists.

This module holds the :class:`French` hooks, which fix the order of those steps, and ``RULES``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.fr_agreement import (
    agree_noun_phrases,
    elide_and_contract,
    is_free,
    other_gender_form,
    starts_vowel,
)
from occbio.rewrite.languages.fr_lead import parse_lead
from occbio.rewrite.languages.fr_pronouns import agree_object_clitics, pronoun_changes
from occbio.rewrite.languages.fr_subject import (
    agree_opening_participle,
    agree_predicates,
    agree_roles,
    drop_unagreeing_participles,
)
from occbio.rewrite.languages.fr_words import _DET_F2M, _DET_M2F, _NEVER

__all__ = ["RULES", "French", "starts_vowel"]


@dataclass
class French(Language):
    @property
    def has_morphology(self) -> bool:  # guesses are made in propose, with their context
        return False

    def never_change(self, d: str) -> list[str]:
        return list(_NEVER[d])

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low = s.low

        # a biography's lead sentence, whole (fix_plan undoes a half-rewritten one)
        if "lead" not in s.notes:
            s.notes["lead"] = parse_lead(
                d, s, lambda w: other_gender_form(d, w, lex, verbish_ok=True, trust_seen=False),
                lex.zipf,
            )  # fmt: skip
        lead = s.notes["lead"]
        if lead is not None and not lead.failed:
            new = {
                i: (1, (w,))
                for i, w in lead.changes.items()
                if is_free(s, covered, {}, i) and w != low[i]
            }
            if new:
                return new

        # pronouns first: what follows agrees with them
        out = pronoun_changes(d, s, covered)
        if out:
            return out

        changed_pron = {
            i for i, (ln, t) in plan.items() if ln == 1 and low[i] in ("il", "elle") and t
        }
        nominal = [
            i for i, (ln, t) in plan.items()
            if ln == 1 and low[i] not in ("il", "elle", "lui", "m", "mme")
            and low[i] not in _DET_F2M and low[i] not in _DET_M2F
        ]  # fmt: skip
        agree_noun_phrases(d, s, covered, plan, nominal, out, lex)
        if changed_pron or nominal:
            agree_roles(d, s, covered, out, lex)
        agree_opening_participle(d, s, covered, changed_pron, out, lex)
        agree_predicates(d, s, covered, plan, changed_pron, nominal, out, lex)
        if plan:  # object clitics, when the person's words changed
            agree_object_clitics(d, s, covered, out, lex)
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        drop_unagreeing_participles(s, plan)
        lead = s.notes.get("lead")
        if lead is not None and lead.failed:
            plan.clear()  # a half-rewritten lead is worse than none
            return
        if lead is not None:
            for i in lead.keep:
                plan.pop(i, None)
            for i, w in lead.changes.items():
                if w != s.low[i]:
                    plan[i] = (1, (w,))
        elide_and_contract(s, plan)


RULES = French(
    "fr",
    copulas=frozenset({"fut", "était", "est", "été", "devint", "devient", "étant"}),
)
