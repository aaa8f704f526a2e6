"""Learn word-substitution tables from counterfactual sentence pairs.

Given pairs (feminine sentence, masculine sentence) that differ only in the gender of the person
they are about, every token-aligned difference is a candidate substitution (``directora`` →
``director``, ``de la`` → ``del``, ``she`` → ``he``). For each candidate the learner counts, on
the same sentences, how often the source form occurs at all and how often it changed:

* ``c`` / ``total``: changed anywhere (a "free" substitution, e.g. ``she`` → ``he``);
* ``c_next`` / ``next_total``: changed when the next word changed (articles, determiners and
  adjectives before a changed noun: ``la`` → ``el`` only in ``la directora``);
* ``c_prev`` / ``prev_total``: changed when the previous word changed (an adjective after a
  changed noun: ``directora ejecutiva``).

The rewriter applies a substitution only when the relevant share and count pass its thresholds,
so a form that is usually left alone (``la`` before an unchanged noun) is left alone.

Run ``python -m occbio.rewrite.learn DATA_DIR OUT_DIR`` to rebuild the packaged tables from
MT-GenEval dev; only the first half of each file (the *choosing* part) is read.
"""

from __future__ import annotations

import argparse
import difflib
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from occbio.rewrite.tokens import words

DIRECTIONS = {"masculine": "f2m", "feminine": "m2f"}  # target gender -> table key
MTGENEVAL_LANGS = ("en", "es", "fr", "it", "pt", "de", "ru")
CHOOSE_FRACTION = 0.5  # the first half of each MT-GenEval file chooses, the second half reports


def strip_marks(line: str) -> str:
    """MT-GenEval's plain files bracket some words ``[her]``: drop the brackets."""
    return line.rstrip("\n").replace("[", "").replace("]", "")


def load_mtgeneval(data_dir: Path, lang: str) -> list[tuple[str, str]]:
    """(feminine, masculine) pairs for ``lang``; English pools the English side of every pair
    file, de-duplicated, in file order."""
    base = Path(data_dir) / "sentences-dev"
    if lang == "en":
        seen: set[tuple[str, str]] = set()
        out = []
        for other in ("es", "fr", "it", "pt", "de", "ru", "ar", "hi"):
            for pair in _read_pairs(base, other, "en"):
                if pair not in seen:
                    seen.add(pair)
                    out.append(pair)
        return out
    return _read_pairs(base, lang, lang)


def _read_pairs(base: Path, pair_lang: str, side: str) -> list[tuple[str, str]]:
    fem = base / f"geneval-sentences-feminine-dev.en_{pair_lang}.{side}"
    mas = base / f"geneval-sentences-masculine-dev.en_{pair_lang}.{side}"
    if not fem.exists() or not mas.exists():
        return []
    f_lines = fem.read_text(encoding="utf-8").splitlines()
    m_lines = mas.read_text(encoding="utf-8").splitlines()
    if len(f_lines) != len(m_lines):
        raise ValueError(f"{fem} and {mas} are not line-aligned")
    return [(strip_marks(f), strip_marks(m)) for f, m in zip(f_lines, m_lines, strict=True)]


def split_pairs(pairs: Sequence[tuple[str, str]], lang: str):
    """The fixed choosing / held-out split. English pools pair files, so its split is by
    sentence: the held-out part drops any pair also present in the choosing part."""
    cut = int(len(pairs) * CHOOSE_FRACTION)
    return list(pairs[:cut]), list(pairs[cut:])


def aligned_edits(src: list[str], tgt: list[str]):
    """Token-aligned edits from ``src`` to ``tgt``: (i1, i2, target tuple), 1:1 where the
    changed spans have equal length; unequal spans keep 1:1 pairs peeled from the end."""
    sm = difflib.SequenceMatcher(None, src, tgt, autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op != "replace":
            continue
        if i2 - i1 == j2 - j1:
            out.extend((i, i + 1, (tgt[j1 + k],)) for k, i in enumerate(range(i1, i2)))
            continue
        tail = []
        while i2 - i1 > 1 and j2 - j1 > 1:
            i2 -= 1
            j2 -= 1
            tail.append((i2, i2 + 1, (tgt[j2],)))
        if i2 - i1 <= 2 and j2 - j1 <= 2:
            out.append((i1, i2, tuple(tgt[j1:j2])))
        out.extend(reversed(tail))
    return out


def learn(pairs: Iterable[tuple[str, str]], lang: str) -> dict:
    """Substitution statistics for both directions: ``{"f2m": {...}, "m2f": {...}}``."""
    pairs = list(pairs)
    tables = {}
    for key, flip in (("f2m", False), ("m2f", True)):
        data = []
        for f, m in pairs:
            s, t = (m, f) if flip else (f, m)
            sw = [w.lower() for w in words(s, lang)]
            tw = [w.lower() for w in words(t, lang)]
            data.append((sw, aligned_edits(sw, tw)))
        tables[key] = _count(data)
    return tables


def _count(data) -> dict:
    targets: dict[tuple, dict[tuple, list[int]]] = defaultdict(dict)  # key -> tgt -> [c, cn, cp]
    for sw, edits in data:
        for i1, i2, tgt in edits:
            targets[tuple(sw[i1:i2])].setdefault(tgt, [0, 0, 0])
    totals: dict[tuple, list[int]] = {k: [0, 0, 0] for k in targets}
    for sw, edits in data:
        span_at: dict[int, tuple[int, int]] = {}
        by_span = {}
        for i1, i2, tgt in edits:
            span_at.update((p, (i1, i2)) for p in range(i1, i2))
            by_span[(i1, i2)] = tgt
        changed_pos = span_at.keys()
        for i in range(len(sw)):
            for n in (1, 2):
                k = tuple(sw[i : i + n])
                if len(k) < n or k not in totals:
                    continue
                # a word that changed as part of a longer or other span (`la` in `de la` →
                # `del`) is neither a change nor a non-change of this key
                if any(span_at.get(p, (i, i + n)) != (i, i + n) for p in range(i, i + n)):
                    continue
                nxt = (i + n) in changed_pos
                prv = (i - 1) in changed_pos
                tot = totals[k]
                tot[0] += 1
                tot[1] += nxt
                tot[2] += prv
                tgt = by_span.get((i, i + n))
                if tgt is not None:
                    cnt = targets[k][tgt]
                    cnt[0] += 1
                    cnt[1] += nxt
                    cnt[2] += prv
    out = {}
    for k, tg in targets.items():
        out[" ".join(k)] = {
            "total": totals[k],
            "targets": {" ".join(t): c for t, c in sorted(tg.items(), key=lambda x: -x[1][0])},
        }
    return out


def build(data_dir: Path, out_dir: Path, langs: Sequence[str] = MTGENEVAL_LANGS) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        pairs = load_mtgeneval(data_dir, lang)
        if not pairs:
            continue
        choose, _ = split_pairs(pairs, lang)
        tables = learn(choose, lang)
        tables["_source"] = (
            f"MT-GenEval dev, choosing part: {len(choose)} of {len(pairs)} pairs "
            f"(first {CHOOSE_FRACTION:.0%} of each file)"
        )
        path = out_dir / f"learned_{lang}.json"
        path.write_text(
            json.dumps(tables, ensure_ascii=False, sort_keys=True, indent=0) + "\n",
            encoding="utf-8",
        )


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data_dir", type=Path, help="the mt-geneval-dev folder")
    ap.add_argument("out_dir", type=Path, help="where learned_<lang>.json go")
    ap.add_argument("--langs", nargs="*", default=list(MTGENEVAL_LANGS))
    a = ap.parse_args(argv)
    build(a.data_dir, a.out_dir, a.langs)


if __name__ == "__main__":
    main()
