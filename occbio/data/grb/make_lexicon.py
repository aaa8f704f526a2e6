"""Build ``lexicon-es.tsv.gz`` and ``lexicon-va.tsv.gz`` for the offline person-reference backend.

Run once by a maintainer, not at run time::

    pip download --no-deps spacy-lookups-data==1.0.5   # a wheel of lemma tables
    python occbio/data/grb/make_lexicon.py spacy_lookups_data-1.0.5-py2.py3-none-any.whl

Each output line is ``form<TAB>flags`` (lower-case forms, sorted): ``N`` noun, ``A`` adjective,
``V`` also a verb form, ``f`` the feminine form of a noun with a masculine one (``ciudadana``,
``consellera``), ``m`` a masculine noun that has a feminine form. Sources, both in
spacy-lookups-data 1.0.5: Catalan, the lemmatizer tables of the Barcelona Supercomputing
Center's Text Mining Unit (CC0): lemmas by part of speech, irregular forms, form -> lemma;
Spanish, the lemma index by part of speech and the form -> lemma table (MIT).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

from occbio.audit.offline import plural

HERE = Path(__file__).resolve().parent
_ACCENT = str.maketrans("áéíóú", "aeiou")


def _tables(wheel: Path, lang: str) -> dict[str, object]:
    out: dict[str, object] = {}
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            m = re.fullmatch(rf"spacy_lookups_data/data/{lang}_(lemma_\w+)\.json\.gz", name)
            if m:
                out[m.group(1)] = json.loads(gzip.decompress(zf.read(name)))
    return out


def es_plural(word: str) -> str:
    """A Spanish plural by the spelling rules: the offline backend's own rule."""
    return plural(word, "es")


def es_feminine(word: str) -> str | None:
    """The feminine of a Spanish masculine adjective or noun, where spelling gives it."""
    if word.endswith("o"):
        return word[:-1] + "a"
    if re.search(r"(or|ón|án|és|ín)$", word):
        return word.translate(_ACCENT) + "a" if word[-2] in "óáéí" else word + "a"
    return None


def is_feminine_of(form: str, lemma: str, lang: str) -> bool:
    """Whether ``form`` (singular or plural) is the feminine of the masculine ``lemma``:
    ``ciudadana(s)``/``ciudadano``, ``presidenta``/``presidente``, ``consellera``/``conseller``,
    ``diputada``/``diputat``, ``alumna``/``alumne``, ``amiga``/``amic``, ``germana``/``germà``."""
    if lemma.endswith("a") or form == lemma:
        return False
    if lang == "es":
        if not form.endswith(("a", "as")):
            return False
        sg = form[:-1] if form.endswith("as") else form
        return sg in {lemma[:-1] + "a", lemma.translate(_ACCENT) + "a"}
    if not form.endswith(("a", "es")):
        return False
    sg = form[:-2] + "a" if form.endswith("es") else form
    plain = lemma.translate(str.maketrans("àéèíïóòú", "aeeiiooú"))
    stems = {lemma + "a", lemma[:-1] + "a", plain + "na", plain + "a"}
    if lemma.endswith("t"):
        stems.add(lemma[:-1] + "da")
    if lemma.endswith("c"):
        stems.add(lemma[:-1] + "ga")
    return sg in stems or sg.replace("ç", "c") in stems


def build_es(wheel: Path) -> dict[str, set[str]]:
    t = _tables(wheel, "es")
    index: dict[str, list[str]] = t["lemma_index"]  # type: ignore[assignment]
    lookup: dict[str, str] = t["lemma_lookup"]  # type: ignore[assignment]
    flags: dict[str, set[str]] = defaultdict(set)
    nouns = {w.lower() for w in index["noun"] if w.isalpha()}
    adjs = {w.lower() for w in index["adj"] if w.isalpha()}
    verbs = {w.lower() for w in index["verb"]}
    for lemma in nouns:
        # no made-up plural for a noun that looks like an infinitive: the form -> lemma table
        # has the real ones (lugares, mujeres), and the backend tells el pensar by them
        infinitive = re.search(r"(ar|er|ir|ír)$", lemma)
        for form in (lemma,) if infinitive else (lemma, es_plural(lemma)):
            flags[form].add("N")
    for lemma in adjs:
        fem = es_feminine(lemma)
        for form in (lemma, es_plural(lemma), fem, fem and es_plural(fem)):
            if form:
                flags[form].add("A")
    for form, lemma in lookup.items():
        form, lemma = form.lower(), lemma.lower()
        if lemma in nouns:
            flags[form].add("N")
            if is_feminine_of(form, lemma, "es"):
                flags[form].add("f")
                flags[lemma].add("m")
                flags[es_plural(lemma)].add("m")
        if lemma in adjs:
            flags[form].add("A")
        verb = lemma in verbs or (re.search(r"(ar|er|ir|ír)$", lemma) and lemma not in nouns)
        if verb and form in flags:
            flags[form].add("V")
    return flags


def build_ca(wheel: Path) -> dict[str, set[str]]:
    t = _tables(wheel, "ca")
    index: dict[str, list[str]] = t["lemma_index"]  # type: ignore[assignment]
    exc: dict[str, dict[str, list[str]]] = t["lemma_exc"]  # type: ignore[assignment]
    lookup: dict[str, list[str]] = t["lemma_lookup"]  # type: ignore[assignment]
    tag = {"noun": "N", "adj": "A", "verb": "V"}
    pos_of: dict[str, set[str]] = defaultdict(set)
    for pos, lemmas in index.items():
        if pos in tag:
            for lemma in lemmas:
                pos_of[lemma.lower()].add(tag[pos])
    flags: dict[str, set[str]] = defaultdict(set)
    for pos, table in exc.items():
        if pos not in tag:
            continue
        for form, lemmas in table.items():
            flags[form.lower()].add(tag[pos])
            if pos == "noun":
                for lemma in lemmas:
                    if is_feminine_of(form.lower(), lemma.lower(), "ca"):
                        flags[form.lower()].add("f")
                        flags[lemma.lower()].add("m")
    for lemma, tags in pos_of.items():
        flags[lemma] |= tags
    for form, lemmas in lookup.items():
        for lemma in lemmas:
            tags = pos_of.get(lemma.lower(), set())
            flags[form.lower()] |= tags
            if "N" in tags and is_feminine_of(form.lower(), lemma.lower(), "ca"):
                flags[form.lower()].add("f")
                flags[lemma.lower()].add("m")
    # plain verb forms are not kept (a word the lexicon does not know is no noun out of context)
    return {f: s for f, s in flags.items() if s & {"N", "A"} and re.fullmatch(r"[\w·'-]+", f)}


def write(flags: dict[str, set[str]], path: Path) -> None:
    order = "NAVfm"
    lines = [
        f"{form}\t{''.join(c for c in order if c in tags)}\n"
        for form, tags in sorted(flags.items())
        if tags & {"N", "A"}
    ]
    with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as fh:
        fh.write("".join(lines).encode("utf-8"))
    print(f"{path.name}: {len(lines)} forms, {path.stat().st_size} bytes")


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        sys.exit(__doc__)
    wheel = Path(argv[0])
    write(build_es(wheel), HERE / "lexicon-es.tsv.gz")
    write(build_ca(wheel), HERE / "lexicon-va.tsv.gz")


if __name__ == "__main__":
    main(sys.argv[1:])
