"""Portuguese: pronouns, person nouns, articles and contractions that agree with a changed noun,
adjectives next to it, predicates after a copula whose subject is the person, object clitics.

The engine's own suffix guess (any word next to any changed word) is switched off
(``suffixes=()``): every agreement here is proposed by :meth:`Portuguese.propose`, which sees the
whole sentence and so can tell an adjective after a changed noun (`o filho mais novo`) from a verb
after a changed pronoun (`ela continua`) or a noun after a changed contraction (`o parto da
duquesa`). Word lists are grammar knowledge (closed classes, person nouns); frequencies come from
wordfreq through ``lex.zipf``.
"""

from __future__ import annotations

from dataclasses import dataclass

from occbio.rewrite.languages.base import Language, Lexicon, Plan, Sentence

# ---------------------------------------------------------------- closed classes, (fem, masc)
_DETS = [
    ("a", "o"),
    ("as", "os"),
    ("uma", "um"),
    ("umas", "uns"),
    ("da", "do"),
    ("das", "dos"),
    ("na", "no"),
    ("nas", "nos"),
    ("à", "ao"),
    ("às", "aos"),
    ("pela", "pelo"),
    ("pelas", "pelos"),
    ("duma", "dum"),
    ("numa", "num"),
    ("sua", "seu"),
    ("suas", "seus"),
    ("minha", "meu"),
    ("minhas", "meus"),
    ("tua", "teu"),
    ("nossa", "nosso"),
    ("nossas", "nossos"),
    ("esta", "este"),
    ("estas", "estes"),
    ("essa", "esse"),
    ("essas", "esses"),
    ("aquela", "aquele"),
    ("aquelas", "aqueles"),
    ("desta", "deste"),
    ("dessa", "desse"),
    ("daquela", "daquele"),
    ("nesta", "neste"),
    ("nessa", "nesse"),
    ("naquela", "naquele"),
    ("àquela", "àquele"),
    ("duas", "dois"),
    ("ambas", "ambos"),
    ("todas", "todos"),
    ("outra", "outro"),
    ("outras", "outros"),
    ("várias", "vários"),
    ("algumas", "alguns"),
    ("alguma", "algum"),
    ("nenhuma", "nenhum"),
    ("muitas", "muitos"),
    ("poucas", "poucos"),
    ("tantas", "tantos"),
    ("quantas", "quantos"),
    ("cujas", "cujos"),
    ("cuja", "cujo"),
]
# determiners that behave like adjectives: the article before them agrees (`os outros réus`)
_ADJ_DETS = frozenset(
    "dois duas outro outra outros outras vários várias muitos muitas poucos poucas".split()
)
# `todos os homens`: agrees with the article after it
_ALL_DETS = frozenset("todos todas todo toda ambos ambas".split())
_ARTICLES = frozenset("o a os as do da dos das no na nos nas ao à aos às pelo pela".split())
_POSSESSIVES = frozenset("seu sua seus suas meu minha meus minhas".split())
_PRONOUNS = [("ela", "ele"), ("dela", "dele"), ("nela", "nele"), ("daquela", "daquele")]

# Person nouns whose feminine is not the regular suffix change, and frequent regular ones that
# may stand anywhere (not only after a copula). (masculine, feminine)
_PERSON = [
    ("homem", "mulher"),
    ("homens", "mulheres"),
    ("menino", "menina"),
    ("meninos", "meninas"),
    ("garoto", "garota"),
    ("garotos", "garotas"),
    ("filho", "filha"),
    ("irmão", "irmã"),
    ("irmãos", "irmãs"),
    ("avô", "avó"),
    ("neto", "neta"),
    ("netos", "netas"),
    ("bisneto", "bisneta"),
    ("bisnetos", "bisnetas"),
    ("tio", "tia"),
    ("sobrinho", "sobrinha"),
    ("marido", "esposa"),
    ("maridos", "esposas"),
    ("esposo", "esposa"),
    ("noivo", "noiva"),
    ("viúvo", "viúva"),
    ("padrasto", "madrasta"),
    ("rei", "rainha"),
    ("reis", "rainhas"),
    ("príncipe", "princesa"),
    ("príncipes", "princesas"),
    ("imperador", "imperatriz"),
    ("imperadores", "imperatrizes"),
    ("conde", "condessa"),
    ("condes", "condessas"),
    ("duque", "duquesa"),
    ("duques", "duquesas"),
    ("arquiduque", "arquiduquesa"),
    ("barão", "baronesa"),
    ("barões", "baronesas"),
    ("visconde", "viscondessa"),
    ("viscondes", "viscondessas"),
    ("marquês", "marquesa"),
    ("cavalheiro", "dama"),
    ("cavalheiros", "damas"),
    ("senhor", "senhora"),
    ("senhores", "senhoras"),
    ("sacerdote", "sacerdotisa"),
    ("sacerdotes", "sacerdotisas"),
    ("monge", "freira"),
    ("monges", "freiras"),
    ("abade", "abadessa"),
    ("herói", "heroína"),
    ("heróis", "heroínas"),
    ("poeta", "poetisa"),
    ("profeta", "profetisa"),
    ("ator", "atriz"),
    ("atores", "atrizes"),
    ("patriarca", "matriarca"),
    ("réu", "ré"),
    ("réus", "rés"),
    ("czar", "czarina"),
    ("padrinho", "madrinha"),
]
# only as the predicate or after `como` (elsewhere often another person)
_PERSON_PRED = [
    ("pai", "mãe"),
    ("campeão", "campeã"),
    ("mestre", "mestra"),
    ("herdeiro", "herdeira"),
    ("cidadão", "cidadã"),
    ("capitão", "capitã"),
    ("guardião", "guardiã"),
    ("anfitrião", "anfitriã"),
    ("vilão", "vilã"),
    ("órfão", "órfã"),
    ("embaixador", "embaixatriz"),
    ("primo", "prima"),
    ("amigo", "amiga"),
    ("juiz", "juíza"),
]

# Endings (masculine form) of words that are adjectives or person nouns, safe to inflect next to
# a changed noun; a bare -o/-a word needs one of these or to be in _ADJ.
_ADJ_ENDINGS = (
    "ado", "ido", "oso", "ivo", "ico", "ano", "ário", "eiro", "ento", "udo", "ório", "ério",
    "esco", "ístico", "ino", "ável", "ólogo", "ógrafo", "or", "ês", "ão", "eto", "ito", "into",
    "ordo", "ulo", "inho", "íno", "uro",
)  # fmt: skip
_ADJ = frozenset(
    """novo velho lindo belo branco negro preto alto baixo gordo magro louco rico cego surdo
    mudo morto vivo sozinho pequeno bonito feio fraco duro primeiro segundo terceiro quarto quinto
    sexto sétimo oitavo nono décimo último próprio mesmo único outro certo tal famoso jovem
    solteiro casado viúvo divorciado nascido eleito preso honesto justo sério sábio calmo
    tímido ruivo moreno loiro louro escuro claro querido amado perfeito pronto culpado inocente
    dedicado apaixonado orgulhoso bravo cansado zangado satisfeito contente atento fiel
    autônomo independente infeliz feliz""".split()
)
# words that end like an adjective but are (also) frequent nouns or verbs
_NOT_ADJ = frozenset(
    """caso jogo parto passado estado mercado resultado reinado condado ducado senado partido
    sentido vestido tratado bispado marido conto canto ensino trabalho acho volto torno lembro
    continuo recordo encontro passo junto conta casa marco maio ano plano piano deixo acho jogo
    falo gosto penso chamo fico levo toco mando pergunto olho ando luto apoio moro ajudo estudo
    sonho espero procuro chego uso""".split()
)
_ADV = frozenset(
    """muito tão bem mais menos bastante extremamente particularmente também ainda já
    sempre nunca então depois logo novamente inicialmente posteriormente finalmente oficialmente
    rapidamente igualmente considerado considerada""".split()
)
_COPULAS = frozenset(
    """foi era é será seria fora sido ser estava esteve está estar sendo ficou fica ficava
    ficaria permaneceu permanece parecia parece tornou torna tornara tornar""".split()
)
_AUX = frozenset(
    """tinha havia tem teria tendo ter terá pode podia poderia deve devia deveria iria vai ia
    foi""".split()
)
_SUBJ_SKIP = frozenset(
    """também não já então ainda nunca sempre logo depois mais tarde se posteriormente
    inicialmente finalmente oficialmente""".split()
)
_PRE_CLITIC = frozenset(
    """que não nunca jamais já também ainda quem onde quando se e alguns muitos todos""".split()
)
_PREP = frozenset("de para a sem por após antes ao".split())
# a capitalised word after these is not a person's name (`O Parlamento`, `Universidade de Lisboa`)
_NAME_BLOCK = frozenset(
    """o a os as um uma do da dos das no na nos nas ao à pelo pela de em e seu sua este esta
    esse essa""".split()
)
_HEAD_END = frozenset("a de do da dos das em entre que para".split())
_VERB_ENDINGS = ("ram", "rem", "ou", "iu", "ava", "avam", "iam", "aria", "ará")
# suffix changes (feminine, masculine), longest first
_SUFFIXES = [
    ("oras", "ores"),
    ("ora", "or"),
    ("esas", "eses"),
    ("esa", "ês"),
    ("onas", "ões"),
    ("ona", "ão"),
    ("ãs", "ãos"),
    ("ã", "ão"),
    ("eia", "eu"),
    ("as", "os"),
    ("a", "o"),
]
_PERSON_ENDINGS = (
    "or", "ores", "eiro", "eiros", "ário", "ários", "ólogo", "ógrafo", "ês", "ico", "ado",
    "ino", "eto", "ano", "ão", "ista", "ante", "ente",
)  # fmt: skip
_INVARIANT_PERSON_ENDINGS = ("ista", "ante", "ente", "cida", "arca", "nauta", "ota")


def _fm(pairs, d):
    """{source: target} for direction d from (masculine, feminine) pairs."""
    return {m: f for m, f in pairs} if d == "m2f" else {f: m for m, f in pairs}


@dataclass
class Portuguese(Language):
    def __post_init__(self) -> None:
        super().__post_init__()
        self._dets = {
            "m2f": {m: f for f, m in _DETS},
            "f2m": {f: m for f, m in _DETS},
        }
        self._all_dets = frozenset(w for p in _DETS for w in p)
        self._pron = {"m2f": {m: f for f, m in _PRONOUNS}, "f2m": dict(_PRONOUNS)}
        self._all_pron = frozenset(w for p in _PRONOUNS for w in p) | {"eles", "elas"}
        self._person = {d: _fm(_PERSON, d) for d in ("m2f", "f2m")}
        self._person_pred = {d: {**_fm(_PERSON_PRED, d), **self._person[d]} for d in ("m2f", "f2m")}

    # ---------------------------------------------------------------- substitutions
    def extra_subs(self, d: str) -> dict[str, tuple[str, str]]:
        out = {s: ("free", t) for s, t in self._person[d].items()}
        out.update({s: ("free", t) for s, t in self._pron[d].items()})
        return out

    def never_change(self, d: str) -> list[str]:
        # articles and contractions: only through the guarded rule in propose
        # `pais` (parents / fathers) and `membro` are usually left alone
        return [*sorted(self._dets[d]), "o", "a", "lo", "la", "pais", "membro", "membros"]

    # ---------------------------------------------------------------- helpers
    def _flip(
        self, d: str, w: str, lex: Lexicon, adjlike: bool = True, veto: bool = False
    ) -> str | None:
        """The other-gender form of an adjective / person noun ``w``, or None."""
        for table in (self._person_pred[d],):
            if w in table:
                return table[w]
        seen = lex.seen.get(w)
        if veto and seen is not None and seen[1] >= 3 and seen[0] / seen[1] < 0.5:
            return None
        if w in _NOT_ADJ:
            return None
        best = None
        z_src = lex.zipf.get(w, 0.0)
        for fem, mas in _SUFFIXES:
            src, tgt = (fem, mas) if d == "f2m" else (mas, fem)
            if not (w.endswith(src) and len(w) > len(src) + 2):
                continue
            cand = w[: len(w) - len(src)] + tgt
            masc = cand if d == "f2m" else w
            if adjlike and not (
                masc in _ADJ
                or masc.rstrip("s") in _ADJ
                or masc.endswith(_ADJ_ENDINGS)
                or masc.rstrip("s").endswith(_ADJ_ENDINGS)
                or (seen is not None and seen[0] >= 2)
            ):
                continue
            z = lex.zipf.get(cand, 0.0)
            # feminine agent nouns are much rarer in text than the masculine ones
            drop = 2.0 if fem in ("ora", "oras") else 1.0
            if z >= 2.0 and z >= z_src - drop and (best is None or z > best[0]):
                best = (z, cand)
        return best[1] if best else None

    # ---------------------------------------------------------------- proposals
    def propose(self, d: str, s: Sentence, covered: list[bool], plan: Plan, lex: Lexicon) -> Plan:
        low, toks, n = s.low, s.toks, len(s.low)
        out: Plan = {}
        src_of = {}
        for i, (ln, tgt) in plan.items():
            if ln == 1 and len(tgt) == 1:
                src_of[i] = (low[i], tgt[0])
        pron = {i for i, (a, _) in src_of.items() if a in self._all_pron}
        dets = {i for i, (a, _) in src_of.items() if a in self._all_dets}
        nominal = {i for i in src_of if i not in pron and i not in dets}
        person_seen = bool(pron) or bool(nominal)

        def free(i: int) -> bool:
            return 0 <= i < n and not covered[i] and i not in out

        def sp(i: int) -> bool:  # a plain space between token i and i + 1
            return s.gap_after(i) == " "

        det = self._dets[d]
        for i in range(n):
            if not free(i):
                continue
            w = low[i]
            # articles, contractions, possessives before a changed noun / adjective
            if (
                w in det
                and sp(i)
                and (
                    i + 1 in nominal
                    or (low[i + 1] in ("mais", "menos") and i + 2 in nominal and sp(i + 1))
                    or (i + 1 in dets and low[i + 1] in _ADJ_DETS)
                    or (w in _ARTICLES and i + 1 in dets and low[i + 1] in _POSSESSIVES)
                    or (w in _ALL_DETS and i + 1 in dets)
                )
            ):
                out[i] = (1, (det[w],))
                continue
            # adjective after a changed noun (`filho mais novo`), or before it after a determiner
            lower = toks[i][:1].islower()
            if lower and w not in self._all_dets and w not in _COPULAS:
                post = (i - 1 in nominal and sp(i - 1)) or (
                    i - 2 in nominal and low[i - 1] in ("mais", "menos", "muito", "tão")
                    and sp(i - 2) and sp(i - 1)
                )  # fmt: skip
                pre = i + 1 in nominal and sp(i) and i > 0 and (low[i - 1] in self._all_dets)
                if post or pre:
                    t = self._flip(d, w, lex, adjlike=not post)
                    if t is not None and t != w:
                        out[i] = (1, (t,))
                        continue
            # predicate after a copula whose subject is the person: `ela foi presa`
            if self._predicate_start(s, i, pron | nominal, pron):
                got = self._predicate(d, s, i, lex, free)
                if got:
                    out.update(got)
                    continue
            # `trabalhou como advogado`, `como um astuto empresário`
            if pron and i > 0 and low[i - 1] == "como" and sp(i - 1) and toks[i][:1].islower():
                arts = ("o", "um") if d == "m2f" else ("a", "uma")
                got = self._person_np(d, s, i - 1 if w in arts else i, lex, free, w not in arts)
                if got:
                    out.update(got)
                    continue
            # proclitic object pronoun before a verb: `alguns o verem`, `que o levou`
            if (
                pron and w == ("o" if d == "m2f" else "a") and 0 < i < n - 1
                and low[i - 1] in _PRE_CLITIC and sp(i - 1) and sp(i)
                and toks[i + 1][:1].islower() and not covered[i + 1]
                and low[i + 1].endswith(_VERB_ENDINGS)
            ):  # fmt: skip
                out[i] = (1, ("a" if d == "m2f" else "o",))
                continue
            # object clitics: `levou-o`, `conhecê-lo`
            if person_seen and i > 0 and s.gap_after(i - 1) == "-":
                cl = {"o": "a", "lo": "la", "no": "na"} if d == "m2f" else {
                    "a": "o", "la": "lo", "na": "no"}  # fmt: skip
                if w in cl:
                    out[i] = (1, (cl[w],))
                    continue
        return out

    def _predicate_start(self, s: Sentence, i: int, changed: set, pron: set) -> bool:
        """Token ``i`` begins the predicate of a copula whose subject is the changed person."""
        low, toks = s.low, s.toks
        k = i - 1
        while k >= 0 and (low[k] in _ADV or low[k] == "se") and s.gap_after(k) in (" ", "-"):
            k -= 1
        if k < 0 or low[k] not in _COPULAS:
            return False
        if low[k] in ("tornou", "torna", "tornara", "tornar"):
            if not (k + 1 < i and low[k + 1] == "se") and not (k > 0 and low[k - 1] == "se"):
                return False
        elif not all(low[j] in _ADV for j in range(k + 1, i)):
            return False
        j = k - 1
        while j >= 0 and (low[j] in _SUBJ_SKIP or low[j] in _AUX) and s.gap_after(j) == " ":
            j -= 1
        if j < 0:
            return bool(pron)
        if s.gap_after(j) not in (" ", "-"):
            return False
        if j in changed:
            return True
        if pron and low[j] == "e":
            return True
        if pron and low[j] in _PREP and low[k] in ("ser", "estar"):
            return True
        name = toks[j][:1].isupper() and (j == 0 or low[j - 1] not in _NAME_BLOCK)
        return name and j > 0

    def _predicate(self, d: str, s: Sentence, i: int, lex: Lexicon, free) -> Plan:
        low, toks, n = s.low, s.toks, len(s.low)
        out: Plan = {}
        k = i
        if not free(k) or not toks[k][:1].islower() or low[k] in _ADV:
            return out
        if k + 1 < n and low[k + 1] == "que":
            return out
        arts = ("o", "um") if d == "m2f" else ("a", "uma")
        if low[k] in arts:
            return self._person_np(d, s, k, lex, free)
        t = self._flip(d, low[k], lex, veto=False)
        if t is not None and t != low[k]:
            out[k] = (1, (t,))
        return out

    def _person_np(
        self, d: str, s: Sentence, k: int, lex: Lexicon, free, bare: bool = False
    ) -> Plan:
        """``k`` is an article; if the noun phrase it opens names a person (`um especialista`,
        `o primeiro reitor`), change its head noun (or only the article for a noun of both
        genders); the adjectives follow through propose."""
        low, toks, n = s.low, s.toks, len(s.low)
        out: Plan = {}
        h = k if bare else k + 1
        while h < n and free(h) and toks[h][:1].islower() and s.gap_after(h - 1) == " ":
            w = low[h]
            if w in self._person_pred[d]:
                out[h] = (1, (self._person_pred[d][w],))
                return out
            if not bare and w.endswith(_INVARIANT_PERSON_ENDINGS) and lex.zipf.get(w, 0) >= 2:
                out[k] = (1, (self._dets[d][low[k]],))
                return out
            t = self._flip(d, w, lex, veto=False)
            if t is not None and t != w and (t if d == "f2m" else w).endswith(_PERSON_ENDINGS):
                nxt_adj = h + 1 < n and free(h + 1) and s.gap_after(h) == " "
                if not (nxt_adj and w in _ADJ and self._flip(d, low[h + 1], lex)):
                    out[h] = (1, (t,))
                    return out
            if not bare and w in ("mais", "menos"):
                h += 1
                continue
            masc = t if (t and d == "f2m") else w
            adj = masc in _ADJ or masc.rstrip("s") in _ADJ or masc.endswith(("oso", "osos"))
            # an adjective as the head: `o mais novo das quatro crianças`, `o primeiro a`
            head_end = h + 1 >= n or low[h + 1] in _HEAD_END or s.gap_after(h) != " "
            if not bare and t and (adj or masc.endswith(_ADJ_ENDINGS)) and head_end:
                out[h] = (1, (t,))
                return out
            if not bare and adj:
                h += 1
                continue
            return {}
        return out


RULES = Portuguese(
    "pt",
    copulas=frozenset(),
)
