"""A system's translations, lined up with the test set's segments or refused in one line.

Two layouts: a text file with one translation per line in the order of ``corpus/corpus.<lang>``
(what ``sacrebleu`` and most MT toolkits write), or JSON lines keyed by segment id
(``{"id": "Q42:3", "text": ...}``, or ``"qid"`` and ``"seg"``) in any order; either may be
gzipped, as sacrebleu allows. What is read is capped (:func:`max_bytes`, decompressed too; a
line at most 8 MiB), a device is refused, a FIFO is read once. A wrong line count, a missing,
unknown or repeated id, bytes that are not UTF-8: an error naming the file and the line. An
empty translation where the reference has text is scored (it is a miss) and counted.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import logging
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from occbio.io.json_text import parse_json
from occbio.io.limits import (
    MAX_LINE_BYTES,
    device_problem,
    interrupted,
    is_stream,
    maybe_waiting,
    mib,
)

__all__ = ["HypothesisError", "Hypotheses", "max_bytes", "parse_system", "read_hypotheses"]

log = logging.getLogger(__name__)


class HypothesisError(ValueError):
    """A translation file that cannot be lined up with the test set (one line)."""


@dataclass
class Hypotheses:
    """One system's translations, in the order of the segment ids they were read for."""

    name: str
    path: Path
    lines: list[str]
    #: translations that are empty where the reference has text
    empty: int = 0
    #: the file as read (size in bytes, SHA-256): which translations these figures are of
    size: int = 0
    sha256: str = ""


def parse_system(value: str) -> tuple[str, Path]:
    """``NAME=PATH`` (or a bare ``PATH``, named after the file) -> (name, path)."""
    name, sep, path = value.partition("=")
    if not sep:
        name, path = Path(value).stem or value, value
    if not name or not path:
        raise HypothesisError(f"--system expects NAME=PATH, got {value!r}")
    if not name.isprintable():  # it is printed in the table, the chart and the CSV files
        raise HypothesisError(f"--system {value!r}: a system name is plain text on one line")
    return name, Path(path)


#: A system's translations, decompressed, are at most this much more than the test set's
#: references: ``BASE_BYTES`` + ``PER_REFERENCE_BYTE`` x the references' bytes +
#: ``PER_SEGMENT_BYTES`` per segment (JSON lines spell out ids and keys). A translation ten times
#: its reference fits; a gzip bomb or an endless pipe stops there, in one line.
BASE_BYTES = 32 << 20
PER_REFERENCE_BYTE = 10
PER_SEGMENT_BYTES = 1024


def max_bytes(references: Sequence[str]) -> int:
    """The most bytes read (and decompressed) from a translation file of ``references``."""
    size = sum(len(r.encode("utf-8", "surrogatepass")) for r in references)
    return BASE_BYTES + PER_REFERENCE_BYTE * size + PER_SEGMENT_BYTES * len(references)


def _too_large(path: Path, limit: int, references: Sequence[str], how: str) -> HypothesisError:
    size = sum(len(r.encode("utf-8", "surrogatepass")) for r in references)
    return HypothesisError(
        f"{path}: more than {mib(limit)} of translations{how}, for a test set of "
        f"{len(references)} segments ({mib(size)} of references): is this the right file?"
    )


def _read(path: Path, name: str, references: Sequence[str] = ()) -> tuple[bytes, bytes]:
    """(the file's bytes, its text's bytes): read once, so a pipe or FIFO works; gunzipped.
    Neither may exceed :func:`max_bytes`; a device is refused before it is opened, and a FIFO
    that does not end is named in a warning while it is waited for."""
    problem = device_problem(path)
    if problem is not None:
        raise HypothesisError(f"{path} {problem} (the translations of {name})")
    limit = max_bytes(references)
    try:
        with maybe_waiting(path, f"the translations of {name}") as activity:
            activity.waiting()  # opening a FIFO waits for its writer
            with open(path, "rb") as fh:
                whole = bytearray()
                while len(whole) <= limit:
                    activity.waiting()
                    chunk = fh.read1(min(1 << 20, limit + 1 - len(whole)))
                    activity.got()
                    if not chunk:
                        break
                    whole += chunk
    except OSError as exc:
        raise HypothesisError(
            f"{path}: {exc.strerror or exc} (the translations of {name})"
        ) from None
    except KeyboardInterrupt:
        if not is_stream(path):
            raise
        raise HypothesisError(interrupted(path, f"the translations of {name}")) from None
    if len(whole) > limit:
        raise _too_large(path, limit, references, "")
    whole = bytes(whole)
    if not whole.startswith(b"\x1f\x8b"):
        return whole, whole
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(whole)) as gz:
            text = gz.read(limit + 1)  # a bomb stops here, not at the end of memory
    except (OSError, EOFError, zlib.error) as exc:
        raise HypothesisError(f"{path}: a damaged gzip file ({exc})") from None
    if len(text) > limit:
        raise _too_large(path, limit, references, " once decompressed")
    return whole, text


def _lines(path: Path, data: bytes) -> list[str]:
    """The lines of ``data`` (split on newlines only, as sacrebleu reads a file)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()  # the newline that ends the last line
    lines = []
    for n, line in enumerate(raw, 1):
        if len(line) > MAX_LINE_BYTES:
            raise HypothesisError(
                f"{path}:{n}: a line longer than {mib(MAX_LINE_BYTES)}; is this a text file?"
            )
        try:
            lines.append(line.decode("utf-8").removesuffix("\r"))
        except UnicodeDecodeError as exc:
            raise HypothesisError(
                f"{path}:{n}: not UTF-8 (byte {exc.start + 1} of the line); convert the file, "
                "e.g. iconv -f latin1 -t utf-8"
            ) from None
    return lines


def _segment_id(row: object) -> str:
    """A JSON line's segment id: ``"id"``, or ``"qid"`` and a whole-number ``"seg"``."""
    if not isinstance(row, dict):
        raise TypeError
    if "id" in row:
        return str(row["id"])
    seg = row["seg"]
    if isinstance(seg, str) and seg.isdigit():
        if not seg.isascii():  # "１" is a digit to Python's int(), not a segment number
            raise HypothesisError(f'"seg": {seg!r} is not written in ASCII digits (0-9)')
        seg = int(seg)
    if isinstance(seg, bool) or not isinstance(seg, int) or not isinstance(row["qid"], str):
        raise TypeError
    return f"{row['qid']}:{seg}"


def _shown(sid: str, limit: int = 60) -> str:
    """A segment id for a message: quoted (its escapes shown), long ones cut."""
    shown = repr(sid)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _by_id(path: Path, lines: list[str], ids: Sequence[str]) -> list[str]:
    wanted = set(ids)
    found: dict[str, str] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:  # nested too deeply, half a character: said here, with the line
            row = parse_json(line, path, HypothesisError, line=n)
        except json.JSONDecodeError:
            row = None
        try:
            sid = _segment_id(row)
            text = row["text"] if "text" in row else row["translation"]
            if not isinstance(text, str):
                raise TypeError
        except HypothesisError as exc:  # a seg in other digits
            raise HypothesisError(f"{path}:{n}: {exc}") from None
        except (ValueError, KeyError, TypeError):
            raise HypothesisError(
                f'{path}:{n}: expected {{"id": "QID:SEG", "text": "..."}} (or "qid", "seg" and '
                '"text"/"translation")'
            ) from None
        if sid not in wanted:
            raise HypothesisError(f"{path}:{n}: segment {_shown(sid)} is not in the test set")
        if sid in found:
            raise HypothesisError(f"{path}:{n}: segment {_shown(sid)} is translated twice")
        found[sid] = text
    missing = [s for s in ids if s not in found]
    if missing:
        raise HypothesisError(
            f"{path}: {len(missing)} of {len(ids)} segments have no translation "
            f"(the first: {missing[0]})"
        )
    return [found[s] for s in ids]


def read_hypotheses(
    name: str, path: Path, ids: Sequence[str], references: Sequence[str], against: str
) -> Hypotheses:
    """``name``'s translations of the segments ``ids`` (references in the same order);
    ``against`` names the reference file for the line-count message."""
    path = Path(path)
    if path.is_dir():
        raise HypothesisError(f"{path} is a directory: give the translation file of {name}")
    data, text = _read(path, name, references)
    lines = _lines(path, text)
    suffix = Path(path.name.removesuffix(".gz")).suffix
    if suffix in (".jsonl", ".json"):
        lines = _by_id(path, lines, ids)
    elif len(lines) != len(ids):
        extra = len(lines) - len(ids)
        hint = ""
        if extra > 0 and not any(line.strip() for line in lines[-extra:]):
            hint = " (the last line is empty" if extra == 1 else f" (the last {extra} are empty"
            hint += ": blank lines at the end?)"
        raise HypothesisError(
            f"{path} has {len(lines)} lines but {against} has {len(ids)}{hint}: one translation "
            "per line, in the same order, is expected (or JSON lines with segment ids)"
        )
    for n, line in enumerate(lines, 1):
        if "\x00" in line:
            raise HypothesisError(f"{path}:{n}: a NUL byte; is this a text file?")
    empty = sum(1 for h, r in zip(lines, references, strict=True) if not h.strip() and r.strip())
    if empty:
        log.warning(
            "%s: %d of %d translations are empty where the reference has text (scored as misses)",
            path,
            empty,
            len(lines),
        )
    return Hypotheses(name, path, lines, empty, len(data), hashlib.sha256(data).hexdigest())
