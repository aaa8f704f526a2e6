"""French: the other-gender form of a word, its noun phrase, and elision and contraction.

A changed noun carries its noun phrase: the determiner (``le``/``la``, ``un``/``une``,
``ce``/``cet``/``cette``, ``son``/``sa``, ``du``/``de la``, ``au``/``à la``), the adjectives before
it (``un jeune baron`` → ``une jeune baronne``) and after it (``actrice américaine``), a quantifier
(``l'un des acteurs``). Once the plan is whole, the words before a changed one take their form
(``le homme`` → ``l'homme``, ``de le roi`` → ``du roi``, ``son amie``). Both need the same suffix
guess (:func:`other_gender_form`), made here with its context instead of by the engine, so they
live together; the subject and pronoun modules call in here for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _CLITIC_BETWEEN,
    _DET_F2M,
    _DET_M2F,
    _DETS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _FIXED_PREFIX,
    _H_ASPIRE,
    _H_MUET,
    _NO_GUESS,
    _NOUN_COMPLEMENTS,
    _NUMBERS,
    _ORDINAL,
    _PRE_F2M,
    _PRE_M2F,
    _PREP,
    _QUANT_M2F,
    _SUFFIXES,
    _VERBLIKE_M,
    _VOWELS,
)


def starts_vowel(word: str) -> bool:
    """Whether an article before ``word`` elides (`l'acteur`, `l'homme`, not `le héros`)."""
    w = word.lower()
    if not w:
        return False
    if w[0] == "h":
        if w.startswith(_H_MUET):
            return True
        return not w.startswith(_H_ASPIRE)
    return w[0] in _VOWELS


def skip_adverbs(low: Sequence[str], k: int) -> int:
    """The first token from ``k`` on that is no adverb (`très`, `brièvement`, `d'abord`)."""
    n = len(low)
    while k < n:
        w = low[k]
        if w in _ADVERBS or (len(w) > 6 and w.endswith("ment")):
            k += 1
        elif w in ("d'", "de") and k + 1 < n and low[k + 1] in ("abord", "ailleurs", "nouveau"):
            k += 2
        else:
            break
    return k


def is_free(s: Sentence, covered: Sequence[bool], out: Plan, i: int) -> bool:
    """Token ``i`` exists and is changed neither by the engine nor by a proposal so far."""
    return 0 <= i < len(s.low) and not covered[i] and i not in out


def other_gender_form(
    d: str, word: str, lex: Lexicon, verbish_ok: bool, trust_seen: bool = True
) -> str | None:
    """The other-gender form of ``word`` by suffix, when it is a French word."""
    verblike = word.endswith(_VERBLIKE_M) and not word.endswith(("ais", "ois"))
    if d == "m2f" and not verbish_ok and verblike:
        return None
    if word in _NO_GUESS:
        return None
    seen = lex.seen.get(word)
    if trust_seen and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
        return None
    z_src = lex.zipf.get(word, 0.0)
    plural = word.endswith(("s", "x"))

    def zipf(cand: str) -> float:
        z = lex.zipf.get(cand, 0.0)
        if not z and plural and cand.endswith("s"):  # a rare plural of a known singular
            z = lex.zipf.get(cand[:-1], 0.0) - 0.3
        return z

    best = None
    for fem, mas in _SUFFIXES:
        src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
        if word.endswith(src) and len(word) > len(src) + 2:
            cand = word[: len(word) - len(src)] + tgt
            z = zipf(cand)
            if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
                best = (z, cand)
        if d == "m2f" and src == "é" and word.endswith("é"):
            break
    short = 2 if verbish_ok and word.endswith(("u", "é")) else 3  # `élu`, `vu`
    if best is None and d == "m2f" and len(word) > short and word[-1] in "tdslnrué":
        cand = word + "e"
        z = lex.zipf.get(cand, 0.0)
        if z >= 2.0 and z >= z_src - 1.5:
            best = (z, cand)
    return best[1] if best else None


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


def agree_one_of(
    d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """`l'une des premières conservationnistes`: the plural noun phrase from ``k`` after a
    changed `l'un des`, when its noun is of both genders or takes the other form."""
    low, toks = s.low, s.toks
    n = len(low)
    if k < n and low[k] in ("ses", "ces", "nos", "leurs", "mes") and low[k - 1] in ("de", "d'"):
        k += 1
    while k < n and (low[k].isdigit() or low[k] in _NUMBERS):
        k += 1
    pre = _PRE_F2M if d == "f2m" else _PRE_M2F
    changes: dict[int, str] = {}
    while k < n and low[k] in pre and s.gap_after(k - 1) == " ":
        f = pre[low[k]]
        changes[k] = f[0] if isinstance(f, tuple) else f
        k += 1
    if k >= n or s.gap_after(k - 1) != " " or not toks[k].islower() or not low[k].endswith("s"):
        return
    guess = other_gender_form(d, low[k], lex, verbish_ok=False, trust_seen=False)
    if guess is not None:
        changes[k] = guess
    elif not (low[k][:-1] in _EPICENE or low[k][:-1].endswith(_EPICENE_ENDINGS)):
        return
    for j, w in changes.items():
        if j not in out and not covered[j] and w != low[j]:
            out[j] = (1, (w,))


def agree_predicate_np(
    d: str, k: int, s: Sentence, covered: Sequence[bool], out: Plan, lex: Lexicon
) -> None:
    """`il est un acteur célèbre` → `elle est une actrice célèbre`: the determiner at ``k``
    and the words of its noun phrase (even an epicene noun: `une fan invétérée`)."""
    low, toks = s.low, s.toks
    n = len(low)
    words = []
    j = k + 1
    while j < n and len(words) < 4 and s.gap_after(j - 1) in (" ", "-"):
        w = low[j]
        if w in _DETS or w in _PREP or w in _CLITIC_BETWEEN or toks[j][:1].isupper():
            break
        if not w.isalpha():
            break
        words.append(j)
        j += 1
        if s.gap_after(j - 1) not in (" ", "-"):
            break
    if not words or low[words[0]] in ("des", "de", "d'"):
        return
    if low[k] in ("un", "une") and words and low[words[0]] in ("de", "des", "d'"):
        return
    changes = {}
    pre = _PRE_F2M if d == "f2m" else _PRE_M2F
    head = True
    for j in words:
        w = low[j]
        if w in pre:
            f = pre[w]
            changes[j] = f[0] if isinstance(f, tuple) else f
            continue
        if covered[j] or j in out:
            head = False
            continue
        g = other_gender_form(d, w, lex, verbish_ok=True)
        epicene = w in _EPICENE or w.endswith(_EPICENE_ENDINGS)
        if g is not None:
            changes[j] = g
        elif head and not epicene and not w.endswith(("e", "s")):
            return  # a noun of one gender (`le mec`): leave the phrase alone
        elif not epicene and lex.zipf.get(w, 0.0) < 2.0:
            return  # an unknown word
        head = False
    if low[k] not in ("un", "une", "le", "la") or k in out or covered[k]:
        return
    table = _DET_F2M if d == "f2m" else _DET_M2F
    if low[k] in table:
        out[k] = (1, (table[low[k]],))
    for j, g in changes.items():
        out[j] = (1, (g,))


def elide_and_contract(s: Sentence, plan: Plan) -> None:
    """The form of the words before a changed one, in place: elision (`l'actrice`, `d'elle`),
    `ce`/`cet`, `son amie`, `nouvel`, `de la` → `de l'`, and `de le` → `du`, `à le` → `au`."""
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
