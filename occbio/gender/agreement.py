"""Gender from grammatical agreement in the lead of a biography (es, ca, it, pt, fr).

Spanish, Catalan, Italian and Portuguese drop subject pronouns, so a biography in them holds
few *ella*/*él* to count (:mod:`occbio.gender.pronouns`); but their words agree in gender with
the person they describe, and the lead of a Wikipedia biography describes its subject in a fixed
frame: *Gemma Lienas (Barcelona, 1951) es una escritora catalana*. This module reads that frame.
French has subject pronouns, and the same frame (*Marine Le Pen, née le 5 août 1968, est une
femme politique*).

Pure logic, no I/O: plain text (paragraphs separated by blank lines, as
:func:`occbio.extract.wikitext.wikitext_to_text` gives them) and a language code in, the cues
found and a decision out. Word tables: :mod:`occbio.gender.agreement_tables`.

Where it looks
    The lead: the first paragraph, at most :data:`LEAD_SENTENCES` sentences, where the subject
    is the article's person. Text inside quotation marks is skipped (a title, a nickname, a
    quotation); text inside brackets is skipped except for a birth participle in the first
    sentence's brackets (*X (nacida en Lima, 1950) es ...*).

Whose words count (the subject)
    A cue is read only from a clause whose subject is the person: in the first sentence, a
    name before the verb (capitalised words and name particles; when the title is given, one
    of its words), optionally followed by appositions between commas that open with a
    participle (*Marine Le Pen, née le 5 août 1968 à Neuilly, est ...*); in a later sentence of
    the lead, the name again or, in a language that drops its subject pronouns (es, ca, it,
    pt), no subject at all, after an optional adverbial opening (*En 2011, fue nombrada ...*),
    provided the sentence before brings in no relative (*Su madre era maestra. Fue ...* is not
    read: the subject may be the mother). A clause whose subject is anything else (*su madre*,
    *la banda*, a pronoun, a plural verb) gives no cue.

Cues (each counts one, for the gender it shows)
    ``predicate``: after the copula (*es*, *fue*, *era*, *és*, *fou*, *va ser*, *è*, *fu*,
    *é*, *foi*, *est*, *fut*, *a été* ...), (a) an article and a person noun that agree
    (*una actriz*, *un pintor*; a noun with one form for both genders takes the article's,
    *una periodista*; a noun of one grammatical gender whatever the person's never counts,
    *una figura*, *un miembro*, *una estrella*), also in the partitive (*una de las primeras
    mujeres*, *uno dei registi*, *l'une des actrices*); (b) a person noun alone (*es
    abogada*, *est actrice*, *fue hija de*); (c) a past participle (*es considerada*, *fue
    nombrado*, *è stata*, *a été élue*).
    ``apposition``: a participle opening an apposition of the name (*née le*, *dit*,
    *conocida como*, *hija de*), or a birth participle inside the first brackets.
    ``opening``: a later sentence of the lead that opens with a birth participle (*Nacida en
    Lima, ...*).
    ``title``: the title's qualifier (*Juan Pérez (político)*).

Deciding (:meth:`AgreementEvidence.category`)
    ``female`` when there are female cues and no male ones, ``male`` symmetrically; no cue or
    cues of both genders (a misread frame, or about two people) is ``unknown``: one
    contradiction is enough to refuse. How the cues combine with pronoun counts is in
    :func:`occbio.gender.pronouns.infer_gender`.

What it cannot do: see a non-binary person (the languages' grammar is binary; their articles
come out ``unknown`` only when nothing in the lead agrees), read a lead that does not follow
the frame (*Nacida en Lima, la actriz ...* is read only from its participle), or catch a
subject it takes for the person when it is not (a lead about a duo with a singular verb).
Measured in ``benchmarks/agreement_gender.py`` (docs/gender.md).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from occbio.extract.sentence_split import split_sentences
from occbio.gender.agreement_tables import GRAMMARS, Grammar
from occbio.gender.categories import FEMALE, MALE, UNKNOWN

__all__ = [
    "AGREEMENT_LANGS",
    "LEAD_SENTENCES",
    "AgreementEvidence",
    "agreement_evidence",
    "lead_sentences",
]

#: Languages with agreement rules.
AGREEMENT_LANGS: frozenset[str] = frozenset(GRAMMARS)
#: How many sentences of the first paragraph are read.
LEAD_SENTENCES = 5
#: How many cues an evidence keeps as examples (the counts count them all).
_KEEP_CUES = 6

_TOKEN = re.compile(r"[^\W\d_]+(?:[·\-][^\W\d_]+)*'?|\d+|[^\w\s]")
_QUOTED = re.compile(r"«[^»]{0,300}»|“[^”]{0,300}”|\"[^\"]{0,300}\"|„[^“”]{0,300}[“”]")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_PRONOUN_SUBJECTS = frozenset(
    "él ella ell elle il lui lei egli ele ela ellos ellas ells elles ils loro eles elas".split()
)


@dataclass(frozen=True)
class AgreementEvidence:
    """What the agreement of one lead says: counts of female and male cues, a few examples
    (``"female predicate: es una escritora"``) and the language (``lang`` is empty-handed for a
    language without rules: no cues)."""

    lang: str
    female: int = 0
    male: int = 0
    cues: tuple[str, ...] = ()

    @property
    def category(self) -> str:
        """``female``/``male`` when every cue agrees, else ``unknown``."""
        if self.female and not self.male:
            return FEMALE
        if self.male and not self.female:
            return MALE
        return UNKNOWN

    def to_dict(self) -> dict[str, object]:
        return {"female": self.female, "male": self.male, "cues": list(self.cues)}


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    low: str
    depth: int  # bracket depth

    @property
    def word(self) -> bool:
        return self.text[0].isalpha()

    @property
    def cap(self) -> bool:
        return self.text[0].isupper()


def _code(lang: str) -> str:
    return lang.strip().lower().replace("_", "-").split("-")[0]


def lead_sentences(text: str, lang: str, *, limit: int = LEAD_SENTENCES) -> list[str]:
    """The first ``limit`` sentences of the first paragraph that holds a sentence."""
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = " ".join(paragraph.split())
        if len(paragraph.split()) >= 3:
            return split_sentences(paragraph, _code(lang))[:limit]
    return []


def _tokens(sentence: str) -> list[_Tok]:
    out: list[_Tok] = []
    depth = 0
    closers: list[str] = []
    for m in _TOKEN.finditer(sentence):
        text = m.group()
        if text in _OPEN:
            closers.append(_OPEN[text])
            depth += 1
            continue
        if closers and text == closers[-1]:
            closers.pop()
            depth -= 1
            continue
        out.append(_Tok(text, text.lower(), depth))
    return out


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).replace("’", "'").replace("ʼ", "'")
    return _QUOTED.sub(" ", text)


def _title_words(title: str) -> tuple[frozenset[str], str]:
    """The title's words (lower-case, no qualifier) and its bracketed qualifier."""
    title = _normalise(title)
    m = re.search(r"\(([^)]*)\)\s*$", title)
    qualifier = m.group(1).strip().lower() if m else ""
    base = title[: m.start()] if m else title
    words = frozenset(t.low for t in _tokens(base) if t.word and len(t.low) > 1)
    return words, qualifier


class _Reader:
    """Finds the cues of one lead (one language, one title)."""

    def __init__(self, g: Grammar, title: str) -> None:
        self.g = g
        self.title_words, self.qualifier = _title_words(title)
        self.cues: list[tuple[str, str, str]] = []  # (gender, kind, words)

    # -- words ------------------------------------------------------------------------------
    def noun_class(self, w: str, *, plural: bool = False) -> str | None:
        """``m``/``f`` (a person noun of that form), ``c`` (one form, the article tells),
        ``e`` (one grammatical gender whatever the person's), ``m?``/``f?`` (the ending of
        a person noun: believed only when an article agrees), or None."""
        g = self.g
        for cand in self._forms(w) if plural else (w,):
            if cand in g.epicene:
                return "e"
            in_m, in_f = cand in g.masculine, cand in g.feminine
            if in_m != in_f:
                return "m" if in_m else "f"
            if in_m or cand in g.common:
                return "c"
            if cand.endswith(g.common_endings) and cand not in g.not_common:
                return "c"
        for cand in self._forms(w) if plural else (w,):
            if cand in g.not_person or len(cand) < 4:
                continue
            if cand.endswith(g.feminine_endings):
                return "f?"
            if cand.endswith(g.masculine_endings):
                return "m?"
        return None

    def _forms(self, w: str) -> tuple[str, ...]:
        """``w`` and the singulars it may be the plural of."""
        forms = [w]
        if w.endswith("i"):  # Italian attori, registi, attrici
            forms += [w[:-1] + "e", w[:-1] + "o", w[:-1] + "a"]
        elif w.endswith("e") and len(w) > 3:  # Italian donne, scrittrici? (no: -ici)
            forms.append(w[:-1] + "a")
        if w.endswith("es"):
            forms.append(w[:-2])
        if w.endswith("s"):
            forms.append(w[:-1])
        return tuple(forms)

    def participle(self, w: str) -> str | None:
        g = self.g
        if w in g.participles:
            return g.participles[w]
        if len(w) < 5 or w in g.not_participle or w in g.masculine or w in g.feminine:
            return None
        if w.endswith(g.feminine_participle_endings):
            return FEMALE
        if w.endswith(g.masculine_participle_endings):
            return MALE
        return None

    def name_like(self, toks: list[_Tok], *, strict: bool = False) -> bool:
        """A person's name: capitalised words and name particles, one of them a word of the
        title when it is known (``strict``, after the first sentence: all of them, so that a
        relative of the same surname is not taken for the person); not a pronoun, a relative,
        an opening (``En 2011``)."""
        g = self.g
        words = [t for t in toks if t.word]
        if not words or not any(t.cap for t in words):
            return False
        named = not self.title_words or any(t.low in self.title_words for t in words)
        if strict and self.title_words:
            named = all(t.low in self.title_words for t in words if t.cap)
        first = words[0].low
        if not named or (
            not self.title_words
            and (first in g.openers or first in g.articles or first in g.possessives)
        ):
            return False
        return all(
            (t.cap or t.low in g.name_particles)
            and t.low not in _PRONOUN_SUBJECTS
            and t.low not in g.kin
            for t in words
        )

    def add(self, gender: str, kind: str, toks: list[_Tok]) -> None:
        self.cues.append((gender, kind, " ".join(t.text for t in toks)))

    # -- sentences ---------------------------------------------------------------------------
    def copula_at(self, toks: list[_Tok]) -> tuple[int, int, bool] | None:
        """(start, end, only participles follow) of the first copula outside brackets."""
        lows = [t.low if t.depth == 0 else "" for t in toks]
        for i in range(len(lows)):
            for cop in self.g.copulas:
                if tuple(lows[i : i + len(cop)]) == cop:
                    return i, i + len(cop), False
            if lows[i] in self.g.state_copulas:
                return i, i + 1, True
        return None

    def strip_opening(self, seg: list[_Tok]) -> list[_Tok]:
        """``seg`` less an opening of time (``En agosto de 2009``, ``Luego en 2010``)."""
        g = self.g
        i = 0
        while i < len(seg) and (
            not seg[i].word or seg[i].low in g.openers or seg[i].low in g.date_words
        ):
            i += 1
        if i == 0 or seg[0].low not in g.openers:
            return seg
        return seg[i:]

    def sentence(self, toks: list[_Tok], k: int, after_other_person: bool) -> None:
        g = self.g
        first = toks[0].low if toks and toks[0].depth == 0 else ""
        if first in g.participles and len(toks) > 2 and first not in ("stato", "stata"):
            self.add(g.participles[first], "opening", toks[:1])
        found = self.copula_at(toks)
        if found is None:
            return
        start, end, state = found
        region = [t for t in toks[:start] if t.depth == 0]
        segments = _split_commas(region)
        comma_before_verb = len(segments) > 1 and not segments[-1]
        segments = [seg for seg in segments if seg] or [[]]
        subject, appositions = segments[0], segments[1:]
        if (
            subject
            and subject[0].low in g.openers
            and (appositions or comma_before_verb)
            and not self.name_like(subject)
        ):  # `En 2011, fue nombrada`, `En 2011, Kaljulaid fue nombrada`
            subject, appositions = (appositions[0], appositions[1:]) if appositions else ([], [])
        elif subject and not self.name_like(subject):
            subject = self.strip_opening(subject)  # `En agosto de 2009 Albentosa fue cedido`
        if not subject:
            if not g.pro_drop or after_other_person or appositions:
                return
        elif not self.name_like(subject, strict=k > 0):
            return
        for seg in appositions:
            first_word = next((t for t in seg if t.word and t.low not in g.adverbs), None)
            if first_word is None:
                return
            if first_word.low in g.relatives and seg[0] is first_word:
                continue  # `X, qui signa com Y, és`: a relative clause about X
            gender = self.participle(first_word.low)
            cls = self.noun_class(first_word.low)
            if gender is None and cls in ("m", "f"):
                gender = MALE if cls == "m" else FEMALE  # `X, enginyer de formació, és`
            elif gender is None and cls != "c" and not _dates_only(seg):
                return  # an apposition that is not about the person's birth, name or trade
            if gender is not None:
                self.add(gender, "apposition", seg[: seg.index(first_word) + 1])
        if k == 0:
            self.brackets(toks[:start])
        self.predicate(toks[start:end], [t for t in toks[end:] if t.depth == 0], state, not subject)

    def brackets(self, toks: list[_Tok]) -> None:
        """A birth participle in the first brackets of the first sentence."""
        inside = [t for t in toks if t.depth > 0]
        for t in inside:
            if t.low in self.g.kin:
                return
            gender = self.g.participles.get(t.low)
            if gender is not None and t.low not in self.g.kin:
                self.add(gender, "apposition", [t])
                return

    def predicate(self, cop: list[_Tok], frame: list[_Tok], state: bool, dropped: bool) -> None:
        """The cue after the copula ``cop``: the first of up to three coordinated heads
        (``es periodista y escritora``) that tells. After a copula of state (``está``) only a
        participle counts; with a dropped subject (``Fue publicada en 1950``: the book?) a
        participle counts only when it is said of people (``nombrada``)."""
        g = self.g
        j = 0
        while j < len(frame) and j < 3 and frame[j].low in g.adverbs:
            j += 1
        for _ in range(3):
            if j >= len(frame) or not frame[j].word:
                return
            w = frame[j].low
            gender = self.participle(w)
            cls = self.noun_class(w) if w not in g.articles else None
            if gender is not None and cls is None and w not in g.articles:
                if not dropped or w.startswith(g.person_participles):
                    self.add(gender, "predicate", cop + frame[j : j + 1])
                return
            if state:
                return
            head, told = self.head(frame, j)
            if told is not None:
                self.add(told, "predicate", cop + frame[j : head + 1])
                return
            j = head + 1
            if j < len(frame) and frame[j].low in g.coordinators | {","}:
                j += 1
                continue
            return

    def head(self, frame: list[_Tok], j: int) -> tuple[int, str | None]:
        """The noun phrase at ``frame[j]``: (position of its head, the gender it tells)."""
        g = self.g
        article = g.articles.get(frame[j].low)
        if article is None:
            cls = self.noun_class(frame[j].low)
            told = {"m": MALE, "f": FEMALE}.get(cls or "")
            if told is None and cls in ("m?", "f?") and frame[j].low.endswith(g.bare_endings):
                told = MALE if cls == "m?" else FEMALE  # `es corrector`
            return j, told
        k = j + 1
        plural = False
        if k < len(frame) and frame[k].low in g.partitive:
            plural = True
            k += 1
            if k < len(frame) and frame[k].low in g.plural_articles:
                k += 1
        skipped = 0
        while k < len(frame) and frame[k].low in g.premods and skipped < 3:
            k += 1
            skipped += 1
        if k >= len(frame) or not frame[k].word:
            return k, None
        cls = self.noun_class(frame[k].low, plural=plural)
        if cls is None or cls == "e":
            return k, None
        noun = {"m": MALE, "m?": MALE, "f": FEMALE, "f?": FEMALE}.get(cls)
        if noun is not None and noun != article:
            return k, None  # article and noun disagree: a misread, not a cue
        return k, article

    def title(self) -> None:
        if not self.qualifier or " " in self.qualifier:
            return
        cls = self.noun_class(self.qualifier)
        if cls in ("m", "f"):
            gender = FEMALE if cls == "f" else MALE
            self.cues.append((gender, "title", f"({self.qualifier})"))


def _split_commas(toks: list[_Tok]) -> list[list[_Tok]]:
    segments: list[list[_Tok]] = [[]]
    for t in toks:
        if t.text == ",":
            segments.append([])
        else:
            segments[-1].append(t)
    return segments


def _other_person(toks: list[_Tok], g: Grammar) -> bool:
    """A relative of someone (``su madre``, ``il suo padre``) is named in the sentence."""
    for i, t in enumerate(toks):
        if t.low in g.kin and any(p.low in g.possessives for p in toks[max(0, i - 2) : i]):
            return True
    return False


def _dates_only(seg: list[_Tok]) -> bool:
    """An apposition of numbers and place names only (``(Madrid, 1950)`` without brackets)."""
    return all(not t.word or t.cap for t in seg)


def agreement_evidence(text: str, lang: str, *, title: str = "") -> AgreementEvidence:
    """The agreement cues of ``text``'s lead in ``lang``; none for a language without rules.

    ``title`` (the article's title) tells the person's name from other names in the lead and
    may carry a qualifier (*Juan Pérez (político)*); without it any name-like subject is taken.

    >>> ev = agreement_evidence("Gemma Lienas (Barcelona, 1951) es una escritora catalana.", "es")
    >>> ev.category, ev.female, ev.male
    ('female', 1, 0)
    """
    code = _code(lang)
    g = GRAMMARS.get(code)
    if g is None:
        return AgreementEvidence(code)
    reader = _Reader(g, title)
    after_other = False
    for k, sentence in enumerate(lead_sentences(text, code)):
        toks = _tokens(_normalise(sentence))
        reader.sentence(toks, k, after_other)
        after_other = _other_person(toks, g)
    reader.title()
    female = sum(1 for c in reader.cues if c[0] == FEMALE)
    male = len(reader.cues) - female
    examples = tuple(f"{gender} {kind}: {words}" for gender, kind, words in reader.cues)
    return AgreementEvidence(code, female, male, examples[:_KEEP_CUES])
