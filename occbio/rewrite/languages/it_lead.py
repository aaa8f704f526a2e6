"""Italian: predicates of the person after a copula, the shape of a biography's lead sentence.

``X è stato un pittore e incisore italiano, deputato dal 2018.`` When the subject of the
copula is the person (``it_subject.py``), its participles (``stato``), a predicate word
(``nominato``), or a noun phrase (``un``/``il``/``uno dei`` + person noun) agree, with what
follows the head: adjectives, coordinated nouns, appositions after a comma. A coordinated or
apposed person word with no known form sets ``s.notes["abort"]`` and the sentence stays as it
is: half a lead rewritten is worse than none. Word forms come from ``it_forms.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence
from occbio.rewrite.languages.it_articles import ART_PREPS, CLOSED, agree_determiner
from occbio.rewrite.languages.it_forms import (
    agree_form,
    apposition_head,
    invariable_adj,
    lead_form,
    plural_form,
    predicate_form,
    same_for_both,
)
from occbio.rewrite.languages.it_subject import (
    is_adverb,
    person_is_agent,
    person_is_subject,
    subject_follows,
)
from occbio.rewrite.languages.it_things import overt_subject, person_head
from occbio.rewrite.languages.it_words import (
    _COPULA,
    _COPULA_PART,
    _COPULA_PART_F,
    _GROUP_ADJ,
    _GROUP_ADJ_F,
    _INDEFINITE,
    _INVARIANT_ADJ,
    _INVARIANT_NOUNS,
    _NOT_PREDICATE,
    _NOUN_SWAP,
    _NP_FOLLOW,
    _NUMBERS,
    _ORDINAL_PLURALS,
    _ORDINAL_SWAP,
    _PART_ENDINGS,
    _PERSON_PRON,
    _PERSONISH,
    _PLURAL_PERSON,
    _PRENOMINAL,
    _PRON_NEXT,
    _SPORTS,
)


def agree_predicates(
    lang: Language, d: str, s: Sentence, covered: Sequence[bool], lex: Lexicon, out: Plan
) -> None:
    """The predicate after each copula whose subject is the person, into ``out``."""
    n = len(s.low)
    parts = _COPULA_PART if d == "m2f" else _COPULA_PART_F
    for k in range(n - 1):
        if s.low[k] not in _COPULA or not person_is_subject(s, covered, k):
            continue
        found: Plan = {}
        ok = False
        j = k + 1
        while j < n:
            w = s.low[j]
            if s.gap_after(j - 1).strip(" "):
                break
            if is_adverb(w):
                j += 1
                continue
            if (w in _NUMBERS or w == "una") and j + 1 < n and s.low[j + 1] == "volte":
                j += 2  # `è stato tre volte campione`
                continue
            if w in parts:
                if not covered[j]:
                    found[j] = (1, (parts[w],))
                j += 1
                continue
            if covered[j] and w.endswith(_PART_ENDINGS) and j + 1 < n and s.joined(j):
                ok = True  # `è considerato uno dei`, `fu nominato direttore`
                j += 1
                continue
            if covered[j] or w in CLOSED:
                ok = True  # a changed word, or a noun phrase: `è stato un attore`
                if w in CLOSED:
                    _predicate_np(lang, d, s, covered, lex, j, found)
                    if w in _INDEFINITE and not covered[j] and all(x < j for x in found):
                        ok = person_head(s, covered, j) or overt_subject(s, covered, k)
                else:
                    _np_tail(lang, d, s, covered, lex, j, found)
                break
            cand = predicate_form(lang, d, s, lex, j)
            if cand and (subject_follows(s, j) or person_is_agent(s, covered, j)):
                break  # `fu eretto un monumento`, `fu donata dalla baronessa`
            if cand:
                ok = True
                found[j] = (1, (cand,))
                _np_tail(lang, d, s, covered, lex, j, found)
            elif found and same_for_both(w) and not s.toks[j][:1].isupper():
                ok = True  # `è stato docente`: a noun of both genders, its participle agrees
            elif found and k > 0 and s.joined(k - 1) and s.low[k - 1] in _PERSON_PRON:
                ok = True  # `Egli era già stato baronetto`: the person's participle agrees
            break
        if ok and not s.notes.get("abort"):
            out.update(found)


def _person_word(lang, d, s, covered, lex, x, found) -> bool | None:
    """A noun or adjective of the person inside a predicate (head, coordinated, or in
    apposition): True when it is settled (changed, or the same for both genders), False
    when it is no person word, None when it looks gendered but has no known form."""
    w = s.low[x]
    if covered[x] or x in found:
        return True
    if s.toks[x][:1].isupper() or not w.isalpha() or w in CLOSED or w in _NOT_PREDICATE:
        return False
    new = _NOUN_SWAP[d].get(w) or lead_form(lang, d, s, lex, x, strong=True)
    if new:
        found[x] = (1, (new,))
        return True
    if w in _INVARIANT_NOUNS:
        return False  # `e membro fondatore`: what follows agrees with `membro`
    if same_for_both(w, loose=True):
        s.notes.setdefault("person", set()).add(x)
        return True
    if w.endswith(("o", "a", "ore", "trice", "essa")) and lex.zipf.get(w, 0.0) >= 2.0:
        return None
    return False


def _np_tail(lang, d, s, covered, lex, x, found) -> None:
    """After the head ``x`` of a predicate of the person: postnominal adjectives and
    participles (`un ingegnere civile francese specializzato nei ponti`), coordinated nouns
    (`un pittore e incisore italiano`), appositions after a comma (`, deputato dal 2018`,
    `, noto per`). A coordinated or apposed person word with no known form makes the whole
    sentence stay as it is (`s.notes["abort"]`): half a lead rewritten is worse than none."""
    n = len(s.low)
    y = x + 1
    while y < n:
        gap = s.gap_after(y - 1)
        w = s.low[y]
        if gap == " " or (gap == "" and s.low[y - 1].endswith(("'", "’"))):
            if w in ("e", "ed") and y + 1 < n and s.gap_after(y) == " ":
                r = _person_word(lang, d, s, s.covered, lex, y + 1, found)
                if r is None:
                    s.notes["abort"] = True
                    return
                if not r:
                    return
                y += 2
                continue
            if is_adverb(w) and w not in ("non", "più"):
                y += 1
                continue
            if s.covered[y] or w in _INVARIANT_ADJ or invariable_adj(w):
                y += 1
                continue
            if w in ("di", "d'") and y + 1 < n and s.low[y + 1] in _SPORTS and s.joined(y):
                y += 2  # `allenatore di calcio italiano`
                continue
            if w in CLOSED or w in _NP_FOLLOW or w in _NOT_PREDICATE:
                return
            cand = lead_form(lang, d, s, lex, y)
            if cand is None:
                return
            found[y] = (1, (cand,))
            y += 1
            continue
        if gap == ", ":
            if not apposition_head(w) and w not in _NOUN_SWAP[d]:
                return
            r = _person_word(lang, d, s, s.covered, lex, y, found)
            if r is None:
                s.notes["abort"] = True
                return
            if not r:
                return
            y += 1
            continue
        return


def _predicate_np(lang, d, s, covered, lex, j, found) -> None:
    """A noun phrase after a copula whose subject is the person: `era uno dei primi` →
    `una delle prime`, `era un delegato` → `una delegata`, `è una fan` → `un fan`, and
    what follows its head (`_np_tail`)."""
    n = len(s.low)
    w = s.low[j]
    if j + 1 >= n or not s.joined(j):
        return
    if covered[j]:  # a determiner already agreed: its changed noun heads the predicate
        x = j + 1
        while x < n - 1 and s.low[x] in _INVARIANT_ADJ and s.joined(x):
            x += 1
        if covered[x] and s.low[x] not in CLOSED:
            _np_tail(lang, d, s, covered, lex, x, found)
        return
    indef = ("un", "uno") if d == "m2f" else ("una", "un'", "un’")
    if w in (("il", "lo", "l'", "l’") if d == "m2f" else ("la", "l'", "l’")):
        _definite_np(lang, d, s, covered, lex, j, found)
        return
    if w not in indef:
        return
    nxt = s.low[j + 1]
    if nxt in _PRON_NEXT or nxt in ART_PREPS:  # `uno dei primi`, `una delle`
        _one_of(d, s, covered, lex, j, found)
        return
    x = j + 1
    while (
        x < n - 1
        and s.joined(x)
        and (
            s.low[x] in _INVARIANT_ADJ
            or (
                invariable_adj(s.low[x])
                and s.low[x + 1].isalpha()
                and s.low[x + 1] not in _NP_FOLLOW
            )
        )
    ):  # `un importante ex maestro`: adjectives of one form before the noun
        x += 1
    if not s.joined(x - 1) or s.toks[x][:1].isupper():
        return
    if covered[x]:
        _np_tail(lang, d, s, covered, lex, x, found)
        return
    drop = 2.5 if s.low[x].endswith(_PERSONISH) else 1.5  # `avvocata` is rarer than `avvocato`
    cand = _NOUN_SWAP[d].get(s.low[x]) or predicate_form(
        lang, d, s, lex, x, drop=drop, regular=False
    )
    if cand and d == "m2f" and cand.endswith("a") and lex.zipf.get(cand + "re", 0.0) >= 3.0:
        cand = None  # `un voto` is no `una vota` (a form of `votare`)
    if (
        cand
        and d == "f2m"
        and s.low[x] not in _NOUN_SWAP[d]
        and lex.zipf.get(cand, 0.0) < lex.zipf.get(s.low[x], 0.0) - 0.3
    ):
        # a person's masculine is about as frequent as the feminine or more (`una cuoca`,
        # `una modella`); a thing's `-o` form is another, rarer word (`una sorpresa`, `una
        # vittoria`)
        cand = None
    if cand and s.low[x].endswith(("rso", "sso")) and s.low[x] not in _NOUN_SWAP[d]:
        cand = None  # `un percorso`, `un successo`: the noun of a participle, a thing
    if cand is None and same_for_both(s.low[x]):
        cand = s.low[x]  # the same noun for both genders: its article agrees
        s.notes.setdefault("person", set()).add(x)
    if cand is None and _person_follows(d, s, covered, x):
        cand = lead_form(lang, d, s, lex, x, strong=True)  # `un drammaturgo e scrittore`
    if cand is None:
        return
    if x + 1 < n and s.joined(x):
        after = s.low[x + 1]
        if (
            after.isalpha()
            and after not in _NP_FOLLOW
            and not invariable_adj(after)
            and not is_adverb(after)
            and (
                not lang.morph_candidates(d, after)
                or (s.low[x][:-1] in _PRENOMINAL and agree_form(lang, d, lex, after) is None)
            )
        ):
            return  # `un ampio termine`, `una buona giornata`: the head noun is the next word
    found[x] = (1, (cand,))
    _np_tail(lang, d, s, covered, lex, x, found)


def _person_follows(d, s, covered, x) -> bool:
    """A person noun coordinated with word ``x`` (`drammaturgo e scrittore`)."""
    n = len(s.low)
    y = x + 2 if x + 1 < n and s.low[x + 1] in ("e", "ed") else x + 1
    if y >= n or (y == x + 1 and s.gap_after(x) != ", "):
        return False
    w = s.low[y]
    return (covered[y] and w not in CLOSED) or w in _NOUN_SWAP[d] or w.endswith(("tore", "trice"))


def _definite_np(lang, d, s, covered, lex, j, found) -> None:
    """`è stato il primo sindaco` → `è stata la prima sindaca`: a definite predicate of
    the person only with an ordinal, an agent noun (`il proprietario`, `il fondatore`) or a
    noun of the hand list (not `il motivo`)."""
    n = len(s.low)
    x = j + 1
    if s.low[x] in ("più", "meno") and x + 1 < n and s.joined(x):
        # a superlative with no noun: `è il più piccolo di quattro figli`
        y = x + 1
        after = s.low[y + 1] if y + 1 < n and s.joined(y) else ""
        if after in ("", "di", "d'", "tra", "fra") or after.startswith(("de", "tra")):
            cand = predicate_form(lang, d, s, lex, y, trust=True)
            if cand:
                found[y] = (1, (cand,))
        return
    ordinal = False
    while (
        x < n - 1
        and s.joined(x - 1)
        and (s.low[x] in _INVARIANT_ADJ or s.low[x] in _ORDINAL_SWAP[d])
    ):
        ordinal = ordinal or s.low[x] in _ORDINAL_SWAP[d]
        x += 1
    if x >= n or not s.joined(x - 1) or s.toks[x][:1].isupper() or covered[x]:
        return
    w = s.low[x]
    cand = _NOUN_SWAP[d].get(w)
    agent = w.endswith(("tore", "trice", "ario", "aria", "iere", "iera"))
    if cand is None and (ordinal or agent) and not same_for_both(w):
        # `il primo sindaco`, `il proprietario`: a noun naming what the person is
        cand = lead_form(lang, d, s, lex, x, strong=ordinal)
    if cand is None:
        return
    found[x] = (1, (cand,))
    _np_tail(lang, d, s, covered, lex, x, found)


def _one_of(d, s, covered, lex, j, found) -> None:
    """`uno dei primi a` → `una delle prime a` (the group is the person's), `uno dei
    fondatori` → `una delle fondatrici`; `uno dei comandanti` stays (a mixed group)."""
    n = len(s.low)
    nxt = s.low[j + 1]
    pron = "una" if d == "m2f" else "uno"
    if j + 3 < n and nxt in ART_PREPS and s.low[j + 3] == "a":
        adj = s.low[j + 2]
        table = _GROUP_ADJ if d == "m2f" else _GROUP_ADJ_F
        if adj in table and s.joined(j + 1) and s.joined(j + 2):
            found[j] = (1, (pron,))
            found[j + 2] = (1, (table[adj],))
            return
    x = j + 2
    while x < min(n, j + 6) and s.joined(x - 1):
        w = s.low[x]
        changed = covered[x] and w not in CLOSED
        new = None if changed else (_PLURAL_PERSON[d].get(w) or plural_form(d, w, lex))
        if changed or new:
            found[j] = (1, (pron,))
            if new:
                found[x] = (1, (new,))
            table = _GROUP_ADJ if d == "m2f" else _GROUP_ADJ_F
            for y in range(j + 2, x):  # `dei primi due uomini` → `delle prime due donne`
                if s.low[y] in table and not covered[y]:
                    found[y] = (1, (table[s.low[y]],))
                elif s.low[y] in _ORDINAL_PLURALS and not covered[y]:
                    found[y] = (1, (s.low[y][:-1] + ("e" if d == "m2f" else "i"),))
            det = agree_determiner(nxt, "f" if d == "m2f" else "m", s.low[j + 2])
            if nxt in ART_PREPS and det and not covered[j + 1] and x > j + 2:
                found[j + 1] = (1, (det,))  # `dei più grandi pittori`: past `più`
            return
        if w in _INVARIANT_ADJ or w in _NUMBERS or w in ("più", "meno") or w in _GROUP_ADJ:
            x += 1
            continue
        if w in _GROUP_ADJ_F or w in _ORDINAL_PLURALS:
            x += 1
            continue
        if w.endswith("iori") and x + 1 < n and s.joined(x):  # `dei migliori giovani X`
            w = next((v for v in s.low[x + 1 : x + 3] if v not in _INVARIANT_ADJ), "")
        if nxt in ("dei", "degli") and (d == "f2m" or _people(w)):
            # a group of men, or a mixed one, that stays: only the person's pronoun agrees
            # (`una dei migliori scrittori`, `uno dei giudici` ↔ `una dei giudici`)
            found[j] = (1, (pron,))
        return


def _people(w: str) -> bool:
    """A masculine plural that names people (`scrittori`, `giudici`, `artisti`), not things
    (`strumenti`, `film`)."""
    if w.endswith("menti"):
        return False
    return w.endswith(("tori", "sori", "isti", "ieri", "anti", "enti")) or w == "giudici"
