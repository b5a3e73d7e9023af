"""AdaptiveGate (AIMD), TokenWindow (tpm), LoopLag and the auto-concurrency step."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from supportsim.batch import LoopLag
from supportsim.llm import AdaptiveGate, RequestWindow, TokenWindow


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
    from supportsim.llm import ModelPool

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


async def requests_until(window: RequestWindow, time: FakeTime, until_s: float) -> list[float]:
    """Start requests through ``window`` one after another until the fake clock passes
    ``until_s``; their start times."""
    started = []
    while time.now < until_s:
        await window.wait()
        started.append(time.now)
    return started


def most_in_a_minute(times: list[float]) -> int:
    times = sorted(times)
    return max(sum(1 for u in times if t - 60 < u <= t) for t in times)


async def test_request_window_admits_rpm_a_minute_and_waits_for_the_oldest():
    time = FakeTime()
    window = RequestWindow(3, clock=time.clock, sleep=time.sleep)
    started = await requests_until(window, time, 100 + 120)
    assert started[:3] == [100, 100, 100]
    assert started[3:6] == [160, 160, 160]  # one sleep until the oldest leaves, no polling
    assert most_in_a_minute(started) == 3
    assert window.waits == len(time.slept)


@pytest.mark.parametrize("ago_s", [0.0, 20.0, 59.0])
async def test_a_restarted_rpm_window_never_lets_two_minutes_into_one(ago_s: float):
    # The session before the restart sent at exactly 60 rpm until `ago_s` seconds ago.
    time = FakeTime()
    window = RequestWindow(60, clock=time.clock, sleep=time.sleep)
    window.assume_busy(ago_s)
    before = [time.now - ago_s - k for k in range(120)]  # what that session really sent
    after = await requests_until(window, time, time.now + 120)
    assert most_in_a_minute(before + after) == 60
    assert len(after) >= 119  # and no slower than the limit after the first minute
    # The same window not told about the restart lets a minute's worth in at once.
    fresh = FakeTime()
    naive = RequestWindow(60, clock=fresh.clock, sleep=fresh.sleep)
    assert most_in_a_minute(before + await requests_until(naive, fresh, 101)) > 60


async def test_a_window_quiet_for_a_minute_starts_empty():
    time = FakeTime()
    window = RequestWindow(60, clock=time.clock, sleep=time.sleep)
    window.assume_busy(60.0)
    assert window.used() == 0
    window.assume_busy(30.0)
    assert window.used() == 30


async def test_a_restarted_token_window_counts_the_minute_before_it():
    time = FakeTime()
    window = TokenWindow(6000, clock=time.clock, sleep=time.sleep)
    window.assume_busy(0.0)
    assert window.used() == 6000
    await window.wait()  # full: waits for the oldest second to leave
    assert time.slept == [1.0]
    time.now += 29
    assert window.used() == 3000


def test_resume_starts_the_windows_from_when_the_last_session_could_have_sent():
    from datetime import UTC, datetime, timedelta

    from supportsim.batch._manifest import seconds_since_last_request

    now = datetime(2026, 12, 1, 10, 0, 0, tzinfo=UTC)
    killed = {"status": "running", "sessions": [{"ended_at": "2026-12-01T09:00:00+00:00"}]}
    assert seconds_since_last_request(killed, now) == 0.0  # it may have sent until now
    ended = (now - timedelta(seconds=30)).isoformat(timespec="seconds")
    closed = {"status": "interrupted", "sessions": [{"ended_at": ended}]}
    assert seconds_since_last_request(closed, now) == 29.0  # whole seconds: one less
    assert seconds_since_last_request({"status": "completed", "sessions": []}, now) == 0.0


def test_the_pool_starts_every_rpm_window_busy_after_a_restart():
    from supportsim.llm import ModelPool, RateLimit

    time = FakeTime()
    pool = ModelPool(env={}, clock=time.clock, sleep=time.sleep)
    early = pool.limiter_named("openai https://api.openai.com/v1", RateLimit(rpm=120), 8)
    pool.assume_busy(0.0)
    late = pool.limiter_named("anthropic https://api.anthropic.com", RateLimit(rpm=60), 8)
    assert early.requests is not None and early.requests.used() == 120
    assert late.requests is not None and late.requests.used() == 60
    assert not early.try_acquire()


@pytest.mark.parametrize("how", ["killed", "an hour ago"])
async def test_a_resumed_run_starts_its_rpm_window_from_how_its_last_session_ended(
    server: Any, out: Any, how: str
):
    import orjson
    from batch_helpers import env_for, request, run

    from supportsim.batch import execute, prepare_run

    common = {"agents": ["openai:agent"], "rate_limits": {"openai": {"rpm": 6000}}}
    first, _ = await run(server, request(out, **common))
    run_json = first.run_dir / "run.json"
    manifest = orjson.loads(run_json.read_bytes())
    if how == "killed":
        manifest["status"] = "running"  # what a SIGKILLed driver leaves
    else:
        manifest["sessions"][-1]["ended_at"] = "2000-01-01T00:00:00+00:00"
    run_json.write_bytes(orjson.dumps(manifest))
    lines = (first.run_dir / "conversations.jsonl").read_bytes().splitlines(keepends=True)
    (first.run_dir / "conversations.jsonl").write_bytes(b"".join(lines[:-1]))  # one to run
    prepared = prepare_run(request(out, resume=True, **common), env_for(server))
    time = FakeTime()  # only the rate windows' waits move it
    prepared.pool.clock, prepared.pool.sleep = time.clock, time.sleep
    try:
        again = await execute(prepared.session, prepared.ctx, prepared.config, pool=prepared.pool)
    finally:
        await prepared.pool.aclose()
    assert again.status == "completed"
    pool = prepared.pool
    (endpoint,) = pool._endpoints.values()
    assert endpoint.requests is not None
    if how == "killed":
        assert pool.busy_ago_s == 0.0
        assert endpoint.requests.waits >= 1  # the minute was full: its first call waited
        assert time.slept[0] == pytest.approx(0.01)  # for the oldest of 6000 to leave
    else:
        assert pool.busy_ago_s > 3600
        assert endpoint.requests.waits == 0
