"""Italian gender rewriting: hand-written sentences (none taken from MT-GenEval)."""

from __future__ import annotations

import pytest

from occbio.rewrite import Rewriter
from occbio.rewrite.languages.it_articles import agree_determiner, onset_sound


@pytest.fixture(scope="module")
def rw() -> Rewriter:
    # the rules as MT-GenEval measures them: relatives change too (kept: test_rewrite_relatives)
    return Rewriter("it", relatives="change")


def _cases(block: str) -> list[tuple[str, str, str]]:
    """Cases written two lines each: `f`/`m` (the target) and the source, then the expected
    rewrite indented; lines starting with `#` say what the cases show."""
    rows = [ln for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    to = {"f": "feminine", "m": "masculine"}
    return [(a[2:], to[a[0]], b.strip()) for a, b in zip(rows[::2], rows[1::2], strict=True)]


ROUND_ONE = """
# article + noun + participle agreement, `lo` before z, articulated preposition
f Lo zio di Marco è stato nominato direttore del museo.
  La zia di Marco è stata nominata direttrice del museo.
m La zia di Marco è stata nominata direttrice del museo.
  Lo zio di Marco è stato nominato direttore del museo.
# elision appears and disappears: un'attrice <-> un attore, uno scrittore
m Lei era un'attrice famosa e una scrittrice.
  Lui era un attore famoso e uno scrittore.
f Lui era un attore famoso e uno scrittore.
  Lei era un'attrice famosa e una scrittrice.
# an invariant adjective between the article and the noun; `dal` + changed noun
f Il giovane attore fu premiato dal re.
  La giovane attrice fu premiata dalla regina.
# titles before a name: signora <-> signor, la stessa <-> lo stesso
f Il signor Rossi era molto stimato.
  La signora Rossi era molto stimata.
m La stessa Cyrus è nata a Nashville.
  Lo stesso Cyrus è nato a Nashville.
# a determiner used as a pronoun before `dei`/`delle`: `una delle` -> `uno dei`
m Lei è una delle attrici del film.
  Lui è uno degli attori del film.
# the dative clitic before a verb, in a sentence already about the person
f Lui era malato e i medici gli consigliarono riposo.
  Lei era malata e i medici le consigliarono riposo.
# quotes are copied; names with gendered-looking words stay
f Lui disse: «Sono felice di tornare a Santa Maria Capua Vetere».
  Lei disse: «Sono felice di tornare a Santa Maria Capua Vetere».
f Lui studiò la corte di Lorenzo il Magnifico.
  Lei studiò la corte di Lorenzo il Magnifico.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_ONE))
def test_rewrites(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected


ROUND_TWO = """
# object clitics before a finite verb, and enclitics on a gerund / infinitive
f Nel 1980 la giuria lo premiò.
  Nel 1980 la giuria la premiò.
m Nel 1980 la giuria la premiò.
  Nel 1980 la giuria lo premiò.
m Le pagarono la cauzione.
  Gli pagarono la cauzione.
f Decisero di assolverlo, costringendolo a partire.
  Decisero di assolverla, costringendola a partire.
# a participle after essere with no visible subject agrees with the person
f In seguito si è dedicato alla musica.
  In seguito si è dedicata alla musica.
f A 72 anni è tornato al cinema.
  A 72 anni è tornata al cinema.
# predicate noun phrases: `uno dei primi a`, `un delegato`, a noun of both genders
f Fu uno dei primi a lavorare lì.
  Fu una delle prime a lavorare lì.
f Era un delegato del partito.
  Era una delegata del partito.
m È una fan sfegatata del Milan.
  È un fan sfegatato del Milan.
# a noun of both genders after its determiner; a possessive between them
f Il suo portavoce ha poi smentito.
  La sua portavoce ha poi smentito.
# ordinals before a changed noun, after a ranking verb; `se stesso`
f Suo figlio, il secondo visconte, morì nel 1525.
  Sua figlia, la seconda viscontessa, morì nel 1525.
f Nel 2001 finì quarto.
  Nel 2001 finì quarta.
m Interpretò se stessa nel film.
  Interpretò se stesso nel film.
# plural adjectives agree with a changed plural noun
m Lo studio riguarda le madri biologiche.
  Lo studio riguarda i padri biologici.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_TWO))
def test_round_two_rules(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected


@pytest.mark.parametrize(
    ("src", "to"),
    [
        # nothing about the person's gender: the very same object comes back
        ("Il caso è stato risolto nel 1990.", "feminine"),
        ("Lo stato della Florida ha approvato la legge.", "feminine"),
        ("La città è stata fondata dai Romani.", "masculine"),
        ("Dato che pioveva, la partita fu rinviata.", "masculine"),
        # a noun-phrase subject that nothing changed, a subject after the participle
        ("Lo spettacolo è stato presentato a Roma.", "feminine"),
        ("Tre anni dopo fu eretto un monumento in suo onore.", "feminine"),
        # a verb in -a is not a feminine adjective (`parla`, from `parlare`)
        ("La rivista parla di musica.", "masculine"),
        ("Studiò a Santa Maria Novella con Lorenzo il Magnifico.", "feminine"),
        ("Il suo lavoro fu la base dei commenti che seguirono.", "feminine"),
    ],
)
def test_nothing_to_change_is_identical(rw, src, to):
    assert rw.rewrite(src, to) is src


def test_impersonal_and_other_subjects_keep_their_participle(rw):
    # `è stato annunciato che`: impersonal, the participle stays
    out = rw.rewrite("Il giorno dopo è stato annunciato che lui stava bene.", "feminine")
    assert out == "Il giorno dopo è stato annunciato che lei stava bene."
    # the subject of `è stato risolto` is `il caso`, not the person
    out = rw.rewrite("Lui disse che il caso è stato risolto.", "feminine")
    assert out == "Lei disse che il caso è stato risolto."
    # a participle after avere does not agree with the subject
    out = rw.rewrite("Lei ha incontrato la regina.", "masculine")
    assert out.startswith("Lui ha incontrato ")


def test_two_people_limitation_is_documented_behaviour(rw):
    # The rewriter assumes one person per sentence. Person nouns of its lists change wherever
    # they stand, so a second person named by such a noun changes too (`lo scrittore` here is
    # someone else and should have stayed); a relative named by a possessive (`sua sorella`)
    # keeps its gender.
    out = rw.rewrite("Lui incontrò lo scrittore a Roma con sua sorella.", "feminine")
    assert out == "Lei incontrò la scrittrice a Roma con sua sorella."
    # A dative clitic before a verb is taken to be the person (on the choosing data it is,
    # 45 times in 47): `gli` meaning `to them` or another man changes too.
    out = rw.rewrite("Nel 1990 gli fu diagnosticato un cancro.", "feminine")
    assert out == "Nel 1990 le fu diagnosticato un cancro."


@pytest.mark.parametrize(
    ("word", "sound"),
    [
        ("zio", "S"),
        ("studente", "S"),
        ("gnomo", "S"),
        ("psicologo", "S"),
        ("attore", "V"),
        ("hotel", "V"),
        ("padre", "C"),
        ("sole", "C"),
    ],
)
def test_sound_classes(word, sound):
    assert onset_sound(word) == sound


@pytest.mark.parametrize(
    ("det", "gender", "nxt", "expected"),
    [
        ("la", "m", "zio", "lo"),
        ("la", "m", "padre", "il"),
        ("la", "m", "attore", "l'"),
        ("il", "f", "attrice", "l'"),
        ("le", "m", "studenti", "gli"),
        ("le", "m", "padri", "i"),
        ("una", "m", "scrittore", "uno"),
        ("un", "f", "attrice", "un'"),
        ("della", "m", "zio", "dello"),
        ("delle", "m", "attori", "degli"),
        ("nel", "f", "regina", "nella"),
        ("sulla", "m", "re", "sul"),
        ("quella", "m", "attore", "quell'"),
        ("questa", "m", "ragazzo", "questo"),
    ],
)
def test_article_phonology(det, gender, nxt, expected):
    assert agree_determiner(det, gender, nxt) == expected


# ---------------------------------------------------------------- round three: lead sentences
#: (masculine, feminine) Wikipedia-shaped leads, hand-written: both directions, whole or nothing
LEADS = [
    (
        "Mario Rossi (Firenze, 1920 – Roma, 1990) è stato un pittore e incisore italiano.",
        "Mario Rossi (Firenze, 1920 – Roma, 1990) è stata una pittrice e incisora italiana.",
    ),
    (
        "Mario Rossi è stato un ingegnere civile francese specializzato nei ponti.",
        "Mario Rossi è stata un'ingegnere civile francese specializzata nei ponti.",
    ),
    (
        "Mario Rossi è un avvocato e politico cileno, deputato dal 2018.",
        "Mario Rossi è un'avvocata e politica cilena, deputata dal 2018.",
    ),
    (
        "Mario Rossi (Firenze, 12 marzo 1920 – Roma, 1990) è stato un attore, regista e "
        "sceneggiatore italiano, noto per i suoi film western.",
        "Mario Rossi (Firenze, 12 marzo 1920 – Roma, 1990) è stata un'attrice, regista e "
        "sceneggiatrice italiana, nota per i suoi film western.",
    ),
    (
        "Mario Rossi è un giornalista e saggista italiano.",
        "Mario Rossi è una giornalista e saggista italiana.",
    ),
    (
        "Mario Rossi è stato un fisico e matematico tedesco naturalizzato statunitense.",
        "Mario Rossi è stata una fisica e matematica tedesca naturalizzata statunitense.",
    ),
    (
        "Mario Rossi, nato a Firenze nel 1920, è stato un pittore italiano.",
        "Mario Rossi, nata a Firenze nel 1920, è stata una pittrice italiana.",
    ),
    ("È stato il primo sindaco di Roma.", "È stata la prima sindaca di Roma."),
    (
        "Mario Rossi è stato un imprenditore e dirigente sportivo italiano, presidente del "
        "Milan dal 1986 al 2017.",
        "Mario Rossi è stata un'imprenditrice e dirigente sportiva italiana, presidente del "
        "Milan dal 1986 al 2017.",
    ),
    (
        "Mario Rossi è stato un pittore, scultore e architetto italiano.",
        "Mario Rossi è stata una pittrice, scultrice e architetta italiana.",
    ),
    (
        "Mario Rossi è considerato uno dei più grandi pittori del Novecento.",
        "Mario Rossi è considerata una delle più grandi pittrici del Novecento.",
    ),
    (
        "Mario Rossi è stato un drammaturgo e scrittore italiano.",
        "Mario Rossi è stata una drammaturga e scrittrice italiana.",
    ),
    (
        "Mario Rossi è stato uno scrittore, giornalista e critico letterario italiano.",
        "Mario Rossi è stata una scrittrice, giornalista e critica letteraria italiana.",
    ),
    (
        "Mario Rossi è un ex calciatore e allenatore di calcio italiano.",
        "Mario Rossi è un'ex calciatrice e allenatrice di calcio italiana.",
    ),
]


@pytest.mark.parametrize(("masculine", "feminine"), LEADS)
def test_lead_sentences_both_ways(rw, masculine, feminine):
    assert rw.rewrite(masculine, "feminine") == feminine
    assert rw.rewrite(feminine, "masculine") == masculine


ROUND_THREE_PRECISION = """
# the person is the agent of the passive: the subject is the house
m La villa, che nel 1984 fu donata dalla baronessa al Fondo, è aperta.
  La villa, che nel 1984 fu donata dal barone al Fondo, è aperta.
# a pronoun after a preposition is no subject
m Disse che un'altra carriera a lei congeniale sarebbe stata quella di attrice.
  Disse che un'altra carriera a lui congeniale sarebbe stata quella di attore.
# past an apposition with no verb, the subject before it
f Il libro, scritto da lui nel 1990, è stato tradotto in inglese.
  Il libro, scritto da lei nel 1990, è stato tradotto in inglese.
# a group of people that stays masculine: only the pronoun agrees (`una dei`)
f Il conte di Warwick era uno dei comandanti scelti.
  La contessa di Warwick era una dei comandanti scelti.
f Lui era uno dei film più visti.
  Lei era uno dei film più visti.
f Lui fu uno dei fondatori del partito.
  Lei fu una delle fondatrici del partito.
# a noun of one grammatical gender, and what agrees with it, stays
f Lui è stato un membro fondatore del gruppo.
  Lei è stata un membro fondatore del gruppo.
# not a person noun: `un grande successo`, `un ampio termine`
f Lui è stato un grande successo.
  Lei è stata un grande successo.
# capitalised in a name: an organisation, a title in brackets
m Ha ricevuto il premio dell'Organizzazione Nazionale per le Donne.
  Ha ricevuto il premio dell'Organizzazione Nazionale per le Donne.
m Lei ricevette il titolo di Ms. Magazine (Donna dell'anno).
  Lui ricevette il titolo di Ms. Magazine (Donna dell'anno).
# the plural of an adjective in -trici is not the agent noun
f Lui sapeva di essere eccentrico, come gli altri che erano eccentrici.
  Lei sapeva di essere eccentrica, come gli altri che erano eccentrici.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_THREE_PRECISION))
def test_round_three_precision(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected


def test_half_understood_predicate_keeps_the_sentence(rw):
    # a person word coordinated with a changed noun but with no known other form: the whole
    # sentence stays rather than come out half rewritten
    src = "Lui è stato un pittore e assessore italiano."
    assert rw.rewrite(src, "feminine") == src


ROUND_FOUR_PRECISION = """
# `maschile` ↔ `femminile` is a change of meaning: nothing agrees with it
f Lui suonava in una band tutta al maschile.
  Lei suonava in una band tutta al femminile.
# a pronoun passes its gender to no neighbour (`questo punto`)
f A questo punto lui si è trasferito a Parigi.
  A questo punto lei si è trasferita a Parigi.
# quantifiers agree with their own noun only
m Lei ha lavorato molte volte con tutte le orchestre della città.
  Lui ha lavorato molte volte con tutte le orchestre della città.
# ... and with it when it changes (past an article or a number)
f Lui fondò un circolo per soli uomini.
  Lei fondò un circolo per sole donne.
f Entrambi i fratelli e altri due fratelli lo aiutarono.
  Entrambe le sorelle e altre due sorelle la aiutarono.
# a participle after an unchanged noun phrase belongs to it
f Lui visitava un castello medievale restaurato dal padre.
  Lei visitava un castello medievale restaurato dalla madre.
# the subject is not the person: a name after `di`, a relative clause, `a lui`
f Il pubblico di Londra non fu sorpreso quando lui lasciò la compagnia.
  Il pubblico di Londra non fu sorpreso quando lei lasciò la compagnia.
f Il lavoro che lui doveva finire era lungo e faticoso.
  Il lavoro che lei doveva finire era lungo e faticoso.
f Il nuovo ospedale della città è dedicato a lui.
  Il nuovo ospedale della città è dedicato a lei.
# a noun in -essa is no subjunctive: `le` stays an article
m Le promesse fatte a lei furono mantenute.
  Le promesse fatte a lui furono mantenute.
# a possessive before a kinship noun takes no article, and agrees
m Mia madre lo ha sempre sostenuto.
  Mio padre lo ha sempre sostenuto.
f Suo nipote guidava la macchina.
  Sua nipote guidava la macchina.
# a determiner of the target gender: the noun is not of the source gender
f Lui pagò delle cameriere per servire il pranzo.
  Lei pagò delle cameriere per servire il pranzo.
m Lei incontrò un signore anziano.
  Lui incontrò un signore anziano.
# `re` after a plural copula is plural
m Le sue figlie divennero regine.
  I suoi figli divennero re.
# `re` ↔ `regine` in the plural
m Le regine di Spagna la ricevettero.
  I re di Spagna lo ricevettero.
# `a detta di`: according to
m A detta di tutti, era la più famosa attrice della compagnia.
  A detta di tutti, era il più famoso attore della compagnia.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_FOUR_PRECISION))
def test_round_four_precision(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected


ROUND_FOUR_OTHER_SUBJECTS = """
# a capitalised participle is a name
f Lui studiò a Londra, nel Regno Unito.
  Lei studiò a Londra, nel Regno Unito.
f Lui lavorò per la NATO e visitò il Mar Morto.
  Lei lavorò per la NATO e visitò il Mar Morto.
# `ciò che`, `c'è`, `ciò non è`: the subject is not the person
f Ciò che è stato scritto su di lui è falso.
  Ciò che è stato scritto su di lei è falso.
f Lui arrivò quando non c'era stato ancora alcun annuncio.
  Lei arrivò quando non c'era stato ancora alcun annuncio.
f Lui sperava, ma ciò non è mai avvenuto.
  Lei sperava, ma ciò non è mai avvenuto.
# impersonal passives: `è stato consentito di`, `si è trattato di`
f Lui disse che non era stato consentito di entrare.
  Lei disse che non era stato consentito di entrare.
f Lui ammise che si è trattato di un errore.
  Lei ammise che si è trattato di un errore.
# a predicate noun whose other form is a verb (`vota`, of `votare`)
f Lui è un voto sicuro per il partito.
  Lei è un voto sicuro per il partito.
# a participle said of works, never of a person, with no subject in sight
f Scrisse un romanzo. Nel 1985 fu pubblicato in Italia.
  Scrisse un romanzo. Nel 1985 fu pubblicato in Italia.
# the head of a subject with a name inside it
m Lei spiegò che la lettera W in gallese viene pronunciata come una U.
  Lui spiegò che la lettera W in gallese viene pronunciata come una U.
m Lei disse che tale proposta è stata respinta.
  Lui disse che tale proposta è stata respinta.
# idioms: `non è andata bene`; `Domenica` is Sunday
m Lei disse che non è andata bene.
  Lui disse che non è andata bene.
m Domenica, la portavoce ha parlato di lei.
  Domenica, il portavoce ha parlato di lui.
# the typographic apostrophe: `l’uomo` → `la donna`
f Vide l’uomo che lo aveva aiutato.
  Vide la donna che la aveva aiutata.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_FOUR_OTHER_SUBJECTS))
def test_round_four_other_subjects(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected


ROUND_FOUR_RECALL = """
# plurals in -chi / -che
f Lui era tra gli uomini tedeschi.
  Lei era tra le donne tedesche.
# a finite irregular verb after `lo`
f Un infortunio lo costrinse a ritirarsi.
  Un infortunio la costrinse a ritirarsi.
# `una dei` ↔ `uno dei` when the group stays masculine
m Lei è considerata una dei migliori pittori del secolo.
  Lui è considerato uno dei migliori pittori del secolo.
# a definite predicate with an agent noun
f Suo fratello è il proprietario di una libreria.
  Sua sorella è la proprietaria di una libreria.
# adjectives of one form before the head noun of a predicate
f Lui era un importante ex maestro e pittore.
  Lei era un'importante ex maestra e pittrice.
# a participle or adjective fronted before a comma agrees with the subject
f Francese, fu uno dei primi a volare sulle Alpi.
  Francese, fu una delle prime a volare sulle Alpi.
f Nato a Torino, si trasferì a Roma dove fu nominato direttore.
  Nata a Torino, si trasferì a Roma dove fu nominata direttrice.
f Poco tempo dopo, fu nominato direttore.
  Poco tempo dopo, fu nominata direttrice.
f Costruito nel 1900, il teatro fu demolito nel 1950.
  Costruito nel 1900, il teatro fu demolito nel 1950.
# a noun of both genders after a participle of essere
f In seguito, è stato docente a Pisa.
  In seguito, è stata docente a Pisa.
# reflexive infinitives and `una volta che`
f Dopo essersi laureato, partì per Londra.
  Dopo essersi laureata, partì per Londra.
f Una volta che si è ripreso, tornò a cantare.
  Una volta che si è ripresa, tornò a cantare.
# `gli` before a consonant is a clitic, `le` before a singular too
f Lui capì che gli risulta difficile.
  Lei capì che le risulta difficile.
m Lei capì che le risulta difficile.
  Lui capì che gli risulta difficile.
f Gli studenti lo ammiravano.
  Gli studenti la ammiravano.
# `tre volte campione`; a pronoun subject: its participle agrees whatever follows
f Lui è stato due volte campione del torneo.
  Lei è stata due volte campionessa del torneo.
f Egli era già stato console a Lione.
  Ella era già stata console a Lione.
# a predicate adjective that looks like a verb form (`ferma`, of `fermare`)
m Lei rimase ferma nelle sue idee.
  Lui rimase fermo nelle sue idee.
# ... but not a verb after a copula left in by mistake
m Lei disse che era aveva già firmato.
  Lui disse che era aveva già firmato.
# `da solo`: by oneself
f Lui imparò da solo a suonare.
  Lei imparò da sola a suonare.
# a relative of the person after `da` is the agent, not the person
m Prima di essere mandata da sua zia a Parigi, studiò.
  Prima di essere mandato da suo zio a Parigi, studiò.
# regular participles and superlatives need no frequency evidence
f Da giovane era spesso indisciplinato e violento.
  Da giovane era spesso indisciplinata e violenta.
f In breve divenne richiestissimo.
  In breve divenne richiestissima.
# an indefinite agent is someone else
f Fu accolto da un poliziotto.
  Fu accolta da una poliziotta.
# a capitalised title after its article, with no name after it
f Il Duca, però, fu arrestato.
  La Duchessa, però, fu arrestata.
# the group of `uno dei` changes with its adjectives
f Fu uno dei primi due uomini a vincere il premio.
  Fu una delle prime due donne a vincere il premio.
# a noun of both genders with `maschio`/`femmina` after it
f La nascita di un erede maschio era attesa.
  La nascita di un'erede femmina era attesa.
# an adjective after a changed word, past `più` or past `e` after an adjective
f Lui divenne uno degli uomini più ricchi del paese.
  Lei divenne una delle donne più ricche del paese.
f Lui tornò a casa, depresso e stanco, dopo la sconfitta.
  Lei tornò a casa, depressa e stanca, dopo la sconfitta.
m Lei recitò meglio di ogni altra attrice cinematografica americana.
  Lui recitò meglio di ogni altro attore cinematografico americano.
# ... but not a noun after `più` following a participle
m Lei si è sposata più volte.
  Lui si è sposato più volte.
# a participle after avere agrees with the elided object clitic `l'`
f La critica non l'ha mai scoraggiato.
  La critica non l'ha mai scoraggiata.
m La rivista l'ha inserita tra i migliori.
  La rivista l'ha inserito tra i migliori.
f Disse che la malattia non sembra averlo fermato.
  Disse che la malattia non sembra averla fermata.
f Lui ammise di averlo fatto.
  Lei ammise di averlo fatto.
# ... not when it is a thing (`l'ha scritto`: wrote it)
f Lui l'ha scritto nel 1990.
  Lei l'ha scritto nel 1990.
# a superlative with no noun
f È il più alto della squadra.
  È la più alta della squadra.
# ... but `molto` before an adjective is an adverb
f Lui era molto stimato.
  Lei era molto stimata.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_FOUR_RECALL))
def test_round_four_recall(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected


ROUND_FIVE_PRECISION = """
# an article opens a noun phrase, not a name: `Il Milan` is no person
f Il Milan è riuscito a vincere il campionato.
  Il Milan è riuscito a vincere il campionato.
# a noun after an article is no verb, whatever its ending (`interesse` is not `-esse`)
f L'interesse si è mantenuto alto per anni.
  L'interesse si è mantenuto alto per anni.
# a name after a preposition is inside a prepositional phrase, not the subject
f Il numero di iscritti in Francia è aumentato molto.
  Il numero di iscritti in Francia è aumentato molto.
# quotes, a percent sign or a decimal comma do not end the subject's clause
f Il comitato nel complesso “non era contento” del risultato.
  Il comitato nel complesso “non era contento” del risultato.
f Il 90% è stato esportato in Europa.
  Il 90% è stato esportato in Europa.
f Un calo del 4,8 percento sarà particolarmente gravoso.
  Un calo del 4,8 percento sarà particolarmente gravoso.
# a modal before `essere` has the subject: `L'incontro potrebbe essere rinviato`
f L'incontro con il ministro potrebbe essere rinviato.
  L'incontro con il ministro potrebbe essere rinviato.
# impersonal passives and adjectives before an infinitive clause
f Ai giornalisti è stato impedito entrare nell'aula.
  Ai giornalisti è stato impedito entrare nell'aula.
f A loro è stato comunicato di non tornare.
  A loro è stato comunicato di non tornare.
f È stato duro finire il lavoro.
  È stato duro finire il lavoro.
# an infinitive or a pronoun for anyone is the subject
f Nessuno si era accorto del furto.
  Nessuno si era accorto del furto.
# `È stato un anno`: no subject and a noun of no person, nothing agrees; a person noun does
f È stato un anno difficile per la squadra.
  È stato un anno difficile per la squadra.
f È stato un attore molto amato.
  È stata un'attrice molto amata.
f Lui è stato un grande talento.
  Lei è stata un grande talento.
m È stata una buona giornata.
  È stata una buona giornata.
# a thing's `-o` form is another, rarer word: `una sorpresa`, `una vittoria` stay
m È stata una grande sorpresa per tutti.
  È stata una grande sorpresa per tutti.
m Ed è stata davvero una fortuna.
  Ed è stata davvero una fortuna.
m Lei era una cuoca famosa.
  Lui era un cuoco famoso.
# a name that modifies a noun inside a prepositional phrase; `che` after a noun is the
# subject of its clause; a modal's participle before `essere`
m La discriminazione delle persone LGBT è ancora diffusa.
  La discriminazione delle persone LGBT è ancora diffusa.
m Era una legge che dal 1990 non è mai stata applicata.
  Era una legge che dal 1990 non è mai stata applicata.
m La nuova nave avrebbe dovuto essere consegnata nel 2014.
  La nuova nave avrebbe dovuto essere consegnata nel 2014.
# `e` between two modifiers inside the subject is no clause boundary; nor a hyphen
f Il tentativo di vendere prodotti di bellezza e farmaceutici si è concluso male.
  Il tentativo di vendere prodotti di bellezza e farmaceutici si è concluso male.
f Secondo lui l'hip-hop si è allontanato dalle origini.
  Secondo lei l'hip-hop si è allontanato dalle origini.
# an enclitic right after an object noun phrase of its gender is that thing
m Sperò di salvare quella casa per renderla un museo.
  Sperò di salvare quella casa per renderla un museo.
m Comprò una villa per regalarla alla moglie.
  Comprò una villa per regalarla al marito.
m Sua madre decise di mandarla in collegio.
  Suo padre decise di mandarlo in collegio.
# a noun is no participle: `un compito` has no `una compita`
f Non è un compito facile.
  Non è un compito facile.
# `le` before a plural noun is the article; before avere + a plural participle, `them`
m Il governo aumentò le tasse nel 1990.
  Il governo aumentò le tasse nel 1990.
m Lei le ha viste tutte.
  Lui le ha viste tutte.
m Suo marito le regalò un anello.
  Suo marito gli regalò un anello.
m Entrambe le chiese furono costruite nel Seicento.
  Entrambe le chiese furono costruite nel Seicento.
m Come le disse il maestro, partì subito.
  Come gli disse il maestro, partì subito.
# a clause coordinated by `e` has the subject of the clause before it
f Il libro ha vinto un premio ed è stato tradotto in dieci lingue.
  Il libro ha vinto un premio ed è stato tradotto in dieci lingue.
f Rossi ha vinto un premio ed è stato nominato direttore.
  Rossi ha vinto un premio ed è stata nominata direttrice.
# a degree adverb after a participle is the verb's: what follows it does not agree
f Lui si è spostato molto spesso.
  Lei si è spostata molto spesso.
# an adverb of degree between a noun and its adjective does not agree
f Era un pittore molto famoso.
  Era una pittrice molto famosa.
"""


@pytest.mark.parametrize(("src", "to", "expected"), _cases(ROUND_FIVE_PRECISION))
def test_round_five_precision(rw, src, to, expected):
    assert rw.rewrite(src, to) == expected
