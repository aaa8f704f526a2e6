"""Russian: the learned tables only (no hand rules yet)."""

from occbio.rewrite.languages.base import Language

RULES = Language("ru")
