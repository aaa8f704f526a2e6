"""French: pronouns by role, articles with elision and contraction, noun-phrase agreement.

The learned tables (``learned_fr.json``) give the frequent person words (``acteur``/``actrice``,
``né``/``née``); this module adds what French grammar knows better than counts:

* subject ``il``/``elle`` (not the impersonal ``il y a``, ``il faut``, ``il est possible de``),
  stressed ``lui``/``elle`` (``de lui``, ``lui-même``, ``lui aussi``) while the indirect object
  ``lui`` (``lui offrant``) stays, object clitics ``le``/``la`` before a verb;
* a changed noun carries its noun phrase: determiner (``le``/``la``, ``un``/``une``,
  ``ce``/``cet``/``cette``, ``son``/``sa``, ``du``/``de la``, ``au``/``à la``), the adjectives
  before it (``un jeune baron`` → ``une jeune baronne``) and after it (``actrice américaine``);
* predicates after a changed subject pronoun and a copula (``elle est devenue célèbre``);
* elision and contraction of the result (``le homme`` → ``l'homme``, ``de le roi`` → ``du roi``,
  ``d'elle`` → ``de lui``, ``son amie``).

Suffix guesses (-eur/-euse, -teur/-trice, -ien/-ienne, -if/-ive, -er/-ère, -é/-ée ...) are made
here, with their context, instead of by the engine, and must be words of French (wordfreq).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence, merge_contractions

_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")
#: words with an aspirated h (no elision: `le héros`), and their families
_H_ASPIRE = (
    "hâ", "hach", "haï", "haine", "hall", "halte", "hamea", "hamp", "hanch", "handi", "hang",
    "hant", "harc", "hard", "hareng", "hargn", "haricot", "harp", "hasard", "hât", "hauss",
    "haut", "havr", "hennir", "hér", "héron", "héros", "hêtre", "heurt", "hibou", "hideu",
    "hiérarch", "hiss", "hock", "hold", "hollandais", "homard", "hongr", "honte", "hont", "hoquet",
    "hors", "hot", "houl", "hous", "hubl", "huées", "huit", "hurl", "hutte", "hyène",
)  # fmt: skip
_H_MUET = ("héroïne", "héritier", "héritière", "hérit", "héroïq", "hérés")


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


# ------------------------------------------------------------------------------ word classes
_PREP = frozenset(
    "de d' à a pour par chez avec sans sur contre vers entre envers selon après avant devant "
    "derrière comme et ou que qu' parmi auprès près malgré sauf hormis outre".split()
)
# `a` above: `à` written without its accent; `que`/`qu'` as in `plus que lui`, `tant que lui-même`

#: words that follow a subject pronoun but are no verb of the person (`il y a`, `il faut`)
_IMPERSONAL_NEXT = frozenset(
    "y faut fallait fallut faudra faudrait s'agit s'agissait s'agira s'agirait semble semblait "
    "sembla existe existait exista suffit suffisait suffira reste restait resta importe "
    "convient convenait paraît paraissait vaut valait vaudrait pleut pleuvait arrive arrivait "
    "arriva se".split()
)
#: predicates of impersonal `il est/était ... de/que`
_IMPERSONAL_ADJ = frozenset(
    "possible impossible probable improbable nécessaire difficile facile important clair "
    "évident temps vrai certain intéressant rare courant interdit dit rapporté prévu question "
    "dommage inutile utile indispensable essentiel logique normal naturel juste permis "
    "préférable souhaitable fréquent habituel connu admis établi écrit noté crucial impératif "
    "primordial urgent vital annoncé estimé décidé convenu décrété signalé indiqué démontré "
    "prouvé suggéré proposé révélé affirmé déclaré observé constaté expliqué précisé souligné "
    "montré confirmé envisagé temps l'heure".split()
)
_ORDINAL = re.compile(r"\d+(?:e|è|ème|eme|er|re|ère)$")
_EPICENE = frozenset(
    "fan membre porte parole juge ministre maire peintre poète artiste élève adulte enfant "
    "guide chef star vedette personne cible victime témoin modèle mannequin pilote secrétaire "
    "camarade collègue complice partenaire responsable interprète critique athlète "
    "philosophe diplomate architecte compositeur".split()
)
_PARTICIPLE = ("é", "ée", "és", "ées", "u", "ue", "us", "ues", "i", "ie", "is", "ies", "it",
               "ite", "ise", "ises", "ert", "erte", "int", "inte")  # fmt: skip
_AVOIR = frozenset("a avait aurait aura avoir ayant ont avaient eut eu auraient".split())
_SUBJECT_WORDS = frozenset("qui que qu' il elle on ils elles je tu nous vous".split())
_POSSESSIVE = frozenset("sa son ses ma mon mes ta ton tes leur leurs notre nos votre vos".split())
_NUMBERS = frozenset("deux trois quatre cinq six sept huit neuf dix onze douze".split())
_HAVE = frozenset("a avait ont avaient eut eurent aura auront".split())
_COPULA = frozenset(
    "est était fut sera serait soit fût devient devint devenait deviendra resta reste restait "
    "demeure demeura demeurait semble semblait sembla paraît paraissait parut étant "
    "meurt mourut".split()
)
_AUX_ETRE = frozenset("a avait aura aurait eut ayant".split())  # + été
_ADVERBS = frozenset(
    "ne n' pas plus jamais aussi également très alors ensuite toujours souvent déjà bien "
    "encore vite mal tout trop si assez particulièrement notamment rapidement finalement "
    "longtemps presque peu beaucoup même surtout parfois désormais enfin puis tôt tard "
    "largement officiellement brièvement seulement donc ainsi cependant pourtant".split()
)
_CLITIC_BETWEEN = frozenset("ne n' se s' y en lui leur me m' te t' nous vous".split())

# (feminine, masculine) determiners
_DET_F2M = {"la": "le", "une": "un", "cette": "ce", "ma": "mon", "ta": "ton", "sa": "son"}
_DET_M2F = {"le": "la", "un": "une", "ce": "cette", "cet": "cette", "mon": "ma", "ton": "ta",
            "son": "sa", "du": "de la", "au": "à la"}  # fmt: skip
_DETS = frozenset(_DET_F2M) | frozenset(_DET_M2F) | {"l'", "les", "des", "ses", "aux"}

#: adjectives that stand before the noun, as (feminine, masculine, masculine before a vowel)
_PRE_ADJ = [
    ("jeune", "jeune", ""), ("grande", "grand", ""), ("petite", "petit", ""),
    ("nouvelle", "nouveau", "nouvel"), ("vieille", "vieux", "vieil"), ("belle", "beau", "bel"),
    ("première", "premier", ""), ("dernière", "dernier", ""), ("seule", "seul", ""),
    ("ancienne", "ancien", ""), ("future", "futur", ""), ("meilleure", "meilleur", ""),
    ("mauvaise", "mauvais", ""), ("bonne", "bon", ""), ("chère", "cher", ""),
    ("fameuse", "fameux", ""), ("sainte", "saint", ""), ("seconde", "second", ""),
    ("même", "même", ""), ("autre", "autre", ""), ("célèbre", "célèbre", ""),
    ("véritable", "véritable", ""), ("unique", "unique", ""), ("éminente", "éminent", ""),
    ("brillante", "brillant", ""), ("talentueuse", "talentueux", ""),
    ("prolifique", "prolifique", ""),
    ("populaire", "populaire", ""), ("riche", "riche", ""), ("pauvre", "pauvre", ""),
    ("digne", "digne", ""), ("ex", "ex", ""), ("vice", "vice", ""), ("demi", "demi", ""),
    ("arrière", "arrière", ""), ("sous", "sous", ""), ("co", "co", ""), ("feue", "feu", ""),
    ("défunte", "défunt", ""), ("actuelle", "actuel", ""), ("éventuelle", "éventuel", ""),
    ("principale", "principal", ""), ("ancienne", "ancien", ""), ("fidèle", "fidèle", ""),
    ("grande", "grand", ""), ("toute", "tout", ""), ("haute", "haut", ""),
    ("petites", "petits", ""), ("belles", "beaux", ""), ("grandes", "grands", ""),
]  # fmt: skip
_PRE_F2M: dict[str, tuple[str, str]] = {}
_PRE_M2F: dict[str, str] = {}
for _f, _m, _mv in _PRE_ADJ:
    _PRE_F2M[_f] = (_m, _mv or _m)
    _PRE_M2F[_m] = _f
    if _mv:
        _PRE_M2F[_mv] = _f

#: `grand-père` → `grand-mère`: the prefix of these compounds does not agree
_FIXED_PREFIX = frozenset({"grand", "grands", "demi", "vice", "ex", "arrière", "co", "sous", "mi"})

# (feminine ending, masculine ending): suffix guesses, longest first
_SUFFIXES = [
    ("eresse", "eur"), ("euses", "eurs"), ("euse", "eur"), ("rices", "eurs"), ("rice", "eur"),
    ("iennes", "iens"), ("ienne", "ien"), ("éennes", "éens"), ("éenne", "éen"),
    ("ives", "ifs"), ("ive", "if"), ("ères", "ers"), ("ère", "er"), ("elles", "els"),
    ("elle", "el"), ("ettes", "ets"), ("ette", "et"), ("onnes", "ons"), ("onne", "on"),
    ("eures", "eurs"), ("eure", "eur"), ("ées", "és"), ("ée", "é"), ("ues", "us"), ("ue", "u"),
    ("ies", "is"), ("ie", "i"), ("ises", "is"), ("ise", "is"), ("ites", "its"), ("ite", "it"),
    ("antes", "ants"), ("ante", "ant"), ("entes", "ents"), ("ente", "ent"),
    ("aises", "ais"), ("aise", "ais"), ("oises", "ois"), ("oise", "ois"),
    ("aines", "ains"), ("aine", "ain"), ("ines", "ins"), ("ine", "in"),
    ("ales", "aux"), ("ale", "al"), ("uses", "us"), ("use", "us"), ("ortes", "orts"),
    ("orte", "ort"), ("ottes", "ots"), ("otte", "ot"), ("ardes", "ards"), ("arde", "ard"),
    ("andes", "ands"), ("ande", "and"), ("ètes", "ets"), ("ète", "et"),
    ("ouses", "oux"), ("ouse", "oux"), ("ites", "its"),
]  # fmt: skip
#: endings of a masculine word that may also be a verb form (`il écrit`, `il finit`): guessed
#: only as a predicate or right after a changed noun-phrase word
_VERBLIKE_M = ("it", "is", "i", "ut", "ant", "ent")

_NEVER = {
    "f2m": ["femme", "elle", "mme", "la", "une", "sa", "cette", "ma", "de la", "à la", "filles",
            "toutes", "vieille", "belles", "demie", "fille", "ancienne"],
    "m2f": ["il", "lui", "m", "le", "un", "son", "ce", "mon", "du", "au", "tous", "demi",
            "vieil", "beaux", "rendu", "fils", "ancien"],
}  # fmt: skip


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

    # ------------------------------------------------------------------ helpers
    def _guess(
        self, d: str, word: str, lex: Lexicon, verbish_ok: bool, trust_seen: bool = True
    ) -> str | None:
        """The other-gender form of ``word`` by suffix, when it is a French word."""
        verblike = word.endswith(_VERBLIKE_M) and not word.endswith(("ais", "ois"))
        if d == "m2f" and not verbish_ok and verblike:
            return None
        seen = lex.seen.get(word)
        if trust_seen and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        z_src = lex.zipf.get(word, 0.0)
        best = None
        for fem, mas in _SUFFIXES:
            src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
            if word.endswith(src) and len(word) > len(src) + 2:
                cand = word[: len(word) - len(src)] + tgt
                z = lex.zipf.get(cand, 0.0)
                if z >= 2.0 and z >= z_src - 1.5 and (best is None or z > best[0]):
                    best = (z, cand)
            if d == "m2f" and src == "é" and word.endswith("é"):
                break
        if best is None and d == "m2f" and len(word) > 3 and word[-1] in "tdslnrué":
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
                if w in _DETS:
                    if free(k):
                        self._set_det(d, k, w, out)
                    break
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
                    if free(k) and _PRE_M2F[w] != w:
                        out[k] = (1, (_PRE_M2F[w],))
                    k -= 1
                    continue
                if w.endswith("ième") or _ORDINAL.match(w) or (covered[k] and not is_name(k)):
                    k -= 1
                    continue
                break
            # right: adjectives after the noun
            k = j + 1
            steps = 0
            while k < n and steps < 2 and gap(k - 1) == " ":
                if not free(k) or is_name(k) or toks[k][:1].isupper():
                    break
                w = low[k]
                if w in _DETS or w in _PREP or len(w) < 3:
                    break
                guess = self._guess(d, w, lex, verbish_ok=False, trust_seen=steps > 0)
                if guess is None:
                    break
                out[k] = (1, (guess,))
                k += 1
                steps += 1

        # -------- predicates after a changed subject (pronoun or noun) and a copula
        subjects = sorted(
            i for i, (ln, t) in plan.items()
            if ln == 1 and ((i in changed_pron and t[0] in ("il", "elle")) or i in nominal)
        )  # fmt: skip
        for i in subjects:
            k = i + 1
            reflexive = False
            while k < n and low[k] in _CLITIC_BETWEEN:
                reflexive = reflexive or low[k] in ("se", "s'")
                k += 1
            if k >= n or (i not in changed_pron and k > i + 1):
                continue
            if low[k] in _AUX_ETRE and k + 1 < n and low[k + 1] == "été":
                k += 2
            elif low[k] in _COPULA:
                k += 1
            else:
                continue
            while k < n and low[k] in _ADVERBS:
                k += 1
            if k >= n or gap(k - 1) != " ":
                continue
            w = low[k]
            if (reflexive and w in ("rendu", "permis", "demandé", "dit", "donné")) or w == "fait":
                continue
            if w == "l'" and k + 1 < n and low[k + 1] in ("un", "une"):
                if free(k + 1) and low[k + 2 : k + 3] and low[k + 2] in ("des", "de", "d'"):
                    out[k + 1] = (1, ("un" if d == "f2m" else "une",))
                continue
            if w in ("un", "une", "le", "la") and k + 1 < n:
                self._predicate_np(d, k, s, covered, out, lex)
                continue
            if free(k) and not is_name(k):
                guess = self._guess(d, w, lex, verbish_ok=True)
                if guess is not None:
                    out[k] = (1, (guess,))

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
        return out

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
        for j in words:
            if covered[j] or j in out:
                continue
            g = self._guess(d, low[j], lex, verbish_ok=True)
            if g is not None:
                changes[j] = g
            elif (
                low[j] not in _EPICENE
                and not low[j].endswith(("iste", "aire", "ique", "logue"))
                and lex.zipf.get(low[j], 0.0) < 2.0
            ):
                return  # an unknown word: leave the phrase alone
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
            while k < n and low[k] in _ADVERBS:
                k += 1
            if k + 1 < n and low[k] in _IMPERSONAL_ADJ:
                return low[k + 1] in ("de", "d'", "que", "qu'")
            if k + 1 < n and low[k] == "de" and low[k + 1] in ("coutume", "tradition", "règle"):
                return True
        return False

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
            ln, t = plan[i]
            if ln != 1 or i == 0 or low[i] == "été" or not low[i].endswith(_PARTICIPLE):
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
            if low[k] in _COPULA or low[k] in _AVOIR:
                subj = k - 1
                if subj > 0 and subj not in plan and s.toks[subj].isalpha():
                    w = s.toks[subj]
                    after_det = low[subj - 1] in _DETS | _POSSESSIVE and (subj - 1) not in plan
                    if w.islower() and after_det and s.gap_after(subj) == " ":
                        del plan[i]

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
        articles = {i: v for i, v in plan.items() if i + 1 in plan or v[1] != ("le",)}
        clitics = {i: v for i, v in plan.items() if i not in articles}
        merge_contractions(s, articles, {("de", "le"): "du", ("à", "le"): "au"})
        plan.clear()
        plan.update(articles)
        plan.update(clitics)


RULES = French(
    "fr",
    copulas=frozenset({"fut", "était", "est", "été", "devint", "devient", "étant"}),
)
