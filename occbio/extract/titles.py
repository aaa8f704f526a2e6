"""People given as article titles instead of Wikidata items (GeBioToolkit's input).

Two shapes, both UTF-8:

* a TSV whose header names the columns: language codes (``en``, ``es``, ...), optionally
  ``qid`` (a Wikidata id to use as the person's id) and ``occupations`` (QIDs joined by ``|``);
  one person a row, an empty cell where a language has no article;
* one plain file per language (``--titles en=en.txt --titles es=es.txt``), one title a line,
  line *i* of every file being the same person (an empty line: no article there).

Blank rows and lines starting with ``#`` are skipped; a row with the wrong number of cells is
skipped and counted. People without a Wikidata id get ``T<row>`` as their id. Gender is left
``unknown``: such runs take it from the articles' pronouns (``--gender-from pronouns``).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import zip_longest
from pathlib import Path

from occbio.records import Entity, Occupation

__all__ = ["TitlesError", "read_titles"]

log = logging.getLogger(__name__)

_QID = re.compile(r"Q[1-9][0-9]*")


class TitlesError(ValueError):
    """A titles file that cannot be used (missing, no language column, unreadable)."""


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise TitlesError(f"titles file not found: {path}") from None
    except UnicodeDecodeError as exc:
        raise TitlesError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _entity(
    n: int, titles: dict[str, str], qid: str, occupations: list[str], langs: Sequence[str]
) -> Entity:
    label = next((titles[lang] for lang in langs if lang in titles), "")
    return Entity(
        qid=qid or f"T{n}",
        label=label,
        occupations=[Occupation(q) for q in occupations],
        titles=titles,
    )


def _from_tsv(
    path: Path, langs: Sequence[str], stats: Counter[str]
) -> Iterator[tuple[int, dict[str, str], str, list[str]]]:
    lines = [ln for ln in _lines(path) if ln.strip() and not ln.startswith("#")]
    if not lines:
        raise TitlesError(f"{path} is empty")
    header = [h.strip().lower() for h in lines[0].split("\t")]
    columns = [h for h in header if h in langs]
    if not columns:
        raise TitlesError(
            f"{path}: the header ({', '.join(header)}) names none of the run's languages "
            f"({', '.join(langs)}); the first line must name the columns, e.g. en<TAB>es<TAB>ca"
        )
    ignored = [h for h in header if h not in langs and h not in ("qid", "occupations")]
    if ignored:
        log.info("titles: columns %s are not in --langs and are ignored", ", ".join(ignored))
    for n, line in enumerate(lines[1:], start=1):
        cells = line.split("\t")
        if len(cells) != len(header):
            stats["titles_rows_malformed"] += 1
            log.warning("titles: %s row %d has %d cells, the header %d: skipped",
                        path.name, n, len(cells), len(header))  # fmt: skip
            continue
        row = dict(zip(header, (c.strip() for c in cells), strict=True))
        qid = row.get("qid", "")
        if qid and not _QID.fullmatch(qid):
            stats["titles_bad_qid"] += 1
            qid = ""
        occupations = [q for q in row.get("occupations", "").split("|") if _QID.fullmatch(q)]
        yield n, {lang: row[lang] for lang in columns if row[lang]}, qid, occupations


def _from_parallel_files(
    files: Mapping[str, Path], langs: Sequence[str]
) -> Iterator[tuple[int, dict[str, str], str, list[str]]]:
    unknown = [lang for lang in files if lang not in langs]
    if unknown:
        raise TitlesError(f"titles given for {', '.join(unknown)}, not in --langs")
    per_lang = {lang: _lines(path) for lang, path in files.items()}
    for n, row in enumerate(zip_longest(*per_lang.values(), fillvalue=""), start=1):
        titles = {lang: t.strip() for lang, t in zip(per_lang, row, strict=True) if t.strip()}
        if any(t.startswith("#") for t in titles.values()):
            continue
        yield n, titles, "", []


def read_titles(
    source: Path | Mapping[str, Path],
    langs: Sequence[str],
    *,
    min_langs: int | None = None,
    stats: Counter[str] | None = None,
) -> Iterator[Entity]:
    """People from a titles TSV (a path) or line-aligned files per language (``{lang: path}``),
    keeping those with titles in at least ``min_langs`` of ``langs`` (default: all)."""
    stats = stats if stats is not None else Counter()
    need = min_langs or len(langs)
    rows = (
        _from_tsv(Path(source), langs, stats)
        if isinstance(source, (str, Path))
        else _from_parallel_files(source, langs)
    )
    for n, titles, qid, occupations in rows:
        if not titles:
            continue
        stats["titles_people"] += 1
        if len(titles) < need:
            stats["titles_skipped_langs"] += 1
            continue
        yield _entity(n, titles, qid, occupations, langs)
