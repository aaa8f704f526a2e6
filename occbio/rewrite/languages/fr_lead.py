"""French: the lead sentence of a biography, rewritten whole or not at all.

``X, né le 3 mai 1920 à Lyon et mort en 1990, est un peintre et graveur français.``
``X est une avocate et femme politique chilienne, députée depuis 2018.``

The subject (a name, or ``il``/``elle``) and its apposition (``né ... et mort ...``), the copula,
then ``un``/``une`` and a coordination of person nouns with their adjectives, complements
(``joueur de tennis espagnol``), participles (``spécialisé dans``, ``connu pour``) and trailing
appositions (``, député depuis 2018``). :func:`parse_lead` returns every change of that region,
or says that the predicate names a person it cannot put in the other gender; the rewriter then
leaves the whole sentence as it is (a half-rewritten lead is worse than none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.fr_words import (
    _ADVERBS,
    _EPICENE,
    _EPICENE_ENDINGS,
    _ONE_GENDER,
    _PRE_F2M,
    _PRE_M2F,
)

#: person nouns (masculine, feminine) the suffix guess misses or gets wrong; modern forms
_PERSON = [
    ("écrivain", "écrivaine"), ("auteur", "autrice"), ("ingénieur", "ingénieure"),
    ("professeur", "professeure"), ("docteur", "docteure"), ("graveur", "graveuse"),
    ("chercheur", "chercheuse"), ("inventeur", "inventrice"), ("fondateur", "fondatrice"),
    ("cofondateur", "cofondatrice"), ("traducteur", "traductrice"), ("chef", "cheffe"),
    ("sculpteur", "sculptrice"), ("dessinateur", "dessinatrice"),
    ("réalisateur", "réalisatrice"), ("producteur", "productrice"),
    ("compositeur", "compositrice"), ("mathématicien", "mathématicienne"),
    ("footballeur", "footballeuse"), ("entrepreneur", "entrepreneuse"),
    ("comédien", "comédienne"), ("coureur", "coureuse"), ("théologien", "théologienne"),
    ("entraîneur", "entraîneuse"), ("chirurgien", "chirurgienne"), ("rédacteur", "rédactrice"),
    ("éditeur", "éditrice"), ("animateur", "animatrice"), ("présentateur", "présentatrice"),
    ("administrateur", "administratrice"), ("sénateur", "sénatrice"),
    ("ambassadeur", "ambassadrice"), ("directeur", "directrice"), ("acteur", "actrice"),
    ("chanteur", "chanteuse"), ("danseur", "danseuse"), ("joueur", "joueuse"),
    ("créateur", "créatrice"), ("illustrateur", "illustratrice"), ("agriculteur", "agricultrice"),
    ("navigateur", "navigatrice"), ("aviateur", "aviatrice"), ("éducateur", "éducatrice"),
    ("collectionneur", "collectionneuse"), ("prêtre", "prêtresse"), ("poète", "poétesse"),
    ("empereur", "impératrice"), ("roi", "reine"), ("prince", "princesse"),
    ("duc", "duchesse"), ("comte", "comtesse"), ("baron", "baronne"), ("héros", "héroïne"),
    ("dieu", "déesse"), ("moine", "religieuse"), ("homme", "femme"), ("mannequin", "mannequin"),
    ("médecin", "médecin"), ("député", "députée"), ("lauréat", "lauréate"),
    ("champion", "championne"), ("avocat", "avocate"), ("militant", "militante"),
    ("étudiant", "étudiante"), ("président", "présidente"), ("candidat", "candidate"),
    ("saint", "sainte"), ("patron", "patronne"), ("espion", "espionne"),
    ("maître", "maîtresse"), ("frère", "sœur"), ("père", "mère"), ("fils", "fille"),
    ("oncle", "tante"), ("neveu", "nièce"), ("époux", "épouse"), ("mari", "femme"),
    ("défenseur", "défenseuse"), ("sportif", "sportive"), ("pionnier", "pionnière"),
]  # fmt: skip
PERSON_M2F = dict(_PERSON)
PERSON_F2M = {f: m for m, f in _PERSON if f != m}
PERSON_F2M.update({"auteure": "auteur", "autrice": "auteur", "chef": "chef", "poète": "poète",
                   "docteur": "docteur", "professeur": "professeur"})  # fmt: skip
#: nouns that take `politique`, `d'affaires`... (`homme politique` → `femme politique`)
#: endings of person nouns whose other form the suffix guess may give
_PERSON_ENDS = ("eur", "ien", "ier", "ant", "ent", "at", "ain", "euse", "rice", "ienne", "ière",
                "ante", "ente", "ate", "aine", "ais", "aise", "é", "ée", "if", "ive")  # fmt: skip
_COMPOUND_HEADS = {"homme": "femme", "femme": "homme"}
_EPICENE_MORE = frozenset(
    "philanthrope diplomate universitaire architecte peintre journaliste juge ministre "
    "maire membre élève artiste athlète astronaute cosmonaute mécène stratège comptable "
    "interprète guide pilote scientifique spécialiste responsable secrétaire photographe "
    "psychologue biologiste poète dramaturge linguiste libraire notaire vétérinaire "
    "fonctionnaire propriétaire mannequin médecin cadre chef".split()
)
#: participles and adjectives that open an apposition about the person
_APPOS = frozenset(
    "né mort décédé dit surnommé connu baptisé élevé issu devenu installé établi "
    "naturalisé nommé élu réélu formé diplômé spécialisé réputé considéré".split()
)
_NATIONALITY_ENDS = ("ais", "ois", "ain", "ien", "and", "ol", "in", "ec", "ne", "dien", "éen")
_NATIONALITY = frozenset(
    "français anglais américain allemand espagnol italien canadien britannique belge suisse "
    "russe chilien néerlandais autrichien sénégalais japonais chinois mexicain argentin "
    "brésilien portugais polonais suédois norvégien danois finlandais irlandais écossais "
    "gallois australien indien iranien israélien égyptien marocain algérien tunisien turc "
    "grec hongrois tchèque slovaque roumain bulgare serbe croate slovène ukrainien québécois "
    "colombien péruvien vénézuélien cubain haïtien ivoirien camerounais congolais nigérian "
    "coréen vietnamien thaïlandais philippin indonésien pakistanais libanais syrien "
    "luxembourgeois monégasque islandais estonien letton lituanien géorgien arménien "
    "afghan uruguayen paraguayen bolivien équatorien malien guinéen ghanéen kényan "
    "éthiopien sud-africain néo-zélandais taïwanais malaisien birman népalais".split()
)
_IRREGULAR_M2F = {"turc": "turque", "grec": "grecque", "public": "publique",
                  "franc": "franche", "blanc": "blanche", "sec": "sèche"}  # fmt: skip
_STOP = frozenset("qui dont que qu' ayant lequel laquelle où".split())
_PREPS = frozenset(
    "à au aux en dans pour sur chez depuis avec par entre sous vers contre auprès jusqu' "
    "jusqu'à lors durant pendant".split()
)
_DE = frozenset({"de", "d'", "d’", "du", "des"})
_COPULA = frozenset({"est", "était", "fut", "sera", "devient", "devint", "reste", "demeure"})
_NOT_NAMES = frozenset(
    "le la les un une ce cet cette ces son sa ses il elle on ils elles en au aux dans après "
    "avant depuis pendant selon pour par avec sans sur lors".split()
)
_NAME_PARTICLES = frozenset(
    "de d' du des van von der den da di del della dos das le la y bin ibn ben al el".split()
)


@dataclass
class Lead:
    """What the lead parser found: the region it covers and its changes."""

    end: int  # first token after the region
    changes: dict[int, str] = field(default_factory=dict)
    #: words of the region read as the person's that keep their form (`peintre`, `belge`)
    keep: set[int] = field(default_factory=set)
    failed: bool = False  # the predicate names a person this parser cannot rewrite


def _agree(d: str, w: str, guess: Callable[[str], str | None], lex_zipf) -> str | None:
    """The other form of an adjective or participle, ``w`` itself if it has one form, or
    None if unknown."""
    if d == "m2f" and w in _IRREGULAR_M2F:
        return _IRREGULAR_M2F[w]
    if d == "f2m":
        inv = {v: k for k, v in _IRREGULAR_M2F.items()}
        if w in inv:
            return inv[w]
    g = guess(w)
    if g is not None:
        return g
    invariable = w.endswith("e") and not w.endswith(("ée", "euse", "rice", "ienne", "ive"))
    if d == "m2f" and invariable and lex_zipf.get(w, 0.0) >= 2.0:
        return w
    if w in _NATIONALITY:
        return w  # `belge`, `russe`
    if d == "f2m" and w.endswith("e") and not w.endswith("ee"):
        if w[:-1] in (_NATIONALITY | _APPOS) or lex_zipf.get(w[:-1], 0.0) >= 2.0:
            return w[:-1]  # `civile` → `civil`
        if invariable and lex_zipf.get(w, 0.0) >= 2.0:
            return w  # `belge`, `écologiste`
    return None


def _epicene(w: str) -> bool:
    if w in _ONE_GENDER:
        return False  # `une personne`, `un personnage`: not a noun of both genders
    return w in _EPICENE or w in _EPICENE_MORE or w.endswith(_EPICENE_ENDINGS)


def _is_nationality(d: str, w: str) -> bool:
    if d == "m2f":
        return w in _NATIONALITY
    base = w[:-1] if w.endswith("e") else w
    if w.endswith("enne"):
        base = w[:-2]
    return base in _NATIONALITY or w in _NATIONALITY or w in _IRREGULAR_M2F.values()


def parse_lead(d: str, s: Sentence, guess: Callable[[str], str | None], zipf) -> Lead | None:
    """The lead's changes, or None when the sentence is not a lead about a person."""
    low, toks = s.low, s.toks
    n = len(low)
    gap = s.gap_after
    ch: dict[int, str] = {}
    keep: set[int] = set()
    # ---- subject
    i = 0
    pron = low[0] in ("il", "elle")
    if pron:
        want = "il" if d == "m2f" else "elle"
        if low[0] != want:
            return None
        i = 1
    else:
        appos = ""
        while (
            i < n
            and i < 8
            and (
                (toks[i][:1].isupper() and toks[i].isalpha() and low[i] not in _NOT_NAMES)
                or (i > 0 and low[i] in _NAME_PARTICLES)
            )
        ):
            g = gap(i)
            i += 1
            if g in (" (", ", "):
                appos = g
                break
            if g not in (" ", "-", ""):
                return None
        if i == 0 or i >= n:
            return None
    # ---- apposition of the subject: `, né le ... et mort en ...,` or `(né ...)`
    if not pron and appos:
        close = ")" if appos == " (" else ","
        start = i
        while i < n and not gap(i).strip().startswith(close):
            if gap(i).strip() and gap(i).strip()[0] in ".;:":
                return None
            i += 1
        if i >= n - 1 or i - start > 25:
            return None
        for k in range(start, i + 1):
            opens = k == start or low[k - 1] in ("et", "puis") or gap(k - 1).strip() == ","
            if not opens:
                continue
            w = low[k]
            base = w if d == "m2f" else (w[:-1] if w.endswith("e") else w)
            if base in _APPOS:
                g = base + "e" if d == "m2f" else base
                if g != w:
                    ch[k] = g
        i += 1
    # ---- copula and the determiner
    if i >= n or low[i] not in _COPULA or gap(i) != " ":
        return None
    i += 1
    if i < n and low[i] in ("aussi", "également") and gap(i) == " ":
        i += 1
    det = "un" if d == "m2f" else "une"
    if i >= n or low[i] != det or gap(i) != " ":
        return None
    det_at = i
    i += 1
    lead = Lead(end=i)
    table = PERSON_M2F if d == "m2f" else PERSON_F2M

    def head(k: int) -> int:
        """The person noun at ``k`` (and its compound parts); -1 when not one."""
        w = low[k]
        table = PERSON_M2F if d == "m2f" else PERSON_F2M
        if w in _COMPOUND_HEADS and k + 1 < n and gap(k) in (" ", ""):
            nxt = low[k + 1]
            if nxt in ("politique", "d'", "de", "d’"):
                ch[k] = _COMPOUND_HEADS[w]
                if nxt == "politique":
                    return k + 2
                return k + 3 if k + 2 < n else -1
        if w in table:
            if table[w] != w:
                ch[k] = table[w]
        elif _epicene(w):
            keep.add(k)
        else:
            g = guess(w)
            if g is None or not w.endswith(_PERSON_ENDS):
                return -1
            ch[k] = g
        k += 1
        while k < n and gap(k - 1) == "-" and toks[k].islower():  # `auteur-compositeur`
            if low[k] in table and table[low[k]] != low[k]:
                ch[k] = table[low[k]]
            elif not _epicene(low[k]):
                g = guess(low[k])
                if g is None:
                    return -1
                ch[k] = g
            k += 1
        return k

    def modifiers(k: int, opening: bool = False) -> int:
        """Adjectives, complements and participles after a head (or opening an apposition);
        returns where they end."""
        while k < n and (gap(k - 1) == " " or opening):
            opening = False
            w = low[k]
            if w not in _DE and (w in ("et", "ou") or w in _STOP or not toks[k].islower()):
                return k
            if not w.isalpha() and w not in _DE:
                return k
            if w in _DE:
                k += 1  # a complement: `joueur de tennis espagnol`, `de la photographie`
                while k < n and low[k] in ("la", "l'", "le", "les") and gap(k - 1) in (" ", ""):
                    k += 1
                steps = 0
                while k < n and gap(k - 1) in (" ", "") and toks[k].islower() and steps < 4:
                    if low[k] in ("et", "ou") or low[k] in _STOP or low[k] in _PREPS:
                        break
                    if _is_nationality(d, low[k]) and steps > 0:
                        break
                    if low[k].rstrip("e") in _APPOS or low[k] in _APPOS:
                        break
                    k += 1
                    steps += 1
                continue
            if w in _PREPS:
                return _skip_phrase(k)
            if (w in _ADVERBS or w.endswith("ment")) and w not in ("plus", "et"):
                k += 1  # `très dévot`
                continue
            a = _agree(d, w, guess, zipf)
            if a is None:
                if w in ("politique",):
                    k += 1
                    continue
                return -1
            if a != w:
                ch[k] = a
            else:
                keep.add(k)
            k += 1
            base = w if d == "m2f" else a
            if base in ("devenu", "nommé", "élu", "réélu") and k < n and toks[k].islower():
                k = head(k)  # `devenu entraîneur`, `élu député`
                if k < 0:
                    return -1
            elif (base in _APPOS or w.endswith(("é", "ée", "u", "ue"))) and (
                k < n and low[k] in _PREPS | _DE | {"comme"}
            ):
                return _skip_phrase(k)
        return k

    def _skip_phrase(k: int) -> int:
        """A prepositional phrase: unchanged, up to the next comma or the end."""
        while k < n and not gap(k).strip().startswith((",", ".", ";", ")", ":")):
            if low[k] in _STOP:
                return k
            nxt = low[k + 1] if k + 1 < n else ""
            if low[k] in ("et", "ou") and (nxt == det or nxt in table):
                return k  # `par choix et un défenseur`: the next person of the lead
            k += 1
        return k + 1 if k < n else n

    # ---- the coordinated predicate, then appositions: `, député depuis 2018`
    pre = _PRE_M2F if d == "m2f" else _PRE_F2M
    k = i
    first = True
    while k < n:
        w = low[k]
        base = w if d == "m2f" or not w.endswith("e") else w[:-1]
        if not first and base in _APPOS:
            k = modifiers(k, opening=True)  # `, connu pour ses rôles`
        else:
            if not first and low[k] == det and gap(k) == " ":
                ch[k] = "une" if d == "m2f" else "un"  # `et un défenseur`
                k += 1
            while k < n and low[k] in pre and gap(k) == " ":
                f = pre[low[k]]
                f = f[0] if isinstance(f, tuple) else f
                if f != low[k]:
                    ch[k] = f
                k += 1
            if k >= n or not toks[k].islower():
                break
            after = head(k)
            if after < 0:
                if first:
                    return None  # no person: `X est un film américain`
                lead.failed = True
                break
            k = modifiers(after)
        first = False
        if k < 0:
            lead.failed = True
            break
        lead.end = k
        if k >= n:
            break
        if low[k] in ("et", "ou") and gap(k - 1) == " ":
            k += 1
            continue
        if gap(k - 1).strip() == ",":
            if low[k] in ("et", "ou"):
                k += 1
                continue
            w = low[k]
            base = w if d == "m2f" or not w.endswith("e") else w[:-1]
            person = w in table or _epicene(w) or w.endswith(("eur", "rice", "euse"))
            if base in _APPOS or person or w in ("lauréat", "lauréate", "ancien", "ancienne"):
                continue
        break
    if lead.failed:
        return lead
    ch[det_at] = "une" if d == "m2f" else "un"
    lead.changes = ch
    lead.keep = keep
    return lead
