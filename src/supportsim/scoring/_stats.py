"""Statistics over conversations: pass^k, intervals, percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from math import comb


def pass_hat_k(*, n: int, c: int, k: int) -> float:
    """Probability that k trials drawn without replacement from n (c passing) all pass.

    tau-bench's pass^k estimator for one scenario: C(c, k) / C(n, k).
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    return comb(c, k) / comb(n, k)


def mean_pass_hat_k(counts: Sequence[tuple[int, int]], k: int) -> float | None:
    """Mean of pass^k over scenarios given (n, c) per scenario; None if any has n < k."""
    usable = [(n, c) for n, c in counts if n >= k]
    if not usable or len(usable) < len(counts):
        return None
    return sum(pass_hat_k(n=n, c=c, k=k) for n, c in usable) / len(usable)


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (well behaved at 0 and 1, small n)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 and n successes the bound is exactly 0 or 1; rounding must not move it inside p.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (q in 0..100), as numpy's default; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
