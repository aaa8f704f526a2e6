"""Wikimedia Enterprise HTML dumps for tests and benchmarks: a gzip'd tar of NDJSON files, one
article per line, in the Enterprise article model (https://enterprise.wikimedia.com/docs/
data-dictionary/), around whatever HTML is given (the tests wrap the real Parsoid HTML of
../shared/data/wikipedia-html)."""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def enterprise_article(
    title: str,
    page_id: int,
    html: str,
    *,
    revision_id: int = 0,
    qid: str = "",
    date_modified: str = "2024-06-01T12:00:00Z",
    namespace: int = 0,
    lang: str = "en",
    redirects: Sequence[str] = (),
    wikitext: str = "",
    categories: Sequence[str] = ("Living people",),
) -> dict[str, Any]:
    """One line of an Enterprise HTML dump, with the fields a real one carries."""
    slug = title.replace(" ", "_")
    article: dict[str, Any] = {
        "name": title,
        "identifier": page_id,
        "date_modified": date_modified,
        "version": {
            "identifier": revision_id or page_id * 10,
            "comment": "copyedit",
            "is_minor_edit": False,
            "editor": {"identifier": 1, "name": "Editor"},
        },
        "url": f"https://{lang}.wikipedia.org/wiki/{slug}",
        "namespace": {"identifier": namespace},
        "in_language": {"identifier": lang},
        "is_part_of": {"identifier": f"{lang}wiki"},
        "categories": [
            {"name": f"Category:{c}", "url": f"https://x/Category:{c.replace(' ', '_')}"}
            for c in categories
        ],
        "templates": [{"name": "Template:Infobox person", "url": "https://x/Template:Infobox"}],
        "redirects": [{"name": r, "url": f"https://x/{r}"} for r in redirects],
        "article_body": {"html": html, "wikitext": wikitext},
        "license": [{"name": "Creative Commons Attribution Share Alike 3.0 Unported"}],
    }
    if qid:
        article["main_entity"] = {
            "identifier": qid,
            "url": f"https://www.wikidata.org/entity/{qid}",
        }
    return article


def ndjson(articles: Iterable[dict[str, Any] | bytes], *, ensure_ascii: bool = False) -> bytes:
    """Articles as NDJSON lines (a ``bytes`` item is written as it is, a newline added)."""
    lines = []
    for article in articles:
        if isinstance(article, bytes):
            lines.append(article)
        else:  # Go's encoder, as Enterprise's: no spaces, UTF-8 as it is
            text = json.dumps(article, ensure_ascii=ensure_ascii, separators=(",", ":"))
            lines.append(text.encode())
    return b"".join(line + b"\n" for line in lines)


def tar_bytes(members: dict[str, bytes]) -> bytes:
    """An uncompressed tar of ``{name: content}``."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1717243200
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def write_enterprise_dump(
    path: Path,
    articles: Sequence[dict[str, Any] | bytes],
    *,
    per_member: int | None = None,
    prefix: str = "enwiki_namespace_0",
) -> Path:
    """``articles`` as ``PATH`` (gzip'd tar), ``per_member`` lines per NDJSON file (all in one
    by default), named as Enterprise names them (``enwiki_namespace_0_0.ndjson``, ...)."""
    import gzip

    size = per_member or max(1, len(articles))
    members = {
        f"{prefix}_{i // size}.ndjson": ndjson(articles[i : i + size])
        for i in range(0, max(1, len(articles)), size)
    }
    path.write_bytes(gzip.compress(tar_bytes(members), mtime=0))
    return path
