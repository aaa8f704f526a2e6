"""Gender rewriting against MT-GenEval's human counterfactual pairs.

    python benchmarks/rewrite.py [--data ../shared/data/mt-geneval-dev] [--langs en es ...]
                                 [--errors N] [--edits N] [--cv] [--no-held-out] [--leads]
                                 [--subset even|odd] [--by-rule]

For each language and direction (masculine→feminine, feminine→masculine), on the CHOOSING part
(the first half of each file, from which the packaged substitution tables were learned, so an
in-sample figure) and on the HELD-OUT part (the second half, never read by the learner):

* exact   share of sentences rewritten byte-for-byte into the human counterfactual (`[ ]` marks
          dropped), over the pairs whose two versions differ;
* P / R   word-level precision and recall of the edits: the token-aligned edits from the source
          to our output against those from the source to the human version;
* same→chg share of pairs whose two versions are identical (nothing to rewrite) that we changed;
* kept    share of pairs that differ where we returned the sentence unchanged.

English pools the English side of all eight pair files (de-duplicated, first half chooses).
Catalan has no counterfactual data and is not measured here. No assertions: a report.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from occbio.rewrite import Rewriter  # noqa: E402
from occbio.rewrite.confidence import Confidence, judge  # noqa: E402
from occbio.rewrite.learn import (  # noqa: E402
    aligned_edits,
    learn,
    load_mtgeneval,
    split_pairs,
    strip_marks,
)
from occbio.rewrite.tokens import word_spans, words  # noqa: E402
from occbio.rewrite_command import make_rewriter  # noqa: E402


def edit_set(src: list[str], tgt: list[str]) -> dict[tuple, int]:
    return {(i1, i2, t): max(i2 - i1, len(t)) for i1, i2, t in aligned_edits(src, tgt)}


def evaluate(rw: Rewriter, pairs, to: str) -> dict:
    lang = rw.lang
    n_diff = exact = kept = 0
    n_same = same_changed = 0
    tp = hyp_w = ref_w = 0
    errors = []
    missed: Counter = Counter()
    wrong: Counter = Counter()
    by_rule: Counter = Counter()  # (rule, right?) -> edits, when the rewriter can explain
    explain = getattr(rw, "explain", None)
    for f, m in pairs:
        src, ref = (m, f) if to == "feminine" else (f, m)
        out = rw.rewrite(src, to)
        if src == ref:
            n_same += 1
            same_changed += out != src
            continue
        n_diff += 1
        exact += out == ref
        kept += out == src
        sw = words(src, lang)
        h = edit_set(sw, words(out, lang))
        r = edit_set(sw, words(ref, lang))
        tp += sum(w for e, w in h.items() if e in r)
        hyp_w += sum(h.values())
        ref_w += sum(r.values())
        if out != ref:
            errors.append((src, out, ref))
        if explain is not None:
            starts = {a: k for k, (a, _) in enumerate(word_spans(src, lang))}
            ends = {b: k + 1 for k, (_, b) in enumerate(word_spans(src, lang))}
            for e in explain(src, to):
                i1, i2 = starts.get(e.start), ends.get(e.end, ends.get(e.end - 1))
                key = (i1, i2, tuple(words(e.new, lang)))
                by_rule[(e.rule, key in r)] += 1
        for e in r.keys() - h.keys():
            missed[(" ".join(sw[e[0] : e[1]]).lower(), " ".join(e[2]).lower())] += 1
        for e in h.keys() - r.keys():
            wrong[(" ".join(sw[e[0] : e[1]]).lower(), " ".join(e[2]).lower())] += 1
    return {
        "n": n_diff,
        "exact": exact / max(n_diff, 1),
        "P": tp / hyp_w if hyp_w else float("nan"),
        "R": tp / max(ref_w, 1),
        "n_same": n_same,
        "same_chg": same_changed / n_same if n_same else float("nan"),
        "kept": kept / max(n_diff, 1),
        "errors": errors,
        "missed": missed,
        "wrong": wrong,
        "by_rule": by_rule,
        "tp": tp,
        "hyp_w": hyp_w,
        "ref_w": ref_w,
    }


def cross_validate(lang: str, choose, to: str, relatives: str = "change") -> dict:
    """Two folds inside the choosing part: learn on one half, score on the other, pooled.
    The hand rules were written on the whole choosing part, so this is optimistic, but far
    less than the in-sample choosing row."""
    half = len(choose) // 2
    folds = ((choose[:half], choose[half:]), (choose[half:], choose[:half]))
    tot = {"n": 0, "exact": 0.0, "kept": 0.0, "tp": 0.0, "hyp": 0.0, "ref": 0.0}
    for train, test in folds:
        rw = Rewriter(lang, tables=learn(train, lang), strict=True, relatives=relatives)
        r = evaluate(rw, test, to)
        tot["n"] += r["n"]
        tot["exact"] += r["exact"] * r["n"]
        tot["kept"] += r["kept"] * r["n"]
        tot["tp"] += r["tp"]
        tot["hyp"] += r["hyp_w"]
        tot["ref"] += r["ref_w"]
    n = max(tot["n"], 1)
    return {
        "n": tot["n"],
        "exact": tot["exact"] / n,
        "kept": tot["kept"] / n,
        "P": tot["tp"] / tot["hyp"] if tot["hyp"] else float("nan"),
        "R": tot["tp"] / max(tot["ref"], 1),
    }


LEADS = ROOT / "benchmarks/data/rewrite_leads.tsv"


def load_leads(path: Path = LEADS) -> dict[str, list[tuple[str, str]]]:
    """{lang: [(feminine, masculine), ...]} from the hand-written lead sentences."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lang, masculine, feminine = line.split("\t")
        out.setdefault(lang, []).append((feminine, masculine))
    return out


def print_leads(langs, relatives: str = "keep") -> None:
    """Pairs whose two sides are identical count as `same` (nothing to change). The lead
    pairs keep the person's relatives as they are (`relatives="keep"`)."""
    leads = load_leads()
    print(f"{'lang':4} {'direction':9} {'pairs':>5} {'exact%':>7} {'P%':>6} {'R%':>6} "
          f"{'same':>5} {'same→chg%':>9}   (benchmarks/data/rewrite_leads.tsv)")  # fmt: skip
    for lang in langs:
        pairs = leads.get(lang)
        if not pairs:
            continue
        rw = Rewriter(lang, strict=True, relatives=relatives)
        for to, name in (("feminine", "m→f"), ("masculine", "f→m")):
            r = evaluate(rw, pairs, to)
            sc = "n/a" if r["n_same"] == 0 else f"{100 * r['same_chg']:.1f}"
            print(
                f"{lang:4} {name:9} {r['n']:5d} {100 * r['exact']:7.1f} {100 * r['P']:6.1f} "
                f"{100 * r['R']:6.1f} {r['n_same']:5d} {sc:>9}"
            )


CURVE = (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def load_contextual(data: Path, lang: str) -> dict[str, list[tuple[str, str]]]:
    """MT-GenEval's contextual subset as {target: [(feminine, masculine), ...]}: each original
    sentence is rewritten into the other gender, which the English context's pronouns tell (a
    context with as many feminine as masculine pronouns, or none, is left out: counted as
    ``unknown``)."""
    base = data / "contextual-dev"
    stem = "geneval-context-wikiprofessions"
    files = [base / f"{stem}-{kind}-dev.en_{lang}.{lang}" for kind in ("original", "flipped")]
    english = base / f"{stem}-2to1-dev.en_{lang}.en"
    if not english.exists() or not all(f.exists() for f in files):
        return {}
    orig, flipped = (f.read_text(encoding="utf-8").splitlines() for f in files)
    out: dict[str, list] = {"feminine": [], "masculine": [], "unknown": 0}
    for o, f, en in zip(orig, flipped, english.read_text(encoding="utf-8").splitlines(),
                        strict=True):  # fmt: skip
        context = re.findall(r"[a-z]+", en.split("<sep>")[0].lower())
        fem = sum(w in ("she", "her", "hers", "herself") for w in context)
        mas = sum(w in ("he", "him", "his", "himself") for w in context)
        if fem == mas:
            out["unknown"] += 1
            continue
        o, f = strip_marks(o), strip_marks(f)
        # a masculine original is rewritten to feminine: the pair is (flipped, original)
        out["feminine" if mas > fem else "masculine"].append((f, o) if mas > fem else (o, f))
    return out


def judged(rw: Rewriter, pairs, to: str, conf: Confidence) -> list[tuple[float, str, bool]]:
    """(score, verdict, exact) of each pair's rewrite into ``to`` (all pairs, also those with
    nothing to change: a line is right when it equals the human version)."""
    out = []
    for f, m in pairs:
        src, ref = (m, f) if to == "feminine" else (f, m)
        v = judge(rw, src, to, conf)
        out.append((v.score, v.verdict, v.text == ref))
    return out


def abstain_cells(rows, threshold: float) -> tuple[float, float, float]:
    """exact over all lines, share kept, exact among kept at ``threshold``."""
    n = max(len(rows), 1)
    kept = [ok for score, _, ok in rows if score >= threshold]
    return sum(ok for *_, ok in rows) / n, len(kept) / n, sum(kept) / max(len(kept), 1)


def print_abstention(sets, conf: Confidence, label: str) -> None:
    """Per language and direction: exact over all lines, share kept and exact among kept at
    the threshold, then the curve (kept% / exact-among-kept% as the threshold moves)."""
    print(f"abstention on {label} (threshold {conf.threshold})")
    curve = " ".join(f"{t:>9.1f}" for t in CURVE)
    print(f"{'lang':4} {'direction':9} {'lines':>5} {'exact%':>7} {'kept%':>6} "
          f"{'exact|kept%':>11}   curve kept%/exact|kept% at threshold {curve}")  # fmt: skip
    for lang, by_to, rw in sets:
        for to, name in (("feminine", "m→f"), ("masculine", "f→m")):
            pairs = by_to[to] if isinstance(by_to, dict) else by_to
            if not pairs:
                continue
            rows = judged(rw, pairs, to, conf)
            exact, kept, among = abstain_cells(rows, conf.threshold)
            points = []
            for t in CURVE:
                _, k, e = abstain_cells(rows, t)
                points.append(f"{100 * k:4.0f}/{100 * e:<4.0f}")
            print(f"{lang:4} {name:9} {len(rows):5d} {100 * exact:7.1f} {100 * kept:6.1f} "
                  f"{100 * among:11.1f}   {' '.join(points)}")  # fmt: skip


def abstain_sets(a: argparse.Namespace) -> list:
    """(lang, pairs, rewriter) to judge: the leads keep relatives, MT-GenEval changes them."""
    if a.abstain == "leads":
        leads = load_leads()
        rel = a.relatives or "keep"
        return [(lang, leads[lang], Rewriter(lang, strict=True, relatives=rel))
                for lang in a.langs if lang in leads]  # fmt: skip
    rel = a.relatives or "change"
    out = []
    for lang in a.langs:
        if a.abstain == "contextual-dev":
            by_to = load_contextual(a.data, lang)
            if by_to:
                left = by_to.pop("unknown")
                print(f"{lang}: {left} pairs left out (the context's pronouns tell no gender)")
                out.append((lang, by_to, Rewriter(lang, strict=True, relatives=rel)))
            continue
        choose, _held = split_pairs(load_mtgeneval(a.data, lang), lang)
        if not choose:
            continue
        tables = None  # the odd pairs are judged with tables learned from the even ones only
        if a.subset:
            tables = learn(choose[0::2], lang) if a.subset == "odd" else None
            choose = choose[0::2] if a.subset == "even" else choose[1::2]
        out.append((lang, choose, Rewriter(lang, tables=tables, strict=True, relatives=rel)))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/mt-geneval-dev")
    ap.add_argument("--langs", nargs="*", default=["en", "es", "fr", "it", "pt", "de", "ru"])
    ap.add_argument(
        "--errors",
        type=int,
        default=0,
        help="print N errors per run from the CHOOSING part (rules are written from these; "
        "held-out errors are never printed, so they cannot leak into the rules)",
    )
    ap.add_argument(
        "--edits",
        type=int,
        default=0,
        help="print the N most frequent missed and wrong word edits of the CHOOSING part",
    )
    ap.add_argument(
        "--backend",
        choices=["rules", "chat", "hf"],
        default="rules",
        help="chat: an LLM behind an OpenAI-compatible API (--base-url, --model, "
        "$OPENAI_API_KEY); hf: a local transformers model (--model-dir, --device); measured "
        "the same way, the rules answer where the model does not",
    )
    ap.add_argument(
        "--relatives",
        choices=["keep", "change"],
        help="the person's relatives (`her mother`): MT-GenEval's human versions change them, "
        "so its rows default to change; the lead pairs keep them, so --leads defaults to keep",
    )
    ap.add_argument(
        "--by-rule",
        action="store_true",
        help="the CHOOSING part's edits by the rule that made them (Rewriter.explain) and the "
        "share of each that the human version also makes: where wrong edits come from",
    )
    ap.add_argument(
        "--subset",
        choices=["even", "odd"],
        help="score only the even- or odd-indexed pairs of the CHOOSING part: write rules from "
        "the errors of the even ones, judge them on the odd ones (whose errors are never printed; "
        "scored with tables learned from the even pairs only, so the odd figure is out of sample "
        "for the tables too)",
    )
    ap.add_argument("--base-url")
    ap.add_argument("--model")
    ap.add_argument("--llm-cache-dir", type=Path, help="keep the answers (a re-run is free)")
    ap.add_argument("--rate", type=float, help="chat requests per second (default 2)")
    ap.add_argument("--model-dir", type=Path, help="--backend hf: the model directory")
    ap.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    ap.add_argument(
        "--limit", type=int, default=0, help="at most N pairs per part (an LLM costs money)"
    )
    ap.add_argument(
        "--cv",
        action="store_true",
        help="also a 2-fold row inside the CHOOSING part: tables learned on one half of it, "
        "scored on the other (an out-of-sample estimate for writing rules without the "
        "held-out part)",
    )
    ap.add_argument(
        "--no-held-out",
        action="store_true",
        help="print the choosing and cv rows only (for writing rules without seeing the score)",
    )
    ap.add_argument(
        "--leads",
        action="store_true",
        help="also score benchmarks/data/rewrite_leads.tsv: hand-written sentences shaped like "
        "Wikipedia biography leads (en es ca fr it pt), never used to write rules; its errors "
        "are not printed",
    )
    ap.add_argument(
        "--abstain",
        choices=["sentences-dev", "contextual-dev", "leads"],
        help="the abstention table (Rewriter.judge) on this source: choose on sentences-dev "
        "(its CHOOSING part; --subset), report on contextual-dev and the leads, once per change",
    )
    ap.add_argument("--threshold", type=float, help="the score under which a line is uncertain")
    ap.add_argument(
        "--without",
        nargs="*",
        default=[],
        choices=["leftovers", "neighbour_risk"],
        help="turn these signals off (to measure what each adds)",
    )
    a = ap.parse_args(argv)
    if (a.backend == "hf") != (a.model_dir is not None):
        ap.error("--backend hf and --model-dir DIR go together")
    if a.abstain:
        conf = Confidence()
        off = {k: (0.0 if k == "neighbour_risk" else False) for k in a.without}
        conf = dataclasses.replace(conf, **off)
        if a.threshold is not None:
            conf = dataclasses.replace(conf, threshold=a.threshold)
        print_abstention(abstain_sets(a), conf, a.abstain + (f" ({a.subset})" if a.subset else ""))
        return
    if a.subset == "odd" and (a.errors or a.edits or a.by_rule):
        ap.error("--subset odd is the judging half: its errors are not printed (use even)")
    if a.leads:
        print_leads(
            a.langs + (["ca"] if "es" in a.langs and "ca" not in a.langs else []),
            a.relatives or "keep",
        )
        return
    if not a.data.exists():
        print(f"no data at {a.data}", file=sys.stderr)
        return
    relatives = a.relatives or "change"
    print(f"(relatives: {relatives})")
    head = (
        f"{'lang':4} {'direction':9} {'part':8} {'pairs':>5} {'exact%':>7} {'P%':>6} "
        f"{'R%':>6} {'kept%':>6} {'same':>5} {'same→chg%':>9}"
    )
    print(head)
    print("-" * len(head))
    t0 = time.perf_counter()
    n_sent = 0
    for lang in a.langs:
        pairs = load_mtgeneval(a.data, lang)
        if not pairs:
            continue
        choose, held = split_pairs(pairs, lang)
        judge = None  # the odd pairs are scored with tables learned from the even ones only
        if a.subset:
            if a.subset == "odd" and a.backend == "rules":
                tables = learn(choose[0::2], lang)
                judge = Rewriter(lang, tables=tables, strict=True, relatives=relatives)
            choose = choose[0::2] if a.subset == "even" else choose[1::2]
        if a.limit:
            choose, held = choose[: a.limit], held[: a.limit]
        rw = make_rewriter(
            lang,
            a.backend,
            base_url=a.base_url,
            model=a.model,
            cache_dir=a.llm_cache_dir,
            rate=a.rate,
            model_dir=a.model_dir,
            device=a.device,
            relatives=relatives,
            strict=True,  # a rule that raises is a bug to see, not a sentence to keep
        )
        for to, name in (("feminine", "m→f"), ("masculine", "f→m")):
            parts = [("choosing", choose)] + ([] if a.no_held_out else [("HELD-OUT", held)])
            for part, data in parts:
                r = evaluate(judge if judge and part == "choosing" else rw, data, to)
                n_sent += len(data)
                sc = "n/a" if r["n_same"] == 0 else f"{100 * r['same_chg']:.1f}"
                print(
                    f"{lang:4} {name:9} {part:8} {r['n']:5d} {100 * r['exact']:7.1f} "
                    f"{100 * r['P']:6.1f} {100 * r['R']:6.1f} {100 * r['kept']:6.1f} "
                    f"{r['n_same']:5d} {sc:>9}"
                )
                if part == "choosing" and a.edits:
                    for label in ("missed", "wrong"):
                        top = ", ".join(
                            f"{s}→{t} {c}" for (s, t), c in r[label].most_common(a.edits)
                        )
                        print(f"    {label.upper()} ({sum(r[label].values())}): {top}")
                if part == "choosing" and a.by_rule and r["by_rule"]:
                    rules = sorted({k for k, _ in r["by_rule"]})
                    cells = []
                    for k in rules:
                        ok, bad = r["by_rule"][(k, True)], r["by_rule"][(k, False)]
                        cells.append(f"{k} {ok + bad} ({100 * ok / (ok + bad):.0f} % right)")
                    print("    EDITS BY RULE: " + ", ".join(cells))
                if part == "choosing" and a.errors:
                    for src, out, ref in r["errors"][: a.errors]:
                        print(f"    SRC {src}\n    OUT {out}\n    REF {ref}\n")
            if a.cv and a.backend == "rules":
                r = cross_validate(lang, choose, to, relatives)
                print(
                    f"{lang:4} {name:9} {'cv':8} {r['n']:5d} {100 * r['exact']:7.1f} "
                    f"{100 * r['P']:6.1f} {100 * r['R']:6.1f} {100 * r['kept']:6.1f}"
                )
        stats = getattr(rw, "stats", None)
        if stats:
            counts = ", ".join(f"{k} {v}" for k, v in sorted(stats.items()))
            print(f"    {lang} {a.backend}: {counts}")
    dt = time.perf_counter() - t0
    print(f"\n{n_sent} rewrites in {dt:.2f}s ({n_sent / dt:.0f} sentences/s)")


if __name__ == "__main__":
    main()
