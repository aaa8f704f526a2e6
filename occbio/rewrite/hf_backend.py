"""Gender rewriting by a local transformers model (``occbio rewrite --backend hf``), guarded by
the rules exactly as the chat backend is.

The model directory is what ``occbio models download OWNER/NAME DIR`` (or the Hub's own
download with ``--local-dir``) leaves; nothing is ever downloaded: every load passes
``local_files_only=True`` and runs with the Hub's offline mode on. Its ``config.json`` decides
the kind:

* **seq2seq** (``is_encoder_decoder``: T5, BART, mT5, Marian ...) gets the sentence alone with
  a task prefix in T5's manner, ``rewrite to feminine: <sentence>`` (or ``masculine``;
  :data:`SEQ2SEQ_PREFIX`): a model fine-tuned for this backend is trained on that input; the
  relatives setting does not reach it;
* **causal** (GPT-2, Llama, Qwen ...) gets the chat backend's own prompt
  (:func:`~occbio.rewrite.chat.build_prompt`), through the tokenizer's chat template when it
  has one; a model without one (a base model) gets the prompt followed by
  ``Rewritten sentence:`` and its answer is read up to the first line break, as a base model
  has no end of turn to stop at.

Decoding is greedy and batched; an answer may be at most ``2 × (tokens of the batch's longest
sentence) + 16`` new tokens, so a model that runs on costs little. Each answer goes through
the chat backend's :func:`~occbio.rewrite.chat.use_answer` (its
:func:`~occbio.rewrite.chat.accept_answer` checks): an unusable one falls back to the rules'
rewrite of the sentence, counted in ``stats`` with the same keys as chat (``answers``,
``unchanged``, ``fallback_*``). A sentence too long for the model's positions is not sent
(``fallback_too_long``); a batch the model fails on (out of memory) is tried sentence by
sentence, and a sentence it still fails on falls back (``fallback_model_error``).

No model has been measured with this backend: none is available offline here.
"""

from __future__ import annotations

import copy
import logging
import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from occbio.rewrite.chat import build_prompt, in_batches, use_answer
from occbio.rewrite.core import Rewriter, Target, direction

__all__ = ["SEQ2SEQ_PREFIX", "HFRewriter", "ModelUnavailable"]

logger = logging.getLogger(__name__)

#: What a seq2seq model reads before the sentence (``{target}``: feminine or masculine).
SEQ2SEQ_PREFIX = "rewrite to {target}: "
#: What follows the chat prompt for a causal model without a chat template.
_ANSWER_CUE = "\nRewritten sentence:"
_GET_MODEL = (
    "occbio models download OWNER/NAME DIR (a seq2seq or causal language model of the Hugging "
    "Face Hub; needs the network) or copy a model directory from a machine that has one"
)


class ModelUnavailable(RuntimeError):
    """The model directory cannot be used here; the message says why and what to do."""


def _import_backend() -> tuple[Any, Any]:
    """torch and transformers, their absence as the same install hint as ``--encoder hf``."""
    from occbio.align.hf_encoder import HF_INSTALL_HINT

    try:
        import torch
        import transformers
    except ImportError as exc:
        raise ModelUnavailable(
            f"--backend hf needs torch and transformers ({exc.name or exc} is missing): "
            f"{HF_INSTALL_HINT}"
        ) from exc
    return torch, transformers


@contextmanager
def _offline() -> Iterator[None]:
    """The Hub's offline mode while a model loads (``local_files_only`` is passed as well),
    put back as it was afterwards, so that ``occbio models download`` in the same process
    still works."""
    from huggingface_hub import constants

    was_env, was_const = os.environ.get("HF_HUB_OFFLINE"), constants.HF_HUB_OFFLINE
    os.environ["HF_HUB_OFFLINE"] = "1"
    constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = was_const
        if was_env is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = was_env


def _check_directory(directory: Path) -> None:
    from occbio.align.hf_model_dir import _weight_files

    where = f"model directory {directory} (--model-dir)"
    if not directory.exists():
        raise ModelUnavailable(f"{where} does not exist; get a model with {_GET_MODEL}")
    if not directory.is_dir():
        raise ModelUnavailable(f"{where} is a file: give the directory that holds config.json")
    if not (directory / "config.json").is_file():
        raise ModelUnavailable(
            f"{where} holds no Hugging Face model (no config.json); get one with {_GET_MODEL}"
        )
    if not _weight_files(directory):
        raise ModelUnavailable(
            f"{where} has no weights (model.safetensors or pytorch_model.bin; an interrupted "
            f"download?); get them with {_GET_MODEL}"
        )


def _generative_classes(names: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for value in names.values():
        out.update([value] if isinstance(value, str) else value)
    return out


def _model_kind(config: Any, directory: Path) -> str:
    """``seq2seq`` or ``causal``; a model saved without a generating head is refused."""
    from transformers.models.auto import modeling_auto as auto

    seq2seq = auto.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES
    causal = auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
    saved = list(getattr(config, "architectures", None) or [])
    generative = _generative_classes(seq2seq) | _generative_classes(causal)
    if saved and not generative & set(saved):
        raise ModelUnavailable(
            f"the model in {directory} is a {', '.join(saved)}, which does not generate text: "
            "--backend hf needs a seq2seq or causal language model"
        )
    if getattr(config, "is_encoder_decoder", False) and config.model_type in seq2seq:
        return "seq2seq"
    if config.model_type in causal:
        return "causal"
    raise ModelUnavailable(
        f"the model in {directory} ({config.model_type}) is neither a seq2seq nor a causal "
        "language model that transformers knows: --backend hf cannot run it"
    )


def _max_positions(config: Any) -> int | None:
    """The model's longest sequence, or ``None`` (relative positions, as in T5)."""
    for key in ("max_position_embeddings", "n_positions", "max_sequence_length"):
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


class HFRewriter:
    """Rewrites sentences with a local seq2seq or causal model; the rules answer where it does
    not.

    ``model_dir``: the model directory (config, tokenizer and weights). ``device``: ``auto``
    (CUDA when torch sees a GPU), ``cpu`` or ``cuda``; on CUDA the model runs in bfloat16
    where the GPU has it. ``batch_size``: sentences per ``generate`` call. ``fallback``: the
    rules of the language (built when not given). The model loads once, here: a directory that
    holds no usable model raises :class:`ModelUnavailable` with a one-line reason.
    """

    def __init__(
        self,
        lang: str,
        model_dir: str | os.PathLike[str],
        *,
        device: str = "auto",
        batch_size: int = 16,
        fallback: Rewriter | None = None,
        relatives: str = "keep",
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        self.fallback = fallback or Rewriter(lang, relatives=relatives)
        self.relatives = relatives
        self.lang = self.fallback.lang
        self.batch_size = batch_size
        self.stats: Counter[str] = Counter()
        directory = Path(model_dir).expanduser()
        _check_directory(directory)
        self.model_dir = directory.resolve()
        self._torch, transformers = _import_backend()
        from occbio.align.encoders import torch_device
        from occbio.align.hf_encoder import _first_line, _quiet_loading

        self.device = torch_device(device)
        started = time.perf_counter()
        kwargs = {"local_files_only": True, "trust_remote_code": False}
        try:
            with _offline(), _quiet_loading():
                config = transformers.AutoConfig.from_pretrained(str(self.model_dir), **kwargs)
                self.kind = _model_kind(config, directory)
                auto = (
                    transformers.AutoModelForSeq2SeqLM
                    if self.kind == "seq2seq"
                    else transformers.AutoModelForCausalLM
                )
                tokenizer = transformers.AutoTokenizer.from_pretrained(
                    str(self.model_dir), **kwargs
                )
                model = auto.from_pretrained(str(self.model_dir), **kwargs)
        except ModelUnavailable:
            raise
        except Exception as exc:  # a foreign or damaged file fails in many ways inside torch
            raise ModelUnavailable(
                f"cannot load the model in {directory} ({_first_line(exc)}); if a file is "
                f"damaged, get it again with {_GET_MODEL}"
            ) from exc
        torch = self._torch
        cuda_bf16 = self.device == "cuda" and torch.cuda.is_bf16_supported()
        model.to(device=self.device, dtype=torch.bfloat16 if cuda_bf16 else torch.float32)
        model.eval()
        if tokenizer.pad_token is None:  # GPT-2 and most base models: pad with the end token
            tokenizer.pad_token = tokenizer.eos_token or tokenizer.unk_token
        if tokenizer.pad_token is None:
            raise ModelUnavailable(
                f"the tokenizer in {directory} has no padding, end or unknown token to pad with"
            )
        rows = model.get_input_embeddings().num_embeddings
        if len(tokenizer) > rows:  # ids past the table: an IndexError, or a dead GPU context
            raise ModelUnavailable(
                f"the tokenizer in {directory} has {len(tokenizer)} tokens and the model only "
                f"{rows}: they do not belong together"
            )
        tokenizer.padding_side = "left"  # a causal model continues right after the prompt
        self.templated = self.kind == "causal" and bool(getattr(tokenizer, "chat_template", None))
        self._model, self._tokenizer = model, tokenizer
        self._max_positions = _max_positions(config)
        try:  # a generation setting the model cannot run fails here, not mid-input
            self._generate(["."], "feminine")
        except Exception as exc:
            raise ModelUnavailable(
                f"the model in {directory} does not generate ({_first_line(exc)})"
            ) from exc
        logger.info(
            "hf: loaded %s (%s%s, %s) in %.1f s",
            directory,
            self.kind,
            ", chat template" if self.templated else "",
            self.device,
            time.perf_counter() - started,
        )

    def _model_input(self, sentence: str, to: Target) -> str:
        if self.kind == "seq2seq":
            return SEQ2SEQ_PREFIX.format(target=to) + sentence
        prompt = build_prompt(sentence, self.lang, to, self.relatives)
        if not self.templated:
            return prompt + _ANSWER_CUE
        return self._tokenizer.apply_chat_template(
            [{"role": "user", "content": prompt}], add_generation_prompt=True, tokenize=False
        )

    def _generate(self, sentences: list[str], to: Target) -> list[str | None]:
        """The model's answers for ``sentences``, one ``generate`` call; ``None`` for a
        sentence too long for the model's positions (not sent)."""
        tok = self._tokenizer
        special = not self.templated  # a chat template writes its own start token
        budgets = [2 * len(ids) + 16 for ids in tok(sentences, add_special_tokens=False).input_ids]
        inputs = [self._model_input(s, to) for s in sentences]
        lengths = [len(ids) for ids in tok(inputs, add_special_tokens=special).input_ids]
        fits = [
            self._max_positions is None
            or max(n, b + 1 if self.kind == "seq2seq" else n + b) <= self._max_positions
            for n, b in zip(lengths, budgets, strict=True)
        ]
        todo = [i for i, ok in enumerate(fits) if ok]
        answers: list[str | None] = [None] * len(sentences)
        if not todo:
            return answers
        batch = tok(
            [inputs[i] for i in todo],
            add_special_tokens=special,
            padding=True,
            return_tensors="pt",
        ).to(self.device)
        gen = copy.deepcopy(self._model.generation_config)
        gen.update(
            do_sample=False,
            num_beams=1,
            temperature=None,
            top_p=None,
            top_k=None,
            max_new_tokens=max(budgets[i] for i in todo),
            pad_token_id=tok.pad_token_id,
        )
        with self._torch.inference_mode():
            out = self._model.generate(**batch, generation_config=gen)
        if self.kind == "causal":
            out = out[:, batch["input_ids"].shape[1] :]
        for i, text in zip(todo, tok.batch_decode(out, skip_special_tokens=True), strict=True):
            if self.kind == "causal" and not self.templated:
                text = text.strip().split("\n", 1)[0]  # a base model runs on past its line
            answers[i] = text
        return answers

    def _answers(self, sentences: list[str], to: Target) -> list[str | Exception | None]:
        try:
            return list(self._generate(sentences, to))
        except RuntimeError as exc:  # out of memory, a CUDA error: alone, each may pass
            if len(sentences) == 1:
                return [exc]
            logger.warning("hf: a batch of %d failed (%s): one by one", len(sentences), exc)
            return [a for s in sentences for a in self._answers([s], to)]

    def _rewrite_batch(self, sentences: list[str], to: Target) -> list[str]:
        todo = [i for i, s in enumerate(sentences) if isinstance(s, str) and s.strip()]
        outs = list(sentences)
        answers = self._answers([sentences[i] for i in todo], to) if todo else []
        for i, answer in zip(todo, answers, strict=True):
            s = sentences[i]
            if isinstance(answer, str):
                outs[i] = use_answer(s, answer, to, self.fallback, self.stats)
                continue
            if answer is None:
                logger.debug("%r is too long for the model: the rules rewrite it", s[:60])
                self.stats["fallback_too_long"] += 1
            else:
                logger.warning("hf: no answer for %r (%s): the rules rewrite it", s[:60], answer)
                self.stats["fallback_model_error"] += 1
            outs[i] = self.fallback.rewrite(s, to)
        return outs

    def rewrite(self, sentence: str, to: Target) -> str:
        direction(to)
        return self._rewrite_batch([sentence], to)[0]

    def rewrite_many(self, lines: Iterable[str], to: Target) -> Iterator[str]:
        """Lines in, lines out, in order, ``batch_size`` sentences a ``generate`` call, each
        line's ending kept."""
        direction(to)
        return in_batches(lines, self.batch_size, lambda bodies: self._rewrite_batch(bodies, to))
