"""Gender rewriting of sentences about one person: the API.

>>> from occbio.rewrite import Rewriter
>>> Rewriter("es").rewrite("Fue nombrado director del museo.", "feminine")
'Fue nombrada directora del museo.'

Method: token substitutions learned from human counterfactual pairs (``learn.py``), applied
with context (an article changes only next to a changed word), plus hand rules per language
(``languages/``: one module per language; pronouns, closed-class agreement, productive suffixes
on words next to a change, English ``her`` → ``his``/``him``).
Only word tokens change; spaces, punctuation and quotes are copied, and a sentence with nothing to
change is returned as the very same object.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from occbio.rewrite.data import _load_tables, _load_zipf
from occbio.rewrite.languages import LANGS, Lexicon, Sentence, rules_for
from occbio.rewrite.languages.anchor import name_parts, person_tokens, slot_plan
from occbio.rewrite.render import RULE_OF_SOURCE, Edit, _one_space, _render
from occbio.rewrite.tokens import ELIDING, pieces, word_spans

if TYPE_CHECKING:
    from occbio.rewrite.confidence import Verdict

logger = logging.getLogger(__name__)

Target = Literal["feminine", "masculine"]
#: the person's relatives (`her mother`): left as they are (the default: only the person
#: changes) or changed too (MT-GenEval's human versions do)
Relatives = Literal["keep", "change"]
_DIRECTION = {"masculine": "f2m", "feminine": "m2f"}
_OTHER = {"f2m": "m2f", "m2f": "f2m"}


class RewriteUnavailable(ValueError):
    """The language (or target) is not supported; the message lists what is."""


def direction(to: str) -> str:
    """The table direction (``f2m``/``m2f``) of a target gender, or a clear error."""
    if to not in _DIRECTION:
        raise RewriteUnavailable(f"target must be 'feminine' or 'masculine', not {to!r}")
    return _DIRECTION[to]


@dataclass(frozen=True)
class Thresholds:
    """When a learned substitution is trusted (shares and counts on the choosing data).

    Defaults chosen on the choosing half of MT-GenEval dev only (benchmarks/rewrite.py)."""

    free_share: float = 0.75  # changed in >= this share of all its occurrences
    free_count: int = 2
    ctx_share: float = 0.75  # changed in >= this share of occurrences next to a changed word
    ctx_count: int = 2
    morph_min_zipf: float = 2.0  # a guessed form must be at least this frequent (Zipf scale)
    morph_max_drop: float = 1.0  # ... and at most this much rarer than the word it replaces
    copula: bool = True  # participles after a copula agree with the subject


DEFAULT_THRESHOLDS = Thresholds()


def supported_languages() -> tuple[str, ...]:
    return tuple(sorted(LANGS))


@dataclass
class _Sub:
    n: int  # source tokens
    tgt: tuple[str, ...]


class Rewriter:
    """Rewrites sentences of one language so their person has the target gender."""

    def __init__(
        self,
        lang: str,
        *,
        thresholds: Thresholds = DEFAULT_THRESHOLDS,
        tables: dict | None = None,
        strict: bool = False,
        relatives: Relatives = "keep",
    ):
        lang = (lang or "").lower().replace("_", "-").split("-")[0]
        if lang not in LANGS:
            raise RewriteUnavailable(
                f"rewriting is not available for language {lang!r}; "
                f"supported: {', '.join(supported_languages())}"
            )
        if relatives not in ("keep", "change"):
            raise RewriteUnavailable(f"relatives must be 'keep' or 'change', not {relatives!r}")
        self.lang = lang
        self.relatives = relatives  # the person's relatives (`her mother`) kept or changed
        self.strict = strict  # raise a rule's exception instead of keeping the sentence
        self.stats: Counter[str] = Counter()
        #: The plans of the last :meth:`rewrite`, by (part, direction, name): :meth:`judge`
        #: reads them instead of planning every sentence a second time.
        self._last_plans: dict[tuple[str, str, str | None], Any] = {}
        self.rules = rules = rules_for(lang)
        self.thresholds = thresholds
        raw = tables if tables is not None else _load_tables(rules.table_lang or lang)
        self._seen: dict[str, dict[str, tuple[int, int]]] = {}
        for d in ("f2m", "m2f"):
            self._seen[d] = {
                k: (sum(c[0] for c in e["targets"].values()), e["total"][0])
                for k, e in raw.get(d, {}).items()
                if " " not in k
            }
        self._free: dict[str, dict[tuple, _Sub]] = {}
        self._next: dict[str, dict[tuple, _Sub]] = {}
        self._prev: dict[str, dict[tuple, _Sub]] = {}
        self._listed: dict[str, set[tuple]] = {}  # keys from the language's own word list
        for d in ("f2m", "m2f"):
            self._free[d], self._next[d], self._prev[d] = self._compile(raw.get(d, {}))
            extra = rules.extra_subs(d)
            self._listed[d] = {tuple(src.split()) for src in extra}
            for src, (ctx, tgt) in extra.items():
                key = tuple(src.split())
                table = {"free": self._free, "next": self._next, "prev": self._prev}[ctx][d]
                table[key] = _Sub(len(key), tuple(tgt.split()))
            for src in rules.never_change(d):
                key = tuple(src.split())
                for t in (self._free[d], self._next[d], self._prev[d]):
                    t.pop(key, None)
        self._lex = {
            d: Lexicon(
                _load_zipf(lang),
                self._seen[d],
                thresholds.morph_min_zipf,
                thresholds.morph_max_drop,
            )
            for d in ("f2m", "m2f")
        }

    def _compile(self, table: dict):
        th = self.thresholds
        free, nxt, prv = {}, {}, {}
        for src, entry in table.items():
            key = tuple(src.split())
            tot, tot_n, tot_p = entry["total"]
            best = [None, None, None]
            floors = ((th.free_count, th.free_share, tot), (th.ctx_count, th.ctx_share, tot_n),
                      (th.ctx_count, th.ctx_share, tot_p))  # fmt: skip
            for tgt, counts in entry["targets"].items():
                t = tuple(tgt.split())
                # free, after a changed next word, after a changed previous word
                for k, (n, (least, share, total)) in enumerate(zip(counts, floors, strict=True)):
                    reliable = n >= least and n / max(total, 1) >= share
                    if reliable and (best[k] is None or n > best[k][0]):
                        best[k] = (n, t)
            for b, dest in zip(best, (free, nxt, prv), strict=True):
                if b is not None:
                    dest[key] = _Sub(len(key), b[1])
        return free, nxt, prv

    def _morph_guess(self, d, sent, i, covered) -> tuple[str, ...] | None:
        """A productive-suffix change for a word the tables do not know (or know too little),
        standing next to a changed word or after a copula; the new form must be a word of the
        language about as frequent as the old one."""
        if not self.rules.has_morphology:
            return None
        toks, low = sent.toks, sent.low
        n = len(low)
        next_to_change = (i > 0 and covered[i - 1] and sent.joined(i - 1)) or (
            i + 1 < n and covered[i + 1] and sent.joined(i)
        )
        if not next_to_change and not (self.thresholds.copula and self.rules.after_copula(low, i)):
            return None
        tok = toks[i]
        if i > 0 and tok[:1].isupper():  # a name, or a title inside one
            return None
        return self._suffix_form(d, low[i])

    def _suffix_form(self, d: str, word: str) -> tuple[str, ...] | None:
        """The likeliest productive-suffix form of ``word``, unless the data says it stays."""
        seen = self._seen[d].get(word)
        if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None  # the data says this word usually stays
        zipf = _load_zipf(self.lang)
        z_src = zipf.get(word, 0)
        best = None
        for cand in self.rules.morph_candidates(d, word):
            z = zipf.get(cand, 0)
            th = self.thresholds
            usable = z >= th.morph_min_zipf and z >= z_src - th.morph_max_drop
            if usable and (best is None or z > best[0]):
                best = (z, cand)
        return (best[1],) if best else None

    # ------------------------------------------------------------------ rewriting
    def rewrite(self, sentence: str, to: Target, name: str | None = None) -> str:
        """``sentence`` with its person in the gender ``to``. ``name``: the person's name
        (``Ada Lovelace``): its words mark the person where no pronoun does, so a role in
        apposition to it, after a copula or ``als``/``como``/... changes too (``anchor.py``)."""
        direction(to)
        self._last_plans.clear()
        if not isinstance(sentence, str) or not sentence.strip():
            return sentence
        try:
            return self._rewrite(sentence, direction(to), name)
        except Exception:
            if self.strict:
                raise
            # one odd line never stops a corpus: it stays as it is, counted and logged
            self.stats["errors"] += 1
            if self.stats["errors"] <= 5:
                logger.warning(
                    "rewriting (%s) failed on %r; the sentence is kept as it is",
                    self.lang,
                    sentence[:80],
                    exc_info=True,
                )
            return sentence

    def rewrite_many(
        self, lines: Iterable[str], to: Target, name: str | None = None
    ) -> Iterator[str]:
        """Lines in, lines out; each line's own ending (``\n``, ``\r\n`` or none) kept, and a
        line with nothing to change yielded as the very same string."""
        direction(to)
        for line in lines:
            body = line.rstrip("\r\n")
            out = self.rewrite(body, to, name)
            yield line if out is body else out + line[len(body) :]

    def judge(self, sentence: str, to: Target, name: str | None = None) -> Verdict:
        """:meth:`rewrite`'s text with a verdict (``rewritten``, ``uncertain`` or
        ``unchanged``), a score in [0, 1] and a short reason (:mod:`.confidence`): a caller
        that must not emit a wrong counterfactual drops the uncertain lines."""
        from occbio.rewrite.confidence import judge

        return judge(self, sentence, to, name=name)

    def explain(self, sentence: str, to: Target, name: str | None = None) -> list[Edit]:
        """The edits :meth:`rewrite` makes to ``sentence``, each with the rule that made it
        (see :data:`RULE_NAMES`): for reviewing a counterfactual corpus, or dropping the edits
        of one kind. A rule that raises propagates (this is a debugging view)."""
        d = direction(to)
        if not isinstance(sentence, str) or not sentence.strip():
            return []
        out: list[Edit] = []
        for a, b in pieces(sentence):
            part = sentence[a:b]
            planned = self._plan(part, d, name)
            if planned is None:
                continue
            spans, toks, plan, why = planned
            edits: list[Edit] = []
            _render(part, spans, toks, plan, elide=self.lang in ELIDING, edits=edits)
            out += [
                e._replace(start=e.start + a, end=e.end + a, rule=why.get(e.rule, "grammar"))
                for e in edits
            ]
        return out

    def _rewrite(self, sentence: str, d: str, name: str | None = None) -> str:
        """``sentence`` rewritten; a very long line part by part (:func:`~.tokens.pieces`), the
        text between the parts copied."""
        parts = pieces(sentence)
        if len(parts) == 1:
            return self._rewrite_one(sentence, d, name)
        out, pos, changed = [], 0, False
        for a, b in parts:
            part = sentence[a:b]
            new = self._rewrite_one(part, d, name)
            changed = changed or new is not part
            out += [sentence[pos:a], new]
            pos = b
        return "".join([*out, sentence[pos:]]) if changed else sentence

    def _rewrite_one(self, sentence: str, d: str, name: str | None = None) -> str:
        planned = self._last_plans[sentence, d, name] = self._plan(sentence, d, name)
        if planned is None:
            return sentence
        spans, toks, plan, _why = planned
        return _render(sentence, spans, toks, plan, elide=self.lang in ELIDING)

    def _plan(self, sentence: str, d: str, name: str | None = None):
        """(spans, tokens, plan, why) for ``sentence``, or None when nothing changes. ``plan[i]``
        = (length, target words) of a substitution starting at token ``i``; ``why[i]`` the
        rule that made it."""
        spans = word_spans(sentence, self.lang)
        if not spans:
            return None
        toks = [sentence[a:b] for a, b in spans]
        low = [t.lower() for t in toks]
        n = len(toks)
        # plan[i] = (length, target words) for a substitution starting at token i
        plan: dict[int, tuple[int, tuple[str, ...]]] = {}
        why: dict[int, str] = {}
        covered = [False] * n

        def take(i: int, sub: _Sub, rule: str) -> None:
            plan[i] = (sub.n, sub.tgt)
            why[i] = rule
            for k in range(i, i + sub.n):
                covered[k] = True

        def lookup(table: dict, i: int) -> _Sub | None:
            for ln in (2, 1):
                if ln == 2 and not _one_space(sentence, spans, i):
                    continue  # `sí, misma`, `de\tla`: two words only when one space apart
                if i + ln <= n and not any(covered[i : i + ln]):
                    sub = table.get(tuple(low[i : i + ln]))
                    if sub is not None:
                        return sub
            return None

        person = person_tokens(toks, name_parts(name, self.lang)) if name else None
        sent = Sentence(
            sentence, spans, toks, low, covered=covered, lex=self._lex[d], relatives=self.relatives,
            person=person,
        )  # fmt: skip
        protected = self.rules.protected_positions(d, sent) | (person or set())
        if self.relatives == "keep":
            protected = protected | self.rules.relatives(sent)
        allows = self.rules.allows
        free, nxt, prv = self._free[d], self._next[d], self._prev[d]
        det = self.rules.determiners(d)
        for i in range(n):
            if covered[i] or i in protected:
                continue
            sub = lookup(free, i)
            if sub is not None and allows(d, sent, i, sub.n, sub.tgt, plan, source="free"):
                listed = tuple(low[i : i + sub.n]) in self._listed[d]
                take(i, sub, "word list" if listed else "learned")
        for start, loose in self.rules.name_slots(sent) if person else ():
            gaps = [sent.gap_after(k) for k in range(n)]
            skip = self.rules.role_skip | set(det) | set(self.rules.determiners(_OTHER[d]))

            def form(k: int) -> tuple[str, ...] | None:
                if covered[k] or k in protected:
                    return None
                tgt = self._role_form(d, sent, k)
                ok = tgt is not None and allows(d, sent, k, 1, tgt, plan, source="name")
                return tgt if ok else None

            for k, tgt in slot_plan(start, toks, gaps, person, skip, form, loose).items():
                take(k, _Sub(1, tgt), "grammar")
        changed = True
        while changed:
            changed = False
            for i in range(n - 1, -1, -1):
                if covered[i] or i in protected:
                    continue
                for ln in (2, 1):
                    if i + ln > n or any(covered[i : i + ln]):
                        continue
                    if ln == 2 and not _one_space(sentence, spans, i):
                        continue
                    key = tuple(low[i : i + ln])
                    # agreement runs inside a phrase: not across a comma, bracket or quote
                    before = i + ln < n and covered[i + ln] and sent.joined(i + ln - 1)
                    after = i > 0 and covered[i - 1] and sent.joined(i - 1)
                    tgt: tuple[str, ...] | None = None
                    source = ""
                    if ln == 1 and before and key[0] in det:
                        tgt, source = (det[key[0]],), "determiner"
                    elif before and key in nxt:
                        tgt, source = nxt[key].tgt, "next"
                    elif after and key in prv:
                        tgt, source = prv[key].tgt, "prev"
                    if tgt is None and ln == 1:
                        tgt, source = self._morph_guess(d, sent, i, covered), "guess"
                    if tgt is not None and allows(d, sent, i, ln, tgt, plan, source=source):
                        take(i, _Sub(ln, tgt), RULE_OF_SOURCE[source])
                        changed = True
                        break
            if not changed:
                extra = self.rules.propose(d, sent, covered, plan, self._lex[d])
                for i, (ln, tgt) in sorted(extra.items()):
                    if not any(covered[i : i + ln]) and i not in protected:
                        take(i, _Sub(ln, tgt), "grammar")
                        changed = True
        if not plan:
            return None
        before = dict(plan)
        self.rules.fix_plan(d, sent, plan)
        for i, entry in plan.items():
            if before.get(i) != entry:
                why[i] = "grammar"
        return spans, toks, plan, why

    def _role_form(self, d: str, sent: Sentence, i: int) -> tuple[str, ...] | None:
        """The other-gender form of word ``i`` describing the named person: the language's
        own, the learned one, or a suffix guess."""
        own = self.rules.role_form(d, sent, i, self._lex[d])
        if own is not None:
            return (own,)
        key = (sent.low[i],)
        sub = self._free[d].get(key)  # (next to a change, the tables hold case forms)
        if sub is not None and sub.n == 1:
            return sub.tgt
        return self._suffix_form(d, sent.low[i]) if self.rules.has_morphology else None


def rewrite(sentence: str, lang: str, to: Target) -> str:
    """Convenience: ``Rewriter(lang).rewrite(sentence, to)`` with a cached rewriter."""
    return _cached(lang).rewrite(sentence, to)


@lru_cache(maxsize=16)
def _cached(lang: str) -> Rewriter:
    return Rewriter(lang)
