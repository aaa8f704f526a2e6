"""Italian: the Romance suffixes."""

from __future__ import annotations

from occbio.rewrite.languages.base import Language

RULES = Language(
    "it",
    suffixes=[("trici", "tori"), ("trice", "tore"), ("a", "o")],
    copulas=frozenset({"fu", "era", "è", "stato", "stata", "venne", "viene", "essere"}),
    participle_endings=("ato", "ata", "ito", "ita", "uto", "uta"),
    verblike_endings=("ava", "eva", "iva", "ova"),
    copula_bridge=frozenset({"ser", "ha"}),
)
