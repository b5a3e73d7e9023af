"""Compare two runs, paired by scenario and trial: deltas, intervals, tests, a verdict.

A pair is the same (scenario, trial) run by the compared agent in A and in B, both
completed (errors are not scored, so they cannot be paired). Differences are B − A in
percentage points. A difference is called only when the paired test gives p < 0.05 and
the bootstrap interval excludes zero; otherwise the verdict says how many more scenarios
would detect ``detect_points``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from supportsim.errors import InputError
from supportsim.report._compare_quantity import cost_metric, latency_p90_metric, quantity_verdict
from supportsim.report._load import RunData
from supportsim.report._pairs import Pair, pair_up
from supportsim.report._setup import client_saturation, setup_differences, unreliable_latency
from supportsim.report._stats import (
    cluster_bootstrap,
    mcnemar_exact,
    pairs_needed,
    pairs_needed_mean,
    sign_flip_p,
)
from supportsim.store import ConversationRecord

ALPHA = 0.05
RESAMPLES = 2000
DETECT_POINTS = 5.0


def _clusters(pairs: Sequence[Pair], diff: str) -> list[tuple[float, int]]:
    by: dict[str, list[float]] = defaultdict(list)
    for p in pairs:
        value = (
            float(p.b_strict) - float(p.a_strict) if diff == "strict" else p.b_partial - p.a_partial
        )
        by[p.scenario_id].append(value)
    return [(sum(v), len(v)) for _, v in sorted(by.items())]


def _points(value: float | None) -> float | None:
    return None if value is None else value * 100


def _metric(pairs: Sequence[Pair], metric: str, seed: str) -> dict[str, Any]:
    n = len(pairs)
    clusters = _clusters(pairs, metric)
    interval = cluster_bootstrap(clusters, seed=f"{seed}:{metric}:ci", resamples=RESAMPLES)
    if metric == "strict":
        a_values = [float(p.a_strict) for p in pairs]
        b_values = [float(p.b_strict) for p in pairs]
        a_only = sum(p.a_strict and not p.b_strict for p in pairs)
        b_only = sum(p.b_strict and not p.a_strict for p in pairs)
        extra: dict[str, Any] = {
            "a_only": a_only,
            "b_only": b_only,
            "p": mcnemar_exact(a_only, b_only),
            "test": "exact McNemar",
        }
    else:
        a_values = [p.a_partial for p in pairs]
        b_values = [p.b_partial for p in pairs]
        p_value = sign_flip_p(
            [s for s, _ in clusters], seed=f"{seed}:{metric}:test", resamples=RESAMPLES
        )
        extra = {"p": p_value, "test": "paired sign-flip by scenario"}
    a_mean = sum(a_values) / n if n else None
    b_mean = sum(b_values) / n if n else None
    delta = b_mean - a_mean if a_mean is not None and b_mean is not None else None
    ci = [interval[0] * 100, interval[1] * 100] if interval else None
    detected = bool(n and extra["p"] < ALPHA and ci is not None and (ci[0] > 0 or ci[1] < 0))
    return {
        "a": a_mean,
        "b": b_mean,
        "delta_points": _points(delta),
        "ci95_points": ci,
        **extra,
        "detected": detected,
    }


def _flips(pairs: Sequence[Pair]) -> dict[str, list[str]]:
    """Scenarios whose strict passes (over paired trials) went up or down from A to B."""
    a_pass: dict[str, int] = defaultdict(int)
    b_pass: dict[str, int] = defaultdict(int)
    for p in pairs:
        a_pass[p.scenario_id] += p.a_strict
        b_pass[p.scenario_id] += p.b_strict
    return {
        "to_pass": sorted(s for s in a_pass if b_pass[s] > a_pass[s]),
        "to_fail": sorted(s for s in a_pass if b_pass[s] < a_pass[s]),
    }


def _verdict(metric: str, m: dict[str, Any], pairs: Sequence[Pair]) -> tuple[str, int | None]:
    """A plain sentence, and (when nothing was detected) how many more scenarios would."""
    if not pairs:
        return "no paired conversations to compare", None
    if m["detected"]:
        lo, hi = m["ci95_points"]
        word = "better" if m["delta_points"] > 0 else "worse"
        return (
            f"B is {word} on {metric} by {abs(m['delta_points']):.1f} points, "
            f"95% CI [{lo:.1f}, {hi:.1f}] ({m['test']} p = {m['p']:.2g})",
            None,
        )
    scenarios = len({p.scenario_id for p in pairs})
    delta = DETECT_POINTS / 100
    if metric == "strict":
        needed_pairs = pairs_needed((m["a_only"] + m["b_only"]) / len(pairs), delta)
    else:
        found = pairs_needed_mean([p.b_partial - p.a_partial for p in pairs], delta)
        if found is None:
            return f"no detectable difference on {metric} ({m['delta_points']:+.1f} points)", None
        needed_pairs = found
    needed = -(-needed_pairs * scenarios // len(pairs))  # ceil, in integers: pairs per scenario
    more = max(needed - scenarios, 0)
    if more == 0:
        return (
            f"no detectable difference on {metric} ({m['delta_points']:+.1f} points); "
            f"this sample could detect {DETECT_POINTS:.0f} points, so any difference is "
            "likely smaller",
            0,
        )
    return (
        f"no detectable difference on {metric} at this sample size; about {more} more "
        f"scenarios would detect {DETECT_POINTS:.0f} points",
        more,
    )


def compare_pair(
    a: Sequence[ConversationRecord],
    b: Sequence[ConversationRecord],
    agent_a: str,
    agent_b: str,
    *,
    latency_unreliable: str | None = None,
) -> dict[str, Any]:
    """Everything ``compare`` reports for one agent (or configuration) pair.

    ``latency_unreliable``: why the runs' latencies cannot be trusted (a saturated
    client, ``_setup.unreliable_latency``): the latency verdict says so and is kept in
    ``latency_p90.unreliable``, so no gate reads it."""
    pairs, unpaired = pair_up(a, b, agent_a, agent_b)
    label = agent_a if agent_a == agent_b else f"{agent_a} → {agent_b}"
    seed = f"{agent_a}|{agent_b}"
    strict, partial = _metric(pairs, "strict", seed), _metric(pairs, "partial", seed)
    verdict, more = _verdict("strict", strict, pairs)
    partial_verdict, _ = _verdict("partial", partial, pairs)
    categories: dict[str, list[Pair]] = defaultdict(list)
    for p in pairs:
        categories[p.category].append(p)
    latency = latency_p90_metric(pairs, seed, alpha=ALPHA, resamples=RESAMPLES)
    latency["unreliable"] = latency_unreliable
    latency_verdict = quantity_verdict("latency_p90", latency)
    if latency_unreliable is not None:
        latency_verdict = f"unreliable: {latency_verdict} ({latency_unreliable})"
    cost = cost_metric(pairs, seed, alpha=ALPHA, resamples=RESAMPLES)
    return {
        "agent_a": agent_a,
        "agent_b": agent_b,
        "label": label,
        "pairs": len(pairs),
        "scenarios": len({p.scenario_id for p in pairs}),
        "unpaired": unpaired,
        "strict": strict,
        "partial": partial,
        "latency_p90": latency,
        "cost": cost,
        "flipped": _flips(pairs),
        "verdict": verdict,
        "partial_verdict": partial_verdict,
        "latency_verdict": latency_verdict,
        "cost_verdict": quantity_verdict("cost", cost),
        "more_scenarios": more,
        "by_category": {
            cat: {
                "pairs": len(ps),
                # one category holds every pair: its numbers are the agent's (no resampling)
                "strict": strict if len(ps) == len(pairs) else _metric(ps, "strict", seed + cat),
                "partial": partial if len(ps) == len(pairs) else _metric(ps, "partial", seed + cat),
                "flipped": {k: len(v) for k, v in _flips(ps).items()},
            }
            for cat, ps in sorted(categories.items())
        },
    }


def agent_pairs(
    a: RunData, b: RunData, explicit: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """Agents to compare: explicit pairs, else the agents in both runs, else the only two."""
    in_a, in_b = a.agents, b.agents
    if explicit:
        for x, y in explicit:
            if x not in in_a:
                raise InputError(f"{a.run_dir}: no agent {x!r} in run A (it has {in_a})")
            if y not in in_b:
                raise InputError(f"{b.run_dir}: no agent {y!r} in run B (it has {in_b})")
        return list(explicit)
    common = [x for x in in_a if x in in_b]
    if common:
        return [(x, x) for x in common]
    if len(in_a) == 1 and len(in_b) == 1:
        return [(in_a[0], in_b[0])]
    raise InputError(
        f"no agent in both runs (A: {in_a}, B: {in_b}); name pairs with --pair A_AGENT=B_AGENT"
    )


def compare_runs(
    a: RunData,
    b: RunData,
    explicit: Sequence[tuple[str, str]] = (),
    *,
    customer: str | None = None,
) -> dict[str, Any]:
    """The comparison document the terminal, JSON and HTML views render: the runs (with
    whether each client was saturated), every setup difference (``_setup``), the settings
    and one row per compared agent pair. ``customer``: the Customer the runs are compared
    under (``compare --customer``; ``_setup.under_customer`` restricted them), kept as the
    document's ``customer`` (null when none was named) and said in every view's header."""
    chosen = agent_pairs(a, b, explicit)
    used_a, used_b = {x for x, _ in chosen}, {y for _, y in chosen}
    agents_a, agents_b = a.agents, b.agents
    differences = setup_differences(a, b, chosen)
    unreliable = unreliable_latency(a, b)
    return {
        "a": _run_entry(a),
        "b": _run_entry(b),
        "customer": customer,
        "setup": {
            "comparable": not any(d.blocking for d in differences),
            "differences": [d.as_dict() for d in differences],
        },
        "settings": {
            "alpha": ALPHA,
            "resamples": RESAMPLES,
            "detect_points": DETECT_POINTS,
            "paired_by": "scenario and trial",
        },
        "agents": [
            compare_pair(a.records, b.records, x, y, latency_unreliable=unreliable)
            for x, y in chosen
        ],
        "unmatched": {
            "a": [x for x in agents_a if x not in used_a],
            "b": [y for y in agents_b if y not in used_b],
        },
        # not compared AND absent from the other run: only these are "in one run only"
        # (with --pair, an agent of both runs may be left out of every pair)
        "one_run_only": {
            "a": [x for x in agents_a if x not in used_a and x not in agents_b],
            "b": [y for y in agents_b if y not in used_b and y not in agents_a],
        },
    }


def _run_entry(run: RunData) -> dict[str, Any]:
    return {
        "run_id": run.run_id,
        "run_dir": str(run.run_dir),
        "units": len(run.records),
        "saturated_lag_p99_ms": client_saturation(run),
    }
