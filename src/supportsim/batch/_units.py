"""Units: one (scenario, agent, trial), the grain of scheduling, storing and resuming."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from supportsim.store import unit_key


@dataclass(frozen=True, slots=True)
class Unit:
    scenario_id: str
    agent: str
    trial: int

    @property
    def unit_id(self) -> str:
        """Stable across runs and resumes: the key of conversations.jsonl."""
        return unit_key(self.scenario_id, self.agent, self.trial)


def plan_units(scenario_ids: Sequence[str], agents: Sequence[str], trials: int) -> list[Unit]:
    """Every unit, trial-major, so an interrupted run has every scenario at trial 1 first."""
    return [Unit(s, a, t) for t in range(1, trials + 1) for s in scenario_ids for a in agents]
