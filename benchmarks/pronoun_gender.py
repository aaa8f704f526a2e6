"""Pronoun-count gender inference (``occbio.gender.pronouns``) against true gender.

What is measured: for each biography, :func:`~occbio.gender.pronouns.infer_gender` on the
article's prose (wikitext through :func:`~occbio.extract.wikitext.wikitext_to_text`) is
compared with the person's true gender. ``coverage`` = decided / n (decided: female or male),
``accuracy`` = correct / decided. A person whose true gender is neither female nor male
(the sample's non-binary people) is right only when left ``unknown``: any decision counts as an
error. People without a true gender (the sample's ``somevalue`` artist) are left out.

Biographies (one document per person and language):

* ``wikitext``: the single-person biographies among ../shared/data/wikitext (en, de, af);
* ``enwiki``: the 11 full biographies of the real enwiki dump excerpt;
* ``ukwiki``: the 37 biographies of the (truncated) real ukwiki dump excerpt;
  true gender for these three in ``pronoun_gold.json`` next to this file, each with a note of
  the evidence (a gendered noun, patronymic, relation ... -- not the pronouns measured);
* ``sample``: occbio's bundled sample (fictional people, en/es/ca/fr dumps), true gender from
  the P21 of ``wikidata-sample.json.bz2``; ``sample`` / ``all`` is
  :func:`~occbio.gender.pronouns.combine` over each person's articles.

Sentences (tables per language, on text not written for occbio):

* ``mt-geneval``: MT-GenEval dev (real English Wikipedia biography sentences; feminine and
  masculine sets of 1,200 sentences each, with human translations). Two figures per language:
  ``sentence`` = each sentence alone with ``min_count=1`` (most sentences hold one pronoun or
  none, so this is the precision of the table itself); ``block`` = 10 consecutive sentences of
  one set joined into a pseudo-article (about several people of the same gender), decided with
  the setting under test. English: the English side of every pair, duplicates removed.
* ``tatoeba``: Tatoeba test pairs (XXX-eng): sentences whose English side decides (min_count 1)
  serve as gold; the other side is decided with min_count 1. Agreement, not truth: Tatoeba
  translations are sometimes loose (``She made fun of her husband`` / ``Wyśmiała jego męża``).

Run::

    .venv/bin/python benchmarks/pronoun_gender.py             # tables at the defaults + sweep
    .venv/bin/python benchmarks/pronoun_gender.py --settings 3:2,5:3 --no-sentences
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from occbio.extract.mediawiki import normalise_title  # noqa: E402
from occbio.extract.wikidata_dump import iter_humans  # noqa: E402
from occbio.extract.wikipedia_dump import DumpError, Page, iter_pages  # noqa: E402
from occbio.extract.wikitext import wikitext_to_text  # noqa: E402
from occbio.gender.categories import FEMALE, MALE, UNKNOWN  # noqa: E402
from occbio.gender.pronouns import (  # noqa: E402
    PronounEvidence,
    combine,
    count_pronouns,
    infer_gender,
)

SHARED = REPO.parent / "shared" / "data"
GOLD = HERE / "pronoun_gold.json"
SAMPLE = REPO / "occbio" / "data" / "sample"
SAMPLE_LANGS = ("en", "es", "ca", "fr")
GENEVAL = SHARED / "mt-geneval-dev" / "sentences-dev"
GENEVAL_LANGS = ("en", "es", "fr", "de", "it", "pt", "ru", "ar", "hi")
GENEVAL_PAIRS = ("ar", "de", "es", "fr", "hi", "it", "pt", "ru")
GENEVAL_BLOCK = 10
TATOEBA = SHARED / "tatoeba"
TATOEBA_LANGS = {
    "cat": "ca",
    "spa": "es",
    "fra": "fr",
    "deu": "de",
    "ita": "it",
    "por": "pt",
    "nld": "nl",
    "pol": "pl",
    "rus": "ru",
    "glg": "gl",
    "tur": "tr",
    "fin": "fi",
    "hin": "hi",
}
DEFAULT = (3, 2.0)
SETTINGS = [
    (1, 1.5), (1, 2.0), (2, 1.5), (2, 2.0), (2, 3.0), (3, 1.5), (3, 2.0), (3, 3.0), (5, 2.0),
    (5, 3.0), (10, 2.0),
]  # fmt: skip


@dataclass(frozen=True)
class Doc:
    source: str
    lang: str
    title: str
    person: str  # groups one person's articles (combine)
    gender: str  # the truth
    text: str


# ------------------------------------------------------------------------------------------
# Loading


def _pages(path: Path, titles: Iterable[str]) -> Iterator[Page]:
    try:
        yield from iter_pages(path, titles=titles)
    except DumpError:  # a truncated excerpt: the complete pages were yielded
        if "truncated" not in path.name:
            raise


def gold_docs(gold: dict) -> list[Doc]:
    docs: list[Doc] = []
    section = gold["wikitext"]
    for p in section["people"]:
        wikitext = (SHARED / section["dir"] / p["file"]).read_text(encoding="utf-8")
        title = p["file"].removesuffix(".txt")
        docs.append(
            Doc("wikitext", p["lang"], title, title, p["gender"], wikitext_to_text(wikitext))
        )
    for name in ("enwiki_dump", "ukwiki_dump"):
        section = gold[name]
        truth = {normalise_title(p["title"]): p["gender"] for p in section["people"]}
        source = name.removesuffix("_dump")
        found = set()
        for page in _pages(SHARED / section["file"], truth):
            found.add(page.title)
            text = wikitext_to_text(page.wikitext)
            docs.append(
                Doc(source, section["lang"], page.title, page.title, truth[page.title], text)
            )
        missing = set(truth) - found
        if missing:
            raise SystemExit(f"{section['file']}: gold titles not found: {sorted(missing)}")
    return docs


def sample_docs() -> tuple[list[Doc], int]:
    people = list(iter_humans(SAMPLE / "wikidata-sample.json.bz2", SAMPLE_LANGS, min_langs=1))
    skipped = sum(1 for e in people if e.gender == UNKNOWN)
    docs: list[Doc] = []
    for lang in SAMPLE_LANGS:
        by_title = {
            normalise_title(e.titles[lang]): e
            for e in people
            if lang in e.titles and e.gender != UNKNOWN
        }
        path = SAMPLE / f"{lang}wiki-sample-pages-articles.xml.bz2"
        for page in iter_pages(path, titles=by_title):
            person = by_title[page.title]
            text = wikitext_to_text(page.wikitext)
            docs.append(Doc("sample", lang, page.title, person.qid, person.gender, text))
    return docs, skipped


# ------------------------------------------------------------------------------------------
# Scoring


@dataclass
class Score:
    n: int = 0
    decided: int = 0
    correct: int = 0
    errors: list[str] | None = None

    def add(self, truth: str, ev: PronounEvidence, title: str) -> None:
        self.n += 1
        if ev.category == UNKNOWN:
            return
        self.decided += 1
        if ev.category == truth:
            self.correct += 1
        else:
            if self.errors is None:
                self.errors = []
            self.errors.append(f"{title} ({truth}, said {ev.category} {ev.female}f/{ev.male}m)")

    @property
    def coverage(self) -> float:
        return self.decided / self.n if self.n else 0.0

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.decided if self.decided else None


def score_docs(docs: Sequence[Doc], min_count: int, margin: float) -> dict[tuple[str, str], Score]:
    scores: dict[tuple[str, str], Score] = defaultdict(Score)
    by_person: dict[tuple[str, str], list[tuple[Doc, PronounEvidence]]] = defaultdict(list)
    for doc in docs:
        ev = infer_gender(doc.text, doc.lang, min_count=min_count, margin=margin)
        scores[(doc.source, doc.lang)].add(doc.gender, ev, doc.title)
        by_person[(doc.source, doc.person)].append((doc, ev))
    for (source, _), items in by_person.items():
        if len(items) < 2 and source != "sample":
            continue
        ev = combine([e for _, e in items], min_count=min_count, margin=margin)
        doc = items[0][0]
        scores[(source, "all")].add(doc.gender, ev, f"{doc.person} {doc.title}")
    return scores


def geneval_lines(lang: str, gender_set: str) -> list[str]:
    if lang != "en":
        return (
            (GENEVAL / f"geneval-sentences-{gender_set}-dev.en_{lang}.{lang}")
            .read_text(encoding="utf-8")
            .splitlines()
        )
    seen: dict[str, None] = {}
    for pair in GENEVAL_PAIRS:
        path = GENEVAL / f"geneval-sentences-{gender_set}-dev.en_{pair}.en"
        seen.update(dict.fromkeys(path.read_text(encoding="utf-8").splitlines()))
    return list(seen)


def score_geneval(lang: str, min_count: int, margin: float) -> tuple[Score, Score]:
    sentence, block = Score(), Score()
    for gender_set, truth in (("feminine", FEMALE), ("masculine", MALE)):
        lines = geneval_lines(lang, gender_set)
        for i, line in enumerate(lines):
            sentence.add(truth, infer_gender(line, lang, min_count=1, margin=margin), f"#{i}")
        for i in range(0, len(lines) - GENEVAL_BLOCK + 1, GENEVAL_BLOCK):
            text = " ".join(lines[i : i + GENEVAL_BLOCK])
            ev = infer_gender(text, lang, min_count=min_count, margin=margin)
            block.add(truth, ev, f"{gender_set} {i + 1}-{i + GENEVAL_BLOCK}")
    return sentence, block


def score_tatoeba(code: str, lang: str, margin: float) -> Score:
    xx = (TATOEBA / f"tatoeba.{code}-eng.{code}").read_text(encoding="utf-8").splitlines()
    en = (TATOEBA / f"tatoeba.{code}-eng.eng").read_text(encoding="utf-8").splitlines()
    score = Score()
    for other, english in zip(xx, en, strict=True):
        truth = infer_gender(english, "en", min_count=1, margin=margin).category
        if truth != UNKNOWN:
            score.add(truth, infer_gender(other, lang, min_count=1, margin=margin), other)
    return score


# ------------------------------------------------------------------------------------------
# Printing


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def print_table(scores: dict[tuple[str, str], Score], show_errors: bool) -> None:
    print(
        f"{'source':9} {'lang':5} {'n':>4} {'decided':>7} {'coverage':>8} {'accuracy':>8}  errors"
    )
    order = ["wikitext", "enwiki", "ukwiki", "sample"]
    keys = sorted(scores, key=lambda k: (order.index(k[0]), k[1] == "all", k[1]))
    for key in keys:
        s = scores[key]
        errors = "; ".join(s.errors or []) if show_errors else str(len(s.errors or []))
        print(
            f"{key[0]:9} {key[1]:5} {s.n:4d} {s.decided:7d} {_pct(s.coverage):>8} "
            f"{_pct(s.accuracy):>8}  {errors}"
        )
    total = Score()
    for key in keys:
        if key[1] != "all":
            s = scores[key]
            total.n += s.n
            total.decided += s.decided
            total.correct += s.correct
    print(
        f"{'articles':9} {'*':5} {total.n:4d} {total.decided:7d} {_pct(total.coverage):>8} "
        f"{_pct(total.accuracy):>8}"
    )


def pooled(scores: dict[tuple[str, str], Score], keys: Iterable[tuple[str, str]]) -> Score:
    out = Score()
    for key in keys:
        s = scores.get(key)
        if s is not None:
            out.n += s.n
            out.decided += s.decided
            out.correct += s.correct
            out.errors = (out.errors or []) + (s.errors or [])
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--settings",
        help="min_count:margin,... to sweep (default: "
        + ",".join(f"{c}:{m:g}" for c, m in SETTINGS)
        + ")",
    )
    ap.add_argument("--errors", action="store_true", help="list every error by title")
    ap.add_argument("--no-sentences", action="store_true", help="skip MT-GenEval and Tatoeba")
    args = ap.parse_args(argv)
    settings = SETTINGS
    if args.settings:
        settings = [(int(c), float(m)) for c, m in (s.split(":") for s in args.settings.split(","))]
    if not SHARED.is_dir():
        raise SystemExit(f"{SHARED} is absent: this benchmark needs ../shared/data")

    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    docs = gold_docs(gold)
    sample, skipped = sample_docs()
    docs += sample
    min_count, margin = DEFAULT

    print(f"== Biographies: min_count={min_count}, margin={margin:g} (the defaults)")
    print(
        "   coverage = decided/n, accuracy = correct/decided; 'all' = combine() over each "
        "person's languages"
    )
    print(f"   (sample: {skipped} person without a true gender left out; non-binary people count")
    print("   as right only when left unknown)")
    scores = score_docs(docs, min_count, margin)
    print_table(scores, show_errors=True)

    print("\n== Closest calls: the articles whose smaller count is at least a fifth of the larger")
    print("   (where the margin matters) and those with 1-3 pronouns (where min_count matters)")
    for doc in docs:
        female, male = count_pronouns(doc.text, doc.lang)
        low, high = sorted((female, male))
        if high and (low / high >= 0.2 or high <= 3):
            print(
                f"   {doc.source:8} {doc.lang:3} {doc.title:45} {doc.gender:10} {female}f/{male}m"
            )

    print("\n== Settings sweep (biographies; 'real' = wikitext + enwiki + ukwiki articles)")
    groups = {
        "real": [k for k in scores if k[0] != "sample" and k[1] != "all"],
        "sample-en": [("sample", "en")],
        "sample-fr": [("sample", "fr")],
        "sample-all": [("sample", "all")],
    }
    header = f"{'min:margin':10}" + "".join(f" {g + ' cov/acc':>22}" for g in groups)
    if not args.no_sentences:
        header += f" {'geneval blocks cov/acc':>23}"
    print(header + "  errors (real)")
    for c, m in settings:
        sc = score_docs(docs, c, m)
        cells = []
        for keys in groups.values():
            p = pooled(sc, keys)
            cells.append(f"{_pct(p.coverage)}/{_pct(p.accuracy)} n={p.n:<3d}")
        line = f"{c}:{m:<8g}" + "".join(f" {cell:>22}" for cell in cells)
        if not args.no_sentences:
            blocks = Score()
            for lang in GENEVAL_LANGS:
                if lang in ("ar", "hi"):
                    continue
                b = score_geneval(lang, c, m)[1]
                blocks.n += b.n
                blocks.decided += b.decided
                blocks.correct += b.correct
            line += f" {_pct(blocks.coverage)}/{_pct(blocks.accuracy)}".rjust(24)
        real = pooled(sc, groups["real"])
        print(line + "  " + "; ".join(e.split(" (")[0] for e in real.errors or []))

    if args.no_sentences:
        return
    print(
        f"\n== MT-GenEval dev: 'sentence' = each sentence alone (min_count=1, margin={margin:g}); "
        f"'block' = {GENEVAL_BLOCK} sentences of one set (min_count={min_count}, margin={margin:g})"
    )
    print(
        f"{'lang':5} {'sent n':>6} {'coverage':>8} {'accuracy':>8}   {'block n':>7} "
        f"{'coverage':>8} {'accuracy':>8}  block errors"
    )
    for lang in GENEVAL_LANGS:
        sent, block = score_geneval(lang, min_count, margin)
        reason = infer_gender("", lang).reason
        note = f"  ({reason})" if reason in ("no_table", "no_gendered_pronouns") else ""
        print(
            f"{lang:5} {sent.n:6d} {_pct(sent.coverage):>8} {_pct(sent.accuracy):>8}   "
            f"{block.n:7d} {_pct(block.coverage):>8} {_pct(block.accuracy):>8}  "
            f"{'; '.join(block.errors or []) or '-'}{note}"
        )

    print("\n== Tatoeba: sentences whose English side decides (min_count=1); the other side,")
    print("   min_count=1: agreement with the English side")
    print(f"{'lang':5} {'n':>4} {'coverage':>8} {'agreement':>9}  disagreements")
    for code, lang in TATOEBA_LANGS.items():
        s = score_tatoeba(code, lang, margin)
        reason = infer_gender("", lang).reason
        note = f"  ({reason})" if reason in ("no_table", "no_gendered_pronouns") else ""
        shown = "; ".join((s.errors or [])[:3]) if args.errors else str(len(s.errors or []))
        print(f"{lang:5} {s.n:4d} {_pct(s.coverage):>8} {_pct(s.accuracy):>9}  {shown}{note}")


if __name__ == "__main__":
    main()
