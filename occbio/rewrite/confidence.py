"""How far to trust a rewrite: a verdict and a score in [0, 1] for each line (issue #21).

Most wrong rewrites are omissions (the edits made are 96-99 % right): a word about the person
left in the old gender next to the words that changed. So the score is the chance that no word
was missed: the product, over the words left unchanged, of (1 - the share of the human pairs
that change the word), and a fixed risk for each word near a change that has a frequent
other-gender form. A line whose score falls under the threshold is ``uncertain``; otherwise it
is ``rewritten`` (something changed) or ``unchanged`` (nothing to change).

Signals and threshold were chosen on MT-GenEval's ``sentences-dev`` (benchmarks/rewrite.py
``--abstain sentences-dev --subset odd``); each signal kept raised exact-among-kept there. The
precision of the rule families that fired was measured too and dropped: it scales nearly every
line alike (a shift of the threshold, not evidence about the line); see docs/rewrite.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from occbio.rewrite.core import Rewriter

__all__ = ["THRESHOLD", "Confidence", "Verdict", "judge", "score_line"]

Kind = Literal["rewritten", "uncertain", "unchanged"]


@dataclass(frozen=True)
class Verdict:
    """A line's rewrite (``text``, exactly what :meth:`Rewriter.rewrite` returns), whether to
    trust it, the score behind that and a short reason."""

    text: str
    verdict: Kind
    score: float
    reason: str


@dataclass(frozen=True)
class Confidence:
    """The signals and their weights (the benchmark turns them off one by one)."""

    #: a word the human pairs change, left unchanged: the score times (1 - its change share)
    leftovers: bool = True
    #: a leftover counts only when it changed in at least this many pairs
    leftover_min: int = 2
    #: a word near a change (within ``window`` words) with a frequent other-gender form (the
    #: language's suffixes) left unchanged: the score times (1 - this)
    neighbour_risk: float = 0.5
    window: int = 2
    #: the score is under this: the line is uncertain
    threshold: float = 0.5


#: The default threshold, chosen on sentences-dev (see docs/rewrite.md).
THRESHOLD = Confidence().threshold


def score_line(
    leftovers: Sequence[tuple[str, int, int]],
    neighbours: Sequence[str] = (),
    conf: Confidence = Confidence(),
) -> tuple[float, str]:
    """(score, reason) of a line from the words left unchanged that the human pairs change
    (word, times changed, times seen) and the words near a change left unchanged that have a
    frequent other-gender form."""
    score, why = 1.0, []
    if conf.leftovers:
        risky = [w for w in leftovers if w[1] >= conf.leftover_min]
        for _word, changed, seen in risky:
            score *= 1 - changed / max(seen, changed, 1)
        if risky:
            word, changed, seen = max(risky, key=lambda w: w[1] / max(w[2], w[1], 1))
            why.append(f"{word!r} left unchanged (the human pairs change it {changed}/{seen})")
            if len(risky) > 1:
                why[-1] += f" and {len(risky) - 1} more"
    if conf.neighbour_risk and neighbours:
        score *= (1 - conf.neighbour_risk) ** len(neighbours)
        why.append(f"{neighbours[0]!r} near a change has another-gender form and was kept")
    return round(score, 4), "; ".join(why) or "nothing suggests a missed word"


def judge(
    rw: Rewriter,
    sentence: str,
    to: str,
    conf: Confidence = Confidence(),
    *,
    name: str | None = None,
) -> Verdict:
    """The :class:`Verdict` of ``rw`` on ``sentence`` about ``name`` (see
    :meth:`Rewriter.judge`)."""
    from occbio.rewrite.core import direction
    from occbio.rewrite.languages import Sentence
    from occbio.rewrite.tokens import pieces, word_spans

    d = direction(to)
    errors = rw.stats["errors"]
    text = rw.rewrite(sentence, to, name)  # type: ignore[arg-type]
    if rw.stats["errors"] != errors:
        return Verdict(text, "uncertain", 0.0, "a rule failed: the line is kept as it is")
    if not isinstance(sentence, str) or not sentence.strip():
        return Verdict(text, "unchanged", 1.0, "an empty line")
    leftovers: list[tuple[str, int, int]] = []
    neighbours: list[str] = []
    seen = rw._seen[d]
    try:
        for a, b in pieces(sentence):
            part = sentence[a:b]
            key = (part, d, name)  # planned by the rewrite above: not again
            planned = rw._last_plans[key] if key in rw._last_plans else rw._plan(part, d, name)
            if planned is None:
                spans = word_spans(part, rw.lang)
                toks, plan = [part[x:y] for x, y in spans], {}
            else:
                spans, toks, plan, _why = planned
            low = [t.lower() for t in toks]
            covered = [False] * len(toks)
            for i, (ln, _tgt) in plan.items():
                covered[i : i + ln] = [True] * ln
            sent = Sentence(part, spans, toks, low, covered=covered, lex=rw._lex[d],
                            relatives=rw.relatives)  # fmt: skip
            kept = rw.rules.protected_positions(d, sent)
            if rw.relatives == "keep":
                kept = kept | rw.rules.relatives(sent)
            near = _near_changes(covered, conf.window) if conf.neighbour_risk else covered
            for i, word in enumerate(low):
                if covered[i] or i in kept:
                    continue
                if word in seen:
                    changed, total = seen[word]
                    if changed:
                        leftovers.append((toks[i], changed, total))
                elif near[i] and _other_form(rw, d, word):
                    neighbours.append(toks[i])
    except Exception:  # the rewrite worked, the signals did not: do not vouch for it
        if rw.strict:
            raise
        return Verdict(text, "uncertain", 0.0, "its signals could not be computed")
    score, reason = score_line(leftovers, neighbours, conf)
    if score < conf.threshold:
        return Verdict(text, "uncertain", score, reason)
    return Verdict(text, "rewritten" if text != sentence else "unchanged", score, reason)


def _near_changes(covered: list[bool], window: int) -> list[bool]:
    """Whether each token is within ``window`` tokens of a changed one."""
    n = len(covered)
    return [any(covered[max(0, i - window) : i + window + 1]) for i in range(n)]


def _other_form(rw: Rewriter, d: str, word: str) -> bool:
    """``word`` has a frequent other-gender form by the language's suffixes."""
    from occbio.rewrite.data import _load_zipf

    if not rw.rules.has_morphology:
        return False
    zipf = _load_zipf(rw.lang)
    floor = rw.thresholds.morph_min_zipf
    return any(zipf.get(c, 0) >= floor for c in rw.rules.morph_candidates(d, word))
