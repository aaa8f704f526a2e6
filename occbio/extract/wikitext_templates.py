"""The inline templates: the few whose output is words of the sentence.

Every other template is dropped. Both passes that look at templates read this vocabulary:
:mod:`occbio.extract.wikitext_prepass` keeps these (and only these) in the text it hands to the
parser, and :mod:`occbio.extract.wikitext_render` turns them into their words. It has a module
of its own so that neither of the two has to import the other for it. Pure: no files, no
network.
"""

from __future__ import annotations

import re

_WHITESPACE_RE = re.compile(r"\s+")

# Inline templates whose output is words of the sentence; every other template is dropped.
_FIRST_ARG_TEMPLATES = frozenset(
    {"nowrap", "nobr", "nobreak", "small", "smaller", "big", "larger", "ill", "interlanguage link"}
)
_LAST_ARG_TEMPLATES = frozenset({"lang", "transl"})
_CONSTANT_TEMPLATES = {
    "ndash": "–",
    "mdash": "—",
    "snd": " – ",
    "spnd": " – ",
    "spaced ndash": " – ",
    "spaced en dash": " – ",
    "spaced mdash": " — ",
    "nbsp": " ",
    "'": "'",
    # French ordinal superscripts: 1{{er}} -> 1er, XIX{{e}} -> XIXe
    "er": "er",
    "re": "re",
    "e": "e",
    "ère": "ère",
    "1er": "1er",
    "1re": "1re",
}
# Templates whose positional arguments, joined by spaces, are the words: {{date|1|mai|1950}}.
_JOINED_ARGS_TEMPLATES = frozenset({"date", "date de naissance", "date de décès"})
_INLINE_TEMPLATES = (
    _FIRST_ARG_TEMPLATES
    | _LAST_ARG_TEMPLATES
    | _JOINED_ARGS_TEMPLATES
    | frozenset(_CONSTANT_TEMPLATES)
    | {"convert", "cvt"}
)


def _template_key(name: str) -> str:
    return _WHITESPACE_RE.sub(" ", name.replace("_", " ")).strip().lower()
