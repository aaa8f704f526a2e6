"""Russian: past-tense verbs, short forms, noun phrases and person nouns follow the person.

With the optional morphological analyser ``pymorphy3`` (+ ``pymorphy3-dicts-ru``), imported
lazily:

* a past-tense verb, short adjective or short participle (``родился``, ``был``, ``доступен``,
  ``назначен``) changes only when its subject is the person: a verb whose subject is another
  word of the clause in the nominative (``который``, ``это``, ``дом``) is left alone;
* the past-tense verbs and predicates of a clause whose nominative subject changed (``он`` →
  ``она``, ``Господин`` → ``Госпожа``) follow it (``он родился`` → ``она родилась``,
  ``был назначен`` → ``была назначена``), and so do coordinated verbs and clauses without their
  own subject (``ru_clause``: ``и учился``, ``, но бросил``, ``был убит 12-летний мальчик``);
* adjectives, ordinals, ``который`` and participles agree with a changed noun, instrumental
  predicates with a changed verb (``ru_agree``: ``младшую дочь``, ``7-я``, ``была младшей``);
* words the tables miss (``ru_nouns``): feminine person nouns by suffix into the masculine
  (``чемпионка`` → ``чемпион``), pair nouns into the feminine in the case their context asks
  for (``вынудили короля`` → ``королеву``), ``мужской`` → ``женский``, ``о ней`` → ``о нем``;
* nothing inside quotes changes (titles, quotations).

Without it only the learned tables and the veto for ``который``/``это``/``что`` apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence

#: words that are the subject of the next verb, and never the person
_OTHER_SUBJECTS = frozenset("который которое которые это что оно они".split())
_PAST_M = ("л", "лся")
_PAST_F = ("ла", "лась")


@cache
def _morph():
    try:
        import pymorphy3
    except ImportError:  # optional: fewer rules without it
        return None
    try:
        return pymorphy3.MorphAnalyzer()
    except Exception:
        return None


@cache
def _parse(word: str):
    m = _morph()
    return m.parse(word) if m is not None else []


def _agreeing(word: str, gender: str) -> bool:
    """A past-tense verb, short adjective or short participle in the singular of ``gender``
    (``masc``/``femn``), by its most likely analysis."""
    ps = _parse(word)
    if not ps:
        return word.endswith(_PAST_M if gender == "masc" else _PAST_F)
    t = ps[0].tag
    if t.POS == "VERB":
        return "past" in t and gender in t and "sing" in t
    if t.POS in ("ADJS", "PRTS"):
        return gender in t and "sing" in t
    return False


@cache
def _inflect(word: str, gender: str) -> str | None:
    ps = _parse(word)
    if not ps or not _morph().word_is_known(word):
        return None
    p = ps[0]
    if p.tag.POS not in ("VERB", "ADJS", "PRTS"):
        return None
    q = p.inflect({gender})
    if q is None or q.word == word:
        return None
    new = q.word if "ё" in word else q.word.replace("ё", "е")
    return new if _morph().word_is_known(new) else None


def _nominative(word: str, strict: bool = False) -> bool:
    """A noun or pronoun in the nominative by its likeliest analysis (``strict``), or by any
    (``период`` is nominative or accusative)."""
    if word in _OTHER_SUBJECTS:
        return True
    ps = _parse(word)[:1] if strict else _parse(word)
    return any(p.tag.POS in ("NOUN", "NPRO") and "nomn" in p.tag for p in ps)


def _nominal_after(s: Sentence, i: int, gender: str) -> bool:
    """A nominative noun or adjective of ``gender`` right after token ``i`` (an adverb may come
    between): the verb's own subject (``у него был красный костюм``)."""
    k = i + 1
    while k < len(s.low) and s.joined(k - 1):
        ps = _parse(s.low[k])
        if not ps:
            return False
        t = ps[0].tag
        if t.POS == "ADVB":
            k += 1
            continue
        return t.POS in ("NOUN", "ADJF") and "nomn" in t and gender in t
    return False


def _phrase_on(s: Sentence, j: int) -> bool:
    """Tokens ``j`` and ``j + 1`` are in one clause (quotes do not end it, commas do)."""
    return j + 1 < len(s.spans) and not s.gap_after(j).strip(' «»"“”„')


def _name(s: Sentence, j: int) -> bool:
    """Token ``j`` is a name (capitalised inside the sentence, or a known first name or
    surname, or a word the analyser does not know, at its start)."""
    if not s.toks[j][:1].isupper():
        return False
    if j > 0:
        return True
    m = _morph()
    if m is None or not m.word_is_known(s.low[j]):
        return True
    return any(
        {"Name", "Surn", "Patr"} & set(str(p.tag).replace(" ", ",").split(","))
        for p in _parse(s.low[j])[:2]
    )


@dataclass
class Russian(Language):
    def _subject_before(self, s: Sentence, i: int) -> int | None:
        """The nearest nominative noun or pronoun before token ``i`` inside its clause."""
        j = i - 1
        while j >= 0 and _phrase_on(s, j):
            if _nominative(s.low[j]):
                return j
            j -= 1
        return None

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
        if _morph() is not None:
            from occbio.rewrite.languages import ru_clause, ru_nouns

            if ru_clause.clauses(s).quoted[i]:
                return False  # a title or a quotation (``«Мальчик-бар-мицва»``, ``«Я получил»``)
            if ln == 1 and len(tgt) == 1 and source != "guess":
                fixed = ru_nouns.case_mismatch(d, s, i, tgt[0])
                if fixed is not None:  # ``вынудили короля`` → ``королеву``, not ``королевы``
                    s.notes.setdefault("ru_case", {})[i] = (1, (fixed,))
                    return False
        if ln != 1:
            return True
        src_g = "femn" if d == "f2m" else "masc"
        if not _agreeing(s.low[i], src_g):
            return True
        j = self._subject_before(s, i)
        if j is None:
            if _nominal_after(s, i, src_g):
                return False
            start = i
            while start > 0 and _phrase_on(s, start - 1):
                start -= 1
            if start == 0 or "," not in s.gap_after(start - 1):
                return self._not_other(d, s, i, plan)
            # after an embedded clause (``Дом, который он построил, был продан``): the subject
            # opens the sentence
            j = next((k for k in range(start) if _nominative(s.low[k], True)), None)
            if j is None or not all(_phrase_on(s, k) for k in range(j)):
                return self._not_other(d, s, i, plan)
        if j in plan and plan[j][1][0] != s.low[j]:
            return self._not_other(d, s, i, plan)
        if s.low[j] in _OTHER_SUBJECTS:
            return False
        if _name(s, j):
            return self._not_other(d, s, i, plan)  # a name: the person
        return _morph() is None

    def _not_other(self, d: str, s: Sentence, i: int, plan: Plan) -> bool:
        """No other subject for the agreeing word ``i`` (``Была также постановка``, ``а
        другая занималась``, ``«Я получил»``)."""
        if _morph() is None:
            return True
        from occbio.rewrite.languages import ru_clause

        g = "femn" if d == "f2m" else "masc"
        cl = ru_clause.clauses(s)
        v = ru_clause.subject_after(s, i, plan, g, cl)
        if v is None:
            v = ru_clause.controller(s, i, plan, g, cl, {})
        return v is not False

    def role_form(self, d: str, s: Sentence, i: int, lex: Lexicon) -> str | None:
        """A person noun describing the named person, by its suffix in its case (``писателем``
        → ``писательницей``): both ways, where the name says whose role it is."""
        from occbio.rewrite.languages.ru_nouns import person_noun_form

        return person_noun_form(d, s, i)

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        if _morph() is None:
            return {}
        src_g, tgt_g = ("femn", "masc") if d == "f2m" else ("masc", "femn")
        low = s.low
        n = len(low)
        out: Plan = {}
        for j, (ln, tgt) in plan.items():
            if ln != 1 or len(tgt) != 1 or tgt[0] == low[j] or not _nominative(low[j], True):
                continue
            k = j + 1
            while k < n and s.joined(k - 1):
                w = low[k]
                if _nominative(w, strict=True) and k not in plan:
                    break  # another subject
                after_prep = bool(_parse(low[k - 1])) and _parse(low[k - 1])[0].tag.POS == "PREP"
                if not covered[k] and k not in out and _agreeing(w, src_g) and not after_prep:
                    new = _inflect(w, tgt_g)
                    if new is not None:
                        out[k] = (1, (new,))
                k += 1
        from occbio.rewrite.languages import ru_agree, ru_clause, ru_nouns

        rules = [ru_clause.verbs, ru_agree.noun_phrase, ru_agree.predicates]
        # words the tables miss: feminine suffixes into the masculine; pair nouns and
        # ``мужской``/``отцовский`` into the feminine (the other way round each lost precision
        # on the judging pairs)
        if d == "f2m":
            rules += [ru_nouns.person_nouns, ru_nouns.prep_pronouns]
        else:
            rules += [ru_nouns.paired_nouns, ru_nouns.sex_adjectives]
        fixes = s.notes.get("ru_case", {})
        for k, e in fixes.items():
            if not covered[k] and k not in plan:
                out.setdefault(k, e)
        for rule in rules:
            for k, e in rule(d, s, covered, {**plan, **out}).items():
                if k not in out and k not in plan and not covered[k]:
                    out[k] = e
        quoted = ru_clause.clauses(s).quoted
        return {k: e for k, e in out.items() if not quoted[k]}  # titles and quotations stay


RULES = Russian(
    "ru",
    name_copulas=frozenset("был была стал стала являлся являлась".split()),
    role_markers=(("как",),),
)
