"""The plain-text sink: ``{stem}.{lang}`` per language plus ``{stem}.docids``.

sacrebleu-style files, one sentence a line and line-aligned across languages, used by
:func:`occbio.io.corpus.write_plain` and :func:`occbio.io.corpus.write_corpus`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from occbio.io.corpus_doc import _Add, _Doc
from occbio.run import atomic_write


def _plain_paths(directory: Path, langs: Sequence[str], stem: str) -> dict[str, Path]:
    paths = {lang: directory / f"{stem}.{lang}" for lang in langs}
    paths["docids"] = directory / f"{stem}.docids"
    return paths


@contextlib.contextmanager
def _plain_sink(directory: Path, langs: Sequence[str], stem: str) -> Iterator[_Add]:
    paths = _plain_paths(directory, langs, stem)
    with contextlib.ExitStack() as stack:
        fhs: dict[str, IO[str]] = {
            key: stack.enter_context(atomic_write(p)) for key, p in paths.items()
        }

        def add(d: _Doc) -> int:
            for seg in d.segments:
                for lang in langs:
                    fhs[lang].write(seg[lang] + "\n")
                fhs["docids"].write(d.qid + "\n")
            return len(d.segments)

        yield add
