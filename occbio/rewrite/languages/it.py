"""Italian: articles and articulated prepositions with their phonology, the Romance suffixes,
predicates after a copula whose subject is the person, object clitics.

Articles (``il``/``lo``/``l'``/``la``, ``un``/``uno``/``una``/``un'``), articulated prepositions
(``del``/``dello``/``dell'``/``della``...), ``quel``/``questo``/``bel``/``buon``/``nessun`` agree
with the next word when it changed: their gender follows the direction, their number their own
form, and their shape the first sounds of the new next word (``lo``/``gli``/``uno`` before
s + consonant, z, gn, ps, pn, x, y; elision before a vowel or h).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence

# ------------------------------------------------------------------ articles
# Each determiner family: cells (gender, number, sound) -> form. Sounds: C consonant,
# S "impure" (s + consonant, z, gn, ps, pn, x, y), V vowel or h.
_DEF = {
    ("m", "sg", "C"): "il",
    ("m", "sg", "S"): "lo",
    ("m", "sg", "V"): "l'",
    ("m", "pl", "C"): "i",
    ("m", "pl", "S"): "gli",
    ("m", "pl", "V"): "gli",
    ("f", "sg", "C"): "la",
    ("f", "sg", "S"): "la",
    ("f", "sg", "V"): "l'",
    ("f", "pl", "C"): "le",
    ("f", "pl", "S"): "le",
    ("f", "pl", "V"): "le",
}


def _prep(prefix: str) -> dict[tuple[str, str, str], str]:
    """Articulated preposition: ``de`` + ``l`` → ``del``, ``dello``, ``dell'``, ``dei``..."""
    out = {}
    for cell, art in _DEF.items():
        if art == "il":
            out[cell] = prefix + "l"
        elif art in ("i", "gli"):
            out[cell] = prefix + art
        else:
            out[cell] = prefix + "l" + art
    return out


def _family(m_c, m_s, m_v, m_pl_c, m_pl_v, f_c, f_v, f_pl):
    return {
        ("m", "sg", "C"): m_c,
        ("m", "sg", "S"): m_s,
        ("m", "sg", "V"): m_v,
        ("m", "pl", "C"): m_pl_c,
        ("m", "pl", "S"): m_pl_v,
        ("m", "pl", "V"): m_pl_v,
        ("f", "sg", "C"): f_c,
        ("f", "sg", "S"): f_c,
        ("f", "sg", "V"): f_v,
        ("f", "pl", "C"): f_pl,
        ("f", "pl", "S"): f_pl,
        ("f", "pl", "V"): f_pl,
    }


_FAMILIES: list[dict[tuple[str, str, str], str]] = [
    _DEF,
    _prep("de"),
    _prep("a"),
    _prep("da"),
    _prep("ne"),
    _prep("su"),
    # indefinite: no plural of its own (the partitive is ``dei``/``delle``)
    {k: v for k, v in _family("un", "uno", "un", "", "", "una", "un'", "").items() if k[1] == "sg"},
    _family("quel", "quello", "quell'", "quei", "quegli", "quella", "quell'", "quelle"),
    _family("questo", "questo", "quest'", "questi", "questi", "questa", "quest'", "queste"),
    {
        k: v
        for k, v in _family("nessun", "nessuno", "nessun", "", "", "nessuna", "nessun'", "").items()
        if k[1] == "sg"
    },
    {
        k: v
        for k, v in _family(
            "ciascun", "ciascuno", "ciascun", "", "", "ciascuna", "ciascun'", ""
        ).items()
        if k[1] == "sg"
    },
]

#: form -> [(family index, gender or None when ambiguous, number)]
_FORMS: dict[str, list[tuple[int, str | None, str]]] = {}
for _k, _fam in enumerate(_FAMILIES):
    _cells: dict[str, set[tuple[str, str]]] = {}
    for (_g, _n, _s), _w in _fam.items():
        _cells.setdefault(_w, set()).add((_g, _n))
    for _w, _gn in _cells.items():
        _genders = {g for g, _ in _gn}
        _numbers = {n for _, n in _gn}
        if len(_numbers) == 1:
            _FORMS.setdefault(_w, []).append(
                (_k, next(iter(_genders)) if len(_genders) == 1 else None, next(iter(_numbers)))
            )

_VOWELS = set("aeiouhàèéìíòóùú")


def _sound(word: str) -> str:
    w = word.lower()
    if not w or not w[0].isalpha():
        return "C"
    if w[0] in _VOWELS:
        return "V"
    if w[0] in "zxy" or w.startswith(("gn", "ps", "pn")):
        return "S"
    if w[0] == "s" and len(w) > 1 and w[1].isalpha() and w[1] not in _VOWELS:
        return "S"
    return "C"


def _agree(det: str, gender: str, next_word: str) -> str | None:
    """The form of determiner ``det`` for ``gender`` before ``next_word``."""
    entries = _FORMS.get(det)
    if not entries:
        return None
    fam_i, _, number = entries[0]
    return _FAMILIES[fam_i].get((gender, number, _sound(next_word))) or None


CLOSED = frozenset(_FORMS)

#: the pronoun forms of a determiner family, used before ``di``/``tra`` or another determiner
#: (``uno dei primi``, ``quella della sua città``)
_PRONOUN = {
    "un": "uno",
    "nessun": "nessuno",
    "ciascun": "ciascuno",
    "quel": "quello",
    "quei": "quelli",
    "quegli": "quelli",
    "quell'": "quello",
    "quest'": "questo",
    "un'": "una",
    "nessun'": "nessuna",
    "ciascun'": "ciascuna",
}
_PRON_FEM = {"quell'": "quella", "quest'": "questa"}
_PRON_NEXT = frozenset({"di", "tra", "fra", "d'"})

# ------------------------------------------------------------------ copula predicates
#: verbs whose predicate agrees with their subject
_COPULA = frozenset(
    {
        "è", "era", "fu", "sia", "fosse", "sarebbe", "sarà", "essere", "essendo", "venne",
        "viene", "veniva", "verrà", "rimase", "rimaneva", "rimane", "divenne", "diventò",
        "diventa", "diventava", "sembrava", "sembrò", "apparve", "risultò", "morì", "nacque",
    }
)  # fmt: skip
#: participles of essere / diventare / rimanere: they agree and carry the chain on
_COPULA_PART = {
    "stato": "stata", "diventato": "diventata", "divenuto": "divenuta", "rimasto": "rimasta",
}  # fmt: skip
_COPULA_PART_F = {v: k for k, v in _COPULA_PART.items()}
_ADVERBS = frozenset(
    {
        "non", "mai", "poi", "anche", "già", "sempre", "ancora", "molto", "più", "meno", "ben",
        "assai", "così", "tanto", "talmente", "quasi", "pure", "persino", "perfino", "spesso",
        "inoltre", "infine", "subito", "presto", "ormai", "davvero", "piuttosto", "troppo",
        "alquanto", "altrettanto", "tuttavia", "quindi", "dunque", "allora", "ufficialmente",
        "successivamente", "recentemente", "inizialmente",
    }
)  # fmt: skip
#: -o/-a words after a copula that do not agree with the subject
_NOT_PREDICATE = frozenset(
    {
        "prima", "primo", "ora", "poco", "poca", "molto", "molta", "tanto", "tanta", "troppo",
        "solo", "sola", "tutto", "tutta", "membro", "capo", "parte", "sopra", "sotto", "dentro",
        "fuori", "contro", "verso", "circa", "dopo", "nulla", "niente", "chiaro", "chiara",
        "necessario", "necessaria", "possibile", "probabile", "vero", "vera", "dato", "data",
        "giusto", "proprio", "propria", "stesso", "stessa", "questo", "questa", "quello",
        "quella", "suo", "sua", "mio", "mia", "tuo", "tua", "nostro", "nostra", "vostro",
        "vostra", "loro", "altro", "altra", "ognuno", "ognuna", "nessuno", "nessuna", "uno",
        "una", "caso", "modo", "tipo", "luogo", "anno", "mondo", "gruppo", "titolo", "premio",
        "nato", "nata",
    }
)  # fmt: skip
_PERSON_PRON = frozenset({"lui", "lei", "egli", "ella"})
_CLITICS = frozenset({"si", "ne", "ci", "vi", "mi", "ti", "lo", "la", "non", "gli", "le"})
_DATIVE = frozenset({"gli", "le", "mi", "ti", "ci", "vi"})
_PRO_DROP = frozenset(
    {
        "e", "ed", "ma", "poi", "quando", "dove", "mentre", "dopo", "perché", "poiché", "se",
        "anche", "però", "quindi", "finché", "sebbene", "benché", "come", "infine", "oppure",
        "o", "né", "pur", "cui",
    }
)  # fmt: skip
_SAYING = frozenset(
    {
        "disse", "dichiarò", "affermò", "annunciò", "rivelò", "sostenne", "ammise", "scrisse",
        "spiegò", "pensava", "credeva", "sapeva", "detto", "dichiarato", "affermato",
        "annunciato", "rivelato", "sostenuto", "ammesso", "scritto", "spiegato", "notato",
        "riferito", "raccontato", "raccontò", "capì", "scoprì", "dice", "afferma", "sostiene",
    }
)  # fmt: skip


_AVERE = frozenset(
    {
        "ha", "aveva", "hanno", "avevano", "abbia", "avesse", "avere", "aver", "avendo",
        "avrebbe", "ebbe", "avuto", "avrà", "ho", "avevo",
    }
)  # fmt: skip


_ORDINALS = [
    "primo", "secondo", "terzo", "quarto", "quinto", "sesto", "settimo", "ottavo", "nono",
    "decimo", "ultimo", "penultimo",
]  # fmt: skip
#: adjectives that change only next to a changed noun, never on their own
_AGREE_ONLY = frozenset(
    [o[:-1] + e for o in _ORDINALS for e in "oaie"]
    + [w[:-1] + e for w in ("stesso", "mio", "russo", "ricco", "piccolo", "nuovo") for e in "oaie"]
    + ["pochi", "poche", "dato", "data", "entrambi", "entrambe", "uccisi", "uccise", "ricchi"]
    + ["ricche", "anziani", "anziane"]
)
_POSSESSIVE = frozenset(
    w[:-1] + e for w in ("suo", "mio", "tuo", "nostro", "vostro") for e in "oaie"
) | {"loro", "suoi", "miei", "tuoi"}

# (masculine, feminine) person nouns, singular and a few unambiguous plurals; `re` and `papà`
# have one form for both numbers and take their number from the determiner before them
_PERSON_NOUNS = """
padre madre papà mamma babbo mamma fratello sorella zio zia nonno nonna
cugino cugina marito moglie sposo sposa fidanzato fidanzata cognato cognata suocero suocera
genero nuora patrigno matrigna figliastro figliastra fratellastro sorellastra bisnonno bisnonna
vedovo vedova ragazzo ragazza uomo donna maschio femmina gentiluomo gentildonna
re regina principe principessa duca duchessa conte contessa barone baronessa marchese marchesa
visconte viscontessa imperatore imperatrice zar zarina sultano sultana granduca granduchessa
arciduca arciduchessa abate badessa sacerdote sacerdotessa dio dea
eroe eroina attore attrice direttore direttrice scrittore scrittrice pittore pittrice
autore autrice ambasciatore ambasciatrice senatore senatrice
allenatore allenatrice giocatore giocatrice conduttore conduttrice
produttore produttrice traduttore traduttrice redattore redattrice educatore educatrice
ricercatore ricercatrice lavoratore lavoratrice collaboratore collaboratrice
amministratore amministratrice coordinatore coordinatrice sostenitore sostenitrice
presentatore presentatrice compositore compositrice
illustratore illustratrice scultore scultrice esploratore esploratrice creatore creatrice
organizzatore organizzatrice doppiatore doppiatrice istruttore istruttrice
imprenditore imprenditrice investigatore investigatrice
calciatore calciatrice nuotatore nuotatrice pattinatore pattinatrice sciatore sciatrice
professore professoressa dottore dottoressa studente studentessa poeta poetessa
campione campionessa cuoco cuoca deputato deputata
impiegato impiegata segretario segretaria infermiere infermiera
cameriere cameriera consigliere consigliera banchiere banchiera ballerino ballerina
cantautore cantautrice poliziotto poliziotta psicologo psicologa biologo biologa
archeologo archeologa antropologo antropologa filosofo filosofa astronomo astronoma
coreografo coreografa scienziato scienziata allievo allieva
alunno alunna compagno compagna padrino madrina orfano orfana sovrano sovrana
patrono patrona profeta profetessa vedovo vedova
padri madri uomini donne ragazzi ragazze mariti mogli regine re duchi duchesse attori attrici
""".split()
_NOUN_PAIRS = list(zip(_PERSON_NOUNS[::2], _PERSON_NOUNS[1::2], strict=True))
_NOUN_PLURAL = {"re": ("re", "regine"), "papà": ("papà", "mamme")}

_NUMBERS = frozenset(
    "due tre quattro cinque sei sette otto nove dieci undici dodici venti cento mille".split()
)


#: prenominal adjectives that do not change with gender (`il giovane attore`)
_INVARIANT_ADJ = frozenset(
    {
        "giovane", "giovani", "grande", "grandi", "celebre", "celebri", "attuale", "attuali",
        "precedente", "precedenti", "superstite", "principale", "principali", "ex", "nobile",
        "nobili", "illustre", "illustri",
    }
)  # fmt: skip


def _invariant(s: Sentence, k: int, plural: bool) -> bool:
    """A word that does not change with gender between a determiner and its noun."""
    w = s.low[k]
    if w in _NUMBERS or w.isdigit():
        return plural  # `dei due principi`, not `nel 1628 lui`
    return w == "loro" or w in _INVARIANT_ADJ


# Only the dative `gli` (to him) → `le`: on the choosing data the accusative `lo`/`la` refers to
# a thing as often as to the person, and `le` before a verb is also `them`.
_CLITIC_M2F = {"gli": "le"}
_CLITIC_F2M: dict[str, str] = {}
_VERB_ENDINGS = (
    "ò", "ì", "arono", "erono", "irono", "ava", "avano", "eva", "evano", "ivano", "asse",
    "esse", "isse", "assero", "essero", "issero", "ebbe", "ebbero", "erà", "irà", "ono",
    "anno", "ette", "ettero", "ero",
)  # fmt: skip
_VERBS = frozenset(
    {
        "ha", "hanno", "aveva", "avevano", "fu", "è", "era", "diede", "disse", "fece", "chiese",
        "chiesero", "valse", "vide", "mise", "prese", "permise", "rese", "venne", "dà", "dava",
        "dice", "diceva", "dissero", "diedero", "fecero", "sarebbe", "avrebbe", "sarà", "avrà",
        "piacque", "nacque", "scelse", "volle", "spinse", "convinse", "costrinse", "uccise",
        "scrisse", "lesse", "offrì", "conobbe", "descrisse", "definì", "nominò", "elesse",
        "portò", "mostrò", "affidò", "attribuì", "sia", "fosse", "viene", "veniva",
    }
)  # fmt: skip
_NOT_VERBS = frozenset({"mano", "piano", "leva", "cava", "lava", "fava", "stesso", "stessa"})


def _is_verb(s: Sentence, k: int, clitic: str) -> bool:
    w = s.low[k]
    if s.toks[k][:1].isupper() or w in _NOT_VERBS or w in CLOSED:
        return False
    if w in _VERBS:
        return True
    if clitic in ("la", "lo") and w.endswith(("iva", "ano")):
        return False
    return w.endswith(_VERB_ENDINGS) and not w.endswith("i")


def _is_adverb(w: str) -> bool:
    return w in _ADVERBS or (w.endswith("mente") and len(w) > 7)


@dataclass
class Italian(Language):
    def __post_init__(self) -> None:
        super().__post_init__()
        self._noun_table = {"m2f": {}, "f2m": {}}
        for m, f in _NOUN_PAIRS:
            self._noun_table["m2f"].setdefault(m, f)
            self._noun_table["f2m"].setdefault(f, m)

    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        return {}

    def never_change(self, d: str) -> list[str]:
        # determiners are agreed by propose() with the phonology of the new next word;
        # adjectives only agree with a changed noun (the morphology rule), never on their own
        return sorted(CLOSED | _AGREE_ONLY)

    def protected_positions(self, d: str, s: Sentence) -> set[int]:
        out = super().protected_positions(d, s)
        n = len(s.low)
        for i, w in enumerate(s.low):
            prev = s.low[i - 1] if i > 0 else ""
            nxt = s.low[i + 1] if i + 1 < n else ""
            if w in ("stato", "stata", "dato", "data") and (
                prev in CLOSED or prev in _POSSESSIVE or nxt in ("che", "di", "del", "dello")
            ):
                out.add(i)  # the noun `stato` (state), `dato che` (since)
            elif w in ("lady", "lord") and prev in ("our", "first", "the", "house"):
                out.add(i)
        return out

    def morph_candidates(self, d: str, word: str) -> list[str]:
        if word in CLOSED:
            return []
        return super().morph_candidates(d, word)

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        return False  # predicates are agreed by propose(), which sees the subject

    # ---------------------------------------------------------------- propose
    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        out: Plan = {}
        self._titles(d, s, covered, plan, out)
        self._nouns(d, s, covered, lex, out)
        if not out:
            self._determiners(d, s, covered, plan, out)
        if not out:
            self._predicates(d, s, covered, plan, lex, out)
        if not out and plan:
            self._clitics(d, s, covered, plan, out)
        return out

    def _determiners(self, d, s, covered, plan, out) -> None:
        gender = "m" if d == "f2m" else "f"
        n = len(s.low)
        for i in range(n - 1):
            if covered[i] or s.low[i] not in CLOSED:
                continue
            src = s.low[i].replace("’", "'")
            # the changed word this determiner agrees with, maybe past invariant words
            # (`il loro coordinatore`, `dei due principi`, `il giovane attore`)
            k = i + 1
            plural = _FORMS[src][0][2] == "pl"
            while k < n and k not in plan and k - i <= 2 and _invariant(s, k, plural):
                if s.gap_after(k - 1) != " " and not s.low[k - 1].endswith("'"):
                    break
                k += 1
            if k not in plan:
                continue
            ln, tgt = plan[k]
            if " ".join(tgt).lower() == " ".join(s.low[k : k + ln]):
                continue
            if k > i + 1 and (s.low[k] in CLOSED or tgt[0].lower() in CLOSED):
                continue
            if any(s.gap_after(j) not in (" ", "") for j in range(i, k)):
                continue
            # an elided determiner is glued to its word; a plain one needs a single space
            gap = s.gap_after(i)
            if src.endswith("'"):
                if gap != "":
                    continue
            elif gap != " ":
                continue
            first = tgt[0].lower() if k == i + 1 else s.low[i + 1]
            new = self._det_form(src, gender, first)
            if new and new != src:
                if "’" in s.low[i]:
                    new = new.replace("'", "’")
                out[i] = (1, (new,))

    @staticmethod
    def _det_form(src: str, gender: str, first: str) -> str | None:
        if first in CLOSED or first in _PRON_NEXT:  # a pronoun: `uno dei primi`
            new = _agree(src, gender, "x" if src in ("un", "uno", "un'", "una") else "c")
            if new:
                new = (_PRON_FEM if gender == "f" else _PRONOUN).get(new, new)
            return new
        return _agree(src, gender, first)

    def _clitics(self, d, s, covered, plan, out) -> None:
        """The dative clitic before a verb, in a sentence already about the person:
        `gli consegnò` → `le consegnò`."""
        n = len(s.low)
        table = _CLITIC_M2F if d == "m2f" else _CLITIC_F2M
        for i in range(n):
            if covered[i]:
                continue
            w = s.low[i]
            if w in table and i + 1 < n and s.gap_after(i) == " " and _is_verb(s, i + 1, w):
                if i > 0 and s.low[i - 1] in CLOSED and s.gap_after(i - 1) in (" ", ""):
                    continue
                out[i] = (1, (table[w],))
                continue

    def _nouns(self, d, s, covered, lex, out) -> None:
        """Person nouns of the hand list the choosing data did not teach."""
        table = self._noun_table[d]
        for i, w in enumerate(s.low):
            if covered[i] or w not in table:
                continue
            if i > 0 and s.toks[i][:1].isupper():
                continue  # a name or a title inside one
            seen = lex.seen.get(w)
            if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
                continue  # the data says this word usually stays
            out[i] = (1, (table[w],))

    def _titles(self, d, s, covered, plan, out) -> None:
        """`signora Rossi` ↔ `signor Rossi`, `la stessa Cyrus` ↔ `lo stesso Cyrus`."""
        n = len(s.low)
        for i in range(n):
            if covered[i]:
                continue
            w = s.low[i]
            name_next = i + 1 < n and s.toks[i + 1][:1].isupper() and s.gap_after(i) == " "
            if d == "f2m" and w == "signora":
                out[i] = (1, ("signor" if name_next else "signore",))
            elif d == "m2f" and w in ("signor", "signore") and (name_next or w == "signore"):
                out[i] = (1, ("signora",))
            elif name_next and w in (("stessa",) if d == "f2m" else ("stesso",)):
                out[i] = (1, ("stesso" if d == "f2m" else "stessa",))

    def _person_subject(self, s: Sentence, covered, plan, k: int) -> bool:
        """Is the subject of the copula at ``k`` the person (a pronoun, a changed word, a
        name, or no subject at all)?"""
        j = k - 1
        while j >= 0 and (s.low[j] in _CLITICS or _is_adverb(s.low[j])):
            if s.low[j] in _DATIVE and j == k - 1:
                return False  # `gli fu diagnosticato un cancro`: the subject is the illness
            if s.gap_after(j).strip():
                break
            j -= 1
        if j < 0:
            return True
        if s.gap_after(j).strip(" "):  # punctuation: a new clause with no subject
            return True
        w = s.low[j]
        if w in _PERSON_PRON or covered[j]:
            return True
        if s.toks[j][:1].isupper() and j > 0:
            # a name: the person, unless it follows an article (`il Capitolo`)
            while j > 0 and s.toks[j - 1][:1].isupper() and s.gap_after(j - 1) == " ":
                j -= 1
            return j == 0 or s.low[j - 1] not in CLOSED or covered[j - 1]
        if w in _PRO_DROP:
            return True
        if w == "che":
            return j > 0 and (s.low[j - 1] in _SAYING or s.low[j - 1].endswith("ndo"))
        return w == "si"

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        # `re`, `papà`: one form for both numbers; plural after a plural determiner or number
        for i in sorted(plan):
            ln, tgt = plan[i]
            if ln == 1 and len(tgt) == 1 and s.low[i] in _NOUN_PLURAL and i > 0:
                prev = plan[i - 1][1][-1].lower() if (i - 1) in plan else s.low[i - 1]
                prev_src = s.low[i - 1]
                plural = (
                    prev_src in _NUMBERS
                    or prev_src.isdigit()
                    or any(e[2] == "pl" for e in _FORMS.get(prev, []))
                    or prev in ("suoi", "sue", "loro", "tutti", "tutte", "molti", "molte")
                )
                if plural:
                    pl = _NOUN_PLURAL[s.low[i]][1 if d == "m2f" else 0]
                    plan[i] = (1, (pl,))
        # a participle after avere does not agree with the subject (`ha conosciuto`), only with
        # an object clitic before it (`l'ha conosciuta`)
        for i in sorted(plan):
            ln, tgt = plan[i]
            if ln != 1 or i == 0 or s.low[i - 1] not in _AVERE:
                continue
            if not s.low[i].endswith(("ato", "ata", "ito", "ita", "uto", "uta", "to", "ta")):
                continue
            if i > 1 and s.low[i - 2] in ("lo", "la", "l'", "l’", "li", "le"):
                continue
            del plan[i]

    def _predicates(self, d, s, covered, plan, lex, out) -> None:
        n = len(s.low)
        parts = _COPULA_PART if d == "m2f" else _COPULA_PART_F
        for k in range(n - 1):
            if s.low[k] not in _COPULA or not self._person_subject(s, covered, plan, k):
                continue
            found: Plan = {}
            ok = False
            j = k + 1
            while j < n:
                w = s.low[j]
                if s.gap_after(j - 1).strip(" "):
                    break
                if _is_adverb(w):
                    j += 1
                    continue
                if w in parts:
                    if not covered[j]:
                        found[j] = (1, (parts[w],))
                    j += 1
                    continue
                if covered[j] or w in CLOSED:
                    ok = True  # a changed word, or a noun phrase: `è stato un attore`
                    break
                cand = self._predicate_form(d, s, lex, j)
                if cand:
                    ok = True
                    found[j] = (1, (cand,))
                    # `educato e traumatizzato`
                    if j + 2 < n and s.low[j + 1] in ("e", "ed") and s.gap_after(j) == " ":
                        c2 = self._predicate_form(d, s, lex, j + 2)
                        if c2 and not covered[j + 2]:
                            found[j + 2] = (1, (c2,))
                break
            if ok:
                out.update(found)

    def _predicate_form(self, d, s, lex, j) -> str | None:
        w = s.low[j]
        if w in CLOSED or w in _NOT_PREDICATE or s.toks[j][:1].isupper():
            return None
        if j + 1 < len(s.low) and s.low[j + 1] == "che" and s.low[j - 1] not in (
            "talmente", "così", "tanto", "sì",
        ):  # fmt: skip
            return None  # `è stato annunciato che`: impersonal
        seen = lex.seen.get(w)
        if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        z_src = lex.zipf.get(w, 0.0)
        best = None
        for cand in self.morph_candidates(d, w):
            z = lex.zipf.get(cand, 0.0)
            if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
                best = (z, cand)
        return best[1] if best else None


RULES = Italian(
    "it",
    suffixes=[("trici", "tori"), ("trice", "tore"), ("a", "o")],
    copulas=frozenset({"fu", "era", "è", "stato", "stata", "venne", "viene", "essere"}),
    participle_endings=("ato", "ata", "ito", "ita", "uto", "uta"),
    verblike_endings=("ava", "eva", "iva", "ova"),
    copula_bridge=frozenset({"ser", "ha"}),
)
