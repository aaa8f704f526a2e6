"""Catalan: no counterfactual data, so a hand-written word list and the Romance suffixes.

This module holds the rules (the ``Language`` subclass, ``RULES`` and the biography lead, which
changes whole or not at all); the word lists they read are in ``ca_words``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.ca_words import (
    _CA_ARTICLES,
    _CA_AUX,
    _CA_COMMON,
    _CA_DEPENDENT,
    _CA_GENDER_FORMS,
    _CA_GENDER_SLOT,
    _CA_GENDER_SWAP,
    _CA_LEAD,
    _CA_LEAD_COPULAS,
    _CA_LEAD_END,
    _CA_LEAD_SUFFIX,
    _CA_MATEIX,
    _CA_NAME_PARTICLES,
    _CA_PAIRS,
    _CA_PERSON_VERB,
    _CA_PP_TRANSPARENT,
    _CA_PREMODS,
)

_CA_SAME = ""


#: words whose other sense is the common one (`la música` is music, `la seva mort` his death):
#: never changed on their own; the lead rule and agreement still reach the person's
_CA_OTHER_SENSE = frozenset({"música", "política", "mort"})

#: a preposition before a changed article contracts with it (`de la reina` → `del rei`)
_CA_CONTRACTIONS = {
    ("de", "el"): "del", ("a", "el"): "al", ("per", "el"): "pel",
    ("de", "els"): "dels", ("a", "els"): "als", ("per", "els"): "pels",
}  # fmt: skip


@dataclass
class Catalan(Language):
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        out = {}
        for m, f in _CA_PAIRS:
            src, tgt = (f, m) if d == "f2m" else (m, f)
            if src == tgt or src in _CA_OTHER_SENSE:
                continue
            ctx = "next" if src in _CA_DEPENDENT else "free"
            out[src] = (ctx, tgt)
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        merge_contractions(s, plan, _CA_CONTRACTIONS)

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        if not super().after_copula(low, i):
            return False
        c = i - 1 if low[i - 1] in self.copulas else i - 2
        # `el llibre va ser publicat`: an article + noun subject is a thing as often as not
        return not (c >= 2 and low[c - 2] in _CA_ARTICLES)

    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low = s.low
        n = len(low)
        src, tgt = ("la", "el") if d == "f2m" else ("el", "la")
        out: Plan = {}
        lead, locked = _plan_lead(d, s, lex)
        for i, word in lead.items():
            if not covered[i] and word != low[i]:
                out[i] = (1, (word,))
        covered = [c or i in locked for i, c in enumerate(covered)]
        for i in range(n - 1):
            if covered[i]:
                continue
            clitic = low[i] == src and s.gap_after(i) == " " and low[i + 1] in _CA_AUX
            if clitic and i + 2 < n and _CA_PERSON_VERB.match(low[i + 2]):
                out[i] = (1, (tgt,))
        # enclitic: `nomenar-lo` / `nomenar-la`
        e_src, e_tgt = ("la", "lo") if d == "f2m" else ("lo", "la")
        for i in range(1, n):
            if covered[i] or low[i] != e_src or s.gap_after(i - 1) != "-":
                continue
            if _CA_PERSON_VERB.match(low[i - 1]):
                out[i] = (1, (e_tgt,))
        swap = _CA_GENDER_SWAP[d]
        for i in range(n):
            slot = _CA_GENDER_SLOT.get(low[i])
            if covered[i] or slot is None or slot[0] not in swap:
                continue
            k = slot[1]
            if i > 0 and covered[i - 1] and s.joined(i - 1):
                k = (k & 2) | (1 if d == "m2f" else 0)  # agree with the changed noun
            out[i] = (1, (_CA_GENDER_FORMS[swap[slot[0]]][k],))
        # `ell mateix` → `ella mateixa` (the pronoun changed)
        mateix = _CA_MATEIX[d]
        for i in range(1, n):
            after_pronoun = low[i - 1] in ("ell", "ella") and covered[i - 1]
            if not covered[i] and low[i] in mateix and after_pronoun:
                out[i] = (1, (mateix[low[i]],))
        return out


# --------------------------------------------------------------------------- biography leads
def _plan_lead(d: str, s: Sentence, lex: Lexicon | None) -> tuple[dict[int, str], set[int]]:
    got = s.notes.get("lead")
    if got is None:
        got = (_find_lead(d, s, lex) if lex is not None else None) or ({}, set())
        s.notes["lead"] = got
    return got


def _find_lead(d: str, s: Sentence, lex: Lexicon):
    """`va ser un enginyer civil francès especialitzat en ...`: ({position: new word},
    positions of the phrase); a phrase that cannot be completed gives no new words."""
    low, toks = s.low, s.toks
    n = len(low)
    inside = []
    depth = pos = 0
    for a, _ in s.spans:
        chunk = s.text[pos:a]
        depth = max(0, depth + chunk.count("(") - chunk.count(")"))
        inside.append(depth > 0)
        pos = a
    c = None
    for k in range(min(n - 1, 25)):
        if inside[k]:
            continue
        if low[k] in _CA_LEAD_COPULAS or (low[k] == "va" and low[k + 1] == "ser"):
            c = k if low[k] != "va" else k + 1
            break
    if c is None or c + 2 >= n:
        return None
    first = c - 1 if low[c] == "ser" else c
    subj = [k for k in range(first) if not inside[k]]
    if subj:
        frame = "".join(s.gap_after(k) for k in subj[:-1])
        if any(ch in frame for ch in ",;:") or len(subj) > 8:
            return None
        if not (subj == [0] and low[0] in ("ell", "ella")) and not (
            toks[subj[0]][:1].isupper()
            and toks[subj[-1]][:1].isupper()
            and low[subj[0]] not in _CA_ARTICLES
            and all(toks[k][:1].isupper() or low[k] in _CA_NAME_PARTICLES for k in subj)
        ):
            return None
    j = c + 1
    art = ("un", "una") if d == "m2f" else ("una", "un")
    if low[j] != art[0] or s.gap_after(j - 1) != " ":
        return None
    targets = {j: art[1]}
    span = {j}
    person = False
    k = j + 1
    while k < n:
        gap = s.gap_after(k - 1)
        w = low[k]
        if gap not in (" ", ", ") or not toks[k].isalpha() or toks[k][:1].isupper():
            break
        if gap == ", ":
            if not person or not (_lead_person(d, w) or _participle(w)):
                break
        elif w == "i":
            nxt = low[k + 1] if k + 1 < n and s.gap_after(k) == " " else ""
            r = _lead_word(d, nxt, lex) if nxt.isalpha() else None
            if not person or r is None or (r == _CA_SAME and not _lead_person(d, nxt)):
                if r is None and person and nxt:
                    return {}, span
                break
            span.add(k)
            k += 1
            continue
        elif w in ("de", "del") and person:
            m = k + 1
            if m < n and low[m] in ("el", "la", "els", "les"):
                m += 1
            if m >= n or not toks[m].isalpha() or s.gap_after(m - 1) != " ":
                break
            transparent = toks[m][:1].isupper() or low[m] in _CA_PP_TRANSPARENT
            k = m + 1
            if k < n and s.gap_after(k - 1) == " " and toks[k].isalpha() and not transparent:
                nw = low[k]
                if nw not in ("i", "de", "del") and nw not in _CA_LEAD_END:
                    return {}, span  # `professor d'història medieval`: whose adjective?
            continue
        if w in _CA_LEAD_END:
            break
        if not person:
            if _lead_person(d, w):
                person = True
            elif w not in _CA_PREMODS or k - j > 3:
                return None
        r = _lead_word(d, w, lex)
        if r is None:
            return {}, span
        span.add(k)
        if r != _CA_SAME:
            targets[k] = r
        k += 1
        if person and _participle(w) and not _lead_person(d, w):
            break
    return (targets, span) if person else None


def _participle(w: str) -> bool:
    return w.endswith(("at", "ada", "it", "ida", "ut", "uda", "ats", "ades", "its", "ides"))


def _lead_person(d: str, w: str) -> bool:
    if w in _CA_LEAD[d] or w in _CA_COMMON or w.endswith("ista"):
        return True
    ends = ("or", "er", "òleg", "ògraf") if d == "m2f" else ("ora", "era", "òloga", "ògrafa")
    return w.endswith(ends) and len(w) > 4


def _lead_word(d: str, w: str, lex: Lexicon) -> str | None:
    """The word in the other gender, ``_CA_SAME`` or None (no known other form)."""
    hit = _CA_LEAD[d].get(w)
    if hit is not None:
        return hit
    if w in _CA_COMMON or w.endswith("ista") or not w.isalpha():
        return _CA_SAME
    pairs = _CA_LEAD_SUFFIX if d == "m2f" else tuple((b, a) for a, b in _CA_LEAD_SUFFIX)
    cands = [w[: len(w) - len(a)] + b for a, b in pairs if w.endswith(a) and len(w) > len(a) + 2]
    if not cands:
        return _CA_SAME  # `civil`, `militar`, `professional`
    best = max(cands, key=lambda x: lex.zipf.get(x, 0.0))
    if lex.zipf.get(best, 0.0) >= lex.min_zipf:
        return best
    if d == "f2m" or w.endswith(("e", "er", "ol", "al")):
        return _CA_SAME  # `belga`, `jove`, `lliure`
    return None


RULES = Catalan(
    "ca",
    suffixes=[
        ("ores", "ors"),
        ("ora", "or"),
        ("ades", "ats"),
        ("ada", "at"),
        ("udes", "uts"),
        ("uda", "ut"),
        ("ides", "its"),
        ("ida", "it"),
        ("es", "os"),
        ("a", "o"),
    ],
    copulas=frozenset({"va", "era", "és", "estat", "fou", "estava", "sent"}),
    participle_endings=("at", "ada", "it", "ida", "ut", "uda"),
    copula_bridge=frozenset({"ser", "ha"}),
    role_markers=(("com", "a"), ("com",)),
)
