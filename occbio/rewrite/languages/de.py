"""German: the language's hooks for the rewriter (:class:`German`) and ``RULES``.

What German grammar knows better than the learned tables lives in one module per job:

* ``de_pronouns``: ``sie``/``ihr``/``sein``/``ihrer`` by their role (subject ``er``, object
  ``ihn``, dative ``ihm``, possessive ``sein``, or left as plural "they", "their" or formal
  ``Sie``);
* ``de_nouns``: feminine person nouns and their masculine forms, and the other way for a role;
* ``de_np``: the case of an article, the article and adjectives before a noun, the role slot;
* ``de_clause``: where a clause begins and ends, plural verbs, who the subject is;
* ``de_words``: the hand-written word lists and word-level forms (articles, adjective endings).

This module holds the hooks, which fix the order of the steps: ``allows`` (what a table change
may touch), ``propose`` (pronouns, nouns, then the articles, adjectives, partitives and relative
pronouns that agree with them) and ``fix_plan`` (the case forms, once the plan is known):

* An article before a changed person noun (with adjectives between) takes the case its own form
  and a preposition before it show: ``der``/``den``/``dem``/``des`` ↔ ``die``/``die``/``der``/
  ``der``, ``ein``/``einen``/``einem``/``eines`` ↔ ``eine``/``eine``/``einer``/``einer``, with the
  adjective endings (``ein bekannter`` ↔ ``eine bekannte``) and the masculine genitive ``-s``.
  A feminine ``die``/``eine`` is accusative after the verb of a clause that has its subject
  (``sie besuchte ihre Mutter`` → ``seinen Vater``; not with a copula), in an infinitive clause,
  or after another bare noun phrase; feminine ``der``/``einer`` is genitive after a noun and
  dative after a verb or a relative pronoun (``die der Königin dienten``); ``zur`` ↔ ``zum``.
  The only noun phrase after the verb of a main clause is its subject (``Leider starb ihre
  Mutter``); where a ``die``/``eine`` could be subject or object and nothing tells (``Leider
  verließ die Sängerin die Band``), the noun phrase is left as it is: ``der`` and ``den``
  differ, a wrong guess breaks it. A role without an article after a copula or ``als`` takes
  the strong nominative (``wurde königliche Richterin`` ↔ ``königlicher Richter``). (Cases
  and noun phrases in ``de_np.py``.)
* Feminine person nouns the tables miss become masculine (``de_nouns.py``): the ``-in`` suffix
  by the stem's ending (``Botschafterin``, ``Polizistin``, ``Biologin``), a short list
  (``Königin``, kin: ``Stiefmutter``, ``Frauen``), ``Frau`` before a name (``Herr``) or after
  an article (``Mann``), ``Mädchen``; plurals take the dative ``-n`` after ``den`` or a dative
  preposition, the tables' plurals too (``mit ihren Frauen`` → ``Männern``). The other way a
  masculine agent noun becomes ``-in`` only as the role after a copula or ``als`` in a clause
  about ``er`` (``er wurde ein bekannter Fahrer``), ``Herr`` before a name ``Frau``, and kin
  after ``sein`` (``seinem Onkel`` → ``ihrer Tante``). Compound kin nouns are relatives too.
* ``eine der ersten Frauen`` ↔ ``einer der ersten Männer``, ``eine von drei Frauen``.
* A relative pronoun after a comma that follows a changed noun (``Mann, der`` ↔ ``Frau, die``;
  not with a plural verb; over a participle; after a preposition: ``in den`` ↔ ``in die``).
* ``Mädchen`` is neuter: ``den Jungen`` → ``das Mädchen``, ``des Jungen`` → ``des Mädchens``.
* Precision first: an adjective changes its ending only before a noun that changes, and a
  possessive is left before a person noun that stays (``ihrer Stiefmutter``), where changing
  it alone would read wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.de_clause import (
    _all_caps,
    _collective_owner,
    _formal,
    _head_noun,
    _next,
    _noun,
    _object_np,
    _plural_clause,
    _prev,
)
from occbio.rewrite.languages.de_nouns import (
    _fem_noun,
    _kin_head,
    adjective_noun,
    dative_np,
    dative_plural,
    feminine,
    is_plural,
    kin_feminine,
    masculine,
)
from occbio.rewrite.languages.de_np import (
    _ROLE_COPULAS,
    _article_before,
    _bare_role_adjectives,
    _case,
    _nominative_sure,
    _partitives,
    _relative_pronouns,
    _relatives_after_prep,
    _role_slot,
)
from occbio.rewrite.languages.de_pronouns import _ihrer, _person_noun, _pronoun
from occbio.rewrite.languages.de_words import (
    _ARTS_ALL,
    _DAT_PREPS,
    _FEM_PLURALS,
    _NEUTER,
    _adj_form,
    _article,
    _article_form,
    _ending_change,
    _head_kept,
    _masc_nom,
    _masc_oblique,
    _plural_noun,
)


def _will_change(s: Sentence, j: int) -> bool:
    """Token ``j`` is changed by the plan so far, or the data says it usually changes."""
    if s.covered and s.covered[j]:
        return True
    seen = s.lex.seen.get(s.low[j]) if s.lex is not None else None
    return seen is not None and seen[0] >= 2 and seen[0] >= 0.75 * seen[1]


def _may_change(s: Sentence, j: int, d: str) -> bool:
    """Token ``j`` may still change later: the data saw it change, or a ``-in`` form."""
    seen = s.lex.seen.get(s.low[j]) if s.lex is not None else None
    if seen is not None and seen[0] >= 1:
        return True
    return d == "f2m" and s.low[j].endswith(("in", "innen"))


@dataclass
class German(Language):
    def relatives(self, s: Sentence) -> set[int]:
        """The person's relatives, with compound kinship nouns (``ihre Stiefmutter``)."""
        from occbio.rewrite.languages.kin import relatives

        gaps = [s.gap_after(i) for i in range(len(s.toks))]
        return relatives(self.code, [_kin_head(w) for w in s.low], gaps, s.toks)

    def never_change(self, d: str) -> list[str]:
        # decided by context in ``propose``
        return ["sie", "ihr"] if d == "f2m" else ["sein"]

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
        tok, low = s.toks[i], s.low[i]
        if d == "m2f" and low.startswith("junge") and not tok[:1].isupper():
            return False  # ``jungen Menschen``: "young", not a boy
        if ln == 1 and len(tgt) == 1 and _ending_change(low, tgt[0]):
            # an attributive adjective agrees with its noun: only next to a noun that changes
            j = _head_noun(s, i)
            if j is None:
                if not tok[:1].isupper():
                    return False
            elif not _will_change(s, j) and (source != "free" or not _may_change(s, j, d)):
                return False
        if ln == 1 and low.startswith(("ihr", "sein")) and _article(low) is not None:
            # a possessive before a person noun that stays (``ihrer Stiefmutter``): the
            # sentence is not rewritten right anyway, and the possessive alone reads wrong
            j = _head_noun(s, i)
            if j is not None and _person_noun(s, j, d) and not _will_change(s, j):
                return False
        if d == "f2m" and low == "lady" and (s.gap_after(i) == "-" or _prev(s, i) == "first"):
            return False  # ``Lady-Player``, ``First Lady``: not ``Lord``
        if _all_caps(tok):
            return False  # an acronym (ER, SIE, SIR), or a sentence in capitals: its agreement
            # rules read capitalised nouns, so it is left rather than half rewritten
        if low.startswith(("ihr", "sie")) and _formal(s, i):
            return False
        # a possessive in a clause with a plural verb or a collective subject: "their"
        if d == "f2m" and low.startswith("ihr") and _collective_owner(s, i):
            return False
        return not (d == "f2m" and low.startswith("ihr") and _plural_clause(s, i))

    def role_form(self, d: str, s: Sentence, i: int, lex: Lexicon) -> str | None:
        """A noun describing the named person: its other-gender form by the ``-in`` grammar
        (``Kriegsfotograf`` ↔ ``Kriegsfotografin``), as for a role after ``er war``."""
        if not _noun(s.toks[i]) or _all_caps(s.toks[i]):
            return None
        return (masculine if d == "f2m" else feminine)(s.low[i])

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low, toks = s.low, s.toks
        n = len(low)
        out: Plan = {}

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        def put(i: int, word: str) -> None:
            if free(i) and word != low[i]:
                out[i] = (1, (word,))

        for i in range(n):
            if free(i) and low[i] in ("sie", "ihr", "sein"):
                w = _pronoun(d, s, i)
                if w is not None:
                    put(i, w)
            elif d == "f2m" and free(i) and low[i] == "ihrer" and _ihrer(s, i):
                put(i, "seiner")  # ``von ihrer Familie``: the noun stays feminine
        if d == "f2m":
            for i in range(n):
                if free(i) and _noun(toks[i]) and not _all_caps(toks[i]):
                    w = _fem_noun(s, i)
                    if w is not None:
                        put(i, w)
        # nouns made from adjectives (``Vorsitzende``): as a role (after ``als`` or a copula) the
        # strong nominative (after an article the tables' change is declined by the article
        # rule); ``zur Vorsitzenden`` ↔ ``zum Vorsitzenden``
        for j in range(1, n):
            stem = adjective_noun(low[j]) if _noun(toks[j]) else None
            if stem is None or not s.joined(j - 1):
                continue
            src_end, tgt_end = ("e", "er") if d == "f2m" else ("er", "e")
            role = low[j - 1] in ("als", *_ROLE_COPULAS) or (
                j > 1
                and _article(low[j - 1]) is not None
                and s.joined(j - 2)
                and low[j - 2] in ("als", *_ROLE_COPULAS)
            )  # (after an article alone it may be someone else: ``eine Bekannte``)
            if free(j) and low[j] == stem + src_end and role:
                put(j, stem + tgt_end)
            elif low[j] == stem + "en" and low[j - 1] == ("zur" if d == "f2m" else "zum"):
                put(j - 1, "zum" if d == "f2m" else "zur")
        if d == "m2f":
            for j in range(n):
                nxt = _next(s, j)
                if low[j] == "herr" and free(j) and nxt is not None and _noun(nxt[0]):
                    put(j, "frau")  # ``Herr Weber`` → ``Frau Weber``
            for j in range(1, n):
                if free(j) and _noun(toks[j]) and not _all_caps(toks[j]):
                    w = feminine(low[j])
                    if w is not None and _role_slot(s, j):
                        put(j, w)
                    k = _article_before(s, j, plan, neuter=False)[0] if free(j) else None
                    w = kin_feminine(low[j])
                    if k is not None and low[k].startswith("sein") and w is not None:
                        put(j, w)  # the person's kin: ``seinem Onkel`` → ``ihrer Tante``
        # ``der Junge`` → ``das Mädchen`` after an article (``jungen`` alone is "young"); the
        # other way ``das Mädchen`` may be ``der Junge`` or ``den Jungen``: left to the tables
        if d == "m2f":
            for i in range(1, n):
                kid = low[i] in ("junge", "jungen") and free(i) and _noun(toks[i])
                if kid and _article_before(s, i, plan, neuter=False)[0] is not None:
                    put(i, "mädchen")
        # articles and adjectives before a changed person noun
        arts = s.notes.setdefault("articles", {})
        for j, (ln, tgt) in plan.items():
            if ln != 1 or len(tgt) != 1 or not _noun(toks[j]) or tgt[0] == low[j]:
                continue
            if low[j] in ("sie", "ihr", "er", "ihm", "ihn", "sein", "ihre", "seine"):
                continue
            src_g, tgt_g = ("f", "m") if d == "f2m" else ("m", "f")
            if d == "f2m" and low[j] in _NEUTER:
                src_g = "n"  # ``das Mädchen`` → ``der Junge``
            elif d == "m2f" and tgt[0] in _NEUTER:
                tgt_g = "n"  # ``den Jungen`` → ``das Mädchen``
            elif _head_kept(low[j], tgt[0]):
                continue
            elif _plural_noun(low[j], tgt[0], d):
                # a plural's article and adjectives stay; a possessive changes its stem only
                # (``ihre Schwestern`` → ``seine Brüder``, not the singular ``sein``)
                k = _article_before(s, j, plan, neuter=False, compound=d == "f2m")[0]
                stem = (_article(low[k]) or ("", ""))[1] if k is not None else ""
                if stem == ("ihr" if d == "f2m" else "sein") and k in plan:
                    new_poss = ("sein" if d == "f2m" else "ihr") + low[k][len(stem) :]
                    arts[k] = new_poss
                continue
            title = d == "f2m" and masculine(low[j]) is not None  # ``der Kaiserin Go-Sanjō``
            if s.joined(j) and j + 1 < n and _noun(toks[j + 1]) and not title:
                continue  # a name or title made of several words (``Girls High School``)
            k, adjs = _article_before(
                s, j, plan, neuter=src_g == "n", compound=d == "f2m", zur=True
            )
            if k is None:
                if not _plural_noun(low[j], tgt[0], d) and "n" not in (src_g, tgt_g):
                    for a, form in _bare_role_adjectives(s, j, d):
                        put(a, form)
                continue
            art = low[k]
            if art in ("zur", "zum"):
                # ``zur besten Schauspielerin`` ↔ ``zum besten Schauspieler``: a dative, the
                # adjectives keep ``-en``
                if art == ("zur" if d == "f2m" else "zum") and "n" not in (src_g, tgt_g):
                    new_art = "zum" if d == "f2m" else "zur"
                    arts[k] = new_art
                    put(k, new_art)
                    s.notes.setdefault("np_case", {})[j] = "dat"
                continue
            if art == "die" and (d == "m2f" or src_g == "n"):
                continue  # a plural
            if tgt_g == "n" and (low[j] == "jungs" or (art == "den" and _prev(s, k) in _DAT_PREPS)):
                continue  # ``von den Jungs``: a plural, its article stays
            fam, stem = _article(art) or ("def", "")
            case = _case(s, k, art, src_g)
            if src_g in ("f", "n") and case == "nom" and _object_np(s, k):
                case = "acc"  # ``sie besuchte ihre Mutter``: ``seinen Vater``
            relative = j + 1 < n and s.gap_after(j).strip() == "," and low[j + 1] in _ARTS_ALL
            if d == "f2m" and case == "nom" and not relative and not _nominative_sure(s, k):
                # ``die``/``eine``/``das`` may be the subject or the object here (``1990 traf
                # die Sängerin ...``, ``Paul heiratete die Sängerin``): the masculine differs
                # (``der``/``den``), so the noun phrase is left as it is
                s.notes.setdefault("left", set()).update([j, k, *adjs])
                continue
            if k > 0 and s.gap_after(k - 1).strip() == ",":
                # an apposition takes the case of the changed noun just before it
                # (``den Protagonisten X, einen geklonten Attentäter``)
                before = [h for h in range(max(0, k - 3), k) if h in s.notes.get("np_case", {})]
                if before and all(not s.gap_after(h).strip() for h in range(before[-1], k - 1)):
                    case = s.notes["np_case"][before[-1]]
            poss = None
            if stem in ("sein", "ihr"):
                poss = "ihr" if d == "m2f" else "sein"
            new_art = _article_form(fam, stem, case, tgt_g, poss)
            arts[k] = new_art
            put(k, new_art)
            for a in adjs:
                new_adj = _adj_form(low[a], fam, case, tgt_g)
                if new_adj is not None and d == "f2m" and new_adj.startswith("weiblich"):
                    new_adj = "männlich" + new_adj[8:]  # ``eine weibliche Erbin``
                if new_adj is not None and free(a):
                    put(a, new_adj)
                elif new_adj is not None and a in plan:
                    s.notes.setdefault("adjs", {})[a] = new_adj
            s.notes.setdefault("np_case", {})[j] = case
            own = (masculine if d == "f2m" else feminine)(low[j]) == tgt[0]  # ``Witwer``
            if _ending_change(low[j], tgt[0]) and not own:
                # a noun made from an adjective declines like one: ``die Vorsitzende`` → ``der
                # Vorsitzende``, ``eine Vorsitzende`` → ``ein Vorsitzender``
                form = _adj_form(low[j], fam, case, tgt_g)
                if form is not None:
                    s.notes.setdefault("adj_nouns", {})[j] = form
        for i, word in _partitives(d, s, plan).items():
            put(i, word)
        for i, word in _relatives_after_prep(d, s, plan).items():
            put(i, word)
        # a relative pronoun after a comma after a changed noun
        for i, word in _relative_pronouns(d, s, plan).items():
            if free(i):
                put(i, word)
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        left = s.notes.get("left", set())
        for i, j in s.notes.get("relative_of", {}).items():
            if j in left:
                left.add(i)  # the relative pronoun of a noun left as it is
        for j in left:
            plan.pop(j, None)
        for k, art in (*s.notes.get("articles", {}).items(), *s.notes.get("adjs", {}).items()):
            if k in plan and plan[k][0] == 1:
                plan[k] = (1, (art,))
        cases = s.notes.get("np_case", {})
        if d == "f2m":
            # ``, die sie spielte`` → ``, der ihn ...``: a nominative relative pronoun leaves
            # ``sie`` the object
            for i, (_ln, tgt) in plan.items():
                if (
                    tgt == ("der",)
                    and s.low[i] == "die"
                    and i > 0
                    and "," in s.gap_after(i - 1)
                    and plan.get(i + 1) == (1, ("er",))
                ):
                    plan[i + 1] = (1, ("ihn",))
            # a genitive form the tables chose (``Herzogin`` → ``Herzogs``) without a genitive
            # article before it: the nominative (``Herzogin Anna`` → ``Herzog Anna``)
            for j, (ln, tgt) in list(plan.items()):
                if j in cases or ln != 1 or len(tgt) != 1 or not _noun(s.toks[j]):
                    continue
                src, w = s.low[j], tgt[0]
                prev = _prev(s, j)
                genitive = prev in ("des", "eines", "seines")
                if src.endswith("in") and w.endswith("s") and w[:-1] == src[:-2] and not genitive:
                    plan[j] = (1, (w[:-1],))
                nom = None if is_plural(src) else masculine(src)
                if nom is not None and w != nom and w.startswith(nom) and not genitive:
                    plan[j] = (1, (nom,))  # ``Prinzessin Anna`` → ``Prinz Anna``
                plural = is_plural(src) or src in _FEM_PLURALS
                if plural and not s.gap_after(j).startswith("-") and dative_np(s, j):
                    plan[j] = (1, (dative_plural(plan[j][1][0]),))  # ``mit ihren Frauen``
        for j, case in cases.items():
            if j not in plan:
                continue
            ln, tgt = plan[j]
            if j in s.notes.get("adj_nouns", {}):
                plan[j] = (ln, (s.notes["adj_nouns"][j],))
                continue
            if d == "f2m" and s.low[j] in _NEUTER:
                plan[j] = (ln, ("junge" if case == "nom" else "jungen",))
            elif d == "m2f" and tgt[0] in _NEUTER:
                plan[j] = (ln, ("mädchens" if case == "gen" else "mädchen",))
            elif d == "f2m":
                plan[j] = (ln, (_masc_oblique(_masc_nom(tgt[0]), case),))


RULES = German(
    "de",
    name_copulas=frozenset("war ist wurde wird blieb bleibt".split()),
    role_markers=(("als",),),
    role_skip=_ARTS_ALL,
    nouns_capitalised=True,
)
