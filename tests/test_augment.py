"""`occbio rewrite` as a line filter and `--augment`: the counterfactual copy of a corpus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from occbio.cli import main
from occbio.rewrite import RULE_NAMES

pytest.importorskip("occbio.rewrite")


def test_rewrite_keeps_every_line_and_the_untouched_ones_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        "He was appointed director of the museum.",
        "",
        "The river is long.",
        "His mother was a painter.\r",
    ]
    source = tmp_path / "in.txt"
    source.write_bytes("\n".join(lines).encode() + b"\n")
    out = tmp_path / "out.txt"
    args = ["rewrite", "--lang", "en", "--to", "feminine"]
    assert main([*args, "--input", str(source), "--output", str(out)]) == 0
    got = out.read_bytes().split(b"\n")
    assert len(got) == len(lines) + 1 and got[-1] == b""
    assert got[0].decode() == "She was appointed director of the museum."
    assert got[1] == b"" and got[2] == b"The river is long."
    assert got[3] == b"Her mother was a painter.\r"  # the line's own ending kept


def test_rewrite_explain_lists_each_edit_and_the_rule_that_made_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.txt"
    source.write_text(
        "Fue nombrado director del museo.\nNada que cambiar.\nÉl nació en Lima.\n",
        encoding="utf-8",
    )
    out, tsv = tmp_path / "out.txt", tmp_path / "edits.tsv"
    args = ["rewrite", "--lang", "es", "--to", "feminine", "--input", str(source)]
    assert main([*args, "--output", str(out), "--explain", str(tsv)]) == 0
    lines = source.read_text(encoding="utf-8").splitlines()
    got = out.read_text(encoding="utf-8").splitlines()
    assert got[1] == lines[1] and got[2] == "Ella nació en Lima."
    rows = [r.split("\t") for r in tsv.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == ["line", "start", "end", "old", "new", "rule"]
    assert {r[0] for r in rows[1:]} == {"1", "3"}  # the unchanged line has no edit
    for n, start, end, old, new, rule in rows[1:]:
        src = lines[int(n) - 1]
        assert src[int(start) : int(end)] == old and new in got[int(n) - 1]
        assert rule in RULE_NAMES
    # replaying the edits on the source gives the rewritten line
    first = lines[0]
    for _, start, end, _old, new, _ in reversed([r for r in rows[1:] if r[0] == "1"]):
        first = first[: int(start)] + new + first[int(end) :]
    assert first == got[0] == "Fue nombrada directora del museo."
    # each line's verdict, score and reason on standard error
    shown = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("line ")]
    assert [ln.split(":")[0] for ln in shown] == ["line 1", "line 2", "line 3"]
    assert shown[1].startswith("line 2: unchanged (1.00): ")
    assert shown[0].startswith("line 1: rewritten (")
    # the chat backend has no rules to report: a one-line error before anything is read
    assert main([*args, "--explain", str(tsv), "--backend", "chat", "--model", "m"]) != 0
    err = capsys.readouterr().err.strip()
    assert "--explain" in err and len(err.splitlines()) == 1


def test_rewrite_keeps_the_persons_relatives_unless_asked(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("Su padre era pintor y él fue nombrado director.\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    args = ["rewrite", "--lang", "es", "--to", "feminine", "--input", str(source)]
    assert main([*args, "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == "Su padre era pintor y ella fue nombrada directora.\n"
    assert main([*args, "--output", str(out), "--relatives", "change"]) == 0
    assert out.read_text(encoding="utf-8").startswith("Su madre era pintora y ella")


def test_rewrite_refuses_a_language_it_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.txt"
    source.write_text("Hän on opettaja.\n", encoding="utf-8")
    args = ["rewrite", "--lang", "fi", "--to", "feminine", "--input", str(source)]
    assert main(args) != 0
    err = capsys.readouterr().err.strip()
    assert err.startswith("occbio: error:") and "fi" in err and len(err.splitlines()) == 1


def test_augment_writes_a_marked_counterfactual_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["mine", "--sample", "--langs", "en,es,ca", "--out", str(out), "-q"]
    assert main([*args, "--balance", "none", "--augment"]) == 0
    corpus = out / "corpus"
    rows = [json.loads(x) for x in (corpus / "corpus.jsonl").read_text().splitlines()]
    cf = [json.loads(x) for x in (corpus / "counterfactual.jsonl").read_text().splitlines()]
    binary = [r for r in rows if r["gender"] in ("female", "male")]
    manifest = json.loads((out / "manifest.json").read_text())["stages"]["write"]
    counts = manifest["counts"]
    assert manifest["settings"]["uncertain"] == "skip"  # the default, in the fingerprint
    # a copy of each female or male tuple the rules are sure of; the others counted
    assert 0 < counts["counterfactual_segments_uncertain"] < len(binary) // 2
    assert len(cf) == len(binary) - counts["counterfactual_segments_uncertain"]
    assert counts["counterfactual_segments"] == len(cf)
    for copy in cf:
        assert set(copy["text"]) == {"en", "es", "ca"}  # dropped in every language, or none
    # --uncertain keep: one rewritten copy of each female or male tuple, the same ids
    assert main(["augment", str(out), "--uncertain", "keep", "-q"]) == 0
    kept = [json.loads(x) for x in (corpus / "counterfactual.jsonl").read_text().splitlines()]
    assert len(kept) == len(binary)
    for original, copy in zip(binary, kept, strict=True):
        assert copy["qid"] == original["qid"] and copy["seg"] == original["seg"]
        assert copy["source_gender"] == original["gender"] != copy["gender"]
        assert set(copy["text"]) == {"en", "es", "ca"}
    changed = sum(c["text"] != o["text"] for c, o in zip(kept, binary, strict=True))
    assert changed >= len(kept) // 4  # the sample's sentences do talk about their person
    # the skipped copy is the kept one less whole tuples: each of its rows, in order, is one
    # of the kept copy's rows of the same document, every language as it was rewritten there
    rest = iter(kept)
    for copy in cf:
        assert any(k["qid"] == copy["qid"] and k["text"] == copy["text"] for k in rest)
    counts = json.loads((out / "manifest.json").read_text())["stages"]["write"]["counts"]
    assert counts["counterfactual_segments_uncertain"] == len(kept) - len(cf)
    assert "were kept (`--uncertain keep`)" in (out / "DATACARD.md").read_text()
    assert main(["augment", str(out), "-q"]) == 0  # the run remembers keep
    config = json.loads((out / "manifest.json").read_text())["config"]
    assert config["write"]["uncertain"] == "keep"
    assert main(["augment", str(out), "--uncertain", "skip", "-q"]) == 0  # and back
    # XML: every document marked, with its source gender
    root = etree.parse(str(corpus / "counterfactual.es.xml")).getroot()
    docs = root.findall("doc")
    assert docs and all(d.get("counterfactual") == "true" for d in docs)
    assert {d.get("source_gender") for d in docs} == {"female", "male"}
    header = (corpus / "counterfactual.tsv").read_text().splitlines()[0].split("\t")
    assert header[header.index("gender") + 1] == "source_gender"
    # the plain corpus is unchanged by --augment: no marks there
    assert "counterfactual" not in (corpus / "corpus.es.xml").read_text()
    counts = json.loads((out / "manifest.json").read_text())["stages"]["write"]["counts"]
    assert counts["counterfactual_documents"] == len({r["qid"] for r in cf})
    assert counts["counterfactual_skipped_non-binary"] >= 1
    card = (out / "DATACARD.md").read_text()
    assert "Counterfactual copy" in card and "non-binary" in card
    doubted = counts["counterfactual_segments_uncertain"]
    assert f"{doubted} segments whose rewrite the rules were uncertain of" in card
    assert "left out of the copy in every language" in card


@pytest.mark.slow
def test_augment_command_adds_the_same_copy_to_a_finished_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`occbio augment RUN` after a plain mine == `mine --augment`, byte for byte, with
    nothing but the run directory on the command line; other rewriting rules (a new occbio)
    rewrite the copy again instead of keeping a stale one."""
    args = ["mine", "--sample", "--langs", "en,es,ca", "--balance", "none", "-q"]
    direct, later = tmp_path / "direct", tmp_path / "later"
    assert main([*args, "--out", str(direct), "--augment"]) == 0
    assert main([*args, "--out", str(later)]) == 0
    assert not list((later / "corpus").glob("counterfactual.*"))
    assert main(["augment", str(later), "-q"]) == 0
    assert "counterfactual_documents=" in capsys.readouterr().out
    made = sorted(p.name for p in (direct / "corpus").iterdir())
    assert made == sorted(p.name for p in (later / "corpus").iterdir())
    assert any(name.startswith("counterfactual.") for name in made)
    for name in made:
        assert (direct / "corpus" / name).read_bytes() == (later / "corpus" / name).read_bytes()
    assert "Counterfactual copy" in (later / "DATACARD.md").read_text()
    entities = json.loads((later / "manifest.json").read_text())["stages"]["entities"]
    assert entities["status"] == "done"  # earlier stages were not run again
    assert main(["augment", str(later), "-q"]) == 0
    assert "already done" in capsys.readouterr().out
    import occbio.stages.write as write_stage

    monkeypatch.setattr(write_stage, "rules_fingerprint", lambda langs: {"es": "other rules"})
    assert main(["augment", str(later), "-q"]) == 0
    assert "already done" not in capsys.readouterr().out
    # another relatives setting is another copy; the run remembers it for the next augment
    assert main(["augment", str(later), "--relatives", "change", "-q"]) == 0
    assert "already done" not in capsys.readouterr().out
    write = json.loads((later / "manifest.json").read_text())["stages"]["write"]
    assert write["settings"]["relatives"] == "change"
    assert main(["augment", str(later), "-q"]) == 0
    assert "already done" in capsys.readouterr().out
    # keeping the uncertain segments is another copy too
    assert main(["augment", str(later), "--uncertain", "keep", "-q"]) == 0
    assert "already done" not in capsys.readouterr().out
    write = json.loads((later / "manifest.json").read_text())["stages"]["write"]
    assert write["settings"]["uncertain"] == "keep"
    assert main(["augment", str(later), "-q"]) == 0  # remembered, like --relatives
    assert "already done" in capsys.readouterr().out


def test_augment_command_refuses_what_is_not_a_finished_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["augment", str(tmp_path / "nowhere")]) == 1
    assert "not an occbio run directory" in capsys.readouterr().err
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text('{"occbio_run": 1, "stages": {}}\n')
    assert main(["augment", str(run)]) == 1
    err = capsys.readouterr().err
    assert "no balanced corpus yet" in err and err.count("\n") == 1


def test_counterfactuals_count_segments_changed_in_some_languages_only() -> None:
    from collections import Counter

    from occbio.augment import counterfactuals
    from occbio.records import Document, Entity

    doc = Document(
        entity=Entity("Q1", "Ana Pérez", gender="female"),
        segments=[
            {"en": "She was a painter.", "es": "Ella fue pintora."},  # both change
            {"en": "Her work is in Madrid.", "es": "Su obra está en Madrid."},  # en only
            {"en": "The museum opened in 1900.", "es": "El museo abrió en 1900."},  # none
        ],
    )
    stats: Counter[str] = Counter()
    (copy,) = counterfactuals([doc], ["en", "es"], stats)
    assert copy.segments[0] == {"en": "He was a painter.", "es": "Él fue pintor."}
    assert copy.segments[1]["es"] == "Su obra está en Madrid."
    assert stats["counterfactual_segments_partly_changed"] == 1
    assert stats["counterfactual_sentences_changed"] == 3


def test_augment_names_a_damaged_file_of_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    assert main(["mine", "--sample", "--langs", "en,es", "--out", str(run), "-q"]) == 0
    people = run / "balance" / "people.jsonl"
    people.write_text(people.read_text()[:200] + '\n{"broken\n', encoding="utf-8")
    assert main(["augment", str(run), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "people.jsonl:" in err and "damaged" in err


@pytest.fixture(scope="module")
def mined_en_es(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished sample run (en, es) to copy; never written."""
    run = tmp_path_factory.mktemp("augment-base") / "run"
    assert main(["mine", "--sample", "--langs", "en,es", "--out", str(run), "-q"]) == 0
    return run


def _copy_run(base: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(base, to, symlinks=True)
    return to


def _edit_manifest(run: Path, edit: Any) -> None:
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    edit(manifest)
    (run / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda m: m["config"].update(write="x"), "write: Input should be a valid dictionary"),
        (lambda m: m["config"].update(name="../../x"), "name: '../../x' is not a plain folder"),
        (lambda m: m["config"].update(langs="en"), "langs: Input should be a valid list"),
        (lambda m: m["stages"].update(balance="x"), "stages.balance"),
    ],
)
def test_augment_refuses_a_manifest_with_bad_settings_in_one_line(
    mined_en_es: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, expected: str
) -> None:
    run = _copy_run(mined_en_es, tmp_path / "run")
    _edit_manifest(run, edit)
    bookkeeping = ("manifest.json", ".occbio.lock")  # the lock's holder, the versions that ran
    before = {
        p: p.read_bytes() for p in run.rglob("*") if p.is_file() and p.name not in bookkeeping
    }
    assert main(["augment", str(run), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("occbio: error: ") and "Traceback" not in err
    assert f"{run / 'manifest.json'}" in err and expected in err
    assert not list((run / "corpus").glob("counterfactual.*"))
    assert before == {p: p.read_bytes() for p in before}


@pytest.mark.slow
def test_augment_writes_nothing_through_a_link_out_of_the_run(
    mined_en_es: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The run directory's own check (run.py): augment goes through it like every stage."""
    import shutil

    run = _copy_run(mined_en_es, tmp_path / "run")
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("the user's", encoding="utf-8")
    shutil.rmtree(run / "corpus")
    (run / "corpus").symlink_to(target, target_is_directory=True)
    assert main(["augment", str(run), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{run / 'corpus'}" in err
    assert [p.name for p in target.iterdir()] == ["keep.txt"]
    assert (target / "keep.txt").read_text(encoding="utf-8") == "the user's"


def _doc(segments: list[dict[str, str]]) -> Any:
    from occbio.records import Document, Entity

    scores = [{"es": float(k)} for k in range(len(segments))]
    return Document(Entity("Q1", "Ana Pérez", gender="male"), segments=segments, scores=scores)


def test_an_uncertain_segment_leaves_the_copy_in_every_language() -> None:
    """English is sure (nothing to change), Spanish is not (`famoso` kept): the whole tuple
    goes, its margin scores with it; `keep` keeps it; a document with nothing sure is dropped
    and counted."""
    from collections import Counter

    from occbio.augment import counterfactuals

    sure = {"en": "He was an actor.", "es": "Él fue actor."}
    doubt = {
        "en": "The director of the museum was famous.",
        "es": "El director del museo fue famoso.",
    }
    stats: Counter[str] = Counter()
    (copy,) = counterfactuals([_doc([doubt, sure])], ["en", "es"], stats)
    assert copy.segments == [{"en": "She was an actress.", "es": "Ella fue actriz."}]
    assert copy.scores == [{"es": 1.0}]  # the kept segment's own scores
    assert copy.seg_ids == [2]  # its original's number: the copy pairs with it by (qid, seg)
    assert stats["counterfactual_segments_uncertain"] == 1
    assert stats["counterfactual_segments"] == 1 and stats["counterfactual_documents"] == 1
    stats = Counter()
    (copy,) = counterfactuals([_doc([doubt, sure])], ["en", "es"], stats, uncertain="keep")
    assert len(copy.segments) == 2 and copy.scores == [{"es": 0.0}, {"es": 1.0}]
    assert [copy.seg_id(i) for i in range(2)] == [1, 2]
    assert stats["counterfactual_segments_uncertain"] == 1
    stats = Counter()
    assert list(counterfactuals([_doc([doubt])], ["en", "es"], stats)) == []
    assert stats["counterfactual_documents_uncertain"] == 1
    assert stats["counterfactual_documents"] == 0
    with pytest.raises(ValueError, match="uncertain must be"):
        list(counterfactuals([_doc([sure])], ["en"], Counter(), uncertain="drop"))


def test_a_copy_that_left_a_segment_out_keeps_the_originals_ids_in_every_format(
    tmp_path: Path,
) -> None:
    """The corpus files number a copy's segments as their originals are numbered, so a
    counterfactual pairs with its original by (qid, seg) in the XML, TSV, JSONL and Parquet."""
    import json

    import pyarrow.parquet as pq

    from occbio.io.corpus import write_corpus
    from occbio.records import Document

    doc = _doc([{"en": "He sang.", "es": "Él cantó."}] * 3)
    copy = Document(doc.entity, segments=doc.segments[1:], scores=doc.scores[1:], seg_ids=[2, 3])
    assert Document.from_dict(json.loads(json.dumps(copy.to_dict()))) == copy
    write_corpus(tmp_path, ["en", "es"], [copy], pivot="en")
    xml = (tmp_path / "corpus.en.xml").read_text(encoding="utf-8")
    assert '<seg id="2">' in xml and '<seg id="3">' in xml and '<seg id="1">' not in xml
    rows = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text().splitlines()]
    assert [r["seg"] for r in rows] == [2, 3]
    assert pq.read_table(tmp_path / "corpus.parquet").column("seg").to_pylist() == [2, 3]
    header, *lines = (tmp_path / "corpus.tsv").read_text(encoding="utf-8").splitlines()
    seg = header.split("\t").index("seg")
    assert [line.split("\t")[seg] for line in lines] == ["2", "3"]


def test_the_data_card_counts_the_uncertain_segments() -> None:
    from occbio.report.datacard import _counterfactual_note

    counts = {
        "counterfactual_documents": 3,
        "counterfactual_segments": 10,
        "counterfactual_segments_uncertain": 4,
        "counterfactual_documents_uncertain": 1,
    }
    (skipped, _) = _counterfactual_note(counts, "skip")
    assert "4 segments whose rewrite the rules were uncertain of" in skipped
    assert "left out of the copy in every language" in skipped and "1 documents" in skipped
    (kept, _) = _counterfactual_note(counts, "keep")
    assert "4 segments" in kept and "were kept (`--uncertain keep`)" in kept
    (none, _) = _counterfactual_note({**counts, "counterfactual_segments_uncertain": 0}, "skip")
    assert "uncertain" not in none
