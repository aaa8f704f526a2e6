"""German feminine person nouns and their masculine forms, from the grammar of the ``-in``
suffix (``Botschafterin`` → ``Botschafter``, ``Polizistin`` → ``Polizist``, ``Biologin`` →
``Biologe``) and a short list of nouns with their own masculine (``Königin`` → ``König``,
``Nonne`` → ``Mönch``). Used for the feminine → masculine direction, where the learned tables
know only the nouns they saw and split a noun's target over its case forms (``Königin`` →
``König``/``Königs``): the rules give the nominative, the article rule in ``de.py`` the case.

German has no wordfreq list packaged (``zipf_de.tsv.gz``), so a guess is checked by its shape
only: the stem must end like a masculine agent noun (``-er``, ``-or``, ``-ist``, ``-ent``...)
and be long enough; first names in ``-in`` are excluded. ``feminine`` is the other way
(``Fahrer`` → ``Fahrerin``), used by ``de.py`` only for a role after a copula; it leaves nouns
that name things (``Theater``, ``Moment``) and nouns made from adjectives (``Vorsitzender``).

``_fem_noun`` gives the masculine of a feminine person noun in its sentence, for the nouns the
tables left: ``Frau`` before a name is ``Herr``, after an article ``Mann``; ``Lady`` ``Lord``;
``Mädchen`` ``Jungen``; a plural is dative after ``den`` or a dative preposition (``mit Frauen``
→ ``mit Männern``). ``German.propose`` in ``de.py`` calls it.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.de_clause import _next, _noun, _prev
from occbio.rewrite.languages.de_np import _article_before
from occbio.rewrite.languages.de_words import (
    _ADJ_ENDINGS,
    _ARTS_ALL,
    _NUMBERS,
    _PREPS,
    _article,
)

#: singular feminine -> masculine (nominative), nouns with their own masculine form
_OWN = {
    "königin": "könig",
    "kaiserin": "kaiser",
    "herzogin": "herzog",
    "erzherzogin": "erzherzog",
    "großherzogin": "großherzog",
    "gräfin": "graf",
    "markgräfin": "markgraf",
    "fürstin": "fürst",
    "prinzessin": "prinz",
    "zarin": "zar",
    "baronin": "baron",
    "äbtissin": "abt",
    "göttin": "gott",
    "nonne": "mönch",
    "nichte": "neffe",
    "tante": "onkel",
    "witwe": "witwer",
    "enkelin": "enkel",
    "erbin": "erbe",
    "thronerbin": "thronerbe",
    "heldin": "held",
    "kollegin": "kollege",
    "ehefrau": "ehemann",
    "braut": "bräutigam",
    "schwiegermutter": "schwiegervater",
    "schwiegertochter": "schwiegersohn",
    "cousine": "cousin",
    # kin (compounds too: ``Adoptivmutter``, ``Großmutter``, ``Stieftochter``)
    "mutter": "vater",
    "tochter": "sohn",
    "schwester": "bruder",
    "krankenschwester": "krankenpfleger",
}
#: plural feminine -> masculine plural (nominative)
_OWN_PLURAL = {
    "frauen": "männer",
    "schwestern": "brüder",
    "töchter": "söhne",
    "mütter": "väter",
    "nonnen": "mönche",
    "königinnen": "könige",
    "kaiserinnen": "kaiser",
    "prinzessinnen": "prinzen",
    "nichten": "neffen",
    "tanten": "onkel",
    "enkelinnen": "enkel",
    "kolleginnen": "kollegen",
}

#: stem endings (after ``-in`` is taken off) of masculine agent nouns, with the masculine
#: singular and plural endings: ``Fahrer``/``Fahrer``, ``Autor``/``Autoren``
_STEMS = (
    # (stem ending, add for the singular, add for the plural)
    ("erer", "", ""),
    ("er", "", ""),
    ("or", "", "en"),
    ("eur", "", "e"),
    ("är", "", "e"),
    ("ist", "", "en"),
    ("ent", "", "en"),
    ("ant", "", "en"),
    ("and", "", "en"),
    ("krat", "", "en"),
    ("dat", "", "en"),
    ("mat", "", "en"),
    ("ekt", "", "en"),
    ("eut", "", "en"),
    ("graf", "", "en"),
    ("graph", "", "en"),
    ("nom", "", "en"),
    ("soph", "", "en"),
    ("log", "e", "en"),
    ("gog", "e", "en"),
    ("herr", "", "en"),
)
#: umlauted stems: feminine stem ending -> masculine
_UMLAUT = (
    ("ärzt", "arzt", "ärzte"),
    ("köch", "koch", "köche"),
    ("bischöf", "bischof", "bischöfe"),
    ("bäuer", "bauer", "bauern"),
    ("anwält", "anwalt", "anwälte"),
)
#: ``Zauberin`` is the feminine of ``Zauberer`` (nouns from verbs in ``-ern``)
_ERER = ("zauber", "wander", "erober", "förder", "bewunder", "forder", "erneuer", "kletter")
#: first names and other words in ``-in`` that are not feminine agent nouns
_NOT_FEM = frozenset(
    """konstantin constantin valentin quentin florentin clementin kristin christin tristin
    florin karin katrin kathrin glycerin glyzerin nitroglycerin zeppelin medizin disziplin
    termin""".split()
)


def masculine(word: str) -> str | None:
    """The masculine of the feminine person noun ``word`` (lower case), singular or plural;
    None when the word does not look like one."""
    if word in _OWN:
        return _OWN[word]
    if word in _OWN_PLURAL:
        return _OWN_PLURAL[word]
    if word in _NOT_FEM:
        return None
    for fem, mas in _OWN.items():
        if len(fem) > 5 and word.endswith(fem) and len(word) - len(fem) >= 3:
            return word[: -len(fem)] + mas  # ``Kronprinzessin``, ``Titelheldin``
    plural = word.endswith("innen")
    if plural:
        stem = word[:-5]
    elif word.endswith("in"):
        stem = word[:-2]
    else:
        return None
    for fem, mas, mas_pl in _UMLAUT:
        if stem.endswith(fem):
            return stem[: -len(fem)] + (mas_pl if plural else mas)
    if len(stem) < 5:
        return None
    if stem.endswith(_ERER):
        return stem + "er"
    for end, sing, pl in _STEMS:
        if stem.endswith(end):
            return stem + (pl if plural else sing)
    return None


#: words before a plural noun (over adjectives) that make it dative: ``den``, ``mit``
_DAT_BEFORE = frozenset(
    """den diesen allen vielen beiden einigen mehreren ihren seinen jenen keinen wenigen mit
    von zu bei nach aus seit gegenüber außer samt zum zur vom beim""".split()
)


def dative_plural(word: str) -> str:
    """The dative of a masculine plural (``Männer`` → ``Männern``)."""
    return word if word.endswith(("n", "s")) else word + "n"


def is_plural(word: str) -> bool:
    """A feminine plural person noun this module knows (``Frauen``, ``Lehrerinnen``)."""
    return word in _OWN_PLURAL or word.endswith("innen")


def _fem_noun(s: Sentence, i: int) -> str | None:
    """The masculine of a feminine person noun the tables left (``Botschafterin``,
    ``Königin``, ``Frauen``): ``Frau`` before a name is ``Herr``, ``Lady`` ``Lord``,
    ``Mädchen`` is ``Jungen`` (``Junge`` after a singular article, in ``fix_plan``), a
    plural is dative after ``den`` or a dative preposition (``mit Frauen`` → ``mit
    Männern``)."""
    low = s.low[i]
    n1 = _next(s, i)
    name_after = n1 is not None and _noun(n1[0]) and not n1[1].isdigit()
    if low == "frau":
        if name_after:
            return "herr"
        # without an article (``als Frau``, ``Frau und Mutter``) it lost precision on the
        # judging pairs: left
        return "mann" if _article_before(s, i, {}, neuter=False)[0] is not None else None
    if low == "lady" and i > 0 and (s.toks[i - 1][:1].isupper() or s.gap_after(i - 1) == "-"):
        return None  # inside a name: ``Our Lady School``
    if low == "lady":
        return "lord" if name_after else None
    if low == "mädchen":
        return "junge" if _prev(s, i) == "als" else "jungen"
    m = masculine(low)
    if m is not None and is_plural(low):
        # ``Schüler und Schülerinnen``: the masculine is there already
        near = s.low[max(0, i - 2) : i + 3]
        if m in near or m + "n" in near:
            return None
    if m is None or not is_plural(low) or s.gap_after(i).startswith("-"):
        return m  # (``Frauen-Vierer``: a compound, no case)
    return dative_plural(m) if dative_np(s, i) else m


def dative_np(s: Sentence, i: int) -> bool:
    """The plural noun ``i`` is dative: the word that opens its noun phrase is ``den``, a
    dative preposition, or ``vielen``/``beiden`` first (``die beiden Schwestern`` is not)."""
    k = i - 1
    first = None
    while k >= 0 and s.joined(k):
        w = s.low[k]
        opener = w in _ARTS_ALL or _article(w) is not None or w in _PREPS or w in _DAT_BEFORE
        if opener:
            first = w  # (``Die`` opening the sentence too)
        elif s.toks[k][:1].isupper():
            break
        numeral = w in _NUMBERS or w.isdigit()
        if w in _ARTS_ALL or w in _PREPS or (not numeral and not w.endswith(_ADJ_ENDINGS)):
            break
        k -= 1
    return first in _DAT_BEFORE


#: masculine agent-noun endings that take ``-in`` (``Fahrer`` → ``Fahrerin``, ``Pilot`` →
#: ``Pilotin``); ``-e`` nouns drop it (``Biologe`` → ``Biologin``)
_MASC_ENDS = (
    "er", "or", "eur", "är", "ist", "ent", "ant", "and", "krat", "dat", "ekt", "eut", "graf",
    "graph", "nom", "soph", "ot",
)  # fmt: skip
_MASC_E_ENDS = ("loge", "oge", "ege")
#: nouns with those endings that are not people (after ``als``, ``zum`` or a copula)
_NOT_PERSON = frozenset(
    """opfer theater kloster fenster muster meter wasser zimmer orchester register charakter
    körper sommer winter fehler keller teller computer partner ufer ruder zentimeter
    kilometer liter feuer abenteuer messer finger hammer mitglieder motor sektor faktor tresor
    korridor äquator traktor reaktor moment element talent instrument parlament dokument
    argument prozent patent kontinent restaurant diamant elefant testament fundament
    regiment segment pigment monument sakrament präsent produkt projekt objekt subjekt
    architekt dialekt effekt aspekt kontakt intellekt insekt defekt konflikt
    boot brot gebot verbot angebot idiot despot pilot""".split()
) - {"architekt", "pilot", "idiot", "despot", "partner"}


#: endings of ``-er`` nouns that do not take ``-in``: kinship (``Adoptivvater``) and nouns
#: made from adjectives and participles (``ein Angestellter``/``eine Angestellte``,
#: ``Vorsitzender``, ``Klassenbester``, ``Abgeordneter``, ``Deutscher``)
_NOT_AGENT = (
    "vater", "bruder", "erer", "ndter", "nnter", "llter", "agter", "mter", "hrter", "neter",
    "ender", "ener", "bester", "ueller", "licher", "ischer", "deutscher",
)  # fmt: skip


def feminine(word: str) -> str | None:
    """The feminine of the masculine person noun ``word`` (lower case, singular), by its
    agent-noun ending; None for words that do not look like one."""
    if word in _NOT_PERSON or len(word) < 5 or word.endswith(("in", "innen")):
        return None
    for fem, mas in _OWN.items():
        if word == mas:
            return fem
    for fem, mas, _pl in _UMLAUT:
        if word.endswith(mas):
            return word[: -len(mas)] + fem + "in"  # ``Erzbischof`` → ``Erzbischöfin``
    if word.endswith(_MASC_E_ENDS):
        return word[:-1] + "in"
    if word.endswith(_NOT_AGENT):
        return None  # ``Zauberer`` → ``Zauberin``: rare, left; and see ``_NOT_AGENT``
    if word.endswith(_MASC_ENDS):
        return word + "in"
    return None


#: nouns made from adjectives and participles: they decline like adjectives (``die
#: Vorsitzende``/``der Vorsitzende``, ``eine Vorsitzende``/``ein Vorsitzender``)
_ADJ_NOUN_HEADS = (
    "vorsitzende", "abgeordnete", "angestellte", "beauftragte", "bekannte", "verwandte",
    "gesandte", "delegierte", "vertraute", "verlobte", "gelehrte", "vorgesetzte", "platzierte",
)  # fmt: skip


def adjective_noun(word: str) -> str | None:
    """The stem of a noun made from an adjective (``vorsitzend`` for ``Vorsitzende``,
    ``Vorsitzender``, ``Vorsitzenden``), or None."""
    for end in ("en", "er", "e"):
        if word.endswith(end) and (word[: -len(end)] + "e").endswith(_ADJ_NOUN_HEADS):
            return word[: -len(end)]
    return None


#: kinship heads: a compound ending in one (``Stiefmutter``, ``Adoptivsohn``) is kin too
_KIN_HEADS = (
    "mutter", "vater", "tochter", "sohn", "schwester", "bruder", "mütter", "väter", "töchter",
    "söhne", "schwestern", "brüder",
)  # fmt: skip


def _kin_head(word: str) -> str:
    for head in _KIN_HEADS:
        if word.endswith(head) and len(word) >= len(head) + 3:
            return head
    return word


#: masculine kin nouns in their case forms -> the feminine (``seines Vaters`` → ``ihrer
#: Mutter``); compounds too (``Stiefvater``, ``Großonkel``)
_KIN_FEM = {
    "vater": "mutter", "vaters": "mutter", "sohn": "tochter", "sohnes": "tochter",
    "sohns": "tochter", "sohne": "tochter", "bruder": "schwester", "bruders": "schwester",
    "onkel": "tante", "onkels": "tante", "neffe": "nichte", "neffen": "nichte",
    "enkel": "enkelin", "enkels": "enkelin", "cousin": "cousine", "cousins": "cousine",
}  # fmt: skip


def kin_feminine(word: str) -> str | None:
    """The feminine of a singular masculine kin noun in any case (``Stiefvaters`` →
    ``Stiefmutter``), or None."""
    for mas, fem in _KIN_FEM.items():
        if word == mas or (word.endswith(mas) and len(word) >= len(mas) + 3):
            return word[: len(word) - len(mas)] + fem
    return None
