"""JSON read from a file a person or another program wrote, refused in one line naming the file
(and line) when Python's parser would give a message that names nothing.

:func:`parse_json` is ``json.loads`` plus three refusals: nesting deeper than the parser goes
(``RecursionError``: "maximum recursion depth exceeded"), a number Python will not convert
(an integer of more than 4,300 digits) and a lone UTF-16 surrogate (``"\\ud800"``), which
parses but is half a character no UTF-8 file can hold: written back later it would fail with
"'utf-8' codec can't encode character '\\ud800'".
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

__all__ = ["lone_surrogate", "parse_json"]

#: a JSON escape: ``\\uXXXX`` (its hex digits in group 1) or a backslash and one character
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _lone_escape(text: str) -> int | None:
    """Where in JSON ``text`` the first ``\\uD8xx``-``\\uDFxx`` escape that is not half of a
    pair stands, or None."""
    high_at, high_end = -1, -1
    for m in _ESCAPE.finditer(text):
        code = int(m.group(1), 16) if m.group(1) else None
        if high_at >= 0:
            if code is not None and 0xDC00 <= code <= 0xDFFF and m.start() == high_end:
                high_at = -1
                continue
            return high_at
        if code is not None and 0xD800 <= code <= 0xDBFF:
            high_at, high_end = m.start(), m.end()
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return m.start()
    return high_at if high_at >= 0 else None


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` as ``\\udXXX``, or None (text that is all
    characters)."""
    for c in text:
        if 0xD800 <= ord(c) <= 0xDFFF:
            return f"\\u{ord(c):04x}"
    return None


def parse_json(text: str, path: Path | str, error: type[Exception], line: int = 1) -> Any:
    """``json.loads(text)``; ``json.JSONDecodeError`` propagates (the caller says what the file
    should be), the three refusals above raise ``error`` naming ``path`` and the line
    (``line`` is the line ``text`` starts on: a JSON-lines file's line number)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise error(
            f"{path}:{line}: JSON nested deeper than occbio reads (a damaged or hostile file)"
        ) from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise error(f"{path}:{line}: a number occbio cannot read ({exc})") from None
    if _MAYBE_SURROGATE.search(text):
        at = _lone_escape(text)
        if at is not None:
            where = line + text.count("\n", 0, at)
            raise error(
                f"{path}:{where}: {text[at : at + 6]} is half a character (a lone UTF-16 "
                "surrogate), not text: remove it or write the whole character"
            )
    return data
