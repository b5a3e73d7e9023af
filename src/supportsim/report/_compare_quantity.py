"""Paired comparison of quantities where lower is better: the p90 response time per Agent
reply and the Agent's cost per conversation.

Same rules as strict and partial (``_compare``): pairs are (scenario, trial) completed on
both sides, a difference is called only when the paired test gives p < alpha and the
scenario bootstrap interval excludes zero. Cost is a mean of per-pair differences (the
sign-flip test partial uses) over the pairs priced on both sides; the p90 is not a mean,
so it is tested by swapping A and B within whole scenarios (a permutation test).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from supportsim.report._pairs import Pair
from supportsim.report._stats import (
    cluster_bootstrap,
    cluster_bootstrap_statistic,
    cluster_permutation_p,
    sign_flip_p,
)
from supportsim.scoring import percentile

LOWER_IS_BETTER = ("latency_p90", "cost")


def _p90_difference(b: Sequence[float], a: Sequence[float]) -> float | None:
    pb, pa = percentile(b, 90), percentile(a, 90)
    return None if pb is None or pa is None else pb - pa


def _detected(n: int, p: float, ci: Sequence[float] | None, alpha: float) -> bool:
    return bool(n and p < alpha and ci is not None and (ci[0] > 0 or ci[1] < 0))


def latency_p90_metric(
    pairs: Sequence[Pair], seed: str, *, alpha: float, resamples: int
) -> dict[str, Any]:
    """p90 of every Agent reply's ``response_ms`` in A and in B over the paired
    conversations, B − A in ms, a scenario-bootstrap interval and a permutation p."""
    by: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for p in pairs:
        by[p.scenario_id][0].extend(p.a_response_ms)
        by[p.scenario_id][1].extend(p.b_response_ms)
    clusters = [by[s] for s in sorted(by)]
    a_all = [v for a, _ in clusters for v in a]
    b_all = [v for _, b in clusters for v in b]
    delta = _p90_difference(b_all, a_all)
    if delta is None:
        p_value, ci = 1.0, None
    else:
        # each resample sorts every reply: half the resamples keep compare quick on big
        # runs (the Monte Carlo p's standard error near 0.05 stays under 0.01)
        draws = max(resamples // 2, 200)
        p_value = cluster_permutation_p(
            clusters, _p90_difference, seed=f"{seed}:latency:test", resamples=draws
        )
        found = cluster_bootstrap_statistic(
            clusters, _p90_difference, seed=f"{seed}:latency:ci", resamples=draws
        )
        ci = list(found) if found else None
    return {
        "a": percentile(a_all, 90),
        "b": percentile(b_all, 90),
        "delta": delta,
        "ci95": ci,
        "p": p_value,
        "test": "paired permutation by scenario",
        "replies": [len(a_all), len(b_all)],
        "unit": "ms",
        "detected": _detected(len(pairs), p_value, ci, alpha) and delta is not None,
    }


def cost_metric(
    pairs: Sequence[Pair], seed: str, *, alpha: float, resamples: int
) -> dict[str, Any]:
    """Mean Agent cost per conversation in A and B over the pairs priced on both sides,
    B − A in USD, a scenario-bootstrap interval and the paired sign-flip p."""
    priced = [p for p in pairs if p.a_cost_usd is not None and p.b_cost_usd is not None]
    by: dict[str, list[float]] = defaultdict(list)
    for p in priced:
        assert p.a_cost_usd is not None and p.b_cost_usd is not None
        by[p.scenario_id].append(p.b_cost_usd - p.a_cost_usd)
    clusters = [(sum(v), len(v)) for _, v in sorted(by.items())]
    n = len(priced)
    a_mean = sum(p.a_cost_usd or 0.0 for p in priced) / n if n else None
    b_mean = sum(p.b_cost_usd or 0.0 for p in priced) / n if n else None
    delta = b_mean - a_mean if a_mean is not None and b_mean is not None else None
    p_value = sign_flip_p([s for s, _ in clusters], seed=f"{seed}:cost:test", resamples=resamples)
    found = cluster_bootstrap(clusters, seed=f"{seed}:cost:ci", resamples=resamples)
    ci = list(found) if found else None
    return {
        "a": a_mean,
        "b": b_mean,
        "delta": delta,
        "ci95": ci,
        "p": p_value,
        "test": "paired sign-flip by scenario",
        "priced_pairs": n,
        "unit": "usd",
        "detected": _detected(n, p_value, ci, alpha),
    }


def _amount(value: float, unit: str) -> str:
    return f"{value:.0f} ms" if unit == "ms" else f"${value:.4f}"


def quantity_verdict(metric: str, m: dict[str, Any]) -> str:
    """A plain sentence; "worse" means B is slower or costs more."""
    if m["delta"] is None:
        why = "no priced pairs" if metric == "cost" else "no timed Agent replies in both runs"
        return f"{metric}: cannot compare ({why})"
    unit = m["unit"]
    if m["detected"]:
        lo, hi = m["ci95"]
        word = "worse" if m["delta"] > 0 else "better"
        return (
            f"B is {word} on {metric} by {_amount(abs(m['delta']), unit)} "
            f"({_amount(m['a'], unit)} -> {_amount(m['b'], unit)}), 95% CI "
            f"[{_amount(lo, unit)}, {_amount(hi, unit)}] ({m['test']} p = {m['p']:.2g})"
        )
    sign = "+" if m["delta"] >= 0 else "-"
    return (
        f"no detectable difference on {metric} ({sign}{_amount(abs(m['delta']), unit)}, "
        f"p = {m['p']:.2g})"
    )
