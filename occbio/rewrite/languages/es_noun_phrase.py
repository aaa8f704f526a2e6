"""Spanish: the articles and other words of a noun phrase that agree with a changed person noun.

Planned by ``Spanish.propose`` once the nouns are known: articles and agreeing words across
invariable modifiers (``el joven príncipe`` → ``la joven princesa``, ``los dos hijos`` → ``las
dos hijas``; ``otro``/``primer`` before a changed noun), the article of a common-gender person
noun once the sentence is about the person (``un periodista la entrevistó``) and before a
changed apposition (``de la contraalmirante, Lady X``), ``uno de los`` before a changed noun
(``una de las siete hermanas``), and relatives after a changed noun or after a part of a changed
group (``una mujer a la que``, ``sus hijas, dos de las cuales``).

``art_target(i)`` is the article at ``i`` in the other gender (None for no article), ``det`` the
language's determiner pairs; ``free``/``changed``/``put`` are the rewriter's live view of the
sentence, as in ``es_predicates``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from occbio.rewrite.languages.base import Sentence
from occbio.rewrite.languages.es_predicates import Put
from occbio.rewrite.languages.es_subject import Check
from occbio.rewrite.languages.es_words import (
    _MODS,
    _NUMBERS,
    _PRE_AGREE,
    _REL_F2M,
    _REL_M2F,
    _is_common,
)

#: quantifiers of a group {masculine: feminine}
_QUANT = {
    "uno": "una", "algunos": "algunas", "muchos": "muchas", "varios": "varias",
    "ninguno": "ninguna", "ambos": "ambas", "todos": "todas", "pocos": "pocas",
}  # fmt: skip
_PREPS_ALL = frozenset(
    {"a", "de", "en", "con", "por", "para", "sin", "sobre", "contra", "entre", "hacia", "hasta",
     "desde", "según", "tras", "durante", "ante", "bajo"}
)  # fmt: skip
#: common-gender words that are also adjectives or institutions (`la mayor parte`)
_COMMON_ADJ = frozenset(
    {"mayor", "menor", "policía", "civil", "criminal", "rebelde", "fiscal", "paciente",
     "amante", "rival", "responsable", "adolescente", "heredero", "jefe", "portero", "piloto",
     "gobernante", "reincidente", "homicida", "fan", "demócrata", "aristócrata", "burócrata"}
)  # fmt: skip

#: the article at ``i`` in the other gender, or None (``art_target`` in ``Spanish.propose``)
Target = Callable[[int], str | None]


def _invariable_person(w: str) -> bool:
    """A person noun (or its rank) with one form for both genders: `teniente general`,
    `contraalmirante`, `periodista`."""
    return (w.endswith("nte") and len(w) > 5) or _is_common(w) or w in ("general", "mariscal")


def articles_across_modifiers(
    d: str,
    s: Sentence,
    covered: Sequence[bool],
    free: Check,
    changed: Check,
    put: Put,
    art_target: Target,
    det: Mapping[str, str],
) -> None:
    """Articles across invariable modifiers (`el joven príncipe`, `los dos hijos`); agreeing
    words (`otro`, `primer`) before a changed noun."""
    low = s.low
    n = len(low)
    f2m = d == "f2m"
    pre_agree = {f: m for m, f in _PRE_AGREE.items()} if f2m else dict(_PRE_AGREE)
    for i in range(n - 2):
        if not free(i):
            continue
        j = i + 1
        while j < n and (low[j] in _MODS or low[j].isdigit()) and not covered[j] and j - i <= 3:
            j += 1
        if j == i + 1 or j >= n or not changed(j):
            continue
        tgt = art_target(i) or det.get(low[i]) or pre_agree.get(low[i])
        if tgt:
            put(i, tgt)
    for i in range(n - 1):
        if free(i) and low[i] in pre_agree and changed(i + 1) and s.gap_after(i) == " ":
            put(i, pre_agree[low[i]])


def common_gender_articles(
    s: Sentence, free: Check, put: Put, art_target: Target, det: Mapping[str, str]
) -> None:
    """The article of a common-gender person noun (`el periodista`, `un policía`) as subject
    or object, not after a preposition; the caller knows the sentence changed for the person."""
    low = s.low
    n = len(low)
    for i in range(n - 1):
        if not free(i) or not s.joined(i) or not _is_common(low[i + 1]):
            continue
        if low[i + 1] in _COMMON_ADJ:
            continue
        if low[i] in ("al", "del") or (i > 0 and low[i - 1] in _PREPS_ALL):
            continue
        if low[i + 1].endswith("s") or not s.toks[i + 1].islower():
            continue
        tgt = art_target(i) or det.get(low[i])
        if tgt:
            put(i, tgt)


def apposition_articles(
    s: Sentence, free: Check, changed: Check, put: Put, art_target: Target
) -> None:
    """The article of a noun phrase of invariable person nouns before a changed apposition
    (`del contraalmirante, Lord X` → `de la contraalmirante, Lady X`)."""
    low = s.low
    n = len(low)
    for i in range(n - 2):
        tgt = art_target(i)
        if tgt is None or not free(i) or not s.joined(i):
            continue
        m = i + 1
        if not _invariable_person(low[m]):
            continue
        while m + 1 < n - 1 and m - i < 3 and s.joined(m) and _invariable_person(low[m + 1]):
            m += 1
        if s.gap_after(m) == ", " and changed(m + 1) and s.toks[m].islower():
            put(i, tgt)


def _plural(w: str) -> bool:
    """A noun in the plural (`hijas`, not `marqués` or `Dios`)."""
    return w.endswith("s") and not w.endswith(("ás", "és", "ís", "ós", "ús")) and w != "dios"


def uno_de_los(d: str, s: Sentence, free: Check, changed: Check, put: Put) -> None:
    """`uno de los siete hermanos` → `una de las siete hermanas` (the head changed)."""
    low = s.low
    n = len(low)
    f2m = d == "f2m"
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


def relatives_after_noun(d: str, s: Sentence, free: Check, changed: Check, put: Put) -> None:
    """Relative pronouns after a changed person noun (`un hombre al que` → `una mujer a la
    que`) or after a part of a changed group (`sus hijas, dos de las cuales`)."""
    low = s.low
    n = len(low)
    f2m = d == "f2m"
    rel = _REL_F2M if f2m else _REL_M2F
    quant = {f: m for m, f in _QUANT.items()} if f2m else dict(_QUANT)
    for i in range(1, n - 1):
        if not (free(i) and low[i] in rel and low[i + 1] in ("que", "cual", "cuales")):
            continue
        h = i - 2 if low[i - 1] in ("a", "de") and i > 1 and s.joined(i - 1) else i - 1
        plural_rel = low[i] in ("los", "las")
        if changed(h) and s.gap_after(h) in (" ", ", ") and _plural(low[h]) == plural_rel:
            # a relative agrees in number too: `chicas a la que` is about something else
            put(i, rel[low[i]])  # `una mujer a la que` → `un hombre al que`
        elif (
            low[i - 1] == "de"
            and h > 0
            and (low[h] in _NUMBERS or low[h] in quant)
            and s.gap_after(h - 1) == ", "
            and changed(h - 1)
            and low[h - 1].endswith("s")
        ):
            # `sus hijas, dos de las cuales`, `algunas de las cuales`: a part of the group
            put(i, rel[low[i]])
            if low[h] in quant:
                put(h, quant[low[h]])


def propio_and_dama(d: str, s: Sentence, free: Check, put: Put) -> None:
    """`el propio` + name → `la propia` + name (not back: `la propia Moscú`); `dama` →
    `caballero` (`Dama` + name → `Sir`; `dama de honor` stays)."""
    low, toks = s.low, s.toks
    n = len(low)
    if d == "m2f":
        for i in range(n - 2):
            pair = (low[i], low[i + 1]) == ("el", "propio")
            if pair and toks[i + 2][:1].isupper() and free(i) and free(i + 1):
                put(i, "la")
                put(i + 1, "propia")
        return
    for i in range(n):
        if low[i] != "dama" or not free(i):
            continue
        if i + 2 < n and low[i + 1] == "de" and low[i + 2] == "honor":
            continue
        titled = toks[i][:1].isupper() and i + 1 < n and toks[i + 1][:1].isupper()
        if titled and (i == 0 or low[i - 1] not in ("primera", "la", "una")):
            put(i, "sir")
            continue
        put(i, "caballero")
