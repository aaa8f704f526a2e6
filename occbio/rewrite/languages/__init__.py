"""Per-language rules for the rewriter: one module per language, each defining ``RULES``."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence

LANGS = ("ca", "de", "en", "es", "fr", "it", "pt", "ru")

__all__ = ["LANGS", "Language", "Lexicon", "Plan", "Sentence", "rules_for"]


@cache
def rules_for(lang: str) -> Language:
    if lang not in LANGS:
        raise KeyError(lang)
    return import_module(f"occbio.rewrite.languages.{lang}").RULES
