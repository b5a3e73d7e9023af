"""Run many units concurrently on one event loop, appending each record as it finishes.

A producer walks the units in order and starts each one when the global ``AdaptiveGate``
(``concurrency``) has room, so no task exists for a unit that has not started. Before
starting a unit it checks the stop conditions: ``stop()`` (first Ctrl-C), the deadline, and
the budget. Running units always finish and are recorded; only cancellation (second
Ctrl-C) abandons them, and they are run again on resume.

Each unit passes one boundary, ``finish_unit``: whatever goes wrong inside it (the
conversation, its record, encoding the record) becomes that unit's ``harness_error``
record, so only the store itself can stop a batch. When the store cannot write (disk
full, read-only), the batch stops starting units and lets running ones finish; records
that could not be written are kept and written when a later write succeeds, else they
stay unrecorded and their units run again on resume.

A record is written to conversations.jsonl the moment its unit ends (it survives SIGKILL)
and fsynced by a background task a few times a second, since one fsync blocks the loop for
milliseconds. Two more background tasks measure event-loop lag and, for
``concurrency: auto``, move the gate: down when the loop lags, up while it keeps up.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from supportsim.batch._lag import WARN_P99_MS, LoopLag
from supportsim.batch._limits import AdaptiveGate
from supportsim.batch._unit import FinishedUnit, UnitContext, finish_unit
from supportsim.batch._units import Unit
from supportsim.store import ConversationRecord, StoreError

AUTO_START, AUTO_FLOOR, AUTO_CEILING = 16, 4, 1024


class RecordSink(Protocol):
    """Where a batch writes records: a ``RecordWriter`` (raising ``StoreError``)."""

    def append_line(self, line: bytes) -> None: ...

    def sync(self) -> None: ...

    def close(self) -> None: ...


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


@dataclass(slots=True)
class BatchState:
    """Live counters for progress, budget and the final status (no records are kept)."""

    total: int
    done: int = 0
    started: int = 0
    running: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    agents: dict[str, AgentTally] = field(default_factory=dict)
    record_spend_usd: float = 0.0
    """Cost of the finished units' records, this session."""
    priced_units: int = 0
    priced_cost_usd: float = 0.0
    """Units with a known cost (this session and before) and their cost: the mean unit."""
    stopped_because: str | None = None
    store_error: StoreError | None = None
    """Why the store could not write, when it could not (the batch then stopped)."""
    unrecorded: int = 0
    """Units that finished but whose record could not be written (run again on resume)."""
    started_s: float = field(default_factory=time.monotonic)

    def tally(self, agent: str) -> AgentTally:
        if agent not in self.agents:
            self.agents[agent] = AgentTally()
        return self.agents[agent]

    @property
    def mean_unit_cost(self) -> float | None:
        return self.priced_cost_usd / self.priced_units if self.priced_units else None


class Batch:
    """One session's units under one concurrency gate; see the module docstring.

    Args:
        units: What to run, in order.
        ctx: What ``run_unit`` needs.
        writer: Where records go.
        concurrency: Conversations at once, or ``"auto"``.
        budget_usd: Stop starting units when the spend would pass it.
        spend: Live spend of the whole run (earlier sessions and calls in flight
            included); defaults to the finished records' cost.
        deadline_s: Stop starting units this long after ``run`` starts.
        on_record: Told about each record as it is written.
        lag: The loop-lag monitor (injectable for tests).
        sync_interval_s: How often appended records are fsynced.
    """

    def __init__(
        self,
        units: Sequence[Unit],
        ctx: UnitContext,
        writer: RecordSink,
        *,
        concurrency: int | str,
        budget_usd: float | None = None,
        spend: Callable[[], float] | None = None,
        deadline_s: float | None = None,
        on_record: Callable[[ConversationRecord, BatchState], None] | None = None,
        lag: LoopLag | None = None,
        sync_interval_s: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.units = list(units)
        self.ctx = ctx
        self.writer = writer
        self.auto = concurrency == "auto"
        start = AUTO_START if self.auto else int(concurrency)
        self.gate = AdaptiveGate(
            start,
            floor=AUTO_FLOOR if self.auto else start,
            ceiling=AUTO_CEILING if self.auto else start,
        )
        self.budget_usd = budget_usd
        self.spend = spend or (lambda: self.state.record_spend_usd)
        self.deadline_s = deadline_s
        self.on_record = on_record
        self.lag = lag or LoopLag()
        self.sync_interval_s = sync_interval_s
        self.concurrency_trace: list[int] = [start]
        self._clock = clock
        self._sleep = sleep
        self.state = BatchState(total=len(self.units), started_s=clock())
        self._unwritten: deque[FinishedUnit] = deque()

    def stop(self, reason: str) -> None:
        """Start no new unit; running ones finish and are recorded."""
        if self.state.stopped_because is None:
            self.state.stopped_because = reason

    def projected_spend(self) -> float:
        """Spend so far plus a mean unit for each running unit and the next one.

        Conservative: running units have already spent part of their cost.
        """
        mean = self.state.mean_unit_cost or 0.0
        return self.spend() + mean * (self.state.running + 1)

    def _may_start(self) -> bool:
        if self.state.stopped_because is not None:
            return False
        if self.deadline_s is not None and self._clock() - self.state.started_s >= self.deadline_s:
            self.stop("deadline")
        elif self.budget_usd is not None and self.projected_spend() > self.budget_usd:
            self.stop("budget")
        return self.state.stopped_because is None

    async def _one(self, unit: Unit) -> None:
        try:
            finished = await finish_unit(unit, self.ctx)
            self._unwritten.append(finished)
            self._write_unwritten()
        finally:
            self.state.running -= 1
            self.gate.release()

    def _write_unwritten(self) -> None:
        """Write every record not yet written, oldest first; on a store failure stop
        starting units and keep the rest for the next attempt."""
        while self._unwritten:
            finished = self._unwritten[0]
            try:
                self.writer.append_line(finished.line)
            except StoreError as exc:
                self._store_failed(exc)
                return
            self._unwritten.popleft()
            self._account(finished.record)
            if self.on_record is not None:
                self.on_record(finished.record, self.state)

    def _store_failed(self, exc: StoreError) -> None:
        if self.state.store_error is None:
            self.state.store_error = exc
        self.stop(exc.reason)

    def _sync(self) -> None:
        try:
            self.writer.sync()
        except StoreError as exc:
            self._store_failed(exc)

    def _account(self, record: ConversationRecord) -> None:
        state = self.state
        state.done += 1
        state.statuses[record.status] += 1
        tally = state.tally(record.agent)
        tally.statuses[record.status] += 1
        if record.status == "completed":
            tally.completed += 1
            tally.strict += record.strict
            tally.partial_sum += record.partial
        if record.cost_usd is not None:
            state.record_spend_usd += record.cost_usd
            state.priced_units += 1
            state.priced_cost_usd += record.cost_usd

    async def run(self) -> BatchState:
        """Run until every unit ran or a stop condition holds; running units finish."""
        self.state.started_s = self._clock()
        async with asyncio.TaskGroup() as helpers:
            background = [
                helpers.create_task(self.lag.run()),
                helpers.create_task(self._sync_loop()),
            ]
            if self.auto:
                background.append(helpers.create_task(self._auto_loop()))
            try:
                async with asyncio.TaskGroup() as units:
                    for unit in self.units:
                        await self.gate.acquire()
                        if not self._may_start():
                            self.gate.release()
                            break
                        self.state.started += 1
                        self.state.running += 1
                        units.create_task(self._one(unit))
            finally:
                for task in background:
                    task.cancel()
                self._write_unwritten()  # a last chance for records the store refused
                self.state.unrecorded = len(self._unwritten)
                self._sync()
        return self.state

    async def _sync_loop(self) -> None:
        while True:
            await self._sleep(self.sync_interval_s)
            self._sync()

    async def _auto_loop(self, interval_s: float = 1.0) -> None:
        """``concurrency: auto``: multiplicative back-off on lag, growth while it is low."""
        seen = len(self.lag.samples)
        while True:
            await self._sleep(interval_s)
            if len(self.lag.samples) - seen < 5:
                continue  # not enough fresh samples since the last change
            self.step_auto(self.lag.recent_p99())
            seen = len(self.lag.samples)

    def step_auto(self, recent_p99_ms: float | None) -> None:
        """One decision of the auto controller, given the recent lag p99."""
        if recent_p99_ms is None:
            return
        gate, limit = self.gate, self.gate.limit
        if recent_p99_ms > WARN_P99_MS:
            gate.set_limit(int(limit * 0.75))
        elif recent_p99_ms < WARN_P99_MS / 2 and self.state.running >= limit:
            gate.set_limit(limit + max(1, limit // 8))
        if gate.limit != limit:
            self.concurrency_trace.append(gate.limit)
