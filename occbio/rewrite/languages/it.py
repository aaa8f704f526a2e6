"""Italian: the :class:`Language` for the rewriter, its hooks, and ``RULES``.

This module only wires the engine to the Italian rules, each in a module of its own job:

* ``it_articles``: articles and articulated prepositions, their forms and phonology;
* ``it_nouns``: titles, hand-listed person nouns, and the words before a changed noun;
* ``it_subject``: whether the subject of a copula is the person;
* ``it_forms``: the other-gender form of one predicate word;
* ``it_lead``: predicates of the person after a copula (the biography lead);
* ``it_clitics``: object clitics before a verb;
* ``it_things``: predicates of a thing, where nothing agrees with the person;
* ``it_words``: the word lists they share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.it_articles import (
    CLOSED,
    agree_determiners,
    target_gender_before,
)
from occbio.rewrite.languages.it_clitics import swap_clitics
from occbio.rewrite.languages.it_forms import participle_like
from occbio.rewrite.languages.it_lead import agree_predicates
from occbio.rewrite.languages.it_nouns import (
    agree_postnominal,
    agree_prenominal,
    agree_quantifiers,
    mark_common_nouns,
    swap_hand_nouns,
    swap_titles,
)
from occbio.rewrite.languages.it_subject import fronted_predicate
from occbio.rewrite.languages.it_words import (
    _AGREE_ONLY,
    _AVERE,
    _COPULA,
    _OBJ_CLITICS,
    _PERSON_PRON,
    _POSSESSIVE,
    _VERBS,
)


def _zipf() -> dict[str, float]:
    from occbio.rewrite.core import _load_zipf  # the engine's cached table

    return _load_zipf("it")


@dataclass
class Italian(Language):
    """Italian: the engine's hooks; the rules themselves live in the ``it_*.py`` modules."""

    def never_change(self, d: str) -> list[str]:
        # determiners are agreed by propose() with the phonology of the new next word;
        # adjectives only agree with a changed noun (the morphology rule), never on their own
        return sorted(CLOSED | _AGREE_ONLY)

    def protected_positions(self, d: str, s: Sentence) -> set[int]:
        out = super().protected_positions(d, s)
        n = len(s.low)
        for i, w in enumerate(s.low):
            prev = s.low[i - 1] if i > 0 else ""
            nxt = s.low[i + 1] if i + 1 < n else ""
            if w in ("stato", "stata", "dato", "data") and (
                prev in CLOSED or prev in _POSSESSIVE or nxt in ("che", "di", "del", "dello")
            ):
                out.add(i)  # the noun `stato` (state), `dato che` (since)
            elif w == "detta" and prev == "a":
                out.add(i)  # `a detta di`: according to
            elif w in ("domenica", "domenico") and (
                i == 0 or not s.toks[i][:1].isupper() or nxt == ","
            ):
                out.add(i)  # Sunday, not a name
            elif w in ("lady", "lord") and prev in ("our", "first", "the", "house"):
                out.add(i)
        return out

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
        """Agreement runs from a noun (or adjective) to its determiner, never from a changed
        determiner, clitic or pronoun to the word beside it (`gli insulti ricevuti lo
        portarono`, `presentati dallo stesso`, `A questo punto lui`); a word after a determiner
        of the target gender is not of the source gender (`delle cameriere`); capitalised
        participles are names (`Regno Unito`)."""
        if (
            source == "free"
            and i > 0
            and s.toks[i][:1].isupper()
            and s.low[i] in ("donna", "donne", "uomo", "uomini")
            and (s.gap_after(i - 1).endswith("(") or (i > 1 and s.low[i - 2] == "per"))
        ):
            return False  # a name: `Organizzazione Nazionale per le Donne`, `(Donna dell'anno)`
        if ln != 1 or s.low[i] in CLOSED:
            return True
        if target_gender_before(d, s, i):
            return False  # `delle cameriere`, `un signore`: not of the source gender
        if (
            source != "determiner"
            and i > 0
            and s.toks[i][:1].isupper()
            and participle_like(s.low[i], irregular=True)
        ):
            return False  # a name: `Regno Unito`, `Mar Morto`, `NATO`
        if source == "guess" and d == "f2m" and tgt[0].endswith("i") and s.low[i].endswith("e"):
            k = i - 1  # `Sua madre decise` → `Suo padre decise` (a verb), not `decisi`
            if k in plan and s.joined(k) and not plan[k][1][-1].lower().endswith("i"):
                return False
        neighbours = [k for k in (i - 1, i + 1) if k in plan and 0 <= k < len(s.low)]
        neighbours = [k for k in neighbours if s.joined(min(k, i))]
        if not neighbours:
            return True
        # agreement runs from a noun, not from a pronoun (`A questo punto lui`)
        return not all(
            s.low[k] in CLOSED or s.low[k] in _OBJ_CLITICS or s.low[k] in _PERSON_PRON
            for k in neighbours
        )

    def morph_candidates(self, d: str, word: str) -> list[str]:
        if word in CLOSED or word in _COPULA or word in _VERBS or word in _AVERE:
            return []
        zipf = _zipf()
        if d == "f2m" and word.endswith("a") and zipf.get(word + "re", 0.0) >= 3.0:
            return []  # a verb: `parla` (parlare), `comincia`
        out = super().morph_candidates(d, word)
        # plurals -i ↔ -e of four-form adjectives and nouns (`biologici` ↔ `biologiche`): both
        # singulars must be words, so `giovani`, `presenti` (one singular in -e) stay
        src, tgt = ("i", "e") if d == "m2f" else ("e", "i")
        if word.endswith(src) and len(word) > 4 and not out:
            stem = word[:-1]
            if min(zipf.get(stem + "o", 0.0), zipf.get(stem + "a", 0.0)) >= 2.5:
                out.append(stem + tgt)
        return out

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        return False  # predicates are agreed by propose(), which sees the subject

    # ---------------------------------------------------------------- propose
    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        """One family of changes at a time, the first that finds any: titles and person
        nouns, nouns of both genders, the words before a changed noun, determiners,
        predicates of the person, clitics."""
        out: Plan = {}
        if s.notes.get("abort"):
            return out
        swap_titles(d, s, covered, out)
        swap_hand_nouns(d, s, covered, lex, out)
        if not out:
            mark_common_nouns(d, s, covered, out)
        if not out:
            agree_prenominal(self, d, s, covered, plan, lex, out)
            agree_quantifiers(d, s, covered, plan, out)
            agree_postnominal(self, d, s, covered, plan, lex, out)
        if not out:
            agree_determiners(d, s, covered, plan, out)
        if not out:
            agree_predicates(self, d, s, covered, lex, out)
        if not out:
            swap_clitics(d, s, covered, out)
        if not out:
            fronted_predicate(self, d, s, covered, lex, out)
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        if s.notes.get("abort"):  # a predicate of the person only half understood
            plan.clear()


RULES = Italian(
    "it",
    suffixes=[
        ("trici", "tori"),
        ("trice", "tore"),
        ("che", "ci"),
        ("che", "chi"),
        ("ghe", "ghi"),
        ("iera", "iere"),
        ("a", "o"),
    ],
    copulas=frozenset({"fu", "era", "è", "stato", "stata", "venne", "viene", "essere"}),
    participle_endings=("ato", "ata", "ito", "ita", "uto", "uta"),
    verblike_endings=("ava", "eva", "iva", "ova"),
    copula_bridge=frozenset({"ser", "ha"}),
    name_copulas=frozenset({"divenne", "diventò", "rimase"}),
    role_markers=(("in", "qualità", "di"), ("come",)),
)
