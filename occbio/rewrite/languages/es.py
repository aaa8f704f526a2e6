"""Spanish: the Romance suffixes, articles that agree with a changed noun, contractions, and the
grammar the learned table cannot see (written from the choosing half of MT-GenEval dev only):

* object clitics ``lo``/``la`` before (or enclitic on) a verb that takes a person as object
  (``lo llevaron`` → ``la llevaron``, ``electrocutarlo`` → ``electrocutarla``);
* a predicate after a copula agrees when the subject of the copula is the person (``fue el
  guionista`` → ``fue la guionista``, ``fue uno de los primeros`` → ``fue una de las primeras``,
  ``era famoso`` → ``era famosa``), not when it is a thing (``su libro fue publicado``);
* articles agree across invariable modifiers (``el joven príncipe`` → ``la joven princesa``,
  ``los dos hijos`` → ``las dos hijas``); ``otro``/``primer`` before a changed noun agree;
* ``sí mismo`` ↔ ``sí misma``, ``el propio`` + name ↔ ``la propia`` + name,
  ``dama`` → ``caballero`` (``Dama`` + name → ``Sir``);
* the word right after a subject pronoun ``él``/``ella`` is a verb and never guessed
  (``ella gana`` must not become ``él gano``); nouns whose other-gender form is another word
  (``caso``/``casa``) or adverbs (``tanto``, ``junto``) are never guessed.

This module holds the ``Language`` subclass and ``RULES``: its hooks plan the agreement inside
noun phrases (person nouns, articles, relatives, words of gender) and hand the rest on to
``es_clitics`` (clitics, verbs after pronouns), ``es_predicates`` (predicates after a copula and
their subject) and ``es_lead`` (biography leads); the word lists are in ``es_words``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.es_clitics import object_clitics, verbs_after_pronouns
from occbio.rewrite.languages.es_lead import plan_lead
from occbio.rewrite.languages.es_predicates import predicate_list, predicate_np, subject_is_person
from occbio.rewrite.languages.es_words import (
    _ADVS,
    _APPOSITIVE,
    _CONTRACTIONS,
    _COPULAS,
    _GENDER_STEMS,
    _GENDER_WORD,
    _MODS,
    _NO_GUESS,
    _NOUN_DETS,
    _NOUN_LEFT,
    _PERSON,
    _PERSON_SHARE,
    _PRE_AGREE,
    _REL_F2M,
    _REL_M2F,
    _SUBJ_DETS,
    _TAKE_EN,
    _inside_name,
    _is_common,
)


@dataclass
class Spanish(Language):
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        if d == "f2m":
            return {"ella": ("free", "él"), "sí misma": ("free", "sí mismo"),
                    "matriarca": ("free", "patriarca")}  # fmt: skip
        return {"él": ("free", "ella"), "sí mismo": ("free", "sí misma"),
                "patriarca": ("free", "matriarca")}  # fmt: skip

    def never_change(self, d: str) -> list[str]:
        # articles agree through the determiner rule; the learned "after a changed word" rules
        # for them ignore punctuation (`propietario, el lugar`)
        if d == "f2m":
            return ["la", "las", "una", "unas", "misma", "mismas"]
        return ["el", "los", "un", "unos", "mismo", "mismos"]

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
        s.notes.setdefault("why", {})[i] = source  # which rule changed it (for error reports)
        return True

    def protected_positions(self, d: str, s: Sentence) -> set[int]:
        return super().protected_positions(d, s) | verbs_after_pronouns(s)

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
            if free(i) and word != low[i]:
                out[i] = (1, tuple(word.split()))
                why[i] = step[0]

        det = self.determiners(d)
        pre_agree = {f: m for m, f in _PRE_AGREE.items()} if f2m else dict(_PRE_AGREE)
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
        # 2. `el propio` + name
        for i in range(n - 2 if not f2m else 0):  # not f2m: `la propia Moscú`
            pair = ("el", "propio")
            name_next = s.toks[i + 2][:1].isupper()
            if (low[i], low[i + 1]) == pair and name_next and free(i) and free(i + 1):
                put(i, "la")
                put(i + 1, "propia")

        step[0] = "mods"
        # 3. articles across invariable modifiers; agreeing words before a changed noun
        for i in range(n - 2):
            if not free(i):
                continue
            j = i + 1
            while j < n and low[j] in _MODS and not covered[j] and j - i <= 3:
                j += 1
            if j == i + 1 or j >= n or not changed(j):
                continue
            tgt = art_target(i) or det.get(low[i]) or pre_agree.get(low[i])
            if tgt:
                put(i, tgt)
        for i in range(n - 1):
            if free(i) and low[i] in pre_agree and changed(i + 1) and s.gap_after(i) == " ":
                put(i, pre_agree[low[i]])
        for i in range(1, n):
            if low[i] in ("mismo", "misma") and low[i - 1] in ("él", "ella") and changed(i - 1):
                put(i, "mismo" if f2m else "misma")

        step[0] = "copula"
        # 4. predicates after a copula whose subject is the person
        for c in range(n - 1):
            if low[c] not in _COPULAS or not subject_is_person(s, c, changed):
                continue
            j = c + 1
            if low[c] in _TAKE_EN and j < n and low[j] == "en":
                j += 1
            while j < n and low[j] in _ADVS and j - c <= 4:
                j += 1
            if j >= n:
                continue
            tgt = art_target(j)
            if tgt is not None:
                step[0] = "copula_np"
                predicate_np(d, s, j, tgt, covered, changed, put, out, lex, self.morph_candidates)
            elif not s.toks[j][:1].isupper():
                step[0] = "copula_list"
                predicate_list(d, s, j, free, changed, put, lex, self.morph_candidates)

        step[0] = "genderword"
        # 5. words of gender itself: `masculino` ↔ `femenino`, `paterno` ↔ `materno`; the
        # ending agrees with a changed noun before it (`protagonista masculino` → `protagonista
        # femenina`) and is kept otherwise (`maratón masculino` → `maratón femenino`)
        for i in range(n):
            m = _GENDER_WORD.match(low[i])
            if m is None or not free(i) or not s.toks[i].isalpha():
                continue
            stem, end = m.group(1), m.group(2)
            swap = _GENDER_STEMS[d].get(stem)
            if swap is None:
                continue
            # the noun it describes, right before it or one word earlier (`actor revelación
            # masculino`): a changed word or a person noun of common gender
            noun = False
            for k in (i - 1, i - 2):
                if k < 0 or not all(s.joined(x) for x in range(k, i)):
                    break
                if covered[k] or _is_common(low[k]):
                    noun = True
                    break
            if noun:
                plural = end.endswith("s")
                end = ("os" if plural else "o") if f2m else ("as" if plural else "a")
            put(i, swap + end)

        step[0] = "uno_de"
        # `uno de los siete hermanos` → `una de las siete hermanas` (the head changed)
        uno_src, uno_tgt = ("una", "uno") if f2m else ("uno", "una")
        for i in range(n - 3):
            if low[i] != uno_src or not free(i) or low[i + 1] != "de":
                continue
            if low[i + 2] not in ("los", "las"):
                continue
            k = i + 3
            while k < n - 1 and low[k] in _MODS and k - i <= 6:
                k += 1
            if changed(k):
                put(i, uno_tgt)

        step[0] = "relative"
        # 6. relative pronouns after a changed person noun: `un hombre al que` → `una mujer a
        # la que`, `el rey, el cual` → `la reina, la cual`
        rel = _REL_F2M if f2m else _REL_M2F
        for i in range(1, n - 1):
            if not (free(i) and low[i] in rel and low[i + 1] in ("que", "cual", "cuales")):
                continue
            h = i - 2 if low[i - 1] in ("a", "de") and i > 1 and s.joined(i - 1) else i - 1
            if changed(h) and s.gap_after(h) in (" ", ", "):
                put(i, rel[low[i]])  # `una mujer a la que` → `un hombre al que`

        step[0] = "nacido"
        # 7. `Nacido en ...` opening a sentence is about the person
        born = {"nacida": "nacido", "nacidas": "nacidos"} if f2m else {
            "nacido": "nacida", "nacidos": "nacidas"}  # fmt: skip
        for i in range(n - 1):
            opens = i == 0 or any(ch in s.gap_after(i - 1) for ch in ".;:")
            if low[i] in born and free(i) and low[i + 1] in ("en", "el") and opens:
                put(i, born[low[i]])

        step[0] = "dama"
        # 8. `dama` → `caballero` (`Dama` + name → `Sir`; `dama de honor` stays)
        if f2m:
            for i in range(n):
                if low[i] != "dama" or not free(i):
                    continue
                if i + 2 < n and low[i + 1] == "de" and low[i + 2] == "honor":
                    continue
                titled = s.toks[i][:1].isupper() and i + 1 < n and s.toks[i + 1][:1].isupper()
                if titled and (i == 0 or low[i - 1] not in ("primera", "la", "una")):
                    put(i, "sir")
                    continue
                put(i, "caballero")
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
