"""The loop-lag warning needs enough samples for a p99 to mean something (fake clock)."""

from __future__ import annotations

import asyncio

import pytest

from supportsim.batch._lag import MIN_SAMPLES, LoopLag


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
