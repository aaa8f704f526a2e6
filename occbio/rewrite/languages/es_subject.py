"""Spanish: whether the subject of a copula is the person.

A predicate after a copula agrees only when the copula's subject is the person: a pronoun or a
changed word of its clause (``el abuelo fue``), a name, or no subject of its own (pro-drop).
:func:`subject_is_person` finds that subject across ``y``/``pero`` (the clause before),
infinitives (``Al ser liberado``, ``la fama de ser``) and relatives governed by a preposition
(``para los que fue nominado``); :func:`plural_subject_changed` does it for a plural copula,
:func:`first_clause_is_person` for the first clause of a sentence, and :func:`_person_copula`
adds ``como`` + a role (``sirvió como misionero``), but not a personal object's (``contrató a
Juan como``). Kept apart from ``es_predicates``, which agrees the predicate: finding the subject
of a clause is a parse of its own.

``changed(i)`` is the rewriter's live view of the sentence, as ``Spanish.propose`` keeps it:
token ``i`` is changed by the plan.
"""

from __future__ import annotations

from collections.abc import Callable

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.es_words import (
    _ARTICLES,
    _BOUNDARY_WORDS,
    _CLITICS,
    _ENCLITIC,
    _LEAD,
    _MODS,
    _NUMBERS,
    _PERSON,
    _PP_START,
    _PREPS,
    _SKIP_SUBJ,
    _SUBJ_DETS,
    _is_common,
)

#: a test of token ``i`` (``changed``, ``free``)
Check = Callable[[int], bool]


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


def _person_copula(d: str, s: Sentence, c: int, changed) -> bool:
    """The predicate after the copula (or `como`) at ``c`` is the person's."""
    if s.low[c] == "como" and _object_role(d, s, c):
        return False
    return subject_is_person(s, c, changed) or _como_role(d, s, c, changed)


def _como_role(d: str, s: Sentence, c: int, changed) -> bool:
    """`como` + a bare singular person noun (`renunció a su vida como compañero`) names a role
    of the person when the sentence already changed for the person before it."""
    low, toks = s.low, s.toks
    if low[c] != "como" or c + 1 >= len(low) or not toks[c + 1].islower():
        return False
    k = c + 1
    if low[k] in ("un", "una", "el", "la") and k + 1 < len(low):
        k += 1  # `como un hábil estratega`
        while k + 1 < len(low) and low[k] in _MODS:
            k += 1
    w = low[k]
    if w.endswith("s") or not (w in _PERSON[d] or w in _LEAD[d] or _is_common(w)):
        return False
    return any(changed(k) for k in range(c)) or first_clause_is_person(s, 0, c)


def _object_role(d: str, s: Sentence, c: int) -> bool:
    """`como` after a personal object (`contrató a Juan como entrenador`, `eligió a su hijo
    como heredero`): the role is the object's."""
    low, toks = s.low, s.toks
    for k in range(max(0, c - 6), c - 1):
        nxt = low[k + 1]
        if low[k] == "a" and (
            toks[k + 1][:1].isupper()
            or (nxt in ("su", "sus", "el", "la", "un", "una") and k + 2 < c
                and (low[k + 2] in _PERSON[d] or low[k + 2] in _LEAD[d]))
        ):  # fmt: skip
            return True
    return False
