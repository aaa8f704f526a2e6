"""Writing a ``pages-articles-multistream`` dump and its index the way Wikimedia lays them out.

Tests and benchmarks build their dumps with :func:`write_multistream`; occbio itself only reads
them (:mod:`occbio.extract.multistream`, which re-exports it). Kept apart so that the reader
holds no writing code.
"""

from __future__ import annotations

import bz2
from collections.abc import Iterable
from pathlib import Path

from occbio.extract.multistream_index import index_candidates

__all__ = ["write_multistream"]


def write_multistream(
    path: Path,
    header: bytes,
    pages: Iterable[tuple[int, str, bytes]],
    *,
    index: Path | None = None,
    pages_per_stream: int = 100,
    compresslevel: int = 9,
) -> Path:
    """Write a multistream dump and its index the way Wikimedia lays them out.

    ``header`` is the XML up to ``</siteinfo>``; ``pages`` gives each page's id, title and
    ``<page>`` element. One bz2 stream holds the header, then one each ``pages_per_stream``
    pages, then one ``</mediawiki>``. The index (default: the first of
    :func:`index_candidates`) is bz2-compressed when its name ends in ``.bz2``. Returns its path.
    """
    index = index if index is not None else index_candidates(path)[0]
    lines: list[str] = []
    with open(path, "wb") as out:
        out.write(bz2.compress(header, compresslevel))
        batch: list[tuple[int, str, bytes]] = []

        def flush() -> None:
            offset = out.tell()
            out.write(bz2.compress(b"".join(xml for _, _, xml in batch), compresslevel))
            lines.extend(f"{offset}:{page_id}:{title}\n" for page_id, title, _ in batch)
            batch.clear()

        for page in pages:
            batch.append(page)
            if len(batch) == pages_per_stream:
                flush()
        if batch:
            flush()
        out.write(bz2.compress(b"</mediawiki>\n", compresslevel))
    data = "".join(lines).encode()
    index.write_bytes(bz2.compress(data) if index.name.endswith(".bz2") else data)
    return index
