"""Words in context: tokenising text and the context rules of the pronoun count.

:func:`_tokenise` cuts NFC text into words as :func:`occbio.gender.pronouns.count_pronouns`
counts them (see its module doc); :data:`_SKIPS` holds, per language, the rule that tells when
a word of the table (:mod:`occbio.gender.pronoun_tables`) is not a pronoun of the person:
French impersonal *il* and indirect-object *lui*, German formal *Sie*/*Ihr*. Kept apart from
the counting and decision logic because these rules are the bulk of the code and grow one
language at a time; private to :mod:`occbio.gender.pronouns`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from occbio.gender.pronoun_tables import _words

# ---------------------------------------------------------------------------------------------
# Words in context


@dataclass(frozen=True, slots=True)
class _Word:
    text: str  # as written
    low: str  # lower case
    start: int  # offset in the (NFC) text


# Letters, with combining accents and the Catalan middle dot (col·legi) inside a word; every
# other character (space, digit, punctuation, apostrophe, hyphen) ends a word.
_LETTER = r"(?:[^\W\d_]|[\u0300-\u036f])"
_WORD_RE = re.compile(rf"{_LETTER}+(?:[·\u0140]{_LETTER}+)*")


def _tokenise(text: str) -> list[_Word]:
    text = unicodedata.normalize("NFC", text)
    return [_Word(m.group(), m.group().lower(), m.start()) for m in _WORD_RE.finditer(text)]


def _at(words: Sequence[_Word], i: int) -> str:
    return words[i].low if 0 <= i < len(words) else ""


# French impersonal il ("il y a", "il faut", "il s'agit", "il est possible de", "il fut
# annoncé que"): the verb, adjective or participle after it shows that it stands for nothing.
_FR_IMPERSONAL_VERBS = _words(
    "faut fallait fallut faudra faudrait fallu pleut pleuvait pleuvra neige "
    "existe existait exista existera existerait existent "
    "semble semblait sembla semblerait suffit suffisait suffira suffirait "
    "importe importait convient convenait conviendrait "
    "paraît parait paraissait parut advient advint"
)
_FR_AGIR = _words("agit agissait agira agirait agissant")
_FR_AVOIR = _words("a avait eut aura aurait ait eût")
_FR_ETRE = _words("est était fut sera serait soit")
_FR_IMPERSONAL_ADJ = _words(
    "possible impossible probable improbable difficile facile nécessaire important essentiel "
    "indispensable évident clair certain vrai utile inutile intéressant rare fréquent courant "
    "habituel inhabituel interdit permis dommage préférable normal logique naturel crucial "
    "temps question coutume tradition usage règle"
)
_FR_IMPERSONAL_PARTICIPLES = _words(
    "dit annoncé décidé estimé révélé rapporté prévu convenu signalé affirmé établi admis "
    "noté précisé indiqué proposé suggéré demandé"
)
# Common past participles not ending in -é ("il y a vécu"); "eu" is left out: "il y a eu" is
# "there has been".
_FR_PARTICIPLES = _words(
    "fait dit pris mis écrit vécu produit construit vu reçu connu ouvert offert peint "
    "appris obtenu tenu venu joué"
)
_FR_ADVERBS = _words("donc alors aussi bien très peu plus pas toutefois cependant de")
# Object clitics that may stand between il and its verb ("il lui a fallu").
_FR_PREVERBAL = _words("n ne lui leur me m te t l en")
_FR_PREPOSITIONS = _words(
    "à de d avec pour par sans chez contre entre envers sur sous vers après avant comme selon "
    "malgré derrière devant auprès autour près"
)
_FR_CLITICS = _words("en y le la l les me m te t se s")
_FR_STRESSED_AFTER = _words("même aussi seul non ni")


def _fr_il_is_impersonal(words: Sequence[_Word], i: int) -> bool:
    # after the verb: "faut-il", "y a-t-il"
    j = i - 1
    if _at(words, j) == "t":
        j -= 1
    if _at(words, j) in _FR_IMPERSONAL_VERBS:
        return True
    if _at(words, j) in _FR_AVOIR and _at(words, j - 1) == "y":
        return True
    # before the verb: "il (n') y a", "il (ne) faut", "il s'agit", "il lui a fallu"
    k = i + 1
    if _at(words, k) in ("n", "ne") and _at(words, k + 1) == "y":
        k += 1
    if _at(words, k) == "y":
        # "il y a un musée" (there is) but "il y a vécu" (he lived there)
        return _at(words, k + 1) in _FR_AVOIR and not _looks_participle(_at(words, k + 2))
    if _at(words, k) in ("s", "se"):
        return _at(words, k + 1) in _FR_AGIR
    while _at(words, k) in _FR_PREVERBAL:
        k += 1
    verb = _at(words, k)
    if verb in _FR_IMPERSONAL_VERBS:
        return True
    if verb in _FR_AVOIR:
        k += 1
        if _at(words, k) == "fallu":
            return True
        if _at(words, k) != "été":
            return False
    elif verb not in _FR_ETRE:
        return False
    # "il est possible de/que", "il était donc évident que", "il était de coutume",
    # "il fut annoncé que", "il a été décidé que"
    k += 1
    while _at(words, k) in _FR_ADVERBS:
        k += 1
    attribute = _at(words, k)
    if attribute in _FR_IMPERSONAL_ADJ:
        return True
    return attribute in _FR_IMPERSONAL_PARTICIPLES and _at(words, k + 1) in ("que", "qu", "à")


def _looks_participle(word: str) -> bool:
    return word.endswith(("é", "ée", "és", "ées")) or word in _FR_PARTICIPLES


def _looks_infinitive(word: str) -> bool:
    return len(word) > 3 and word.endswith(("er", "ir", "re", "oir"))


def _fr_lui_is_dative(words: Sequence[_Word], i: int, text: str) -> bool:
    if _at(words, i + 1) in _FR_STRESSED_AFTER:
        return False  # lui-même, lui aussi, lui seul: stressed, him
    if _at(words, i - 1) in _FR_PREPOSITIONS and _only_space_between(words, i - 1, i, text):
        # "avec lui" is him; "pour lui rendre hommage", "de lui confier" are to him/her
        nxt = _at(words, i + 1)
        return _looks_infinitive(nxt) or nxt in _FR_CLITICS
    return True  # "on lui décerne", "il lui succède": to him or to her


def _only_space_between(words: Sequence[_Word], a: int, b: int, text: str) -> bool:
    end = words[a].start + len(words[a].text)
    return not text[end : words[b].start].strip()


def _fr_skip(words: Sequence[_Word], i: int, text: str) -> bool:
    low = words[i].low
    if low == "il":
        return _fr_il_is_impersonal(words, i)
    if low == "lui":
        return _fr_lui_is_dative(words, i, text)
    return False


# German: a capitalised Sie / Ihr... inside a sentence is the formal "you"/"your".
_SENTENCE_OPENERS = ".!?:;…\n"
_DE_FORMAL = _words("sie ihr ihre ihrem ihren ihrer ihres")


def _de_skip(words: Sequence[_Word], i: int, text: str) -> bool:
    word = words[i]
    if word.low not in _DE_FORMAL or not word.text[:1].isupper():
        return False
    before = text[: word.start].rstrip(" \t\"'„“”«»‚‘’()[]–—-")
    return bool(before) and before[-1] not in _SENTENCE_OPENERS


_Skip = Callable[[Sequence[_Word], int, str], bool]
_SKIPS: dict[str, _Skip] = {"fr": _fr_skip, "de": _de_skip}
