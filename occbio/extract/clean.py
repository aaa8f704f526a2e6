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
from occbio.extract.wikitext_templates import HOLE_OPEN, HOLE_RE
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
    "dropped_lowercase_start",
    "dropped_template_hole",
    "dropped_dangling_word",
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


#: Counter-key prefix of a dropped sentence's unrendered template: ``template_hole:birth date``.
HOLE_KEY = "template_hole:"
#: What stands after a sentence's final mark: closing quotes and brackets, spaces, holes.
_TRAILING_HOLES_RE = re.compile(
    r"([.!?…。！？．।॥؟۔][\"'»”’)\]」』》〉]*)((?:\s|" + HOLE_RE.pattern + r")+)$"
)
#: Words that cannot end a clause or stand before a preposition: what is left where a template,
#: formula or link with the words between them went missing ("Nació el en Londres.", "Au, la
#: ville grandit."). Per language: (before punctuation, before a preposition). Only articles
#: and contracted prepositions that are nothing else: French "les"/"un" (a pronoun, "l'un de"),
#: English "a" (a letter), and German articles (relative pronouns, "der in ... liegt") and
#: "ein" (a verb particle) are left out; measured on real pages in docs/real_pages.md.
_DANGLING = {
    "en": ("the|an", "the|an"),
    "fr": ("le|les|au|aux|du|des|un|une", "le|au|aux|du"),
    "es": ("el|los|las|del|al|un|una", "el|los|las|del|al"),
    "ca": ("el|els|les|del|dels|al|als|pel|pels|un|una", "el|els|del|dels|al|als"),
    "it": ("il|lo|gli|del|dello|della|dei|degli|delle|al|allo|alla|ai|agli|alle|un|uno|una",
           "il|gli"),
    "pt": ("os|as|do|da|dos|das|ao|aos|num|numa|um|uma", "do|dos|ao|aos"),
    "de": ("am|im|zum|zur|vom|beim", ""),
}  # fmt: skip
_PREPOSITIONS = {
    "en": "of|in|at|on|to|from|with|by|for",
    "fr": "à|en|de|dans|sur|par|pour|avec",
    "es": "en|a|con|por|para|desde|hasta|sobre",
    "ca": "a|en|amb|per|des|fins|sobre",
    "it": "in|a|con|per|da|su|tra|fra",
    "pt": "em|com|por|para|desde|até|sobre",
    "de": "",
}


def _dangling_re(before_punct: str, before_prep: str, prepositions: str) -> re.Pattern[str]:
    alternatives = [rf"(?:{before_punct})(?=\s*[,.;:!?])"]
    if before_prep:
        alternatives.append(rf"(?:{before_prep})\s+(?:{prepositions})(?![\w'’-])")
    # Case-insensitive so that a capital at the sentence's start is caught ("Au, la ville");
    # a capitalised word elsewhere is a name or a unit ("an In Memoriam", "15 A or"), skipped.
    return re.compile(rf"(?i)(?<![\w'’·.-])(?:{'|'.join(alternatives)})")


_DANGLING_RE = {
    lang: _dangling_re(before_punct, before_prep, _PREPOSITIONS[lang])
    for lang, (before_punct, before_prep) in _DANGLING.items()
}


def unrendered_templates(sentence: str) -> tuple[str, list[str]]:
    """The sentence without harmless holes, and the names of the holes that make it unusable.

    A hole after the sentence's final mark is a footnote-like template (kept out of the
    text); one anywhere else stood in the running text where words are missing.
    """
    if HOLE_OPEN not in sentence:
        return sentence, []
    trailing = _TRAILING_HOLES_RE.search(sentence)
    if trailing is not None:
        sentence = sentence[: trailing.start(2)]
    names = HOLE_RE.findall(sentence)
    if names and re.search(r"\w", HOLE_RE.sub("", sentence)):
        return sentence, names
    sentence = HOLE_RE.sub("", sentence)  # nothing but holes: a block left alone on a line
    return " ".join(sentence.split()), []


def dangling_word(sentence: str, lang: str) -> str | None:
    """An article or contracted preposition left with nothing after it, or None."""
    pattern = _DANGLING_RE.get(lang.split("-")[0])
    if pattern is None:
        return None
    for found in pattern.finditer(sentence):
        if found.start() == 0 or found.group() == found.group().lower():
            return found.group()
    return None


def _filter_reason(sentence: str, lang: str, config: CleanConfig) -> str | None:
    """Why a sentence is dropped before language ID, or ``None`` to keep it."""
    reason = length_reason(sentence, lang, config)
    if reason is not None:
        return reason
    if lang not in _NO_FINAL_MARK_LANGS and not _FINAL_PUNCT.search(sentence):
        return "dropped_no_final_punct"  # a heading, list item or caption left by the markup
    first = sentence.split(maxsplit=1)[0] if sentence.strip() else ""
    if first[:1].islower() and first.islower():
        # "where K0 = 1 and ...", "had been members of ...": the tail of a sentence whose head
        # was a formula or a list; "siRNA", "iPhone" (a capital inside) are names and stay.
        return "dropped_lowercase_start"
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
            sentence, holes = unrendered_templates(sentence)
            if holes:
                counts.update(HOLE_KEY + name for name in dict.fromkeys(holes))
                drop("dropped_template_hole", sentence)
                continue
            reason = _filter_reason(sentence, lang, config)
            if reason is None and dangling_word(sentence, lang) is not None:
                reason = "dropped_dangling_word"
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
