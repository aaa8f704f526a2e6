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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.es_words import (
    _ADVS,
    _AFTER_PRONOUN_OK,
    _APPOSITIVE,
    _ARTICLES,
    _AUX,
    _BOUNDARY_WORDS,
    _CLITICS,
    _CONTRACTIONS,
    _COPULAS,
    _ENCLITIC,
    _FINITE,
    _GENDER_STEMS,
    _GENDER_WORD,
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
    _NOT_PARTICIPLE,
    _NOUN_DETS,
    _NOUN_LEFT,
    _NOUNLIKE,
    _NUMBERS,
    _ORD_F2M,
    _ORD_M2F,
    _PERSON,
    _PERSON_SHARE,
    _PERSON_VERB,
    _PP_START,
    _PP_TRANSPARENT,
    _PRE_AGREE,
    _PREPS,
    _PRESENT,
    _REL_F2M,
    _REL_M2F,
    _SKIP_SUBJ,
    _SUBJ_DETS,
    _TAKE_EN,
    _inside_name,
    _invariable_adj,
    _is_common,
)

_SAME = ""  # a lead word that stays as it is


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

    def _demonyms(self, d: str, word: str) -> list[str]:
        out = []
        # demonyms and nouns with a consonant-final masculine: inglés/inglesa, español/española
        for mas, fem in (("és", "esa"), ("ol", "ola"), ("án", "ana"), ("eses", "esas"),
                         ("oles", "olas"), ("anes", "anas")):  # fmt: skip
            src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
            if word.endswith(src) and len(word) > len(src) + 2:
                out.append(word[: len(word) - len(src)] + tgt)
        return out

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
        targets, span = self._lead(d, s, s.lex)
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
        out = super().protected_positions(d, s)
        for i in range(len(s.low) - 1):
            if s.low[i] in ("lo", "la") and _PERSON_VERB.match(s.low[i + 1]):
                out.add(i + 1)  # `la recuerda` is a verb, not `recuerdo`
                if i > 0 and s.gap_after(i - 1).strip() and s.toks[i - 1].islower():
                    out.add(i - 1)  # `su vida cotidiana, la llevaron`
            # `ella gana`, `él trabaja`: the word after a subject pronoun is a verb
            if s.low[i] in ("él", "ella") and s.gap_after(i) == " ":
                nxt = s.low[i + 1]
                if nxt not in _AFTER_PRONOUN_OK and nxt not in _PREPS and nxt not in _CLITICS:
                    out.add(i + 1)
        return out

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

        lead, locked = self._lead(d, s, lex)

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
        src_cl, tgt_cl = ("la", "lo") if f2m else ("lo", "la")
        for i in range(n):
            if not free(i):
                continue
            w = low[i]
            if w == src_cl and i + 1 < n and s.gap_after(i) == " ":
                j = i + 1
                if low[j] in _AUX and j + 1 < n:
                    j += 1
                v = low[j]
                if i > 0 and low[i - 1] in _PREPS:
                    continue
                if not _PERSON_VERB.match(v) or v in _NOUNLIKE:
                    continue
                if (
                    _FINITE.search(v)
                    or (j > i + 1 and v.endswith(("ado", "ido")))
                    or (_PRESENT.search(v) and i > 0)
                ):
                    put(i, tgt_cl)
            m = _ENCLITIC.match(w)
            if m and m.group(2) == src_cl and _PERSON_VERB.match(m.group(1)):
                put(i, m.group(1) + tgt_cl)

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
            if low[c] not in _COPULAS or not self._subject_is_person(s, c, plan, changed):
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
                self._predicate_np(d, s, j, tgt, covered, changed, put, out, lex)
            elif not s.toks[j][:1].isupper():
                step[0] = "copula_list"
                self._predicate_list(d, s, j, free, changed, put, lex)

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

    def _predicate_list(
        self, d: str, s: Sentence, j: int, free, changed, put, lex: Lexicon
    ) -> None:
        """Predicate adjectives and participles from ``j`` on, coordinated by commas and
        ``y``/``e`` (`fue arrestado, juzgado y condenado`, `era alto, mandón y divertido`);
        invariable adjectives (`miserable`) are passed over, anything else ends the list."""
        low = s.low
        n = len(low)
        k = j
        while k < n and s.toks[k].isalpha() and not s.toks[k][:1].isupper():
            w = low[k]
            if not free(k):
                if not changed(k):
                    return  # already agreed by the tables: go on with the list
            else:
                g = self._participle(d, w) or self._guess(d, w, lex)
                if g:
                    put(k, g)
                elif not _invariable_adj(w):
                    return
            if k + 1 >= n:
                return
            gap = s.gap_after(k)
            if gap == " " and low[k + 1] in ("y", "e") and k + 2 < n:
                k += 2
            elif gap == ", " and k + 1 < n:
                k += 1
            else:
                return

    @staticmethod
    def _participle(d: str, word: str) -> str | None:
        """The regular participle in the other gender (`condenado` → `condenada`)."""
        if word in _NO_GUESS or word in _NOT_PARTICIPLE:
            return None
        pairs = {"ado": "ada", "ido": "ida", "ados": "adas", "idos": "idas"}
        if d == "f2m":
            pairs = {v: k for k, v in pairs.items()}
        for a, b in pairs.items():
            if word.endswith(a) and len(word) > len(a) + 2:
                return word[: -len(a)] + b
        return None

    def _guess(self, d: str, word: str, lex: Lexicon) -> str | None:
        """A suffix change of a predicate adjective/participle/agent noun, checked by frequency."""
        if word in _NO_GUESS or not word.isalpha():
            return None
        src_m = ("o", "os", "or", "ores") if d == "m2f" else ("a", "as", "ora", "oras")
        if not word.endswith(src_m):
            return None
        seen = lex.seen.get(word)
        if seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        z_src = lex.zipf.get(word, 0.0)
        best = None
        for cand in self.morph_candidates(d, word) + self._demonyms(d, word):
            z = lex.zipf.get(cand, 0.0)
            # agent nouns are much rarer in the feminine (`entrenadora` 3.1, `entrenador` 4.4)
            drop = 1.5 if word.endswith(("or", "ores")) else 1.0
            if z >= 2.0 and z >= z_src - drop and (best is None or z > best[0]):
                best = (z, cand)
        return best[1] if best else None

    def _predicate_np(self, d, s, j, tgt, covered, changed, put, out, lex) -> None:
        """``fue el guionista``, ``fue uno de los primeros``: the article (and ``uno de los``)
        agree when a person noun heads the phrase."""
        low = s.low
        n = len(low)
        f2m = d == "f2m"
        k = j + 1
        plural_art = None
        if low[j] in ("uno", "una"):
            if k + 1 >= n or low[k] != "de" or low[k + 1] not in ("los", "las"):
                return
            plural_art = k + 1
            k += 2
        while k < n and low[k] in _MODS and not covered[k] and k - j <= 4:
            k += 1
        if k >= n:
            return
        if k - 1 > (plural_art if plural_art is not None else j) and low[k] in (
            "de",
            "en",
            "que",
            "del",
        ):
            k -= 1  # `el menor de cinco`, `el mejor de su generación`
        head = low[k]
        person = changed(k)
        anchor = False
        ords = _ORD_F2M if f2m else _ORD_M2F
        if not person and not covered[k] and not s.toks[k][:1].isupper():
            if head in ords:
                # `el primero en`, `uno de los primeros conservacionistas`
                nxt = low[k + 1] if k + 1 < n and not covered[k + 1] else ""
                person = nxt in ("en", "de", "que") or _is_common(nxt)
                if person:
                    put(k, ords[head])
            elif _is_common(head):
                person = anchor = True
            elif head.endswith(("or", "ores", "ora", "oras", "ero", "eros", "era", "eras")):
                person = self._guess(d, head, lex) is not None
        if not person:
            return
        put(j, tgt)
        if plural_art is not None:
            put(plural_art, "los" if f2m else "las")
        if anchor:
            if not covered[k] and k not in out:
                out[k] = (1, (head,))  # a person noun: adjectives next to it agree
        elif not changed(k) and head not in ords:
            g = self._guess(d, head, lex)
            if g:
                put(k, g)

    def _subject_is_person(self, s: Sentence, c: int, plan: Plan, changed) -> bool:
        """The subject of the copula at ``c`` is the person: a pronoun or changed word in its
        clause, a name, or no subject at all (pro-drop)."""
        low = s.low
        i = c - 1
        clause: list[int] = []
        boundary = None
        while i >= 0:
            if any(ch in s.gap_after(i) for ch in ',;:«»"“”.!?—'):
                boundary = "punct"
                break
            if low[i] in _BOUNDARY_WORDS:
                boundary = "conj"
                break
            if low[i] in ("que", "quien", "cual"):
                boundary = "que"
                break
            clause.append(i)
            i -= 1
        if any((low[k] in _CLITICS or _ENCLITIC.match(low[k])) and changed(k) for k in clause):
            return True  # `la llevaron a ser castigada`: the person is the object
        clause = [k for k in reversed(clause) if low[k] not in _SKIP_SUBJ]
        if not clause:
            if boundary == "que":
                a = i - 1
                if a >= 0 and s.gap_after(a) in (", ", " "):
                    return (
                        low[a] in ("él", "ella")
                        or changed(a)
                        or (s.toks[a][:1].isupper() and a > 0)
                    )
                return False
            return boundary != "conj" or self._clause_before_is_person(s, i, changed)
        if len(clause) == 1 and low[clause[0]] in ("él", "ella"):
            return True
        if low[clause[0]] in _PP_START and len(clause) <= 4:
            # `En 2007 fue`, `Durante su juventud fue`: an adverbial, no subject
            return not any(
                low[k] in _ARTICLES or (s.toks[k][:1].isupper() and k != clause[0]) for k in clause
            )
        # `el abuelo fue`, `su hijo mayor era`: a changed noun heads the clause
        head = clause[1:] if low[clause[0]] in _SUBJ_DETS else clause
        while head and low[head[0]] in _NUMBERS | {"otro", "otros", "otra", "otras"}:
            head = head[1:]  # `dos chicos fueron`, `los otros dos hijos fueron`
        if head and changed(head[0]) and len(head) <= 3:
            return not any(low[k] in _PREPS for k in head)
        # a name (capitalised words, no article before them)
        first = clause[0]
        if all(s.toks[k][:1].isupper() for k in clause) and len(clause) <= 3:
            return first == 0 or low[first - 1] not in _ARTICLES
        return False

    def _clause_before_is_person(self, s: Sentence, i: int, changed) -> bool:
        """After ``y``/``pero`` with no subject: the subject is carried over; the person when
        the sentence so far names the person (a pronoun or a changed word)."""
        low = s.low
        for k in range(i - 1, -1, -1):
            if any(ch in s.gap_after(k) for ch in ".!?;"):
                break
            if low[k] in ("él", "ella") or changed(k):
                return True
        return False

    # ------------------------------------------------------------------ biography leads
    def _lead(self, d: str, s: Sentence, lex: Lexicon | None) -> tuple[dict[int, str], set[int]]:
        """The noun phrase of a biography lead (`X (Sevilla, 1920-1990) fue un pintor y
        grabador español, conocido por ...`): ({position: new word}, positions of the phrase).
        A phrase that cannot be completed gives no new words and all its positions (locked:
        left as it is rather than half rewritten). Computed once per sentence."""
        got = s.notes.get("lead")
        if got is None:
            got = self._find_lead(d, s, lex) if lex is not None else None
            got = got or ({}, set())
            s.notes["lead"] = got
        return got

    def _find_lead(self, d: str, s: Sentence, lex: Lexicon):
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
                if not person or not (self._lead_person(d, w) or self._lead_participle(d, w, lex)):
                    break
            elif w in ("y", "e"):
                nxt = low[k + 1] if k + 1 < n and s.gap_after(k) == " " else ""
                r = self._lead_word(d, nxt, lex) if nxt.isalpha() else None
                if not person or r is None or (r == _SAME and not self._lead_person(d, nxt)):
                    if r is None and person and nxt:
                        failed = True  # `y` + a word that agrees but has no other form
                    break  # `y murió en ...`: a clause, the phrase ended
                span.add(k)
                k += 1
                continue
            elif w in ("de", "del") and person:
                k, ok = self._lead_pp(d, s, k, lex)
                if not ok:
                    failed = True
                    break
                continue
            if w in _LEAD_END:
                break
            if not person:
                if self._lead_person(d, w):
                    person = True
                elif w not in _LEAD_PREMODS or k - j > 3:
                    return None  # `una ciudad española`: not a person
            r = self._lead_word(d, w, lex)
            if r is None:
                failed = True
                break
            span.add(k)
            if r != _SAME:
                targets[k] = r
            k += 1
            if person and self._lead_participle(d, w, lex) and not self._lead_person(d, w):
                break  # `especializado en puentes`: the rest is the participle's
        if not person:
            return None
        if failed:
            return {}, span
        return targets, span

    def _lead_pp(self, d: str, s: Sentence, k: int, lex: Lexicon) -> tuple[int, bool]:
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
            r = self._lead_word(d, w, lex)
            if r is not None and w not in ("y", "e") and w not in _LEAD_END and not transparent:
                # `profesor de derecho romano`: the noun's adjective or the person's?
                return k, False
        return k, True

    @staticmethod
    def _lead_person(d: str, w: str) -> bool:
        """A noun of a person (in the source gender), as the head of a lead."""
        if w in _LEAD[d] or _is_common(w) or w in ("militar", "militares", "noble", "nobles"):
            return True
        if d == "m2f":
            ends = ("or", "ero", "ólogo", "ógrafo", "ores", "eros", "ólogos", "ógrafos")
        else:
            ends = ("ora", "era", "óloga", "ógrafa", "oras", "eras", "ólogas", "ógrafas")
        return w.endswith(ends) and len(w) > 4 and w not in _NO_GUESS | _LEAD_NOT_PERSON

    def _lead_participle(self, d: str, w: str, lex: Lexicon) -> bool:
        return self._participle(d, w) is not None and w.endswith(
            ("ado", "ido", "ada", "ida", "ados", "idos", "adas", "idas")
        )

    @staticmethod
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
