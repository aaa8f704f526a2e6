"""Infer a person's gender from the third-person pronouns of their biography.

GeBioToolkit (Costa-jussà, Lin and España-Bonet, *GeBioToolkit: Automatic Extraction of
Gender-Balanced Multilingual Corpus of Wikipedia Biographies*, LREC 2020) takes a person's
gender from Wikidata and, where Wikidata gives none, from the gendered pronouns of the person's
article: a biography of a woman says *she*/*her*, one of a man *he*/*his*. This module is that
method, with the decision rule and the per-language word lists made explicit; the thresholds and
tables are occbio's own (measured in ``benchmarks/pronoun_gender.py``), not the paper's.

Pure logic, no I/O: plain text in (turn wikitext into prose first, e.g. with
:func:`occbio.extract.wikitext.wikitext_to_text`: templates and references hold no
pronouns of the person but many names), a decision out.

Counting (:func:`count_pronouns`)
    The text is NFC-normalised and cut into words at every character that is not a letter
    (combining accents and the Catalan middle dot of ``l·l`` stay inside a word), so
    apostrophes and hyphens separate words: ``qu'elle``, ``d'ell``, ``a-t-il``,
    ``lui-même``, ``she's``. Words are compared lower-cased, whole words only. A few words
    are counted only in some contexts (French *il* not when impersonal, French *lui* only
    when stressed, German capitalised *Sie*/*Ihr* not when formal *you*): see the notes on
    each table below.

Deciding (:func:`infer_gender`)
    ``female`` when the female count is at least ``min_count``, at least ``margin`` times
    the male count and more than it; ``male`` symmetrically; otherwise ``unknown``: a tie,
    too few pronouns or a language without gendered pronouns never yields a default gender.
    Every result carries its reason: ``pronouns`` (decided), ``too_few`` (neither count
    reaches ``min_count``), ``no_margin`` (enough pronouns, but the larger count is not
    ``margin`` times the smaller, or a tie), ``no_gendered_pronouns`` (the language has none,
    :data:`NO_GENDERED_PRONOUNS`) or ``no_table`` (occbio has no table for the language).

Combining (:func:`combine`)
    One person's articles in several languages: the counts of the languages that have a
    table are summed and the rule above is applied to the sums.

What pronoun counts cannot do: tell non-binary people apart (English *they* is also plural;
such articles come out ``unknown`` or, where they quote gendered pronouns, wrong), or see past
grammatical gender (French *il*, German *er*, Russian *он* also stand for masculine nouns,
*elle*/*sie*/*она* for feminine ones) and people named in the article other than its subject.
The margin is there for those.

Measured (``benchmarks/pronoun_gender.py``): no wrong decision at the defaults on 70 real
biographies (en, de, af, uk) nor on the bundled sample. Spanish, Catalan and Italian are
pro-drop: their articles rarely hold a subject pronoun, so they are seldom decided alone
(the sample's es/ca articles never are); :func:`combine` with the person's other languages
is the way to use them. The nl and pl tables were checked on Tatoeba sentence pairs only, the
sv, da, no and nn tables on hand-written sentences only.

Tables (words; what is left out and why)
    ``en``: she her hers herself / he him his himself.
    ``es``: ella / él. Left out: ``el`` (the article; only accented *él* is the pronoun),
    ``lo``/``la`` (clitics, but also articles), ``le``/``se``/``su``/``suyo`` (not gendered
    for the person: *le* is to him *or* her, *suyo/suya* agree with the thing owned), plurals
    ``ellos``/``ellas``, demonstratives.
    ``ca``: ella / ell (also ``d'ella``, ``d'ell``). Left out: clitics ``el``/``la``/``l'``/
    ``lo`` (articles too), ``li``/``hi`` (not gendered), ``seu``/``seva`` (agree with the
    thing owned), plurals ``ells``/``elles``.
    ``fr``: elle / il (and *lui* as a stressed pronoun, see below). Left out: ``lui`` as an
    indirect object (*on lui décerne le prix* is to him *or* her: counted only in
    *lui-même*, after a preposition and not before an infinitive, or as a subject
    (*lui aussi*, *lui seul*)), ``le``/``la`` (articles too), ``son``/``sa``/``ses`` (agree
    with the thing owned), plurals ``ils``/``elles``. Impersonal *il* is not counted: *il y
    a*, *il n'y a*, *y a-t-il*, *il faut*, *il s'agit*, *il existe*, *il semble*, *il
    suffit*, *il convient*, *il est possible de/que* and the like.
    ``de``: sie ihr ihre ihrem ihren ihrer ihres / er ihm ihn seine seinem seinen seiner
    seines. Left out: ``sein`` (also the verb *to be*), ``ihnen`` (them), ``dessen``/
    ``deren`` (relatives). A capitalised *Sie*/*Ihr...* inside a sentence is the formal *you*
    and is not counted. *sie* and *ihr...* are also *they*/*their*: German has no
    unambiguous female pronoun, so plural references add to the female count (the margin
    absorbs it on the biographies measured; see the benchmark).
    ``it``: lei ella / lui egli. Left out: ``lo``/``la``/``gli``/``le`` (clitics, also
    articles), ``esso``/``essa`` (mostly *it*), ``suo``/``sua`` (agree with the thing owned),
    ``loro`` (plural). *Lei* is also the formal *you*, rare in encyclopaedic text: counted.
    ``pt``: ela dela nela / ele dele nele. Left out: ``o``/``a`` (clitics, also articles),
    ``lhe`` (not gendered), ``seu``/``sua`` (agree with the thing owned), plurals.
    ``nl``: haar / hij hem. Left out: ``zij``/``ze`` (also *they*), ``zijn`` (also the verb
    *to be*), ``zich``. *haar* also means *hair* and stands for feminine nouns and bodies
    (*de partij en haar leden*): counted.
    ``af``: haar / hy hom. Left out: ``sy`` (both *she* and *his*), ``hulle``.
    ``sv``: hon henne hennes / han honom hans. ``da``: hun hende hendes / han ham hans.
    ``no`` (bokmål; ``nb`` too): hun henne hennes / han ham hans. ``nn``: ho henne hennar
    hennes / han honom hans (nynorsk also uses *han*/*ho* for masculine/feminine nouns).
    ``pl``: ona jej niej nią ją / on jego go niego jemu mu niemu. Left out: ``nim`` (also
    *before*, and neuter), plurals.
    ``ru``: она её ее ей неё нее ней нею ею / он его ему него нему нём нем. Left out: ``им``
    and ``ним`` (him *or* them), plurals. ``uk``: вона її їй неї ній нею / він його йому
    нього ньому. Left out: ``ним``/``їм`` (him/them ambiguity and plural), plurals.
    ``simple`` (Simple English Wikipedia) uses the English table.

Languages without a table although they have gendered pronouns (``no_table``): Arabic,
Hebrew (pronouns are mostly suffixes and prefixed forms that whole-word counting misses),
Chinese and Japanese (他/她, 彼/彼女 exist in writing but text is not cut into words here),
Vietnamese (kinship terms, not pronouns), Greek, Czech and the rest: not written for want of
text to check them on.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from occbio.gender.categories import FEMALE, MALE, UNKNOWN

__all__ = [
    "PRONOUNS",
    "NO_GENDERED_PRONOUNS",
    "LANG_ALIASES",
    "REASONS",
    "PronounEvidence",
    "count_pronouns",
    "infer_gender",
    "combine",
]

# Reasons (stable strings: callers count them).
DECIDED = "pronouns"
TOO_FEW = "too_few"
NO_MARGIN = "no_margin"
NO_GENDERED = "no_gendered_pronouns"
NO_TABLE = "no_table"
#: Every reason a :class:`PronounEvidence` can carry.
REASONS: tuple[str, ...] = (DECIDED, TOO_FEW, NO_MARGIN, NO_GENDERED, NO_TABLE)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Third-person pronouns that name the gender of a person, per Wikipedia language code:
#: ``{lang: {"female": words, "male": words}}``, lower case, NFC. The module doc says what each
#: table leaves out and why; a few words are counted only in some contexts (French *il* and
#: *lui*, German capitalised *Sie*/*Ihr*).
PRONOUNS: dict[str, dict[str, frozenset[str]]] = {
    "en": {FEMALE: _words("she her hers herself"), MALE: _words("he him his himself")},
    "es": {FEMALE: _words("ella"), MALE: _words("él")},
    "ca": {FEMALE: _words("ella"), MALE: _words("ell")},
    "fr": {FEMALE: _words("elle"), MALE: _words("il lui")},
    "de": {
        FEMALE: _words("sie ihr ihre ihrem ihren ihrer ihres"),
        MALE: _words("er ihm ihn seine seinem seinen seiner seines"),
    },
    "it": {FEMALE: _words("lei ella"), MALE: _words("lui egli")},
    "pt": {FEMALE: _words("ela dela nela"), MALE: _words("ele dele nele")},
    "nl": {FEMALE: _words("haar"), MALE: _words("hij hem")},
    "af": {FEMALE: _words("haar"), MALE: _words("hy hom")},
    "sv": {FEMALE: _words("hon henne hennes"), MALE: _words("han honom hans")},
    "da": {FEMALE: _words("hun hende hendes"), MALE: _words("han ham hans")},
    "no": {FEMALE: _words("hun henne hennes"), MALE: _words("han ham hans")},
    "nn": {FEMALE: _words("ho henne hennar hennes"), MALE: _words("han honom hans")},
    "pl": {FEMALE: _words("ona jej niej nią ją"), MALE: _words("on jego go niego jemu mu niemu")},
    "ru": {
        FEMALE: _words("она её ее ей неё нее ней нею ею"),
        MALE: _words("он его ему него нему нём нем"),
    },
    "uk": {FEMALE: _words("вона її їй неї ній нею"), MALE: _words("він його йому нього ньому")},
}

#: Other codes that read with another code's table.
LANG_ALIASES: dict[str, str] = {"simple": "en", "nb": "no"}

#: Languages whose third-person pronouns do not mark gender in writing (gender, where marked at
#: all, is on verbs or nouns): their articles always infer ``unknown`` (``no_gendered_pronouns``).
NO_GENDERED_PRONOUNS: frozenset[str] = _words(
    # Uralic: fi hän, et tema/ta, hu ő, Northern Sami son
    "fi et hu se "
    # Turkic: tr/az o, kk/ky/tt/ba ол/ул, uz u, tk ol
    "tr az kk ky tt ba uz tk "
    # Iranian and Indo-Aryan: fa/ur او/وہ, hi वह, bn সে (gender on verbs in hi/ur, not pronouns)
    "fa hi ur bn "
    # Austronesian: id/ms dia, jv, su, tl/ceb/war siya/siya/hiya, mg izy
    "id ms jv su tl ceb war mg "
    # Others: eu hura, ka ის, hy նա, sw yeye, yo ó, ig ọ, mn тэр, qu pay
    "eu ka hy sw yo ig mn qu"
)


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


# ---------------------------------------------------------------------------------------------
# Counting and deciding


@dataclass(frozen=True)
class PronounEvidence:
    """What the pronouns of one text (or several, see :func:`combine`) say about a person.

    ``female``/``male`` are the counts, ``category`` is ``female``, ``male`` or ``unknown``
    (:mod:`occbio.gender.categories`), ``reason`` one of :data:`REASONS`. ``lang`` is the
    language code, ``+``-joined for combined evidence.
    """

    lang: str
    female: int
    male: int
    category: str
    reason: str


def _table_lang(lang: str) -> str:
    code = lang.strip().lower().replace("_", "-")
    return LANG_ALIASES.get(code, code)


def count_pronouns(text: str, lang: str) -> tuple[int, int]:
    """``(female, male)``: how many of ``lang``'s gendered pronouns ``text`` holds.

    Whole words, case-insensitive, after NFC normalisation; apostrophes and hyphens separate
    words (``qu'elle`` holds *elle*). Contextual exclusions (French impersonal *il* and
    indirect-object *lui*, German formal *Sie*) are applied. A language without a table
    (:data:`NO_GENDERED_PRONOUNS` or unknown) gives ``(0, 0)``.

    >>> count_pronouns("She said he had lent her his car.", "en")
    (2, 2)
    >>> count_pronouns("Il y a un an, il a dit qu'elle viendrait.", "fr")
    (1, 1)
    """
    code = _table_lang(lang)
    table = PRONOUNS.get(code)
    if table is None:
        return 0, 0
    female_words, male_words = table[FEMALE], table[MALE]
    skip = _SKIPS.get(code)
    words = _tokenise(text)
    nfc = unicodedata.normalize("NFC", text) if skip is not None else text
    female = male = 0
    for i, word in enumerate(words):
        is_female = word.low in female_words
        if not is_female and word.low not in male_words:
            continue
        if skip is not None and skip(words, i, nfc):
            continue
        if is_female:
            female += 1
        else:
            male += 1
    return female, male


def _check(min_count: int, margin: float) -> None:
    if min_count < 1:
        raise ValueError(f"min_count must be at least 1, not {min_count}")
    if margin < 1.0:
        raise ValueError(f"margin must be at least 1.0, not {margin}")


def _decide(female: int, male: int, min_count: int, margin: float) -> tuple[str, str]:
    if female > male and female >= min_count and female >= margin * male:
        return FEMALE, DECIDED
    if male > female and male >= min_count and male >= margin * female:
        return MALE, DECIDED
    if max(female, male) < min_count:
        return UNKNOWN, TOO_FEW
    return UNKNOWN, NO_MARGIN


def _no_table_reason(code: str) -> str | None:
    if code in PRONOUNS:
        return None
    return NO_GENDERED if code in NO_GENDERED_PRONOUNS else NO_TABLE


def infer_gender(
    text: str, lang: str, *, min_count: int = 3, margin: float = 2.0
) -> PronounEvidence:
    """Decide a person's gender from the pronouns of one article (GeBioToolkit's method).

    ``female`` when the female count is at least ``min_count`` and at least ``margin`` times
    the male count (and more than it); ``male`` symmetrically; otherwise ``unknown`` with
    reason ``too_few`` (neither count reaches ``min_count``) or ``no_margin``. A language
    without gendered pronouns gives ``no_gendered_pronouns``, one without a table
    ``no_table``. Never a default gender. Raises ``ValueError`` for ``min_count < 1`` or
    ``margin < 1``.

    >>> infer_gender("She was born in Lyon. Her mother taught her Latin.", "en")
    PronounEvidence(lang='en', female=3, male=0, category='female', reason='pronouns')
    """
    _check(min_count, margin)
    code = _table_lang(lang)
    reason = _no_table_reason(code)
    if reason is not None:
        return PronounEvidence(code, 0, 0, UNKNOWN, reason)
    female, male = count_pronouns(text, code)
    category, reason = _decide(female, male, min_count, margin)
    return PronounEvidence(code, female, male, category, reason)


def combine(
    evidence: Sequence[PronounEvidence], *, min_count: int = 3, margin: float = 2.0
) -> PronounEvidence:
    """One decision from a person's articles in several languages.

    The counts of the evidence whose language has a table are summed and decided on as in
    :func:`infer_gender`; ``lang`` is their codes joined by ``+`` (``"en+es"``). When none has
    a table the result is ``unknown`` with ``no_gendered_pronouns`` if one of them is such a
    language, else ``no_table``; no evidence at all is ``unknown``/``too_few`` with lang ``""``.
    """
    _check(min_count, margin)
    counted = [e for e in evidence if e.reason not in (NO_GENDERED, NO_TABLE)]
    if not counted:
        langs = "+".join(dict.fromkeys(e.lang for e in evidence))
        if not evidence:
            return PronounEvidence("", 0, 0, UNKNOWN, TOO_FEW)
        reason = NO_GENDERED if any(e.reason == NO_GENDERED for e in evidence) else NO_TABLE
        return PronounEvidence(langs, 0, 0, UNKNOWN, reason)
    female = sum(e.female for e in counted)
    male = sum(e.male for e in counted)
    category, reason = _decide(female, male, min_count, margin)
    langs = "+".join(dict.fromkeys(e.lang for e in counted))
    return PronounEvidence(langs, female, male, category, reason)
