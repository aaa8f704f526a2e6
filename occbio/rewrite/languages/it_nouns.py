"""Italian: person nouns the choosing data did not teach, and the words before a changed noun.

Titles (``signor``/``signora``, ``lo stesso``/``la stessa``, a placing ``finì quarto``), the
hand list of person nouns, nouns of both genders after a determiner (``la cantante``),
possessives, ordinals and adjectives between a determiner and a changed noun, quantifiers
before it (``entrambe le``) and adjectives after it past ``più`` or ``e``. Each step adds
to ``out``; ``it.py`` runs them in order before the determiners agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.it_articles import CLOSED, FORMS, target_gender_before
from occbio.rewrite.languages.it_forms import (
    QUANTIFIERS,
    agree_form,
    invariable_adj,
    participle_like,
    quantifier_form,
)
from occbio.rewrite.languages.it_words import (
    _COMMON_ENDINGS,
    _COMMON_NOUNS,
    _INVARIANT_ADJ,
    _LEXICAL_GENDER,
    _NOT_COMMON,
    _NOUN_SWAP,
    _NP_FOLLOW,
    _NUMBERS,
    _OBJ_CLITICS,
    _ORDINAL_SWAP,
    _OTHER_PEOPLE,
    _PERSON_PRON,
    _PLAIN_ARTICLES,
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
        if target_gender_before(d, s, i):
            continue  # `alle signore Tz'utujil`: ladies
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
        elif w == ("sola" if d == "f2m" else "solo") and i > 0 and s.low[i - 1] == "da":
            out[i] = (1, ("solo" if d == "f2m" else "sola",))  # `da solo`: by oneself
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
        title = (
            i > 0
            and s.low[i - 1] in ("il", "la", "lo", "l'", "l’")
            and s.joined(i - 1)
            and (i + 1 == len(s.low) or not s.toks[i + 1][:1].isupper())
        )  # `Il Marchese, tuttavia,`: a title after its article, no name after it
        if (i > 0 and s.toks[i][:1].isupper() and not title) or target_gender_before(d, s, i):
            continue  # a name or a title inside one; `delle cameriere` (waitresses)
        seen = lex.seen.get(w)
        if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            continue  # the data says this word usually stays
        out[i] = (1, (table[w],))


def mark_common_nouns(d: str, s: Sentence, covered: Sequence[bool], out: Plan) -> None:
    """A noun of both genders right after a determiner of the source gender (`il
    portavoce`, `la cantante`, `il suo portavoce`), or `suo nipote` (a kinship noun takes
    no article): the person, unchanged; the determiner (and a possessive) then agree."""
    gender = "m" if d == "m2f" else "f"
    n = len(s.low)
    for i in range(n - 1):
        det = s.low[i].replace("’", "'")
        entries = FORMS.get(det)
        kin = det in ("suo", "sua", "mio", "mia", "tuo", "tua") and det in _POSSESSIVE_SWAP[d]
        if not kin and (not entries or entries[0][1] != gender or entries[0][2] != "sg"):
            continue
        if kin and (s.low[i + 1] != "nipote" or (i > 0 and s.low[i - 1] in CLOSED)):
            continue
        k = i + 1
        if s.low[k] in _POSSESSIVE and s.joined(i):
            k += 1
        if k >= n or covered[k] or not s.joined(k - 1) or s.toks[k][:1].isupper():
            continue
        w = s.low[k]
        # `un erede maschio` → `un'erede femmina`: the marker says whose the noun is
        marked = k + 1 < n and covered[k + 1] and s.low[k + 1] in ("maschio", "femmina")
        if (
            w in _COMMON_NOUNS - _OTHER_PEOPLE
            or (w.endswith(_COMMON_ENDINGS) and w not in _NOT_COMMON)
            or (marked and w in _COMMON_NOUNS)
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
        while j >= 0 and k - j <= 2 + ("più" in s.low[j:k]) and not covered[j] and s.joined(j):
            w = s.low[j]
            if (s.toks[j][:1].isupper() and j > 0) or w in CLOSED:
                break
            if w in ("più", "meno") and found:  # `la più brava attrice`
                j -= 1
                continue
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
        elif (k - 1) in found and s.low[k - 1] in _POSSESSIVE:
            out[k - 1] = found[k - 1]  # no article before a kinship noun: `mia madre`


def agree_quantifiers(d: str, s: Sentence, covered: Sequence[bool], plan: Plan, out: Plan) -> None:
    """A quantifier before a changed noun, past an article or a number, agrees with it
    (`entrambi i mariti` → `entrambe le mogli`, `altri due fratelli` → `altre due sorelle`,
    `ogni altro attore` → `ogni altra attrice`)."""
    n = len(s.low)
    for i in range(n - 1):
        if covered[i] or s.low[i] not in QUANTIFIERS or not s.joined(i):
            continue
        k = i + 1
        if s.low[k] in _PLAIN_ARTICLES or s.low[k] in _NUMBERS or s.low[k].isdigit():
            if not s.joined(k):
                continue
            k += 1
        if k >= n or k not in plan or s.low[k] in CLOSED:
            continue
        ln, tgt = plan[k]
        if ln != 1 or tgt[0].lower() == s.low[k]:
            continue
        new = quantifier_form(d, s.low[i])
        if new:
            out[i] = (1, (new,))


def agree_postnominal(
    lang: Language,
    d: str,
    s: Sentence,
    covered: Sequence[bool],
    plan: Plan,
    lex: Lexicon,
    out: Plan,
) -> None:
    """An adjective after a changed word past what does not agree: `più`/`meno` (`le donne più
    ricche`), an adjective of one form (`mamma single divorziata`), or `e` after a changed
    adjective (`depressa e indecisa`)."""
    n = len(s.low)
    for k in sorted(plan):
        ln, tgt = plan[k]
        w = s.low[k]
        if ln != 1 or tgt[0].lower() == w or w in CLOSED or w in _OBJ_CLITICS:
            continue
        if w in _PERSON_PRON or not w.isalpha() or w in _LEXICAL_GENDER:
            continue
        y, skipped = k + 1, False
        while y < n - 1 and s.joined(y - 1) and not covered[y]:
            v = s.low[y]
            if (
                (v in ("più", "meno") and not participle_like(w))
                or (
                    (v in _DEGREE or (v.endswith("mente") and len(v) > 7))
                    and not participle_like(w, irregular=True)
                )
                or v in _INVARIANT_ADJ
                or (invariable_adj(v) and v != w)
            ):  # (`si è spostata più volte`: an adverb after a participle)
                y, skipped = y + 1, True
                continue
            if v in ("e", "ed") and w.endswith(_ADJ_ENDS[d]) and w not in _NOUN_SWAP[d]:
                y, skipped = y + 1, True
                continue
            break
        # right after a changed noun the data's "usually stays" does not count: the adjective
        # agrees (`un attore cinematografico americano`)
        if (not skipped and participle_like(w, irregular=True)) or y >= n or covered[y]:
            continue
        if not s.joined(y - 1) or y in out:
            continue
        v = s.low[y]
        if v in CLOSED or s.toks[y][:1].isupper() or not v.endswith(_ADJ_ENDS[d]):
            continue
        new = agree_form(lang, d, lex, v)
        # the adjective has the noun's number: after a singular masculine a word in `-e` is
        # no plural (`Sua madre decise` is a verb: `Suo padre decise`, not `decisi`)
        if new and (d == "m2f" or tgt[0].lower().endswith("i") == new.endswith("i")):
            out[y] = (1, (new,))


#: adverbs of degree before an adjective, never agreeing (`un pittore molto famoso`)
_DEGREE = frozenset(
    {"molto", "poco", "tanto", "troppo", "assai", "così", "davvero", "abbastanza", "alquanto",
     "piuttosto", "sempre", "ben"}
)  # fmt: skip

#: endings of the source gender's adjectives and participles
_ADJ_ENDS = {"m2f": ("o", "i"), "f2m": ("a", "e")}
