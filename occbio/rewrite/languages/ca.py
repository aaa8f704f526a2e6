"""Catalan: no counterfactual data, so a hand-written word list and the Romance suffixes."""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language

# (masculine, feminine); articles follow a
# changed noun/adjective/participle through the "next" context rule below.
_CA_PAIRS = [
    ("ell", "ella"),
    ("nomenat", "nomenada"),
    ("elegit", "elegida"),
    ("nascut", "nascuda"),
    ("casat", "casada"),
    ("mort", "morta"),
    ("conegut", "coneguda"),
    ("considerat", "considerada"),
    ("director", "directora"),
    ("actor", "actriu"),
    ("escriptor", "escriptora"),
    ("pintor", "pintora"),
    ("cantant", "cantant"),
    ("professor", "professora"),
    ("fill", "filla"),
    ("germà", "germana"),
    ("pare", "mare"),
    ("marit", "esposa"),
    ("rei", "reina"),
    ("príncep", "princesa"),
    ("president", "presidenta"),
    ("polític", "política"),
    ("músic", "música"),
    ("compositor", "compositora"),
    ("fundador", "fundadora"),
    ("guanyador", "guanyadora"),
    ("jugador", "jugadora"),
    ("entrenador", "entrenadora"),
    ("autor", "autora"),
    ("primer", "primera"),
    ("famós", "famosa"),
    ("nou", "nova"),
    ("un", "una"),
    ("el", "la"),
    ("del", "de la"),
    ("al", "a la"),
    ("aquest", "aquesta"),
    ("seu", "seva"),
    ("va ser", "va ser"),
    ("poeta", "poetessa"),
    ("metge", "metgessa"),
    ("alcalde", "alcaldessa"),
    ("advocat", "advocada"),
    ("diputat", "diputada"),
    ("senador", "senadora"),
    ("ministre", "ministra"),
    ("secretari", "secretària"),
    ("treballador", "treballadora"),
    ("investigador", "investigadora"),
    ("periodista", "periodista"),
    ("cosí", "cosina"),
    ("avi", "àvia"),
    ("nét", "néta"),
    ("oncle", "tia"),
    ("nebot", "neboda"),
]
_CA_DEPENDENT = {
    "un",
    "una",
    "el",
    "la",
    "del",
    "de la",
    "al",
    "a la",
    "aquest",
    "aquesta",
    "seu",
    "seva",
    "primer",
    "primera",
    "famós",
    "famosa",
    "nou",
    "nova",
}


@dataclass
class Catalan(Language):
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        out = {}
        for m, f in _CA_PAIRS:
            src, tgt = (f, m) if d == "f2m" else (m, f)
            if src == tgt:
                continue
            ctx = "next" if src in _CA_DEPENDENT else "free"
            out[src] = (ctx, tgt)
        return out


RULES = Catalan(
    "ca",
    suffixes=[
        ("ores", "ors"),
        ("ora", "or"),
        ("ades", "ats"),
        ("ada", "at"),
        ("udes", "uts"),
        ("uda", "ut"),
        ("ides", "its"),
        ("ida", "it"),
        ("es", "os"),
        ("a", "o"),
    ],
    copulas=frozenset({"va", "era", "és", "estat", "fou", "estava", "sent"}),
    participle_endings=("at", "ada", "it", "ida", "ut", "uda"),
    copula_bridge=frozenset({"ser", "ha"}),
)
