"""Italian: object clitics that refer to the person (``gli consegnò``, ``lo premiò``,
``costringendolo``).

A clitic has no noun beside it to agree with; it changes only before a verb that fits it,
which this module recognises from word lists and endings.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.it_articles import CLOSED, onset_sound
from occbio.rewrite.languages.it_forms import QUANTIFIERS
from occbio.rewrite.languages.it_subject import is_adverb, person_noun
from occbio.rewrite.languages.it_words import (
    _AVERE,
    _FINITE_ENDINGS,
    _NOT_VERBS,
    _NOUN_SWAP,
    _PREPOSITIONS,
    _THING_VERBS,
    _VERB_ENDINGS,
    _VERBS,
)

# Only the dative `gli` (to him) → `le`: on the choosing data the accusative `lo`/`la` refers to
# a thing as often as to the person, and `le` before a verb is also `them`.
_CLITIC_M2F = {"gli": "le"}
#: participles whose object `lo`/`la` is usually a thing, as ``_THING_VERBS`` (`lo ha detto`)
_THING_PARTICIPLES = frozenset(
    {
        "fatto", "fatta", "detto", "detta", "saputo", "saputa", "avuto", "scritto", "letto",
        "pubblicato", "composto", "prodotto", "registrato", "diretto", "girato", "vinto",
        "perso", "comprato", "venduto",
    }
)  # fmt: skip
_CLITIC_F2M = {"le": "gli"}


def _is_verb(s: Sentence, k: int, clitic: str) -> bool:
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in _NOT_VERBS or w in CLOSED or not w.isalpha():
        return False
    if clitic == "le" and w in _AVERE and k + 1 < len(s.low) and s.low[k + 1].endswith("e"):
        return False  # `le ha viste`: the accusative plural (them), its participle agrees
    if w in _VERBS:
        return True
    if (
        clitic == "le"
        and w.endswith("e")
        and s.lex is not None
        and s.lex.zipf.get(w[:-1] + "a", 0.0) >= 3.5
    ):
        return False  # the article before a plural noun: `le tasse`, `le offerte`
    if clitic == "gli" and onset_sound(w) == "C" and w.endswith(("a", "e")) and len(w) > 3:
        return True  # the article `gli` stands only before a vowel, s + consonant, z, gn
    if clitic == "le" and w.endswith("a") and len(w) > 3 and w not in _NOT_VERBS:
        return True  # the article `le` stands before a plural, not `le risulta`
    if clitic in ("la", "lo") and w.endswith(("iva", "ano")):
        return False
    if w.endswith("esse") and s.lex is not None and s.lex.is_word(w[:-1] + "a", 2.5):
        return False  # a noun in -essa (`le sacerdotesse`), not a subjunctive (`avesse`)
    return w.endswith(_VERB_ENDINGS) and not w.endswith("i")


#: singular determiners of each gender that open an object noun phrase
_SG_DETERMINERS = {
    "m2f": frozenset({"il", "lo", "un", "uno", "quel", "quello", "questo"}),
    "f2m": frozenset({"la", "una", "quella", "questa"}),
}


def _thing_antecedent(d: str, s: Sentence, i: int) -> bool:
    """An object noun phrase of the clitic's gender just before the verb that carries it
    names a thing (`preservare quella casa per renderla un museo`): the enclitic is that
    thing, not the person."""
    for j in range(i - 1, max(-1, i - 6), -1):
        if not s.joined(j):
            return False
        if s.low[j] in _SG_DETERMINERS[d] and not s.covered[j] and j + 1 < i:
            noun = s.low[j + 1]
            return (
                noun.isalpha()
                and not s.toks[j + 1][:1].isupper()
                and not s.covered[j + 1]
                and noun not in _NOUN_SWAP[d]
                and not person_noun(noun)
            )
    return False


def _is_finite(s: Sentence, k: int) -> bool:
    """A finite verb form after an accusative clitic (`lo premiò`, `la aveva ingannata`)."""
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in CLOSED or w in _NOT_VERBS or w in _THING_VERBS:
        return False
    return w in _AVERE or w in _VERBS or w.endswith(_FINITE_ENDINGS)


def swap_clitics(d: str, s: Sentence, covered: Sequence[bool], out: Plan) -> None:
    """Object clitics before a verb: the dative `gli` ↔ `le` (`gli consegnò` → `le
    consegnò`), the accusative `lo` ↔ `la` before a plain finite verb (`lo premiò`), and
    enclitics on an infinitive or gerund (`costringendolo`, `immergerlo`)."""
    n = len(s.low)
    dative = _CLITIC_M2F if d == "m2f" else _CLITIC_F2M
    acc_src, acc_tgt = ("lo", "la") if d == "m2f" else ("la", "lo")
    for i in range(n):
        if covered[i]:
            continue
        w = s.low[i]
        prev = s.low[i - 1] if i > 0 else ""
        if prev in CLOSED and s.gap_after(i - 1) in (" ", ""):
            continue
        if w in ("le", "gli") and (
            (prev in _PREPOSITIONS and prev != "come") or prev in QUANTIFIERS
        ):
            continue  # `per le chiese`, `entrambe le chiese`: an article
        nxt_ok = i + 1 < n and s.gap_after(i) == " "
        if w in dative and nxt_ok and _is_verb(s, i + 1, w):
            out[i] = (1, (dative[w],))
        elif (
            w == acc_src
            and nxt_ok
            and prev not in _PREPOSITIONS
            and _is_finite(s, i + 1)
            and not (i + 2 < n and s.low[i + 2] in _THING_PARTICIPLES)
        ):  # (`lo ha fatto`: it)
            out[i] = (1, (acc_tgt,))
            # a participle after avere agrees with the object clitic: `la aveva aiutata`
            k = i + 2
            if k < n and s.low[i + 1] in _AVERE and s.joined(i + 1) and not covered[k]:
                part = s.low[k]
                if part.endswith(("to", "so") if d == "m2f" else ("ta", "sa")):
                    out[k] = (1, (part[:-1] + ("a" if d == "m2f" else "o"),))
        elif (
            w == ("averlo" if d == "m2f" else "averla")
            and i + 1 < n
            and s.joined(i)
            and not covered[i + 1]
            and s.low[i + 1].endswith(
                ("ato", "ito", "uto") if d == "m2f" else ("ata", "ita", "uta")
            )
            and s.low[i + 1][:-1] + "o" not in _THING_PARTICIPLES
        ):  # `averlo ostacolato` → `averla ostacolata`
            out[i] = (1, (w[:-1] + ("a" if d == "m2f" else "o"),))
            out[i + 1] = (1, (s.low[i + 1][:-1] + ("a" if d == "m2f" else "o"),))
        elif w in ("l'", "l’") and i + 2 < n and s.low[i + 1] in _AVERE and s.joined(i + 1):
            # `l'ha scoraggiato`: the participle agrees with the elided object clitic
            k = i + 2
            if k + 1 < n and is_adverb(s.low[k]) and s.joined(k):
                k += 1  # `l'ha mai scoraggiato`
            part = s.low[k]
            src_end, tgt_end = ("o", "a") if d == "m2f" else ("a", "o")
            if (
                not covered[k]
                and part.endswith(tuple(p + src_end for p in ("at", "it", "ut", "ss", "tt", "rs")))
                and part[:-1] + "o" not in _THING_PARTICIPLES
            ):
                out[k] = (1, (part[:-1] + tgt_end,))
        elif len(w) > 6 and not s.toks[i][:1].isupper() and not _thing_antecedent(d, s, i):
            for end in ("ndolo", "rlo") if d == "m2f" else ("ndola", "rla"):
                if w.endswith(end):
                    out[i] = (1, (w[:-1] + ("a" if d == "m2f" else "o"),))
                    break
