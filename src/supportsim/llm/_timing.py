"""Latency measurement shared by the provider clients."""

from __future__ import annotations

import time


class Stopwatch:
    """Times one call on the monotonic clock: time to first data, and the whole call.

    Starts when created, so create it just before the request is sent: connection setup
    and queueing at the server count towards both numbers, as a user would feel them.
    """

    __slots__ = ("_first", "_start")

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self._first: float | None = None

    def mark_first(self) -> None:
        """Record the first data chunk; later calls are no-ops."""
        if self._first is None:
            self._first = time.perf_counter()

    @property
    def ttft_ms(self) -> float | None:
        """Milliseconds to the first data chunk, or None if none was marked."""
        return None if self._first is None else (self._first - self._start) * 1000.0

    def elapsed_ms(self) -> float:
        """Milliseconds since the start."""
        return (time.perf_counter() - self._start) * 1000.0
