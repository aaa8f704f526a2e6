"""Gender mapping: every rule of occbio.gender.categories, one row each."""

from __future__ import annotations

import pytest

from occbio.gender.categories import (
    DEFERRING_QIDS,
    GENDER_CATEGORIES,
    GENDER_QIDS,
    explain_gender,
    map_gender,
    unmapped_gender_qids,
)

FEMALE = "Q6581072"
MALE = "Q6581097"
NON_BINARY = "Q48270"
INTERSEX = "Q1097630"
TRANS_WOMAN = "Q1052281"
TRANS_MAN = "Q2449503"
GENDERQUEER = "Q12964198"
AGENDER = "Q505371"
TRANSGENDER = "Q189125"
UNMAPPED = "Q99999999999"

# (values, category, reason)
CASES = [
    ([], "unknown", "no_value"),
    ([FEMALE], "female", "single"),
    ([MALE], "male", "single"),
    ([NON_BINARY], "non-binary", "single"),
    ([TRANS_WOMAN], "female", "single"),
    ([TRANS_MAN], "male", "single"),
    ([GENDERQUEER], "non-binary", "single"),
    ([AGENDER], "non-binary", "single"),
    ([INTERSEX], "non-binary", "single"),
    ([TRANSGENDER], "unknown", "unsettled"),
    ([UNMAPPED], "unknown", "unmapped"),
    ([FEMALE, FEMALE], "female", "single"),
    ([TRANS_WOMAN, FEMALE], "female", "agree"),
    ([MALE, TRANS_MAN], "male", "agree"),
    ([GENDERQUEER, NON_BINARY], "non-binary", "agree"),
    ([MALE, NON_BINARY], "non-binary", "non_binary_wins"),
    ([NON_BINARY, FEMALE], "non-binary", "non_binary_wins"),
    ([TRANS_WOMAN, GENDERQUEER], "non-binary", "non_binary_wins"),
    ([FEMALE, MALE, NON_BINARY], "non-binary", "non_binary_wins"),
    ([FEMALE, MALE], "unknown", "conflict_female_male"),
    ([TRANS_WOMAN, MALE], "unknown", "conflict_female_male"),
    ([INTERSEX, FEMALE], "female", "deferred"),
    ([MALE, INTERSEX], "male", "deferred"),
    ([TRANSGENDER, FEMALE], "female", "deferred"),
    ([TRANSGENDER, GENDERQUEER], "non-binary", "deferred"),
    ([INTERSEX, TRANSGENDER], "non-binary", "deferred"),
    ([FEMALE, UNMAPPED], "unknown", "unmapped"),
]


@pytest.mark.parametrize(("qids", "category", "reason"), CASES)
def test_explain_and_map(qids: list[str], category: str, reason: str) -> None:
    assert explain_gender(qids) == (category, reason)
    assert map_gender(qids) == category


@pytest.mark.parametrize(("qids", "category", "reason"), CASES)
def test_order_does_not_matter(qids: list[str], category: str, reason: str) -> None:
    assert map_gender(list(reversed(qids))) == category


def test_required_qids_are_mapped() -> None:
    expected = {
        "Q6581072": "female",
        "Q6581097": "male",
        "Q48270": "non-binary",
        "Q1097630": "non-binary",
        "Q1052281": "female",
        "Q2449503": "male",
        "Q12964198": "non-binary",
        "Q18116794": "non-binary",
        "Q505371": "non-binary",
        "Q301702": "non-binary",
        "Q27679766": "non-binary",
        "Q27679684": "non-binary",
        "Q1289754": "non-binary",
        "Q3277905": "non-binary",
        "Q746411": "non-binary",
        "Q350374": "non-binary",
        "Q660882": "non-binary",
        "Q207959": "non-binary",
        "Q189125": "unknown",
    }
    assert {q: GENDER_QIDS[q] for q in expected} == expected


def test_map_values_are_categories() -> None:
    assert GENDER_CATEGORIES == ("female", "male", "non-binary", "unknown")
    assert set(GENDER_QIDS.values()) <= set(GENDER_CATEGORIES)
    assert all(q.startswith("Q") and q[1:].isdigit() for q in GENDER_QIDS)
    assert set(DEFERRING_QIDS) <= set(GENDER_QIDS)


def test_unmapped_gender_qids_lists_unknown_values_once() -> None:
    assert unmapped_gender_qids([FEMALE, "Q1", "Q2", "Q1"]) == ["Q1", "Q2"]
    assert unmapped_gender_qids([FEMALE, MALE]) == []
