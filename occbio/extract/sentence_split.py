"""Sentence splitting: sentencex, then a small per-language repair layer.

:func:`split_sentences` is the second step of cleaning (after
:func:`~occbio.extract.asides.remove_asides`, before the filters of
:func:`occbio.extract.clean.clean_article`). Its own module because the repair rules (titles,
initials, abbreviations before numbers, ordinals, missed breaks) are a job of their own.
Pure logic: sentencex is rule-based, so nothing is downloaded at run time. The choice
(sentencex plus a repair layer) is measured in ``benchmarks/splitters.py``.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

# --------------------------------------------------------------------------------------------
# Sentence splitting: sentencex, then a small per-language repair layer
# --------------------------------------------------------------------------------------------

#: Titles that always stand before a name, never at the end of a sentence; sentencex splits
#: after some of them (``Mn. Jacint``, ``St. Andrews`` in Catalan). English ``St.``, ``Jr.``,
#: ``Sr.`` also end sentences (``Main St.``, ``Clint Murchison Jr.``): sentencex decides those.
_TITLES_COMMON = frozenset(
    "Dr Dra Drs Dres Prof Profa Mr Mrs Ms Messrs Mme Mmes Mlle Mgr Mons Gen Gral Capt Lt Sgt "
    "Rev Excmo Excma Ilmo Ilma".split()
)
_TITLES: dict[str, frozenset[str]] = {
    "es": frozenset("Sr Sra Srta Sres Sras Dña Av Avda Pza Univ Lic Ing Arq Sto Sta St".split()),
    "ca": frozenset("Sr Sra Srta Sres Mn Hble Excm Excma Av Pl Univ St Sta Sto".split()),
    "gl": frozenset("Sr Sra Srta Av Univ St Sta Sto".split()),
    "pt": frozenset("Sr Sra Srta Exmo Exma Av Univ St Sta Sto".split()),
    "it": frozenset("Sig Sigg Dott Avv Ing On Geom Rag Arch St".split()),
    "fr": frozenset("M MM Me Mgr Pr Vve St Ste".split()),  # "M. Dupont" is "Monsieur"
    "de": frozenset("Hr Hrn Dipl Hl St".split()),
    "en": frozenset("Mt Gov Sen Rep Col".split()),
}
#: Abbreviations that stand before a number (``n. 1952``, ``c. 1850``, ``núm. 12``,
#: ``aprox. 2.000``): a break after one of them is false when the next piece starts with a digit.
_BEFORE_NUMBER = frozenset(
    """n m c ca cca b d fl r p pp pg pag pág pàg págs pàgs no nos nr núm nº num vol vols art
    arts fig figs tab cap kap ch chap sec ed tel aprox approx est op lib t tom col fol ff ss bd
    jg s sz anm jan feb mar apr jun jul aug sep sept oct nov dec ene abr ago dic set gen des
    """.split()
)
#: Languages that write ordinals as "19." (``im 19. Jahrhundert``, ``12. Runde``).
_ORDINAL_DOT_LANGS = frozenset("de da nb nn no is fi et lv lt cs sk sl hr bs sr hu pl tr".split())
#: Words that cannot follow an ordinal inside a sentence (an ordinal stands before its noun),
#: so "Platz 88. Sie wuchs ..." is two sentences, unlike "im 19. Jahrhundert".
_NOT_AFTER_ORDINAL: dict[str, frozenset[str]] = {
    "de": frozenset(
        """Sie Er Es Ich Wir Ihr Man Die Der Das Den Dem Des Ein Eine Einer Im In Am An Auf Aus
        Bei Mit Nach Von Vor Zu Zum Zur Ab Als Bis Da Dann Danach Dort Doch Seit Später Nachdem
        Obwohl Während Wie Wo Ihre Sein Seine Diese Dieser Dieses Dies Auch Noch So Und Aber
        Heute Damals""".split()
    ),
}
#: Ordinary words that sentencex's abbreviation lists hold (``art`` for "article", ``ill`` for
#: "illustrated", Spanish ``mar`` for "marzo", Italian ``fa`` ...): sentencex then joins "a work
#: of art. Hirst came ..." unless the next word is one of its usual sentence openers ("He",
#: "The"). Found on real text: the sentence-final words of MT-GenEval's Wikipedia sentences that
#: sentencex did not split before a name. Before a capitalised word they end the sentence; the
#: abbreviation stands before a number ("art. 5"), which the rule leaves alone.
#: Case matters: "Ill." and "Miss." are also US states ("Chicago, Ill.").
_WORDS_NOT_ABBREVIATIONS: dict[str, frozenset[str]] = {
    "en": frozenset("art Art arc ark fed ill miss ore".split()),
    "fr": frozenset(["art"]),
    "ca": frozenset("art mar".split()),
    "es": frozenset("mar bien".split()),
    "it": frozenset("mar mai fa re ali".split()),
    "de": frozenset(["Art"]),  # "dieser Art." (kind); "Art. 5 GG" stands before a number
}
#: Units written after a number ("400 m.", "5 kg.", "90 min."): "Elle remporte le 400 m. Elle
#: gagne ..." is two sentences, though a lone lower-case letter is otherwise an abbreviation.
_UNITS = frozenset(
    "m km cm mm µm nm g kg mg µg s ms min h l ml cl dl ha ft yd mi lb lbs oz mph kmh".split()
)
#: "J.-C." after "av." / "apr." is "Jésus-Christ" ("480 av. J.-C."), not the initials of a name.
_BEFORE_JESUS_CHRIST = frozenset("av apr avant après".split())
_HYPHENATED_INITIALS = re.compile(r"[^\W\d_]\.(?:-[^\W\d_]\.)+")
_NUMBER = re.compile(r"[\d.,]*\d")
#: A token that cannot stand before an initial: a number or a formula sign ("A = Z + N.").
_NOT_BEFORE_INITIAL = re.compile(r"[\d.,]*\d|[-+−=×*/<>≤≥±÷^·]+")
_NUMBER_BEFORE = re.compile(r"\d[\u00a0\u202f ]?$")
#: Single letters that are Roman numerals more often than initials (``World War I. He``).
_ROMAN_LETTERS = frozenset("IVX")
#: Characters that cannot begin a sentence: a piece starting with one continues the last.
_CONTINUATION = frozenset(",;:)]}%ºª…·")
_OPENERS = "\"'«“‘(¿¡["
_CANDIDATE_BREAK = re.compile(r"(?<=[.!?…])[\"'»”’)\]]*\s+")
#: "|" typed for the danda "।" in Devanagari text ("... दी| प्रतिभाशाली").
_DEVANAGARI_BAR = re.compile(r"(?<=[\u0900-\u097f\d])\s*\|\s+(?=[\u0900-\u097f\d])")
_LAST_TOKEN = re.compile(r"(\S+)\s*$")
_WORD_BEFORE_STOP = re.compile(r"([^\W\d_][\w.·'-]*)\.[\"'»”’)\]]*\s+$")


def _last_token(text: str) -> str:
    match = _LAST_TOKEN.search(text)
    return match.group(1).lstrip(_OPENERS) if match else ""


def _capitalised(text: str) -> bool:
    """True when ``text`` opens with a capitalised word ("Elle", "Hirst"), not "J." or "XIV"."""
    return len(text) > 1 and text[0].isupper() and text[1].islower()


def _is_initial(word: str, previous: str) -> bool:
    """True when the lone capital ``word`` (its full stop cut off) after ``previous`` is an initial.

    An initial stands after a name or the start of the text ("John F. Kennedy", "J. R. R."), or
    after a short particle ("de J. V. Foix", "i M. Àngels"); not after a lower-case word
    ("cromosoma Y.", "vitamina C."), a number ("100 N."), a formula sign ("A = Z + N.") or as
    a Roman numeral ("War I.").
    """
    if word in _ROMAN_LETTERS or _NOT_BEFORE_INITIAL.fullmatch(previous):
        return False
    return not (len(previous) >= 3 and previous.islower())


def _is_false_break(before: str, after: str, lang: str) -> bool:
    """True when sentencex split between ``before`` and ``after`` but the sentence goes on."""
    first = after[0]
    if first.islower() or first in _CONTINUATION:  # "etc. y teatro", "1.º", "Bitten?, Alfie"
        return True
    if first in "-\u2010\u2011" and not before[-1:].isspace():  # inside a word: "J." | "-C."
        return True
    token = _last_token(before)
    if not token.endswith(".") or token.endswith(".."):
        return False
    word = token[:-1]
    if word in _TITLES_COMMON or word in _TITLES.get(lang, ()):
        return True
    previous = _last_token(before.rstrip()[: -len(token)])
    if len(word) == 1 and word.isalpha():
        if word.islower():  # a one-letter abbreviation: "n. 1952", "c. 1850", "14 d. C."
            # ... but a unit after a number ends the sentence: "le 400 m. Elle gagne".
            return not (word in _UNITS and _NUMBER.fullmatch(previous) and _capitalised(after))
        return _is_initial(word, previous)
    if _HYPHENATED_INITIALS.fullmatch(token):  # "le skieur J.-C. Killy", "480 av. J.-C. Platon"
        return previous.rstrip(".") not in _BEFORE_JESUS_CHRIST and not (
            _NOT_BEFORE_INITIAL.fullmatch(previous)
        )
    if first.isdigit() and word.lower() in _BEFORE_NUMBER:
        return True
    return (
        lang in _ORDINAL_DOT_LANGS
        and first.isalpha()
        and word.isdigit()
        and len(word) <= 3
        and after.split(maxsplit=1)[0] not in _NOT_AFTER_ORDINAL.get(lang, ())
    )


def _is_missed_break(before: str, after: str, lang: str) -> bool:
    """True when a sentence ends inside a sentencex segment (``etc. El``, ``de la BBC. Tras``)."""
    match = _WORD_BEFORE_STOP.search(before)
    if match is None:
        return False
    word = match.group(1)
    nxt = after.lstrip(_OPENERS)
    if not nxt:
        return False
    first = nxt[0]
    capitalised = _capitalised(nxt)
    if word.lower() in ("etc", "&c"):
        return first.isupper()
    if capitalised and word in _UNITS and _NUMBER_BEFORE.search(before[: match.start(1)]):
        return True  # "He ran the 400 m. Hirst won ..."
    if capitalised and re.split("['’]", word)[-1] in _WORDS_NOT_ABBREVIATIONS.get(lang, ()):
        return True  # "a work of art. Hirst", "l'art. Hirst"
    if word == "no":  # Spanish/Catalan/Italian "no." is a word, not "número", before a name
        return capitalised
    if word.isupper() and word.isalpha() and len(word) >= 2:  # "BBC.", "XIX.", "UU."
        return capitalised
    # A sentence that opens with a number ("1914 ging sie ..."), after an ordinary word.
    return (
        first.isdigit()
        and len(word) >= 3
        and word.isalpha()
        and word.lower() not in _BEFORE_NUMBER
        and word not in _TITLES_COMMON
    )


def _split_missed(segment: str, lang: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for match in _CANDIDATE_BREAK.finditer(segment):
        if _is_missed_break(segment[start : match.end()], segment[match.end() :], lang):
            pieces.append(segment[start : match.end()].strip())
            start = match.end()
    pieces.append(segment[start:].strip())
    return [p for p in pieces if p]


def split_sentences(text: str, lang: str) -> list[str]:
    """Split plain text into sentences for ``lang`` (a Wikipedia language code).

    sentencex (rule-based, every Wikipedia language, no model) does the splitting; a thin layer
    then repairs what it gets wrong on biographies, measured in ``benchmarks/splitters.py``:
    it joins pieces after titles, initials, ``n.``/``c.`` before a year, ordinals (``1.º``,
    German ``19.``), inside ``J.-C.`` and before lower-case continuations, and splits after
    ``etc.``, acronyms, units after a number (``400 m.``), ordinary words sentencex takes for
    abbreviations (``art.``) and before sentences that open with a number. A line break always
    ends a sentence (headings and list items stand on their own lines).
    """
    from sentencex import segment

    sentences: list[str] = []
    for line in text.split("\n"):
        line = _DEVANAGARI_BAR.sub("|\n", line.strip())
        for part in line.split("\n"):
            if not part.strip():
                continue
            # sentencex's pieces keep their trailing spaces, so joining them restores the text.
            merged: list[str] = []
            for piece in segment(lang, part):
                if not piece.strip():
                    continue
                if merged and _is_false_break(merged[-1], piece.lstrip(), lang):
                    merged[-1] += piece
                else:
                    merged.append(piece)
            for sentence in merged:
                sentences.extend(_split_missed(sentence.strip(), lang))
    return sentences
