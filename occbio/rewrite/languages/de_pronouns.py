"""German pronouns by their role: ``sie``, ``ihr``, ``sein`` and ``ihrer`` for the rewriter.

* ``sie`` is also plural "they" and formal ``Sie`` "you": it becomes ``er`` only where it reads as
  a singular subject, ``ihn`` after a preposition or after the plural verb of a subject noun
  phrase (``Ihre Eltern schickten sie``), and stays next to a plural verb form (not the
  infinitive after a singular modal: ``musste sie arbeiten``), as a second ``sie`` in its
  clause, in a subordinate clause whose finite auxiliaries are plural (read across quotation
  marks: ``dass sie „... stehen werden“``), or when capitalised inside a sentence (formal
  address; so do ``Ihr``/``Ihre``...). ``er`` closing a coordinated subject (``Ihre Schwester
  und sie gründeten``) and after a thing that opens the clause before a verb whose subject is
  a person (``Die Hauptrolle spielte sie``).
* A possessive is "their" (left) in a clause with a plural ``sie``, a plural noun phrase and its
  verb before it (``die vier Kinder kehren in ihr Haus``), a plural verb that its own noun
  phrase does not explain (``Ihre Eltern waren`` is "her"), after the verb of ``sie und ihre
  Schwester``, or when a collective opens the clause (``Die Band veröffentlichte ihr Album``);
  clause helpers in ``de_clause.py``. ``ihr`` next to a second person plural verb is "you".
* ``ihr`` is the possessive (``ihr Vater`` → ``sein Vater``) before a noun or a strong adjective
  (``ihr bestes``), else the dative pronoun (``mit ihr`` → ``mit ihm``); ``sein`` is a possessive
  (→ ``ihr``) only in the same places, else the verb "to be" and stays.
* ``ihrer`` before a noun that stays (not a person) is ``seiner`` (``von ihrer Familie``).

``_pronoun`` gives the new form of one ``sie``/``ihr``/``sein`` (or ``None``: it stays),
``_ihrer`` whether an ``ihrer`` changes, ``_possessive_slot`` whether ``ihr``/``sein`` stands
before its noun, and ``_person_noun`` whether a noun names a person of the source gender (a
possessive before one that stays is left, in ``de.py``). Pure functions over a
:class:`Sentence`; ``German.propose`` in ``de.py`` calls them.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.de_clause import (
    _all_caps,
    _aux_number,
    _clause_end,
    _clause_first,
    _clause_start,
    _collective_owner,
    _formal,
    _head_noun,
    _infinitive_end,
    _next,
    _noun,
    _object_after_subject,
    _plural_clause,
    _plural_verb,
    _prev,
)
from occbio.rewrite.languages.de_nouns import feminine, masculine
from occbio.rewrite.languages.de_words import (
    _ARTICLES,
    _ARTS_ALL,
    _CONJ_PREPS,
    _DAT_PREPS,
    _DATIVE_VERBS,
    _FEM_HEADS,
    _OBJECT_VERBS,
    _PREPS,
    _SUBORD,
    _article,
)


def _possessive_slot(s: Sentence, i: int) -> bool:
    """Token ``i`` (``ihr``/``sein``) stands before its noun: a capitalised word, or a strong
    adjective (``-er``/``-es``) and then one."""
    n1 = _next(s, i)
    if n1 is None:
        return False
    if _noun(n1[0]) and not n1[1].isdigit():
        return True
    k = 1
    # over strong adjectives (``ihr bestes``) and numbers (``ihr 1990 erschienenes``), not
    # over an article (``wurde ihr der Preis verliehen``: the dative)
    while (
        n1 is not None
        and (n1[1].endswith(("er", "es")) or n1[1].isdigit())
        and not n1[0][:1].isupper()
        and n1[1] not in _ARTS_ALL
        and _article(n1[1]) is None
        and n1[1] not in ("der", "er", "es", "wer", "aber", "oder", "sondern", "immer", "wieder")
    ):
        if n1[1].isdigit() and (_next(s, i, k + 1) is None or _noun(_next(s, i, k + 1)[0])):
            return False  # ``ihr 1000 Morgen Land``: a quantity, ``ihr`` is the dative
        k += 1
        n1 = _next(s, i, k)
        if n1 is not None and _noun(n1[0]):
            return True
    return False


#: singular finite auxiliaries and modals: ``sie`` right after one is singular
_SING_AUX = frozenset(
    """musste konnte wollte sollte durfte mochte möchte hatte war wurde wird ist hat kann
    muss will soll darf""".split()
)


#: nouns of time: a noun phrase of them opening a clause is an adverbial, not the subject
_TIME_NOUNS = (
    "zeit", "jahr", "jahre", "monat", "monate", "woche", "wochen", "tag", "tage", "saison",
    "zeitraum", "sommer", "winter", "frühjahr", "herbst", "jahrzehnt", "jahrzehnte", "abend",
    "morgen", "nacht", "stunde", "stunden", "hälfte", "rest", "spielzeit", "male", "mal",
)  # fmt: skip


#: words that open a clause with its finite verb last (beside ``_SUBORD``): ``wobei sie``
_WH = frozenset(
    """wobei woraufhin worauf wodurch womit worin wovon wofür was wem wen warum weshalb
    wieso ehe obgleich obschon sofern soweit welche welcher welchen welchem""".split()
)


#: second person plural verbs: ``ihr`` next to one is "you" (``ihr habt``, ``wollt ihr``)
_SECOND_PL = frozenset(
    """seid habt hattet wart werdet würdet könnt konntet müsst musstet sollt solltet wollt
    wolltet dürft durftet wärt hättet wisst""".split()
)


#: verbs whose subject is a person: a thing opening the clause before one is its object
_AGENT_VERBS = frozenset(
    """spielte spielt gewann gewinnt erhielt erhält schrieb schreibt veröffentlichte sang
    komponierte besuchte studierte verließ drehte gründete leitete übernahm verbrachte
    nahm gab""".split()
)


def _time_noun(word: str) -> bool:
    return word.endswith(_TIME_NOUNS)


_KIN_PERSONS = frozenset(
    """vater mutter eltern bruder brüder schwester schwestern mann ehemann frau ehefrau sohn
    söhne tochter töchter großvater großmutter großeltern onkel tante lehrer lehrerin lehrerinnen
    freund freundin freunde freundinnen kollegen familie""".split()
)


def _subject_person(s: Sentence, h: int) -> bool:
    """Noun ``h`` names a person (kin, a friend, a teacher), so it can be a subject."""
    w = s.low[h]
    return w in _KIN_PERSONS or masculine(w) is not None or feminine(w) is not None


_PARTITIVE = frozenset(
    """einer eines einem einen eine keiner keines keinem einige viele mehrere meisten beide
    anzahl reihe""".split()
)


def _person_noun(s: Sentence, j: int, d: str) -> bool:
    """Token ``j`` reads as a noun for a person of the source gender: the data saw it change,
    or (feminine) it is a ``-in`` form of a known word (``Sprecherin``)."""
    w = s.low[j]
    seen = s.lex.seen.get(w) if s.lex is not None else None
    if seen is not None and seen[0] >= 1 and seen[0] >= 0.3 * seen[1]:
        return True
    if d == "f2m" and w.endswith("in") and len(w) > 5 and s.lex is not None:
        return s.lex.is_word(w[:-2], 2.5)
    return d == "f2m" and w.endswith(_FEM_HEADS)


def _coordinated_subject(s: Sentence, i: int) -> bool:
    """``sie`` at ``i`` (after ``und``) closes a subject that opens its clause with a noun
    phrase (``Ihre Schwester und sie gründeten``): the plural verb right after is theirs."""
    c = _clause_first(s, i)
    n1 = _next(s, i)
    if n1 is None or not _plural_verb(n1[1], n1[0]) or i < c + 2:
        return False
    if s.low[c] in _ARTS_ALL or _article(s.low[c]) is not None:
        return _head_noun(s, c) == i - 2
    return _noun(s.toks[c]) and c == i - 2  # (a name: ``Anna und sie``)


def _pronoun(d: str, s: Sentence, i: int) -> str | None:
    low, tok = s.low[i], s.toks[i]
    if _all_caps(tok) or _formal(s, i):
        return None
    prev = _prev(s, i)
    n1 = _next(s, i)
    if d == "f2m" and low == "sie":
        if prev in _PREPS and prev not in _CONJ_PREPS:
            return "ihn"
        if n1 is not None and n1[1] in ("und", "sowie") and (prev is None or prev in _SUBORD):
            return "er"  # ``sie und ihr Mann``: the plural verb is theirs together
        if prev in ("und", "sowie") and _coordinated_subject(s, i):
            return "er"  # ``Ihre Schwester und sie gründeten``
        if n1 is not None and n1[1] == "selbst" and prev in ("als", "wie"):
            return "er"  # ``als sie selbst``
        c = _clause_first(s, i)
        if "sie" in s.low[c:i]:
            return None  # ``Sie sah sie``: a second ``sie`` is someone else or "them"
        b = _clause_end(s, i)
        # a subordinate or relative clause: its finite verb is the last word, and a singular
        # one decides (``, die sie übertrieben toupiert trägt``)
        verb_last = b > i + 1 and (
            prev in _SUBORD or (prev in ("die", "der", "das", "denen", "dem") and c == i - 1)
        )
        relative = prev in ("die", "der", "das", "denen", "dem", *_WH) and c == i - 1
        if (prev in _SUBORD or relative) and _aux_number(s, i) == "pl":
            return None  # ``weil sie verfolgt werden oder ...``: "they"
        if verb_last and not _plural_verb(s.low[b], s.toks[b]):
            pass
        elif n1 is not None and _plural_verb(n1[1], n1[0]) and prev not in _SING_AUX:
            return None  # (``musste sie arbeiten``: the infinitive after a singular verb)
        if prev in ("die", "der", "das", "denen", "dem") and _plural_verb(s.low[b], s.toks[b]):
            return None  # a relative clause with a plural verb: "they", or an object
        if _object_after_subject(s, i):
            return "ihn"  # ``Ihre Eltern schickten sie``
        if prev is not None and (_plural_verb(prev, s.toks[i - 1]) or prev in ("sie", "er")):
            return None
        if prev == "der" and i > 1 and "," in s.gap_after(i - 2):
            return "ihn"  # ``ein Beamter, der sie verhörte``
        last = _clause_end(s, i)
        if prev in ("was", "die", "das", "der", "denen") and s.low[last] in _OBJECT_VERBS:
            return "ihn"  # ``, was sie dazu veranlasste``
        if prev in ("entweder", "weder", "sowohl"):
            return None  # ``entweder sie oder ...``: subject or object, unknown
        c = _clause_first(s, i)
        opens_inf = s.low[c] in ("um", "ohne", "statt", "anstatt") or (
            c == i and i > 0 and "," in s.gap_after(i - 1)
        )
        if last > i + 1 and opens_inf and _infinitive_end(s, last):
            # an infinitive clause has no subject: ``, um sie zu unterstützen``, ``, sie zu
            # verlassen`` (not ``damals hatte sie viel zu tun``)
            return "ihn"
        if prev in _SUBORD:
            last = _clause_end(s, i)
            if last != i and _plural_verb(s.low[last], s.toks[last]):
                return None
        if prev is not None and _noun(s.toks[i - 1]) and not _clause_start(s, i - 1):
            return "ihn"  # after the subject: ``schickten ihre Eltern sie``
        if prev is not None and not s.toks[i - 1][:1].isupper():
            c = _clause_first(s, i)
            subj = ("ich", "wir", "du", "man", "er")
            # (not a possessive: ``Ihre erste Rolle spielte sie 1990`` is the object)
            opens = s.low[c] in _ARTICLES
            h = _head_noun(s, c) if opens else None
            if h is not None and _time_noun(s.low[h]):
                return "er"  # ``Die meiste Zeit verbrachte sie``: an adverbial of time
            if h is not None and prev in _AGENT_VERBS and not _subject_person(s, h):
                return "er"  # ``Die Rolle spielte sie``: a thing is the object of ``spielte``
            if c < i - 1 and (opens or s.low[c] in subj):
                return "ihn"  # ``das Time-Magazin kürte sie``
            if c < i - 1 and _article(s.low[c]) is not None:
                # a possessive opening the clause: its noun is the subject when it names a
                # person (``Ihr Lehrer ermutigte sie``), else often a fronted object (``Ihre
                # erste Rolle spielte sie 1990``)
                h = _head_noun(s, c)
                # (over the person's name: ``Ihre Freundin Maria beschrieb sie``)
                named = h is not None and h + 2 <= i
                named = named and all(_noun(s.toks[x]) for x in range(h + 1, i - 1))
                if named and s.joined(h) and _subject_person(s, h):
                    return "ihn"
        return "er"
    if d == "f2m" and low == "ihr":
        if any(w in _SECOND_PL for w in s.low[_clause_first(s, i) : _clause_end(s, i) + 1]):
            return None  # ``ihr habt``, ``wollt ihr``, ``dass ihr ... könnt``: "you"
        if prev in _DAT_PREPS or (prev in _PREPS and not _possessive_slot(s, i)):
            return "ihm"  # a pronoun after a preposition is never "their"
        if _possessive_slot(s, i) and (_plural_clause(s, i) or _collective_owner(s, i)):
            return None  # (the pronoun ``ihr`` is "her" or "you", never "their")
        own_subject = "sie" in s.low[_clause_first(s, i) : i]  # (a dative would be ``sich``)
        if prev in _DATIVE_VERBS and not (own_subject and _possessive_slot(s, i)):
            return "ihm"  # ``verhalf ihr zum Sieg``; not ``sie legte ihr Amt nieder``
        return "sein" if _possessive_slot(s, i) else "ihm"
    if d == "m2f" and low == "sein":
        if prev == "zu" or not _possessive_slot(s, i):
            return None
        return "ihr"
    return None


def _ihrer(s: Sentence, i: int) -> bool:
    """``ihrer`` before a noun that stays (not a person): ``seiner``."""
    if _all_caps(s.toks[i]) or _formal(s, i) or _plural_clause(s, i):
        return False
    if _prev(s, i) in _PARTITIVE:
        return False  # ``einer ihrer Schüler``: "of her" or "of their"
    j = _head_noun(s, i)
    return j is not None and not s.covered[j] and not _person_noun(s, j, "f2m")
