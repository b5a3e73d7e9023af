"""Run many units concurrently on one event loop, appending each record as it finishes.

One Semaphore bounds the conversations in flight; model rate limits live in the
ModelPool. A record is appended (flushed, fsynced) the moment its unit ends, so a kill
loses only conversations that were still running. ``stop()`` (first Ctrl-C, budget,
deadline) stops starting new units and lets running ones finish.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from supportsim.batch._unit import UnitContext, run_unit
from supportsim.batch._units import Unit
from supportsim.store import ConversationRecord, RecordWriter


@dataclass(slots=True)
class BatchState:
    """Live counters for progress, budget and the final status."""

    total: int
    done: int = 0
    started: int = 0
    spend_usd: float = 0.0
    stopped_because: str | None = None
    records: list[ConversationRecord] = field(default_factory=list)


class Batch:
    def __init__(
        self,
        units: Sequence[Unit],
        ctx: UnitContext,
        writer: RecordWriter,
        *,
        concurrency: int,
        budget_usd: float | None = None,
        on_record: Callable[[ConversationRecord, BatchState], None] | None = None,
    ) -> None:
        self.units = list(units)
        self.ctx = ctx
        self.writer = writer
        self.gate = asyncio.Semaphore(concurrency)
        self.budget_usd = budget_usd
        self.on_record = on_record
        self.state = BatchState(total=len(self.units))

    def stop(self, reason: str) -> None:
        """Start no new unit; running ones finish and are recorded."""
        if self.state.stopped_because is None:
            self.state.stopped_because = reason

    def _over_budget(self) -> bool:
        if self.budget_usd is None:
            return False
        done = self.state.done or 1
        expected_next = self.state.spend_usd / done  # mean cost of a unit so far
        return self.state.spend_usd + expected_next > self.budget_usd

    async def _one(self, unit: Unit) -> None:
        async with self.gate:
            if self.state.stopped_because is not None:
                return
            if self._over_budget():
                self.stop("budget")
                return
            self.state.started += 1
            record = await run_unit(unit, self.ctx)
        self.writer.append(record)
        self.state.done += 1
        self.state.spend_usd += record.cost_usd or 0.0
        self.state.records.append(record)
        if self.on_record is not None:
            self.on_record(record, self.state)

    async def run(self) -> BatchState:
        async with asyncio.TaskGroup() as tg:
            for unit in self.units:
                tg.create_task(self._one(unit))
        return self.state
