"""Event-loop lag: how late a periodic ``sleep(interval)`` wakes up.

Every latency supportsim reports is measured on the client's event loop. When that loop is
saturated (too many conversations for the CPU), a response that arrived on time is read
late and the agent looks slower than it is. The lag monitor measures that delay during
every run so the summary can say so, and drives ``--concurrency auto``.
"""

from __future__ import annotations

import asyncio
import time
from array import array
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

WARN_P99_MS = 10.0
"""Above this p99 lag, measured latencies are inflated: the user is warned."""
MIN_SAMPLES = 100
"""Fewer samples than this (10 s at the default interval) say nothing about a p99: it is
just the largest one, often the start-up's (imports, SDK warm-up, the first scenarios
loading). A shorter run is never called saturated."""


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class LoopLag:
    """Samples scheduling delay in milliseconds; run ``await monitor.run()`` as a task.

    All samples are kept (8 bytes each: 10 per second is 2.3 MB per night) so the final
    percentiles are exact; ``recent_p99`` looks at the last ``recent`` samples only.
    """

    def __init__(
        self,
        interval_s: float = 0.1,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        recent: int = 20,
    ) -> None:
        self.interval_s = interval_s
        self.samples = array("d")
        self._recent: deque[float] = deque(maxlen=recent)
        self._clock = clock
        self._sleep = sleep

    def add(self, lag_ms: float) -> None:
        lag_ms = max(0.0, lag_ms)
        self.samples.append(lag_ms)
        self._recent.append(lag_ms)

    async def run(self) -> None:
        """Measure until cancelled."""
        while True:
            start = self._clock()
            await self._sleep(self.interval_s)
            self.add((self._clock() - start - self.interval_s) * 1000.0)

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
        if len(self.samples) < MIN_SAMPLES:
            return False
        p99 = _quantile(list(self.samples), 99)
        return p99 is not None and p99 > WARN_P99_MS

    def warning(self) -> str | None:
        """A sentence for the user when the loop was saturated, else None."""
        if not self.saturated():
            return None
        p99 = _quantile(list(self.samples), 99) or 0.0
        return (
            f"event-loop lag p99 {p99:.1f} ms > {WARN_P99_MS:g} ms: the client was saturated, "
            "so measured latencies are inflated; lower --concurrency (or use auto)"
        )
