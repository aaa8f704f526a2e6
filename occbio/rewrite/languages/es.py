"""Spanish: the Romance suffixes, articles that agree with a changed noun, contractions."""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Plan, Sentence, merge_contractions

_CONTRACTIONS = {("de", "el"): "del", ("a", "el"): "al"}


@dataclass
class Spanish(Language):
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        return {"ella": ("free", "él")} if d == "f2m" else {"él": ("free", "ella")}

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        merge_contractions(s, plan, _CONTRACTIONS)


RULES = Spanish(
    "es",
    suffixes=[("oras", "ores"), ("ora", "or"), ("as", "os"), ("a", "o")],
    copulas=frozenset(
        {"fue", "era", "es", "sido", "estaba", "estuvo", "siendo", "resultó", "quedó"}
    ),
    participle_endings=("ado", "ada", "ido", "ida"),
    verblike_endings=("aba", "ía", "ensa", "eva", "lleva", "ieva"),
    copula_bridge=frozenset({"ser", "ha"}),
    determiner_pairs=[
        ("la", "el"),
        ("una", "un"),
        ("las", "los"),
        ("unas", "unos"),
        ("esta", "este"),
        ("estas", "estos"),
        ("esa", "ese"),
        ("esas", "esos"),
        ("aquella", "aquel"),
        ("aquellas", "aquellos"),
    ],
)
