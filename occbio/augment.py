"""Counterfactual documents: each one rewritten into the other gender, in every language.

For debiasing data (counterfactual data augmentation): a document about a woman becomes the
same document about a man, and the reverse, every sentence of every language through
:mod:`occbio.rewrite` with the same target, so the tuple stays parallel. The person's name and
everything not gendered stay as they are; the name (the article's title in each language, and
the Wikidata label) anchors the rewrite where a sentence names the person without a pronoun
(``Savini diente als Kriegsfotograf``). Documents of other genders (non-binary, unknown) have
no single "other" gender to be rewritten into: they are left out and counted.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from occbio.records import Document, Entity

__all__ = ["OPPOSITE", "check_languages", "counterfactuals", "person_name"]

#: The gender a document is rewritten into, by the gender it is about.
OPPOSITE = {"female": "male", "male": "female"}
#: The rewriter's name for the grammatical gender a person of each category takes.
_TARGET = {"female": "feminine", "male": "masculine"}


_QUALIFIER = re.compile(r"\s*\([^)]*\)")


def person_name(entity: Entity, lang: str) -> str:
    """The person's name as a sentence in ``lang`` writes it: the article's title without its
    qualifier (``Marco Savini (fotografo)``), and the Wikidata label (another script's name
    adds no match, and a shared one no harm)."""
    title = _QUALIFIER.sub("", entity.titles.get(lang, ""))
    return " ".join(dict.fromkeys(n for n in (title.strip(), entity.label.strip()) if n))


def check_languages(langs: Sequence[str]) -> None:
    """Raise :class:`~occbio.rewrite.RewriteUnavailable` unless every language can be rewritten
    (a tuple rewritten in some languages only would no longer be parallel)."""
    from occbio.rewrite import RewriteUnavailable, supported_languages

    missing = [lang for lang in langs if lang not in supported_languages()]
    if missing:
        raise RewriteUnavailable(
            f"--augment: occbio cannot rewrite {', '.join(missing)} (it rewrites "
            f"{', '.join(supported_languages())}); a tuple rewritten in some of its languages "
            "only would not be parallel"
        )


def counterfactuals(
    docs: Iterable[Document],
    langs: Sequence[str],
    stats: Counter[str],
    *,
    relatives: str = "keep",
    uncertain: str = "skip",
) -> Iterator[Document]:
    """The counterfactual copy of each female or male document, in input order; ``stats``
    counts documents, segments, the sentences the rewriting changed, the segments changed in
    some of their languages only (worth a look: the rules of one language may have missed
    what another's found), the segments whose rewrite was uncertain in some language, and the
    documents left out by gender. ``relatives``: the person's relatives (`her mother`) kept as
    they are or changed too. ``uncertain``: ``skip`` drops an uncertain segment (see
    :meth:`~occbio.rewrite.Rewriter.judge`) from the copy in every language, so the copy stays
    parallel and holds no rewrite the rules doubt (a document left with none is dropped, and
    counted); ``keep`` keeps it."""
    from occbio.rewrite import Rewriter

    if uncertain not in ("keep", "skip"):
        raise ValueError(f"uncertain must be 'keep' or 'skip', not {uncertain!r}")

    rewriters = {lang: Rewriter(lang, relatives=relatives) for lang in langs}
    for doc in docs:
        source = doc.entity.gender
        target = OPPOSITE.get(source)
        if target is None:
            stats[f"counterfactual_skipped_{source}"] += 1
            continue
        segments, scores, seg_ids = [], [], []
        names = {lang: person_name(doc.entity, lang) or None for lang in langs}
        for k, seg in enumerate(doc.segments):
            verdicts = {
                lang: rewriters[lang].judge(text, _TARGET[target], name=names.get(lang))
                for lang, text in seg.items()
            }
            if any(v.verdict == "uncertain" for v in verdicts.values()):
                stats["counterfactual_segments_uncertain"] += 1
                if uncertain == "skip":
                    continue  # in every language: the copy stays parallel
            new = {lang: v.text for lang, v in verdicts.items()}
            changed = sum(new[lang] != text for lang, text in seg.items())
            stats["counterfactual_sentences_changed"] += changed
            if 0 < changed < len(seg):
                # one language's rewrite found something to change, another's did not: the
                # tuple may no longer say the same thing in every language
                stats["counterfactual_segments_partly_changed"] += 1
            segments.append(new)
            seg_ids.append(doc.seg_id(k))
            if k < len(doc.scores):
                scores.append(doc.scores[k])
        if doc.segments and not segments:
            stats["counterfactual_documents_uncertain"] += 1
            continue
        stats["counterfactual_documents"] += 1
        stats["counterfactual_segments"] += len(segments)
        yield dataclasses.replace(
            doc,
            entity=dataclasses.replace(doc.entity, gender=target),
            segments=segments,
            scores=scores,
            source_gender=source,
            # the originals' numbers where a segment was left out: each pairs with its original
            seg_ids=seg_ids if len(segments) < len(doc.segments) else [],
        )
    errors = sum(rw.stats["errors"] for rw in rewriters.values())
    if errors:  # sentences a rule failed on were kept as they are (logged by the rewriter)
        stats["counterfactual_sentences_not_rewritten"] += errors
