"""French: participles that cannot agree with the person, taken back from the plan.

A learned substitution changes `nommé` → `nommée` wherever it stands; French agrees it only
when its subject is the person. After `avoir` (`il a nommé`) it does not agree, unless a direct
object stands before (`l'ont arrêtée`); after a copula whose subject is an unchanged noun phrase
(`le lieu est devenu`, `le journal qu'il a fondé est devenu`) it agrees with that noun.
:func:`drop_unagreeing_participles` runs on the whole plan, last; so does
:func:`drop_noun_agreement`: an adjective right after an unchanged noun whose unchanged article
shows its gender agrees with that noun (`une série dramatique reconnue`, `le chien adoré`).
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.fr_lead import _EPICENE_MORE
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _AVOIR,
    _COPULA,
    _DETS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _NOT_PARTICIPLE,
    _ONE_GENDER,
    _PARTICIPLE,
    _POSSESSIVE,
    _PRE_F2M,
    _PRE_M2F,
    _PREP,
    _SUBJECT_WORDS,
)


def _thing_subject(s: Sentence, k: int, plan: Plan) -> bool:
    """The subject of the copula at ``k`` is an unchanged noun phrase, not the person:
    `le lieu est devenu`, `le petit chien de Marie est devenu`."""
    low, toks = s.low, s.toks
    j = k - 1
    while j > 0 and low[j] in ("ne", "n'", "se", "s'", "y", "en"):
        j -= 1
    if j > 0 and s.gap_after(j).strip() == ",":
        # an apposition before the copula: `Une rue de Makkum, la Lenigestraat, est nommée`
        q = j - 1
        while q >= 0 and j - q < 12 and s.gap_after(q).strip() not in (",", ".", ";", "(", ")"):
            q -= 1
        if q < 1 or s.gap_after(q).strip() != "," or any(t in plan for t in range(q, j + 1)):
            return False
        j = q
    opener = ("que", "qu'", "lorsque", "lorsqu'", "quand", "si", "où", "et", "mais", "car",
              "puis", "comme", "puisque", "puisqu'")  # fmt: skip
    inner = ("de", "d'", "du", "des", "la", "le", "l'", "les")
    t = j
    while t >= 0 and j - t < 8:
        w = low[t]
        if t == j and w in ("il", "elle") and t not in plan:
            return True  # a pronoun left as it is (`il est devenu évident que`): not the person
        if t in plan or w in _SUBJECT_WORDS or w in ("lui", "eux", "celui", "celle"):
            # ... unless it is inside a relative clause on the subject noun that opens the
            # sentence: `le journal qu'il a fondé est devenu`
            q = t if w in ("que", "qu'") else t - 1
            return q >= 2 and low[q] in ("que", "qu'") and _opening_noun(s, q - 1, plan)
        if t < j and s.gap_after(t) not in (" ", "", "-"):
            return False
        if w in _DETS or w in _POSSESSIVE or w in ("ces", "cette", "ce", "cet"):
            head = t + 1
            if head <= j and toks[head].isalpha() and toks[head].islower():
                starts = t == 0 or s.gap_after(t - 1).strip() in (",", ".", ";", ":")
                if starts or low[t - 1] in opener:
                    return True
        if not (w in inner or toks[t].isalpha() or w.endswith(("'", "’"))):
            return False
        t -= 1
    return False


def _opening_noun(s: Sentence, i: int, plan: Plan) -> bool:
    """Token ``i`` is an unchanged common noun right after the determiner that opens the
    sentence or a clause (`Le journal`, `, cette pièce`)."""
    low, toks = s.low, s.toks
    if i < 1 or i in plan or not toks[i].isalpha() or not toks[i].islower():
        return False
    if s.gap_after(i - 1) != " " or not (
        low[i - 1] in _DETS or low[i - 1] in ("ce", "cet", "cette")
    ):
        return False
    return i == 1 or s.gap_after(i - 2).strip() in (",", ".", ";", ":")


def drop_unagreeing_participles(s: Sentence, plan: Plan) -> None:
    """Take back, in place, participles that cannot agree with the person: after `avoir`
    (`il a nommé`), or after a copula whose subject is an unchanged common noun (`le lieu est
    devenu`), with what agreed with them."""
    low = s.low
    n = len(low)
    for i in sorted(plan):
        if i not in plan:
            continue
        ln, t = plan[i]
        if ln != 1 or i == 0 or low[i] in _NOT_PARTICIPLE:
            continue
        participle = low[i].endswith(_PARTICIPLE)
        # an adjective agrees the same way (`le volcan, surnommé Don Goyo, est actif`)
        adjective = len(t) == 1 and s.toks[i].islower() and _same_stem(low[i], t[0])
        if not (participle or adjective):
            continue
        k = i - 1
        while k > 0 and (low[k] in _ADVERBS or (len(low[k]) > 6 and low[k].endswith("ment"))):
            k -= 1  # `est immédiatement devenu`
        if not participle and low[k] not in _COPULA:
            continue
        if low[k] in _AVOIR and (k + 1 == i or low[k + 1] != "été"):
            if k == 0 or low[k - 1] not in ("l'", "la", "le", "les", "que", "qu'", "m'"):
                del plan[i]  # a direct object before `avoir` agrees: `l'ont arrêtée`
            continue
        if low[k] == "été":
            k -= 1
        if (low[k] in _COPULA or low[k] in _AVOIR) and _thing_subject(s, k, plan):
            del plan[i]
            # and what agreed with it: `le lieu est devenu associé`
            j = i + 1
            while j in plan and j < n and low[j].isalpha() and s.gap_after(j - 1) == " ":
                if low[j] in ("il", "elle", "lui") or plan[j][0] != 1:
                    break
                del plan[j]
                j += 1


#: articles that show the gender of their noun, by the gender of the source sentence
_GENDERED = {"m2f": ("le", "un", "du", "au", "ce", "cet"), "f2m": ("la", "une", "cette")}
#: nouns of time and measure after which a participle is the person's (`une fois arrivée`,
#: `la même année nommée`) and words that are no noun (`un peu fatigué`)
_NOT_HEAD = frozenset(
    "fois année jour mois an lendemain veille soir matin nuit semaine saison peu tel telle "
    "même plus moins tout toute".split()
)


def drop_work_participles(s: Sentence, plan: Plan) -> None:
    """Take back, in place, the participle of a work's passive (`il a été diffusé`) whose
    pronoun is left as it is."""
    for i, w in enumerate(s.low):
        if w in ("il", "elle") and i not in plan:
            k = work_pronoun(s, i)
            if k is not None:
                plan.pop(k, None)


def drop_noun_agreement(d: str, s: Sentence, plan: Plan) -> None:
    """Take back, in place, an adjective or participle right after an unchanged noun (one
    unchanged adjective may come between) whose unchanged article shows that noun's gender,
    the gender of the source word: it agrees with that noun, not with the person (`une série
    dramatique reconnue`, `le petit chien adoré`)."""
    low, toks = s.low, s.toks
    arts = _GENDERED.get(d, ())
    for i in sorted(plan):
        if plan.get(i, (0,))[0] != 1 or i < 2 or not toks[i].isalpha() or not toks[i].islower():
            continue
        t = plan[i][1]
        if len(t) != 1 or low[i] in _DETS:
            continue
        if not _same_stem(low[i], t[0]):
            # an adjective that is also a person noun (`religieuse`, `religieux`)
            if low[i].endswith(("euse", "euses", "eux")) and _adjective_after_noun(s, i, plan):
                del plan[i]  # `une signification religieuse` is no `moine`
            continue  # another noun (`le marathon hommes`): not agreement
        if _before_unchanged_noun(s, i, plan, arts):
            del plan[i]  # `un très mauvais langage`: it agrees with the noun after it
            continue
        j = i - 1
        while j > 0 and low[j] in ("très", "si", "plus", "moins", "assez", "trop", "fort"):
            j -= 1  # `un film très mauvais`
        words = 0
        while j >= 0 and words < 3:
            w = low[j]
            if j in plan or s.gap_after(j) != " " or not toks[j].isalpha():
                break
            if w in arts:
                if words and (j == 0 or low[j - 1] not in ("tout", "toute")):
                    del plan[i]
                break
            if not toks[j].islower() or w in _NOT_HEAD or w in _DETS or w in _PREP:
                break
            if w in _ADVERBS or w in _COPULA or w in _AVOIR or w in _SUBJECT_WORDS:
                break
            if w in ("été", "et", "ou", "mais", "où", "dont", "se", "s'", "y", "en", "ne"):
                break
            words += 1
            j -= 1


#: words between an article and a noun that leave that noun the person's (`ses propres filles`)
_PRE_MORE = frozenset("propres nombreuses nombreux quelques plusieurs certaines certains".split())


def _adjective_after_noun(s: Sentence, i: int, plan: Plan) -> bool:
    """The word at ``i`` follows an unchanged common noun right after its article (`une
    signification religieuse`, `la vie religieuse`): an adjective of that noun, not a person
    noun of its own (`le roi père`: the noun before is changed)."""
    low, toks = s.low, s.toks
    j = i - 1
    if j < 1 or j in plan or (j - 1) in plan or not toks[j].isalpha() or not toks[j].islower():
        return False
    if s.gap_after(j) != " " or s.gap_after(j - 1) not in (" ", ""):
        return False
    w = low[j]
    if w in _PRE_F2M or w in _PRE_M2F or w in _PRE_MORE or w in _NOT_HEAD or len(w) < 3:
        return False
    if w in _PREP or w in _DETS or w in _ADVERBS or w in _SUBJECT_WORDS or w in _POSSESSIVE:
        return False
    art = low[j - 1]
    return art in _DETS or art in _POSSESSIVE or art in ("ce", "cet", "cette", "ces")


def _same_stem(a: str, b: str) -> bool:
    """``a`` and ``b`` are two forms of one adjective (`reconnue`/`reconnu`, `actif`/`active`)."""
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return k >= 3 and k >= min(len(a), len(b)) - 3


#: passive participles whose subject is a work, never a person (`il a été diffusé`)
_WORK_PASSIVE = frozenset(
    "diffusé rediffusé édité réédité traduit commercialisé imprimé tourné illustré "
    "enregistré".split()
)
_WORK_FORMS = frozenset(p + e for p in _WORK_PASSIVE for e in ("", "e", "s", "es"))


def work_pronoun(s: Sentence, i: int) -> int | None:
    """The pronoun `il`/`elle` at ``i`` is the subject of a passive that only a work takes
    (`il a été diffusé`, `elle fut rééditée`): the index of that participle, else None."""
    low = s.low
    n = len(low)
    k = i + 1
    while k < n and low[k] in ("ne", "n'"):
        k += 1
    if k < n and low[k] in ("a", "avait", "aurait", "aura"):
        k += 1
        if k >= n or low[k] != "été":
            return None
    elif k >= n or low[k] not in ("fut", "est", "était", "sera", "serait", "fût"):
        return None
    k += 1
    if k < n and low[k] == "été":
        k += 1
    while k < n and low[k] in _ADVERBS:
        k += 1
    return k if k < n and low[k] in _WORK_FORMS else None


def _before_unchanged_noun(s: Sentence, i: int, plan: Plan, arts: tuple[str, ...]) -> bool:
    """The adjective at ``i`` stands between an unchanged article that shows the source gender
    (adverbs between) and an unchanged noun: `un très mauvais langage`."""
    low, toks = s.low, s.toks
    n = len(low)
    nxt = i + 1
    if nxt >= n or nxt in plan or s.gap_after(i) != " " or not toks[nxt].isalpha():
        return False
    if not toks[nxt].islower() or low[nxt] in _PREP or low[nxt] in _DETS:
        return False
    j = i - 1
    while j >= 0 and low[j] in ("très", "si", "plus", "moins", "assez", "trop", "fort"):
        j -= 1
    return (
        j >= 0
        and low[j] in arts
        and j not in plan
        and all(s.gap_after(t) == " " for t in range(j, i))
    )


def drop_stranded_modifiers(s: Sentence, plan: Plan) -> None:
    """Take back, in place, a changed adjective before an unchanged noun that is no person
    noun of both genders, with its changed article: it agrees with that noun (`les premières
    pluies`, `la meilleure façon`, `la mauvaise direction`), not with the person (`la première
    artiste` → `le premier artiste` stays)."""
    low, toks = s.low, s.toks
    n = len(low)
    for i in sorted(plan):
        if i not in plan or i + 1 >= n or (i + 1) in plan or s.gap_after(i) != " ":
            continue
        ln, t = plan[i]
        nxt = low[i + 1]
        if ln != 1 or len(t) != 1 or not toks[i].islower() or not toks[i + 1].isalpha():
            continue
        if not (low[i] in _PRE_F2M or low[i] in _PRE_M2F) or low[i] in ("même", "autre"):
            continue
        if not toks[i + 1].islower() or nxt in _PREP or nxt in _DETS or len(nxt) < 3:
            continue
        if _person_of_both(nxt) or nxt in _SUBJECT_WORDS:
            continue
        del plan[i]
        j = i - 1
        while j >= 0 and low[j] in ("très", "si", "plus", "moins") and s.gap_after(j) == " ":
            j -= 1
        article = j >= 0 and (low[j] in _DETS or low[j] in _POSSESSIVE)
        if article and j in plan and s.gap_after(j) in (" ", ""):
            del plan[j]


def _person_of_both(w: str) -> bool:
    """A person noun of both genders (`artiste`, `membres`), told by its article only."""
    stem = w[:-1] if w.endswith("s") and len(w) > 4 else w
    if stem in _ONE_GENDER:
        return False
    return stem in _EPICENE or stem in _EPICENE_MORE or stem.endswith(_EPICENE_ENDINGS)
