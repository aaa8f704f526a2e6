"""Corpus audits: gender representation in text (GENDER-GAP lexicon counts and related checks)."""
