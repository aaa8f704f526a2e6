"""Russian: who is the subject of a past-tense verb or short form (pymorphy3).

A past-tense verb or short form agrees with the nearest subject before it in its clause, and,
in a clause without one (``и учился``, ``, но бросил``, ``, где начал``), with the subject of
the clause before it; subordinate clauses that sit between (``Дом, который он построил, был
продан``) are skipped. A noun in the nominative after a preposition or a transitive verb is not
a subject (``бросил колледж``), nor is a plural noun or an inanimate noun of the other gender; a
subject may follow its verb (``был убит 12-летний мальчик``, ``в Византии менялась власть``).
A name counts as the person when it opens the sentence and the person changed elsewhere in it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.ru_morph import (
    changed,
    inflect,
    is_agreeing,
    is_name,
    m,
    nominal,
    parses,
)

_HARD = re.compile(r"[.!?;:]")
_SOFT = re.compile(r"[,()\[\]]|\s[—–-]\s|^[—–]|[—–]$")
#: words that open a subordinate clause
_SUBORDINATORS = frozenset(
    "который которая которое которые которого которой которую котором которым которыми "
    "которых которому кто где когда куда откуда что чтобы если хотя поскольку пока чем "
    "словно будто как".split()
)
WHO = frozenset("который которая которого которой которую котором которым которому".split())
_FIRST_SECOND = frozenset("я ты мы вы".split())
_PERSON_PRONOUNS = frozenset(
    "он она его ее её ему ей него нее неё ней нему ним им ею нею нём нем".split()
)


def clauses(s: Sentence) -> Clauses:
    """The sentence's :class:`Clauses`, computed once."""
    cl = s.notes.get("ru_clauses")
    if cl is None:
        cl = s.notes["ru_clauses"] = Clauses(s)
    return cl


class Clauses:
    """The sentence cut at punctuation: clause and sentence of each token, quotes."""

    def __init__(self, s: Sentence):
        n = len(s.low)
        self.clause = [0] * n
        self.sent = [0] * n
        self.quoted = [False] * n
        c = k = 0
        for i in range(n):
            self.clause[i], self.sent[i] = c, k
            if i + 1 < n:
                gap = s.gap_after(i)
                if _HARD.search(gap):
                    c, k = c + 1, k + 1
                elif _SOFT.search(gap):
                    c += 1
        depth = 0
        for i, (a, _b) in enumerate(s.spans):
            prev = s.text[s.spans[i - 1][1] : a] if i else s.text[:a]
            depth += prev.count("«") + prev.count("“") - prev.count("»") - prev.count("”")
            self.quoted[i] = depth > 0
        self.starts: dict[int, int] = {}
        for i in range(n - 1, -1, -1):
            self.starts[self.clause[i]] = i

    def subordinate(self, s: Sentence, c: int) -> bool:
        st = self.starts[c]
        w = s.low[st]
        if w in _SUBORDINATORS:
            return True
        return (
            st + 1 < len(s.low)
            and w in ("в", "на", "с", "у", "о", "из", "при", "за", "по")
            and (s.low[st + 1] in WHO or s.low[st + 1] in ("чем", "кем", "ком"))
        )


def _governor(s: Sentence, j: int):
    """The tag of the word that governs the phrase of token ``j`` (adjectives, participles,
    numbers and the first parts of hyphenated words skipped), or None."""
    k = j - 1
    while k >= 0 and not s.gap_after(k).strip(" -"):
        if s.gap_after(k) == "-":
            k -= 1  # the first part of a hyphenated word (``Ноттинг-Хилле``)
            continue
        ps = parses(s.low[k])
        if not ps:
            return None
        t = ps[0].tag
        if t.POS in ("ADJF", "PRTF", "NUMR") or s.low[k].isdigit():
            k -= 1
            continue
        return t
    return None


def _after_prep_or_verb(s: Sentence, j: int) -> bool:
    """Token ``j`` (a noun) is governed: a preposition or a transitive verb before its phrase."""
    t = _governor(s, j)
    return t is not None and (
        t.POS == "PREP" or (t.POS in ("VERB", "INFN", "GRND") and "tran" in t)
    )


def _after_prep(s: Sentence, j: int) -> bool:
    """A preposition before the phrase of token ``j`` (adjectives, numbers between)."""
    t = _governor(s, j)
    return t is not None and t.POS == "PREP"


def _after_noun(s: Sentence, j: int) -> bool:
    """A name right after a noun is its attribute (``Песня Ньютон``, ``при дворе Чаулукья``)."""
    if j == 0 or s.gap_after(j - 1).strip(" -"):
        return False
    ps = parses(s.low[j - 1])
    return bool(ps) and ps[0].tag.POS == "NOUN" and not is_name(s, j - 1)


def _pos(word: str) -> str | None:
    ps = parses(word)
    return ps[0].tag.POS if ps else None


def _governed_title(s: Sentence, q0: int, cl: Clauses) -> bool:
    """The quoted title opening at ``q0`` follows a noun, a preposition or a verb of its clause
    (``в фильме «...»``), so it is not a subject."""
    j = q0 - 1
    if j < 0 or cl.clause[j] != cl.clause[q0]:
        return False
    ps = parses(s.low[j])
    return bool(ps) and ps[0].tag.POS in ("NOUN", "PREP", "VERB", "INFN", "ADJF", "PRTF", "GRND")


def _blocks(s: Sentence, j: int, g: str) -> bool | str | None:
    """Is token ``j`` another possible subject of a verb of gender ``g``? False/None: no;
    True: yes; ``"name"``: a name."""
    w = s.low[j]
    if w in _FIRST_SECOND or w in ("это", "оно", "они"):
        return True
    if w in WHO:
        return w == "который" or w == "которая"
    if not re.search("[а-яё]", w):
        return None  # Latin script, numbers
    if is_name(s, j):
        if _after_prep_or_verb(s, j) or _after_noun(s, j):
            return None
        ps = parses(w)
        if ps and not any("nomn" in p.tag for p in ps) and m().word_is_known(w):
            return None
        return "name"
    noms = nominal(w)
    if not noms:
        # a substantivised adjective (``последний был достигнут``)
        ps = [
            p
            for p in parses(w)[:3]
            if p.tag.POS == "ADJF" and {"nomn", "sing", g} <= p.tag.grammemes
        ]
        if not ps:
            return None
        nxt = parses(s.low[j + 1]) if j + 1 < len(s.low) else ()
        if not s.gap_after(j).strip() and nxt and nxt[0].tag.POS in ("NOUN", "ADJF", "NPRO"):
            return None
        if "Apro" not in ps[0].tag or "Subx" in ps[0].tag:
            return True
        return w in ("один", "одна") and j + 1 < len(s.low) and s.low[j + 1] == "из"
    if _after_prep_or_verb(s, j):
        return None
    if all("plur" in p.tag for p in noms):
        return None
    if all("inan" in p.tag and g not in p.tag for p in noms):
        return None
    return True


def _person_subject(s: Sentence, j: int, g: str) -> bool:
    """Changed token ``j`` can be the subject: a singular nominative of gender ``g``."""
    if _after_prep_or_verb(s, j):
        return False
    return any(
        "sing" in p.tag and (g in p.tag or "ms-f" in p.tag or p.tag.POS == "NPRO")
        for p in nominal(s.low[j])
    )


def controller(
    s: Sentence, k: int, plan: Plan, g: str, cl: Clauses, decided: dict
) -> bool | str | None:
    """Is the subject of the agreeing word ``k`` the person? True (a changed subject or verb
    before it), False (another subject), ``"name"``, or None (not found)."""
    own = cl.clause[k]
    c = own
    j = k - 1
    while j >= 0 and cl.sent[j] == cl.sent[k]:
        if cl.clause[j] != c:
            c = cl.clause[j]
            if cl.subordinate(s, c):
                j = cl.starts[c] - 1
                continue
        if j in decided:
            return decided[j]
        if cl.quoted[j] and not cl.quoted[k]:
            q0 = j
            while q0 > 0 and cl.quoted[q0 - 1]:
                q0 -= 1
            if c == own and not _governed_title(s, q0, cl):
                return False  # a title is the subject (``«Мальчик и море» вышел``)
            j = q0 - 1
            continue
        w = s.low[j]
        if changed(plan, s, j):
            if _person_subject(s, j, g):
                return True
            if is_agreeing(w, g) or w in WHO:
                return True
        elif j not in plan:
            b = _blocks(s, j, g)
            if b == "name" and j > 0 and changed(plan, s, j - 1) and not s.gap_after(j - 1).strip():
                return True  # ``Господин Дункан``
            if b == "name":
                # the person when the name opens the sentence (``Смит отправился``)
                first = j == 0 or _HARD.search(s.gap_after(j - 1)) is not None
                if cl.subordinate(s, cl.clause[j]):
                    return False
                return "name" if first else None
            if b:
                return False
        if c == own and j == cl.starts[own] and cl.subordinate(s, own) and w in WHO:
            return None  # a relative clause without its subject
        j -= 1
    return None


def subject_after(s: Sentence, k: int, plan: Plan, g: str, cl: Clauses) -> bool | None:
    """A subject after the verb ``k`` in its clause (``был убит 12-летний мальчик``, ``в
    Византии менялась власть``): True when it is a changed word, False for another."""
    vt = parses(s.low[k])[0].tag if parses(s.low[k]) else None
    intr = vt is not None and ("intr" in vt or vt.POS in ("ADJS", "PRTS"))
    j = k + 1
    while j < len(s.low) and cl.clause[j] == cl.clause[k]:
        w = s.low[j]
        if cl.quoted[j] and not cl.quoted[k]:
            j += 1
            continue
        if changed(plan, s, j) and _person_subject(s, j, g):
            return True
        noms = [p for p in nominal(w) if "sing" in p.tag and (g in p.tag or "ms-f" in p.tag)]
        other = noms and j not in plan and re.search("[а-яё]", w) and not _after_prep(s, j)
        if other and (intr or not any("accs" in p.tag for p in parses(w))):
            return False
        j += 1
    return None


def person_changes(s: Sentence, plan: Plan) -> bool:
    return any(changed(plan, s, j) and s.low[j] in _PERSON_PRONOUNS for j in plan)


def verbs(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    """Past-tense verbs and short forms whose subject is the person."""
    src, tgt = ("femn", "masc") if d == "f2m" else ("masc", "femn")
    cl = clauses(s)
    out: Plan = {}
    decided: dict[int, bool | str | None] = {}
    by_name = person_changes(s, plan)
    for k, w in enumerate(s.low):
        if covered[k] or cl.quoted[k] or not is_agreeing(w, src) or s.toks[k][:1].isupper():
            continue
        if k > 0 and not s.gap_after(k - 1).strip() and _pos(s.low[k - 1]) == "PREP":
            continue  # a pronoun, not a short form (``в нем``)
        v = subject_after(s, k, plan, src, cl)
        if v is None:
            v = controller(s, k, plan, src, cl, decided)
        decided[k] = v
        if v is True or (v == "name" and by_name):
            new = inflect(w, {tgt}, ("VERB", "ADJS", "PRTS"))
            if new is not None:
                out[k] = (1, (new,))
    return out
