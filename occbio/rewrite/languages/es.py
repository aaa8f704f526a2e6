"""Spanish: the ``Language`` subclass and ``RULES``. The Romance suffixes, articles that agree
with a changed noun, contractions, and the grammar the learned table cannot see (written from
the choosing half of MT-GenEval dev only), with the module that holds each rule:

* object clitics ``lo``/``la`` before (or enclitic on) a verb that takes a person as object
  (``lo llevaron`` → ``la llevaron``, ``electrocutarlo`` → ``electrocutarla``): ``es_clitics``;
* a predicate after a copula agrees when the subject of the copula is the person (``fue el
  guionista`` → ``fue la guionista``, ``fue uno de los primeros`` → ``fue una de las primeras``,
  ``era famoso`` → ``era famosa``), not when it is a thing (``su libro fue publicado``), and so
  does a participle clause (``Educado en Eton, ...``): ``es_predicates``;
* the subject of a copula is found across ``y``/``pero`` (the clause before), infinitives
  (``Al ser liberado``, ``la fama de ser``), relatives governed by a preposition (``para los
  que fue nominado``) and ``como`` + a role (``sirvió como misionero``), but not a personal
  object's (``contrató a Juan como``): ``es_subject``;
* articles agree across invariable modifiers (``el joven príncipe`` → ``la joven princesa``,
  ``los dos hijos`` → ``las dos hijas``); ``otro``/``primer`` before a changed noun agree; the
  article of a common-gender person noun agrees once the sentence is about the person (``un
  periodista la entrevistó``), and before a changed apposition (``de la contraalmirante, Lady
  X``); relatives after a part of a changed group (``una de las cuales``): ``es_noun_phrase``;
* adjectives after a changed noun agree with it, in number too and across ``muy``/``no``
  (``hermanas pequeñas``), and words of gender (``masculino``): ``es_adjectives``;
* ``el propio`` + name → ``la propia`` + name, ``dama`` → ``caballero`` (``Dama`` + name →
  ``Sir``): ``es_noun_phrase``;
* vetoes: an adjective next to a thing or epicene noun is that noun's (``representación
  única``, ``estrella invitada``); a learned adjective or participle does not change on its own
  (``ruso``, ``nombrado``: agreement and predicates do it); a learned masculine office in a
  complement or before a name names someone else (``con el presidente``): ``es_veto``;
* when nothing else changed, offices in a role position, participles after a subjectless
  copula, ``como`` + role and masculine plural kin nouns are the person's: ``es_fallback``;
* nouns whose other-gender form is another word (``caso``/``casa``) or adverbs (``tanto``,
  ``junto``) are never guessed; nor a word before a preposition whose complement changed (``el
  retrato del rey``), nor a verb (``su madre trabaja``): here.

``Spanish``'s hooks vet the tables' changes (``allows``) and plan the rest step by step
(``propose``), handing each job to its module; biography leads are ``es_lead``'s, and the word
lists are in ``es_words``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.es_adjectives import (
    _NOT_ANCHOR,
    adjectives_after_noun,
    gender_words,
    name_adjectives,
)
from occbio.rewrite.languages.es_clitics import object_clitics
from occbio.rewrite.languages.es_fallback import (
    bare_predicates,
    como_roles,
    group_nouns,
    office_nouns,
)
from occbio.rewrite.languages.es_lead import plan_lead
from occbio.rewrite.languages.es_noun_phrase import (
    apposition_articles,
    articles_across_modifiers,
    common_gender_articles,
    propio_and_dama,
    relatives_after_noun,
    uno_de_los,
)
from occbio.rewrite.languages.es_predicates import (
    next_conjunct,
    participle_clauses,
    predicate_list,
    predicate_np,
)
from occbio.rewrite.languages.es_subject import (
    _person_copula,
    plural_subject_changed,
    subject_is_person,
)
from occbio.rewrite.languages.es_veto import (
    _guess_ok,
    agrees_with_other,
    free_adjective,
    free_office,
)
from occbio.rewrite.languages.es_words import (
    _ADVS,
    _APPOSITIVE,
    _CONTRACTIONS,
    _COPULAS,
    _GENDER_WORD,
    _NO_GUESS,
    _NOUN_DETS,
    _NOUN_LEFT,
    _PERSON,
    _PERSON_SHARE,
    _SUBJ_DETS,
    _TAKE_EN,
    _inside_name,
)

#: plural copulas: their predicate agrees only with a changed plural subject
_PLURAL_COPULAS = frozenset(
    {"fueron", "eran", "son", "estaban", "estuvieron", "resultaron", "quedaron"}
)
#: verbs that are copulas after `se`
_SE_COPULAS = frozenset({"volvió", "volvía", "vuelve", "hizo", "hacía", "hace"})


@dataclass
class Spanish(Language):
    def morph_candidates(self, d: str, word: str) -> list[str]:
        if word in _NO_GUESS:
            return []
        if d == "f2m" and word in ("primera", "tercera"):
            return []  # `la primera duquesa` → `el primer duque`: agreed in propose
        return super().morph_candidates(d, word)

    def after_copula(self, low: Sequence[str], i: int) -> bool:
        return False  # predicates after a copula are agreed in propose, with the subject known

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
        low = s.low
        targets, span = plan_lead(d, s, s.lex)
        if any(p in span for p in range(i, i + ln)):
            # a lead's noun phrase changes whole (as the lead rule planned it) or not at all
            return ln == 1 and targets.get(i) == " ".join(tgt)
        if ln == 1 and _GENDER_WORD.match(low[i]):
            return False  # agreed in propose, with the noun before it
        if low[i] in _APPOSITIVE:
            # `(también conocido como ...)` describes whatever precedes, often a thing: only
            # after a copula (`es más conocido por`) or an article (`un conocido escritor`)
            k = i - 1
            while k >= 0 and low[k] in _ADVS and s.joined(k):
                k -= 1
            if k < 0 or not s.joined(k) or low[k] not in _COPULAS | _NOUN_DETS:
                return False
        nxt = plan.get(i + 1)
        if nxt is not None and _GENDER_WORD.match(low[i + 1]) and (i - 1) not in plan:
            return False  # `ámbito doméstico paterno` → `ámbito doméstico materno`
        if low[i] in ("solo", "sola") and i + 1 < len(low) and low[i + 1] in _SUBJ_DETS:
            return False  # `solo el hermano menor`: the adverb
        if low[i] in ("uno", "una") and i + 1 < len(low) and low[i + 1] == "de":
            return False  # `uno de los ...`: agreed in propose, with the head noun known
        if _inside_name(s, i):
            return False
        if source == "free" and d == "m2f" and ln == 1 and free_office(s, i):
            return False  # `el presidente Obama`: an office names another person as often
        if source == "free" and free_adjective(d, s, i, ln, tgt):
            return False  # an adjective agrees where it stands: left to agreement and predicates
        if source != "determiner" and agrees_with_other(s, i, ln, tgt):
            return False  # `representación única`, `estrella invitada`: not the person's
        if source == "guess" and not _guess_ok(d, s, i):
            return False
        s.notes.setdefault("why", {})[i] = source  # which rule changed it (for error reports)
        return True

    # ------------------------------------------------------------------ propose
    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        low = s.low
        n = len(low)
        f2m = d == "f2m"
        owner: dict[int, int] = {}
        for st, (ln, _) in plan.items():
            for k in range(st, st + ln):
                owner[k] = st

        def changed(i: int) -> bool:
            st = owner.get(i)
            if st is None:
                return False
            ln, tgt = plan[st]
            return list(tgt) != list(low[st : st + ln])

        out: Plan = {}

        lead, locked = plan_lead(d, s, lex)

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out and i not in locked

        why = s.notes.setdefault("why", {})
        step = ["person"]

        def put(i: int, word: str) -> None:
            if agrees_with_other(s, i, 1, tuple(word.split())):
                return  # `como estrella invitada`: the adjective is the noun's
            if free(i) and word != low[i]:
                out[i] = (1, tuple(word.split()))
                why[i] = step[0]

        det = self.determiners(d)
        art_m2f = {"el": "la", "un": "una", "los": "las", "unos": "unas", "del": "de la",
                   "al": "a la", "uno": "una"}  # fmt: skip
        art_f2m = {"la": "el", "una": "un", "las": "los", "unas": "unos"}

        def art_target(i: int) -> str | None:
            w = low[i]
            if f2m:
                if w == "una" and i + 2 < n and low[i + 1] == "de" and low[i + 2] == "las":
                    return "uno"
                return art_f2m.get(w)
            return art_m2f.get(w)

        # a biography lead: `fue un pintor y grabador español` (planned whole, or locked)
        for i, word in lead.items():
            if 0 <= i < n and not covered[i] and i not in out and word != low[i]:
                out[i] = (1, tuple(word.split()))
                why[i] = "lead"

        # 0. person nouns the tables do not know (or know too little)
        people = _PERSON[d]
        for i in range(n):
            hit = people.get(low[i])
            if hit is None or not free(i) or not s.toks[i].isalpha():
                continue
            tgt, adj = hit
            if i > 0 and not s.toks[i].islower():
                continue  # a name or a title in one (`Dios`, `Consejo Asesor`)
            if adj and (i == 0 or low[i - 1] not in _NOUN_LEFT or not s.joined(i - 1)):
                continue
            seen = lex.seen.get(low[i])
            if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < _PERSON_SHARE:
                continue  # the data says this word usually stays
            put(i, tgt)

        step[0] = "clitic"
        # 1. object clitics before a person verb, or enclitic on an infinitive/gerund
        object_clitics(d, s, free, put)

        step[0] = "propio"
        # 2. `el propio` + name; `dama` → `caballero`
        propio_and_dama(d, s, free, put)

        step[0] = "mods"
        # 3. articles across invariable modifiers; agreeing words before a changed noun
        articles_across_modifiers(d, s, covered, free, changed, put, art_target, det)
        for i in range(1, n):
            if low[i] in ("mismo", "misma") and low[i - 1] in ("él", "ella") and changed(i - 1):
                put(i, "mismo" if f2m else "misma")

        step[0] = "copula"
        # 4. predicates after a copula whose subject is the person
        for c in range(n - 1):
            if low[c] in _PLURAL_COPULAS:
                if not plural_subject_changed(s, c, changed):
                    continue  # `los dos hijos fueron capturados`: only a changed subject
            elif low[c] in _SE_COPULAS:
                # `se volvió más atractivo`, `se hizo famoso`: *volverse*, *hacerse* + adjective
                if c == 0 or low[c - 1] != "se" or not subject_is_person(s, c, changed):
                    continue
            elif low[c] not in _COPULAS or not _person_copula(d, s, c, changed):
                continue
            j = c + 1
            if low[c] in _TAKE_EN and j < n and low[j] == "en":
                j += 1
            while j < n and (low[j] in _ADVS or low[j].endswith("mente")) and j - c <= 4:
                j += 1
            if j >= n:
                continue
            tgt = art_target(j)
            if tgt is not None:
                step[0] = "copula_np"
                k = predicate_np(
                    d, s, j, tgt, covered, changed, put, out, lex, self.morph_candidates
                )
                # `fue un alumno brillante y un lector voraz`: a coordinated predicate
                while k is not None:
                    m = next_conjunct(s, k)
                    tgt = art_target(m) if m is not None else None
                    if m is None or tgt is None:
                        break
                    k = predicate_np(
                        d, s, m, tgt, covered, changed, put, out, lex, self.morph_candidates
                    )
            elif not s.toks[j][:1].isupper():
                step[0] = "copula_list"
                k = predicate_list(d, s, j, free, changed, put, lex, self.morph_candidates)
                tgt = art_target(k) if k is not None else None
                if k is not None and tgt is not None:
                    step[0] = "copula_np"  # `era español y uno de los primeros en`
                    predicate_np(
                        d, s, k, tgt, covered, changed, put, out, lex, self.morph_candidates
                    )

        step[0] = "after_noun"
        # 4b. adjectives after a changed person noun agree with it
        adjectives_after_noun(
            d, s, plan, free, changed, put, lex, self.morph_candidates, _NOT_ANCHOR
        )

        step[0] = "name_adjective"
        # 4b'. inside a name, an adjective after a changed noun (`un Hombre Dorado`)
        name_adjectives(d, s, plan, free, changed, put, lex, self.morph_candidates)

        step[0] = "common"
        # 4c. the article of a common-gender person noun (`el periodista`, `un policía`) as
        # subject or object (not after a preposition) agrees when the sentence already
        # changed for the person; its adjective-like members (`la mayor parte`) never
        if any(changed(k) for k in owner):  # the sentence changed for the person
            common_gender_articles(s, free, put, art_target, det)

        step[0] = "apposition"
        # 4d. a noun phrase of invariable person nouns before a changed apposition (`del
        # contraalmirante, Lord X` → `de la contraalmirante, Lady X`): its article agrees
        apposition_articles(s, free, changed, put, art_target)

        step[0] = "genderword"
        # 5. words of gender itself: `masculino` ↔ `femenino`, `paterno` ↔ `materno`; the
        # ending agrees with a changed noun before it (`protagonista masculino` → `protagonista
        # femenina`) and is kept otherwise (`maratón masculino` → `maratón femenino`)
        gender_words(d, s, covered, free, put)

        step[0] = "uno_de"
        # `uno de los siete hermanos` → `una de las siete hermanas` (the head changed)
        uno_de_los(d, s, free, changed, put)

        step[0] = "relative"
        # 6. relative pronouns after a changed person noun: `un hombre al que` → `una mujer a
        # la que`, `el rey, el cual` → `la reina, la cual`
        relatives_after_noun(d, s, free, changed, put)

        step[0] = "nacido"
        # 7. `Nacido en ...` opening a sentence is about the person
        born = {"nacida": "nacido", "nacidas": "nacidos"} if f2m else {
            "nacido": "nacida", "nacidos": "nacidas"}  # fmt: skip
        for i in range(n - 1):
            opens = i == 0 or any(ch in s.gap_after(i - 1) for ch in ".;:")
            if low[i] in born and free(i) and low[i + 1] in ("en", "el") and opens:
                put(i, born[low[i]])

        step[0] = "participle_clause"
        participle_clauses(d, s, free, changed, put)

        step[0] = "fallback"
        # 8. nothing about the person changed: a masculine office noun is the person's
        if not plan and not out:
            office_nouns(d, s, free, put, lex)
            bare_predicates(d, s, free, put)
            como_roles(d, s, free, put, lex, self.morph_candidates)
            if s.relatives == "change":  # a plural group is other people, not the person
                group_nouns(d, s, free, put)
        return out

    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        merge_contractions(s, plan, _CONTRACTIONS)


RULES = Spanish(
    "es",
    suffixes=[("oras", "ores"), ("ora", "or"), ("as", "os"), ("a", "o")],
    copulas=frozenset(
        {"fue", "era", "es", "sido", "estaba", "estuvo", "siendo", "resultó", "quedó"}
    ),
    participle_endings=("ado", "ada", "ido", "ida"),
    verblike_endings=("aba", "ía", "ensa", "eva", "lleva", "ieva"),
    copula_bridge=frozenset({"ser", "ha"}),
    name_copulas=frozenset({"es", "fue", "era", "llegó", "resultó"}),
    role_markers=(("como",),),
    determiner_pairs=[
        ("la", "el"),
        ("una", "un"),
        ("las", "los"),
        ("unas", "unos"),
        ("esta", "este"),
        ("estas", "estos"),
        ("esa", "ese"),
        ("esas", "esos"),
        ("aquella", "aquel"),
        ("aquellas", "aquellos"),
    ],
)
