"""Units: one (scenario, agent, trial), the grain of scheduling, storing and resuming."""

from __future__ import annotations

from dataclasses import dataclass

from supportsim.store import RunPlan, unit_key


@dataclass(frozen=True, slots=True)
class Unit:
    scenario_id: str
    agent: str
    trial: int

    @property
    def unit_id(self) -> str:
        """Stable across runs and resumes: the key of conversations.jsonl."""
        return unit_key(self.scenario_id, self.agent, self.trial)


def plan_units(plan: RunPlan) -> list[Unit]:
    """Every unit of the plan, in its order (trial-major)."""
    return [Unit(s, a, t) for s, a, t in plan.units()]
