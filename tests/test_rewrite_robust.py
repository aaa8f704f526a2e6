"""Every rewriter on real and hostile input, in strict mode: a rule that raises is a bug.

Outside strict mode the rewriter keeps a sentence it fails on (counted, logged): that is what
a corpus run needs, and exactly why the rules must be tested with errors raised.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from occbio.rewrite import Rewriter, supported_languages
from occbio.rewrite.learn import load_mtgeneval

DATA = Path(__file__).resolve().parents[2] / "shared/data/mt-geneval-dev"

HOSTILE = [
    "",
    " ",
    "\t\n",
    ".",
    "'",
    "’’’",
    "«»",
    "-",
    "l'",
    "L' L' l' d'",
    "He",
    "HE SHE HIM HER HIS",
    "ÉL ELLA LO LA",
    "il elle le la lui",
    "il y a",
    "lo lo lo lo lo lo",
    "la la la la la la la",
    "un una uno un' l' lo gli le",
    "Fue fue fue fue",
    "был была было",
    "sie sie Sie SIE ihr ihr",
    "He,,, she;;; her!!! his???",
    "(((she)))",
    "she-her-hers",
    "She was born in 1950 in https://example.org/she/her and wrote to her@example.org.",
    "x" * 5000,
    "she " * 2000,
    "el rey " * 500,
    "🙂 she 🙂 her 🙂",
    "\u200bshe\u200b her",
    "ﬁle ﬂow she",  # ligatures
    "Ｓｈｅ ｗａｓ",  # full width
    "She\u0301 was",  # a combining mark
    "1 2 3 4 5",
    "— – -- ---",
]


@pytest.mark.parametrize("lang", supported_languages())
@pytest.mark.parametrize("to", ["feminine", "masculine"])
def test_hostile_lines_do_not_raise_and_keep_their_shape(lang: str, to: str) -> None:
    rw = Rewriter(lang, strict=True)
    for line in HOSTILE:
        out = rw.rewrite(line, to)
        assert isinstance(out, str)
        if not line.strip():
            assert out is line
        # a rewrite changes words, never the text between them into something else
        assert out.count("\n") == line.count("\n")
    assert list(rw.rewrite_many(["he\n", "", "she"], to))[1] == ""


@pytest.mark.parametrize("lang", ["en", "es", "fr", "it", "pt", "de", "ru"])
def test_every_mtgeneval_sentence_rewrites_without_error(lang: str) -> None:
    """Both halves, both directions: no rule raises on 2,400+ real biography sentences."""
    if not DATA.exists():
        pytest.skip("MT-GenEval data not beside the repository")
    rw = Rewriter(lang, strict=True)
    for f, m in load_mtgeneval(DATA, lang):
        rw.rewrite(m, "feminine")
        rw.rewrite(f, "masculine")


def test_a_failing_rule_keeps_the_sentence_counted_and_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    rw = Rewriter("es")

    def broken(*args: object, **kwargs: object) -> None:
        raise IndexError("a rule's bug")

    monkeypatch.setattr(rw.rules, "fix_plan", broken)
    line = "Fue nombrado director del museo."
    with caplog.at_level(logging.WARNING):
        assert rw.rewrite(line, "feminine") is line
    assert rw.stats["errors"] == 1
    assert "kept as it is" in caplog.text
    strict = Rewriter("es", strict=True)
    monkeypatch.setattr(strict.rules, "fix_plan", broken)
    with pytest.raises(IndexError):
        strict.rewrite(line, "feminine")


_PIECES = (
    "he she him her his hers el la lo los las un una uno él ella fue nombrado nombrada "
    "director directora il elle le lui l' d' du au est né née un' lo gli è stato stata "
    "ele ela o a do da foi eleito eleita er sie ihr ihm sein der die ein eine он она был была "
    "Ana Juan Marie , . ; : « » ( ) - — ' \" 1990 y e et and"
).split()


@pytest.mark.parametrize("lang", supported_languages())
def test_random_word_salad_never_raises(lang: str) -> None:
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    rw = Rewriter(lang, strict=True)

    @hypothesis.settings(max_examples=150, deadline=None, database=None)
    @hypothesis.given(
        st.lists(st.sampled_from(_PIECES), max_size=25),
        st.sampled_from(["feminine", "masculine"]),
    )
    def check(words: list[str], to: str) -> None:
        line = " ".join(words)
        out = rw.rewrite(line, to)
        assert isinstance(out, str)

    check()
