"""`occbio evaluate mtgeneval`: MT-GenEval's published decisions, segment by segment, on its real
dev files (../shared/data/mt-geneval-dev), with hypotheses built here; bad input as one-line
errors."""

from __future__ import annotations

import csv
import json
import os
import random
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.evaluate.mtgeneval import LANGS, evaluate, read_lines

COUNTERFACTUAL = LANGS["counterfactual"]
CONTEXTUAL = LANGS["contextual"]

# --- an independent transcription of MT-GenEval's accuracy_metric.py (read_file_to_list,
# clean_line, get_words, gender_decision, logicaloperation_AND), reading files as it does

_STRIP_PUNCT = str.maketrans(string.punctuation, " " * len(string.punctuation))


def _published_read(filename: Path) -> list[str]:
    with open(filename, encoding="utf-8") as infile:  # text mode: universal newlines
        return [line.lower().translate(_STRIP_PUNCT).strip() for line in infile]


def published(hypothesis: Path, orig_ref: Path, ctf_ref: Path) -> list[str]:
    trg, orig, ctf = (_published_read(f) for f in (hypothesis, orig_ref, ctf_ref))
    assert len(trg) == len(orig) == len(ctf)
    decisions = []
    for t, o, c in zip(trg, orig, ctf, strict=True):
        trg_words, orig_words, ctf_words = set(t.split()), set(o.split()), set(c.split())
        decisions.append("Incorrect" if trg_words & (ctf_words - orig_words) else "Correct")
    return decisions


def published_and(d1: list[str], d2: list[str]) -> list[str]:
    return [
        "Incorrect" if "Incorrect" in (a, b) else "Correct" for a, b in zip(d1, d2, strict=True)
    ]


# --- hypotheses built from the references


def _raw(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.removesuffix("\n") for line in fh]


def _drop_words(lines: list[str], rng: random.Random) -> list[str]:
    return [" ".join(w for w in line.split() if rng.random() > 0.3) for line in lines]


def _splice(own: list[str], other: list[str], rng: random.Random) -> list[str]:
    """Half the lines (seeded) get the other reference's words that they lack, at a random place."""
    out = []
    for mine, theirs in zip(own, other, strict=True):
        tokens = mine.split()
        if rng.random() < 0.5:
            extra = [w for w in theirs.split() if w not in tokens]
            at = rng.randrange(len(tokens) + 1)
            tokens[at:at] = extra
        out.append(" ".join(tokens))
    return out


Builder = Callable[[list[str], list[str], random.Random], list[str]]
BUILDERS: dict[str, Builder] = {
    "reference": lambda own, other, rng: own,
    "reference_dropped": lambda own, other, rng: _drop_words(own, rng),
    "other": lambda own, other, rng: other,
    "other_dropped": lambda own, other, rng: _drop_words(other, rng),
    "spliced": _splice,
    "empty": lambda own, other, rng: [""] * len(own),
}


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _verdicts(decisions: list) -> list[str]:
    return ["Correct" if d.correct else "Incorrect" for d in decisions]


@pytest.fixture(scope="module")
def geneval(shared_data: Path) -> Path:
    return shared_data / "mt-geneval-dev"


def _refs(geneval: Path, lang: str) -> tuple[Path, Path]:
    folder = geneval / "sentences-dev"
    name = "geneval-sentences-{}-dev.en_{lang}.{lang}"
    return folder / name.format("feminine", lang=lang), folder / name.format("masculine", lang=lang)


def _context_refs(geneval: Path, lang: str) -> tuple[Path, Path]:
    name = "geneval-context-wikiprofessions-{}-dev.en_{lang}.{lang}"
    folder = geneval / "contextual-dev"
    return folder / name.format("original", lang=lang), folder / name.format("flipped", lang=lang)


def test_every_language_of_the_dev_data_is_known(geneval: Path) -> None:
    sentences = {p.suffix[1:] for p in (geneval / "sentences-dev").glob("*feminine-dev.en_*.??")}
    contexts = {p.suffix[1:] for p in (geneval / "contextual-dev").glob("*original-dev.en_*")}
    assert sentences - {"en"} == set(COUNTERFACTUAL)
    assert contexts == set(CONTEXTUAL)


@pytest.mark.parametrize("lang", COUNTERFACTUAL)
def test_counterfactual_decisions_equal_the_published_ones(
    lang: str, geneval: Path, tmp_path: Path
) -> None:
    fem_ref, masc_ref = _refs(geneval, lang)
    fem, masc = _raw(fem_ref), _raw(masc_ref)
    for name, build in BUILDERS.items():
        rng = random.Random(f"{lang}-{name}")
        hyps = {
            "feminine": _write(tmp_path / f"{name}.f", build(fem, masc, rng)),
            "masculine": _write(tmp_path / f"{name}.m", build(masc, fem, rng)),
        }
        ev = evaluate(geneval, "counterfactual", "dev", lang, hyps)
        want_f = published(hyps["feminine"], fem_ref, masc_ref)
        want_m = published(hyps["masculine"], masc_ref, fem_ref)
        assert _verdicts(ev.decisions["feminine"]) == want_f, name
        assert _verdicts(ev.decisions["masculine"]) == want_m, name
        got_f, got_m = ev.decisions["feminine"], ev.decisions["masculine"]
        combined = [
            "Correct" if f.correct and m.correct else "Incorrect"
            for f, m in zip(got_f, got_m, strict=True)
        ]
        assert combined == published_and(want_m, want_f), name
        if name in ("reference", "reference_dropped", "empty"):
            assert set(want_f) == set(want_m) == {"Correct"}, name
        if name == "other":  # right only where the references' words leave nothing to tell
            same = [f == m for f, m in zip(fem, masc, strict=True)]
            assert want_f.count("Correct") >= sum(same)
            assert want_f.count("Correct") < 0.2 * len(fem)
        if name in ("other_dropped", "spliced"):  # a real mix of decisions
            assert 0 < want_f.count("Incorrect") < len(fem), name
        if name in ("reference", "other", "spliced", "empty"):
            assert ev.empty["feminine"] == (len(fem) if name == "empty" else 0), name


@pytest.mark.parametrize("lang", CONTEXTUAL)
def test_contextual_decisions_equal_the_published_ones(
    lang: str, geneval: Path, tmp_path: Path
) -> None:
    orig_ref, flip_ref = _context_refs(geneval, lang)
    orig, flip = _raw(orig_ref), _raw(flip_ref)
    for name, build in BUILDERS.items():
        hyp = _write(tmp_path / f"{name}.txt", build(orig, flip, random.Random(f"{lang}-{name}")))
        ev = evaluate(geneval / "contextual-dev", "contextual", "dev", lang, {"contextual": hyp})
        want = published(hyp, orig_ref, flip_ref)
        assert _verdicts(ev.decisions["contextual"]) == want, name
        if name in ("reference", "reference_dropped", "empty"):
            assert set(want) == {"Correct"}, name
        if name == "other":
            assert want.count("Correct") < 0.1 * len(orig)
        if name in ("other_dropped", "spliced"):
            assert 0 < want.count("Incorrect") < len(orig), name


# --- small cases worked out by hand

FEMININE = [
    "Elle est actrice.",
    "Sa mère, une chanteuse, était là.",
    "Il y a un livre.",
    "Elle est Directrice!",
]
MASCULINE = [
    "Il est acteur.",
    "Son père, un chanteur, était là.",
    "Il y a un livre.",
    "Il est Directeur!",
]
HYP_FEMININE = [
    "ELLE EST ACTEUR.",  # "acteur" is the masculine reference's alone: Incorrect
    "Sa mère,une chanteuse,était là",  # commas are spaces: "mère,une" is two words; Correct
    "Il y a un livre.",  # the references are equal: nothing can be wrong
    "",  # empty: Correct under the published rule
]
HYP_MASCULINE = [
    "Il est l'acteur",  # "l'acteur" -> "l acteur": Correct
    "Son père, une chanteuse.",  # "une" and "chanteuse": Incorrect
    "Elle y a un livre.",  # "elle" is in neither reference: Correct
    "Il est «Directrice»",  # « » are not ASCII punctuation: "«directrice»" is no word of theirs
]


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    _write(data / "geneval-sentences-feminine-dev.en_fr.fr", FEMININE)
    _write(data / "geneval-sentences-masculine-dev.en_fr.fr", MASCULINE)
    _write(tmp_path / "hyp.f", HYP_FEMININE)
    _write(tmp_path / "hyp.m", HYP_MASCULINE)
    return tmp_path


def _args(root: Path, *extra: str, f: str = "hyp.f", m: str = "hyp.m") -> list[str]:
    return [
        "evaluate", "mtgeneval", "--data", str(root / "data"), "--lang", "fr", "--split", "dev",
        "--hyp-feminine", str(root / f), "--hyp-masculine", str(root / m), *extra,
    ]  # fmt: skip


def test_hand_computed_decisions(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = small / "decisions.tsv"
    assert main(_args(small, "--format", "json", "--decisions", str(out))) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["accuracy"] == {"feminine": 0.75, "masculine": 0.75, "combined": 0.5}
    assert result["counts"]["combined"] == {"correct": 2, "lines": 4}
    assert result["counts"]["feminine"] == {"correct": 3, "lines": 4, "empty_hypotheses": 1}
    assert (result["lang"], result["split"], result["subset"]) == ("fr", "dev", "counterfactual")
    assert result["definition"].startswith("MT-GenEval accuracy_metric.py")
    low, high = result["interval"]["combined"]
    assert 0 <= low < 0.5 < high <= 1
    assert "1 of 4 feminine hypothesis lines have no words" in captured.err
    rows = list(csv.reader(out.open(encoding="utf-8"), delimiter="\t"))
    header = ["segment", "feminine", "masculine", "combined"]
    assert rows == [
        [*header, "feminine_wrong_words", "masculine_wrong_words"],
        ["1", "Incorrect", "Correct", "Incorrect", "acteur", ""],
        ["2", "Correct", "Incorrect", "Incorrect", "", "chanteuse une"],
        ["3", "Correct", "Correct", "Correct", "", ""],
        ["4", "Correct", "Correct", "Correct", "", ""],
    ]  # fmt: skip
    data = small / "data"
    ref_f, ref_m = (
        data / "geneval-sentences-feminine-dev.en_fr.fr",
        data / "geneval-sentences-masculine-dev.en_fr.fr",
    )
    assert published(small / "hyp.f", ref_f, ref_m) == [r[1] for r in rows[1:]]
    assert published(small / "hyp.m", ref_m, ref_f) == [r[2] for r in rows[1:]]


def test_text_output(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_args(small)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "MT-GenEval gender accuracy, counterfactual subset, en-fr dev"
    assert lines[2].split()[:2] == ["feminine", "0.7500"] and lines[2].endswith("3 / 4")
    assert lines[3].split()[:2] == ["masculine", "0.7500"]
    assert lines[4].split()[:2] == ["combined", "0.5000"] and lines[4].endswith("2 / 4")


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_other_line_endings_read_as_the_published_script(
    small: Path, newline: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (small / "crlf.m").write_bytes(("".join(h + newline for h in HYP_MASCULINE)).encode())
    assert main(_args(small, "--format", "json", m="crlf.m")) == 0
    assert json.loads(capsys.readouterr().out)["accuracy"]["masculine"] == 0.75
    ref_m = small / "data" / "geneval-sentences-masculine-dev.en_fr.fr"
    ref_f = small / "data" / "geneval-sentences-feminine-dev.en_fr.fr"
    assert published(small / "crlf.m", ref_m, ref_f).count("Correct") == 3


def test_a_bom_is_dropped(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # with the BOM kept, "\ufeffacteur" would be no word of the references and pass
    _write(small / "bom.f", ["\ufeffacteur", *HYP_FEMININE[1:]])
    assert main(_args(small, "--format", "json", f="bom.f")) == 0
    assert json.loads(capsys.readouterr().out)["accuracy"]["feminine"] == 0.75


def test_read_lines_keeps_what_text_mode_keeps(tmp_path: Path) -> None:
    path = tmp_path / "x"
    path.write_bytes("a\x85b\u2028c\r\nd\re\n\nf".encode())
    assert read_lines(path) == ["a\x85b\u2028c\n", "d\n", "e\n", "\n", "f"]
    with open(path, encoding="utf-8") as fh:
        assert read_lines(path) == list(fh)


# --- layouts


def _link_repository(geneval: Path, root: Path) -> Path:
    """MT-GenEval's repository layout, with links to the real files."""
    sentences, context = root / "data" / "sentences" / "dev", root / "data" / "context"
    for folder, source in ((sentences, "sentences-dev"), (context, "contextual-dev")):
        folder.mkdir(parents=True)
        for f in (geneval / source).glob("geneval-*"):
            (folder / f.name).symlink_to(f)
    return root


@pytest.mark.parametrize("where", ["parent", "folder", "repository"])
def test_layouts(
    where: str, geneval: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if where == "repository":
        sentences = context = _link_repository(geneval, tmp_path / "repo")
    elif where == "folder":
        sentences, context = geneval / "sentences-dev", geneval / "contextual-dev"
    else:
        sentences = context = geneval
    fem, _ = _refs(geneval, "ar")
    hyps = ["--hyp-feminine", str(fem), "--hyp-masculine", str(fem), "--format", "json"]
    argv = ["evaluate", "mtgeneval", "--lang", "ar", "--split", "dev", *hyps]
    assert main([*argv, "--data", str(sentences)]) == 0
    accuracy = json.loads(capsys.readouterr().out)["accuracy"]
    assert accuracy["feminine"] == 1.0 and accuracy["masculine"] == 0.0  # ar: no line is equal
    original, _ = _context_refs(geneval, "nl")
    argv = ["evaluate", "mtgeneval", "--subset", "contextual", "--lang", "nl", "--split", "dev"]
    assert main([*argv, "--hyp", str(original), "--data", str(context), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["accuracy"] == {"contextual": 1.0}


def test_test_split_in_the_repository_layout(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sentences, context = small / "repo/data/sentences/test", small / "repo/data/context"
    sentences.mkdir(parents=True)
    context.mkdir(parents=True)
    _write(sentences / "geneval-sentences-feminine-test.en_fr.fr", FEMININE)
    _write(sentences / "geneval-sentences-masculine-test.en_fr.fr", MASCULINE)
    _write(context / "geneval-context-wikiprofessions-original-test.en_fr.fr", MASCULINE)
    _write(context / "geneval-context-wikiprofessions-flipped-test.en_fr.fr", FEMININE)
    argv = _args(small, "--format", "json")
    argv[argv.index("--data") + 1] = str(small / "repo")
    argv[argv.index("--split") + 1] = "test"
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["accuracy"]["combined"] == 0.5
    argv = ["evaluate", "mtgeneval", "--data", str(small / "repo"), "--split", "test"]
    argv += ["--subset", "contextual", "--lang", "fr", "--hyp", str(small / "hyp.m")]
    assert main(argv) == 0  # the masculine hypotheses against original = masculine: 3 of 4
    assert capsys.readouterr().out.splitlines()[2].split()[:2] == ["contextual", "0.7500"]


# --- bad input: one line, an exit status, no traceback


def _error(argv: list[str], capsys: pytest.CaptureFixture[str], status: int) -> str:
    assert main(argv) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert len(captured.err.strip().splitlines()) == 1, captured.err
    return captured.err


def test_line_count_differs(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(small / "short.m", HYP_MASCULINE[:3])
    err = _error(_args(small, m="short.m"), capsys, 1)
    ref = small / "data" / "geneval-sentences-masculine-dev.en_fr.fr"
    assert f"masculine hypothesis {small / 'short.m'} has 3 lines, reference {ref} has 4" in err


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_not_utf8_names_the_line(
    small: Path, newline: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [h.encode() for h in HYP_FEMININE]
    lines[2] = "Il y a un livre très bien.".encode("latin-1")
    (small / "latin.f").write_bytes(b"".join(line + newline for line in lines))
    err = _error(_args(small, f="latin.f"), capsys, 1)
    assert f"{small / 'latin.f'} is not UTF-8 (line 3)" in err


def test_directory_as_hypothesis(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (small / "adir").mkdir()
    assert "adir is not a regular file" in _error(_args(small, f="adir"), capsys, 1)


def test_missing_hypothesis(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"{small / 'nope.m'} not found" in _error(_args(small, m="nope.m"), capsys, 1)


def test_missing_reference_says_what_was_expected_where(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _args(small)
    argv[argv.index("--data") + 1] = str(small)  # the folder above the data
    err = _error(argv, capsys, 1)
    assert "MT-GenEval reference geneval-sentences-feminine-dev.en_fr.fr not found in" in err
    assert str(small / "data" / "sentences" / "dev") in err and str(small / "sentences-dev") in err
    (small / "data" / "geneval-sentences-masculine-dev.en_fr.fr").unlink()
    err = _error(_args(small), capsys, 1)
    assert f"{small / 'data' / 'geneval-sentences-masculine-dev.en_fr.fr'} not found" in err


def test_data_is_not_a_directory(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = _args(small)
    argv[argv.index("--data") + 1] = str(small / "hyp.f")
    assert "is not a directory" in _error(argv, capsys, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"--lang": "xx"}, "unknown language 'xx' for the counterfactual subset (ar, de,"),
        ({"--lang": "nl"}, "unknown language 'nl' for the counterfactual subset"),
        ({"--split": "train"}, "argument --split: invalid choice: 'train'"),
        ({"--hyp-masculine": None}, "takes --hyp-feminine and --hyp-masculine"),
        ({"--hyp": "hyp.f"}, "takes --hyp-feminine and --hyp-masculine"),
        ({"--subset": "contextual"}, "the contextual subset takes --hyp only"),
        ({"--data": None}, "the following arguments are required: --data"),
    ],
)
def test_usage_errors(
    small: Path, change: dict[str, str | None], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _args(small)
    for option, value in change.items():
        if option in argv:
            at = argv.index(option)
            del argv[at : at + 2]
        if value is not None:
            argv += [option, value]
    assert message in _error(argv, capsys, 2)


def test_references_of_different_lengths(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    masculine = small / "data" / "geneval-sentences-masculine-dev.en_fr.fr"
    _write(masculine, MASCULINE[:3])
    err = _error(_args(small), capsys, 1)
    feminine = small / "data" / "geneval-sentences-feminine-dev.en_fr.fr"
    assert f"reference {masculine} has 3 lines, reference {feminine} has 4" in err


def test_decisions_onto_a_hypothesis_is_refused(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _error(_args(small, "--decisions", str(small / "hyp.m")), capsys, 2)
    assert "is a hypothesis file" in err
    assert (small / "hyp.m").read_text(encoding="utf-8").splitlines() == HYP_MASCULINE


def test_decisions_into_a_directory(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot write" in _error(_args(small, "--decisions", str(small)), capsys, 1)


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", "mtgeneval", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--data", "--hyp-feminine", "--hyp-masculine", "--subset", "--decisions"):
        assert option in out


# --- the command as a user runs it


def _occbio(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m occbio.cli ...``; the timeout only guards a hang."""
    cmd = [sys.executable, "-m", "occbio.cli", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_subprocess_json_and_errors(small: Path) -> None:
    proc = _occbio(*_args(small, "--format", "json"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["accuracy"]["combined"] == 0.5
    _write(small / "short.f", HYP_FEMININE[:2])
    proc = _occbio(*_args(small, f="short.f"))
    assert proc.returncode == 1 and proc.stdout == ""
    assert (
        proc.stderr.startswith("occbio: error: feminine hypothesis")
        and proc.stderr.count("\n") == 1
    )
    proc = _occbio(*_args(small, "--lang", "xx"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_console_script(small: Path) -> None:
    exe = Path(sys.executable).parent / "occbio"
    if not exe.exists():
        pytest.skip("occbio console script not installed in this environment")
    proc = subprocess.run([str(exe), *_args(small)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "combined" in proc.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_as_hypothesis_is_refused_without_blocking(small: Path) -> None:
    os.mkfifo(small / "fifo")
    proc = _occbio(*_args(small, m="fifo"))  # the timeout guards a hang
    assert proc.returncode == 1
    assert proc.stderr == f"occbio: error: {small / 'fifo'} is not a regular file\n"


def test_reader_leaving_early_is_no_error(small: Path) -> None:
    cmd = [sys.executable, "-m", "occbio.cli", *_args(small)]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # before the command has printed anything
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err
