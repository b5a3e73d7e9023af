"""pass^k, Wilson intervals and percentiles against hand-computed values and properties."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import comb

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from supportsim.scoring import mean_pass_hat_k, pass_hat_k, percentile, wilson_interval

# --- pass^k ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (4, 2, 2, Fraction(1, 6)),  # C(2,2)/C(4,2) = 1/6
        (5, 3, 2, Fraction(3, 10)),  # C(3,2)/C(5,2) = 3/10
        (5, 3, 3, Fraction(1, 10)),  # C(3,3)/C(5,3) = 1/10
        (8, 6, 4, Fraction(15, 70)),  # C(6,4)/C(8,4)
        (4, 2, 1, Fraction(1, 2)),
        (4, 4, 4, Fraction(1)),
        (4, 3, 4, Fraction(0)),
        (4, 1, 2, Fraction(0)),
        (3, 0, 1, Fraction(0)),
        (1, 1, 1, Fraction(1)),
    ],
)
def test_pass_hat_k_hand_values(n: int, c: int, k: int, expected: Fraction) -> None:
    assert pass_hat_k(n=n, c=c, k=k) == pytest.approx(float(expected), abs=1e-15)


@pytest.mark.parametrize(
    ("n", "c", "k"),
    [(4, 5, 1), (4, -1, 1), (4, 2, 0), (4, 2, 5), (0, 0, 1)],
)
def test_pass_hat_k_rejects_impossible_counts(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError, match=f"n={n}, c={c}, k={k}"):
        pass_hat_k(n=n, c=c, k=k)


def test_mean_pass_hat_k_averages_scenarios() -> None:
    assert mean_pass_hat_k([(4, 2), (2, 2)], 2) == pytest.approx((1 / 6 + 1) / 2)
    assert mean_pass_hat_k([(4, 2), (4, 4), (4, 0)], 1) == pytest.approx(0.5)


def test_mean_pass_hat_k_is_none_when_a_scenario_has_too_few_trials() -> None:
    assert mean_pass_hat_k([(4, 2), (1, 1)], 2) is None
    assert mean_pass_hat_k([], 1) is None


counts = st.integers(min_value=1, max_value=40).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=n))
)


@given(counts, st.data())
def test_pass_hat_k_is_a_probability(nc: tuple[int, int], data: st.DataObject) -> None:
    n, c = nc
    k = data.draw(st.integers(min_value=1, max_value=n))
    value = pass_hat_k(n=n, c=c, k=k)
    assert 0.0 <= value <= 1.0
    assert value == pytest.approx(comb(c, k) / comb(n, k))


@given(counts)
def test_pass_hat_1_is_the_pass_rate(nc: tuple[int, int]) -> None:
    n, c = nc
    assert pass_hat_k(n=n, c=c, k=1) == pytest.approx(c / n, rel=1e-12)


@given(counts)
def test_pass_hat_k_never_grows_with_k(nc: tuple[int, int]) -> None:
    n, c = nc
    values = [pass_hat_k(n=n, c=c, k=k) for k in range(1, n + 1)]
    assert all(later <= earlier + 1e-12 for earlier, later in pairwise(values))
    assert values[-1] == (1.0 if c == n else 0.0)


# --- Wilson interval ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_hand_values(successes: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(successes, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_without_trials_is_the_whole_range() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_narrows_with_more_trials() -> None:
    small, large = wilson_interval(8, 10), wilson_interval(80, 100)
    assert large[0] > small[0] and large[1] < small[1]


@given(counts)
def test_wilson_interval_holds_the_observed_rate(nc: tuple[int, int]) -> None:
    n, c = nc
    lo, hi = wilson_interval(c, n)
    assert 0.0 <= lo <= c / n <= hi <= 1.0
    assert hi - lo > 0


@given(counts)
def test_wilson_interval_is_symmetric_in_passes_and_failures(nc: tuple[int, int]) -> None:
    n, c = nc
    lo, hi = wilson_interval(c, n)
    lo2, hi2 = wilson_interval(n - c, n)
    assert lo == pytest.approx(1 - hi2, abs=1e-12)
    assert hi == pytest.approx(1 - lo2, abs=1e-12)


# --- percentile -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([1, 2, 3, 4], 50, 2.5),
        ([1, 2, 3, 4], 0, 1.0),
        ([1, 2, 3, 4], 100, 4.0),
        ([1, 2, 3, 4], 90, 3.7),  # rank 2.7: 3 + 0.7 * (4 - 3)
        ([4, 1, 3, 2], 25, 1.75),  # unsorted input; rank 0.75
        ([15, 20, 35, 40, 50], 40, 29.0),  # rank 1.6: 20 + 0.6 * 15
        ([10], 95, 10.0),
        ([5, 5, 5], 99, 5.0),
        (list(range(1, 11)), 95, 9.55),  # rank 8.55
    ],
)
def test_percentile_hand_values(values: list[float], q: float, expected: float) -> None:
    assert percentile(values, q) == pytest.approx(expected, abs=1e-12)


def test_percentile_of_nothing_is_none() -> None:
    assert percentile([], 50) is None


finite = st.floats(min_value=-1e6, max_value=1e6)


@given(st.lists(finite, min_size=1, max_size=30), st.floats(min_value=0, max_value=100))
def test_percentile_lies_between_the_extremes(values: list[float], q: float) -> None:
    result = percentile(values, q)
    assert result is not None
    assert min(values) - 1e-9 <= result <= max(values) + 1e-9


@given(
    st.lists(finite, min_size=1, max_size=30),
    st.floats(min_value=0, max_value=100),
    st.floats(min_value=0, max_value=100),
)
def test_percentile_is_monotone_in_q(values: list[float], q1: float, q2: float) -> None:
    assume(q1 <= q2)
    low, high = percentile(values, q1), percentile(values, q2)
    assert low is not None and high is not None
    assert low <= high + 1e-6
