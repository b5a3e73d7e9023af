"""Loop lag (fake clocks): the warning needs enough samples for a p99 to mean something,
each timed window gets the lag seen in it, and a run on a loop forced to lag is flagged
saturated in its records and summary while ``--concurrency auto`` lowers its bound."""

from __future__ import annotations

import asyncio
from pathlib import Path
from time import perf_counter

import pytest
from batch_helpers import env_for, records, request

from supportsim.app import write_summary
from supportsim.batch import execute, prepare_run
from supportsim.batch._lag import MIN_SAMPLES, LoopLag
from supportsim.testing import MockLLMServer


class LateClock:
    """A clock whose sleeps return late by scripted amounts (ms), one per wake-up; when
    the script runs out the sleep never returns and ``done`` is set."""

    def __init__(self, late_ms: list[float]) -> None:
        self.now = 0.0
        self._late = iter(late_ms)
        self.done = asyncio.Event()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        late = next(self._late, None)
        if late is None:
            self.done.set()
            await asyncio.Event().wait()
        self.now += seconds + (late or 0.0) / 1000.0


async def sampled(late_ms: list[float]) -> LoopLag:
    """Run the monitor for exactly ``len(late_ms)`` wake-ups on the fake clock."""
    time = LateClock(late_ms)
    lag = LoopLag(0.1, clock=time.clock, sleep=time.sleep)
    task = asyncio.create_task(lag.run())
    await time.done.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return lag


async def test_a_short_run_with_a_slow_start_is_not_called_saturated() -> None:
    lag = await sampled([150.0] + [0.5] * 30)  # start-up hiccup, then 3 s of idle loop
    stats = lag.stats()
    assert stats["samples"] == 31 and stats["p99_ms"] == pytest.approx(150.0)
    assert stats["saturated"] is False
    assert lag.warning() is None


async def test_a_long_run_with_one_slow_start_is_not_saturated() -> None:
    lag = await sampled([150.0] + [0.5] * (MIN_SAMPLES * 2))
    assert lag.stats()["saturated"] is False and lag.warning() is None


async def test_a_long_saturated_run_warns() -> None:
    lag = await sampled([0.5] * (MIN_SAMPLES - 10) + [40.0] * 10)
    assert len(lag.samples) == MIN_SAMPLES
    assert lag.stats()["saturated"] is True
    assert "p99 40.0 ms > 10 ms" in (lag.warning() or "")


async def test_just_below_the_sample_floor_the_same_lag_does_not_warn() -> None:
    lag = await sampled([0.5] * (MIN_SAMPLES - 11) + [40.0] * 10)
    assert len(lag.samples) == MIN_SAMPLES - 1
    assert lag.stats()["saturated"] is False and lag.warning() is None


def test_a_windows_lag_is_the_worst_sample_whose_period_overlaps_it() -> None:
    lag = LoopLag(0.1, clock=lambda: 10.0)
    lag.add(5.0, at=0.105)  # period [0, 0.105]
    lag.add(200.0, at=0.405)  # period [0.105, 0.405]: woke 200 ms late
    lag.add(1.0, at=0.506)  # period [0.405, 0.506]
    assert lag.max_during(0.0, 0.05) == 5.0
    assert lag.max_during(0.2, 0.3) == 200.0  # inside the late period
    assert lag.max_during(0.45, 0.5) == 1.0
    assert lag.max_during(0.0, 0.5) == 200.0
    assert lag.max_during(0.406, 0.406) == 1.0
    assert lag.max_during(2.0, 3.0) is None  # the monitor was not running then


async def test_the_sample_under_way_counts_with_its_lag_so_far() -> None:
    time = LateClock([0.0, 0.0])
    lag = LoopLag(0.1, clock=time.clock, sleep=time.sleep)
    task = asyncio.create_task(lag.run())
    await time.done.wait()  # two samples taken; the third sleep never returns
    window = (time.now, time.now + 0.01)
    time.now += 0.5  # the loop is 400 ms late for that wake-up, and counting
    assert lag.max_during(*window) == pytest.approx(400.0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert lag.max_during(time.now + 1, time.now + 2) is None  # stopped: nothing seen


class LaggingLoop:
    """A lag monitor's clock and sleep on which every wake-up comes ``late_ms`` late: the
    clock is the real one plus the lateness reported so far, and the conversations are
    timed on it too, so their windows see the lag. No wall-clock wait: a sleep yields once."""

    def __init__(self, late_ms: float) -> None:
        self.offset = 0.0
        self.late_s = late_ms / 1000.0

    def clock(self) -> float:
        return perf_counter() + self.offset

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)
        self.offset += seconds + self.late_s


async def test_a_run_on_a_saturated_loop_is_flagged_and_auto_lowers_its_bound(
    server: MockLLMServer, out: Path
) -> None:
    forced = LaggingLoop(late_ms=250.0)
    req = request(
        out,
        agents=["openai:agent-x"],
        customer="openai:customer-x",
        trials=6,
        concurrency="auto:8",
    )
    prepared = prepare_run(req, env_for(server))
    prepared.ctx.clock = forced.clock  # the conversations' windows on the monitor's clock
    lag = LoopLag(clock=forced.clock, sleep=forced.sleep)
    try:
        session = await execute(
            prepared.session, prepared.ctx, prepared.config, pool=prepared.pool, lag=lag
        )
    finally:
        await prepared.pool.aclose()
    assert session.status == "completed"
    found = records(session)
    assert len(found) == 12
    timed = [m for r in found for m in r.messages if m.role == "agent"]
    assert timed and all(m.loop_lag_ms is not None and m.loop_lag_ms >= 250.0 for m in timed)
    calls = [c for r in found for c in r.llm_calls]
    assert all(c.loop_lag_ms is not None and c.loop_lag_ms >= 250.0 for c in calls)
    summary, _ = write_summary(session, 6)
    measurement = summary.document()["measurement"]
    assert measurement["saturated"] is True
    assert measurement["inflation_ms"]["p50"] >= 250.0
    assert measurement["lagged_calls"] == measurement["wire_calls"] == len(calls)
    assert session.info is not None
    assert session.info.loop_lag is not None and session.info.loop_lag.saturated is True
    trace = session.info.concurrency
    assert trace[0] == 8 and min(trace) == 4  # cut by a quarter each time, to the floor
    assert trace[: trace.index(4) + 1] == sorted(trace[: trace.index(4) + 1], reverse=True)
