"""Reading an occbio JSONL corpus back (``corpus/corpus.jsonl``, ``counterfactual.jsonl``) for
the commands that work on a finished run (``evaluate``, ``review``): each line checked, an
error naming the file and line rather than a segment scored or judged against nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from occbio.io.json_text import parse_json
from occbio.langs import LanguageError, check_lang
from occbio.records import wiki_id

__all__ = ["Provenance", "read_segments", "redo_hint", "segment_provenance", "segment_text"]

#: The provenance keys of a corpus.jsonl row, each ``{lang: value}``.
_PROVENANCE_KEYS = ("page_ids", "revision_ids", "revision_timestamps", "sources")
#: The type occbio writes each descriptive key of a row as (a key may be absent or null): a
#: row holding another was edited, and is named rather than a traceback in whatever reads it.
_ROW_TYPES: dict[str, tuple[type, str]] = {
    "name": (str, "a string"),
    "gender": (str, "a string"),
    "occupations": (list, "a list of objects"),
    "urls": (dict, "an object of strings"),
    "scores": (dict, "an object"),
}


def read_segments(path: Path, error: type[Exception] = ValueError) -> list[tuple[int, dict]]:
    """(line number, row) of each segment of ``path``: UTF-8, a JSON object with a ``text``
    object whose keys are language codes (they become parts of file names: checked here, so
    no key can lead a path out of the run), a string ``qid`` and an integer ``seg``; anything
    else raises ``error`` naming the line (blank lines are skipped), a line over 8 MiB too (a
    segment is a sentence)."""
    from occbio.io.limits import InputTooLarge, bounded_lines

    rows = []
    with Path(path).open("rb") as fh:
        try:
            for n, raw in enumerate(bounded_lines(fh, path), 1):
                rows.append((n, _row(path, n, raw, error)))
        except InputTooLarge as exc:
            raise error(f"{exc} Was the file edited? {redo_hint(path)}") from None
    return [(n, row) for n, row in rows if row is not None]


def _row(path: Path, n: int, raw: bytes, error: type[Exception]) -> dict | None:
    """Line ``n`` of ``path`` as a segment (``None`` for a blank line), or ``error``."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path}:{n}: not UTF-8; was the file edited?") from None
    if not line.strip():
        return None
    try:  # nested too deeply, half a character: said here, with the line
        row = parse_json(line, path, error, line=n)
    except json.JSONDecodeError:
        row = None
    try:
        if row is None:
            raise TypeError
        if not isinstance(row["text"], dict) or not isinstance(row["qid"], str):
            raise TypeError
        if isinstance(row["seg"], bool) or not isinstance(row["seg"], int):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise error(
            f"{path}:{n}: not a segment of an occbio corpus (text, qid, seg expected); "
            f"was the file edited? {redo_hint(path)}"
        ) from None
    bad = _bad_key(row)
    if bad is not None:
        raise error(
            f"{path}:{n}: {bad!r} is not {_ROW_TYPES[bad][1]}, as occbio writes it; was the file "
            f"edited? {redo_hint(path)}"
        )
    for lang in row["text"]:
        try:
            check_lang(lang, f"{path}:{n}: text")
        except LanguageError as exc:
            raise error(f"{exc}; was the file edited? {redo_hint(path)}") from None
    return row


def _bad_key(row: dict) -> str | None:
    """The first descriptive key of ``row`` whose value is not of occbio's shape, else None."""
    for key, (kind, _) in _ROW_TYPES.items():
        value = row.get(key)
        if value is None:
            continue
        if not isinstance(value, kind):
            return key
        if key == "occupations" and not all(isinstance(o, dict) for o in value):
            return key
        if key == "urls" and not all(isinstance(u, str) for u in value.values()):
            return key
    return None


def redo_hint(path: Path) -> str:
    """What writes a run's corpus file ``RUN/corpus/NAME.jsonl`` again, as advice."""
    path = Path(path)
    run = path.parent.parent
    if path.name.startswith("counterfactual.") or _augmented(run):
        # `occbio write` or a `mine` without --augment would remove the counterfactual copy
        return f"`occbio augment {run}` writes it again"
    if path.name.startswith("post-edited."):
        return f"`occbio review apply {run}` writes it again"
    return (
        f"the `occbio mine` that made the run, run again with the same options and --out {run}, "
        "writes it again"
    )


def _augmented(run: Path) -> bool:
    """Whether the run's last write stage wrote the counterfactual copy too."""
    try:
        manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        return manifest["stages"]["write"]["settings"]["augment"] is True
    except (OSError, ValueError, KeyError, TypeError):
        return False


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
    recorded them gives empty ones. A value of the wrong type, or an id that is none
    (:func:`occbio.records.wiki_id`), reads as not said."""
    maps = {}
    for key in _PROVENANCE_KEYS:
        value = row.get(key)
        maps[key] = value if isinstance(value, dict) else {}

    def text(value: object) -> str:
        return value if isinstance(value, str) else ""

    langs = row.get("text") if isinstance(row.get("text"), dict) else {}
    return {
        lang: Provenance(
            page_id=wiki_id(maps["page_ids"].get(lang)),
            revision_id=wiki_id(maps["revision_ids"].get(lang)),
            revision_timestamp=text(maps["revision_timestamps"].get(lang)),
            source=text(maps["sources"].get(lang)),
        )
        for lang in langs
    }
