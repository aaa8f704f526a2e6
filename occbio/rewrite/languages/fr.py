"""French: the language's hooks for the rewriter, each dispatching to the module of its job.

The learned tables (``learned_fr.json``) give the frequent person words (``acteur``/``actrice``,
``né``/``née``); what French grammar knows better than counts lives in one module per job:

* ``fr_pronouns``: pronouns and person words by their role (``il``/``elle``, impersonal ``il``,
  stressed ``lui``, ``fille``/``fils``, titles) and object clitics ``le``/``la`` before a verb;
* ``fr_forms``: the other-gender form of a word by suffix (-eur/-euse, -teur/-trice,
  -ien/-ienne, -if/-ive, -er/-ère, -é/-ée ..., asked with its context instead of by the
  engine, and a word of French by wordfreq), elision of an article before a word;
* ``fr_agreement``: the noun phrase of a changed noun (determiner, adjectives, quantifiers,
  superlatives: ``les femmes les plus belles``), elision and contraction of the result;
* ``fr_subject``: who the subject is, and predicates after a copula, roles (``en tant que
  serveuse``) and opening participles that agree with it;
* ``fr_predicate``: the noun phrases that are predicates of the person (``une actrice
  célèbre``, ``l'une des premières``, ``élue la joueuse de l'année``);
* ``fr_things``: participles whose subject is not the person, taken back from the plan;
* ``fr_lead``: a biography's lead sentence, rewritten whole or left as it is;
* ``fr_words``: the hand-written word lists.

This module holds the :class:`French` hooks, which fix the order of those steps, and ``RULES``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.fr_agreement import agree_noun_phrases, elide_and_contract
from occbio.rewrite.languages.fr_forms import is_free, other_gender_form, starts_vowel
from occbio.rewrite.languages.fr_lead import parse_lead
from occbio.rewrite.languages.fr_pronouns import agree_object_clitics, pronoun_changes
from occbio.rewrite.languages.fr_subject import (
    agree_opening_participle,
    agree_predicates,
    agree_roles,
)
from occbio.rewrite.languages.fr_things import (
    drop_noun_agreement,
    drop_stranded_modifiers,
    drop_unagreeing_participles,
    drop_work_participles,
)
from occbio.rewrite.languages.fr_words import _DET_F2M, _DET_M2F, _NEVER

__all__ = ["RULES", "French", "starts_vowel"]


#: changed words that carry no noun phrase: adjectives whose change is one of meaning, not of
#: agreement (`des personnages principaux masculins` → `... principaux féminins`), and English
#: words (`un boys band` → `un girls band`)
_NOT_NOMINAL = frozenset(
    "masculin masculine masculins masculines féminin féminine féminins féminines paternel "
    "paternelle paternels paternelles maternel maternelle maternels maternelles boy boys girl "
    "girls".split()
)


#: nouns that introduce the title of a work (`le film La Reine Margot`)
_WORKS = frozenset(
    "film films série roman livre chanson album pièce opéra émission feuilleton téléfilm "
    "spectacle tableau poème recueil single titre comédie drame ballet intitulé intitulée "
    "intitulés intitulées".split()
)


def _in_a_title(s: Sentence, i: int) -> bool:
    """The capitalised word at ``i`` belongs to the title after `le film`, `la série`..."""
    toks, low = s.toks, s.low
    j = i - 1
    while j >= 0 and toks[j][:1].isupper() and s.gap_after(j) in (" ", ""):
        j -= 1
    return j >= 0 and j < i and low[j] in _WORKS and s.gap_after(j) == " "


@dataclass
class French(Language):
    @property
    def has_morphology(self) -> bool:  # guesses are made in propose, with their context
        return False

    def protected_positions(self, d: str, s: Sentence) -> set[int]:
        # the typographic apostrophe reads as the straight one (`qu’il`, `s’agit`, `l’homme`):
        # every rule and table spells `qu'`; the text keeps its own (the engine's first hook,
        # so the whole rewrite sees it)
        low = s.low
        if isinstance(low, list):
            for i, w in enumerate(low):
                if "’" in w:
                    low[i] = w.replace("’", "'")
        return super().protected_positions(d, s)

    def never_change(self, d: str) -> list[str]:
        return list(_NEVER[d])

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
        """Names and titles are never changed: a capitalised word joined to another by a
        hyphen (`Père-Lachaise`), inside a work's title (`le film La Reine Margot`) or after
        a capitalised article inside a sentence (`Des Moines`, `Le Havre`)."""
        toks, low = s.toks, s.low
        if i == 0 or not toks[i][:1].isupper():
            return True
        joined = i + ln < len(toks) and s.gap_after(i + ln - 1) == "-"
        if joined and toks[i + ln][:1].isupper():
            return False
        if _in_a_title(s, i):
            return False
        name_article = low[i - 1] in ("le", "la", "les", "des", "du", "de") if i > 1 else False
        return not (
            name_article
            and toks[i - 1][:1].isupper()
            and s.gap_after(i - 1) == " "
            and s.gap_after(i - 2) == " "
        )

    def role_form(self, d: str, s: Sentence, i: int, lex: Lexicon) -> str | None:
        """A word describing the named person: its other-gender form by suffix, when that is
        a French word (``traductrice`` ↔ ``traducteur``)."""
        return other_gender_form(d, s.low[i], lex, verbish_ok=False)

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
            and low[i] not in _DET_F2M and low[i] not in _DET_M2F and low[i] not in _NOT_NOMINAL
        ]  # fmt: skip
        agree_noun_phrases(d, s, covered, plan, nominal, out, lex)
        if changed_pron or nominal:
            agree_roles(d, s, covered, out, lex)
        agree_opening_participle(d, s, covered, changed_pron, out, lex)
        agree_predicates(d, s, covered, plan, changed_pron, nominal, out, lex)
        # object clitics: the person's, unless the person is their verb's subject; with no
        # other word of the person changed, not after a name (`Dupont le publia`)
        agree_object_clitics(d, s, covered, out, lex, changed_pron, after_name=bool(plan))
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        drop_unagreeing_participles(s, plan)
        drop_noun_agreement(d, s, plan)
        drop_work_participles(s, plan)
        drop_stranded_modifiers(s, plan)
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
        elide_and_contract(s, plan, d)
        if any("’" in t for t in s.toks):  # the text's own apostrophe (`qu’elle`, `l’actrice`)
            for i, (ln, t) in list(plan.items()):
                plan[i] = (ln, tuple(w.replace("'", "’") for w in t))


RULES = French(
    "fr",
    copulas=frozenset({"fut", "était", "est", "été", "devint", "devient", "étant"}),
    role_markers=(("en", "tant", "que"), ("comme",)),
)
