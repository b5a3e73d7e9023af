"""Latency measurement shared by the provider clients.

A call is timed twice: by the client around the whole call (the stopwatch's own start and
end), and at the wire by ``WireTransport`` (``_wire``). When the wire stamps are there,
``llm_ms`` and ``ttft_ms`` count from the request's being sent, and the rest of the call's
time, ours, is ``client_ms``; without them (a caller's own HTTP client, the response cache)
both count from the stopwatch's start, as a user of the SDK would feel them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ._types import WireTiming
from ._wire import WireStamps


@dataclass(frozen=True, slots=True)
class CallTimes:
    """What a stopwatch measured, in the units ``LLMResponse`` keeps."""

    llm_ms: float
    ttft_ms: float | None
    client_ms: float | None
    wire: WireTiming | None


class Stopwatch:
    """Times one call on the monotonic clock: time to first data, and the whole call.

    Create it just before the request is built and serialised, and send inside
    ``recording(watch.wire)`` so the transport stamps the request; ``stop`` once the reply
    is parsed and built.
    """

    __slots__ = ("_first", "_start", "wire")

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self._first: float | None = None
        self.wire = WireStamps()

    def mark_first(self) -> None:
        """Record the first data chunk; later calls are no-ops.

        Called by the reader once it has parsed a chunk as carrying content: the time is
        when that chunk came in (the transport's latest stamp), not the end of its parsing.
        """
        if self._first is None:
            came_in = self.wire.last_byte
            self._first = came_in if came_in is not None else time.perf_counter()

    @property
    def ttft_ms(self) -> float | None:
        """Milliseconds from the start to the first data chunk, or None if none was marked."""
        return None if self._first is None else (self._first - self._start) * 1000.0

    def elapsed_ms(self) -> float:
        """Milliseconds since the start."""
        return (time.perf_counter() - self._start) * 1000.0

    def stop(self) -> CallTimes:
        """The call's times, now that its reply has been read."""
        end = time.perf_counter()
        total_ms = (end - self._start) * 1000.0
        w = self.wire
        if not w.complete:
            return CallTimes(total_ms, self.ttft_ms, None, None)
        assert w.sent is not None and w.first_byte is not None and w.last_byte is not None
        wire = WireTiming(
            sent_ms=(w.sent - self._start) * 1000.0,
            first_byte_ms=(w.first_byte - self._start) * 1000.0,
            last_byte_ms=(w.last_byte - self._start) * 1000.0,
            total_ms=total_ms,
        )
        llm_ms = (w.last_byte - w.sent) * 1000.0
        ttft_ms = None if self._first is None else max(0.0, (self._first - w.sent) * 1000.0)
        return CallTimes(llm_ms, ttft_ms, total_ms - llm_ms, wire)


def times_of(times: CallTimes, *, ttft: bool = True) -> dict[str, Any]:
    """``LLMResponse`` keyword arguments for ``times`` (``ttft=False``: a whole answer,
    which has no time to first token)."""
    return {
        "llm_ms": times.llm_ms,
        "ttft_ms": times.ttft_ms if ttft else None,
        "client_ms": times.client_ms,
        "wire": times.wire,
    }
