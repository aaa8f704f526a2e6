"""Portuguese: the Romance suffixes."""

from __future__ import annotations

from occbio.rewrite.languages.base import Language

RULES = Language(
    "pt",
    suffixes=[("oras", "ores"), ("ora", "or"), ("as", "os"), ("a", "o")],
    copulas=frozenset({"foi", "era", "é", "sido", "estava", "esteve", "sendo", "ficou"}),
    participle_endings=("ado", "ada", "ido", "ida"),
    verblike_endings=("ava", "ia", "eva"),
    copula_bridge=frozenset({"ser", "ha"}),
)
