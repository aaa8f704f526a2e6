"""French word lists for the rewriter (``fr.py``): closed classes, adjectives before the noun,
suffix pairs, and words whose learned changes are wrong as a rule. Written by hand."""

from __future__ import annotations

import re

_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")
#: words with an aspirated h (no elision: `le héros`), and their families
_H_ASPIRE = (
    "hâ", "hach", "haï", "haine", "hall", "halte", "hamea", "hamp", "hanch", "handi", "hang",
    "hant", "harc", "hard", "hareng", "hargn", "haricot", "harp", "hasard", "hât", "hauss",
    "haut", "havr", "hennir", "hér", "héron", "héros", "hêtre", "heurt", "hibou", "hideu",
    "hiérarch", "hiss", "hock", "hold", "hollandais", "homard", "hongr", "honte", "hont", "hoquet",
    "hors", "hot", "houl", "hous", "hubl", "huées", "huit", "hurl", "hutte", "hyène",
)  # fmt: skip
_H_MUET = ("héroïne", "héritier", "héritière", "hérit", "héroïq", "hérés")

# ------------------------------------------------------------------------------ word classes
_PREP = frozenset(
    "de d' à a pour par chez avec sans sur contre vers entre envers selon après avant devant "
    "derrière comme et ou que qu' parmi auprès près malgré sauf hormis outre".split()
)
# `a` above: `à` written without its accent; `que`/`qu'` as in `plus que lui`, `tant que lui-même`

#: words that follow a subject pronoun but are no verb of the person (`il y a`, `il faut`)
_IMPERSONAL_NEXT = frozenset(
    "y faut fallait fallut faudra faudrait s'agit s'agissait s'agira s'agirait existe existait "
    "exista suffit suffisait suffira importe convient convenait vaut valait vaudrait pleut "
    "pleuvait".split()
)
#: verbs impersonal only before `que` or what they introduce (`il arriva que`, `il reste deux
#: tableaux`), personal otherwise (`il arriva à Paris`, `il resta fidèle`, `il semblait las`)
_IMPERSONAL_IF = frozenset(
    "semble semblait sembla reste restait resta paraît paraissait arrive arrivait arriva".split()
)
#: predicates of impersonal `il est/était ... de/que`
_IMPERSONAL_ADJ = frozenset(
    "possible impossible probable improbable nécessaire difficile facile important clair "
    "évident temps vrai certain intéressant rare courant interdit dit rapporté prévu question "
    "compliqué exclu conseillé déconseillé recommandé demandé illégal légal surprenant "
    "étonnant injuste regrettable inquiétant indéniable bon mauvais "
    "dommage inutile utile indispensable essentiel logique normal naturel juste permis "
    "préférable souhaitable fréquent habituel connu admis établi écrit noté crucial impératif "
    "primordial urgent vital annoncé estimé décidé convenu décrété signalé indiqué démontré "
    "prouvé suggéré proposé révélé affirmé déclaré observé constaté expliqué précisé souligné "
    "montré confirmé envisagé temps l'heure".split()
)
_ORDINAL = re.compile(r"\d+(?:e|è|ème|eme|er|re|ère)$")
_EPICENE = frozenset(
    "fan membre porte parole juge ministre maire peintre poète artiste élève adulte enfant "
    "guide chef star vedette personne cible victime témoin modèle mannequin pilote secrétaire "
    "camarade collègue complice partenaire responsable interprète critique athlète "
    "philosophe diplomate architecte compositeur".split()
)
_PARTICIPLE = ("é", "ée", "és", "ées", "u", "ue", "us", "ues", "i", "ie", "is", "ies", "it",
               "ite", "ise", "ises", "ert", "erte", "int", "inte")  # fmt: skip
_AVOIR = frozenset(
    "a avait aurait aura avoir ayant ont avaient eut eu auraient eurent auront ai avais avons "
    "avez avions aviez aurai aurais".split()
)
_SUBJECT_WORDS = frozenset("qui que qu' il elle on ils elles je tu nous vous".split())
_POSSESSIVE = frozenset("sa son ses ma mon mes ta ton tes leur leurs notre nos votre vos".split())
_NUMBERS = frozenset("deux trois quatre cinq six sept huit neuf dix onze douze".split())
_HAVE = frozenset("a avait ont avaient eut eurent aura auront".split())
_COPULA = frozenset(
    "est était fut sera serait soit fût devient devint devenait deviendra resta reste restait "
    "demeure demeura demeurait semble semblait sembla paraît paraissait parut étant "
    "meurt mourut".split()
)
_AUX_ETRE = frozenset("a avait aura aurait eut ayant".split())  # + été
_ADVERBS = frozenset(
    "ne n' pas plus jamais aussi également très alors ensuite toujours souvent déjà bien "
    "encore vite mal tout trop si assez particulièrement notamment rapidement finalement "
    "longtemps presque peu beaucoup même surtout parfois désormais enfin puis tôt tard "
    "largement officiellement brièvement seulement donc ainsi cependant pourtant bientôt moins "
    "plutôt aussitôt guère point jadis naguère".split()
)
_CLITIC_BETWEEN = frozenset("ne n' se s' y en lui leur me m' te t' nous vous".split())

# (feminine, masculine) determiners
_DET_F2M = {"la": "le", "une": "un", "cette": "ce", "ma": "mon", "ta": "ton", "sa": "son"}
_DET_M2F = {"le": "la", "un": "une", "ce": "cette", "cet": "cette", "mon": "ma", "ton": "ta",
            "son": "sa", "du": "de la", "au": "à la"}  # fmt: skip
_DETS = frozenset(_DET_F2M) | frozenset(_DET_M2F) | {"l'", "les", "des", "ses", "aux"}

#: adjectives that stand before the noun, as (feminine, masculine, masculine before a vowel)
_PRE_ADJ = [
    ("jeune", "jeune", ""), ("grande", "grand", ""), ("petite", "petit", ""),
    ("nouvelle", "nouveau", "nouvel"), ("vieille", "vieux", "vieil"), ("belle", "beau", "bel"),
    ("première", "premier", ""), ("dernière", "dernier", ""), ("seule", "seul", ""),
    ("ancienne", "ancien", ""), ("future", "futur", ""), ("meilleure", "meilleur", ""),
    ("mauvaise", "mauvais", ""), ("bonne", "bon", ""), ("chère", "cher", ""),
    ("fameuse", "fameux", ""), ("sainte", "saint", ""), ("seconde", "second", ""),
    ("même", "même", ""), ("autre", "autre", ""), ("célèbre", "célèbre", ""),
    ("véritable", "véritable", ""), ("unique", "unique", ""), ("éminente", "éminent", ""),
    ("brillante", "brillant", ""), ("talentueuse", "talentueux", ""),
    ("prolifique", "prolifique", ""),
    ("populaire", "populaire", ""), ("riche", "riche", ""), ("pauvre", "pauvre", ""),
    ("digne", "digne", ""), ("ex", "ex", ""), ("vice", "vice", ""), ("demi", "demi", ""),
    ("arrière", "arrière", ""), ("sous", "sous", ""), ("co", "co", ""), ("feue", "feu", ""),
    ("défunte", "défunt", ""), ("actuelle", "actuel", ""), ("éventuelle", "éventuel", ""),
    ("principale", "principal", ""), ("ancienne", "ancien", ""), ("fidèle", "fidèle", ""),
    ("grande", "grand", ""), ("toute", "tout", ""), ("haute", "haut", ""),
    ("petites", "petits", ""), ("belles", "beaux", ""), ("grandes", "grands", ""),
    ("nouvelles", "nouveaux", ""), ("premières", "premiers", ""), ("dernières", "derniers", ""),
    ("seules", "seuls", ""), ("anciennes", "anciens", ""), ("futures", "futurs", ""),
    ("meilleures", "meilleurs", ""), ("bonnes", "bons", ""), ("chères", "chers", ""),
    ("saintes", "saints", ""), ("vieilles", "vieux", ""), ("fameuses", "fameux", ""),
    ("éminentes", "éminents", ""), ("principales", "principaux", ""), ("hautes", "hauts", ""),
]  # fmt: skip
_PRE_F2M: dict[str, tuple[str, str]] = {}
_PRE_M2F: dict[str, str] = {}
for _f, _m, _mv in _PRE_ADJ:
    _PRE_F2M[_f] = (_m, _mv or _m)
    _PRE_M2F[_m] = _f
    if _mv:
        _PRE_M2F[_mv] = _f

#: `grand-père` → `grand-mère`: the prefix of these compounds does not agree
_FIXED_PREFIX = frozenset({"grand", "grands", "demi", "vice", "ex", "arrière", "co", "sous", "mi"})

# (feminine ending, masculine ending): suffix guesses, longest first
_SUFFIXES = [
    ("eresse", "eur"), ("euses", "eurs"), ("euses", "eux"), ("euse", "eur"), ("euse", "eux"),
    ("rices", "eurs"), ("rice", "eur"),
    ("iennes", "iens"), ("ienne", "ien"), ("éennes", "éens"), ("éenne", "éen"),
    ("ives", "ifs"), ("ive", "if"), ("ères", "ers"), ("ère", "er"), ("elles", "els"),
    ("elle", "el"), ("ettes", "ets"), ("ette", "et"), ("onnes", "ons"), ("onne", "on"),
    ("eures", "eurs"), ("eure", "eur"), ("ées", "és"), ("ée", "é"), ("ues", "us"), ("ue", "u"),
    ("ies", "is"), ("ie", "i"), ("ises", "is"), ("ise", "is"), ("ites", "its"), ("ite", "it"),
    ("antes", "ants"), ("ante", "ant"), ("entes", "ents"), ("ente", "ent"),
    ("aises", "ais"), ("aise", "ais"), ("oises", "ois"), ("oise", "ois"),
    ("aines", "ains"), ("aine", "ain"), ("ines", "ins"), ("ine", "in"),
    ("ales", "aux"), ("ale", "al"), ("uses", "us"), ("use", "us"), ("ortes", "orts"),
    ("orte", "ort"), ("ottes", "ots"), ("otte", "ot"), ("ardes", "ards"), ("arde", "ard"),
    ("andes", "ands"), ("ande", "and"), ("ètes", "ets"), ("ète", "et"),
    ("ouses", "oux"), ("ouse", "oux"), ("ites", "its"),
]  # fmt: skip
#: endings of a masculine word that may also be a verb form (`il écrit`, `il finit`): guessed
#: only as a predicate or right after a changed noun-phrase word
_VERBLIKE_M = ("it", "is", "i", "ut", "ant", "ent")

_NEVER = {
    "f2m": ["femme", "elle", "mme", "la", "une", "sa", "cette", "ma", "de la", "à la", "filles",
            "toutes", "vieille", "belles", "demie", "fille", "ancienne"],
    "m2f": ["il", "lui", "m", "le", "un", "son", "ce", "mon", "du", "au", "tous", "demi",
            "vieil", "beaux", "rendu", "fils", "ancien", "monsieur",
            # a change of meaning, not of agreement: `le tournoi masculin` may be the men's
            "masculin", "masculins", "masculine", "masculines"],
}  # fmt: skip
#: infinitives that link a subject to its predicate (`d'être nommée`, `avant de devenir`)
_INF_COPULA = frozenset("être devenir rester demeurer sembler paraître".split())
#: participles of a reflexive `s'est` whose `se` is an indirect object (no agreement)
_REFLEXIVE_DATIVE = frozenset("permis demandé dit donné fait accordé offert".split())
#: pronouns before `des`/`de ces`/`les` + a plural noun, which agree with it
_QUANT_M2F = {
    "un": "une", "aucun": "aucune", "chacun": "chacune", "certains": "certaines",
    "tous": "toutes", "plusieurs": "plusieurs", "nul": "nulle",
}  # fmt: skip
#: endings of nouns of both genders (`une journaliste`, `un libraire`, `une critique`)
_EPICENE_ENDINGS = ("iste", "aire", "ique", "logue", "graphe", "ète", "crate", "iatre")
#: endings of nouns of agents (a role after `comme`: `comme ambassadeur`, not `comme prévu`)
_AGENT_M = ("eur", "ien", "ier", "er", "ant", "ent", "at", "ain", "in", "an", "on", "ais", "ois")
_AGENT_F = ("euse", "rice", "ienne", "ière", "ère", "ante", "ente", "ate", "aine", "ine", "ane",
            "onne", "aise", "oise", "esse")  # fmt: skip
#: words whose other-gender look-alike is another word (`médecine`, `marine`)
_NO_GUESS = frozenset("médecin marin mari pair prospère".split())
#: words with a participle's ending that are none (kept after `avoir`: `a été`, `avait, lui aussi`)
_NOT_PARTICIPLE = frozenset("été lui fils mari roi ami amis".split())
#: fixed complements of a person noun, skipped before its adjectives
_NOUN_COMPLEMENTS = frozenset({("d'", "affaires"), ("de", "lettres"), ("d'", "état"),
                               ("de", "ménage"), ("de", "chambre"), ("de", "loi")})  # fmt: skip

#: participles that name the person with a noun phrase (`élu le joueur de l'année`)
_NAMING = frozenset(
    w + e
    for w in "élu réélu nommé proclamé désigné sacré couronné déclaré choisi devenu resté "
    "redevenu consacré".split()
    for e in ("", "e")
)
#: nouns of one grammatical gender whoever they name (`une victime`, `un personnage`): a
#: predicate noun phrase with one of them keeps its article
_ONE_GENDER = frozenset(
    "personne victime vedette star cible figure cause idole recrue personnalité célébrité "
    "icône légende sentinelle symbole centre personnage sujet individu être ange génie "
    "bourreau tyran visage voix âme créature".split()
)
#: verbs before a bare infinitive whose subject is theirs (`il voulut le vendre`)
_MODALS = frozenset(
    "veut voulait voulut voudra voudrait peut pouvait put pourra pourrait doit devait dut "
    "devra devrait sait savait sut va allait alla ira irait vient venait vint osa osait "
    "préféra préférait espérait espéra".split()
)
