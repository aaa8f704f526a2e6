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
    _GENDER_WORD,
    _LEAD,
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


def subject_is_person(s: Sentence, c: int, changed: Check) -> bool:
    """The subject of the copula at ``c`` is the person: a pronoun or changed word in its
    clause, a name, or no subject at all (pro-drop)."""
    low = s.low
    if (
        low[c] == "ser"
        and c > 0
        and (
            low[c - 1] in ("al", "tras", "sin")
            or (low[c - 1] == "de" and c > 1 and low[c - 2] in ("antes", "después", "momento"))
        )
    ):
        return True  # `Al ser liberado, fue a ...`: the subject of the sentence
    if low[c] in ("ser", "estar") and c > 1 and low[c - 1] in ("de", "a", "para", "por"):
        # `se ganó la reputación de ser uno de los mejores`: the infinitive's subject is
        # the sentence's (an object does not change that)
        start = next(
            (k + 1 for k in range(c - 1, -1, -1) if any(ch in s.gap_after(k) for ch in ".!?;")),
            0,
        )
        if first_clause_is_person(s, start, c - 1, objects=False):
            return True
    if changed(c) and low[c].endswith(("ado", "ada", "ido", "ida")):
        return True  # `ser convertida en prisionera`: the participle agreed with the person
    i = c - 1
    if low[c] == "como" and i > 0 and _is_finite(s, i):
        i -= 1  # `Thomson sirvió como misionero`: the subject is the verb's
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
    # `:167 Fue uno de`: a number (a page, a year) is no subject
    clause = [k for k in reversed(clause) if low[k] not in _SKIP_SUBJ and not low[k].isdigit()]
    if not clause:
        if boundary == "que":
            a = i - 1
            if a > 0 and (
                low[a] in ("del", "al")
                or (low[a] in ("el", "la", "los", "las", "lo") and low[a - 1] in _PREPS)
            ):
                # `los premios para los que fue nominado`: the relative is not the subject
                # (a preposition governs it); the subject is left out: the person
                return _clause_before_is_person(s, a, changed) or _no_subject_before(s, a)
            if a >= 0 and s.gap_after(a) in (", ", " "):
                return low[a] in ("él", "ella") or changed(a) or (s.toks[a][:1].isupper() and a > 0)
            return False
        return boundary != "conj" or _clause_before_is_person(s, i, changed)
    if len(clause) == 1 and low[clause[0]] in ("él", "ella"):
        return True
    if (
        low[clause[0]] in _PP_START
        and 1 < len(clause) <= 5
        and low[clause[0] + 1] in ("la", "el", "los", "las")
        and all(s.toks[k][:1].isupper() for k in clause[1:])
    ):
        return True  # `En la Segunda Guerra Mundial fue`: a named time or place, no subject
    if low[clause[0]] in _PP_START and len(clause) <= 4:
        # `En 2007 fue`, `Durante su juventud fue`, `Con los años se volvió`: an adverbial
        # (its own article right after the preposition), no subject
        return not any(
            (low[k] in _ARTICLES and k != clause[0] + 1)
            or (s.toks[k][:1].isupper() and k != clause[0])
            for k in clause
        )
    # `el abuelo fue`, `su hijo mayor era`: a changed noun heads the clause
    head = clause[1:] if low[clause[0]] in _SUBJ_DETS else clause
    while head and low[head[0]] in _MODS | {"otro", "otros", "otra", "otras"}:
        head = head[1:]  # `dos chicos fueron`, `los otros dos hijos`, `el joven rey fue`
    if head and changed(head[0]) and len(head) <= 3:
        if (
            len(head) > 2
            and low[head[1]] == "de"
            and all(s.toks[k][:1].isupper() for k in head[2:])
        ):
            return True  # `la madre de Moots era`: the changed noun, with its name
        return not any(low[k] in _PREPS for k in head)
    # a name (capitalised words, no article before them)
    first = clause[0]
    if all(s.toks[k][:1].isupper() for k in clause) and len(clause) <= 3:
        return first == 0 or low[first - 1] not in _ARTICLES
    return False


def plural_subject_changed(s: Sentence, c: int, changed: Check) -> bool:
    """The subject of the plural copula at ``c`` is a changed plural noun of its clause
    (`los dos hijos fueron`, `las hermanas eran`); a plural without a subject is others."""
    low = s.low
    clause: list[int] = []
    i = c - 1
    while i >= 0:
        if any(ch in s.gap_after(i) for ch in ',;:«»"“”.!?—()'):
            break
        if low[i] in _BOUNDARY_WORDS or low[i] in ("que", "quien", "cual"):
            break
        clause.append(i)
        i -= 1
    head = [k for k in reversed(clause) if low[k] not in _SKIP_SUBJ]
    if head and low[head[0]] in _SUBJ_DETS:
        head = head[1:]
    while head and (low[head[0]] in _NUMBERS | _MODS or low[head[0]] in ("otros", "otras")):
        head = head[1:]
    if not head or len(head) > 3 or not changed(head[0]) or not low[head[0]].endswith("s"):
        return False
    return not any(low[k] in _PREPS for k in head)


def _no_subject_before(s: Sentence, a: int) -> bool:
    """Nothing names another subject in the sentence before ``a``: no article or name
    before the first verb (`Ganó dos de los premios para los que fue nominado`)."""
    start = 0
    for k in range(a - 1, -1, -1):
        if any(ch in s.gap_after(k) for ch in ".!?;"):
            start = k + 1
            break
    return first_clause_is_person(s, start, a)


def _clause_before_is_person(s: Sentence, i: int, changed: Check) -> bool:
    """After ``y``/``pero`` with no subject: the subject is carried over; the person when
    the sentence so far names the person (a pronoun or a changed word), or when the first
    clause of the sentence has the person as its subject (:func:`first_clause_is_person`)."""
    low = s.low
    start = 0
    for k in range(i - 1, -1, -1):
        if any(ch in s.gap_after(k) for ch in ".!?;"):
            start = k + 1
            break
        if low[k] in ("él", "ella") or changed(k):
            return True
    return first_clause_is_person(s, start, i)


#: finite verbs of a biography that do not end in -ó/-aba
_FINITE_IRREG = frozenset(
    {"fue", "era", "es", "tuvo", "hizo", "dijo", "pudo", "puso", "quiso", "estuvo", "vino",
     "supo", "anduvo", "condujo", "produjo", "tradujo", "obtuvo", "mantuvo", "sostuvo"}
)  # fmt: skip


def _is_finite(s: Sentence, k: int, first: bool = False) -> bool:
    """Token ``k`` is a finite verb of a biography (preterite, imperfect, a few irregulars);
    capitalised only as the ``first`` word of a sentence."""
    w = s.low[k]
    return (first or s.toks[k].islower()) and (
        w in _FINITE_IRREG or (w.endswith(("ó", "aba")) and len(w) > 3)
    )


_COPULA_VERBS = frozenset({"fue", "era", "es", "estuvo", "estaba", "resultó", "quedó"})


def first_clause_is_person(s: Sentence, start: int, end: int, objects: bool = True) -> bool:
    """The clause from ``start`` (a sentence start) to ``end`` (its `y`/`pero`) has the
    person as its subject: no subject before its first verb (`En 2017 entrenó con el
    equipo`), a name (`Tras la licenciatura, Terwilliger se trasladó`) or `él`/`ella`; and
    no object noun phrase after the verb that a later predicate could describe instead
    (`escribió un libro y fue adaptado`)."""
    low, toks = s.low, s.toks
    v = next((k for k in range(start, end) if _is_finite(s, k, k == start)), None)
    if v is None:
        return False
    # an object (`escribió un libro`) has its own participles; `era un colaborador` is a
    # predicate, no object
    if objects and low[v] not in _COPULA_VERBS:
        for k in range(v + 1, min(end, v + 3)):
            if low[k] in _SUBJ_DETS and low[k - 1] not in _PREPS:
                return False
    zone = list(range(start, v))
    commas = [k for k in zone if "," in s.gap_after(k)]
    if commas:
        zone = [k for k in zone if k > commas[-1]]
    zone = [k for k in zone if low[k] not in _SKIP_SUBJ]
    if not zone:
        return True
    if len(zone) == 1 and low[zone[0]] in ("él", "ella"):
        return True
    if all(toks[k][:1].isupper() for k in zone) and len(zone) <= 3:
        return low[zone[0]] not in _ARTICLES
    if low[zone[0]] in _PP_START and len(zone) <= 5:
        return not any(
            (low[k] in _ARTICLES and k > zone[1]) or (toks[k][:1].isupper() and k != zone[0])
            for k in zone
        )
    return False


#: words between a changed noun and its adjective (`una mujer muy culta`)
_POST_BRIDGE = frozenset({"más", "muy", "tan", "menos", "bastante", "no", "poco", "sumamente"})
#: source endings of an adjective after a noun, per direction and number
_POST_SG = {"m2f": ("o", "és", "ol"), "f2m": ("a", "esa", "ola")}
_POST_PL = {"m2f": ("os", "eses", "oles"), "f2m": ("as", "esas", "olas")}
_PART_F = ("ada", "ida", "adas", "idas")


def _post_form(d: str, w: str, lex: Lexicon, morph: Morph) -> str | None:
    """The other-gender form of an adjective that follows a changed noun (the noun decides,
    whatever the data says about the word elsewhere)."""
    if w in _NO_GUESS or w in _NOT_PARTICIPLE or not w.isalpha():
        return None
    z_src = lex.zipf.get(w, 0.0)
    best = None
    for cand in morph(d, w) + demonyms(d, w):
        z = lex.zipf.get(cand, 0.0)
        if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
            best = (z, cand)
    if best:
        return best[1]
    cands = morph(d, w)
    if not cands:
        return None
    if d == "m2f" and z_src < 3.0 and w.endswith(("o", "os")):
        return cands[-1]  # a rare adjective: its feminine is regular (`monomaníaca`)
    if d == "f2m" and w.endswith(_PART_F) and z_src < 3.0:
        return cands[-1]
    return None


def adjectives_after_noun(
    d: str,
    s: Sentence,
    plan: Plan,
    free: Check,
    changed: Check,
    put: Put,
    lex: Lexicon,
    morph: Morph,
    skip: frozenset[str],
) -> None:
    """An adjective right after a changed person noun agrees with it, across `más`/`muy`/`no`
    and invariable adjectives (`una mujer joven vestida`), in number too (`hermanos pequeños`
    → `hermanas pequeñas`); a second adjective after `y` agrees with the first."""
    low, toks = s.low, s.toks
    n = len(low)
    for st in sorted(plan):
        ln, tgt = plan[st]
        i = st + ln - 1
        if ln != 1 or len(tgt) != 1 or not changed(i) or low[i] in skip:
            continue
        if not toks[i].isalpha() or not tgt[0].isalpha():
            continue
        plural = low[i].endswith("s") and tgt[0].endswith("s")
        ends = _POST_PL[d] if plural else _POST_SG[d]
        k = i + 1
        while k < n and s.joined(k - 1) and k - i <= 3:
            w = low[k]
            if w in _POST_BRIDGE or w in _MODS or (_invariable_adj(w) and not _is_common(w)):
                k += 1
                continue
            break
        while k < n and s.joined(k - 1):
            w = low[k]
            if not free(k):
                # agreed already (`tímida y reservada`): go on after its `y`
                if not changed(k) or not (k + 2 < n and low[k + 1] in ("y", "e")):
                    break
                if not (s.joined(k) and s.joined(k + 1)):
                    break
                k += 2
                continue
            if not toks[k].islower() or not w.endswith(ends) or _GENDER_WORD.match(w):
                break  # `paterno` ↔ `materno`: a word of gender, agreed on its own
            if d == "f2m" and not w.endswith(("as", *_PART_F)) and lex.zipf.get(w + "n", 0) >= 2.0:
                break  # `la reina gobierna`: a verb
            g = _post_form(d, w, lex, morph)
            if g is None:
                break
            put(k, g)
            # `culta y sencilla`: a second adjective after `y`
            if k + 2 < n and s.joined(k) and low[k + 1] in ("y", "e") and s.joined(k + 1):
                k += 2
                continue
            break


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
