"""CSV files meant to be opened in a spreadsheet, safe from formula injection.

A spreadsheet takes a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a carriage
return, which it may skip before one) for a formula: a sentence, a name or a file name written
as it is could run one (``=HYPERLINK(...)``, DDE). Every CSV writer of occbio whose file a person
opens in a spreadsheet (``review/review-PAIR.csv``, ``evaluation/SRC-TGT/documents.csv`` and
``scores.csv``, ``audit --format csv``) goes through :func:`spreadsheet_writer` or
:func:`spreadsheet_dict_writer`, which prefix such a cell with ``'`` (OWASP's rule), so the
spreadsheet shows it as text. A plain number (``-0.25``) is no formula and is left as it is.

The prefix is reversible: a cell that already starts with ``'`` followed by what would be
prefixed gets one more, and :func:`from_spreadsheet` takes exactly one off again, so
``occbio review import`` reads back the very text that was exported (a post-edit copied from
the ``tgt`` cell included).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

__all__ = [
    "from_spreadsheet",
    "spreadsheet_cell",
    "spreadsheet_dict_writer",
    "spreadsheet_writer",
]

#: the first characters a spreadsheet may read as the start of a formula (OWASP)
_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _prefixed(text: str) -> bool:
    return bool(_FORMULA.match(text)) and not _NUMBER.fullmatch(text)


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a spreadsheet shows it as text: a string that could start a formula with
    ``'`` before it; anything else (numbers, ``None``) as it is."""
    if isinstance(value, str) and _prefixed(value):
        return "'" + value
    return value


def from_spreadsheet(text: str) -> str:
    """A cell read back from a CSV occbio wrote: :func:`spreadsheet_cell` undone."""
    if text.startswith("'") and _prefixed(text[1:]):
        return text[1:]
    return text


class _Writer:
    """A ``csv.writer`` whose every cell goes through :func:`spreadsheet_cell`."""

    def __init__(self, fh: IO[str], **kwargs: Any) -> None:
        self._writer = csv.writer(fh, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([spreadsheet_cell(x) for x in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


class _DictWriter(csv.DictWriter):
    """A ``csv.DictWriter`` whose every cell goes through :func:`spreadsheet_cell`."""

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        return super().writerow({k: spreadsheet_cell(v) for k, v in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        for row in rowdicts:
            self.writerow(row)


def spreadsheet_writer(fh: IO[str], **kwargs: Any) -> _Writer:
    """``csv.writer(fh, **kwargs)`` with formula-like cells neutralised."""
    return _Writer(fh, **kwargs)


def spreadsheet_dict_writer(
    fh: IO[str], fieldnames: Sequence[str], **kwargs: Any
) -> csv.DictWriter[str]:
    """``csv.DictWriter(fh, fieldnames, **kwargs)`` with formula-like cells neutralised."""
    return _DictWriter(fh, fieldnames=fieldnames, **kwargs)
