"""`occbio evaluate RUN_DIR` end to end on a mined and augmented sample run (issue #22): every
figure recomputed here from the run's own files, independently of occbio.evaluate: BLEU, chrF
and chrF++ by the sacrebleu command line, gender accuracy and the contrastive figure by
MT-GenEval's decision; reproducible bootstrap intervals; the worked example; every format."""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from occbio.cli import main
from occbio.evaluate.gender_accuracy import decide, gendered_words

SAMPLE = ["--sample", "--langs", "en,es,ca", "--augment"]
TGT = "es"
#: no subprocess here should take long; a hang must not block the suite
HANG_GUARD = 600
METRICS = ("BLEU", "chrF", "chrF++")


# --- the run, read directly from its files (not through occbio.evaluate)


def mine(out: Path) -> Path:
    """`occbio mine --sample --augment` (en, es, ca) into ``out``."""
    assert main(["mine", *SAMPLE, "--out", str(out), "-q"]) == 0
    return out


def read_lines(path: Path) -> list[str]:
    """A text file's lines as sacrebleu reads them (split on newlines only)."""
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def write_lines(path: Path, lines: Sequence[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Corpus:
    """The run's test set, from corpus/corpus.jsonl, corpus/corpus.TGT and the counterfactual
    copy: what a user's own script would read."""

    def __init__(self, run: Path) -> None:
        folder = run / "corpus"
        rows = jsonl(folder / "corpus.jsonl")
        self.ids = [f"{r['qid']}:{r['seg']}" for r in rows]
        self.docs = [r["qid"] for r in rows]
        self.gender = {r["qid"]: r["gender"] for r in rows}
        self.occupations = {r["qid"]: [o["label"] for o in r["occupations"]] for r in rows}
        self.refs = read_lines(folder / f"corpus.{TGT}")
        assert self.refs == [r["text"][TGT] for r in rows]
        cf_rows = jsonl(folder / "counterfactual.jsonl")
        self.cf_ids = [f"{r['qid']}:{r['seg']}" for r in cf_rows]
        self.cf_refs = read_lines(folder / f"counterfactual.{TGT}")
        self.cf_src = read_lines(folder / "counterfactual.en")
        # the file a user translates is in the order of counterfactual.jsonl
        assert self.cf_src == [r["text"]["en"] for r in cf_rows]
        assert self.cf_refs == [r["text"][TGT] for r in cf_rows]
        self.cf = dict(zip(self.cf_ids, self.cf_refs, strict=True))

    def subsets(self) -> dict[str, list[int]]:
        """Subset name (as occbio names it) -> the corpus lines of its documents."""
        out: dict[str, list[int]] = {"all": list(range(len(self.ids)))}
        for i, doc in enumerate(self.docs):
            out.setdefault(self.gender[doc], []).append(i)
            for occ in self.occupations[doc]:
                out.setdefault(f"occupation: {occ}", []).append(i)
        return out


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mine(tmp_path_factory.mktemp("evaluate") / "run")


@pytest.fixture(scope="module")
def corpus(run: Path) -> Corpus:
    return Corpus(run)


def evaluate(run: Path, out: Path, *args: str) -> dict[str, Any]:
    """`occbio evaluate RUN --tgt es --out OUT ARGS -q`; its scores.json."""
    assert main(["evaluate", str(run), "--tgt", TGT, "--out", str(out), "-q", *args]) == 0
    return json.loads((out / "scores.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def simulated(run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The worked example: `--simulate` with every occupation reported; its output folder."""
    out = tmp_path_factory.mktemp("simulated")
    evaluate(run, out, "--simulate", "--min-docs", "1")
    return out


def scores(out: Path) -> dict[str, Any]:
    return json.loads((out / "scores.json").read_text(encoding="utf-8"))


def figure(doc: dict[str, Any], system: str, section: str, subset: str, metric: str) -> dict:
    return doc["results"][system][section][subset][metric]


def perturbed(refs: Sequence[str]) -> list[str]:
    """A system the test builds: every third line loses its last word, every fifth is
    lowercased, every seventh has two words swapped, every fourth ends in white space (which
    the sacrebleu command line strips) and one line is empty."""
    out = []
    for i, ref in enumerate(refs):
        words = ref.split()
        if i % 3 == 0 and len(words) > 1:
            words = words[:-1]
        if i % 7 == 0 and len(words) > 2:
            words[0], words[1] = words[1], words[0]
        line = " ".join(words)
        line = line.lower() if i % 5 == 0 else line
        out.append(line + " \t\u00a0" if i % 4 == 1 else line)
    out[4] = ""
    return out


# --- 1. BLEU, chrF and chrF++ per subset: the sacrebleu command line's numbers


def sacrebleu_cli(folder: Path, refs: list[str], hyps: list[str], *extra: str) -> dict[str, Any]:
    """Scores and signatures ``python -m sacrebleu REF -i HYP`` prints for these lines."""
    ref, hyp = write_lines(folder / "ref.txt", refs), write_lines(folder / "hyp.txt", hyps)

    def cli(*args: str) -> list[dict[str, Any]]:
        command = [sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-w", "6"]
        done = subprocess.run(
            [*command, "-f", "json", *args, *extra],
            capture_output=True,
            text=True,
            check=True,
            timeout=HANG_GUARD,
        )
        printed = json.loads(done.stdout)
        return printed if isinstance(printed, list) else [printed]

    bleu, chrf = cli("-m", "bleu", "chrf")
    (chrf_pp,) = cli("-m", "chrf", "--chrf-word-order", "2")
    assert (bleu["name"], chrf["name"], chrf_pp["name"]) == ("BLEU", "chrF2", "chrF2++")
    return {
        "BLEU": bleu["score"],
        "chrF": chrf["score"],
        "chrF++": chrf_pp["score"],
        "signatures": {
            "BLEU": bleu["signature"],
            "chrF": chrf["signature"],
            "chrF++": chrf_pp["signature"],
        },
    }


@pytest.mark.slow
def test_quality_per_subset_is_the_sacrebleu_command_lines(
    run: Path, corpus: Corpus, simulated: Path, tmp_path: Path
) -> None:
    mine_hyps = write_lines(tmp_path / f"perturbed.{TGT}", perturbed(corpus.refs))
    doc = evaluate(run, tmp_path / "ev", "--system", f"perturbed={mine_hyps}", "--min-docs", "1")
    systems = {
        "noisy": (scores(simulated), read_lines(simulated / "systems" / f"noisy.{TGT}")),
        "perturbed": (doc, read_lines(mine_hyps)),
    }
    subsets = corpus.subsets()
    assert {"all", "female", "male"} < set(subsets)
    assert sum(s.startswith("occupation: ") for s in subsets) >= 3
    for name, (result, hyps) in systems.items():
        quality = result["results"][name]["quality"]
        assert set(quality) == set(subsets), name  # --min-docs 1: every occupation
        for subset, lines in subsets.items():
            want = sacrebleu_cli(
                tmp_path, [corpus.refs[i] for i in lines], [hyps[i] for i in lines]
            )
            for metric in METRICS:
                got = quality[subset][metric]
                assert got["value"] == pytest.approx(want[metric], abs=1.5e-6), (name, subset)
                assert got["segments"] == len(lines)
                assert got["docs"] == len({corpus.docs[i] for i in lines})
                assert got["low"] <= got["value"] <= got["high"], (name, subset, metric)
            assert result["signatures"] == want["signatures"]


def test_bleu_tokenizer_is_sacrebleus(run: Path, corpus: Corpus, tmp_path: Path) -> None:
    hyps = perturbed(corpus.refs)
    system = write_lines(tmp_path / f"perturbed.{TGT}", hyps)
    doc = evaluate(
        run,
        tmp_path / "ev",
        "--system",
        f"p={system}",
        "--tokenize",
        "char",
        "--metrics",
        "BLEU",
        "--resamples",
        "50",
    )
    want = sacrebleu_cli(tmp_path, corpus.refs, hyps, "-tok", "char")
    got = figure(doc, "p", "quality", "all", "BLEU")["value"]
    assert got == pytest.approx(want["BLEU"], abs=1.5e-6)
    assert doc["signatures"]["BLEU"] == want["signatures"]["BLEU"]
    assert "tok:char" in doc["signatures"]["BLEU"]
    assert set(doc["results"]["p"]["quality"]["all"]) == {"BLEU"}


# --- 2. bootstrap intervals reproducible from the seed


def test_bootstrap_is_reproducible_from_its_seed(run: Path, corpus: Corpus, tmp_path: Path) -> None:
    system = write_lines(tmp_path / f"perturbed.{TGT}", perturbed(corpus.refs))
    reference = run / "corpus" / f"corpus.{TGT}"
    base = [
        "--system",
        f"p={system}",
        "--system",
        f"ref={reference}",
        "--resamples",
        "200",
        "--min-docs",
        "1",
    ]
    first = evaluate(run, tmp_path / "a", *base, "--seed", "7")
    again = evaluate(run, tmp_path / "b", *base, "--seed", "7")
    other = evaluate(run, tmp_path / "c", *base, "--seed", "8")
    assert first["results"] == again["results"]
    assert first["settings"]["seed"] == 7 and other["settings"]["seed"] == 8
    assert first["settings"]["resamples"] == 200

    def flat(doc: dict[str, Any]) -> dict[tuple[str, ...], dict[str, Any]]:
        return {
            (system, section, subset, metric): fig
            for system, sections in doc["results"].items()
            for section, subsets in sections.items()
            for subset, metrics in subsets.items()
            for metric, fig in metrics.items()
        }

    a, c = flat(first), flat(other)
    assert a.keys() == c.keys()
    # the point values do not depend on the seed, the intervals do
    for key in a:
        assert a[key]["value"] == c[key]["value"], key
    moved = [k for k in a if (a[k]["low"], a[k]["high"]) != (c[k]["low"], c[k]["high"])]
    # over all six documents (both strata), every interval that has a width moves; a subset of
    # three documents has only ten distinct resamples, so its percentiles may not
    spread = [k for k in a if a[k]["low"] != a[k]["high"] and k[2] in ("all", "female - male")]
    assert len(spread) == 3 + 3 + 3 and set(spread) <= set(moved)


# --- 3. the worked example


def test_worked_example_masculine_default_gap(simulated: Path, corpus: Corpus) -> None:
    doc = scores(simulated)
    systems = {"reference", "masculine-default", "noisy"}
    assert set(doc["results"]) == systems | {"masculine-default - reference", "noisy - reference"}
    gap = figure(doc, "masculine-default", "gap", "female - male", "accuracy")
    assert gap["value"] <= -50 and gap["high"] < 0 and gap["p"] < 0.05
    female = figure(doc, "masculine-default", "gender accuracy", "female", "accuracy")
    male = figure(doc, "masculine-default", "gender accuracy", "male", "accuracy")
    assert female["value"] < 50 < male["value"]
    for metric in (*METRICS, "accuracy", "follows source"):
        ref_gap = figure(doc, "reference", "gap", "female - male", metric)
        assert (ref_gap["value"], ref_gap["low"], ref_gap["high"]) == (0, 0, 0), metric
    for subset in ("all", "female", "male"):
        assert figure(doc, "reference", "quality", subset, "BLEU")["value"] == 100
        assert figure(doc, "reference", "gender accuracy", subset, "accuracy")["value"] == 100
    noisy = figure(doc, "noisy", "quality", "all", "BLEU")["value"]
    masc = figure(doc, "masculine-default", "quality", "all", "BLEU")["value"]
    assert noisy < masc < 100
    # the masculine default changed only the women's segments
    assert figure(doc, "masculine-default", "quality", "male", "BLEU")["value"] == 100
    assert figure(doc, "masculine-default", "quality", "female", "BLEU")["value"] < 100
    comparison = figure(doc, "noisy - reference", "comparison", "all", "BLEU")
    assert comparison["high"] < 0
    # the simulated systems are written where the user can score them again
    systems = simulated / "systems"
    assert read_lines(systems / f"reference.{TGT}") == corpus.refs
    assert read_lines(systems / f"counterfactual.reference.{TGT}") == corpus.cf_refs
    assert len(read_lines(systems / f"noisy.{TGT}")) == len(corpus.refs)


# --- 4. gender accuracy: MT-GenEval's decision on the judged segments


def expected_accuracy(
    corpus: Corpus, hyps: Sequence[str], judge: Callable[[int], bool | None]
) -> dict[str, tuple[float, int]]:
    """Subset -> (accuracy in %, judged segments), ``judge(i)`` None where not judged."""
    out = {}
    for subset, lines in corpus.subsets().items():
        flags = [f for f in (judge(i) for i in lines) if f is not None]
        if flags:
            out[subset] = (100.0 * sum(flags) / len(flags), len(flags))
    return out


def test_gender_accuracy_is_mt_genevals_decision(
    run: Path, corpus: Corpus, simulated: Path, tmp_path: Path
) -> None:
    # a system the test builds: the counterfactual reference (the other gender) on every other
    # segment that has one, the reference elsewhere
    mixed = [
        corpus.cf[sid] if sid in corpus.cf and k % 2 else ref
        for k, (sid, ref) in enumerate(zip(corpus.ids, corpus.refs, strict=True))
    ]
    mixed_path = write_lines(tmp_path / f"mixed.{TGT}", mixed)
    doc = evaluate(
        run,
        tmp_path / "ev",
        "--system",
        f"mixed={mixed_path}",
        "--min-docs",
        "1",
        "--resamples",
        "100",
    )
    masc = read_lines(simulated / "systems" / f"masculine-default.{TGT}")
    cases = {"mixed": (doc, mixed), "masculine-default": (scores(simulated), masc)}
    for name, (result, hyps) in cases.items():

        def judge(i: int, hyps: Sequence[str] = hyps) -> bool | None:
            cf = corpus.cf.get(corpus.ids[i])
            if cf is None or not gendered_words(corpus.refs[i], cf)[1]:
                return None  # no counterfactual, or nothing in it to be wrong with
            return decide(hyps[i], corpus.refs[i], cf).correct

        want = expected_accuracy(corpus, hyps, judge)
        got = result["results"][name]["gender accuracy"]
        assert set(got) == set(want), name
        for subset, (value, n) in want.items():
            assert got[subset]["accuracy"]["value"] == pytest.approx(value, abs=1e-6)
            assert got[subset]["accuracy"]["segments"] == n, (name, subset)
        assert 0 < want["all"][0] < 100, name  # a real mix of decisions

    # segments without a counterfactual are left out, and counted
    counts = doc["counts"]
    without = [sid for sid in corpus.ids if sid not in corpus.cf]
    assert without, "the sample should have segments the augment left out"
    assert counts["segments"] == len(corpus.ids)
    assert counts["segments_with_counterfactual"] == len(corpus.cf)
    assert counts["segments_without_confident_counterfactual"] == len(without)
    assert counts["documents_by_gender"] == {"female": 3, "male": 3}


def test_counts_say_how_many_segments_were_judged(simulated: Path, corpus: Corpus) -> None:
    judged = sum(
        1
        for sid, ref in zip(corpus.ids, corpus.refs, strict=True)
        if sid in corpus.cf and gendered_words(ref, corpus.cf[sid])[1]
    )
    doc = scores(simulated)
    assert 0 < judged < len(corpus.cf)  # both kinds of segment left out exist in the sample
    assert figure(doc, "reference", "gender accuracy", "all", "accuracy")["segments"] == judged
    assert doc["counts"]["segments_judged_for_gender"] == judged


# --- 5. contrastive: the translation of the counterfactual source


def test_contrastive_follows_the_source(run: Path, corpus: Corpus, tmp_path: Path) -> None:
    # the system: the reference for the corpus; for the counterfactual source, the right
    # counterfactual on even lines and the unchanged original (the source's change ignored)
    # on odd ones
    cf_hyps = [
        cf if k % 2 == 0 else corpus.refs[corpus.ids.index(sid)]
        for k, (sid, cf) in enumerate(zip(corpus.cf_ids, corpus.cf_refs, strict=True))
    ]
    system = write_lines(tmp_path / f"sys.{TGT}", corpus.refs)
    cf_system = write_lines(tmp_path / f"sys.cf.{TGT}", cf_hyps)
    doc = evaluate(
        run,
        tmp_path / "ev",
        "--system",
        f"s={system}",
        "--counterfactual-system",
        f"s={cf_system}",
        "--min-docs",
        "1",
        "--resamples",
        "100",
    )
    assert doc["counterfactual_systems"] == {"s": str(cf_system)}
    cf_hyp = dict(zip(corpus.cf_ids, cf_hyps, strict=True))

    def judge(i: int) -> bool | None:
        sid, ref = corpus.ids[i], corpus.refs[i]
        cf = corpus.cf.get(sid)
        if cf is None or not (gendered_words(ref, cf)[1] and gendered_words(cf, ref)[1]):
            return None
        return decide(ref, ref, cf).correct and decide(cf_hyp[sid], cf, ref).correct

    want = expected_accuracy(corpus, corpus.refs, judge)
    got = doc["results"]["s"]["contrastive"]
    assert set(got) == set(want)
    for subset, (value, n) in want.items():
        assert got[subset]["follows source"]["value"] == pytest.approx(value, abs=1e-6)
        assert got[subset]["follows source"]["segments"] == n
    assert 0 < want["all"][0] < 100


def test_contrastive_by_segment_id(run: Path, corpus: Corpus, tmp_path: Path) -> None:
    """The counterfactual translations as JSON lines in another order: the same figures as
    the line-aligned file."""
    system = write_lines(tmp_path / f"sys.{TGT}", corpus.refs)
    rows = [{"id": sid, "text": cf} for sid, cf in zip(corpus.cf_ids, corpus.cf_refs, strict=True)]
    by_id = write_lines(tmp_path / "cf.jsonl", [json.dumps(r) for r in reversed(rows)])
    aligned = write_lines(tmp_path / f"cf.{TGT}", corpus.cf_refs)
    results = []
    for cf in (by_id, aligned):
        doc = evaluate(
            run,
            tmp_path / f"out{cf.suffix}",
            "--system",
            f"s={system}",
            "--counterfactual-system",
            f"s={cf}",
            "--resamples",
            "50",
        )
        results.append(doc["results"]["s"]["contrastive"])
    assert results[0] == results[1]
    assert results[0]["all"]["follows source"]["value"] == 100


# --- 6. formats and files


@pytest.fixture(scope="module")
def two_systems(simulated: Path) -> list[str]:
    systems = simulated / "systems"
    return [
        "--system",
        f"ref={systems / f'reference.{TGT}'}",
        "--system",
        f"masc={systems / f'masculine-default.{TGT}'}",
        "--resamples",
        "100",
        "--min-docs",
        "1",
    ]


def printed(capsys: pytest.CaptureFixture[str], run: Path, out: Path, *args: str) -> str:
    capsys.readouterr()
    assert main(["evaluate", str(run), "--tgt", TGT, "--out", str(out), *args]) == 0
    captured = capsys.readouterr()
    assert f"evaluation: {out}" in captured.err
    return captured.out


def test_format_json_is_scores_json(
    run: Path, two_systems: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(printed(capsys, run, tmp_path, *two_systems, "--format", "json"))
    on_disk = scores(tmp_path)
    assert doc["results"] == on_disk["results"]
    for key in ("occbio", "corpus", "src", "tgt", "systems", "signatures", "settings", "counts"):
        assert key in doc, key
    assert (doc["src"], doc["tgt"]) == ("en", TGT)
    assert set(doc["results"]) == {"ref", "masc", "masc - ref"}
    sections = set(doc["results"]["masc"])
    assert sections == {"quality", "gender accuracy", "gap"}
    assert set(doc["results"]["masc - ref"]) == {"comparison"}
    system = doc["systems"]["masc"]
    raw = Path(system["path"]).read_bytes()
    assert system["size"] == len(raw) and len(system["sha256"]) == 64
    assert doc["settings"]["min_docs"] == 1 and doc["settings"]["gaps"] == [["female", "male"]]


def test_format_csv_has_every_figure(
    run: Path, two_systems: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = printed(capsys, run, tmp_path, *two_systems, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text == (tmp_path / "scores.csv").read_text(encoding="utf-8")
    fields = [
        "system",
        "section",
        "subset",
        "metric",
        "value",
        "low",
        "high",
        "docs",
        "segments",
        "p",
    ]
    assert list(rows[0]) == fields
    doc = scores(tmp_path)
    for row in rows:
        fig = figure(doc, row["system"], row["section"], row["subset"], row["metric"])
        assert float(row["value"]) == fig["value"]
        assert (row["p"] == "") == (fig["p"] is None)
    count = sum(len(m) for s in doc["results"].values() for sub in s.values() for m in sub.values())
    assert len(rows) == count
    masc = [r for r in rows if (r["system"], r["subset"]) == ("masc", "female - male")]
    assert {r["metric"] for r in masc} == {*METRICS, "accuracy"}


def test_format_latex_and_table(
    run: Path, two_systems: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latex = printed(capsys, run, tmp_path / "latex", *two_systems, "--format", "latex")
    assert latex.count(r"\begin{tabular}") == latex.count(r"\end{tabular}") == 4
    assert r"occupation: engineer" in latex and r"chrF++" in latex
    body = [line for line in latex.splitlines() if line.endswith(r"\\")]
    assert all(line.count("&") == body[0].count("&") for line in body[:5])
    table = printed(capsys, run, tmp_path / "table", *two_systems)
    for title in (
        "Translation quality",
        "Gender accuracy",
        "Gaps between genders",
        "Systems compared",
    ):
        assert title in table
    masc_female = next(
        line for line in table.splitlines() if line.startswith("masc  ") and " female " in line
    )
    assert "3/18" in masc_female


def test_latex_escapes_every_special_character(
    run: Path, simulated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    systems = simulated / "systems"
    name = "a_b\\c~d^e"
    latex = printed(
        capsys, run, tmp_path, "--system", f"{name}={systems / f'reference.{TGT}'}",
        "--system", f"m={systems / f'masculine-default.{TGT}'}", "--format", "latex",
    )  # fmt: skip
    assert "0.001 " in latex  # the p of a gap or comparison far below 0.001
    assert r"a\_b\textbackslash{}c\textasciitilde{}d\textasciicircum{}e" in latex
    assert "<" not in latex and "~" not in latex and "^" not in latex


def test_files_of_the_evaluation_folder(
    run: Path, corpus: Corpus, two_systems: list[str], tmp_path: Path
) -> None:
    doc = evaluate(run, tmp_path, *two_systems)
    png = (tmp_path / "chart.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    with (tmp_path / "documents.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    docs = list(dict.fromkeys(corpus.docs))
    assert [(r["system"], r["doc"]) for r in rows] == [
        (s, d) for s in ("ref", "masc") for d in docs
    ]
    for r in rows:
        assert r["gender"] == corpus.gender[r["doc"]]
        assert r["occupations"] == "; ".join(corpus.occupations[r["doc"]])
        if r["system"] == "ref":
            assert float(r["BLEU"]) == 100 and float(r["accuracy"]) == 100
    # a woman's document under the masculine default: each document's figure is its own
    masc_female = [
        float(r["accuracy"])
        for r in rows
        if r["system"] == "masc" and r["gender"] == "female" and r["accuracy"]
    ]
    assert masc_female and max(masc_female) == 0
    assert doc["results"]["masc"]["gender accuracy"]["female"]["accuracy"]["value"] == 0
    assert math.isclose(
        float(next(r["BLEU"] for r in rows if r["system"] == "masc" and r["gender"] == "male")),
        100,
    )
