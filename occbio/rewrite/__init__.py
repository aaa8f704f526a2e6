"""Rewrite sentences about a person into the other grammatical gender (issue #14)."""

from occbio.rewrite.core import (
    DEFAULT_THRESHOLDS,
    Rewriter,
    RewriteUnavailable,
    Thresholds,
    rewrite,
    rules_fingerprint,
    supported_languages,
)

__all__ = [
    "DEFAULT_THRESHOLDS",
    "RewriteUnavailable",
    "Rewriter",
    "Thresholds",
    "rewrite",
    "rules_fingerprint",
    "supported_languages",
]
