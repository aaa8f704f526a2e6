"""Map raw Wikidata "sex or gender" (P21) values to the categories occbio balances on.

Pure logic, no I/O. Wikidata states gender as item QIDs (``Q6581072`` female, ...); balancing
needs a handful of categories. The choices, so that a reader of a corpus can check them:

* ``female`` / ``male``: the binary values, and also trans woman -> ``female`` and trans man ->
  ``male``: Wikidata's guidance for P21 treats trans women as women and trans men as men, and so
  does this corpus.
* ``non-binary``: every identity that is neither female nor male (non-binary, genderqueer,
  agender, genderfluid, two-spirit, transmasculine, transfeminine, culture-specific third genders
  such as māhū, fa'afafine, hijra, kathoey ...). Intersex stated alone lands here too.
* ``unknown``: no value, a value occbio does not know (we cannot tell whether it agrees with the
  others, so we do not guess), or statements that contradict each other (female + male).

Several values: ``intersex`` and ``transgender`` describe a person without settling a category,
so next to a female or male value they defer to it (intersex + female -> ``female``; transgender
+ male -> ``male``). Otherwise one category -> that category; a non-binary value next to a binary
one -> ``non-binary`` (the more specific statement wins); female next to male -> ``unknown``.
:func:`explain_gender` returns the reason with the category so callers can count why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "FEMALE",
    "MALE",
    "NON_BINARY",
    "UNKNOWN",
    "GENDER_CATEGORIES",
    "GENDER_QIDS",
    "balance_categories",
    "DEFERRING_QIDS",
    "gender_mapping",
    "map_gender",
    "explain_gender",
    "unmapped_gender_qids",
]

FEMALE = "female"
MALE = "male"
NON_BINARY = "non-binary"
UNKNOWN = "unknown"

#: Every value :func:`map_gender` can return.
GENDER_CATEGORIES: tuple[str, ...] = (FEMALE, MALE, NON_BINARY, UNKNOWN)

#: Raw P21 QID -> category. Labels are Wikidata's English labels as we know them; entries marked
#: "verify" were added from memory without a live lookup and should be checked against Wikidata.
GENDER_QIDS: dict[str, str] = {
    "Q6581072": FEMALE,  # female
    "Q1052281": FEMALE,  # trans woman (transgender female)
    "Q43445": FEMALE,  # female organism -- wrong on a human item, but unambiguous (verify)
    "Q6581097": MALE,  # male
    "Q2449503": MALE,  # trans man (transgender male)
    "Q44148": MALE,  # male organism -- wrong on a human item, but unambiguous (verify)
    "Q48270": NON_BINARY,  # non-binary
    "Q1097630": NON_BINARY,  # intersex (defers to female/male, see DEFERRING_QIDS)
    "Q12964198": NON_BINARY,  # genderqueer
    "Q18116794": NON_BINARY,  # genderfluid
    "Q505371": NON_BINARY,  # agender
    "Q301702": NON_BINARY,  # two-spirit
    "Q27679766": NON_BINARY,  # transmasculine
    "Q27679684": NON_BINARY,  # transfeminine
    "Q1289754": NON_BINARY,  # neutrois
    "Q3277905": NON_BINARY,  # māhū
    "Q746411": NON_BINARY,  # kathoey
    "Q350374": NON_BINARY,  # fa'afafine
    "Q660882": NON_BINARY,  # hijra
    "Q207959": NON_BINARY,  # androgyny
    "Q859614": NON_BINARY,  # bigender (verify)
    "Q7130936": NON_BINARY,  # pangender (verify)
    "Q3177577": NON_BINARY,  # muxe (verify)
    "Q96000630": NON_BINARY,  # X-gender (verify)
    # transgender: says the gender differs from the one assigned at birth, not what it is;
    # alone it settles nothing, next to female/male it defers to them.
    "Q189125": UNKNOWN,  # transgender
}

#: Values that describe a person without settling the category: ignored when a female, male or
#: other non-binary value is stated next to them.
DEFERRING_QIDS: frozenset[str] = frozenset({"Q1097630", "Q189125"})

# Reasons returned by explain_gender (stable strings: callers count them).
_NO_VALUE = "no_value"
_UNMAPPED = "unmapped"
_CONFLICT = "conflict_female_male"
_SINGLE = "single"
_AGREE = "agree"
_DEFERRED = "deferred"
_NON_BINARY_WINS = "non_binary_wins"
_UNSETTLED = "unsettled"


def balance_categories(overrides: Mapping[str, str] | None = None) -> list[str]:
    """The categories people can be balanced in: :data:`GENDER_CATEGORIES` and those a user's
    mapping adds, ``unknown`` never (it is no gender).

    >>> balance_categories({"Q1052281": "trans woman"})
    ['female', 'male', 'non-binary', 'trans woman']
    """
    categories = (*GENDER_CATEGORIES, *(overrides or {}).values())
    return [c for c in dict.fromkeys(categories) if c != UNKNOWN]


def unmapped_gender_qids(
    qids: Iterable[str], mapping: Mapping[str, str] | None = None
) -> list[str]:
    """The values the mapping does not know, in order, once each (for counting/logging)."""
    known = gender_mapping(mapping)
    return list(dict.fromkeys(q for q in qids if q not in known))


def gender_mapping(overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """:data:`GENDER_QIDS` with a user's overrides laid over it (``{QID: category}``).

    An override may name a new category, e.g. ``{"Q1052281": "trans woman"}`` keeps trans
    women apart from ``female``; two different categories other than ``non-binary`` on one
    person then count as a conflict (``unknown``), as female + male does.
    """
    if not overrides:
        return GENDER_QIDS
    return {**GENDER_QIDS, **overrides}


def explain_gender(
    qids: Sequence[str], mapping: Mapping[str, str] | None = None
) -> tuple[str, str]:
    """Return ``(category, reason)`` for a person's raw P21 values.

    ``reason`` is one of ``no_value``, ``unmapped``, ``conflict_female_male``, ``single``,
    ``agree``, ``deferred``, ``non_binary_wins``, ``unsettled``; callers count it so every
    ``unknown`` has a cause in the statistics. ``mapping`` overrides :data:`GENDER_QIDS`.
    """
    known = gender_mapping(mapping)
    values = list(dict.fromkeys(qids))
    if not values:
        return UNKNOWN, _NO_VALUE
    if any(q not in known for q in values):
        return UNKNOWN, _UNMAPPED
    deciding = [q for q in values if q not in DEFERRING_QIDS]
    reason = _SINGLE if len(values) == 1 else _AGREE
    if not deciding:
        deciding = values  # only describing values: they speak for themselves
    elif len(deciding) < len(values):
        reason = _DEFERRED
    categories = {known[q] for q in deciding}
    if categories == {UNKNOWN}:
        return UNKNOWN, _UNSETTLED
    if UNKNOWN in categories:
        categories.discard(UNKNOWN)
        reason = _DEFERRED
    if len(categories) == 1:
        return categories.pop(), reason
    if NON_BINARY in categories:
        return NON_BINARY, _NON_BINARY_WINS
    return UNKNOWN, _CONFLICT


def map_gender(qids: Sequence[str], mapping: Mapping[str, str] | None = None) -> str:
    """Map a person's raw P21 QIDs to one of :data:`GENDER_CATEGORIES` (rules in the module doc).

    >>> map_gender(["Q6581072"])
    'female'
    >>> map_gender(["Q1052281", "Q6581072"])
    'female'
    >>> map_gender(["Q6581097", "Q48270"])
    'non-binary'
    >>> map_gender(["Q6581072", "Q6581097"])
    'unknown'
    """
    return explain_gender(qids, mapping)[0]
