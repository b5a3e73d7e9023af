"""Aggregates over a run's records: the numbers every view (terminal, JSON, HTML) shows.

Computed once here; views only render. Only ``completed`` units are scored: infra errors,
simulator faults and harness errors are counted, never scored as Agent failures. A unit's
last record wins (``latest_records``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from supportsim.scoring import mean_pass_hat_k, percentile, wilson_interval
from supportsim.store import ConversationRecord


def _percentiles(values: Sequence[float]) -> dict[str, float | None]:
    return {f"p{q}": percentile(values, q) for q in (50, 90, 99)}


def _turn_replies(record: ConversationRecord) -> list[Any]:
    return [m for m in record.messages if m.role == "agent" and m.response_ms is not None]


def agent_summary(records: Sequence[ConversationRecord], trials: int) -> dict[str, Any]:
    scored = [r for r in records if r.status == "completed"]
    n, passed = len(scored), sum(r.strict for r in scored)
    low, high = wilson_interval(passed, n)
    by_scenario: dict[str, list[bool]] = defaultdict(list)
    for r in scored:
        by_scenario[r.scenario_id].append(r.strict)
    counts = [(len(v), sum(v)) for v in by_scenario.values()]
    replies = [m for r in scored for m in _turn_replies(r)]
    costs = [r.cost_usd for r in scored]
    agent_calls = [c for r in scored for c in r.llm_calls if c.role == "agent"]
    tokens_in = [c.input_tokens for c in agent_calls if c.input_tokens is not None]
    tokens_out = [c.output_tokens for c in agent_calls if c.output_tokens is not None]
    priced = [c for c in costs if c is not None]
    return {
        "n": n,
        "units": len(records),
        "strict_passes": passed,
        "strict_rate": passed / n if n else None,
        "strict_ci95": [low, high] if n else None,
        "partial_mean": sum(r.partial for r in scored) / n if n else None,
        "pass_hat_k": {str(k): mean_pass_hat_k(counts, k) for k in range(1, trials + 1)},
        "response_ms": _percentiles([m.response_ms for m in replies]),
        "ttft_ms": _percentiles([m.ttft_ms for m in replies if m.ttft_ms is not None]),
        "llm_ms": _percentiles([m.llm_ms for m in replies if m.llm_ms is not None]),
        "tokens": {
            "input": sum(tokens_in),
            "output": sum(tokens_out),
            "input_mean": sum(tokens_in) / n if n and tokens_in else None,
            "output_mean": sum(tokens_out) / n if n and tokens_out else None,
        },
        "cost_usd": sum(priced) if priced and len(priced) == len(costs) else None,
        "cost_mean_usd": sum(priced) / n if n and priced and len(priced) == len(costs) else None,
        "status": dict(Counter(r.status for r in records)),
        "termination": dict(Counter(r.termination for r in records)),
    }


def summarise(
    records: Iterable[ConversationRecord], *, trials: int | None = None
) -> dict[str, Any]:
    """summary.json: per agent, plus per category and domain breakdowns."""
    latest = list({r.unit_id: r for r in records}.values())
    trials = trials or max((r.trial for r in latest), default=1)
    agents: dict[str, list[ConversationRecord]] = defaultdict(list)
    for r in latest:
        agents[r.agent].append(r)
    out: dict[str, Any] = {
        "units": len(latest),
        "trials": trials,
        "agents": {a: agent_summary(rs, trials) for a, rs in sorted(agents.items())},
    }
    for key in ("category", "domain"):
        groups: dict[str, dict[str, list[ConversationRecord]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for r in latest:
            if r.status == "completed":
                groups[r.agent][getattr(r, key)].append(r)
        out[f"by_{key}"] = {
            agent: {
                g: {
                    "n": len(rs),
                    "strict_rate": sum(x.strict for x in rs) / len(rs),
                    "partial_mean": sum(x.partial for x in rs) / len(rs),
                }
                for g, rs in sorted(by.items())
            }
            for agent, by in sorted(groups.items())
        }
    return out
