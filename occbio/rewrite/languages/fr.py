"""French: the Romance suffixes."""

from __future__ import annotations

from occbio.rewrite.languages.base import Language

RULES = Language(
    "fr",
    suffixes=[
        ("euses", "eurs"),
        ("euse", "eur"),
        ("rices", "eurs"),
        ("rice", "eur"),
        ("iennes", "iens"),
        ("ienne", "ien"),
        ("ives", "ifs"),
        ("ive", "if"),
        ("ères", "ers"),
        ("ère", "er"),
        ("elles", "els"),
        ("elle", "el"),
        ("ées", "és"),
        ("ée", "é"),
        ("es", "s"),
        ("e", ""),
    ],
    copulas=frozenset({"fut", "était", "est", "été", "devint", "devient", "étant"}),
    participle_endings=("é", "ée", "i", "ie", "u", "ue", "is", "ise", "it", "ite"),
    copula_bridge=frozenset({"ser", "ha"}),
)
