"""French: pronouns by role, articles with elision and contraction, noun-phrase agreement.

The learned tables (``learned_fr.json``) give the frequent person words (``acteur``/``actrice``,
``né``/``née``); this module adds what French grammar knows better than counts:

* subject ``il``/``elle`` (not the impersonal ``il y a``, ``il faut``, ``il est possible de``),
  stressed ``lui``/``elle`` (``de lui``, ``lui-même``, ``lui aussi``) while the indirect object
  ``lui`` (``lui offrant``) stays, object clitics ``le``/``la`` before a verb;
* a changed noun carries its noun phrase: determiner (``le``/``la``, ``un``/``une``,
  ``ce``/``cet``/``cette``, ``son``/``sa``, ``du``/``de la``, ``au``/``à la``), the adjectives
  before it (``un jeune baron`` → ``une jeune baronne``) and after it (``actrice américaine``);
* predicates after a copula (``elle est devenue célèbre``) across adverbs (``fut bientôt très
  demandée``), coordinated (``calme, curieuse et active``), whose subject is a changed
  pronoun, a name, ``lui-même``, a left-out subject (``... et fut acceptée``), an infinitive
  (``d'être nommée``), or an opening participle (``Née à Lyon, elle``);
* roles (``en tant que serveuse``), ``l'une des premières``, superlatives, quantifiers;
* a biography's lead sentence (``fr_lead.py``), rewritten whole or left as it is;
* elision and contraction of the result (``le homme`` → ``l'homme``, ``de le roi`` → ``du roi``,
  ``d'elle`` → ``de lui``, ``son amie``).

Suffix guesses (-eur/-euse, -teur/-trice, -ien/-ienne, -if/-ive, -er/-ère, -é/-ée ...) are made
here, with their context, instead of by the engine, and must be words of French (wordfreq).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence, merge_contractions
from occbio.rewrite.languages.fr_lead import parse_lead
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _AGENT_F,
    _AGENT_M,
    _AUX_ETRE,
    _AVOIR,
    _CLITIC_BETWEEN,
    _COPULA,
    _DET_F2M,
    _DET_M2F,
    _DETS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _FIXED_PREFIX,
    _H_ASPIRE,
    _H_MUET,
    _HAVE,
    _IMPERSONAL_ADJ,
    _IMPERSONAL_NEXT,
    _INF_COPULA,
    _NEVER,
    _NO_GUESS,
    _NOT_PARTICIPLE,
    _NOUN_COMPLEMENTS,
    _NUMBERS,
    _ORDINAL,
    _PARTICIPLE,
    _POSSESSIVE,
    _PRE_F2M,
    _PRE_M2F,
    _PREP,
    _QUANT_M2F,
    _REFLEXIVE_DATIVE,
    _SUBJECT_WORDS,
    _SUFFIXES,
    _VERBLIKE_M,
    _VOWELS,
)


def starts_vowel(word: str) -> bool:
    """Whether an article before ``word`` elides (`l'acteur`, `l'homme`, not `le héros`)."""
    w = word.lower()
    if not w:
        return False
    if w[0] == "h":
        if w.startswith(_H_MUET):
            return True
        return not w.startswith(_H_ASPIRE)
    return w[0] in _VOWELS


def _verb_form(word: str, zipf) -> bool:
    """Whether ``word`` (after an object clitic) is a verb: its imperfect, present participle or
    past participle, built from the same stem, is a French word (`poussa` → `poussait`), which
    rules out nouns such as `premier`, `quartier`, `cinéma`, `moment`."""
    if word.endswith(("èrent", "irent", "urent")):
        return True
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


def _skip_adverbs(low: Sequence[str], k: int) -> int:
    """The first token from ``k`` on that is no adverb (`très`, `brièvement`, `d'abord`)."""
    n = len(low)
    while k < n:
        w = low[k]
        if w in _ADVERBS or (len(w) > 6 and w.endswith("ment")):
            k += 1
        elif w in ("d'", "de") and k + 1 < n and low[k + 1] in ("abord", "ailleurs", "nouveau"):
            k += 2
        else:
            break
    return k


@dataclass
class French(Language):
    @property
    def has_morphology(self) -> bool:  # guesses are made in propose, with their context
        return False

    def never_change(self, d: str) -> list[str]:
        return list(_NEVER[d])

    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        if d == "f2m":
            return {}
        return {}

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
        return True

    # ------------------------------------------------------------------ helpers
    def _guess(
        self, d: str, word: str, lex: Lexicon, verbish_ok: bool, trust_seen: bool = True
    ) -> str | None:
        """The other-gender form of ``word`` by suffix, when it is a French word."""
        verblike = word.endswith(_VERBLIKE_M) and not word.endswith(("ais", "ois"))
        if d == "m2f" and not verbish_ok and verblike:
            return None
        if word in _NO_GUESS:
            return None
        seen = lex.seen.get(word)
        if trust_seen and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        z_src = lex.zipf.get(word, 0.0)
        plural = word.endswith(("s", "x"))

        def zipf(cand: str) -> float:
            z = lex.zipf.get(cand, 0.0)
            if not z and plural and cand.endswith("s"):  # a rare plural of a known singular
                z = lex.zipf.get(cand[:-1], 0.0) - 0.3
            return z

        best = None
        for fem, mas in _SUFFIXES:
            src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
            if word.endswith(src) and len(word) > len(src) + 2:
                cand = word[: len(word) - len(src)] + tgt
                z = zipf(cand)
                if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
                    best = (z, cand)
            if d == "m2f" and src == "é" and word.endswith("é"):
                break
        short = 2 if verbish_ok and word.endswith(("u", "é")) else 3  # `élu`, `vu`
        if best is None and d == "m2f" and len(word) > short and word[-1] in "tdslnrué":
            cand = word + "e"
            z = lex.zipf.get(cand, 0.0)
            if z >= 2.0 and z >= z_src - 1.5:
                best = (z, cand)
        return best[1] if best else None

    # ------------------------------------------------------------------ proposals
    def propose(
        self, d: str, s: Sentence, covered: Sequence[bool], plan: Plan, lex: Lexicon
    ) -> Plan:
        out: Plan = {}
        low, toks = s.low, s.toks
        n = len(low)

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        def gap(i: int) -> str:  # between token i and i + 1
            return s.gap_after(i)

        # -------- a biography's lead sentence, whole (fix_plan undoes a half-rewritten one)
        if "lead" not in s.notes:
            s.notes["lead"] = parse_lead(
                d, s, lambda w: self._guess(d, w, lex, verbish_ok=True, trust_seen=False),
                lex.zipf,
            )  # fmt: skip
        lead = s.notes["lead"]
        if lead is not None and not lead.failed:
            new = {i: (1, (w,)) for i, w in lead.changes.items() if free(i) and w != low[i]}
            if new:
                return new

        def is_name(i: int) -> bool:
            return i > 0 and toks[i][:1].isupper() and not toks[i].isupper()

        # -------- pronouns
        for i in range(n):
            if not free(i):
                continue
            w = low[i]
            nxt = low[i + 1] if i + 1 < n else ""
            prev = low[i - 1] if i > 0 else ""
            g = gap(i)
            emphatic = (g == "-" and nxt == "même") or (
                g == " " and nxt in ("aussi", "seul", "seule", "qui", "non", "seuls")
            )
            if g == "-" and nxt == "même" and self._of_subject_noun(d, s, i):
                continue  # `La chapelle elle-même`: the noun's, not the person's
            after_prep = prev in _PREP and (i == 0 or gap(i - 1) in (" ", ""))
            verb_next = g == " " and (nxt in _CLITIC_BETWEEN or nxt in ("l'", "le", "la", "les")
                                      or nxt in _COPULA or nxt in _HAVE)  # fmt: skip
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
                if not self._impersonal(low, i):
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
        if out:
            return out

        def tgt(i: int) -> str:
            """The word at token i after the plan (lower case, first target word)."""
            for j, (ln, t) in plan.items():
                if j <= i < j + ln:
                    return t[min(i - j, len(t) - 1)]
            return low[i]

        changed_pron = {
            i for i, (ln, t) in plan.items() if ln == 1 and low[i] in ("il", "elle") and t
        }

        # -------- noun phrases around a changed word
        nominal = [
            i for i, (ln, t) in plan.items()
            if ln == 1 and low[i] not in ("il", "elle", "lui", "m", "mme")
            and low[i] not in _DET_F2M and low[i] not in _DET_M2F
        ]  # fmt: skip
        for j in sorted(nominal):
            # left: adjectives, compound prefixes, then the determiner
            k = j - 1
            while k >= 0 and gap(k) in (" ", "-", ""):
                w = low[k]
                if gap(k) == "" and not w.endswith(("'", "’")):
                    break
                if w in _DETS or w == "ces":
                    if free(k):
                        self._set_det(d, k, w, out)
                    self._quantifier(d, s, k, covered, out)
                    break
                if w in ("plus", "moins") and k > 0 and low[k - 1] in ("le", "la"):
                    k -= 1  # a superlative: `le plus vieil homme`
                    continue
                if gap(k) == "-" and w in _FIXED_PREFIX:
                    k -= 1
                    continue
                if d == "f2m" and w in _PRE_F2M:
                    m, mv = _PRE_F2M[w]
                    if free(k) and m != w:
                        out[k] = (1, (mv if starts_vowel(tgt(k + 1)) else m,))
                    k -= 1
                    continue
                if d == "m2f" and w in _PRE_M2F:
                    f = _PRE_M2F[w]
                    if w in ("vieux", "fameux") and tgt(j).endswith(("s", "x")):
                        f += "s"
                    if free(k) and f != w:
                        out[k] = (1, (f,))
                    k -= 1
                    continue
                if w.endswith("ième") or _ORDINAL.match(w) or (covered[k] and not is_name(k)):
                    k -= 1
                    continue
                break
            # right: adjectives after the noun (and its fixed complement: `femme d'affaires`),
            # not after a participle or a predicate (`est devenu grand-père`, `devenu associé`)
            k = j + 1
            if tuple(low[k : k + 2]) in _NOUN_COMPLEMENTS and gap(k) in (" ", ""):
                k += 2
            steps = 0
            while k < n and steps < 2 and gap(k - 1) == " ":
                if not free(k) or is_name(k) or toks[k][:1].isupper():
                    break
                a = _skip_adverbs(low, k)
                if a > k and a < n and free(a) and gap(a - 1) == " " and toks[a].islower():
                    k = a  # `une femme très dévote`, `un homme peu apprécié`
                w = low[k]
                if w in _DETS or w in _PREP or len(w) < 3 or gap(k) == "-":
                    break  # `grand-père` is a compound: its prefix does not agree
                guess = self._guess(d, w, lex, verbish_ok=False, trust_seen=steps > 0)
                if guess is None:
                    break
                if w.endswith(("s", "x")) and tgt(j).endswith(("s", "x")) and guess[-1] == "e":
                    guess += "s"  # `femmes d'affaires néerlandaises`
                out[k] = (1, (guess,))
                k += 1
                steps += 1

        # -------- a role after `en tant que`, `comme`: `en tant que serveuse`
        if changed_pron or nominal:
            for i in range(1, n - 1):
                as_role = (
                    low[i] in ("que", "qu'")
                    and low[i - 1] == "tant"
                    and low[i - 2 : i - 1] == ["en"]
                )
                if not as_role and low[i] != "comme":
                    continue
                k = i + 1
                if not free(k) or not toks[k].islower() or gap(i) not in (" ", ""):
                    continue
                w = low[k]
                if (
                    w in _DETS
                    or w in _PREP
                    or (not as_role and not w.endswith(_AGENT_M + _AGENT_F))
                ):
                    continue
                guess = self._guess(d, w, lex, verbish_ok=as_role, trust_seen=False)
                if guess is not None:
                    out[k] = (1, (guess,))
                elif w in _EPICENE or w.endswith(_EPICENE_ENDINGS):
                    out[k] = (1, (w,))  # the person, of both genders: its adjectives agree

        # -------- an opening participle: `Né à Lisbonne, il étudia` → `Née à Lisbonne, elle`
        k = 0
        if low[:2] == ["ayant", "été"] or low[:3] == ["après", "avoir", "été"]:
            k = low.index("été") + 1
        if k < n and free(k) and toks[k][:1].isupper() == (k == 0) and changed_pron:
            c = next((j for j in range(k, n - 1) if gap(j).strip() == ","), -1)
            if c > k and (c + 1) in changed_pron and low[k].endswith(_PARTICIPLE):
                guess = self._guess(d, low[k], lex, verbish_ok=True, trust_seen=False)
                if guess is not None:
                    out[k] = (1, (guess,))

        # -------- predicates after a changed subject (pronoun or noun) and a copula
        subjects = sorted(
            i for i, (ln, t) in plan.items()
            if ln == 1 and ((i in changed_pron and t[0] in ("il", "elle")) or i in nominal)
        )  # fmt: skip
        starts: list[tuple[int, bool, bool]] = []  # (copula, reflexive, subject is a pronoun)
        for i in subjects:
            k = i + 1
            if low[k : k + 1] == ["qui"] and gap(i) == " " and i not in changed_pron:
                k += 1  # a relative clause on the noun: `le baron qui fut nommé`
                i = k - 1
            reflexive = False
            while k < n and low[k] in _CLITIC_BETWEEN:
                reflexive = reflexive or low[k] in ("se", "s'")
                k += 1
            if k >= n or (i not in changed_pron and k > i + 1):
                continue
            if i not in changed_pron and self._in_complement(s, i):
                continue  # `la maisonnée de la reine était gérée`: not the subject
            opening = i not in changed_pron and self._opens_sentence(s, i)
            starts.append((k, reflexive, i in changed_pron or opening))
        for i in plan:  # `Goldfaden lui-même était un mauvais chanteur`
            emphatic = low[i] in ("lui", "elle") and low[i + 1 : i + 2] == ["même"]
            if emphatic and gap(i) == "-" and (i == 0 or gap(i - 1) == " "):
                starts.append((i + 2, False, True))
        starts += self._elided_subjects(s, changed_pron, nominal)
        starts += self._name_subjects(s, lex)
        for k, reflexive, pron in starts:
            self._predicate(d, s, k, reflexive, pron, covered, out, lex)

        # -------- object clitics le/la before a verb, when the person's words changed
        if plan:
            src_cl, tgt_cl = ("la", "le") if d == "f2m" else ("le", "la")
            for i in range(1, n - 1):
                if low[i] != src_cl or not free(i) or gap(i) != " " or gap(i - 1) != " ":
                    continue
                nxt = low[i + 1]
                if covered[i + 1] or toks[i + 1][:1].isupper() or toks[i][:1].isupper():
                    continue
                if low[i - 1] in _DETS or low[i - 1] in ("tout", "toute"):
                    continue
                if _verb_form(nxt, lex.zipf):
                    out[i] = (1, (tgt_cl,))
                    s.notes.setdefault("clitics", set()).add(i)
        return out

    def _predicate(
        self,
        d: str,
        s: Sentence,
        k: int,
        reflexive: bool,
        pron: bool,
        covered: Sequence[bool],
        out: Plan,
        lex: Lexicon,
    ) -> None:
        """The predicate of the copula at ``k`` whose subject is the person: `est devenue
        célèbre`, `a même été nommée`, `s'est retrouvée seule`, `était calme, agitée et active`."""
        low, toks = s.low, s.toks
        n = len(low)
        if k >= n:
            return
        if low[k] in _AUX_ETRE or low[k] == "avoir":
            k = _skip_adverbs(low, k + 1)
            if k >= n or low[k] != "été":
                return
            k += 1
        elif low[k] in _COPULA or low[k] in _INF_COPULA:
            k += 1
        else:
            return
        k = _skip_adverbs(low, k)
        if (
            k + 2 < n
            and low[k] in ("lui", "elle")
            and s.gap_after(k) == "-"
            and low[k + 1] == "même"
        ):
            k = _skip_adverbs(low, k + 2)  # `s'est lui-même comporté`
        if k >= n or s.gap_after(k - 1) != " ":
            return
        w = low[k]
        nxt = low[k + 1] if k + 1 < n else ""
        if w == "fait" or (reflexive and w in _REFLEXIVE_DATIVE):
            return
        if reflexive and w == "rendu" and nxt == "compte":
            return
        if w == "l'" and nxt in ("un", "une"):
            free_one = k + 1 not in out and not covered[k + 1]
            if free_one and low[k + 2 : k + 3] and low[k + 2] in ("des", "de", "d'"):
                out[k + 1] = (1, ("un" if d == "f2m" else "une",))
                self._one_of(d, s, k + 3, covered, out, lex)
            return
        if w in ("un", "une", "le", "la") and k + 1 < n:
            self._predicate_np(d, k, s, covered, out, lex)
            return
        if covered[k] or k in out or toks[k][:1].isupper():
            return

        def same_form(w: str) -> bool:  # an adjective of both genders: `calme`, `sceptique`
            return w.endswith("e") and not w.endswith("ée") and lex.zipf.get(w, 0.0) >= 2.0

        guess = self._guess(d, w, lex, verbish_ok=True, trust_seen=not pron)
        if guess is not None:
            out[k] = (1, (guess,))
        elif not same_form(w) or s.gap_after(k) not in (", ", " "):
            return
        # coordinated predicates: `calme, agitée et active`
        steps = 0
        while steps < 3:
            g = s.gap_after(k)
            j = k + 1
            if j < n and g == " " and low[j] in ("et", "ou"):
                j += 1
            elif g != ", ":
                break
            j = _skip_adverbs(low, j)
            if j >= n or (j > k + 1 and s.gap_after(j - 1) != " ") or covered[j] or j in out:
                break
            if toks[j][:1].isupper() or len(low[j]) < 3:
                break
            guess = self._guess(d, low[j], lex, verbish_ok=True)
            if guess is not None:
                out[j] = (1, (guess,))
            elif not same_form(low[j]):
                break
            k = j
            steps += 1

    @staticmethod
    def _elided_subjects(
        s: Sentence, changed_pron: set[int], nominal: Sequence[int]
    ) -> list[tuple[int, bool, bool]]:
        """Copulas whose subject is left out or is a relative pronoun standing for the
        person: `il posa sa candidature et fut accepté`, `le baron, qui fut nommé`."""
        low = s.low
        n = len(low)
        found = []
        ends = (".", ";", ":", "?", "!")

        def subject_before(j: int) -> int:
            while j >= 0 and low[j] not in _SUBJECT_WORDS:
                if s.gap_after(j).strip() in ends:
                    return -1
                j -= 1
            return j

        def subject_after(j: int) -> int:
            while j < n and low[j] not in _SUBJECT_WORDS:
                if s.gap_after(j).strip() in ends:
                    return -1
                j += 1
            return j if j < n else -1

        for c in range(1, n):
            if low[c] in _INF_COPULA or (low[c] == "avoir" and "été" in low[c + 1 : c + 3]):
                # an infinitive: its subject is the clause's, before it or after it
                j = subject_before(c - 1)
                if j < 0 and all(t not in _SUBJECT_WORDS for t in low[:c]):
                    j = subject_after(c + 1)
                if j >= 0 and j in changed_pron:
                    found.append((c, False, True))
                continue
            if low[c] not in _COPULA and low[c] not in _AUX_ETRE:
                continue
            k = c - 1
            reflexive = False
            while k > 0 and low[k] in ("ne", "n'", "se", "s'", "y", "en"):
                reflexive = reflexive or low[k] in ("se", "s'")
                k -= 1
            if low[k] in ("et", "puis", "mais") or s.gap_after(k).strip() == ",":
                # the nearest subject before, in this sentence, must be the changed pronoun
                after_and = low[k] in ("et", "puis", "mais")
                j = subject_before(k - 1 if after_and else k)
                if not after_and and subject_before(j - 1) >= 0:
                    continue  # `Ce qui, comme il l'a vu, était`: not the subject of a clause
                if j >= 0 and j in changed_pron:
                    found.append((c, reflexive, True))
        return found

    def _one_of(
        self, d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan, lex: Lexicon
    ) -> None:
        """`l'une des premières conservationnistes`: the plural noun phrase from ``k`` after a
        changed `l'un des`, when its noun is of both genders or takes the other form."""
        low, toks = s.low, s.toks
        n = len(low)
        if k < n and low[k] in ("ses", "ces", "nos", "leurs", "mes") and low[k - 1] in ("de", "d'"):
            k += 1
        while k < n and (low[k].isdigit() or low[k] in _NUMBERS):
            k += 1
        pre = _PRE_F2M if d == "f2m" else _PRE_M2F
        changes: dict[int, str] = {}
        while k < n and low[k] in pre and s.gap_after(k - 1) == " ":
            f = pre[low[k]]
            changes[k] = f[0] if isinstance(f, tuple) else f
            k += 1
        if k >= n or s.gap_after(k - 1) != " " or not toks[k].islower() or not low[k].endswith("s"):
            return
        guess = self._guess(d, low[k], lex, verbish_ok=False, trust_seen=False)
        if guess is not None:
            changes[k] = guess
        elif not (low[k][:-1] in _EPICENE or low[k][:-1].endswith(_EPICENE_ENDINGS)):
            return
        for j, w in changes.items():
            if j not in out and not covered[j] and w != low[j]:
                out[j] = (1, (w,))

    def _predicate_np(
        self, d: str, k: int, s: Sentence, covered: Sequence[bool], out: Plan, lex: Lexicon
    ) -> None:
        """`il est un acteur célèbre` → `elle est une actrice célèbre`: the determiner at ``k``
        and the words of its noun phrase (even an epicene noun: `une fan invétérée`)."""
        low, toks = s.low, s.toks
        n = len(low)
        words = []
        j = k + 1
        while j < n and len(words) < 4 and s.gap_after(j - 1) in (" ", "-"):
            w = low[j]
            if w in _DETS or w in _PREP or w in _CLITIC_BETWEEN or toks[j][:1].isupper():
                break
            if not w.isalpha():
                break
            words.append(j)
            j += 1
            if s.gap_after(j - 1) not in (" ", "-"):
                break
        if not words or low[words[0]] in ("des", "de", "d'"):
            return
        if low[k] in ("un", "une") and words and low[words[0]] in ("de", "des", "d'"):
            return
        changes = {}
        pre = _PRE_F2M if d == "f2m" else _PRE_M2F
        head = True
        for j in words:
            w = low[j]
            if w in pre:
                f = pre[w]
                changes[j] = f[0] if isinstance(f, tuple) else f
                continue
            if covered[j] or j in out:
                head = False
                continue
            g = self._guess(d, w, lex, verbish_ok=True)
            epicene = w in _EPICENE or w.endswith(_EPICENE_ENDINGS)
            if g is not None:
                changes[j] = g
            elif head and not epicene and not w.endswith(("e", "s")):
                return  # a noun of one gender (`le mec`): leave the phrase alone
            elif not epicene and lex.zipf.get(w, 0.0) < 2.0:
                return  # an unknown word
            head = False
        if low[k] not in ("un", "une", "le", "la") or k in out or covered[k]:
            return
        table = _DET_F2M if d == "f2m" else _DET_M2F
        if low[k] in table:
            out[k] = (1, (table[low[k]],))
        for j, g in changes.items():
            out[j] = (1, (g,))

    @staticmethod
    def _impersonal(low: Sequence[str], i: int) -> bool:
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
        if w in ("s'", "se"):
            return nk.startswith(("agi", "avér", "pass", "peut", "pourrait"))
        if k + 1 < n and low[k + 1] in ("fallu", "semblé", "suffi", "paru", "plu"):
            return True
        if w in ("est", "était", "fut", "sera", "serait", "a", "avait", "aurait", "soit"):
            k += 1
            if k < n and low[k] == "été":
                k += 1
            elif w in ("a", "avait", "aurait"):
                return False  # `il a décidé que`: a verb of the person
            while k < n and low[k] in _ADVERBS:
                k += 1
            if k + 1 < n and low[k] in _IMPERSONAL_ADJ:
                return low[k + 1] in ("de", "d'", "que", "qu'")
            if k + 1 < n and low[k] == "de" and low[k + 1] in ("coutume", "tradition", "règle"):
                return True
        return False

    @staticmethod
    def _name_subjects(s: Sentence, lex: Lexicon) -> list[tuple[int, bool, bool]]:
        """Copulas right after a name that opens a clause (`Graham est revenu`, `que Doherty
        ne serait pas revenu`), in a sentence whose pronouns show the person's gender."""
        low, toks = s.low, s.toks
        n = len(low)
        found = []
        for t in range(n - 1):
            tok = toks[t]
            if not tok[:1].isupper() or not tok.isalpha() or lex.zipf.get(low[t], 0.0) >= 4.0:
                continue
            opens = (
                t == 0
                or s.gap_after(t - 1).strip() in (".", ";", ":")
                or (low[t - 1] in ("que", "qu'", "et", "lorsque", "quand", "lorsqu'"))
            )
            if t > 0 and toks[t - 1][:1].isupper() and s.gap_after(t - 1) == " ":
                opens = t == 1 or low[t - 2] in ("que", "qu'")  # `Mary Smith est née`
            if not opens or s.gap_after(t) != " ":
                continue
            k = t + 1
            reflexive = False
            while k < n and low[k] in ("ne", "n'", "se", "s'", "y", "en"):
                reflexive = reflexive or low[k] in ("se", "s'")
                k += 1
            if k < n and (low[k] in _COPULA or low[k] in _AUX_ETRE):
                found.append((k, reflexive, True))
        return found

    @staticmethod
    def _thing_subject(s: Sentence, k: int, plan: Plan) -> bool:
        """The subject of the copula at ``k`` is an unchanged noun phrase, not the person:
        `le lieu est devenu`, `le petit chien de Marie est devenu`."""
        low, toks = s.low, s.toks
        j = k - 1
        while j > 0 and low[j] in ("ne", "n'", "se", "s'", "y", "en"):
            j -= 1
        opener = ("que", "qu'", "lorsque", "lorsqu'", "quand", "si", "où", "et", "mais", "car",
                  "puis", "comme", "puisque", "puisqu'")  # fmt: skip
        inner = ("de", "d'", "du", "des", "la", "le", "l'", "les")
        t = j
        while t >= 0 and j - t < 8:
            w = low[t]
            if t in plan or w in _SUBJECT_WORDS or w in ("lui", "eux", "celui", "celle"):
                return False
            if t < j and s.gap_after(t) not in (" ", ""):
                return False
            if w in _DETS or w in _POSSESSIVE or w in ("ces", "cette", "ce", "cet"):
                head = t + 1
                if head <= j and toks[head].isalpha() and toks[head].islower():
                    starts = t == 0 or s.gap_after(t - 1).strip() in (",", ".", ";", ":")
                    if starts or low[t - 1] in opener:
                        return True
            if not (w in inner or toks[t].isalpha() or w.endswith(("'", "’"))):
                return False
            t -= 1
        return False

    @staticmethod
    def _in_complement(s: Sentence, i: int) -> bool:
        """The noun at ``i`` is the complement of a preposition (`de la reine`, `du roi`)."""
        low = s.low
        k = i - 1
        while k >= 0 and (low[k] in _PRE_F2M or low[k] in _PRE_M2F):
            k -= 1
        if k < 0:
            return False
        if low[k] in ("du", "des", "au", "aux") or low[k] in _PREP:
            return True
        return k > 0 and (low[k] in _DETS or low[k] in _POSSESSIVE) and low[k - 1] in _PREP

    @staticmethod
    def _opens_sentence(s: Sentence, i: int) -> bool:
        """The noun at ``i`` heads the noun phrase that opens the sentence (`Ce comédien`)."""
        low = s.low
        k = i - 1
        while k >= 0 and (low[k] in _PRE_F2M or low[k] in _PRE_M2F) and s.gap_after(k) == " ":
            k -= 1
        if k < 0 or not (low[k] in _DETS or low[k] in _POSSESSIVE):
            return False
        return k == 0 or s.gap_after(k - 1).strip() in (".", ";", ":")

    @staticmethod
    def _of_subject_noun(d: str, s: Sentence, i: int) -> bool:
        """The emphatic pronoun at ``i`` follows the subject noun phrase that opens the
        sentence (`La chapelle elle-même est ...`), and agrees with that noun."""
        low, toks = s.low, s.toks
        if i < 2 or not toks[i - 1].islower() or s.gap_after(i - 1) != " ":
            return False
        dets = ("la", "cette", "une", "sa") if d == "f2m" else ("le", "ce", "cet", "un", "son")
        start = i == 2 or s.gap_after(i - 3).strip() in (".", ";", ":", ",")
        return low[i - 2] in dets and start

    def _quantifier(self, d: str, s: Sentence, k: int, covered: Sequence[bool], out: Plan) -> None:
        """`l'un des acteurs` → `l'une des actrices`, `un de ces hommes`, `tous les rois`:
        the pronoun before the plural determiner at ``k`` agrees with its noun."""
        low = s.low
        if low[k] not in ("des", "ces", "ses", "les") or k == 0:
            return
        q = k - 1
        if low[k] in ("ces", "ses") and low[q] in ("de", "d'") and q > 0:
            q -= 1
        elif low[k] == "les" and low[q] not in ("tous", "toutes"):
            return
        if not s.joined(q) or covered[q] or q in out:
            return
        table = _QUANT_M2F if d == "m2f" else {v: k for k, v in _QUANT_M2F.items()}
        if low[q] in table:
            out[q] = (1, (table[low[q]],))

    def _set_det(self, d: str, k: int, w: str, out: Plan) -> None:
        table = _DET_F2M if d == "f2m" else _DET_M2F
        if w in table:
            out[k] = (1, tuple(table[w].split()))

    # ------------------------------------------------------------------ final touches
    def fix_plan(self, d: str, s: Sentence, plan: Plan) -> None:
        low = s.low
        n = len(low)
        # participles that cannot agree with the person: after `avoir` (`il a nommé`), or
        # after a copula whose subject is an unchanged common noun (`le lieu est devenu`)
        for i in sorted(plan):
            if i not in plan:
                continue
            ln, t = plan[i]
            if ln != 1 or i == 0 or low[i] in _NOT_PARTICIPLE or not low[i].endswith(_PARTICIPLE):
                continue
            k = i - 1
            while k > 0 and low[k] in _ADVERBS:
                k -= 1
            if low[k] in _AVOIR and (k + 1 == i or low[k + 1] != "été"):
                if k == 0 or low[k - 1] not in ("l'", "la", "le", "les", "que", "qu'", "m'"):
                    del plan[i]  # a direct object before `avoir` agrees: `l'ont arrêtée`
                continue
            if low[k] == "été":
                k -= 1
            if (low[k] in _COPULA or low[k] in _AVOIR) and self._thing_subject(s, k, plan):
                del plan[i]
                # and what agreed with it: `le lieu est devenu associé`
                j = i + 1
                while j in plan and j < n and low[j].isalpha() and s.gap_after(j - 1) == " ":
                    if low[j] in ("il", "elle", "lui") or plan[j][0] != 1:
                        break
                    del plan[j]
                    j += 1

        lead = s.notes.get("lead")
        if lead is not None and lead.failed:
            plan.clear()  # a half-rewritten lead is worse than none
            return
        if lead is not None:
            for i in lead.keep:
                plan.pop(i, None)
            for i, w in lead.changes.items():
                if w != low[i]:
                    plan[i] = (1, (w,))

        def final(i: int) -> str:
            for j, (ln, t) in plan.items():
                if j <= i < j + ln:
                    return t[-1] if i == j + ln - 1 else t[0]
            return low[i]

        # the form of a word before the next one: elision, `ce`/`cet`, `son amie`
        for i in sorted(plan):
            ln, t = plan[i]
            if ln != 1:
                continue
            last = i + ln
            if last >= n or s.gap_after(i) not in (" ", ""):
                continue
            nxt = final(last)
            vowel = starts_vowel(nxt)
            w = t[-1]
            new = w
            if w in ("le", "la") and vowel and (last in plan or w != low[i]):
                new = "l'"
            elif w == "ce" and vowel:
                new = "cet"
            elif w == "cet" and not vowel:
                new = "ce"
            elif w in ("ma", "ta", "sa") and vowel:
                new = {"ma": "mon", "ta": "ton", "sa": "son"}[w]
            elif w in ("nouveau", "beau", "vieux") and vowel:
                new = {"nouveau": "nouvel", "beau": "bel", "vieux": "vieil"}[w]
            if new != w:
                plan[i] = (ln, (*t[:-1], new))
        # an unchanged `de`/`que`/`la` before a word whose first letter changed class
        elide = {"de": "d'", "que": "qu'", "ne": "n'", "se": "s'", "le": "l'", "la": "l'",
                 "lorsque": "lorsqu'", "puisque": "puisqu'", "jusque": "jusqu'", "me": "m'",
                 "je": "j'", "te": "t'"}  # fmt: skip
        full = {v: k for k, v in elide.items() if k not in ("le", "la")}
        for i in sorted(plan):
            if i == 0 or (i - 1) in plan:
                continue
            prev = low[i - 1]
            g = s.gap_after(i - 1)
            first = plan[i][1][0]
            if prev in elide and g == " " and starts_vowel(first) and prev not in ("le", "la"):
                plan[i - 1] = (1, (elide[prev],))
            elif prev in full and g == "" and not starts_vowel(first):
                plan[i - 1] = (1, (full[prev],))
        # `de la` + vowel: `de l'`
        for i in sorted(plan):
            ln, t = plan[i]
            if len(t) == 2 and t[1] == "la" and i + ln < n and starts_vowel(final(i + ln)):
                plan[i] = (ln, (t[0], "l'"))
        # `de le roi` → `du roi`, but not the clitic of `de le soigner`
        clitic = s.notes.get("clitics", set())
        articles = {i: v for i, v in plan.items() if i not in clitic}
        clitics = {i: v for i, v in plan.items() if i not in articles}
        merge_contractions(s, articles, {("de", "le"): "du", ("à", "le"): "au"})
        plan.clear()
        plan.update(articles)
        plan.update(clitics)


RULES = French(
    "fr",
    copulas=frozenset({"fut", "était", "est", "été", "devint", "devient", "étant"}),
)
