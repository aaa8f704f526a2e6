"""Gender from pronouns and agreement (``occbio.gender.pronouns`` + ``occbio.gender.agreement``)
against true gender, per language: right / unknown / wrong.

What is measured: for each document, :func:`~occbio.gender.pronouns.infer_gender` with
agreement (the default) and without it (pronouns only, GeBioToolkit's method), against the
person's true gender. ``right``: decided and true; ``unknown``: not decided; ``wrong``: decided
and false. A wrong decision is worse than an unknown.

Sets (see benchmarks/data/agreement_gender.json for the page lists and their attribution):

* ``gebio``: GeBioCorpus v2 (PLXIV/Gebiotoolkit @33244f1, ``gebiocorpus_v2/{he,she}.1000.doc.
  {es,ca,en}``; CC BY-NC 4.0, so not copied here: pass ``--gebio DIR`` or put the six files in
  ``../shared/data/gebiocorpus-v2/``): real sentences of es/ca/en Wikipedia biographies of 596
  people, gold gender from the corpus (Wikidata P21, decided by the corpus makers). A document
  is its segments in file order, joined as one paragraph, the docid as title: *not* the article
  lead (segments are mined parallel sentences from anywhere in the article, the lead
  sentence among them for about half the people), so this measures the rules off their home
  ground. Split by person: ``dev`` (sha1(docid) % 3 == 0, plus the 9 people whose text was seen
  before the split) and ``report`` (the rest).
* ``mt-geneval``: MT-GenEval dev, counterfactual sentences (../shared/data/mt-geneval-dev;
  CC BY-SA 3.0): sentences of English Wikipedia biographies with professional translations
  into es, fr, it and pt, a feminine and a masculine version of each (one of them the
  counterfactual); gold = the version. Each sentence alone is a document (no title). Split
  by line: ``dev`` lines 1-600, ``report`` lines 601-1200 of each file.
* ``en``: the control, the 30 English biographies of ``pronoun_gold.json`` (enwiki dump and
  wtf_wikipedia wikitext, ../shared/data): agreement has no English rules, so both columns
  must be equal (pronouns only).

Protocol: the rules were written looking at ``dev`` documents only (``--split dev --show``
prints their errors and unknowns); the ``report`` figures were printed once, after the rules
were frozen, and are what docs/gender.md reports. ``--show`` refuses ``report``.

Run::

    python benchmarks/agreement_gender.py                    # both splits, the table
    python benchmarks/agreement_gender.py --split dev --show wrong --lang es
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from occbio.extract.mediawiki import normalise_title  # noqa: E402
from occbio.extract.wikipedia_dump import DumpError, iter_pages  # noqa: E402
from occbio.extract.wikitext import wikitext_to_text  # noqa: E402
from occbio.gender.categories import FEMALE, MALE, UNKNOWN  # noqa: E402
from occbio.gender.pronouns import PronounEvidence, combine, infer_gender  # noqa: E402
from occbio.io.gebio_reader import read_gebio_xml  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
SETS = HERE / "data" / "agreement_gender.json"
GEBIO = SHARED / "gebiocorpus-v2"
GENEVAL = SHARED / "mt-geneval-dev" / "sentences-dev"
GOLD = HERE / "pronoun_gold.json"
GEBIO_LANGS = ("es", "ca", "en")
GENEVAL_LANGS = ("es", "fr", "it", "pt")
GENEVAL_DEV = 600


@dataclass(frozen=True)
class Doc:
    source: str
    lang: str
    split: str
    title: str
    gender: str
    text: str


@dataclass
class Score:
    right: int = 0
    unknown: int = 0
    wrong: int = 0
    shown: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.right + self.unknown + self.wrong


# ------------------------------------------------------------------------------------------
# Loading


def gebio_split(docid: str, seen: set[str]) -> str:
    if docid in seen:
        return "dev"
    return "dev" if int(hashlib.sha1(docid.encode()).hexdigest(), 16) % 3 == 0 else "report"


def gebio_docs(directory: Path, sets: dict) -> Iterator[Doc]:
    seen = set(sets["gebio"]["seen_before_split"])
    for lang in GEBIO_LANGS:
        people: dict[str, tuple[str, list[str]]] = {}
        for name in ("he", "she"):
            path = directory / f"{name}.1000.doc.{lang}"
            for d in read_gebio_xml(path):
                gender = {"female": FEMALE, "male": MALE}[d.gender.lower()]
                _, segs = people.setdefault(d.docid, (gender, []))
                segs.extend(text for _, text in d.segments)
        for docid, (gender, segs) in people.items():
            text = " ".join(s.strip() for s in segs)
            yield Doc("gebio", lang, gebio_split(docid, seen), docid, gender, text)


def geneval_docs() -> Iterator[Doc]:
    for lang in GENEVAL_LANGS:
        for version, gender in (("feminine", FEMALE), ("masculine", MALE)):
            path = GENEVAL / f"geneval-sentences-{version}-dev.en_{lang}.{lang}"
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                split = "dev" if i < GENEVAL_DEV else "report"
                yield Doc("mt-geneval", lang, split, f"{version} #{i + 1}", gender, line)


def english_docs() -> Iterator[Doc]:
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    section = gold["wikitext"]
    for p in section["people"]:
        if p["lang"] == "en":
            wikitext = (SHARED / section["dir"] / p["file"]).read_text(encoding="utf-8")
            title = p["file"].removesuffix(".txt")
            yield Doc("en", "en", "report", title, p["gender"], wikitext_to_text(wikitext))
    section = gold["enwiki_dump"]
    truth = {normalise_title(p["title"]): p["gender"] for p in section["people"]}
    try:
        for page in iter_pages(SHARED / section["file"], titles=truth):
            text = wikitext_to_text(page.wikitext)
            yield Doc("en", "en", "report", page.title, truth[page.title], text)
    except DumpError:
        pass


# ------------------------------------------------------------------------------------------
# Scoring


def _tally(s: Score, truth: str, ev: PronounEvidence) -> str:
    if ev.category == UNKNOWN:
        s.unknown += 1
        return "unknown"
    if ev.category == truth:
        s.right += 1
        return "right"
    s.wrong += 1
    return "wrong"


def score(docs: list[Doc], show: str | None) -> dict[tuple[str, str, str, str], Score]:
    """Per (set, lang, split, method); ``gebio``'s ``es+ca+en`` row is each person's three
    documents decided together (:func:`~occbio.gender.pronouns.combine`)."""
    out: dict[tuple[str, str, str, str], Score] = defaultdict(Score)
    people: dict[tuple[str, str, str, str], list[PronounEvidence]] = defaultdict(list)
    for doc in docs:
        if doc.gender not in (FEMALE, MALE):
            continue
        for method, agreement in (("pronouns", False), ("+agreement", True)):
            ev = infer_gender(doc.text, doc.lang, title=doc.title, agreement=agreement)
            if doc.source == "gebio":
                people[(doc.split, doc.title, doc.gender, method)].append(ev)
            s = out[(doc.source, doc.lang, doc.split, method)]
            if ev.category == UNKNOWN:
                s.unknown += 1
                kind = "unknown"
            elif ev.category == doc.gender:
                s.right += 1
                kind = "right"
            else:
                s.wrong += 1
                kind = "wrong"
            if agreement and show in (kind, "all") and doc.split == "dev":
                s.shown.append(
                    f"[{kind}] {doc.title} ({doc.gender}; {ev.reason} {ev.female}f/{ev.male}m "
                    f"agr {ev.agreement_female}f/{ev.agreement_male}m {list(ev.cues)})\n"
                    f"    {doc.text[:300]}"
                )
    for (split, _, truth, method), evidence in people.items():
        if len(evidence) == len(GEBIO_LANGS):
            _tally(out[("gebio", "+".join(GEBIO_LANGS), split, method)], truth, combine(evidence))
    return out


def print_table(scores: dict[tuple[str, str, str, str], Score]) -> None:
    print(
        f"{'set':11} {'lang':8} {'split':6} {'n':>5} | {'pronouns only':^20} | "
        f"{'pronouns + agreement':^20}"
    )
    print(f"{'':33} | {'right unk wrong':^20} | {'right unk wrong':^20}")
    keys = sorted({k[:3] for k in scores}, key=lambda k: (k[0], k[1], k[2] != "dev"))
    for source, lang, split in keys:
        a = scores[(source, lang, split, "pronouns")]
        b = scores[(source, lang, split, "+agreement")]
        cells = [f"{s.right:5} {s.unknown:5} {s.wrong:5}   " for s in (a, b)]
        print(f"{source:11} {lang:8} {split:6} {a.n:5} | {cells[0]:20} | {cells[1]:20}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gebio", type=Path, default=GEBIO, help="GeBioCorpus v2 files' folder")
    parser.add_argument("--split", choices=["dev", "report", "both"], default="both")
    parser.add_argument("--lang", help="only this language")
    parser.add_argument("--source", choices=["gebio", "mt-geneval", "en"])
    parser.add_argument(
        "--show", choices=["wrong", "unknown", "right", "all"], help="print dev documents"
    )
    args = parser.parse_args(argv)
    if args.show and args.split != "dev":
        parser.error("--show prints dev documents only: add --split dev")
    sets = json.loads(SETS.read_text(encoding="utf-8"))
    docs: list[Doc] = []
    if args.source in (None, "gebio"):
        if (args.gebio / "she.1000.doc.es").is_file():
            docs += gebio_docs(args.gebio, sets)
        else:
            print(f"(GeBioCorpus v2 not found in {args.gebio}: gebio rows skipped)")
    if args.source in (None, "mt-geneval"):
        if GENEVAL.is_dir():
            docs += geneval_docs()
        else:
            print(f"({GENEVAL} not found: mt-geneval rows skipped)")
    if args.source in (None, "en") and (SHARED / "wikitext").is_dir():
        docs += english_docs()
    docs = [
        d
        for d in docs
        if (args.split == "both" or d.split == args.split)
        and (args.lang is None or d.lang == args.lang)
    ]
    scores = score(docs, args.show)
    print_table(scores)
    if args.show:
        for key in sorted(scores):
            for line in scores[key].shown:
                print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
