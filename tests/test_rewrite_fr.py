"""French gender rewriting: hand-written sentences (none taken from MT-GenEval)."""

from __future__ import annotations

import pytest

from occbio.rewrite import Rewriter
from occbio.rewrite.languages.fr import starts_vowel


@pytest.fixture(scope="module")
def rw() -> Rewriter:
    return Rewriter("fr")


def fem(rw: Rewriter, s: str) -> str:
    return rw.rewrite(s, "feminine")


def mas(rw: Rewriter, s: str) -> str:
    return rw.rewrite(s, "masculine")


BOTH_WAYS = [
    # (masculine, feminine): each side rewrites into the other
    ("Il est un acteur américain célèbre.", "Elle est une actrice américaine célèbre."),
    ("Il fut nommé directeur du musée en 1990.", "Elle fut nommée directrice du musée en 1990."),
    ("Le jeune chanteur est né à Lyon.", "La jeune chanteuse est née à Lyon."),
    ("Il est le fils du roi.", "Elle est la fille de la reine."),
    ("Il a parlé au roi.", "Elle a parlé à la reine."),
    ("C'est le portrait du duc.", "C'est le portrait de la duchesse."),
    ("Cet acteur est célèbre.", "Cette actrice est célèbre."),
    ("Ce chanteur est célèbre.", "Cette chanteuse est célèbre."),
    ("Il est le premier homme à y parvenir.", "Elle est la première femme à y parvenir."),
    ("M. Dupont est un homme politique.", "Mme Dupont est une femme politique."),
    ("On se souvient de lui.", "On se souvient d'elle."),
    ("Il a écrit le livre lui-même.", "Elle a écrit le livre elle-même."),
    ("Il est allé au concert.", "Elle est allée au concert."),
]


@pytest.mark.parametrize(("m", "f"), BOTH_WAYS)
def test_both_directions(rw, m, f):
    assert fem(rw, m) == f
    assert mas(rw, f) == m


def test_agreement_article_noun_adjective_participle(rw):
    assert fem(rw, "Son père était un boulanger réputé.") == (
        "Sa mère était une boulangère réputée."
    )
    assert mas(rw, "Elle est devenue une chanteuse populaire.") == (
        "Il est devenu un chanteur populaire."
    )


def test_elision_appears_and_disappears(rw):
    # `la femme` -> `l'homme` (but `la femme de X` is a wife: `le mari de X`),
    # `d'elle` -> `de lui`, `de lui` -> `d'elle`
    assert mas(rw, "Elle parle à la femme.") == "Il parle à l'homme."
    assert mas(rw, "Elle a rencontré la femme du maire.") == "Il a rencontré le mari du maire."
    assert mas(rw, "On parle souvent d'elle.") == "On parle souvent de lui."
    assert fem(rw, "On parle souvent de lui.") == "On parle souvent d'elle."
    # an elided article before a noun that keeps its vowel stays elided
    assert fem(rw, "Il était l'acteur principal.") == "Elle était l'actrice principale."


def test_sa_before_a_vowel_stays_son(rw):
    assert fem(rw, "Il a aidé son ami.") == "Elle a aidé son ami."


def test_object_clitics(rw):
    assert fem(rw, "Il est malade et ses parents le poussèrent à chanter.") == (
        "Elle est malade et ses parents la poussèrent à chanter."
    )
    assert mas(rw, "Elle est malade et ses parents la poussèrent à chanter.") == (
        "Il est malade et ses parents le poussèrent à chanter."
    )
    # `de le` + infinitive is a clitic, never contracted to `du`
    assert mas(rw, "Elle est blessée et il tente de la soigner.") == (
        "Il est blessé et il tente de le soigner."
    )
    # the indirect object `lui` is the same for both genders
    assert fem(rw, "Ce film lui a valu un prix.") == "Ce film lui a valu un prix."


def test_impersonal_il_stays(rw):
    for s in (
        "Il y a un musée à Lyon.",
        "Il faut le dire.",
        "Il est possible que la ville soit détruite.",
        "Il s'agit d'un musée.",
    ):
        assert fem(rw, s) is s


def test_impersonal_il_beside_a_person(rw):
    assert fem(rw, "Il y a un acteur dans la salle.") == "Il y a une actrice dans la salle."


def test_names_do_not_change(rw):
    assert fem(rw, "Il a étudié l'histoire de Jeanne d'Arc à Saint-Louis.") == (
        "Elle a étudié l'histoire de Jeanne d'Arc à Saint-Louis."
    )
    assert mas(rw, "Elle a étudié l'histoire de Jeanne d'Arc à Saint-Louis.") == (
        "Il a étudié l'histoire de Jeanne d'Arc à Saint-Louis."
    )


def test_quotes_are_copied_and_their_text_rewritten(rw):
    assert fem(rw, "Il a dit : « Je suis un acteur ».") == "Elle a dit : « Je suis une actrice »."
    assert mas(rw, "Elle a dit : « Je suis une actrice ».") == "Il a dit : « Je suis un acteur »."


def test_two_people_every_person_word_changes(rw):
    # Limitation: the rewriter does not know which person a word is about; like the human
    # counterfactuals it learns from, it rewrites every gendered person word in the sentence,
    # so the spouse changes too (names are left alone).
    assert mas(rw, "Elle a épousé Marie, une actrice française.") == (
        "Il a épousé Marie, un acteur français."
    )
    assert fem(rw, "Il vit avec l'acteur Jean Dupont.") == "Elle vit avec l'actrice Jean Dupont."


def test_nothing_to_change_is_byte_identical(rw):
    for s in (
        "Le musée ouvre en 1990.",
        "La ville compte 3 000 habitants.",
        "Les élections ont lieu en mai.",
        "",
    ):
        assert fem(rw, s) is s
        assert mas(rw, s) is s


def test_starts_vowel():
    assert starts_vowel("acteur") and starts_vowel("homme") and starts_vowel("héroïne")
    assert not starts_vowel("héros") and not starts_vowel("mari")


ROUND_TWO = [
    # (masculine, feminine): grammar added in the second round, hand-written sentences
    # participles across adverbs and after `avoir été` with an adverb in between
    ("Il fut bientôt très apprécié.", "Elle fut bientôt très appréciée."),
    ("Il a même été arrêté à Lyon.", "Elle a même été arrêtée à Lyon."),
    # coordinated predicates; a subject left out after `et`; an infinitive `être`
    ("Il était calme, curieux et actif.", "Elle était calme, curieuse et active."),
    ("Il posa sa candidature et fut accepté.", "Elle posa sa candidature et fut acceptée."),
    ("Il espérait être nommé à Rome.", "Elle espérait être nommée à Rome."),
    # reflexive `s'est`, the emphatic pronoun between auxiliary and participle
    ("Il s'est installé à Paris.", "Elle s'est installée à Paris."),
    # a name as subject; an opening participle whose subject follows the comma
    ("Dupont est arrivé à Lyon en 1950.", "Dupont est arrivée à Lyon en 1950."),
    ("Né à Lyon, il étudia le droit.", "Née à Lyon, elle étudia le droit."),
    # a role after `en tant que`, with its adjective
    ("Il a travaillé en tant que serveur.", "Elle a travaillé en tant que serveuse."),
    ("Il y travailla en tant que journaliste indépendant.",
     "Elle y travailla en tant que journaliste indépendante."),
    # `l'un des` and its noun phrase; superlatives; quantifiers before a plural
    ("Il était l'un des premiers chimistes.", "Elle était l'une des premières chimistes."),
    ("Il devint le plus vieil acteur du pays.", "Elle devint la plus vieille actrice du pays."),
    ("Il parle à un de ses oncles.", "Elle parle à une de ses tantes."),
    # `il se` + verb is personal; `il a décidé que` too
    ("Il se souvint de cette époque.", "Elle se souvint de cette époque."),
    ("Il a décidé que le film sortirait.", "Elle a décidé que le film sortirait."),
    # `lui aussi` after a comma, `de lui` before an article
    ("Il avait, lui aussi, un chien.", "Elle avait, elle aussi, un chien."),
    ("Ce succès fit de lui la vedette du film.", "Ce succès fit d'elle la vedette du film."),
]  # fmt: skip


@pytest.mark.parametrize(("m", "f"), ROUND_TWO)
def test_round_two_both_directions(rw, m, f):
    assert fem(rw, m) == f
    assert mas(rw, f) == m


def test_adjectives_after_a_plural_noun_and_a_fixed_complement(rw):
    assert fem(rw, "Il invitait des hommes d'affaires néerlandais.") == (
        "Elle invitait des femmes d'affaires néerlandaises."
    )
    assert fem(rw, "Il a épousé une femme très riche et un homme très dévot.") == (
        "Elle a épousé une femme très riche et une femme très dévote."
    )


def test_what_does_not_agree_with_the_person(rw):
    # a noun after a preposition is no subject: `de la reine était gérée` keeps its participle
    assert mas(rw, "La maison de la reine était gérée par Marie.") == (
        "La maison du roi était gérée par Marie."
    )
    # the emphatic pronoun of the noun that opens the sentence stays
    assert mas(rw, "La chapelle elle-même est fréquentée par une religieuse.") == (
        "La chapelle elle-même est fréquentée par un moine."
    )
    # `comme` + an adjective or a participle is no role
    assert fem(rw, "Il a agi comme prévu.") == "Elle a agi comme prévu."
    # `de la même` + a changed noun contracts: `du même`
    assert mas(rw, "Il s'éprend de la même jeune fille.") == "Il s'éprend du même jeune garçon."


LEADS = [
    # (masculine, feminine): biography leads, hand-written, rewritten whole
    ("Jean Dupont, né le 3 mai 1920 à Lyon et mort en 1990, est un peintre et graveur français.",
     "Jean Dupont, née le 3 mai 1920 à Lyon et morte en 1990, est une peintre et graveuse "
     "française."),
    ("Pablo Ruiz est un avocat et homme politique chilien, député depuis 2018.",
     "Pablo Ruiz est une avocate et femme politique chilienne, députée depuis 2018."),
    ("Marc Leroy est un ingénieur civil français spécialisé dans les ponts.",
     "Marc Leroy est une ingénieure civile française spécialisée dans les ponts."),
    ("Paul Martin est un écrivain et journaliste canadien.",
     "Paul Martin est une écrivaine et journaliste canadienne."),
    ("Luc Morel est un réalisateur, scénariste et producteur français.",
     "Luc Morel est une réalisatrice, scénariste et productrice française."),
    ("Pierre Roy (né le 2 mars 1950 à Marseille) est un chanteur et compositeur belge.",
     "Pierre Roy (née le 2 mars 1950 à Marseille) est une chanteuse et compositrice belge."),
    ("Paul Henri est un professeur et chercheur suisse, spécialiste de la littérature.",
     "Paul Henri est une professeure et chercheuse suisse, spécialiste de la littérature."),
    ("Yves Bard est un auteur de bande dessinée suisse.",
     "Yves Bard est une autrice de bande dessinée suisse."),
    ("Ivan Petrov est un joueur de tennis russe naturalisé français.",
     "Ivan Petrov est une joueuse de tennis russe naturalisée française."),
    ("Karl Berg est un pianiste et chef d'orchestre autrichien.",
     "Karl Berg est une pianiste et cheffe d'orchestre autrichienne."),
    ("Léo Gris, dit Léon, est un ancien coureur cycliste français.",
     "Léo Gris, dite Léon, est une ancienne coureuse cycliste française."),
    ("Tom Hale est un acteur américain connu pour ses rôles au cinéma.",
     "Tom Hale est une actrice américaine connue pour ses rôles au cinéma."),
    ("Omar Sy est un universitaire et diplomate sénégalais, ambassadeur en France.",
     "Omar Sy est une universitaire et diplomate sénégalaise, ambassadrice en France."),
    ("Il est un ingénieur et homme d'affaires français.",
     "Elle est une ingénieure et femme d'affaires française."),
]  # fmt: skip


@pytest.mark.parametrize(("m", "f"), LEADS)
def test_leads_both_directions(rw, m, f):
    assert fem(rw, m) == f
    assert mas(rw, f) == m


def test_a_lead_is_rewritten_whole_or_not_at_all(rw):
    # a person noun the rewriter cannot put in the other gender: the sentence stays as it is
    s = "Jean Dupont, né à Lyon, est un peintre et zorgleur français."
    assert fem(rw, s) is s
    # a predicate that is no person is not a lead: the usual rules apply
    assert fem(rw, "Le Monde est un journal français.") == "Le Monde est un journal français."
    assert fem(rw, "C'était un homme très dévot.") == "C'était une femme très dévote."


def test_round_three_precision(rw):
    # the subject of a copula is a thing: its participle and what agrees with it stay
    assert fem(rw, "Quand il revint, le petit chien de Marie est devenu célèbre.") == (
        "Quand elle revint, le petit chien de Marie est devenu célèbre."
    )
    # a compound's prefix does not agree; `Monsieur` as a title is `Madame`
    assert fem(rw, "Il est devenu grand-père en 1969.") == "Elle est devenue grand-mère en 1969."
    assert fem(rw, "Il salua Monsieur Durand.") == "Elle salua Madame Durand."
