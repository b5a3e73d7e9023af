"""The trend over many runs (a nightly series): per agent and run, strict, partial,
pass^k, latency percentiles and cost, and the changes between consecutive runs that the
comparison's own paired test calls significant.

Runs are ordered by when they started (run.json's ``started_at``, else their first
record's). An agent's change is taken against the previous run that has the same agent
label, paired by scenario and trial exactly as ``supportsim compare`` pairs them
(``compare_pair``), so a change marked here is the one ``compare`` would report. Only
strict and partial have a paired test; latency and cost are shown, never marked.

The comparison's rules about what it can trust hold here too (``_setup``): a change
between two runs whose setups differ in what changes a number (the Customer, the scenario
set, a judge, a model that is not the Agent's, the supportsim version) is never marked,
and says which differences; the latency of a run whose client was saturated is flagged
unreliable (``latency_unreliable``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from supportsim.report._aggregate import agent_summary
from supportsim.report._compare import ALPHA, RESAMPLES, compare_pair
from supportsim.report._load import RunData
from supportsim.report._setup import client_saturation, setup_differences

TESTED = ("strict", "partial")
"""The metrics the comparison tests, and so the only ones a trend marks."""


def started_at(run: RunData) -> datetime | None:
    """When a run started: run.json's ``started_at``, else its earliest record's start."""
    candidates = [(run.manifest or {}).get("started_at")]
    candidates += sorted(r.started_at for r in run.records)[:1]
    for value in candidates:
        if isinstance(value, str) and value:
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                continue
            return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return None


def order_runs(runs: Sequence[RunData]) -> list[RunData]:
    """Runs oldest first; runs whose start is unknown go last, by run id."""
    far = datetime.max.replace(tzinfo=UTC)
    return sorted(runs, key=lambda r: (started_at(r) or far, r.run_id, str(r.run_dir)))


def _point(run: RunData, agent: str, k: int) -> dict[str, Any]:
    """One agent in one run: the numbers the trend plots."""
    records = [r for r in run.records if r.agent == agent]
    s = agent_summary(records, run.trials)  # k <= run.trials: pass^k is in it
    return {
        "run_id": run.run_id,
        "n": s.n,
        "units": s.units,
        "strict": s.strict_rate,
        "strict_ci95": s.strict_ci95,
        "partial": s.partial_mean,
        "pass_hat_k": s.pass_hat_k.get(str(k)),
        "response_ms_p50": s.response_ms.p50,
        "response_ms_p90": s.response_ms.p90,
        "cost_mean_usd": s.cost_mean_usd,
        "cost_usd": s.cost_usd,
        "status": s.status,
        "latency_unreliable": client_saturation(run) is not None,
        "change": None,
    }


def _change(previous: RunData, current: RunData, agent: str) -> dict[str, Any]:
    """The paired comparison of ``agent`` between two runs, reduced to what a trend marks."""
    row = compare_pair(previous.records, current.records, agent, agent)
    blocking = [d for d in setup_differences(previous, current, [(agent, agent)]) if d.blocking]
    change: dict[str, Any] = {
        "from_run": previous.run_id,
        "pairs": row["pairs"],
        "scenarios": row["scenarios"],
        "verdict": row["verdict"],
        "partial_verdict": row["partial_verdict"],
        "setup_differences": [d.describe() for d in blocking],
        "marked": [],
    }
    for metric in TESTED:
        m = row[metric]
        change[metric] = {
            "delta_points": m["delta_points"],
            "ci95_points": m["ci95_points"],
            "p": m["p"],
            "test": m["test"],
            "detected": m["detected"],
        }
        if m["detected"] and not blocking:  # across setups, the change is not the Agent's
            change["marked"].append(metric)
    return change


def _direction(delta_points: float) -> str:
    return "improvement" if delta_points > 0 else "regression"


def trend(runs: Sequence[RunData]) -> dict[str, Any]:
    """The trend document the terminal, JSON and HTML views render.

    ``agents[name]`` holds one point per run in run order (None where the run lacks that
    agent); a point's ``change`` is the paired comparison with the agent's previous run.
    ``changes`` lists every marked change, oldest first. pass^k uses the smallest trial
    count of the runs, so every run's value means the same thing.
    """
    ordered = order_runs(runs)
    k = min((r.trials for r in ordered), default=1)
    present = {id(run): set(run.agents) for run in ordered}
    names = sorted(set().union(*present.values()))
    agents: dict[str, list[dict[str, Any] | None]] = {}
    changes: list[dict[str, Any]] = []
    for name in names:
        series: list[dict[str, Any] | None] = []
        previous: RunData | None = None
        for run in ordered:
            if name not in present[id(run)]:
                series.append(None)
                continue
            point = _point(run, name, k)
            if previous is not None:
                point["change"] = change = _change(previous, run, name)
                for metric in change["marked"]:
                    m = change[metric]
                    changes.append(
                        {
                            "agent": name,
                            "from_run": previous.run_id,
                            "to_run": run.run_id,
                            "metric": metric,
                            "direction": _direction(m["delta_points"]),
                            **m,
                        }
                    )
            series.append(point)
            previous = run
        agents[name] = series
    return {
        "runs": [
            {
                "run_id": run.run_id,
                "run_dir": str(run.run_dir),
                "started_at": (moment.isoformat() if (moment := started_at(run)) else None),
                "status": (run.manifest or {}).get("status"),
                "units": len(run.records),
                "trials": run.trials,
                "saturated_lag_p99_ms": client_saturation(run),
            }
            for run in ordered
        ],
        "settings": {
            "k": k,
            "alpha": ALPHA,
            "resamples": RESAMPLES,
            "tested": list(TESTED),
            "paired_by": "scenario and trial",
        },
        "agents": agents,
        "changes": changes,
        "caveats": caveats(ordered, agents),
    }


def caveats(
    ordered: Sequence[RunData], agents: dict[str, list[dict[str, Any] | None]]
) -> list[str]:
    """What the views' ``~`` (a saturated client's latency) and ``≠`` (a change across
    different setups, not marked) mean, for the runs they concern."""
    lines = [
        f"~ {run.run_id}: its client was saturated (event-loop lag p99 {p99:.0f} ms > 10 ms), "
        "so its latencies are inflated"
        for run in ordered
        if (p99 := client_saturation(run)) is not None
    ]
    seen: set[tuple[str, str]] = set()
    for series in agents.values():
        for run, point in zip(ordered, series, strict=True):
            change = (point or {}).get("change") or {}
            key = (change.get("from_run", ""), run.run_id)
            if change.get("setup_differences") and key not in seen:
                seen.add(key)
                lines.append(
                    f"≠ {key[0]} → {key[1]}: setups differ, changes not marked: "
                    + "; ".join(change["setup_differences"])
                )
    return lines
