"""The person's name as an anchor (issue #21 part 3): ``Rewriter.rewrite(name=)``, ``occbio
rewrite --name`` / ``--input-format jsonl`` and ``augment``."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from occbio.augment import counterfactuals, person_name
from occbio.cli import main
from occbio.records import Document, Entity
from occbio.rewrite import Rewriter

# (lang, sentence, target, name, rewrite with the name): the only reference to the person is
# their name; without the name the rules leave these sentences as they are
ONLY_THE_NAME = [
    ("de", "Savini diente als Kriegsfotograf.", "feminine", "Marco Savini",
     "Savini diente als Kriegsfotografin."),
    ("de", "Savini war ein bekannter Fotograf.", "feminine", "Marco Savini",
     "Savini war eine bekannte Fotografin."),
    ("de", "Savini arbeitete ab 1990 als Lehrer in Rom.", "feminine", "Marco Savini",
     "Savini arbeitete ab 1990 als Lehrerin in Rom."),
    ("es", "Lovelace, matemática británica, vivió en Londres.", "masculine", "Ada Lovelace",
     "Lovelace, matemático británico, vivió en Londres."),
    ("es", "Savini, periodista italiano, nació en Roma.", "feminine", "Marco Savini",
     "Savini, periodista italiana, nació en Roma."),
    ("fr", "Lovelace travailla comme traductrice à Londres.", "masculine", "Ada Lovelace",
     "Lovelace travailla comme traducteur à Londres."),
    ("fr", "Lovelace, mathématicienne britannique, vécut à Londres.", "masculine",
     "Ada Lovelace", "Lovelace, mathématicien britannique, vécut à Londres."),
    ("it", "Savini lavorò come fotografo di guerra.", "feminine", "Marco Savini",
     "Savini lavorò come fotografa di guerra."),
    ("it", "Lovelace, matematica britannica, visse a Londra.", "masculine", "Ada Lovelace",
     "Lovelace, matematico britannico, visse a Londra."),
    ("pt", "Savini trabalhou como fotógrafo de guerra.", "feminine", "Marco Savini",
     "Savini trabalhou como fotógrafa de guerra."),
    ("pt", "Savini, pintor brasileiro, nasceu em Recife.", "feminine", "Marco Savini",
     "Savini, pintora brasileira, nasceu em Recife."),
    ("ca", "Lovelace va treballar com a traductora a Londres.", "masculine", "Ada Lovelace",
     "Lovelace va treballar com a traductor a Londres."),
]  # fmt: skip

# the name's own words are the person's, never rewritten: without the name they would be
NAME_KEPT = [
    ("en", "Lady Gaga was an actress.", "masculine", "Lady Gaga", "Lady Gaga was an actor."),
    ("en", "Lovelace worked as a waitress.", "masculine", "Ada Lovelace",
     "Lovelace worked as a waiter."),
    ("it", "Anna Regina fu una pittrice.", "masculine", "Anna Regina",
     "Anna Regina fu un pittore."),
    ("ru", "Ирина Королева была врачом.", "masculine", "Ирина Королева",
     "Ирина Королева был врачом."),
    ("ru", "Лавлейс, британская писательница, жила в Лондоне.", "masculine", "Ада Лавлейс",
     "Лавлейс, британский писатель, жил в Лондоне."),
    ("ca", "Lovelace és una escriptora anglesa.", "masculine", "Ada Lovelace",
     "Lovelace és un escriptor anglès."),
]  # fmt: skip

# another person is the one the role describes: the name anchors nothing there
ANOTHER_PERSON = [
    ("de", "Babbage arbeitete als Lehrer in Wien.", "feminine", "Ada Lovelace"),
    ("de", "Lovelace traf Babbage, einen bekannten Mathematiker.", "feminine", "Ada Lovelace"),
    ("es", "Lovelace conoció a Babbage, matemático británico.", "feminine", "Ada Lovelace"),
    ("es", "Según Savini, periodista italiano, la guerra terminó.", "feminine", "Ada Lovelace"),
    ("fr", "Babbage travailla comme traducteur à Londres.", "feminine", "Ada Lovelace"),
    ("it", "Secondo Babbage, pittore italiano, la guerra finì.", "feminine", "Ada Lovelace"),
    ("pt", "Babbage trabalhou como tradutor em Londres.", "feminine", "Ada Lovelace"),
    ("ca", "Babbage va treballar com a traductor a Londres.", "feminine", "Ada Lovelace"),
    ("en", "Lovelace met Babbage, a mathematician.", "feminine", "Ada Lovelace"),
    ("ru", "Лавлейс встретила Бэббиджа, математика.", "masculine", "Ада Лавлейс"),
]


# an apposition to another name: the rules alone would change it (they take every sentence to
# be about the person); with the person's name known it is the other person's, and stays
OTHER_NAMED = [
    ("en", "Lovelace met Babbage, a famous actor."),
    ("es", "Lovelace conoció a Babbage, actor británico."),
    ("fr", "Lovelace rencontra Babbage, acteur anglais."),
    ("it", "Lovelace incontrò Babbage, attore inglese."),
    ("pt", "Lovelace conheceu Babbage, ator inglês."),
    ("ca", "Lovelace va conèixer Babbage, actor anglès."),
]


# the rules change the verb alone; the name adds the role noun and its adjective
NAME_ADDS = [
    ("ru", "Савини был известным писателем.", "feminine", "Марко Савини",
     "Савини была известным писателем.", "Савини была известной писательницей."),
    ("de", "1990 wurde Savini Fotograf.", "feminine", "Marco Savini",
     "1990 wurde Savini Fotograf.", "1990 wurde Savini Fotografin."),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "sentence", "to", "name", "alone", "want"), NAME_ADDS)
def test_the_name_adds_the_role(lang, sentence, to, name, alone, want):
    rw = Rewriter(lang)
    assert rw.rewrite(sentence, to) == alone
    assert rw.rewrite(sentence, to, name=name) == want


@pytest.fixture(scope="module")
def rewriters() -> dict[str, Rewriter]:
    return {lang: Rewriter(lang) for lang in ("ca", "de", "en", "es", "fr", "it", "pt", "ru")}


@pytest.mark.parametrize(("lang", "sentence", "to", "name", "want"), ONLY_THE_NAME)
def test_the_name_anchors_a_role(rewriters, lang, sentence, to, name, want):
    rw = rewriters[lang]
    assert rw.rewrite(sentence, to) is sentence  # no anchor: nothing to change
    assert rw.rewrite(sentence, to, name=name) == want
    assert rw.rewrite(sentence, to, name=None) is sentence  # the default keeps today's output
    edits = rw.explain(sentence, to, name=name)
    assert edits and all(sentence[e.start : e.end] == e.old for e in edits)


@pytest.mark.parametrize(("lang", "sentence", "to", "name", "want"), NAME_KEPT)
def test_the_name_itself_is_never_rewritten(rewriters, lang, sentence, to, name, want):
    assert rewriters[lang].rewrite(sentence, to, name=name) == want


def test_every_supported_language_is_tested():
    langs = {case[0] for case in ONLY_THE_NAME + NAME_KEPT}
    assert langs == {"ca", "de", "en", "es", "fr", "it", "pt", "ru"}
    assert {case[0] for case in ANOTHER_PERSON} == langs


@pytest.mark.parametrize(("lang", "sentence", "to", "name"), ANOTHER_PERSON)
def test_a_role_of_another_person_stays(rewriters, lang, sentence, to, name):
    assert rewriters[lang].rewrite(sentence, to, name=name) is sentence


@pytest.mark.parametrize(("lang", "sentence"), OTHER_NAMED)
def test_a_role_of_another_named_person_is_kept(rewriters, lang, sentence):
    rw = rewriters[lang]
    assert rw.rewrite(sentence, "feminine") != sentence  # without the name: rewritten
    assert rw.rewrite(sentence, "feminine", name="Ada Lovelace") is sentence
    # the person's name absent, another's apposition is still not about the person
    other = sentence.replace("Lovelace", "Elle")
    assert rw.rewrite(other, "feminine", name="Ada Lovelace") is other


def test_a_name_absent_from_the_sentence_changes_nothing(rewriters):
    rw = rewriters["de"]
    sentence = "Savini diente als Kriegsfotograf."
    assert rw.rewrite(sentence, "feminine", name="Ada Lovelace") is sentence
    assert rw.rewrite(sentence, "feminine", name="") is sentence
    assert rw.rewrite(sentence, "feminine", name="de la") is sentence  # no capitalised part


def test_rewrite_many_takes_the_name(rewriters):
    lines = ["Savini diente als Kriegsfotograf.\n", "Der Fluss ist lang.\r\n"]
    got = list(rewriters["de"].rewrite_many(lines, "feminine", name="Marco Savini"))
    assert got == ["Savini diente als Kriegsfotografin.\n", "Der Fluss ist lang.\r\n"]
    assert got[1] is lines[1]


# ------------------------------------------------------------------ the command line
def _rewrite(tmp_path: Path, text: str, *extra: str, lang: str = "de") -> tuple[int, Path]:
    source, out = tmp_path / "in", tmp_path / "out"
    source.write_bytes(text.encode())
    args = ["rewrite", "--lang", lang, "--to", "feminine", "--input", str(source)]
    return main([*args, "--output", str(out), *extra]), out


def test_cli_name_applies_to_every_line(tmp_path):
    text = "Savini diente als Kriegsfotograf.\nSavini war ein bekannter Fotograf.\nEr war Lehrer.\n"
    rc, out = _rewrite(tmp_path, text, "--name", "Marco Savini")
    assert rc == 0
    assert out.read_text() == (
        "Savini diente als Kriegsfotografin.\nSavini war eine bekannte Fotografin.\n"
        "Sie war Lehrerin.\n"
    )
    rc, out = _rewrite(tmp_path, text)
    assert out.read_text().splitlines()[:2] == text.splitlines()[:2]  # no name, no anchor


def test_cli_name_reaches_explain(tmp_path):
    tsv = tmp_path / "edits.tsv"
    rc, _ = _rewrite(
        tmp_path, "Savini diente als Kriegsfotograf.\n", "--name", "Savini", "--explain", str(tsv)
    )
    assert rc == 0
    rows = [r.split("\t") for r in tsv.read_text().splitlines()]
    assert rows[1][:5] == ["1", "18", "32", "Kriegsfotograf", "Kriegsfotografin"]


def test_cli_jsonl_names_each_line(tmp_path):
    records = [
        {"id": 1, "text": "Savini diente als Kriegsfotograf.", "name": "Marco Savini"},
        {"id": 2, "text": "Savini diente als Kriegsfotograf."},  # no name: unchanged
        {"id": 3, "text": "Müller diente als Fotograf.", "name": "Marco Savini"},
        {"id": 4, "text": "Er war Lehrer.", "name": None},
    ]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records) + "\n"
    rc, out = _rewrite(tmp_path, text, "--input-format", "jsonl")
    assert rc == 0
    lines = out.read_text().split("\n")
    assert lines[1:3] == text.split("\n")[1:3]  # nothing to change: byte for byte
    assert lines[4:] == ["", ""]  # the blank line copied
    got = [json.loads(line) for line in lines[:4]]
    assert got[0] == {**records[0], "text": "Savini diente als Kriegsfotografin."}
    assert got[3] == {**records[3], "text": "Sie war Lehrerin."}
    assert list(got[0]) == ["id", "text", "name"]  # the fields and their order kept


def test_cli_jsonl_line_without_its_own_name_takes_the_option(tmp_path):
    text = '{"text": "Savini diente als Kriegsfotograf."}\n'
    rc, out = _rewrite(tmp_path, text, "--input-format", "jsonl", "--name", "Savini")
    assert rc == 0
    assert json.loads(out.read_text()) == {"text": "Savini diente als Kriegsfotografin."}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line 2 is not JSON"),
        ("[1, 2]", 'line 2 has no "text" string'),
        ('{"text": 3}', 'line 2 has no "text" string'),
        ('{"text": "Er war Lehrer.", "name": 7}', 'line 2: "name" is not a string'),
    ],
)
def test_cli_jsonl_bad_line_is_a_one_line_error(tmp_path, capsys, line, message):
    out = tmp_path / "out"
    out.write_text("before\n")
    text = '{"text": "Er war Lehrer."}\n' + line + "\n"
    rc, _ = _rewrite(tmp_path, text, "--input-format", "jsonl")
    err = capsys.readouterr().err
    assert rc != 0
    assert err.startswith("occbio: error: --input-format jsonl: ") and message in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert out.read_text() == "before\n"  # the output file is not replaced by half a run


def test_cli_jsonl_not_utf8_is_a_one_line_error(tmp_path, capsys):
    source, out = tmp_path / "in", tmp_path / "out"
    source.write_bytes(b'{"text": "caf\xe9"}\n')
    args = ["rewrite", "--lang", "fr", "--to", "feminine", "--input-format", "jsonl"]
    assert main([*args, "--input", str(source), "--output", str(out)]) != 0
    err = capsys.readouterr().err
    assert err.startswith("occbio: error: --input-format jsonl: line 1 is not JSON")
    assert not out.exists()


@pytest.mark.parametrize("option", [["--name", "Ada"], ["--input-format", "jsonl"]])
def test_cli_name_needs_the_rules(tmp_path, capsys, option):
    args = ["rewrite", "--lang", "de", "--to", "feminine", "--backend", "chat"]
    args += ["--model", "m", "--base-url", "http://127.0.0.1:9", *option]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"occbio: error: {option[0]}") and "--backend rules" in err


# ------------------------------------------------------------------ augment
def test_person_name_from_titles_and_label():
    entity = Entity("Q1", "Marco Savini", titles={"de": "Marco Savini (Fotograf)", "ru": "Савини"})
    assert person_name(entity, "de") == "Marco Savini"
    assert person_name(entity, "ru") == "Савини Marco Savini"
    assert person_name(entity, "fr") == "Marco Savini"
    assert person_name(Entity("Q2"), "fr") == ""


def test_augment_anchors_on_the_documents_person():
    entity = Entity(
        "Q1",
        "Marco Savini",
        gender="male",
        titles={"de": "Marco Savini (Fotograf)", "it": "Marco Savini"},
    )
    doc = Document(
        entity=entity,
        segments=[
            {"de": "Savini diente als Kriegsfotograf.", "it": "Savini lavorò come fotografo."},
            {"de": "Müller diente als Fotograf.", "it": "Rossi lavorò come fotografo."},
        ],
    )
    stats: Counter[str] = Counter()
    (cf,) = counterfactuals([doc], ["de", "it"], stats)
    assert cf.segments[0] == {
        "de": "Savini diente als Kriegsfotografin.",
        "it": "Savini lavorò come fotografa.",
    }
    assert cf.segments[1]["de"] == "Müller diente als Fotograf."  # another person
    assert stats["counterfactual_sentences_changed"] >= 2
