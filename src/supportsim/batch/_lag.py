"""Event-loop lag: how late a periodic ``sleep(interval)`` wakes up.

Every latency supportsim reports is measured on the client's event loop. When that loop is
saturated (too many conversations for the CPU), a response that arrived on time is read
late and the agent looks slower than it is. The lag monitor measures that delay during
every run so the summary can say so, drives ``--concurrency auto``, and gives every timed
message and model call the lag seen while it was timed (``stamp_loop_lag``).

Each sample covers one period, from the sleep's start to its late wake-up; the periods
tile the run. A window's lag (``max_during``) is the largest lag among the samples whose
period overlaps it, the one still running counted with its lag so far: the loop's
lateness around that window, at the monitor's resolution (100 ms by default). The
largest, not a percentile: a window holds a handful of samples, and one late read is
enough to inflate a latency.
"""

from __future__ import annotations

import asyncio
import time
from array import array
from bisect import bisect_left
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

from supportsim.store import MIN_SAMPLES, WARN_P99_MS, saturated

__all__ = ["MIN_SAMPLES", "WARN_P99_MS", "LoopLag", "saturated", "stamp_loop_lag"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class LoopLag:
    """Samples scheduling delay in milliseconds; run ``await monitor.run()`` as a task.

    All samples are kept with the clock time each ended (16 bytes each: 10 per second is
    4.6 MB per 8-hour night) so the final percentiles are exact and any window can be
    looked up; ``recent_p99`` looks at the last ``recent`` samples only. The clock is
    ``time.perf_counter`` by default, the conversations' clock (``UnitContext.clock``), so
    their windows can be looked up here.
    """

    def __init__(
        self,
        interval_s: float = 0.1,
        *,
        clock: Clock = time.perf_counter,
        sleep: Sleep = asyncio.sleep,
        recent: int = 20,
    ) -> None:
        self.interval_s = interval_s
        self.samples = array("d")
        self.ends = array("d")
        """The clock time each sample ended (its late wake-up), in order."""
        self._recent: deque[float] = deque(maxlen=recent)
        self._clock = clock
        self._sleep = sleep
        self._since: float | None = None
        """When the sample under way began (None: the monitor is not running)."""
        self._grown: asyncio.Event | None = None

    def add(self, lag_ms: float, at: float | None = None) -> None:
        """One sample, which ended at clock time ``at`` (default: now)."""
        lag_ms = max(0.0, lag_ms)
        self.samples.append(lag_ms)
        self.ends.append(self._clock() if at is None else at)
        self._recent.append(lag_ms)
        if self._grown is not None:
            self._grown.set()

    async def run(self) -> None:
        """Measure until cancelled."""
        try:
            while True:
                self._since = start = self._clock()
                await self._sleep(self.interval_s)
                end = self._clock()
                self.add((end - start - self.interval_s) * 1000.0, end)
        finally:
            self._since = None

    async def wait_for(self, count: int) -> None:
        """Until the monitor holds at least ``count`` samples."""
        while len(self.samples) < count:
            if self._grown is None:
                self._grown = asyncio.Event()
            self._grown.clear()
            await self._grown.wait()

    def max_during(self, start: float, end: float) -> float | None:
        """The largest lag (ms) of the samples whose period overlaps ``[start, end]``
        (clock times), the sample under way counted with its lag so far; None when the
        monitor saw none of the window (it was not running then)."""
        samples, ends = self.samples, self.ends
        worst: float | None = None
        i = bisect_left(ends, start)
        while i < len(ends):
            lag_ms = samples[i]
            if ends[i] - self.interval_s - lag_ms / 1000.0 > end:  # began after the window
                return worst
            worst = lag_ms if worst is None else max(worst, lag_ms)
            i += 1
        since = self._since
        if since is not None and since <= end:
            so_far = max(0.0, (self._clock() - since - self.interval_s) * 1000.0)
            worst = so_far if worst is None else max(worst, so_far)
        return worst

    def recent_p99(self) -> float | None:
        return _quantile(list(self._recent), 99)

    def stats(self) -> dict[str, Any]:
        """p50/p90/p99/max in ms and the sample count, for run.json and summary.json."""
        values = list(self.samples)
        p99 = _quantile(values, 99)
        return {
            "interval_ms": self.interval_s * 1000.0,
            "samples": len(values),
            "p50_ms": _quantile(values, 50),
            "p90_ms": _quantile(values, 90),
            "p99_ms": p99,
            "max_ms": max(values) if values else None,
            "saturated": self.saturated(),
        }

    def saturated(self) -> bool:
        """True when there are ``MIN_SAMPLES`` or more and their p99 is over the limit."""
        return saturated(len(self.samples), _quantile(list(self.samples), 99))

    def warning(self) -> str | None:
        """A sentence for the user when the loop was saturated, else None."""
        if not self.saturated():
            return None
        p99 = _quantile(list(self.samples), 99) or 0.0
        return (
            f"event-loop lag p99 {p99:.1f} ms > {WARN_P99_MS:g} ms: the client was saturated, "
            "so measured latencies are inflated; lower --concurrency (or use auto)"
        )


class Timed(Protocol):
    """A message or model call that was timed over a window of the conversation's clock."""

    window: tuple[float, float] | None
    loop_lag_ms: float | None


def stamp_loop_lag(timed: Iterable[Timed], lag: LoopLag) -> None:
    """Give each item timed over a window the loop lag seen during it (``max_during``);
    items without a window keep None."""
    for item in timed:
        if item.window is not None:
            item.loop_lag_ms = lag.max_during(*item.window)
