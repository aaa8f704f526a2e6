"""The person-reference audit of gendered languages (Derner et al., GeBNLP 2025): the API.

Word lists miss most references to people in Spanish or Catalan, where grammatical gender
marks nouns, adjectives and participles. This method has a labeller mark every noun and
pronoun of a sentence as a person (P) or not (N) and masculine (M) or feminine (F); a corpus'
balance is L(P,M) : L(P,F). Two backends:

- ``chat`` (:class:`ChatBackend`): the paper's method, an LLM behind any OpenAI-compatible
  chat-completions API, with the paper's prompt and few-shot examples; Spanish and
  Valencian/Catalan (``es``, ``va``, ``ca``).
- ``offline`` (:class:`OfflineBackend`): rules over shipped word lists and a lexicon, no LLM,
  no network; Spanish and Valencian/Catalan. Measure either with :func:`validate`.

Any other language raises :class:`MethodUnavailable` (the paper's prompt exists for these two).

    backend = backend_from_options("offline")
    result = audit_lines(open("corpus.es.txt"), "es", backend, progress=True)
    print(result.ratio_text, result.feminine_share)
    print(format_validation(validate(backend, "es")))

The pieces live in :mod:`~occbio.audit.person_refs` (labels, prompt, parser, counter),
:mod:`~occbio.audit.chat_client`, :mod:`~occbio.audit.offline` and
:mod:`~occbio.audit.validate`; this module gathers them and builds backends by name.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from occbio.audit.chat_client import ChatBackend, ChatError, ChatUnreachable, PromptFailed
from occbio.audit.offline import OfflineBackend
from occbio.audit.person_refs import (
    PROMPT_LANGS,
    Backend,
    Gender,
    Label,
    MethodUnavailable,
    PersonRefCounter,
    PersonRefResult,
    SentenceLabels,
    audit_lines,
    build_prompt,
    parse_answer,
    skiplist,
)
from occbio.audit.validate import (
    GroundTruthMissing,
    ValidationResult,
    format_validation,
    ground_truth_path,
    read_ground_truth,
    score,
    validate,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_BASE_URL",
    "PROMPT_LANGS",
    "Backend",
    "ChatBackend",
    "ChatError",
    "ChatUnreachable",
    "Gender",
    "GroundTruthMissing",
    "Label",
    "MethodUnavailable",
    "OfflineBackend",
    "PersonRefCounter",
    "PersonRefResult",
    "PromptFailed",
    "SentenceLabels",
    "ValidationResult",
    "audit_lines",
    "backend_from_options",
    "build_prompt",
    "format_validation",
    "ground_truth_path",
    "parse_answer",
    "read_ground_truth",
    "score",
    "skiplist",
    "validate",
]

#: Where a chat backend sends its requests when neither ``base_url`` nor $OPENAI_BASE_URL says.
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: The model of a chat backend when ``model`` is not given.
MODEL_ENV = "OCCBIO_LLM_MODEL"


def _offline(**options: Any) -> Backend:
    if options:
        raise ValueError(f"the offline backend takes no options, got {', '.join(sorted(options))}")
    return OfflineBackend()


def _chat(**options: Any) -> Backend:
    base_url = (
        options.pop("base_url", None) or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    )
    model = options.pop("model", None) or os.environ.get(MODEL_ENV, "")
    if not model.strip():
        raise ValueError(
            "the chat backend needs a model: pass one (e.g. --model gpt-4-turbo) or set "
            f"${MODEL_ENV}"
        )
    return ChatBackend(base_url, model, **options)


#: Backends by name: what each supports is in its class's ``languages``.
BACKENDS: dict[str, Callable[..., Backend]] = {"offline": _offline, "chat": _chat}


def backend_from_options(kind: str, **options: Any) -> Backend:
    """A backend by name: ``offline`` (no options) or ``chat`` (``base_url``, ``model``,
    ``api_key_env``, ``cache_dir``, ``rate``, ``concurrency``, ``retries``, ``timeout``, ...:
    see :class:`ChatBackend`; ``base_url`` defaults to $OPENAI_BASE_URL, else OpenAI's,
    ``model`` to $OCCBIO_LLM_MODEL). Options that are ``None`` are left to the defaults."""
    factory = BACKENDS.get(kind.strip().lower())
    if factory is None:
        raise ValueError(f"unknown backend {kind!r}: choose one of {', '.join(sorted(BACKENDS))}")
    return factory(**{k: v for k, v in options.items() if v is not None})
