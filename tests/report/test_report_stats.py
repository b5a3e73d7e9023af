"""Paired statistics: exact McNemar, cluster bootstrap, sign-flip test, sample sizes."""

from __future__ import annotations

import pytest

from supportsim.report import (
    cluster_bootstrap,
    mcnemar_exact,
    pairs_needed,
    pairs_needed_mean,
    sign_flip_p,
)


@pytest.mark.parametrize(
    ("a_only", "b_only", "p"),
    [
        (0, 0, 1.0),
        (0, 2, 0.5),  # 2 * C(2,0) / 2^2
        (1, 6, 0.125),  # 2 * (C(7,0) + C(7,1)) / 2^7 = 16 / 128
        (6, 1, 0.125),
        (3, 3, 1.0),  # 2 * 42 / 64 > 1: capped
        (0, 10, 0.001953125),  # 2 / 1024
    ],
)
def test_mcnemar_exact(a_only: int, b_only: int, p: float) -> None:
    assert mcnemar_exact(a_only, b_only) == p


def test_mcnemar_exact_many_discordant_pairs_does_not_overflow() -> None:
    assert 0.0 <= mcnemar_exact(0, 3000) < 1e-300
    assert mcnemar_exact(1500, 1500) == 1.0


def test_cluster_bootstrap_by_hand() -> None:
    # three scenarios of two pairs: differences summing to 0, 1, 1. A resample's mean is
    # (number of draws of the last two) / 6, which is 0 with probability 1/27 and 3/6 with
    # probability 8/27: the 2.5% and 97.5% points are 0 and 0.5.
    clusters = [(0.0, 2), (1.0, 2), (1.0, 2)]
    assert cluster_bootstrap(clusters, seed="x", resamples=2000) == (0.0, 0.5)


def test_cluster_bootstrap_degenerate_and_deterministic() -> None:
    assert cluster_bootstrap([(1.0, 2)], seed="x", resamples=100) is None
    assert cluster_bootstrap([], seed="x", resamples=100) is None
    assert cluster_bootstrap([(1.0, 2), (0.5, 1)], seed="x", resamples=100) == (0.5, 0.5)
    clusters = [(float(i % 3 - 1), 1) for i in range(30)]
    first = cluster_bootstrap(clusters, seed="s", resamples=500)
    assert first == cluster_bootstrap(clusters, seed="s", resamples=500)
    assert first is not None and first[0] < 0 < first[1]


def test_sign_flip_p() -> None:
    assert sign_flip_p([0.5, 0.5], seed="x", resamples=100) == 0.5  # 2 of 4 patterns
    assert sign_flip_p([1.0] * 6, seed="x", resamples=100) == 2 / 64
    assert sign_flip_p([1.0, -1.0], seed="x", resamples=100) == 1.0
    assert sign_flip_p([0.0, 0.0], seed="x", resamples=100) == 1.0
    # beyond 12 clusters: seeded Monte Carlo with the +1 correction
    p = sign_flip_p([1.0] * 20, seed="x", resamples=999)
    assert p == sign_flip_p([1.0] * 20, seed="x", resamples=999)
    assert 1 / 1000 <= p < 0.01


def test_pairs_needed_by_hand() -> None:
    # Connor: ((1.959964 sqrt(psi) + 0.841621 sqrt(psi - d^2)) / d)^2
    # psi = 1/3, d = .05: (1.131586 + 0.484084)^2 / .0025 = 1044.16 -> 1045
    assert pairs_needed(1 / 3, 0.05) == 1045
    # no discordant pairs seen: psi is taken as d: (0.438261 + 0.183427)^2 / .0025 -> 155
    assert pairs_needed(0.0, 0.05) == 155


def test_pairs_needed_mean_by_hand() -> None:
    # differences 0 0 .5 0 .25 .25: sd = sqrt((0.375 - 6/36) / 5) = 0.204124
    # ((1.959964 + 0.841621) * 0.204124 / .05)^2 = 130.81 -> 131
    assert pairs_needed_mean([0, 0, 0.5, 0, 0.25, 0.25], 0.05) == 131
    assert pairs_needed_mean([0.1, 0.1], 0.05) is None
    assert pairs_needed_mean([0.1], 0.05) is None
