"""The align, balance and write stages at scale: peak memory and time around the model.

Writes a run directory as the ``text`` stage leaves it (``entities.jsonl`` with genders and
occupations, one articles and one sentences file per language, in the real record formats) for
N synthetic people with S sentences per language, then runs the align stage in a fresh process
with a cheap bag-of-words encoder (registered here as ``bench-bow``), so the figures are those
of occbio's own machinery: reading people, the embedding cache, mining, checkpoints, the length
filter and the writers. Each language's sentence is the English one with every word tagged
(``word_es``); the encoder strips the tag, so every sentence aligns, as in a real corpus where
most do. Then ``occbio balance`` (OccGen) and ``occbio write`` run on the result.

    python benchmarks/align_scale.py [--people 20000] [--sentences 20] [--langs en,es,ca]

Prints, per run: wall time, the align stage's own timings (embedding, mining), peak RSS, and
the same for a second align over the warm embedding cache (another threshold), then balance
and write. Run it from an older checkout to compare (the run directory layout has not changed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import numpy as np

WORDS = (
    "the of and in to was he she his her born city school university studied worked "
    "years first book film music team won award played known later moved married died "
    "national history art science writer actor singer player author career early life "
    "published novel album season league club government party elected president member"
).split()
DIM = 64
OCCUPATIONS = [f"Q{900 + i}" for i in range(25)]


class BagOfWordsEncoder:
    """Sum of a fixed random vector per word (language tag stripped), unit-normalised."""

    name = "bench-bow"
    dim = DIM
    default_threshold = 1.04

    def __init__(self, **_: object) -> None:
        rng = np.random.default_rng(0)
        self.table = {w: rng.standard_normal(DIM).astype(np.float32) for w in WORDS}
        # other words (the unique token of each sentence): one of a fixed set of vectors
        self.hashed = rng.standard_normal((4096, DIM)).astype(np.float32)

    def _vector(self, word: str) -> np.ndarray:
        word = word.split("_", 1)[0]
        vec = self.table.get(word)
        if vec is None:
            digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
            vec = self.hashed[int.from_bytes(digest, "big") % len(self.hashed)]
        return vec

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        out = np.zeros((len(sentences), DIM), np.float32)
        for i, s in enumerate(sentences):
            for w in s.split():
                out[i] += self._vector(w)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        return out

    def supports(self, lang: str) -> bool:
        return True


def write_run(out: Path, people: int, sentences: int, langs: list[str]) -> int:
    """A run directory after ``text``: entities and sentences files, the stage marked done."""
    from occbio.run import RunDir
    from occbio.stages.text import articles_path, sentences_path

    rng = np.random.default_rng(1)
    run = RunDir(out)
    state = run.stage("text")
    state.begin("bench", inputs={}, settings={})
    sentences_path(run, langs[0]).parent.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        files = {
            lang: stack.enter_context(open(sentences_path(run, lang), "w", encoding="utf-8"))
            for lang in langs
        }
        articles = {
            lang: stack.enter_context(open(articles_path(run, lang), "w", encoding="utf-8"))
            for lang in langs
        }
        ents = stack.enter_context(open(out / "entities.jsonl", "w", encoding="utf-8"))
        for p in range(people):
            qid = f"Q{1000000 + p}"
            jobs = rng.choice(OCCUPATIONS, size=int(rng.integers(1, 3)), replace=False)
            entity = {
                "qid": qid,
                "label": f"Person {p}",
                # the balance stage maps Wikidata's P21 values: Q6581072 female, Q6581097 male
                "genders": ["Q6581072" if rng.random() < 0.3 else "Q6581097"],
                "occupations": [{"qid": str(q), "label": f"job {q}"} for q in jobs],
                "titles": {lang: f"Person {p}" for lang in langs},
            }
            ents.write(json.dumps(entity) + "\n")
            for lang in langs:
                page = {"qid": qid, "lang": lang, "title": f"Person {p}", "page_id": p, "text": ""}
                articles[lang].write(json.dumps(page) + "\n")
            for j in range(sentences):
                # a unique token per sentence keeps sentences distinct, as in real articles
                words = [*rng.choice(WORDS, size=int(rng.integers(8, 25))), f"p{p}s{j}"]
                for lang in langs:
                    text = " ".join(w if lang == langs[0] else f"{w}_{lang}" for w in words)
                    row = {"qid": qid, "lang": lang, "idx": j, "text": text + "."}
                    files[lang].write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(out / "occupations.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps({"qid": q, "label": f"job {q}"}) + "\n" for q in OCCUPATIONS)
    state.finish(counts={}, outputs=[])
    return people * sentences * len(langs)


def child(run_dir: str, langs: str, threshold: float, stage: str) -> None:
    """Run one stage (align with the bag-of-words encoder) in this process."""
    from occbio.align.encoders import register
    from occbio.config import AlignConfig, RunConfig
    from occbio.run import RunDir
    from occbio.stages.align import run_align
    from occbio.stages.balance import run_balance
    from occbio.stages.write import run_write

    register("bench-bow")(BagOfWordsEncoder)
    cfg = RunConfig(
        langs=langs.split(","),
        out=Path(run_dir),
        align=AlignConfig(encoder="bench-bow", threshold=threshold),
    )
    run = {"align": run_align, "balance": run_balance, "write": run_write}[stage]
    run(cfg, RunDir(Path(run_dir)), show_progress=False)


def run_child(run_dir: Path, langs: str, threshold: float) -> tuple[float, float, dict]:
    start = time.perf_counter()
    cmd = [sys.executable, __file__, "--child", str(run_dir), "--langs", langs]
    proc = subprocess.Popen([*cmd, "--threshold", str(threshold)])
    _pid, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the align run failed")
    took = time.perf_counter() - start
    record = json.loads((run_dir / "manifest.json").read_text())["stages"]["align"]
    return took, usage.ru_maxrss / 1024, record


def run_stage(stage: str, run_dir: Path, langs: str) -> tuple[float, float]:
    """The ``balance`` or ``write`` stage on the run directory in its own process (called
    directly: the CLI would first run the earlier stages' sources): wall time and peak RSS."""
    start = time.perf_counter()
    cmd = [sys.executable, __file__, "--child", str(run_dir), "--langs", langs, "--stage", stage]
    proc = subprocess.Popen(cmd)
    _pid, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the {stage} stage failed")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=20000)
    parser.add_argument("--sentences", type=int, default=20, help="per person and language")
    parser.add_argument("--langs", default="en,es,ca")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--threshold", type=float, default=1.04, help=argparse.SUPPRESS)
    parser.add_argument("--stage", default="align", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.langs, args.threshold, args.stage)
        return
    langs = args.langs.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp) / "run"
        start = time.perf_counter()
        total = write_run(run_dir, args.people, args.sentences, langs)
        print(
            f"{args.people} people x {args.sentences} sentences x {len(langs)} languages = "
            f"{total} sentences (written in {time.perf_counter() - start:.1f} s)"
        )
        print(
            f"{'run':<22} {'wall s':>7} {'bg draw s':>9} {'embed s':>8} {'bg search s':>11} "
            f"{'mine s':>7} {'peak RSS MB':>12} {'tuples kept':>12}"
        )
        for label, threshold in (("cold cache", 1.04), ("warm cache, new thr.", 1.05)):
            took, peak, rec = run_child(run_dir, args.langs, threshold)
            secs = rec.get("seconds", {})
            print(
                f"{label:<22} {took:>7.1f} {secs.get('background_build_seconds', 0):>9.1f} "
                f"{secs.get('embed_seconds', 0):>8.1f} {secs.get('background_seconds', 0):>11.1f} "
                f"{secs.get('mine_seconds', 0):>7.1f} {peak:>12.0f} "
                f"{rec['counts'].get('tuples_kept', 0):>12}"
            )
        for stage in ("balance", "write"):
            took, peak = run_stage(stage, run_dir, args.langs)
            print(f"{stage:<22} {took:>7.1f} {'':>8} {'':>7} {peak:>12.0f}")
        size = sum(f.stat().st_size for f in run_dir.rglob("*") if f.is_file())
        print(f"run directory: {size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
