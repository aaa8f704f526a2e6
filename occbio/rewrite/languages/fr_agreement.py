"""French: the noun phrase of a changed noun, and elision and contraction.

A changed noun carries its noun phrase: the determiner (``le``/``la``, ``un``/``une``,
``ce``/``cet``/``cette``, ``son``/``sa``, ``du``/``de la``, ``au``/``à la``), the adjectives before
it (``un jeune baron`` → ``une jeune baronne``) and after it (``actrice américaine``), a quantifier
(``l'un des acteurs``). Once the plan is whole, the words before a changed one take their form
(``le homme`` → ``l'homme``, ``de le roi`` → ``du roi``, ``son amie``). Both need the same suffix
guess (``fr_forms``), made with its context instead of by the engine; the noun phrases that
are predicates of the person are in ``fr_predicate``.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.fr_forms import (
    is_free,
    other_gender_form,
    skip_adverbs,
    starts_vowel,
)
from occbio.rewrite.languages.fr_words import (
    _DET_F2M,
    _DET_M2F,
    _DETS,
    _FIXED_PREFIX,
    _NOUN_COMPLEMENTS,
    _NUMBERS,
    _ORDINAL,
    _PRE_F2M,
    _PRE_M2F,
    _PREP,
    _QUANT_M2F,
)


def _planned_word(plan: Plan, low: Sequence[str], i: int) -> str:
    """The word at token i after the plan (lower case, first target word)."""
    for j, (ln, t) in plan.items():
        if j <= i < j + ln:
            return t[min(i - j, len(t) - 1)]
    return low[i]


def agree_noun_phrases(
    d: str,
    s: Sentence,
    covered: Sequence[bool],
    plan: Plan,
    nominal: Sequence[int],
    out: Plan,
    lex: Lexicon,
) -> None:
    """The noun phrase around each changed noun in ``nominal``: its determiner, quantifier and
    adjectives before it, and its adjectives after it."""
    low, toks = s.low, s.toks
    n = len(low)
    gap = s.gap_after

    def free(i: int) -> bool:
        return is_free(s, covered, out, i)

    def is_name(i: int) -> bool:
        return i > 0 and toks[i][:1].isupper() and not toks[i].isupper()

    for j in sorted(nominal):
        # left: adjectives, compound prefixes, then the determiner
        k = j - 1
        while k >= 0 and gap(k) in (" ", "-", ""):
            w = low[k]
            if gap(k) == "" and not w.endswith(("'", "’")):
                break
            if w in _DETS or w == "ces":
                if free(k):
                    _set_determiner(d, k, w, out)
                _agree_quantifier(d, s, k, covered, out)
                break
            if w in ("plus", "moins") and k > 0 and low[k - 1] in ("le", "la"):
                k -= 1  # a superlative: `le plus vieil homme`
                continue
            if gap(k) == "-" and w in _FIXED_PREFIX:
                k -= 1
                continue
            if d == "f2m" and w in _PRE_F2M:
                m, mv = _PRE_F2M[w]
                if free(k) and m != w:
                    out[k] = (1, (mv if starts_vowel(_planned_word(plan, low, k + 1)) else m,))
                k -= 1
                continue
            if d == "m2f" and w in _PRE_M2F:
                f = _PRE_M2F[w]
                if w in ("vieux", "fameux") and _planned_word(plan, low, j).endswith(("s", "x")):
                    f += "s"
                if free(k) and f != w:
                    out[k] = (1, (f,))
                k -= 1
                continue
            if w in _NUMBERS or (w.isdigit() and gap(k) == " "):
                k -= 1  # `l'un des sept princes` → `l'une des sept princesses`
                continue
            if w.endswith("ième") or _ORDINAL.match(w) or (covered[k] and not is_name(k)):
                k -= 1
                continue
            break
        # right: adjectives after the noun (and its fixed complement: `femme d'affaires`),
        # not after a participle or a predicate (`est devenu grand-père`, `devenu associé`)
        k = j + 1
        if tuple(low[k : k + 2]) in _NOUN_COMPLEMENTS and gap(k) in (" ", ""):
            k += 2
        steps = 0
        while k < n and steps < 2 and gap(k - 1) == " ":
            if not free(k) or is_name(k) or toks[k][:1].isupper():
                break
            a = skip_adverbs(low, k)
            if a > k and a < n and free(a) and gap(a - 1) == " " and toks[a].islower():
                k = a  # `une femme très dévote`, `un homme peu apprécié`
            w = low[k]
            if w in ("le", "la", "les"):
                _agree_superlative(d, s, k, covered, out, lex)
            if w in _DETS or w in _PREP or len(w) < 3 or gap(k) == "-":
                break  # `grand-père` is a compound: its prefix does not agree
            guess = other_gender_form(d, w, lex, verbish_ok=False, trust_seen=steps > 0)
            if guess is None:
                break
            noun_plural = _planned_word(plan, low, j).endswith(("s", "x"))
            if w.endswith(("s", "x")) and noun_plural and guess[-1] == "e":
                guess += "s"  # `femmes d'affaires néerlandaises`
            out[k] = (1, (guess,))
            k += 1
            steps += 1


def _agree_superlative(
    d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """A superlative after a changed noun agrees with it, article and adjective: `les
    hommes les plus beaux` → `les femmes les plus belles` (not `le plus haut placé`)."""
    low, toks = s.low, s.toks
    n = len(low)
    art = k
    if art + 2 >= n or low[art + 1] not in ("plus", "moins") or s.gap_after(art) != " ":
        return
    if low[art] == ("la" if d == "m2f" else "le"):
        return  # the article is of the new gender already: not this noun's
    k = art + 2
    if low[k] in ("haut", "bas", "bien", "mal", "mieux") or not toks[k].islower():
        return  # `la plus haut placée`: left alone
    if s.gap_after(k - 1) != " " or not toks[k].isalpha():
        return
    if covered[art] or art in out or covered[k] or k in out:
        return
    pre = _PRE_M2F.get(low[k]) if d == "m2f" else _PRE_F2M.get(low[k], (None,))[0]
    guess = pre or other_gender_form(d, low[k], lex, verbish_ok=True, trust_seen=False)
    if guess is None:
        return
    if low[art] == "les" and guess[-1] == "e":
        guess += "s"
    if low[art] != "les":
        out[art] = (1, ("la" if d == "m2f" else "le",))
    out[k] = (1, (guess,))


def _set_determiner(d: str, k: int, w: str, out: Plan) -> None:
    table = _DET_F2M if d == "f2m" else _DET_M2F
    if w in table:
        out[k] = (1, tuple(table[w].split()))


def _agree_quantifier(d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan) -> None:
    """`l'un des acteurs` → `l'une des actrices`, `un de ces hommes`, `tous les rois`:
    the pronoun before the plural determiner at ``k`` agrees with its noun."""
    low = s.low
    if low[k] not in ("des", "ces", "ses", "les") or k == 0:
        return
    q = k - 1
    if low[k] in ("ces", "ses") and low[q] in ("de", "d'") and q > 0:
        q -= 1
    elif low[k] == "les" and low[q] not in ("tous", "toutes"):
        return
    if not s.joined(q) or covered[q] or q in out:
        return
    table = _QUANT_M2F if d == "m2f" else {v: k for k, v in _QUANT_M2F.items()}
    if low[q] in table:
        out[q] = (1, (table[low[q]],))


def elide_and_contract(s: Sentence, plan: Plan, d: str = "") -> None:
    """The form of the words before a changed one, in place: elision (`l'actrice`, `d'elle`),
    `ce`/`cet`, `son amie`, `nouvel`, `de la` → `de l'`, and `de le` → `du`, `à le` → `au`;
    an unchanged article `l'` before a noun that now starts with a consonant takes the new
    gender (`de l'homme de ménage` → `de la femme de ménage`)."""
    low = s.low
    n = len(low)

    def final(i: int) -> str:
        for j, (ln, t) in plan.items():
            if j <= i < j + ln:
                return t[-1] if i == j + ln - 1 else t[0]
        return low[i]

    # the form of a word before the next one: elision, `ce`/`cet`, `son amie`
    for i in sorted(plan):
        ln, t = plan[i]
        if ln != 1:
            continue
        last = i + ln
        if last >= n or s.gap_after(i) not in (" ", ""):
            continue
        nxt = final(last)
        vowel = starts_vowel(nxt)
        w = t[-1]
        new = w
        if w in ("le", "la") and vowel and (last in plan or w != low[i]):
            new = "l'"
        elif w == "ce" and vowel:
            new = "cet"
        elif w == "cet" and not vowel:
            new = "ce"
        elif w in ("ma", "ta", "sa") and vowel:
            new = {"ma": "mon", "ta": "ton", "sa": "son"}[w]
        elif w in ("nouveau", "beau", "vieux") and vowel:
            new = {"nouveau": "nouvel", "beau": "bel", "vieux": "vieil"}[w]
        if new != w:
            plan[i] = (ln, (*t[:-1], new))
    # an unchanged `de`/`que`/`la` before a word whose first letter changed class
    elide = {"de": "d'", "que": "qu'", "ne": "n'", "se": "s'", "le": "l'", "la": "l'",
             "lorsque": "lorsqu'", "puisque": "puisqu'", "jusque": "jusqu'", "me": "m'",
             "je": "j'", "te": "t'"}  # fmt: skip
    full = {v: k for k, v in elide.items() if k not in ("le", "la")}
    for i in sorted(plan):
        if i == 0 or (i - 1) in plan:
            continue
        prev = low[i - 1]
        g = s.gap_after(i - 1)
        first = plan[i][1][0]
        if prev in elide and g == " " and starts_vowel(first) and prev not in ("le", "la"):
            plan[i - 1] = (1, (elide[prev],))
        elif prev in full and g == "" and not starts_vowel(first):
            plan[i - 1] = (1, (full[prev],))
        elif (
            prev in ("l'", "l’")
            and g == ""
            and d
            and plan[i][0] == 1
            and first.isalpha()
            and (not starts_vowel(first))
        ):  # `de l'homme` → `de la femme`
            plan[i - 1] = (1, ("la" if d == "m2f" else "le",))
    # `de la` + vowel: `de l'`
    for i in sorted(plan):
        ln, t = plan[i]
        if len(t) == 2 and t[1] == "la" and i + ln < n and starts_vowel(final(i + ln)):
            plan[i] = (ln, (t[0], "l'"))
    # `de le roi` → `du roi`, but not the clitic of `de le soigner`
    clitic = s.notes.get("clitics", set())
    articles = {i: v for i, v in plan.items() if i not in clitic}
    clitics = {i: v for i, v in plan.items() if i not in articles}
    merge_contractions(s, articles, {("de", "le"): "du", ("à", "le"): "au"})
    plan.clear()
    plan.update(articles)
    plan.update(clitics)
