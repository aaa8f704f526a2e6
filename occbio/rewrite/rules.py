"""Hand rules per language, on top of the learned substitution tables.

* ``extra_subs``: substitutions every rewriter of the language knows, learned or not (pronouns,
  and for Catalan, which has no counterfactual data, a small hand-written word list);
* ``never_change``: learned substitutions that are wrong out of context and are dropped;
* ``protected_positions``: tokens never touched (inside URLs and e-mail addresses);
* ``fix_plan``: English ``her`` → ``his`` (before a noun phrase) or ``him`` (otherwise), and
  ``his`` → ``hers`` when it stands alone.
"""

from __future__ import annotations

import re

LANGS = frozenset({"en", "es", "fr", "it", "pt", "ca", "de", "ru"})
TABLE_LANG: dict[str, str] = {}

_PRONOUNS = {
    "en": {
        "f2m": {"she": "he", "herself": "himself", "hers": "his", "her": "his"},
        "m2f": {"he": "she", "himself": "herself", "him": "her", "his": "her"},
    },
    "es": {"f2m": {"ella": "él"}, "m2f": {"él": "ella"}},
    # fr/it/pt/de/ru: `il`, `lui`, `ele`, `sie`, `она` also stand for things or are
    # impersonal/dative; the learned tables decide (and mostly leave them).
}

# English gendered person nouns (masculine, feminine), written from grammar knowledge, not from
# the pairs: the human counterfactuals flip them whoever they name, and the learned tables
# only know those seen in the choosing half. Words with another common sense (count, lord,
# master, man's "one") and spouses and siblings (who are not the person rewritten) are left out.
_EN_PAIRS = [
    ("actor", "actress"), ("waiter", "waitress"), ("duke", "duchess"), ("prince", "princess"),
    ("king", "queen"), ("emperor", "empress"), ("baron", "baroness"), ("viscount", "viscountess"),
    ("marquess", "marchioness"), ("heir", "heiress"), ("host", "hostess"),
    ("steward", "stewardess"), ("god", "goddess"), ("hero", "heroine"), ("priest", "priestess"),
    ("abbot", "abbess"), ("monk", "nun"), ("widower", "widow"), ("boyfriend", "girlfriend"),
    ("nephew", "niece"), ("uncle", "aunt"), ("grandfather", "grandmother"),
    ("grandson", "granddaughter"), ("stepson", "stepdaughter"), ("stepfather", "stepmother"),
    ("son", "daughter"), ("father", "mother"), ("boy", "girl"), ("man", "woman"),
    ("gentleman", "lady"), ("sir", "dame"), ("tsar", "tsarina"), ("sultan", "sultana"),
    ("masseur", "masseuse"),
    ("fiancé", "fiancée"), ("businessman", "businesswoman"), ("chairman", "chairwoman"),
    ("spokesman", "spokeswoman"), ("congressman", "congresswoman"),
    ("sportsman", "sportswoman"), ("horseman", "horsewoman"), ("statesman", "stateswoman"),
    ("policeman", "policewoman"), ("salesman", "saleswoman"), ("cameraman", "camerawoman"),
    ("councilman", "councilwoman"), ("craftsman", "craftswoman"), ("countryman", "countrywoman"),
    ("kinsman", "kinswoman"), ("schoolboy", "schoolgirl"), ("godfather", "godmother"),
    ("patriarch", "matriarch"), ("headmaster", "headmistress"), ("mr", "mrs"),
]  # fmt: skip
_EN_PLURAL = {"man": "men", "woman": "women", "gentleman": "gentlemen", "lady": "ladies"}
#: Feminine words whose masculine has another common sense (``count``, ``lord``): rewritten
#: into the masculine only.
_EN_F2M_ONLY = {"countess": "count", "countesses": "counts", "lady": "lord", "ladies": "lords"}


def _en_forms(word: str) -> list[str]:
    if word in _EN_PLURAL:
        return [word, _EN_PLURAL[word]]
    if word.endswith("man"):
        return [word, word[:-3] + "men"]
    if word.endswith("ess") or word.endswith("ss"):
        return [word, word + "es"]
    if word in ("mr", "mrs"):
        return [word]
    return [word, word + "s"]


# Catalan: no counterfactual data, so a hand list (masculine, feminine); articles follow a
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


def extra_subs(lang: str, d: str) -> dict[str, tuple[str, str]]:
    out = {src: ("free", tgt) for src, tgt in _PRONOUNS.get(lang, {}).get(d, {}).items()}
    if lang == "en":
        if d == "f2m":
            out.update({src: ("free", tgt) for src, tgt in _EN_F2M_ONLY.items()})
        for m, f in _EN_PAIRS:
            for mf, ff in zip(_en_forms(m), _en_forms(f), strict=False):
                src, tgt = (ff, mf) if d == "f2m" else (mf, ff)
                out.setdefault(src, ("free", tgt))
    if lang == "ca":
        for m, f in _CA_PAIRS:
            src, tgt = (f, m) if d == "f2m" else (m, f)
            if src == tgt:
                continue
            ctx = "next" if src in _CA_DEPENDENT else "free"
            out[src] = (ctx, tgt)
    return out


# Learned pairs that are right in their sentence but wrong as a rule.
_NEVER = {
    "en": {"f2m": [], "m2f": []},
}


def never_change(lang: str, d: str) -> list[str]:
    return _NEVER.get(lang, {}).get(d, [])


_URLISH = re.compile(r"\S*(?:://|www\.|@)\S*")


def protected_positions(lang, toks, sentence, spans) -> set[int]:
    zones = [m.span() for m in _URLISH.finditer(sentence)]
    if not zones:
        return set()
    return {i for i, (a, b) in enumerate(spans) if any(za <= a and b <= zb for za, zb in zones)}


# Productive agreement suffixes, (feminine, masculine), longest first. A word takes one only
# when it stands next to a word already changed (or after a copula, for participles) and the
# new form is a frequent enough word of the language (``zipf`` list in data/rewrite).
_SUFFIXES = {
    "es": [("oras", "ores"), ("ora", "or"), ("as", "os"), ("a", "o")],
    "pt": [("oras", "ores"), ("ora", "or"), ("as", "os"), ("a", "o")],
    "it": [("trici", "tori"), ("trice", "tore"), ("a", "o")],
    "ca": [
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
    "fr": [
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
}
_COPULAS = {
    "es": {"fue", "era", "es", "sido", "estaba", "estuvo", "siendo", "resultó", "quedó"},
    "pt": {"foi", "era", "é", "sido", "estava", "esteve", "sendo", "ficou"},
    "it": {"fu", "era", "è", "stato", "stata", "venne", "viene", "essere"},
    "fr": {"fut", "était", "est", "été", "devint", "devient", "étant"},
    "ca": {"va", "era", "és", "estat", "fou", "estava", "sent"},
}
_PARTICIPLE = {
    "es": ("ado", "ada", "ido", "ida"),
    "pt": ("ado", "ada", "ido", "ida"),
    "it": ("ato", "ata", "ito", "ita", "uto", "uta"),
    "ca": ("at", "ada", "it", "ida", "ut", "uda"),
    "fr": ("é", "ée", "i", "ie", "u", "ue", "is", "ise", "it", "ite"),
}
MORPH_LANGS = frozenset(_SUFFIXES)


# Verb forms that look like a feminine adjective (`aveva`, `lleva`, `piensa`).
_VERBLIKE = {
    "es": ("aba", "ía", "ensa", "eva", "lleva", "ieva"),
    "pt": ("ava", "ia", "eva"),
    "it": ("ava", "eva", "iva", "ova"),
}


def morph_candidates(lang: str, d: str, word: str) -> list[str]:
    if word.endswith(_VERBLIKE.get(lang, ())):
        return []
    out = []
    for fem, mas in _SUFFIXES.get(lang, ()):
        src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
        if src and word.endswith(src) and len(word) > len(src) + 2:
            out.append(word[: len(word) - len(src)] + tgt)
        elif not src and len(word) > 3:
            out.append(word + tgt)
    return out


def after_copula(lang: str, low: list[str], i: int) -> bool:
    cop = _COPULAS.get(lang)
    if not cop or i == 0:
        return False
    w = low[i]
    if not w.endswith(_PARTICIPLE.get(lang, ())):
        return False
    return low[i - 1] in cop or (i > 1 and low[i - 2] in cop and low[i - 1] in {"ser", "ha"})


# English `her` before these (or before punctuation / the end) is an object: `him`.
_EN_OBJ_NEXT = frozenset(
    """a an the this that these those to in on at for from with by of about as into onto
    upon over under after before during since until and or but nor so yet than then when while
    because if though although where whether which who whom whose what why how out up down off
    back away again also too very well not never always often once twice there here her his
    him she he it they them their we us our you your i me my is was be been being are were has
    had have do did does can could will would shall should may might must ever just only even
    still now later soon first alone herself himself one two three four five six seven eight
    nine ten several many some all both each every another any no other such more most less
    against between through throughout across toward towards without within behind beside
    besides around near along among amongst via per like unlike despite except including
    regarding concerning onto""".split()
)


def fix_plan(lang, d, low, plan, sentence, spans) -> None:
    if lang != "en":
        return
    n = len(low)
    for i, (ln, _tgt) in list(plan.items()):
        if ln != 1:
            continue
        nxt_word = low[i + 1] if i + 1 < n else None
        gap = sentence[spans[i][1] : spans[i + 1][0]] if i + 1 < n else sentence[spans[i][1] :]
        punct_after = nxt_word is None or any(not c.isspace() for c in gap)
        if d == "f2m" and low[i] == "her":
            obj = punct_after or nxt_word in _EN_OBJ_NEXT or nxt_word.isdigit()
            plan[i] = (1, ("him",) if obj else ("his",))
        elif d == "m2f" and low[i] == "his":
            plan[i] = (
                1,
                ("hers",) if punct_after and gap.strip()[:1] not in ("'", "’", "-") else ("her",),
            )
