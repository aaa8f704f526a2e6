"""Is a translation file shifted against its references? A file with the right number of lines
but one line inserted at the top and one lost at the end scores as a bad system, silently. A
translation shares words with its own reference (names, numbers, most content words) far more
than with the neighbouring ones, so when most lines share more with a neighbour's reference,
the file is shifted. Pure logic."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["shift_suspect"]


def _words(text: str) -> set[str]:
    return {w.strip(".,;:!?()«»\"'").lower() for w in text.split()} - {""}


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def shift_suspect(
    hypotheses: Sequence[str], references: Sequence[str], *, sample: int = 2000
) -> int | None:
    """The offset (+1: each line holds the translation of the next reference, -1: of the
    previous) that fits most of the first ``sample`` lines better than their own references,
    or None when the file lines up (or there are too few lines to tell)."""
    n = min(len(hypotheses), len(references), sample)
    if n < 10:
        return None
    hyp = [_words(h) for h in hypotheses[:n]]
    ref = [_words(r) for r in references[: n + 1]]
    votes = {0: 0, 1: 0, -1: 0}
    for i in range(1, n - 1):
        scores = {k: _overlap(hyp[i], ref[i + k]) for k in votes}
        best = max(scores, key=lambda k: (scores[k], k == 0))
        if scores[best] > 0:
            votes[best] += 1
    offset = max((1, -1), key=lambda k: votes[k])
    return offset if votes[offset] > 2 * votes[0] and votes[offset] >= 5 else None
