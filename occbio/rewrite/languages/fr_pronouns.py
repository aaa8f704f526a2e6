"""French: pronouns and person words by their role in the sentence, and object clitics.

A French pronoun's form depends on its role, not only on the person: subject ``il``/``elle``
(not the impersonal ``il y a``, ``il faut``, ``il est possible de``), stressed ``lui``/``elle``
(``de lui``, ``lui-même``, ``lui aussi``) while the indirect object ``lui`` (``lui offrant``)
stays, object clitics ``le``/``la`` before a verb. So do a few person words: ``fille`` (a child,
``garçon``, or a daughter, ``fils``), ``femme`` (``homme`` or ``mari``), titles (``Monsieur``,
``M.``). Learned tables cannot see roles, so these are decided here from the neighbours.
"""

from __future__ import annotations

from collections.abc import Sequence

from occbio.rewrite.languages.base import Lexicon, Plan, Sentence
from occbio.rewrite.languages.fr_forms import is_free, other_gender_form, skip_adverbs
from occbio.rewrite.languages.fr_things import work_pronoun
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _CLITIC_BETWEEN,
    _COPULA,
    _DETS,
    _HAVE,
    _IMPERSONAL_ADJ,
    _IMPERSONAL_IF,
    _IMPERSONAL_NEXT,
    _MODALS,
    _NUMBERS,
    _PARTICIPLE,
    _POSSESSIVE,
    _PRE_M2F,
    _PREP,
)


def _verb_form(word: str, zipf) -> bool:
    """Whether ``word`` (after an object clitic) is a verb: its imperfect, present participle or
    past participle, built from the same stem, is a French word (`poussa` → `poussait`), which
    rules out nouns such as `premier`, `quartier`, `cinéma`, `moment`."""
    if word.endswith(("èrent", "irent", "urent")):
        return True
    if word.endswith("ure") and not word.endswith("clure"):
        return False  # a noun (`à la stature`, `la peinture`): only `-clure` verbs end so
    for end in ("aient", "ait", "ent", "er", "ir", "re", "a"):
        if word.endswith(end) and len(word) > len(end) + 2:
            stem = word[: -len(end)]
            forms = [stem + "ait", stem + "ant", stem + "é"]
            if end in ("ait", "aient"):
                forms = [stem + "er", stem + "re", stem + "ir"]
            return any(zipf.get(f, 0.0) >= 1.5 for f in forms if f != word)
    return False


def _is_verbish(word: str) -> bool:
    """A verb form right after an object clitic: infinitive, or a finite form."""
    return word.endswith(("er", "ir", "re", "oir", "ent", "ait", "aient", "a", "èrent", "it",
                          "irent", "ut", "urent", "ons", "ez", "e", "ant"))  # fmt: skip


#: impersonal participles whose person comes next (`il est conseillé aux automobilistes de`)
_IMPERSONAL_TO = frozenset("conseillé déconseillé recommandé interdit demandé permis".split())


def is_impersonal(low: Sequence[str], i: int) -> bool:
    """`il` at ``i`` is impersonal: `il y a`, `il n'y avait`, `il lui a fallu`,
    `il s'agit`, `il est possible de`, `il a été annoncé que`."""
    n = len(low)
    k = i + 1
    while k < n and low[k] in ("ne", "n'", "lui", "leur", "me", "m'", "te", "t'", "nous",
                               "vous", "en"):  # fmt: skip
        k += 1
    if k >= n:
        return False
    w = low[k]
    nk = low[k + 1] if k + 1 < n else ""
    if w == "y":
        return nk in ("a", "avait", "eut", "aura", "aurait", "ait", "ayant", "avoir", "aurait")
    if w in _IMPERSONAL_NEXT:
        return True
    if w in _IMPERSONAL_IF:
        j = k + 1
        while j < n and low[j] in _ADVERBS:
            j += 1
        nj = low[j] if j < n else ""
        if nj in ("que", "qu'") or (nj in ("de", "d'") and not w.startswith("arriv")):
            return True  # `il semble que`, `il reste de lui`
        if nj in _IMPERSONAL_ADJ and low[j + 1 : j + 2] in (["que"], ["qu'"], ["de"], ["d'"]):
            return True  # `il paraît évident que`
        if w.startswith(("rest", "arriv")) and (nj in _DETS or nj in _NUMBERS or nj.isdigit()):
            return True  # `il reste deux tableaux`, `il arriva un accident`
        infinitive = j + 1 < n and low[j + 1].endswith(("er", "ir", "re"))
        return w.startswith("rest") and nj in ("à", "a") and infinitive  # `il reste à faire`
    if w in ("s'", "se"):
        if nk in ("est", "était", "fut") and low[k + 2 : k + 3] and low[k + 2].startswith("avér"):
            return low[k + 3 : k + 4] in (["que"], ["qu'"])  # `il s'est avéré que`
        return nk.startswith(("agi", "avér", "pass", "peut", "pourrait"))
    if w in ("va", "allait", "alla", "ira", "irait") and low[k - 1] == "en":
        return True  # `il en va de même`
    if k + 1 < n and low[k + 1] in ("fallu", "semblé", "suffi", "paru", "plu"):
        return True
    if w in ("est", "était", "fut", "sera", "serait", "a", "avait", "aurait", "soit", "devint",
             "devient", "devenait", "deviendra", "parut", "paraissait"):  # fmt: skip
        k = skip_adverbs(low, k + 1)  # `il a beaucoup été question`
        if k < n and low[k] == "été":
            k += 1
        elif w in ("a", "avait", "aurait"):
            return False  # `il a décidé que`: a verb of the person
        elif k < n and low[k] == "devenu":
            k += 1  # `il est devenu évident que`
        k = skip_adverbs(low, k)  # `il est fortement déconseillé de`
        if k + 1 < n and low[k] in _IMPERSONAL_ADJ:
            if low[k] == "question" and low[k + 1] in ("du", "des"):
                return True  # `il a été question du projet`
            if low[k] in _IMPERSONAL_TO and low[k + 1] in ("à", "aux"):
                return True  # `il est conseillé aux automobilistes de`
            return low[k + 1] in ("de", "d'", "que", "qu'")
        if k + 1 < n and low[k] == "de" and low[k + 1] in ("coutume", "tradition", "règle"):
            return True
    return False


def _of_subject_noun(d: str, s: Sentence, i: int) -> bool:
    """The emphatic pronoun at ``i`` follows the subject noun phrase that opens the
    sentence (`La chapelle elle-même est ...`), and agrees with that noun."""
    low, toks = s.low, s.toks
    if i < 2 or not toks[i - 1].islower() or s.gap_after(i - 1) != " ":
        return False
    dets = ("la", "cette", "une", "sa") if d == "f2m" else ("le", "ce", "cet", "un", "son")
    start = i == 2 or s.gap_after(i - 3).strip() in (".", ";", ":", ",")
    return low[i - 2] in dets and start


#: complements that make `femme de ...` a trade, not a wife
_WOMAN_OF = frozenset("ménage chambre lettres affaires loi science sciences théâtre".split())


def pronoun_changes(d: str, s: Sentence, covered: Sequence[bool]) -> Plan:
    """Pronouns, `fille`/`femme`/`fils` and titles at uncovered tokens, each by its role."""
    out: Plan = {}
    low, toks = s.low, s.toks
    n = len(low)
    gap = s.gap_after
    for i in range(n):
        if not is_free(s, covered, out, i):
            continue
        w = low[i]
        nxt = low[i + 1] if i + 1 < n else ""
        prev = low[i - 1] if i > 0 else ""
        g = gap(i)
        emphatic = (g == "-" and nxt == "même") or (
            g == " " and nxt in ("aussi", "seul", "seule", "qui", "non", "seuls")
        )
        if g == "-" and nxt == "même" and _of_subject_noun(d, s, i):
            continue  # `La chapelle elle-même`: the noun's, not the person's
        after_prep = prev in _PREP and (i == 0 or gap(i - 1) in (" ", ""))
        verb_next = g == " " and (nxt in _CLITIC_BETWEEN or nxt in ("l'", "le", "la", "les")
                                  or nxt in _COPULA or nxt in _HAVE)  # fmt: skip
        if w in ("il", "elle") and work_pronoun(s, i) is not None:
            continue  # `il a été diffusé`: a work
        if d == "f2m" and w == "elle":
            weak_prep = prev in ("comme", "que", "qu'", "et", "ou")
            if i > 0 and gap(i - 1) == "-":
                out[i] = (1, ("il",))  # `dit-elle`, `a-t-elle`
            elif emphatic or (after_prep and not weak_prep):
                out[i] = (1, ("lui",))
            elif verb_next or g.strip(" ") == "" or g == "-":
                out[i] = (1, ("il",))  # `comme elle l'a vu`
            else:
                out[i] = (1, ("lui",))  # `avec elle :`, `plus que elle,`
        elif d == "m2f" and w == "lui":
            verb_next = g == " " and (nxt in _CLITIC_BETWEEN or _is_verbish(nxt))
            verb_next = verb_next and nxt not in _DETS  # `fit de lui la première`
            after_cest = bool(g.strip()) and prev in ("c'est", "est")
            if emphatic or ((after_prep or after_cest) and not verb_next):
                out[i] = (1, ("elle",))
        elif d == "m2f" and w == "il":
            if not is_impersonal(low, i):
                out[i] = (1, ("elle",))
        elif d == "f2m" and w in ("fille", "filles"):
            child = prev in ("jeune", "petite", "jeunes", "petites", "pour", "aux") and (
                i == 0 or gap(i - 1) == " "
            )
            if nxt == "de" and i + 2 < n and low[i + 2].isdigit():
                child = True  # `une fille de 10 ans`
            if w == "filles":
                kin = (
                    nxt in ("de", "d'", "du", "des")
                    or prev in _POSSESSIVE
                    or (prev in _NUMBERS and i > 1 and low[i - 2] in _HAVE)
                )
                child = child or not kin
            out[i] = (1, ("garçon" if w == "fille" else "garçons",) if child else ("fils",))
        elif d == "f2m" and w == "femme":
            wife = prev in _POSSESSIVE or (prev == "la" and nxt in ("de", "d'", "du"))
            after = low[i + 2] if i + 2 < n else ""
            if nxt in ("de", "d'") and (after in _WOMAN_OF or after.isdigit() or after in _NUMBERS):
                wife = False  # `la femme de ménage`: a trade; `la femme de 44 ans`: an age
            out[i] = (1, ("mari" if wife else "homme",))
        elif d == "m2f" and w == "fils" and gap(i) != "-" and not toks[i][:1].isupper():
            plural = prev in ("les", "des", "ses", "mes", "tes", "leurs", "nos", "vos", "ces")
            plural = plural or prev in _NUMBERS
            if i > 0 and gap(i - 1) == "-":
                plural = prev.endswith(("s", "x"))
            out[i] = (1, ("filles" if plural else "fille",))
        elif d == "m2f" and w == "monsieur":
            # a title (`Monsieur Dupont`, `Monsieur,`) or a noun (`le grand monsieur`)
            noun = i > 0 and (prev in _DETS or prev in _PRE_M2F) and gap(i - 1) == " "
            out[i] = (1, ("dame" if noun else "madame",))
        elif d == "f2m" and w in ("mme", "mlle") and toks[i][:1].isupper():
            out[i] = (1, ("m.",))
        elif (
            d == "m2f"
            and toks[i] == "M"
            and gap(i) == ". "
            and toks[i + 1 : i + 2]
            and (toks[i + 1][:1].isupper())
        ):
            out[i] = (2, ("mme", toks[i + 1]))  # `M. Dupont` → `Mme Dupont`
    return out


def agree_object_clitics(
    d: str,
    s: Sentence,
    covered: Sequence[bool],
    out: Plan,
    lex: Lexicon,
    person_subjects: set[int] = frozenset(),  # type: ignore[assignment]
    after_name: bool = True,
) -> None:
    """Object clitics `le`/`la` before a verb (`ses parents la poussèrent`) take the person's
    gender, unless the person is that verb's subject (`il écrivit un roman et le publia`: the
    person would be `se`) or, with ``after_name`` false (nothing else of the person changed),
    a name right before is (`Dupont le publia`). They are noted in ``s.notes["clitics"]`` so
    that no contraction swallows them (`de le soigner`). A participle after `l'` + `avoir`
    agrees with the clitic the same way (`les autorités l'ont reliée`)."""
    low, toks = s.low, s.toks
    n = len(low)
    gap = s.gap_after
    src_cl, tgt_cl = ("la", "le") if d == "f2m" else ("le", "la")
    for i in range(1, n - 1):
        if (
            low[i] != src_cl
            or not is_free(s, covered, out, i)
            or gap(i) != " "
            or gap(i - 1) != " "
        ):
            continue
        nxt = low[i + 1]
        if covered[i + 1] or toks[i + 1][:1].isupper() or toks[i][:1].isupper():
            continue
        if low[i - 1] in _DETS or low[i - 1] in ("tout", "toute"):
            continue
        if not after_name and toks[i - 1][:1].isupper():
            continue  # `Dupont le publia`: the name is the subject, `le` someone or something
        # a present in `-e` is a verb only where nothing else can stand: `qui le nomme`
        present = nxt.endswith("e") and low[i - 1] in ("qui", "ne", "n'") and len(nxt) > 4
        present = present and all(lex.zipf.get(nxt[:-1] + e, 0.0) >= 1.5 for e in ("ait", "é"))
        verb = present or _verb_form(nxt, lex.zipf)
        if verb and not _subject_is_person(s, i, person_subjects):
            out[i] = (1, (tgt_cl,))
            s.notes.setdefault("clitics", set()).add(i)
    # `l'` before `avoir`: the participle agrees with it (`les autorités l'ont reliée`)
    for i in range(1, n - 2):
        if low[i] not in ("l'", "l’") or gap(i) != "" or low[i + 1] not in _HAVE:
            continue
        k = i + 2
        if gap(i + 1) != " " or not is_free(s, covered, out, k) or not toks[k].islower():
            continue
        if not low[k].endswith(_PARTICIPLE) or low[k] in ("été", "eu", "fait"):
            continue
        if low[i - 1] in ("ne", "n'") or _subject_is_person(s, i, person_subjects):
            continue
        guess = other_gender_form(d, low[k], lex, verbish_ok=True, trust_seen=False)
        if guess is not None:
            out[k] = (1, (guess,))


def _subject_is_person(s: Sentence, i: int, person_subjects: set[int]) -> bool:
    """The subject of the verb after the clitic at ``i`` is the person's changed pronoun: right
    before it (`il le publia`), before its modal (`il voulut le vendre`), or the clause's,
    after `et`/`puis`/`mais` or before an infinitive (`il écrivit un roman et le publia`,
    `il décida de le vendre`)."""
    low = s.low
    j = i - 1
    while j >= 0 and low[j] in ("ne", "n'", "me", "m'", "te", "t'", "nous", "vous"):
        j -= 1  # `il me l'a reproché`
    if j < 0:
        return False
    if j in person_subjects:
        return True
    if low[j] in _ADVERBS or low[j] in _MODALS:
        # a bare infinitive after a modal has the modal's subject: `il ne voulut pas le vendre`
        while j > 0 and low[j] in _ADVERBS:
            j -= 1
        if low[j] not in _MODALS or j == 0:
            return False
        j -= 1
        while j > 0 and low[j] in ("ne", "n'", "se", "s'", "y", "en"):
            j -= 1
        if j in person_subjects:
            return True
    if low[j] not in ("et", "puis", "mais", "de", "d'", "à", "pour", "sans"):
        return False
    while j >= 0 and low[j] not in ("il", "elle", "qui", "que", "qu'", "ils", "elles", "on"):
        if s.gap_after(j).strip() in (".", ";", ":", "?", "!"):
            return False
        j -= 1
    return j >= 0 and j in person_subjects
