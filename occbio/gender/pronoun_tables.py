"""Per-language gendered pronoun tables for :mod:`occbio.gender.pronouns`.

Data only: which third-person words name a person's gender in each Wikipedia language
(:data:`PRONOUNS`), which codes read with another code's table (:data:`LANG_ALIASES`) and which
languages have no gendered pronouns at all (:data:`NO_GENDERED_PRONOUNS`). Kept apart from the
counting and decision logic in :mod:`occbio.gender.pronouns` so that adding or checking a
language touches the word lists and their notes only; the words counted only in some contexts
(French *il*/*lui*, German *Sie*/*Ihr*) are handled in :mod:`occbio.gender.pronoun_context`.

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

from occbio.gender.categories import FEMALE, MALE

__all__ = ["PRONOUNS", "NO_GENDERED_PRONOUNS", "LANG_ALIASES"]


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
