"""Portuguese: pronouns, person nouns, articles and contractions that agree with a changed noun,
adjectives next to it, predicates after a copula whose subject is the person, object clitics.

The engine's own suffix guess (any word next to any changed word) is switched off
(``suffixes=()``): every agreement here is proposed by :meth:`Portuguese.propose`, which sees the
whole sentence and so can tell an adjective after a changed noun (`o filho mais novo`) from a verb
after a changed pronoun (`ela continua`) or a noun after a changed contraction (`o parto da
duquesa`). Word lists are grammar knowledge (closed classes, person nouns); frequencies come from
wordfreq through ``lex.zipf``; the word lists are in ``pt_words.py``.

Round two: proclitic object pronouns before any verb form (a verb is a word whose infinitive is
frequent), `um dos X` predicates (the group agrees), nouns of both genders marked as the person
(so their article and adjectives follow), predicates without a subject of their own, object
predicates (`a consideram uma das maiores`), coordinated participles, opening participle
clauses; :meth:`Portuguese.allows` keeps learned participle changes off other nouns.

Round three: Wikipedia lead sentences (`X (Lisboa, 1920 — Porto, 1990) foi um pintor e gravador
português, conhecido por ...`) are parsed as a whole by :meth:`Portuguese._parse_lead` and
rewritten whole or not at all (``allows`` vetoes every other change inside the predicate, and
the whole sentence when a predicate word has no known other-gender form); learned adjective
changes (`novo`, `próprio`) only next to a change or as a predicate; m→f `como um X` left alone;
enclitics (`vendê-la`) kept when a noun of their gender stands between them and the person.
"""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADJ_DETS,
    _ADJ_ENDINGS,
    _ADV,
    _AGENT,
    _ALL_DETS,
    _ART_BEFORE,
    _ARTICLES,
    _AUX,
    _CLITIC_STRONG,
    _CONJ,
    _COPULAS,
    _DETS,
    _FUNCTION,
    _HEAD_END,
    _INVARIANT_PERSON,
    _INVARIANT_PERSON_ENDINGS,
    _INVARIANT_PLURAL,
    _IRREGULAR_VERBS,
    _LEAD_COPULAS,
    _LEAD_PAIRS,
    _LEAD_PREFIXES,
    _LEAD_PREPS,
    _LEAD_SAME,
    _LEAD_SAME_ENDINGS,
    _NAME_BLOCK,
    _NATIONS,
    _NO_FEM,
    _NOT_ADJ,
    _NOT_PERSON,
    _NOT_VERB,
    _OBJ_PRED,
    _OPENERS,
    _PARTICIPLE,
    _PERSON,
    _PERSON_ENDINGS,
    _PERSON_PRED,
    _POSSESSIVES,
    _PRE_ADJ,
    _PRE_ADJ_PL,
    _PREP,
    _PROMOTED,
    _PRONOUNS,
    _SUBJ_SKIP,
    _SUFFIXES,
    _SURE_PERSON,
    _THING_PARTICIPLES,
    _VERB_ENDINGS,
    _VERB_FORMS,
    _VERB_FORMS_SG,
)

#: articles of a thing the object clitic may stand for, per direction (source gender)
_RIVAL_ARTS = {
    "m2f": frozenset("o um do no ao pelo num dum este esse aquele seu".split()),
    "f2m": frozenset("a uma da na à pela numa duma esta essa aquela sua".split()),
}


def _is_verb(w: str, lex: Lexicon, sg: bool = False) -> bool:
    """``w`` looks like a finite verb form or a gerund: its infinitive is a frequent word."""
    if w in _IRREGULAR_VERBS:
        return True
    if w in _NOT_VERB:
        return False
    for end, infs in _VERB_FORMS + (_VERB_FORMS_SG if sg else ()):
        if w.endswith(end) and len(w) - len(end) >= 2:
            stem = w[: len(w) - len(end)]
            if any(lex.zipf.get(stem + inf, 0.0) >= 3.0 for inf in infs):
                return True
    return False


def _is_adv(w: str) -> bool:
    return w in _ADV or (w.endswith("mente") and len(w) > 7)


def _nounlike(s: Sentence, k: int) -> bool:
    """Token ``k`` is a common noun (lower case, no verb, pronoun or function word)."""
    w = s.low[k]
    return (
        s.toks[k][:1].islower() and len(w) > 3 and w not in _FUNCTION
        and w not in _COPULAS and w not in _AUX and not _is_adv(w)
        and not w.endswith(_PARTICIPLE) and not w.endswith(_VERB_ENDINGS)
    )  # fmt: skip


def _feminine_of(m: str) -> str:
    """The feminine of a nationality adjective (`português` → `portuguesa`)."""
    for mas, fem in (("ês", "esa"), ("ão", "ã"), ("eu", "eia"), ("ol", "ola"), ("o", "a")):
        if m.endswith(mas):
            return m[: len(m) - len(mas)] + fem
    return m


def _fm(pairs, d):
    """{source: target} for direction d from (masculine, feminine) pairs."""
    return {m: f for m, f in pairs} if d == "m2f" else {f: m for m, f in pairs}


@dataclass
class Portuguese(Language):
    def __post_init__(self) -> None:
        super().__post_init__()
        self._dets = {
            "m2f": {m: f for f, m in _DETS},
            "f2m": {f: m for f, m in _DETS},
        }
        self._all_dets = frozenset(w for p in _DETS for w in p)
        self._pron = {"m2f": {m: f for f, m in _PRONOUNS}, "f2m": dict(_PRONOUNS)}
        self._all_pron = frozenset(w for p in _PRONOUNS for w in p) | {"eles", "elas"}
        self._person = {d: _fm(_PERSON, d) for d in ("m2f", "f2m")}
        self._person_pred = {d: {**_fm(_PERSON_PRED, d), **self._person[d]} for d in ("m2f", "f2m")}
        nations = [(m, _feminine_of(m)) for m in _NATIONS]
        self._nat_same = frozenset(m for m, f in nations if m == f)
        self._lead_pairs = {
            d: {**_fm([p for p in nations if p[0] != p[1]], d), **_fm(_LEAD_PAIRS, d)}
            for d in ("m2f", "f2m")
        }

    # ---------------------------------------------------------------- substitutions
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        out = {s: ("free", t) for s, t in self._person[d].items()}
        out.update({s: ("free", t) for s, t in self._pron[d].items()})
        return out

    def never_change(self, d: str) -> list[str]:
        # articles and contractions: only through the guarded rule in propose
        # `pais` (parents / fathers) and `membro` are usually left alone
        return [*sorted(self._dets[d]), "o", "a", "lo", "la", "pais", "membro", "membros"]

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
        """A learned participle change (`nomeado`, `conhecida`) only where it can be the
        person's: not attributive to another noun (`seu gênio é conhecido`, `sua performance
        mais conhecida`), not `nomeado em homenagem a` (a thing named after the person)."""
        low = s.low
        w = low[i]
        lead = self._lead(d, s, s.lex) if s.lex is not None else None
        if lead is not None:
            if lead["plan"] is None:
                return False  # a lead this cannot rewrite whole stays as it is
            if any(p in lead["span"] for p in range(i, i + ln)):
                return ln == 1 and lead["plan"].get(i) == (1, tuple(tgt))
        if source == "free" and ln == 1:
            # an adjective the data changes (`novo`, `próprio`): only the person's
            masc = tgt[0] if d == "f2m" else w
            adj = masc.rstrip("s") in _ADJ and not masc.endswith(_PARTICIPLE)
            if adj and not self._agrees_here(s, i):
                return False
        if ln != 1 or not w.endswith(_PARTICIPLE):
            return True
        if low[i + 1 : i + 3] == ["em", "homenagem"]:
            return False
        k = i - 1
        while k >= 0 and _is_adv(low[k]) and s.gap_after(k) == " ":
            k -= 1
        if k < 0 or s.gap_after(k) != " " or k in plan:
            return True
        if low[k] in _COPULAS:
            j = k - 1
            while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
                j -= 1
            if j < 0 or j in plan or s.gap_after(j) != " ":
                return True
            k = j
        return not _nounlike(s, k)

    # ---------------------------------------------------------------- lead sentences
    def _lead(self, d: str, s: Sentence, lex: Lexicon) -> dict | None:
        """A Wikipedia lead (`X (Lisboa, 1920 — Porto, 1990) foi um pintor e gravador
        português, conhecido por ...`): its predicate is parsed as a whole, and rewritten whole
        or not at all. ``{"span": positions it decides, "plan": its changes or None}`` (None:
        a word of the predicate has no known form of the other gender), or None when the
        sentence is not shaped like a lead. Cached per sentence."""
        if "lead" not in s.notes:
            s.notes["lead"] = self._parse_lead(d, s, lex)
        return s.notes["lead"]

    def _lead_word(self, d: str, w: str, lex: Lexicon, post: bool = False) -> str | None:
        """The other-gender form of a noun or adjective of a lead's predicate (``w`` itself
        when it is the same in both genders), or None when unknown."""
        if w in ("membro", "membros"):
            return w
        for table in (self._lead_pairs[d], self._person_pred[d]):
            if w in table:
                return table[w]
        if w in _NO_FEM:
            return None
        if w in _LEAD_SAME or w in self._nat_same or w in _INVARIANT_PERSON:
            return w
        t = self._flip(d, w, lex, veto=False, agent=True)
        if t is not None and t != w:
            return t
        if w.endswith(_LEAD_SAME_ENDINGS):
            return w
        if post:  # right after a noun: an adjective the lists lack (`fã ferrenho`)
            t = self._flip(d, w, lex, adjlike=False)
            if t is not None and t != w:
                return t
        return None

    def _lead_person(self, d: str, w: str, t: str) -> bool:
        """``w`` (→ ``t``) is a person noun: the head of a lead's predicate."""
        masc = t if d == "f2m" else w
        if w in self._person_pred[d] or w in _INVARIANT_PERSON or w in _LEAD_SAME:
            return w not in ("jovem", "ex", "atual", "civil")
        if w in self._lead_pairs[d] and masc not in _NATIONS:
            return True
        if t != w and masc.endswith(_PERSON_ENDINGS) and masc not in _NATIONS:
            return True
        return w.endswith(_INVARIANT_PERSON_ENDINGS) and w not in _NOT_PERSON

    def _parse_lead(self, d: str, s: Sentence, lex: Lexicon) -> dict | None:
        low, toks, n = s.low, s.toks, len(s.low)
        span: set[int] = set()
        plan: Plan = {}
        if n < 4:
            return None
        i = 0
        if low[0] in self._all_pron:
            i = 1
        else:
            while i < n and (
                toks[i][:1].isupper()
                or (i > 0 and low[i] in ("de", "da", "do", "dos", "e") and i + 1 < n
                    and toks[i + 1][:1].isupper())
            ):  # fmt: skip
                if i > 0 and s.gap_after(i - 1) not in (" ", "-", "'", "’"):
                    break
                i += 1
            if i == 0 or i >= n:
                return None
        gap = s.gap_after(i - 1)
        if gap.strip() == "(":  # `(Lisboa, 1920 — Porto, 1990)`, `(nascido em 1960)`
            j = i
            while j < n and ")" not in s.gap_after(j):
                j += 1
            if j >= n or s.gap_after(j).strip() != ")":
                return None
            for p in range(i, j + 1):
                span.add(p)
                if low[p] in ("nascido", "nascida", "falecido", "falecida", "morto", "morta"):
                    t = self._flip(d, low[p], lex)
                    if t is not None:
                        plan[p] = (1, (t,))
            i = j + 1
        elif gap != " ":
            return None
        if i >= n or low[i] not in _LEAD_COPULAS or s.gap_after(i) != " ":
            return None
        k = i + 1
        while k < n and _is_adv(low[k]) and s.gap_after(k) == " ":
            k += 1
        arts = ("um", "uma")
        if k + 1 >= n or low[k] != arts[d == "f2m"] or s.gap_after(k) != " ":
            return None
        det = self._dets[d]

        def free(j: int) -> bool:
            return 0 <= j < n and j not in plan

        h = k + 1
        if low[h] in ("dos", "das"):  # `um dos fundadores do partido e ministro`
            got = self._group(d, s, k, h, lex, free)
            if not got:
                return None  # the group rules of propose decide
            plan.update(got)
            span.update(range(k, max(got) + 1))
            h, state, has_head = max(got) + 1, "pp", True
        else:
            has_head = False
            plan[k] = (1, (det[low[k]],))
            span.add(k)
            state = "np"
        first = True  # the word right after the article, a comma or a conjunction
        sep = ""  # what opened the current item: "" (the article), ",", "e"
        pp_noun = ""
        while h < n:
            gap = s.gap_after(h - 1)
            if gap not in (" ", "-", ", "):
                break
            w = low[h]
            if gap == ", ":
                state, first, sep = "np", True, ","
            if w.isdigit() or toks[h][:1].isupper():
                if state == "pp":
                    span.add(h)
                    h += 1
                    continue
                break
            if w in ("e", "ou") and gap == " ":
                state, first, sep = "np", True, "e"
                span.add(h)
                h += 1
                continue
            if state == "pp":
                if w in _LEAD_PREPS or w in self._all_dets:
                    h += 1
                    continue
                if not pp_noun:
                    pp_noun = w
                t = self._lead_pairs[d].get(w) if w in self._lead_pairs[d] else None
                if t is not None and s.gap_after(h - 1) == " ":
                    # `produtor de cinema português`: the person's, unless it agrees with the
                    # bare noun before it (`professor de direito romano`)
                    same = ("o", "os") if d == "m2f" else ("a", "as")
                    if not (pp_noun.endswith(same) and not pp_noun.endswith("ma")):
                        plan[h] = (1, (t,))
                        span.add(h)
                span.add(h)
                h += 1
                continue
            if s.gap_after(h) == "-" and w in _LEAD_PREFIXES:
                span.add(h)
                h += 1
                continue
            if w in _LEAD_PREPS and not first:
                state, pp_noun = "pp", ""
                span.add(h)
                h += 1
                continue
            if w in ("um", "uma", "o", "a") and not first and low[h - 1].endswith(_PARTICIPLE):
                # `considerado um dos maiores autores`
                got = self._person_np(d, s, h, lex, free, sure=True)
                if not got:
                    break
                if low[h] in det:
                    got.setdefault(h, (1, (det[low[h]],)))
                plan.update(got)
                span.update(range(h, max(got) + 1))
                h, state = max(got) + 1, "pp"
                continue
            if w == "que" and h + 3 < n and low[h + 2] == "como" and s.gap_after(h + 2) == " ":
                # `que atua como goleiro`
                bare = low[h + 3] not in ("um", "uma", "o", "a")
                got = self._person_np(d, s, h + 3, lex, free, bare, sure=True)
                if got:
                    if not bare:
                        got.setdefault(h + 3, (1, (det[low[h + 3]],)))
                    plan.update(got)
                    span.update(range(h + 3, max(got) + 1))
                break
            if w in _FUNCTION or w in _CONJ or w in _COPULAS or w in _AUX:
                break
            t = self._lead_word(d, w, lex, post=not first and s.gap_after(h - 1) == " ")
            if t is None and _is_verb(w, lex):
                break
            seen = lex.seen.get(w)
            if t is None and seen is not None and seen[1] >= 2:
                if seen[0] * 2 < seen[1]:
                    t = w  # the data says it stays
                else:  # the data says it changes: the learned substitution decides
                    first = False
                    h += 1
                    continue
            if t is None:
                if sep and first:
                    break  # `, com quem`, `e foi`: the predicate ended
                gendered = w.endswith(("o", "os", "a", "as", "or", "ores", "ora", "oras", "ês"))
                if gendered or (d == "m2f" and w in _NO_FEM):
                    return {"span": span | {h}, "plan": None}
                break
            if first and sep != "e" and not self._lead_person(d, w, t):
                masc = t if d == "f2m" else w
                if (
                    w in _PRE_ADJ
                    or w in ("atual", "antigo", "antiga", "ex")
                    or (sep == "" and masc in _ADJ)
                ):  # `um grande pintor`, `um famoso palestrante`, `, atual presidente`
                    if t != w:
                        plan[h] = (1, (t,))
                    span.add(h)
                    h += 1
                    continue
                if sep == "" or not w.endswith(_PARTICIPLE):
                    if sep == "":
                        return None  # `era um mural`: no person
                    break  # `, preventivos`: no apposition about the person
            if t != w:
                plan[h] = (1, (t,))
            has_head = has_head or self._lead_person(d, w, t)
            span.add(h)
            first = False
            h += 1
        if not has_head:
            return None
        return {"span": span, "plan": plan}

    # ---------------------------------------------------------------- helpers
    def _rival(self, d: str, s: Sentence, i: int) -> bool:
        """An unchanged noun of the clitic's gender stands between the person's last changed
        word and the object clitic at ``i``: the clitic may be that thing's (`a casa ...
        vendê-la`)."""
        low, cov = s.low, s.covered
        arts = _RIVAL_ARTS[d]
        k = i - 1
        while k >= 0 and not cov[k]:
            if low[k] in arts and k + 1 < i and not cov[k + 1] and _nounlike(s, k + 1):
                return True
            k -= 1
        return False

    def _sure_person(self, d: str, w: str, t: str, lex: Lexicon) -> bool:
        """``w`` (changing to ``t``) is a person noun for sure: a listed one, an agent noun,
        or one the data changes (not `como um dado adquirido`)."""
        masc = t if d == "f2m" else w
        sg = masc[:-2] if masc.endswith("es") and not masc.endswith("ses") else masc.rstrip("s")
        if masc in self._person_pred["m2f"] or sg in self._person_pred["m2f"]:
            return True
        if sg.endswith((*_SURE_PERSON, "ólogo", "ógrafo")) and sg not in _ADJ:
            return True
        seen = lex.seen.get(w)
        return seen is not None and seen[0] >= 1 and seen[0] * 2 >= seen[1]

    def _agrees_here(self, s: Sentence, i: int) -> bool:
        """An adjective at ``i`` is the person's: next to a changed word, or a predicate."""
        cov, low = s.covered, s.low
        if (i > 0 and cov[i - 1] and s.joined(i - 1)) or (
            i + 1 < len(low) and cov[i + 1] and s.joined(i)
        ):
            return True
        k = i - 1
        while k >= 0 and _is_adv(low[k]) and s.gap_after(k) == " ":
            k -= 1
        return k >= 0 and low[k] in _COPULAS and s.gap_after(k) == " "

    def _flip(
        self,
        d: str,
        w: str,
        lex: Lexicon,
        adjlike: bool = True,
        veto: bool = False,
        agent: bool = False,
    ) -> str | None:
        """The other-gender form of an adjective / person noun ``w``, or None."""
        for table in (self._person_pred[d],):
            if w in table:
                return table[w]
        seen = lex.seen.get(w)
        if veto and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        if w in _NOT_ADJ or w in _PRE_ADJ or w in _PRE_ADJ_PL:
            return None
        best = None
        z_src = lex.zipf.get(w, 0.0)
        for fem, mas in _SUFFIXES:
            src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
            if not (w.endswith(src) and len(w) > len(src) + 2):
                continue
            cand = w[: len(w) - len(src)] + tgt
            masc = cand if d == "f2m" else w
            if adjlike and not (
                masc in _ADJ
                or masc.rstrip("s") in _ADJ
                or masc.endswith(_ADJ_ENDINGS)
                or masc.rstrip("s").endswith(_ADJ_ENDINGS)
                or (masc.endswith("ores") and masc[:-2].endswith(_ADJ_ENDINGS))
                or (seen is not None and seen[0] >= 2)
            ):
                continue
            z = lex.zipf.get(cand, 0.0)
            # feminine agent nouns are much rarer in text than the masculine ones
            drop = 2.0 if fem in ("ora", "oras") or (agent and fem in ("a", "as")) else 1.0
            if z >= 2.0 and z >= z_src - drop and (best is None or z > best[0]):
                best = (z, cand)
        if best is None and agent and d == "m2f" and w.endswith(_AGENT) and len(w) > 5:
            return w[:-2] + "as" if w.endswith("es") else w + "a"
        return best[1] if best else None

    # ---------------------------------------------------------------- proposals
    def propose(self, d: str, s: Sentence, covered: list[bool], plan: Plan, lex: Lexicon) -> Plan:
        low, toks, n = s.low, s.toks, len(s.low)
        s.notes["covered"] = covered
        out: Plan = {}
        src_of = {}
        for i, (ln, tgt) in plan.items():
            if ln == 1 and len(tgt) == 1:
                src_of[i] = (low[i], tgt[0])
        pron = {i for i, (a, _) in src_of.items() if a in self._all_pron}
        dets = {i for i, (a, _) in src_of.items() if a in self._all_dets}
        nominal = {i for i in src_of if i not in pron and i not in dets}
        # object pronouns changed (`a tornasse`, `a consideram`)
        clitics = {i for i in dets if low[i] in ("o", "a") and i + 1 not in src_of}
        person_seen = bool(pron) or bool(nominal)

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        def sp(i: int) -> bool:  # a plain space between token i and i + 1
            return s.gap_after(i) == " "

        det = self._dets[d]
        lead = self._lead(d, s, lex)
        if lead is not None:
            if lead["plan"] is None:
                return {}
            if not s.notes.get("lead_done"):
                s.notes["lead_done"] = True
                out.update({p: v for p, v in lead["plan"].items() if free(p)})
        if not s.notes.get("opening"):
            s.notes["opening"] = True
            out.update(self._opening(d, s, plan, lex, free))
        for i in range(n):
            if not free(i):
                continue
            w = low[i]
            # articles, contractions, possessives before a changed noun / adjective
            if (
                w in det
                and sp(i)
                and not (w == "a" and i > 0 and low[i - 1].startswith(_PROMOTED))
                and (
                    i + 1 in nominal
                    or (
                        (low[i + 1] in ("mais", "menos") or low[i + 1] in _PRE_ADJ)
                        and i + 2 in nominal
                        and sp(i + 1)
                    )
                    or (i + 1 in dets and low[i + 1] in _ADJ_DETS)
                    or (w in _ARTICLES and i + 1 in dets and low[i + 1] in _POSSESSIVES)
                    or (w in _ALL_DETS and i + 1 in dets)
                )
            ):
                out[i] = (1, (det[w],))
                continue
            # `pais` (fathers, or parents): fathers as a kind (`grupos de pais`, `pais que`),
            # not someone's parents (`seus pais`, `os pais dele`, `tiveram os pais`)
            if (
                w == "pais" and d == "m2f" and toks[i][:1].islower() and i > 0
                and (low[i - 1] not in self._all_dets
                     or (low[i - 1] == "os" and low[i + 1 : i + 2] == ["que"]))
                and (i + 1 >= n or low[i + 1] not in self._all_pron)
            ):  # fmt: skip
                out[i] = (1, ("mães",))
                continue
            # adjective after a changed noun (`filho mais novo`), or before it after a determiner
            lower = toks[i][:1].islower()
            if lower and w not in self._all_dets and w not in _COPULAS:
                post = (i - 1 in nominal and sp(i - 1)) or (
                    i - 2 in nominal and low[i - 1] in ("mais", "menos", "muito", "tão")
                    and sp(i - 2) and sp(i - 1)
                )  # fmt: skip
                pre = i + 1 in nominal and sp(i) and i > 0 and (low[i - 1] in self._all_dets)
                if post or pre:
                    # a verb after the subject noun (`a madrasta deixa`) is no adjective
                    t = self._flip(d, w, lex, adjlike=not post or _is_verb(w, lex, True))
                    if t is not None and t != w:
                        out[i] = (1, (t,))
                        continue
                # coordinated with a changed predicate: `tão feia e deformada`, `foi presa,
                # encarcerada e`
                coord = i > 1 and i - 2 in nominal and low[i - 1] in ("e", "ou") and sp(i - 2)
                coord = coord and sp(i - 1) and low[i - 2] not in self._person[d]
                comma = i > 0 and i - 1 in nominal and s.gap_after(i - 1) == ", "
                comma = comma and w.endswith(_PARTICIPLE) and low[i - 1] not in self._all_pron
                if coord or comma:
                    t = self._flip(d, w, lex)
                    if t is not None and t != w:
                        out[i] = (1, (t,))
                        continue
            # predicate after a copula whose subject is the person: `ela foi presa`
            if self._predicate_start(s, i, pron | nominal, pron, lex, clitics):
                got = self._predicate(d, s, i, lex, free)
                if got:
                    out.update(got)
                    continue
            # `trabalhou como advogado`, `como um astuto empresário`
            if pron and i > 0 and low[i - 1] == "como" and sp(i - 1) and toks[i][:1].islower():
                arts = ("o", "um") if d == "m2f" else ("a", "uma")
                bare_ = w not in arts
                # m2f `como um X` (not `um dos`) names a kind more often than the person
                if d == "m2f" and w == "um" and low[i + 1 : i + 2] != ["dos"]:
                    bare_ = None
                got = {} if bare_ is None else self._person_np(d, s, i, lex, free, bare_, sure=True)
                if got:
                    out.update(got)
                    continue
            # proclitic object pronoun before a verb: `alguns o verem`, `que o levou`
            if (
                w == ("o" if d == "m2f" else "a") and i < n - 1 and sp(i)
                and (i == 0 or (low[i - 1] not in _ART_BEFORE
                                and s.gap_after(i - 1) in (" ", ", ", ") ")))
                and toks[i + 1][:1].islower() and not covered[i + 1]
                and _is_verb(low[i + 1], lex, i > 0 and low[i - 1] in _CLITIC_STRONG)
                and not (w == "a" and low[i + 1].endswith(("rem", "r")))  # `a venderem`
            ):  # fmt: skip
                out[i] = (1, ("a" if d == "m2f" else "o",))
                continue
            # object clitics: `levou-o`, `conhecê-lo`
            if person_seen and i > 0 and s.gap_after(i - 1) == "-":
                cl = {"o": "a", "lo": "la", "no": "na"} if d == "m2f" else {
                    "a": "o", "la": "lo", "na": "no"}  # fmt: skip
                if w in cl and not self._rival(d, s, i):
                    out[i] = (1, (cl[w],))
                    continue
        if lead is not None:  # inside the lead's predicate only what its parse decided
            span, lp = lead["span"], lead["plan"]
            out = {p: v for p, v in out.items() if p not in span or lp.get(p) == v}
        return out

    def _opening(self, d: str, s: Sentence, plan: Plan, lex: Lexicon, free) -> Plan:
        """The sentence's opening: a participle clause about the subject (`Horrorizado com`,
        `Quando questionado sobre`); a subject that is a person noun for sure (`O policial então
        gritou`)."""
        low, n = s.low, len(s.low)
        k = 1 if n > 1 and low[0] in _OPENERS else 0
        w = low[k] if k < n else ""
        if (
            n > k + 2 and w.endswith(_PARTICIPLE[:4]) and free(k) and s.gap_after(k) == " "
            and ", " in s.text[s.spans[k][1] :] and (k == 0 or s.gap_after(0) == " ")
            and w not in _THING_PARTICIPLES
        ):  # fmt: skip
            t = self._flip(d, w, lex)
            if t is not None and t != w:
                return {k: (1, (t,))}
        arts = ("o", "um") if d == "m2f" else ("a", "uma")
        out: Plan = {}
        for k in [0] if n > 2 else []:
            if low[k] != arts[0] or s.gap_after(k) != " ":
                continue
            got = self._person_np(d, s, k, lex, free)
            for h in got:  # only a noun that is a person's for sure
                head = low[h] if d == "m2f" else got[h][1][0]
                if not (head in self._person_pred["m2f"] or head in _INVARIANT_PERSON
                        or (head.endswith(_SURE_PERSON) and head not in _ADJ)):  # fmt: skip
                    break
            else:
                out.update(got)
        return out

    def _predicate_start(
        self, s: Sentence, i: int, changed: set, pron: set, lex: Lexicon, clitics: set
    ) -> bool:
        """Token ``i`` begins the predicate of a copula whose subject is the changed person."""
        low, toks = s.low, s.toks
        k = i - 1
        while k >= 0 and (_is_adv(low[k]) or low[k] == "se") and s.gap_after(k) in (" ", "-"):
            k -= 1
        if k >= 1 and k - 1 in clitics and low[k].startswith(_OBJ_PRED):
            return all(_is_adv(low[j]) for j in range(k + 1, i))  # `a tornasse tão feia`
        if k < 0 or low[k] not in _COPULAS:
            return False
        if low[k] in ("tornou", "torna", "tornara", "tornar"):
            if not (k + 1 < i and low[k + 1] == "se") and not (k > 0 and low[k - 1] == "se"):
                return False
        elif not all(_is_adv(low[j]) for j in range(k + 1, i)):
            return False
        j = k - 1
        while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
            j -= 1
        if j < 0:
            return bool(pron)
        if s.gap_after(j) not in (" ", "-"):
            return False
        if j in changed:
            return True
        if pron and low[j] == "e":
            return True
        # no subject: the person's (`disse que estava zangado`, `embora estivesse envolvido`)
        if changed and low[j] in _CONJ and s.gap_after(j) == " ":
            if low[j] != "que":
                return True
            return j > 0 and (j - 1 in changed or _is_verb(low[j - 1], lex))
        if pron and low[j] in _PREP and low[k] in ("ser", "estar"):
            return True
        name = toks[j][:1].isupper() and (j == 0 or low[j - 1] not in _NAME_BLOCK)
        return name and j > 0

    def _predicate(self, d: str, s: Sentence, i: int, lex: Lexicon, free) -> Plan:
        low, toks, n = s.low, s.toks, len(s.low)
        out: Plan = {}
        k = i
        if not free(k) or not toks[k][:1].islower() or low[k] in _ADV:
            return out
        if k + 1 < n and low[k + 1] == "que":
            return out
        arts = ("o", "um") if d == "m2f" else ("a", "uma")
        if low[k] in arts:
            return self._person_np(d, s, k, lex, free)
        t = self._flip(d, low[k], lex, veto=False)
        if t is not None and t != low[k]:
            out[k] = (1, (t,))
        return out

    def _person_np(
        self,
        d: str,
        s: Sentence,
        k: int,
        lex: Lexicon,
        free,
        bare: bool = False,
        sure: bool = False,
    ) -> Plan:
        """``k`` is an article; if the noun phrase it opens names a person (`um especialista`,
        `o primeiro reitor`), change its head noun (or mark a noun of both genders as the
        person, unchanged); the article and the adjectives follow through propose."""
        low, toks, n = s.low, s.toks, len(s.low)
        h = k if bare else k + 1
        if not bare and h + 1 < n and free(h) and low[h] in ("dos", "das") and s.joined(k):
            return self._group(d, s, k, h, lex, free)
        fallback: Plan = {}
        while h < n and free(h) and toks[h][:1].islower() and s.gap_after(h - 1) == " ":
            w = low[h]
            if w in self._person_pred[d]:
                return {h: (1, (self._person_pred[d][w],))}
            nxt_ok = h + 1 < n and free(h + 1) and s.gap_after(h) == " "
            nxt_ok = nxt_ok and toks[h + 1][:1].islower() and low[h + 1] not in _HEAD_END
            if w in _PRE_ADJ and nxt_ok:  # `um grande líder`, `um jovem barão`
                if w in _INVARIANT_PERSON:
                    fallback = {h: (1, (w,))}
                h += 1
                continue
            if w in _INVARIANT_PERSON or (
                w.endswith(_INVARIANT_PERSON_ENDINGS)
                and (lex.zipf.get(w, 0) >= 2 or (w.endswith("ista") and len(w) > 6))
                and w not in _NOT_PERSON
            ):
                return {h: (1, (w,))}
            t = self._flip(d, w, lex, veto=False, agent=True)
            personlike = (t is not None and (t if d == "f2m" else w).endswith(_PERSON_ENDINGS)) or (
                bare and d == "m2f" and w.endswith("o") and w not in _NOT_ADJ
            )
            if sure and personlike:
                personlike = t is not None and self._sure_person(d, w, t, lex)
            if (
                t is not None and t != w and personlike
                and not (nxt_ok and w in _ADJ and self._flip(d, low[h + 1], lex))
            ):  # fmt: skip
                return {h: (1, (t,))}
            if not bare and w in ("mais", "menos"):
                h += 1
                continue
            masc = t if (t and d == "f2m") else w
            adj = masc in _ADJ or masc.rstrip("s") in _ADJ or masc.endswith(("oso", "osos"))
            # an adjective as the head: `o mais novo das quatro crianças`, `o primeiro a`
            head_end = h + 1 >= n or low[h + 1] in _HEAD_END or s.gap_after(h) != " "
            adjlike = adj or (masc.endswith(_ADJ_ENDINGS) and not sure)
            if not bare and t and adjlike and head_end:
                return {h: (1, (t,))}
            if not bare and adj:
                h += 1
                continue
            # an adjective the lists lack, before a person noun: `um astuto empresário`
            t2 = None if bare or not nxt_ok else self._flip(d, w, lex, adjlike=False)
            if t2 is not None and t2 != w:
                rest = self._person_np(d, s, h, lex, free, sure=True)
                if rest:
                    return {h: (1, (t2,)), **rest}
            return fallback
        return fallback

    def _group(self, d: str, s: Sentence, k: int, h: int, lex: Lexicon, free) -> Plan:
        """`um dos maiores imperadores`: the person among a group of their kind, which the
        references put in the person's gender (`uma das maiores imperatrizes`)."""
        low, toks, n = s.low, s.toks, len(s.low)
        det = self._dets[d]
        if low[k] not in det or low[h] not in det:
            return {}
        out: Plan = {k: (1, (det[low[k]],)), h: (1, (det[low[h]],))}
        j = h + 1
        while j < n and toks[j][:1].islower() and s.gap_after(j - 1) == " ":
            if not free(j):  # the head noun is changed already (`dos maiores imperadores`)
                return out if s.notes["covered"][j] else {}
            w = low[j]
            if w in self._person_pred[d] or (w == "pais" and d == "m2f"):
                out[j] = (1, (self._person_pred[d].get(w, "mães"),))
                return out
            if w.endswith(_INVARIANT_PLURAL) or w.rstrip("s") in _INVARIANT_PERSON:
                out[j] = (1, (w,))
                return out
            if w in _PRE_ADJ_PL:
                j += 1
                continue
            t = self._flip(d, w, lex, veto=False, agent=True)
            if t is None or t == w:
                return {}
            masc = t if d == "f2m" else w
            stem = masc[:-2] if masc.endswith("es") else masc.rstrip("s")
            if stem.endswith(_PERSON_ENDINGS):
                out[j] = (1, (t,))
                return out
            if masc in _ADJ or stem in _ADJ or stem.endswith(_ADJ_ENDINGS):
                out[j] = (1, (t,))
                j += 1
                continue
            return {}
        return {}


RULES = Portuguese(
    "pt",
    copulas=frozenset(),
)
