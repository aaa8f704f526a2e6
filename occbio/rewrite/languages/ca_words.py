"""Catalan word lists for the rewriter (``ca.py`` holds the rules that use them).

Catalan has no counterfactual data: every list here is hand-written from Catalan grammar (not
measured), so it is kept apart from the rules, like the other languages' ``*_words`` modules.
"""

from __future__ import annotations

import re

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

# --------------------------------------------------------------------------- biography leads
# `X (Barcelona, 1920-1990) va ser un enginyer civil francès especialitzat en ponts`: the noun
# phrase after the copula changes whole or not at all (hand-written from Catalan grammar).
_CA_LEAD_PAIRS = """
enginyer enginyera, metge metgessa, polític política, advocat advocada, arquitecte arquitecta,
escultor escultora, gravador gravadora, músic música, historiador historiadora,
filòsof filòsofa, científic científica, professor professora, mestre mestra, actor actriu,
poeta poetessa, religiós religiosa, empresari empresària, jugador jugadora,
diplomàtic diplomàtica, químic química, físic física, matemàtic matemàtica,
escriptor escriptora, traductor traductora, il·lustrador il·lustradora, fotògraf fotògrafa,
dramaturg dramaturga, director directora, productor productora, compositor compositora,
pintor pintora, dissenyador dissenyadora, arqueòleg arqueòloga, biòleg biòloga,
geòleg geòloga, filòleg filòloga, psicòleg psicòloga, sociòleg sociòloga, teòleg teòloga,
investigador investigadora, entrenador entrenadora, president presidenta, diputat diputada,
senador senadora, ministre ministra, alcalde alcaldessa, secretari secretària, rei reina,
príncep princesa, duc duquessa, comte comtessa, fill filla, germà germana, pare mare,
editor editora, periodista periodista, economista economista, cantant cantant,
autor autora, fundador fundadora, rus russa, grec grega, suís suïssa, jove jove
"""
_CA_LEAD: dict[str, dict[str, str]] = {"m2f": {}, "f2m": {}}
for _item in _CA_LEAD_PAIRS.split(","):
    _m, _f = _item.split()
    if _m != _f:
        _CA_LEAD["m2f"][_m] = _f
        _CA_LEAD["f2m"][_f] = _m
_CA_COMMON = frozenset(
    {"periodista", "economista", "cantant", "militar", "artista", "atleta", "esportista",
     "futbolista", "ciclista", "tennista", "pianista", "guionista", "dibuixant", "líder",
     "jove", "membre", "model", "testimoni", "intèrpret", "representant", "estudiant",
     "agent", "comandant", "dirigent", "poeta"}
)  # fmt: skip
# (masculine ending, feminine ending), longest first
_CA_LEAD_SUFFIX = (("ors", "ores"), ("or", "ora"), ("ats", "ades"), ("at", "ada"),
                   ("its", "ides"), ("it", "ida"), ("uts", "udes"), ("ut", "uda"),
                   ("ès", "esa"), ("ós", "osa"), ("à", "ana"), ("í", "ina"), ("ic", "ica"),
                   ("enc", "enca"), ("ari", "ària"), ("any", "anya"), ("ol", "ola"),
                   ("er", "era"), ("e", "a"), ("o", "a"))  # fmt: skip
_CA_LEAD_COPULAS = frozenset({"és", "era", "fou"})
_CA_LEAD_END = frozenset(
    {"que", "qui", "on", "en", "per", "amb", "a", "al", "als", "des", "durant", "entre",
     "fins", "sobre", "segons", "com", "sense", "quan", "però", "o", "ni"}
)  # fmt: skip
_CA_PP_TRANSPARENT = frozenset(
    {"futbol", "bàsquet", "tennis", "handbol", "hoquei", "cinema", "teatre", "televisió",
     "jazz", "rock", "pop", "òpera", "escacs"}
)  # fmt: skip
_CA_PREMODS = frozenset(
    {"gran", "jove", "destacat", "destacada", "reconegut", "reconeguda", "famós", "famosa",
     "prolífic", "prolífica", "conegut", "coneguda", "important", "il·lustre", "cèlebre"}
)  # fmt: skip
_CA_NAME_PARTICLES = frozenset({"de", "del", "i", "la", "el", "van", "von", "da", "di"})
