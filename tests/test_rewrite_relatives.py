"""The person's relatives (`her mother`): kept by default, changed on request (MT-GenEval's way)."""

from __future__ import annotations

import pytest

from occbio.rewrite import Rewriter, RewriteUnavailable

# (lang, source, target, with relatives kept, with relatives changed)
CASES = [
    (
        "en",
        "Her mother was a painter and her younger brother an actor.",
        "masculine",
        "His mother was a painter and his younger brother an actor.",
        "His father was a painter and his younger brother an actor.",
    ),
    (
        "en",
        "He married in 1950; his wife and two sons survived him.",
        "feminine",
        "She married in 1950; her wife and two sons survived her.",
        None,
    ),
    (
        "es",
        "Fue hija de un carpintero; su madre era maestra.",
        "masculine",
        "Fue hijo de un carpintero; su madre era maestra.",
        "Fue hijo de un carpintero; su padre era maestro.",
    ),
    (
        "es",
        "Su hermano murió en 1950 y ella quedó sola.",
        "masculine",
        "Su hermano murió en 1950 y él quedó solo.",
        None,
    ),
    (
        "fr",
        "Elle est née à Lyon ; sa grand-mère était peintre.",
        "masculine",
        "Il est né à Lyon ; sa grand-mère était peintre.",
        None,
    ),
    (
        "it",
        "Suo fratello era un attore famoso.",
        "feminine",
        "Suo fratello era un attore famoso.",
        "Sua sorella era un'attrice famosa.",
    ),
    (
        "pt",
        "Ele nasceu em Lisboa e o seu irmão era ator.",
        "feminine",
        "Ela nasceu em Lisboa e o seu irmão era ator.",
        None,
    ),
    (
        "de",
        "Ihre Mutter war Malerin.",
        "masculine",
        "Seine Mutter war Malerin.",
        None,
    ),
    ("ru", "Её мать была художницей.", "masculine", "Её мать была художницей.", None),
]


@pytest.mark.parametrize(("lang", "src", "to", "kept", "changed"), CASES)
def test_relatives_kept_by_default_and_changed_on_request(lang, src, to, kept, changed):
    assert Rewriter(lang, strict=True).rewrite(src, to) == kept
    if changed is not None:
        assert Rewriter(lang, strict=True, relatives="change").rewrite(src, to) == changed


@pytest.mark.parametrize(
    ("lang", "src", "to", "expected"),
    [
        # after a copula the possessive phrase says what the person is (`as`, `como` compare:
        # `como su padre` is like the father, see test_rewrite_hostile)
        ("en", "She was his only daughter.", "masculine", "He was his only son."),
        ("es", "Era su esposa desde 1990.", "masculine", "Era su esposo desde 1990."),
        # a kinship noun with no possessive before it is the person's own
        ("en", "He was the son of a miner.", "feminine", "She was the daughter of a miner."),
        ("es", "Nació en Sevilla, hijo de un carpintero.", "feminine", None),
    ],
)
def test_the_persons_own_kinship_noun_changes(lang, src, to, expected):
    out = Rewriter(lang, strict=True).rewrite(src, to)
    if expected is None:
        assert out != src
    else:
        assert out == expected


def test_a_sentence_only_about_a_relative_comes_back_byte_identical():
    for lang, src in (
        ("es", "Su hermano mayor también era músico."),
        ("it", "Suo padre era un famoso pittore."),
        ("pt", "A sua mãe era professora."),
    ):
        for to in ("feminine", "masculine"):
            assert Rewriter(lang, strict=True).rewrite(src, to) is src


def test_an_unknown_relatives_setting_is_an_error():
    with pytest.raises(RewriteUnavailable, match="keep"):
        Rewriter("en", relatives="mirror")  # type: ignore[arg-type]
