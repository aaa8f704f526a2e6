"""Catalan: no counterfactual data, so a hand-written word list and the Romance suffixes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence

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
    ("pel", "per la"),
    ("dels", "de les"),
    ("als", "a les"),
    ("pels", "per les"),
    ("els", "les"),
    ("uns", "unes"),
    ("si mateix", "si mateixa"),
    # kinship and nobility (mirroring the Spanish list)
    ("sogre", "sogra"),
    ("cunyat", "cunyada"),
    ("padrastre", "madrastra"),
    ("padrí", "padrina"),
    ("duc", "duquessa"),
    ("comte", "comtessa"),
    ("emperador", "emperadriu"),
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
    "pel",
    "per la",
    "dels",
    "de les",
    "als",
    "a les",
    "pels",
    "per les",
    "els",
    "les",
    "uns",
    "unes",
}

# Object clitics (written from grammar, not measured: Catalan has no counterfactual data).
# `el va nomenar` → `la va nomenar`: a weak pronoun before the auxiliary of the periphrastic
# past (or `ha`/`havia`) and an infinitive/participle of a verb that takes a person object;
# `nomenar-lo` → `nomenar-la` after a hyphen. `l'` is the same for both genders.
_CA_AUX = frozenset({"va", "van", "havia", "havien", "ha", "han", "hauria", "haurien"})
_CA_PERSON_VERB = re.compile(
    r"^(?:nomen|anomen|consider|enterr|condemn|eleg|escoll|succe|convenc|ajud|acus|deten|"
    r"empreson|mat|assassin|execut|expuls|exili|contract|fitx|convid|reconeg|reconèixer|"
    r"inclo|record|coron|proclam|design|batej|educ|cri|port|dut|descri|entrevist|derrot|"
    r"captur|arrest|segrest|salv|allibera|tortur|jutj|destitu)"
    r"(?:ar|ir|re|er|at|it|ut|ada|ida|uda|ant|int|ent|ava|aven|à|aren|í|iren|èixer|egut|"
    r"ogut|escut|iure|it|uir|ort|e)?$"
)
_CA_ARTICLES = frozenset({"el", "la", "els", "les", "un", "una", "l'", "l’", "aquest", "aquesta"})
# words of gender itself (m. sg., f. sg., m. pl., f. pl.): `masculí` ↔ `femení`, `patern` ↔
# `matern`; the ending agrees with a changed noun right before it (`avi patern` → `àvia
# materna`) and is kept otherwise (`la marató masculina` → `la marató femenina`)
_CA_GENDER_FORMS = {
    "masculí": ("masculí", "masculina", "masculins", "masculines"),
    "femení": ("femení", "femenina", "femenins", "femenines"),
    "patern": ("patern", "paterna", "paterns", "paternes"),
    "matern": ("matern", "materna", "materns", "maternes"),
}
_CA_GENDER_SWAP = {"m2f": {"masculí": "femení", "patern": "matern"},
                   "f2m": {"femení": "masculí", "matern": "patern"}}  # fmt: skip
_CA_GENDER_SLOT = {w: (fam, k) for fam, forms in _CA_GENDER_FORMS.items()
                   for k, w in enumerate(forms)}  # fmt: skip
_CA_MATEIX = {"f2m": {"mateixa": "mateix"}, "m2f": {"mateix": "mateixa"}}


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

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        if not super().after_copula(low, i):
            return False
        c = i - 1 if low[i - 1] in self.copulas else i - 2
        # `el llibre va ser publicat`: an article + noun subject is a thing as often as not
        return not (c >= 2 and low[c - 2] in _CA_ARTICLES)

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low = s.low
        n = len(low)
        src, tgt = ("la", "el") if d == "f2m" else ("el", "la")
        out: Plan = {}
        for i in range(n - 1):
            if covered[i]:
                continue
            clitic = low[i] == src and s.gap_after(i) == " " and low[i + 1] in _CA_AUX
            if clitic and i + 2 < n and _CA_PERSON_VERB.match(low[i + 2]):
                out[i] = (1, (tgt,))
        # enclitic: `nomenar-lo` / `nomenar-la`
        e_src, e_tgt = ("la", "lo") if d == "f2m" else ("lo", "la")
        for i in range(1, n):
            if covered[i] or low[i] != e_src or s.gap_after(i - 1) != "-":
                continue
            if _CA_PERSON_VERB.match(low[i - 1]):
                out[i] = (1, (e_tgt,))
        swap = _CA_GENDER_SWAP[d]
        for i in range(n):
            slot = _CA_GENDER_SLOT.get(low[i])
            if covered[i] or slot is None or slot[0] not in swap:
                continue
            k = slot[1]
            if i > 0 and covered[i - 1] and s.joined(i - 1):
                k = (k & 2) | (1 if d == "m2f" else 0)  # agree with the changed noun
            out[i] = (1, (_CA_GENDER_FORMS[swap[slot[0]]][k],))
        # `ell mateix` → `ella mateixa` (the pronoun changed)
        mateix = _CA_MATEIX[d]
        for i in range(1, n):
            after_pronoun = low[i - 1] in ("ell", "ella") and covered[i - 1]
            if not covered[i] and low[i] in mateix and after_pronoun:
                out[i] = (1, (mateix[low[i]],))
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
