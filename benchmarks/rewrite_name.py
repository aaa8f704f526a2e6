"""The person's name as an anchor (issue #21 part 3): rewrites with and without ``name=``.

    python benchmarks/rewrite_name.py [--data ../shared/data/mt-geneval-dev] [--langs de es ...]
                                      [--set sentences|contextual]

Per language and direction (m→f, f→m), over the pairs whose two versions differ: exact (share
rewritten byte-for-byte into the human counterfactual) and P (word-level precision of the edits),
first without the name, then with it.

* ``--set sentences`` (default, the CHOOSING set: rules were chosen on it): MT-GenEval's
  sentences-dev, which gives no names; the name is derived as the capitalised words shared by
  the feminine and the masculine version (the first word only when it is no common word).
  Scores only.
* ``--set contextual`` (the REPORT set, out of sample: run once per change): the contextual
  subset; the name is the capitalised words of the English context that also occur in the
  sentence, and the direction comes from the context's pronouns (a context with as many
  feminine as masculine pronouns, or none, is left out). Scores only.

No assertions: a report.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from occbio.rewrite import Rewriter  # noqa: E402
from occbio.rewrite.data import _load_zipf  # noqa: E402
from occbio.rewrite.learn import aligned_edits, load_mtgeneval, strip_marks  # noqa: E402
from occbio.rewrite.tokens import words  # noqa: E402

#: (source, human version, name) triples per target gender
Triples = dict[str, list[tuple[str, str, str]]]
_CAPITAL = re.compile(r"\b[^\W\d_][\w'’-]*", re.UNICODE)


def _capitalised(text: str) -> list[str]:
    return [w for w in _CAPITAL.findall(text) if w[0].isupper() and len(w) > 1]


def sentences_set(data: Path, lang: str) -> Triples:
    """sentences-dev: each pair both ways; the name is the capitalised words both versions
    share, the first word only when it is no common word of the language (Zipf < 3; languages
    without a frequency list never count it)."""
    zipf = _load_zipf(lang)
    out: Triples = {"feminine": [], "masculine": []}
    for f, m in load_mtgeneval(data, lang):
        fw, mw = _capitalised(f), _capitalised(m)
        shared = set(fw) & set(mw)
        first = words(f, lang)[:1]
        if first and (not zipf or zipf.get(first[0].lower(), 0.0) >= 3.0):
            shared -= set(first)
        name = " ".join(dict.fromkeys(w for w in fw if w in shared))
        out["feminine"].append((m, f, name))
        out["masculine"].append((f, m, name))
    return out


def contextual_set(data: Path, lang: str) -> Triples:
    """contextual-dev: original → flipped, the direction from the English context's pronouns."""
    base = data / "contextual-dev"
    stem = "geneval-context-wikiprofessions"
    orig, flipped = (
        (base / f"{stem}-{kind}-dev.en_{lang}.{lang}").read_text(encoding="utf-8").splitlines()
        for kind in ("original", "flipped")
    )
    english = (base / f"{stem}-2to1-dev.en_{lang}.en").read_text(encoding="utf-8").splitlines()
    out: Triples = {"feminine": [], "masculine": []}
    for o, f, en in zip(orig, flipped, english, strict=True):
        context = en.split("<sep>")[0]
        low = re.findall(r"[a-z]+", context.lower())
        fem = sum(w in ("she", "her", "hers", "herself") for w in low)
        mas = sum(w in ("he", "him", "his", "himself") for w in low)
        if fem == mas:
            continue
        o, f = strip_marks(o), strip_marks(f)
        present = set(words(o, lang))
        name = " ".join(dict.fromkeys(w for w in _capitalised(context) if w in present))
        out["feminine" if mas > fem else "masculine"].append((o, f, name))
    return out


def _edits(src: list[str], tgt: list[str]) -> dict[tuple, int]:
    return {(i1, i2, t): max(i2 - i1, len(t)) for i1, i2, t in aligned_edits(src, tgt)}


def score(rw: Rewriter, triples, to: str, use_name: bool) -> tuple[int, float, float]:
    """(pairs that differ, exact, word precision) of ``rw`` on ``triples``."""
    n = exact = tp = hyp = 0
    for src, ref, name in triples:
        if src == ref:
            continue
        out = rw.rewrite(src, to, name=name or None) if use_name else rw.rewrite(src, to)
        n += 1
        exact += out == ref
        sw = words(src, rw.lang)
        h, r = _edits(sw, words(out, rw.lang)), _edits(sw, words(ref, rw.lang))
        tp += sum(w for e, w in h.items() if e in r)
        hyp += sum(h.values())
    return n, exact / max(n, 1), tp / hyp if hyp else float("nan")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/mt-geneval-dev")
    ap.add_argument("--langs", nargs="+", default=["es", "fr", "it", "pt", "de", "ru"])
    ap.add_argument("--set", choices=["sentences", "contextual"], default="sentences")
    a = ap.parse_args(argv)
    load = sentences_set if a.set == "sentences" else contextual_set
    label = "CHOOSING set (in-sample)" if a.set == "sentences" else "REPORT set (out of sample)"
    print(f"{a.set}-dev, {label}; exact / P without the name → with it")
    print(f"{'lang':4} {'dir':4} {'pairs':>5} {'exact':>6} {'→':>1} {'exact':>6} "
          f"{'P':>6} {'→':>1} {'P':>6}")  # fmt: skip
    for lang in a.langs:
        rw = Rewriter(lang, strict=True)
        sets = load(a.data, lang)
        for to, short in (("feminine", "m→f"), ("masculine", "f→m")):
            n, e0, p0 = score(rw, sets[to], to, use_name=False)
            _, e1, p1 = score(rw, sets[to], to, use_name=True)
            print(f"{lang:4} {short:4} {n:5d} {e0:6.3f} → {e1:6.3f} {p0:6.3f} → {p1:6.3f}")


if __name__ == "__main__":
    main()
