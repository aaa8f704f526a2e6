"""Italian word lists for the rewriter (``it.py`` and its ``it_*.py`` rules): closed classes,
verbs, person nouns, and the tables derived from them.

Kept apart from the rules so the rules read as rules; all written by hand, none taken from the
benchmark data.
"""

from __future__ import annotations

_VOWELS = set("aeiouhàèéìíòóùú")

_PRON_NEXT = frozenset({"di", "tra", "fra", "d'"})

#: verbs whose predicate agrees with their subject
_COPULA = frozenset(
    {
        "è", "era", "fu", "sia", "fosse", "sarebbe", "sarà", "essere", "essendo", "venne",
        "viene", "veniva", "verrà", "rimase", "rimaneva", "rimane", "divenne", "diventò",
        "diventa", "diventava", "sembrava", "sembrò", "apparve", "risultò", "morì", "nacque",
        "essersi",
    }
)  # fmt: skip

#: participles of essere / diventare / rimanere: they agree and carry the chain on
_COPULA_PART = {
    "stato": "stata", "diventato": "diventata", "divenuto": "divenuta", "rimasto": "rimasta",
}  # fmt: skip

_ADVERBS = frozenset(
    {
        "non", "mai", "poi", "anche", "già", "sempre", "ancora", "molto", "più", "meno", "ben",
        "assai", "così", "tanto", "talmente", "quasi", "pure", "persino", "perfino", "spesso",
        "inoltre", "infine", "subito", "presto", "ormai", "davvero", "piuttosto", "troppo",
        "alquanto", "altrettanto", "tuttavia", "quindi", "dunque", "allora", "ufficialmente",
        "successivamente", "recentemente", "inizialmente", "abbastanza", "però", "invece",
        "infatti", "comunque", "forse", "oggi", "ieri",
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
        "nato", "nata", "colpa", "accaduto", "accaduta", "avvenuto", "avvenuta",
        # participles said of works and buildings, never of a person
        "pubblicato", "pubblicata", "distribuito", "distribuita",
        "trasmesso", "trasmessa", "costruito", "costruita", "edificato", "edificata",
        "stampato", "stampata",
    }
)  # fmt: skip

_OBJ_CLITICS = frozenset({"lo", "la", "gli", "le", "l'", "l’"})

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
        "avrebbe", "ebbe", "avuto", "avrà", "ho", "avevo", "avessero", "avrebbero", "abbiano",
        "ebbero", "avranno",
    }
)  # fmt: skip

_ORDINALS = [
    "primo", "secondo", "terzo", "quarto", "quinto", "sesto", "settimo", "ottavo", "nono",
    "decimo", "ultimo", "penultimo",
]  # fmt: skip

#: verbs after which an ordinal is the person's placing
_RANKING = frozenset(
    {"finì", "arrivò", "giunse", "classificò", "piazzò", "terminò", "concluse", "arrivando",
     "finendo", "classificandosi", "piazzandosi"}
)  # fmt: skip

_POSSESSIVE_SWAP = {
    "m2f": {"suo": "sua", "mio": "mia", "tuo": "tua", "nostro": "nostra", "vostro": "vostra",
            "suoi": "sue", "miei": "mie", "tuoi": "tue", "nostri": "nostre", "vostri": "vostre"},
    "f2m": {"sua": "suo", "mia": "mio", "tua": "tuo", "nostra": "nostro", "vostra": "vostro",
            "sue": "suoi", "mie": "miei", "tue": "tuoi", "nostre": "nostri", "vostre": "vostri"},
}  # fmt: skip

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
illustratore illustratrice scultore scultrice incisore incisora
esploratore esploratrice creatore creatrice
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
padri madri uomini donne ragazzi ragazze mariti mogli re regine duchi duchesse attori attrici
""".split()

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

_FINITE_ENDINGS = (
    "ò", "ì", "arono", "erono", "irono", "ava", "avano", "eva", "evano", "iva", "ivano",
    "asse", "esse", "isse", "assero", "essero", "issero", "ebbe", "ebbero", "ette", "ettero",
    "rebbe", "rebbero", "erà", "irà", "arà",
)  # fmt: skip

#: verbs whose object `lo` is usually a thing (`non lo disse`, `lo faceva`)
_THING_VERBS = frozenset(
    {
        "disse", "dice", "diceva", "fece", "fa", "faceva", "sapeva", "sa", "seppe", "sapesse",
        "fosse", "era", "è", "fu", "sia",
    }
)  # fmt: skip

_PREPOSITIONS = frozenset(
    {"di", "a", "ad", "da", "in", "con", "su", "per", "tra", "fra", "sotto", "come", "d'"}
)

_PLAIN_ARTICLES = frozenset(
    {"il", "lo", "la", "i", "gli", "le", "l'", "l’", "un", "uno", "una", "un'", "un’"}
)

_DEMONSTRATIVES = frozenset(
    {"questo", "questa", "questi", "queste", "quest'", "quel", "quello", "quella", "quei",
     "quegli", "quelle", "quell'", "quest’", "quell’"}
)  # fmt: skip

_CHE_CONJ = frozenset(
    {"dato", "visto", "tanto", "così", "sì", "prima", "dopo", "finché", "appena", "ora", "pensava",
     "credeva", "sapeva", "secondo", "volta"}
)  # fmt: skip

_GROUP_ADJ = {
    "primi": "prime", "ultimi": "ultime", "pochi": "poche", "soli": "sole", "unici": "uniche",
}  # fmt: skip

#: nouns of both genders: the article alone tells (`un fan` / `una fan`)
_COMMON_NOUNS = frozenset(
    {
        "fan", "portavoce", "nipote", "collega", "leader", "star", "interprete", "cantante",
        "insegnante", "docente", "agente", "manager", "atleta", "pilota", "stilista",
        "presidente", "dirigente", "rappresentante", "protagonista", "erede", "custode",
        "consorte", "coniuge", "parente", "testimone", "musicista", "artista", "giornalista",
    }
)  # fmt: skip

#: ... that name someone else more often than the person, outside a predicate
_OTHER_PEOPLE = frozenset(
    {"agente", "manager", "erede", "parente", "testimone", "custode", "consorte", "coniuge"}
)

_COMMON_ENDINGS = ("ista", "cida")

_NOT_COMMON = frozenset(
    {"rivista", "lista", "intervista", "vista", "pista", "conquista", "svista", "revista",
     "autopista", "provvista", "riconquista", "insetticida", "erbicida", "pesticida"}
)  # fmt: skip

#: words that may follow a predicate noun without being its head
_NP_FOLLOW = frozenset(
    {
        "di", "d'", "e", "ed", "che", "a", "ad", "in", "per", "da", "con", "su", "tra", "fra",
        "o", "ma", "come", "quando", "dove", "mentre", "nel", "nella", "del", "della", "al",
        "alla", "dal", "dalla", "sul", "sulla", "dell'", "nell'", "all'", "dall'", "dei",
        "degli", "delle", "nei", "negli", "nelle", "ai", "agli", "alle",
    }
)  # fmt: skip

#: participles that take a predicate noun phrase (`fu nominato il primo direttore`)
_PREDICATIVE = (
    "diventat", "divenut", "considerat", "nominat", "decretat", "elett", "proclamat",
    "chiamat", "definit", "ritenut", "dichiarat", "riconosciut", "scelt", "votat", "designat",
    "stat", "rimast", "nat", "mort",
)  # fmt: skip

_FINITE_VERBS = frozenset({"ha", "hanno", "è", "era", "fu", "aveva", "sono", "erano", "furono"})

#: the participles of ``_COPULA_PART``, feminine to masculine
_COPULA_PART_F = {v: k for k, v in _COPULA_PART.items()}
_GROUP_ADJ_F = {v: k for k, v in _GROUP_ADJ.items()}

_ORDINAL_SWAP = {
    "m2f": {o: o[:-1] + "a" for o in _ORDINALS},
    "f2m": {o[:-1] + "a": o for o in _ORDINALS},
}
_ORDINAL_PLURALS = frozenset(o[:-1] + e for o in _ORDINALS for e in "ie")
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

#: the hand list of person nouns per direction: {"m2f": {masculine: feminine}, "f2m": {...}}
_NOUN_SWAP: dict[str, dict[str, str]] = {"m2f": {}, "f2m": {}}
for _m, _f in zip(_PERSON_NOUNS[::2], _PERSON_NOUNS[1::2], strict=True):
    _NOUN_SWAP["m2f"].setdefault(_m, _f)
    _NOUN_SWAP["f2m"].setdefault(_f, _m)
#: plural person nouns of the hand list, for `uno dei X`
_PLURAL_PERSON = {
    "m2f": {"padri": "madri", "fratelli": "sorelle", "figli": "figlie", "uomini": "donne"},
    "f2m": {"madri": "padri", "sorelle": "fratelli", "figlie": "figli", "donne": "uomini"},
}
#: nouns of one grammatical gender said of anyone: nothing about them changes
_INVARIANT_NOUNS = frozenset(
    {"membro", "soprano", "mezzosoprano", "contralto", "capo", "figura", "persona", "vittima",
     "guida", "spia", "icona", "stella", "personalità", "voce", "celebrità", "recluta",
     "sentinella", "genio", "idolo", "simbolo", "leggenda", "punto", "esempio", "pioniere"}
)  # fmt: skip
#: endings of person nouns whose feminine is much rarer in text than the masculine
_PERSONISH = ("ato", "ico", "logo", "grafo", "iere", "ario", "aco", "urgo", "nomo", "ano")
_SPORTS = frozenset(
    {"calcio", "pallavolo", "pallacanestro", "tennis", "rugby", "hockey", "baseball", "basket",
     "football", "ciclismo", "atletica", "scherma", "nuoto", "sci", "golf", "pallamano"}
)  # fmt: skip
_PART_ENDINGS = ("ato", "ata", "ito", "ita", "uto", "uta")
_AGENT_PREPS = frozenset({"da", "dal", "dallo", "dalla", "dall'", "dall’", "dai", "dagli", "dalle"})

#: `maschile` ↔ `femminile`: a change of meaning, not an agreement, so nothing agrees with it
_LEXICAL_GENDER = frozenset({"maschile", "femminile", "maschili", "femminili"})

#: finite forms of avere before a modal's participle (`avrebbe dovuto essere`)
_AUX = frozenset({"ha", "aveva", "avrebbe", "ebbe", "avesse", "abbia", "avrà"})

#: pronouns for anyone, masculine whatever the person's gender
_GENERIC = frozenset(
    {"nessuno", "qualcuno", "chiunque", "ognuno", "ciascuno", "tutti", "molti", "alcuni"}
)

#: verbs whose infinitive takes their own subject (`L'incontro potrebbe essere rinviato`)
_MODALS = frozenset(
    {"può", "poteva", "potrebbe", "potrà", "deve", "doveva", "dovrebbe", "dovrà", "sembra",
     "sembrava", "sembrò", "pareva", "vuole", "voleva", "volle", "dovette", "poté", "potesse"}
)  # fmt: skip

_QUOTES = set("\"“”«»‘’'%")

#: finite and infinitive forms of essere and venire before a predicate
_COPULA_VERBS = frozenset(
    {"è", "era", "fu", "sia", "fosse", "sarà", "sarebbe", "venne", "viene", "veniva"}
)  # fmt: skip

#: stems of adjectives that stand before their noun (`una buona giornata`, `un vero affare`)
_PRENOMINAL = frozenset(
    {"buon", "brav", "bell", "ver", "nuov", "vecchi", "piccol", "ottim", "pessim", "cattiv",
     "brutt", "lung", "stran", "car", "vast", "ampi", "enorm", "grav"}
)  # fmt: skip

_INDEFINITE = frozenset({"un", "uno", "una", "un'", "un’"})
