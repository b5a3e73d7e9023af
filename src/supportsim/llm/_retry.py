"""Retrying provider calls with capped exponential backoff (Retry-After capped too).

The SDKs' own retries are switched off (``max_retries=0``) so that every attempt is visible
here: the caller can count, log and time them, and tests can drive the whole schedule with a
fake ``sleep`` instead of a real clock.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from supportsim.errors import ProviderError

T = TypeVar("T")


class RetryPolicy(BaseModel):
    """How often and how patiently to retry one model call (429, 5xx, connection errors,
    timeouts). The one type for it: a run config's ``retries`` is a RetryPolicy.

    Attributes:
        max_attempts: Attempts in all, the first included (1 means no retry).
        base_delay_s: Delay before the first retry; it doubles for each later one.
        max_delay_s: Cap on every wait, a server's Retry-After included: a provider
            asking for a day (``Retry-After: 86400``) must not park a run for a day.
        jitter: Relative spread of the backoff, e.g. 0.2 for ±20%, so clients that failed
            together do not retry together.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_attempts: int = Field(default=4, ge=1, le=20)
    base_delay_s: float = Field(default=0.5, ge=0)
    max_delay_s: float = Field(default=30.0, ge=0)
    jitter: float = Field(default=0.2, ge=0, lt=1)

    def delay(self, retry: int, retry_after_s: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number ``retry`` (0 for the first retry).

        The server's Retry-After is a floor, never shortened by jitter, up to
        ``max_delay_s``; nothing waits longer than that.
        """
        backoff = min(self.max_delay_s, self.base_delay_s * 2.0**retry)
        if self.jitter:
            backoff *= 1.0 + rng.uniform(-self.jitter, self.jitter)
        return min(self.max_delay_s, max(self.capped(retry_after_s), backoff))

    def capped(self, retry_after_s: float | None) -> float:
        """A server's Retry-After as this policy honours it: at most ``max_delay_s``."""
        return min(self.max_delay_s, retry_after_s or 0.0)


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    on_retry: Callable[[ProviderError, int, float], None] | None = None,
    rng: random.Random | None = None,
) -> T:
    """Await ``call()`` until it succeeds, retrying retryable ``ProviderError``s.

    Args:
        call: Makes one fresh attempt each time it is called.
        policy: Attempts and backoff.
        sleep: Waits between attempts; tests pass a fake that records the delays.
        on_retry: Told ``(error, failed_attempt_number, delay_s)`` before each wait, e.g. to
            log or count retries.
        rng: Source of jitter; pass a seeded one for reproducible delays.

    Raises:
        ProviderError: At once when not retryable; the last one when attempts run out.
            Anything else (including ``CancelledError``) propagates untouched.
    """
    rng = rng or random.Random()
    attempt = 1
    while True:
        try:
            return await call()
        except ProviderError as err:
            if not err.retryable or attempt >= policy.max_attempts:
                raise
            delay = policy.delay(attempt - 1, err.retry_after_s, rng)
            if on_retry is not None:
                on_retry(err, attempt, delay)
        await sleep(delay)
        attempt += 1
