"""Concurrency and rate limits: an adaptive (AIMD) gate, a requests-per-minute log and a
tokens-per-minute window.

Providers limit requests per minute, tokens per minute and, implicitly, concurrency:

* ``AdaptiveGate``: a concurrency limit that can change while tasks hold it. Halved on a
  429 (at most once per ``window_s``, so one burst of 429s from calls sent together counts
  once), raised by one after ``limit`` successes in a row: TCP's additive increase,
  multiplicative decrease, which settles just under what the provider accepts.
* ``RequestWindow``: the requests started in the last minute (a sliding log); a new one
  waits, without polling, until the oldest leaves the window.
* ``TokenWindow``: tokens used in the last minute, from responses' usage; new calls wait
  while the window is over the limit.

A ``Limiter`` holds the three for one endpoint or one model (the ``RateLimit`` that
applies to it), plus the endpoint's pause when a 429 says Retry-After; ``ModelPool``
(``_pool.py``) makes one per endpoint and per limited model.

A provider counts a minute across our restarts, so both windows can start as if a
previous session had been sending at the full rate until some moment (``assume_busy``):
``--resume`` does that (``ModelPool.assume_busy``), so a driver killed and restarted
within a minute cannot put twice the limit into one minute.

Clocks and sleeps are injectable so tests drive them without waiting.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

from ._config import RateLimit

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class AdaptiveGate:
    """An asyncio concurrency limit whose ``limit`` may move between ``floor`` and ``ceiling``.

    Waiters are served first in, first out. Lowering the limit never interrupts holders: it
    only delays the next grants until enough of them have left.
    """

    def __init__(
        self,
        limit: int,
        *,
        floor: int = 1,
        ceiling: int | None = None,
        window_s: float = 5.0,
        clock: Clock = time.monotonic,
    ) -> None:
        if limit < 1 or floor < 1:
            raise ValueError("a gate's limit and floor are at least 1")
        self.ceiling = max(limit, ceiling or limit)
        self.floor = min(floor, limit)
        self.limit = limit
        self.window_s = window_s
        self.in_flight = 0
        self.cuts = 0
        self._clock = clock
        self._last_cut = float("-inf")
        self._successes = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._waiters if not w.done())

    async def acquire(self) -> None:
        if self.in_flight < self.limit and not self._waiters:
            self.in_flight += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # granted just as we were cancelled: hand the slot on
            else:
                self._waiters.remove(waiter)
            raise

    def try_acquire(self) -> bool:
        """Take a slot now if one is free and nobody waits (no suspension), else False."""
        if self.in_flight < self.limit and not self._waiters:
            self.in_flight += 1
            return True
        return False

    def release(self) -> None:
        """Give a slot back. Never below zero: a release with nothing held (a bug, or a
        late message from a worker already counted out) must not make room for one more."""
        self.in_flight = max(0, self.in_flight - 1)
        self._wake()

    def set_limit(self, limit: int) -> None:
        """Move the limit (clamped to floor..ceiling) and admit waiters it now allows."""
        self.limit = max(self.floor, min(self.ceiling, limit))
        self._wake()

    def on_success(self) -> None:
        """Additive increase: +1 after ``limit`` successes since the last change."""
        self._successes += 1
        if self._successes >= self.limit and self.limit < self.ceiling:
            self._successes = 0
            self.set_limit(self.limit + 1)

    def on_overload(self) -> bool:
        """Multiplicative decrease on a 429; True when the limit was cut.

        Halves what was really in flight (the failed call included), not a limit that was
        never reached: with a large default limit the first cut must bite.
        """
        now = self._clock()
        if now - self._last_cut < self.window_s:
            return False
        self._last_cut = now
        self._successes = 0
        before = self.limit
        self.set_limit(min(self.limit, self.in_flight + 1) // 2)
        if self.limit < before:
            self.cuts += 1
            return True
        return False

    def _wake(self) -> None:
        while self._waiters and self.in_flight < self.limit:
            waiter = self._waiters.popleft()
            if waiter.done():
                continue
            self.in_flight += 1
            waiter.set_result(None)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


class _Window:
    """Amounts (requests, tokens) counted over the last ``period_s``, against ``limit``."""

    def __init__(
        self,
        limit: int,
        *,
        period_s: float = 60.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.limit = limit
        self.period_s = period_s
        self.total = 0
        self.waits = 0
        self._clock = clock
        self._sleep = sleep
        self._events: deque[tuple[float, int]] = deque()

    def add(self, amount: int) -> None:
        if amount > 0:
            self._events.append((self._clock(), amount))
            self.total += amount

    def used(self) -> int:
        """What is counted in the current window."""
        self._prune(self._clock())
        return self.total

    def assume_busy(self, ago_s: float) -> None:
        """Count, as well, what a sender at exactly ``limit`` a period would have added
        until ``ago_s`` seconds ago (as ``_slot`` pieces): the part still in the window."""
        now = self._clock()
        step_s, share = self._slot()
        until, after = now - ago_s, now - self.period_s
        count = max(0, math.ceil((until - after) / step_s))
        times = [t for k in range(count) if (t := until - k * step_s) > after]
        self._events = deque(sorted([*((t, share) for t in times), *self._events]))
        self.total += share * len(times)

    def _slot(self) -> tuple[float, int]:
        """The spacing and size of the pieces ``assume_busy`` counts."""
        raise NotImplementedError

    async def _room(self) -> None:
        """Until the window is under its limit (one sleep until the oldest piece leaves)."""
        while True:
            now = self._clock()
            self._prune(now)
            if self.total < self.limit or not self._events:
                return
            self.waits += 1
            await self._sleep(max(0.001, self._events[0][0] + self.period_s - now))

    def _prune(self, now: float) -> None:
        while self._events and self._events[0][0] <= now - self.period_s:
            self.total -= self._events.popleft()[1]


class RequestWindow(_Window):
    """Requests started over the last ``period_s``; ``wait`` admits a new one while fewer
    than ``rpm`` (``limit``) have, else sleeps until the oldest leaves the window."""

    async def wait(self) -> None:
        await self._room()
        self.add(1)  # no await in between: the room is this request's

    def _slot(self) -> tuple[float, int]:
        return self.period_s / self.limit, 1


class TokenWindow(_Window):
    """Tokens used over the last ``period_s``; ``wait`` holds new calls while over ``tpm``
    (``limit``).

    A call's tokens are known only when it ends, so calls already in flight may overshoot;
    the window then stays closed until enough of the minute has passed.
    """

    async def wait(self) -> None:
        await self._room()

    def _slot(self) -> tuple[float, int]:
        return self.period_s / 60, math.ceil(self.limit / 60)  # a second's worth a second


class WaitTooLong(Exception):
    """A limiter would have to wait longer than the caller may (``wait_s``)."""

    def __init__(self, wait_s: float) -> None:
        self.wait_s = wait_s
        super().__init__(f"{wait_s:g} s")


class Limiter:
    """The limits of one endpoint or one model (see the module docstring)."""

    def __init__(
        self,
        name: str,
        limit: RateLimit,
        *,
        default_concurrency: int | None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        window_s: float = 5.0,
        max_pause_s: float | None = None,
    ) -> None:
        self.name = name
        self.max_pause_s = max_pause_s
        self.configured = limit
        concurrency = limit.max_concurrency or default_concurrency
        self.gate = (
            AdaptiveGate(concurrency, window_s=window_s, clock=clock) if concurrency else None
        )
        self.requests = RequestWindow(limit.rpm, clock=clock, sleep=sleep) if limit.rpm else None
        self.tokens = TokenWindow(limit.tpm, clock=clock, sleep=sleep) if limit.tpm else None
        self.paused_until = 0.0
        self.pauses = 0
        self._clock = clock
        self._sleep = sleep

    async def acquire(self, limit_s: float | None = None) -> None:
        """Wait for room; raises ``WaitTooLong`` rather than sit out a pause longer than
        ``limit_s``."""
        if self.gate is not None:
            await self.gate.acquire()
        try:
            while (wait := self.paused_until - self._clock()) > 0:
                if limit_s is not None and wait > limit_s:
                    raise WaitTooLong(wait)
                await self._sleep(wait)
            if self.requests is not None:
                await self.requests.wait()
            if self.tokens is not None:
                await self.tokens.wait()
        except BaseException:
            if self.gate is not None:
                self.gate.release()
            raise

    def try_acquire(self) -> bool:
        """``acquire`` without waiting, when nothing would make it wait (the hub grants a
        worker's permit at once this way, with no task per call)."""
        if self.requests is not None or self.tokens is not None:
            return False
        if self.paused_until > self._clock():
            return False
        return self.gate is None or self.gate.try_acquire()

    def release(self) -> None:
        if self.gate is not None:
            self.gate.release()

    def assume_busy(self, ago_s: float) -> None:
        """Start the rpm and tpm windows as if they had been full until ``ago_s`` seconds
        ago (see the module docstring)."""
        if self.requests is not None:
            self.requests.assume_busy(ago_s)
        if self.tokens is not None:
            self.tokens.assume_busy(ago_s)

    def succeeded(self, tokens: int) -> None:
        if self.tokens is not None:
            self.tokens.add(tokens)
        if self.gate is not None:
            self.gate.on_success()

    def overloaded(self, retry_after_s: float | None) -> None:
        if self.gate is not None:
            self.gate.on_overload()
        if self.max_pause_s is not None and retry_after_s is not None:
            retry_after_s = min(retry_after_s, self.max_pause_s)
        if retry_after_s:
            until = self._clock() + retry_after_s
            if until > self.paused_until:
                self.paused_until = until
                self.pauses += 1

    def snapshot(self) -> dict[str, Any]:
        return {
            "configured": self.configured.model_dump(exclude_none=True),
            "concurrency_limit": self.gate.limit if self.gate else None,
            "concurrency_cuts": self.gate.cuts if self.gate else 0,
            "pauses": self.pauses,
            "tpm_waits": self.tokens.waits if self.tokens else 0,
        }
