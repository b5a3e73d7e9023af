"""Units: one (scenario, agent, trial), and in a run of several Customers one (scenario,
agent, trial, Customer): the grain of scheduling, storing and resuming."""

from __future__ import annotations

from dataclasses import dataclass

from supportsim.store import RunPlan, unit_key


@dataclass(frozen=True, slots=True)
class Unit:
    scenario_id: str
    agent: str
    trial: int
    customer: str | None = None
    """The unit's Customer label in a run of several Customers; None: the run's one
    Customer (the unit id then does not name it, as in every run before several)."""

    @property
    def unit_id(self) -> str:
        """Stable across runs and resumes: the key of conversations.jsonl."""
        return unit_key(self.scenario_id, self.agent, self.trial, self.customer)


def plan_units(plan: RunPlan) -> list[Unit]:
    """Every unit of the plan, in its order (trial-major)."""
    return [Unit(s, a, t, c) for s, a, t, c in plan.units()]
