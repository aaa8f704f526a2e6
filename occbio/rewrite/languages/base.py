"""What a language contributes to the rewriter: the interface and the shared helpers.

Each language module (``en.py``, ``es.py``, ...) defines ``RULES``, an instance of a
:class:`Language` subclass. The rewriter (``occbio.rewrite.core``) learns word substitutions from
counterfactual pairs and asks the language for everything grammar knows better than counts:

* ``extra_subs``: substitutions known without data (pronouns, hand lists of person nouns);
* ``never_change``: learned substitutions that are wrong as a rule;
* ``relatives``: tokens naming the person's relatives, kept by default (``kin.py``);
* ``determiners``: closed-class words that agree with the next word when it changed;
* ``allows``: a veto on any change the engine would make at a given place;
* ``morph_candidates`` / ``after_copula``: productive suffixes for words the tables do not know;
* ``propose``: any further substitution, given the sentence and what is changed so far
  (object clitics, predicates after a copula), called until nothing new is proposed;
* ``fix_plan``: last edits of the whole plan (English ``her`` → ``his``/``him``, contractions);
* ``name_slots`` / ``role_form``: given the person's name, the words that describe the named
  person (``anchor.py``: apposition, copula, ``als``/``como`` + role) and their other-gender form.

Everything here is pure: words in, substitutions out.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: plan[i] = (number of source tokens, target words) for a substitution starting at token i
Plan = dict[int, tuple[int, tuple[str, ...]]]

_RUN = re.compile(r"\S+")
_URL_MARKS = ("://", "www.", "@")


def urlish_zones(text: str) -> list[tuple[int, int]]:
    """The runs of non-space characters that hold ``://``, ``www.`` or ``@`` (URLs, e-mail
    addresses, handles), in order. The same zones as ``\\S*(?:://|www\\.|@)\\S*`` found, but
    in linear time: that pattern backtracked over every start of a long run (quadratic)."""
    return [m.span() for m in _RUN.finditer(text) if any(k in m.group() for k in _URL_MARKS)]


@dataclass(frozen=True)
class Lexicon:
    """What the rewriter knows about words: Zipf frequencies (wordfreq) and, per direction,
    how often a word changed in the choosing data ``(changed, occurrences)``."""

    zipf: Mapping[str, float]
    seen: Mapping[str, tuple[int, int]]
    #: the rewriter's floors for a guessed form: at least this frequent (Zipf) ...
    min_zipf: float = 2.0
    #: ... and at most this much rarer than the word it replaces
    max_drop: float = 1.0

    def is_word(self, word: str, floor: float = 2.0) -> bool:
        return self.zipf.get(word, 0.0) >= floor


@dataclass(frozen=True)
class Sentence:
    """The sentence being rewritten, as the hooks see it."""

    text: str
    spans: Sequence[tuple[int, int]]
    toks: Sequence[str]
    low: Sequence[str]
    #: scratch space a language's hooks share for this sentence (``propose`` → ``fix_plan``)
    notes: dict = field(default_factory=dict)
    #: which tokens are changed so far (the engine's live list) and the word knowledge
    covered: Sequence[bool] = ()
    lex: Lexicon | None = None
    #: the rewriter's ``relatives`` setting: ``keep`` (only the person changes) or ``change``
    #: (MT-GenEval's way: the person's relatives and groups change too)
    relatives: str = "keep"
    #: the tokens of the person's name (none when the sentence does not name them), or None
    #: when the caller gave no name (``Rewriter.rewrite(name=)``)
    person: frozenset[int] | None = None

    def gap_after(self, i: int) -> str:
        """The text between token ``i`` and the next one (or the end)."""
        end = self.spans[i][1]
        return self.text[end : self.spans[i + 1][0]] if i + 1 < len(self.spans) else self.text[end:]

    def joined(self, i: int) -> bool:
        """Tokens ``i`` and ``i + 1`` belong to one phrase: nothing but spaces between them (or
        nothing at all, after an elided word). A comma, a bracket or a quote ends agreement."""
        return i + 1 < len(self.spans) and not self.gap_after(i).strip()


@dataclass
class Language:
    """Defaults: no hand rules. Subclasses override what their grammar needs."""

    code: str
    #: (feminine suffix, masculine suffix), longest first
    suffixes: Sequence[tuple[str, str]] = ()
    copulas: frozenset[str] = frozenset()
    #: endings of participles that agree with the subject after a copula
    participle_endings: tuple[str, ...] = ()
    #: endings of verb forms that look like a feminine adjective (`aveva`, `lleva`)
    verblike_endings: tuple[str, ...] = ()
    #: words between a copula and a participle (`fue` *ser* `nombrado`)
    copula_bridge: frozenset[str] = frozenset()
    #: closed-class words that agree with the next word, per direction {src: tgt}
    determiner_pairs: Sequence[tuple[str, str]] = ()  # (feminine, masculine)
    #: the table language, when it is another one's
    table_lang: str | None = None
    #: verbs whose predicate describes the named subject (with ``copulas``): ``Savini war``
    name_copulas: frozenset[str] = frozenset()
    #: words before a role of the clause's subject, longest first (``als``, ``com a``, ``com``)
    role_markers: tuple[tuple[str, ...], ...] = ()
    #: words a slot passes over unchanged before its role (articles the language agrees itself)
    role_skip: frozenset[str] = frozenset()
    #: every noun is capitalised (German): a capitalised word is no sign of another name
    nouns_capitalised: bool = False
    _det_table: dict[str, dict[str, str]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._det_table = {
            "f2m": {f: m for f, m in self.determiner_pairs if f != m},
            "m2f": {m: f for f, m in self.determiner_pairs if f != m},
        }

    # ---------------------------------------------------------------- substitutions
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        """{source words: (context, target words)}; context is free, next or prev."""
        return {}

    def never_change(self, d: str) -> list[str]:
        return []

    def determiners(self, d: str) -> Mapping[str, str]:
        return self._det_table.get(d, {})

    def protected_positions(self, d: str, s: Sentence) -> set[int]:
        """Tokens never touched: inside URLs and e-mail addresses; and, when the person's name
        is known, a role that describes another name (:func:`.anchor.other_roles`)."""
        named = s.person is not None and not self.nouns_capitalised
        protected = self._other_roles(s) if named else set()
        zones = urlish_zones(s.text)
        if not zones:
            return protected
        ends = [zb for _, zb in zones]
        for i, (a, b) in enumerate(s.spans):
            # the zones are disjoint and sorted: only the first one ending at or after the
            # token can hold it
            k = bisect_left(ends, b)
            if k < len(zones) and zones[k][0] <= a:
                protected.add(i)
        return protected

    def _other_roles(self, s: Sentence) -> set[int]:
        from occbio.rewrite.languages.anchor import other_roles

        gaps = [s.gap_after(i) for i in range(len(s.toks))]
        copulas = self.copulas | self.name_copulas
        return other_roles(s.toks, s.low, gaps, s.person, copulas, self.role_markers)

    def relatives(self, s: Sentence) -> set[int]:
        """Tokens naming a relative of the person (`her mother`): left alone unless the
        rewriter is asked to change relatives too (see :mod:`~occbio.rewrite.languages.kin`)."""
        from occbio.rewrite.languages.kin import relatives

        gaps = [s.gap_after(i) for i in range(len(s.toks))]
        return relatives(self.code, s.low, gaps, s.toks)

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
        """May the engine change tokens ``i .. i+ln`` into ``tgt`` here? ``source`` says which
        engine rule asks: ``free`` (a learned substitution anywhere), ``next``/``prev``
        (learned, next to a changed word), ``determiner`` or ``guess`` (a suffix guess). A
        language vetoes what its grammar knows is wrong in this context (``s.covered`` and
        ``s.lex`` are there too); ``propose`` is not asked (it is the language's own)."""
        return True

    # ---------------------------------------------------------------- morphology
    @property
    def has_morphology(self) -> bool:
        return bool(self.suffixes)

    def morph_candidates(self, d: str, word: str) -> list[str]:
        if self.verblike_endings and word.endswith(self.verblike_endings):
            return []
        out = []
        for fem, mas in self.suffixes:
            src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
            if src and word.endswith(src) and len(word) > len(src) + 2:
                out.append(word[: len(word) - len(src)] + tgt)
            elif not src and len(word) > 3:
                out.append(word + tgt)
        return out

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        if not self.copulas or i == 0:
            return False
        if not low[i].endswith(self.participle_endings):
            return False
        return low[i - 1] in self.copulas or (
            i > 1 and low[i - 2] in self.copulas and low[i - 1] in self.copula_bridge
        )

    # ---------------------------------------------------------------- the person's name
    def name_slots(self, s: Sentence) -> list[tuple[int, bool]]:
        """(first token, loose) of each slot describing the named person (:mod:`.anchor`)."""
        from occbio.rewrite.languages.anchor import role_slots

        gaps = [s.gap_after(i) for i in range(len(s.toks))]
        copulas = self.copulas | self.name_copulas
        return role_slots(s.toks, s.low, gaps, s.person, copulas, self.role_markers)

    def role_form(self, d: str, s: Sentence, i: int, lex: Lexicon) -> str | None:
        """The other-gender form of word ``i`` in a slot describing the named person, where
        the language knows it better than the tables and the suffixes (German ``-in``)."""
        return None

    # ---------------------------------------------------------------- whole sentence
    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        """Further substitutions at uncovered tokens, given the plan so far."""
        return {}

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        """Last edits of the whole plan, in place."""


def merge_contractions(
    s: Sentence, plan: Plan, contractions: Mapping[tuple[str, str], str]
) -> None:
    """A preposition before a changed article contracts with it: ``de`` + ``el`` → ``del``
    (the preposition itself unchanged, the article changed by the plan)."""
    for i in sorted(plan):
        ln, tgt = plan[i]
        if ln != 1 or len(tgt) != 1 or i == 0 or (i - 1) in plan:
            continue
        if s.gap_after(i - 1) != " ":
            continue
        merged = contractions.get((s.low[i - 1], tgt[0]))
        if merged is not None:
            del plan[i]
            plan[i - 1] = (2, (merged,))
