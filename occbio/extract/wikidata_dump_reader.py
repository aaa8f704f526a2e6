"""Reading Wikidata JSON files: a dump line by line, or a small JSON document whole.

:class:`_DumpReader` reads the layout of a dump (``[``, then one entity object per line with a
comma, then ``]``; also a last line without its comma, blank lines, bare JSON lines and a byte
order mark), opens .bz2 / .gz / .xz / plain files by their magic bytes, tells a file that is not
a dump (:class:`WikidataDumpError`) from one cut short (:class:`TruncatedWikidataDumpError`),
and counts and logs the malformed lines it skips. :func:`entities_from_json_file` reads a single
entity, a wbgetentities response or a JSON array of entities, all at once.

Kept apart from :mod:`occbio.extract.wikidata_dump`, which decides what to pull out of the
lines (people, labels), so that the file format and its errors live in one place; that module
re-exports the public names here.
"""

from __future__ import annotations

import json
import logging
import lzma
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from occbio.extract.compressed import CompressionError, open_compressed

__all__ = ["WikidataDumpError", "TruncatedWikidataDumpError", "entities_from_json_file"]

# Logged as the dump reader it serves, as before the split: the logger users filter on stays.
logger = logging.getLogger("occbio.extract.wikidata_dump")

_STRIP = b" \t\r\n,"
_BOM = b"\xef\xbb\xbf"
_SNIPPET_CHARS = 80
_MAX_LOGGED_MALFORMED = 20
#: Lines read before the first entity line decides that the file is a dump: a dump whose first
#: lines are corrupt is still read (they are counted), a file of another shape is refused.
_PROBE_LINES = 100
#: A JSON escape of a UTF-16 surrogate (``\ud800``): the only way a line can hold one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
#: A surrogate left alone after parsing (a pair would have become one character).
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class WikidataDumpError(Exception):
    """The file is not a Wikidata JSON dump (or cannot be read as one); the message says why."""


class TruncatedWikidataDumpError(WikidataDumpError):
    """A compressed dump ends before its end-of-stream marker: the download or copy was cut.

    Raised after every entity before the cut has been yielded; ``entities_read`` says how many.
    """

    def __init__(self, path: Path, entities_read: int, line: int) -> None:
        self.path = path
        self.entities_read = entities_read
        self.line = line
        super().__init__(
            f"{path}: the compressed stream ends early (after line {line}, {entities_read} "
            "entities read): the file is truncated; download it again or check the copy"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # picklable, so a worker process can hand it back to its parent
        return (type(self), (self.path, self.entities_read, self.line))


def _looks_like_entity(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("id"), str) and "type" in obj


def _replace_lone_surrogates(obj: Any) -> int:
    """Replace, in place, each lone surrogate in ``obj``'s strings and keys by U+FFFD; return
    how many strings changed.

    JSON may spell one (``"\\ud800"``) and ``json.loads`` keeps it, but UTF-8 cannot encode
    it: left in, it stops whatever writes the record later, far from the line it came from.
    """
    changed = 0
    stack = [obj] if isinstance(obj, (dict, list)) else []
    while stack:
        node = stack.pop()
        pairs = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        for key, value in pairs:
            if isinstance(value, str) and _LONE_SURROGATE.search(value):
                node[key] = _LONE_SURROGATE.sub("\ufffd", value)
                changed += 1
            elif isinstance(value, (dict, list)):
                stack.append(value)
            if isinstance(key, str) and _LONE_SURROGATE.search(key):
                node[_LONE_SURROGATE.sub("\ufffd", key)] = node.pop(key)
                changed += 1
    return changed


# --------------------------------------------------------------------------------------------
# I/O: opening, layout, malformed lines
# --------------------------------------------------------------------------------------------


def _open_binary(path: Path) -> IO[bytes]:
    """Open a dump for reading bytes, decompressing by magic bytes (names can lie)."""
    try:
        return open_compressed(path)[0]
    except CompressionError as exc:
        problem = str(exc)  # raised below, outside the handler: no chained traceback
    raise WikidataDumpError(
        f"{path} {problem}; a Wikidata JSON dump is read as .bz2, .gz, .xz or plain"
    )


def _snippet(line: bytes) -> str:
    return line[: _SNIPPET_CHARS * 4].decode("utf-8", "replace")[:_SNIPPET_CHARS]


class _DumpReader:
    """Reads one dump's lines: layout (``[``/``]``, commas), compression errors, bad lines."""

    def __init__(self, path: Path, stats: Counter[str]) -> None:
        self.path = path
        self.stats = stats
        self.entities_read = 0
        self._malformed_logged = 0
        self._surrogates_logged = 0

    def malformed(self, lineno: int, line: bytes, why: str) -> None:
        """Count a skipped line; log the first few (a corrupt file should not flood the log)."""
        self.stats["entities_malformed"] += 1
        self._malformed_logged += 1
        if self._malformed_logged <= _MAX_LOGGED_MALFORMED:
            logger.warning("%s line %d skipped: %s: %r", self.path, lineno, why, _snippet(line))
            if self._malformed_logged == _MAX_LOGGED_MALFORMED:
                logger.warning("%s: further malformed lines are counted, not logged", self.path)

    def parse(self, lineno: int, line: bytes) -> dict[str, Any] | None:
        """``json.loads`` the line; a line that is not an entity object is counted and skipped.

        Lone surrogates (``\\ud800``) become U+FFFD, counted in ``entities_lone_surrogates``.
        """
        obj, why = self._load(line)
        if why is not None:
            self.malformed(lineno, line, why)
            return None
        if _SURROGATE_ESCAPE.search(line) and _replace_lone_surrogates(obj):
            self.stats["entities_lone_surrogates"] += 1
            self._surrogates_logged += 1
            if self._surrogates_logged <= _MAX_LOGGED_MALFORMED:
                logger.warning(
                    "%s line %d: a lone surrogate escape (\\ud800-\\udfff, no character) "
                    "read as U+FFFD",
                    self.path,
                    lineno,
                )
        return obj

    @staticmethod
    def _load(line: bytes) -> tuple[Any, str | None]:
        """The line's entity object, or why it is not one."""
        try:
            obj = json.loads(line)
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            return None, f"not valid JSON ({exc})"
        except RecursionError:  # nested deeper than Python's JSON parser goes
            return None, "JSON nested too deep"
        if not _looks_like_entity(obj):
            return None, "a JSON object without an entity id"
        return obj, None

    def _not_a_dump(self, lineno: int, line: bytes, lines_seen: int) -> WikidataDumpError:
        hint = ""
        single = (
            "; for a single entity file or a wbgetentities response use entities_from_json_file()"
        )
        if line in (b"{", b"["):
            hint = (
                "; it looks pretty-printed (one JSON value over many lines): write it one "
                "entity a line first (jq -c '.[]' for an array of entities)" + single
            )
        elif line[:1] == b"{":
            hint = single
        elif line[:1] == b"[":
            hint = (
                "; a JSON array on one line is not the dump's one-entity-per-line layout "
                "(jq -c '.[]' writes it one entity a line)"
            )
        where = f"line {lineno} is {_snippet(line)!r}"
        if lines_seen > 1:
            where += f" and none of its first {lines_seen} lines is an entity object"
        return WikidataDumpError(
            f"{self.path} is not a Wikidata JSON dump: {where}; "
            f"expected '[' and then one entity object per line (as in latest-all.json){hint}"
        )

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """Yield ``(line number, entity JSON bytes)``: stripped of whitespace and comma.

        The first line that parses as an entity object decides that the file is a dump; the
        lines before it (at most :data:`_PROBE_LINES`) are then counted as malformed. A file
        with no entity line among them is refused, named by its first line.
        """
        fh = _open_binary(self.path)
        lineno = 0
        started = array = closed = False
        checked = False
        before: list[tuple[int, bytes, str]] = []  # lines before the first entity line
        with fh:
            try:
                for raw in fh:
                    lineno += 1
                    line = raw.strip(_STRIP)
                    if not started:
                        line = line.removeprefix(_BOM).strip(_STRIP)
                        if not line:
                            continue
                        started = True
                        if line == b"[":
                            array = True
                            continue
                    if not line:
                        continue
                    if line == b"]" and array and not closed:
                        closed = True
                        continue
                    if closed:
                        self.malformed(lineno, line, "content after the closing ']'")
                        continue
                    why = None
                    if line[:1] != b"{" or line[-1:] != b"}":
                        why = "not one JSON object on the line"
                    elif not checked:
                        why = self._load(line)[1]
                    if why is not None:
                        if checked:
                            self.malformed(lineno, line, why)
                            continue
                        before.append((lineno, line[: _SNIPPET_CHARS * 4], why))
                        if len(before) >= _PROBE_LINES:
                            break
                        continue
                    if not checked:
                        checked = True
                        for args in before:
                            self.malformed(*args)
                        before.clear()
                    self.entities_read += 1
                    self.stats["entities_read"] += 1
                    yield lineno, line
            except EOFError as exc:
                raise TruncatedWikidataDumpError(self.path, self.entities_read, lineno) from exc
            except (OSError, zlib.error, lzma.LZMAError) as exc:
                raise WikidataDumpError(
                    f"{self.path}: cannot read past line {lineno} ({exc}): the file is corrupt"
                ) from exc
        if before:
            first_line, first, _ = before[0]
            raise self._not_a_dump(first_line, first, len(before))
        if not started:
            raise WikidataDumpError(f"{self.path} holds only blank lines, not a Wikidata dump")
        if array and not closed:
            logger.warning(
                "%s ends after line %d without the closing ']': it may be cut short "
                "(fine for a head -n excerpt)",
                self.path,
                lineno,
            )


# --------------------------------------------------------------------------------------------
# Whole JSON files (single entities, wbgetentities responses)
# --------------------------------------------------------------------------------------------


def entities_from_json_file(path: str | Path) -> list[dict[str, Any]]:
    """Read the entity objects of one JSON document: an entity, a wbgetentities response
    (``{"entities": {...}}``), or a JSON array of entities. For small files: it loads the
    whole document. Missing entities of a wbgetentities response are left out.
    """
    path = Path(path)
    try:
        with _open_binary(path) as fh:
            data = json.load(fh)
    except ValueError as exc:
        raise WikidataDumpError(f"{path} is not a JSON document: {exc}") from None
    except (EOFError, OSError, zlib.error, lzma.LZMAError) as exc:
        raise WikidataDumpError(f"{path}: cannot read the file ({exc})") from exc
    if isinstance(data, dict) and isinstance(data.get("entities"), dict):
        items = list(data["entities"].values())
    elif isinstance(data, dict) and "error" in data and "id" not in data:
        raise WikidataDumpError(f"{path} is a Wikidata API error response: {data['error']!r}")
    elif isinstance(data, dict):
        items = [data]
    elif isinstance(data, list):
        items = data
    else:
        raise WikidataDumpError(f"{path} holds a JSON {type(data).__name__}, not entities")
    entities = [e for e in items if not (isinstance(e, dict) and "missing" in e)]
    if _replace_lone_surrogates(entities):
        logger.warning("%s: lone surrogate escapes (no character) read as U+FFFD", path)
    for entity in entities:
        if not _looks_like_entity(entity):
            raise WikidataDumpError(
                f"{path}: {_snippet(json.dumps(entity).encode())!r} is not a Wikidata entity "
                "(an object with 'id' and 'type')"
            )
    return entities
