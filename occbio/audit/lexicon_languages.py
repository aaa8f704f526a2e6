"""Which languages have a shipped GENDER-GAP lexicon, and the language codes that name them.

The lexicons ship as ``occbio/data/gender_gap/<ISO 639-3>_nouns.json``.
:func:`available_languages` lists them; :func:`resolve_lang` maps an ISO 639-1, ISO 639-3,
ISO 639-2/B, macrolanguage or Wikipedia code (region and script subtags dropped) to one of them,
or raises :class:`LexiconUnavailable` naming the languages there are. Kept apart from the
matching and counting (:mod:`occbio.audit.lexicon`), which loads the lexicon a code resolves to.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["LexiconUnavailable", "available_languages", "resolve_lang"]

_DATA_PACKAGE = "occbio"
_DATA_DIR = "data/gender_gap"
_SUFFIX = "_nouns.json"

#: ISO 639-1, Wikipedia, macrolanguage and ISO 639-2/B codes -> the lexicon's ISO 639-3 code.
_ALIASES: dict[str, str] = {
    # ISO 639-1 (and the Wikipedia edition of the same code)
    "ar": "arb", "as": "asm", "be": "bel", "bn": "ben", "bg": "bul", "ca": "cat", "cs": "ces",
    "cy": "cym", "da": "dan", "de": "deu", "el": "ell", "en": "eng", "et": "est", "fi": "fin",
    "fr": "fra", "ga": "gle", "hi": "hin", "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn",
    "kn": "kan", "ka": "kat", "mn": "khk", "ky": "kir", "ko": "kor", "lt": "lit", "lg": "lug",
    "lv": "lvs", "mr": "mar", "mt": "mlt", "nl": "nld", "pa": "pan", "fa": "pes", "pl": "pol",
    "pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "es": "spa", "sv": "swe",
    "sw": "swh", "ta": "tam", "te": "tel", "tl": "tgl", "th": "tha", "tr": "tur", "ur": "urd",
    "uz": "uzn", "vi": "vie", "zh": "cmn", "zu": "zul",
    # Wikipedia editions without an ISO 639-1 code
    "simple": "eng", "zh-yue": "yue",
    # macrolanguages and close synonyms
    "ara": "arb", "zho": "cmn", "fas": "pes", "lav": "lvs", "mon": "khk", "uzb": "uzn",
    "swa": "swh", "ekk": "est", "fil": "tgl",
    # ISO 639-2/B
    "chi": "cmn", "cze": "ces", "wel": "cym", "ger": "deu", "gre": "ell", "fre": "fra",
    "per": "pes", "geo": "kat", "dut": "nld", "rum": "ron", "slo": "slk",
}  # fmt: skip


class LexiconUnavailable(ValueError):
    """No GENDER-GAP lexicon for a language; the message lists the languages there are."""


def _data_dir() -> Any:
    return resources.files(_DATA_PACKAGE).joinpath(_DATA_DIR)


@lru_cache(maxsize=1)
def available_languages() -> tuple[str, ...]:
    """ISO 639-3 codes of the shipped lexicons, sorted."""
    return tuple(
        sorted(
            entry.name[: -len(_SUFFIX)]
            for entry in _data_dir().iterdir()
            if entry.name.endswith(_SUFFIX)
        )
    )


def _available_message() -> str:
    by_code = {code: [] for code in available_languages()}
    for alias, code in _ALIASES.items():
        if len(alias) == 2 and code in by_code:
            by_code[code].append(alias)
    return ", ".join(
        f"{code} ({'/'.join(sorted(aliases))})" if aliases else code
        for code, aliases in by_code.items()
    )


def resolve_lang(lang: str) -> str:
    """The lexicon's ISO 639-3 code for an ISO 639-1/639-3 or Wikipedia code, or raise.

    Region and script subtags are dropped (``pt-BR`` -> ``por``, ``zh-Hans`` -> ``cmn``);
    other varieties are not guessed (``zh-min-nan``, ``be-tarask`` have no lexicon).

    >>> resolve_lang("ES"), resolve_lang("cat"), resolve_lang("pt_BR"), resolve_lang("zh-yue")
    ('spa', 'cat', 'por', 'yue')
    """
    code = lang.strip().lower().replace("_", "-")
    available = set(available_languages())
    for candidate in (code, _primary_subtag(code)):
        if candidate is None:
            continue
        candidate = _ALIASES.get(candidate, candidate)
        if candidate in available:
            return candidate
    raise LexiconUnavailable(
        f"no GENDER-GAP lexicon for language {lang!r}; lexicons exist for "
        f"{len(available)} languages (ISO 639-3, with ISO 639-1): {_available_message()}"
    )


def _primary_subtag(code: str) -> str | None:
    """``pt`` for ``pt-br`` / ``zh-hans`` / ``es-419``; None when the tail is not a region or
    script subtag (``zh-min-nan``)."""
    head, sep, tail = code.partition("-")
    if not sep:
        return None
    if all(len(part) in (2, 4) or (len(part) == 3 and part.isdigit()) for part in tail.split("-")):
        return head
    return None
