"""Spanish: the noun phrase of a biography lead, rewritten whole or not at all.

``X (Sevilla, 1920-1990) fue un pintor y grabador español, conocido por ...``: after a name (or
``él``/``ella``) and the copula come ``un``/``una`` and a coordination of person nouns with their
adjectives, complements (``director de cine``) and participles (``especializado en``).
:func:`plan_lead` gives every new word of that phrase, or locks the phrase when one of its words
has no known other form (a half-rewritten lead is worse than none). Kept apart from ``es.py``:
it parses the frame of a whole sentence, where the other rules agree a word with its neighbours.
"""

from __future__ import annotations

from occbio.rewrite.languages.base import Lexicon, Sentence
from occbio.rewrite.languages.es_predicates import participle
from occbio.rewrite.languages.es_words import (
    _ADVS,
    _ARTICLES,
    _LEAD,
    _LEAD_COPULAS,
    _LEAD_END,
    _LEAD_NOT_PERSON,
    _LEAD_PREMODS,
    _LEAD_SAME,
    _LEAD_SUFFIX,
    _MODS,
    _NAME_PARTICLES,
    _NO_GUESS,
    _PP_START,
    _PP_TRANSPARENT,
    _SUBJ_DETS,
    _is_common,
)

_SAME = ""  # a lead word that stays as it is
#: nouns of both genders that head a lead but are other things elsewhere (`un modelo de`)
_LEAD_COMMON = frozenset({"militar", "militares", "noble", "nobles", "modelo", "modelos"})


def plan_lead(d: str, s: Sentence, lex: Lexicon | None) -> tuple[dict[int, str], set[int]]:
    """The noun phrase of a biography lead (`X (Sevilla, 1920-1990) fue un pintor y
    grabador español, conocido por ...`): ({position: new word}, positions of the phrase).
    A phrase that cannot be completed gives no new words and all its positions (locked:
    left as it is rather than half rewritten). Computed once per sentence."""
    got = s.notes.get("lead")
    if got is None:
        got = _find_lead(d, s, lex) if lex is not None else None
        got = got or ({}, set())
        s.notes["lead"] = got
    return got


def _find_lead(d: str, s: Sentence, lex: Lexicon):
    low, toks = s.low, s.toks
    n = len(low)
    # tokens inside brackets (`(Sevilla, 1920-1990)`) are not part of the sentence frame
    inside = []
    depth = 0
    pos = 0
    for a, _ in s.spans:
        chunk = s.text[pos:a]
        depth = max(0, depth + chunk.count("(") - chunk.count(")"))
        inside.append(depth > 0)
        pos = a
    c = next((k for k in range(min(n, 25)) if low[k] in _LEAD_COPULAS and not inside[k]), None)
    if c is None or c + 2 >= n:
        return None
    subj = [k for k in range(c) if not inside[k]]
    if subj:
        frame = "".join(s.gap_after(k) for k in subj[:-1])
        if any(ch in frame for ch in ",;:") or len(subj) > 8:
            return None
        if subj == [0] and low[0] in ("él", "ella"):
            pass
        elif not (
            toks[subj[0]][:1].isupper()
            and toks[subj[-1]][:1].isupper()
            and low[subj[0]] not in _SUBJ_DETS | _ARTICLES | _PP_START
            and all(toks[k][:1].isupper() or low[k] in _NAME_PARTICLES for k in subj)
        ):
            return None
    j = c + 1
    while j < n and low[j] in _ADVS and s.gap_after(j - 1) == " ":
        j += 1
    art = {"m2f": ("un", "una"), "f2m": ("una", "un")}[d]
    if j + 1 >= n or low[j] != art[0] or s.gap_after(j - 1) != " ":
        return None
    targets: dict[int, str] = {j: art[1]}
    span = {j}
    person = False
    k = j + 1
    failed = False
    while k < n:
        gap = s.gap_after(k - 1)
        w = low[k]
        if gap not in (" ", ", ") or not toks[k].isalpha() or toks[k][:1].isupper():
            break
        if gap == ", ":
            # an apposition (`, diputado desde 2018`) or a participle (`, conocido por`)
            if not person or not (_lead_person(d, w) or _lead_participle(d, w)):
                break
        elif w in ("y", "e"):
            nxt = low[k + 1] if k + 1 < n and s.gap_after(k) == " " else ""
            r = _lead_word(d, nxt, lex) if nxt.isalpha() else None
            if not person or r is None or (r == _SAME and not _lead_person(d, nxt)):
                if r is None and person and nxt:
                    failed = True  # `y` + a word that agrees but has no other form
                break  # `y murió en ...`: a clause, the phrase ended
            span.add(k)
            k += 1
            continue
        elif w in ("de", "del") and person:
            after, ok = _lead_pp(d, s, k, lex)
            if not ok:
                failed = True
                break
            if after == k:  # `de` + a quote, a comma or two spaces: the phrase ends here
                break
            k = after
            continue
        if w in _LEAD_END:
            break
        if not person:
            if _lead_person(d, w):
                person = True
            elif w not in _LEAD_PREMODS or k - j > 3:
                return None  # `una ciudad española`: not a person
        r = _lead_word(d, w, lex)
        if r is None:
            failed = True
            break
        span.add(k)
        if r != _SAME:
            targets[k] = r
        k += 1
        if person and _lead_participle(d, w) and not _lead_person(d, w):
            break  # `especializado en puentes`: the rest is the participle's
    if not person:
        return None
    if failed:
        return {}, span
    return targets, span


def _lead_pp(d: str, s: Sentence, k: int, lex: Lexicon) -> tuple[int, bool]:
    """Skips `de` + [article] + a noun or a name (`director de cine`, `gobernador de la
    provincia de Córdoba`) from ``k``; (next position, the phrase can go on)."""
    low, toks = s.low, s.toks
    n = len(low)
    transparent = True
    while k < n and low[k] in ("de", "del") and s.gap_after(k - 1) == " ":
        m = k + 1
        if m < n and low[m] in ("el", "la", "los", "las") and s.gap_after(m - 1) == " ":
            m += 1
        if m >= n or s.gap_after(m - 1) != " " or not toks[m].isalpha():
            return k, True
        if toks[m][:1].isupper():
            while (
                m + 1 < n
                and s.joined(m)
                and (toks[m + 1][:1].isupper() or low[m + 1] in ("de", "del"))
                and toks[m + 1].isalpha()
            ):
                m += 1
        else:
            transparent = low[m] in _PP_TRANSPARENT
        k = m + 1
    if k < n and s.gap_after(k - 1) == " " and toks[k].isalpha() and toks[k].islower():
        w = low[k]
        r = _lead_word(d, w, lex)
        if (
            r not in (None, _SAME)
            and w not in ("y", "e")
            and w not in _LEAD_END
            and not transparent
        ):
            # `profesor de derecho romano`: the noun's adjective or the person's?
            return k, False
    return k, True


def _lead_person(d: str, w: str) -> bool:
    """A noun of a person (in the source gender), as the head of a lead."""
    if w in _LEAD[d] or _is_common(w) or w in _LEAD_COMMON:
        return True
    if d == "m2f":
        ends = ("or", "ero", "ólogo", "ógrafo", "ores", "eros", "ólogos", "ógrafos")
    else:
        ends = ("ora", "era", "óloga", "ógrafa", "oras", "eras", "ólogas", "ógrafas")
    return w.endswith(ends) and len(w) > 4 and w not in _NO_GUESS | _LEAD_NOT_PERSON


def _lead_participle(d: str, w: str) -> bool:
    return participle(d, w) is not None and w.endswith(
        ("ado", "ido", "ada", "ida", "ados", "idos", "adas", "idas")
    )


def _lead_word(d: str, w: str, lex: Lexicon) -> str | None:
    """The word of a lead in the other gender: a new word, ``_SAME`` (invariable), or
    None (it agrees but its other form is unknown: the phrase cannot be completed)."""
    hit = _LEAD[d].get(w)
    if hit is not None:
        return hit
    if w in _LEAD_SAME or _is_common(w) or w in _MODS or w in _ADVS or not w.isalpha():
        return _SAME
    cands = [w[: len(w) - len(a)] + b for a, b in _LEAD_SUFFIX[d] if w.endswith(a)
             and len(w) > len(a) + 2]  # fmt: skip
    if not cands:
        return _SAME  # `civil`, `joven`, `militar`, `-ista`, `-nte`
    best = max(cands, key=lambda x: lex.zipf.get(x, 0.0))
    if lex.zipf.get(best, 0.0) >= lex.min_zipf:
        return best
    if d == "f2m":
        return _SAME  # `belga`, `poeta`, `atleta`
    if w.endswith(("o", "os", "or", "ores")) and lex.zipf.get(w, 0.0) < 3.5:
        return cands[-1]  # a rare adjective: its feminine is regular (`agrónoma`)
    return None
