"""Gender balancing of mined biographies: GeBio (sentences overall) and OccGen (within
occupations). Pure logic; see :mod:`occbio.balance.core` for the data model and rules."""

from occbio.balance.core import (
    METHODS,
    REASONS,
    Candidate,
    Decision,
    Method,
    document_score,
    summarise,
)
from occbio.balance.methods import balance

__all__ = [
    "METHODS",
    "REASONS",
    "Candidate",
    "Decision",
    "Method",
    "balance",
    "document_score",
    "summarise",
]
