"""Gender rewriting by an LLM behind an OpenAI-compatible chat API, guarded by the rules.

:class:`ChatRewriter` has the interface of :class:`occbio.rewrite.Rewriter` (``lang``,
``rewrite``, ``rewrite_many``), so ``occbio rewrite --backend chat`` and
``benchmarks/rewrite.py --backend chat`` measure it the same way. The requests go through the
audit's :class:`~occbio.audit.chat_client.ChatBackend` (rate limit, retries, ``Retry-After``,
the answer cache on disk).

An answer is used only when it is plausibly the same sentence (:func:`accept_answer`): one
line, not empty, no control character but tab, and at most half of its words replaced by other
words (an inflection of the same word, `director` → `directora`, does not count). Anything else
(a refusal, an explanation, a translation, a NUL or an escape sequence, a server that gave up
on the prompt) falls back to the rule-based rewrite of the same sentence, counted in ``stats``
(``fallback_*``), so one bad answer never costs a line. A sentence the rules leave unchanged
is still sent: the model may know more.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from occbio.rewrite.core import Rewriter, Target, direction
from occbio.rewrite.tokens import words

__all__ = ["ChatRewriter", "accept_answer", "build_prompt", "in_batches", "use_answer"]

logger = logging.getLogger(__name__)

_LANG_NAMES = {
    "en": "English",
    "es": "Spanish",
    "ca": "Catalan",
    "fr": "French",
    "it": "Italian",
    "pt": "Portuguese",
    "de": "German",
    "ru": "Russian",
}
#: An answer may change at most this share of the sentence's words (and at least 2).
MAX_CHANGED_SHARE = 0.5
#: Control characters other than tab (NUL, escapes, line breaks): no sentence of a corpus
#: holds them, so an answer that does is not a rewrite.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")

_PROMPT = """Rewrite this {language} sentence from a biography so that the person it is about \
is {target}. Change only the words whose grammatical gender follows that person: pronouns, \
nouns and titles naming the person, and the articles, determiners, adjectives and participles \
that agree with them. Keep everything else exactly as it is: names, quotes, other people, \
punctuation and spacing.{relatives} If nothing needs to change, return the sentence unchanged.
Answer with the rewritten sentence only, on one line, without quotes or comments.

Sentence: {sentence}"""


#: with ``relatives="change"``: the person's relatives are mirrored too (MT-GenEval's way)
_RELATIVES_TOO = (
    " Exception: the person's relatives change gender too, as if the whole family were "
    "mirrored (her mother becomes his father, his sister becomes her brother)."
)


def build_prompt(sentence: str, lang: str, to: Target, relatives: str = "keep") -> str:
    target = "a woman" if to == "feminine" else "a man"
    extra = _RELATIVES_TOO if relatives == "change" else ""
    return _PROMPT.format(
        language=_LANG_NAMES[lang], target=target, sentence=sentence, relatives=extra
    )


def accept_answer(sentence: str, answer: str, lang: str) -> str | None:
    """The rewritten sentence in ``answer``, or ``None`` when it is not plausibly a rewrite.

    Strips a surrounding code fence or quotes the model added (not ones the sentence has)."""
    text = answer.strip()
    if text.startswith("```") and text.endswith("```"):
        text = text.strip("`").strip()
        if "\n" in text and not text.split("\n", 1)[0].strip().count(" "):
            text = text.split("\n", 1)[1].strip()  # a language tag after the fence
    for q in ('"', "“”", "«»", "'"):
        op, cl = q[0], q[-1]
        if (
            len(text) > 1
            and text[0] == op
            and text[-1] == cl
            and not (sentence.startswith(op) and sentence.endswith(cl))
        ):
            text = text[1:-1].strip()
    if not text or "\n" in text or _CONTROL_RE.search(text):
        return None
    src, out = words(sentence, lang), words(text, lang)
    if not src or not out:
        return None
    a, b = [w.lower() for w in src], [w.lower() for w in out]
    changed = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:  # an inflection is not a new word
            changed += sum(not _inflection(x, y) for x, y in zip(a[i1:i2], b[j1:j2], strict=True))
        else:
            changed += max(i2 - i1, j2 - j1)
    if changed > max(2, MAX_CHANGED_SHARE * len(src)):
        return None
    return text


def use_answer(
    sentence: str, answer: str, to: Target, fallback: Rewriter, stats: Counter[str]
) -> str:
    """What goes out for ``sentence`` given a model's ``answer``: the rewrite in it when
    :func:`accept_answer` takes it (the sentence's leading and trailing space kept), else
    ``fallback``'s rewrite. Counted in ``stats``: ``answers`` (of which ``unchanged``) or
    ``fallback_bad_answer``. Shared by every model backend (chat, hf)."""
    text = accept_answer(sentence, answer, fallback.lang)
    if text is None:
        logger.debug("answer for %r not used: %r", sentence[:60], answer[:80])
        stats["fallback_bad_answer"] += 1
        return fallback.rewrite(sentence, to)
    stats["answers"] += 1
    if text == sentence.strip():
        stats["unchanged"] += 1
        return sentence  # the same object: nothing changed, leading/trailing space kept
    lead = sentence[: len(sentence) - len(sentence.lstrip())]
    trail = sentence[len(sentence.rstrip()) :]
    return lead + text + trail


def _inflection(x: str, y: str) -> bool:
    """`heredero`/`heredera`, `tío`/`tía`, `actor`/`actrice`: the same word in another form."""
    need = min(3, min(len(x), len(y)) - 1)
    return need >= 1 and x[:need] == y[:need]


class ChatRewriter:
    """Rewrites sentences with a chat model; the rules answer where the model does not.

    ``client`` is a :class:`~occbio.audit.chat_client.ChatBackend` (anything with
    ``complete(prompt) -> str`` raising ``PromptFailed`` for a prompt that got no answer and
    ``concurrency``); ``fallback`` the rule-based rewriter of the language (built when not
    given). ``stats`` counts ``answers``, ``unchanged`` and each ``fallback_*`` reason.
    """

    def __init__(
        self,
        lang: str,
        client: Any,
        *,
        fallback: Rewriter | None = None,
        relatives: str = "keep",
    ) -> None:
        self.fallback = fallback or Rewriter(lang, relatives=relatives)
        self.relatives = relatives
        self.lang = self.fallback.lang
        self.client = client
        self.stats: Counter[str] = Counter()
        self._pool: ThreadPoolExecutor | None = None

    def rewrite(self, sentence: str, to: Target) -> str:
        direction(to)
        if not isinstance(sentence, str) or not sentence.strip():
            return sentence
        from occbio.audit.chat_client import PromptFailed

        try:
            answer = self.client.complete(build_prompt(sentence, self.lang, to, self.relatives))
        except PromptFailed as exc:
            logger.warning("no answer for %r (%s): the rules rewrite it", sentence[:60], exc)
            self.stats["fallback_no_answer"] += 1
            return self.fallback.rewrite(sentence, to)
        return use_answer(sentence, answer, to, self.fallback, self.stats)

    def rewrite_many(self, lines: Iterable[str], to: Target, *, batch: int = 64) -> Iterator[str]:
        """Lines in, lines out, in order, ``client.concurrency`` requests in flight; each
        line's ending is kept."""
        direction(to)
        workers = max(1, int(getattr(self.client, "concurrency", 1)))
        if self._pool is None and workers > 1:
            self._pool = ThreadPoolExecutor(workers, thread_name_prefix="rewrite-chat")

        def rewrite_bodies(bodies: list[str]) -> list[str]:
            if self._pool is None:
                return [self.rewrite(b, to) for b in bodies]
            return list(self._pool.map(lambda b: self.rewrite(b, to), bodies))

        return in_batches(lines, batch, rewrite_bodies)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        close = getattr(self.client, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> ChatRewriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def in_batches(
    lines: Iterable[str], size: int, rewrite_bodies: Callable[[list[str]], list[str]]
) -> Iterator[str]:
    """``lines`` rewritten ``size`` at a time by ``rewrite_bodies`` (which sees them without
    their line endings), in order, each line's ending put back."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= size:
            yield from _rejoin(chunk, rewrite_bodies)
            chunk = []
    if chunk:
        yield from _rejoin(chunk, rewrite_bodies)


def _rejoin(lines: list[str], rewrite_bodies: Callable[[list[str]], list[str]]) -> list[str]:
    bodies = [line.rstrip("\r\n") for line in lines]
    outs = rewrite_bodies(bodies)
    return [o + line[len(b) :] for o, b, line in zip(outs, bodies, lines, strict=True)]
