"""German clause helpers for the rewriter: where a clause begins and ends, plural verbs, who
the subject is (``sie`` as plural "they", a plural noun phrase before a possessive) and whether a
feminine noun phrase is an accusative object (``sie besuchte ihre Mutter`` → ``er besuchte seinen
Vater``). Pure functions over a :class:`Sentence`; the rules are in ``de.py``, ``de_pronouns.py``
and ``de_nouns.py``."""

from __future__ import annotations

import re

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.de_words import (
    _ADJ_ENDINGS,
    _ARTS_ALL,
    _CLAUSE_OPENERS,
    _NOT_VERB_EN,
    _NOT_VERB_ERN,
    _NUMBERS,
    _PLURAL_VERBS,
    _PREPS,
    _SUBORD,
    _SUBORD_REL,
    _article,
)


def _clause_start(s: Sentence, i: int) -> bool:
    if i == 0:
        return True
    gap = s.gap_after(i - 1)
    return any(c in _CLAUSE_OPENERS for c in gap)


#: nouns after an ordinal number (``im 19. Jahrhundert``, ``am 3. Mai``)
_AFTER_ORDINAL = frozenset(
    """jahrhundert jahrhunderts jahrhunderten januar februar märz april mai juni juli august
    september oktober november dezember platz platzes mal lebensjahr geburtstag todestag
    jahrestag dynastie legislaturperiode wahlperiode""".split()
)


def _in_clause(s: Sentence, j: int) -> bool:
    """Tokens ``j`` and ``j + 1`` are in one clause: only spaces between them, marks inside
    a word (``L.A.-Wettbewerb``, ``E50-51``) or the point of an ordinal (``im 19.
    Jahrhundert``)."""
    gap = s.gap_after(j)
    if gap == ". " and s.low[j].isdigit() and j + 1 < len(s.low):
        return s.low[j + 1] in _AFTER_ORDINAL or s.low[j + 1].isdigit()
    return not gap.strip() or (" " not in gap and all(c in ".-'’/&" for c in gap))


def _clause_end(s: Sentence, i: int) -> int:
    """The last token of the clause token ``i`` is in (up to a comma or other punctuation)."""
    j = i
    while j + 1 < len(s.toks) and _in_clause(s, j):
        j += 1
    return j


def _clause_first(s: Sentence, i: int) -> int:
    j = i
    while j > 0 and _in_clause(s, j - 1):
        j -= 1
    while j < i and s.low[j] in ("und", "aber", "doch", "oder", "denn"):
        j += 1
    return j


def _formal(s: Sentence, i: int) -> bool:
    """A capitalised pronoun inside a sentence: formal address (``Sie``, ``Ihr``, ``Ihre``)."""
    tok = s.toks[i]
    return tok[:1].isupper() and not _clause_start(s, i)


def _all_caps(tok: str) -> bool:
    return len(tok) > 1 and tok.isupper()


def _prev(s: Sentence, i: int) -> str | None:
    return s.low[i - 1] if i > 0 and s.joined(i - 1) else None


def _next(s: Sentence, i: int, k: int = 1) -> tuple[str, str] | None:
    """The ``k``-th token after ``i`` (tok, low) when the phrase runs on up to it."""
    for j in range(i, i + k):
        if not s.joined(j):
            return None
    return s.toks[i + k], s.low[i + k]


def _plural_verb(word: str | None, tok: str | None = None) -> bool:
    if word is None or (tok is not None and tok[:1].isupper()):
        return False
    if word in _PLURAL_VERBS:
        return True
    if len(word) > 5 and word.endswith(("eln", "ern")):  # ``schütteln``, ``wandern``
        return word not in _NOT_VERB_ERN
    return len(word) > 4 and word.endswith("en") and word not in _NOT_VERB_EN


def _noun(tok: str) -> bool:
    return tok[:1].isupper() and not _all_caps(tok)


def _head_noun(s: Sentence, i: int) -> int | None:
    """The noun the article-like word or adjective ``i`` belongs to (over adjectives)."""
    j = i + 1
    while j < len(s.low) and s.joined(j - 1):
        tok = s.toks[j]
        if _noun(tok):
            return j
        w = s.low[j]
        if w in _ARTS_ALL or _article(w) is not None or len(w) < 4:
            return None
        if not w.endswith(_ADJ_ENDINGS) and not w.endswith(("d", "lich", "ig")):
            return None
        j += 1
    return None


def _object_after_subject(s: Sentence, j: int) -> bool:
    """``sie`` at ``j`` follows a plural verb whose subject is already there: the clause opens
    with a noun phrase (or two joined by ``und``) and then the verb (``Ihre Eltern schickten
    sie``, ``Die Nazis verhafteten sie``), or the verb follows ``und`` and shares the subject
    before it (``... und hielten sie an``). ``sie`` is the object, not "they"."""
    if j < 2 or not s.joined(j - 1) or not _plural_verb(s.low[j - 1], s.toks[j - 1]):
        return False
    if s.joined(j - 2) and s.low[j - 2] in ("und", "oder", "sowie"):
        return True
    c = _clause_first(s, j)
    w = s.low[c]
    if not (w in _ARTS_ALL or w in _PL_DETS or _article(w) is not None):
        return False
    seen_noun = False
    for k in range(c, j - 1):
        t, lw = s.toks[k], s.low[k]
        if _noun(t):
            seen_noun = True
        elif not (
            lw in _ARTS_ALL
            or lw in _PL_DETS
            or _article(lw) is not None
            or lw in ("und", "oder", "sowie")
            or lw.endswith(_ADJ_ENDINGS)
        ):
            return False
    return seen_noun and _noun(s.toks[j - 2])


def _sie_plural(s: Sentence, j: int) -> bool:
    """``sie`` at ``j`` is plural "they": a plural verb right before or after it, or a
    subordinate or relative clause it opens ends in one (``als sie heirateten``)."""
    prev = _prev(s, j)
    n1 = _next(s, j)
    if n1 is not None and n1[1] in ("und", "sowie"):
        return False  # ``sie und ihr Mann``: one of a plural subject
    if n1 is not None and _plural_verb(n1[1], n1[0]):
        return True
    if prev is not None and _plural_verb(prev, s.toks[j - 1]):
        return not _object_after_subject(s, j)
    b = _clause_end(s, j)
    return prev in _SUBORD_REL and b != j and _plural_verb(s.low[b], s.toks[b])


#: words that open a noun phrase that can only be plural before a plural verb
_PL_DETS = (
    frozenset("die diese alle beide viele einige mehrere manche beiden vielen einigen".split())
    | _NUMBERS
)


def _plural_np(s: Sentence, a: int, stop: int) -> int | None:
    """The noun of a plural-looking noun phrase starting at ``a`` (``die vier Schwestern``),
    ending before ``stop``; None if there is none."""
    if s.low[a] not in _PL_DETS and not s.low[a].isdigit():
        return None
    j = a + 1
    while j < stop and s.joined(j - 1):
        if _noun(s.toks[j]):
            return j
        if not (s.low[j] in _NUMBERS or s.low[j].isdigit() or s.low[j].endswith(_ADJ_ENDINGS)):
            return None
        j += 1
    return None


def _plural_subject_before(s: Sentence, a: int, i: int) -> bool:
    """The clause (from ``a``) has a plural subject before token ``i``: a plural-looking noun
    phrase and a plural verb in second place (``die vier Schwestern kehren``) or a plural verb
    and the noun phrase after it (``dann kehrten die Schwestern``)."""
    n = _plural_np(s, a, i)
    if n is not None and n + 1 < i and s.joined(n) and _plural_verb(s.low[n + 1], s.toks[n + 1]):
        return True
    plural_only = any(w in _PL_DETS and w not in ("die", "diese") for w in s.low[a : i - 1])
    if n is not None and n + 2 == i and s.low[n + 1] in ("und", "sowie") and plural_only:
        return True  # ``die beiden Schwestern und ihre Mutter``
    for v in range(a, i - 1):
        if s.joined(v) and _plural_verb(s.low[v], s.toks[v]) and _plural_np(s, v + 1, i):
            return True  # (``nach dem Krieg verkauften die Brüder ihre Firma``)
    return False


def _plural_clause(s: Sentence, i: int) -> bool:
    """The clause of token ``i`` (a possessive or ``ihr``) is about a plural subject: a
    plural ``sie``, a plural noun phrase with its plural verb before ``i``, or a plural verb
    (``sind``, ``haben``; the last verb of a subordinate clause) that ``i``'s own noun phrase
    does not explain (``Ihre Eltern waren``, ``als ihre Eltern starben`` are "her")."""
    a, b = _clause_first(s, i), _clause_end(s, i)
    words = s.low[a : b + 1]
    if "er" in words:
        return False
    sies = [
        j
        for j in range(a, b + 1)
        if s.low[j] == "sie" and not _all_caps(s.toks[j]) and not _formal(s, j)
    ]
    if any(_sie_plural(s, j) for j in sies):
        return True
    for j in sies:
        # ``Sie und ihr Mann hatten ... ihre Kinder``: after the plural verb of a coordinated
        # subject, "their"
        coordinated = j + 1 < i and s.low[j + 1] in ("und", "sowie")
        if coordinated and any(_plural_verb(s.low[v], s.toks[v]) for v in range(j + 2, i)):
            return True
    if sies:
        return False
    # a subordinate or relative clause (its finite verb comes last); ``der``/``die`` opening
    # a sentence or before a noun is an article (``Der Preis wurde ihr verliehen``)
    subord = s.low[a] in _SUBORD or (
        s.low[a] in _SUBORD_REL
        and a > 0
        and "," in s.gap_after(a - 1)
        and not (a + 1 < len(s.toks) and _noun(s.toks[a + 1]))
    )
    # ``i`` opens the clause's subject: its plural verb is its own (after a conjunction; after
    # a relative pronoun the pronoun may be the subject: ``Bauern, die ihre Kinder schickten``)
    own_subject = i == a or (s.low[a] in _SUBORD and i == a + 1)
    for k in range(a, b + 1):
        infinitive = k > 0 and s.low[k - 1] == "zu"  # ``gestohlen zu haben``
        if s.low[k] in _PLURAL_VERBS and not own_subject and k != i - 1 and not infinitive:
            return True
    if subord and not own_subject and _plural_verb(s.low[b], s.toks[b]):
        return True
    return _plural_subject_before(s, a, i)


_ZU_INFINITIVE = re.compile(
    r"(?:an|auf|aus|bei|dar|ein|fest|fort|her|hin|los|mit|nach|vor|weg|zurück|zusammen|heraus"
    r"|hervor|wieder|über|unter|um|durch|ab|zu)zu[a-zäöüß]{3,}en"
)


def _infinitive_end(s: Sentence, b: int) -> bool:
    """The clause ending at ``b`` ends in an infinitive with ``zu`` (``zu retten``,
    ``darzustellen``)."""
    return (b > 0 and s.low[b - 1] == "zu") or bool(_ZU_INFINITIVE.fullmatch(s.low[b]))


_COPULAS = frozenset(
    """ist war sind waren wurde wurden wird werden worden geworden gewesen bleibt blieb
    blieben gilt galt heißt hieß sein bin bist seid sei wäre wären würde würden werde wirst
    bleiben geblieben""".split()
)
_ALL_PREPS = _PREPS | {"zum", "zur", "vom", "im", "am", "beim", "ins", "ans"}
_SUBJECTS = frozenset("sie er ich wir man du".split())


def _object_np(s: Sentence, k: int) -> bool:
    """The feminine noun phrase opened by ``k`` (``die``, ``eine``, ``ihre``) is an accusative
    object: its clause already has a subject before it (a pronoun, or a noun phrase that opens
    the clause and is followed by its verb), no copula or passive ``wurde`` is in the clause (a
    predicate is nominative) and it is not coordinated (``sie und ihre Mutter``)."""
    prev = _prev(s, k)
    if prev is None or prev in ("und", "oder", "sowie", "als", "wie", "noch", "weder", "sowohl"):
        return False
    a, b = _clause_first(s, k), _clause_end(s, k)
    if any(w in _COPULAS for w in s.low[a : b + 1]):
        return False
    if s.low[a] in ("um", "ohne", "statt", "anstatt") and b > k and _infinitive_end(s, b):
        return True  # an infinitive clause has no subject: ``um die Königin zu retten``
    if s.low[a] in _SUBORD_REL and b > k + 1 and _plural_verb(s.low[b], s.toks[b]):
        return True  # ``, die eine Frau erforderten``: the plural verb has another subject
    if prev is not None and _noun(s.toks[k - 1]):
        # a bare noun phrase right after another one is its object (``warnte die
        # Großmutter das Mädchen``); not after a preposition (``in der Stadt traf die ...``)
        j = k - 2
        while j >= a and s.joined(j) and not s.toks[j][:1].isupper() and j > a - 1:
            if s.low[j] in _ARTS_ALL or _article(s.low[j]) is not None:
                break
            j -= 1
        if j >= a and (s.low[j] in _ARTS_ALL or _article(s.low[j]) is not None):
            before = s.low[j - 1] if j > a else None
            if before is not None and before not in _ALL_PREPS and not s.toks[j - 1][:1].isupper():
                return True
    for j in range(a, k):
        if s.low[j] in _SUBJECTS and not _all_caps(s.toks[j]) and not _formal(s, j):
            return True
    if s.low[a] in _ARTS_ALL or _article(s.low[a]) is not None:
        h = _head_noun(s, a)
        if h is not None and h + 1 < k and not s.toks[h + 1][:1].isupper():
            return s.low[h + 1] not in ("und", "oder", "sowie")
    return False


#: finite auxiliaries and modals, plural and singular (closed lists: a participle or an
#: infinitive in ``-en`` is no finite verb, ``werden``/``haben`` after a singular modal neither)
_AUX_PL = frozenset(
    """sind waren haben hatten werden wurden können konnten müssen mussten sollen sollten
    wollen wollten dürfen durften seien wären hätten würden könnten müssten dürften""".split()
)
_AUX_SG = frozenset(
    """ist war hat hatte wird wurde kann konnte muss musste soll sollte will wollte darf
    durfte sei wäre hätte würde könnte müsste dürfte mag möchte""".split()
)
_HARD_BREAK = ",;:.!?()[]–—"


def _aux_number(s: Sentence, i: int) -> str | None:
    """The number of the finite auxiliaries after ``sie`` at ``i`` in its subordinate clause,
    read across quotation marks (``dass sie „früher ... stehen werden“``) up to punctuation or
    ``und``/``oder``: ``"pl"`` when there are only plural ones, ``"sg"`` when a singular one."""
    found = None
    j = i
    while j + 1 < len(s.toks) and not any(c in _HARD_BREAK for c in s.gap_after(j)):
        j += 1
        w = s.low[j]
        if w in ("und", "oder", "sowie", "aber"):
            break
        if s.toks[j][:1].isupper():
            continue
        if s.low[j - 1] == "zu":
            continue  # an infinitive: ``um Ärztin zu werden``
        if w in _AUX_SG:
            return "sg"
        if w in _AUX_PL:
            found = "pl"
    return found


#: feminine collective nouns: a possessive in a clause they open as its subject is theirs
#: (``Die Band veröffentlichte ihr erstes Album``)
#: (not ``Jury``, ``Zeitung``: they act on the person, ``Die Jury lobte ihre Stimme``)
_COLLECTIVES = (
    "band", "gruppe", "firma", "partei", "organisation", "mannschaft", "universität",
    "schule", "gesellschaft", "armee", "bewegung", "stiftung",
)  # fmt: skip


def _collective_owner(s: Sentence, i: int) -> bool:
    """The clause of the possessive ``i`` opens with a feminine collective noun phrase and its
    verb (``Die Band veröffentlichte ihr erstes Album``), with no ``sie`` in it."""
    a, b = _clause_first(s, i), _clause_end(s, i)
    if s.low[a] not in ("die", "diese") or "sie" in s.low[a : b + 1]:
        return False
    h = _head_noun(s, a)
    return (
        h is not None
        and h + 1 < i
        and s.low[h].endswith(_COLLECTIVES)
        and not s.toks[h + 1][:1].isupper()
    )
