"""Three simulated systems that show what ``occbio evaluate`` measures, built from the test
set itself: the reference (a perfect system), a masculine-defaulting system (every female
person's segments rewritten to the masculine by occbio's rewriter, as a system that defaults to
the masculine would translate them) and a noisy system (words dropped and swapped, seeded).

Each comes with its translation of the counterfactual source, so the contrastive figures have
something to show: the reference follows the source's gender, the masculine default never
does for a woman.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from occbio.evaluate.testset import TestSet

__all__ = ["SYSTEMS", "noisy", "simulate"]

SYSTEMS = ("reference", "masculine-default", "noisy")


def noisy(text: str, rng: random.Random) -> str:
    """Drop about one word in six and swap about one adjacent pair in ten."""
    words = [w for w in text.split() if rng.random() >= 1 / 6] or text.split()[:1]
    for i in range(len(words) - 1):
        if rng.random() < 0.1:
            words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words)


def simulate(
    testset: TestSet, tgt: str, seed: int = 12345
) -> dict[str, tuple[list[str], list[str]]]:
    """name -> (translations in corpus order, translations of the counterfactual copy in its
    order) for each of :data:`SYSTEMS`."""
    from occbio.rewrite import Rewriter

    rewriter = Rewriter(tgt)
    name = {s.id: s.name or None for s in testset.segments}
    gender = {s.id: s.gender for s in testset.segments}
    ids = [s.id for s in testset.segments]
    refs = [s.text[tgt] for s in testset.segments]
    cf_refs = [testset.counterfactual[sid][tgt] for sid in testset.counterfactual_order]
    cf_gender = [testset.counterfactual_gender[sid] for sid in testset.counterfactual_order]

    def masculine(texts: Sequence[str], ids: Sequence[str], genders: Sequence[str]) -> list[str]:
        return [
            rewriter.rewrite(t, "masculine", name[sid]) if g == "female" else t
            for t, sid, g in zip(texts, ids, genders, strict=True)
        ]

    rng = random.Random(seed)
    return {
        "reference": (refs, cf_refs),
        "masculine-default": (
            masculine(refs, ids, [gender[sid] for sid in ids]),
            masculine(cf_refs, testset.counterfactual_order, cf_gender),
        ),
        "noisy": ([noisy(t, rng) for t in refs], [noisy(t, rng) for t in cf_refs]),
    }
