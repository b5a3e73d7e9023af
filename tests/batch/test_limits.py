"""AdaptiveGate (AIMD), TokenWindow (tpm), LoopLag and the auto-concurrency step."""

from __future__ import annotations

import asyncio

import pytest

from supportsim.batch import AdaptiveGate, LoopLag, TokenWindow


class FakeTime:
    """A clock that only moves when a fake sleep is awaited."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


async def test_gate_admits_up_to_its_limit_then_first_in_first_out():
    gate = AdaptiveGate(2)
    await gate.acquire()
    await gate.acquire()
    order: list[int] = []

    async def wait(i: int) -> None:
        await gate.acquire()
        order.append(i)

    waiters = [asyncio.create_task(wait(i)) for i in range(3)]
    await asyncio.sleep(0)
    assert gate.in_flight == 2 and gate.waiting == 3 and order == []
    gate.release()
    await asyncio.sleep(0)
    assert order == [0]
    gate.release()
    gate.release()
    await asyncio.gather(*waiters)
    assert order == [0, 1, 2] and gate.in_flight == 2


async def test_a_cancelled_waiter_gives_up_its_place():
    gate = AdaptiveGate(1)
    await gate.acquire()
    first = asyncio.create_task(gate.acquire())
    second = asyncio.create_task(gate.acquire())
    await asyncio.sleep(0)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    gate.release()
    await second
    assert gate.in_flight == 1 and gate.waiting == 0


async def test_a_release_with_nothing_held_makes_no_room():
    gate = AdaptiveGate(1)
    gate.release()  # nothing held
    assert gate.in_flight == 0
    await gate.acquire()
    assert not gate.try_acquire()  # still one slot, not two
    gate.release()
    gate.release()
    assert gate.in_flight == 0


async def test_overload_halves_once_per_window_and_successes_add_one_back():
    time = FakeTime()
    gate = AdaptiveGate(8, window_s=5.0, clock=time.clock)
    for _ in range(8):
        await gate.acquire()
    gate.release()  # the 429'd call has left the gate: 7 in flight
    assert gate.on_overload() is True
    assert gate.limit == 4  # (7 + 1) // 2
    assert gate.on_overload() is False  # same burst: no second cut
    time.now += 5.0
    assert gate.on_overload() is True and gate.limit == 2
    assert gate.cuts == 2
    for _ in range(2):
        gate.on_success()
    assert gate.limit == 3  # +1 after `limit` successes
    for _ in range(3):
        gate.on_success()
    assert gate.limit == 4
    for _ in range(100):
        gate.on_success()
    assert gate.limit == 8  # never above the ceiling


async def test_overload_never_goes_below_the_floor():
    gate = AdaptiveGate(1)
    assert gate.on_overload() is False and gate.limit == 1


async def test_token_window_holds_new_calls_until_the_minute_has_room():
    time = FakeTime()
    window = TokenWindow(1000, clock=time.clock, sleep=time.sleep)
    window.add(600)
    await window.wait()
    assert time.slept == []
    time.now += 10
    window.add(500)  # 1100 in the window: over
    await window.wait()
    assert time.slept == [50.0]  # until the first 600 leave the window
    assert window.used() == 500 and window.waits == 1


async def test_loop_lag_measures_how_late_the_sleep_returns():
    time = FakeTime()

    async def late_sleep(seconds: float) -> None:
        time.now += seconds + 0.004  # every wake-up is 4 ms late
        await asyncio.sleep(0)

    lag = LoopLag(0.1, clock=time.clock, sleep=late_sleep)
    task = asyncio.create_task(lag.run())
    for _ in range(10):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    stats = lag.stats()
    assert stats["samples"] >= 5
    assert stats["p50_ms"] == pytest.approx(4.0)
    assert stats["p99_ms"] == pytest.approx(4.0)
    assert stats["saturated"] is False and lag.warning() is None
    lag.add(50.0)
    lag.add(60.0)
    assert lag.stats()["max_ms"] == 60.0
    assert lag.recent_p99() == 60.0


def test_loop_lag_warns_when_p99_is_over_ten_ms():
    lag = LoopLag()
    for value in [1.0] * 90 + [30.0] * 10:
        lag.add(value)
    assert lag.stats()["saturated"] is True
    assert "p99 30.0 ms > 10 ms" in (lag.warning() or "")


async def test_the_pool_warms_every_client_before_units_start() -> None:
    from supportsim.batch import ModelPool

    warmed: list[str] = []

    class Client:
        def __init__(self, name: str) -> None:
            self.name = name

        async def warm(self) -> None:
            warmed.append(self.name)

        async def aclose(self) -> None:
            pass

    pool = ModelPool(env={})
    pool._clients.update({"a": Client("a"), "b": Client("b")})  # type: ignore[dict-item]
    await pool.warm()
    assert warmed == ["a", "b"]
