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
        grandma grandpa cousin cousins godfather godmother godson goddaughter godparents""",
    "es": """madre padre hermana hermano hija hijo tía tío sobrina sobrino abuela abuelo nieta
        nieto esposa esposo mujer marido prima primo cuñada cuñado suegra suegro novia novio
        madrastra padrastro hijastra hijastro hermanastra hermanastro bisabuela bisabuelo
        madres padres hermanas hermanos hijas hijos tías tíos sobrinas sobrinos abuelas abuelos
        nietas nietos esposas esposos primas primos cuñadas cuñados novias novios padrino
        madrina ahijado ahijada""",
    "ca": """mare pare germana germà filla fill tia oncle neboda nebot àvia avi néta nét esposa
        espòs dona marit cosina cosí sogra sogre cunyada cunyat mares pares germanes germans
        filles fills ties oncles nebodes nebots àvies avis nétes néts cosines cosins padrastre
        madrastra padrí padrina fillastre fillastra""",
    "fr": """mère père sœur soeur frère fille fils tante oncle nièce neveu épouse époux femme
        mari cousine cousin fiancée fiancé mères pères sœurs soeurs frères filles tantes oncles
        nièces neveux épouses cousines cousins parrain marraine filleul filleule""",
    "it": """madre padre sorella fratello figlia figlio zia zio nipote nonna nonno moglie marito
        cugina cugino suocera suocero cognata cognato fidanzata fidanzato madri padri sorelle
        fratelli figlie figli zie zii nipoti nonne nonni mogli mariti cugine cugini cognate
        cognati patrigno matrigna figliastro figliastra padrino madrina""",
    "pt": """mãe pai irmã irmão filha filho tia tio sobrinha sobrinho avó avô neta neto esposa
        esposo mulher marido prima primo cunhada cunhado sogra sogro noiva noivo mães pais irmãs
        irmãos filhas filhos tias tios sobrinhas sobrinhos avós netas netos esposas esposos
        primas primos cunhadas cunhados padrasto madrasta enteado enteada padrinho madrinha""",
    "de": """mutter vater schwester bruder tochter sohn tante onkel nichte neffe großmutter
        großvater enkelin enkel ehefrau ehemann frau mann cousine cousin schwiegermutter
        schwiegervater verlobte verlobter mütter väter schwestern brüder töchter söhne tanten
        onkeln nichten neffen enkelinnen ehefrauen ehemänner cousinen cousins vaters bruders
        sohnes sohns mannes neffens pate patin schwager schwägerin""",
    "ru": """мать отец сестра брат дочь сын тётя тетя дядя племянница племянник бабушка дедушка
        внучка внук жена муж невеста жених отчим мачеха пасынок падчерица крёстный крёстная""",
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

#: right before the possessive (or its article), these make the phrase say what the person is;
#: not comparison words (`como su padre`, `as was his father`: like the father)
_IS = {
    "en": "is was were be been being became become becomes remained",
    "es": "es era fue fueron ser sido siendo convirtió",
    "ca": "és era fou ser estat",
    "fr": "est était fut être été devint devient",
    "it": "è era fu essere stato stata divenne",
    "pt": "é era foi ser sido tornou",
    "de": "ist war wurde gewesen",
    "ru": "был была было были стал стала являлся являлась",
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


#: before the possessive, these put the relative inside a prepositional phrase (`tras la
#: muerte de su padre fue nombrada`): not a subject, so its clause is not the relative's
_PREPOSITIONS = {
    "en": "of to for with by from after before about like than",
    "es": "de del a al con por para tras sin sobre",
    "ca": "de del a al amb per sense sobre",
    "fr": "de du à au aux avec par pour après sans sur",
    "it": "di del della a al alla con per da dopo senza su",
    "pt": "de do da a ao à com por para após sem sobre",
    "de": "von mit für nach vor bei zu zum zur",
    "ru": "с со к у от для после до о об при",
}
#: articles that may stand between a copula and the possessive (`era la sua figlia`)
_ARTICLES = frozenset("the la il lo el a o le l' les els".split())
#: object clitics: after a relative subject they are the person (`su madre la llevó`)
_CLITICS = {
    "es": "la lo le", "ca": "la el li", "fr": "la le lui", "it": "la lo le gli",
    "pt": "a o lhe",
}  # fmt: skip
#: an apposition after a relative (`his father, a king,`) opens with these
_APPOSITION = frozenset("a an un una uno un' une ein eine einer um uma herself himself".split())


@cache
def _sets(lang: str) -> tuple[frozenset[str], ...] | None:
    if lang not in _KIN:
        return None
    tables = (_KIN, _POSSESSIVES, _IS, _CLAUSE_END, _PREPOSITIONS)
    words = [frozenset(d[lang].split()) for d in tables]
    return (*words, frozenset(_CLITICS.get(lang, "").split()))


def relatives(
    lang: str, low: Sequence[str], gaps: Sequence[str], toks: Sequence[str] | None = None
) -> set[int]:
    """Positions of kinship nouns that name a relative of the person in the lower-cased tokens
    ``low`` (``gaps[i]``: the text after token ``i``; ``toks``: the tokens as written, to see
    a name in apposition: `Her mother, Jane, was`)."""
    sets = _sets(lang)
    if sets is None:
        return set()
    kin, possessives, is_words, clause_end, prepositions, clitics = sets
    n = len(low)
    out: set[int] = set()
    for i, w in enumerate(low):
        if not _is_kin(lang, w, kin):
            continue
        owner = _owner(lang, low, gaps, i, possessives)
        if owner is None and not _coordinated(low, gaps, i, out):
            continue
        possessor = lang == "en" and i + 1 < n and low[i + 1] == "s" and gaps[i] in ("'", "’")
        # `She was his only daughter`, `He was his father's son`: the person's own noun (not
        # when the kinship noun only owns it: `her mother's daughter`)
        if owner is not None and not possessor and _after_copula(lang, low, gaps, owner, is_words):
            continue
        out.add(i)
        start = owner if owner is not None else i
        if start > 0 and low[start - 1] in _ARTICLES:
            start -= 1
        j = i + 1  # the rest of the relative's clause (`su madre era maestra`), unless it
        # has none of its own (`de su padre`, `her mother's`)
        in_phrase = (start > 0 and low[start - 1] in prepositions) or possessor
        while not in_phrase and j < n and not gaps[j - 1].strip(_GLUE):
            if low[j] in clause_end or (low[j] in clitics and low[j - 1] not in is_words):
                break  # a new clause, or `su madre la llevó`: the person is the object
            if low[j] not in possessives:
                out.add(j)
            j += 1
        if j < n and gaps[j - 1].strip() == "," and _name_apposition(low, gaps, j, toks):
            # `Her mother, Jane, was an actress`: the name, then the rest of the relative's clause
            while not gaps[j].strip():  # the name's words up to its closing comma
                out.add(j)
                j += 1
            out.add(j)
            j += 1
            first = True  # the first word after the closing comma continues the clause
            while j < n and (first or not gaps[j - 1].strip(_GLUE)) and low[j] not in clause_end:
                if low[j] not in possessives:
                    out.add(j)
                first = False
                j += 1
        elif j < n and gaps[j - 1].strip() == "," and low[j] in _APPOSITION:
            # `his father, a king,` / `su padre, un actor famoso,`: the relative's apposition
            while j < n and low[j] not in possessives:
                out.add(j)
                if gaps[j].strip(_GLUE):
                    break
                j += 1
    return out


def _after_copula(lang, low, gaps, owner: int, is_words) -> bool:
    """Is the possessive phrase at ``owner`` the predicate of a copula (`was his daughter`,
    `era la sua figlia`, `was the king's son`)? Not in `It was her mother who` (a cleft) or
    `as was his father` (an inversion)."""
    k = owner - 1
    if lang == "en" and low[owner] == "s":  # a genitive: step over its owner phrase
        k = owner - 2
        while k >= 0 and (low[k] in _ARTICLES or low[k] in ("his", "her", "its", "their")):
            k -= 1
    elif k >= 0 and low[k] in _ARTICLES:
        k -= 1
    if k < 0 or low[k] not in is_words or gaps[k].strip():
        return False
    return not (k > 0 and low[k - 1] in ("it", "as", "this", "that"))


def _name_apposition(low, gaps, j: int, toks) -> bool:
    """Tokens from ``j`` are a name between commas (at most four words): `, Jane Eyre,`."""
    if toks is None:
        return False
    for k in range(j, min(j + 4, len(low))):
        if not toks[k][:1].isupper():
            return False
        if gaps[k].strip() == ",":
            return k + 1 < len(low)
        if gaps[k].strip():
            return False
    return False


_AND = frozenset("and y e et und i и".split())
#: what may stand between the words of one phrase: spaces, hyphens, apostrophes, quotes, dashes
_GLUE = " -'’\"“”«»„—–"


def _coordinated(low, gaps, i, relatives: set[int]) -> bool:
    """`his wife and two sons`, `his wife, son and daughter`: a kinship noun listed after a
    relative (by `and` or a comma) is one too."""
    for back in (1, 2, 3):
        k = i - back
        if k < 0:
            return False
        if gaps[k].strip() == ",":
            return k in relatives
        if gaps[k].strip():
            return False
        if low[k] in _AND:
            return k > 0 and (k - 1) in relatives and not gaps[k - 1].strip(" ,")
    return False


def _owner(lang, low, gaps, i, possessives) -> int | None:
    """The position of the possessive (or English genitive `'s`) that owns ``low[i]``, at most
    two words back inside one phrase."""
    for back in (1, 2, 3):
        k = i - back
        if k < 0 or gaps[k].strip(_GLUE):
            return None
        if low[k] in possessives:
            return k
        if lang == "en" and low[k] == "s" and k > 0 and gaps[k - 1] in ("'", "’"):
            return k
    return None


def _is_kin(lang: str, word: str, kin: frozenset[str]) -> bool:
    if word in kin:
        return True
    if lang == "ru":  # inflected: the lemma decides, asked only of words that may be kin
        return word[:2] in _prefixes(kin) and _ru_lemma(word) in kin
    return False  # German compounds (`Stiefvater`): the German rules map them to their head


@cache
def _prefixes(kin: frozenset[str]) -> frozenset[str]:
    """The first two letters of every kinship word (the analyser is slow: one parse per word)."""
    return frozenset(w[:2] for w in kin)


@cache
def _ru_lemma(word: str) -> str:
    from occbio.rewrite.languages.ru import _morph  # the Russian rules' analyser, loaded once

    morph = _morph()
    return morph.parse(word)[0].normal_form if morph is not None else word
