"""The one job runner, on its own: budget, deadline, store failures and signals, with a
fake clock and an in-memory sink (conversations and judgments both run through it)."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
from pathlib import Path

import pytest

from supportsim.batch import Finished, JobRunner, JobState, LoopLag
from supportsim.store import StoreError


class Sink:
    """Records lines; fails the writes whose 1-based numbers are in ``fail_on``."""

    def __init__(self, fail_on: set[int] | None = None) -> None:
        self.lines: list[bytes] = []
        self.attempts = 0
        self.fail_on = fail_on or set()

    def append_line(self, line: bytes) -> None:
        self.attempts += 1
        if self.attempts in self.fail_on:
            raise StoreError(Path("jobs.jsonl"), OSError(errno.ENOSPC, "No space left on device"))
        self.lines.append(line)

    def sync(self) -> None:
        return None

    def close(self) -> None:
        return None


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


def runner(jobs, work, sink, **options) -> JobRunner:
    options.setdefault("concurrency", 1)
    options.setdefault("lag", LoopLag(interval_s=3600))
    options.setdefault("sleep", no_wait)
    return JobRunner(jobs, work, sink, JobState(total=len(jobs)), **options)


def costing(cost: float | None):
    async def work(job: int) -> Finished[int]:
        await asyncio.sleep(0)
        return Finished(job, f"{job}\n".encode(), cost)

    return work


async def test_every_job_runs_once_in_order_and_is_written() -> None:
    sink = Sink()
    state = await runner(list(range(5)), costing(0.1), sink).run()
    assert sink.lines == [f"{i}\n".encode() for i in range(5)]
    assert (state.done, state.started, state.stopped_because) == (5, 5, None)
    assert state.record_spend_usd == pytest.approx(0.5)


async def test_the_budget_stops_before_the_job_that_would_pass_it() -> None:
    sink = Sink()
    state = await runner(list(range(10)), costing(1.0), sink, budget_usd=2.5).run()
    assert state.stopped_because == "budget" and state.done == 2 and len(sink.lines) == 2


async def test_unpriced_jobs_do_not_count_against_the_budget() -> None:
    state = await runner(list(range(4)), costing(None), Sink(), budget_usd=0.5).run()
    assert state.stopped_because is None and state.done == 4


async def test_the_deadline_stops_starting_jobs_on_a_fake_clock() -> None:
    clock = Clock()

    async def slow(job: int) -> Finished[int]:
        clock.now += 10.0  # each job takes ten seconds of (fake) time
        return Finished(job, b"x\n", 0.0)

    state = await runner(list(range(10)), slow, Sink(), deadline_s=25.0, clock=clock).run()
    assert state.stopped_because == "deadline" and state.done == 3


async def test_a_store_failure_stops_the_run_and_keeps_the_unwritten_record() -> None:
    sink = Sink(fail_on={2})
    state = await runner(list(range(5)), costing(0.0), sink).run()
    assert state.stopped_because == "store: No space left on device"
    assert state.store_error is not None
    # The record refused once is written by the last attempt; nothing after it started.
    assert sink.lines == [b"0\n", b"1\n"] and state.unrecorded == 0


async def test_first_signal_lets_running_jobs_finish_second_cancels() -> None:
    release = asyncio.Event()
    started: list[int] = []

    async def waits(job: int) -> Finished[int]:
        started.append(job)
        if job == 0:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while two jobs run
        await release.wait()
        return Finished(job, f"{job}\n".encode(), 0.0)

    sink = Sink()
    jobs = runner(list(range(6)), waits, sink, concurrency=2)
    run = asyncio.ensure_future(jobs.run_interruptible())
    while len(started) < 2 or jobs.state.stopped_because is None:  # noqa: ASYNC110 - runner state
        await asyncio.sleep(0)
    release.set()
    state = await run
    assert state.stopped_because == "interrupted"
    assert sorted(sink.lines) == [b"0\n", b"1\n"]  # the running ones finished, no new one

    release.clear()
    started.clear()
    sink = Sink()
    jobs = runner(list(range(6)), waits, sink, concurrency=2)
    run = asyncio.ensure_future(jobs.run_interruptible())
    while len(started) < 2:  # noqa: ASYNC110 - polls the jobs' own list
        await asyncio.sleep(0)
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.sleep(0)
    with pytest.raises(asyncio.CancelledError):
        await run
    assert sink.lines == []  # cancelled jobs are not recorded: they run again on resume
