"""The one job runner: conversations and judgments go through the same code path.

A producer walks the jobs in order and starts each one when the global ``AdaptiveGate``
(``concurrency``) has room, so no task exists for a job that has not started. Before
starting a job it checks the stop conditions: ``stop()`` (first Ctrl-C), the deadline, and
the budget (the spend so far plus a mean job for each running one and the next). Running
jobs always finish and are recorded; only cancellation (second Ctrl-C) abandons them, and
they run again on resume (the plan is made from what the ledger holds).

Each job's ``work`` returns a :class:`Finished`: the record and its encoded line. ``work``
must not raise for anything a job does (a conversation's faults become its
``harness_error`` record, a judge's failure its ``infra_error`` judgment), so only the store
itself can stop a run. When the store cannot write (disk full, read-only), the runner stops
starting jobs and lets running ones finish; records that could not be written are kept and
written when a later write succeeds, else they stay unrecorded and run again on resume.

A record is written the moment its job ends (it survives SIGKILL) and fsynced by a
background task a few times a second, since one fsync blocks the loop for milliseconds.
Two more background tasks measure event-loop lag and, for ``concurrency: auto``, move the
gate (``step_auto``): down when the loop lags, up while it keeps up.

The auto controller decides on every ``AUTO_SAMPLES`` fresh lag samples (half a second at
the monitor's 100 ms; with workers, samples come from every worker, so sooner), from those
samples alone: their worst over ``WARN_P99_MS`` cuts the gate to three quarters of what
is in flight; under half of it, with every slot busy, grows it by an eighth. After a cut
it holds until the running jobs have come down to the new limit: lowering the gate only
stops starts, so until then the loop still carries the old load and another cut would
overshoot. With nothing in flight it holds too (that lag is not the jobs'). The lag it
reads is ``work_lag``: the loop the jobs run on (with workers, the workers' loops, never
the idle driver's).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from supportsim.batch._concurrency import Concurrency
from supportsim.batch._lag import WARN_P99_MS, LoopLag
from supportsim.batch._signals import two_stage_interrupt
from supportsim.llm import AdaptiveGate
from supportsim.store import StoreError

AUTO_SAMPLES = 5
"""Fresh lag samples per decision of the auto controller."""

J = TypeVar("J")
R = TypeVar("R")
S = TypeVar("S", bound="JobState")


class RecordSink(Protocol):
    """Where a runner writes records: a ``JsonlWriter`` (raising ``StoreError``)."""

    def append_line(self, line: bytes) -> None: ...

    def sync(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Finished(Generic[R]):
    """A job's result, encoded before the store sees it (so encoding is the job's fault)."""

    record: R
    line: bytes
    cost_usd: float | None


@dataclass
class JobState:
    """Live counters for progress, budget and the final status (no records are kept)."""

    total: int
    done: int = 0
    started: int = 0
    running: int = 0
    record_spend_usd: float = 0.0
    """Cost of the finished jobs' records, this session."""
    priced_units: int = 0
    priced_cost_usd: float = 0.0
    """Jobs with a known cost (this session and before) and their cost: the mean job."""
    stopped_because: str | None = None
    store_error: StoreError | None = None
    """Why the store could not write, when it could not (the runner then stopped)."""
    unrecorded: int = 0
    """Jobs that finished but whose record could not be written (run again on resume)."""
    started_s: float = field(default_factory=time.monotonic)

    @property
    def mean_unit_cost(self) -> float | None:
        return self.priced_cost_usd / self.priced_units if self.priced_units else None


class JobRunner(Generic[J, R, S]):
    """Jobs under one concurrency gate, budget and deadline; see the module docstring.

    Args:
        jobs: What to run, in order.
        work: Runs one job; never raises for the job's own faults.
        writer: Where records go.
        state: The counters (a subclass of JobState may carry more).
        concurrency: Jobs at once, ``"auto"`` or ``"auto:N"`` (``Concurrency``).
        budget_usd: Stop starting jobs when the spend would pass it.
        spend: Live spend of the whole run (earlier sessions and calls in flight
            included); defaults to the finished records' cost.
        deadline_s: Stop starting jobs this long after ``run`` starts.
        on_record: Told about each record as it is written.
        lag: This loop's lag monitor (injectable for tests); also ``work_lag``, the lag
            the auto controller reads, unless the jobs run elsewhere (workers).
        sync_interval_s: How often appended records are fsynced.
    """

    def __init__(
        self,
        jobs: Sequence[J],
        work: Callable[[J], Awaitable[Finished[R] | None]],
        writer: RecordSink,
        state: S,
        *,
        concurrency: int | str | Concurrency,
        budget_usd: float | None = None,
        spend: Callable[[], float] | None = None,
        deadline_s: float | None = None,
        on_record: Callable[[R, S], None] | None = None,
        lag: LoopLag | None = None,
        sync_interval_s: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.jobs = list(jobs)
        self.work = work
        self.writer = writer
        self.state = state
        bounds = (
            concurrency if isinstance(concurrency, Concurrency) else Concurrency.of(concurrency)
        )
        self.auto = bounds.auto
        start = bounds.start
        self.gate = AdaptiveGate(start, floor=bounds.floor, ceiling=bounds.ceiling)
        self.budget_usd = budget_usd
        self.spend = spend or (lambda: self.state.record_spend_usd)
        self.deadline_s = deadline_s
        self.on_record = on_record
        self.lag = lag or LoopLag()
        self.work_lag = self.lag
        """The lag of the loop(s) the jobs run on: this one, or the workers' (``Hub``)."""
        self.sync_interval_s = sync_interval_s
        self.concurrency_trace: list[int] = [start]
        self._clock = clock
        self._sleep = sleep
        self.state.started_s = clock()
        self._unwritten: deque[Finished[R]] = deque()

    def stop(self, reason: str) -> None:
        """Start no new job; running ones finish and are recorded."""
        if self.state.stopped_because is None:
            self.state.stopped_because = reason

    def projected_spend(self) -> float:
        """Spend so far plus a mean job for each running job and the next one.

        Conservative: running jobs have already spent part of their cost.
        """
        mean = self.state.mean_unit_cost or 0.0
        return self.spend() + mean * (self.state.running + 1)

    def account(self, record: R) -> None:
        """Per-kind counters for one written record (a subclass adds its own)."""

    def _may_start(self) -> bool:
        if self.state.stopped_because is not None:
            return False
        if self.deadline_s is not None and self._clock() - self.state.started_s >= self.deadline_s:
            self.stop("deadline")
        elif self.budget_usd is not None and self.projected_spend() > self.budget_usd:
            self.stop("budget")
        return self.state.stopped_because is None

    async def _one(self, job: J) -> None:
        try:
            finished = await self.work(job)
            if finished is not None:  # None: not run (no worker left); it runs on resume
                self._unwritten.append(finished)
                self._write_unwritten()
        finally:
            self.state.running -= 1
            self.gate.release()

    def _write_unwritten(self) -> None:
        """Write every record not yet written, oldest first; on a store failure stop
        starting jobs and keep the rest for the next attempt."""
        while self._unwritten:
            finished = self._unwritten[0]
            try:
                self.writer.append_line(finished.line)
            except StoreError as exc:
                self._store_failed(exc)
                return
            self._unwritten.popleft()
            state = self.state
            state.done += 1
            if finished.cost_usd is not None:
                state.record_spend_usd += finished.cost_usd
                state.priced_units += 1
                state.priced_cost_usd += finished.cost_usd
            self.account(finished.record)
            if self.on_record is not None:
                self.on_record(finished.record, state)

    def _store_failed(self, exc: StoreError) -> None:
        if self.state.store_error is None:
            self.state.store_error = exc
        self.stop(exc.reason)

    def _sync(self) -> None:
        try:
            self.writer.sync()
        except StoreError as exc:
            self._store_failed(exc)

    async def run(self) -> S:
        """Run until every job ran or a stop condition holds; running jobs finish."""
        self.state.started_s = self._clock()
        async with asyncio.TaskGroup() as helpers:
            background = [
                helpers.create_task(self.lag.run()),
                helpers.create_task(self._sync_loop()),
            ]
            if self.auto:
                background.append(helpers.create_task(self._auto_loop()))
            try:
                async with asyncio.TaskGroup() as running:
                    for job in self.jobs:
                        await self.gate.acquire()
                        if not self._may_start():
                            self.gate.release()
                            break
                        self.state.started += 1
                        self.state.running += 1
                        running.create_task(self._one(job))
            finally:
                for task in background:
                    task.cancel()
                self._write_unwritten()  # a last chance for records the store refused
                self.state.unrecorded = len(self._unwritten)
                self._sync()
        return self.state

    async def run_interruptible(self, on_first: Callable[[], None] | None = None) -> S:
        """``run`` under the two-stage Ctrl-C / SIGTERM: the first stops starting jobs
        (running ones finish), the second cancels them (their jobs run again on resume)."""
        task = asyncio.ensure_future(self.run())

        def first() -> None:
            self.stop("interrupted")
            if on_first is not None:
                on_first()

        with two_stage_interrupt(first, task.cancel):
            return await task

    async def _sync_loop(self) -> None:
        while True:
            await self._sleep(self.sync_interval_s)
            self._sync()

    async def _auto_loop(self) -> None:
        """``concurrency: auto``: one ``step_auto`` per ``AUTO_SAMPLES`` fresh samples."""
        seen = len(self.work_lag.samples)
        while True:
            await self.work_lag.wait_for(seen + AUTO_SAMPLES)
            fresh = list(self.work_lag.samples[seen:])
            seen += len(fresh)
            self.step_auto(max(fresh))  # the p99 of a handful of samples is their worst

    def step_auto(self, lag_ms: float | None) -> None:
        """One decision of the auto controller, given the fresh samples' worst lag."""
        if lag_ms is None:
            return
        gate, limit = self.gate, self.gate.limit
        if lag_ms > WARN_P99_MS:
            # Hold while nothing runs (the lag is not the jobs') and until the last cut
            # has taken effect (lowering the gate only stops starts).
            if 0 < gate.in_flight <= limit:
                gate.set_limit(int(gate.in_flight * 0.75))
        elif lag_ms < WARN_P99_MS / 2 and self.state.running >= limit:
            gate.set_limit(limit + max(1, limit // 8))
        if gate.limit != limit:
            self.concurrency_trace.append(gate.limit)
