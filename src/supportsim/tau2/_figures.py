"""tau2-bench's own metrics over the units of a run that held tau2 tasks.

Computed as tau2's ``metrics/agent_metrics.py`` computes them, so the figures can stand next
to a leaderboard entry: a simulation is a success when its reward is 1 (our strict result
for a tau2-scored unit is tau2's reward); only infrastructure errors are left out (tau2
drops ``INFRASTRUCTURE_ERROR`` runs), every other ending counts, as a failure unless the
reward is 1; pass^k for k = 1 .. max_k, where max_k is the fewest trials any task kept (and
at most the trials asked for), is C(c, k) / C(n, k) per task with that task's own n and c,
averaged over tasks with equal weight. Harness errors (a bug of ours, with no tau2
counterpart) are left out too, and counted.

Our own pass^k (``report/_aggregate.py``) is the same estimator; it differs only where tau2
gives no figure: for k above max_k it averages over the scenarios that kept k trials.

``report/_tau2.py`` picks an agent's tau2 units (by domain) and imports this module only
when there is one; it turns ``Tau2Metrics`` into the summary's ``store.Tau2Figures`` (this
package sits below ``store`` and ``report``, so it reads a unit through ``TaskUnit``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from supportsim.scoring import pass_hat_k


class TaskUnit(Protocol):
    """What the figures read of a unit (a stored record, or report's facts of one)."""

    @property
    def scenario_id(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def strict(self) -> bool | None: ...
    @property
    def termination(self) -> str: ...
    @property
    def unscored(self) -> object:
        """Truthy when the unit is not fully scored."""
        ...


@dataclass(frozen=True, slots=True)
class Tau2Metrics:
    """tau2's headline figures (the fields of ``store.Tau2Figures``)."""

    tasks: int
    simulations: int
    avg_reward: float | None
    pass_hat_k: dict[str, float]
    not_fully_scored: int
    infra_errors: int
    harness_errors: int
    simulator_faults: int
    termination: dict[str, int]


EXCLUDED = frozenset({"infra_error", "harness_error", "simulator_fault"})
"""Left out of tau2's figures: in tau2 any exception in a simulation (the user simulator's
included) is an infrastructure error, excluded from avg_reward and pass^k."""


def tau2_pass_hat_ks(outcomes: Mapping[str, Sequence[bool]], trials: int) -> dict[str, float]:
    """tau2's pass^k per k (as text keys, like ours), from each task's trial outcomes.

    Args:
        outcomes: task id -> success of each kept trial (at least one each).
        trials: trials per task the run asked for (tau2's ``info_num_trials``).

    Returns:
        ``{"1": pass^1, ..., str(max_k): pass^max_k}``; empty when there is no task.
    """
    if not outcomes:
        return {}
    max_k = min(trials, *(len(v) for v in outcomes.values()))
    return {
        str(k): sum(pass_hat_k(n=len(v), c=sum(v), k=k) for v in outcomes.values()) / len(outcomes)
        for k in range(1, max_k + 1)
    }


def tau2_figures(units: Sequence[TaskUnit], trials: int) -> Tau2Metrics:
    """tau2's headline figures over one agent's tau2 units (at least one).

    ``avg_reward`` is the mean reward over the kept simulations (a reward is 0 or 1 in
    retail, so it is the share of successes), ``pass_hat_k`` tau2's pass^k, ``tasks`` and
    ``simulations`` what tau2 calls ``total_tasks`` and ``total_simulations``.
    """
    kept = [r for r in units if r.status not in EXCLUDED]
    by_task: dict[str, list[bool]] = defaultdict(list)
    for r in kept:
        by_task[r.scenario_id].append(r.status == "completed" and bool(r.strict))
    successes = sum(sum(v) for v in by_task.values())
    return Tau2Metrics(
        tasks=len(by_task),
        simulations=len(kept),
        avg_reward=successes / len(kept) if kept else None,
        pass_hat_k=dict(tau2_pass_hat_ks(by_task, trials)),
        not_fully_scored=sum(bool(r.unscored) for r in kept),
        infra_errors=sum(r.status == "infra_error" for r in units),
        harness_errors=sum(r.status == "harness_error" for r in units),
        simulator_faults=sum(r.status == "simulator_fault" for r in units),
        termination=_terminations(kept),
    )


def _terminations(records: Sequence[TaskUnit]) -> dict[str, int]:
    """tau2's termination counts: user stop, max steps, errors (ours mapped back)."""
    counts = {"user_stop": 0, "max_steps": 0, "error": 0}
    for r in records:
        if r.termination == "customer_done":
            counts["user_stop"] += 1
        elif r.termination == "max_turns":
            counts["max_steps"] += 1
        else:
            counts["error"] += 1
    return counts


__all__ = ["TaskUnit", "Tau2Metrics", "tau2_figures", "tau2_pass_hat_ks"]
