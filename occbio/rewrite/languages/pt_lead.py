"""Portuguese: the lead sentence of a biography, parsed as a whole and rewritten whole or not at
all.

``X (Lisboa, 1920 — Porto, 1990) foi um pintor e gravador português, conhecido por ...``

The subject (a name or a pronoun) and its parenthesis, the copula, then ``um``/``uma`` (or `um
dos`) and a coordination of person nouns with their adjectives, complements (`produtor de
cinema português`) and appositions. :func:`sentence_lead` returns every change of the
predicate, or says that a word of it has no known other-gender form; the rewriter then leaves
the whole sentence as it is (a half-rewritten lead is worse than none).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    DETERMINER_FORMS,
    DETERMINER_SWAP,
    DIRECTIONS,
    PERSON_PRED_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_verb,
    other_gender,
    swap_table,
)
from occbio.rewrite.languages.pt_noun_phrase import group_np, person_np
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADV,
    _AUX,
    _CONJ,
    _COPULAS,
    _EPICENE,
    _FUNCTION,
    _INVARIANT_PERSON,
    _INVARIANT_PERSON_ENDINGS,
    _LEAD_COPULAS,
    _LEAD_PAIRS,
    _LEAD_PREFIXES,
    _LEAD_PREPS,
    _LEAD_SAME,
    _LEAD_SAME_ENDINGS,
    _NATIONS,
    _NO_FEM,
    _NOT_PERSON,
    _PARTICIPLE,
    _PERSON_ENDINGS,
    _PRE_ADJ,
)


def _feminine_of(m: str) -> str:
    """The feminine of a nationality adjective (`português` → `portuguesa`)."""
    for mas, fem in (("ês", "esa"), ("ão", "ã"), ("eu", "eia"), ("ol", "ola"), ("o", "a")):
        if m.endswith(mas):
            return m[: len(m) - len(mas)] + fem
    return m


_NATION_PAIRS = [(m, _feminine_of(m)) for m in _NATIONS]
#: nationality adjectives the same in both genders (`israelita`)
_SAME_NATIONS = frozenset(m for m, f in _NATION_PAIRS if m == f)
#: nouns and adjectives of a lead's predicate: {direction: {source: target}}
_LEAD_SWAP = {
    d: {**swap_table([p for p in _NATION_PAIRS if p[0] != p[1]], d), **swap_table(_LEAD_PAIRS, d)}
    for d in DIRECTIONS
}


def sentence_lead(d: str, s: Sentence, lex: Lexicon) -> dict | None:
    """A Wikipedia lead (`X (Lisboa, 1920 — Porto, 1990) foi um pintor e gravador
    português, conhecido por ...`): its predicate is parsed as a whole, and rewritten whole
    or not at all. ``{"span": positions it decides, "plan": its changes or None}`` (None:
    a word of the predicate has no known form of the other gender), or None when the
    sentence is not shaped like a lead. Cached per sentence."""
    if "lead" not in s.notes:
        s.notes["lead"] = parse_lead(d, s, lex)
    return s.notes["lead"]


def _lead_form(d: str, w: str, lex: Lexicon, post: bool = False, coord: bool = False) -> str | None:
    """The other-gender form of a noun or adjective of a lead's predicate (``w`` itself
    when it is the same in both genders), or None when unknown. ``post``: right after a
    noun; ``coord``: a noun coordinated with the first (`um educador e filósofo`)."""
    if w in ("membro", "membros"):
        return w
    for table in (_LEAD_SWAP[d], PERSON_PRED_SWAP[d]):
        if w in table:
            return table[w]
    if w in _NO_FEM:
        return None
    if w in _LEAD_SAME or w in _SAME_NATIONS or w in _INVARIANT_PERSON:
        return w
    t = other_gender(d, w, lex, veto=False, agent=True)
    if t is not None and t != w:
        return t
    if w.endswith(_LEAD_SAME_ENDINGS):
        return w
    if post or coord:  # an adjective the lists lack (`fã ferrenho`), a noun (`filósofo`)
        t = other_gender(d, w, lex, adjlike=False, agent=coord)
        if t is not None and t != w:
            return t
    return None


def _is_lead_head(d: str, w: str, t: str) -> bool:
    """``w`` (→ ``t``) is a person noun: the head of a lead's predicate."""
    masc = t if d == "f2m" else w
    if w in PERSON_PRED_SWAP[d] or w in _INVARIANT_PERSON or w in _LEAD_SAME:
        return w not in ("jovem", "ex", "atual", "civil")
    if w in _LEAD_SWAP[d] and masc not in _NATIONS:
        return True
    if t != w and masc.endswith(_PERSON_ENDINGS) and masc not in _NATIONS:
        return True
    return w.endswith(_INVARIANT_PERSON_ENDINGS) and w not in _NOT_PERSON


def _known_as(d: str, s: Sentence, i: int, lex: Lexicon, span: set, plan: Plan) -> int:
    """`, mais conhecido como Carlinhos,` / `, conhecido artisticamente por Manel,` between
    the subject and the copula: its participle agrees (``plan``); the position after it, or
    ``len(s.low)`` (no lead) when the apposition is not of this shape."""
    low, toks, n = s.low, s.toks, len(s.low)
    j = i
    while j < n and low[j] in ("mais", "também", "melhor") and s.gap_after(j) == " ":
        j += 1
    if j >= n or low[j] not in ("conhecido", "conhecida") or s.gap_after(j) != " ":
        return n
    t = other_gender(d, low[j], lex)
    if t is not None and t != low[j]:
        plan[j] = (1, (t,))
    j += 1
    while j < n and is_adverb(low[j]) and s.gap_after(j) == " ":
        j += 1
    if j >= n or low[j] not in ("como", "por") or s.gap_after(j) != " ":
        return n
    j += 1
    while j < n and (toks[j][:1].isupper() or toks[j][:1].isdigit()) and s.gap_after(j) != ", ":
        j += 1
    if j >= n or not toks[j][:1].isupper() or s.gap_after(j) != ", ":
        return n
    span.update(range(i, j + 1))
    return j + 1


def parse_lead(d: str, s: Sentence, lex: Lexicon) -> dict | None:
    """The parse behind :func:`sentence_lead`, uncached."""
    low, toks, n = s.low, s.toks, len(s.low)
    span: set[int] = set()
    plan: Plan = {}
    if n < 4:
        return None
    i = 0
    if low[0] in PRONOUN_FORMS:
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
        if j >= n or s.gap_after(j).strip() not in (")", "),"):
            return None
        for p in range(i, j + 1):
            span.add(p)
            if low[p] in ("nascido", "nascida", "falecido", "falecida", "morto", "morta"):
                t = other_gender(d, low[p], lex)
                if t is not None:
                    plan[p] = (1, (t,))
        i = j + 1
        if s.gap_after(j).strip() == "),":
            i = _known_as(d, s, i, lex, span, plan)
    elif gap == ", ":
        i = _known_as(d, s, i, lex, span, plan)
    elif gap != " ":
        return None
    if i >= n or low[i] not in _LEAD_COPULAS or s.gap_after(i) != " ":
        return None
    k = i + 1
    while k < n and is_adverb(low[k]) and s.gap_after(k) == " ":
        k += 1
    arts = ("um", "uma")
    if k + 1 >= n or low[k] != arts[d == "f2m"] or s.gap_after(k) != " ":
        return None
    det = DETERMINER_SWAP[d]

    def free(j: int) -> bool:
        return 0 <= j < n and j not in plan

    h = k + 1
    if low[h] in ("dos", "das"):  # `um dos fundadores do partido e ministro`
        got = group_np(d, s, k, h, lex, free)
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
    pp_noun, pp_det = "", False
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
        the = ("o", "a")[d == "f2m"]  # the source gender's definite article
        if first and sep == "e" and w in (low[k], the) and h + 1 < n and s.gap_after(h) == " ":
            # `um pintor e um escritor`, `e o primeiro presidente`: an item's own article
            plan[h] = (1, (det[w],))
            span.add(h)
            h += 1
            continue
        if state == "pp":
            if w in _LEAD_PREPS or w in DETERMINER_FORMS:
                h += 1
                continue
            if h - 1 in plan and s.gap_after(h - 1) == " " and not pp_noun:
                t = other_gender(d, w, lex)  # `uma das escritoras brasileiras`
                if t is not None and t != w:
                    plan[h] = (1, (t,))
                    span.add(h)
                    h += 1
                    continue
            if s.gap_after(h) == "-" and w in _LEAD_PREFIXES:
                span.add(h)  # `de basquetebol norte-americano`
                h += 1
                continue
            if not pp_noun:
                pp_noun = w
                # `do cinema português`: an adjective after a noun with its article is that
                # noun phrase's
                pp_det = low[h - 1] in DETERMINER_FORMS
            t = _LEAD_SWAP[d].get(w) if w in _LEAD_SWAP[d] else None
            after_prefix = s.gap_after(h - 1) == "-" and low[h - 1] in _LEAD_PREFIXES
            if t is not None and (s.gap_after(h - 1) == " " or after_prefix):
                # `produtor de cinema português`: the person's, unless it agrees with the
                # bare noun before it (`professor de direito romano`)
                if d == "m2f":  # (`-ma` nouns are masculine, `-ção`/`-são` ones feminine)
                    agrees = pp_noun.endswith(("o", "os")) and not pp_noun.endswith(("ção", "são"))
                else:
                    agrees = pp_noun.endswith(("a", "as")) and not pp_noun.endswith(("ma", "mas"))
                if not agrees and not pp_det:
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
        if w == low[k] and first and sep == "," and h + 1 < n and low[h + 1] in ("dos", "das"):
            # an apposition: `, um dos principais representantes do movimento`
            got = group_np(d, s, h, h + 1, lex, free)
            if not got:
                break
            plan.update(got)
            span.update(range(h, max(got) + 1))
            h, state, pp_noun = max(got) + 1, "pp", ""
            continue
        if w in ("um", "uma", "o", "a") and not first and low[h - 1].endswith(_PARTICIPLE):
            # `considerado um dos maiores autores`
            got = person_np(d, s, h, lex, free, sure=True)
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
            got = person_np(d, s, h + 3, lex, free, bare, sure=True)
            if got:
                if not bare:
                    got.setdefault(h + 3, (1, (det[low[h + 3]],)))
                plan.update(got)
                span.update(range(h + 3, max(got) + 1))
            break
        if w in _FUNCTION or w in _CONJ or w in _COPULAS or w in _AUX:
            break
        if w in _EPICENE:
            return None  # `é uma pessoa honesta`: nothing agrees with the person
        if not first and w in _ADV:  # `um autor muito talentoso`: the adverb stays
            span.add(h)
            h += 1
            continue
        t = _lead_form(
            d, w, lex, post=not first and s.gap_after(h - 1) == " ", coord=first and sep == "e"
        )
        if t is None and is_verb(w, lex):
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
        if first and sep != "e" and not _is_lead_head(d, w, t):
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
        has_head = has_head or _is_lead_head(d, w, t)
        span.add(h)
        first = False
        h += 1
    if not has_head:
        return None
    return {"span": span, "plan": plan}
