"""Reading an occbio JSONL corpus back (``corpus/corpus.jsonl``, ``counterfactual.jsonl``) for
the commands that work on a finished run (``evaluate``, ``review``): each line checked, an
error naming the file and line rather than a segment scored or judged against nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Provenance", "read_segments", "segment_provenance", "segment_text"]

#: The provenance keys of a corpus.jsonl row, each ``{lang: value}``.
_PROVENANCE_KEYS = ("page_ids", "revision_ids", "revision_timestamps", "sources")


def read_segments(path: Path, error: type[Exception] = ValueError) -> list[tuple[int, dict]]:
    """(line number, row) of each segment of ``path``: UTF-8, a JSON object with a ``text``
    object, a string ``qid`` and an integer ``seg``; anything else raises ``error`` naming the
    line (blank lines are skipped), a line over 8 MiB too (a segment is a sentence)."""
    from occbio.io.limits import InputTooLarge, bounded_lines

    rows = []
    with Path(path).open("rb") as fh:
        try:
            for n, raw in enumerate(bounded_lines(fh, path), 1):
                rows.append((n, _row(path, n, raw, error)))
        except InputTooLarge as exc:
            raise error(f"{exc} Was the file edited? `occbio write` writes it again") from None
    return [(n, row) for n, row in rows if row is not None]


def _row(path: Path, n: int, raw: bytes, error: type[Exception]) -> dict | None:
    """Line ``n`` of ``path`` as a segment (``None`` for a blank line), or ``error``."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path}:{n}: not UTF-8; was the file edited?") from None
    if not line.strip():
        return None
    try:
        row = json.loads(line)
        if not isinstance(row["text"], dict) or not isinstance(row["qid"], str):
            raise TypeError
        if isinstance(row["seg"], bool) or not isinstance(row["seg"], int):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise error(
            f"{path}:{n}: not a segment of an occbio corpus (text, qid, seg expected); "
            "was the file edited? `occbio write` writes it again"
        ) from None
    return row


def segment_text(
    path: Path, n: int, row: dict, langs: Sequence[str], error: type[Exception] = ValueError
) -> dict[str, str]:
    """The row's text in ``langs``, each a string, or ``error`` naming the line: a segment
    missing a language would otherwise be scored or judged against an empty sentence."""
    text = row["text"]
    missing = [lang for lang in langs if not isinstance(text.get(lang), str)]
    if missing:
        raise error(
            f"{path}:{n}: segment {row['qid']}:{row['seg']} has no {', '.join(missing)} text "
            f"(the corpus has {', '.join(langs)}); was the file edited?"
        )
    return {lang: text[lang] for lang in langs}


@dataclass(frozen=True)
class Provenance:
    """Where one language's text of a segment was read: page and revision ids (0 when not
    said), the revision's time and the source (``""`` when not said)."""

    page_id: int = 0
    revision_id: int = 0
    revision_timestamp: str = ""
    source: str = ""


def segment_provenance(row: dict) -> dict[str, Provenance]:
    """Each language's :class:`Provenance` in a corpus.jsonl row (``page_ids``,
    ``revision_ids``, ``revision_timestamps``, ``sources``); a corpus written before occbio
    recorded them gives empty ones. A value of the wrong type reads as not said."""
    maps = {}
    for key in _PROVENANCE_KEYS:
        value = row.get(key)
        maps[key] = value if isinstance(value, dict) else {}

    def number(value: object) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def text(value: object) -> str:
        return value if isinstance(value, str) else ""

    langs = row.get("text") if isinstance(row.get("text"), dict) else {}
    return {
        lang: Provenance(
            page_id=number(maps["page_ids"].get(lang)),
            revision_id=number(maps["revision_ids"].get(lang)),
            revision_timestamp=text(maps["revision_timestamps"].get(lang)),
            source=text(maps["sources"].get(lang)),
        )
        for lang in langs
    }
