"""Balancing (occbio.balance): every rule and reason by hand, then properties on random people.

The property tests also compare against a slow, literal transcription of the rules
(``_reference``), which checks the faster bookkeeping of the real implementation.
"""

from __future__ import annotations

import logging
import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from occbio.balance import REASONS, Candidate, Decision, balance, document_score, summarise
from occbio.balance.core import qid_key
from occbio.balance.occgen import group_key

F, M, NB, UNK = "female", "male", "non-binary", "unknown"
FM = (F, M)


def cand(qid: int, gender: str, occupations: Sequence[int] = (), n: int = 1, score: float = 1.0):
    """A candidate with ``n`` tuples all scoring ``score``; occupations given as QID numbers."""
    return Candidate(f"Q{qid}", gender, tuple(f"Q{o}" for o in occupations), (score,) * n)


def by_qid(decisions: Sequence[Decision]) -> dict[str, Decision]:
    return {d.qid: d for d in decisions}


def reasons(decisions: Sequence[Decision]) -> dict[str, str]:
    return {d.qid: d.reason for d in decisions}


def n_kept(decisions: Sequence[Decision]) -> dict[str, int]:
    return {d.qid: len(d.kept_indices) for d in decisions}


# --- document_score, errors, order ---------------------------------------------------------


def test_document_score_is_the_mean() -> None:
    assert document_score([]) == 0.0
    assert document_score([1.0, 1.2, 1.4]) == pytest.approx(1.2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "bogus", "genders": FM}, "unknown balancing method"),
        ({"method": "gebio", "genders": [F]}, "two distinct genders"),
        ({"method": "occgen", "genders": [F, F]}, "two distinct genders"),
        ({"method": "occgen", "genders": []}, "two distinct genders"),
    ],
)
def test_bad_arguments_raise(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        balance([cand(1, F)], **kwargs)


def test_duplicate_qid_raises() -> None:
    with pytest.raises(ValueError, match="duplicate candidates: Q1"):
        balance([cand(1, F), cand(2, M), cand(1, M)], method="none", genders=FM)


def test_nan_score_raises() -> None:
    with pytest.raises(ValueError, match="NaN"):
        balance([Candidate("Q1", F, (), (math.nan,))], method="gebio", genders=FM)


def test_none_ignores_genders_and_orders_by_qid_number() -> None:
    people = [cand(10, UNK, n=2), cand(2, F, n=3), cand(3, M, n=0), cand(100, NB)]
    decisions = balance(people, method="none", genders=[F])
    assert [d.qid for d in decisions] == ["Q2", "Q3", "Q10", "Q100"]
    assert reasons(decisions) == {
        "Q2": "kept",
        "Q3": "no_aligned_sentences",
        "Q10": "kept",
        "Q100": "kept",
    }
    assert n_kept(decisions) == {"Q2": 3, "Q3": 0, "Q10": 2, "Q100": 1}
    assert by_qid(decisions)["Q10"].gender == UNK
    assert all(d.group == "" and d.category == 0 for d in decisions)


@pytest.mark.parametrize("method", ["gebio", "occgen"])
def test_common_drops_no_tuples_first_then_unselected_gender(method: str) -> None:
    people = [
        cand(1, F, [5], n=2),
        cand(2, M, [5], n=2),
        cand(3, UNK, [5], n=2),  # not selected
        cand(4, NB, [5], n=0),  # no tuples and not selected: no tuples is checked first
        cand(5, F, [5], n=0),
    ]
    got = reasons(balance(people, method=method, genders=FM))
    assert got == {
        "Q1": "kept",
        "Q2": "kept",
        "Q3": "gender_not_selected",
        "Q4": "no_aligned_sentences",
        "Q5": "no_aligned_sentences",
    }


# --- gebio -----------------------------------------------------------------------------------


def test_gebio_cuts_the_last_document_that_does_not_fit() -> None:
    people = [
        cand(1, F, n=3, score=0.9),
        cand(2, F, n=2, score=0.8),  # F total 5 = target
        cand(3, M, n=4, score=0.7),
        cand(4, M, n=2, score=0.95),  # best man: taken first
        cand(5, M, n=1, score=0.5),
    ]
    decisions = balance(people, method="gebio", genders=FM)
    assert reasons(decisions) == {
        "Q1": "kept",
        "Q2": "kept",
        "Q3": "kept_cut",
        "Q4": "kept",
        "Q5": "surplus_sentences",
    }
    assert by_qid(decisions)["Q3"].kept_indices == (0, 1, 2)  # 2 + 3 = 5
    assert summarise(decisions)["kept_sentences"] == {F: 5, M: 5}


def test_gebio_stops_at_an_exact_fit_and_breaks_score_ties_by_qid_number() -> None:
    people = [
        cand(1, F, n=4),
        cand(20, M, n=2, score=0.5),
        cand(3, M, n=2, score=0.5),  # same score as Q20, lower number: first
        cand(4, M, n=1, score=0.4),  # would fit in a bigger quota, but the quota is full
    ]
    decisions = balance(people, method="gebio", genders=FM)
    assert reasons(decisions) == {
        "Q1": "kept",
        "Q3": "kept",
        "Q4": "surplus_sentences",
        "Q20": "kept",
    }
    people = [cand(1, F, n=3), cand(20, M, n=2, score=0.5), cand(3, M, n=2, score=0.5)]
    assert n_kept(balance(people, method="gebio", genders=FM)) == {"Q1": 3, "Q3": 2, "Q20": 1}


def test_gebio_does_not_skip_ahead_to_a_smaller_document() -> None:
    # Best first: Q2 (3 tuples) does not fit whole after Q1, so it is cut; Q3 is not taken
    # whole in its place.
    people = [
        cand(1, M, n=2, score=0.9),
        cand(2, M, n=3, score=0.8),
        cand(3, M, n=1, score=0.7),
        cand(4, F, n=3),
    ]
    decisions = balance(people, method="gebio", genders=FM)
    assert reasons(decisions)["Q2"] == "kept_cut"
    assert by_qid(decisions)["Q2"].kept_indices == (0,)
    assert reasons(decisions)["Q3"] == "surplus_sentences"


def test_gebio_with_a_missing_gender_keeps_nobody_and_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    people = [cand(1, F, n=3), cand(2, M, n=2), cand(3, NB, n=0)]
    with caplog.at_level(logging.WARNING, logger="occbio.balance.gebio"):
        decisions = balance(people, method="gebio", genders=[F, M, NB])
    assert reasons(decisions) == {
        "Q1": "surplus_sentences",
        "Q2": "surplus_sentences",
        "Q3": "no_aligned_sentences",
    }
    assert "non-binary" in caplog.text


def test_gebio_three_genders() -> None:
    people = [
        cand(1, F, n=5),
        cand(2, M, n=3, score=0.9),
        cand(3, M, n=3, score=0.8),
        cand(4, NB, n=2, score=0.9),
        cand(5, NB, n=2, score=0.6),
        cand(6, UNK, n=9),
    ]
    decisions = balance(people, method="gebio", genders=[F, M, NB])
    assert reasons(decisions) == {
        "Q1": "kept_cut",
        "Q2": "kept",
        "Q3": "kept_cut",
        "Q4": "kept",
        "Q5": "kept",
        "Q6": "gender_not_selected",
    }
    assert summarise(decisions)["kept_sentences"] == {F: 4, M: 4, NB: 4}
    assert all(d.group == "" and d.category == 0 for d in decisions)


# --- occgen ----------------------------------------------------------------------------------


def test_group_key_is_distinct_qids_by_number() -> None:
    assert group_key(["Q10", "Q2", "Q10"]) == "Q2|Q10"
    assert group_key([]) == ""


def test_occgen_categories_groups_and_the_lower_category_skip() -> None:
    people = [
        # category 1, occupation 1: balanced
        cand(1, F, [1]),
        cand(2, M, [1]),
        # category 1, occupation 4: women only
        cand(3, F, [4]),
        # category 2 {1, 2}: occupation 1 was balanced in category 1 -> skipped
        cand(4, F, [1, 2]),
        cand(5, M, [2, 1]),
        # category 2 {2, 3}: nothing balanced below -> kept
        cand(6, F, [2, 3]),
        cand(7, M, [3, 2, 3]),  # duplicate occupation: still category 2
        # category 2 {3, 4}: kept although {2, 3} shares 3 (same category does not block)
        # and occupation 4 lacked a gender in category 1
        cand(8, F, [3, 4]),
        cand(9, M, [4, 3]),
        # category 3 {2, 5, 6}: 2 was balanced in category 2 -> skipped
        cand(10, F, [2, 5, 6]),
        cand(11, M, [5, 6, 2]),
        # no occupation
        cand(12, M, []),
    ]
    decisions = balance(people, method="occgen", genders=FM)
    assert reasons(decisions) == {
        "Q1": "kept",
        "Q2": "kept",
        "Q3": "occupation_lacks_gender",
        "Q4": "occupation_balanced_in_lower_category",
        "Q5": "occupation_balanced_in_lower_category",
        "Q6": "kept",
        "Q7": "kept",
        "Q8": "kept",
        "Q9": "kept",
        "Q10": "occupation_balanced_in_lower_category",
        "Q11": "occupation_balanced_in_lower_category",
        "Q12": "no_occupation",
    }
    d = by_qid(decisions)
    assert (d["Q7"].group, d["Q7"].category) == ("Q2|Q3", 2)
    assert (d["Q11"].group, d["Q11"].category) == ("Q2|Q5|Q6", 3)
    assert (d["Q12"].group, d["Q12"].category) == ("", 0)
    assert sorted(summarise(decisions)["groups"]) == ["Q1", "Q2|Q3", "Q3|Q4"]


def test_occgen_group_lacking_a_gender_does_not_block_higher_categories() -> None:
    people = [cand(1, F, [1]), cand(2, F, [1, 2]), cand(3, M, [2, 1])]
    got = reasons(balance(people, method="occgen", genders=FM))
    assert got == {"Q1": "occupation_lacks_gender", "Q2": "kept", "Q3": "kept"}


def test_occgen_keeps_as_many_people_as_the_smallest_gender_matching_lengths() -> None:
    people = [
        cand(1, F, [7], n=5, score=0.5),  # the reference (fewest people)
        cand(2, M, [7], n=9, score=0.99),  # best score but far in length
        cand(3, M, [7], n=5, score=0.1),  # same length: chosen
        cand(4, M, [7], n=4, score=0.9),
    ]
    decisions = balance(people, method="occgen", genders=FM)
    assert reasons(decisions) == {
        "Q1": "kept",
        "Q2": "surplus_person",
        "Q3": "kept",
        "Q4": "surplus_person",
    }
    d = by_qid(decisions)
    assert (d["Q2"].group, d["Q2"].category, d["Q2"].gender) == ("Q7", 1, M)


def test_occgen_matching_follows_the_reference_order_and_breaks_ties_by_score() -> None:
    people = [
        # reference women, best first: Q1 (5 tuples), then Q2 (2 tuples)
        cand(1, F, [7], n=5, score=0.9),
        cand(2, F, [7], n=2, score=0.8),
        # men: for Q1, lengths 4 and 6 are equally close -> the better score (Q11);
        # for Q2, the closest left is Q12 (3 tuples) rather than Q10 (4)
        cand(10, M, [7], n=4, score=0.5),
        cand(11, M, [7], n=6, score=0.7),
        cand(12, M, [7], n=3, score=0.1),
    ]
    decisions = balance(people, method="occgen", genders=FM)
    assert reasons(decisions)["Q10"] == "surplus_person"
    # women 7, men 6 + 3 = 9 -> Q11 is cut twice, to 4 tuples
    assert n_kept(decisions) == {"Q1": 5, "Q2": 2, "Q10": 0, "Q11": 4, "Q12": 3}
    assert reasons(decisions)["Q11"] == "kept_cut"


def test_occgen_matching_prefers_a_closer_shorter_document_to_a_longer_one() -> None:
    people = [
        cand(1, F, [7], n=5),
        cand(2, M, [7], n=7, score=0.9),
        cand(3, M, [7], n=4, score=0.1),  # one shorter, beats two longer despite the score
        cand(4, F, [8], n=5),
        cand(5, M, [8], n=6, score=0.1),
        cand(6, M, [8], n=4, score=0.9),  # as close as Q5, better score
    ]
    got = reasons(balance(people, method="occgen", genders=FM))
    assert (got["Q2"], got["Q3"]) == ("surplus_person", "kept")
    assert (got["Q5"], got["Q6"]) == ("surplus_person", "kept")


def test_occgen_reference_is_the_smallest_gender_ties_by_the_order_of_genders() -> None:
    # Women and non-binary people: two each (the reference is one of them); men: four.
    # The men matched are those whose lengths are closest to the reference's people.
    people = [
        cand(1, F, [7], n=1),
        cand(2, F, [7], n=1),
        cand(3, M, [7], n=1),
        cand(4, M, [7], n=1),
        cand(5, M, [7], n=4),
        cand(8, M, [7], n=4),
        cand(6, NB, [7], n=4),
        cand(7, NB, [7], n=4),
    ]
    for genders, men in [
        ((F, M, NB), ("Q3", "Q4")),
        ((M, F, NB), ("Q3", "Q4")),
        ((NB, M, F), ("Q5", "Q8")),
        ((M, NB, F), ("Q5", "Q8")),
    ]:
        decisions = balance(people, method="occgen", genders=genders)
        kept_men = tuple(d.qid for d in decisions if d.kept and d.gender == M)
        assert kept_men == men, genders
        # everyone is cut to the smallest total, 2 tuples per gender
        assert summarise(decisions)["kept_sentences"] == {F: 2, M: 2, NB: 2}


def test_occgen_cuts_in_several_steps_from_the_longest_document() -> None:
    people = [
        cand(1, F, [7], n=6, score=0.9),
        cand(2, F, [7], n=2, score=0.8),
        cand(3, M, [7], n=3),
        cand(4, M, [7], n=2),
    ]
    decisions = balance(people, method="occgen", genders=FM)
    # women 8, men 5: three tuples go, all from Q1 (6 -> 5 -> 4 -> 3)
    assert n_kept(decisions) == {"Q1": 3, "Q2": 2, "Q3": 3, "Q4": 2}
    assert by_qid(decisions)["Q1"].kept_indices == (0, 1, 2)
    assert reasons(decisions) == {"Q1": "kept_cut", "Q2": "kept", "Q3": "kept", "Q4": "kept"}


def test_occgen_cut_ties_take_from_the_least_preferred() -> None:
    def women(q1: int, q2: int, q30: int) -> list[Candidate]:
        return [
            cand(1, F, [7], n=q1, score=0.9),
            cand(2, F, [7], n=q2, score=0.5),
            cand(30, F, [7], n=q30, score=0.5),  # ties with Q2, higher number: less preferred
        ]

    men11 = [cand(4, M, [7], n=4), cand(5, M, [7], n=4), cand(6, M, [7], n=3)]
    men10 = [cand(4, M, [7], n=4), cand(5, M, [7], n=3), cand(6, M, [7], n=3)]
    cases = [
        # (women's lengths, men, kept after the cut): one cut among three 4s: Q30
        ((4, 4, 4), men11, (4, 4, 3)),
        # two cuts: Q1 (the longest), then the least preferred of the 4s, Q30
        ((5, 4, 4), men11, (4, 4, 3)),
        # one cut between Q1 and Q2 (4 each): Q2
        ((4, 4, 3), men10, (4, 3, 3)),
        # four cuts: Q2 5->4, Q1 5->4, Q30 4->3, Q2 4->3
        ((5, 5, 4), men10, (4, 3, 3)),
        # women 6 tuples short of the men: the men are cut, the women are not
        ((1, 1, 1), men10, (1, 1, 1)),
    ]
    for lengths, men, expected in cases:
        got = n_kept(balance(women(*lengths) + men, method="occgen", genders=FM))
        assert (got["Q1"], got["Q2"], got["Q30"]) == expected, lengths
        assert got["Q1"] + got["Q2"] + got["Q30"] == got["Q4"] + got["Q5"] + got["Q6"]


def test_occgen_never_cuts_below_one_tuple() -> None:
    people = [cand(1, F, [7], n=1), cand(2, F, [7], n=9), cand(3, M, [7], n=1), cand(4, M, [7])]
    decisions = balance(people, method="occgen", genders=FM)
    assert n_kept(decisions) == {"Q1": 1, "Q2": 1, "Q3": 1, "Q4": 1}


def test_occgen_three_genders() -> None:
    people = [
        cand(1, F, [7], n=3, score=0.9),
        cand(2, F, [7], n=2, score=0.8),
        cand(3, M, [7], n=2, score=0.9),
        cand(4, M, [7], n=4, score=0.8),
        cand(5, M, [7], n=1, score=0.7),
        cand(6, NB, [7], n=2),  # the reference: one person
        cand(7, F, [8]),
        cand(8, M, [8]),  # no non-binary person in occupation 8
        cand(9, UNK, [7]),
    ]
    decisions = balance(people, method="occgen", genders=[F, M, NB])
    assert reasons(decisions) == {
        "Q1": "surplus_person",
        "Q2": "kept",  # 2 tuples, like the reference
        "Q3": "kept",
        "Q4": "surplus_person",
        "Q5": "surplus_person",
        "Q6": "kept",
        "Q7": "occupation_lacks_gender",
        "Q8": "occupation_lacks_gender",
        "Q9": "gender_not_selected",
    }
    assert summarise(decisions)["groups"] == {
        "Q7": {"people": {F: 1, M: 1, NB: 1}, "sentences": {F: 2, M: 2, NB: 2}}
    }


def test_summarise() -> None:
    decisions = [
        Decision("Q1", True, "kept", (0, 1), group="Q7", category=1, gender=F),
        Decision("Q2", True, "kept_cut", (0, 1), group="Q7", category=1, gender=M),
        Decision("Q3", False, "surplus_person", group="Q7", category=1, gender=M),
        Decision("Q4", True, "kept", (0,), gender=NB),
    ]
    assert summarise(decisions) == {
        "reasons": {"kept": 2, "kept_cut": 1, "surplus_person": 1},
        "kept_people": {F: 1, M: 1, NB: 1},
        "kept_sentences": {F: 2, M: 2, NB: 1},
        "groups": {"Q7": {"people": {F: 1, M: 1}, "sentences": {F: 2, M: 2}}},
    }
    assert summarise([]) == {"reasons": {}, "kept_people": {}, "kept_sentences": {}, "groups": {}}


# --- a literal transcription of the rules, for the property tests ---------------------------


def _pref(c: Candidate) -> tuple:
    return (-document_score(c.scores), qid_key(c.qid))


def _reference(people: list[Candidate], method: str, genders: Sequence[str]) -> dict[str, tuple]:
    """{qid: (reason, kept tuples, group, category)}, computed the slow, obvious way."""
    out: dict[str, tuple] = {}
    eligible = []
    for c in people:
        occs = sorted(set(c.occupations), key=qid_key)
        info = ("|".join(occs), len(occs)) if method == "occgen" else ("", 0)
        if not c.scores:
            out[c.qid] = ("no_aligned_sentences", 0, *info)
        elif method == "none":
            out[c.qid] = ("kept", len(c.scores), *info)
        elif c.gender not in genders:
            out[c.qid] = ("gender_not_selected", 0, *info)
        else:
            eligible.append(c)
    if method == "gebio":
        target = min(sum(len(c.scores) for c in eligible if c.gender == g) for g in genders)
        for g in genders:
            total = 0
            for c in sorted((c for c in eligible if c.gender == g), key=_pref):
                take = min(len(c.scores), target - total)
                total += take
                reason = "kept" if take == len(c.scores) else "kept_cut"
                out[c.qid] = (reason if take else "surplus_sentences", take, "", 0)
    elif method == "occgen":
        balanced: set[str] = set()
        for category in sorted({len(set(c.occupations)) for c in eligible}):
            newly: set[str] = set()
            groups: dict[str, list[Candidate]] = {}
            for c in eligible:
                occs = set(c.occupations)
                if len(occs) != category:
                    continue
                key = "|".join(sorted(occs, key=qid_key))
                if category == 0:
                    out[c.qid] = ("no_occupation", 0, "", 0)
                elif occs & balanced:
                    out[c.qid] = ("occupation_balanced_in_lower_category", 0, key, category)
                else:
                    groups.setdefault(key, []).append(c)
            for key, members in groups.items():
                per = {g: sorted((c for c in members if c.gender == g), key=_pref) for g in genders}
                if not all(per.values()):
                    for c in members:
                        out[c.qid] = ("occupation_lacks_gender", 0, key, category)
                    continue
                newly |= set(members[0].occupations)
                n = min(len(v) for v in per.values())
                ref = next(g for g in genders if len(per[g]) == n)
                chosen = {ref: per[ref][:n]}
                for g in genders:
                    if g == ref:
                        continue
                    pool, chosen[g] = list(per[g]), []
                    for r in chosen[ref]:
                        best = min(
                            pool, key=lambda c, r=r: (abs(len(c.scores) - len(r.scores)), _pref(c))
                        )
                        pool.remove(best)
                        chosen[g].append(best)
                counts = {c.qid: len(c.scores) for v in chosen.values() for c in v}
                target = min(sum(counts[c.qid] for c in v) for v in chosen.values())
                for v in chosen.values():
                    while sum(counts[c.qid] for c in v) > target:
                        most = max(counts[c.qid] for c in v)
                        victim = max((c for c in v if counts[c.qid] == most), key=_pref)
                        counts[victim.qid] -= 1
                for c in members:
                    if c.qid in counts:
                        reason = "kept" if counts[c.qid] == len(c.scores) else "kept_cut"
                        out[c.qid] = (reason, counts[c.qid], key, category)
                    else:
                        out[c.qid] = ("surplus_person", 0, key, category)
            balanced |= newly
    return out


# --- properties on random people --------------------------------------------------------------

GENDER_SETS = [(F, M), (M, F), (F, M, NB)]


def _candidate(number: int, gender: str, occupations: list[str], scores: list[float]) -> Candidate:
    return Candidate(f"Q{number}", gender, tuple(occupations), tuple(scores))


PERSON = st.builds(
    _candidate,
    st.integers(1, 80),
    st.sampled_from([F, F, F, M, M, M, NB, UNK]),
    st.lists(st.sampled_from(["Q1", "Q2", "Q3", "Q10"]), max_size=4),  # duplicates too
    st.lists(st.sampled_from([0.5, 1.0, 1.05, 1.2]), max_size=8),  # few values: many ties
)
#: People of one occupation group or two, all with tuples and a selected gender: groups that
#: have every gender, surplus people and cuts.
DENSE_PERSON = st.builds(
    _candidate,
    st.integers(1, 80),
    st.sampled_from([F, F, M, M, M, NB]),
    st.lists(st.sampled_from(["Q1", "Q2"]), min_size=1, max_size=2),
    st.lists(st.sampled_from([0.5, 1.0, 1.2]), min_size=1, max_size=8),
)
#: Small populations, large ones and dense ones (lists alone are mostly short).
POPULATIONS = st.tuples(
    st.one_of(
        st.lists(PERSON, max_size=8, unique_by=lambda c: c.qid),
        st.lists(PERSON, min_size=15, max_size=40, unique_by=lambda c: c.qid),
        st.lists(DENSE_PERSON, min_size=6, max_size=30, unique_by=lambda c: c.qid),
    ),
    st.sampled_from(GENDER_SETS),
)


def _check_common(people: list[Candidate], decisions: list[Decision]) -> None:
    assert [d.qid for d in decisions] == sorted((c.qid for c in people), key=qid_key)
    by = {c.qid: c for c in people}
    for d in decisions:
        c = by[d.qid]
        assert d.reason in REASONS
        assert d.gender == c.gender
        assert d.kept == (d.reason in ("kept", "kept_cut"))
        if d.kept:
            assert d.kept_indices == tuple(range(len(d.kept_indices)))
            assert 1 <= len(d.kept_indices) <= len(c.scores)
            assert (d.reason == "kept") == (len(d.kept_indices) == len(c.scores))
        else:
            assert d.kept_indices == ()
    summary = summarise(decisions)
    assert summary["reasons"] == dict(Counter(d.reason for d in decisions))
    kept = [d for d in decisions if d.kept]
    assert sum(summary["kept_people"].values()) == len(kept)
    assert sum(summary["kept_sentences"].values()) == sum(len(d.kept_indices) for d in kept)
    grouped = summary["groups"].values()
    assert sum(sum(g["people"].values()) for g in grouped) == len([d for d in kept if d.group])
    assert sum(sum(g["sentences"].values()) for g in grouped) == sum(
        len(d.kept_indices) for d in kept if d.group
    )


@settings(max_examples=200, deadline=None)
@given(POPULATIONS, st.sampled_from(["gebio", "occgen", "none"]), st.randoms())
def test_properties(population, method: str, rnd: random.Random) -> None:
    people, genders = population
    decisions = balance(people, method=method, genders=genders)
    _check_common(people, decisions)

    shuffled = list(people)
    rnd.shuffle(shuffled)
    assert balance(shuffled, method=method, genders=genders) == decisions
    assert balance(people, method=method, genders=genders) == decisions

    expected = _reference(people, method, genders)
    assert {d.qid: (d.reason, len(d.kept_indices), d.group, d.category) for d in decisions} == (
        expected
    )

    summary = summarise(decisions)
    kept = [d for d in decisions if d.kept]
    if method == "none":
        assert len(kept) == sum(1 for c in people if c.scores)
        return
    assert all(d.gender in genders for d in kept)
    if method == "gebio":
        totals = [summary["kept_sentences"].get(g, 0) for g in genders]
        assert len(set(totals)) == 1
        return
    # occgen: every kept group has all genders, equal people and equal sentences
    for counts in summary["groups"].values():
        assert sorted(counts["people"]) == sorted(genders)
        assert len(set(counts["people"].values())) == 1
        assert sorted(counts["sentences"]) == sorted(genders)
        assert len(set(counts["sentences"].values())) == 1
    assert all(d.group and d.category == len(d.group.split("|")) for d in kept)
    # no kept person has an occupation balanced (kept) in a lower category
    by = {c.qid: c for c in people}
    for d in kept:
        for lower in kept:
            if lower.category < d.category:
                assert not set(by[d.qid].occupations) & set(by[lower.qid].occupations)
    # and every such skip has its cause
    for d in decisions:
        if d.reason == "occupation_balanced_in_lower_category":
            assert any(
                lower.category < d.category
                and set(by[d.qid].occupations) & set(by[lower.qid].occupations)
                for lower in kept
            )
