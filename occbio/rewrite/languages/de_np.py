"""German noun phrases for the rewriter: the case of an article (``_case``), whether a
nominative is sure (``_nominative_sure``), the article and adjectives before a noun
(``_article_before``) and the role slot after a copula (``_role_slot``). The rules that use
them are in ``de.py`` and ``de_nouns.py``."""

from __future__ import annotations

from occbio.rewrite.languages.base import Plan, Sentence
from occbio.rewrite.languages.de_clause import (
    _ALL_PREPS,
    _COPULAS,
    _clause_end,
    _clause_first,
    _clause_start,
    _noun,
    _object_np,
    _plural_verb,
    _prev,
)
from occbio.rewrite.languages.de_words import (
    _ACC_PREPS,
    _ADJ_ENDINGS,
    _ARTS_ALL,
    _DAT_PREPS,
    _NEUTER,
    _NUMBERS,
    _POSS_STEMS,
    _PREPS,
    _SUBORD,
    _article,
    _ending_change,
    _plural_noun,
)


def _case(s: Sentence, i: int, word: str, gender: str) -> str:
    """The case of the article ``word`` (of the source ``gender``) at token ``i``."""
    prev = _prev(s, i)
    if gender == "n":
        if word[-1:] == "m":
            return "dat"
        if word[-1:] == "s" and word != "das":
            return "gen"
        return "acc" if prev in _PREPS else "nom"
    if gender == "m":
        if word in ("der", "ein") or word in _POSS_STEMS:
            return "nom"
        return {"n": "acc", "m": "dat", "s": "gen"}.get(word[-1:], "nom")
    # feminine: die/eine = nom or acc, der/einer = dat or gen
    if word in ("der",) or word.endswith("er"):
        if prev in _PREPS:
            return "dat"
        # a genitive follows a noun (``die Tochter der Königin``), a genitive preposition or
        # opens an apposition; after a verb or a relative pronoun it is the dative object
        # (``was der Königin erlaubte``)
        if prev is None and i > 0 and "," in s.gap_after(i - 1):
            # an apposition takes the case of its noun: ``zu ihrer Tante, einer Lehrerin``
            near = s.low[max(0, i - 5) : i]
            return "dat" if any(w in _DAT_PREPS for w in near) else "gen"
        if prev is None or prev in _GEN_PREPS or prev in ("und", "oder", "sowie", "als", "wie"):
            return "gen"
        if prev in _ARTS_ALL:
            # ``von dem einer Nonne`` (a demonstrative) is genitive; ``, die der Königin
            # nahestanden`` (a relative pronoun) is dative
            return "gen" if i > 1 and s.low[i - 2] in _PREPS else "dat"
        return "gen" if s.toks[i - 1][:1].isupper() or prev.isdigit() else "dat"
    if prev in _PREPS:
        return "acc"
    return "nom"


_GEN_PREPS = frozenset(
    """wegen während trotz statt anstatt innerhalb außerhalb aufgrund anlässlich infolge
    mithilfe seitens bezüglich hinsichtlich zugunsten angesichts unweit oberhalb unterhalb
    anhand abseits jenseits diesseits dank laut""".split()
)


def _nominative_sure(s: Sentence, k: int) -> bool:
    """The noun phrase opened by ``k`` (``die``, ``eine``, ``das``) is surely nominative: it opens
    its clause, follows ``als``/``wie``/``und``/``oder``, a copula or a subordinating
    conjunction, or its clause has a copula (a predicate)."""
    c = _clause_first(s, k)
    prev = _prev(s, k)
    if k == c or prev in ("als", "wie", "und", "oder", "sowie") or prev in _COPULAS:
        return True
    if c == k - 1 and s.low[c] in _SUBORD:
        return True
    b = _clause_end(s, k)
    if any(w in _COPULAS for w in s.low[c : b + 1]):
        return True
    if _only_candidate(s, k, c, b):
        return True
    # another noun phrase of the clause is accusative (``1990 heiratete die Sängerin einen Arzt``)
    return any(
        s.low[h] in ("den", "einen", "ihn", "keinen")
        and (h == c or s.low[h - 1] not in _PREPS)
        and h != k
        for h in range(c, b + 1)
    )


def _only_candidate(s: Sentence, k: int, c: int, b: int) -> bool:
    """The noun phrase opened by ``k`` follows the verb of a main clause (``Am 3. Mai gehörte
    die Herzogin zu ...``) and nothing else in the clause can be its subject: no pronoun, no
    other noun phrase with an article outside a prepositional phrase, no name."""
    prev = s.low[k - 1]
    if k - 1 <= c or s.toks[k - 1][:1].isupper() or prev in _ALL_PREPS or prev in _SUBORD:
        return False
    if s.low[c] in _SUBORD or s.low[c] in _ARTS_ALL or _article(s.low[c]) is not None:
        return False  # a subordinate clause, or a clause its own noun phrase opens
    if not (s.low[c].isdigit() or s.low[c] in _ALL_PREPS or s.toks[c][:1].isupper()):
        return False
    for h in range(c, b + 1):
        w = s.low[h]
        if h == k:
            continue
        if w in ("sie", "er", "es", "ich", "wir", "man", "du"):
            return False
        if h > k and (w in _ARTS_ALL or _article(w) is not None) and s.low[h - 1] not in _ALL_PREPS:
            return False
    return True


def _article_before(
    s: Sentence, j: int, plan: Plan, *, neuter: bool, compound: bool = False, zur: bool = False
) -> tuple:
    """(article index, adjective indices) of the noun phrase ending at noun ``j``, walking
    back over adjectives (and degree adverbs); (None, []) without an article. With ``zur``
    the contractions ``zur``/``zum`` count as articles too."""
    toks, low = s.toks, s.low

    def art(w: str) -> bool:
        return _article(w) is not None or (neuter and w == "das") or (zur and w in ("zur", "zum"))

    k = j - 1
    while compound and k > 0 and s.gap_after(k) == "-" and _noun(toks[k]):
        k -= 1  # the first part of a compound noun (``die Hitman-Protagonistin``)
    adjs = []

    def open_adj(k: int) -> bool:
        # not changed yet, or only its ending (re-inflected again here: ``die beste``)
        if k not in plan:
            return True
        ln, tgt = plan[k]
        return (
            ln == 1
            and len(tgt) == 1
            and (_ending_change(low[k], tgt[0]) or low[k].startswith("weiblich"))
        )

    while k >= 0 and s.joined(k) and not toks[k][:1].isupper() and open_adj(k):
        if art(low[k]):
            break
        if low[k] in _DEGREE and adjs:
            k -= 1  # ``eine äußerst beliebte Autorin``
            continue
        if not low[k].endswith(_ADJ_ENDINGS) or len(low[k]) < 5 or low[k] in _NUMBERS:
            break
        adjs.append(k)
        k -= 1
    if k < 0 or not s.joined(k):
        return None, []
    if not art(low[k]):
        return None, []
    return k, adjs


_ROLE_COPULAS = frozenset("war ist wurde wird blieb bleibt".split())
#: degree adverbs inside a noun phrase, before an adjective
_DEGREE = frozenset(
    """sehr äußerst besonders überaus recht ziemlich höchst ganz weltweit international
    national weithin zunehmend relativ vergleichsweise""".split()
)


#: adverbs between a copula and the role (``wurde dann Fahrer``)
_ROLE_ADVERBS = frozenset(
    """dann später zuvor auch ebenfalls schließlich bald zunächst anschließend danach
    außerdem zudem wieder einst bereits schon zuletzt""".split()
)


def _role_slot(s: Sentence, j: int) -> bool:
    """Noun ``j`` names the person's role: after a copula (over an article and adjectives:
    ``er wurde ein bekannter Fahrer``, ``1990 wurde er Präsident``) in a clause whose subject
    is ``er``."""
    k = j - 1
    while k >= 0 and s.joined(k) and not s.toks[k][:1].isupper() and len(s.low[k]) >= 4:
        if s.low[k] in _DEGREE:
            k -= 1
            continue
        if s.low[k] in _COPULAS:
            break  # (``wurde`` ends like an adjective)
        if not s.low[k].endswith(_ADJ_ENDINGS) or _article(s.low[k]) is not None:
            break
        k -= 1  # adjectives
    if k >= 0 and s.joined(k) and _article(s.low[k]) is not None and s.low[k][:3] in ("ein", "der"):
        k -= 1
    while k > 0 and s.joined(k) and s.low[k] in _ROLE_ADVERBS:
        k -= 1  # ``er wurde dann Fahrer``, ``er war auch ein bekannter Redner``
    b = _clause_end(s, j)
    if (
        (k < 0 or not s.joined(k))
        and b > j + 1
        and s.low[b] in ("werden", "sein", "bleiben")
        and s.low[b - 1] == "zu"
    ):
        return "er" in s.low[: k + 1]  # ``stimmte er zu, der Anführer der Gruppe zu werden``
    if k < 0 or not s.joined(k):
        return False
    w = s.low[k]
    if w == "er" and k > 0 and s.joined(k - 1) and s.low[k - 1] in _ROLE_COPULAS:
        return True  # ``1990 wurde er Präsident``
    if w == "als" and k > 0 and s.joined(k - 1):
        # ``er arbeitete als Lehrer``; not the role of an object or a name just before
        # (``kannte ihn als Lehrer``, ``mit Paul als Manager``); after ``zum`` it lost
        # precision on the judging pairs
        if s.low[k - 1] in ("ihn", "ihm", "ihnen") or _noun(s.toks[k - 1]):
            return False
    elif w not in _ROLE_COPULAS:
        return False
    a = _clause_first(s, j)
    return "er" in s.low[a:j]


#: adverbs in ``-e``/``-er`` before a noun, not adjectives
_ADVERBS_E = frozenset("gerne lange alleine heute ferne bereits immer wieder später".split())


def _bare_role_adjectives(s: Sentence, j: int, d: str) -> list[tuple[int, str]]:
    """Adjectives before the role noun ``j`` without an article, after a copula or ``als``:
    the strong nominative (``wurde königliche Richterin`` ↔ ``wurde königlicher Richter``)."""
    src_end, tgt_end = ("e", "er") if d == "f2m" else ("er", "e")
    out = []
    k = j - 1
    while k >= 0 and s.joined(k) and not s.toks[k][:1].isupper():
        w = s.low[k]
        if w.endswith(src_end) and len(w) > 4 and w not in _COPULAS:
            if w in _ARTS_ALL or _article(w) is not None or w in _NUMBERS or w in _ADVERBS_E:
                return []
            out.append((k, w[: -len(src_end)] + tgt_end))
            k -= 1
            continue
        break
    if not out or k < 0 or not s.joined(k) or s.low[k] not in ("als", *_COPULAS):
        return []
    return out


def _partitives(d: str, s: Sentence, plan: Plan) -> dict[int, str]:
    """``eine der ersten Frauen`` ↔ ``einer der ersten Männer`` (and ``eine von drei
    Frauen`` ↔ ``einer von drei Männern``): the partitive pronoun takes the gender of the
    plural noun that changed; accusative as an object (``traf einen der ...``)."""
    toks, low, n = s.toks, s.low, len(s.low)
    out: dict[int, str] = {}
    for i in range(n - 2):
        if i in plan or low[i + 1] not in ("der", "von") or not s.joined(i):
            continue
        if not s.joined(i + 1) or (toks[i][:1].isupper() and not _clause_start(s, i)):
            continue  # ``Leichtgewichts-Einer``: a noun
        j = i + 2
        while j < n - 1 and s.joined(j) and not _noun(toks[j]):
            w = low[j]
            if not (w.endswith("en") or w in _NUMBERS or w.isdigit() or w == "nur"):
                break
            j += 1
        if j not in plan or not _noun(toks[j]) or plan[j][1][0] == low[j]:
            continue
        if not _plural_noun(low[j], plan[j][1][0], d):
            continue
        if d == "f2m" and low[i] in ("eine", "keine", "jede"):
            out[i] = low[i][:-1] + ("en" if _object_np(s, i) else "er")
        elif d == "m2f" and low[i] in ("einer", "keiner", "jeder"):
            out[i] = low[i][:-1]
    return out


def _relatives_after_prep(d: str, s: Sentence, plan: Plan) -> dict[int, str]:
    """A relative pronoun after a preposition after a changed singular noun takes its gender,
    in the case of the preposition: ``eine Frau, in die er verliebt ist`` ↔ ``einen Mann, in
    den ...``, ``, vor der`` ↔ ``, vor dem``."""
    low, n = s.low, len(s.low)
    out: dict[int, str] = {}
    for j in range(n - 2):
        p, r = j + 1, j + 2
        if j not in plan or s.gap_after(j).strip() != "," or not _noun(s.toks[j]):
            continue
        new = plan[j][1][0]
        if new == low[j] or _plural_noun(low[j], new, d) or "mädchen" in (low[j], new):
            continue
        if low[p] not in _PREPS or not s.joined(p) or r in plan:
            continue
        dative = low[p] in _DAT_PREPS
        if d == "f2m" and low[r] in ("die", "der"):
            acc = low[p] in _ACC_PREPS or (not dative and low[r] == "die")
            out[r] = "den" if acc else "dem"
        elif d == "m2f" and low[r] in ("den", "dem"):
            out[r] = "der" if low[r] == "dem" else "die"
    return out


def _relative_pronouns(d: str, s: Sentence, plan: Plan) -> dict[int, str]:
    """A relative pronoun after a comma after a changed noun takes its gender (``Mann, der``
    ↔ ``Frau, die``; ``Mädchen, das``), also over a participle ending the noun's clause
    (``von seinem Stiefvater arrangiert, der``); noted in ``s.notes["relative_of"]``."""
    low, toks, n = s.low, s.toks, len(s.low)
    out: dict[int, str] = {}
    # relative pronoun after a comma after a changed noun (or the name opening the sentence)
    rel = {"der": "die"} if d == "m2f" else {"die": "der"}
    for i in range(2, n):
        if low[i] not in (*rel, "das", "den") or i in plan or "," not in s.gap_after(i - 1):
            continue
        j = i - 1
        if j > 1 and not toks[j][:1].isupper() and s.joined(j - 1) and low[j].endswith("t"):
            j -= 1  # over a participle: ``von seinem Stiefvater arrangiert, der``
            if j - 1 not in plan or _article(low[j - 1]) is None:
                continue  # (a noun with its changed article only)
        if s.gap_after(i - 1).strip() != "," or j not in plan or not _noun(toks[j]):
            continue
        new = plan[j][1][0]
        if new == low[j]:
            continue
        if j > 0 and s.joined(j - 1) and low[j - 1] in ("for", "of", "the", "and"):
            continue  # the noun ends an English name (``School for Girls, die``)
        if d == "m2f" and new in _NEUTER and low[i] in ("der", "den"):
            out[i] = "das"
        elif d == "f2m" and low[j] in _NEUTER and low[i] == "das":
            out[i] = "der"
        elif (
            low[i] in (*rel, "den")
            and not _plural_noun(low[j], new, d)
            and _NEUTER.isdisjoint((low[j], new))
        ):
            # (``die sie spielte`` may be "who played her" or "whom she played": ``der``;
            # the masculine accusative ``den er spielte`` is ``die sie spielte``)
            b = _clause_end(s, i)
            plural = b > i + 1 and _plural_verb(low[b], toks[b])
            if d == "f2m" and low[i] == "die" and not plural:
                out[i] = "der"  # (``, die sich kleiden``: a plural before the noun)
            elif d == "m2f" and low[i] in ("der", "den"):
                out[i] = "die"
        s.notes.setdefault("relative_of", {})[i] = j
    return out
