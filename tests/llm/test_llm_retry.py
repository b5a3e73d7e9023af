"""Retry policy, driven by a fake clock: no test really sleeps."""

from __future__ import annotations

import asyncio
import random

import pytest

from supportsim.errors import ProviderError, ProviderTimeout
from supportsim.llm import RetryPolicy, with_retries


class FakeClock:
    """Records requested sleeps instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.delays.append(seconds)


class Script:
    """A call that fails with the given errors, then returns "ok"."""

    def __init__(self, *errors: BaseException) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


def retryable(status: int = 500, retry_after_s: float | None = None) -> ProviderError:
    return ProviderError("m", "boom", status=status, retryable=True, retry_after_s=retry_after_s)


NO_JITTER = RetryPolicy(max_attempts=5, base_delay_s=0.5, max_delay_s=3.0, jitter=0.0)


async def test_backoff_doubles_up_to_the_cap() -> None:
    clock = FakeClock()
    call = Script(*(retryable() for _ in range(4)))
    assert await with_retries(call, NO_JITTER, sleep=clock.sleep) == "ok"
    assert clock.delays == [0.5, 1.0, 2.0, 3.0]
    assert call.calls == 5


async def test_retry_after_is_a_floor() -> None:
    clock = FakeClock()
    call = Script(retryable(429, retry_after_s=2.5), retryable(429, retry_after_s=0.1))
    assert await with_retries(call, NO_JITTER, sleep=clock.sleep) == "ok"
    assert clock.delays == [2.5, 1.0]


async def test_retry_after_above_the_cap_is_capped() -> None:
    clock = FakeClock()
    call = Script(retryable(429, retry_after_s=86400.0), retryable(429, retry_after_s=45.0))
    await with_retries(call, NO_JITTER, sleep=clock.sleep)
    assert clock.delays == [3.0, 3.0]  # the policy's max_delay_s, not a day


async def test_non_retryable_raised_at_once() -> None:
    clock = FakeClock()
    error = ProviderError("m", "bad request", status=400, retryable=False)
    call = Script(error)
    with pytest.raises(ProviderError) as info:
        await with_retries(call, NO_JITTER, sleep=clock.sleep)
    assert info.value is error
    assert call.calls == 1
    assert clock.delays == []


async def test_exhausted_attempts_raise_the_last_error() -> None:
    clock = FakeClock()
    errors = [retryable(500), retryable(502), ProviderTimeout("m")]
    call = Script(*errors)
    policy = RetryPolicy(max_attempts=3, base_delay_s=1.0, jitter=0.0)
    with pytest.raises(ProviderTimeout) as info:
        await with_retries(call, policy, sleep=clock.sleep)
    assert info.value is errors[2]
    assert call.calls == 3
    assert clock.delays == [1.0, 2.0]


async def test_other_exceptions_are_not_retried() -> None:
    call = Script(KeyError("bug"))
    with pytest.raises(KeyError):
        await with_retries(call, NO_JITTER, sleep=FakeClock().sleep)
    assert call.calls == 1


async def test_cancellation_is_never_swallowed() -> None:
    clock = FakeClock()
    call = Script(asyncio.CancelledError())
    with pytest.raises(asyncio.CancelledError):
        await with_retries(call, NO_JITTER, sleep=clock.sleep)
    assert call.calls == 1


async def test_cancelled_while_waiting_propagates() -> None:
    async def cancelled_sleep(seconds: float) -> None:
        raise asyncio.CancelledError

    call = Script(retryable())
    with pytest.raises(asyncio.CancelledError):
        await with_retries(call, NO_JITTER, sleep=cancelled_sleep)
    assert call.calls == 1


async def test_jitter_stays_within_bounds_and_is_seedable() -> None:
    policy = RetryPolicy(max_attempts=4, base_delay_s=1.0, max_delay_s=30.0, jitter=0.2)
    runs = []
    for _ in range(2):
        clock = FakeClock()
        await with_retries(
            Script(retryable(), retryable(), retryable()),
            policy,
            sleep=clock.sleep,
            rng=random.Random(42),
        )
        runs.append(clock.delays)
    assert runs[0] == runs[1]
    for delay, nominal in zip(runs[0], [1.0, 2.0, 4.0], strict=True):
        assert nominal * 0.8 <= delay <= nominal * 1.2


async def test_on_retry_sees_error_attempt_and_delay() -> None:
    seen: list[tuple[int | None, int, float]] = []
    call = Script(retryable(503), retryable(429, retry_after_s=2.0))
    await with_retries(
        call,
        NO_JITTER,
        sleep=FakeClock().sleep,
        on_retry=lambda err, attempt, delay: seen.append((err.status, attempt, delay)),
    )
    assert seen == [(503, 1, 0.5), (429, 2, 2.0)]


def test_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)
    with pytest.raises(ValueError):
        RetryPolicy(jitter=1.5)
