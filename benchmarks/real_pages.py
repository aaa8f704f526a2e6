"""occbio's wikitext reading on real pages per language, against WikiExtractor on the same pages.

Per language: pages; sentences kept by occbio (the production path of
``occbio.stages.text_workers._process_page``: ``wikitext_to_text(..., keep_holes=True)`` with the
revision's date, then ``clean_article``); sentences kept from WikiExtractor's text of the same
pages (``wikiextractor.extract.Extractor.clean_text``, then the same ``clean_article``: occbio's
sentence splitter and the same length, final-punctuation, dangling-word, duplicate and language
filters, so the counts compare like with like); the characters of the kept sentences, occbio /
WikiExtractor; sentences with a hole by an INDEPENDENT check (not occbio's hole marker: empty
brackets, a space before a comma or full stop, doubled punctuation, a sentence opening in
lowercase or with punctuation, an article or preposition right before punctuation, an article
right before a preposition, "between ... and" with nothing between, a unit's exponent standing
apart ("892 km 2"), markup or an HTML entity left); the sentences occbio dropped
for an unrendered template (top 10 template names) and for a dangling word; and pages/s. Each
occbio suspect is printed so that a human can judge it; the target is 0. For itwiki: how many
pages use {{Bio}}, and how much of the lead goes when {{Bio}} is not rendered.

The pages: ``benchmarks/data/real_pages/LANG/*.wiki`` (MANIFEST.json gives each one's title,
revision date and source; SOURCES.md the same for people) and, for English, the real enwiki
excerpt and wtf_wikipedia's wikitext pages in ``../shared/data`` (nine of which are dewiki's:
read as German), skipped when absent.

    python benchmarks/real_pages.py [--lang es fr ...] [--show] [--show-wikiextractor]

``--show`` prints every sentence occbio dropped for an unrendered template or a dangling word;
``--show-wikiextractor`` the suspect sentences of WikiExtractor too. Needs ``pip install
wikiextractor`` (3.1.0 on PyPI); without it mwparserfromhell's ``strip_code()`` is the reference
instead, and the columns say so.
"""

from __future__ import annotations

import argparse
import bz2
import datetime as dt
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import unescape

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import mwparserfromhell  # noqa: E402

from occbio.config import CleanConfig  # noqa: E402
from occbio.extract.clean import (  # noqa: E402
    HOLE_KEY,
    LanguageIdentifier,
    clean_article,
    dangling_word,
)
from occbio.extract.wikipedia_dump import iter_pages  # noqa: E402
from occbio.extract.wikitext import wikitext_to_text  # noqa: E402
from occbio.extract.wikitext_templates import HOLE_RE, strip_holes  # noqa: E402
from occbio.records import Article  # noqa: E402

DATA = REPO / "benchmarks/data/real_pages"
#: The held-out set: pages nobody looked at while the renderer and filters were chosen. Read it
#: once per change (``--set report``), scores only.
REPORT = REPO / "benchmarks/data/real_pages_report"
SHARED = REPO.parent / "shared/data"
EN_DUMP = (
    SHARED / "wikipedia-dumps/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)
SHARED_WIKITEXT = SHARED / "wikitext"
LANGS = ("en", "es", "fr", "it", "ca", "de", "pt")
#: The shared wikitext pages (wtf_wikipedia's tests/cache) that are not enwiki's: dewiki's are
#: read as German; Afrikaans, Nynorsk and a bare redirect are left out.
_SHARED_LANG = {
    **dict.fromkeys(
        "BBDO Bazooka HMS-Irresistible Keilwelle Liste-der-argentinischen-Botschafter-in-Chile "
        "Maurische-Netzwuhle Mozilla-Firefox Sara-C.-Bisel Wendy-Mogel".split(),
        "de",
    ),
    **dict.fromkeys("Mark-Behr africaans statoil redirect".split(), ""),
}


# ----- the pages ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Page:
    lang: str
    title: str
    wikitext: str
    today: dt.date | None  # the revision's date: an age "until today" counts to it


def _date(timestamp: str) -> dt.date | None:
    return dt.date.fromisoformat(timestamp[:10]) if timestamp else None


def _bundled_pages(folder: Path = DATA) -> Iterator[Page]:
    manifest = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))
    if isinstance(manifest, dict):  # {"LANG/FILE.wiki": {...}}
        manifest = [{"file": name, **entry} for name, entry in manifest.items()]
    for entry in manifest:
        text = (folder / entry["file"]).read_text(encoding="utf-8")
        stamp = entry.get("revision_timestamp", "")
        yield Page(entry["lang"], entry["title"], text, _date(stamp))


_TIMESTAMP_RE = re.compile(r"<title>([^<]*)</title>.*?<timestamp>([^<]*)</timestamp>", re.DOTALL)


def _shared_pages() -> Iterator[Page]:
    """The enwiki excerpt (each page with its revision date) and the loose wikitext pages."""
    if EN_DUMP.exists():
        xml = bz2.decompress(EN_DUMP.read_bytes()).decode("utf-8")
        dates = {title: _date(stamp) for title, stamp in _TIMESTAMP_RE.findall(xml)}
        for page in iter_pages(EN_DUMP):
            yield Page("en", page.title, page.wikitext, dates.get(page.title))
    if SHARED_WIKITEXT.is_dir():
        for path in sorted(SHARED_WIKITEXT.glob("*.txt")):
            lang = _SHARED_LANG.get(path.stem, "en")
            if not lang:
                continue
            text = path.read_text(encoding="utf-8")
            if "&lt;ref" in text:  # saved from an XML dump still escaped (anarchism.txt)
                text = unescape(text, {"&quot;": '"', "&apos;": "'"})
            yield Page(lang, path.stem, text, None)


def load_pages(langs: tuple[str, ...], which: str = "dev") -> dict[str, list[Page]]:
    """``dev``: the pages the renderer's list and the filters were chosen on (the bundled
    pages and ../shared/data); ``report``: the held-out pages."""
    pages: dict[str, list[Page]] = {lang: [] for lang in langs}
    if which == "report":
        for page in _bundled_pages(REPORT):
            if page.lang in pages:
                pages[page.lang].append(page)
        return pages
    for page in _bundled_pages():
        if page.lang in pages:
            pages[page.lang].append(page)
    for page in _shared_pages():
        if page.lang in pages:
            pages[page.lang].append(page)
    return pages


# ----- the two extractors -------------------------------------------------------------------


def occbio_text(page: Page) -> str:
    """The production path's text: holes kept for the cleaning (text_workers._process_page)."""
    return wikitext_to_text(page.wikitext, page.lang, today=page.today, keep_holes=True)


def _wikiextractor() -> Callable[[Page], str] | None:
    try:
        from wikiextractor.extract import Extractor
    except ImportError:
        return None

    def extract(page: Page) -> str:
        extractor = Extractor(0, 0, "", page.title, [])
        return "\n\n".join(extractor.clean_text(page.wikitext))

    return extract


def strip_code_text(page: Page) -> str:
    """mwparserfromhell's strip_code(): the fallback reference when WikiExtractor is missing."""
    return mwparserfromhell.parse(page.wikitext).strip_code(normalize=True, collapse=True)


# ----- an independent check for holes -------------------------------------------------------

#: Per language: words that never end a clause, so never stand right before punctuation
#: (articles and, in the Romance languages, prepositions, which cannot be stranded there; not a
#: capital, which is a letter or an initial: "Stephen A. Douglas"; not English "a", a letter and
#: "a.m.", nor the prepositions English strands and German uses as verb particles).
_NEVER_FINAL = {
    "en": "the|an",
    "es": "el|la|los|las|un|una|del|al|de|en|a|con|por|para|desde|hasta|sobre|entre",
    "fr": "le|la|les|un|une|du|des|au|aux|de|à|en|dans|sur|par|pour|avec|entre",
    "ca": "el|la|els|les|un|una|del|dels|al|als|pel|pels|de|a|en|amb|per|des|fins|sobre|entre",
    "it": "il|lo|la|gli|le|un|uno|una|del|dello|della|dei|degli|delle|al|allo|alla|ai|agli|alle"
    "|di|da|in|a|con|su|per|tra|fra",
    "pt": "o|os|as|um|uma|do|da|dos|das|ao|aos|no|na|nos|nas|de|em|com|por|para|desde|até|sobre",
    # "ein" is left out: the particle of separable verbs ("setzte sie ... ein.") ends clauses
    "de": "der|die|das|dem|den|des|eine|einem|einen|einer|eines|am|im|zum|zur|vom|von",
}
#: Per language: an article right before a preposition, where a date or a name went missing
#: ("né le à Moulins", "Nació el en Londres"). Only articles that are never a pronoun there
#: ("una de", "los de", "al de la UE" read well) and not German, whose extended attributes put
#: any article before any preposition ("die in Berlin ansässigen").
_ARTICLE_PREPOSITION = {
    "en": (r"the|an", r"of|in|at|on|to|from|with|by|for"),
    "es": (r"el|los|del|al", r"en|a|con|por|para|desde|hasta"),
    "fr": (r"le|la|les|du|au|aux|un|une", r"à|au|aux|en|dans|sur|par|pour|avec"),
    "ca": (r"el|els|del|dels|al|als", r"a|en|amb|per|fins"),
    "it": (r"il|lo|gli|del|dello|dei|degli|al|allo|ai|agli", r"a|in|con|per|da|su|tra|fra"),
    "pt": (r"o|os|do|dos|ao|aos|no|nos", r"em|com|por|para|desde|até"),
}
_BETWEEN = {
    "en": r"between\s+and",
    "es": r"entre\s+y",
    "fr": r"entre\s+et",
    "ca": r"entre\s+i",
    "it": r"tra\s+e|fra\s+e",
    "pt": r"entre\s+e",
    "de": r"zwischen\s+und",
}
#: Abbreviations that put a one-letter word before a full stop: "a. C.", "d. C.", "a.C.".
_ABBREVIATION_RE = re.compile(r"\b[ad]\.\s?C\.")
_GENERIC_CHECKS = (
    ("empty brackets", re.compile(r"[(\[]\s*[,;:–—-]*\s*[)\]]")),
    ("space before , or .", re.compile(r"\s[,.](?=\s|$)")),
    (
        "doubled punctuation",
        re.compile(r"[,;:]\s*[,.;:]|\(\s*[,;.:]|[,;:]\s*\)|(?<![.])\.\s*\.(?![.])"),
    ),
    ("opens with punctuation", re.compile(r"^[,.;:!?)\]–—-]")),
    ("opens in lowercase", re.compile(r"^[a-zà-öø-ÿ]")),
    ("unit exponent apart", re.compile(r"\b(?:[kcdm]?m|mi|ft|in)\s[23]\b(?![.,]\d)")),
    ("markup left", re.compile(r"&(?:[a-z]+|#\d+);|\[\[|\]\]|\{\{|\}\}|''")),
)


def _language_checks(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    lang = lang if lang in _NEVER_FINAL else "en"
    checks = [
        (
            "word before punctuation",
            re.compile(rf"(?<![\w'’.-])(?:{_NEVER_FINAL[lang]})(?=\s*[,.;:!?)](?!\d))"),
        ),
        ("nothing between", re.compile(rf"(?i)\b(?:{_BETWEEN[lang]})\b")),
    ]
    if lang in _ARTICLE_PREPOSITION:
        articles, prepositions = _ARTICLE_PREPOSITION[lang]
        checks.append(
            (
                "article before preposition",
                re.compile(rf"(?<![\w'’-])(?:{articles})\s+(?:{prepositions})(?![\w'’-])"),
            )
        )
    return checks


def suspects(sentence: str, lang: str) -> list[str]:
    """Why ``sentence`` looks like it has a hole, by markers independent of occbio's own."""
    text = _ABBREVIATION_RE.sub("aC", sentence)
    found = [name for name, pattern in _GENERIC_CHECKS if pattern.search(text)]
    found += [name for name, pattern in _language_checks(lang) if pattern.search(text)]
    return found


# ----- one language -------------------------------------------------------------------------


@dataclass
class Side:
    """One extractor's figures on one language's pages."""

    kept: int = 0
    chars: int = 0
    seconds: float = 0.0
    stats: Counter[str] = field(default_factory=Counter)
    suspects: list[tuple[str, str, list[str]]] = field(default_factory=list)
    dropped: list[tuple[str, str, str]] = field(default_factory=list)


def run_side(
    pages: list[Page],
    to_text: Callable[[Page], str],
    identifier: LanguageIdentifier,
    config: CleanConfig,
) -> Side:
    side = Side()
    for page in pages:
        start = time.perf_counter()
        text = to_text(page)
        article = Article(qid=page.title, lang=page.lang, title=page.title, page_id=0, text=text)
        dropped: list[tuple[str, str]] = []
        sentences = clean_article(
            article, config=config, stats=side.stats, identifier=identifier, dropped=dropped
        )
        article.text = strip_holes(article.text)
        side.seconds += time.perf_counter() - start
        side.kept += len(sentences)
        for sentence in sentences:
            side.chars += len(sentence.text)
            found = suspects(sentence.text, page.lang)
            if found:
                side.suspects.append((page.title, sentence.text, found))
        side.dropped += [(page.title, reason, s) for reason, s in dropped]
    return side


def bio_lead(pages: list[Page], identifier: LanguageIdentifier, config: CleanConfig) -> str:
    """itwiki: pages with {{Bio}}, and the sentences lost when it is not rendered."""
    bio_re = re.compile(r"\{\{\s*[Bb]io\s*[|}]")
    with_bio = [p for p in pages if bio_re.search(p.wikitext)]
    lost = lead_lost = 0
    for page in with_bio:
        code = mwparserfromhell.parse(page.wikitext)
        for template in code.filter_templates(recursive=False):
            if template.name.strip().lower() == "bio":
                code.remove(template)
        bare = Page(page.lang, page.title, str(code), page.today)
        kept = run_side([page], occbio_text, identifier, config)
        kept_bare = run_side([bare], occbio_text, identifier, config)
        lost += kept.kept - kept_bare.kept
        first = clean_article(
            Article(qid="", lang="it", title="", page_id=0, text=occbio_text(page)),
            config=config,
            identifier=identifier,
        )
        first_bare = clean_article(
            Article(qid="", lang="it", title="", page_id=0, text=occbio_text(bare)),
            config=config,
            identifier=identifier,
        )
        if first and (not first_bare or first[0].text != first_bare[0].text):
            lead_lost += 1
    return (
        f"itwiki {{{{Bio}}}}: {len(with_bio)}/{len(pages)} pages use it; without rendering it "
        f"the opening sentence goes on {lead_lost}/{len(with_bio)} of them and {lost} kept "
        "sentences in all"
    )


# ----- the report ---------------------------------------------------------------------------


def _rate(pages: int, seconds: float) -> str:
    return f"{pages / seconds:.1f}" if seconds > 0 else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", nargs="+", default=list(LANGS), choices=LANGS)
    parser.add_argument(
        "--set",
        choices=["dev", "report"],
        default="dev",
        help="dev: the pages the rules were chosen on; report: the held-out pages (once a change)",
    )
    parser.add_argument("--show", action="store_true", help="print occbio's dropped sentences")
    parser.add_argument(
        "--show-wikiextractor", action="store_true", help="print WikiExtractor's suspects too"
    )
    args = parser.parse_args()
    langs = tuple(args.lang)
    pages = load_pages(langs, args.set)
    config = CleanConfig()
    identifier = LanguageIdentifier.for_langs(LANGS)  # as a run over these languages builds it
    identifier.is_lang(["warm up the model"], "en")  # its loading is not the pages' time
    reference = _wikiextractor()
    reference_name = "WikiExtractor"
    if reference is None:
        reference, reference_name = strip_code_text, "strip_code"
        print("wikiextractor is not installed: mwparserfromhell's strip_code() is the reference")

    rows = []
    details = []
    for lang in langs:
        if not pages[lang]:
            print(f"{lang}: no pages")
            continue
        ours = run_side(pages[lang], occbio_text, identifier, config)
        theirs = run_side(pages[lang], reference, identifier, config)
        rows.append((lang, len(pages[lang]), ours, theirs))
        details.append((lang, pages[lang], ours, theirs))

    header = (
        f"| lang | pages | kept occbio | kept {reference_name} | chars occbio/{reference_name} "
        f"| hole suspects occbio | hole suspects {reference_name} | dropped: template "
        f"| dropped: dangling | pages/s occbio | pages/s {reference_name} |"
    )
    print(header)
    print("|" + "---|" * header.count(" | ") + "---|")
    for lang, n, ours, theirs in rows:
        ratio = f"{ours.chars / theirs.chars:.2f}" if theirs.chars else "-"
        print(
            f"| {lang} | {n} | {ours.kept} | {theirs.kept} | {ratio} | {len(ours.suspects)} "
            f"| {len(theirs.suspects)} | {ours.stats['dropped_template_hole']} "
            f"| {ours.stats['dropped_dangling_word']} | {_rate(n, ours.seconds)} "
            f"| {_rate(n, theirs.seconds)} |"
        )
    total_pages = sum(n for _, n, _, _ in rows)
    total_seconds = sum(ours.seconds for _, _, ours, _ in rows)
    print(f"\nall: {total_pages} pages, occbio {_rate(total_pages, total_seconds)} pages/s")

    for lang, lang_pages, ours, theirs in details:
        print(f"\n== {lang}: {len(lang_pages)} pages ==")
        holes = Counter(
            {k[len(HOLE_KEY) :]: v for k, v in ours.stats.items() if k.startswith(HOLE_KEY)}
        )
        top = ", ".join(f"{name} {count}" for name, count in holes.most_common(10)) or "none"
        print(f"unrendered templates (sentences): {top}")
        words = Counter(
            (dangling_word(s, lang) or "?").lower()
            for _, reason, s in ours.dropped
            if reason == "dropped_dangling_word"
        )
        print(
            "dangling words: "
            + (", ".join(f"{w!r} {c}" for w, c in words.most_common(10)) or "none")
        )
        if lang == "it":
            print(bio_lead(lang_pages, identifier, config))
        for title, sentence, found in ours.suspects:
            print(f"  SUSPECT occbio [{title}] ({'; '.join(found)}): {sentence}")
        if args.show_wikiextractor:
            for title, sentence, found in theirs.suspects:
                print(f"  SUSPECT {reference_name} [{title}] ({'; '.join(found)}): {sentence}")
        if args.show:
            for title, reason, sentence in ours.dropped:
                if reason in ("dropped_template_hole", "dropped_dangling_word"):
                    shown = HOLE_RE.sub(lambda m: f"⟦{m.group(1)}⟧", sentence)
                    print(f"  DROPPED {reason[8:]} [{title}]: {shown}")


if __name__ == "__main__":
    main()
