"""Spanish: predicates after a copula, and whether the copula's subject is the person.

``fue el guionista`` → ``fue la guionista``, ``fue uno de los primeros`` → ``fue una de las
primeras``, ``fue arrestado, juzgado y condenado`` → ``fue arrestada, juzgada y condenada``; but
``su libro fue publicado`` stays: the predicate agrees only when :func:`subject_is_person`. Kept
apart from ``es.py`` because finding the subject of a clause and the extent of a predicate is a
parse of its own, with its own guesses (:func:`guess`, checked against word frequencies).

The callables are the rewriter's live view of the sentence, as ``Spanish.propose`` keeps it:
``changed(i)`` (token ``i`` is changed by the plan), ``free(i)`` (still open to a change) and
``put(i, word)`` (change it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.es_words import (
    _ARTICLES,
    _BOUNDARY_WORDS,
    _CLITICS,
    _ENCLITIC,
    _MODS,
    _NO_GUESS,
    _NOT_PARTICIPLE,
    _NUMBERS,
    _ORD_F2M,
    _ORD_M2F,
    _PP_START,
    _PREPS,
    _SKIP_SUBJ,
    _SUBJ_DETS,
    _invariable_adj,
    _is_common,
)

#: a test of token ``i`` (``changed``, ``free``)
Check = Callable[[int], bool]
Put = Callable[[int, str], None]
#: the language's suffix candidates for a word (``Spanish.morph_candidates``)
Morph = Callable[[str, str], list[str]]


def participle(d: str, word: str) -> str | None:
    """The regular participle in the other gender (`condenado` → `condenada`)."""
    if word in _NO_GUESS or word in _NOT_PARTICIPLE:
        return None
    pairs = {"ado": "ada", "ido": "ida", "ados": "adas", "idos": "idas"}
    if d == "f2m":
        pairs = {v: k for k, v in pairs.items()}
    for a, b in pairs.items():
        if word.endswith(a) and len(word) > len(a) + 2:
            return word[: -len(a)] + b
    return None


def demonyms(d: str, word: str) -> list[str]:
    out = []
    # demonyms and nouns with a consonant-final masculine: inglés/inglesa, español/española
    for mas, fem in (("és", "esa"), ("ol", "ola"), ("án", "ana"), ("eses", "esas"),
                     ("oles", "olas"), ("anes", "anas")):  # fmt: skip
        src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
        if word.endswith(src) and len(word) > len(src) + 2:
            out.append(word[: len(word) - len(src)] + tgt)
    return out


def guess(d: str, word: str, lex: Lexicon, morph: Morph) -> str | None:
    """A suffix change of a predicate adjective/participle/agent noun, checked by frequency."""
    if word in _NO_GUESS or not word.isalpha():
        return None
    src_m = ("o", "os", "or", "ores") if d == "m2f" else ("a", "as", "ora", "oras")
    if not word.endswith(src_m):
        return None
    seen = lex.seen.get(word)
    if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
        return None
    z_src = lex.zipf.get(word, 0.0)
    best = None
    for cand in morph(d, word) + demonyms(d, word):
        z = lex.zipf.get(cand, 0.0)
        # agent nouns are much rarer in the feminine (`entrenadora` 3.1, `entrenador` 4.4)
        drop = 1.5 if word.endswith(("or", "ores")) else 1.0
        if z >= 2.0 and z >= z_src - drop and (best is None or z > best[0]):
            best = (z, cand)
    return best[1] if best else None


def predicate_list(
    d: str,
    s: Sentence,
    j: int,
    free: Check,
    changed: Check,
    put: Put,
    lex: Lexicon,
    morph: Morph,
) -> None:
    """Predicate adjectives and participles from ``j`` on, coordinated by commas and
    ``y``/``e`` (`fue arrestado, juzgado y condenado`, `era alto, mandón y divertido`);
    invariable adjectives (`miserable`) are passed over, anything else ends the list."""
    low = s.low
    n = len(low)
    k = j
    while k < n and s.toks[k].isalpha() and not s.toks[k][:1].isupper():
        w = low[k]
        if not free(k):
            if not changed(k):
                return  # already agreed by the tables: go on with the list
        else:
            g = participle(d, w) or guess(d, w, lex, morph)
            if g:
                put(k, g)
            elif not _invariable_adj(w):
                return
        if k + 1 >= n:
            return
        gap = s.gap_after(k)
        if gap == " " and low[k + 1] in ("y", "e") and k + 2 < n:
            k += 2
        elif gap == ", " and k + 1 < n:
            k += 1
        else:
            return


def predicate_np(
    d: str,
    s: Sentence,
    j: int,
    tgt: str,
    covered: Sequence[bool],
    changed: Check,
    put: Put,
    out: Plan,
    lex: Lexicon,
    morph: Morph,
) -> None:
    """``fue el guionista``, ``fue uno de los primeros``: the article (and ``uno de los``)
    agree when a person noun heads the phrase."""
    low = s.low
    n = len(low)
    f2m = d == "f2m"
    k = j + 1
    plural_art = None
    if low[j] in ("uno", "una"):
        if k + 1 >= n or low[k] != "de" or low[k + 1] not in ("los", "las"):
            return
        plural_art = k + 1
        k += 2
    while k < n and low[k] in _MODS and not covered[k] and k - j <= 4:
        k += 1
    if k >= n:
        return
    if k - 1 > (plural_art if plural_art is not None else j) and low[k] in (
        "de",
        "en",
        "que",
        "del",
    ):
        k -= 1  # `el menor de cinco`, `el mejor de su generación`
    head = low[k]
    person = changed(k)
    anchor = False
    ords = _ORD_F2M if f2m else _ORD_M2F
    if not person and not covered[k] and not s.toks[k][:1].isupper():
        if head in ords:
            # `el primero en`, `uno de los primeros conservacionistas`
            nxt = low[k + 1] if k + 1 < n and not covered[k + 1] else ""
            person = nxt in ("en", "de", "que") or _is_common(nxt)
            if person:
                put(k, ords[head])
        elif _is_common(head):
            person = anchor = True
        elif head.endswith(("or", "ores", "ora", "oras", "ero", "eros", "era", "eras")):
            person = guess(d, head, lex, morph) is not None
    if not person:
        return
    put(j, tgt)
    if plural_art is not None:
        put(plural_art, "los" if f2m else "las")
    if anchor:
        if not covered[k] and k not in out:
            out[k] = (1, (head,))  # a person noun: adjectives next to it agree
    elif not changed(k) and head not in ords:
        g = guess(d, head, lex, morph)
        if g:
            put(k, g)


def subject_is_person(s: Sentence, c: int, changed: Check) -> bool:
    """The subject of the copula at ``c`` is the person: a pronoun or changed word in its
    clause, a name, or no subject at all (pro-drop)."""
    low = s.low
    i = c - 1
    clause: list[int] = []
    boundary = None
    while i >= 0:
        if any(ch in s.gap_after(i) for ch in ',;:«»"“”.!?—'):
            boundary = "punct"
            break
        if low[i] in _BOUNDARY_WORDS:
            boundary = "conj"
            break
        if low[i] in ("que", "quien", "cual"):
            boundary = "que"
            break
        clause.append(i)
        i -= 1
    if any((low[k] in _CLITICS or _ENCLITIC.match(low[k])) and changed(k) for k in clause):
        return True  # `la llevaron a ser castigada`: the person is the object
    clause = [k for k in reversed(clause) if low[k] not in _SKIP_SUBJ]
    if not clause:
        if boundary == "que":
            a = i - 1
            if a >= 0 and s.gap_after(a) in (", ", " "):
                return low[a] in ("él", "ella") or changed(a) or (s.toks[a][:1].isupper() and a > 0)
            return False
        return boundary != "conj" or _clause_before_is_person(s, i, changed)
    if len(clause) == 1 and low[clause[0]] in ("él", "ella"):
        return True
    if low[clause[0]] in _PP_START and len(clause) <= 4:
        # `En 2007 fue`, `Durante su juventud fue`: an adverbial, no subject
        return not any(
            low[k] in _ARTICLES or (s.toks[k][:1].isupper() and k != clause[0]) for k in clause
        )
    # `el abuelo fue`, `su hijo mayor era`: a changed noun heads the clause
    head = clause[1:] if low[clause[0]] in _SUBJ_DETS else clause
    while head and low[head[0]] in _NUMBERS | {"otro", "otros", "otra", "otras"}:
        head = head[1:]  # `dos chicos fueron`, `los otros dos hijos fueron`
    if head and changed(head[0]) and len(head) <= 3:
        return not any(low[k] in _PREPS for k in head)
    # a name (capitalised words, no article before them)
    first = clause[0]
    if all(s.toks[k][:1].isupper() for k in clause) and len(clause) <= 3:
        return first == 0 or low[first - 1] not in _ARTICLES
    return False


def _clause_before_is_person(s: Sentence, i: int, changed: Check) -> bool:
    """After ``y``/``pero`` with no subject: the subject is carried over; the person when
    the sentence so far names the person (a pronoun or a changed word)."""
    low = s.low
    for k in range(i - 1, -1, -1):
        if any(ch in s.gap_after(k) for ch in ".!?;"):
            break
        if low[k] in ("él", "ella") or changed(k):
            return True
    return False
