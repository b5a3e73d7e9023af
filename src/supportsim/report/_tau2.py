"""tau2-bench's own metrics over the units of a run that held tau2 tasks.

Computed as tau2's ``metrics/agent_metrics.py`` computes them, so the figures can stand next
to a leaderboard entry: a simulation is a success when its reward is 1 (our strict result
for a tau2-scored unit is tau2's reward); only infrastructure errors are left out (tau2
drops ``INFRASTRUCTURE_ERROR`` runs), every other ending counts, as a failure unless the
reward is 1; pass^k for k = 1 .. max_k, where max_k is the fewest trials any task kept (and
at most the trials asked for), is C(c, k) / C(n, k) per task with that task's own n and c,
averaged over tasks with equal weight. Harness errors (a bug of ours, with no tau2
counterpart) are left out too, and counted.

Our own pass^k (``_aggregate``) is the same estimator; it differs only where tau2 gives no
figure: for k above max_k it averages over the scenarios that kept k trials.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from supportsim.report._facts import UnitFacts
from supportsim.scoring import pass_hat_k
from supportsim.store import ConversationRecord, Tau2Figures

Unit = ConversationRecord | UnitFacts

EXCLUDED = frozenset({"infra_error", "harness_error", "simulator_fault"})
"""Left out of tau2's figures: in tau2 any exception in a simulation (the user simulator's
included) is an infrastructure error, excluded from avg_reward and pass^k."""


def is_tau2(record: Unit) -> bool:
    """Whether ``record`` is a unit of a tau2 task (its domain is one of tau2's)."""
    return record.domain.startswith("tau2_")


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


def tau2_metrics(records: Sequence[Unit], trials: int) -> Tau2Figures | None:
    """tau2's headline figures over one agent's tau2 units; None when it ran none.

    ``avg_reward`` is the mean reward over the kept simulations (a reward is 0 or 1 in
    retail, so it is the share of successes), ``pass_hat_k`` tau2's pass^k, ``tasks`` and
    ``simulations`` what tau2 calls ``total_tasks`` and ``total_simulations``.
    """
    units = [r for r in records if is_tau2(r)]
    if not units:
        return None
    kept = [r for r in units if r.status not in EXCLUDED]
    by_task: dict[str, list[bool]] = defaultdict(list)
    for r in kept:
        by_task[r.scenario_id].append(r.status == "completed" and bool(r.strict))
    successes = sum(sum(v) for v in by_task.values())
    return Tau2Figures(
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


def _terminations(records: Sequence[Unit]) -> dict[str, int]:
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


__all__ = ["is_tau2", "tau2_metrics", "tau2_pass_hat_ks"]
