"""Comparable-document alignment benchmarks built from real human-translated data.

Real Wikipedia article pairs about one person are not parallel documents: many articles are
one-line stubs, one language has sentences the other lacks, and both carry sentences whose
translation exists nowhere. An aligner tuned on neatly parallel documents overestimates its
precision there. This module builds such documents (data and gold only, no alignment) from
``../shared/data``:

* ``ntrex``: NTREX-128 news documents (123, line-aligned across 14 languages), each input
  document truncated to its first *n* sentences; the lines past the cut are used nowhere.
* ``mtgeneval``: MT-GenEval dev sentences of English Wikipedia biographies (feminine set only:
  the masculine files are counterfactual near-copies). Multi-way entries are those whose exact
  English line occurs in every pair file of the set; consecutive entries form pseudo-documents.

Entries with an empty text, or with a text already seen in the same language (case and final
stop ignored; for NTREX in any of its 14 languages) are dropped. Input sizes *n* follow
:data:`SIZE_MIX` (like real bios: a quarter are one sentence). A seeded 25 %
of the source documents (ntrex) or entries (mtgeneval) is held out: each held-out entry gives
at most one *unrelated* sentence in one language only, so its translation is nowhere in the
input (mtgeneval adds its entries outside the set, e.g. other pairs' English lines). When they
run out (hard preset), unrelated sentences come from the other shared sources (NTREX,
MT-GenEval, Tatoeba) under the same rule; :attr:`Corpus.borrowed` counts them.

A :data:`PRESETS` entry then drops sentences (a seeded decision per sentence, so a one-sentence
document sometimes loses it), inserts unrelated sentences at random places and shuffles
locally (a sentence moves by up to 3 places: real articles keep a rough order). Document
structure (split and sizes) depends on ``seed`` and the set only, so the presets of one set
share their documents. Gold: one tuple per entry left in every language of the set.

Run ``.venv/bin/python benchmarks/comparable.py [seed]`` for a summary of every corpus.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from occbio.align.inputs import Doc  # noqa: E402

DATA = REPO.parent / "shared" / "data"
PIVOT = "en"
GENDER = "feminine"
HELD_OUT = 0.25
GENEVAL_LANGS = ("ar", "de", "es", "fr", "hi", "it", "pt", "ru")
#: Wikipedia code -> NTREX (ISO 639-3) and Tatoeba file codes.
NTREX = dict(p.split(":") for p in "en:eng es:spa ca:cat fr:fra de:deu it:ita pt:por".split())
NTREX |= dict(p.split(":") for p in "ru:rus ar:arb sw:swa hi:hin nl:nld pl:pol sv:swe".split())
TATOEBA = {k: v for k, v in NTREX.items() if k not in ("en", "sv")} | {"ar": "ara", "sw": "swh"}
TATOEBA |= dict(p.split(":") for p in "gl:glg eu:eus tr:tur zh:cmn ja:jpn fi:fin".split())
#: (probability, min, max) number of parallel entries an input document starts with.
SIZE_MIX = ((0.25, 1, 1), (0.15, 2, 2), (0.20, 3, 4), (0.20, 5, 10), (0.20, 11, 30))
HIST = ((1, 1), (2, 2), (3, 4), (5, 10), (11, 30), (31, 10**9))

Entry = dict[str, str]  # lang -> text of mutually translated sentences
Key = tuple[str, str]  # (lang, normalised text)
Item = tuple[Entry, frozenset[Key]]  # an entry and the keys of its texts


@dataclass(frozen=True)
class Preset:
    drop_pivot: float  # chance each pivot sentence is dropped
    drop_other: float  # chance each non-pivot sentence is dropped (each language apart)
    unrelated: int  # unrelated sentences added per language per document
    window: float  # local shuffle: sort by place + U(0, window); moves < window places


PRESETS: dict[str, Preset] = {
    "clean": Preset(0.0, 0.0, 0, 0.0),
    "standard": Preset(0.0, 0.2, 3, 4.0),
    "hard": Preset(0.0, 0.4, 12, 4.0),
    "asymmetric": Preset(0.3, 0.3, 0, 4.0),
}
SETS: dict[str, list[list[str]]] = {
    "mtgeneval": [["en", x] for x in ("es", "fr", "de", "ru", "ar", "hi")]
    + [["en", "es", "fr"], ["en", "es", "ru", "ar"]],
    "ntrex": [["en", x] for x in ("es", "ca", "sw", "de", "ru", "ar", "hi")]
    + [["en", "es", "ca"], ["en", "es", "ru", "ar"]],
}


@dataclass
class Corpus:
    """Comparable documents of one language set and the true tuples left in them (gold:
    ``(doc id, sentence index per language in langs order)``)."""

    name: str
    source: str
    preset: str
    langs: list[str]  # pivot first
    docs: list[Doc]
    gold: set[tuple[str, tuple[int, ...]]] = field(default_factory=set)
    doc_size: dict[str, int] = field(default_factory=dict)  # parallel entries at the start
    unrelated: Counter[str] = field(default_factory=Counter)  # unrelated sentences per lang
    borrowed: Counter[str] = field(default_factory=Counter)  # of which from another source

    @property
    def n_sentences(self) -> int:
        return sum(len(s) for d in self.docs for s in d.sentences.values())

    def n_lang(self, lang: str) -> int:
        return sum(len(d.sentences[lang]) for d in self.docs)

    def orphan_share(self, lang: str) -> float:
        """Share of ``lang``'s sentences in no gold tuple."""
        n = self.n_lang(lang)
        return 1 - len(self.gold) / n if n else 0.0


# --------------------------------------------------------------------------- sources


@cache
def _lines(path: Path) -> tuple[str, ...]:
    with open(path, encoding="utf-8") as fh:  # not splitlines(): texts may hold U+2028
        return tuple(line.strip() for line in fh)


def _pairs(stem: str, a: str, b: str, code_a: str, code_b: str) -> list[Entry]:
    xs, ys = _lines(Path(f"{stem}.{code_a}")), _lines(Path(f"{stem}.{code_b}"))
    if len(xs) != len(ys):
        raise ValueError(f"{stem}: {len(xs)} {code_a} lines but {len(ys)} {code_b} lines")
    return [{a: x, b: y} for x, y in zip(xs, ys, strict=True)]


@cache
def _geneval(lang: str, gender: str = GENDER) -> list[Entry]:
    stem = DATA / "mt-geneval-dev" / "sentences-dev" / f"geneval-sentences-{gender}-dev"
    return _pairs(f"{stem}.en_{lang}", PIVOT, lang, PIVOT, lang)


@cache
def _tatoeba() -> list[Entry]:
    return [
        e
        for lang, code in TATOEBA.items()
        for e in _pairs(str(DATA / "tatoeba" / f"tatoeba.{code}-eng"), PIVOT, lang, "eng", code)
    ]


@cache
def _ntrex() -> tuple[tuple[str, ...], list[Entry]]:
    """NTREX document id per line, and every line as an entry of all 14 languages."""
    base = DATA / "ntrex-128"
    ids = _lines(base / "DOCUMENT_IDS.tsv")
    cols = {
        lang: _lines(base / f"newstest2019-{'src' if lang == PIVOT else 'ref'}.{code}.txt")
        for lang, code in NTREX.items()
    }
    if any(len(col) != len(ids) for col in cols.values()):
        raise ValueError(f"{base}: files differ in length")
    return ids, [{lang: col[i] for lang, col in cols.items()} for i in range(len(ids))]


@cache
def _key(lang: str, text: str) -> Key:
    """Duplicate-detection key: NTREX repeats a headline in the body ("It Is Very Bad." /
    "It is very bad.") and has lines that differ only by a final full stop."""
    return lang, text.casefold().rstrip(" .!?。۔")


def _item(entry: Entry) -> Item:
    return entry, frozenset(_key(lang, t) for lang, t in entry.items() if t)


@cache
def _pool(source: str) -> list[Item]:
    """Every entry of a source (MT-GenEval: the feminine pairs) as an :data:`Item`."""
    if source == "ntrex":
        return [_item(e) for e in _ntrex()[1]]
    if source == "mtgeneval":
        return [_item(e) for x in GENEVAL_LANGS for e in _geneval(x)]
    return [_item(e) for e in _tatoeba()]


def _dedup(items: Iterable[Item], langs: list[str]) -> list[Entry | None]:
    """The entries of ``items`` restricted to ``langs``; ``None`` where a text of ``langs`` is
    empty or a text in any language of the entry was seen before (so that no sentence
    translates two entries)."""
    seen: set[Key] = set()
    out: list[Entry | None] = []
    for entry, keys in items:
        ok = all(entry[lang] for lang in langs) and not keys & seen
        seen |= keys if ok else set()
        out.append({lang: entry[lang] for lang in langs} if ok else None)
    return out


def _size(rng: random.Random) -> int:
    r = rng.random()
    for p, lo, hi in SIZE_MIX[:-1]:
        if r < p:
            return rng.randint(lo, hi)
        r -= p
    return rng.randint(*SIZE_MIX[-1][1:])


class _Supply:
    """Unrelated sentences: own held-out entries first, then other sources, each entry used
    once in one language, skipping any entry sharing a text (in any language) with a used or
    input one (an English text links translations across pair files)."""

    def __init__(self, own: list[Item], other: list[Item], taken: set[Key], rng: random.Random):
        own, other = list(own), list(other)
        rng.shuffle(own)
        rng.shuffle(other)
        self.order = [(True, it) for it in own] + [(False, it) for it in other]
        self.taken = taken
        self.next: dict[str, int] = {}

    def take(self, lang: str) -> tuple[str, bool] | None:
        """An unrelated ``lang`` sentence and whether it is from the corpus's own source."""
        i = self.next.get(lang, 0)
        while i < len(self.order):
            own, (entry, texts) = self.order[i]
            i += 1
            if entry.get(lang) and texts.isdisjoint(self.taken):
                self.taken |= texts
                self.next[lang] = i
                return entry[lang], own
        self.next[lang] = i
        return None


# --------------------------------------------------------------------------- building


def _structure(
    source: str, langs: list[str], rng: random.Random
) -> tuple[list[tuple[str, list[Entry]]], list[Item], list[Item], set[Key]]:
    """Input documents ``[(doc id, entries)]``, the own-source supply of unrelated entries,
    the other sources' entries, and the texts that must not be used as unrelated."""
    if source == "ntrex":
        ids, rows = _ntrex()
        docs: dict[str, list[Entry]] = {}
        for doc_id, entry in zip(ids, _dedup(_pool("ntrex"), langs), strict=True):
            docs.setdefault(doc_id, []).extend([entry] if entry else [])
        held = set(rng.sample(sorted(docs), round(HELD_OUT * len(docs))))
        inputs = [(f"ntrex-{d}", docs[d][: _size(rng)]) for d in docs if d not in held and docs[d]]
        own = [it for d, it in zip(ids, _pool("ntrex"), strict=True) if d in held]
        # the inputs and the lines past each cut are used nowhere
        taken = {
            _key(k, t)
            for d, r in zip(ids, rows, strict=True)
            if d not in held
            for k, t in r.items()
        }
        other = _pool("mtgeneval") + _pool("tatoeba")
        return inputs, own, other, taken
    if source != "mtgeneval":
        raise ValueError(f"unknown source {source!r}")
    first, *rest = langs[1:]
    maps = [{e[PIVOT]: e[x] for e in reversed(_geneval(x))} for x in rest]  # first wins
    raw = [
        {**e, **{x: m[e[PIVOT]] for x, m in zip(rest, maps, strict=True)}}
        for e in _geneval(first)
        if all(e[PIVOT] in m for m in maps)
    ]
    entries = [e for e in _dedup(map(_item, raw), langs) if e]
    held = set(rng.sample(range(len(entries)), round(HELD_OUT * len(entries))))
    kept = [e for i, e in enumerate(entries) if i not in held]
    inputs, i = [], 0
    while i < len(kept):
        n = _size(rng)
        inputs.append((f"mtgeneval-{len(inputs):03d}", kept[i : i + n]))
        i += n
    own = [_item(entries[i]) for i in sorted(held)] + _pool("mtgeneval")
    taken = {_key(k, t) for _, doc in inputs for e in doc for k, t in e.items()}
    return inputs, own, _pool("ntrex") + _pool("tatoeba"), taken


def build(source: str, langs: list[str], preset: str, seed: int = 0) -> Corpus:
    """Comparable documents of ``source`` in ``langs`` (pivot ``en`` first) under ``preset``."""
    langs = list(langs)
    name = f"{source}/{'-'.join(langs)}"
    inputs, own, other, taken = _structure(source, langs, random.Random(f"{seed}:{name}"))
    p = PRESETS[preset]
    rng = random.Random(f"{seed}:{name}:{preset}")
    supply = _Supply(own, other, taken, rng) if p.unrelated else None
    corpus = Corpus(name, source, preset, langs, [])
    for doc_id, entries in inputs:
        corpus.doc_size[doc_id] = len(entries)
        sentences: dict[str, list[str]] = {}
        where: dict[str, dict[int, int]] = {}  # lang -> entry -> sentence index
        for lang in langs:
            drop = p.drop_pivot if lang == PIVOT else p.drop_other
            items = [(e[lang], k) for k, e in enumerate(entries) if rng.random() >= drop]
            for _ in range(p.unrelated):
                got = supply.take(lang) if supply else None
                if got is None:
                    break
                items.insert(rng.randint(0, len(items)), (got[0], None))
                corpus.unrelated[lang] += 1
                corpus.borrowed[lang] += not got[1]
            if p.window:
                keyed = sorted((i + rng.uniform(0, p.window), i) for i in range(len(items)))
                items = [items[i] for _, i in keyed]
            sentences[lang] = [text for text, _ in items]
            where[lang] = {k: i for i, (_, k) in enumerate(items) if k is not None}
        corpus.docs.append(Doc(doc_id, sentences))
        for k in range(len(entries)):
            if all(k in where[lang] for lang in langs):
                corpus.gold.add((doc_id, tuple(where[lang][k] for lang in langs)))
    return corpus


def build_all(source: str, preset: str, seed: int = 0) -> list[Corpus]:
    return [build(source, langs, preset, seed) for langs in SETS[source]]


#: Sources of :func:`extra_sentences`; ``grb`` is the two 1,000-line en-es samples (Europarl,
#: WMT-News) of grb-corpora.
EXTRA_SOURCES = ("ntrex", "mtgeneval", "tatoeba", "grb")


def extra_sentences(
    lang: str,
    exclude: set[str],
    limit: int | None = None,
    sources: Iterable[str] = EXTRA_SOURCES,
) -> list[str]:
    """``lang`` sentences of the shared ``sources`` (NTREX, both MT-GenEval gender sets of
    every pair, Tatoeba, grb-corpora's en-es samples), deduplicated, not in ``exclude``, in a
    fixed shuffled order (a prefix is a mix of sources). Note: masculine MT-GenEval lines are
    near-copies of feminine ones; NTREX lines of a document are about one story."""
    sources = set(sources)
    texts: list[str] = []
    if "ntrex" in sources and lang in NTREX:
        texts += [e[lang] for e in _ntrex()[1]]
    if "mtgeneval" in sources:
        for gender in ("feminine", "masculine"):
            texts += [
                e[lang] for x in GENEVAL_LANGS if lang in (PIVOT, x) for e in _geneval(x, gender)
            ]
    if "tatoeba" in sources:
        texts += [e[lang] for e in _tatoeba() if lang in e]
    if "grb" in sources and lang in ("en", "es"):
        for name in ("Europarl-v7", "WMT-News"):
            texts += list(_lines(DATA / "grb-corpora" / f"{name}.en-es.sample.01.{lang}.txt"))
    out = [t for t in dict.fromkeys(texts) if t and t not in exclude]
    random.Random(f"extra:{lang}").shuffle(out)
    return out[:limit]


# --------------------------------------------------------------------------- summary


def _summary(corpus: Corpus) -> str:
    sizes = list(corpus.doc_size.values())
    hist = "/".join(str(sum(lo <= n <= hi for n in sizes)) for lo, hi in HIST)
    per_lang = " ".join(
        f"{lang}:{corpus.n_lang(lang)}({corpus.orphan_share(lang):.0%})" for lang in corpus.langs
    )
    unrel = sum(corpus.unrelated.values())
    borrowed = sum(corpus.borrowed.values())
    return (
        f"{corpus.preset:<10} {'-'.join(corpus.langs):<12} {len(corpus.docs):>4} {hist:<17}"
        f" {len(corpus.gold):>5}  {unrel:>5} {borrowed:>5}  {per_lang}"
    )


def main(seed: int = 0) -> None:
    t0 = time.perf_counter()
    head = "docs sizes 1/2/3-4/5-10/11-30/31+  gold  unrel  from other src  sentences (orphans)"
    for source in SETS:
        print(f"\n== {source} (seed {seed}) ==\n{'preset':<10} {'set':<12} {head}")
        for preset in PRESETS:
            for corpus in build_all(source, preset, seed):
                print(_summary(corpus))
    print(f"\n{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
