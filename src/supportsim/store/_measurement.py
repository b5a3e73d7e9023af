"""summary.json's ``measurement`` section: how far a run's recorded latencies can be trusted.

Every latency supportsim records is read by the client's own event loop. Each LLM call is
timed at the wire (``supportsim.llm._wire``): ``llm_ms`` runs from the stamp taken as the
request is written to the socket to the stamp taken when the loop reads the response's
last byte, and the call's time around that (building the request, waiting for a
connection, parsing) is kept apart as ``client_ms``. What the wire stamps cannot remove is
the loop's own queue: a loop busy elsewhere reads a byte that has arrived late, by about
the lag the loop-lag monitor measures (how late a timer wakes up). Hence:

* ``client_ms``: p50/p99 per call of the time kept out of ``llm_ms`` (wire-timed calls);
* ``loop_lag_ms``: p50/p99 of the loop's lag during the run (``batch._lag``);
* ``inflation_ms``: the estimate of how much a recorded ``llm_ms``/``ttft_ms`` exceeds
  the provider's true time: the loop's lag percentiles, for wire-timed calls. Its order
  of magnitude is right, not its digits: in ``benchmarks/bench_batch.py`` (2-core machine,
  shared) the true p50 excess (recorded minus injected latency) was 2 ms against a lag p50
  of 1.2 ms at concurrency 64, and 106 ms against 191 ms at 256; a guide, not a correction
  to subtract. Calls without wire stamps (``calls - wire_calls``: a caller's own HTTP
  client, other agent kinds) are inflated by their unrecorded client time too. An agent turn's
  ``response_ms`` is end to end by definition and includes its calls' ``client_ms``.

The record-derived part comes from the records (``measurement_of``); the lag part is known
to the runner only (``with_loop_lag``), and kept when ``report`` rewrites the summary.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from supportsim.store._records import ConversationRecord


class Spread(BaseModel):
    """Two percentiles of a latency, in milliseconds; null when nothing was measured."""

    model_config = ConfigDict(extra="forbid")
    p50: float | None = None
    p99: float | None = None


class Measurement(BaseModel):
    """How much measurement inflation a run had (see this module's docstring)."""

    model_config = ConfigDict(extra="forbid")
    calls: int = 0
    """LLM calls recorded (answers from the response cache not counted)."""
    wire_calls: int = 0
    """Of those, calls timed at the wire (with ``client_ms`` and wire stamps)."""
    client_ms: Spread = Spread()
    """Time per call spent in this process around the wire, kept out of ``llm_ms``."""
    loop_lag_ms: Spread | None = None
    """The event loop's lag during the run; null when the runner did not measure it."""
    inflation_ms: Spread | None = None
    """Estimated excess of a wire-timed call's recorded latency over the provider's."""


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def measurement_of(records: Iterable[ConversationRecord]) -> dict[str, Any]:
    """The record-derived part of the section (no lag yet: see ``with_loop_lag``)."""
    return measurement_from(c.client_ms for r in records for c in r.llm_calls if not c.cached)


def measurement_from(client_ms: Iterable[float | None]) -> dict[str, Any]:
    """``measurement_of`` from each recorded call's ``client_ms`` (None: not wire-timed),
    for aggregates that keep only that of each record."""
    calls = list(client_ms)
    client = [c for c in calls if c is not None]
    return {
        "calls": len(calls),
        "wire_calls": len(client),
        "client_ms": {"p50": _percentile(client, 50), "p99": _percentile(client, 99)},
        "loop_lag_ms": None,
        "inflation_ms": None,
    }


def with_loop_lag(
    section: Mapping[str, Any] | None, loop_lag: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """``section`` with the run's loop lag (``LoopLag.stats()``) and the inflation
    estimate filled in; unchanged without lag figures, None without a section."""
    if section is None:
        return None
    out = dict(section)
    if not loop_lag or loop_lag.get("p50_ms") is None:
        return out
    lag = {"p50": loop_lag.get("p50_ms"), "p99": loop_lag.get("p99_ms")}
    out["loop_lag_ms"] = lag
    out["inflation_ms"] = dict(lag) if out.get("wire_calls") else None
    return out


def describe_measurement(section: Mapping[str, Any] | None) -> str | None:
    """One line for the terminal: the estimate, the lag and the client time per call."""
    if not section:
        return None

    def ms(spread: Mapping[str, Any] | None) -> str:
        if not spread or spread.get("p50") is None:
            return "n/a"
        return f"p50 {spread['p50']:.0f} ms, p99 {spread.get('p99') or 0:.0f} ms"

    return (
        f"measurement: recorded LLM latencies inflated by about {ms(section.get('inflation_ms'))}"
        f" (event-loop lag {ms(section.get('loop_lag_ms'))}); client time per call kept out"
        f" of llm_ms {ms(section.get('client_ms'))}; {section.get('wire_calls', 0)} of"
        f" {section.get('calls', 0)} calls timed at the wire"
    )
