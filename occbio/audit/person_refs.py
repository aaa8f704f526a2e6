"""Person references in gendered languages: labels, the prompt, the answer parser, the counter.

The method of Derner et al. (GeBNLP 2025, "Leveraging Large Language Models to Measure Gender
Representation Bias in Gendered Language Corpora"): word lists miss most references to people
in Spanish or Catalan, where grammatical gender marks nouns, adjectives and participles, so a
labeller (an LLM in the paper) marks every noun and pronoun of a sentence as a person (``P``)
or not (``N``) and as masculine (``M``) or feminine (``F``), one ``word - P, M`` line each. A
corpus' balance is then L(P,M) : L(P,F), the masculine and feminine person references.

This module holds what every backend shares: :class:`Label`, the :class:`Backend` protocol,
the paper's prompt and few-shot examples (``occbio/data/grb``), the strict parser of answers
(:func:`parse_answer`: it counts the lines it could not read rather than guessing), the skip
lists, and :class:`PersonRefCounter`, which streams sentences through a backend in batches with
flat memory and adds up a :class:`PersonRefResult`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from functools import cache
from pathlib import Path
from typing import Literal, NamedTuple, Protocol, runtime_checkable

__all__ = [
    "DATA_DIR",
    "PROMPT_LANGS",
    "Backend",
    "Gender",
    "Label",
    "MethodUnavailable",
    "PersonRefCounter",
    "PersonRefResult",
    "SentenceLabels",
    "audit_lines",
    "build_prompt",
    "check_lang",
    "examples",
    "parse_answer",
    "prompt_lang",
    "skiplist",
]

Gender = Literal["M", "F"]

#: Languages the paper's prompt exists in, and the prompt each uses: Spanish, and Valencian
#: (the Catalan of the Valencian Community). ``ca`` (Catalan Wikipedia) reads the Valencian
#: prompt and skip list: the same language, in its Valencian standard.
PROMPT_LANGS: dict[str, str] = {"es": "es", "va": "va", "ca": "va"}

#: The prompt, examples and skip lists (and the offline backend's word lists).
DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "grb"


class MethodUnavailable(ValueError):
    """The person-reference method cannot run for this language or backend (the message says
    which languages it can)."""


def prompt_lang(lang: str) -> str:
    """The prompt language (``es`` or ``va``) of ``lang``; :class:`MethodUnavailable` if none."""
    code = lang.strip().lower()
    if code not in PROMPT_LANGS:
        known = ", ".join(sorted(PROMPT_LANGS))
        raise MethodUnavailable(
            f"the person-reference method has no prompt for {lang!r}: it knows {known} "
            "(the paper's Spanish and Valencian/Catalan)"
        )
    return PROMPT_LANGS[code]


def check_lang(lang: str, languages: Iterable[str], backend: str) -> str:
    """``lang`` normalised, if ``backend`` (whose ``languages`` are given) supports it."""
    code = lang.strip().lower()
    supported = sorted(languages)
    if code not in supported:
        raise MethodUnavailable(
            f"the {backend} backend does not support {lang!r}: it supports {', '.join(supported)}"
        )
    return code


class Label(NamedTuple):
    """One labelled word: ``person`` is the paper's P (True) or N, ``gender`` its M or F
    (``None`` where a backend could not tell)."""

    word: str
    person: bool
    gender: Gender | None

    @property
    def code(self) -> str:
        """``P, M`` as the paper writes it (``?`` for an unknown gender)."""
        return f"{'P' if self.person else 'N'}, {self.gender or '?'}"

    def __str__(self) -> str:
        return f"{self.word} - {self.code}"


class SentenceLabels(list[Label]):
    """One sentence's labels, plus what went wrong: ``unparsed`` lines of the answer were not
    ``word - P, M``; ``failed`` says why no answer came at all (``""``: one came)."""

    def __init__(
        self, labels: Iterable[Label] = (), *, unparsed: int = 0, failed: str = ""
    ) -> None:
        super().__init__(labels)
        self.unparsed = unparsed
        self.failed = failed


@runtime_checkable
class Backend(Protocol):
    """Labels sentences: one list of :class:`Label` per sentence, in order.

    ``name`` identifies the backend and its settings in outputs (e.g. ``chat:gpt-4-turbo``);
    ``languages`` are the codes it accepts (anything else raises :class:`MethodUnavailable`).
    A backend returns :class:`SentenceLabels` where it can, to report unparsed lines and
    sentences it got no answer for.
    """

    name: str
    languages: frozenset[str]

    def label(self, sentences: list[str], lang: str) -> list[list[Label]]: ...


# ---------------------------------------------------------------------------------------------
# The paper's prompt, examples and skip lists (occbio/data/grb)


def _data_text(name: str) -> str:
    return (DATA_DIR / name).read_text(encoding="utf-8-sig")


@cache
def _prompt_template(plang: str) -> str:
    return _data_text(f"prompt-{plang}.txt")


@cache
def examples(lang: str) -> str:
    """The paper's few-shot examples for ``lang`` (the text that replaces ``<EXAMPLES>``)."""
    return _data_text(f"examples-{prompt_lang(lang)}.txt").strip()


@cache
def skiplist(lang: str) -> frozenset[str]:
    """Words the paper leaves uncounted (personal pronouns without grammatical gender, clitics),
    upper-cased."""
    text = _data_text(f"skiplist-{prompt_lang(lang)}.txt")
    return frozenset(w.strip().upper() for w in text.splitlines() if w.strip())


def build_prompt(sentence: str, lang: str) -> str:
    """The paper's prompt for one sentence: its examples, then the sentence, then the
    instructions."""
    template = _prompt_template(prompt_lang(lang))
    sentence = " ".join(sentence.split())  # one line, as the examples
    return template.replace("<EXAMPLES>", examples(lang)).replace("<SENTENCE>", sentence)


# ---------------------------------------------------------------------------------------------
# The strict parser

#: ``word - P, M``: the word starts with a letter or digit (no list marker before it).
_LINE_RE = re.compile(
    r"(?!\d+[.)]\s)(?P<word>[^\W_](?:.*\S)?) - (?P<person>[PN]), (?P<gender>[MF])"
)


def parse_answer(text: str) -> SentenceLabels:
    """Read an answer of ``word - P, M`` lines, exactly the examples' format.

    Blank lines are ignored; every other line that is not ``word - [PN], [MF]`` (prose, a
    list marker such as ``- `` or ``1. ``, lower-case tags, a missing gender, a code fence) is
    counted in ``unparsed``, never guessed.
    """
    labels: list[Label] = []
    unparsed = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        match = _LINE_RE.fullmatch(line)
        if match is None:
            unparsed += 1
            continue
        gender: Gender = "M" if match["gender"] == "M" else "F"
        labels.append(Label(match["word"], match["person"] == "P", gender))
    return SentenceLabels(labels, unparsed=unparsed)


# ---------------------------------------------------------------------------------------------
# Counting


@dataclass
class PersonRefResult:
    """The person references of a corpus: L(P,M) and L(P,F) and what could not be counted.

    ``person_unknown`` are person references whose gender the backend could not tell;
    ``skipped`` words on the paper's skip list; ``unparsed`` answer lines that were not
    ``word - P, M``; ``failed`` sentences the backend gave no answer for. Results of the
    same language and backend add up with ``+`` (e.g. across files or shards).
    """

    lang: str
    backend: str = ""
    sentences: int = 0
    person_masculine: int = 0
    person_feminine: int = 0
    person_unknown: int = 0
    non_person: int = 0
    skipped: int = 0
    unparsed: int = 0
    failed: int = 0

    @property
    def ratio(self) -> float | None:
        """Masculine person references per feminine one, L(P,M) / L(P,F) (the paper's
        "4:1"); ``None`` when there is no feminine reference."""
        if self.person_feminine == 0:
            return None
        return self.person_masculine / self.person_feminine

    @property
    def feminine_share(self) -> float | None:
        """L(P,F) / (L(P,M) + L(P,F)); ``None`` when there is no gendered reference."""
        total = self.person_masculine + self.person_feminine
        return self.person_feminine / total if total else None

    @property
    def ratio_text(self) -> str:
        """``4.20:1`` (masculine to feminine), ``1:0`` with no feminine reference at all."""
        if self.ratio is None:
            return "1:0" if self.person_masculine else "n/a"
        return f"{self.ratio:.2f}:1"

    def __add__(self, other: PersonRefResult) -> PersonRefResult:
        if not isinstance(other, PersonRefResult):
            return NotImplemented
        if (self.lang, self.backend) != (other.lang, other.backend):
            raise ValueError(
                f"cannot add results of {self.lang}/{self.backend} and {other.lang}/{other.backend}"
            )
        counts = {
            f.name: getattr(self, f.name) + getattr(other, f.name)
            for f in fields(self)
            if f.name not in ("lang", "backend")
        }
        return PersonRefResult(self.lang, self.backend, **counts)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = asdict(self)
        data["ratio"] = None if self.ratio is None else round(self.ratio, 4)
        data["ratio_text"] = self.ratio_text
        share = self.feminine_share
        data["feminine_share"] = None if share is None else round(share, 4)
        return data


def _batches(lines: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for line in lines:
        text = line.strip()
        if not text:
            continue
        batch.append(text)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


class PersonRefCounter:
    """Counts the person references of sentences labelled by ``backend``.

    :meth:`add_many` reads its lines lazily, ``batch_size`` at a time (blank lines are not
    sentences), so memory stays flat whatever the input's size; call it as often as you like,
    the counts accumulate. ``progress`` shows a tqdm bar in sentences.
    """

    def __init__(
        self,
        backend: Backend,
        lang: str,
        *,
        batch_size: int = 64,
        progress: bool = False,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.backend = backend
        self.lang = check_lang(lang, backend.languages, backend.name)
        self.batch_size = batch_size
        self.progress = progress
        self._skip = skiplist(self.lang)
        self._result = PersonRefResult(self.lang, backend.name)

    def add_labels(self, labels: Sequence[Label]) -> None:
        """Count one sentence's labels (a :class:`SentenceLabels` also brings its failures)."""
        res = self._result
        res.sentences += 1
        res.unparsed += getattr(labels, "unparsed", 0)
        if getattr(labels, "failed", ""):
            res.failed += 1
        for lab in labels:
            if lab.word.upper() in self._skip:
                res.skipped += 1
            elif not lab.person:
                res.non_person += 1
            elif lab.gender == "M":
                res.person_masculine += 1
            elif lab.gender == "F":
                res.person_feminine += 1
            else:
                res.person_unknown += 1

    def add_many(self, lines: Iterable[str]) -> None:
        """Label and count ``lines`` (one sentence each), streaming in batches."""
        from tqdm import tqdm

        with tqdm(
            unit=" sentences", disable=not self.progress, desc=f"person refs {self.lang}"
        ) as bar:
            for batch in _batches(lines, self.batch_size):
                labelled = self.backend.label(batch, self.lang)
                if len(labelled) != len(batch):
                    raise RuntimeError(
                        f"backend {self.backend.name} returned {len(labelled)} label lists "
                        f"for {len(batch)} sentences"
                    )
                for labels in labelled:
                    self.add_labels(labels)
                bar.update(len(batch))

    def result(self) -> PersonRefResult:
        """The counts so far (a copy: counting may go on)."""
        return self._result + PersonRefResult(self.lang, self.backend.name)


def audit_lines(
    lines: Iterable[str],
    lang: str,
    backend: Backend,
    *,
    batch_size: int = 64,
    progress: bool = False,
) -> PersonRefResult:
    """The person references of ``lines`` (one sentence a line) labelled by ``backend``."""
    counter = PersonRefCounter(backend, lang, batch_size=batch_size, progress=progress)
    counter.add_many(lines)
    return counter.result()
