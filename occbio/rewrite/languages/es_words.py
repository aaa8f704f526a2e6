"""Spanish word lists and small word tests for the rewriter (``es.py`` holds the rules).

Written from the choosing half of MT-GenEval dev and Spanish grammar; hand-made (occbio, MIT)."""

from __future__ import annotations

import re

from occbio.rewrite.languages.base import Sentence

_CONTRACTIONS = {("de", "el"): "del", ("a", "el"): "al"}

# --------------------------------------------------------------------------- object clitics
# verb stems that (almost) always take a person as object in a biography
_PERSON_VERB = re.compile(
    r"^(?:llev|llam|apod|describ|consider|recuerd|record|nombr|conden|enterr|interrog|oblig|"
    r"anim|ayud|destin|abraz|ofend|encerr|vincul|preocup|elev|disuad|acus|arrest|detuv|deten|"
    r"captur|asesin|secuestr|expuls|exili|desterr|invit|contrat|fich|bautiz|coron|proclam|"
    r"design|elig|eleg|sucedi|suced|reconoc|convenc|inclu|incluy|recog|recoj|quis|quier|"
    r"visit|acompañ|apoy|derrot|venc|tortur|persigu|ascend|promov|promuev|entrevist|"
    r"admir|ador|salv|rescat|liber|ejecut|ahorc|fusil|enjuici|juzg|absolv|destitu|destituy|"
    r"derroc|excomulg|canoniz|beatific|consagr|electrocut|observ|sustitu|sustituy|reemplaz|"
    r"educ|entren|mat|hiri|golpe|engañ|odi|am|bes|seleccion|reclut)"
    r"(?:ó|ió|o|aron|ieron|eron|aba|aban|ara|aran|iera|ieran|ase|asen|iese|iesen|ará|arán|aría|"
    r"arían|erá|erán|irá|irán|ería|erían|iría|irían|ía|ían|a|an|e|en|ado|ido|ar|er|ir|ando|"
    r"iendo|yendo|ándo|iéndo|yéndo)$"
)
# endings of finite forms (no bare -a/-e present forms, which look like nouns: la ayuda)
_FINITE = re.compile(
    r"(?:ó|aron|aba|aban|ara|aran|ase|asen|ará|arán|aría|arían|ió|ieron|ía|ían|iera|ieran|"
    r"iese|iesen|erá|erán|irá|irán|ería|erían|iría|irían|an|en|aste|é)$"
)
_PRESENT = re.compile(r"(?:a|e)$")
_NOUNLIKE = frozenset(
    {"ayuda", "condena", "captura", "llama", "ama", "visita", "ejecuta", "cría", "apoya",
     "educa", "mata", "golpe", "salva", "elige", "acusa", "odia", "adora", "besa",
     "invita", "llaman", "aman", "aran", "den", "en", "an", "cien", "amen", "orden", "crien",
     "corona", "derrota", "tortura", "ficha", "asesina", "proclama", "anima", "admira",
     "observa", "entrena", "libera", "salve", "llave", "amaba", "amo", "ame"}
)  # fmt: skip
_AUX = frozenset({"había", "habían", "ha", "han", "hubiera", "hubieran", "habría", "haya"})
_ENCLITIC = re.compile(r"^(\w+?(?:ar|er|ir|ando|iendo|ándo|iéndo|yéndo))(lo|la|los|las)$")
_PREPS = frozenset(
    {"a", "de", "en", "con", "por", "para", "sin", "sobre", "contra", "entre", "hacia", "hasta",
     "desde", "según", "tras", "durante", "mediante", "ante", "bajo", "del", "al", "es", "fue",
     "era", "toda", "como"}
)  # fmt: skip

# --------------------------------------------------------------------------- person nouns
# Hand-written from Spanish grammar (not from MT-GenEval): nouns of persons with a masculine
# and a feminine form. `*`: also an adjective (`un científico` but `el método científico`), so
# changed only as a noun, right after a determiner; `<`: masculine → feminine only (the
# feminine form is also another word: `materia prima`, `obra maestra`, `la mujer` is also a
# wife). Plurals are derived. Kinship, sex-specific nouns and titles of nobility (up to
# `abad`) change both ways; offices and trades (from `alcalde` on) only feminine → masculine: a
# masculine `el presidente`, `su abogado` is as often another person or the generic form
# (measured on the choosing half: both ways cost 1.7 points of precision for 4 of exact).
# A masculine plural (`sus hijos`, `los maestros`) is as often a mixed group: feminine →
# masculine only.
# `>`: feminine → masculine only: a masculine friend, companion, servant or bishop
# (`con un amigo`, `el arzobispo de`) is another person far more often than the subject.
_PERSON_PAIRS = """
padre madre, hijo hija, hermano hermana, abuelo abuela, bisabuelo bisabuela,
tatarabuelo tatarabuela, nieto nieta, bisnieto bisnieta, tataranieto tataranieta, tío tía,
sobrino sobrina, primo prima <, cuñado cuñada, suegro suegra, yerno nuera, padrastro madrastra,
hijastro hijastra, hermanastro hermanastra, padrino madrina, ahijado ahijada, esposo esposa,
marido mujer <, exmarido exmujer <, exesposo exesposa, novio novia, prometido prometida *,
viudo viuda *, huérfano huérfana *, gemelo gemela *, mellizo melliza *, papá mamá, papi mami,
niño niña, chico chica *, muchacho muchacha, chaval chavala, hombre mujer <, señor señora,
caballero dama <, criado criada >, mayordomo mayordoma >, sirviente sirvienta >,
esclavo esclava *>, vecino vecina *>, amigo amiga >, enemigo enemiga *>, compañero compañera >,
monje monja, novicio novicia,
sacerdote sacerdotisa, obispo obispa >, arzobispo arzobispa >, dios diosa, héroe heroína,
villano villana, rey reina, príncipe princesa, duque duquesa, archiduque archiduquesa,
conde condesa, vizconde vizcondesa, marqués marquesa, barón baronesa, emperador emperatriz,
zar zarina, sultán sultana, heredero heredera, abad abadesa, alcalde alcaldesa,
gobernador gobernadora, presidente presidenta, vicepresidente vicepresidenta,
expresidente expresidenta, director directora, subdirector subdirectora, codirector codirectora,
jefe jefa *, ministro ministra, exministro exministra, secretario secretaria, diputado diputada,
senador senadora, concejal concejala, embajador embajadora, abogado abogada, médico médica *,
doctor doctora, enfermero enfermera, cirujano cirujana, psicólogo psicóloga,
profesor profesora, maestro maestra <, alumno alumna, exalumno exalumna, discípulo discípula,
catedrático catedrática *, decano decana, rector rectora, investigador investigadora,
científico científica *, ingeniero ingeniera, arquitecto arquitecta, biólogo bióloga,
filósofo filósofa, historiador historiadora, arqueólogo arqueóloga, astrónomo astrónoma,
antropólogo antropóloga, sociólogo socióloga, teólogo teóloga, geólogo geóloga,
escritor escritora, autor autora, coautor coautora, dramaturgo dramaturga, editor editora,
redactor redactora, traductor traductora, fotógrafo fotógrafa, pintor pintora,
escultor escultora, ilustrador ilustradora, diseñador diseñadora, músico música <,
compositor compositora, cantautor cantautora, actor actriz, bailarín bailarina,
coreógrafo coreógrafa, productor productora <, presentador presentadora, locutor locutora,
jugador jugadora, nadador nadadora, boxeador boxeadora, luchador luchadora,
entrenador entrenadora, árbitro árbitra, capitán capitana, campeón campeona,
subcampeón subcampeona, ganador ganadora *, aviador aviadora, marinero marinera,
guerrero guerrera, inspector inspectora, bombero bombera, cocinero cocinera, panadero panadera,
carnicero carnicera, granjero granjera, campesino campesina *, agricultor agricultora,
ganadero ganadera *, pescador pescadora, minero minera *, obrero obrera *,
trabajador trabajadora *, empleado empleada, funcionario funcionaria, empresario empresaria *,
vendedor vendedora, banquero banquera, millonario millonaria *, multimillonario multimillonaria *,
propietario propietaria, dueño dueña, socio socia, fundador fundadora, cofundador cofundadora,
administrador administradora, consejero consejera, asesor asesora, colaborador colaboradora,
revolucionario revolucionaria *, pionero pionera *, explorador exploradora, viajero viajera *,
aventurero aventurera *, inventor inventora, creador creadora, sucesor sucesora,
predecesor predecesora, antecesor antecesora, seguidor seguidora, partidario partidaria,
aliado aliada, adversario adversaria, vencedor vencedora, prisionero prisionera,
recluso reclusa, asesino asesina *, ladrón ladrona, refugiado refugiada, exiliado exiliada,
ciudadano ciudadana *, invitado invitada, anfitrión anfitriona, enfermo enferma *,
mendigo mendiga, anciano anciana *, adulto adulta *, narrador narradora, lector lectora,
espectador espectadora, admirador admiradora, mentor mentora, tutor tutora, becario becaria,
licenciado licenciada, graduado graduada, candidato candidata, delegado delegada,
tesorero tesorera, cajero cajera, camarero camarera, peluquero peluquera, zapatero zapatera,
carpintero carpintera, fontanero fontanera, conductor conductora, mensajero mensajera,
pasajero pasajera, peregrino peregrina, misionero misionera, pastor pastora, rabino rabina,
brujo bruja, hechicero hechicera, mago maga, siervo sierva, vasallo vasalla,
cortesano cortesana *, plebeyo plebeya *, burgués burguesa *, ermitaño ermitaña, judío judía *,
cristiano cristiana *, musulmán musulmana *, budista budista, monarca monarca
"""


def _es_plural(w: str) -> str:
    unaccent = str.maketrans("áéíóú", "aeiou")
    if w[-1] in "aeiouáéó":
        return w + "s"
    if w.endswith("z"):
        return w[:-1] + "ces"
    if len(w) > 2 and w[-2] in "áéíóú" and w[-1] in "ns":
        return w[:-2] + w[-2].translate(unaccent) + w[-1] + "es"
    return w + "es"


def _person_table() -> dict[str, dict[str, tuple[str, bool]]]:
    """{direction: {source: (target, noun only after a determiner)}}."""
    out: dict[str, dict[str, tuple[str, bool]]] = {"m2f": {}, "f2m": {}}
    kin = True
    for item in _PERSON_PAIRS.split(","):
        if item.split()[:1] == ["alcalde"]:
            kin = False  # from here on: offices and trades
        parts = item.split()
        if len(parts) < 2 or parts[0] == parts[1]:
            continue
        m, f, flags = parts[0], parts[1], "".join(parts[2:])
        # agent nouns are adjectives after a noun too (`miembro fundador`, `abogado defensor`)
        adj = "*" in flags or m.endswith(("dor", "tor", "sor"))
        for a, b, plural in ((m, f, False), (_es_plural(m), _es_plural(f), True)):
            # a masculine plural is as often a mixed group (`sus hijos`, `los maestros`)
            if ">" not in flags and not plural and kin:
                out["m2f"].setdefault(a, (b, adj))
            if "<" not in flags:
                out["f2m"].setdefault(b, (a, adj))
    return out


_PERSON = _person_table()
_GENDER_WORD = re.compile(r"^(masculin|femenin|patern|matern)(o|a|os|as)$")
_GENDER_STEMS = {
    "m2f": {"masculin": "femenin", "patern": "matern"},
    "f2m": {"femenin": "masculin", "matern": "patern"},
}
_APPOSITIVE = frozenset(
    {"conocido", "conocida", "conocidos", "conocidas", "llamado", "llamada", "llamados",
     "llamadas", "denominado", "denominada", "apodado", "apodada"}
)  # fmt: skip
_REL_M2F = {"el": "la", "al": "a la", "del": "de la", "los": "las", "a el": "a la"}
_REL_F2M = {"la": "el", "las": "los"}
_PERSON_SHARE = 0.5
#: words after which a noun-or-adjective is a noun
_NOUN_DETS = frozenset(
    {"el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al", "su", "sus", "este",
     "esta", "estos", "estas", "ese", "esa", "esos", "esas", "aquel", "aquella", "otro", "otra",
     "otros", "otras", "mi", "mis", "nuestro", "nuestra", "cada", "como", "primer", "primera",
     "gran", "joven", "jóvenes", "dos", "tres", "cuatro", "cinco", "varios", "varias", "muchos",
     "muchas", "algunos", "algunas"}
)  # fmt: skip
_NOUN_LEFT = _NOUN_DETS | {"y", "e", "o", "fue", "era", "es", "ser", "sido", "siendo"}

# --------------------------------------------------------------------------- agreement
_NUMBERS = frozenset(
    {"dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce",
     "trece", "catorce", "quince", "veinte", "treinta", "cien", "ciento", "mil"}
)  # fmt: skip
#: invariable modifiers that stand between an article and its noun
_MODS = _NUMBERS | frozenset(
    {"joven", "jóvenes", "gran", "grandes", "pobre", "pobres", "mejor", "mejores", "peor",
     "peores", "mayor", "mayores", "menor", "menores", "adolescente", "hábil", "jovial", "doble",
     "célebre", "ilustre", "insigne", "noble", "valiente", "humilde", "influyente", "eminente",
     "prominente", "brillante", "excelente", "importante", "notable", "principal", "popular",
     "legendario", "futuro", "posible", "actual", "cruel", "leal", "fiel", "feliz", "dulce",
     "gentil", "fuerte", "triste", "inteligente", "más"}
)  # fmt: skip
#: words that agree with the next noun when it changed {masculine: feminine}
_PRE_AGREE = {
    "otro": "otra", "otros": "otras", "primer": "primera", "tercer": "tercera",
    "buen": "buena", "mal": "mala", "algún": "alguna", "ningún": "ninguna", "mismo": "misma",
    "propio": "propia", "único": "única", "último": "última", "nuevo": "nueva",
    "viejo": "vieja", "segundo": "segunda", "pequeño": "pequeña", "todo": "toda",
    "todos": "todas", "cuyo": "cuya", "cuyos": "cuyas", "dicho": "dicha", "aquel": "aquella",
}  # fmt: skip
#: person nouns of common gender (the article alone carries the gender)
_COMMON = frozenset(
    {"líder", "líderes", "responsable", "protagonista", "gobernante", "estratega", "fan",
     "demócrata", "reincidente", "menor", "mayor", "representante", "estudiante", "cantante",
     "dirigente", "militante", "comandante", "agente", "intérprete", "colega", "rival",
     "testigo", "atleta", "portavoz", "aprendiz", "cónyuge", "homicida", "aristócrata",
     "burócrata", "psiquiatra", "pediatra", "astronauta", "policía", "paciente", "superviviente",
     "sobreviviente", "descendiente", "ayudante", "amante", "adolescente", "joven", "heredero",
     "jefe", "conserje", "guardameta", "portero", "piloto", "criminal", "rebelde", "espía",
     "culturista", "fiscal", "juez", "mártir", "civil", "profeta", "poeta", "políglota",
     "demócratas", "estudiantes", "cantantes", "dirigentes", "representantes", "atletas",
     "jóvenes"}
)  # fmt: skip
_NOT_ISTA = frozenset(
    {"lista", "listas", "pista", "pistas", "vista", "vistas", "revista", "revistas", "conquista",
     "entrevista", "arista", "ista", "imprevista", "prevista"}
)  # fmt: skip
_COPULAS = frozenset(
    {"fue", "era", "es", "sido", "ser", "siendo", "será", "sería", "fuera", "fuese", "estaba",
     "estuvo", "está", "estar", "estado", "resultó", "quedó", "parece", "parecía", "pareció",
     "convirtió", "convertirse", "convertido", "convertida", "convierte", "consideraba",
     "considera", "considerado", "considerada", "nombrado", "nombrada", "declarado", "declarada",
     "como", "sintió", "sentía", "siente", "mostró", "mantuvo", "encontraba"}
)  # fmt: skip
_TAKE_EN = frozenset({"convirtió", "convertirse", "convertido", "convertida", "convierte"})
_ADVS = frozenset(
    {"más", "muy", "bastante", "tan", "también", "siempre", "ya", "no", "menos", "mejor",
     "especialmente", "particularmente", "sumamente", "extremadamente", "realmente", "todavía",
     "aún", "ampliamente", "generalmente", "principalmente", "probablemente", "quizás",
     "entonces", "luego", "pronto", "incluso", "igualmente", "cada", "vez", "nunca", "sobre",
     "todo", "considerado", "considerada", "mundialmente", "internacionalmente", "bien",
     "demasiado", "poco", "algo", "nada"}
)  # fmt: skip
_BOUNDARY_WORDS = frozenset(
    {"y", "pero", "cuando", "donde", "aunque", "porque", "mientras", "si", "pues", "e", "o", "ni",
     "sino", "tras", "después", "antes"}
)  # fmt: skip
_SKIP_SUBJ = frozenset(
    {"se", "no", "también", "ya", "nunca", "siempre", "luego", "después", "entonces", "pronto",
     "finalmente", "posteriormente", "más", "tarde", "además", "aún", "todavía", "incluso",
     "lo", "la", "le", "me", "te", "nos", "sin", "embargo", "sí", "solo", "sólo", "así", "fue",
     "era", "es", "ha", "había", "habría", "sido", "siguió", "sigue", "seguía", "llegó", "llegaría",
     "demostró", "volvió", "pasó", "quería", "quiso", "pudo", "podía", "puede", "debía", "logró",
     "consiguió", "solía", "comenzó", "empezó", "intentó", "esperaba", "aceptó", "decidió", "a",
     "de", "para", "acabó", "terminó", "por"}
)  # fmt: skip
#: never guessed by suffix: another word in the other gender, adverbs, verbs
_NO_GUESS = frozenset(
    {"caso", "casos", "intento", "punto", "puerto", "bando", "cuento", "fondo", "plazo", "río",
     "tanto", "tanta", "junto", "claro", "modelo", "trabajo", "barco", "peligro", "relato",
     "esfuerzo", "paso", "pasos", "libro", "cargo", "centro", "resto", "uso", "año", "años",
     "suelo", "vuelo", "cambio", "gobierno", "título", "mundo", "estilo", "medio", "hecho",
     "puesto", "costo", "sueño", "partido", "contenido", "sentido", "resultado", "estado",
     "mercado", "grado", "lado", "pasado", "ejército", "juego", "documento", "ministerio",
     "acuerdo", "público", "trato", "canto", "manto", "marco", "palo", "pelo", "sentado", "bajo",
     "publicado", "publicada", "publicados", "publicadas", "editado", "editada", "lanzado",
     "lanzada", "estrenado", "estrenada", "grabado", "grabada", "producido", "producida",
     "escrito", "escrita", "traducido", "traducida", "garantizado", "garantizada", "comprado",
     "comprada", "cancelado", "cancelada", "vendido", "vendida", "construido", "construida",
     "diseñado", "diseñada", "compuesto", "compuesta", "emitido", "emitida", "filmado",
     "filmada", "basado", "basada", "titulado", "titulada", "aceptado", "aceptada", "necesario",
     "necesaria", "obvio", "obvia", "ninguna", "ninguno", "alguna", "alguno", "nada",
     "demasiado", "poco", "algo", "mejores", "peores", "mayores", "menores", "superiores",
     "inferiores", "anteriores", "posteriores", "exteriores", "interiores"}
)  # fmt: skip
_SUBJ_DETS = frozenset(
    {"el", "la", "los", "las", "un", "una", "su", "sus", "este", "esta", "ese", "esa", "aquel",
     "aquella", "mi", "tu", "nuestro", "nuestra"}
)  # fmt: skip
_ARTICLES = frozenset({"el", "la", "los", "las", "un", "una", "del", "al"})
_CLITICS = frozenset({"lo", "la", "los", "las", "le", "les", "se", "me", "te", "nos"})
_PP_START = frozenset(
    {"en", "desde", "durante", "tras", "hasta", "entre", "para", "por", "antes", "después",
     "hacia", "a", "al", "con", "luego"}
)  # fmt: skip
_ORD_M2F = {
    "primero": "primera", "último": "última", "único": "única", "primeros": "primeras",
    "últimos": "últimas", "únicos": "únicas", "segundo": "segunda", "tercero": "tercera",
}  # fmt: skip
_ORD_F2M = {f: m for m, f in _ORD_M2F.items()}


def _inside_name(s: Sentence, i: int) -> bool:
    """Token ``i`` is a capitalised word inside a longer name (`Institución Príncipe de
    Viana`, `Copa del Rey`), not a title before one."""
    if i == 0 or s.toks[i].islower():
        return False
    k = i - 1
    if s.low[k] in ("de", "del") and k > 0:
        k -= 1
    return s.toks[k][:1].isupper() and s.joined(k) and (k > 0 or k < i - 1)


#: words in -ado/-ido that are not participles of a person
_NOT_PARTICIPLE = frozenset(
    {"lado", "estado", "grado", "pasado", "mercado", "soldado", "abogado", "delegado",
     "diputado", "sentido", "partido", "contenido", "ruido", "nido", "vestido", "marido",
     "apellido", "cuidado", "dado", "todo", "nada", "nadie", "helado", "prado", "senado",
     "tejado", "pescado", "bocado", "cuñado", "ahijado", "licenciado", "graduado", "empleado",
     "invitado", "aliado", "refugiado", "exiliado", "prometido", "marida", "vida", "comida",
     "salida", "medida", "partida", "bebida", "herida", "llegada", "entrada", "mirada",
     "jornada", "temporada", "década", "armada", "cada", "privada", "ida"}
)  # fmt: skip


def _invariable_adj(w: str) -> bool:
    """An adjective with one form for both genders (`miserable`, `cortés`, `feliz`)."""
    return (
        w.endswith(("able", "ible", "ente", "ante", "al", "il", "ar", "ista", "z")) and len(w) > 4
    )


def _is_common(w: str) -> bool:
    """A person noun of common gender: ``líder``, ``periodista``."""
    return w in _COMMON or (w.endswith(("ista", "istas")) and w not in _NOT_ISTA)


# --------------------------------------------------------------------------- biography leads
# `X (Sevilla, 1920-1990) fue un pintor y grabador español, conocido por ...`: the noun phrase
# after the copula describes the person word by word (hand-written from Spanish grammar).
#: person nouns of a lead that the general table leaves out (it is cautious about them
#: anywhere else: `la política` is also politics, `la música` music)
_LEAD_EXTRA = """
político política, músico música, físico física, químico química, matemático matemática,
médico médica, técnico técnica, crítico crítica, académico académica, diplomático diplomática,
religioso religiosa, mecánico mecánica, cómico cómica, informático informática,
maestro maestra, productor productora, primo prima, hombre mujer, caballero dama
"""
#: words of a lead that never change: nouns of one form, invariable adjectives
_LEAD_SAME = frozenset(
    {"miembro", "modelo", "testigo", "genio", "personaje", "cine", "teatro", "jazz", "rock",
     "pop", "folk", "soul", "blues", "rap", "hip", "hop", "flamenco", "tango", "ballet",
     "fútbol", "baloncesto", "tenis", "golf", "rugby", "hockey", "voleibol", "balonmano",
     "béisbol", "ajedrez", "atletismo", "ciclismo", "boxeo", "motociclismo", "automovilismo",
     "renacentista", "belga", "croata", "persa", "maya", "azteca", "inca", "celta",
     "hindú", "bantú", "sij", "tenor", "tenores", "barítono", "soprano", "contralto",
     "bajo"}
)  # fmt: skip
#: nouns in -or/-ero that are not persons (`es un motor`)
_LEAD_NOT_PERSON = frozenset(
    {"motor", "reactor", "procesador", "ordenador", "computador", "televisor", "marcador",
     "sector", "factor", "color", "valor", "honor", "error", "terror", "amor", "sabor",
     "interior", "exterior", "superior", "inferior", "mayor", "menor", "anterior", "posterior",
     "tenor", "sendero", "agujero", "aguacero", "semillero", "vivero", "crucero", "velero",
     "sombrero", "granero", "minero", "primero", "primera", "tercero", "tercera", "postrero",
     "postrera", "primeros", "primeras"}
)  # fmt: skip
#: after these nouns (`jugador de fútbol argentino`), an adjective is still the person's
_PP_TRANSPARENT = frozenset(
    {"fútbol", "baloncesto", "tenis", "golf", "rugby", "hockey", "voleibol", "balonmano",
     "béisbol", "ajedrez", "atletismo", "ciclismo", "boxeo", "cine", "teatro", "televisión",
     "jazz", "rock", "pop", "ópera", "orquesta", "profesión", "origen", "ascendencia",
     "nacimiento", "negocios"}
)  # fmt: skip
#: words that end a lead's noun phrase (the rest is not about the person's gender)
_LEAD_END = frozenset(
    {"que", "quien", "quienes", "cuyo", "cuya", "cuyos", "cuyas", "en", "por", "con", "a",
     "al", "desde", "durante", "entre", "hasta", "para", "sobre", "según", "tras", "hacia",
     "como", "bajo", "sin", "donde", "cuando", "aunque", "pero", "o", "u", "ni"}
)  # fmt: skip
_LEAD_COPULAS = frozenset({"es", "fue", "era"})
#: lowercase particles inside a name (`José de la Cruz`, `Ludwig van Beethoven`)
_NAME_PARTICLES = frozenset(
    {"de", "del", "la", "las", "los", "y", "e", "van", "von", "der", "den", "da", "di", "do",
     "dos", "das", "le", "du", "bin", "ibn", "al", "el"}
)  # fmt: skip
# source endings of a word that agrees, per direction: (ending, other-gender ending)
_LEAD_SUFFIX = {
    "m2f": (("ores", "oras"), ("or", "ora"), ("eses", "esas"), ("és", "esa"), ("oles", "olas"),
            ("ol", "ola"), ("anes", "anas"), ("án", "ana"), ("ines", "inas"), ("ín", "ina"),
            ("ones", "onas"), ("ón", "ona"), ("os", "as"), ("o", "a")),
    "f2m": (("oras", "ores"), ("ora", "or"), ("esas", "eses"), ("esa", "és"), ("olas", "oles"),
            ("ola", "ol"), ("anas", "anes"), ("ana", "án"), ("inas", "ines"), ("ina", "ín"),
            ("onas", "ones"), ("ona", "ón"), ("as", "os"), ("a", "o")),
}  # fmt: skip


def _lead_table() -> dict[str, dict[str, str]]:
    """Every person noun pair, both ways, singular and plural: in a lead there is no doubt
    whose noun it is."""
    out: dict[str, dict[str, str]] = {"m2f": {}, "f2m": {}}
    for item in (_PERSON_PAIRS + "," + _LEAD_EXTRA).split(","):
        parts = item.split()
        if len(parts) < 2 or parts[0] == parts[1]:
            continue
        m, f = parts[0], parts[1]
        for a, b in ((m, f), (_es_plural(m), _es_plural(f))):
            out["m2f"].setdefault(a, b)
            out["f2m"].setdefault(b, a)
    out["f2m"].update({"poetisa": "poeta", "mujer": "hombre", "mujeres": "hombres"})
    return out


_LEAD = _lead_table()
#: adjectives before the head noun of a lead (`un destacado arquitecto`)
_LEAD_PREMODS = _MODS | frozenset(
    {"destacado", "destacada", "reconocido", "reconocida", "famoso", "famosa", "prolífico",
     "prolífica", "conocido", "conocida", "prestigioso", "prestigiosa", "talentoso", "talentosa",
     "polifacético", "polifacética", "renombrado", "renombrada", "afamado", "afamada",
     "veterano", "veterana", "exitoso", "exitosa", "controvertido", "controvertida",
     "polémico", "polémica", "buen", "buena", "antiguo", "antigua", "ex", "excelente",
     "reputado", "reputada", "notable", "importante", "influyente"}
)  # fmt: skip
