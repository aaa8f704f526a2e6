"""Portuguese agreement with a changed word: the articles, contractions and determiners before
it, the adjectives next to it, the participles coordinated with it.

The engine's own suffix guess (any word next to any changed word) is off for Portuguese, so
every agreement is proposed here, with the whole sentence in view: an adjective after a changed
noun (`o filho mais novo`) changes, a verb after a changed subject (`a madrasta deixa`) or a
noun after a changed contraction (`o parto da duquesa`) does not.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.pt_forms import (
    DETERMINER_FORMS,
    DETERMINER_SWAP,
    PERSON_SWAP,
    PRONOUN_FORMS,
    is_adverb,
    is_common_noun,
    is_verb,
    other_gender,
)
from occbio.rewrite.languages.pt_words import (
    _ADJ,
    _ADJ_DETS,
    _ALL_DETS,
    _ARTICLES,
    _COPULAS,
    _PARTICIPLE,
    _POSSESSIVES,
    _PRE_ADJ,
    _PROMOTED,
)

_PRE_NOUN_PREPS = frozenset("de com para por sem entre".split())
_SELF = {
    "m2f": {"mesmo": "mesma", "próprio": "própria"},
    "f2m": {"mesma": "mesmo", "própria": "próprio"},
}


def _spaced(s: Sentence, i: int) -> bool:
    """A plain space between token ``i`` and ``i + 1`` (which exists)."""
    return i + 1 < len(s.low) and s.gap_after(i) == " "


_NUMBERS = frozenset("três quatro cinco seis sete oito nove dez onze doze vinte cem mil".split())


def _is_number(w: str) -> bool:
    return w.isdigit() or w in _NUMBERS


def determiner_change(d: str, s: Sentence, i: int, nominal: set, dets: set) -> Plan:
    """Articles, contractions, possessives before a changed noun / adjective (``nominal``) or
    a changed determiner (``dets``)."""
    low = s.low
    w = low[i]
    det = DETERMINER_SWAP[d]
    if (
        w in det
        and _spaced(s, i)
        and not (w == "a" and i > 0 and low[i - 1].startswith(_PROMOTED))
        and (
            i + 1 in nominal
            or (
                (low[i + 1] in ("mais", "menos") or low[i + 1] in _PRE_ADJ)
                and i + 2 in nominal
                and _spaced(s, i + 1)
            )
            or (i + 1 in dets and low[i + 1] in _ADJ_DETS)
            # `esses seis garotos`: across a number
            or (i + 2 in nominal and _is_number(low[i + 1]) and _spaced(s, i + 1))
            # `um dos maridos` → `uma das esposas`
            or (w in ("um", "uma") and i + 1 in dets and low[i + 1] in ("dos", "das"))
            or (w in _ARTICLES and i + 1 in dets and low[i + 1] in _POSSESSIVES)
            or (w in _ALL_DETS and i + 1 in dets)
        )
    ):
        return {i: (1, (det[w],))}
    return {}


def fathers_change(d: str, s: Sentence, i: int) -> Plan:
    """`pais` (fathers, or parents): fathers as a kind (`grupos de pais`), not someone's
    parents (`seus pais`, `os pais dele`, `tiveram os pais`, `os pais que o criaram`)."""
    low, toks, n = s.low, s.toks, len(s.low)
    if (
        low[i] == "pais" and d == "m2f" and toks[i][:1].islower() and i > 0
        and low[i - 1] not in DETERMINER_FORMS
        and (i + 1 >= n or low[i + 1] not in PRONOUN_FORMS)
    ):  # fmt: skip
        return {i: (1, ("mães",))}
    return {}


def gender_word(d: str, s: Sentence, i: int, nominal: set) -> Plan:
    """`masculino` / `feminino` after a changed noun: the word and its ending change (`o
    protagonista masculino` → `a protagonista feminina`, not `masculina`)."""
    w = s.low[i]
    src, tgt = ("mascul", "femin") if d == "m2f" else ("femin", "mascul")
    if not (w.startswith(src) and w.endswith(("o", "a", "os", "as"))) or len(w) < 8:
        return {}
    if not (i - 1 in nominal and _spaced(s, i - 1) and s.low[i - 1] not in PRONOUN_FORMS):
        return {}  # elsewhere the learned table decides (its choices are split)
    new = tgt + w[len(src) :]
    flip = {"o": "a", "os": "as"} if d == "m2f" else {"a": "o", "as": "os"}
    for end in ("os", "as", "o", "a"):
        if new.endswith(end):
            return {i: (1, (new[: len(new) - len(end)] + flip.get(end, end),))}
    return {}


def adjective_change(d: str, s: Sentence, i: int, lex: Lexicon, nominal: set) -> Plan:
    """An adjective or participle at ``i`` that agrees with a changed noun or predicate
    (``nominal``)."""
    low, toks = s.low, s.toks
    w = low[i]
    # adjective after a changed noun (`filho mais novo`), or before it after a determiner
    lower = toks[i][:1].islower()
    if not lower and i > 0 and i - 1 in nominal and toks[i - 1][:1].isupper() and _spaced(s, i - 1):
        return _title_adjective(d, w, i, lex)  # `Filho Adotivo`, `Pequeno Costureiro`
    if not (lower and w not in DETERMINER_FORMS and w not in _COPULAS):
        return {}
    # `ele mesmo`, `ela própria`: the intensifier after a changed pronoun
    self_ = w in _SELF[d] and i > 0 and _spaced(s, i - 1)
    # `ele mesmo assim`, `mesmo que`: the adverb `even`
    self_ = self_ and low[i + 1 : i + 2] not in (["assim"], ["que"], ["quando"], ["se"])
    if self_ and low[i - 1] in PRONOUN_FORMS and s.covered[i - 1]:
        return {i: (1, (_SELF[d][w],))}
    # `a si mesmo`, `consigo mesma`: the reflexive of the (changed) subject
    if self_ and low[i - 1] in ("si", "consigo") and any(s.covered[: i - 1]):
        return {i: (1, (_SELF[d][w],))}
    post = (i - 1 in nominal and _spaced(s, i - 1)) or (
        i - 2 in nominal and _spaced(s, i - 2) and _spaced(s, i - 1)
        and (low[i - 1] in ("mais", "menos", "muito", "tão")
             # `a menina não identificada`
             or (low[i - 1] == "não" and w.endswith(_PARTICIPLE)))
    )  # fmt: skip
    # before it after a determiner or a preposition (`uma rede de poderosos senhores`)
    pre = i + 1 in nominal and _spaced(s, i) and i > 0
    pre = pre and (low[i - 1] in DETERMINER_FORMS or low[i - 1] in _PRE_NOUN_PREPS)
    if post or pre:
        # a verb after the subject noun (`a madrasta deixa`) is no adjective
        t = other_gender(d, w, lex, adjlike=not post or is_verb(w, lex, True))
        if t is not None and t != w:
            return {i: (1, (t,))}
    # coordinated with a changed predicate: `tão feia e deformada`, `foi presa,
    # encarcerada e`
    coord = i > 1 and i - 2 in nominal and low[i - 1] in ("e", "ou") and _spaced(s, i - 2)
    coord = coord and _spaced(s, i - 1) and low[i - 2] not in PERSON_SWAP[d]
    comma = i > 0 and i - 1 in nominal and s.gap_after(i - 1) == ", "
    comma = comma and w.endswith(_PARTICIPLE) and low[i - 1] not in PRONOUN_FORMS
    comma = comma and low[i + 1 : i + 2] != ["que"]  # `dado que`: a conjunction
    if coord or comma:
        t = other_gender(d, w, lex)
        if t is not None and t != w:
            return {i: (1, (t,))}
    return {}


def _title_adjective(d: str, w: str, i: int, lex: Lexicon) -> Plan:
    """A capitalised adjective after a changed capitalised noun, inside a title: a listed
    adjective or a participle / `-ivo` / `-oso` one (not a name: `Rainha Vitória`)."""
    t = other_gender(d, w, lex)
    if t is None or t == w:
        return {}
    masc = (t if d == "f2m" else w).rstrip("s")
    if masc in _ADJ or masc.endswith(("ado", "ido", "ivo", "oso")):
        return {i: (1, (t,))}
    return {}


def agrees_here(s: Sentence, i: int) -> bool:
    """An adjective at ``i`` is the person's: next to a changed word, or a predicate."""
    cov, low = s.covered, s.low
    if (i > 0 and cov[i - 1] and s.joined(i - 1)) or (
        i + 1 < len(low) and cov[i + 1] and s.joined(i)
    ):
        return True
    k = i - 1
    while k >= 0 and is_adverb(low[k]) and s.gap_after(k) == " ":
        k -= 1
    if not (k >= 0 and low[k] in _COPULAS and s.gap_after(k) == " "):
        return False
    # `a casa é linda`: the copula's subject is a thing (an unchanged noun after an article)
    j = k - 1
    if j > 1 and low[j] in ("dele", "dela", "deles", "delas") and s.gap_after(j - 1) == " ":
        j -= 1  # `a casa dela é`
    return not (
        j > 0 and not cov[j] and s.gap_after(j) == " " and low[j - 1] in DETERMINER_FORMS
        and is_common_noun(s, j) and low[j] not in PERSON_SWAP["m2f"]
        and low[j] not in PERSON_SWAP["f2m"]
    )  # fmt: skip
