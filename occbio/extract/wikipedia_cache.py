"""The persistent cache of page answers: what is kept, and how a row is stored.

:class:`~occbio.extract.wikipedia_web.WikipediaWebClient` fetches through a requests-cache
SQLite file, :data:`_CACHE_FILE` in its ``cache_dir``. :func:`_cacheable` keeps every 200 and
404 answer that settles a page for good (an article, or no such page), whatever the server's
``Cache-Control`` says, so a re-run or a resumed run fetches nothing twice; :func:`_json_zlib`
stores each answer as zlib-compressed JSON, never a pickle. Kept apart from the client so that
the cache's format and policy can be read, and changed, in one place.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import requests

from occbio.extract.wikipedia_answers import _classify, _Retry

_CACHE_FILE = "wikipedia_web.json.sqlite"  # ".json": older caches held pickles


def _cacheable(api: str, response: requests.Response) -> bool:
    """Keep only answers that settle a page for good: an article, or no such page."""
    if response.status_code not in (200, 404):
        return False
    try:
        status = _classify(api, response)[0]
    except _Retry:
        return False
    return status in ("ok", "missing")


def _json_zlib(on_unreadable: Callable[[], None]) -> Any:
    """A requests-cache serializer that stores responses as zlib-compressed JSON (status,
    headers, body): Parsoid HTML shrinks about fivefold, and a row read from a copied or
    shared cache can never run code, as a pickle can. A row that does not decode (an older
    pickle, a truncated or planted value) is reported through ``on_unreadable`` and read as a
    cache miss, so the page is fetched again and the row replaced."""
    import json

    from requests_cache.serializers.pipeline import SerializerPipeline, Stage
    from requests_cache.serializers.preconf import json_preconf_stage

    def dumps(response: Any) -> bytes:
        return zlib.compress(json.dumps(json_preconf_stage.dumps(response)).encode("utf-8"), 6)

    def loads(blob: bytes) -> Any:
        try:
            return json_preconf_stage.loads(json.loads(zlib.decompress(blob).decode("utf-8")))
        except Exception as exc:  # whatever the row holds, it is a miss, never an error
            on_unreadable()
            raise ValueError(f"unreadable cache row ({type(exc).__name__})") from None

    return SerializerPipeline([Stage(dumps=dumps, loads=loads)], name="json+zlib", is_binary=True)
