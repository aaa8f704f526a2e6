"""The person's name as an anchor (issue #21 part 3): where a sentence names its person.

In a mined corpus each document's person is known, and a sentence whose only reference to them
is their name (``Savini diente als Kriegsfotograf``) has no pronoun for the rules to agree with.
Given the name, :func:`person_tokens` finds its mentions (the full name or any of its
capitalised parts, written as in the name), and :func:`role_slots` the words that describe the
named person: in apposition (``Savini, periodista italiano``), after a copula with the name as
subject (``Savini war Fotograf``, ``1990 wurde Savini Fotograf``) and after a role marker in the
clause the name opens (``als``/``como``/``comme``/``come``/``com a``/``as`` + role). The
engine changes the words of a slot that have another-gender form (``core.Rewriter``); articles
and adjectives then agree through its usual rules.

The name counts as a subject only where one stands: at the start of the sentence or after
punctuation (``Secondo Santana, ...`` is not), or right after a copula (German word order). A
slot stops at punctuation and at another capitalised word before the role (another person may
be the one described: ``Savini trabajó con Pérez como fotógrafo`` is left alone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from occbio.rewrite.tokens import words

#: at most this many words from the start of a slot to its role noun (articles, adjectives)
_REACH = 3
#: at most this many lower-case words between the name and a role marker (``arbeitete ab 1990``)
_MARKER_REACH = 6


def name_parts(name: str, lang: str) -> frozenset[str]:
    """The lower-case words of ``name`` that identify the person: its capitalised words of two
    letters or more (``Ada Lovelace`` → ada, lovelace; ``Vicente del Bosque`` → vicente, bosque:
    ``del`` is a word of the language as well)."""
    return frozenset(w.lower() for w in words(name or "", lang) if len(w) > 1 and w[0].isupper())


def person_tokens(toks: Sequence[str], parts: frozenset[str]) -> frozenset[int]:
    """Positions of the capitalised tokens that are a part of the person's name."""
    if not parts:
        return frozenset()
    return frozenset(i for i, t in enumerate(toks) if t[:1].isupper() and t.lower() in parts)


def mentions(person: frozenset[int], joined: Callable[[int], bool]) -> list[tuple[int, int]]:
    """(first, last) token of each run of name tokens one space apart."""
    out: list[tuple[int, int]] = []
    for i in sorted(person):
        if out and out[-1][1] == i - 1 and joined(i - 1):
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def role_slots(
    toks: Sequence[str],
    low: Sequence[str],
    gaps: Sequence[str],
    person: frozenset[int],
    copulas: frozenset[str],
    markers: Sequence[tuple[str, ...]],
    *,
    anywhere: bool = False,
) -> list[tuple[int, bool]]:
    """(first token, loose) of each slot that describes the named person (see the module
    docstring); ``gaps[i]`` is the text after token ``i``. A loose slot (after a copula or a
    marker) may open with words that do not change (``fue también periodista``); an
    apposition must open with its role (``Savini, guardò nel buco`` is no apposition).
    ``anywhere``: an apposition also after a name where no subject stands (``Secondo
    Babbage, pittore``)."""
    n = len(toks)

    def joined(i: int) -> bool:
        return i + 1 < n and not gaps[i].strip()

    slots: list[tuple[int, bool]] = []
    for a, e in mentions(person, joined):
        if e + 1 >= n:
            continue
        if a > 0 and low[a - 1] in copulas and joined(a - 1) and joined(e):
            slots.append((e + 1, True))  # ``1990 wurde Savini Fotograf``
            continue
        if gaps[e].strip() == "," and (anywhere or a == 0 or gaps[a - 1].strip()):
            slots.append((e + 1, False))  # apposition
            continue
        if (a > 0 and not gaps[a - 1].strip()) or not joined(e):
            continue  # not where a subject stands (``Secondo Santana``, ``del Colégio``)
            continue
        if low[e + 1] in copulas:
            slots.append((e + 2, True))  # the name as subject of a copula (ca: auxiliary ``va``)
        k = e + 1
        while k < n and k - e <= _MARKER_REACH:
            hit = next((m for m in markers if tuple(low[k : k + len(m)]) == m), None)
            if hit is not None:
                if all(joined(j) for j in range(k, k + len(hit))):
                    slots.append((k + len(hit), True))
                break
            if toks[k][:1].isupper() or not joined(k):
                break  # another name (maybe another person), or the clause ends
            k += 1
    return [(j, loose) for j, loose in slots if j < n]


def slot_plan(
    start: int,
    toks: Sequence[str],
    gaps: Sequence[str],
    person: frozenset[int],
    skip: frozenset[str],
    form: Callable[[int], tuple[str, ...] | None],
    loose: bool = True,
) -> dict[int, tuple[str, ...]]:
    """{token: new words} in the slot from ``start``: the words after any articles (``skip``)
    that have another-gender form (``form``), up to the first one that has none after a change;
    nothing when the slot holds another name first, or (not ``loose``) a word before its role
    that neither changes, nor is an article, nor comes before a word that changes."""
    n = len(toks)
    out: dict[int, tuple[str, ...]] = {}

    def _agrees_next(k: int) -> bool:  # ``periodista italiano``: an epicene noun, then agreement
        return k + 1 < n and not gaps[k].strip() and form(k + 1) is not None

    k = start
    while k < n and k - start < _REACH + len(out):
        if k in person:
            break
        low = toks[k].lower()
        new = None if low in skip else form(k)
        if new is not None:
            out[k] = new
        elif out or toks[k][:1].isupper() or not (loose or low in skip or _agrees_next(k)):
            break  # the role ended, another name, or no role here
        if gaps[k].strip():
            break  # a comma, a bracket: the phrase ends
        k += 1
    return out


def other_roles(
    toks: Sequence[str],
    low: Sequence[str],
    gaps: Sequence[str],
    person: frozenset[int],
    copulas: frozenset[str],
    markers: Sequence[tuple[str, ...]],
) -> set[int]:
    """Tokens of the slots that describe ANOTHER name than the person's (``Babbage trabajó
    como traductor``, ``Lovelace conoció a Babbage, matemático``): kept as they are when the
    person's name is known. Another name is a capitalised word outside the person's name; the
    first word of the sentence only before another capitalised one (``Charles Babbage``: a
    lone first word is as often ``Secondo``, ``Durante``, ``Он``)."""
    first = len(toks) > 1 and toks[1][:1].isupper() and not gaps[0].strip()
    others = frozenset(
        i for i, t in enumerate(toks) if t[:1].isupper() and i not in person and (i or first)
    )
    out: set[int] = set()
    for start, _ in role_slots(toks, low, gaps, others, copulas, markers, anywhere=True):
        k = start
        while k < len(toks) and k - start <= _REACH and k not in person:
            out.add(k)
            if gaps[k].strip():
                break
            k += 1
    return out
