"""Language identification: py3langid restricted to a run's candidate languages.

:class:`LanguageIdentifier` is the last filter of :func:`occbio.extract.clean.clean_article`
(sentences not in the article's language are dropped). Its own module because loading and
querying the classifier is a job of its own. py3langid's model ships inside its wheel, so
nothing is downloaded at run time; the choice (py3langid restricted to candidates) is measured
in ``benchmarks/langid.py``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from occbio.config import CleanConfig

__all__ = ["DEFAULT_CANDIDATES", "DEFAULT_MIN_PROB", "LanguageIdentifier"]

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
