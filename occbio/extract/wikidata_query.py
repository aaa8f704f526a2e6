"""The pieces every query over Wikidata-shaped RDF is built from, and the checks they pass.

Every value put into a query is validated (QIDs, language codes) or escaped (string literals),
and every query declares its prefixes (:data:`PREFIXES`), so the same text runs on Wikidata
(which predeclares them) and on any SPARQL 1.1 store holding Wikidata-shaped RDF (the tests use
a local Oxigraph server). Also here: the Wikipedia site IRIs of sitelinks, ``VALUES`` clauses,
and reading QIDs back from entity IRIs in results.

Kept apart from the client (:mod:`occbio.extract.sparql_client`, which sends any text) and
shared by the two query builders, :mod:`occbio.extract.wikidata_people` and
:mod:`occbio.extract.wikidata_entities`, so both check and escape their input the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "ENTITY_PREFIX",
    "PREFIXES",
    "validate_qid",
    "sparql_literal",
]

ENTITY_PREFIX = "http://www.wikidata.org/entity/"

PREFIXES = """\
PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX p: <http://www.wikidata.org/prop/>
PREFIX ps: <http://www.wikidata.org/prop/statement/>
PREFIX wikibase: <http://wikiba.se/ontology#>
PREFIX schema: <http://schema.org/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
"""

_QID = re.compile(r"Q[1-9][0-9]*")
_LANG = re.compile(r"[a-z][a-z0-9-]*")


# --------------------------------------------------------------------------------------------
# Validation and escaping of everything that goes into a query
# --------------------------------------------------------------------------------------------


def validate_qid(value: str, *, what: str = "QID") -> str:
    """Return ``value`` when it is a Wikidata item id (``Q36180``), else raise ``ValueError``.

    Every QID is checked before it is put into a query, so no input can change a query's meaning.
    """
    if not isinstance(value, str) or _QID.fullmatch(value) is None:
        raise ValueError(
            f"{what} {value!r} is not a Wikidata item id (Q followed by digits, e.g. Q36180)"
        )
    return value


def _validate_qids(values: Sequence[str] | str, *, what: str) -> list[str]:
    """Validated QIDs, duplicates removed, order kept; a bare string is refused (not a list)."""
    if isinstance(values, str):
        raise TypeError(f"{what}s must be a sequence of QIDs, not the string {values!r}")
    return list(dict.fromkeys(validate_qid(v, what=what) for v in values))


def _validate_lang(code: str, *, what: str = "language code") -> str:
    if not isinstance(code, str) or _LANG.fullmatch(code) is None:
        raise ValueError(
            f"{what} {code!r} is not a language code (lower-case letters, digits and '-', "
            "e.g. en, zh-min-nan)"
        )
    return code


def _validate_langs(codes: Sequence[str] | str, *, what: str = "language code") -> tuple[str, ...]:
    if isinstance(codes, str):
        raise TypeError(f"{what}s must be a sequence of codes, not the string {codes!r}")
    return tuple(dict.fromkeys(_validate_lang(c, what=what) for c in codes))


def sparql_literal(text: str) -> str:
    """A SPARQL string literal of ``text`` with quotes, backslashes and line breaks escaped."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )
    return f'"{escaped}"'


def _site_iri(lang: str) -> str:
    """The ``schema:isPartOf`` of a Wikipedia sitelink: ``<https://en.wikipedia.org/>``."""
    return f"<https://{lang}.wikipedia.org/>"


def _qid_of(iri: str) -> str | None:
    """``Q42`` from ``http://www.wikidata.org/entity/Q42``; ``None`` for anything else (e.g. the
    blank node of an "unknown value" statement)."""
    if not iri.startswith(ENTITY_PREFIX):
        return None
    qid = iri[len(ENTITY_PREFIX) :]
    return qid if _QID.fullmatch(qid) else None


def _qid_number(qid: str) -> int:
    return int(qid[1:])


def _values(var: str, qids: Sequence[str]) -> str:
    return f"VALUES ?{var} {{ {' '.join(f'wd:{q}' for q in qids)} }}"
