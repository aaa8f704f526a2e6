"""Who in a sentence is a relative of the person: `her mother`, `su hermano`, `seine Frau`.

A counterfactual should change the person, not the people around them: `Her mother was a
painter` → `His mother was a painter`. MT-GenEval's human versions change relatives too (`his
father`), and so does the rewriter when asked (``Rewriter(..., relatives="change")``); by
default (``"keep"``) a kinship noun right after the person's possessive (at most two words
between: `his younger brother`, `sa grand-mère`, `her two sons`) is left alone, and with it
everything that agrees with it. Not when the phrase says what the person *is*: after a copula
or `as` (`She was his only daughter`, `as his wife`), the noun is the person's own.

Word lists from grammar knowledge (kinship and spouse nouns, both genders, singular and
plural), not from counterfactual pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

_KIN = {
    "en": """mother father sister brother daughter son aunt uncle niece nephew grandmother
        grandfather granddaughter grandson wife husband stepmother stepfather stepdaughter
        stepson stepsister stepbrother fiancée fiancé girlfriend boyfriend widow widower mothers
        fathers sisters brothers daughters sons aunts uncles nieces nephews grandmothers
        grandfathers granddaughters grandsons wives husbands stepsons stepdaughters mom dad mum
        grandma grandpa""",
    "es": """madre padre hermana hermano hija hijo tía tío sobrina sobrino abuela abuelo nieta
        nieto esposa esposo mujer marido prima primo cuñada cuñado suegra suegro novia novio
        madrastra padrastro hijastra hijastro hermanastra hermanastro bisabuela bisabuelo
        madres padres hermanas hermanos hijas hijos tías tíos sobrinas sobrinos abuelas abuelos
        nietas nietos esposas esposos primas primos cuñadas cuñados novias novios""",
    "ca": """mare pare germana germà filla fill tia oncle neboda nebot àvia avi néta nét esposa
        espòs dona marit cosina cosí sogra sogre cunyada cunyat mares pares germanes germans
        filles fills ties oncles nebodes nebots àvies avis nétes néts cosines cosins""",
    "fr": """mère père sœur soeur frère fille fils tante oncle nièce neveu épouse époux femme
        mari cousine cousin fiancée fiancé mères pères sœurs soeurs frères filles tantes oncles
        nièces neveux épouses cousines cousins""",
    "it": """madre padre sorella fratello figlia figlio zia zio nipote nonna nonno moglie marito
        cugina cugino suocera suocero cognata cognato fidanzata fidanzato madri padri sorelle
        fratelli figlie figli zie zii nipoti nonne nonni mogli mariti cugine cugini cognate
        cognati""",
    "pt": """mãe pai irmã irmão filha filho tia tio sobrinha sobrinho avó avô neta neto esposa
        esposo mulher marido prima primo cunhada cunhado sogra sogro noiva noivo mães pais irmãs
        irmãos filhas filhos tias tios sobrinhas sobrinhos avós netas netos esposas esposos
        primas primos cunhadas cunhados""",
    "de": """mutter vater schwester bruder tochter sohn tante onkel nichte neffe großmutter
        großvater enkelin enkel ehefrau ehemann frau mann cousine cousin schwiegermutter
        schwiegervater verlobte verlobter mütter väter schwestern brüder töchter söhne tanten
        onkeln nichten neffen enkelinnen ehefrauen ehemänner cousinen cousins vaters bruders
        sohnes sohns mannes neffens""",
    "ru": """мать отец сестра брат дочь сын тётя тетя дядя племянница племянник бабушка дедушка
        внучка внук жена муж невеста жених""",
}

#: possessive determiners that name the person as the owner
_POSSESSIVES = {
    "en": "his her",
    "es": "su sus",
    "ca": "seu seva seus seves",
    "fr": "son sa ses",
    "it": "suo sua suoi sue",
    "pt": "seu sua seus suas",
    "de": "sein seine seiner seinen seinem seines ihr ihre ihrer ihren ihrem ihres",
    "ru": "его её ее свой своя своё свои своего своей своему своим своими своих свою",
}

#: right before the possessive, these make the phrase say what the person is
_IS = {
    "en": "is was were be been being became become becomes remained as",
    "es": "es era fue fueron ser sido siendo como convirtió",
    "ca": "és era fou ser estat com",
    "fr": "est était fut être été devint devient comme",
    "it": "è era fu essere stato stata divenne come",
    "pt": "é era foi ser sido tornou como",
    "de": "ist war wurde sein gewesen als",
    "ru": "был была было были стал стала являлся являлась как",
}


#: a relative's clause (`su madre era maestra`: the predicate is the mother's) runs until
#: punctuation or one of these: a conjunction, a relative word or the person's pronoun
_CLAUSE_END = {
    "en": "and but or while when who which that she he her his him herself himself",
    "es": "y e o pero mientras cuando que quien ella él",
    "ca": "i o però mentre quan que qui ella ell",
    "fr": "et ou mais tandis quand qui que elle il lui",
    "it": "e ed o ma mentre quando che chi lei lui",
    "pt": "e ou mas enquanto quando que quem ela ele",
    "de": "und oder aber während als wenn der die das sie er ihn ihm",
    "ru": "и или но а когда который которая которые что она он",
}


@cache
def _sets(lang: str) -> tuple[frozenset[str], ...] | None:
    if lang not in _KIN:
        return None
    return tuple(frozenset(d[lang].split()) for d in (_KIN, _POSSESSIVES, _IS, _CLAUSE_END))


def relatives(lang: str, low: Sequence[str], gaps: Sequence[str]) -> set[int]:
    """Positions of kinship nouns that name a relative of the person in the lower-cased tokens
    ``low`` (``gaps[i]``: the text after token ``i``)."""
    sets = _sets(lang)
    if sets is None:
        return set()
    kin, possessives, is_words, clause_end = sets
    out = set()
    for i, w in enumerate(low):
        if not _is_kin(lang, w, kin):
            continue
        owner = _owner(lang, low, gaps, i, possessives)
        if owner is None and not _coordinated(low, gaps, i, out):
            continue
        # `She was his only daughter`, `as his wife`: the person's own noun
        if owner is not None and owner > 0 and low[owner - 1] in is_words:
            continue
        out.add(i)
        j = i + 1  # the rest of the relative's clause (`su madre era maestra`)
        while j < len(low) and not gaps[j - 1].strip(" -'’") and low[j] not in clause_end:
            if low[j] not in possessives:
                out.add(j)
            j += 1
    return out


_AND = frozenset("and y e et und i и".split())


def _coordinated(low, gaps, i, relatives: set[int]) -> bool:
    """`his wife and two sons`: a kinship noun joined by `and` to a relative is one too."""
    for back in (1, 2, 3):
        k = i - back
        if k < 1 or gaps[k].strip():
            return False
        if low[k] in _AND:
            return (k - 1) in relatives and not gaps[k - 1].strip()
    return False


def _owner(lang, low, gaps, i, possessives) -> int | None:
    """The position of the possessive (or English genitive `'s`) that owns ``low[i]``, at most
    two words back inside one phrase."""
    for back in (1, 2, 3):
        k = i - back
        if k < 0 or gaps[k].strip() not in ("", "-", "'", "’"):
            return None
        if low[k] in possessives:
            return k
        if lang == "en" and low[k] == "s" and k > 0 and gaps[k - 1] in ("'", "’"):
            return k
    return None


def _is_kin(lang: str, word: str, kin: frozenset[str]) -> bool:
    if word in kin:
        return True
    if lang == "ru":
        return _ru_lemma(word) in kin
    return False


@cache
def _ru_lemma(word: str) -> str:
    from occbio.rewrite.languages.ru import _morph  # the Russian rules' analyser, loaded once

    morph = _morph()
    return morph.parse(word)[0].normal_form if morph is not None else word
