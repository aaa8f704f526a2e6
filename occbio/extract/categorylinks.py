"""A category's members from MediaWiki's ``categorylinks`` SQL dump (template-added ones too).

A page's wikitext shows only the ``[[Category:…]]`` links written in it; categories that
templates add (eswiki's ``{{NF|1942|…}}`` puts a page in *Nacidos en 1942*) are in the
``categorylinks`` table, which Wikimedia publishes as ``LANGwiki-DATE-categorylinks.sql.gz``:
a ``mysqldump`` file with a ``CREATE TABLE`` and then ``INSERT INTO `categorylinks` VALUES
(…),(…);`` lines of about 1 MB each. Three layouts have been published, told apart here by the
dump's own ``CREATE TABLE``:

* until early 2025: ``cl_from, cl_to, cl_sortkey, cl_timestamp, cl_sortkey_prefix,
  cl_collation, cl_type`` (``cl_to`` the category's title, underscores for spaces);
* during the migration (MediaWiki 1.44, 2025): the same with ``cl_collation_id`` and
  ``cl_target_id`` appended;
* from MediaWiki 1.45 (late 2025): no ``cl_to`` (nor ``cl_collation``): ``cl_target_id`` is a
  ``linktarget.lt_id``, so the ``LANGwiki-DATE-linktarget.sql.gz`` dump (``lt_id,
  lt_namespace, lt_title``) is needed to find the category's id first.

The files are streamed (tens of GB decompressed, never held whole, in 1 MB reads whatever the
length of a line). The wanted category is searched for as bytes, as mysqldump writes it, and
only the tuples that hold it are parsed (a regular expression per tuple, from the ``(`` that
opens it): the file is read about as fast as it decompresses, and only the rows of the wanted
category (and, when asked, of the wanted pages) are kept. Such a tuple that does not parse is
skipped and counted; a line that is neither SQL of a dump nor an ``INSERT`` is skipped and
counted; a file that is not such a dump, or cannot be read, is a :class:`CategoryLinksError`
with a one-line message; one that breaks off is a :class:`TruncatedCategoryLinksError` after
every row read. :func:`iter_table_rows` without ``where`` parses every tuple (slower).
"""

from __future__ import annotations

import logging
import lzma
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Collection, Generator, Iterator
from pathlib import Path
from typing import IO

from occbio.extract.compressed import CompressionError, open_compressed
from occbio.extract.mediawiki import category_name, normalise_title
from occbio.extract.wikipedia_dump import DumpError

__all__ = [
    "CATEGORY_NAMESPACE",
    "CategoryLinksError",
    "TruncatedCategoryLinksError",
    "category_page_ids",
    "iter_table_rows",
    "table_columns",
    "title_key",
]

log = logging.getLogger(__name__)

#: The category namespace's number in every MediaWiki.
CATEGORY_NAMESPACE = 14
#: Bytes read from the decompressed stream at a time.
_CHUNK_BYTES = 1 << 20
#: Longest tuple waited for: a real row is under 2 kB (three 255-byte strings, escaped), so a
#: tuple that still does not parse with this many bytes in hand is malformed, not cut.
MAX_TUPLE_BYTES = 1 << 16
#: Longest line of DDL or comment kept whole; a longer one (not an INSERT) is skipped unread.
MAX_LINE_BYTES = 1 << 20
#: The ``CREATE TABLE`` or first ``INSERT`` must come within this many bytes of the start.
_HEADER_BYTES = 1 << 22
#: How many skipped lines and tuples are logged one by one (the rest are only counted).
_MAX_LOGGED = 5

# A quoted string as mysqldump writes it (backslash escapes, never a raw newline); ``''``
# inside one (other tools' escape) is read too. ``_binary`` is MySQL 8's introducer.
_STRING = rb"(?:_binary\s*)?'[^'\\\n]*+(?:(?:\\.|'')[^'\\\n]*+)*+'"
# Anything else: a number, NULL, 0x-hex.
_BARE = rb"[^,'()\n]*+"
_FIELD = rb"[ \t]*+(?:" + _STRING + rb"|" + _BARE + rb")[ \t]*+"
_CAPTURED = rb"[ \t]*+(" + _STRING + rb"|" + _BARE + rb")[ \t]*+"
_INSERT_RE = re.compile(rb"INSERT\s+INTO\s+`?(\w+)`?\s*(?:\(([^)]*)\)\s*)?VALUES\s*", re.I)
_CREATE_RE = re.compile(rb"CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?`?(\w+)`?\s*\(", re.I)
_COLUMN_RE = re.compile(rb"\s*`(\w+)`\s+(\w*)")
_NUMERIC_TYPE_RE = re.compile(
    rb"(?:tiny|small|medium|big)?int|integer|decimal|numeric|float|double|real|bit", re.I
)
#: How many ``(`` before a found value are tried as its tuple's start.
_MAX_STARTS = 64
_COLUMN_NAME_RE = re.compile(rb"`?(\w+)`?")
#: Lines a mysqldump file holds besides its INSERTs and CREATE TABLE bodies.
_KNOWN_LINE_RE = re.compile(
    rb"\s*(?:$|--|/\*|#|DROP\s|LOCK\s|UNLOCK\s|SET\s|USE\s|ALTER\s|COMMIT|START\s|BEGIN)", re.I
)
_UNESCAPES = {
    b"0": b"\0",
    b"b": b"\b",
    b"n": b"\n",
    b"r": b"\r",
    b"t": b"\t",
    b"Z": b"\x1a",
    b"%": b"\\%",  # MySQL keeps the backslash of \% and \_ (LIKE patterns)
    b"_": b"\\_",
}
_ESCAPE_RE = re.compile(rb"\\(.)|''", re.S)


class CategoryLinksError(DumpError):
    """The file cannot be read as the SQL dump it should be; the message names it and why."""


class TruncatedCategoryLinksError(CategoryLinksError):
    """The dump breaks off before its end; every row before the break was yielded."""


def title_key(title: str) -> bytes:
    """A title as MediaWiki's tables store it: NFC, underscores for spaces, UTF-8 bytes."""
    return unicodedata.normalize("NFC", title).replace(" ", "_").encode("utf-8")


def _unescape(raw: bytes) -> bytes:
    def one(m: re.Match[bytes]) -> bytes:
        char = m.group(1)
        if char is None:
            return b"'"
        return _UNESCAPES.get(char, char)

    return _ESCAPE_RE.sub(one, raw)


def _value(raw: bytes) -> bytes | None:
    """A field's value: a string unquoted and unescaped, ``0x…`` as its bytes, ``NULL`` as
    ``None``, a number as its digits."""
    raw = raw.strip()
    if raw.startswith(b"_binary"):
        raw = raw[len(b"_binary") :].lstrip()
    if raw[:1] == b"'":
        inner = raw[1:-1]
        return _unescape(inner) if b"\\" in inner or b"''" in inner else inner
    if raw.upper() == b"NULL":
        return None
    if raw[:2] in (b"0x", b"0X"):
        try:
            return bytes.fromhex(raw[2:].decode("ascii"))
        except ValueError:
            return raw
    return raw


def _escaped(value: bytes) -> bytes:
    """``value`` quoted as mysqldump writes it (what most rows hold byte for byte)."""
    out = value.replace(b"\\", b"\\\\").replace(b"'", b"\\'").replace(b'"', b'\\"')
    out = out.replace(b"\0", b"\\0").replace(b"\n", b"\\n").replace(b"\r", b"\\r")
    return b"'" + out.replace(b"\x1a", b"\\Z") + b"'"


# ---------------------------------------------------------------------------------------------
# Reading a mysqldump file


def _open(path: Path, what: str) -> tuple[IO[bytes], str]:
    try:
        return open_compressed(path)
    except FileNotFoundError:
        problem = "not found"
    except IsADirectoryError:
        problem = "is a directory, not a file"
    except OSError as exc:
        problem = f"cannot be read: {exc.strerror or exc}"
    except CompressionError as exc:
        problem = str(exc)
    raise CategoryLinksError(f"{what} {path} {problem}")


def _chunks(stream: IO[bytes], codec: str, path: Path, what: str) -> Iterator[bytes]:
    while True:
        try:
            chunk = stream.read1(_CHUNK_BYTES)  # type: ignore[attr-defined]
        except EOFError:
            raise TruncatedCategoryLinksError(
                f"{what} {path.name} is truncated: its {codec} stream ends early"
            ) from None
        except (OSError, lzma.LZMAError, zlib.error) as exc:
            raise CategoryLinksError(
                f"{what} {path.name}: its {codec} data cannot be decompressed ({exc})"
            ) from None
        if not chunk:
            return
        yield chunk


class _Reader:
    """One pass over a mysqldump file, yielding chosen columns of one table's rows.

    Without ``where`` every tuple is parsed, one regular expression each (about 25 MB/s).
    With ``where``, only the tuples that hold one of the wanted values are: the value, as
    mysqldump writes it (quoted and escaped, or a number's digits) between a field's
    delimiters, is searched for as bytes, and the tuple around it is found by trying the
    ``(`` before it until one parses with the value in the ``where`` column. In a valid dump
    that is exact (a string's quotes are escaped inside it, and a raw newline never occurs in
    a row), and it reads as fast as the file decompresses; the other rows are counted by
    their ``),(`` separators, not parsed, so only a malformed row of the wanted value is
    counted as such.
    """

    def __init__(
        self,
        path: Path,
        table: str,
        columns: tuple[str, ...],
        *,
        where: str | None,
        values: Collection[bytes],
        stats: Counter[str],
        what: str,
        header_only: bool = False,
    ) -> None:
        self.path = path
        self.table = table.encode()
        self.columns = columns
        self.where = where
        self.values = frozenset(values)
        self.stats = stats
        self.what = what
        self.header_only = header_only
        self.table_columns: list[str] | None = None
        self.numeric: set[str] = set()  # columns whose CREATE TABLE type is a number
        self._create: bytes | None = None  # the table whose CREATE TABLE body is being read
        self._create_columns: list[str] = []
        self._seen_sql = False
        self._logged = 0
        name = table
        self._read_key = f"{name}_rows_read"
        self._malformed_key = f"{name}_rows_malformed"
        self._tuple_re: re.Pattern[bytes] | None = None
        self._groups: list[int] = []
        self._key = 0
        self._needles: list[bytes] = []

    # -- what the lines say

    def _note(self, kind: str, detail: str) -> None:
        self.stats[f"{self.table.decode()}_{kind}"] += 1
        self._log(detail)

    def _log(self, detail: str) -> None:
        if self._logged < _MAX_LOGGED:
            self._logged += 1
            log.warning("%s %s: %s", self.what, self.path.name, detail)

    def _line(self, line: bytes) -> None:
        if self._create is not None:
            match = _COLUMN_RE.match(line)
            if match:
                column = match.group(1).decode()
                self._create_columns.append(column)
                if _NUMERIC_TYPE_RE.match(match.group(2)):
                    self.numeric.add(column)
                return
            if line.lstrip().startswith(b")"):
                if self._create == self.table:
                    self.table_columns = self._create_columns
                self._create = None
            return  # keys and constraints of the body
        match = _CREATE_RE.match(line.lstrip())
        if match:
            self._seen_sql = True
            self._create = match.group(1)
            self._create_columns = []
            return
        if _KNOWN_LINE_RE.match(line):
            if line.strip():
                self._seen_sql = True
            return
        self._note("lines_skipped", f"skipped a line that is not SQL of a dump: {line[:80]!r}")

    def _prepare(self, columns: list[str]) -> None:
        """The tuple's regular expression for ``columns``, and what to search for."""
        missing = [c for c in self.columns if c not in columns]
        if self.where is not None and self.where not in columns:
            missing.append(self.where)
        if missing:
            raise CategoryLinksError(
                f"{self.what} {self.path.name}: table `{self.table.decode()}` has no column "
                f"{', '.join(missing)} (its columns: {', '.join(columns)})"
            )
        wanted = [*self.columns, *([self.where] if self.where is not None else [])]
        fields = [_CAPTURED if c in wanted else _FIELD for c in columns]
        pattern = rb"\s*+\(" + rb",".join(fields) + rb"\)\s*+([,;]?)"
        order = [c for c in columns if c in wanted]  # the groups, in the columns' order
        self._tuple_re = re.compile(pattern)
        self._groups = [order.index(c) + 1 for c in self.columns]
        if self.where is not None:
            self._key = order.index(self.where) + 1
            numeric = self.where in self.numeric
            self._needles = sorted(
                {v if numeric else _escaped(v) for v in self.values if v.isdigit() or not numeric}
            )

    # -- the pass

    def rows(self) -> Generator[tuple[bytes | None, ...], None, None]:
        stream, codec = _open(self.path, self.what)
        with stream:
            yield from self._rows(_chunks(stream, codec, self.path, self.what))

    def _rows(self, chunks: Iterator[bytes]) -> Iterator[tuple[bytes | None, ...]]:
        name = self.table.decode()
        buf = b""
        pos = 0
        offset = 0  # bytes dropped from the front of buf
        eof = False
        state = "lines"
        inserts = 0
        data_start = 0  # where the statement's tuples start in buf (0: dropped already)
        scan = self.where is not None
        while True:
            # ---- consume what the buffer holds
            n = len(buf)
            while True:
                if state == "tuples":
                    if scan:
                        step = self._scan(buf, pos, data_start, eof, offset)
                    else:
                        step = self._parse(buf, pos, eof, offset)
                    pos, state, stalled = yield from step
                    if stalled:
                        break
                    if state != "tuples" or buf[pos - 1 : pos] == b"\n":
                        data_start = pos  # a new line: no tuple starts before it
                    continue
                if state == "resync":  # to the next tuple of the statement, or the next line
                    i = buf.find(b"),(", pos)
                    j = buf.find(b"\n", pos)
                    if i != -1 and (j == -1 or i < j):
                        pos, state = i + 2, "tuples"
                    elif j != -1:
                        pos, state = j + 1, "lines"
                    else:
                        pos = max(pos, n - 2)
                        break
                    continue
                if state == "skip_line":
                    j = buf.find(b"\n", pos)
                    if j == -1:
                        pos = n
                        break
                    pos, state = j + 1, "lines"
                    continue
                # ---- state "lines"
                if pos >= n:
                    break
                j = buf.find(b"\n", pos)
                if buf.startswith((b"INSERT", b"insert"), pos):
                    m = _INSERT_RE.match(buf, pos)
                    if m is None or m.end() >= n:
                        if j == -1 and not eof and n - pos < MAX_LINE_BYTES:
                            break  # more of the line to come
                        if m is None:
                            self._note("lines_skipped", "skipped an INSERT it cannot read")
                            state = "skip_line"
                            continue
                    self._seen_sql = True
                    table = m.group(1)
                    if table != self.table:
                        if self.table_columns is None:
                            raise CategoryLinksError(
                                f"{self.what} {self.path} holds table `{table.decode()}`, not "
                                f"`{name}`: give the {name}.sql.gz dump"
                            )
                        self.stats[f"{name}_other_inserts"] += 1
                        state = "skip_line"
                        continue
                    if self._tuple_re is None:
                        columns = self.table_columns
                        if m.group(2):
                            columns = [c.decode() for c in _COLUMN_NAME_RE.findall(m.group(2))]
                        if columns is None:
                            raise CategoryLinksError(
                                f"{self.what} {self.path} has no CREATE TABLE `{name}` before "
                                "its INSERT lines, so its columns are unknown: give the dump "
                                "as Wikimedia publishes it"
                            )
                        self.table_columns = columns
                        if self.header_only:
                            return
                        self._prepare(columns)
                    inserts += 1
                    pos, state = m.end(), "tuples"
                    data_start = pos
                    continue
                if j == -1:
                    if not eof:
                        if n - pos > MAX_LINE_BYTES:
                            self._note("lines_skipped", "skipped a line over 1 MB")
                            state = "skip_line"
                            continue
                        break
                    line, pos = buf[pos:], n
                else:
                    line, pos = buf[pos:j], j + 1
                self._line(line)
                if self.header_only and self.table_columns is not None:
                    return
            # ---- read more
            if eof:
                break
            if not self._seen_sql and offset + pos > _HEADER_BYTES:
                raise CategoryLinksError(
                    f"{self.what} {self.path} is not a MySQL dump of a `{name}` table: no "
                    f"CREATE TABLE or INSERT in its first {_HEADER_BYTES >> 20} MB"
                )
            keep = pos
            if scan and state == "tuples":  # the tuple around a value may start before pos
                keep = max(data_start, pos - MAX_TUPLE_BYTES)
            offset += keep
            buf = buf[keep:]
            pos -= keep
            data_start = max(0, data_start - keep)
            try:
                chunk = next(chunks)
            except StopIteration:
                eof = True
                continue
            buf += chunk
        if self.table_columns is None and not inserts:
            raise CategoryLinksError(
                f"{self.what} {self.path} is not a MySQL dump of a `{name}` table: it has no "
                f"CREATE TABLE `{name}` and no INSERT INTO `{name}`"
            )

    def _truncated(self) -> TruncatedCategoryLinksError:
        return TruncatedCategoryLinksError(
            f"{self.what} {self.path.name} is truncated: it ends inside an INSERT statement"
        )

    def _row(self, m: re.Match[bytes]) -> tuple[bytes | None, ...]:
        return tuple(_value(m.group(g)) for g in self._groups)

    def _parse(
        self, buf: bytes, pos: int, eof: bool, offset: int
    ) -> Generator[tuple[bytes | None, ...], None, tuple[int, str, bool]]:
        """Every tuple from ``pos``: ``(pos, state, stalled)`` when the statement ends, a
        tuple does not parse (``resync``) or more bytes are needed (``stalled``)."""
        assert self._tuple_re is not None
        match = self._tuple_re.match
        stats, read_key = self.stats, self._read_key
        n = len(buf)
        while True:
            m = match(buf, pos)
            if m is None:
                if not eof and n - pos < MAX_TUPLE_BYTES:
                    return pos, "tuples", True
                if eof and buf.find(b"\n", pos) == -1:
                    raise self._truncated()
                self._malformed(buf, pos, offset)
                return pos, "resync", False
            end = m.end()
            if end >= n and not eof:
                return pos, "tuples", True  # the separator (or more space) may follow
            stats[read_key] += 1
            yield self._row(m)
            sep = m.group(m.re.groups)
            pos = end
            if sep == b",":
                continue
            if sep == b";":
                return pos, "lines", False
            if eof and end >= n:
                raise self._truncated()
            self._malformed(buf, pos, offset)  # a tuple not followed by ',' or ';'
            return pos, "resync", False

    def _scan(
        self, buf: bytes, pos: int, data_start: int, eof: bool, offset: int
    ) -> Generator[tuple[bytes | None, ...], None, tuple[int, str, bool]]:
        """The tuples from ``pos`` that hold a wanted value, up to the line's end or as far
        as every tuple that starts before is sure to be in ``buf``."""
        assert self._tuple_re is not None
        n = len(buf)
        j = buf.find(b"\n", pos)
        if j != -1:
            end = j
        elif eof:
            end = n
        else:
            end = n - MAX_TUPLE_BYTES
            if end <= pos:
                return pos, "tuples", True
        self.stats[self._read_key] += buf.count(b"),(", pos, min(end + 2, n))
        found: list[int] = []
        for needle in self._needles:
            size = len(needle)
            i = buf.find(needle, pos, end + size - 1)
            while i != -1:
                if buf[i - 1 : i] in b",(" and buf[i + size : i + size + 1] in (b",", b")"):
                    found.append(i)
                i = buf.find(needle, i + 1, end + size - 1)
        match, key = self._tuple_re.match, self._key
        for i in sorted(found):
            lo = max(data_start, i - MAX_TUPLE_BYTES)
            start = i
            for _ in range(_MAX_STARTS):
                start = buf.rfind(b"(", lo, start)
                if start == -1:
                    break
                m = match(buf, start, min(n, start + MAX_TUPLE_BYTES))
                if m is not None and m.end() > i:  # the tuple that holds the value
                    if m.start(key) == i:
                        yield self._row(m)
                    break  # else the value is in another column (a page id equal to it)
            else:
                start = -1
            if start == -1:
                self._malformed(buf, i, offset)
        if j == -1 and not eof:
            return end, "tuples", False
        # the line's end: the statement's ';', or ',' when it goes on on the next line
        tail = buf[max(pos, end - 8) : end].rstrip()
        if tail or end > pos:
            self.stats[self._read_key] += 1
        after = end + 1 if j != -1 else n
        if tail.endswith(b";"):
            return after, "lines", False
        if j == -1:
            raise self._truncated()
        if tail.endswith(b","):
            return after, "tuples", False
        self._malformed(buf, max(pos, end - 80), offset)  # a statement cut off
        return after, "lines", False

    def _malformed(self, buf: bytes, pos: int, offset: int) -> None:
        self.stats[self._malformed_key] += 1
        self._log(
            f"skipped a row that does not parse at byte {offset + pos}: {buf[pos : pos + 80]!r}"
        )


def table_columns(path: Path, table: str, *, what: str = "SQL dump") -> list[str]:
    """The columns of ``table`` as the dump's ``CREATE TABLE`` (or first ``INSERT``) names
    them; reads only the head of the file."""
    reader = _Reader(
        path, table, (), where=None, values=(), stats=Counter(), what=what, header_only=True
    )
    for _ in reader.rows():
        pass
    assert reader.table_columns is not None  # else rows() raised
    return reader.table_columns


def iter_table_rows(
    path: Path,
    table: str,
    columns: tuple[str, ...],
    *,
    where: str | None = None,
    values: Collection[bytes] = (),
    stats: Counter[str] | None = None,
    what: str = "SQL dump",
) -> Generator[tuple[bytes | None, ...], None, None]:
    """The ``columns`` of each row of ``table`` in the mysqldump file ``path`` (.gz, .bz2, .xz
    or plain), as bytes (strings unescaped, ``NULL`` as ``None``), in file order. With
    ``where``, only the rows whose ``where`` column is one of ``values`` (compared as bytes:
    titles in :func:`title_key` form, numbers as their digits).

    ``stats`` receives ``TABLE_rows_read`` (with ``where``: counted by their ``),(``
    separators, not parsed), ``TABLE_rows_malformed`` (a tuple that does not parse: skipped;
    with ``where``, only those that hold a wanted value), ``TABLE_lines_skipped`` (a line that
    is not SQL of a dump).
    """
    reader = _Reader(
        Path(path),
        table,
        columns,
        where=where,
        values=values,
        stats=stats if stats is not None else Counter(),
        what=what,
    )
    return reader.rows()


# ---------------------------------------------------------------------------------------------
# A category's members


def _category_keys(category: str) -> set[bytes]:
    """The ``cl_to``/``lt_title`` values that name ``category``: MediaWiki's form (first
    letter upper, underscores), and the name as given, for wikis that keep the first letter's
    case (Wiktionary)."""
    normalised = category_name(category)
    as_given = category
    if normalised != normalise_title(category):  # a category namespace prefix was dropped
        as_given = category.partition(":")[2]
    as_given = " ".join(as_given.replace("_", " ").split())
    return {k for k in (title_key(normalised), title_key(as_given)) if k}


def _target_ids(linktarget: Path, keys: set[bytes], stats: Counter[str], what: str) -> set[bytes]:
    """The ``lt_id`` of the category (namespace 14) named by one of ``keys``: the first one
    found ends the pass (``(lt_namespace, lt_title)`` is unique: on average half the file is
    read)."""
    ids: set[bytes] = set()
    rows = iter_table_rows(
        linktarget,
        "linktarget",
        ("lt_id", "lt_namespace", "lt_title"),
        where="lt_title",
        values=keys,
        stats=stats,
        what=what,
    )
    for lt_id, namespace, _title in rows:
        if namespace == str(CATEGORY_NAMESPACE).encode() and lt_id is not None:
            ids.add(lt_id)
            break
    rows.close()
    return ids


def category_page_ids(
    categorylinks: Path,
    category: str,
    *,
    linktarget: Path | None = None,
    pages: Collection[int] | None = None,
    stats: Counter[str] | None = None,
) -> Iterator[int]:
    """The page ids (``cl_from``) in ``category`` according to the ``categorylinks`` dump,
    template-added categories included; only those in ``pages`` when given. Each id once.

    ``category`` is named as for ``--category`` (``Nacidos en 1942``, ``Categoría:Nacidos_en
    1942``). A dump without ``cl_to`` (MediaWiki 1.45 on) needs its ``linktarget`` dump; one
    with ``cl_to`` does not read it. Raises :class:`CategoryLinksError` for a file that cannot
    be used and :class:`TruncatedCategoryLinksError` after the ids read before a break.
    """
    counts = stats if stats is not None else Counter()
    categorylinks = Path(categorylinks)
    what = "categorylinks dump"
    columns = table_columns(categorylinks, "categorylinks", what=what)
    keys = _category_keys(category)
    if "cl_to" in columns:
        where, values = "cl_to", keys
        if linktarget is not None:
            log.info("%s %s has cl_to: its linktarget dump is not needed", what, categorylinks.name)
    elif "cl_target_id" in columns:
        if linktarget is None:
            raise CategoryLinksError(
                f"{what} {categorylinks} names categories by cl_target_id (MediaWiki 1.45+ "
                "dumps have no cl_to): give its linktarget dump too, e.g. --categorylinks "
                "LANG=LANGwiki-DATE-categorylinks.sql.gz,LANGwiki-DATE-linktarget.sql.gz"
            )
        values = _target_ids(Path(linktarget), keys, counts, "linktarget dump")
        counts["categorylinks_target_ids"] = len(values)
        if not values:
            log.warning(
                "linktarget dump %s has no category %r: no page is in it",
                Path(linktarget).name,
                category_name(category),
            )
            return
        where = "cl_target_id"
    else:
        raise CategoryLinksError(
            f"{what} {categorylinks}: table `categorylinks` has neither cl_to nor cl_target_id "
            f"(its columns: {', '.join(columns)})"
        )
    wanted = frozenset(pages) if pages is not None else None
    seen: set[int] = set()
    rows = iter_table_rows(
        categorylinks,
        "categorylinks",
        ("cl_from",),
        where=where,
        values=values,
        stats=counts,
        what=what,
    )
    for (cl_from,) in rows:
        counts["categorylinks_category_rows"] += 1
        try:
            page_id = int(cl_from or b"")
        except ValueError:
            counts["categorylinks_rows_malformed"] += 1
            continue
        if (wanted is None or page_id in wanted) and page_id not in seen:
            seen.add(page_id)
            yield page_id
