"""German word lists and word-level forms for the rewriter (the rules are in ``de.py``,
``de_pronouns.py`` and ``de_nouns.py``): prepositions by case, verb lists, articles by case and
gender, adjective endings, masculine noun endings. Hand-made from German grammar and the choosing
half of MT-GenEval dev."""

from __future__ import annotations

_DAT_PREPS = frozenset("mit von zu bei nach aus seit gegenüber außer samt".split())
_ACC_PREPS = frozenset("für gegen ohne durch um bis wider".split())
_TWO_WAY = frozenset("in an auf über unter vor hinter neben zwischen".split())
_PREPS = _DAT_PREPS | _ACC_PREPS | _TWO_WAY
#: lower-case words ending in -en that are not plural verb forms
_NOT_VERB_EN = frozenset(
    """den einen keinen seinen ihren meinen deinen unseren euren diesen jenen jeden welchen
    allen vielen wenigen beiden denen wegen zwischen neben gegen oben unten eben morgen
    selten trotzdem außen innen hinten vorn ebenso dagegen daneben indessen stattdessen
    deswegen übrigen anderen ersten letzten zweiten dritten ihnen eigenen einigen mehreren
    solchen manchen unseren""".split()
)
_NOT_VERB_ERN = frozenset("gestern sondern modern intern extern innern andern einzeln".split())
#: verbs that take a person as object: ``was sie dazu veranlasste`` is ``was ihn ...``
_OBJECT_VERBS = frozenset(
    """veranlasste veranlassten brachte brachten zwang zwangen bewog bewogen inspirierte
    inspirierten motivierte motivierten ermutigte ermutigten schickte schickten sandte sandten
    beeinflusste beeinflussten prägte prägten ernannte ernannten ehrte ehrten engagierte
    engagierten beauftragte beauftragten entließ entließen verhaftete verhafteten tötete
    töteten ermordete ermordeten""".split()
)
#: verbs whose ``ihr`` right after them is the dative pronoun, not "her" (``half ihr``)
_DATIVE_VERBS = frozenset(
    """half hilft halfen verhalf verhilft verhalfen bescherte beschert bescherten versicherte
    versicherten diente dient dienten legte legten verlieh verleiht verliehen gelang gelingt
    ermöglichte ermöglichten erlaubte erlaubten schenkte schenkten gehörte gehört fehlte
    sagte sagten erzählte erzählten riet rieten empfahl dankte dankten gratulierte
    vertraute vertrauten verschaffte verschafften gewährte gewährten
    verweigerte verweigerten begegnete""".split()
)
_PLURAL_VERBS = frozenset(
    "sind waren haben hatten werden wurden können konnten müssen mussten sollten wollten".split()
)
#: words before ``sie`` that make it a subordinate clause's subject (the verb comes last)
_SUBORD = frozenset(
    """dass ob wenn als weil während damit indem nachdem bevor bis seit wo obwohl da sodass
    sobald solange falls wie""".split()
)
_SUBORD_REL = _SUBORD | {"die", "der", "denen"}
_ARTICLES = frozenset("der die das ein eine einige viele diese dieser dieses".split())
#: prepositions that are also conjunctions (``bis sie 18 war``)
_CONJ_PREPS = frozenset(("bis", "seit"))
_CLAUSE_OPENERS = ".:;!?\"„“”«»‚‘'()[]–—"
_ADJ_ENDINGS = ("e", "en", "er", "es", "em")


# (case, gender) -> article, for the definite and indefinite articles
_DEF = {
    ("nom", "m"): "der", ("acc", "m"): "den", ("dat", "m"): "dem", ("gen", "m"): "des",
    ("nom", "f"): "die", ("acc", "f"): "die", ("dat", "f"): "der", ("gen", "f"): "der",
    ("nom", "n"): "das", ("acc", "n"): "das", ("dat", "n"): "dem", ("gen", "n"): "des",
}  # fmt: skip
_INDEF = {
    ("nom", "m"): "ein", ("acc", "m"): "einen", ("dat", "m"): "einem", ("gen", "m"): "eines",
    ("nom", "f"): "eine", ("acc", "f"): "eine", ("dat", "f"): "einer", ("gen", "f"): "einer",
    ("nom", "n"): "ein", ("acc", "n"): "ein", ("dat", "n"): "einem", ("gen", "n"): "eines",
}  # fmt: skip
_POSS_STEMS = ("sein", "ihr", "kein", "mein", "dein", "unser")


def _article(word: str) -> tuple[str, str] | None:
    """(family, gender-neutral shape) of an article-like word: ('def', ''), ('ein', stem)."""
    if word in ("der", "die", "den", "dem", "des"):
        return "def", ""
    for stem in ("ein", *_POSS_STEMS):
        if word.startswith(stem) and word[len(stem) :] in ("", "e", "en", "em", "es", "er"):
            return "ein", stem
    return None


def _article_form(family: str, stem: str, case: str, gender: str, poss: str | None) -> str:
    if family == "def":
        return _DEF[(case, gender)]
    form = _INDEF[(case, gender)]
    base = poss if poss is not None else stem
    return base + form[3:]


def _adj_form(word: str, family: str, case: str, gender: str) -> str | None:
    """The adjective ending after an article of ``family`` in ``case`` and ``gender``."""
    for e in ("en", "er", "es", "em", "e"):
        if word.endswith(e):
            stem = word[: -len(e)]
            break
    else:
        return None
    if family == "def":
        end = "e" if case == "nom" or (gender != "m" and case == "acc") else "en"
    elif gender == "n" and case in ("nom", "acc"):
        end = "es"
    elif case == "nom":
        end = "er" if gender == "m" else "e"
    elif case == "acc":
        end = "en" if gender == "m" else "e"
    else:
        end = "en"
    return stem + end


_NUMBERS = frozenset("zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split())
_FEM_PLURALS = frozenset("töchter mütter schwestern frauen damen tanten nichten".split())


def _plural_noun(src: str, tgt: str, d: str) -> bool:
    fem = src if d == "f2m" else tgt
    return fem.endswith("innen") or fem in _FEM_PLURALS or (d == "f2m" and src.endswith("en"))


def _head_kept(src: str, tgt: str) -> bool:
    """A compound whose head stays (``Mädchenschule`` → ``Jungenschule``): not a person."""
    k = 0
    while k < min(len(src), len(tgt)) and src[-1 - k] == tgt[-1 - k]:
        k += 1
    return k >= 4


#: endings of weak masculine nouns (``den Journalisten``, ``des Erben``)
_WEAK = ("ist", "ent", "ant", "e", "af", "ürst", "inz", "err", "eld", "ensch", "at")


def _masc_oblique(noun: str, case: str) -> str:
    """A masculine person noun in ``case`` (``Vater`` → ``Vaters``, ``Journalist`` →
    ``Journalisten``, ``Herr`` → ``Herrn``)."""
    if case == "nom":
        return noun
    if noun.endswith(_WEAK) and noun not in ("vater", "bruder"):
        if noun.endswith("err"):
            return noun + "n"
        if noun.endswith("e"):
            return noun + "n"
        return noun + "en"
    if case == "gen" and not noun.endswith("s"):
        if noun.endswith(("er", "el", "en", "or", "ig", "ling", "ar", "eur")):
            return noun + "s"
        return noun + "es" if len(noun) <= 5 else noun + "s"
    return noun


def _masc_nom(noun: str) -> str:
    """Undo the oblique ending of a masculine noun, roughly (``Vaters`` → ``Vater``)."""
    if noun.endswith(("ers", "els", "ors", "igs", "ings")):
        return noun[:-1]
    if noun.endswith("en") and noun[:-2].endswith(_WEAK):
        return noun[:-2]
    return noun


def _stem(word: str) -> str:
    for e in ("en", "er", "es", "em", "e"):
        if word.endswith(e):
            return word[: -len(e)]
    return word


def _ending_change(src: str, tgt: str) -> bool:
    """``bekannte`` → ``bekannter``: the same adjective with another ending (not an article)."""
    if src == tgt or _article(src) is not None or _article(tgt) is not None:
        return False
    a, b = _stem(src), _stem(tgt)
    return a == b and len(a) >= 3


_FEM_HEADS = ("mutter", "tochter", "schwester", "tante", "nichte", "großmutter", "ehefrau")


_NEUTER = frozenset(("mädchen", "mädchens"))


_ARTS_ALL = frozenset("der die das den dem des ein eine einen einem einer eines".split())
