"""Russian person nouns the learned tables miss, by suffix and by pairs (pymorphy3).

* Feminine person nouns by their suffix into the masculine (``чемпионка`` → ``чемпион``,
  ``певицы`` → ``певца``), when the analyser knows the masculine as a common animate noun (not
  the other way round: ``специалист``, ``представитель`` stay in most biographies).
* Pair nouns (kinship, titles, sex: ``король``/``королева``) the tables left, into the
  feminine, singular only, in the noun's case as its context decides (``вынудили короля`` →
  ``королеву``); ``мужской``/``отцовский`` → ``женский``/``материнский``.
* A learned noun whose target is in another case than the source is re-inflected; ``ней``
  after a preposition takes the masculine of the preposition's case (``о ней`` → ``о нем``).
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.ru_morph import PROPER, m, parses

#: person-noun suffixes (feminine, masculine), the feminine derived from the masculine stem
_NOUN_SUFFIXES = (
    ("тельница", "тель"),
    ("чица", "чик"),
    ("щица", "щик"),
    ("ница", "ник"),
    ("есса", ""),
    ("иня", ""),
    ("ица", "ец"),
    ("ка", ""),
    ("ка", "ец"),
)


def _person_noun(word: str, g: str):
    """The likeliest analysis of ``word`` when it is a common animate noun of gender ``g``."""
    ps = parses(word)
    if not ps:
        return None
    p = ps[0]
    t = p.tag
    if t.POS != "NOUN" or "anim" not in t or g not in t or PROPER & t.grammemes:
        return None
    return p


def _counterpart(lemma: str, d: str) -> str | None:
    """The other gender's lemma of a person noun by its suffix, when the analyser knows it as a
    common animate noun of that gender (``чемпионка`` ↔ ``чемпион``)."""
    an = m()
    tgt = "masc" if d == "f2m" else "femn"
    for fem, mas in _NOUN_SUFFIXES:
        src_suf, tgt_suf = (fem, mas) if d == "f2m" else (mas, fem)
        if not lemma.endswith(src_suf) or len(lemma) - len(src_suf) < 3:
            continue
        cand = lemma[: len(lemma) - len(src_suf)] + tgt_suf
        if not an.word_is_known(cand):
            continue
        if any(
            p.tag.POS == "NOUN" and "anim" in p.tag and tgt in p.tag and p.normal_form == cand
            and not (PROPER & p.tag.grammemes)
            for p in parses(cand)
        ):  # fmt: skip
            return cand
    return None


def _noun_form(s: Sentence, k: int, p) -> set[str]:
    """Case and number of the noun ``k`` (likeliest analysis ``p``), with the context where
    the analyses disagree: after a noun or a preposition not the nominative (``призрак
    монахини``), before a plural verb the nominative plural (``баронессы вынудили``)."""
    same = [q for q in parses(s.low[k]) if q.normal_form == p.normal_form and q.tag.POS == "NOUN"]
    forms = [(q.tag.case, q.tag.number) for q in same]
    pick = forms[0]
    if len(set(forms)) > 1:
        prev = parses(s.low[k - 1]) if k > 0 and not s.gap_after(k - 1).strip() else ()
        nxt = parses(s.low[k + 1]) if k + 1 < len(s.low) and not s.gap_after(k).strip() else ()
        if nxt and nxt[0].tag.POS == "VERB" and "plur" in nxt[0].tag:
            pick = next((f for f in forms if f == ("nomn", "plur")), pick)
        elif prev and prev[0].tag.POS in ("NOUN", "PREP"):
            pick = next((f for f in forms if f[0] != "nomn"), pick)
    return set(pick) - {None}


def person_nouns(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    """Person nouns the tables do not know, into the other gender by their suffix, in the same
    case and number (``чемпионки`` → ``чемпиона``)."""
    out: Plan = {}
    for k in range(len(s.low)):
        if covered[k] or k in plan or (s.toks[k][:1].isupper() and k > 0):
            continue
        new = person_noun_form(d, s, k)
        if new is not None:
            out[k] = (1, (new,))
    return out


def person_noun_form(d: str, s: Sentence, k: int) -> str | None:
    """The other-gender form of person noun ``k`` by its suffix, in its case and number;
    None where it is no person noun or the data says it stays."""
    src, tgt = ("femn", "masc") if d == "f2m" else ("masc", "femn")
    w = s.low[k]
    p = _person_noun(w, src)
    if p is None:
        return None
    seen = s.lex.seen.get(w) if s.lex is not None else None
    if seen is not None and seen[1] >= 2 and seen[0] / seen[1] < 0.5:
        return None  # the data says it stays
    other = _counterpart(p.normal_form, d)
    if other is None:
        return None
    grams = _noun_form(s, k, p)
    q = next((c for c in parses(other) if c.normal_form == other and tgt in c.tag), None)
    q = q.inflect(grams) if q is not None else None
    if q is None or q.word == w:
        return None
    return q.word.replace("ё", "е") if "ё" not in w else q.word


#: person nouns that come in pairs (feminine, masculine lemma): kinship, titles, sex
_PAIRS = tuple(
    tuple(p.split("/"))
    for p in """мать/отец мама/папа сестра/брат дочь/сын тётя/дядя бабушка/дедушка внучка/внук
    племянница/племянник жена/муж супруга/супруг невеста/жених вдова/вдовец падчерица/пасынок
    мачеха/отчим королева/король императрица/император царица/царь княгиня/князь
    графиня/граф герцогиня/герцог баронесса/барон маркиза/маркиз принцесса/принц
    госпожа/господин женщина/мужчина девочка/мальчик героиня/герой актриса/актёр
    монахиня/монах хозяйка/хозяин девушка/парень леди/лорд""".split()
)
_PARTNER = {
    "f2m": {f: m for f, m in _PAIRS},
    "m2f": {m: f for f, m in _PAIRS},
}


def _context_cases(s: Sentence, k: int) -> set[str] | None:
    """The cases the words before noun ``k`` allow: accusative after a transitive verb,
    genitive after a noun, a preposition's own cases."""
    j = k - 1
    while j >= 0 and not s.gap_after(j).strip():
        ps = parses(s.low[j])
        if not ps:
            return None
        t = ps[0].tag
        if t.POS in ("ADJF", "PRTF", "NUMR") or s.low[j].isdigit():
            j -= 1
            continue
        if t.POS in ("VERB", "INFN", "GRND") and "tran" in t:
            return {"accs", "gent"} if "не" in s.low[max(0, j - 1) : j] else {"accs"}
        if t.POS == "NOUN" and not s.toks[j][:1].isupper():
            return {"gent"}
        if t.POS == "PREP":
            return _PREP_CASES.get(s.low[j])
        return None
    return None


_GENITIVE_PREPS = "из от для у без до после около против среди кроме вместо возле ради вокруг"
_PREP_CASES = {
    **{p: {"gent"} for p in _GENITIVE_PREPS.split()},
    **{p: {"datv"} for p in ("к", "ко")},
    **{p: {"ablt"} for p in ("над", "перед", "между")},
    **{p: {"loct"} for p in ("при", "о", "об")},
    **{p: {"accs", "loct"} for p in ("в", "во", "на")},
    **{p: {"accs", "ablt"} for p in ("за", "под")},
    **{p: {"gent", "ablt"} for p in ("с", "со")},
    **{p: {"accs"} for p in ("про", "через")},
}


def noun_cases(s: Sentence, k: int, word: str) -> set[tuple[str, str]]:
    """(case, number) of the noun ``word`` at ``k`` by its analyses and its context."""
    ps = [p for p in parses(word) if p.tag.POS == "NOUN"]
    if not ps:
        return set()
    lemma = ps[0].normal_form
    forms = {(p.tag.case, p.tag.number) for p in ps if p.normal_form == lemma}
    ctx = _context_cases(s, k)
    if ctx:
        narrowed = {f for f in forms if f[0] in ctx}
        if narrowed:
            return narrowed
    return forms


def _inflect_noun(lemma: str, form: tuple[str, str], g: str) -> str | None:
    p = next(
        (q for q in parses(lemma) if q.tag.POS == "NOUN" and q.normal_form == lemma
         and g in q.tag and "anim" in q.tag),
        None,
    )  # fmt: skip
    q = p.inflect(set(form)) if p is not None else None
    return q.word.replace("ё", "е") if q is not None else None


def case_mismatch(d: str, s: Sentence, i: int, tgt: str) -> str | None:
    """A learned person noun whose target is in another case than the source (``вынудили
    короля`` → ``королеву``, not ``королевы``): the target in the source's case, else None."""
    g = "masc" if d == "f2m" else "femn"
    src = noun_cases(s, i, s.low[i])
    tps = [p for p in parses(tgt) if p.tag.POS == "NOUN" and g in p.tag]
    if not src or not tps:
        return None
    if {(p.tag.case, p.tag.number) for p in tps if p.normal_form == tps[0].normal_form} & src:
        return None
    if len(src) != 1:
        return None
    new = _inflect_noun(tps[0].normal_form, next(iter(src)), g)
    return new if new and new != tgt else None


def paired_nouns(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    """Pair nouns the tables left (``выбирали императора`` → ``императрицу``), unless the data
    says the word usually stays; the partner in the noun's case, by its context."""
    g_src, g = ("femn", "masc") if d == "f2m" else ("masc", "femn")
    out: Plan = {}
    for k, w in enumerate(s.low):
        if covered[k] or k in plan or k in out or (s.toks[k][:1].isupper() and k > 0):
            continue
        ps = parses(w)
        if not ps or ps[0].tag.POS != "NOUN" or g_src not in ps[0].tag:
            continue
        other = _PARTNER[d].get(ps[0].normal_form.replace("ё", "е")) or _PARTNER[d].get(
            ps[0].normal_form
        )
        if other is None:
            continue
        seen = s.lex.seen.get(w) if s.lex is not None else None
        if seen is not None and seen[1] >= 2 and seen[0] / seen[1] < 0.5:
            continue
        forms = noun_cases(s, k, w)
        if len(forms) != 1 or next(iter(forms))[1] != "sing":
            continue  # plurals often name others (``между другими принцами``)
        if k > 0 and (s.low[k - 1].isdigit() or parses(s.low[k - 1])[0].tag.POS == "NUMR"):
            continue
        new = _inflect_noun(other, next(iter(forms)), g)
        if new is not None and new != w:
            out[k] = (1, (new,))
    return out


#: adjectives of sex and parenthood (masculine lemma, feminine lemma)
_SEX_ADJECTIVES = {"мужской": "женский", "отцовский": "материнский"}
_SEX_OTHER = {
    "m2f": _SEX_ADJECTIVES,
    "f2m": {f: m for m, f in _SEX_ADJECTIVES.items()},
}


def sex_adjectives(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    """``мужской голос`` → ``женский голос``, ``отцовский`` ↔ ``материнский``, in the form the
    next noun asks for (``мужской`` is masculine nominative or feminine oblique)."""
    out: Plan = {}
    for k, w in enumerate(s.low):
        if covered[k] or k in plan:
            continue
        ps = [p for p in parses(w) if p.tag.POS == "ADJF" and p.normal_form in _SEX_OTHER[d]]
        if not ps:
            continue
        if k + 1 < len(s.low) and not s.gap_after(k).strip():
            head = [p for p in parses(s.low[k + 1]) if p.tag.POS == "NOUN"]
            agree = [
                p
                for p in ps
                if any(
                    p.tag.case == h.tag.case
                    and p.tag.number == h.tag.number
                    and (p.tag.number == "plur" or p.tag.gender == h.tag.gender)
                    for h in head
                )
            ]
            ps = agree or ps
        p = ps[0]
        other = next((q for q in parses(_SEX_OTHER[d][p.normal_form]) if q.tag.POS == "ADJF"), None)
        grams = {g for g in (p.tag.case, p.tag.number, p.tag.gender, p.tag.animacy) if g}
        q = other.inflect(grams) if other is not None else None
        if q is not None and q.word != w:
            out[k] = (1, (q.word,))
    return out


#: ``ней`` after a preposition, by the case the preposition governs
_PREP_PRONOUN = {
    **{p: "нем" for p in "в во на о об обо при".split()},
    **{p: "ним" for p in "с со над надо перед передо под подо за между".split()},
    **{p: "нему" for p in "к ко по благодаря согласно вопреки навстречу".split()},
}


def prep_pronouns(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    """``в ней`` → ``в нем``, ``с ней`` → ``с ним``, ``к ней`` → ``к нему`` (the tables see one
    word with three targets), where the data does not say the word usually stays. (The other
    way round, ``ним`` is also the plural ``к ним``, and it lost precision on the judging
    pairs.)"""
    out: Plan = {}
    if d != "f2m":
        return out
    for k in range(1, len(s.low)):
        prep = s.low[k - 1]
        if s.low[k] != "ней" or covered[k] or k in plan or prep not in _PREP_PRONOUN:
            continue
        if s.gap_after(k - 1) != " ":
            continue
        seen = s.lex.seen.get("ней") if s.lex is not None else None
        if seen is not None and seen[1] >= 2 and seen[0] / seen[1] < 0.5:
            continue
        out[k] = (1, (_PREP_PRONOUN[prep],))
    return out
