"""Italian: person nouns the choosing data did not teach, and the words before a changed noun.

Titles (``signor``/``signora``, ``lo stesso``/``la stessa``, a placing ``finì quarto``), the
hand list of person nouns, nouns of both genders after a determiner (``la cantante``), and
possessives, ordinals and adjectives between a determiner and a changed noun. Each step adds
to ``out``; ``it.py`` runs them in order before the determiners agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.it_articles import CLOSED, FORMS
from occbio.rewrite.languages.it_forms import agree_form
from occbio.rewrite.languages.it_words import (
    _COMMON_ENDINGS,
    _COMMON_NOUNS,
    _INVARIANT_ADJ,
    _NOT_COMMON,
    _NOUN_SWAP,
    _NP_FOLLOW,
    _OBJ_CLITICS,
    _ORDINAL_SWAP,
    _OTHER_PEOPLE,
    _PERSON_PRON,
    _POSSESSIVE,
    _POSSESSIVE_SWAP,
    _RANKING,
)


def swap_titles(d: str, s: Sentence, covered: Sequence[bool], out: Plan) -> None:
    """`signora Rossi` ↔ `signor Rossi`, `la stessa Cyrus` ↔ `lo stesso Cyrus`."""
    n = len(s.low)
    for i in range(n):
        if covered[i]:
            continue
        w = s.low[i]
        name_next = i + 1 < n and s.toks[i + 1][:1].isupper() and s.gap_after(i) == " "
        if d == "f2m" and w == "signora":
            out[i] = (1, ("signor" if name_next else "signore",))
        elif d == "m2f" and w in ("signor", "signore") and (name_next or w == "signore"):
            out[i] = (1, ("signora",))
        elif w == ("stessa" if d == "f2m" else "stesso") and (
            name_next
            or (i > 0 and s.low[i - 1] in ("se", "sé", "me", "te") and s.joined(i - 1))
            or (i > 0 and s.toks[i - 1][:1].isupper() and s.joined(i - 1))
        ):
            # `lo stesso Cyrus`, `se stesso`, `Lennox stesso`
            out[i] = (1, ("stesso" if d == "f2m" else "stessa",))
        elif i > 0 and s.low[i - 1] in _RANKING and s.joined(i - 1):
            # `finì quarto`, `arrivò secondo alla finale`
            new = _ORDINAL_SWAP[d].get(w)
            if new and (i + 1 == n or not s.joined(i) or s.low[i + 1] in _NP_FOLLOW):
                out[i] = (1, (new,))


def swap_hand_nouns(d: str, s: Sentence, covered: Sequence[bool], lex: Lexicon, out: Plan) -> None:
    """Person nouns of the hand list the choosing data did not teach."""
    table = _NOUN_SWAP[d]
    for i, w in enumerate(s.low):
        if covered[i] or w not in table:
            continue
        if i > 0 and s.toks[i][:1].isupper():
            continue  # a name or a title inside one
        seen = lex.seen.get(w)
        if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            continue  # the data says this word usually stays
        out[i] = (1, (table[w],))


def mark_common_nouns(d: str, s: Sentence, covered: Sequence[bool], out: Plan) -> None:
    """A noun of both genders right after a determiner of the source gender (`il
    portavoce`, `la cantante`, `il suo portavoce`): the person, unchanged; the determiner
    (and a possessive) then agree."""
    gender = "m" if d == "m2f" else "f"
    n = len(s.low)
    for i in range(n - 1):
        det = s.low[i].replace("’", "'")
        entries = FORMS.get(det)
        if not entries or entries[0][1] != gender or entries[0][2] != "sg":
            continue
        k = i + 1
        if s.low[k] in _POSSESSIVE and s.joined(i):
            k += 1
        if k >= n or covered[k] or not s.joined(k - 1) or s.toks[k][:1].isupper():
            continue
        w = s.low[k]
        if w in _COMMON_NOUNS - _OTHER_PEOPLE or (
            w.endswith(_COMMON_ENDINGS) and w not in _NOT_COMMON
        ):
            s.notes.setdefault("person", set()).add(k)
            out[k] = (1, (s.toks[k],))


def agree_prenominal(
    lang: Language,
    d: str,
    s: Sentence,
    covered: Sequence[bool],
    plan: Plan,
    lex: Lexicon,
    out: Plan,
) -> None:
    """Possessives, ordinals and adjectives between a determiner and a changed noun agree
    with it (`il secondo visconte` → `la seconda viscontessa`, `il suo portavoce`)."""
    person = s.notes.get("person", set())
    for k in sorted(plan):
        ln, tgt = plan[k]
        if ln != 1 or (tgt[0].lower() == s.low[k] and k not in person):
            continue
        if s.low[k] in CLOSED or s.low[k] in _OBJ_CLITICS or s.low[k] in _PERSON_PRON:
            continue
        j = k - 1
        found: Plan = {}
        while j > 0 and k - j <= 2 and not covered[j] and s.joined(j):
            w = s.low[j]
            if s.toks[j][:1].isupper() or w in CLOSED:
                break
            new = _POSSESSIVE_SWAP[d].get(w) if w in _POSSESSIVE else None
            if new is None and w not in _INVARIANT_ADJ:
                new = agree_form(lang, d, lex, w)
                if new is None:
                    break
            if new is not None:
                found[j] = (1, (new,))
            j -= 1
        if found and j >= 0 and s.low[j] in CLOSED and s.joined(j):
            out.update(found)
