"""occbio: gender-balanced multi-way parallel corpora from Wikipedia biographies."""

__version__ = "0.1.0"
