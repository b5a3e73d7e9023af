"""The conversation batch: units through the one job runner (``_jobs.py``).

Each unit passes one boundary, ``finish_unit``: whatever goes wrong inside it (the
conversation, its record, encoding the record) becomes that unit's ``harness_error``
record, so only the store itself can stop a batch. Concurrency, budget, deadline, store
failures, fsync, loop lag and ``concurrency: auto`` are the runner's, shared with judging.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from supportsim.batch._jobs import Finished, JobRunner, JobState, RecordSink
from supportsim.batch._unit import UnitContext, finish_unit
from supportsim.batch._units import Unit
from supportsim.store import ConversationRecord


@dataclass(slots=True)
class AgentTally:
    """Scores so far of one agent (completed units only are scored)."""

    completed: int = 0
    strict: int = 0
    partial_sum: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)

    @property
    def strict_rate(self) -> float | None:
        return self.strict / self.completed if self.completed else None

    @property
    def partial_mean(self) -> float | None:
        return self.partial_sum / self.completed if self.completed else None


@dataclass
class BatchState(JobState):
    """The runner's counters, plus statuses and scores per agent (for progress)."""

    statuses: Counter[str] = field(default_factory=Counter)
    agents: dict[str, AgentTally] = field(default_factory=dict)

    def tally(self, agent: str) -> AgentTally:
        if agent not in self.agents:
            self.agents[agent] = AgentTally()
        return self.agents[agent]


class Batch(JobRunner[Unit, ConversationRecord, BatchState]):
    """One session's units (see ``JobRunner`` for every argument but ``ctx``: what
    ``finish_unit`` needs)."""

    def __init__(
        self,
        units: Sequence[Unit],
        ctx: UnitContext,
        writer: RecordSink,
        **options: Any,
    ) -> None:
        self.units = list(units)
        self.ctx = ctx
        self.hub: Any = None
        """The workers' hub when units run in worker processes (``_hub.py``)."""
        super().__init__(units, self._work, writer, BatchState(total=len(units)), **options)
        if ctx is not None:  # units run on this loop: their messages get its lag
            ctx.lag = self.lag

    async def _work(self, unit: Unit) -> Finished[ConversationRecord]:
        finished = await finish_unit(unit, self.ctx)
        return Finished(finished.record, finished.line, finished.record.cost_usd)

    def account(self, record: ConversationRecord) -> None:
        state = self.state
        state.statuses[record.status] += 1
        tally = state.tally(record.agent)
        tally.statuses[record.status] += 1
        if record.status == "completed":
            tally.completed += 1
            tally.strict += bool(record.strict)
            tally.partial_sum += record.partial or 0.0
