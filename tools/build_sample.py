#!/usr/bin/env python3
"""Render ``tools/sample_source/`` into the bundled offline sample ``occbio/data/sample/``.

The source is human-editable TOML (see ``tools/sample_source/README.md`` for the format): one
file per (fictional) person with the Wikidata facts and, per language, the article as one
sentence per line with an optional ``[fNN]`` fact id shared across languages; plus the
occupation items, the non-biography pages and the distractor Wikidata entities.

This script writes, in the real formats and deterministically (same source -> byte-identical
files; no clock, no randomness):

* ``wikidata-sample.json.bz2``  -- Wikidata JSON dump (``[`` / one entity per line + ``,`` / ``]``)
* ``{lang}wiki-sample-pages-articles.xml.bz2`` -- MediaWiki ``pages-articles`` export 0.10
* ``gold-alignments.jsonl`` -- per person and fact id, the plain sentence in each language
* ``gold-sentences.jsonl``  -- per article, every prose sentence with its noise kind
* ``README.md``             -- description and the counts

Usage::

    python tools/build_sample.py            # build
    python tools/build_sample.py --check    # build into a temp dir and compare (exit 1 if stale)
"""

from __future__ import annotations

import argparse
import bz2
import hashlib
import json
import re
import sys
import tempfile
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tools" / "sample_source"
OUT = ROOT / "occbio" / "data" / "sample"
LANGS = ("en", "es", "ca", "fr")

GENDER_QIDS = {"female": "Q6581072", "male": "Q6581097", "non-binary": "Q48270"}
UUID_NS = uuid.UUID("6f1b2c3d-0000-4000-8000-0cc810000000")  # fixed namespace for statement ids

# ---------------------------------------------------------------------------------------------
# Per-language wiki furniture
# ---------------------------------------------------------------------------------------------

# fmt: off
MONTHS = {
    "en": "January February March April May June July August September October November December",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre",
    "ca": "gener febrer març abril maig juny juliol agost setembre octubre novembre desembre",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
}
# fmt: on
MONTHS = {k: v.split() for k, v in MONTHS.items()}

# fmt: off
SITEINFO = {
    "en": dict(
        sitename="Wikipedia",
        base="https://en.wikipedia.org/wiki/Main_Page",
        ns={
            -2: "Media", -1: "Special", 0: "", 1: "Talk", 2: "User", 3: "User talk",
            4: "Wikipedia", 5: "Wikipedia talk", 6: "File", 7: "File talk", 8: "MediaWiki",
            9: "MediaWiki talk", 10: "Template", 11: "Template talk", 12: "Help",
            13: "Help talk", 14: "Category", 15: "Category talk", 100: "Portal",
            101: "Portal talk", 118: "Draft", 119: "Draft talk", 710: "TimedText",
            711: "TimedText talk", 828: "Module", 829: "Module talk",
        },
    ),
    "es": dict(
        sitename="Wikipedia",
        base="https://es.wikipedia.org/wiki/Wikipedia:Portada",
        ns={
            -2: "Medio", -1: "Especial", 0: "", 1: "Discusión", 2: "Usuario",
            3: "Usuario discusión", 4: "Wikipedia", 5: "Wikipedia discusión", 6: "Archivo",
            7: "Archivo discusión", 8: "MediaWiki", 9: "MediaWiki discusión", 10: "Plantilla",
            11: "Plantilla discusión", 12: "Ayuda", 13: "Ayuda discusión", 14: "Categoría",
            15: "Categoría discusión", 100: "Portal", 101: "Portal discusión",
            102: "Wikiproyecto", 103: "Wikiproyecto discusión", 104: "Anexo",
            105: "Anexo discusión", 710: "TimedText", 711: "TimedText talk", 828: "Módulo",
            829: "Módulo discusión",
        },
    ),
    "ca": dict(
        sitename="Viquipèdia",
        base="https://ca.wikipedia.org/wiki/Portada",
        ns={
            -2: "Multimèdia", -1: "Especial", 0: "", 1: "Discussió", 2: "Usuari",
            3: "Usuari Discussió", 4: "Viquipèdia", 5: "Viquipèdia Discussió", 6: "Fitxer",
            7: "Fitxer Discussió", 8: "MediaWiki", 9: "MediaWiki Discussió", 10: "Plantilla",
            11: "Plantilla Discussió", 12: "Ajuda", 13: "Ajuda Discussió", 14: "Categoria",
            15: "Categoria Discussió", 100: "Portal", 101: "Portal Discussió",
            102: "Viquiprojecte", 103: "Viquiprojecte Discussió", 710: "TimedText",
            711: "TimedText talk", 828: "Mòdul", 829: "Mòdul Discussió",
        },
    ),
    "fr": dict(
        sitename="Wikipédia",
        base="https://fr.wikipedia.org/wiki/Wikip%C3%A9dia:Accueil_principal",
        ns={
            -2: "Média", -1: "Spécial", 0: "", 1: "Discussion", 2: "Utilisateur",
            3: "Discussion utilisateur", 4: "Wikipédia", 5: "Discussion Wikipédia",
            6: "Fichier", 7: "Discussion fichier", 8: "MediaWiki", 9: "Discussion MediaWiki",
            10: "Modèle", 11: "Discussion modèle", 12: "Aide", 13: "Discussion aide",
            14: "Catégorie", 15: "Discussion catégorie", 100: "Portail",
            101: "Discussion Portail", 102: "Projet", 103: "Discussion Projet",
            104: "Référence", 105: "Discussion Référence", 710: "TimedText",
            711: "TimedText talk", 828: "Module", 829: "Discussion module",
        },
    ),
}
# fmt: on
GENERATOR = "MediaWiki 1.41.0-wmf.28"

REFLIST = {
    "en": "== References ==\n{{Reflist}}",
    "es": "== Referencias ==\n{{listaref}}",
    "ca": "== Referències ==\n{{Referències}}",
    "fr": "== Notes et références ==\n{{Références}}",
}
SORT_MAGIC = {"en": "DEFAULTSORT", "es": "ORDENAR", "ca": "ORDENA", "fr": "DEFAULTSORT"}
TRAILER = {
    "en": "{{Authority control}}",
    "es": "{{Control de autoridades}}",
    "ca": "{{Autoritat}}",
    "fr": "{{Portail|biographie}}",
}
FILE_NS = {"en": "File", "es": "Archivo", "ca": "Fitxer", "fr": "Fichier"}
THUMB = {"en": "thumb", "es": "miniaturadeimagen", "ca": "miniatura", "fr": "vignette"}
CATEGORY_NS = {"en": "Category", "es": "Categoría", "ca": "Categoria", "fr": "Catégorie"}

# enwiki picks a specialised infobox by occupation; the others use their generic person box.
EN_INFOBOX = {
    "Q36180": "Infobox writer",
    "Q937857": "Infobox football biography",
    "Q639669": "Infobox musical artist",
    "Q901": "Infobox scientist",
    "Q82955": "Infobox officeholder",
    "Q1028181": "Infobox artist",
    "Q483501": "Infobox artist",
}
FR_CHARTE = {
    "Q36180": "écrivain",
    "Q937857": "footballeur",
    "Q639669": "musicien",
    "Q901": "scientifique",
    "Q82955": "politique",
    "Q1028181": "artiste",
    "Q483501": "artiste",
    "Q33999": "acteur",
    "Q1930187": "journaliste",
}

CONTRIBUTORS = [
    ("Rosalind Vane", 48211),
    ("Sampleuser", 1002),
    ("Marta.bot", 77013),
    ("Xarop", 150321),
    ("Pdelacroix", 90442),
    ("KestrelEditor", 3321187),
    ("Quimet-bot", 8855),
    ("Llibreter", 45120),
]
COMMENTS = [
    "",
    "/* Biography */ copyedit",
    "refs",
    "Bot: fixing links",
    "added infobox",
    "",
    "typo",
    "/* Works */ +1",
]

# ---------------------------------------------------------------------------------------------
# Source model
# ---------------------------------------------------------------------------------------------

TAG_RE = re.compile(r"^\[(f\d+[a-z]?|lang:[a-z]{2,3}|frag)\]\s*")
REF_RE = re.compile(r"\{ref:([A-Za-z0-9_-]+)\}")
NOTE_RE = re.compile(r"\{note:([^{}]*)\}")
RAW_PREFIX = re.compile(
    r"^(\{\{|\{\||\||!|<|\[\[(File|Image|Archivo|Imagen|Fitxer|Imatge|Fichier):)"
)


@dataclass
class Line:
    kind: str  # heading | blank | list | raw | prose
    text: str
    fact: str | None = None
    foreign: str | None = None  # language code of a sentence in another language
    frag: bool = False


@dataclass
class ArticleSrc:
    lang: str
    title: str
    lines: list[Line]
    redirects: list[str] = field(default_factory=list)
    caption: str | None = None
    categories: list[str] = field(default_factory=list)


@dataclass
class Person:
    path: Path
    data: dict
    articles: dict[str, ArticleSrc]

    @property
    def qid(self) -> str:
        return self.data["qid"]


def parse_text(text: str, where: str) -> list[Line]:
    lines: list[Line] = []
    for raw in text.strip("\n").split("\n"):
        s = raw.rstrip()
        if not s.strip():
            lines.append(Line("blank", ""))
        elif re.match(r"^=+[^=].*[^=]=+$", s):
            lines.append(Line("heading", s))
        elif s.startswith(("* ", "# ", "*[[", "#[[", ": ")):
            lines.append(Line("list", s))
        elif RAW_PREFIX.match(s):
            lines.append(Line("raw", s))
        else:
            fact = foreign = None
            frag = False
            while True:
                m = TAG_RE.match(s)
                if not m:
                    break
                tag = m.group(1)
                if tag == "frag":
                    frag = True
                elif tag.startswith("lang:"):
                    foreign = tag[5:]
                else:
                    fact = tag
                s = s[m.end() :]
            if "[f" in s[:5]:
                raise SystemExit(f"{where}: malformed tag in line {raw!r}")
            lines.append(Line("prose", s, fact, foreign, frag))
    return lines


def load_people() -> list[Person]:
    people = []
    for path in sorted((SOURCE / "people").glob("*.toml")):
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        arts = {}
        for lang in LANGS:
            if lang in data:
                a = data[lang]
                arts[lang] = ArticleSrc(
                    lang=lang,
                    title=a["title"],
                    lines=parse_text(a["text"], f"{path.name}[{lang}]"),
                    redirects=list(a.get("redirects", [])),
                    caption=a.get("caption"),
                    categories=list(a.get("categories", [])),
                )
        people.append(Person(path, data, arts))
    return people


def load_toml(name: str) -> dict:
    with (SOURCE / name).open("rb") as fh:
        return tomllib.load(fh)


# ---------------------------------------------------------------------------------------------
# Plain text (gold) from the source markup
# ---------------------------------------------------------------------------------------------

# the few inline templates allowed in prose, and what a reader sees of them
INLINE_TEMPLATES = {
    "e": lambda arg: "e",  # French ordinal superscript: 2{{e}} -> 2e
    "er": lambda arg: "er",
    "nobr": lambda arg: arg,
    "lang": lambda arg: arg.split("|", 1)[1],
}
INLINE_TEMPLATE_RE = re.compile(r"\{\{(e|er|nobr|lang)(?:\|([^{}]*))?\}\}")
LINK_RE = re.compile(r"\[\[(?:[^\[\]|]*\|)?([^\[\]|]*)\]\]")


def plain(s: str) -> str:
    """The sentence as a reader sees it: refs, link targets, bold/italic marks removed."""
    s = REF_RE.sub("", s)
    s = NOTE_RE.sub("", s)
    s = INLINE_TEMPLATE_RE.sub(lambda m: INLINE_TEMPLATES[m.group(1)](m.group(2)), s)
    if "{{" in s:
        raise ValueError(f"unsupported template in prose sentence: {s!r}")
    s = LINK_RE.sub(r"\1", s)
    s = s.replace("'''", "").replace("''", "")
    return re.sub(r"\s+", " ", s).strip()


def no_brackets(s: str) -> str:
    """``plain`` with parenthesised asides (nested too) removed, spaces tidied."""
    prev = None
    while prev != s:
        prev = s
        s = re.sub(r"\s*\([^()]*\)", "", s)
    s = re.sub(r"\s+([,.;:])", r"\1", s)
    return re.sub(r"\s+", " ", s).strip()


# ---------------------------------------------------------------------------------------------
# Wikitext rendering
# ---------------------------------------------------------------------------------------------


def h(*parts: object) -> int:
    """A stable small integer hash (for deterministic 'random' choices)."""
    return int(hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:12], 16)


def slug(s: str) -> str:
    import unicodedata

    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def parse_date(d: str) -> tuple[int, int | None, int | None]:
    parts = [int(x) for x in d.split("-")]
    return parts[0], (parts[1] if len(parts) > 1 else None), (parts[2] if len(parts) > 2 else None)


def fmt_date(d: str, lang: str) -> str:
    y, m, dd = parse_date(d)
    if m is None:
        return str(y)
    mon = MONTHS[lang][m - 1]
    if dd is None:
        return {
            "en": f"{mon} {y}",
            "es": f"{mon} de {y}",
            "ca": f"{mon} de {y}",
            "fr": f"{mon} {y}",
        }[lang]
    if lang == "en":
        return f"{dd} {mon} {y}"
    if lang == "es":
        return f"{dd} de {mon} de {y}"
    if lang == "ca":
        de = "d'" if mon[0] in "aeiou" else "de "
        return f"{dd} {de}{mon} de {y}"
    return f"{'1er' if dd == 1 else dd} {mon} {y}"


def loc(value, lang: str, default: str = "") -> str:
    if value is None:
        return default
    if isinstance(value, dict):
        return value.get(lang, value.get("en", default))
    return value


class RefRenderer:
    def __init__(self, person: Person, lang: str):
        self.person = person
        self.lang = lang
        self.seen: set[str] = set()
        self.refs = person.data.get("refs", {})

    def cite(self, name: str) -> str:
        spec = self.refs.get(name)
        label = self.person.data["label"]
        if spec:
            title, site, year = (x.strip() for x in spec.split("|"))
        else:
            title = label
            site = [
                "Sample Biographical Archive",
                "Arxiu Biogràfic de Mostra",
                "Archivo Biográfico Ficticio",
                "Fonds biographique fictif",
            ][h(name) % 4]
            year = str(2005 + h(label, name) % 17)
        url = f"https://www.example.org/{slug(label)}/{slug(name)}"
        acc = fmt_date(
            f"20{20 + h(name, label) % 4}-{1 + h(name) % 12}-{1 + h(label) % 28}", self.lang
        )
        if self.lang == "en":
            kind = "cite news" if h(name, "k") % 3 == 0 else "cite web"
            key = "work" if kind == "cite news" else "website"
            return (
                f"{{{{{kind} |url={url} |title={title} |{key}={site} |year={year} "
                f"|access-date={acc}}}}}"
            )
        if self.lang == "es":
            return (
                f"{{{{Cita web|url={url}|título={title}|obra={site}|año={year}"
                f"|fechaacceso={acc}}}}}"
            )
        if self.lang == "ca":
            return f"{{{{ref-web|url={url}|títol={title}|obra={site}|any={year}|consulta={acc}}}}}"
        return (
            f"{{{{Lien web|url={url}|titre={title}|site={site}|année={year}|consulté le={acc}}}}}"
        )

    def __call__(self, s: str) -> str:
        def ref(m: re.Match) -> str:
            name = m.group(1)
            if name in self.seen:
                return f'<ref name="{name}" />'
            self.seen.add(name)
            return f'<ref name="{name}">{self.cite(name)}</ref>'

        s = REF_RE.sub(ref, s)
        return NOTE_RE.sub(lambda m: f"<ref>{m.group(1)}</ref>", s)


def occupation_text(person: Person, occs: dict, lang: str) -> str:
    g = person.data["gender"]
    out = []
    for q in person.data["occupations"]:
        o = occs[q]
        word = o["labels"][lang]
        if g == "female" and "female" in o:
            word = o["female"][lang]
        out.append(word)
    s = ", ".join(out)
    return s[:1].upper() + s[1:]


def infobox(person: Person, art: ArticleSrc, occs: dict) -> str:
    d = person.data
    lang = art.lang
    image = d.get("image")
    born, died = d.get("born"), d.get("died")
    place = loc(d.get("birthplace"), lang)
    first = d["occupations"][0]
    if lang == "en":
        df = "mf=yes" if d.get("en_date_format") == "mdy" else "df=yes"
        name = EN_INFOBOX.get(first, "Infobox person")
        f = [("name", art.title)]
        if image:
            f += [("image", image), ("caption", art.caption or "")]
        if born and len(born) == 10:
            y, m, dd = parse_date(born)
            if died:
                y2, m2, d2 = parse_date(died)
                f.append(("birth_date", f"{{{{birth date|{y}|{m}|{dd}|{df}}}}}"))
                f.append(("birth_place", place))
                death = f"{{{{death date and age|{y2}|{m2}|{d2}|{y}|{m}|{dd}|{df}}}}}"
                f.append(("death_date", death))
            else:
                f.append(("birth_date", f"{{{{birth date and age|{y}|{m}|{dd}|{df}}}}}"))
                f.append(("birth_place", place))
        elif born:
            f += [("birth_date", born), ("birth_place", place)]
        if name == "Infobox person":
            f.append(("occupation", occupation_text(person, occs, lang)))
        elif name == "Infobox football biography":
            f += [("position", "[[Forward (association football)|Forward]]"), ("youthyears1", "")]
        elif name == "Infobox writer":
            f.append(("occupation", occupation_text(person, occs, lang)))
            f.append(("language", d.get("writing_language", "")))
        elif name == "Infobox musical artist":
            f += [("background", "solo_singer"), ("genre", "")]
        elif name == "Infobox scientist":
            f += [("fields", ""), ("alma_mater", "")]
        elif name == "Infobox officeholder":
            f += [("office", ""), ("party", "")]
        width = max(len(k) for k, _ in f)
        body = "\n".join(f"| {k.ljust(width)} = {v}".rstrip() for k, v in f)
        return f"{{{{{name}\n{body}\n}}}}"
    if lang == "es":
        f = [("nombre", art.title)]
        if image:
            f += [("imagen", image), ("pie de imagen", art.caption or "")]
        if born:
            f += [("fecha de nacimiento", fmt_date(born, lang)), ("lugar de nacimiento", place)]
        if died:
            f.append(("fecha de fallecimiento", fmt_date(died, lang)))
        f.append(("ocupación", occupation_text(person, occs, lang)))
        body = "\n".join(f"|{k} = {v}".rstrip() for k, v in f)
        return f"{{{{Ficha de persona\n{body}\n}}}}"
    if lang == "ca":
        # cawiki's infobox is filled from Wikidata: usually empty or nearly so.
        if image and art.caption:
            return f"{{{{Infotaula persona\n| imatge = {image}\n| peu = {art.caption}\n}}}}"
        return "{{Infotaula persona}}"
    charte = FR_CHARTE.get(first)
    if charte:
        return f"{{{{Infobox Biographie2\n | charte = {charte}\n}}}}"
    return "{{Infobox Biographie2}}"


def categories(person: Person, art: ArticleSrc) -> list[str]:
    d = person.data
    lang = art.lang
    cats = []
    born, died = d.get("born"), d.get("died")
    if born:
        y, m, _ = parse_date(born)
        fr = f"Naissance en {MONTHS['fr'][m - 1]} {y}" if m else f"Naissance en {y}"
        cats.append(
            {"en": f"{y} births", "es": f"Nacidos en {y}", "ca": f"Naixements del {y}", "fr": fr}[
                lang
            ]
        )
    if died:
        y, m, _ = parse_date(died)
        cats.append(
            {
                "en": f"{y} deaths",
                "es": f"Fallecidos en {y}",
                "ca": f"Morts el {y}",
                "fr": f"Décès en {MONTHS['fr'][m - 1]} {y}" if m else f"Décès en {y}",
            }[lang]
        )
    elif lang == "en" and d["gender"] != "somevalue":
        cats.append("Living people")
    cats += art.categories
    return [f"[[{CATEGORY_NS[lang]}:{c}]]" for c in cats]


def render_article(person: Person, art: ArticleSrc, occs: dict) -> str:
    d = person.data
    lang = art.lang
    refs = RefRenderer(person, lang)
    out: list[str] = []
    if lang == "en":
        if d.get("descriptions", {}).get("en"):
            desc = d["descriptions"]["en"]
            out.append(f"{{{{Short description|{desc[:1].upper() + desc[1:]}}}}}")
        when = f"{MONTHS['en'][h(d['qid']) % 12]} {2015 + h(d['qid']) % 8}"
        out.append(f"{{{{Use {d.get('en_date_format', 'dmy')} dates|date={when}}}}}")
    out.append(infobox(person, art, occs))
    body: list[str] = []
    para: list[str] = []
    image_done = not d.get("image") or (lang == "ca" and art.caption is not None)

    def flush():
        if para:
            body.append(" ".join(para))
            para.clear()

    for ln in art.lines:
        if ln.kind == "prose":
            para.append(refs(ln.text))
            continue
        flush()
        if ln.kind == "blank":
            if body and body[-1] != "":
                body.append("")
        elif ln.kind == "heading":
            if body and body[-1] != "":
                body.append("")
            body.append(ln.text)
            if not image_done:
                cap = art.caption or art.title
                body.append(f"[[{FILE_NS[lang]}:{d['image']}|{THUMB[lang]}|{cap}]]")
                image_done = True
        else:
            body.append(refs(ln.text) if ln.kind == "list" else ln.text)
    flush()
    while body and body[-1] == "":
        body.pop()
    if not image_done:  # an article without sections: the image goes before the lead
        cap = art.caption or art.title
        body.insert(0, f"[[{FILE_NS[lang]}:{d['image']}|{THUMB[lang]}|{cap}]]")
    out.append("\n".join(body))
    tail = [REFLIST[lang], ""]
    sort = d.get("sort")
    if sort:
        tail.append(f"{{{{{SORT_MAGIC[lang]}:{sort}}}}}")
    tail.append(TRAILER[lang])
    tail.append("")
    tail += categories(person, art)
    if d.get("interwiki"):
        tail.append("")
        for other in LANGS:
            if other != lang and other in person.articles:
                tail.append(f"[[{other}:{person.articles[other].title}]]")
    return "\n".join(out) + "\n\n" + "\n".join(tail)


REDIRECT_WORD = {"en": "#REDIRECT", "es": "#REDIRECCIÓN", "ca": "#REDIRECCIÓ", "fr": "#REDIRECTION"}


def redirect_text(lang: str, target: str, i: int) -> str:
    word = REDIRECT_WORD[lang] if i % 3 else "#REDIRECT"  # localised and English magic words
    extra = {
        "en": "\n\n{{Redirect category shell|{{R from alternative name}}}}",
        "es": "",
        "ca": "",
        "fr": "",
    }[lang]
    return f"{word} [[{target}]]{extra if i % 2 == 0 else ''}"


# ---------------------------------------------------------------------------------------------
# XML dump
# ---------------------------------------------------------------------------------------------


def esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def mw_sha1(text: str) -> str:
    """MediaWiki's revision sha1: SHA-1 of the text in base 36, zero-padded to 31 digits."""
    n = int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while n:
        n, r = divmod(n, 36)
        s = digits[r] + s
    return s.rjust(31, "0")


def timestamp(*key: object) -> str:
    x = h(*key)
    y = 2019 + x % 5
    mo = 1 + (x // 5) % 12
    d = 1 + (x // 60) % 28
    hh, mm, ss = (x // 2000) % 24, (x // 50000) % 60, (x // 3000000) % 60
    return f"{y}-{mo:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}Z"


@dataclass
class Page:
    title: str
    ns: int
    text: str
    redirect: str | None = None


def write_dump(lang: str, pages: list[Page]) -> bytes:
    info = SITEINFO[lang]
    o = [
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.10/ '
        f'http://www.mediawiki.org/xml/export-0.10.xsd" version="0.10" xml:lang="{lang}">',
        "  <siteinfo>",
        f"    <sitename>{esc(info['sitename'])}</sitename>",
        f"    <dbname>{lang}wiki</dbname>",
        f"    <base>{esc(info['base'])}</base>",
        f"    <generator>{GENERATOR}</generator>",
        "    <case>first-letter</case>",
        "    <namespaces>",
    ]
    for key, name in info["ns"].items():
        if name:
            o.append(f'      <namespace key="{key}" case="first-letter">{esc(name)}</namespace>')
        else:
            o.append(f'      <namespace key="{key}" case="first-letter" />')
    o += ["    </namespaces>", "  </siteinfo>"]
    page_id = {"en": 40210, "es": 118034, "ca": 96077, "fr": 211508}[lang]
    rev_id = {"en": 1101230000, "es": 150220000, "ca": 31550000, "fr": 201880000}[lang]
    for p in pages:
        page_id += 1 + h(lang, p.title) % 977
        rev_id += 1 + h(lang, p.title, "r") % 50000
        parent = rev_id - 1 - h(p.title) % 900000
        who, who_id = CONTRIBUTORS[h(lang, p.title, "u") % len(CONTRIBUTORS)]
        comment = COMMENTS[h(lang, p.title, "c") % len(COMMENTS)]
        o += [
            "  <page>",
            f"    <title>{esc(p.title)}</title>",
            f"    <ns>{p.ns}</ns>",
            f"    <id>{page_id}</id>",
        ]
        if p.redirect:
            o.append(f'    <redirect title="{esc(p.redirect)}" />')
        o += [
            "    <revision>",
            f"      <id>{rev_id}</id>",
            f"      <parentid>{parent}</parentid>",
            f"      <timestamp>{timestamp(lang, p.title)}</timestamp>",
            "      <contributor>",
        ]
        if h(lang, p.title, "ip") % 7 == 0:
            o.append(f"        <ip>192.0.2.{h(p.title) % 250 + 1}</ip>")  # TEST-NET-1 address
        else:
            o += [f"        <username>{esc(who)}</username>", f"        <id>{who_id}</id>"]
        o.append("      </contributor>")
        if h(lang, p.title, "m") % 4 == 0:
            o.append("      <minor />")
        if comment:
            o.append(f"      <comment>{esc(comment)}</comment>")
        nbytes = len(p.text.encode("utf-8"))
        o += [
            "      <model>wikitext</model>",
            "      <format>text/x-wiki</format>",
            f'      <text bytes="{nbytes}" xml:space="preserve">{esc(p.text)}</text>',
            f"      <sha1>{mw_sha1(p.text)}</sha1>",
            "    </revision>",
            "  </page>",
        ]
    o.append("</mediawiki>")
    return ("\n".join(o) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Wikidata dump
# ---------------------------------------------------------------------------------------------


def guid(qid: str, *key: object) -> str:
    return f"{qid}${str(uuid.uuid5(UUID_NS, '|'.join(map(str, (qid, *key))))).upper()}"


def item_snak(prop: str, q: str) -> dict:
    return {
        "snaktype": "value",
        "property": prop,
        "datavalue": {
            "value": {"entity-type": "item", "numeric-id": int(q[1:]), "id": q},
            "type": "wikibase-entityid",
        },
        "datatype": "wikibase-item",
    }


def time_snak(prop: str, d: str) -> dict:
    y, m, dd = parse_date(d)
    prec = 11 if dd else (10 if m else 9)
    return {
        "snaktype": "value",
        "property": prop,
        "datavalue": {
            "value": {
                "time": f"+{y:04d}-{m or 0:02d}-{dd or 0:02d}T00:00:00Z",
                "timezone": 0,
                "before": 0,
                "after": 0,
                "precision": prec,
                "calendarmodel": "http://www.wikidata.org/entity/Q1985727",
            },
            "type": "time",
        },
        "datatype": "time",
    }


def string_snak(prop: str, value: str, datatype: str) -> dict:
    return {
        "snaktype": "value",
        "property": prop,
        "datavalue": {"value": value, "type": "string"},
        "datatype": datatype,
    }


def statement(
    qid: str, snak: dict, n: int, rank: str = "normal", ref_wiki: str | None = None
) -> dict:
    st = {"mainsnak": snak, "type": "statement", "id": guid(qid, snak["property"], n), "rank": rank}
    if ref_wiki:  # "imported from Wikimedia project" reference
        rs = item_snak("P143", ref_wiki)
        st["references"] = [
            {
                "hash": hashlib.sha1(json.dumps(rs, sort_keys=True).encode()).hexdigest(),
                "snaks": {"P143": [rs]},
                "snaks-order": ["P143"],
            }
        ]
    return st


def lv(lang: str, value: str) -> dict:
    return {"language": lang, "value": value}


WIKI_QID = {"en": "Q328", "es": "Q8449", "ca": "Q199693", "fr": "Q8447"}


def person_entity(p: Person) -> dict:
    d = p.data
    qid = d["qid"]
    labels = {lang: lv(lang, d["label"]) for lang in ("en", "es", "ca", "fr", "de")}
    for lang, value in d.get("labels", {}).items():
        labels[lang] = lv(lang, value)
    descs = {k: lv(k, v) for k, v in d.get("descriptions", {}).items()}
    aliases = {k: [lv(k, a) for a in v] for k, v in d.get("aliases", {}).items()}
    src_wiki = WIKI_QID[next(iter(p.articles))] if p.articles else None
    p31 = statement(qid, item_snak("P31", "Q5"), 0, ref_wiki=src_wiki)
    claims: dict[str, list] = {"P31": [p31]}
    g = d["gender"]
    p21 = []
    if g == "somevalue":
        p21.append(
            statement(
                qid, {"snaktype": "somevalue", "property": "P21", "datatype": "wikibase-item"}, 0
            )
        )
    else:
        if d.get("deprecated_gender"):
            p21.append(
                statement(
                    qid, item_snak("P21", GENDER_QIDS[d["deprecated_gender"]]), 9, rank="deprecated"
                )
            )
        p21.append(statement(qid, item_snak("P21", GENDER_QIDS[g]), 0, ref_wiki=src_wiki))
    claims["P21"] = p21
    claims["P106"] = [
        statement(qid, item_snak("P106", o), i) for i, o in enumerate(d["occupations"])
    ]
    if d.get("born"):
        claims["P569"] = [statement(qid, time_snak("P569", d["born"]), 0)]
    if d.get("died"):
        claims["P570"] = [statement(qid, time_snak("P570", d["died"]), 0)]
    if d.get("image"):
        claims["P18"] = [statement(qid, string_snak("P18", d["image"], "commonsMedia"), 0)]
    sitelinks = {}
    for lang, art in p.articles.items():
        sitelinks[f"{lang}wiki"] = {"site": f"{lang}wiki", "title": art.title, "badges": []}
    for site, title in d.get("other_sitelinks", {}).items():
        sitelinks[site] = {"site": site, "title": title, "badges": []}
    return {
        "type": "item",
        "id": qid,
        "labels": labels,
        "descriptions": descs,
        "aliases": aliases,
        "claims": claims,
        "sitelinks": sitelinks,
        "lastrevid": 1900000000 + h(qid) % 90000000,
    }


def generic_entity(e: dict) -> dict:
    qid = e["id"]
    if e.get("type") == "property":
        return {
            "type": "property",
            "datatype": e["datatype"],
            "id": qid,
            "labels": {k: lv(k, v) for k, v in e["labels"].items()},
            "descriptions": {k: lv(k, v) for k, v in e.get("descriptions", {}).items()},
            "aliases": {},
            "claims": {},
            "lastrevid": 1900000000 + h(qid) % 90000000,
        }
    claims: dict[str, list] = {}
    for prop, vals in e.get("claims", {}).items():
        claims[prop] = [statement(qid, item_snak(prop, v), i) for i, v in enumerate(vals)]
    for prop, val in e.get("times", {}).items():
        claims[prop] = [statement(qid, time_snak(prop, val), 0)]
    for prop, val in e.get("quantities", {}).items():
        claims[prop] = [
            statement(
                qid,
                {
                    "snaktype": "value",
                    "property": prop,
                    "datavalue": {"value": {"amount": f"+{val}", "unit": "1"}, "type": "quantity"},
                    "datatype": "quantity",
                },
                0,
            )
        ]
    sitelinks = {
        f"{lang}wiki": {"site": f"{lang}wiki", "title": t, "badges": []}
        for lang, t in e.get("sitelinks", {}).items()
    }
    return {
        "type": "item",
        "id": qid,
        "labels": {k: lv(k, v) for k, v in e.get("labels", {}).items()},
        "descriptions": {k: lv(k, v) for k, v in e.get("descriptions", {}).items()},
        "aliases": {},
        "claims": claims,
        "sitelinks": sitelinks,
        "lastrevid": 1900000000 + h(qid) % 90000000,
    }


def occupation_entity(q: str, o: dict) -> dict:
    e = {
        "id": q,
        "labels": o["labels"],
        "descriptions": o.get("descriptions", {}),
        "claims": {"P31": o["instance_of"]},
    }
    return generic_entity(e)


def write_wikidata(entities: list[dict]) -> bytes:
    lines = ["["]
    for i, e in enumerate(entities):
        s = json.dumps(e, ensure_ascii=False, separators=(",", ":"))
        lines.append(s + ("," if i < len(entities) - 1 else ""))
    lines.append("]")
    return ("\n".join(lines) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------


def check_people(people: list[Person], occs: dict) -> list[str]:
    problems = []
    qids = set()
    for p in people:
        d = p.data
        where = p.path.name
        if d["qid"] in qids:
            problems.append(f"{where}: duplicate qid")
        qids.add(d["qid"])
        if d["gender"] not in (*GENDER_QIDS, "somevalue"):
            problems.append(f"{where}: bad gender {d['gender']}")
        for o in d["occupations"]:
            if o not in occs:
                problems.append(f"{where}: unknown occupation {o}")
        facts_by_lang = {}
        for lang, art in p.articles.items():
            seen_text: dict[str, str | None] = {}
            facts = {}
            n = 0
            for ln in art.lines:
                if ln.kind != "prose":
                    continue
                key = plain(ln.text)
                if key in seen_text:
                    if seen_text[key] != ln.fact:
                        problems.append(f"{where}[{lang}]: repeated sentence with other tag")
                    continue
                seen_text[key] = ln.fact
                if not ln.frag and not ln.foreign:
                    n += 1
                if ln.fact:
                    if ln.fact in facts:
                        problems.append(f"{where}[{lang}]: fact {ln.fact} used twice")
                    facts[ln.fact] = ln.text
            if not 8 <= n <= 30:
                problems.append(f"{where}[{lang}]: {n} prose sentences (want 8-30)")
            facts_by_lang[lang] = facts
        allf = Counter(f for fs in facts_by_lang.values() for f in fs)
        for f, c in sorted(allf.items()):
            if c < 2:
                problems.append(f"{where}: fact {f} appears in one language only")
    return problems


def build(out: Path) -> dict:
    occ_src = load_toml("occupations.toml")
    occs = occ_src["occupation"]
    extra = load_toml("other_entities.toml")
    pages_src = load_toml("pages.toml")
    people = load_people()
    problems = check_people(people, occs)
    if problems:
        raise SystemExit("source problems:\n  " + "\n  ".join(problems))
    out.mkdir(parents=True, exist_ok=True)

    # ---- Wikipedia dumps ------------------------------------------------------------------
    gold_sents = []
    for lang in LANGS:
        misc = [pg for pg in pages_src["page"] if pg["lang"] == lang]
        pages: list[Page] = []

        def add_misc(after: int, misc=misc, pages=pages):
            for pg in misc:
                if pg.get("after", 0) == after:
                    pages.append(
                        Page(
                            pg["title"], pg.get("ns", 0), pg["text"].strip("\n"), pg.get("redirect")
                        )
                    )

        add_misc(0)
        for i, p in enumerate(people, 1):
            art = p.articles.get(lang)
            if art:
                pages.append(Page(art.title, 0, render_article(p, art, occs)))
                for j, r in enumerate(art.redirects):
                    pages.append(Page(r, 0, redirect_text(lang, art.title, h(r) + j), art.title))
            add_misc(i)
        add_misc(-1)
        dup_titles = [t for t, n in Counter(pg.title for pg in pages).items() if n > 1]
        if dup_titles:
            raise SystemExit(f"{lang}: duplicate page titles {dup_titles}")
        titles = {pg.title for pg in pages}
        for pg in pages:
            if pg.redirect and pg.redirect not in titles:
                raise SystemExit(f"{lang}: redirect {pg.title!r} -> missing {pg.redirect!r}")
        (out / f"{lang}wiki-sample-pages-articles.xml.bz2").write_bytes(
            bz2.compress(write_dump(lang, pages), 9)
        )

    # ---- Wikidata dump --------------------------------------------------------------------
    ents: list[dict] = []
    before = [q for q, o in occs.items() if o.get("position", "before") == "before"]
    after = [q for q, o in occs.items() if o.get("position") == "after"]
    for q in before:
        ents.append(occupation_entity(q, occs[q]))
    for e in extra["entity"]:
        if e.get("after", 0) == 0:
            ents.append(generic_entity(e))
    for i, p in enumerate(people, 1):
        ents.append(person_entity(p))
        for e in extra["entity"]:
            if e.get("after", 0) == i:
                ents.append(generic_entity(e))
    for q in after:
        ents.append(occupation_entity(q, occs[q]))
    for e in extra["entity"]:
        if e.get("after") == -1:
            ents.append(generic_entity(e))
    (out / "wikidata-sample.json.bz2").write_bytes(bz2.compress(write_wikidata(ents), 9))

    # ---- gold -----------------------------------------------------------------------------
    gold_lines = []
    for p in people:
        facts: dict[str, dict[str, tuple[str, int]]] = {}
        for lang, art in p.articles.items():
            sents = []
            seen = set()
            pos = 0
            for ln in art.lines:
                if ln.kind != "prose":
                    continue
                t = plain(ln.text)
                kind = (
                    "fragment"
                    if ln.frag
                    else "foreign"
                    if ln.foreign
                    else "duplicate"
                    if t in seen
                    else "prose"
                )
                sents.append({"text": t, "fact": ln.fact, "kind": kind, "lang": ln.foreign or lang})
                if kind != "duplicate" and ln.fact:
                    facts.setdefault(ln.fact, {})[lang] = (t, pos)
                seen.add(t)
                pos += 1
            gold_sents.append(
                {
                    "qid": p.qid,
                    "lang": lang,
                    "title": art.title,
                    "gender": p.data["gender"],
                    "sentences": sents,
                }
            )
        for f in sorted(facts, key=lambda x: (int(re.sub(r"\D", "", x)), x)):
            langs = [lg for lg in LANGS if lg in facts[f]]
            gold_lines.append(
                {
                    "qid": p.qid,
                    "fact": f,
                    "id": f"{p.qid}/{f}",
                    "langs": langs,
                    "text": {lg: facts[f][lg][0] for lg in langs},
                    "text_no_brackets": {lg: no_brackets(facts[f][lg][0]) for lg in langs},
                    "position": {lg: facts[f][lg][1] for lg in langs},
                }
            )
    with (out / "gold-alignments.jsonl").open("w", encoding="utf-8", newline="\n") as fh:
        for g in gold_lines:
            fh.write(json.dumps(g, ensure_ascii=False, separators=(",", ":")) + "\n")
    with (out / "gold-sentences.jsonl").open("w", encoding="utf-8", newline="\n") as fh:
        for g in gold_sents:
            fh.write(json.dumps(g, ensure_ascii=False, separators=(",", ":")) + "\n")

    stats = compute_stats(people, occs, gold_lines, gold_sents, ents, pages_src)
    (out / "README.md").write_text(readme(stats, out), encoding="utf-8")
    return stats


def compute_stats(people, occs, gold_lines, gold_sents, ents, pages_src) -> dict:
    st: dict = {}
    st["people"] = len(people)
    st["gender"] = Counter(p.data["gender"] for p in people)
    st["occupation"] = Counter(o for p in people for o in p.data["occupations"])
    st["occ_gender"] = Counter((o, p.data["gender"]) for p in people for o in p.data["occupations"])
    st["multi_occ"] = sum(len(p.data["occupations"]) > 1 for p in people)
    st["articles"] = Counter(lang for p in people for lang in p.articles)
    st["langsets"] = Counter(",".join(lg for lg in LANGS if lg in p.articles) for p in people)
    per = {}
    for g in gold_sents:
        n = sum(s["kind"] == "prose" for s in g["sentences"])
        per.setdefault(g["lang"], []).append(n)
    st["sent_range"] = {lg: (min(v), max(v), sum(v)) for lg, v in per.items()}
    st["noise"] = Counter(s["kind"] for g in gold_sents for s in g["sentences"])
    st["facts_by_n"] = Counter(len(g["langs"]) for g in gold_lines)
    st["facts"] = len(gold_lines)
    pair = Counter()
    for g in gold_lines:
        ls = g["langs"]
        for i, a in enumerate(ls):
            for b in ls[i + 1 :]:
                pair[f"{a}-{b}"] += 1
    st["pairs"] = pair
    st["entities"] = Counter(
        "human"
        if any(
            c["mainsnak"].get("datavalue", {}).get("value", {}).get("id") == "Q5"
            for c in e.get("claims", {}).get("P31", [])
        )
        else "occupation"
        if e["id"] in occs
        else e["type"] + " (other)"
        for e in ents
    )
    st["occ_labels"] = {q: o["labels"]["en"] for q, o in occs.items()}
    st["redirects"] = Counter(
        lg for p in people for lg, a in p.articles.items() for _ in a.redirects
    )
    st["misc_pages"] = Counter(pg["lang"] for pg in pages_src["page"])
    st["partial"] = [
        (p.qid, p.data["label"], ", ".join(lg for lg in LANGS if lg in p.articles))
        for p in people
        if len(p.articles) < len(LANGS)
    ]
    return st


def readme(st: dict, out: Path) -> str:
    names = (
        ["wikidata-sample.json.bz2"]
        + [f"{lg}wiki-sample-pages-articles.xml.bz2" for lg in LANGS]
        + ["gold-alignments.jsonl", "gold-sentences.jsonl"]
    )
    files = "\n".join(f"| `{n}` | {(out / n).stat().st_size / 1024:.1f} KiB |" for n in names)
    g = st["gender"]
    genders = ("female", "male", "non-binary", "somevalue")
    occ_rows = "\n".join(
        f"| {q} | {st['occ_labels'][q]} | {n} | "
        + " | ".join(str(st["occ_gender"][(q, gg)]) for gg in genders)
        + " |"
        for q, n in sorted(st["occupation"].items(), key=lambda x: (-x[1], x[0]))
    )
    sr = st["sent_range"]
    sent_rows = "\n".join(
        f"| {lg} | {st['articles'][lg]} | {st['redirects'][lg]} | "
        f"{sr[lg][0]} | {sr[lg][1]} | {sr[lg][2]} |"
        for lg in LANGS
    )
    partial = "\n".join(f"| {q} | {label} | {langs} |" for q, label, langs in st["partial"])
    fb = st["facts_by_n"]
    pairs = ", ".join(f"{k} {v}" for k, v in sorted(st["pairs"].items()))
    noise = st["noise"]
    ents = ", ".join(f"{v} {k}" for k, v in sorted(st["entities"].items()))
    return f"""# occbio bundled offline sample

A small snapshot **in the real formats** -- a Wikidata JSON dump and one MediaWiki
`pages-articles` XML dump per language (en, es, ca, fr) -- that `occbio mine --sample` reads
through exactly the same code as real dumps, so the whole pipeline runs offline. Two gold files
describe what a correct pipeline should find.

**Everything here is fictional and was written for occbio.** The people, their biographies,
the town *Sant Ermengol de Riu*, the novel *La casa del riu*, the clubs, newspapers, prizes and
references do not exist. Their Wikidata ids are in the reserved range
**Q990000001-Q990000999**, far above any id Wikidata has assigned, so they cannot be confused
with real entities. Only the occupation items (real ids with their real labels, e.g. Q36180
writer, Q82955 politician), the gender values (Q6581072 female, Q6581097 male, Q48270
non-binary) and a few class and property ids (Q5, Q28640, Q12737077, Q515, Q7725634, Q101352,
P106, ...) are real. Reference URLs point at `example.org`, anonymous editors use the
documentation address range 192.0.2.0/24. Real places and institutions appear only as setting.

Do not edit these files by hand. They are generated from the human-editable source in
`tools/sample_source/` (one TOML file per person, one sentence per line, a shared `[fNN]` fact
id on sentences that translate each other; see `tools/sample_source/README.md`):

    python tools/build_sample.py          # rebuild (deterministic: same source, same bytes)
    python tools/build_sample.py --check  # exit 1 if these files are stale

## Files

| file | size |
|---|---|
{files}

### `wikidata-sample.json.bz2`

The Wikidata JSON dump format: first line `[`, one entity per line followed by `,`, the last
entity without the comma, last line `]`. Entities: {ents}. Humans have P31 Q5, P21 gender,
P106 occupations (one statement each), P569/P570 dates, sometimes P18 image, statement ids,
ranks, some references, labels, descriptions, aliases and sitelinks (`enwiki`, `eswiki`,
`cawiki`, `frwiki`, and sometimes `dewiki`, `jawiki`, `zhwiki`, ... without an article here).
Occupation items come both before and after the humans; a town, a novel, a family-name item
and the property P106 are distractors a people reader must skip.

### `{{lang}}wiki-sample-pages-articles.xml.bz2`

MediaWiki export 0.10 with `<siteinfo>` (localised namespace names), pages in page-id order,
one `<revision>` each with `<text bytes=..>` and MediaWiki's base-36 `<sha1>`. Besides the
biographies: redirects to biographies and to other pages (`<redirect title=..>` with
`#REDIRECT`, `#REDIRECCIÓN`, `#REDIRECCIÓ`, `#REDIRECTION`, one with a `#section` anchor), a
template page (ns 10), a category page (ns 14), and non-biography articles (the town, the
novel, a surname list). Article wikitext carries the usual noise: short description,
maintenance templates, infoboxes, `<ref>` with citation templates and `<ref name=.. />` reuse,
free-text refs, links, bold/italic, images with captions, headings, bullet lists, a wikitable,
parenthesised asides (some nested), abbreviations (Dr., St., Sr., Sra., Dra., Prof., Mr.,
Pr, M., Mme, J. M., T. S., c. 1850, n. 1941, pp., 2nd ed.), reference lists, sort keys,
authority-control / portal templates, categories and old-style interlanguage links.

### `gold-alignments.jsonl`

The GOLD alignment, one line per person and shared fact:
`{{"qid", "fact", "id", "langs", "text": {{lang: sentence}}, "text_no_brackets": {{lang: ..}},
"position": {{lang: n}}}}`. Sentences with the same fact id are faithful translations of each
other. `text` is the sentence as a reader sees it (markup and references removed, parentheses
kept); `text_no_brackets` also drops parenthesised asides, as a GeBioToolkit-style cleaner
does (translations sometimes differ only inside parentheses, e.g. a birthplace); `position`
is the index of the sentence in that article's `sentences` list in `gold-sentences.jsonl`.
Sentences without a fact id exist in one language only.

### `gold-sentences.jsonl`

One line per article, `{{"qid", "lang", "title", "gender", "sentences": [...]}}`: every prose
sentence in article order with `text`, `fact` (or null), `lang` (the language the sentence is
really in) and `kind`: `prose`, `duplicate` (repeats an earlier sentence of the same article),
`fragment` (e.g. "Career.", a cleaner should drop it) or `foreign` (a sentence in another
language than the article, e.g. a Spanish or English quote in a Catalan article). Lists,
tables, captions, infobox and reference content are not prose and are not listed.

## Counts

* People: **{st["people"]}** -- female {g["female"]}, male {g["male"]}, non-binary
  {g["non-binary"]}, unknown {g["somevalue"]} (a `somevalue` P21); {st["multi_occ"]} people
  have two or more occupations.
* Occupations: {len(st["occupation"])}.

| QID | occupation | people | female | male | non-binary | unknown |
|---|---|---|---|---|---|---|
{occ_rows}

* Articles, redirects to biographies, and clean prose sentences per article (without
  duplicates, fragments and foreign-language sentences):

| lang | articles | redirects | min sentences | max sentences | total sentences |
|---|---|---|---|---|---|
{sent_rows}

* {st["langsets"]["en,es,ca,fr"]} people have articles in all four languages; these lack some:

| QID | person | articles |
|---|---|---|
{partial}

* Shared facts (gold alignments): **{st["facts"]}** -- in 2 languages {fb[2]}, in 3 {fb[3]},
  in all 4 {fb[4]}. Gold sentence pairs per language pair: {pairs}. The overlap varies on
  purpose: some article sets are translations sentence by sentence (Q990000003, Q990000017),
  others share only a few sentences (Q990000001 fr, Q990000025 en).
* Noise sentences: {noise["duplicate"]} repeated, {noise["fragment"]} fragments,
  {noise["foreign"]} in the wrong language.

## Edge cases on purpose

* Q990000010 has a **deprecated** P21 (male) next to the normal one (female).
* Q990000035 is an anonymous artist: P21 is **somevalue** (unknown value), no date of birth.
* Q990000033 has only an English article, Q990000034 only Spanish and Catalan: a minimum
  languages filter must drop them; Q990000005, Q990000009, Q990000020, Q990000023 and
  Q990000026 each lack one language.
* All association football players are men (as often in real data), so a balancing step that
  needs both genders within an occupation has to drop or flag that occupation.
* Non-binary people (Q990000028-Q990000030) are written as on Wikipedia: they/them in English,
  neutral wording or the name repeated in Spanish, Catalan and French.
* Article titles differ across languages and from the Wikidata label (e.g. "Aina Puigverd" /
  "Aina Puigverd i Soler"), several contain diacritics or non-Latin script in the text.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--check",
        action="store_true",
        help="build into a temporary directory and compare with --out",
    )
    args = ap.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            build(Path(tmp))
            stale = [
                p.name
                for p in sorted(Path(tmp).iterdir())
                if not (args.out / p.name).exists()
                or (args.out / p.name).read_bytes() != p.read_bytes()
            ]
        if stale:
            print("out of date:", ", ".join(stale))
            return 1
        print("sample is up to date")
        return 0
    st = build(args.out)
    print(
        f"built {args.out}: {st['people']} people, {st['facts']} shared facts, "
        f"articles {dict(st['articles'])}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
