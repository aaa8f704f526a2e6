"""Spanish: predicates after a copula, and the regular other-gender forms they take.

``fue el guionista`` → ``fue la guionista``, ``fue uno de los primeros`` → ``fue una de las
primeras``, ``fue arrestado, juzgado y condenado`` → ``fue arrestada, juzgada y condenada``; but
``su libro fue publicado`` stays: ``Spanish.propose`` agrees a predicate only when
``es_subject`` finds that the copula's subject is the person. This module holds the extent of a
predicate (:func:`predicate_list`, :func:`predicate_np`, :func:`next_conjunct`), participle
clauses (:func:`participle_clauses`: ``Educado en Eton, ...``) and the word forms they guess
(:func:`participle`, :func:`demonyms`, :func:`guess`, checked against word frequencies), which
``es_adjectives`` and ``es_lead`` use too.

The callables are the rewriter's live view of the sentence, as ``Spanish.propose`` keeps it:
``changed(i)`` (token ``i`` is changed by the plan), ``free(i)`` (still open to a change) and
``put(i, word)`` (change it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.es_subject import Check, first_clause_is_person
from occbio.rewrite.languages.es_words import (
    _ARTICLES,
    _LEAD,
    _MODS,
    _NO_GUESS,
    _NOT_PARTICIPLE,
    _ORD_F2M,
    _ORD_M2F,
    _PREPS,
    _SUBJ_DETS,
    _invariable_adj,
    _is_common,
)

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
    for mas, fem in (("és", "esa"), ("ol", "ola"), ("án", "ana"), ("ón", "ona"),
                     ("eses", "esas"), ("oles", "olas"), ("anes", "anas"),
                     ("ones", "onas")):  # fmt: skip
        src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
        if word.endswith(src) and len(word) > len(src) + 2:
            out.append(word[: len(word) - len(src)] + tgt)
    return out


def guess(d: str, word: str, lex: Lexicon, morph: Morph) -> str | None:
    """A suffix change of a predicate adjective/participle/agent noun, checked by frequency."""
    if word in _NO_GUESS or not word.isalpha():
        return None
    src_m = ("o", "os", "or", "ores", "és", "eses", "ol", "oles", "ón", "ones") if d == "m2f" else (
        "a", "as", "ora", "oras")  # fmt: skip
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


#: determiners that look like adjectives: before a noun they are that noun's
_NP_DETS = frozenset(
    {"otro", "otra", "otros", "otras", "cierto", "cierta", "mucho", "mucha", "muchos", "muchas",
     "poco", "poca", "pocos", "pocas", "tanto", "tanta", "todo", "toda", "todos", "todas",
     "nuestro", "nuestra", "vuestro", "vuestra", "dicho", "dicha", "propio", "propia"}
)  # fmt: skip


def predicate_list(
    d: str,
    s: Sentence,
    j: int,
    free: Check,
    changed: Check,
    put: Put,
    lex: Lexicon,
    morph: Morph,
) -> int | None:
    """Predicate adjectives and participles from ``j`` on, coordinated by commas and
    ``y``/``e`` (`fue arrestado, juzgado y condenado`, `era alto, mandón y divertido`);
    invariable adjectives (`miserable`) are passed over, anything else ends the list.
    Returns the position of a noun phrase coordinated after the list (`era español y uno de
    los primeros`: ``uno``), for the caller to agree as a predicate too."""
    low = s.low
    n = len(low)
    k = j
    while k < n and s.toks[k].isalpha() and not s.toks[k][:1].isupper():
        w = low[k]
        if k > j and w in ("uno", "una", "un", "el", "la", "los", "las", "unos", "unas"):
            return k if low[k - 1] in ("y", "e") else None
        noun_next = k + 1 < n and s.joined(k) and s.toks[k + 1].islower()
        if w in _NP_DETS and noun_next and not changed(k + 1):
            return None  # `era otra película`: the determiner of a noun of its own
        agreed = False  # a participle or adjective of the person here
        if not free(k):
            if not changed(k):
                return None  # already agreed by the tables: go on with the list
            agreed = True
        else:
            g = participle(d, w) or guess(d, w, lex, morph)
            if g:
                put(k, g)
                agreed = True
            elif not _invariable_adj(w):
                return None
        if k + 1 >= n:
            return None
        gap = s.gap_after(k)
        if gap == " " and low[k + 1] in ("y", "e") and k + 2 < n:
            k += 2
        elif gap == ", " and k + 1 < n:
            k += 1
        elif agreed:
            # `fue herido en combate y condecorado`: a short complement, then another
            # participle of the same subject
            nxt = _participle_after_pp(d, s, k, lambda w: guess(d, w, lex, morph) is not None)
            if nxt is None:
                return None
            k = nxt
        else:
            return None
    return None


def _participle_after_pp(d: str, s: Sentence, k: int, agrees: Callable[[str], bool]) -> int | None:
    """After the participle at ``k``: a complement of at most five words, `y` (`y luego`)
    and a regular participle (`herido en combate y condecorado`); its position, or None."""
    low, toks = s.low, s.toks
    n = len(low)
    if k + 1 >= n or low[k + 1] not in _PREPS or not s.joined(k):
        return None
    for m in range(k + 2, min(n - 1, k + 8)):
        if not s.joined(m - 1) or not toks[m].isalnum():
            return None
        if low[m] in ("y", "e") and s.joined(m):
            nxt = m + 1
            if low[nxt] in ("luego", "después", "posteriormente", "más") and nxt + 1 < n:
                nxt += 1
            ok = participle(d, low[nxt]) or (low[nxt].endswith(("or", "ora")) and agrees(low[nxt]))
            return nxt if ok and toks[nxt].islower() else None
        if participle(d, low[m]) or low[m] in ("que", "quien", "donde", "cuando"):
            return None
    return None


def _agent(d: str, w: str, lex: Lexicon, morph: Morph) -> bool:
    """An agent noun with a regular other form (`lector` → `lectora`)."""
    ends = ("or", "ores", "ero", "eros") if d == "m2f" else ("ora", "oras", "era", "eras")
    return w.endswith(ends) and guess(d, w, lex, morph) is not None


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
) -> int | None:
    """``fue el guionista``, ``fue uno de los primeros``: the article (and ``uno de los``)
    agree when a person noun heads the phrase. Returns the head's position (None when the
    phrase is not a person's)."""
    low = s.low
    n = len(low)
    f2m = d == "f2m"
    k = j + 1
    plural_art = None
    of_the = k + 1 < n and low[k] == "de" and low[k + 1] in ("los", "las")
    if low[j] == "uno" and not of_the:
        return None
    if low[j] in ("uno", "una") and of_the:  # `una de las`; `una` + noun is the article
        plural_art = k + 1
        k += 2
    while k < n and low[k] in _MODS and not covered[k] and k - j <= 4:
        k += 1
    if k >= n:
        return None
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
        elif head in _LEAD[d] and not s.toks[k][:1].isupper():
            person = True  # `fue un abogado`: a person noun of the lead table
        elif head.endswith(("or", "ores", "ora", "oras", "ero", "eros", "era", "eras")):
            person = guess(d, head, lex, morph) is not None
        elif (
            k + 1 < n
            and s.joined(k)
            and s.toks[k + 1].islower()
            and (_is_common(low[k + 1]) or changed(k + 1) or _agent(d, low[k + 1], lex, morph))
            and guess(d, head, lex, morph) is not None
        ):
            # `es un ávido fan`, `es un ávido lector`: an adjective before a person noun
            person = True
            if _agent(d, low[k + 1], lex, morph) and not covered[k + 1]:
                put(k + 1, guess(d, low[k + 1], lex, morph) or low[k + 1])
        elif k > j + 1 and low[k - 1] == "más" and (k + 1 >= n or low[k + 1] in ("de", "en")):
            # `era el más pequeño de la familia`: an adjective as the noun of the phrase
            person = guess(d, head, lex, morph) is not None
    if not person:
        return None
    put(j, tgt)
    if plural_art is not None:
        put(plural_art, "los" if f2m else "las")
    if anchor:
        if not covered[k] and k not in out:
            out[k] = (1, (head,))  # a person noun: adjectives next to it agree
    elif not changed(k) and head not in ords:
        g = _LEAD[d].get(head) or guess(d, head, lex, morph)
        if g:
            put(k, g)
    return k


def next_conjunct(s: Sentence, k: int) -> int | None:
    """The article of a noun phrase coordinated with the one headed at ``k`` (`un alumno
    brillante y un lector voraz`: ``un``), within a few words and no punctuation."""
    low = s.low
    n = len(low)
    for m in range(k + 1, min(n - 1, k + 7)):
        if not s.joined(m - 1) or low[m] in ("que", "quien", "donde", "cuando"):
            return None
        if low[m] in ("y", "e") and s.joined(m):
            return m + 1 if low[m + 1] in _ARTICLES else None
    return None


_PART_NEXT = frozenset({"en", "por", "a", "con", "de", "como", "tras", "durante", "junto"})


def participle_clauses(d: str, s: Sentence, free: Check, changed: Check, put: Put) -> None:
    """A participle clause describes the subject of its sentence: `Educado en Eton, ...`
    (when the main clause after the comma does not open with a noun phrase of its own) and
    `Murió en su casa, rodeado de su familia` (when the clause before the comma has the
    person as subject)."""
    low, toks = s.low, s.toks
    n = len(low)
    cands = [i for i in range(n - 1) if low[i + 1] in _PART_NEXT and free(i) and s.joined(i)]
    if not cands:
        return
    starts = [0] + [k + 1 for k in range(n - 1) if any(ch in s.gap_after(k) for ch in ".;:!?")]
    for i in cands:
        start = max(k for k in starts if k <= i)
        g = participle(d, low[i])
        if g is None:
            continue
        if not toks[i].isalpha() or (i > start and not toks[i].islower()):
            continue
        if i == start:
            comma = next((k for k in range(i + 1, n - 1) if "," in s.gap_after(k)), None)
            if comma is None or any(ch in s.gap_after(k) for k in range(i, comma) for ch in ".;"):
                continue
            nxt = low[comma + 1]
            if nxt in _SUBJ_DETS or nxt in _ARTICLES or toks[comma + 1][:1].isupper():
                continue  # `Construido en 1900, el edificio ...`, `..., Juan fue`
            put(i, g)
        elif s.gap_after(i - 1) == ", " and first_clause_is_person(s, start, i - 1):
            # a trailing clause (to the end of the sentence), not an apposition between
            # commas (`el grupo Siniestro Total, fundado en 1981, hacía`)
            end = next((k for k in range(i, n) if any(c in s.gap_after(k) for c in ".;!?")), n)
            if not any("," in s.gap_after(k) for k in range(i, min(end, n - 1))):
                put(i, g)
