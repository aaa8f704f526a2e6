"""Writers of MediaWiki's SQL table dumps (``categorylinks``, ``linktarget``) in the exact
format Wikimedia publishes them, for tests and benchmarks.

The header, the ``CREATE TABLE`` statements and the line layout are copied from the real files
on dumps.wikimedia.org: the legacy ``categorylinks`` layout from enwiki dumps before 2025, the
migration layout (``cl_collation_id``, ``cl_target_id`` appended) from
enwiktionary-20250501-categorylinks.sql.gz, and the layout without ``cl_to`` (MediaWiki 1.45)
with its ``linktarget`` table from simplewiki-20260901-{categorylinks,linktarget}.sql.gz. Each
``INSERT INTO`` line holds many rows, as mysqldump's extended inserts do.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Sequence
from pathlib import Path

HEADER = """\
/*M!999999\\- enable the sandbox mode */ \n\
-- MariaDB dump 10.19  Distrib 10.5.29-MariaDB, for debian-linux-gnu (x86_64)
--
-- Host: dbstore1008.eqiad.wmnet    Database: {db}
-- ------------------------------------------------------
-- Server version\t10.11.13-MariaDB-log

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

--
-- Table structure for table `{table}`
--

DROP TABLE IF EXISTS `{table}`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
{create}
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `{table}`
--

/*!40000 ALTER TABLE `{table}` DISABLE KEYS */;
"""

FOOTER = """\
/*!40000 ALTER TABLE `{table}` ENABLE KEYS */;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

-- Dump completed on 2026-09-01 14:44:16
"""

CREATE = {
    "legacy": """\
CREATE TABLE `categorylinks` (
  `cl_from` int(8) unsigned NOT NULL DEFAULT 0,
  `cl_to` varbinary(255) NOT NULL DEFAULT '',
  `cl_sortkey` varbinary(230) NOT NULL DEFAULT '',
  `cl_timestamp` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
  `cl_sortkey_prefix` varbinary(255) NOT NULL DEFAULT '',
  `cl_collation` varbinary(32) NOT NULL DEFAULT '',
  `cl_type` enum('page','subcat','file') NOT NULL DEFAULT 'page',
  PRIMARY KEY (`cl_from`,`cl_to`),
  KEY `cl_timestamp` (`cl_to`,`cl_timestamp`),
  KEY `cl_sortkey` (`cl_to`,`cl_type`,`cl_sortkey`,`cl_from`),
  KEY `cl_collation_ext` (`cl_collation`,`cl_to`,`cl_type`,`cl_from`)
) ENGINE=InnoDB DEFAULT CHARSET=binary ROW_FORMAT=COMPRESSED;""",
    "migration": """\
CREATE TABLE `categorylinks` (
  `cl_from` int(8) unsigned NOT NULL DEFAULT 0,
  `cl_to` varbinary(255) NOT NULL DEFAULT '',
  `cl_sortkey` varbinary(230) NOT NULL DEFAULT '',
  `cl_timestamp` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
  `cl_sortkey_prefix` varbinary(255) NOT NULL DEFAULT '',
  `cl_collation` varbinary(32) NOT NULL DEFAULT '',
  `cl_type` enum('page','subcat','file') NOT NULL DEFAULT 'page',
  `cl_collation_id` smallint(5) unsigned NOT NULL DEFAULT 0,
  `cl_target_id` bigint(20) unsigned DEFAULT NULL,
  PRIMARY KEY (`cl_from`,`cl_to`),
  KEY `cl_timestamp` (`cl_to`,`cl_timestamp`),
  KEY `cl_sortkey` (`cl_to`,`cl_type`,`cl_sortkey`,`cl_from`),
  KEY `cl_sortkey_id` (`cl_target_id`,`cl_type`,`cl_sortkey`,`cl_from`)
) ENGINE=InnoDB DEFAULT CHARSET=binary ROW_FORMAT=COMPRESSED;""",
    "linktarget": """\
CREATE TABLE `categorylinks` (
  `cl_from` int(8) unsigned NOT NULL DEFAULT 0,
  `cl_sortkey` varbinary(230) NOT NULL DEFAULT '',
  `cl_timestamp` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
  `cl_sortkey_prefix` varbinary(255) NOT NULL DEFAULT '',
  `cl_type` enum('page','subcat','file') NOT NULL DEFAULT 'page',
  `cl_collation_id` smallint(5) unsigned NOT NULL DEFAULT 0,
  `cl_target_id` bigint(20) unsigned NOT NULL,
  PRIMARY KEY (`cl_from`,`cl_target_id`),
  KEY `cl_sortkey_id` (`cl_target_id`,`cl_type`,`cl_sortkey`,`cl_from`),
  KEY `cl_timestamp_id` (`cl_target_id`,`cl_timestamp`)
) ENGINE=InnoDB DEFAULT CHARSET=binary ROW_FORMAT=COMPRESSED;""",
}

CREATE_LINKTARGET = """\
CREATE TABLE `linktarget` (
  `lt_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  `lt_namespace` int(11) NOT NULL,
  `lt_title` varbinary(255) NOT NULL,
  PRIMARY KEY (`lt_id`),
  UNIQUE KEY `lt_namespace_title` (`lt_namespace`,`lt_title`)
) ENGINE=InnoDB AUTO_INCREMENT=3268234 DEFAULT CHARSET=binary;"""


def sql_string(value: str | bytes) -> str:
    """``value`` quoted as mysqldump writes a string (backslash escapes)."""
    text = value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value
    for char, escaped in (
        ("\\", "\\\\"),
        ("\0", "\\0"),
        ("\n", "\\n"),
        ("\r", "\\r"),
        ("'", "\\'"),
        ('"', '\\"'),
        ("\x1a", "\\Z"),
    ):
        text = text.replace(char, escaped)
    return f"'{text}'"


def sql_dump(
    table: str,
    create: str,
    rows: Iterable[Sequence[object]],
    *,
    db: str = "eswiki",
    rows_per_insert: int = 3,
) -> bytes:
    """A whole dump of ``table``: header, ``create``, INSERT lines, footer."""
    out = [HEADER.format(db=db, table=table, create=create)]
    batch: list[str] = []

    def flush() -> None:
        if batch:
            out.append(f"INSERT INTO `{table}` VALUES {','.join(batch)};\n")
            batch.clear()

    for row in rows:
        fields = []
        for value in row:
            if value is None:
                fields.append("NULL")
            elif isinstance(value, int):
                fields.append(str(value))
            else:
                fields.append(sql_string(value))  # type: ignore[arg-type]
        batch.append("(" + ",".join(fields) + ")")
        if len(batch) >= rows_per_insert:
            flush()
    flush()
    out.append(FOOTER.format(table=table))
    return "".join(out).encode("utf-8", "surrogateescape")


def categorylinks_rows(
    links: Iterable[tuple[int, str]], layout: str, target_ids: dict[str, int] | None = None
) -> list[tuple[object, ...]]:
    """``(page id, category title)`` as rows of ``layout`` (``legacy``, ``migration`` or
    ``linktarget``); ``target_ids`` gives each category's ``lt_id`` (default: 1000 + its rank)."""
    ids = dict(target_ids or {})
    rows: list[tuple[object, ...]] = []
    for page_id, category in links:
        cl_to = category.replace(" ", "_")
        target = ids.setdefault(cl_to, 1000 + len(ids))
        sortkey = f"PAGE {page_id}\nPAGE {page_id}"
        stamp = "2025-04-01 15:20:47"
        if layout == "legacy":
            rows.append((page_id, cl_to, sortkey, stamp, "", "uca-es", "page"))
        elif layout == "migration":
            rows.append((page_id, cl_to, sortkey, stamp, "", "uca-es", "page", 1, target))
        else:
            rows.append((page_id, sortkey, stamp, "", "page", 1, target))
    return rows


def write_categorylinks(
    path: Path,
    links: Iterable[tuple[int, str]],
    *,
    layout: str = "legacy",
    target_ids: dict[str, int] | None = None,
    rows_per_insert: int = 3,
) -> Path:
    """A ``LANGwiki-DATE-categorylinks.sql.gz`` of ``(page id, category title)`` links."""
    rows = categorylinks_rows(links, layout, target_ids)
    data = sql_dump("categorylinks", CREATE[layout], rows, rows_per_insert=rows_per_insert)
    path.write_bytes(gzip.compress(data, compresslevel=1) if path.suffix == ".gz" else data)
    return path


def write_linktarget(path: Path, targets: Iterable[tuple[int, int, str]]) -> Path:
    """A ``LANGwiki-DATE-linktarget.sql.gz`` of ``(lt_id, namespace, title)`` rows."""
    rows = [(lt_id, ns, title.replace(" ", "_")) for lt_id, ns, title in targets]
    data = sql_dump("linktarget", CREATE_LINKTARGET, rows)
    path.write_bytes(gzip.compress(data, compresslevel=1) if path.suffix == ".gz" else data)
    return path
