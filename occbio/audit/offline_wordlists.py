"""The word lists of the offline person-reference labeller, and the regular plural.

:class:`~occbio.audit.offline.OfflineBackend` labels with rules over material that ships in
``occbio/data/grb``; this module reads it (once per language, cached) into a ``_Lists``:

- ``offline-{es,va}.txt``: occbio's own word lists: determiners with the gender they show,
  prepositions, person pronouns, other closed-class words, adjectives that go before their
  noun, titles (``Sr.``, ``Sir``), person nouns with their gender, and nouns with a
  person-like ending that name no person;
- ``lexicon-{es,va}.tsv.gz``: which forms are nouns, adjectives, also verb forms, and which
  nouns have a masculine and a feminine form, derived by ``make_lexicon.py`` from the lemma
  tables of spacy-lookups-data (Catalan: the Barcelona Supercomputing Center's, CC0; Spanish:
  MIT).

:func:`plural` (the regular plural of a Spanish or Catalan noun) lives here because the lists
add the plural of each person noun; ``make_lexicon.py`` uses it too. Kept apart from the rules
(:mod:`occbio.audit.offline`), which only read the lists.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from functools import cache

from occbio.audit.offline_tokens import tokenize
from occbio.audit.person_refs import DATA_DIR, Gender

__all__ = ["plural"]


# ---------------------------------------------------------------------------------------------
# Word lists


@dataclass(frozen=True)
class _Lists:
    determiners: dict[str, Gender | None]
    prepositions: frozenset[str]
    pronouns: dict[str, tuple[bool, Gender | None]]
    function: frozenset[str]
    prenominal: frozenset[str]
    titles: dict[str, Gender | None]
    persons: dict[str, Gender | None]
    not_persons: frozenset[str]
    fixed: tuple[tuple[str, ...], ...]
    nouns_not_verbs: frozenset[str]
    lexicon: dict[str, str]


def _gender(tag: str) -> Gender | None:
    return "M" if tag == "M" else "F" if tag == "F" else None


def _sections(text: str) -> tuple[dict[str, list[str]], list[tuple[str, ...]]]:
    """The sections' entries, and the ``[fixed]`` section's lines (one expression each)."""
    out: dict[str, list[str]] = {}
    fixed: list[tuple[str, ...]] = []
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            current = out.setdefault(line[1:-1].strip(), [])
            continue
        if current is None:
            raise ValueError(f"a word list entry before any [section]: {raw!r}")
        if current is out.get("fixed"):
            fixed.append(tuple(w for part in line.lower().split() for w in _words(part)))
        current += line.split()
    return out, fixed


def _words(text: str) -> list[str]:
    return [t.low for t in tokenize(text)]


def _pairs(items: list[str], size: int) -> list[list[str]]:
    if len(items) % size:
        raise ValueError(f"a tagged section's entries do not come in groups of {size}")
    return [items[i : i + size] for i in range(0, len(items), size)]


@cache
def _lists(plang: str) -> _Lists:
    sections, fixed = _sections((DATA_DIR / f"offline-{plang}.txt").read_text(encoding="utf-8"))
    lang = "es" if plang == "es" else "ca"
    persons: dict[str, Gender | None] = {}
    for word, tag in _pairs(sections["persons"], 2):
        for form in (word, plural(word, lang)):
            persons.setdefault(form.lower(), _gender(tag))
    lexicon: dict[str, str] = {}
    with gzip.open(DATA_DIR / f"lexicon-{plang}.tsv.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            form, _, flags = line.rstrip("\n").partition("\t")
            lexicon[form] = flags
    not_persons = set(sections["not_persons"])
    not_persons |= {plural(w, lang) for w in not_persons}
    return _Lists(
        determiners={w.lower(): _gender(t) for w, t in _pairs(sections["determiners"], 2)},
        prepositions=frozenset(w.lower() for w in sections["prepositions"]),
        pronouns={w.lower(): (p == "P", _gender(g)) for w, p, g in _pairs(sections["pronouns"], 3)},
        function=frozenset(w.lower() for w in sections["function"]),
        prenominal=frozenset(w.lower() for w in sections["prenominal"]),
        titles={w: _gender(t) for w, t in _pairs(sections["titles"], 2)},
        persons=persons,
        not_persons=frozenset(not_persons),
        fixed=tuple(sorted(fixed, key=len, reverse=True)),
        nouns_not_verbs=frozenset(sections.get("nouns_not_verbs", [])),
        lexicon=lexicon,
    )


_ES_ACCENT = str.maketrans("áéíóú", "aeiou")
_CA_ACCENT = str.maketrans("àéèíóòú", "aeeiooú")


def plural(word: str, lang: str) -> str:
    """The regular plural of a Spanish (``es``) or Catalan (``ca``/``va``) noun."""
    w = word
    if lang == "es":
        if w.endswith(("s", "x")) and len(w) > 3 and w[-2] not in "áéíóú":
            return w  # la crisis, los lunes
        if w[-1] in "aeiouáéó":
            return w + "s"
        if w.endswith("z"):
            return w[:-1] + "ces"
        if re.search(r"[áéíóú][nsl]$", w):  # canción -> canciones
            return w[:-2] + w[-2].translate(_ES_ACCENT) + w[-1] + "es"
        return w + "es"
    for end, repl in (("ca", "ques"), ("ga", "gues"), ("ja", "ges"), ("ça", "ces")):
        if w.endswith(end):
            return w[: -len(end)] + repl
    if w.endswith(("gua", "qua")):
        return w[:-3] + w[-3] + "ües"
    if w.endswith("a"):
        return w[:-1] + "es"
    if re.search(r"[àéèíóòú]$", w):  # germà -> germans, campió -> campions
        return w[:-1] + w[-1].translate(_CA_ACCENT) + "ns"
    if re.search(r"[àéèíóòú](s|ç|x)$", w):  # espòs -> esposos
        return w[:-2] + w[-2].translate(_CA_ACCENT) + w[-1].replace("ç", "c") + "os"
    if w.endswith(("s", "ç", "x", "ix", "sc", "st", "xt")):
        return w + "os" if not w.endswith("ç") else w[:-1] + "ços"
    return w + "s"
