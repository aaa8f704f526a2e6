"""MT-GenEval's gender accuracy, exactly as published (Currey et al., 2022,
``accuracy_metric.py``): a hypothesis is wrong when it contains a word that is unique to the
counterfactual reference.

Words are compared after MT-GenEval's cleaning: lowercase, every ASCII punctuation character
(Python's ``string.punctuation``) turned into a space, split on whitespace, as sets. A word of
the counterfactual reference that the original reference lacks is the other gender's; a
hypothesis with any of them is ``Incorrect``, every other hypothesis (even an empty one) is
``Correct``. Pure logic: strings in, decisions out.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Decision", "accuracy", "clean_line", "decide", "decide_all", "gendered_words", "words"]

_PUNCT_TO_SPACE = str.maketrans(string.punctuation, " " * len(string.punctuation))


def clean_line(line: str) -> str:
    """MT-GenEval's cleaning: lowercase, ASCII punctuation to spaces, ends stripped."""
    return line.lower().translate(_PUNCT_TO_SPACE).strip()


def words(line: str) -> frozenset[str]:
    """The set of words of a line after :func:`clean_line`."""
    return frozenset(clean_line(line).split())


def gendered_words(reference: str, counterfactual: str) -> tuple[frozenset[str], frozenset[str]]:
    """(words only the reference has, words only the counterfactual reference has)."""
    ref, cf = words(reference), words(counterfactual)
    return ref - cf, cf - ref


@dataclass(frozen=True)
class Decision:
    """One hypothesis judged against its two references."""

    correct: bool
    #: words of the hypothesis unique to the right reference (evidence it is right)
    matched: frozenset[str]
    #: words of the hypothesis unique to the counterfactual reference (why it is wrong)
    wrong: frozenset[str]


def decide(hypothesis: str, reference: str, counterfactual: str) -> Decision:
    """Whether ``hypothesis`` has the reference's gender: it is wrong exactly when it contains
    a word unique to ``counterfactual``."""
    right_only, wrong_only = gendered_words(reference, counterfactual)
    hyp = words(hypothesis)
    wrong = hyp & wrong_only
    return Decision(not wrong, hyp & right_only, wrong)


def decide_all(
    hypotheses: Sequence[str], references: Sequence[str], counterfactuals: Sequence[str]
) -> list[Decision]:
    """:func:`decide` line by line; the three sequences must be equally long."""
    n = {len(hypotheses), len(references), len(counterfactuals)}
    if len(n) != 1:
        raise ValueError(
            f"hypotheses, references and counterfactual references differ in length "
            f"({len(hypotheses)}, {len(references)}, {len(counterfactuals)})"
        )
    return [
        decide(h, r, c) for h, r, c in zip(hypotheses, references, counterfactuals, strict=True)
    ]


def accuracy(decisions: Iterable[Decision]) -> float:
    """The share of correct decisions (0.0 when there are none)."""
    flags = [d.correct for d in decisions]
    return sum(flags) / len(flags) if flags else 0.0
