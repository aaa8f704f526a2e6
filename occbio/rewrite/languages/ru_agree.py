"""Russian: agreement inside a noun phrase and of predicates, by the analyser's tags.

* Adjectives, participles and pronoun adjectives before a changed noun take its gender in their
  own case (``младшего сына`` → ``младшую дочь``), and so do ordinal endings (``7-й барон`` →
  ``7-я баронесса``); a relative ``который`` or a participle right after the noun and a comma
  agrees with it too (``мальчик, которого`` → ``девочка, которую``; ``женщина,
  руководствующаяся``).
* An adjective in the instrumental after a changed verb of the person (``была младшей``,
  ``финишировала четвертой``) follows the person.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.ru_clause import WHO
from occbio.rewrite.languages.ru_morph import changed, inflect, is_agreeing, parses

#: ordinal endings after a number and a hyphen (``7-й``), by gender and case
_ORD = {
    ("masc", "nomn"): "й",
    ("masc", "gent"): "го",
    ("masc", "datv"): "му",
    ("masc", "ablt"): "м",
    ("masc", "loct"): "м",
    ("femn", "nomn"): "я",
    ("femn", "gent"): "й",
    ("femn", "datv"): "й",
    ("femn", "accs"): "ю",
    ("femn", "ablt"): "й",
    ("femn", "loct"): "й",
}


def _case_of_noun(s: Sentence, plan: Plan, j: int, src: str, tgt: str):
    """(cases the old noun may be in, cases the new one may be in), singular nouns only."""
    old = [p for p in parses(s.low[j]) if p.tag.POS == "NOUN" and "sing" in p.tag]
    new = [p for p in parses(plan[j][1][0]) if p.tag.POS == "NOUN" and "sing" in p.tag]
    old = [p for p in old if src in p.tag or "ms-f" in p.tag]
    new = [p for p in new if tgt in p.tag or "ms-f" in p.tag]
    if not old or not new:
        return None
    anim = any("anim" in p.tag for p in new)
    return {p.tag.case for p in old}, {p.tag.case for p in new}, anim


def _shared(a: str, b: str) -> int:
    """Length of the common beginning of two words (``ё`` read as ``е``)."""
    n = 0
    for x, y in zip(a.replace("ё", "е"), b.replace("ё", "е"), strict=False):
        if x != y:
            break
        n += 1
    return n


def _agree_word(w: str, src: str, tgt: str, cases_old, cases_new, anim: bool = True):
    """An adjective-like ``w`` of gender ``src`` re-inflected for a noun of gender ``tgt``."""
    cands = set()
    for p in parses(w):
        t = p.tag
        if t.POS not in ("ADJF", "PRTF") or "sing" not in t or src not in t:
            continue
        c = t.case
        if c not in cases_old:
            continue
        for c2 in {c} & cases_new if c != "accs" else {"accs"} & cases_new:
            grams = {tgt, c2, "sing"}
            if c2 == "accs" and tgt == "masc":
                grams.add("anim" if anim else "inan")
            q = p.inflect(grams)
            # the same stem (not ``лучшая`` → ``наихороший``)
            if q is not None and _shared(w, q.word) >= len(w) - 4:
                cands.add(q.word if "ё" in w else q.word.replace("ё", "е"))
    return cands.pop() if len(cands) == 1 else None


def noun_phrase(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    src, tgt = ("femn", "masc") if d == "f2m" else ("masc", "femn")
    out: Plan = {}
    for j in sorted(plan):
        if not changed(plan, s, j):
            continue
        cases = _case_of_noun(s, plan, j, src, tgt)
        if cases is None:
            continue
        old_c, new_c, anim = cases
        # leftwards: adjectives, participles, pronoun adjectives, ordinal endings
        k = j - 1
        while k >= 0 and not s.gap_after(k).strip():
            w = s.low[k]
            if covered[k] or k in plan:
                if changed(plan, s, k):
                    k -= 1
                    continue
                break
            ordinal = k > 0 and s.gap_after(k - 1) == "-" and s.low[k - 1].isdigit()
            if ordinal and w in _ORD.values():
                new = next(
                    (_ORD[(tgt, c)] for c in sorted(new_c) if (tgt, c) in _ORD and
                     any(_ORD.get((src, c2)) == w for c2 in old_c)),
                    None,
                )  # fmt: skip
                if new is None:
                    break
                if new != w:
                    out[k] = (1, (new,))
                k -= 2
                continue
            new = _agree_word(w, src, tgt, old_c, new_c, anim)
            if new is None:
                if s.low[k] in ("и", "или") or (parses(w) and parses(w)[0].tag.POS == "ADVB"):
                    k -= 1
                    continue
                break
            out[k] = (1, (new,))
            k -= 1
        # rightwards: ``, который`` / ``, руководствующийся``
        if j + 1 < len(s.low) and s.gap_after(j).strip() == ",":
            k = j + 1
            w = s.low[k]
            if covered[k] or k in plan:
                continue
            if w in WHO:
                ps = [p for p in parses(w) if "sing" in p.tag and src in p.tag]
                cs = {p.tag.case for p in ps}
                c2 = next((c for c in ("nomn", "accs") if c in cs), None)
                if c2 is None and len(cs) == 1:
                    c2 = cs.pop()
                anim = {"anim"} if c2 == "accs" and tgt == "masc" else set()
                if c2 is not None:
                    q = ps[0].inflect({tgt, c2, "sing"} | anim)
                    if q is not None and q.word != w:
                        out[k] = (1, (q.word,))
            else:
                new = _agree_word(w, src, tgt, old_c, new_c, anim)
                if new is not None and parses(w)[0].tag.POS == "PRTF":
                    out[k] = (1, (new,))
    return out


def predicates(d: str, s: Sentence, covered: Sequence[bool], plan: Plan) -> Plan:
    """An adjective in the instrumental after a changed verb of the person, not before a noun
    (``была младшей из трех``, ``финишировала четвертой``)."""
    src, tgt = ("femn", "masc") if d == "f2m" else ("masc", "femn")
    out: Plan = {}
    n = len(s.low)
    for k in range(1, n):
        if covered[k] or k in plan:
            continue
        w = s.low[k]
        ps = [
            p
            for p in parses(w)
            if p.tag.POS == "ADJF" and "ablt" in p.tag and "sing" in p.tag and src in p.tag
        ]
        if not ps or "Apro" in ps[0].tag:
            continue
        # the next word is not a noun it modifies
        if k + 1 < n and not s.gap_after(k).strip():
            nxt = parses(s.low[k + 1])
            if nxt and nxt[0].tag.POS in ("NOUN", "ADJF", "PRTF"):
                continue
        j = k - 1
        while j >= 0 and not s.gap_after(j).strip():
            t = parses(s.low[j])[0].tag if parses(s.low[j]) else None
            if (t is not None and t.POS in ("ADVB", "PRCL")) or s.low[j] in ("самым", "самой"):
                j -= 1
                continue
            break
        if j < 0 or s.gap_after(j).strip() or not changed(plan, s, j):
            continue
        if not is_agreeing(s.low[j], src):
            continue
        new = inflect(w, {tgt, "ablt", "sing"}, ("ADJF",), src)
        if new is not None:
            out[k] = (1, (new,))
    return out
