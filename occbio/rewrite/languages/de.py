"""German: personal pronouns by case, possessives, articles and adjective endings by case.

* ``sie`` is also plural "they" and formal ``Sie`` "you": it becomes ``er`` only where it reads as
  a singular subject, ``ihn`` after a preposition or after the plural verb of a subject noun
  phrase (``Ihre Eltern schickten sie``), and stays next to a plural verb form (not the
  infinitive after a singular modal: ``musste sie arbeiten``), as a second ``sie`` in its
  clause, or when capitalised inside a sentence (formal address; so do ``Ihr``/``Ihre``...).
* A possessive is "their" (left) in a clause with a plural ``sie``, a plural noun phrase and its
  verb before it (``die vier Kinder kehren in ihr Haus``), or a plural verb that its own noun
  phrase does not explain (``Ihre Eltern waren`` is "her"); clause helpers in ``de_clause.py``.
* ``ihr`` is the possessive (``ihr Vater`` → ``sein Vater``) before a noun or a strong adjective
  (``ihr bestes``), else the dative pronoun (``mit ihr`` → ``mit ihm``); ``sein`` is a possessive
  (→ ``ihr``) only in the same places, else the verb "to be" and stays.
* An article before a changed person noun (with adjectives between) takes the case its own form
  and a preposition before it show: ``der``/``den``/``dem``/``des`` ↔ ``die``/``die``/``der``/
  ``der``, ``ein``/``einen``/``einem``/``eines`` ↔ ``eine``/``eine``/``einer``/``einer``, with the
  adjective endings (``ein bekannter`` ↔ ``eine bekannte``) and the masculine genitive ``-s``.
  A feminine ``die``/``eine`` is accusative after the verb of a clause that has its subject
  (``sie besuchte ihre Mutter`` → ``seinen Vater``; not with a copula), in an infinitive clause,
  or after another bare noun phrase; feminine ``der``/``einer`` is genitive after a noun and
  dative after a verb or a relative pronoun (``die der Königin dienten``). Where a ``die``/
  ``eine`` could be subject or object and nothing tells (``Leider starb ihre Mutter``), the
  noun phrase is left as it is: ``der`` and ``den`` differ, a wrong guess breaks it. (Cases
  and noun phrases in ``de_np.py``.)
* Feminine person nouns the tables miss become masculine (``de_nouns.py``): the ``-in`` suffix
  by the stem's ending (``Botschafterin``, ``Polizistin``, ``Biologin``), a short list
  (``Königin``, ``Frauen``), ``Frau`` before a name (``Herr``) or after an article (``Mann``),
  ``Mädchen``; plurals take the dative ``-n`` after ``den`` or a dative preposition. The other
  way a masculine agent noun becomes ``-in`` only as the role after a copula in a clause about
  ``er`` (``er wurde ein bekannter Fahrer``), and ``Herr`` before a name ``Frau``.
* ``eine der ersten Frauen`` ↔ ``einer der ersten Männer``.
* A relative pronoun after a comma that follows a changed noun (``Mann, der`` ↔ ``Frau, die``).
* ``Mädchen`` is neuter: ``den Jungen`` → ``das Mädchen``, ``des Jungen`` → ``des Mädchens``.
* Precision first: an adjective changes its ending only before a noun that changes, and a
  possessive is left before a person noun that stays (``ihrer Stiefmutter``), where changing
  it alone would read wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.de_clause import (
    _all_caps,
    _clause_end,
    _clause_first,
    _clause_start,
    _formal,
    _head_noun,
    _infinitive_end,
    _next,
    _noun,
    _object_after_subject,
    _object_np,
    _plural_clause,
    _plural_verb,
    _prev,
)
from occbio.rewrite.languages.de_nouns import (
    _DAT_BEFORE,
    adjective_noun,
    dative_plural,
    feminine,
    is_plural,
    masculine,
)
from occbio.rewrite.languages.de_np import (
    _ROLE_COPULAS,
    _article_before,
    _case,
    _nominative_sure,
    _role_slot,
)
from occbio.rewrite.languages.de_words import (
    _ADJ_ENDINGS,
    _ARTICLES,
    _ARTS_ALL,
    _CONJ_PREPS,
    _DAT_PREPS,
    _DATIVE_VERBS,
    _FEM_HEADS,
    _NEUTER,
    _NUMBERS,
    _OBJECT_VERBS,
    _PREPS,
    _SUBORD,
    _adj_form,
    _article,
    _article_form,
    _ending_change,
    _head_kept,
    _masc_nom,
    _masc_oblique,
    _plural_noun,
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


def _will_change(s: Sentence, j: int) -> bool:
    """Token ``j`` is changed by the plan so far, or the data says it usually changes."""
    if s.covered and s.covered[j]:
        return True
    seen = s.lex.seen.get(s.low[j]) if s.lex is not None else None
    return seen is not None and seen[0] >= 2 and seen[0] >= 0.75 * seen[1]


def _may_change(s: Sentence, j: int, d: str) -> bool:
    """Token ``j`` may still change later: the data saw it change, or a ``-in`` form."""
    seen = s.lex.seen.get(s.low[j]) if s.lex is not None else None
    if seen is not None and seen[0] >= 1:
        return True
    return d == "f2m" and s.low[j].endswith(("in", "innen"))


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


@dataclass
class German(Language):
    def never_change(self, d: str) -> list[str]:
        # decided by context in ``propose``
        return ["sie", "ihr"] if d == "f2m" else ["sein"]

    def allows(
        self,
        d: str,
        s: Sentence,
        i: int,
        ln: int,
        tgt: tuple[str, ...],
        plan: Plan,
        *,
        source: str = "table",
    ) -> bool:
        tok, low = s.toks[i], s.low[i]
        if d == "m2f" and low.startswith("junge") and not tok[:1].isupper():
            return False  # ``jungen Menschen``: "young", not a boy
        if ln == 1 and len(tgt) == 1 and _ending_change(low, tgt[0]):
            # an attributive adjective agrees with its noun: only next to a noun that changes
            j = _head_noun(s, i)
            if j is None:
                if not tok[:1].isupper():
                    return False
            elif not _will_change(s, j) and (source != "free" or not _may_change(s, j, d)):
                return False
        if ln == 1 and low.startswith(("ihr", "sein")) and _article(low) is not None:
            # a possessive before a person noun that stays (``ihrer Stiefmutter``): the
            # sentence is not rewritten right anyway, and the possessive alone reads wrong
            j = _head_noun(s, i)
            if j is not None and _person_noun(s, j, d) and not _will_change(s, j):
                return False
        if _all_caps(tok):
            return False  # an acronym (ER, SIE, SIR), or a sentence in capitals: its agreement
            # rules read capitalised nouns, so it is left rather than half rewritten
        if low.startswith(("ihr", "sie")) and _formal(s, i):
            return False
        # a possessive in a clause with a plural verb: "their"
        return not (d == "f2m" and low.startswith("ihr") and _plural_clause(s, i))

    def _pronoun(self, d: str, s: Sentence, i: int) -> str | None:
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
                if c < i - 1 and (opens or s.low[c] in subj):
                    return "ihn"  # ``das Time-Magazin kürte sie``
                if c < i - 1 and _article(s.low[c]) is not None:
                    # a possessive opening the clause: its noun is the subject when it names a
                    # person (``Ihr Lehrer ermutigte sie``), else often a fronted object (``Ihre
                    # erste Rolle spielte sie 1990``)
                    h = _head_noun(s, c)
                    if h is not None and h + 2 == i and _subject_person(s, h):
                        return "ihn"
            return "er"
        if d == "f2m" and low == "ihr":
            if prev in _DAT_PREPS or (prev in _PREPS and not _possessive_slot(s, i)):
                return "ihm"  # a pronoun after a preposition is never "their"
            if _possessive_slot(s, i) and _plural_clause(s, i):
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

    def _ihrer(self, s: Sentence, i: int) -> bool:
        """``ihrer`` before a noun that stays (not a person): ``seiner``."""
        if _all_caps(s.toks[i]) or _formal(s, i) or _plural_clause(s, i):
            return False
        if _prev(s, i) in _PARTITIVE:
            return False  # ``einer ihrer Schüler``: "of her" or "of their"
        j = _head_noun(s, i)
        return j is not None and not s.covered[j] and not _person_noun(s, j, "f2m")

    def _fem_noun(self, s: Sentence, i: int) -> str | None:
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
        # the word that opens the noun phrase decides: ``den``, ``mit``, or ``vielen``/``beiden``
        # first (``die beiden Schwestern`` is not dative)
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
        return dative_plural(m) if first in _DAT_BEFORE else m

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low, toks = s.low, s.toks
        n = len(low)
        out: Plan = {}

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        def put(i: int, word: str) -> None:
            if free(i) and word != low[i]:
                out[i] = (1, (word,))

        for i in range(n):
            if free(i) and low[i] in ("sie", "ihr", "sein"):
                w = self._pronoun(d, s, i)
                if w is not None:
                    put(i, w)
            elif d == "f2m" and free(i) and low[i] == "ihrer" and self._ihrer(s, i):
                put(i, "seiner")  # ``von ihrer Familie``: the noun stays feminine
        if d == "f2m":
            for i in range(n):
                if free(i) and _noun(toks[i]) and not _all_caps(toks[i]):
                    w = self._fem_noun(s, i)
                    if w is not None:
                        put(i, w)
        # nouns made from adjectives (``Vorsitzende``): as a role (after ``als`` or a copula) the
        # strong nominative (after an article the tables' change is declined by the article
        # rule); ``zur Vorsitzenden`` ↔ ``zum Vorsitzenden``
        for j in range(1, n):
            stem = adjective_noun(low[j]) if _noun(toks[j]) else None
            if stem is None or not s.joined(j - 1):
                continue
            src_end, tgt_end = ("e", "er") if d == "f2m" else ("er", "e")
            role = low[j - 1] in ("als", *_ROLE_COPULAS) or (
                j > 1
                and _article(low[j - 1]) is not None
                and s.joined(j - 2)
                and low[j - 2] in ("als", *_ROLE_COPULAS)
            )  # (after an article alone it may be someone else: ``eine Bekannte``)
            if free(j) and low[j] == stem + src_end and role:
                put(j, stem + tgt_end)
            elif low[j] == stem + "en" and low[j - 1] == ("zur" if d == "f2m" else "zum"):
                put(j - 1, "zum" if d == "f2m" else "zur")
        if d == "m2f":
            for j in range(n):
                nxt = _next(s, j)
                if low[j] == "herr" and free(j) and nxt is not None and _noun(nxt[0]):
                    put(j, "frau")  # ``Herr Weber`` → ``Frau Weber``
            for j in range(1, n):
                if free(j) and _noun(toks[j]) and not _all_caps(toks[j]):
                    w = feminine(low[j])
                    if w is not None and _role_slot(s, j):
                        put(j, w)
        # ``der Junge`` → ``das Mädchen`` after an article (``jungen`` alone is "young"); the
        # other way ``das Mädchen`` may be ``der Junge`` or ``den Jungen``: left to the tables
        if d == "m2f":
            for i in range(1, n):
                kid = low[i] in ("junge", "jungen") and free(i) and _noun(toks[i])
                if kid and _article_before(s, i, plan, neuter=False)[0] is not None:
                    put(i, "mädchen")
        # articles and adjectives before a changed person noun
        arts = s.notes.setdefault("articles", {})
        for j, (ln, tgt) in plan.items():
            if ln != 1 or len(tgt) != 1 or not _noun(toks[j]) or tgt[0] == low[j]:
                continue
            if low[j] in ("sie", "ihr", "er", "ihm", "ihn", "sein", "ihre", "seine"):
                continue
            src_g, tgt_g = ("f", "m") if d == "f2m" else ("m", "f")
            if d == "f2m" and low[j] in _NEUTER:
                src_g = "n"  # ``das Mädchen`` → ``der Junge``
            elif d == "m2f" and tgt[0] in _NEUTER:
                tgt_g = "n"  # ``den Jungen`` → ``das Mädchen``
            elif _plural_noun(low[j], tgt[0], d) or _head_kept(low[j], tgt[0]):
                continue
            title = d == "f2m" and masculine(low[j]) is not None  # ``der Kaiserin Go-Sanjō``
            if s.joined(j) and j + 1 < n and _noun(toks[j + 1]) and not title:
                continue  # a name or title made of several words (``Girls High School``)
            k, adjs = _article_before(s, j, plan, neuter=src_g == "n", compound=d == "f2m")
            if k is None:
                continue
            art = low[k]
            if art == "die" and (d == "m2f" or src_g == "n"):
                continue  # a plural
            if tgt_g == "n" and (low[j] == "jungs" or (art == "den" and _prev(s, k) in _DAT_PREPS)):
                continue  # ``von den Jungs``: a plural, its article stays
            fam, stem = _article(art) or ("def", "")
            case = _case(s, k, art, src_g)
            if src_g in ("f", "n") and case == "nom" and _object_np(s, k):
                case = "acc"  # ``sie besuchte ihre Mutter``: ``seinen Vater``
            relative = j + 1 < n and s.gap_after(j).strip() == "," and low[j + 1] in _ARTS_ALL
            if d == "f2m" and case == "nom" and not relative and not _nominative_sure(s, k):
                # ``die``/``eine``/``das`` may be the subject or the object here (``1990 traf
                # die Sängerin ...``, ``Paul heiratete die Sängerin``): the masculine differs
                # (``der``/``den``), so the noun phrase is left as it is
                s.notes.setdefault("left", set()).update([j, k, *adjs])
                continue
            if k > 0 and s.gap_after(k - 1).strip() == ",":
                # an apposition takes the case of the changed noun just before it
                # (``den Protagonisten X, einen geklonten Attentäter``)
                before = [h for h in range(max(0, k - 3), k) if h in s.notes.get("np_case", {})]
                if before and all(not s.gap_after(h).strip() for h in range(before[-1], k - 1)):
                    case = s.notes["np_case"][before[-1]]
            poss = None
            if stem in ("sein", "ihr"):
                poss = "ihr" if d == "m2f" else "sein"
            new_art = _article_form(fam, stem, case, tgt_g, poss)
            arts[k] = new_art
            put(k, new_art)
            for a in adjs:
                new_adj = _adj_form(low[a], fam, case, tgt_g)
                if new_adj is not None and d == "f2m" and new_adj.startswith("weiblich"):
                    new_adj = "männlich" + new_adj[8:]  # ``eine weibliche Erbin``
                if new_adj is not None and free(a):
                    put(a, new_adj)
                elif new_adj is not None and a in plan:
                    s.notes.setdefault("adjs", {})[a] = new_adj
            s.notes.setdefault("np_case", {})[j] = case
            if _ending_change(low[j], tgt[0]):
                # a noun made from an adjective declines like one: ``die Vorsitzende`` → ``der
                # Vorsitzende``, ``eine Vorsitzende`` → ``ein Vorsitzender``
                form = _adj_form(low[j], fam, case, tgt_g)
                if form is not None:
                    s.notes.setdefault("adj_nouns", {})[j] = form
        # ``eine der ersten Frauen`` ↔ ``einer der ersten Männer``: the partitive pronoun takes
        # the gender of the plural noun that changed
        for i in range(n - 2):
            if not free(i) or low[i + 1] != "der" or not s.joined(i) or not s.joined(i + 1):
                continue
            if toks[i][:1].isupper() and not _clause_start(s, i):
                continue  # ``Leichtgewichts-Einer``: a noun
            j = i + 2
            while j < n - 1 and s.joined(j) and not _noun(toks[j]) and low[j].endswith("en"):
                j += 1
            if j not in plan or not _noun(toks[j]) or plan[j][1][0] == low[j]:
                continue
            if not _plural_noun(low[j], plan[j][1][0], d):
                continue
            if d == "f2m" and low[i] in ("eine", "keine", "jede"):
                put(i, low[i][:-1] + ("en" if _object_np(s, i) else "er"))
            elif d == "m2f" and low[i] in ("einer", "keiner", "jeder"):
                put(i, low[i][:-1])
        # relative pronoun after a comma after a changed noun (or the name opening the sentence)
        rel = {"der": "die"} if d == "m2f" else {"die": "der"}
        for i in range(2, n):
            if low[i] not in (*rel, "das", "den") or not free(i) or "," not in s.gap_after(i - 1):
                continue
            j = i - 1
            if s.gap_after(j).strip() != "," or j not in plan or not _noun(toks[j]):
                continue
            new = plan[j][1][0]
            if new == low[j]:
                continue
            if j > 0 and s.joined(j - 1) and low[j - 1] in ("for", "of", "the", "and"):
                continue  # the noun ends an English name (``School for Girls, die``)
            if d == "m2f" and new in _NEUTER and low[i] in ("der", "den"):
                put(i, "das")
            elif d == "f2m" and low[j] in _NEUTER and low[i] == "das":
                put(i, "der")
            elif (
                low[i] in (*rel, "den")
                and not _plural_noun(low[j], new, d)
                and _NEUTER.isdisjoint((low[j], new))
            ):
                # (``die sie spielte`` may be "who played her" or "whom she played": ``der``;
                # the masculine accusative ``den er spielte`` is ``die sie spielte``)
                if d == "f2m" and low[i] == "die":
                    put(i, "der")
                elif d == "m2f" and low[i] in ("der", "den"):
                    put(i, "die")
            s.notes.setdefault("relative_of", {})[i] = j
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        left = s.notes.get("left", set())
        for i, j in s.notes.get("relative_of", {}).items():
            if j in left:
                left.add(i)  # the relative pronoun of a noun left as it is
        for j in left:
            plan.pop(j, None)
        for k, art in (*s.notes.get("articles", {}).items(), *s.notes.get("adjs", {}).items()):
            if k in plan and plan[k][0] == 1:
                plan[k] = (1, (art,))
        cases = s.notes.get("np_case", {})
        if d == "f2m":
            # ``, die sie spielte`` → ``, der ihn ...``: a nominative relative pronoun leaves
            # ``sie`` the object
            for i, (_ln, tgt) in plan.items():
                if (
                    tgt == ("der",)
                    and s.low[i] == "die"
                    and i > 0
                    and "," in s.gap_after(i - 1)
                    and plan.get(i + 1) == (1, ("er",))
                ):
                    plan[i + 1] = (1, ("ihn",))
            # a genitive form the tables chose (``Herzogin`` → ``Herzogs``) without a genitive
            # article before it: the nominative (``Herzogin Anna`` → ``Herzog Anna``)
            for j, (ln, tgt) in list(plan.items()):
                if j in cases or ln != 1 or len(tgt) != 1 or not _noun(s.toks[j]):
                    continue
                src, w = s.low[j], tgt[0]
                prev = _prev(s, j)
                genitive = prev in ("des", "eines", "seines")
                if src.endswith("in") and w.endswith("s") and w[:-1] == src[:-2] and not genitive:
                    plan[j] = (1, (w[:-1],))
                nom = None if is_plural(src) else masculine(src)
                if nom is not None and w != nom and w.startswith(nom) and not genitive:
                    plan[j] = (1, (nom,))  # ``Prinzessin Anna`` → ``Prinz Anna``
        for j, case in cases.items():
            if j not in plan:
                continue
            ln, tgt = plan[j]
            if j in s.notes.get("adj_nouns", {}):
                plan[j] = (ln, (s.notes["adj_nouns"][j],))
                continue
            if d == "f2m" and s.low[j] in _NEUTER:
                plan[j] = (ln, ("junge" if case == "nom" else "jungen",))
            elif d == "m2f" and tgt[0] in _NEUTER:
                plan[j] = (ln, ("mädchens" if case == "gen" else "mädchen",))
            elif d == "f2m":
                plan[j] = (ln, (_masc_oblique(_masc_nom(tgt[0]), case),))


RULES = German("de")
