"""Paired statistics for comparing two runs: exact McNemar, cluster bootstrap, sign-flip
test and the sample size a paired-proportion test needs.

Deterministic: every resampling takes its own seeded ``random.Random``, so a report
reads the same each time it is generated.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

from supportsim.scoring import percentile

Z_95 = 1.959964
"""Two-sided 5% critical value of the normal distribution."""
Z_POWER_80 = 0.841621
"""One-sided 20% critical value: 80% power."""
EXACT_SIGN_FLIP_MAX = 12
"""Up to this many non-zero clusters the sign-flip test enumerates every pattern."""


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test on the discordant pairs.

    Args:
        a_only: pairs where A passed and B failed.
        b_only: pairs where B passed and A failed.
    """
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail, term = 0, 1  # sum of C(n, i) for i <= min(a_only, b_only), in exact integers
    for i in range(min(a_only, b_only) + 1):
        tail += term
        term = term * (n - i) // (i + 1)
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def cluster_bootstrap(
    clusters: Sequence[tuple[float, int]], *, seed: str, resamples: int
) -> tuple[float, float] | None:
    """95% percentile interval of a mean paired difference, resampling whole scenarios.

    Trials of one scenario are correlated, so scenarios (clusters) are drawn with
    replacement, each bringing all its pairs. ``clusters`` holds (sum of differences,
    number of pairs) per scenario. None with fewer than two scenarios.
    """
    clusters = [c for c in clusters if c[1] > 0]
    if len(clusters) < 2:  # one scenario says nothing about scenario-to-scenario spread
        return None
    sums = [c[0] for c in clusters]
    sizes = [c[1] for c in clusters]
    if len(set(s / n for s, n in clusters)) == 1:
        value = sums[0] / sizes[0]
        return (value, value)
    rng = random.Random(seed)
    m = len(clusters)
    stats = []
    if len(set(sizes)) == 1:  # the usual case (same trials everywhere): draw sums only
        total = m * sizes[0]
        for _ in range(resamples):
            stats.append(sum(rng.choices(sums, k=m)) / total)
    else:
        index = range(m)
        for _ in range(resamples):
            draw = rng.choices(index, k=m)
            stats.append(sum(sums[i] for i in draw) / sum(sizes[i] for i in draw))
    low, high = percentile(stats, 2.5), percentile(stats, 97.5)
    assert low is not None and high is not None
    return (low, high)


def sign_flip_p(cluster_sums: Sequence[float], *, seed: str, resamples: int) -> float:
    """Two-sided paired randomisation test of a mean difference, flipping whole scenarios.

    Exact (every sign pattern) up to ``EXACT_SIGN_FLIP_MAX`` non-zero clusters; beyond,
    a seeded Monte Carlo estimate with the usual +1 correction.
    """
    values = [v for v in cluster_sums if abs(v) > 1e-12]
    observed = abs(sum(values))
    if not values or observed < 1e-12:
        return 1.0
    tolerance = 1e-9 * max(1.0, observed)
    if len(values) <= EXACT_SIGN_FLIP_MAX:
        hits = sum(
            abs(sum(s * v for s, v in zip(signs, values, strict=True))) >= observed - tolerance
            for signs in itertools.product((1, -1), repeat=len(values))
        )
        return hits / 2 ** len(values)
    rng = random.Random(seed)
    hits = 0
    for _ in range(resamples):
        total = sum(v if rng.random() < 0.5 else -v for v in values)
        hits += abs(total) >= observed - tolerance
    return (hits + 1) / (resamples + 1)


def pairs_needed(discordant_share: float, delta: float) -> int:
    """Pairs a McNemar test needs to detect a difference ``delta`` (5% level, 80% power).

    Connor's (1987) formula, with the discordant share taken as at least ``delta``:
    a difference of ``delta`` needs at least that many discordant pairs.
    """
    psi = max(discordant_share, delta)
    root = Z_95 * math.sqrt(psi) + Z_POWER_80 * math.sqrt(psi - delta * delta)
    return math.ceil(root * root / (delta * delta))


def pairs_needed_mean(differences: Sequence[float], delta: float) -> int | None:
    """Pairs a paired test of means needs to detect ``delta`` (5% level, 80% power).

    Normal approximation with the observed standard deviation of the paired differences;
    None when they do not vary (no spread to estimate from).
    """
    n = len(differences)
    if n < 2:
        return None
    mean = sum(differences) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    if sd == 0:
        return None
    return math.ceil(((Z_95 + Z_POWER_80) * sd / delta) ** 2)


Statistic = Callable[[Sequence[float], Sequence[float]], float | None]
"""A difference between two samples (B's values, A's values), e.g. a p90 difference."""
Clusters = Sequence[tuple[Sequence[float], Sequence[float]]]
"""Per scenario: (A's values, B's values), e.g. the response times of its paired trials."""


def _presorted(clusters: Clusters) -> list[tuple[list[float], list[float]]]:
    """Each side of each scenario sorted once: a pooled sample is then a concatenation of
    sorted runs, which the quantile's sort merges several times faster than random order."""
    return [(sorted(a), sorted(b)) for a, b in clusters]


def _pooled(clusters: Clusters, swapped: Sequence[bool]) -> tuple[list[float], list[float]]:
    a: list[float] = []
    b: list[float] = []
    for (xa, xb), swap in zip(clusters, swapped, strict=True):
        a.extend(xb if swap else xa)
        b.extend(xa if swap else xb)
    return a, b


def cluster_permutation_p(
    clusters: Clusters, statistic: Statistic, *, seed: str, resamples: int
) -> float:
    """Two-sided paired permutation test of any difference (a p90, say), swapping A and B
    within whole scenarios: under "no difference" the two sides of a scenario are
    exchangeable. Exact up to ``EXACT_SIGN_FLIP_MAX`` scenarios, else seeded Monte Carlo
    with the +1 correction."""
    clusters = _presorted([c for c in clusters if c[0] or c[1]])
    a0, b0 = _pooled(clusters, [False] * len(clusters))
    observed = statistic(b0, a0)
    if observed is None or abs(observed) < 1e-12:
        return 1.0
    tolerance = 1e-9 * max(1.0, abs(observed))

    def extreme(swapped: Sequence[bool]) -> bool:
        a, b = _pooled(clusters, swapped)
        value = statistic(b, a)
        return value is not None and abs(value) >= abs(observed) - tolerance

    if len(clusters) <= EXACT_SIGN_FLIP_MAX:
        patterns = list(itertools.product((False, True), repeat=len(clusters)))
        return sum(extreme(s) for s in patterns) / len(patterns)
    rng = random.Random(seed)
    hits = sum(extreme([rng.random() < 0.5 for _ in clusters]) for _ in range(resamples))
    return (hits + 1) / (resamples + 1)


def cluster_bootstrap_statistic(
    clusters: Clusters, statistic: Statistic, *, seed: str, resamples: int
) -> tuple[float, float] | None:
    """95% percentile interval of ``statistic`` (B vs A), resampling whole scenarios with
    replacement; None with fewer than two scenarios."""
    clusters = _presorted([c for c in clusters if c[0] and c[1]])
    if len(clusters) < 2:
        return None
    rng = random.Random(seed)
    stats = []
    for _ in range(resamples):
        a, b = _pooled(rng.choices(clusters, k=len(clusters)), [False] * len(clusters))
        value = statistic(b, a)
        if value is not None:
            stats.append(value)
    low, high = percentile(stats, 2.5), percentile(stats, 97.5)
    return None if low is None or high is None else (low, high)
