"""The statistics, against values computed by hand, plus their invariants (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from supportsim.judges import (
    cohen_kappa,
    confusion,
    consistency,
    fleiss_kappa,
    fleiss_kappa_table,
    kendall_tau_b,
    majority,
    percent_agreement,
)

T, F = True, False


def test_cohen_kappa_by_hand() -> None:
    # po = 4/5; pe = .6*.4 + .4*.6 = .48; kappa = (.8 - .48) / .52
    a = [T, T, F, F, T]
    b = [T, F, F, F, T]
    assert percent_agreement(a, b) == pytest.approx(0.8)
    assert cohen_kappa(a, b) == pytest.approx(0.32 / 0.52)


def test_perfect_agreement_is_kappa_one() -> None:
    a = [T, F, T, F, F]
    assert cohen_kappa(a, a) == 1.0
    assert percent_agreement(a, a) == 1.0


def test_chance_agreement_is_kappa_zero() -> None:
    # Each passes half; they agree on exactly half the items: po = pe = 0.5.
    a = [T, T, T, T, F, F, F, F]
    b = [T, T, F, F, T, T, F, F]
    assert percent_agreement(a, b) == 0.5
    assert cohen_kappa(a, b) == 0.0


def test_a_judge_that_always_passes_has_kappa_zero_against_a_varying_rater() -> None:
    always = [T] * 6
    other = [T, T, F, T, F, F]
    assert percent_agreement(always, other) == 0.5
    assert cohen_kappa(always, other) == 0.0


def test_total_disagreement_is_kappa_minus_one() -> None:
    assert cohen_kappa([T, F, T, F], [F, T, F, T]) == -1.0


def test_expected_agreement_one_is_defined() -> None:
    # Both always pass: pe = 1, po = 1 -> 1.0 by definition (the formula is 0/0).
    assert cohen_kappa([T, T, T], [T, T, T]) == 1.0
    assert fleiss_kappa([[T, T], [T, T]]) == 1.0


def test_empty_ratings_have_no_statistic() -> None:
    assert cohen_kappa([], []) is None
    assert percent_agreement([], []) is None
    assert fleiss_kappa([]) is None
    assert kendall_tau_b([], []) is None


def test_unpaired_ratings_are_an_error() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        cohen_kappa([T], [T, F])


def test_fleiss_kappa_wikipedia_example() -> None:
    # Fleiss (1971) worked example as on Wikipedia: 10 subjects, 14 raters, 5 categories.
    table = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    # P-bar = 0.378, Pe-bar = 0.213 -> kappa = (0.378 - 0.2128) / (1 - 0.2128) = 0.2099
    assert fleiss_kappa_table(table) == pytest.approx(0.20993, abs=1e-4)


def test_fleiss_kappa_three_judges_by_hand() -> None:
    # 4 subjects x 3 raters. Pass counts 3, 2, 1, 0.
    # P_i = 1, 1/3, 1/3, 1 -> P-bar = 2/3; p(pass) = 6/12 -> Pe = 1/2 -> kappa = 1/3.
    rows = [[T, T, T], [T, T, F], [T, F, F], [F, F, F]]
    assert fleiss_kappa(rows) == pytest.approx(1 / 3)


def test_fleiss_kappa_needs_equal_raters_per_subject() -> None:
    with pytest.raises(ValueError, match="same number"):
        fleiss_kappa_table([[1, 1], [2, 1]])
    assert fleiss_kappa_table([[1, 0]]) is None  # one rater: no agreement to measure


def test_kendall_tau_b_by_hand() -> None:
    assert kendall_tau_b([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    # pairs: 4 concordant, 0 discordant, one tie in x only, one in y only:
    # tau_b = 4 / sqrt((6 - 1) * (6 - 1)) = 0.8
    assert kendall_tau_b([1, 2, 2, 3], [1, 3, 2, 3]) == pytest.approx(0.8)
    # C = 1, D = 1 -> 0
    assert kendall_tau_b([1.0, 0.5, 0.0], [0.25, 1.0, 0.25]) == 0.0


def test_kendall_tau_is_undefined_for_a_constant_ranking() -> None:
    assert kendall_tau_b([1.0, 1.0, 1.0], [0.2, 0.5, 0.9]) is None
    assert kendall_tau_b([0.3], [0.4]) is None


def test_majority_and_consistency() -> None:
    assert majority([T, T, F]) is True
    assert majority([T, F]) is False  # a tie fails
    assert majority([F]) is False
    assert majority([]) is None
    assert consistency([T, T, F]) == pytest.approx(2 / 3)
    assert consistency([F, F]) == 1.0
    assert consistency([]) is None


def test_confusion_counts() -> None:
    judge = [T, T, F, F, T]
    rules = [T, F, T, F, F]
    assert confusion(judge, rules) == {
        "both_pass": 1,
        "both_fail": 1,
        "judge_pass_reference_fail": 2,
        "judge_fail_reference_pass": 1,
    }


labels = st.lists(st.booleans(), min_size=1, max_size=40)
pairs = st.integers(min_value=1, max_value=40).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
    )
)
scores = st.integers(min_value=0, max_value=12).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n),
        st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n),
    )
)


@settings(max_examples=60, deadline=None)
@given(pairs)
def test_kappa_is_at_most_one_and_symmetric(pair: tuple[list[bool], list[bool]]) -> None:
    a, b = pair
    kappa = cohen_kappa(a, b)
    assert kappa is not None
    assert kappa <= 1.0 + 1e-12
    assert kappa >= -1.0 - 1e-12
    assert kappa == pytest.approx(cohen_kappa(b, a))
    agreement = percent_agreement(a, b)
    assert agreement is not None and 0.0 <= agreement <= 1.0
    assert agreement == percent_agreement(b, a)


@settings(max_examples=60, deadline=None)
@given(labels)
def test_a_rater_agrees_with_itself(a: list[bool]) -> None:
    assert cohen_kappa(a, a) == 1.0


@settings(max_examples=60, deadline=None)
@given(scores)
def test_tau_is_within_bounds_and_symmetric(pair: tuple[list[float], list[float]]) -> None:
    x, y = pair
    tau = kendall_tau_b(x, y)
    if tau is None:
        return
    assert -1.0 <= tau <= 1.0
    assert tau == pytest.approx(kendall_tau_b(y, x))
    negated = kendall_tau_b(x, [-v for v in y])
    assert negated is not None and negated == pytest.approx(-tau)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=1, max_size=30))
def test_fleiss_kappa_is_at_most_one(rows: list[list[bool]]) -> None:
    kappa = fleiss_kappa(rows)
    assert kappa is not None and kappa <= 1.0 + 1e-12
    assert not math.isnan(kappa)
