"""The paper's validation harness: a backend's labels against hand-annotated ground truth.

Derner et al. annotated 100 sentences each of Spanish and Valencian (``gt-es.txt``,
``gt-va.txt`` in their grb-corpora release): every noun and pronoun with ``P``/``N`` and
``M``/``F``. The harness labels the same sentences with any :class:`~.person_refs.Backend` and
compares word by word, within each sentence (case-insensitive; a word that occurs twice is
matched in order):

- *identified*: words both sides list; *wrongly classified*: identified words whose P/N or M/F
  differ; *missed*: ground-truth words the backend did not list; *extra*: words it listed
  that the ground truth does not;
- *accuracy* = correct / identified (correct = identified - wrongly classified); *precision*
  = correct / (identified + extra); *recall* = correct / (identified + missed); *F* their
  harmonic mean: a word counts only when it is found *and* labelled right. Detection alone
  (labels ignored) is reported beside it, and so are the person references the method is
  for: L(P,M) and L(P,F) of the ground truth and of the backend, and the precision/recall of
  the person labels.

Words on the paper's skip list are left out on both sides, as the method leaves them uncounted.
The ground truth is not shipped in the package: :func:`ground_truth_path` finds it.
"""

from __future__ import annotations

import os
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from occbio.audit.person_refs import (
    Backend,
    Label,
    MethodUnavailable,
    SentenceLabels,
    check_lang,
    parse_answer,
    prompt_lang,
    skiplist,
)

__all__ = [
    "GT_ENV",
    "GroundTruth",
    "GroundTruthMissing",
    "Split",
    "ValidationResult",
    "format_validation",
    "ground_truth_path",
    "read_ground_truth",
    "score",
    "validate",
]

#: A folder holding ``gt-es.txt`` / ``gt-va.txt`` (overrides the places searched by default).
GT_ENV = "OCCBIO_GRB_DATA"
_REPO = Path(__file__).resolve().parents[2]
_SEARCHED = (_REPO.parent / "shared" / "data" / "grb-corpora",)

Split = Literal["all", "dev", "test"]


class GroundTruthMissing(FileNotFoundError):
    """The ground-truth file is not where it was looked for (the message says where to get it)."""


@dataclass(frozen=True)
class GroundTruth:
    """One annotated sentence."""

    sentence: str
    labels: tuple[Label, ...]


def ground_truth_path(lang: str, path: str | Path | None = None) -> Path:
    """``gt-{es,va}.txt``: ``path`` (the file, or a folder holding it), else the folder in
    ``$OCCBIO_GRB_DATA``, else ``../shared/data/grb-corpora`` beside the repository."""
    name = f"gt-{validation_lang(lang)}.txt"
    candidates: list[Path] = []
    if path is not None:
        given = Path(path)
        candidates.append(given / name if given.is_dir() else given)
    elif os.environ.get(GT_ENV):
        candidates.append(Path(os.environ[GT_ENV]) / name)
    else:
        candidates += [folder / name for folder in _SEARCHED]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise GroundTruthMissing(
        f"no ground truth {name} (looked in {tried}): it comes with Derner et al.'s "
        f"grb-corpora release (MIT); pass its path or set {GT_ENV} to its folder"
    )


def validation_lang(lang: str) -> str:
    """``es`` or ``va`` (``ca`` is validated on the Valencian ground truth)."""
    return prompt_lang(lang)


def read_ground_truth(path: str | Path) -> tuple[list[GroundTruth], int]:
    """The sentences of a ground-truth file and the number of its label lines that did not
    parse. Blocks are ``"sentence" "word - P, M<newline>...<newline>word - N, F"``,
    separated by blank lines."""
    text = Path(path).read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    items: list[GroundTruth] = []
    unparsed = 0
    line_no = 1
    for block in text.split("\n\n"):
        body = block.strip()
        start = line_no
        line_no += block.count("\n") + 2
        if not body:
            continue
        cut = body.rfind('" "')
        if not (body.startswith('"') and body.endswith('"')) or cut < 1:
            raise ValueError(f'{path}:{start}: not a \'"sentence" "labels"\' block: {body[:60]!r}')
        parsed = parse_answer(body[cut + 3 : -1])
        unparsed += parsed.unparsed
        items.append(GroundTruth(body[1:cut], tuple(parsed)))
    return items, unparsed


def _split(items: list[GroundTruth], split: Split) -> list[GroundTruth]:
    """``dev``: the even-numbered sentences (0, 2, ...), ``test``: the odd ones, ``all``."""
    if split == "all":
        return items
    if split not in ("dev", "test"):
        raise ValueError(f"split must be all, dev or test, got {split!r}")
    return items[split == "test" :: 2]


def _key(word: str) -> str:
    return unicodedata.normalize("NFC", word).strip().casefold()


@dataclass
class ValidationResult:
    """A backend against the ground truth (the counts and scores of the module's docstring)."""

    lang: str
    backend: str
    split: str = "all"
    sentences: int = 0
    gt_words: int = 0
    predicted_words: int = 0
    identified: int = 0
    wrongly_classified: int = 0
    missed: int = 0
    extra: int = 0
    gt_person_masculine: int = 0
    gt_person_feminine: int = 0
    predicted_person_masculine: int = 0
    predicted_person_feminine: int = 0
    person_correct: int = 0
    predicted_person: int = 0
    gt_person: int = 0
    unparsed: int = 0
    failed: int = 0
    gt_unparsed: int = 0

    @staticmethod
    def _ratio(num: int, den: int) -> float:
        return num / den if den else 0.0

    @staticmethod
    def _f(p: float, r: float) -> float:
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def correct(self) -> int:
        return self.identified - self.wrongly_classified

    @property
    def accuracy(self) -> float:
        return self._ratio(self.correct, self.identified)

    @property
    def precision(self) -> float:
        return self._ratio(self.correct, self.identified + self.extra)

    @property
    def recall(self) -> float:
        return self._ratio(self.correct, self.identified + self.missed)

    @property
    def f1(self) -> float:
        return self._f(self.precision, self.recall)

    @property
    def detection_f1(self) -> float:
        """F of finding the words at all, whatever their labels."""
        p = self._ratio(self.identified, self.identified + self.extra)
        r = self._ratio(self.identified, self.identified + self.missed)
        return self._f(p, r)

    @property
    def person_precision(self) -> float:
        return self._ratio(self.person_correct, self.predicted_person)

    @property
    def person_recall(self) -> float:
        return self._ratio(self.person_correct, self.gt_person)

    @property
    def person_f1(self) -> float:
        return self._f(self.person_precision, self.person_recall)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = asdict(self)
        for name in (
            "correct",
            "accuracy",
            "precision",
            "recall",
            "f1",
            "detection_f1",
            "person_precision",
            "person_recall",
            "person_f1",
        ):
            value = getattr(self, name)
            data[name] = round(value, 4) if isinstance(value, float) else value
        return data


def score(
    truth: Sequence[Sequence[Label]],
    predicted: Sequence[Sequence[Label]],
    *,
    lang: str,
    backend: str = "",
    split: str = "all",
) -> ValidationResult:
    """Compare labels sentence by sentence (the two sequences are aligned)."""
    if len(truth) != len(predicted):
        raise ValueError(f"{len(truth)} ground-truth sentences but {len(predicted)} predicted")
    skip = skiplist(lang)
    res = ValidationResult(validation_lang(lang), backend, split, sentences=len(truth))
    for gold, guess in zip(truth, predicted, strict=True):
        res.unparsed += getattr(guess, "unparsed", 0)
        res.failed += bool(getattr(guess, "failed", ""))
        gold = [lab for lab in gold if lab.word.upper() not in skip]
        guess = [lab for lab in guess if lab.word.upper() not in skip]
        res.gt_person_masculine += sum(lab.person and lab.gender == "M" for lab in gold)
        res.gt_person_feminine += sum(lab.person and lab.gender == "F" for lab in gold)
        res.predicted_person_masculine += sum(lab.person and lab.gender == "M" for lab in guess)
        res.predicted_person_feminine += sum(lab.person and lab.gender == "F" for lab in guess)
        gold_by: dict[str, list[Label]] = defaultdict(list)
        guess_by: dict[str, list[Label]] = defaultdict(list)
        for lab in gold:
            gold_by[_key(lab.word)].append(lab)
        for lab in guess:
            guess_by[_key(lab.word)].append(lab)
        for key in sorted(gold_by.keys() | guess_by.keys()):
            golds, guesses = gold_by.get(key, []), guess_by.get(key, [])
            pairs = list(zip(golds, guesses, strict=False))
            res.identified += len(pairs)
            res.missed += len(golds) - len(pairs)
            res.extra += len(guesses) - len(pairs)
            res.gt_words += len(golds)
            res.predicted_words += len(guesses)
            res.gt_person += sum(g.person for g in golds)
            res.predicted_person += sum(g.person for g in guesses)
            for g, p in pairs:
                same = (g.person, g.gender) == (p.person, p.gender)
                res.wrongly_classified += not same
                res.person_correct += same and g.person
    return res


def validate(
    backend: Backend,
    lang: str,
    *,
    path: str | Path | None = None,
    split: Split = "all",
    batch_size: int = 64,
) -> ValidationResult:
    """Run ``backend`` on the ground truth of ``lang`` (``es``, or ``va``/``ca``) and score it.

    ``split`` picks the even-numbered (``dev``) or odd-numbered (``test``) sentences, so rules
    chosen on one half can be reported on the other.
    """
    vlang = validation_lang(lang)
    try:
        label_lang = check_lang(vlang, backend.languages, backend.name)
    except MethodUnavailable:
        label_lang = check_lang(lang, backend.languages, backend.name)
    items, gt_unparsed = read_ground_truth(ground_truth_path(vlang, path))
    items = _split(items, split)
    predicted: list[list[Label]] = []
    for start in range(0, len(items), batch_size):
        batch = [item.sentence for item in items[start : start + batch_size]]
        labelled = backend.label(batch, label_lang)
        if len(labelled) != len(batch):
            raise RuntimeError(f"backend {backend.name} labelled {len(labelled)} of {len(batch)}")
        predicted += [lab if isinstance(lab, SentenceLabels) else list(lab) for lab in labelled]
    res = score([i.labels for i in items], predicted, lang=vlang, backend=backend.name, split=split)
    res.gt_unparsed = gt_unparsed
    return res


def _pct(value: float) -> str:
    return f"{100 * value:5.1f}"


def format_validation(results: ValidationResult | Sequence[ValidationResult]) -> str:
    """A plain-text table, one row per result (e.g. per language or split)."""
    rows = [results] if isinstance(results, ValidationResult) else list(results)
    head = (
        f"{'lang':<4} {'split':<5} {'sents':>5} {'gt':>4} {'found':>5} {'wrong':>5} "
        f"{'missed':>6} {'extra':>5} {'acc%':>5} {'P%':>5} {'R%':>5} {'F%':>5} {'detF%':>5} "
        f"{'persP%':>6} {'persR%':>6} {'persF%':>6} {'gt M:F':>7} {'pred M:F':>8} "
        f"{'unparsed':>8} {'failed':>6}  backend"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.lang:<4} {r.split:<5} {r.sentences:>5} {r.gt_words:>4} {r.identified:>5} "
            f"{r.wrongly_classified:>5} {r.missed:>6} {r.extra:>5} {_pct(r.accuracy)} "
            f"{_pct(r.precision)} {_pct(r.recall)} {_pct(r.f1)} {_pct(r.detection_f1)} "
            f"{_pct(r.person_precision):>6} {_pct(r.person_recall):>6} {_pct(r.person_f1):>6} "
            f"{f'{r.gt_person_masculine}:{r.gt_person_feminine}':>7} "
            f"{f'{r.predicted_person_masculine}:{r.predicted_person_feminine}':>8} "
            f"{r.unparsed:>8} {r.failed:>6}  {r.backend}"
        )
    return "\n".join(lines)
