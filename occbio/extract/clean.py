"""Cleaning: from an article's plain text to the sentences worth aligning.

Per paragraph: :func:`remove_asides` (brackets, footnote marks, whitespace), then
:func:`split_sentences`, then per sentence the filters of :func:`clean_article` (length, final
punctuation, language, duplicates). Every drop is counted under a reason key so that the run's
statistics funnel shows where sentences went.

Pure logic: no file or network I/O here. sentencex is rule-based and py3langid's model ships
inside its wheel, so nothing is downloaded at run time. The choices (sentencex plus a repair
layer; py3langid restricted to candidates) are measured in ``benchmarks/splitters.py`` and
``benchmarks/langid.py``.
"""

from __future__ import annotations

import functools
import logging
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from occbio.config import CleanConfig
from occbio.records import Article, Sentence

__all__ = [
    "STAT_KEYS",
    "DEFAULT_CANDIDATES",
    "DEFAULT_MIN_PROB",
    "LanguageIdentifier",
    "clean_article",
    "length_reason",
    "remove_asides",
    "split_sentences",
]

# --------------------------------------------------------------------------------------------
# Asides: parentheses, brackets, footnote marks
# --------------------------------------------------------------------------------------------

#: Innermost parenthesised aside (ASCII or full-width); content has no parenthesis of its own,
#: so repeated substitution peels nested asides from the inside out and an unmatched "(" is
#: never paired with anything: the text after it stays.
_PAREN = re.compile(r" *[(（][^()（）\n]*[)）]")
#: Innermost square-bracketed span (ASCII or full-width), with the character before it.
_BRACKET = re.compile(r"(^|.)[\[［]([^\[\]［］\n]*)[\]］]", re.MULTILINE)
#: Bracket content that is a footnote or maintenance mark rather than part of the sentence:
#: ``[1]``, ``[a]``, ``[iv]``, ``[nota 1]``, ``[note a]``, ``[n. 3]``, ``[sic]``, ``[…]``.
_FOOTNOTE_CONTENT = re.compile(
    r"""^\s*(?:
        \d+[a-z]?                                   # [1] [12b]
      | [A-Za-z]                                    # [a]
      | (?-i:[ivx]{1,5})                            # [iv]
      | [^\W\d_]{1,12}(?:\.\s*|\s+)(?:\d+|[a-z])     # [nota 1] [note a] [n. 3] [Anm. 2]
      | sic!?                                       # [sic]
      | (?:\.\.\.|…)                                # [...]
      | \s*                                         # []
    )\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
#: A bracket glued to the character before it is a footnote mark: ``word[1]``, ``end.[3]``,
#: ``claim[citation needed]``. An editorial insertion stands after a space or an opening quote:
#: ``right up [her] alley``, ``“[He] was``.
_GLUED_BEFORE = re.compile(r"[\w.,;:!?)\]”’»%]")
#: Superscript digits after punctuation are footnote marks (``end.³``); after a letter they are
#: usually units (``km²``) and stay.
_SUPERSCRIPT_NOTE = re.compile(r"(?<=[.,;:!?)\]\"”’»])[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SPACED_WORD = re.compile(r"[^\W_\u3040-\u30ff\u3400-\u9fff\u0e00-\u0e7f]")
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200e\u200f\u2060\ufeff]")
_SPACES = re.compile(r"[^\S\n]+")
_SPACE_BEFORE_PUNCT = re.compile(r" +(?=[,.;:!?)\]）])")
_SPACE_AFTER_OPEN = re.compile(r"(?<=[(\[（]) +")
#: Punctuation left doubled after an aside went: ``born ,,`` / ``Inc..`` / ``, .`` -- but never
#: an ellipsis (``...``).
_DOUBLE_COMMA = re.compile(r",(?:\s*,)+")
_COMMA_BEFORE_STOP = re.compile(r",\s*(?=[.;:!?])")
_DOUBLE_PERIOD = re.compile(r"(?<![.…])\.\s*\.(?![.…])")
_LEADING_PUNCT = re.compile(r"^[,;:]\s*", re.MULTILINE)


def _paren(match: re.Match[str]) -> str:
    # "word(aside)word" must not fuse into one word; a space only between letters or digits of
    # a spaced script (CJK text has no spaces to keep).
    text, start, end = match.string, match.start(), match.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if _SPACED_WORD.match(before) and _SPACED_WORD.match(after):
        return " "
    return ""


def _bracket(match: re.Match[str]) -> str:
    before, content = match.group(1), match.group(2)
    if _FOOTNOTE_CONTENT.match(content) or (before and _GLUED_BEFORE.match(before)):
        return before
    return before + content  # an editorial insertion is part of the sentence: keep its words


def remove_asides(text: str) -> str:
    """Remove parenthesised asides and footnote marks, then tidy whitespace and punctuation.

    Asides (dates, transliterations, pronunciations) differ between language editions and get
    in the way of alignment, so ``(...)`` and ``（...）`` go with their content, nested ones too.
    Square brackets go when they are footnote marks (``[1]``, ``[a]``, ``[nota 1]``,
    ``word[citation needed]``, ``[sic]``), and so do carets and superscript digits after
    punctuation (``^``, ``end.³``); an editorial insertion inside a quotation
    (``right up [her] alley``) keeps its words and loses only the brackets, so the sentence
    still reads. A bracket never spans a line break, and an opening bracket without its closing
    one is left as it is, so a stray ``(`` cannot swallow the rest of a paragraph.
    Paragraph breaks (``\\n\\n``) and line breaks are kept.
    """
    text = _INVISIBLE.sub("", text)
    text = _SPACES.sub(" ", text).replace("^", "")
    text = _SUPERSCRIPT_NOTE.sub("", text)
    while True:
        new = _BRACKET.sub(_bracket, _PAREN.sub(_paren, text))
        if new == text:
            break
        text = new
    text = _SPACES.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT.sub("", text)
    text = _SPACE_AFTER_OPEN.sub("", text)
    text = _DOUBLE_COMMA.sub(",", text)
    text = _COMMA_BEFORE_STOP.sub("", text)
    text = _DOUBLE_PERIOD.sub(".", text)
    text = _LEADING_PUNCT.sub("", text)
    return "\n".join(line.strip() for line in text.split("\n"))


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
    "fr": frozenset("MM Me Mgr Pr Vve St Ste".split()),
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


def _is_false_break(before: str, after: str, lang: str) -> bool:
    """True when sentencex split between ``before`` and ``after`` but the sentence goes on."""
    first = after[0]
    if first.islower() or first in _CONTINUATION:  # "etc. y teatro", "1.º", "Bitten?, Alfie"
        return True
    token = _last_token(before)
    if not token.endswith(".") or token.endswith(".."):
        return False
    word = token[:-1]
    if word in _TITLES_COMMON or word in _TITLES.get(lang, ()):
        return True
    if len(word) == 1 and word.isalpha():
        if word.islower():  # a one-letter abbreviation: "n. 1952", "c. 1850", "14 d. C."
            return True
        # An initial ("John F. Kennedy", "i M. Àngels Anglada") -- unless it follows a
        # lower-case word ("cromosoma Y.", "vitamina C.") or is a Roman numeral ("War I.").
        previous = _last_token(before.rstrip()[: -len(token)])
        return word not in _ROMAN_LETTERS and not (len(previous) >= 3 and previous.islower())
    if first.isdigit() and word.lower() in _BEFORE_NUMBER:
        return True
    return (
        lang in _ORDINAL_DOT_LANGS
        and first.isalpha()
        and word.isdigit()
        and len(word) <= 3
        and after.split(maxsplit=1)[0] not in _NOT_AFTER_ORDINAL.get(lang, ())
    )


def _is_missed_break(before: str, after: str) -> bool:
    """True when a sentence ends inside a sentencex segment (``etc. El``, ``de la BBC. Tras``)."""
    match = _WORD_BEFORE_STOP.search(before)
    if match is None:
        return False
    word = match.group(1)
    nxt = after.lstrip(_OPENERS)
    if not nxt:
        return False
    first = nxt[0]
    capitalised = first.isupper() and len(nxt) > 1 and nxt[1].islower()
    if word.lower() in ("etc", "&c"):
        return first.isupper()
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


def _split_missed(segment: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for match in _CANDIDATE_BREAK.finditer(segment):
        if _is_missed_break(segment[start : match.end()], segment[match.end() :]):
            pieces.append(segment[start : match.end()].strip())
            start = match.end()
    pieces.append(segment[start:].strip())
    return [p for p in pieces if p]


def split_sentences(text: str, lang: str) -> list[str]:
    """Split plain text into sentences for ``lang`` (a Wikipedia language code).

    sentencex (rule-based, every Wikipedia language, no model) does the splitting; a thin layer
    then repairs what it gets wrong on biographies, measured in ``benchmarks/splitters.py``:
    it joins pieces after titles, initials, ``n.``/``c.`` before a year, ordinals (``1.º``,
    German ``19.``) and before lower-case continuations, and splits after ``etc.``, acronyms and
    before sentences that open with a number. A line break always ends a sentence (headings and
    list items stand on their own lines).
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
                sentences.extend(_split_missed(sentence.strip()))
    return sentences


# --------------------------------------------------------------------------------------------
# Language identification
# --------------------------------------------------------------------------------------------

#: Languages always among the candidates besides the run's own: the big neighbours a stray
#: sentence is most often written in (quotations, titles, untranslated passages) and the
#: confusables of the common run languages (Catalan/Spanish/Portuguese/Italian/French ...).
DEFAULT_CANDIDATES: tuple[str, ...] = (
    "en", "es", "fr", "de", "it", "pt", "ca", "gl", "nl", "pl", "ru", "tr", "eu", "ar", "zh",
    "ja", "hi",
)  # fmt: skip
#: Keep a sentence whose own language has at least this probability even when another
#: candidate scores a little higher: short Catalan sentences often come out Spanish or
#: Portuguese. benchmarks/langid.py, Catalan article, Tatoeba sentences of 4+ words: best
#: guess only keeps 97.6% of Catalan; 0.2 keeps 99.4% and still drops 97.3% of the Spanish
#: and 100% of the English. The default lives in the configuration (clean.langid_min_prob).
DEFAULT_MIN_PROB: float = CleanConfig.model_fields["langid_min_prob"].default
#: Wikipedia codes whose language py3langid knows under another code.
_MODEL_ALIASES = {"simple": "en", "zh-yue": "yue", "be-tarask": "be"}
_HAS_LETTER = re.compile(r"[^\W\d_]")


class LanguageIdentifier:
    """Sentence language ID over a fixed candidate set (py3langid, model inside its wheel).

    Restricting the classifier to the run's languages plus :data:`DEFAULT_CANDIDATES` keeps it
    from answering with rare neighbours (Occitan, Aragonese, Extremaduran for Catalan and
    Spanish text), most of its error when unrestricted. Chosen over lingua by
    ``benchmarks/langid.py``: more accurate on short and long sentences alike, faster, a
    quarter of the memory, and it knows Galician and Occitan. The model loads on first use;
    :meth:`for_langs` shares one per candidate set.
    """

    def __init__(
        self,
        langs: Iterable[str],
        *,
        extra: Iterable[str] = DEFAULT_CANDIDATES,
        min_prob: float = DEFAULT_MIN_PROB,
    ) -> None:
        if not 0.0 <= min_prob <= 1.0:
            raise ValueError(f"min_prob must be between 0 and 1, got {min_prob!r}")
        self.min_prob = min_prob
        wanted = list(dict.fromkeys([*langs, *extra]))
        self.candidates = tuple(wanted)
        self._model: Any = None  # py3langid's LanguageIdentifier (untyped), built on first use
        self._labels: frozenset[str] = frozenset()

    def _load(self) -> Any:
        if self._model is None:
            import py3langid.langid as pl

            model = pl.LanguageIdentifier.from_model_file(pl.MODEL_FILE, norm_probs=True)
            codes = {_MODEL_ALIASES.get(c, c) for c in self.candidates}
            self._labels = frozenset(codes & set(model.nb_classes))
            model.set_languages(sorted(self._labels))
            self._model = model
        return self._model

    def supports(self, lang: str) -> bool:
        """Whether ``lang`` (a Wikipedia code) can be recognised: a candidate the model knows."""
        self._load()
        return lang in self.candidates and _MODEL_ALIASES.get(lang, lang) in self._labels

    def _code(self, label: str) -> str:
        if label in self.candidates:
            return label
        for wiki, model in _MODEL_ALIASES.items():
            if model == label and wiki in self.candidates:
                return wiki
        return label

    def detect(self, text: str) -> str | None:
        """The most likely candidate language of ``text``; ``None`` when it has no letters."""
        if not _HAS_LETTER.search(text):
            return None
        return self._code(self._load().classify(text)[0])

    def detect_batch(self, texts: Sequence[str]) -> list[str | None]:
        """:meth:`detect` for each text."""
        return [self.detect(t) for t in texts]

    def is_lang(self, texts: Sequence[str], lang: str) -> list[bool]:
        """For each text: may it be in ``lang``? (its best guess, or ``lang`` >= ``min_prob``).

        Text without letters is given the benefit of the doubt. Raises ``ValueError`` for a
        ``lang`` it does not :meth:`support <supports>` (every text would look foreign).
        """
        model = self._load()
        if not self.supports(lang):
            raise ValueError(f"language ID cannot check {lang!r}: see supports()")
        target = _MODEL_ALIASES.get(lang, lang)
        out = []
        for text in texts:
            if not _HAS_LETTER.search(text):
                out.append(True)
                continue
            ranked = model.rank(text)
            prob = dict(ranked).get(target, 0.0)
            out.append(ranked[0][0] == target or prob >= self.min_prob)
        return out

    @classmethod
    def for_langs(
        cls,
        langs: Iterable[str],
        *,
        extra: Iterable[str] = DEFAULT_CANDIDATES,
        min_prob: float = DEFAULT_MIN_PROB,
    ) -> LanguageIdentifier:
        """The shared identifier for a run's languages: one model load per candidate set."""
        return _shared_identifier(tuple(sorted(set(langs))), tuple(extra), min_prob)


@functools.lru_cache(maxsize=8)
def _shared_identifier(
    langs: tuple[str, ...], extra: tuple[str, ...], min_prob: float
) -> LanguageIdentifier:
    return LanguageIdentifier(langs, extra=extra, min_prob=min_prob)


# --------------------------------------------------------------------------------------------
# An article's text -> its sentences
# --------------------------------------------------------------------------------------------

logger = logging.getLogger(__name__)

#: Languages written without spaces between words: length in words is characters / 4.
_UNSPACED_LANGS = frozenset("zh ja th lo km my bo dz wuu gan zh-yue zh-classical".split())
#: Scripts without a sentence-final mark: the final-punctuation filter does not apply.
_NO_FINAL_MARK_LANGS = frozenset("th lo".split())
#: A sentence ends with a stop (any script's), maybe inside closing quotes or brackets. ";" is
#: the Greek question mark, "|" the danda as often typed in Hindi.
_FINAL_PUNCT = re.compile(r"[.!?…。！？．।॥؟۔።။។៕།։|;]+[\"'»”’)\]」』》〉]*$")
_WARNED_UNSUPPORTED: set[str] = set()

#: Counter keys, in funnel order.
STAT_KEYS = (
    "articles_empty",
    "langid_unsupported",
    "sentences_split",
    "dropped_too_short",
    "dropped_too_long",
    "dropped_no_final_punct",
    "dropped_duplicate",
    "dropped_wrong_lang",
    "sentences_kept",
)


def _word_count(sentence: str, lang: str) -> int:
    if lang in _UNSPACED_LANGS:
        return len(sentence) // 4
    return len(sentence.split())


def length_reason(sentence: str, lang: str, config: CleanConfig) -> str | None:
    """``dropped_too_long`` / ``dropped_too_short`` by the configured length limits, or None."""
    if len(sentence) > config.max_chars:
        return "dropped_too_long"
    if len(sentence) < config.min_chars or _word_count(sentence, lang) < config.min_words:
        return "dropped_too_short"
    return None


def _filter_reason(sentence: str, lang: str, config: CleanConfig) -> str | None:
    """Why a sentence is dropped before language ID, or ``None`` to keep it."""
    reason = length_reason(sentence, lang, config)
    if reason is not None:
        return reason
    if lang not in _NO_FINAL_MARK_LANGS and not _FINAL_PUNCT.search(sentence):
        return "dropped_no_final_punct"  # a heading, list item or caption left by the markup
    return None


def clean_article(
    article: Article,
    *,
    config: CleanConfig,
    stats: Counter[str] | None = None,
    identifier: LanguageIdentifier | None = None,
    dropped: list[tuple[str, str]] | None = None,
) -> list[Sentence]:
    """The article's sentences worth aligning, numbered ``idx`` 0..n-1 in article order.

    Per paragraph (``\\n\\n``-separated): :func:`remove_asides`, :func:`split_sentences`; then
    per sentence the length filters, the final-punctuation filter, duplicates within the
    article (``config.dedup``, the first occurrence stays) and language ID
    (``config.langid``, one batch per article). Every sentence split is counted in ``stats``
    as kept or under exactly one drop reason, so ``sentences_split`` equals ``sentences_kept``
    plus the ``dropped_*`` counts. ``dropped``, when given, receives ``(reason, sentence)``
    for each drop, to audit the thresholds. Pass the run's ``identifier`` (built with all the
    run's languages); by default a shared one for the article's language is used. A language
    the identifier does not know is not language-checked (warned once, counted as
    ``langid_unsupported`` per article).
    """
    counts: Counter[str] = stats if stats is not None else Counter()
    lang = article.lang

    def drop(reason: str, sentence: str) -> None:
        counts[reason] += 1
        if dropped is not None:
            dropped.append((reason, sentence))

    if not article.text.strip():
        counts["articles_empty"] += 1
        return []

    candidates: list[str] = []
    seen: set[str] = set()
    for paragraph in article.text.split("\n\n"):
        for sentence in split_sentences(remove_asides(paragraph), lang):
            counts["sentences_split"] += 1
            reason = _filter_reason(sentence, lang, config)
            if reason is None and config.dedup:
                key = " ".join(sentence.split())
                if key in seen:
                    reason = "dropped_duplicate"
                seen.add(key)
            if reason is None:
                candidates.append(sentence)
            else:
                drop(reason, sentence)

    if config.langid and candidates:
        ident = identifier if identifier is not None else LanguageIdentifier.for_langs([lang])
        if ident.supports(lang):
            keep = ident.is_lang(candidates, lang)
            for sentence, ok in zip(candidates, keep, strict=True):
                if not ok:
                    drop("dropped_wrong_lang", sentence)
            candidates = [s for s, ok in zip(candidates, keep, strict=True) if ok]
        else:
            counts["langid_unsupported"] += 1
            if lang not in _WARNED_UNSUPPORTED:
                _WARNED_UNSUPPORTED.add(lang)
                logger.warning(
                    "language ID cannot check %r (no model for it, or not a candidate of the "
                    "identifier): its sentences are kept unchecked",
                    lang,
                )

    counts["sentences_kept"] += len(candidates)
    return [
        Sentence(qid=article.qid, lang=lang, idx=i, text=text) for i, text in enumerate(candidates)
    ]
