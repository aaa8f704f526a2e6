"""Infer a person's gender from the third-person pronouns of their biography.

GeBioToolkit (Costa-jussà, Lin and España-Bonet, *GeBioToolkit: Automatic Extraction of
Gender-Balanced Multilingual Corpus of Wikipedia Biographies*, LREC 2020) takes a person's
gender from Wikidata and, where Wikidata gives none, from the gendered pronouns of the person's
article: a biography of a woman says *she*/*her*, one of a man *he*/*his*. This module is that
method, with the decision rule and the per-language word lists made explicit; the thresholds and
tables are occbio's own (measured in ``benchmarks/pronoun_gender.py``), not the paper's.

Pure logic, no I/O: plain text in (turn wikitext into prose first, e.g. with
:func:`occbio.extract.wikitext.wikitext_to_text`: templates and references hold no
pronouns of the person but many names), a decision out.

Counting (:func:`count_pronouns`)
    The text is NFC-normalised and cut into words at every character that is not a letter
    (combining accents and the Catalan middle dot of ``l·l`` stay inside a word), so
    apostrophes and hyphens separate words: ``qu'elle``, ``d'ell``, ``a-t-il``,
    ``lui-même``, ``she's``. Words are compared lower-cased, whole words only. A few words
    are counted only in some contexts (French *il* not when impersonal, French *lui* only
    when stressed, German capitalised *Sie*/*Ihr* not when formal *you*): see the notes on
    each table in :mod:`occbio.gender.pronoun_tables`.

Deciding (:func:`infer_gender`)
    ``female`` when the female count is at least ``min_count``, at least ``margin`` times
    the male count and more than it; ``male`` symmetrically; otherwise ``unknown``: a tie,
    too few pronouns or a language without gendered pronouns never yields a default gender.
    Every result carries its reason: ``pronouns`` (decided), ``too_few`` (neither count
    reaches ``min_count``), ``no_margin`` (enough pronouns, but the larger count is not
    ``margin`` times the smaller, or a tie), ``no_gendered_pronouns`` (the language has none,
    :data:`NO_GENDERED_PRONOUNS`) or ``no_table`` (occbio has no table for the language).

Agreement (es, ca, it, pt, fr)
    Where the language has agreement rules (:mod:`occbio.gender.agreement`), the lead's
    gendered agreement (*es una actriz*, *nacido en*, *è stata*, *née le*) is read too and
    counted apart from the pronouns (``agreement_female``/``agreement_male``). The rule with
    both: agreement cues of both genders are ``unknown`` (reason ``conflict``); cues of one
    gender decide it (reason ``agreement``) unless the pronouns on their own decide the other
    gender (then ``unknown``, reason ``conflict``); no cue leaves the pronoun rule above as it
    was. A cue counts as strong evidence: one is enough, as a lead names its subject's gender
    once. Languages without agreement rules (English ...) are decided as before.

Combining (:func:`combine`)
    One person's articles in several languages: the pronoun counts of the languages that have
    a table are summed, so are the agreement cues, and the rules above are applied to the sums
    (agreement of one gender in one language and of the other in another is a ``conflict``).

What pronoun counts cannot do: tell non-binary people apart (English *they* is also plural;
such articles come out ``unknown`` or, where they quote gendered pronouns, wrong), or see past
grammatical gender (French *il*, German *er*, Russian *он* also stand for masculine nouns,
*elle*/*sie*/*она* for feminine ones) and people named in the article other than its subject.
The margin is there for those.

Measured (``benchmarks/pronoun_gender.py``): no wrong decision at the defaults on 70 real
biographies (en, de, af, uk) nor on the bundled sample. Spanish, Catalan and Italian are
pro-drop: their articles rarely hold a subject pronoun, so pronouns alone seldom decide them;
agreement does (``benchmarks/agreement_gender.py``, docs/gender.md). The nl and pl tables were
checked on Tatoeba sentence pairs only, the sv, da, no and nn tables on hand-written
sentences only.

The per-language tables (:data:`PRONOUNS`, :data:`LANG_ALIASES`, :data:`NO_GENDERED_PRONOUNS`)
and the notes on what each leaves out and why are in :mod:`occbio.gender.pronoun_tables`; the
tokeniser and the contextual rules (French *il*/*lui*, German *Sie*/*Ihr*) in
:mod:`occbio.gender.pronoun_context`. This module holds the counting and the decision, and
re-exports the tables.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from occbio.gender.agreement import AGREEMENT_LANGS, agreement_evidence
from occbio.gender.categories import FEMALE, MALE, UNKNOWN
from occbio.gender.pronoun_context import _SKIPS, _tokenise
from occbio.gender.pronoun_tables import LANG_ALIASES, NO_GENDERED_PRONOUNS, PRONOUNS

__all__ = [
    "PRONOUNS",
    "NO_GENDERED_PRONOUNS",
    "LANG_ALIASES",
    "REASONS",
    "PronounEvidence",
    "count_pronouns",
    "infer_gender",
    "decide",
    "combine",
]

# Reasons (stable strings: callers count them).
DECIDED = "pronouns"
TOO_FEW = "too_few"
NO_MARGIN = "no_margin"
NO_GENDERED = "no_gendered_pronouns"
NO_TABLE = "no_table"
AGREEMENT = "agreement"
CONFLICT = "conflict"
#: Every reason a :class:`PronounEvidence` can carry.
REASONS: tuple[str, ...] = (
    DECIDED,
    TOO_FEW,
    NO_MARGIN,
    NO_GENDERED,
    NO_TABLE,
    AGREEMENT,
    CONFLICT,
)


# ---------------------------------------------------------------------------------------------
# Counting and deciding


@dataclass(frozen=True)
class PronounEvidence:
    """What the pronouns of one text (or several, see :func:`combine`) say about a person.

    ``female``/``male`` are the pronoun counts, ``agreement_female``/``agreement_male`` the
    agreement cues of the lead (:mod:`occbio.gender.agreement`; 0 in a language without
    agreement rules) and ``cues`` a few of them as examples; ``category`` is ``female``,
    ``male`` or ``unknown`` (:mod:`occbio.gender.categories`), ``reason`` one of
    :data:`REASONS`. ``lang`` is the language code, ``+``-joined for combined evidence.
    """

    lang: str
    female: int
    male: int
    category: str
    reason: str
    agreement_female: int = 0
    agreement_male: int = 0
    cues: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The record kept with an article (``text/LANG.articles.jsonl``, ``gender``)."""
        out: dict[str, Any] = {
            "category": self.category,
            "reason": self.reason,
            "female": self.female,
            "male": self.male,
        }
        if _table_lang(self.lang) in AGREEMENT_LANGS:
            out["agreement"] = {
                "female": self.agreement_female,
                "male": self.agreement_male,
                "cues": list(self.cues),
            }
        return out

    @classmethod
    def from_dict(cls, lang: str, d: dict[str, Any]) -> PronounEvidence:
        """Back from :meth:`to_dict` (the decision is taken again by :func:`decide`)."""
        agreement = d.get("agreement") or {}
        return cls(
            lang,
            int(d.get("female", 0)),
            int(d.get("male", 0)),
            str(d.get("category", UNKNOWN)),
            str(d.get("reason", TOO_FEW)),
            int(agreement.get("female", 0)),
            int(agreement.get("male", 0)),
            tuple(agreement.get("cues", ())),
        )


def _table_lang(lang: str) -> str:
    code = lang.strip().lower().replace("_", "-")
    return LANG_ALIASES.get(code, code)


def count_pronouns(text: str, lang: str) -> tuple[int, int]:
    """``(female, male)``: how many of ``lang``'s gendered pronouns ``text`` holds.

    Whole words, case-insensitive, after NFC normalisation; apostrophes and hyphens separate
    words (``qu'elle`` holds *elle*). Contextual exclusions (French impersonal *il* and
    indirect-object *lui*, German formal *Sie*) are applied. A language without a table
    (:data:`NO_GENDERED_PRONOUNS` or unknown) gives ``(0, 0)``.

    >>> count_pronouns("She said he had lent her his car.", "en")
    (2, 2)
    >>> count_pronouns("Il y a un an, il a dit qu'elle viendrait.", "fr")
    (1, 1)
    """
    code = _table_lang(lang)
    table = PRONOUNS.get(code)
    if table is None:
        return 0, 0
    female_words, male_words = table[FEMALE], table[MALE]
    skip = _SKIPS.get(code)
    words = _tokenise(text)
    nfc = unicodedata.normalize("NFC", text) if skip is not None else text
    female = male = 0
    for i, word in enumerate(words):
        is_female = word.low in female_words
        if not is_female and word.low not in male_words:
            continue
        if skip is not None and skip(words, i, nfc):
            continue
        if is_female:
            female += 1
        else:
            male += 1
    return female, male


def _check(min_count: int, margin: float) -> None:
    if min_count < 1:
        raise ValueError(f"min_count must be at least 1, not {min_count}")
    if margin < 1.0:
        raise ValueError(f"margin must be at least 1.0, not {margin}")


def _decide(female: int, male: int, min_count: int, margin: float) -> tuple[str, str]:
    if female > male and female >= min_count and female >= margin * male:
        return FEMALE, DECIDED
    if male > female and male >= min_count and male >= margin * female:
        return MALE, DECIDED
    if max(female, male) < min_count:
        return UNKNOWN, TOO_FEW
    return UNKNOWN, NO_MARGIN


def _decide_all(
    female: int, male: int, agree_f: int, agree_m: int, min_count: int, margin: float
) -> tuple[str, str]:
    """The pronoun rule, then agreement over it (see the module's docstring)."""
    category, reason = _decide(female, male, min_count, margin)
    if not agree_f and not agree_m:
        return category, reason
    if agree_f and agree_m:
        return UNKNOWN, CONFLICT
    agreed = FEMALE if agree_f else MALE
    if category not in (UNKNOWN, agreed):
        return UNKNOWN, CONFLICT
    return agreed, AGREEMENT


def decide(
    evidence: PronounEvidence, *, min_count: int = 3, margin: float = 2.0
) -> PronounEvidence:
    """``evidence`` decided again from its counts with ``min_count`` and ``margin`` (e.g.
    counts read back from an article record, decided with a run's settings)."""
    _check(min_count, margin)
    if evidence.reason in (NO_GENDERED, NO_TABLE) and not (
        evidence.agreement_female or evidence.agreement_male
    ):
        return replace(evidence, category=UNKNOWN)
    category, reason = _decide_all(
        evidence.female,
        evidence.male,
        evidence.agreement_female,
        evidence.agreement_male,
        min_count,
        margin,
    )
    return replace(evidence, category=category, reason=reason)


def _no_table_reason(code: str) -> str | None:
    if code in PRONOUNS:
        return None
    return NO_GENDERED if code in NO_GENDERED_PRONOUNS else NO_TABLE


def infer_gender(
    text: str,
    lang: str,
    *,
    min_count: int = 3,
    margin: float = 2.0,
    title: str = "",
    agreement: bool = True,
) -> PronounEvidence:
    """Decide a person's gender from the pronouns of one article (GeBioToolkit's method) and,
    in es, ca, it, pt and fr, the agreement of its lead.

    Pronouns: ``female`` when the female count is at least ``min_count`` and at least
    ``margin`` times the male count (and more than it); ``male`` symmetrically; otherwise
    ``unknown`` with reason ``too_few`` (neither count reaches ``min_count``) or
    ``no_margin``. A language without gendered pronouns gives ``no_gendered_pronouns``, one
    without a table ``no_table``. Agreement (``agreement=True``, languages of
    :data:`occbio.gender.agreement.AGREEMENT_LANGS`; ``title`` helps find the person's name in
    the lead): cues of one gender decide (``agreement``) unless the pronouns decide the other
    (``conflict``); cues of both genders are ``conflict``. Never a default gender. Raises
    ``ValueError`` for ``min_count < 1`` or ``margin < 1``.

    >>> e = infer_gender("She was born in Lyon. Her mother taught her Latin.", "en")
    >>> e.female, e.male, e.category, e.reason
    (3, 0, 'female', 'pronouns')
    >>> e = infer_gender("Gemma Lienas (Barcelona, 1951) es una escritora catalana.", "es")
    >>> e.female, e.agreement_female, e.category, e.reason
    (0, 1, 'female', 'agreement')
    """
    _check(min_count, margin)
    code = _table_lang(lang)
    found = agreement_evidence(text, code, title=title) if agreement else None
    agree_f, agree_m = (found.female, found.male) if found else (0, 0)
    cues = found.cues if found else ()
    reason = _no_table_reason(code)
    if reason is not None:
        if agree_f or agree_m:
            category, reason = _decide_all(0, 0, agree_f, agree_m, min_count, margin)
        else:
            category = UNKNOWN
        return PronounEvidence(code, 0, 0, category, reason, agree_f, agree_m, cues)
    female, male = count_pronouns(text, code)
    category, reason = _decide_all(female, male, agree_f, agree_m, min_count, margin)
    return PronounEvidence(code, female, male, category, reason, agree_f, agree_m, cues)


def combine(
    evidence: Sequence[PronounEvidence], *, min_count: int = 3, margin: float = 2.0
) -> PronounEvidence:
    """One decision from a person's articles in several languages.

    The counts of the evidence whose language has a table are summed and decided on as in
    :func:`infer_gender`; ``lang`` is their codes joined by ``+`` (``"en+es"``). When none has
    a table the result is ``unknown`` with ``no_gendered_pronouns`` if one of them is such a
    language, else ``no_table``; no evidence at all is ``unknown``/``too_few`` with lang ``""``.
    """
    _check(min_count, margin)
    agree_f = sum(e.agreement_female for e in evidence)
    agree_m = sum(e.agreement_male for e in evidence)
    cues = tuple(c for e in evidence for c in e.cues)
    counted = [e for e in evidence if e.reason not in (NO_GENDERED, NO_TABLE)]
    if not counted:
        langs = "+".join(dict.fromkeys(e.lang for e in evidence))
        if not evidence:
            return PronounEvidence("", 0, 0, UNKNOWN, TOO_FEW)
        reason = NO_GENDERED if any(e.reason == NO_GENDERED for e in evidence) else NO_TABLE
        category = UNKNOWN
        if agree_f or agree_m:
            category, reason = _decide_all(0, 0, agree_f, agree_m, min_count, margin)
        return PronounEvidence(langs, 0, 0, category, reason, agree_f, agree_m, cues)
    female = sum(e.female for e in counted)
    male = sum(e.male for e in counted)
    category, reason = _decide_all(female, male, agree_f, agree_m, min_count, margin)
    langs = "+".join(dict.fromkeys(e.lang for e in counted))
    return PronounEvidence(langs, female, male, category, reason, agree_f, agree_m, cues)
