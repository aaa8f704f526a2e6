"""Per-language word tables for :mod:`occbio.gender.agreement` (es, ca, it, pt, fr).

Data only. The person nouns with a masculine and a feminine form come from the rewriter's tables
(:mod:`occbio.rewrite.languages`: ``es_words._LEAD``, ``ca_words._CA_LEAD``,
``it_words._PERSON_NOUNS``, ``pt_words._PERSON``/``_PERSON_PRED``, ``fr_lead.PERSON_M2F``), so
that the two modules agree on what a person noun is; this module adds what the gender decision
needs on top of them, hand-written from each language's grammar (occbio, MIT):

* copulas (``es``/``fue``/``era``, ``és``/``fou``/``va ser``, ``è``/``fu``, ``é``/``foi``,
  ``est``/``fut``/``a été``) and the singular articles with their gender;
* *common* nouns, one form for both genders whose article tells the person's gender
  (``un periodista`` / ``una periodista``), and the endings that make one (``-ista``);
* *epicene* nouns, one grammatical gender whatever the person's (``una figura``, ``un
  miembro``, ``una estrella``, ``un mannequin``): never a cue;
* endings of person nouns not in the tables (``-or``/``-ora``), believed only when the article
  agrees with them;
* past-participle endings (``nacida``/``nacido``, ``nascuda``/``nascut``, ``nata``/``nato``,
  ``nascida``/``nascido``, ``née``/``né``) and the nouns that end like one (``abogado``,
  ``estado``, ``vida``);
* kin nouns, which say that another person is being talked about (``su madre``).

Words are lower-case; an elided article keeps its apostrophe (Italian ``un'`` is feminine).
"""

from __future__ import annotations

from dataclasses import dataclass

from occbio.gender.categories import FEMALE, MALE
from occbio.rewrite.languages import ca_words, es_words, fr_lead, it_words, pt_words

__all__ = ["GRAMMARS", "Grammar"]


@dataclass(frozen=True)
class Grammar:
    """What :mod:`occbio.gender.agreement` knows of one language."""

    #: copulas, each a tuple of words (``("va", "ser")``)
    copulas: tuple[tuple[str, ...], ...]
    #: copulas of state (``está``), followed by a participle only (``está casada``)
    state_copulas: frozenset[str]
    #: relative pronouns of a subject (``quien``): an apposition ``X, quien ..., es`` is about X
    relatives: frozenset[str]
    #: words that coordinate two predicates (``y``)
    coordinators: frozenset[str]
    #: endings of a person noun believed without an article (``es corrector``)
    bare_endings: tuple[str, ...]
    #: words of a date (months), for an opening like ``En agosto de 2009``
    date_words: frozenset[str]
    #: the language drops subject pronouns (a sentence may start with its verb)
    pro_drop: bool
    #: singular articles (indefinite and definite) and their gender
    articles: dict[str, str]
    #: the word(s) of a partitive after ``una``/``uno`` (``de``, ``dei``, ``des``)
    partitive: frozenset[str]
    #: plural articles after the partitive (``los``, ``las``)
    plural_articles: frozenset[str]
    #: words that may stand between the copula and the predicate (adverbs)
    adverbs: frozenset[str]
    #: words that may stand between the article and the noun (``gran``, ``destacado``)
    premods: frozenset[str]
    #: person nouns by gender (singular, and plurals where the table has them)
    masculine: frozenset[str]
    feminine: frozenset[str]
    #: one form for both genders: the article tells
    common: frozenset[str]
    common_endings: tuple[str, ...]
    not_common: frozenset[str]
    #: one grammatical gender whatever the person's: never a cue
    epicene: frozenset[str]
    #: endings of person nouns not in the tables, believed only when the article agrees
    masculine_endings: tuple[str, ...]
    feminine_endings: tuple[str, ...]
    not_person: frozenset[str]
    #: past participles (and adjectives) by gender: irregular forms, then endings
    participles: dict[str, str]
    masculine_participle_endings: tuple[str, ...]
    feminine_participle_endings: tuple[str, ...]
    not_participle: frozenset[str]
    #: beginnings of participles said of people only (read even without a named subject)
    person_participles: tuple[str, ...]
    #: kin and other person nouns that bring another person into a sentence
    kin: frozenset[str]
    #: possessives (``su``): before a kin noun, another person of the story
    possessives: frozenset[str]
    #: lower-case words inside a name (``de``, ``van``)
    name_particles: frozenset[str]
    #: words that open an adverbial before a dropped subject (``En 2011, fue ...``)
    openers: frozenset[str]


def _pairs(words: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(words[0::2]), frozenset(words[1::2])


def _mf(text: str) -> dict[str, str]:
    """``"nacido nacida muerto muerta"`` -> {masculine: MALE, feminine: FEMALE, ...}."""
    words = text.split()
    return {w: MALE if i % 2 == 0 else FEMALE for i, w in enumerate(words)}


def _f(text: str) -> dict[str, str]:
    return dict.fromkeys(text.split(), FEMALE)


def _kin(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _split_table(m2f: dict[str, str], f2m: dict[str, str]) -> tuple[set[str], set[str]]:
    masculine, feminine = set(m2f), set(f2m)
    both = masculine & feminine
    return masculine - both, feminine - both


# ---------------------------------------------------------------------------------- Spanish
_es_m, _es_f = _split_table(es_words._LEAD["m2f"], es_words._LEAD["f2m"])
_ES_KIN = _kin(
    "padre madre hijo hija hermano hermana abuelo abuela nieto nieta tío tía sobrino sobrina "
    "primo prima esposo esposa marido mujer novio novia suegro suegra cuñado cuñada "
    "padrastro madrastra hijastro hijastra viudo viuda padres hijos hermanos"
)
_ES = Grammar(
    relatives=frozenset({"quien"}),
    state_copulas=frozenset("está estaba estuvo".split()),
    coordinators=frozenset("y e".split()),
    bare_endings=("or", "ora", "ores", "oras"),
    date_words=frozenset(
        "de del el la en año años enero febrero marzo abril mayo junio julio agosto septiembre "
        "setiembre octubre noviembre diciembre verano invierno otoño primavera siglo década".split()
    ),
    copulas=(("es",), ("fue",), ("era",), ("ha", "sido"), ("había", "sido")),
    pro_drop=True,
    articles={"un": MALE, "una": FEMALE, "el": MALE, "la": FEMALE},
    partitive=frozenset({"de"}),
    plural_articles=frozenset({"los", "las"}),
    adverbs=frozenset(
        "también además actualmente principalmente especialmente ampliamente más mejor".split()
    ),
    premods=frozenset(
        "gran actual destacado destacada reconocido reconocida famoso famosa conocido conocida "
        "prestigioso prestigiosa prolífico prolífica renombrado renombrada célebre joven "
        "antiguo antigua ex exitoso exitosa importante influyente notable polifacético "
        "polifacética talentoso talentosa veterano veterana primer primera primero segundo "
        "segunda tercer tercera último última único única más mejor mejores principal "
        "principales primeros primeras grandes destacados destacadas importantes".split()
    ),
    masculine=frozenset(_es_m | {"hombre", "varón"}),
    feminine=frozenset(_es_f | {"mujer", "dama"}),
    common=frozenset(
        "cantante estudiante representante dirigente agente docente asistente militante "
        "comandante intérprete guía colega atleta poeta astronauta modelo testigo joven líder "
        "cónyuge mártir rehén policía integrante aspirante conferenciante comerciante "
        "presentante ayudante amante habitante combatiente delineante demócrata burócrata "
        "aristócrata autócrata tecnócrata patriota compatriota homicida suicida "
        "cantantes estudiantes atletas poetas modelos".split()
    ),
    common_endings=("ista", "istas"),
    not_common=frozenset("lista vista pista conquista revista entrevista arista".split()),
    epicene=frozenset(
        "persona personas figura figuras estrella estrellas personaje personajes miembro "
        "miembros víctima víctimas individuo ser genio ídolo celebridad personalidad "
        "personalidades eminencia autoridad leyenda icono ícono referente referentes exponente "
        "exponentes gigante prodigio talento fenómeno promesa mito símbolo voz voces criatura "
        "bebé vástago sujeto".split()
    ),
    masculine_endings=("or", "ero", "ario", "ólogo", "ico", "ano", "ino", "ólogos"),
    feminine_endings=("ora", "era", "aria", "óloga", "ica", "ana", "ina", "isa", "esa", "triz"),
    not_person=frozenset(
        "motor color valor error honor amor sector factor terror sabor interior exterior "
        "superior inferior mayor menor anterior posterior sendero primero tercero primera "
        "tercera carrera época obra técnica música política física química mecánica crítica "
        "banda orquesta familia dinastía empresa compañía organización asociación "
        "institución revista plantilla escuela serie saga pareja".split()
    ),
    participles=_mf(
        "nacido nacida muerto muerta electo electa conocido conocida apodado apodada hijo hija"
    ),
    masculine_participle_endings=("ado", "ido"),
    feminine_participle_endings=("ada", "ida"),
    not_participle=frozenset(
        "abogado abogada soldado estado lado grado mercado pasado senado cuidado partido "
        "sentido vida salida medida llegada partida comida nada cada jornada temporada década "
        "entrada mirada parada armada morada bebida herida camarada licenciado licenciada "
        "doctorado".split()
    ),
    person_participles=tuple(
        "apodad asesinad bautizad casad condecorad conocid considerad detenid doctorad "
        "ejecutad electa electo elegid encarcelad exiliad galardonad graduad jubilad "
        "licenciad nacid nombrad premiad reconocid".split()
    ),
    kin=_ES_KIN,
    possessives=frozenset("su sus".split()),
    name_particles=frozenset(
        "de del la las los y e i van von der den da di do dos das le du bin ibn al el".split()
    ),
    openers=frozenset(
        "en desde tras durante entre a al después antes además también actualmente "
        "posteriormente asimismo hasta con ya luego finalmente".split()
    ),
)

# ---------------------------------------------------------------------------------- Catalan
_ca_m, _ca_f = _split_table(ca_words._CA_LEAD["m2f"], ca_words._CA_LEAD["f2m"])
_CA_KIN = _kin(
    "pare mare fill filla germà germana avi àvia nét néta oncle tia nebot neboda cosí cosina "
    "espòs esposa marit dona home sogre sogra cunyat cunyada vidu vídua pares fills germans"
)
_CA = Grammar(
    relatives=frozenset({"qui"}),
    state_copulas=frozenset("està estava".split()),
    coordinators=frozenset("i".split()),
    bare_endings=("or", "ora"),
    date_words=frozenset(
        "de del d' el la l' en any anys gener febrer març abril maig juny juliol agost setembre "
        "octubre novembre desembre estiu hivern tardor primavera segle dècada".split()
    ),
    copulas=(("és",), ("fou",), ("era",), ("va", "ser"), ("ha", "estat"), ("havia", "estat")),
    pro_drop=True,
    articles={"un": MALE, "una": FEMALE, "el": MALE, "la": FEMALE},
    partitive=frozenset({"de", "dels"}),
    plural_articles=frozenset({"les", "els"}),
    adverbs=frozenset("també actualment principalment sobretot especialment més millor".split()),
    premods=frozenset(
        "gran actual destacat destacada reconegut reconeguda famós famosa conegut coneguda "
        "prestigiós "
        "prestigiosa prolífic prolífica cèlebre jove antic antiga ex important influent "
        "notable primer primera segon segona tercer tercera darrer darrera últim última únic "
        "única més millor millors principal principals primers primeres grans importants".split()
    ),
    masculine=frozenset(_ca_m | {"home", "fill", "germà", "nét", "cosí", "nebot", "marit"}),
    feminine=frozenset(_ca_f | {"dona", "filla", "germana", "néta", "cosina", "neboda"}),
    common=frozenset(
        (ca_words._CA_COMMON - {"membre", "jove"})
        | set("artista intèrpret guia col·lega atleta astronauta cònjuge màrtir".split())
    ),
    common_endings=("ista", "istes"),
    not_common=frozenset("llista vista pista conquesta revista entrevista".split()),
    epicene=frozenset(
        "persona persones figura figures estrella estrelles personatge personatges membre "
        "membres víctima víctimes individu ésser geni ídol celebritat personalitat "
        "personalitats eminència autoritat llegenda icona referent referents exponent "
        "exponents gegant prodigi talent fenomen promesa mite símbol veu veus criatura".split()
    ),
    masculine_endings=("or", "er", "ari", "òleg", "ic", "ès"),
    feminine_endings=("ora", "era", "ària", "òloga", "ica", "essa", "iu", "esa"),
    not_person=frozenset(
        "motor color valor error honor amor sector factor terror interior exterior superior "
        "inferior major menor anterior posterior primer primera carrera època obra tècnica "
        "música política física química banda orquestra família dinastia empresa companyia "
        "organització associació institució revista escola sèrie parella".split()
    ),
    participles=_mf("nascut nascuda mort morta conegut coneguda elegit elegida fill filla"),
    masculine_participle_endings=("at", "it", "ut"),
    feminine_participle_endings=("ada", "ida", "uda"),
    not_participle=frozenset(
        "estat advocat advocada diputat diputada soldat part vida sortida mesura arribada "
        "partida nit petit dit escrit ciutat unitat comunitat universitat jornada dècada "
        "entrada mirada llicenciat llicenciada doctorat".split()
    ),
    person_participles=tuple(
        "assassinad assassinat casad casat condecorad condecorat conegud conegut "
        "considerad considerat detingud detingut doctorad doctorat elegid elegit "
        "empresonad empresonat escollid escollit executad executat exiliad exiliat graduad graduat "
        "triad triat "
        "guardonad guardonat jubilad jubilat llicenciad llicenciat nascud nascut nomenad "
        "nomenat premiad premiat reconegud reconegut".split()
    ),
    kin=_CA_KIN,
    possessives=frozenset("seu seva seus seves".split()),
    name_particles=frozenset("de del i la el van von der da di d' l'".split()),
    openers=frozenset(
        "el l' a al en des durant entre després abans a més també actualment posteriorment "
        "així amb ja".split()
    ),
)

# ---------------------------------------------------------------------------------- Italian
_it_m, _it_f = _pairs(it_words._PERSON_NOUNS)
_IT_KIN = _kin(
    "padre madre figlio figlia fratello sorella nonno nonna nipote zio zia cugino cugina "
    "marito moglie sposo sposa fidanzato fidanzata suocero suocera cognato cognata vedovo "
    "vedova genitori figli fratelli"
)
_IT = Grammar(
    relatives=frozenset({"che"}),
    state_copulas=frozenset(),
    coordinators=frozenset("e ed".split()),
    bare_endings=("tore", "trice"),
    date_words=frozenset(
        "di del dell' nel nella il l' in anno anni gennaio febbraio marzo aprile maggio giugno "
        "luglio agosto settembre ottobre novembre dicembre estate inverno autunno primavera "
        "secolo".split()
    ),
    copulas=(("è",), ("fu",), ("era",)),
    pro_drop=True,
    articles={"un": MALE, "uno": MALE, "il": MALE, "lo": MALE} | _f("una un' la"),
    partitive=frozenset({"dei", "degli", "delle", "tra", "fra"}),
    plural_articles=frozenset({"i", "gli", "le"}),
    adverbs=frozenset(
        "anche inoltre attualmente principalmente soprattutto specialmente più meglio".split()
    ),
    premods=frozenset(
        "grande gran attuale noto nota famoso famosa celebre importante giovane ex prolifico "
        "prolifica "
        "affermato affermata apprezzato apprezzata primo prima secondo seconda terzo terza "
        "ultimo ultima unico unica più migliore migliori principale principali primi prime "
        "grandi importanti noti note".split()
    ),
    masculine=frozenset((_it_m - _it_f) | {"uomo"}),
    feminine=frozenset((_it_f - _it_m) | {"donna"}),
    common=frozenset(
        (it_words._COMMON_NOUNS - {"star"})
        | set("regista poeta astronauta collega nipote interprete cantante".split())
    ),
    common_endings=(*it_words._COMMON_ENDINGS, "isti"),
    not_common=it_words._NOT_COMMON,
    epicene=frozenset(
        "persona persone figura figure stella stelle star personaggio personaggi membro membri "
        "vittima vittime individuo essere genio idolo celebrità personalità eminenza autorità "
        "leggenda icona punto riferimento esponente esponenti gigante prodigio talento "
        "fenomeno promessa mito simbolo voce voci creatura guida spia sentinella".split()
    ),
    masculine_endings=("tore", "iere", "ario", "ologo", "ico", "ano", "ino", "sore"),
    feminine_endings=("trice", "iera", "aria", "ologa", "ica", "ana", "ina", "essa", "sora"),
    not_person=frozenset(
        "motore colore valore errore onore amore settore fattore terrore interiore esteriore "
        "superiore inferiore maggiore minore anteriore posteriore carriera epoca opera tecnica "
        "musica politica fisica chimica critica banda orchestra famiglia dinastia azienda "
        "compagnia organizzazione associazione istituzione rivista scuola serie coppia".split()
    ),
    participles=_mf(
        "detto detta nato nata morto morta eletto eletta scomparso scomparsa stato stata "
        "figlio figlia"
    ),
    masculine_participle_endings=("ato", "ito", "uto"),
    feminine_participle_endings=("ata", "ita", "uta"),
    not_participle=frozenset(
        "avvocato avvocata deputato deputata soldato stato lato grado mercato passato senato "
        "partito sito vita uscita partita salita giornata decina entrata volta data "
        "dottorato laureato laureata".split()
    )
    - {"stato"},
    person_participles=tuple(
        "arrestat assassinat conosciut considerat diplomat elett esiliat giustiziat "
        "insignit laureat nata nato nominat premiat riconosciut sposat stata stato".split()
    ),
    kin=_IT_KIN,
    possessives=frozenset("suo sua suoi sue".split()),
    name_particles=frozenset("de del della di da dal van von der d' de'".split()),
    openers=frozenset(
        "nel nella nei negli nelle in dal dalla dopo prima durante tra fra a al alla anche "
        "inoltre attualmente successivamente con già".split()
    ),
)

# ------------------------------------------------------------------------------- Portuguese
_pt_pairs = [*pt_words._PERSON, *pt_words._PERSON_PRED]
_pt_m = {m for m, f in _pt_pairs if m != f} - {"membro"}
_pt_f = {f for m, f in _pt_pairs if m != f} - {"membra"}
_PT_KIN = _kin(
    "pai mãe filho filha irmão irmã avô avó neto neta tio tia sobrinho sobrinha primo prima "
    "esposo esposa marido mulher noivo noiva sogro sogra cunhado cunhada viúvo viúva pais "
    "filhos irmãos"
)
_PT = Grammar(
    relatives=frozenset({"quem"}),
    state_copulas=frozenset("está estava esteve".split()),
    coordinators=frozenset("e".split()),
    bare_endings=("or", "ora"),
    date_words=frozenset(
        "de do da em no na o a ano anos janeiro fevereiro março abril maio junho julho agosto "
        "setembro outubro novembro dezembro verão inverno outono primavera século década".split()
    ),
    copulas=(("é",), ("foi",), ("era",), ("tem", "sido"), ("havia", "sido"), ("fora",)),
    pro_drop=True,
    articles={"um": MALE, "uma": FEMALE, "o": MALE, "a": FEMALE},
    partitive=frozenset({"dos", "das", "de"}),
    plural_articles=frozenset({"os", "as"}),
    adverbs=frozenset(
        "também ainda atualmente principalmente sobretudo especialmente mais melhor".split()
    ),
    premods=frozenset(
        "grande grão atual destacado destacada renomado renomada famoso famosa conhecido conhecida "
        "célebre importante jovem ex prolífico prolífica consagrado consagrada primeiro "
        "primeira segundo segunda terceiro terceira último última único única mais melhor "
        "melhores principal principais primeiros primeiras grandes importantes".split()
    ),
    masculine=frozenset(
        _pt_m
        | set(
            "homem ator cantor escritor pintor político professor jogador compositor diretor "
            "produtor empresário advogado médico engenheiro".split()
        )
    ),
    feminine=frozenset(
        _pt_f
        | set(
            "mulher atriz cantora escritora pintora política professora jogadora compositora "
            "diretora produtora empresária advogada médica engenheira".split()
        )
    ),
    common=frozenset(
        "cantante estudante representante dirigente agente docente assistente militante "
        "comandante intérprete guia colega atleta astronauta modelo testemunha jovem líder "
        "cônjuge mártir refém policial integrante presidente gerente tenente".split()
    ),
    common_endings=("ista", "istas"),
    not_common=frozenset("lista vista pista conquista revista entrevista".split()),
    epicene=frozenset(
        "pessoa pessoas figura figuras estrela estrelas personagem personagens membro membros "
        "vítima vítimas indivíduo ser gênio génio ídolo celebridade personalidade "
        "personalidades eminência autoridade lenda ícone referência expoente expoentes gigante "
        "prodígio talento fenômeno fenómeno promessa mito símbolo voz vozes criatura "
        "criança".split()
    ),
    masculine_endings=("or", "eiro", "ário", "ólogo", "ico", "ano", "ino"),
    feminine_endings=("ora", "eira", "ária", "óloga", "ica", "ana", "ina", "isa", "esa", "triz"),
    not_person=frozenset(
        "motor cor valor erro honor amor setor fator terror interior exterior superior "
        "inferior maior menor anterior posterior carreira época obra técnica música política "
        "física química crítica banda orquestra família dinastia empresa companhia "
        "organização associação instituição revista escola série dupla".split()
    ),
    participles=_mf("nascido nascida morto morta eleito eleita conhecido conhecida filho filha"),
    masculine_participle_endings=("ado", "ido"),
    feminine_participle_endings=("ada", "ida"),
    not_participle=frozenset(
        "advogado advogada soldado estado lado grau mercado passado senado cuidado partido "
        "sentido vida saída medida chegada partida comida nada cada jornada temporada década "
        "entrada parada armada bebida ferida camarada licenciado licenciada doutorado "
        "deputado deputada".split()
    ),
    person_participles=tuple(
        "apelidad aposentad assassinad batizad casad condecorad conhecid considerad "
        "doutorad eleit executad exilad formad graduad licenciad nascid nomead premiad "
        "pres reconhecid".split()
    ),
    kin=_PT_KIN,
    possessives=frozenset("seu sua seus suas".split()),
    name_particles=frozenset("de do da dos das e van von der di".split()),
    openers=frozenset(
        "em no na nos nas desde após depois antes durante entre a ao à também atualmente "
        "posteriormente com já".split()
    ),
)

# ----------------------------------------------------------------------------------- French
_fr_m, _fr_f = _split_table(fr_lead.PERSON_M2F, fr_lead.PERSON_F2M)
#: masculine forms long used for women too (``elle est un écrivain``): only the feminine
#: article or form is a cue
_FR_MASCULINE_FOR_BOTH = frozenset(
    "écrivain auteur professeur docteur ingénieur médecin chef mannequin peintre sculpteur "
    "compositeur poète témoin".split()
)
_FR_KIN = _kin(
    "père mère fils fille frère sœur grand-père grand-mère oncle tante neveu nièce cousin "
    "cousine époux épouse mari femme veuf veuve parents enfants"
)
_FR = Grammar(
    relatives=frozenset({"qui"}),
    state_copulas=frozenset("".split()),
    coordinators=frozenset("et".split()),
    bare_endings=("eur", "euse", "rice"),
    date_words=frozenset(
        "de du d' le la l' en an année années janvier février mars avril mai juin juillet août "
        "septembre octobre novembre décembre été hiver automne printemps siècle".split()
    ),
    copulas=(("est",), ("fut",), ("était",), ("a", "été"), ("avait", "été")),
    pro_drop=False,
    articles={"un": MALE, "une": FEMALE, "le": MALE, "la": FEMALE},
    partitive=frozenset({"des", "d'entre"}),
    plural_articles=frozenset({"les"}),
    adverbs=frozenset(
        "aussi également actuellement principalement surtout notamment plus mieux l'".split()
    ),
    premods=frozenset(
        "grand grande actuel actuelle célèbre important importante jeune ancien ancienne ex "
        "premier première "
        "second seconde deuxième troisième dernier dernière seul seule plus meilleur meilleure "
        "principal principale premiers premières grands grandes importants importantes "
        "célèbres".split()
    ),
    masculine=frozenset((_fr_m - _FR_MASCULINE_FOR_BOTH) | {"homme", "fils", "frère"}),
    feminine=frozenset(_fr_f | {"femme", "fille", "sœur", "écrivaine", "autrice", "auteure"}),
    common=frozenset(
        (fr_lead._EPICENE_MORE - {"membre", "mannequin", "médecin", "chef", "cadre"})
        | {"astronaute", "collègue", "élève", "ministre", "juge", "maire"}
    ),
    common_endings=("iste", "istes"),
    not_common=frozenset("liste piste".split()),
    epicene=frozenset(
        "personne personnes figure figures star stars vedette vedettes personnage personnages "
        "membre membres victime victimes individu être génie idole célébrité personnalité "
        "personnalités éminence autorité légende icône référence gigant prodige talent "
        "phénomène espoir mythe symbole voix créature mannequin".split()
    )
    | _FR_MASCULINE_FOR_BOTH,
    masculine_endings=("eur", "ien", "ier", "ain", "ant", "ent"),
    feminine_endings=("euse", "rice", "ienne", "ière", "aine", "ante", "ente", "esse"),
    not_person=frozenset(
        "moteur couleur valeur erreur honneur amour secteur facteur terreur intérieur extérieur "
        "supérieur inférieur majeur mineur carrière époque œuvre technique musique politique "
        "physique chimie critique bande orchestre famille dynastie entreprise compagnie "
        "organisation association institution revue école série couple lien moyen "
        "élément moment instant accident continent".split()
    ),
    participles=_mf(
        "né née mort morte élu élue connu connue dit dite "
        "issu issue devenu devenue fils fille surnommé surnommée"
    ),
    masculine_participle_endings=("é",),
    feminine_participle_endings=("ée",),
    not_participle=frozenset(
        "député lauréat été côté état comité université société année idée entrée armée "
        "musée lycée épée journée soirée".split()
    ),
    person_participles=tuple(
        "arrêté assassiné baptisé connu considéré considérée diplômé diplômée décoré "
        "emprisonné exilé exécuté marié nommé né née reconnu récompensé surnommé élu élue".split()
    ),
    kin=_FR_KIN,
    possessives=frozenset("son sa ses".split()),
    name_particles=frozenset("de du des la le d' van von der di da".split()),
    openers=frozenset(),
)

#: Grammar of each language the agreement rules cover.
GRAMMARS: dict[str, Grammar] = {"es": _ES, "ca": _CA, "it": _IT, "pt": _PT, "fr": _FR}
