"""The packaged data the rewriter reads (learned tables, word frequencies) and the digest of
rules and data that a corpus stage records, so an upgraded rewriter rewrites again."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable
from functools import cache
from importlib import resources


@cache
def _source_digest(lang: str) -> str:
    """A digest of what decides the rewrites of ``lang``: the code of the whole rewriter (the
    engine and every language module: one language's rules may use another's) and the
    language's data tables, as installed."""
    h = hashlib.sha256()
    pkg = resources.files("occbio.rewrite")
    for folder, prefix in ((pkg, ""), (pkg.joinpath("languages"), "languages/")):
        for ref in sorted(folder.iterdir(), key=lambda r: r.name):
            if ref.name.endswith(".py"):
                h.update(f"{prefix}{ref.name}".encode() + b"\0" + ref.read_bytes())
    data = resources.files("occbio.data.rewrite")
    for name in (f"learned_{lang}.json", f"zipf_{lang}.tsv.gz"):
        ref = data.joinpath(name)
        if ref.is_file():
            h.update(name.encode() + b"\0" + ref.read_bytes())
    return h.hexdigest()[:16]


def rules_fingerprint(langs: Iterable[str]) -> dict[str, str]:
    """{lang: digest} of the rewriting rules and data: a stage that rewrites records it, so
    an upgrade of the rules rewrites again instead of keeping a stale copy."""
    return {lang: _source_digest(lang) for lang in sorted(set(langs))}


@cache
def _load_tables(lang: str) -> dict:
    name = f"learned_{lang}.json"
    ref = resources.files("occbio.data.rewrite").joinpath(name)
    if not ref.is_file():
        return {"f2m": {}, "m2f": {}}
    return json.loads(ref.read_text(encoding="utf-8"))


@cache
def _load_zipf(lang: str) -> dict[str, float]:
    """Word frequencies (Zipf scale) from wordfreq, used to accept a guessed word form."""
    ref = resources.files("occbio.data.rewrite").joinpath(f"zipf_{lang}.tsv.gz")
    if not ref.is_file():
        return {}
    out = {}
    with ref.open("rb") as fh, gzip.open(fh, "rt", encoding="utf-8") as f:
        for line in f:
            w, _, z = line.rstrip("\n").partition("\t")
            out[w] = int(z) / 10
    return out
