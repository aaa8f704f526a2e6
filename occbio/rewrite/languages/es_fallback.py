"""Spanish: the last resort, when nothing about the person changed.

A biography sentence whose counterfactual differs changes somewhere. When the other rules
found nothing to change (no pronoun, article, participle, kin noun or learned word did), the
few words that can still be the person's are taken as such, in both directions unless noted:

* a masculine office or trade noun in a role position (``El presidente del club``, ``fue
  elegido presidente``, ``como astrónomo``): into the feminine only, since in general it names
  another person or the generic class as often as the subject (``es_words``), and never a
  noun of a relation to someone (``su sucesor``) (:func:`office_nouns`);
* a singular participle right after a copula whose clause has no subject of its own (``,
  pero es más conocido por``), unless the clause before ``y`` names a thing the participle
  could agree with (``Fundó un periódico y fue dirigido``) (:func:`bare_predicates`);
* ``como`` + a bare singular role, with its ordinal (``como segundo clasificado``)
  (:func:`como_roles`).

The engine's agreement (articles, adjectives) follows the change.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Sentence
from occbio.rewrite.languages.es_predicates import Morph, Put, guess, participle
from occbio.rewrite.languages.es_subject import Check
from occbio.rewrite.languages.es_words import (
    _ORD_F2M,
    _ORD_M2F,
    _PERSON,
    _PERSON_PAIRS,
    _PERSON_SHARE,
    _es_plural,
)

#: nouns of a relation to someone: they name the other one (`su sucesor`, `un admirador`)
_RELATIONAL = frozenset(
    {"sucesor", "predecesor", "antecesor", "seguidor", "partidario", "aliado", "adversario",
     "admirador", "mentor", "tutor"}
)  # fmt: skip


def _offices() -> dict[str, str]:
    """{masculine office or trade: feminine}, singular only (a plural is a mixed group)."""
    out: dict[str, str] = {}
    offices = False
    for item in _PERSON_PAIRS.split(","):
        parts = item.split()
        if parts[:1] == ["alcalde"]:
            offices = True
        if not offices or len(parts) < 2 or parts[0] == parts[1]:
            continue
        flags = "".join(parts[2:])
        if ">" in flags or "*" in flags:
            continue  # another person far more often (`un amigo`), or an adjective too
        if parts[0] not in _RELATIONAL:
            out[parts[0]] = parts[1]
    return out


_OFFICES = _offices()


def _group_plurals() -> dict[str, str]:
    """{masculine plural of a kin or person noun: feminine plural} (`hermanos` → `hermanas`)."""
    out: dict[str, str] = {}
    for item in _PERSON_PAIRS.split(","):
        parts = item.split()
        if parts[:1] == ["alcalde"]:
            break
        if len(parts) < 2 or parts[0] == parts[1] or ">" in "".join(parts[2:]):
            continue
        out[_es_plural(parts[0])] = _es_plural(parts[1])
    return out


_GROUPS = _group_plurals()
_OFFICES_D = {"m2f": _OFFICES, "f2m": {f: m for m, f in _OFFICES.items()}}


#: words after which a bare role noun is the subject's: `fue presidente`, `como asesor`
_ROLE_LEFT = frozenset({"como", "fue", "era", "es", "sido", "siendo", "ser"})


def _role_of_person(s: Sentence, i: int) -> bool:
    """The noun at ``i`` is a role of the sentence's subject: after a copula or ``como``
    (bare or with its article), or heading the sentence's first noun phrase."""
    low = s.low
    if low[i - 1] in _ROLE_LEFT:
        return True
    if low[i - 1] not in ("el", "un") or (i > 1 and not s.joined(i - 2)):
        return False
    return i == 1 or low[i - 2] in _ROLE_LEFT


#: copulas whose singular predicate is the subject's
_COPULA = frozenset({"fue", "era", "es", "estuvo", "estaba", "resultó", "quedó"})
#: words between a copula and its predicate (`es más conocido`, `estuvo muy solicitado`)
_DEGREE = frozenset({"más", "muy", "tan", "bastante", "también", "sumamente", "mejor"})
#: words that may stand between the clause's start and the copula (`pero pronto fue`)
_PRE = frozenset({"pronto", "luego", "después", "también", "nunca", "ya", "no", "se", "siempre"})
#: clause openers: after them the copula has no subject of its own (`, pero es conocido`)
_OPENERS = frozenset({"y", "e", "pero", "aunque", "mas", "sino"})
#: singular determiners by the gender of the word they go with
_SG_DETS = {
    "m2f": frozenset({"el", "un", "del", "al", "este", "ese", "aquel"}),
    "f2m": frozenset({"la", "una", "esta", "esa", "aquella"}),
}


def _other_candidate(d: str, s: Sentence, k: int) -> bool:
    """The clause before the conjunction at ``k`` names a thing of the participle's gender
    (`Fundó un periódico y fue dirigido`): the participle may be that thing's."""
    low = s.low
    for m in range(k - 1, 0, -1):
        if not s.joined(m):
            return False
        if low[m - 1] in _SG_DETS[d] and s.toks[m].islower():
            return True
    return False


def bare_predicates(d: str, s: Sentence, free: Check, put: Put) -> None:
    """When nothing else changed, a participle right after a copula whose clause has no
    subject of its own (`, pero es más conocido por` → `conocida`) is the person's."""
    low = s.low
    n = len(low)
    for c in range(n - 1):
        if low[c] not in _COPULA:
            continue
        k = c - 1
        while k >= 0 and low[k] in _PRE and s.joined(k):
            k -= 1
        opens = k < 0 or not s.joined(k) or low[k] in _OPENERS
        if not opens or (k >= 0 and low[k] in ("y", "e") and _other_candidate(d, s, k)):
            continue
        j = c + 1
        while j < n - 1 and (low[j] in _DEGREE or low[j].endswith("mente")) and s.joined(j - 1):
            j += 1
        if not s.joined(j - 1) or not s.toks[j].islower():
            continue
        g = participle(d, low[j])
        if g is not None and not low[j].endswith("s") and free(j):
            put(j, g)


def como_roles(d: str, s: Sentence, free: Check, put: Put, lex: Lexicon, morph: Morph) -> None:
    """When nothing else changed, `como` + a bare singular role (`como ojeador`, `como segundo
    clasificado`) is the subject's role (an object's, `contrató a Juan como entrenador`, is
    not told apart here: `se unió a Google como ingeniero` is far more common)."""
    low, toks = s.low, s.toks
    n = len(low)
    ords = _ORD_F2M if d == "f2m" else _ORD_M2F
    for c in range(n - 1):
        if low[c] != "como" or not s.joined(c):
            continue
        j = c + 1
        if low[j] in ords and j + 1 < n and s.joined(j):
            j += 1
        if not toks[j].islower() or low[j].endswith("s") or not free(j):
            continue
        w = low[j]
        g = _PERSON[d].get(w, (None,))[0] or _OFFICES_D[d].get(w) or participle(d, w)
        if g is None and w.endswith(("or", "ero", "ora", "era")):
            g = guess(d, w, lex, morph)
        if g is None:
            continue
        put(j, g)
        if j > c + 1:
            put(c + 1, ords[low[c + 1]])


#: forms of `tener`: a bare plural after them is a count of children, not a group of women
_HAVE = frozenset(
    {"tuvo", "tenía", "tiene", "tener", "tuvieron", "tenían", "tienen", "teniendo", "tenido"}
)


def group_nouns(d: str, s: Sentence, free: Check, put: Put) -> None:
    """Into the feminine, when nothing else changed: a masculine plural kin or person noun
    (`doce hermanos pequeños`, `para niños menores de 14 años`) is the person's group."""
    if d != "m2f":
        return
    low = s.low
    for i in range(1, len(low)):
        tgt = _GROUPS.get(low[i])
        if tgt is None or not free(i) or not s.toks[i].islower() or not s.joined(i - 1):
            continue
        if low[i - 1] in _HAVE:
            continue  # `no tenía hijos`: children, of either sex
        put(i, tgt)


def office_nouns(d: str, s: Sentence, free: Check, put: Put, lex: Lexicon) -> None:
    """Into the feminine, when nothing else changed: the office noun of the person."""
    if d != "m2f":
        return
    low = s.low
    for i in range(1, len(low)):
        tgt = _OFFICES.get(low[i])
        if tgt is None or not free(i) or not s.toks[i].islower():
            continue
        if not s.joined(i - 1) or not _role_of_person(s, i):
            continue
        seen = lex.seen.get(low[i])
        if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < _PERSON_SHARE / 2:
            continue  # the data says this word almost always stays
        put(i, tgt)
