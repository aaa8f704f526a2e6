"""``occbio review import``: annotators' judgment files, checked, merged and measured.

Every file is read and checked before anything is written: a file occbio cannot use (not a
regular file, not UTF-8, damaged JSON, a CSV without its columns, an unknown verdict, an item
of another run or of no run, an item twice) stops the import with one line naming the file and
the line or item, and ``RUN/review/judgments.json`` stays as it was.

``judgments.json`` keeps each annotator's verdict and post-edit per item; importing an
annotator's file again replaces their judgments of those items (and only those). An item's
verdict is the majority of its annotators' (:func:`occbio.review.stats.majority`).
"""

from __future__ import annotations

import csv
import io
import json
import logging
import re
import stat
import unicodedata
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from occbio.io.json_text import parse_json
from occbio.io.spreadsheet import from_spreadsheet
from occbio.review.calibration import CALIBRATION_FILE, write_calibration
from occbio.review.items import BANDS, Item, ReviewError, read_items, run_id
from occbio.review.report import datacard_section, format_report, is_control, replace_section
from occbio.review.stats import (
    MIN_SHARED,
    PARALLEL,
    PARTIAL,
    VERDICTS,
    majority,
    score_threshold,
    tally,
)
from occbio.review.stats import agreement as pair_agreement
from occbio.run import RunDir, atomic_write, file_sum, fingerprint
from occbio.runlock import run_lock

__all__ = [
    "JUDGMENTS_FILE",
    "REPORT_FILE",
    "Judgment",
    "build_report",
    "format_report",
    "import_judgments",
    "item_verdicts",
    "load_judgments",
    "merge",
    "read_judgment_file",
    "replace_section",
]

log = logging.getLogger(__name__)

JUDGMENTS_FILE = "review/judgments.json"
REPORT_FILE = "review/report.json"
DATACARD_FILE = "DATACARD.md"
STAGE = "review-import"
CSV_COLUMNS = ("id", "verdict")
#: the longest annotator name (a name goes into the data card and the terminal)
MAX_NAME = 100
#: What a spreadsheet user may type for each verdict (case, spaces and hyphens aside).
_SPELLINGS = {
    "parallel": PARALLEL,
    "partial": PARTIAL,
    "partly_parallel": PARTIAL,
    "not_parallel": "not_parallel",
}


@dataclass(frozen=True, slots=True)
class Judgment:
    """One annotator's verdict on one item, and where it was read (for messages)."""

    annotator: str
    item: str
    verdict: str
    post_edit: str | None
    where: str


# --- reading one file ------------------------------------------------------------------------


#: A judgments file is at most this, plus :data:`MAX_BYTES_PER_ITEM` per item of the run (a
#: CSV row with both sentences and a post-edit is ~500 bytes: a team of a dozen annotators
#: fits): what is bigger is not one, and reading it would take ~25 times its size in memory.
MAX_FILE_BYTES = 16 << 20
MAX_BYTES_PER_ITEM = 8 << 10


def _text(path: Path, limit: int | None = None) -> str:
    """The file's text, or a one-line error: missing, not a regular file, more than ``limit``
    bytes, not UTF-8."""
    try:
        st = path.stat()  # never open a FIFO: it would block
    except OSError as exc:
        raise ReviewError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ReviewError(f"{path} is a directory: give the judgment files themselves")
    if not stat.S_ISREG(st.st_mode):
        raise ReviewError(f"{path} is not a regular file (a FIFO, a socket or a device)")
    if limit is not None and st.st_size > limit:
        raise ReviewError(
            f"{path}: {st.st_size / (1 << 20):.1f} MiB, more than the {limit / (1 << 20):.1f} MiB "
            "a judgments file of this run can be: is this the right file?"
        )
    try:
        with open(path, "rb") as fh:  # what grew since the stat is capped too
            data = fh.read() if limit is None else fh.read(limit + 1)
    except OSError as exc:
        raise ReviewError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if limit is not None and len(data) > limit:
        raise ReviewError(f"{path}: more than {limit / (1 << 20):.1f} MiB: is this the right file?")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ReviewError(f"{path}:{line}: not UTF-8 text; save it as UTF-8") from None


def _shown(text: str, limit: int = 60) -> str:
    """``text`` for a message: as it is when printable, else its ``repr`` (escapes and all), so
    a terminal never receives a control character; long ones cut."""
    shown = text if text.isprintable() else repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _annotator(value: Any, where: str) -> str:
    """An annotator's name, stripped, or a one-line error: none, a control character (a line
    break, an escape sequence, a bidirectional override), longer than :data:`MAX_NAME`."""
    if not isinstance(value, str) or not value.strip():
        raise ReviewError(f"{where}: no annotator name")
    name = value.strip()
    bad = next((c for c in name if is_control(c)), None)
    if bad is not None:
        raise ReviewError(
            f"{where}: the annotator name {_shown(name)} holds a control character "
            f"(U+{ord(bad):04X}); a name is plain text on one line"
        )
    if len(name) > MAX_NAME:
        raise ReviewError(
            f"{where}: an annotator name of {len(name)} characters (at most {MAX_NAME})"
        )
    return name


def _verdict(value: Any, where: str) -> str | None:
    """The verdict a cell or field names (``None`` for a blank one), or a one-line error."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    key = re.sub(r"[\s-]+", "_", value.strip().lower()) if isinstance(value, str) else None
    if key not in _SPELLINGS:
        raise ReviewError(
            f"{where}: unknown verdict {_shown(repr(value))} (one of {', '.join(VERDICTS)}, "
            "or blank)"
        )
    return _SPELLINGS[key]


def _post_edit(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ReviewError(f"{where}: post_edit must be text or null, not {_shown(repr(value))}")
    # line breaks become spaces in the corpus (clean_text); other controls are no text at all
    spaces = "\t\n\r\x85"
    bad = next((c for c in value if unicodedata.category(c) == "Cc" and c not in spaces), None)
    if bad is not None:
        raise ReviewError(
            f"{where}: the post-edit holds a control character (U+{ord(bad):04X}): remove it"
        )
    return value.strip() or None


def _check_item(item_id: Any, where: str, run: str, items: Mapping[str, Item]) -> str:
    if not isinstance(item_id, str) or not item_id.strip():
        raise ReviewError(f"{where}: no item id")
    item_id = item_id.strip()
    other = item_id.split(":", 1)[0]
    if item_id not in items:
        if ":" in item_id and other != run:
            raise ReviewError(
                f"{where}: item {_shown(item_id)} is of run {_shown(other)}, but this run is "
                f"{run} (the file was made for another run, or the corpus was written again "
                "since)"
            )
        raise ReviewError(f"{where}: {_shown(item_id)} is not an item of run {run}")
    return item_id


def _read_json(path: Path, text: str, run: str, items: Mapping[str, Item]) -> list[Judgment]:
    try:
        data = parse_json(text, path, ReviewError)
    except json.JSONDecodeError as exc:
        raise ReviewError(
            f"{path}:{exc.lineno}: not valid JSON ({exc.msg}); a file cut short? export the "
            "judgments again"
        ) from None
    if not isinstance(data, dict) or data.get("occbio_review") != 1:
        raise ReviewError(f'{path}: not a judgments file of occbio review (no "occbio_review": 1)')
    if data.get("run") != run:
        raise ReviewError(
            f"{path} holds judgments of run {_shown(str(data.get('run')))}, but this run is "
            f"{run} (the file was made for another run, or the corpus was written again since)"
        )
    annotator = _annotator(data.get("annotator"), str(path))
    rows = data.get("judgments")
    if not isinstance(rows, list):
        raise ReviewError(f'{path}: "judgments" must be a list')
    pair = data.get("pair")
    out = []
    for n, row in enumerate(rows):
        where = f"{path}: judgments[{n}]"
        if not isinstance(row, dict):
            raise ReviewError(f"{where}: not an object")
        item_id = _check_item(row.get("id"), where, run, items)
        where = f"{where} ({item_id})"
        if pair is not None and items[item_id].pair != pair:
            raise ReviewError(f"{where}: an item of {items[item_id].pair}, the file is of {pair}")
        verdict = _verdict(row.get("verdict"), where)
        post_edit = _post_edit(row.get("post_edit"), where)
        if verdict is None:
            if post_edit is not None:
                raise ReviewError(f"{where}: a post-edit without a verdict")
            continue
        out.append(Judgment(annotator, item_id, verdict, post_edit, where))
    return out


def _delimiter(text: str) -> str:
    """A spreadsheet's CSV separator: the commonest of comma, semicolon and tab in the header."""
    header = text.split("\n", 1)[0]
    return max(",;\t", key=header.count)


def _read_csv(path: Path, text: str, run: str, items: Mapping[str, Item]) -> list[Judgment]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        missing = [c for c in CSV_COLUMNS if c not in header]
        if missing:
            raise ReviewError(
                f"{path}:1: no {' and no '.join(missing)} column (a CSV of occbio review export "
                f"has {', '.join(CSV_COLUMNS)}, post_edit, ...)"
            )
        read = ("id", "verdict", "post_edit", "annotator")
        twice = [name for name in read if header.count(name) > 1]
        if twice:  # which one holds the work? reading the first could drop every verdict
            raise ReviewError(
                f"{path}:1: the {' and '.join(twice)} column appears more than once; keep one "
                "(the one filled in)"
            )
        col = {name: header.index(name) for name in read if name in header}
        out = []
        line = reader.line_num
        for cells in reader:
            where, line = f"{path}:{line + 1}", reader.line_num
            if not any(c.strip() for c in cells):
                continue

            def cell(name: str, cells: list[str] = cells) -> str:
                i = col.get(name)
                # a cell occbio wrote with a ' before it (a formula-like start) reads as it was
                return from_spreadsheet(cells[i]) if i is not None and i < len(cells) else ""

            item_id = _check_item(cell("id"), where, run, items)
            where = f"{where} ({item_id})"
            verdict = _verdict(cell("verdict"), where)
            post_edit = _post_edit(cell("post_edit"), where)
            if verdict is None:
                if post_edit is not None:
                    raise ReviewError(f"{where}: a post-edit without a verdict")
                continue
            if cell("annotator").strip():
                annotator = _annotator(cell("annotator"), where)
            else:
                annotator = _annotator(
                    path.stem, f"{path} (no annotator column: the file name names the annotator)"
                )
            out.append(Judgment(annotator, item_id, verdict, post_edit, where))
    except csv.Error as exc:
        raise ReviewError(f"{path}:{reader.line_num}: not a readable CSV ({exc})") from None
    return out


def read_judgment_file(path: Path, *, run: str, items: Mapping[str, Item]) -> list[Judgment]:
    """The judgments of one ``.json`` (the page's export) or ``.csv`` file (a filled
    spreadsheet), checked against the run's items; an item judged twice by one annotator in
    the file is an error."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".csv"):
        raise ReviewError(f"{path}: neither .json (the page's export) nor .csv (the spreadsheet)")
    text = _text(path, MAX_FILE_BYTES + MAX_BYTES_PER_ITEM * len(items))
    reader = _read_json if suffix == ".json" else _read_csv
    judgments = reader(path, text, run, items)
    seen: dict[tuple[str, str], str] = {}
    for j in judgments:
        first = seen.setdefault((j.annotator, j.item), j.where)
        if first != j.where:
            raise ReviewError(f"{j.where}: {j.item} judged again by {j.annotator} (first: {first})")
    return judgments


# --- the store -------------------------------------------------------------------------------


def load_judgments(run_dir: Path, run: str) -> dict[str, dict[str, dict[str, Any]]]:
    """``judgments.json``'s ``{annotator: {item: {"verdict", "post_edit"}}}`` (empty when there
    is none yet); one of another run is an error."""
    path = Path(run_dir) / JUDGMENTS_FILE
    if not path.exists():
        return {}
    damaged = f"{path} is damaged; delete it and import every annotator's file again"
    try:
        data = parse_json(_text(path), path, ReviewError)
    except json.JSONDecodeError:
        raise ReviewError(damaged) from None
    try:
        store = data["judgments"]
        for judged in store.values():
            for item_id, j in judged.items():
                post_edit = j.get("post_edit")
                if j["verdict"] not in VERDICTS or not isinstance(item_id, str):
                    raise TypeError
                if post_edit is not None and not isinstance(post_edit, str):
                    raise TypeError
    except (KeyError, TypeError, AttributeError):
        raise ReviewError(damaged) from None
    for annotator in store:
        _annotator(annotator, f"{path} is damaged (delete it and import the files again)")
    if data.get("run") != run:
        raise ReviewError(
            f"{path} holds judgments of run {_shown(str(data.get('run')))}, but this run is "
            f"{run} (the corpus was written again since): move it away and export new pages"
        )
    return store


def merge(
    store: Mapping[str, Mapping[str, Mapping[str, Any]]], new: Sequence[Judgment]
) -> dict[str, dict[str, dict[str, Any]]]:
    """``store`` with each new judgment in place of that annotator's earlier one of the item."""
    out = {a: {i: dict(j) for i, j in by_item.items()} for a, by_item in store.items()}
    for j in new:
        out.setdefault(j.annotator, {})[j.item] = {"verdict": j.verdict, "post_edit": j.post_edit}
    return {a: dict(sorted(by_item.items())) for a, by_item in sorted(out.items())}


def item_verdicts(store: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, str]:
    """Each judged item's verdict: the majority of its annotators' (a tie: not parallel)."""
    by_item: dict[str, list[str]] = defaultdict(list)
    for by_annotator in store.values():
        for item_id, j in by_annotator.items():
            by_item[item_id].append(j["verdict"])
    return {item_id: majority(v) for item_id, v in by_item.items()}


# --- the report ------------------------------------------------------------------------------


def build_report(
    items: Mapping[str, Item],
    store: Mapping[str, Mapping[str, Mapping[str, Any]]],
    *,
    target: float,
    min_shared: int = MIN_SHARED,
) -> dict[str, Any]:
    """Precision per language pair and score band, agreement between annotators (the pairs
    sharing at least ``min_shared`` items, bounded and summed up: see
    :func:`occbio.review.stats.agreement`) and the score threshold that reaches ``target``,
    from the merged judgments."""
    verdicts = item_verdicts(store)
    pairs = sorted({items[i].pair for i in verdicts})
    precision = []
    for pair in pairs:
        mine = [i for i in verdicts if items[i].pair == pair]
        for band in ("all", *BANDS):
            group = [verdicts[i] for i in mine if band in ("all", items[i].band)]
            precision.append({"pair": pair, "band": band, **tally(group).to_dict()})
    by_pair: dict[str, dict[str, dict[str, str]]] = defaultdict(dict)  # pair -> annotator -> ...
    for a, by_item in store.items():
        for i, j in by_item.items():
            by_pair[items[i].pair].setdefault(a, {})[i] = j["verdict"]
    agreement, summaries = [], []
    for pair in pairs:
        rows, summary = pair_agreement(by_pair[pair], min_shared=min_shared)
        agreement += [{"pair": pair, **row} for row in rows]
        summaries.append({"pair": pair, **summary})
    thresholds = []
    for pair in pairs:
        scored = [
            (items[i].score, v == PARALLEL)
            for i, v in verdicts.items()
            if items[i].pair == pair and items[i].score is not None
        ]
        found = score_threshold(scored, target)
        none = {"threshold": None, "judged": len(scored)}
        thresholds.append({"pair": pair, "target": target, **(found.to_dict() if found else none)})
    by_item: dict[str, list[str]] = defaultdict(list)  # linear: not items x annotators
    for judged_by in store.values():
        for i, j in judged_by.items():
            by_item[i].append(j["verdict"])
    ties = sum(_tied(v) for v in by_item.values())
    return {
        "run": next(iter(items.values())).run if items else None,
        "annotators": {a: len(by_item) for a, by_item in sorted(store.items())},
        "items_judged": len(verdicts),
        "ties": ties,
        "precision": precision,
        "agreement": agreement,
        "agreement_summary": summaries,
        "threshold": thresholds,
    }


def _tied(verdicts: Sequence[str]) -> bool:
    counts = sorted((verdicts.count(v) for v in set(verdicts)), reverse=True)
    return len(counts) > 1 and counts[0] == counts[1]


def import_judgments(
    run_dir: Path,
    files: Sequence[Path],
    *,
    target: float = 0.95,
    fmt: str = "table",
    min_shared: int = MIN_SHARED,
) -> str:
    """Check every file, merge them into ``judgments.json``, write the report and the data
    card's section, record the import in the manifest; return the report (table or JSON)."""
    if not 0.0 < target <= 1.0:
        raise ReviewError(f"--target {target}: a precision between 0 (excluded) and 1")
    if min_shared < 1:
        raise ReviewError(f"--min-shared {min_shared}: at least 1 item")
    run_dir = Path(run_dir)
    run_id(run_dir)  # no corpus: one line, before the lock makes a directory
    with run_lock(run_dir):
        items_list, meta = read_items(run_dir)
        items = {item.id: item for item in items_list}
        rid = meta["run"]
        store = load_judgments(run_dir, rid)
        unknown = next((i for judged in store.values() for i in judged if i not in items), None)
        if unknown is not None:
            raise ReviewError(
                f"{run_dir / JUDGMENTS_FILE} is damaged ({_shown(unknown)} is not an item of "
                f"run {rid}); delete it and import every annotator's file again"
            )
        new: list[Judgment] = []
        by_file: dict[str, int] = {}
        owner: dict[tuple[str, str], str] = {}
        for path in files:
            judgments = read_judgment_file(path, run=rid, items=items)
            for j in judgments:
                other = owner.setdefault((j.annotator, j.item), str(path))
                if other != str(path):
                    raise ReviewError(
                        f"{j.where}: {j.annotator} judged {j.item} in {other} too: give one of "
                        "the two files (a CSV's annotator is its file name unless it has an "
                        "annotator column)"
                    )
            if not judgments:
                log.warning("%s holds no verdict: nothing imported from it", path)
            by_file[str(path)] = len(judgments)
            new += judgments
        store = merge(store, new)
        if not store:
            raise ReviewError("the files hold no verdict: nothing to import")
        report = build_report(items, store, target=target, min_shared=min_shared)
        report["imported"] = by_file
        _write(run_dir, rid, store, report, target=target, items=items)
    if fmt == "json":
        return json.dumps(report, ensure_ascii=False, indent=1)
    return format_report(report)


def _write(
    run_dir: Path,
    rid: str,
    store: Mapping[str, Any],
    report: dict[str, Any],
    *,
    target: float,
    items: Mapping[str, Item],
) -> None:
    run = RunDir(run_dir)
    state = run.stage(STAGE)
    inputs = {"files": report["imported"], "run": rid}
    settings = {"target": target}
    state.begin(
        fingerprint({"inputs": inputs, "settings": settings}), inputs=inputs, settings=settings
    )
    with atomic_write(run_dir / JUDGMENTS_FILE) as fh:
        json.dump(
            {"occbio_review_judgments": 1, "run": rid, "judgments": store},
            fh,
            ensure_ascii=False,
            indent=1,
            sort_keys=True,
        )
        fh.write("\n")
    # the run's own calibration: the align stage re-selects with it (occbio write)
    align = run.manifest["stages"].get("align", {})
    report["recalibration"] = write_calibration(run_dir, align, items, item_verdicts(store))
    with atomic_write(run_dir / REPORT_FILE) as fh:
        json.dump(report, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    card_path = run_dir / DATACARD_FILE
    card = card_path.read_text("utf-8") if card_path.is_file() else ""
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    with atomic_write(card_path) as fh:
        fh.write(replace_section(card, datacard_section(report, date=date)))
    # the card is the write stage's output too: record what it holds now, so a resumed
    # `occbio mine` does not take the added section for damage and write the card again
    write_rec = run.manifest["stages"].get("write", {})
    if DATACARD_FILE in write_rec.get("checksums", {}):
        write_rec["checksums"][DATACARD_FILE] = file_sum(card_path)
    state.finish(
        counts={
            "annotators": len(store),
            "items_judged": report["items_judged"],
            "judgments_imported": sum(report["imported"].values()),
            "ties": report["ties"],
        },
        outputs=[JUDGMENTS_FILE, REPORT_FILE]
        + ([CALIBRATION_FILE] if report["recalibration"] is not None else []),
    )
