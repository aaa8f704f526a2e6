"""Cleaning: from an article's plain text to the sentences worth aligning.

Per paragraph: :func:`remove_asides` (brackets, footnote marks, whitespace), then
:func:`split_sentences`, then per sentence the filters of :func:`clean_article` (length, final
punctuation, language, duplicates). Every drop is counted under a reason key so that the run's
statistics funnel shows where sentences went.

This module holds the per-article pipeline and its filters; each step it runs has a module of
its own: :mod:`occbio.extract.asides` (:func:`remove_asides`),
:mod:`occbio.extract.sentence_split` (:func:`split_sentences`) and
:mod:`occbio.extract.language_id` (:class:`LanguageIdentifier`, :data:`DEFAULT_CANDIDATES`,
:data:`DEFAULT_MIN_PROB`). Those names are imported here too, so ``occbio.extract.clean``
stays the one place to import cleaning from.

Pure logic: no file or network I/O here. sentencex is rule-based and py3langid's model ships
inside its wheel, so nothing is downloaded at run time. The choices (sentencex plus a repair
layer; py3langid restricted to candidates) are measured in ``benchmarks/splitters.py`` and
``benchmarks/langid.py``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter

from occbio.config import CleanConfig
from occbio.extract.asides import remove_asides
from occbio.extract.language_id import DEFAULT_CANDIDATES, DEFAULT_MIN_PROB, LanguageIdentifier
from occbio.extract.sentence_split import split_sentences
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
