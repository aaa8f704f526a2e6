"""Spanish and Catalan gender rewriting: hand-written sentences (not from MT-GenEval)."""

from __future__ import annotations

import pytest

from occbio.rewrite import Rewriter

CASES = [
    # agreement: article + noun + adjective + participle
    (
        "es",
        "El joven actor fue nombrado director artístico del teatro.",
        "feminine",
        "La joven actriz fue nombrada directora artística del teatro.",
    ),
    (
        "es",
        "La joven actriz fue nombrada directora artística del teatro.",
        "masculine",
        "El joven actor fue nombrado director artístico del teatro.",
    ),
    # object clitics before a verb and enclitic on an infinitive
    (
        "es",
        "Los socios lo eligieron presidente del club.",
        "feminine",
        "Los socios la eligieron presidenta del club.",
    ),
    (
        "es",
        "Los socios la eligieron presidenta del club.",
        "masculine",
        "Los socios lo eligieron presidente del club.",
    ),
    (
        "es",
        "Decidieron contratarlo como entrenador.",
        "feminine",
        "Decidieron contratarla como entrenadora.",
    ),
    # predicates after a copula: `uno de los`, `el primero en`, common-gender nouns
    (
        "es",
        "Fue uno de los primeros periodistas del país.",
        "feminine",
        "Fue una de las primeras periodistas del país.",
    ),
    (
        "es",
        "Fue una de las primeras periodistas del país.",
        "masculine",
        "Fue uno de los primeros periodistas del país.",
    ),
    (
        "es",
        "Él fue el primero en cruzar el río.",
        "feminine",
        "Ella fue la primera en cruzar el río.",
    ),
    (
        "es",
        "Ella fue la primera en cruzar el río.",
        "masculine",
        "Él fue el primero en cruzar el río.",
    ),
    ("es", "Es el líder del partido.", "feminine", "Es la líder del partido."),
    # the word after a subject pronoun is a verb, never a guessed adjective
    ("es", "Ella gana el premio cada año.", "masculine", "Él gana el premio cada año."),
    # a thing as subject of the copula: its participle stays
    (
        "es",
        "Él escribió una novela. Su libro fue publicado en 1990.",
        "feminine",
        "Ella escribió una novela. Su libro fue publicado en 1990.",
    ),
    # quotes: speech about the person is rewritten too, the quote marks are kept
    (
        "es",
        "«Él es un gran actor», dijo su hermana.",
        "feminine",
        "«Ella es una gran actriz», dijo su hermana.",
    ),
    # two people: the rule flips the pronoun of the person; the other person's name and noun
    # (`su hermana Ana`) are left as they are (limitation: a second person referred to by a
    # changeable noun, e.g. `su hermano`, would be flipped too)
    (
        "es",
        "Él y su hermana Ana fundaron la empresa.",
        "feminine",
        "Ella y su hermana Ana fundaron la empresa.",
    ),
    # person nouns from the hand list: kinship both ways, offices feminine → masculine
    ("es", "Su abuelo fue enterrado en Toledo.", "feminine", "Su abuela fue enterrada en Toledo."),
    (
        "es",
        "La directora del museo fue su nieta.",
        "masculine",
        "El director del museo fue su nieto.",
    ),
    (
        "es",
        "Su sobrina, una escritora famosa, vive en Lima.",
        "masculine",
        "Su sobrino, un escritor famoso, vive en Lima.",
    ),
    # words of gender itself agree with the noun before them, or keep their ending
    (
        "es",
        "Fue el protagonista masculino de la serie.",
        "feminine",
        "Fue la protagonista femenina de la serie.",
    ),
    (
        "es",
        "Fue la protagonista femenina de la serie.",
        "masculine",
        "Fue el protagonista masculino de la serie.",
    ),
    ("es", "Ganó el maratón masculino en 1990.", "feminine", "Ganó el maratón femenino en 1990."),
    # relative pronouns after a changed noun
    (
        "es",
        "Es la historia de un hombre al que nadie quería.",
        "feminine",
        "Es la historia de una mujer a la que nadie quería.",
    ),
    (
        "es",
        "Es la historia de una mujer a la que nadie quería.",
        "masculine",
        "Es la historia de un hombre al que nadie quería.",
    ),
    # `Nacido en` opening a sentence; coordinated predicates across commas and `y`
    (
        "es",
        "Nacido en Sevilla, estudió derecho en Madrid.",
        "feminine",
        "Nacida en Sevilla, estudió derecho en Madrid.",
    ),
    (
        "es",
        "En 1967 fue arrestado, juzgado y condenado por fraude.",
        "feminine",
        "En 1967 fue arrestada, juzgada y condenada por fraude.",
    ),
    (
        "es",
        "En 1967 fue arrestada, juzgada y condenada por fraude.",
        "masculine",
        "En 1967 fue arrestado, juzgado y condenado por fraude.",
    ),
    ("es", "Se sintió miserable y confundido.", "feminine", "Se sintió miserable y confundida."),
    # `uno de los` agrees with its head noun
    (
        "es",
        "Un tío invitó a uno de los siete sobrinos.",
        "feminine",
        "Una tía invitó a uno de los siete sobrinos.",
    ),
    # Catalan (hand rules only, not measured)
    ("ca", "El seu avi patern era duc.", "feminine", "La seva àvia materna era duquessa."),
    ("ca", "Va guanyar la marató masculina.", "feminine", "Va guanyar la marató femenina."),
    ("ca", "La seva sogra va ser comtessa.", "masculine", "El seu sogre va ser comte."),
    # Catalan, earlier rules
    (
        "ca",
        "El van nomenar director del museu el 1990.",
        "feminine",
        "La van nomenar directora del museu el 1990.",
    ),
    (
        "ca",
        "La van nomenar directora del museu.",
        "masculine",
        "El van nomenar director del museu.",
    ),
    ("ca", "Va decidir nomenar-lo president.", "feminine", "Va decidir nomenar-la presidenta."),
    ("ca", "Ella va ser elegida alcaldessa.", "masculine", "Ell va ser elegit alcalde."),
    ("ca", "Ell mateix va ser escriptor.", "feminine", "Ella mateixa va ser escriptora."),
    (
        "ca",
        "Ell va escriure una novel·la. El llibre va ser publicat el 1990.",
        "feminine",
        "Ella va escriure una novel·la. El llibre va ser publicat el 1990.",
    ),
]


@pytest.mark.parametrize(("lang", "src", "to", "expected"), CASES)
def test_rewrite(lang, src, to, expected):
    # the rules as MT-GenEval measures them: relatives change too (kept: test_rewrite_relatives)
    assert Rewriter(lang, relatives="change").rewrite(src, to) == expected


UNCHANGED = [
    # names that must not change, nothing about a gendered person
    ("es", "Nació en Santa María y estudió la vida de Alejandro Magno."),
    ("es", "María estudió en Madrid."),
    ("es", "Juan estudió en Sevilla."),
    ("es", "La ciudad tiene un puerto importante."),
    ("es", "Lo que más le interesaba era la música."),
    # a thing `también conocido como`, a name with a title inside, a generic masculine office
    ("es", "El Fondo (también conocido como Banco Unido) creció mucho."),
    ("es", "Ganó la Copa del Rey con el equipo de su ciudad."),
    ("es", "La productora de cine compró los derechos."),
    ("ca", "Santa Maria del Mar és una església del segle XIV."),
    ("ca", "Va estudiar a la Universitat de Barcelona."),
]


@pytest.mark.parametrize(("lang", "src"), UNCHANGED)
@pytest.mark.parametrize("to", ["feminine", "masculine"])
def test_nothing_to_change_is_identical(lang, src, to):
    out = Rewriter(lang).rewrite(src, to)
    assert out == src
    assert out is src


# Wikipedia-style leads (hand-written): the noun phrase after the copula changes whole
LEADS = [
    (
        "es",
        "Juan Pérez (Sevilla, 1920-1990) fue un pintor y grabador español.",
        "Juan Pérez (Sevilla, 1920-1990) fue una pintora y grabadora española.",
    ),
    (
        "es",
        "Pedro Gil es un abogado y político chileno, diputado desde 2018.",
        "Pedro Gil es una abogada y política chilena, diputada desde 2018.",
    ),
    (
        "es",
        "Pierre Dupont fue un ingeniero civil francés especializado en puentes.",
        "Pierre Dupont fue una ingeniera civil francesa especializada en puentes.",
    ),
    (
        "es",
        "Fue un escritor, periodista y profesor universitario venezolano.",
        "Fue una escritora, periodista y profesora universitaria venezolana.",
    ),
    (
        "es",
        "Es un actor y cantante mexicano, conocido por sus telenovelas.",
        "Es una actriz y cantante mexicana, conocida por sus telenovelas.",
    ),
    (
        "es",
        "Luis Mora fue un militar y político argentino, gobernador de la provincia de Salta.",
        "Luis Mora fue una militar y política argentina, gobernadora de la provincia de Salta.",
    ),
    (
        "es",
        "Es un director de cine y guionista italiano.",
        "Es una directora de cine y guionista italiana.",
    ),
    ("es", "Es un jugador de fútbol argentino.", "Es una jugadora de fútbol argentina."),
    (
        "es",
        "Fue un destacado arquitecto modernista catalán.",
        "Fue una destacada arquitecta modernista catalana.",
    ),
    ("es", "Fue un ciclista profesional belga.", "Fue una ciclista profesional belga."),
    # an ordinal in an apposition is no person noun; `modelo` heads a lead; an invariable
    # word after a complement (`de ideología comunista`) does not lock the lead
    (
        "es",
        "Juan Gil fue un político chileno, primer hombre en ocupar el cargo.",
        "Juan Gil fue una política chilena, primera mujer en ocupar el cargo.",
    ),
    (
        "es",
        "Alex Luna es un modelo y actor venezolano.",
        "Alex Luna es una modelo y actriz venezolana.",
    ),
    (
        "es",
        "Fue un destacado muralista mexicano de ideología comunista.",
        "Fue una destacada muralista mexicana de ideología comunista.",
    ),
    (
        "ca",
        "Joan Puig (Vic, 1920) va ser un enginyer civil francès especialitzat en ponts.",
        "Joan Puig (Vic, 1920) va ser una enginyera civil francesa especialitzada en ponts.",
    ),
    ("ca", "Va ser un pintor i gravador català.", "Va ser una pintora i gravadora catalana."),
    (
        "ca",
        "Fou un advocat i polític mallorquí, diputat al Congrés.",
        "Fou una advocada i política mallorquina, diputada al Congrés.",
    ),
]


@pytest.mark.parametrize(("lang", "masculine", "feminine"), LEADS)
def test_leads_both_ways(lang, masculine, feminine):
    rw = Rewriter(lang, strict=True)
    assert rw.rewrite(masculine, "feminine") == feminine
    assert rw.rewrite(feminine, "masculine") == masculine


@pytest.mark.parametrize(
    ("lang", "sentence", "to"),
    [
        # a thing, not a person: nothing to agree
        ("es", "Madrid es una ciudad española.", "masculine"),
        ("es", "Windows es un sistema operativo.", "feminine"),
        ("es", "Es una banda de rock española.", "masculine"),
        ("ca", "Barcelona és una ciutat catalana.", "masculine"),
        ("ca", "El llibre va ser un èxit.", "feminine"),
        # whose adjective? (`derecho romano`): the lead is left whole rather than half done
        ("es", "Fue un profesor de derecho romano.", "feminine"),
    ],
)
def test_leads_left_alone(lang, sentence, to):
    assert Rewriter(lang, strict=True).rewrite(sentence, to) == sentence


def test_lead_clause_after_y_is_not_the_phrase():
    rw = Rewriter("es", strict=True)
    out = "Fue una pintora y murió en París."
    assert rw.rewrite("Fue un pintor y murió en París.", "feminine") == out


def test_social_nouns_stay_masculine_to_feminine():
    # `un amigo` is another person: only kin and titles change masculine → feminine
    rw = Rewriter("es", strict=True)
    src = "Él viajó con un amigo hasta Lima."
    assert rw.rewrite(src, "feminine") == "Ella viajó con un amigo hasta Lima."


# Spanish, round 4 (hand-written sentences, each for one rule; the rule's name in the comment)
ES_ROUND4 = [
    # adjectives after a changed noun agree, in number too and across `muy`/`más`
    ("Sus hermanas pequeñas vivían en Lima.", "masculine", "Sus hermanos pequeños vivían en Lima."),
    ("La reina rusa visitó Madrid en 1900.", "masculine", "El rey ruso visitó Madrid en 1900."),
    # a verb after a changed noun is no adjective (`trabajan` is as frequent a verb)
    ("Su madre trabaja en Lima.", "masculine", "Su padre trabaja en Lima."),
    # agreement does not run back from a `de` complement: the portrait stays a portrait
    (
        "El retrato del rey fue pintado en 1800.",
        "feminine",
        "El retrato de la reina fue pintado en 1800.",
    ),
    # plural copulas agree with a changed plural subject
    (
        "Sus dos hijas fueron educadas en París.",
        "masculine",
        "Sus dos hijos fueron educados en París.",
    ),
    # the subject of `y fue` is the subject of the clause before: a pro-drop person
    (
        "En 1990 entrenó con el primer equipo y fue incluido en la lista.",
        "feminine",
        "En 1990 entrenó con el primer equipo y fue incluida en la lista.",
    ),
    # ... but not after an object noun phrase (`fundó un periódico y fue dirigido`)
    (
        "Fundó un periódico y fue dirigido por un amigo.",
        "feminine",
        "Fundó un periódico y fue dirigido por un amigo.",
    ),
    # `Al ser`, `tras ser`: the subject of the sentence; `como` after a verb
    ("Al ser liberado, volvió a Madrid.", "feminine", "Al ser liberada, volvió a Madrid."),
    (
        "Después, Gómez sirvió como misionero en Perú.",
        "feminine",
        "Después, Gómez sirvió como misionera en Perú.",
    ),
    (
        "Tras ser convertido en prisionero, escapó.",
        "feminine",
        "Tras ser convertida en prisionera, escapó.",
    ),
    # a number before the copula is no subject; `y uno de los` after a predicate
    (
        "Trabajó en Lima. 45 Fue uno de los primeros periodistas del país.",
        "feminine",
        "Trabajó en Lima. 45 Fue una de las primeras periodistas del país.",
    ),
    (
        "Era chileno y uno de los primeros periodistas del país.",
        "feminine",
        "Era chilena y una de las primeras periodistas del país.",
    ),
    # a named time before the copula is no subject; `la tía de Pedro` is
    (
        "En la Guerra Civil fue destinado a Madrid.",
        "feminine",
        "En la Guerra Civil fue destinada a Madrid.",
    ),
    (
        "La tía de Pedro era una pianista famosa.",
        "masculine",
        "El tío de Pedro era un pianista famoso.",
    ),
    # `una` + noun is the article; digits between an article and its noun
    ("Fue una activista incansable.", "masculine", "Fue un activista incansable."),
    (
        "Fue elegida entre las 20 mujeres más influyentes.",
        "masculine",
        "Fue elegido entre los 20 hombres más influyentes.",
    ),
    # the article of a common-gender person noun as subject or object
    ("Un periodista lo entrevistó en 1990.", "feminine", "Una periodista la entrevistó en 1990."),
    (
        "Él pasó la mayor parte de su vida en Roma.",
        "feminine",
        "Ella pasó la mayor parte de su vida en Roma.",
    ),
    # a clitic doubled by `a él`/`a ella`
    ("Su equipo lo dejó a él en casa.", "feminine", "Su equipo la dejó a ella en casa."),
    # comparatives in -ores are no agent nouns (`mejores`, not `mejoras`)
    (
        "Fue uno de los mejores futbolistas de su época.",
        "feminine",
        "Fue una de las mejores futbolistas de su época.",
    ),
    # coordinated adjectives after a noun; a sentence-initial finite verb
    (
        "Él se definía como un hombre tímido y reservado.",
        "feminine",
        "Ella se definía como una mujer tímida y reservada.",
    ),
    (
        "Nació en Lima y fue criado por su abuela.",
        "feminine",
        "Nació en Lima y fue criada por su abuela.",
    ),
    # participle clauses describe the subject of their sentence
    (
        "Educado en Eton, ingresó en el ejército.",
        "feminine",
        "Educada en Eton, ingresó en el ejército.",
    ),
    ("Murió en Roma, rodeado de sus amigos.", "feminine", "Murió en Roma, rodeada de sus amigos."),
    (
        "Construido en 1900, el edificio fue restaurado en 1990.",
        "feminine",
        "Construido en 1900, el edificio fue restaurado en 1990.",
    ),
    (
        "Él fundó el grupo Los Rayos, creado en 1981, en Madrid.",
        "feminine",
        "Ella fundó el grupo Los Rayos, creado en 1981, en Madrid.",
    ),
    # `el más pequeño de`; participles and agent nouns after a complement and `y`
    ("Él era el más pequeño de la familia.", "feminine", "Ella era la más pequeña de la familia."),
    (
        "Fue herido en combate y condecorado por su valor.",
        "feminine",
        "Fue herida en combate y condecorada por su valor.",
    ),
    (
        "Trabajó como secretaria antes de ser directora de estudio y luego locutora de radio.",
        "masculine",
        "Trabajó como secretario antes de ser director de estudio y luego locutor de radio.",
    ),
    # a relative governed by a preposition is not the subject of its copula
    (
        "Ganó tres de los premios para los que fue nominado.",
        "feminine",
        "Ganó tres de los premios para los que fue nominada.",
    ),
    # `dos de las cuales`, `una de las cuales` after a changed plural
    (
        "Tuvo cuatro hermanas, una de las cuales fue pintora.",
        "masculine",
        "Tuvo cuatro hermanos, uno de los cuales fue pintor.",
    ),
    # the article of invariable person nouns before a changed apposition
    (
        "Vivió en la casa del teniente general, el barón de Lys.",
        "feminine",
        "Vivió en la casa de la teniente general, la baronesa de Lys.",
    ),
    # `como` + a person noun names a role of the person, once the sentence is about them
    (
        "Él volvió a su pueblo como misionero.",
        "feminine",
        "Ella volvió a su pueblo como misionera.",
    ),
    (
        "Él ganó fama como un hábil negociador.",
        "feminine",
        "Ella ganó fama como una hábil negociadora.",
    ),
    # an infinitive `ser` after a preposition has the sentence's subject
    (
        "Él era actor y pronto se ganó la fama de ser uno de los mejores periodistas.",
        "feminine",
        "Ella era actriz y pronto se ganó la fama de ser una de las mejores periodistas.",
    ),
    # an adjective before a common-gender person noun in a predicate; `-ón`/`-ona`
    ("Era un ávido fan del club.", "feminine", "Era una ávida fan del club."),
    ("Es un ávido lector de novelas.", "feminine", "Es una ávida lectora de novelas."),
    ("Fue patrona de la fundación.", "masculine", "Fue patrón de la fundación."),
    # ... but not the role of a personal object
    ("Él contrató a Juan como entrenador.", "feminine", "Ella contrató a Juan como entrenador."),
    # a predicate noun phrase coordinated with `y`
    (
        "Fue un alumno brillante y un lector voraz.",
        "feminine",
        "Fue una alumna brillante y una lectora voraz.",
    ),
    (
        "Ella fue la única hija de la familia y la más pequeña.",
        "masculine",
        "Él fue el único hijo de la familia y el más pequeño.",
    ),
    # a person noun of the lead table heads a predicate noun phrase
    (
        "En 1990 ya era un abogado conocido en la ciudad.",
        "feminine",
        "En 1990 ya era una abogada conocida en la ciudad.",
    ),
    # `se volvió`/`se hizo` + adjective
    ("Con los años se volvió más reservado.", "feminine", "Con los años se volvió más reservada."),
]


@pytest.mark.parametrize(("src", "to", "expected"), ES_ROUND4)
def test_spanish_round4(src, to, expected):
    assert Rewriter("es", strict=True, relatives="change").rewrite(src, to) == expected


def test_demasiado_is_an_adverb():
    rw = Rewriter("es", strict=True)
    src = "Él era demasiado joven para el puesto."
    assert rw.rewrite(src, "feminine") == "Ella era demasiado joven para el puesto."


# Spanish round 5: vetoes for words that agree with something else, and the last resort
ES_ROUND5 = [
    # an adjective next to a thing noun (`-ción`, `-dad`, ...) or an epicene noun is that noun's
    (
        "Ella ganó un premio por su interpretación única en la obra.",
        "masculine",
        "Él ganó un premio por su interpretación única en la obra.",
    ),
    (
        "Él ganó un premio por su única interpretación en la obra.",
        "feminine",
        "Ella ganó un premio por su única interpretación en la obra.",
    ),
    (
        "Él actuó como estrella invitada en la serie.",
        "feminine",
        "Ella actuó como estrella invitada en la serie.",
    ),
    (
        "Ella fue la primera persona nombrada para el cargo.",
        "masculine",
        "Él fue la primera persona nombrada para el cargo.",
    ),
    # ... but a clitic after an epicene subject is still the person's
    ("Una persona lo llamó genio.", "feminine", "Una persona la llamó genio."),
    # a relative agrees in number with its noun: `chicas a la que` is the school's
    (
        "Ella visitó la escuela para chicas a la que asistió de niña.",
        "masculine",
        "Él visitó la escuela para chicos a la que asistió de niño.",
    ),
    (
        "Él sirvió al rey, al que admiraba.",
        "feminine",
        "Ella sirvió a la reina, a la que admiraba.",
    ),
    # `otra` before a noun of its own is that noun's determiner, not a predicate
    ("Ella era otra persona.", "masculine", "Él era otra persona."),
    # inside a name, an adjective after a changed noun agrees with it
    (
        "Vimos la estatua de un Hombre Dorado en el museo.",
        "feminine",
        "Vimos la estatua de una Mujer Dorada en el museo.",
    ),
    (
        "Vimos la estatua de una Mujer Dorada en el museo.",
        "masculine",
        "Vimos la estatua de un Hombre Dorado en el museo.",
    ),
    # a learned adjective or participle does not change where it stands alone
    ("El ruso ganó la partida contra él.", "feminine", "El ruso ganó la partida contra ella."),
    # a learned office noun into the feminine names someone else in a complement or before
    # a name; as a predicate it is the person's
    (
        "Él se reunió con el presidente del club.",
        "feminine",
        "Ella se reunió con el presidente del club.",
    ),
    ("El presidente Obama lo llamó en 2010.", "feminine", "El presidente Obama la llamó en 2010."),
    ("Él fue el presidente del club.", "feminine", "Ella fue la presidenta del club."),
    # the last resort: nothing else marks the person
    (
        "En 1995 fue elegido presidente del club de ajedrez.",
        "feminine",
        "En 1995 fue elegida presidenta del club de ajedrez.",
    ),
    (
        "Durante diez años trabajó como profesor en la universidad.",
        "feminine",
        "Durante diez años trabajó como profesora en la universidad.",
    ),
    (
        "Ganó la carrera como segundo clasificado.",
        "feminine",
        "Ganó la carrera como segunda clasificada.",
    ),
    (
        "Ganó la carrera como segunda clasificada.",
        "masculine",
        "Ganó la carrera como segundo clasificado.",
    ),
    (
        "Escribió varias novelas, pero es más conocido por sus poemas.",
        "feminine",
        "Escribió varias novelas, pero es más conocida por sus poemas.",
    ),
    (
        "Escribió varias novelas, pero es más conocida por sus poemas.",
        "masculine",
        "Escribió varias novelas, pero es más conocido por sus poemas.",
    ),
    # ... and a masculine plural kin or person noun is the person's group
    (
        "Organizó un torneo para niños de su barrio.",
        "feminine",
        "Organizó un torneo para niñas de su barrio.",
    ),
    # ... not a noun of a relation to someone, nor a participle that may be a thing's, nor
    # children counted after `tener`
    ("Nunca tuvo hijos.", "feminine", "Nunca tuvo hijos."),
    (
        "El nombramiento de un sucesor quedó en manos del consejo.",
        "feminine",
        "El nombramiento de un sucesor quedó en manos del consejo.",
    ),
    (
        "Fundó una revista y fue dirigida por un amigo.",
        "masculine",
        "Fundó una revista y fue dirigida por un amigo.",
    ),
]


@pytest.mark.parametrize(("src", "to", "expected"), ES_ROUND5)
def test_spanish_round5(src, to, expected):
    assert Rewriter("es", strict=True, relatives="change").rewrite(src, to) == expected


def _es_sentence(text):
    from occbio.rewrite.languages.base import Sentence
    from occbio.rewrite.tokens import word_spans

    spans = word_spans(text, "es")
    toks = [text[a:b] for a, b in spans]
    return Sentence(text, spans, toks, [t.lower() for t in toks], covered=[False] * len(toks))


def test_spanish_adjective_of_a_thing_noun_is_vetoed():
    from occbio.rewrite.languages.es_veto import agrees_with_other

    # `quinto` before `álbum` is the album's; before `marido` it may be the person's change
    assert agrees_with_other(_es_sentence("Grabó su quinto álbum en Roma."), 2, 1, ("quinta",))
    assert agrees_with_other(_es_sentence("Fue una actuación famosa."), 3, 1, ("famoso",))
    assert not agrees_with_other(_es_sentence("Fue su quinto marido."), 2, 1, ("quinta",))
    assert agrees_with_other(_es_sentence("Era una figura querida."), 3, 1, ("querido",))


@pytest.mark.parametrize(
    ("src", "to", "expected"),
    [
        # words whose other sense is the common one stay unless the person is meant
        ("Després de la seva mort, el museu va obrir.", "feminine", None),
        ("Va estudiar música i política.", "masculine", None),
        ("Era una política catalana.", "masculine", "Era un polític català."),
        # a preposition contracts with a changed article
        ("Era la filla de la reina.", "masculine", "Era el fill del rei."),
        ("Va parlar per la reina.", "masculine", "Va parlar pel rei."),
    ],
)
def test_catalan_other_senses_and_contractions(src, to, expected):
    out = Rewriter("ca", strict=True).rewrite(src, to)
    assert out == (src if expected is None else expected)
