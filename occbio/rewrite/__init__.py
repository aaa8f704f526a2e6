"""Rewrite sentences about a person into the other grammatical gender (issue #14)."""

from occbio.rewrite.core import (
    DEFAULT_THRESHOLDS,
    Rewriter,
    RewriteUnavailable,
    Thresholds,
    rewrite,
    supported_languages,
)

__all__ = [
    "DEFAULT_THRESHOLDS",
    "RewriteUnavailable",
    "Rewriter",
    "Thresholds",
    "rewrite",
    "supported_languages",
]
