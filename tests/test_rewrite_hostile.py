"""Hostile tests of `Rewriter.explain` / `occbio rewrite --explain` and of `relatives=`.

Hand-written sentences in every language: relatives in odd places, copula guards, the edits of
a rewrite replayed on odd text (tabs, emoji, zero-width and astral characters, elision), and
the command-line edges. Known bugs are strict xfails: each one says what goes wrong.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from occbio.cli import main
from occbio.rewrite import RULE_NAMES, Rewriter, RewriteUnavailable

LANGS = ("en", "es", "ca", "fr", "it", "pt", "de", "ru")
TARGETS = ("feminine", "masculine")


@cache
def _rw(lang: str, relatives: str = "keep") -> Rewriter:
    return Rewriter(lang, strict=True, relatives=relatives)  # type: ignore[arg-type]


def _replay(src: str, edits) -> str:
    """The edits applied right to left, each checked against the text it says it replaces."""
    out = src
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        assert out[e.start : e.end] == e.old, (e, src)
        out = out[: e.start] + e.new + out[e.end :]
    return out


def _check_contract(lang: str, src: str, to: str, relatives: str) -> str:
    rw = _rw(lang, relatives)
    out = rw.rewrite(src, to)
    edits = rw.explain(src, to)
    assert all(e.rule in RULE_NAMES for e in edits), edits
    assert all(0 <= e.start <= e.end <= len(src) for e in edits), edits
    spans = sorted((e.start, e.end) for e in edits)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), edits  # no overlap
    assert all(e.old != e.new for e in edits), edits
    if out == src:
        assert edits == [] and out is src
    else:
        assert edits
    assert _replay(src, edits) == out
    return out


# ---------------------------------------------------------------- explain: the contract
HOSTILE = {
    "en": [
        "HER MOTHER WAS A PAINTER AND SHE WAS AN ACTRESS.",
        "She met her half-brother and her mother-in-law in 1990.",
        "She lived with her mother",
        "She lived with her mother's",
        "She and her two younger sisters moved; she was a waitress.",
        '"Her mother" she said, was an actress.',
        "(her mother was an actress) She was born.",
        "She was born in \U0001f600 Lyon and she was an actress.",
        "\U0001d412he was an actress; she \U0001d498as born.",
        "She\u200bwas an actress\u200b.",
        "She\twas\tan\tactress.",
        "She was an actress.\r",
        "\ufeffShe was an actress.",
        "She was an actress. " * 200,
        "He is survived by his wife, two sons and a daughter.",
        "He was his father's son.",
        "son his",
        "He loved his",
    ],
    "es": [
        "SU MADRE ERA MAESTRA Y ELLA FUE ACTRIZ.",
        "«Su padre» fue nombrado director.",
        "(su padre fue nombrado director)",
        "Ella lo hizo por sí misma.",
        "Ella lo hizo por sí\tmisma.",
        "Es la hija de la directora.",
        "Es la hija de\tla directora.",
        "Dijo a la reina que era la directora.",
        unicodedata.normalize("NFD", "Su tía era maestra y él fue nombrado director."),
    ],
    "ca": [
        "La seva mare era mestra.",
        "Ella ho va fer per si mateixa.",
        "Era filla d'un fuster; el seu pare era mestre.",
        "Va ser l'actriu més famosa.",
    ],
    "fr": [
        "Elle est née à Lyon ; sa grand-mère était peintre.",
        "Son beau-frère était acteur et il était chanteur.",
        "Il est le fils du roi.",
        "Elle est la fille de la reine.",
        "Elle est la fille à la reine.",
        "Elle est une nouvelle actrice.",
        "Il est l'acteur le plus connu.",
        "C’était l’actrice la plus connue.",
        unicodedata.normalize("NFD", "Elle était sa fille."),
    ],
    "it": [
        "Era un attore famoso.",
        "Era un'attrice famosa.",
        "un'attrice",
        "Era un  attore famoso.",
        "Era un\tattore famoso.",
        "Era uno scrittore e un attore.",
        "Era dello scrittore.",
        "Suo fratello era un attore famoso.",
    ],
    "pt": [
        "A sua mãe era professora.",
        "Foi a filha da rainha.",
        "Foi a filha de\ta rainha.",
        "Ele nasceu em Lisboa e o seu irmão era ator.",
    ],
    "de": [
        "Ihre Mutter war Malerin.",
        "SIE WAR EINE BEKANNTE SCHAUSPIELERIN.",
        "Sie war eine bekannte Schauspielerin.",
        "Sein Vater war Schauspieler und er war Sänger.",
    ],
    "ru": [
        "Её мать была художницей.",
        "ОНА РОДИЛАСЬ В МОСКВЕ.",
        "Она́ родила́сь в Москве.",
        "Его брат родился в Москве, и он родился там же.",
    ],
}
CONTRACT_CASES = [
    (lang, src, to, rel)
    for lang, sentences in HOSTILE.items()
    for src in sentences
    for to in TARGETS
    for rel in ("keep", "change")
]


@pytest.mark.parametrize(("lang", "src", "to", "relatives"), CONTRACT_CASES)
def test_explain_replays_to_exactly_the_rewrite(lang, src, to, relatives):
    _check_contract(lang, src, to, relatives)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("src", ["", " ", "   \t ", "\r", "\n", "123", "...", "\u200b"])
def test_explain_of_a_line_with_nothing_to_change_is_empty(lang, src):
    for to in TARGETS:
        assert _rw(lang).explain(src, to) == []
        assert _rw(lang).rewrite(src, to) is src


def test_explain_offsets_are_code_points_even_after_astral_characters():
    src = "\U0001f600\U0001f600 She was an actress."
    edits = _rw("en").explain(src, "masculine")
    assert [(e.start, e.end, e.old, e.new) for e in edits] == [
        (3, 6, "She", "He"),
        (14, 21, "actress", "actor"),
    ]


def test_explain_of_an_elision_takes_the_space_it_removes():
    rw = _rw("it")
    (art, *_rest) = rw.explain("Era un attore famoso.", "feminine")
    assert (art.start, art.end, art.old, art.new) == (4, 7, "un ", "un'")
    (art, *_rest) = rw.explain("Era un'attrice famosa.", "masculine")
    assert (art.start, art.end, art.old, art.new) == (4, 7, "un'", "un ")


def test_explain_of_a_contraction_is_one_edit():
    edits = _rw("fr").explain("Elle est la fille de la reine.", "masculine")
    assert ("de la", "du") in [(e.old, e.new) for e in edits]
    edits = _rw("fr").explain("Il est le fils du roi.", "feminine")
    assert ("du", "de la") in [(e.old, e.new) for e in edits]


def test_explain_rejects_a_bad_target_like_rewrite():
    with pytest.raises(RewriteUnavailable):
        _rw("en").explain("She was an actress.", "neuter")  # type: ignore[arg-type]


# ---------------------------------------------------------------- relatives: what holds
# (lang, source, target, expected with relatives kept)
KEPT = [
    ("en", "HER MOTHER WAS A PAINTER.", "masculine", "HIS MOTHER WAS A PAINTER."),
    ("en", "She met her mother-in-law in 1990.", "masculine", "He met his mother-in-law in 1990."),
    ("en", "She lived with her mother", "masculine", "He lived with his mother"),
    ("en", "She lived with her mother's", "masculine", "He lived with his mother's"),
    (
        "en",
        "Her two younger sisters were actresses.",
        "masculine",
        "His two younger sisters were actresses.",
    ),
    ("en", "Her 3 daughters were actresses.", "masculine", "His 3 daughters were actresses."),
    ("en", "Her mother Jane was an actress.", "masculine", "His mother Jane was an actress."),
    (
        "en",
        "(her mother was an actress) She was born.",
        "masculine",
        "(his mother was an actress) He was born.",
    ),
    (
        "en",
        "Her mother was an actress; she was a waitress.",
        "masculine",
        "His mother was an actress; he was a waiter.",
    ),
    (
        "en",
        "Her mother was an actress, she was a waitress.",
        "masculine",
        "His mother was an actress, he was a waiter.",
    ),
    (
        "en",
        "Her brother's wife was an actress.",
        "masculine",
        "His brother's wife was an actress.",
    ),
    (
        "en",
        "His son was a prince; he was a king.",
        "feminine",
        "Her son was a prince; she was a queen.",
    ),
    ("en", "His father the king died.", "feminine", "Her father the king died."),
    ("en", "His son", "feminine", "Her son"),
    (
        "en",
        "Her daughter-in-law was an actress.",
        "masculine",
        "His daughter-in-law was an actress.",
    ),
    (
        "en",
        "His wife and son and daughter survived him.",
        "feminine",
        "Her wife and son and daughter survived her.",
    ),
    ("es", "SU MADRE ERA MAESTRA Y ELLA FUE ACTRIZ.", "masculine", None),
    ("es", "Su padre", "feminine", None),
    ("es", "(su padre fue nombrado director)", "feminine", None),
    ("es", "Sus hijos fueron actores.", "feminine", None),
    ("es", "Su esposa y sus dos hijos le sobrevivieron.", "feminine", None),
    (
        "es",
        "Su hermano fue nombrado director y él fue actor.",
        "feminine",
        "Su hermano fue nombrado director y ella fue actriz.",
    ),
    (
        "es",
        "Su hermano fue nombrado director, él fue actor.",
        "feminine",
        "Su hermano fue nombrado director, ella fue actriz.",
    ),
    ("ca", "El seu pare va ser nomenat director.", "feminine", None),
    ("ca", "La seva mare era mestra.", "masculine", None),
    ("fr", "Son beau-frère était acteur.", "feminine", None),
    ("fr", "Son grand-père était acteur.", "feminine", None),
    ("fr", "Son demi-frère est acteur.", "feminine", None),
    ("fr", "Ses fils sont nés à Paris.", "feminine", None),
    (
        "fr",
        "Son grand-père était un acteur célèbre et il était chanteur.",
        "feminine",
        "Son grand-père était un acteur célèbre et elle était chanteuse.",
    ),
    ("it", "Il suo fratello maggiore fu nominato direttore.", "feminine", None),
    ("it", "Sua madre era un'attrice famosa.", "masculine", None),
    ("pt", "O seu pai foi nomeado diretor do museu.", "feminine", None),
    (
        "de",
        "Sein Vater war ein bekannter Schauspieler.",
        "feminine",
        "Ihr Vater war ein bekannter Schauspieler.",
    ),
    ("de", "Sein Großvater war Schauspieler.", "feminine", "Ihr Großvater war Schauspieler."),
    (
        "de",
        "Sein Schwiegervater war Schauspieler.",
        "feminine",
        "Ihr Schwiegervater war Schauspieler.",
    ),
    ("ru", "Его брат родился в Москве.", "feminine", "Ее брат родился в Москве."),
    ("ru", "Его сын родился в 1950 году.", "feminine", "Ее сын родился в 1950 году."),
]


@pytest.mark.parametrize(("lang", "src", "to", "expected"), KEPT)
def test_relatives_in_odd_places_are_kept(lang, src, to, expected):
    out = _check_contract(lang, src, to, "keep")
    if expected is None:  # nothing in the sentence is the person's: byte-identical
        assert out is src
    else:
        assert out == expected


# the relative's own words change when asked (MT-GenEval's convention)
MIRRORED = [
    ("en", "HER MOTHER WAS A PAINTER.", "masculine", "HIS FATHER WAS A PAINTER."),
    ("en", "She met her mother-in-law in 1990.", "masculine", "He met his father-in-law in 1990."),
    ("en", "His son", "feminine", "Her daughter"),
    ("es", "(su padre fue nombrado director)", "feminine", "(su madre fue nombrada directora)"),
    ("fr", "Son beau-frère était acteur.", "feminine", "Sa belle-sœur était actrice."),
    ("fr", "Son grand-père était acteur.", "feminine", "Sa grand-mère était actrice."),
    ("it", "Il suo fratello maggiore fu nominato direttore.", "feminine", None),
    ("pt", "O seu pai foi nomeado diretor do museu.", "feminine", None),
    ("ca", "El seu pare va ser nomenat director.", "feminine", None),
    ("ru", "Его брат родился в Москве.", "feminine", "Ее сестра родилась в Москве."),
]


@pytest.mark.parametrize(("lang", "src", "to", "expected"), MIRRORED)
def test_change_mirrors_the_relatives(lang, src, to, expected):
    out = _check_contract(lang, src, to, "change")
    assert out != _rw(lang).rewrite(src, to)
    if expected is not None:
        assert out == expected


# the phrase says what the person is: the kinship noun is the person's own
OWN = [
    ("en", "She was his only daughter.", "masculine", "He was his only son."),
    ("en", "She became his wife in 1990.", "masculine", "He became his husband in 1990."),
    ("es", "Era su hija.", "masculine", "Era su hijo."),
    ("es", "Era su única hija.", "masculine", "Era su único hijo."),
    ("fr", "Elle était sa fille.", "masculine", "Il était son fils."),
    ("fr", "Elle était sa fille unique.", "masculine", "Il était son fils unique."),
    ("it", "Era sua figlia.", "masculine", "Era suo figlio."),
    ("pt", "Era sua única filha.", "masculine", "Era seu único filho."),
    ("de", "Sie war seine einzige Tochter.", "masculine", "Er war sein einziger Sohn."),
    ("de", "Er war ihr Mann.", "feminine", "Sie war ihre Frau."),
]


@pytest.mark.parametrize(("lang", "src", "to", "expected"), OWN)
def test_copula_guard_changes_the_persons_own_kinship_noun(lang, src, to, expected):
    for rel in ("keep", "change"):
        assert _check_contract(lang, src, to, rel) == expected


def test_unknown_relatives_values_are_refused():
    for bad in ("mirror", "Keep", "CHANGE", "", None, True):
        with pytest.raises(RewriteUnavailable, match="keep"):
            Rewriter("en", relatives=bad)  # type: ignore[arg-type]


def test_counterfactuals_pass_the_relatives_setting_to_every_language():
    from occbio.augment import counterfactuals
    from occbio.records import Document, Entity

    doc = Document(
        entity=Entity("Q1", "Ana Pérez", gender="female"),
        segments=[{"en": "Her mother was a painter.", "es": "Su madre era pintora."}],
    )
    (kept,) = counterfactuals([doc], ["en", "es"], Counter())
    assert kept.segments[0] == {"en": "His mother was a painter.", "es": "Su madre era pintora."}
    (mirrored,) = counterfactuals([doc], ["en", "es"], Counter(), relatives="change")
    assert mirrored.segments[0] == {
        "en": "His father was a painter.",
        "es": "Su padre era pintor.",
    }


# ---------------------------------------------------------------- the command line
def _tsv_rows(path: Path) -> list[list[str]]:
    return [r.split("\t") for r in path.read_text(encoding="utf-8").split("\n") if r]


def test_explain_tsv_on_odd_lines(tmp_path: Path) -> None:
    lines = [
        "She was born in \U0001f600 Lyon and she was an actress.\r\n",
        "\n",
        "   \n",
        "\t\n",
        "The river is long.\n",
        "Her mother was a painter.\r\n",
        "\ufeffShe was an actress.",
    ]
    source = tmp_path / "in.txt"
    source.write_bytes("".join(lines).encode())
    out, tsv = tmp_path / "out.txt", tmp_path / "edits.tsv"
    args = ["rewrite", "--lang", "en", "--to", "masculine", "--input", str(source)]
    assert main([*args, "--output", str(out), "--explain", str(tsv)]) == 0
    got = out.read_bytes().decode().splitlines(keepends=True)
    assert len(got) == len(lines)
    assert got[1:5] == lines[1:5]  # nothing to change: byte-identical, no rows
    assert got[0].endswith("\r\n") and got[5].endswith("\r\n")
    rows = _tsv_rows(tsv)
    assert rows[0] == ["line", "start", "end", "old", "new", "rule"]
    assert all(len(r) == 6 for r in rows)
    assert {r[0] for r in rows[1:]} == {"1", "6", "7"}
    for n in (1, 6, 7):
        src = lines[n - 1].rstrip("\r\n")
        mine = [r for r in rows[1:] if r[0] == str(n)]
        for _, start, end, old, _new, rule in mine:
            assert src[int(start) : int(end)] == old and rule in RULE_NAMES
        for _, start, end, _old, new, _rule in reversed(mine):
            src = src[: int(start)] + new + src[int(end) :]
        assert src == got[n - 1].rstrip("\r\n")
    # the emoji is one character: offsets are code points
    assert rows[2][:5] == ["1", "27", "30", "she", "he"]


def test_explain_tsv_of_an_input_with_nothing_to_change_is_only_the_header(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.txt"
    source.write_text("The river is long.\n\n", encoding="utf-8")
    tsv = tmp_path / "edits.tsv"
    args = ["rewrite", "--lang", "fr", "--to", "feminine", "--input", str(source)]
    assert main([*args, "--output", str(tmp_path / "o"), "--explain", str(tsv)]) == 0
    assert tsv.read_text(encoding="utf-8") == "line\tstart\tend\told\tnew\trule\n"


def test_explain_with_the_chat_backend_is_a_one_line_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tsv = tmp_path / "edits.tsv"
    args = ["rewrite", "--lang", "en", "--to", "feminine", "--backend", "chat"]
    assert main([*args, "--explain", str(tsv), "--model", "m", "--base-url", "http://x"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--explain" in err and len(err.splitlines()) == 1
    assert not tsv.exists()


@pytest.mark.parametrize(
    "command", [["rewrite", "--lang", "en", "--to", "feminine"], ["augment", "r"]]
)
def test_a_relatives_value_that_is_not_allowed_is_a_usage_error(
    command, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*command, "--relatives", "mirror"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--relatives" in err and "keep" in err and "Traceback" not in err


def test_augment_with_relatives_on_what_is_not_a_run_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    for target in (tmp_path / "nowhere", afile, empty):
        assert main(["augment", str(target), "--relatives", "change"]) == 1
        err = capsys.readouterr().err
        assert "not an occbio run directory" in err and err.count("\n") == 1
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json", encoding="utf-8")
    assert main(["augment", str(broken), "--relatives", "keep"]) == 1
    err = capsys.readouterr().err
    assert "not valid JSON" in err and err.count("\n") == 1


# ---------------------------------------------------------------- found by hostile testing, fixed
@pytest.mark.parametrize(
    ("src", "to", "expected"),
    [
        ("She was her mother's only daughter.", "masculine", "He was his mother's only son."),
        ("He was his father's son.", "feminine", "She was her father's daughter."),
        ("He was the king's only son.", "feminine", "She was the queen's only daughter."),
        ("She was her husband's second wife.", "masculine", "He was his husband's second husband."),
        ("He remained his son's guardian.", "feminine", "She remained her son's guardian."),
    ],
)
def test_copula_guard_with_a_genitive(src, to, expected):
    assert _rw("en").rewrite(src, to) == expected


@pytest.mark.parametrize(
    ("lang", "src", "to", "expected"),
    [
        (
            "en",
            "He was named after his grandfather, a king.",
            "feminine",
            "She was named after her grandfather, a king.",
        ),
        (
            "en",
            "Her mother, herself an actress, was famous.",
            "masculine",
            "His mother, herself an actress, was famous.",
        ),
        ("es", "Su padre, un actor famoso, murió en 1950.", "feminine", None),
        ("fr", "Son père, un acteur célèbre, est mort en 1950.", "feminine", None),
        ("it", "Suo padre, un attore famoso, morì nel 1950.", "feminine", None),
        ("pt", "Seu pai, um ator famoso, morreu em 1950.", "feminine", None),
        (
            "de",
            "Sein Vater, ein bekannter Schauspieler, starb 1950.",
            "feminine",
            "Ihr Vater, ein bekannter Schauspieler, starb 1950.",
        ),
    ],
)
def test_apposition_of_a_kept_relative_is_rewritten(lang, src, to, expected):
    assert _rw(lang).rewrite(src, to) == (src if expected is None else expected)


@pytest.mark.parametrize(
    ("lang", "src", "to", "expected"),
    [
        (
            "en",
            "He was an actor, as was his father.",
            "feminine",
            "She was an actress, as was her father.",
        ),
        (
            "en",
            "He admired writers such as his father.",
            "feminine",
            "She admired writers such as her father.",
        ),
        (
            "en",
            "It was her mother who raised her.",
            "masculine",
            "It was his mother who raised him.",
        ),
        ("es", "Como su padre, fue actor.", "feminine", "Como su padre, fue actriz."),
        ("fr", "Comme son père, il fut acteur.", "feminine", "Comme son père, elle fut actrice."),
        ("it", "Come suo padre, fu attore.", "feminine", "Come suo padre, fu attrice."),
        ("pt", "Como seu pai, foi ator.", "feminine", "Como seu pai, foi atriz."),
        (
            "de",
            "Als sein Vater 1920 starb, übernahm er die Firma.",
            "feminine",
            "Als ihr Vater 1920 starb, übernahm sie die Firma.",
        ),
        ("de", "Er war älter als sein Bruder.", "feminine", "Sie war älter als ihr Bruder."),
    ],
)
def test_comparison_is_taken_for_a_copula(lang, src, to, expected):
    assert _rw(lang).rewrite(src, to) == expected


@pytest.mark.parametrize(
    ("lang", "src", "expected"),
    [
        ("it", "Era la sua unica figlia.", "Era il suo unico figlio."),
        ("pt", "Era a sua filha.", "Era o seu filho."),
        ("ca", "Era la seva filla.", "Era el seu fill."),
    ],
)
def test_copula_guard_misses_an_article_before_the_possessive(lang, src, expected):
    assert _rw(lang).rewrite(src, "masculine") == expected


@pytest.mark.parametrize(
    ("lang", "src", "expected"),
    [
        (
            "es",
            "Tras la muerte de su padre fue nombrada reina.",
            "Tras la muerte de su padre fue nombrado rey.",
        ),
        ("es", "Su madre la llevó a París.", "Su madre lo llevó a París."),
        (
            "it",
            "Dopo la morte di suo padre divenne regina.",
            "Dopo la morte di suo padre divenne re.",
        ),
        ("fr", "Sa mère la présenta au roi.", "Sa mère le présenta au roi."),
        (
            "pt",
            "Após a morte de seu pai foi nomeada diretora.",
            "Após a morte de seu pai foi nomeado diretor.",
        ),
        (
            "ca",
            "Després de la mort del seu pare va ser nomenada directora.",
            "Després de la mort del seu pare va ser nomenat director.",
        ),
    ],
)
def test_relative_clause_swallows_the_persons_predicate(lang, src, expected):
    assert _rw(lang).rewrite(src, "masculine") == expected


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        (
            "He is survived by his wife, two sons and a daughter.",
            "She is survived by her wife, two sons and a daughter.",
        ),
        ("His wife, son and daughter survived him.", "Her wife, son and daughter survived her."),
    ],
)
def test_comma_list_of_relatives(src, expected):
    assert _rw("en").rewrite(src, "feminine") == expected


@pytest.mark.parametrize(
    ("lang", "src", "to"),
    [
        ("en", "His cousin was an actor.", "feminine"),
        ("en", "His godfather was an actor.", "feminine"),
        ("es", "Su padrino fue actor.", "feminine"),
        ("fr", "Son parrain était acteur.", "feminine"),
        ("it", "Il suo patrigno era un attore.", "feminine"),
        ("pt", "O seu padrasto era ator.", "feminine"),
        ("ca", "El seu padrastre era actor.", "feminine"),
        ("de", "Sein Stiefvater war Schauspieler.", "feminine"),
        ("de", "Sein Halbbruder war Schauspieler.", "feminine"),
    ],
)
def test_kinship_word_missing_from_the_lists(lang, src, to):
    out = _rw(lang).rewrite(src, to)
    # only the possessive may change (en/de/ru: `his` → `her`); the relative's words may not
    assert out.split()[1:] == src.split()[1:]


def test_two_word_substitution_across_a_tab_breaks_the_tsv(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("Ella lo hizo por sí\tmisma.\n", encoding="utf-8")
    tsv = tmp_path / "edits.tsv"
    args = ["rewrite", "--lang", "es", "--to", "masculine", "--input", str(source)]
    assert main([*args, "--output", str(tmp_path / "o"), "--explain", str(tsv)]) == 0
    assert all(len(r) == 6 for r in _tsv_rows(tsv))


@pytest.mark.parametrize(
    ("lang", "src"),
    [("es", "Ella lo hizo por sí, misma."), ("ca", "Ella ho va fer per si, mateixa.")],
)
def test_two_word_substitution_deletes_punctuation(lang, src):
    assert "," in _rw(lang).rewrite(src, "masculine")


@pytest.mark.parametrize("src", ['Her "mother" was an actress.', "Her—mother was an actress."])
def test_quoted_kinship_noun(src):
    assert _rw("en").rewrite(src, "masculine") == "His" + src[3:]


# ---------------------------------------------------------------- found on the way
def _within(seconds: float, call):
    """``call()``, or TimeoutError after ``seconds`` (an endless loop fails, not hangs)."""
    import signal

    def _raise(*_):
        raise TimeoutError(f"no answer in {seconds} s")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize(
    "src",
    ["Es un pintor de  jazz.", 'Es una pintora de" jazz.'],
)
def test_spanish_lead_hangs_on_odd_space_after_de(src):
    to = "masculine" if "una" in src else "feminine"
    assert _within(0.5, lambda: _rw("es").rewrite(src, to)) != src


def test_french_typographic_apostrophe():
    straight = _rw("fr").rewrite("Il était l'un des premiers acteurs.", "feminine")
    curly = _rw("fr").rewrite("Il était l’un des premiers acteurs.", "feminine")
    assert curly == straight.replace("'", "’")


@pytest.mark.parametrize("src", ["Era la filla de la reina.", "Era la filla a la reina."])
def test_catalan_contractions(src):
    out = _rw("ca").rewrite(src, "masculine")
    assert out != src and not re.search(r"\b(de|a|per) el\b", out)


def test_name_apposition_of_a_kept_relative():
    """`Her mother, Jane, was an actress`: the name between commas, then the mother's clause."""
    out = _rw("en").rewrite("Her mother, Jane, was an actress.", "masculine")
    assert out == "His mother, Jane, was an actress."


# ---------------------------------------------------------------- known, not fixed
@pytest.mark.xfail(
    strict=True,
    reason="Italian clitic rules leave `la` after a kept feminine relative subject (`Sua "
    "madre la portò`): they read the clitic as agreeing with that subject",
)
def test_bug_italian_clitic_after_a_kept_relative():
    out = _rw("it").rewrite("Sua madre la portò a Parigi.", "masculine")
    assert out == "Sua madre lo portò a Parigi."
