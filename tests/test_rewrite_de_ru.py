"""German and Russian rewriting: agreement, pronoun cases, and the precision traps."""

import pytest

from occbio.rewrite import Rewriter


@pytest.fixture(scope="module")
def de():
    # the rules as MT-GenEval measures them: relatives change too (kept: test_rewrite_relatives)
    return Rewriter("de", relatives="change")


@pytest.mark.parametrize(
    ("src", "to", "want"),
    [
        (
            "Sie ist eine bekannte Schauspielerin.",
            "masculine",
            "Er ist ein bekannter Schauspieler.",
        ),
        ("Er ist ein bekannter Schauspieler.", "feminine", "Sie ist eine bekannte Schauspielerin."),
        ("Sie wurde 1950 in Berlin geboren.", "masculine", "Er wurde 1950 in Berlin geboren."),
        # dative ``ihr`` is ``ihm``, the possessive ``ihr`` is ``sein``
        ("Die Stadt wurde nach ihr benannt.", "masculine", "Die Stadt wurde nach ihm benannt."),
        ("Ihr Vater war Lehrer.", "masculine", "Sein Vater war Lehrer."),
        ("Sein Buch war ein Erfolg.", "feminine", "Ihr Buch war ein Erfolg."),
        # ``sie`` as an object
        ("Das Magazin kürte sie 1990.", "masculine", "Das Magazin kürte ihn 1990."),
        ("Er schrieb ein Buch über sie.", "feminine", "Sie schrieb ein Buch über sie."),
        ("Der Preis ging an sie.", "masculine", "Der Preis ging an ihn."),
        # quotes
        ('Anna sagte: "Sie ist klug."', "masculine", 'Anna sagte: "Er ist klug."'),
    ],
)
def test_german(de, src, to, want):
    assert de.rewrite(src, to) == want


@pytest.mark.parametrize(
    ("src", "to"),
    [
        ("Sie waren Freunde.", "masculine"),  # plural "they"
        ("Können Sie mir helfen?", "masculine"),  # formal "you"
        ("Wir danken Ihnen für Ihre Hilfe.", "masculine"),  # formal "your"
        ("Das Haus ist alt.", "feminine"),
        ("Das Haus ist alt.", "masculine"),
        ("Die Kinder und ihre Eltern sind gekommen.", "masculine"),  # "their"
    ],
)
def test_german_unchanged(de, src, to):
    assert de.rewrite(src, to) is src


@pytest.mark.parametrize(
    ("src", "to", "want"),
    [
        # ``Mädchen`` is neuter
        (
            "Der Großvater warnte den Jungen, nicht zurückzuschauen.",
            "feminine",
            "Die Großmutter warnte das Mädchen, nicht zurückzuschauen.",
        ),
        ("Das Interesse des Jungen wuchs.", "feminine", "Das Interesse des Mädchens wuchs."),
        # ``jungen`` is also "young"
        (
            "Er war vor allem bei jungen Menschen beliebt.",
            "feminine",
            "Sie war vor allem bei jungen Menschen beliebt.",
        ),
        # a possessive before a person noun that stays is left with it
        (
            "Sie wurde von ihrer Gouvernante erzogen.",
            "masculine",
            "Er wurde von ihrer Gouvernante erzogen.",
        ),
        # compound kin nouns change with the relatives (``Stiefmutter`` → ``Stiefvater``)
        (
            "Sie wurde von ihrer Stiefmutter erzogen.",
            "masculine",
            "Er wurde von seinem Stiefvater erzogen.",
        ),
        # ``ihrer`` before a thing is ``seiner``; not after ``einer`` ("of her" or "of their")
        (
            "Sie wurde von ihrer Familie erzogen.",
            "masculine",
            "Er wurde von seiner Familie erzogen.",
        ),
        ("Er traf einen ihrer Schüler.", "masculine", "Er traf einen ihrer Schüler."),
        # ``sie`` as the object of a causing verb, and ``ihr`` after a dative verb
        (
            "Ihre Mutter starb, was sie dazu veranlasste, zu betteln.",
            "masculine",
            "Sein Vater starb, was ihn dazu veranlasste, zu betteln.",
        ),
        ("Das Album verhalf ihr zum Sieg.", "masculine", "Das Album verhalf ihm zum Sieg."),
        # plural "they" in a relative clause, "their" in a plural subordinate clause
        (
            "Sie leitete eine Schule, die sie gemeinsam besuchten.",
            "masculine",
            "Er leitete eine Schule, die sie gemeinsam besuchten.",
        ),
        (
            "Sie fragte, wie die Angestellten ihre Identität schützen.",
            "masculine",
            "Er fragte, wie die Angestellten ihre Identität schützen.",
        ),
        (
            "In der Kirche schütteln sie sich.",
            "masculine",
            "In der Kirche schütteln sie sich.",
        ),
    ],
)
def test_german_round2(de, src, to, want):
    assert de.rewrite(src, to) == want


def test_german_verb_sein_stays(de):
    assert de.rewrite("Er wollte immer frei sein.", "feminine") == "Sie wollte immer frei sein."


def test_german_acronym_stays(de):
    out = de.rewrite("Sie testete die ER-Positiv-Therapie.", "masculine")
    assert out == "Er testete die ER-Positiv-Therapie."


@pytest.mark.parametrize(
    ("src", "to", "want"),
    [
        # the plural verb of the possessive's own noun phrase does not make it "their"
        ("Ihre Eltern waren Lehrer.", "masculine", "Seine Eltern waren Lehrer."),
        # a feminine noun phrase after the verb of a clause with a subject: accusative
        ("Sie besuchte ihre Mutter.", "masculine", "Er besuchte seinen Vater."),
        (
            "Sie reiste nach Rom, um die Königin zu treffen.",
            "masculine",
            "Er reiste nach Rom, um den König zu treffen.",
        ),
        ("Sie wurde eine bekannte Ärztin.", "masculine", "Er wurde ein bekannter Arzt."),
        ("Ich bin eine echte Berlinerin.", "masculine", "Ich bin ein echter Berliner."),
        (
            "Das Gesetz verlangte eine weibliche Erbin.",
            "masculine",
            "Das Gesetz verlangte einen männlichen Erben.",
        ),
        # feminine ``der``: genitive after a noun, dative after a verb or relative pronoun,
        # an apposition after a dative
        ("Sie war die Tochter der Königin.", "masculine", "Er war der Sohn des Königs."),
        ("Das Schloss gehörte der Königin.", "masculine", "Das Schloss gehörte dem König."),
        (
            "Die Diener, die der Königin dienten, waren treu.",
            "masculine",
            "Die Diener, die dem König dienten, waren treu.",
        ),
        (
            "Sie wuchs bei ihrer Tante auf, einer Lehrerin.",
            "masculine",
            "Er wuchs bei seinem Onkel auf, einem Lehrer.",
        ),
        # ``-in`` nouns the tables do not know; plurals dative after a dative preposition
        (
            "Sie arbeitete als Botschafterin in Rom.",
            "masculine",
            "Er arbeitete als Botschafter in Rom.",
        ),
        (
            "Sie unterrichtete zusammen mit zwei Lehrerinnen.",
            "masculine",
            "Er unterrichtete zusammen mit zwei Lehrern.",
        ),
        (
            "Sie bekam die Rolle, um die Hitman-Protagonistin zu spielen.",
            "masculine",
            "Er bekam die Rolle, um den Hitman-Protagonisten zu spielen.",
        ),
        ("Sie heiratete Konstantin.", "masculine", "Er heiratete Konstantin."),
        ("Sie gewann den Frauen-Vierer.", "masculine", "Er gewann den Männer-Vierer."),
        (
            "Ihre Schüler und Schülerinnen mochten sie.",
            "masculine",
            "Seine Schüler und Schülerinnen mochten ihn.",
        ),
        # ``Frau`` before a name, ``Mädchen`` after ``als``, the partitive ``eine der``
        ("Frau Weber leitete die Schule.", "masculine", "Herr Weber leitete die Schule."),
        ("Als Mädchen spielte sie Geige.", "masculine", "Als Junge spielte er Geige."),
        (
            "Sie war eine der ersten Frauen im Parlament.",
            "masculine",
            "Er war einer der ersten Männer im Parlament.",
        ),
        (
            "Sie war die beste Sängerin ihrer Generation.",
            "masculine",
            "Er war der beste Sänger seiner Generation.",
        ),
        # ``sie`` after the plural verb of a subject noun phrase is the object
        (
            "Ihre Eltern schickten sie auf ein Internat.",
            "masculine",
            "Seine Eltern schickten ihn auf ein Internat.",
        ),
        ("Die Nazis verhafteten sie 1942.", "masculine", "Die Nazis verhafteten ihn 1942."),
        (
            "Weil ihr Vater krank war, musste sie arbeiten.",
            "masculine",
            "Weil sein Vater krank war, musste er arbeiten.",
        ),
        (
            "Sie sah sie zum ersten Mal in Paris.",
            "masculine",
            "Er sah sie zum ersten Mal in Paris.",
        ),
        (
            "Die Schauspielerin, die sie spielte, war berühmt.",
            "masculine",
            "Der Schauspieler, der ihn spielte, war berühmt.",
        ),
        # ``ihr`` as a dative pronoun: after a preposition, before an article or a quantity
        (
            "Besonders auffällig an ihr sind die blauen Haare.",
            "masculine",
            "Besonders auffällig an ihm sind die blauen Haare.",
        ),
        ("Der Preis wurde ihr verliehen.", "masculine", "Der Preis wurde ihm verliehen."),
        ("1990 wurde ihr der Preis verliehen.", "masculine", "1990 wurde ihm der Preis verliehen."),
        ("Er schenkte ihr 100 Bücher.", "masculine", "Er schenkte ihm 100 Bücher."),
        (
            "Ihr 1990 erschienenes Album war ein Erfolg.",
            "masculine",
            "Sein 1990 erschienenes Album war ein Erfolg.",
        ),
        (
            "Die Zuschauer teilten ihr mit, dass sie gewonnen habe.",
            "masculine",
            "Die Zuschauer teilten ihm mit, dass er gewonnen habe.",
        ),
        # masculine → feminine: a role after a copula with ``er``, ``Herr`` before a name,
        # ``einer der``, a nominalised adjective keeps its own ending
        ("Er wurde ein bekannter Fahrer.", "feminine", "Sie wurde eine bekannte Fahrerin."),
        (
            "1990 wurde er Präsident des Vereins.",
            "feminine",
            "1990 wurde sie Präsidentin des Vereins.",
        ),
        ("Sein Vater war Lehrer.", "feminine", "Ihre Mutter war Lehrer."),
        ("Herr Weber leitete die Schule.", "feminine", "Frau Weber leitete die Schule."),
        ("Er war einer der besten Autoren.", "feminine", "Sie war eine der besten Autorinnen."),
        ("Er war Vorsitzender des Vereins.", "feminine", "Sie war Vorsitzende des Vereins."),
        (
            "Er stimmte zu, der Anführer der Gruppe zu werden.",
            "feminine",
            "Sie stimmte zu, die Anführerin der Gruppe zu werden.",
        ),
        (
            "Von 1950 bis 1960 war er der dritte Erzbischof der Stadt.",
            "feminine",
            "Von 1950 bis 1960 war sie die dritte Erzbischöfin der Stadt.",
        ),
        (
            "Er war ein äußerst beliebter Autor.",
            "feminine",
            "Sie war eine äußerst beliebte Autorin.",
        ),
        (
            "Sie war eine äußerst beliebte Autorin.",
            "masculine",
            "Er war ein äußerst beliebter Autor.",
        ),
        # an apposition right after a changed noun takes its case
        (
            "Sie traf die Protagonistin Anna, eine geklonte Attentäterin.",
            "masculine",
            "Er traf den Protagonisten Anna, einen geklonten Attentäter.",
        ),
        # nouns made from adjectives decline like adjectives
        (
            "Sie war die Vorsitzende des Vereins.",
            "masculine",
            "Er war der Vorsitzende des Vereins.",
        ),
        (
            "Sie war eine Abgeordnete des Kreises.",
            "masculine",
            "Er war ein Abgeordneter des Kreises.",
        ),
        ("Sie wurde zur Vorsitzenden gewählt.", "masculine", "Er wurde zum Vorsitzenden gewählt."),
        (
            "Er wurde als Zweitplatzierter aufgestellt.",
            "feminine",
            "Sie wurde als Zweitplatzierte aufgestellt.",
        ),
        ("Sie traf Bekannte in Berlin.", "masculine", "Er traf Bekannte in Berlin."),
        # an oblique form the tables chose, without an article: the nominative
        ("Prinzessin Anna besuchte die Stadt.", "masculine", "Prinz Anna besuchte die Stadt."),
        # a clause opened by a noun phrase of time: ``sie`` is the subject
        (
            "Die meiste Zeit verbrachte sie in Wien.",
            "masculine",
            "Die meiste Zeit verbrachte er in Wien.",
        ),
        (
            "Ein Jahr später heiratete sie einen Arzt.",
            "masculine",
            "Ein Jahr später heiratete er einen Arzt.",
        ),
        # ``sie und ihr Mann``: one of a plural subject
        (
            "Nachdem sie und ihr Mann sich getrennt hatten, zog sie nach Rom.",
            "masculine",
            "Nachdem er und sein Mann sich getrennt hatten, zog er nach Rom.",
        ),
        # a plural dative after ``vielen``, not after ``die beiden``
        ("Sie half vielen Frauen.", "masculine", "Er half vielen Männern."),
        ("Die beiden Schwestern zogen nach Rom.", "masculine", "Die beiden Brüder zogen nach Rom."),
        # a possessive noun phrase naming a person, then the verb: ``sie`` is the object
        ("Ihr Lehrer ermutigte sie 1990.", "masculine", "Sein Lehrer ermutigte ihn 1990."),
        ("Ihre erste Rolle spielte sie 1990.", "masculine", "Seine erste Rolle spielte er 1990."),
        # an acronym stays; ``Jungs`` and ``den Jungen`` after a dative preposition are plural
        ("Er ist Mitglied des SIR.", "feminine", "Sie ist Mitglied des SIR."),
        (
            "Er trennte sich von den Jungs der Band.",
            "feminine",
            "Sie trennte sich von den Mädchen der Band.",
        ),
        # ``die Sängerin`` is nominative beside an accusative ``einen Arzt``
        (
            "1990 heiratete die Sängerin einen Arzt.",
            "masculine",
            "1990 heiratete der Sänger einen Arzt.",
        ),
        # ``sie`` is the object only in a clause without a subject (an infinitive clause)
        ("Damals hatte sie viel zu tun.", "masculine", "Damals hatte er viel zu tun."),
        ("Sie beschloss, sie zu verlassen.", "masculine", "Er beschloss, ihn zu verlassen."),
        (
            "Er überredete sie, nach Paris zu gehen.",
            "masculine",
            "Er überredete ihn, nach Paris zu gehen.",
        ),
        # with ``sie`` as the subject, ``ihr`` after a dative verb is the possessive
        ("Sie legte ihr Amt 1990 nieder.", "masculine", "Er legte sein Amt 1990 nieder."),
        ("Das Publikum dankte ihr.", "masculine", "Das Publikum dankte ihm."),
        # a bare noun phrase right after another one is the object
        (
            "Im Dorf warnte die Großmutter das Mädchen.",
            "masculine",
            "Im Dorf warnte die Großmutter den Jungen.",
        ),
        ("Lady Anna traf 1990 den Papst.", "masculine", "Lord Anna traf 1990 den Papst."),
        (
            "Sie besuchte die Our Lady School in London.",
            "masculine",
            "Er besuchte die Our Lady School in London.",
        ),
        # a plural verb after ``und`` shares its subject: ``sie`` is the object
        (
            "Die Lehrer lobten und förderten sie.",
            "masculine",
            "Die Lehrer lobten und förderten ihn.",
        ),
        (
            "Sie trat als sie selbst in dem Film auf.",
            "masculine",
            "Er trat als er selbst in dem Film auf.",
        ),
        # a clause runs on over ``L.A.-``: its last word is the verb
        (
            "Ihr Sieg war es, was sie in die Endrunde des L.A.-Wettbewerbs brachte.",
            "masculine",
            "Sein Sieg war es, was ihn in die Endrunde des L.A.-Wettbewerbs brachte.",
        ),
        # ``ihnen`` is no plural verb
        (
            "Sie teilte ihnen mit, dass sie komme.",
            "masculine",
            "Er teilte ihnen mit, dass er komme.",
        ),
        # the accusative relative pronoun (masculine → feminine)
        (
            "Er traf den Schauspieler, den er bewunderte.",
            "feminine",
            "Sie traf die Schauspielerin, die sie bewunderte.",
        ),
        (
            "Er warnte den Jungen, den er kannte.",
            "feminine",
            "Sie warnte das Mädchen, das sie kannte.",
        ),
        # ``Frau`` without an article is left
        ("Als Frau hatte sie es schwer.", "masculine", "Als Frau hatte er es schwer."),
    ],
)
def test_german_round4(de, src, to, want):
    assert de.rewrite(src, to) == want


@pytest.mark.parametrize(
    ("src", "to"),
    [
        ("Sie sind mit ihren Kindern gekommen.", "masculine"),  # plural "they"
        ("Die vier Kinder kehren in das Haus ihrer Kindheit zurück.", "masculine"),
        ("Nach dem Krieg verkauften die beiden Brüder ihre Firma.", "masculine"),
        ("Der Verein war ein Erfolg.", "feminine"),
        # subject or object? (``der``/``den``): the noun phrase is left as it is
        ("Leider verließ die Sängerin die Band.", "masculine"),
    ],
)
def test_german_round4_unchanged(de, src, to):
    assert de.rewrite(src, to) is src


@pytest.mark.parametrize(
    ("src", "to", "want"),
    [
        # a masculine plural after a dative word takes ``-n``; ``eine von`` is a partitive
        (
            "Sie war eine von drei Frauen im Rat.",
            "masculine",
            "Er war einer von drei Männern im Rat.",
        ),
        ("Sie arbeitete mit ihren Schwestern.", "masculine", "Er arbeitete mit seinen Brüdern."),
        # a possessive before a plural keeps its ending (``seine``, not ``sein``)
        ("Ihre Schwestern besuchten sie oft.", "masculine", "Seine Brüder besuchten ihn oft."),
        # plural finite verbs across quotation marks: ``sie`` is "they"
        (
            "Sie sagte, dass sie „bald zurückkehren werden“.",
            "masculine",
            "Er sagte, dass sie „bald zurückkehren werden“.",
        ),
        (
            "Sie sagte, dass sie Ärztin werden wollte.",
            "masculine",
            "Er sagte, dass er Arzt werden wollte.",
        ),
        # ``ihr`` beside a second person plural verb is "you"
        ("„Ihr habt gewonnen“, sagte sie.", "masculine", "„Ihr habt gewonnen“, sagte er."),
        ("Sie traf die First Lady.", "masculine", "Er traf die First Lady."),
        # a relative pronoun with a plural verb belongs to a plural noun
        (
            "Sie sprach mit den Freunden der Braut, die sich festlich kleiden.",
            "masculine",
            "Er sprach mit den Freunden des Bräutigams, die sich festlich kleiden.",
        ),
        # kin nouns have their own masculine; a noun after it is no name
        (
            "Ihr Vater war Arzt, ihre Mutter Lehrerin.",
            "masculine",
            "Sein Vater war Arzt, sein Vater Lehrer.",
        ),
        # ``zur``/``zum`` before an adjective and a changed noun
        (
            "Die Jury wählte sie zur besten Schauspielerin.",
            "masculine",
            "Die Jury wählte ihn zum besten Schauspieler.",
        ),
        (
            "Die Jury wählte ihn zum besten Schauspieler.",
            "feminine",
            "Die Jury wählte sie zur besten Schauspielerin.",
        ),
        # a role without an article after a copula: the strong nominative
        (
            "Ihre Mutter wurde königliche Richterin.",
            "masculine",
            "Sein Vater wurde königlicher Richter.",
        ),
        ("Er wurde Richter.", "feminine", "Sie wurde Richterin."),
        # over an adverb between the copula and the role
        (
            "Er war auch ein anerkannter Redner.",
            "feminine",
            "Sie war auch eine anerkannte Rednerin.",
        ),
        # ``sie`` closing a coordinated subject
        (
            "Ihre Schwester und sie gründeten eine Band.",
            "masculine",
            "Sein Bruder und er gründeten eine Band.",
        ),
        (
            "Sie lebte mit ihrer Schwester und sie teilten alles.",
            "masculine",
            "Er lebte mit seinem Bruder und sie teilten alles.",
        ),
        # ``Witwe``/``Witwer`` is no noun made from an adjective
        ("Sie war die Witwe des Malers.", "masculine", "Er war der Witwer des Malers."),
        # a person opening the clause (over a name) is the subject: ``sie`` is the object
        (
            "Ihr Lehrer Paul Weber ermutigte sie.",
            "masculine",
            "Sein Lehrer Paul Weber ermutigte ihn.",
        ),
        # a thing opening the clause before ``spielte`` is its object: ``sie`` is the subject
        (
            "Die Hauptrolle spielte sie zehn Jahre lang.",
            "masculine",
            "Die Hauptrolle spielte er zehn Jahre lang.",
        ),
        # a possessive in a clause a collective opens is the collective's
        (
            "Sie verließ 1990 die Band. Die Band veröffentlichte ihr letztes Album.",
            "masculine",
            "Er verließ 1990 die Band. Die Band veröffentlichte ihr letztes Album.",
        ),
        ("Die Jury lobte ihre Stimme.", "masculine", "Die Jury lobte seine Stimme."),
        # the point of an ordinal does not end the clause (the copula decides the case)
        (
            "Sie war im 19. Jahrhundert eine beliebte Autorin.",
            "masculine",
            "Er war im 19. Jahrhundert ein beliebter Autor.",
        ),
        # the only noun phrase after the verb of a main clause is its subject
        (
            "Am 3. Mai 2012 gehörte die Herzogin zu einer Gruppe von Spendern.",
            "masculine",
            "Am 3. Mai 2012 gehörte der Herzog zu einer Gruppe von Spendern.",
        ),
        ("2005 ehrte die Stadt die Sängerin.", "masculine", "2005 ehrte die Stadt den Sänger."),
        ("Leider starb ihre Mutter früh.", "masculine", "Leider starb sein Vater früh."),
        # a relative pronoun after a preposition takes its case
        (
            "Sie spielte eine ältere Frau, in die Paul verliebt ist.",
            "masculine",
            "Er spielte einen älteren Mann, in den Paul verliebt ist.",
        ),
        (
            "Er war ein Sänger, von dem viele lernten.",
            "feminine",
            "Sie war eine Sängerin, von der viele lernten.",
        ),
        # a relative pronoun over the participle that ends the clause of its noun
        (
            "Ihre Ehe wurde von ihrer Stiefmutter arrangiert, die damals am Hof lebte.",
            "masculine",
            "Seine Ehe wurde von seinem Stiefvater arrangiert, der damals am Hof lebte.",
        ),
        # ``zu haben`` is an infinitive, not a plural verb: the possessive is "her"
        (
            "Sie behauptet, ihre Uhr verloren zu haben und vor ihren Feinden zu fliehen.",
            "masculine",
            "Er behauptet, seine Uhr verloren zu haben und vor seinen Feinden zu fliehen.",
        ),
        # after the plural verb of ``sie und ihre Schwester`` a possessive is "their"
        (
            "Sie und ihre Schwester verkauften ihr Haus.",
            "masculine",
            "Er und sein Bruder verkauften ihr Haus.",
        ),
        # the person's kin after ``sein``: the feminine in the possessive's case
        ("Er wurde zu seinem Onkel geschickt.", "feminine", "Sie wurde zu ihrer Tante geschickt."),
        (
            "Nach dem Tod seines Vaters zog er nach Wien.",
            "feminine",
            "Nach dem Tod ihrer Mutter zog sie nach Wien.",
        ),
        # a role after ``als`` in a clause about the person; not the role of a name
        ("Er arbeitete als Lehrer in Wien.", "feminine", "Sie arbeitete als Lehrerin in Wien."),
        (
            "Er arbeitete mit Paul als Manager.",
            "feminine",
            "Sie arbeitete mit Paul als Manager.",
        ),
    ],
)
def test_german_round5(de, src, to, want):
    assert de.rewrite(src, to) == want


def test_german_compound_kin_kept_by_default():
    out = Rewriter("de").rewrite("Sie wurde von ihrer Stiefmutter erzogen.", "masculine")
    assert out == "Er wurde von ihrer Stiefmutter erzogen."
    out = Rewriter("de").rewrite("Er wurde zu seinem Onkel geschickt.", "feminine")
    assert out == "Sie wurde zu ihrem Onkel geschickt."


@pytest.fixture(scope="module")
def ru():
    pytest.importorskip("pymorphy3")
    return Rewriter("ru")


@pytest.mark.parametrize(
    ("src", "to", "want"),
    [
        (
            "Он родился в Москве и был назначен директором.",
            "feminine",
            "Она родилась в Москве и была назначена директором.",
        ),
        ("Она родилась в Москве.", "masculine", "Он родился в Москве."),
        # the verb of another subject stays
        (
            "Дом, который он построил, был продан.",
            "feminine",
            "Дом, который она построила, был продан.",
        ),
    ],
)
def test_russian(ru, src, to, want):
    assert ru.rewrite(src, to) == want


@pytest.mark.parametrize(
    ("src", "to"),
    [
        ("Это был трудный год.", "feminine"),
        ("Погода была хорошей.", "masculine"),
        ("Мария работала учительницей.", "feminine"),
    ],
)
def test_russian_unchanged(ru, src, to):
    assert ru.rewrite(src, to) is src


@pytest.mark.parametrize(
    ("src", "to", "want"),
    [
        # coordinated verbs share the subject, across a hyphenated name and a comma
        (
            "Он родился в Санкт-Петербурге и учился в гимназии.",
            "feminine",
            "Она родилась в Санкт-Петербурге и училась в гимназии.",
        ),
        (
            "Он поступил в университет, но вскоре бросил учебу.",
            "feminine",
            "Она поступила в университет, но вскоре бросила учебу.",
        ),
        ("Он был арестован и осужден.", "feminine", "Она была арестована и осуждена."),
        (
            "Он был избран президентом клуба и прослужил пять лет.",
            "feminine",
            "Она была избрана президентом клуба и прослужила пять лет.",
        ),
        # another subject: after the verb, or a thing of the clause
        (
            "Она переехала в Рим, когда в Италии менялась власть.",
            "masculine",
            "Он переехал в Рим, когда в Италии менялась власть.",
        ),
        (
            "Она вышла на пенсию, а ее дом был продан.",
            "masculine",
            "Он вышел на пенсию, а его дом был продан.",
        ),
        ("Она сказала, что Иван приехал.", "masculine", "Он сказал, что Иван приехал."),
        # a subject after its verb; adjectives, ordinals, ``который`` and participles agree
        ("Молодой король умер в 1500 году.", "feminine", "Молодая королева умерла в 1500 году."),
        (
            "Там жил старый барон, который построил замок.",
            "feminine",
            "Там жила старая баронесса, которая построила замок.",
        ),
        ("5-й граф умер молодым.", "feminine", "5-я графиня умерла молодой."),
        (
            "Это был настоящий мужчина, любивший охоту.",
            "feminine",
            "Это была настоящая женщина, любившая охоту.",
        ),
        (
            "Она играла роль молодой девушки, которую похитили.",
            "masculine",
            "Он играл роль молодого парня, которого похитили.",
        ),
        (
            "Он стал первым мужчиной, получившим эту награду.",
            "feminine",
            "Она стала первой женщиной, получившей эту награду.",
        ),
        # predicate adjectives in the instrumental
        ("Он был младшим из пяти детей.", "feminine", "Она была младшей из пяти детей."),
        ("Она была младшей из пяти детей.", "masculine", "Он был младшим из пяти детей."),
        # feminine person nouns by suffix; pair nouns in the case their verb governs
        (
            "Она стала олимпийской чемпионкой.",
            "masculine",
            "Он стал олимпийским чемпионом.",
        ),
        (
            "Бароны вынудили короля подписать хартию.",
            "feminine",
            "Бароны вынудили королеву подписать хартию.",
        ),
        # titles in quotes stay, and a title can be the subject
        (
            "Он сыграл в фильме «Мальчик и море» и получил премию.",
            "feminine",
            "Она сыграла в фильме «Мальчик и море» и получила премию.",
        ),
        (
            "Его роман «Отец и сын» был издан в 1990 году.",
            "feminine",
            "Ее роман «Отец и сын» был издан в 1990 году.",
        ),
        (
            "Хозяин дома сказал, что «Мальчик и море» вышел в 1990 году.",
            "feminine",
            "Хозяйка дома сказала, что «Мальчик и море» вышел в 1990 году.",
        ),
        # a name opening the sentence is the person when the person changed elsewhere
        (
            "Гарсия переехал в Москву, где его карьера пошла вверх.",
            "feminine",
            "Гарсия переехала в Москву, где ее карьера пошла вверх.",
        ),
        # adjectives of sex and parenthood; ``ней`` after a preposition by its case
        ("Его мужской голос звучал низко.", "feminine", "Ее женский голос звучал низко."),
        ("Он сменил отцовскую фамилию.", "feminine", "Она сменила материнскую фамилию."),
        ("Критики писали о ней с восторгом.", "masculine", "Критики писали о нем с восторгом."),
        ("В 1990 году к ней пришла слава.", "masculine", "В 1990 году к нему пришла слава."),
        # ``нем`` after a preposition is the pronoun, not the short adjective
        ("Он жил в нем до смерти.", "feminine", "Она жила в нем до смерти."),
    ],
)
def test_russian_round5(ru, src, to, want):
    assert ru.rewrite(src, to) == want


@pytest.mark.parametrize(
    ("src", "to"),
    [
        ("Дом был построен в 1900 году.", "feminine"),
        ("Была также издана книга о войне.", "masculine"),
        ("В этом году в Москве открылась новая школа.", "masculine"),
    ],
)
def test_russian_round5_unchanged(ru, src, to):
    assert ru.rewrite(src, to) is src


def test_russian_without_analyser_still_works(monkeypatch):
    from occbio.rewrite.languages import ru as ru_rules

    monkeypatch.setattr(ru_rules, "_morph", lambda: None)
    monkeypatch.setattr(ru_rules, "_parse", lambda word: [])
    rw = Rewriter("ru")
    assert rw.rewrite("Он был врачом.", "feminine").startswith("Она")
    assert rw.rewrite("Это был трудный год.", "feminine") == "Это был трудный год."
