"""Sentence language identification: accuracy, Catalan/Spanish confusion, speed, load time.

Detectors, each restricted to the same candidate set (a run's languages en, es, ca plus
occbio's default neighbours, :data:`occbio.extract.clean.DEFAULT_CANDIDATES`) unless the name
says ``all``:

* ``lingua-low`` / ``lingua-high``: lingua-language-detector, low- and high-accuracy mode;
* ``lingua-high-all``: high-accuracy mode over all 75 lingua languages (for reference);
* ``py3langid``: py3langid restricted with ``set_languages``; ``py3langid-all``: unrestricted.

Data: ../shared/data/tatoeba (1,000 short sentences per language, Tatoeba, CC BY 2.0 FR);
``fragments``: the first 2-6 words of those sentences (the hardest case); ``bio``: the
biography sentences written for benchmarks/splitters.py (ca, es, en); and
../shared/data/mt-geneval-dev (long Wikipedia biography sentences, first 500 per language).
Galician (``gl``) is not a lingua language: it is reported for py3langid only (occbio skips
language ID for such languages). Each detector runs in its own process, so load time and
memory are its own.

Run::

    .venv/bin/python benchmarks/langid.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data"
TATOEBA = DATA / "tatoeba"
GENEVAL = DATA / "mt-geneval-dev" / "sentences-dev"
RUN_LANGS = ["en", "es", "ca"]
GENEVAL_N = 500
SHORT_WORDS = 6

#: Tatoeba's ISO 639-3 file names -> ISO 639-1.
TATOEBA_LANGS = {
    "cat": "ca", "spa": "es", "eng": "en", "fra": "fr", "ita": "it", "por": "pt", "deu": "de",
    "nld": "nl", "pol": "pl", "tur": "tr", "rus": "ru", "ara": "ar", "cmn": "zh", "jpn": "ja",
    "hin": "hi", "eus": "eu", "glg": "gl",
}  # fmt: skip
GENEVAL_LANGS = ["en", "es", "fr", "de", "it", "pt", "ru", "ar", "hi"]
DETECTORS = [
    "lingua-low", "lingua-high", "lingua-high-all", "py3langid", "py3langid-all", "occbio",
]  # fmt: skip
KEEP_TABLE_DETECTORS = ["lingua-high", "py3langid"]
THRESHOLDS = [None, 0.2, 0.1, 0.05]
MIN_WORDS = 4
#: lingua's languages (ISO 639-1); Galician is not among them.
LINGUA_LANGS = set(
    """af ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gu he hi hr hu hy id is
    it ja ka kk ko la lg lt lv mi mk mn mr ms nb nl nn pa pl pt ro ru sk sl sn so sq sr st sv sw
    ta te th tl tn tr ts uk ur vi xh yo zh zu""".split()
)


def _fragments(sents: list[str]) -> list[str]:
    """2-6-word fragments: the first k words (k = 2..6 in turn) of sentences longer than k."""
    out = []
    for i, sent in enumerate(sents):
        words = sent.split()
        k = 2 + i % 5
        if len(words) > k:
            out.append(" ".join(words[:k]).rstrip(",;:"))
    return out


def load_data() -> dict[str, dict[str, list[str]]]:
    """{"tatoeba"|"fragments"|"bio"|"geneval": {lang: sentences}}."""
    data: dict[str, dict[str, list[str]]] = {"tatoeba": {}, "fragments": {}, "bio": {}}
    data["geneval"] = {}
    for code3, lang in TATOEBA_LANGS.items():
        path = TATOEBA / (
            "tatoeba.cat-eng.eng" if code3 == "eng" else f"tatoeba.{code3}-eng.{code3}"
        )
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            data["tatoeba"][lang] = [s.strip() for s in lines if s.strip()]
    for lang in ("ca", "es", "pt", "it", "fr"):
        if lang in data["tatoeba"]:
            data["fragments"][lang] = _fragments(data["tatoeba"][lang])
    # Biography-style sentences written for benchmarks/splitters.py (short ones included).
    sys.path.insert(0, str(REPO / "benchmarks"))
    from splitters import HAND

    for lang, paras in HAND.items():
        data["bio"][lang] = [s for para in paras for s in para]
    for lang in GENEVAL_LANGS:
        pair = "es" if lang == "en" else lang
        path = GENEVAL / f"geneval-sentences-feminine-dev.en_{pair}.{lang}"
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            data["geneval"][lang] = [s.strip() for s in lines if s.strip()][:GENEVAL_N]
    return data


def candidates() -> list[str]:
    from occbio.extract.clean import DEFAULT_CANDIDATES

    return list(dict.fromkeys([*RUN_LANGS, *DEFAULT_CANDIDATES]))


def _build(name: str) -> tuple[Callable[[list[str]], list], Callable[[list[str]], list]]:
    """Build detector ``name``.

    Returns ``(detect, probs)``: ``detect(texts) -> [code | None]`` (the timed path) and
    ``probs(texts) -> [{code: probability}]`` (for the keep-threshold table).
    """
    cands = candidates()
    if name == "occbio":
        from occbio.extract.clean import LanguageIdentifier

        ident = LanguageIdentifier(RUN_LANGS)
        model = ident._load()
        return ident.detect_batch, lambda texts: [dict(model.rank(t)) for t in texts]
    if name.startswith("lingua"):
        from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

        if name.endswith("-all"):
            builder = LanguageDetectorBuilder.from_all_languages()
        else:
            builder = LanguageDetectorBuilder.from_iso_codes_639_1(
                *(getattr(IsoCode639_1, c.upper()) for c in cands if c in LINGUA_LANGS)
            )
        if name.startswith("lingua-low"):
            builder = builder.with_low_accuracy_mode()
        detector = builder.with_preloaded_language_models().build()

        def code(lang: Language | None) -> str | None:
            return None if lang is None else lang.iso_code_639_1.name.lower()

        def probs(texts: list[str]) -> list[dict[str, float]]:
            values = detector.compute_language_confidence_values_in_parallel(texts)
            return [{code(v.language): v.value for v in row} for row in values]  # type: ignore[misc]

        def detect(texts: list[str]) -> list[str | None]:
            return [code(x) for x in detector.detect_languages_in_parallel_of(texts)]

        return detect, probs

    import py3langid.langid as pl

    ident = pl.LanguageIdentifier.from_model_file(pl.MODEL_FILE, norm_probs=True)
    if not name.endswith("-all"):
        ident.set_languages(cands)
    return (
        lambda texts: [ident.classify(t)[0] for t in texts],
        lambda texts: [dict(ident.rank(t)) for t in texts],
    )


def run_one(name: str) -> dict:
    """Measure one detector (called in a child process)."""
    import psutil

    proc = psutil.Process()
    rss0 = proc.memory_info().rss
    data = load_data()
    t0 = time.perf_counter()
    detect, probs = _build(name)
    detect(["warm-up sentence"])
    load_s = time.perf_counter() - t0
    out: dict = {"name": name, "load_s": load_s, "top": {}, "p": {}}
    n_sent = 0
    t1 = time.perf_counter()
    for group, by_lang in data.items():
        for lang, sents in by_lang.items():
            if lang not in candidates() or lang not in _known(name):
                continue
            out["top"][f"{group}/{lang}"] = detect(sents)
            n_sent += len(sents)
    out["sent_per_s"] = n_sent / (time.perf_counter() - t1)
    out["rss_mb"] = (proc.memory_info().rss - rss0) / 2**20
    if name in KEEP_TABLE_DETECTORS:
        wanted = {"tatoeba": ["ca", "es", "en", "fr", "it", "pt"], "bio": ["ca", "es"]}
        for group, langs in wanted.items():
            for lang in langs:
                rows = probs(data[group][lang])
                out["p"][f"{group}/{lang}"] = [
                    [r.get("ca", 0.0), r.get("es", 0.0), max(r.values(), default=0.0)] for r in rows
                ]
    return out


def _known(name: str) -> set[str]:
    return LINGUA_LANGS if name.startswith("lingua") else set(candidates())


def _pct(values: list[bool]) -> str:
    return f"{100 * sum(values) / len(values):.1f}" if values else "n/a"


def _keep(row: list[float], lang: str, tau: float | None) -> bool:
    p = row[0] if lang == "ca" else row[1]
    return p >= row[2] or (tau is not None and p >= tau)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(run_one(sys.argv[2])))
        return
    data = load_data()
    runs = {}
    for name in DETECTORS:
        res = subprocess.run(
            [sys.executable, __file__, "--one", name],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        if res.returncode != 0:  # e.g. lingua not installed: measure the others
            last = (res.stderr.strip().splitlines() or ["?"])[-1]
            print(f"skipped {name}: {last}")
            continue
        runs[name] = json.loads(res.stdout.strip().splitlines()[-1])
    detectors = [n for n in DETECTORS if n in runs]
    keep_table = [n for n in KEEP_TABLE_DETECTORS if n in runs]

    width = max(len(n) for n in detectors) + 1
    print(f"Candidate set ({len(candidates())}): {' '.join(candidates())}")
    print("(lingua has no Galician: its candidate set lacks gl)\n")
    print("Accuracy (% of sentences identified as their own language)\n")
    print(f"{'set/lang':<15}{'n':>5} " + "".join(f"{n:>{width}}" for n in detectors))
    for group, by_lang in data.items():
        for lang, sents in by_lang.items():
            cells = []
            for name in detectors:
                got = runs[name]["top"].get(f"{group}/{lang}")
                cell = "n/a" if got is None else _pct([g == lang for g in got])
                cells.append(cell.rjust(width))
            print(f"{group + '/' + lang:<15}{len(sents):>5} " + "".join(cells))
        if group == "tatoeba":  # short sentences: the hard case for ca/es
            for lang in ("ca", "es"):
                idx = [i for i, s in enumerate(by_lang[lang]) if len(s.split()) <= SHORT_WORDS]
                cells = []
                for name in detectors:
                    got = runs[name]["top"][f"{group}/{lang}"]
                    cells.append(_pct([got[i] == lang for i in idx]).rjust(width))
                label = f"{group}/{lang}<={SHORT_WORDS}w"
                print(f"{label:<15}{len(idx):>5} " + "".join(cells))

    print("\nCatalan/Spanish confusion on Tatoeba (% of sentences given the other language)")
    for src, dst in (("ca", "es"), ("es", "ca")):
        cells = [_pct([g == dst for g in runs[n]["top"][f"tatoeba/{src}"]]) for n in detectors]
        print(f"{src + ' -> ' + dst:<15}{'':>5} " + "".join(c.rjust(width) for c in cells))
    print("\nWhat Catalan was mistaken for (tatoeba/ca, top 5):")
    for name in detectors:
        wrong = Counter(g for g in runs[name]["top"]["tatoeba/ca"] if g != "ca").most_common(5)
        print(f"  {name:<{width}} {wrong}")

    print()
    for label, key, fmt in (
        ("load s", "load_s", "{:.2f}"),
        ("sentences/s", "sent_per_s", "{:.0f}"),
        ("+RSS MiB", "rss_mb", "{:.0f}"),
    ):
        cells = "".join(fmt.format(runs[n][key]).rjust(width) for n in detectors)
        print(f"{label:<15}{'':>5} {cells}")
    print(f"(sentences/s: batch detection over every sentence above, {os.cpu_count()} CPU cores)")

    print(
        f"\nThe keep rule in a Catalan or Spanish article: keep a sentence when its language is the"
        f"\nbest guess or has probability >= tau. Tatoeba sentences of >= {MIN_WORDS} words"
        f" (what reaches\nlanguage ID after the length filter); % kept of the article's language,"
        f" % dropped of others."
    )
    cols = ["keep own", "keep bio", "drop ca/es", "drop en", "drop fr/it/pt"]
    print(f"{'detector':<13}{'article':>8}{'tau':>6} " + "".join(f"{c:>14}" for c in cols))
    long_enough = {
        key: [len(s.split()) >= MIN_WORDS for s in data["tatoeba"][key.split("/")[1]]]
        for key in (f"tatoeba/{x}" for x in ("ca", "es", "en", "fr", "it", "pt"))
    }
    for name in keep_table:
        p = runs[name]["p"]
        for art in ("ca", "es"):
            other = "es" if art == "ca" else "ca"
            for tau in THRESHOLDS:

                def kept(
                    key: str, p: dict = p, art: str = art, tau: float | None = tau
                ) -> list[bool]:
                    mask = long_enough.get(key, [True] * len(p[key]))
                    return [_keep(r, art, tau) for r, m in zip(p[key], mask, strict=True) if m]

                foreign = [not k for x in ("fr", "it", "pt") for k in kept(f"tatoeba/{x}")]
                cells = [
                    _pct(kept(f"tatoeba/{art}")),
                    _pct(kept(f"bio/{art}")),
                    _pct([not k for k in kept(f"tatoeba/{other}")]),
                    _pct([not k for k in kept("tatoeba/en")]),
                    _pct(foreign),
                ]
                label = "best" if tau is None else f"{tau:g}"
                print(f"{name:<13}{art:>8}{label:>6} " + "".join(f"{c:>14}" for c in cells))


if __name__ == "__main__":
    main()
