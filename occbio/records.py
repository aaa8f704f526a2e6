"""The data model every stage shares.

Stages talk to each other only through these records (serialised as JSON lines in the run
directory). Sentences are referred to by ``(qid, lang, idx)``, never by their text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

__all__ = [
    "Occupation",
    "Entity",
    "Article",
    "Sentence",
    "Alignment",
    "Document",
    "Record",
    "MAX_WIKI_ID",
    "wiki_id",
]

#: The largest page or revision id (MediaWiki's are signed 64-bit, as are the corpus's Parquet
#: ``revision_id_*`` columns).
MAX_WIKI_ID = 2**63 - 1


def wiki_id(value: object) -> int:
    """``value`` as a page or revision id: a whole number from 1 to :data:`MAX_WIKI_ID`, else 0
    (not said). A dump, a site or an edited corpus may give anything; what is no id is not
    written as one (Parquet's int64 would refuse it at the end of a run)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_WIKI_ID:
        return value
    return 0


@dataclass(frozen=True, slots=True)
class Occupation:
    """A Wikidata occupation (P106 value) with a human-readable label."""

    qid: str
    label: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"qid": self.qid, "label": self.label}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Occupation:
        return cls(qid=d["qid"], label=d.get("label", ""))


@dataclass(slots=True)
class Entity:
    """A person: Wikidata id, label, raw gender values and mapped category, occupations, titles.

    ``genders`` keeps the raw P21 QIDs exactly as Wikidata states them; ``gender`` is the
    category after mapping (``female``, ``male``, ``non-binary``, ... or ``unknown``).
    ``titles`` maps a language code to the article title in that language's Wikipedia.
    """

    qid: str
    label: str = ""
    genders: list[str] = field(default_factory=list)
    gender: str = "unknown"
    occupations: list[Occupation] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "qid": self.qid,
            "label": self.label,
            "genders": list(self.genders),
            "gender": self.gender,
            "occupations": [o.to_dict() for o in self.occupations],
            "titles": dict(self.titles),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entity:
        return cls(
            qid=d["qid"],
            label=d.get("label", ""),
            genders=list(d.get("genders", [])),
            gender=d.get("gender", "unknown"),
            occupations=[Occupation.from_dict(o) for o in d.get("occupations", [])],
            titles=dict(d.get("titles", {})),
        )


@dataclass(slots=True)
class Article:
    """One person's biography in one language, as plain text (paragraphs joined by blank lines).

    Provenance: ``revision_id`` and ``revision_timestamp`` (ISO 8601, UTC) name the revision the
    text was read from (0 and ``""`` when the source did not say); ``source`` says where it was
    read: ``dump:FILE``, ``html-dump:FILE`` or ``web:URL@RETRIEVED``. ``gender`` is the
    article's own gender evidence (category, counts, reason), empty when not computed.
    """

    qid: str
    lang: str
    title: str
    page_id: int
    text: str
    revision_id: int = 0
    revision_timestamp: str = ""
    source: str = ""
    gender: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Article:
        return cls(
            qid=d["qid"],
            lang=d["lang"],
            title=d["title"],
            page_id=int(d["page_id"]),
            text=d["text"],
            revision_id=int(d.get("revision_id", 0)),
            revision_timestamp=str(d.get("revision_timestamp", "")),
            source=str(d.get("source", "")),
            gender=dict(d.get("gender", {})),
        )


@dataclass(frozen=True, slots=True)
class Sentence:
    """A cleaned sentence; ``idx`` is its position among the kept sentences of the article."""

    qid: str
    lang: str
    idx: int
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"qid": self.qid, "lang": self.lang, "idx": self.idx, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Sentence:
        return cls(qid=d["qid"], lang=d["lang"], idx=int(d["idx"]), text=d["text"])


@dataclass(slots=True)
class Alignment:
    """A tuple of mutually parallel sentences of one person: {lang: sentence idx}, {lang: score}."""

    qid: str
    idx: dict[str, int]
    score: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"qid": self.qid, "idx": dict(self.idx), "score": dict(self.score)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Alignment:
        return cls(
            qid=d["qid"],
            idx={k: int(v) for k, v in d["idx"].items()},
            score={k: float(v) for k, v in d.get("score", {}).items()},
        )


@dataclass(slots=True)
class Document:
    """The output unit: one person, all languages, aligned segments in article order.

    ``segments[i]`` maps each language to the i-th aligned sentence; ``scores[i]`` gives the
    margin score of each non-pivot language against the pivot for that segment; ``page_ids``
    and ``entity.titles`` identify the article each language's text came from.
    ``source_gender`` is set on a counterfactual copy (``occbio augment``): the gender the
    document was about before it was rewritten into ``entity.gender``. ``seg_ids`` numbers the
    segments when they are not simply 1..n: a counterfactual copy that left a segment out keeps
    the others' numbers, so each still pairs with its original by (qid, seg).

    Provenance per language, as the :class:`Article` the text came from says it:
    ``revision_ids`` (the revision read), ``revision_timestamps`` (ISO 8601 UTC) and
    ``sources`` (``dump:FILE``, ``html-dump:FILE`` or ``web:URL@RETRIEVED``); a language the
    source said nothing of is left out.
    """

    entity: Entity
    segments: list[dict[str, str]] = field(default_factory=list)
    scores: list[dict[str, float]] = field(default_factory=list)
    page_ids: dict[str, int] = field(default_factory=dict)
    source_gender: str = ""
    seg_ids: list[int] = field(default_factory=list)
    revision_ids: dict[str, int] = field(default_factory=dict)
    revision_timestamps: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def seg_id(self, i: int) -> int:
        """The number of the ``i``-th segment (1-based, as the corpus files write it)."""
        return self.seg_ids[i] if self.seg_ids else i + 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "entity": self.entity.to_dict(),
            "segments": [dict(s) for s in self.segments],
            "scores": [dict(s) for s in self.scores],
            "page_ids": dict(self.page_ids),
        }
        if self.source_gender:
            out["source_gender"] = self.source_gender
        if self.seg_ids:
            out["seg_ids"] = list(self.seg_ids)
        for key in ("revision_ids", "revision_timestamps", "sources"):
            if getattr(self, key):
                out[key] = dict(getattr(self, key))
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Document:
        return cls(
            entity=Entity.from_dict(d["entity"]),
            segments=[dict(s) for s in d.get("segments", [])],
            scores=[{k: float(v) for k, v in s.items()} for s in d.get("scores", [])],
            page_ids={k: int(v) for k, v in d.get("page_ids", {}).items()},
            source_gender=str(d.get("source_gender", "")),
            seg_ids=[int(i) for i in d.get("seg_ids", [])],
            revision_ids={k: int(v) for k, v in d.get("revision_ids", {}).items()},
            revision_timestamps={k: str(v) for k, v in d.get("revision_timestamps", {}).items()},
            sources={k: str(v) for k, v in d.get("sources", {}).items()},
        )


Record = TypeVar("Record", Entity, Article, Sentence, Alignment, Document)
