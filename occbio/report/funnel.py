"""The statistics funnel of OccGen's Table 1: people, occupations and sentences after each
stage, split by gender. Pure: it takes plain per-person facts, so every stage's counts come
from one definition."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Person", "StageRow", "funnel", "format_funnel"]


@dataclass(frozen=True)
class Person:
    """What the funnel needs to know of one person at one stage."""

    qid: str
    gender: str
    occupations: tuple[str, ...]
    sentences: int | None = None  # None: the stage has no sentences yet


@dataclass(frozen=True)
class StageRow:
    stage: str
    people: dict[str, int]
    occupations: int
    sentences: dict[str, int] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "people": self.people,
            "occupations": self.occupations,
            "sentences": self.sentences,
        }


def _by_gender(counts: Counter[str], genders: Sequence[str]) -> dict[str, int]:
    out = {g: counts.get(g, 0) for g in genders}
    out.update({g: n for g, n in sorted(counts.items()) if g not in out})
    out["total"] = sum(counts.values())
    return out


def funnel(
    stages: Mapping[str, Iterable[Person]],
    genders: Sequence[str],
    *,
    without_sentences: Collection[str] = ("entities",),
) -> list[StageRow]:
    """One row per stage, in the order given: people and sentences by gender (the selected
    genders first, then any other category met), and the number of distinct occupations.
    Stages in ``without_sentences`` have no sentence counts (``None``)."""
    rows = []
    for stage, people in stages.items():
        by_gender: Counter[str] = Counter()
        sentences: Counter[str] = Counter()
        occupations: set[str] = set()
        for p in people:
            by_gender[p.gender] += 1
            occupations.update(p.occupations)
            sentences[p.gender] += p.sentences or 0
        rows.append(
            StageRow(
                stage,
                _by_gender(by_gender, genders),
                len(occupations),
                None if stage in without_sentences else _by_gender(sentences, genders),
            )
        )
    return rows


def format_funnel(rows: Sequence[Mapping[str, Any]]) -> str:
    """The funnel as a fixed-width table (rows as :meth:`StageRow.to_dict` gives them)."""
    if not rows:
        return "(no stages)"
    genders: list[str] = []
    for row in rows:
        genders += [g for g in row["people"] if g != "total" and g not in genders]
    cols = [*genders, "total"]
    widths = [max(len(c), 6) for c in cols]
    block = "  ".join(f"{c:>{w}}" for c, w in zip(cols, widths, strict=True))
    span = len(block)
    lines = [
        f"{'':<10} {'':>11}  {'people':<{span}}   sentences",
        f"{'stage':<10} {'occupations':>11}  {block}   {block}",
    ]
    for row in rows:
        sent = row["sentences"]
        people = "  ".join(
            f"{row['people'].get(c, 0):>{w}}" for c, w in zip(cols, widths, strict=True)
        )
        sentences = "  ".join(
            f"{(sent.get(c, 0) if sent is not None else '-'):>{w}}"
            for c, w in zip(cols, widths, strict=True)
        )
        lines.append(f"{row['stage']:<10} {row['occupations']:>11}  {people}   {sentences}")
    return "\n".join(lines)
