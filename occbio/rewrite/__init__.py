"""Rewrite sentences about a person into the other grammatical gender (issue #14)."""

from occbio.rewrite.confidence import Verdict
from occbio.rewrite.core import (
    DEFAULT_THRESHOLDS,
    Rewriter,
    RewriteUnavailable,
    Thresholds,
    rewrite,
    supported_languages,
)
from occbio.rewrite.data import rules_fingerprint
from occbio.rewrite.render import RULE_NAMES, Edit

__all__ = [
    "DEFAULT_THRESHOLDS",
    "RULE_NAMES",
    "Edit",
    "RewriteUnavailable",
    "Rewriter",
    "Thresholds",
    "Verdict",
    "rewrite",
    "rules_fingerprint",
    "supported_languages",
]
