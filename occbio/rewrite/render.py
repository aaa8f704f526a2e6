"""A rewrite plan turned into text: the words replaced, everything between them copied
verbatim, case and elision kept; and the edits :meth:`~occbio.rewrite.Rewriter.explain`
reports."""

from __future__ import annotations

from typing import NamedTuple

from occbio.rewrite.tokens import match_case


class Edit(NamedTuple):
    """One change :meth:`Rewriter.explain` reports: characters ``start:end`` of the sentence,
    ``old`` → ``new``, made by ``rule`` (one of :data:`RULE_NAMES`)."""

    start: int
    end: int
    old: str
    new: str
    rule: str | int


#: What made an edit: a substitution learned from counterfactual pairs, anywhere or next to a
#: changed word; the language's own word list; an article or determiner agreeing with a changed
#: word; a productive-suffix guess checked against word frequencies; the language's grammar
#: rules (clitics, predicates, leads, pronoun choice).
RULE_NAMES = ("learned", "learned next to a change", "word list", "determiner", "suffix", "grammar")
RULE_OF_SOURCE = {
    "determiner": "determiner",
    "next": "learned next to a change",
    "prev": "learned next to a change",
    "guess": "suffix",
}


def _one_space(sentence: str, spans, i: int) -> bool:
    """Tokens ``i`` and ``i + 1`` are one space apart, or joined after an elision (`l'`): a
    two-word substitution may apply."""
    return i + 1 < len(spans) and sentence[spans[i][1] : spans[i + 1][0]] in (" ", "")


def _render(sentence: str, spans, toks, plan, *, elide: bool, edits: list | None = None) -> str:
    """The sentence with ``plan`` applied; everything between words copied verbatim. With
    ``edits``, each changed span is appended as an :class:`Edit` whose ``rule`` holds the token
    index (filled in by :meth:`Rewriter.explain`)."""
    out = []
    pos = 0
    skip_space = False
    i = 0
    n = len(toks)
    changed_any = False
    while i < n:
        a, b = spans[i]
        gap = sentence[pos:a]
        if skip_space and gap == " ":
            gap = ""
        skip_space = False
        if i in plan:
            ln, tgt = plan[i]
            src_toks = toks[i : i + ln]
            end = spans[i + ln - 1][1]
            new = [match_case(src_toks[0], tgt[0]), *list(tgt[1:])]
            # keep case of all-caps phrases on every word (`L'` is one capital, not all caps)
            letters = [c for c in src_toks[0] if c.isalpha()]
            if len(letters) > 1 and all(c.isupper() for c in letters):
                new = [w.upper() for w in new]
            text = " ".join(new)
            # elision: `un'attrice` <-> `un attore`
            old_elided = elide and src_toks[-1][-1:] in ("'", "’")
            new_elided = elide and text[-1:] in ("'", "’")
            if old_elided and not new_elided and end < len(sentence) and sentence[end].isalnum():
                text += " "
            if new_elided and not old_elided:
                skip_space = True
            if text != sentence[a:end]:
                changed_any = True
                if edits is not None:
                    # an elided new word takes the space after it (`un attore` → `un'attrice`)
                    eat = new_elided and not old_elided and sentence[end : end + 1] == " "
                    eat = eat and i + ln < n and spans[i + ln][0] == end + 1
                    stop = end + 1 if eat else end
                    edits.append(Edit(a, stop, sentence[a:stop], text, i))
            out.append(gap)
            out.append(text)
            pos = end
            i += ln
        else:
            out.append(gap)
            out.append(sentence[a:b])
            pos = b
            i += 1
    out.append(sentence[pos:])
    if not changed_any:
        return sentence
    return "".join(out)
