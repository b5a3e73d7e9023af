"""summary.json's ``measurement`` section: how far a run's recorded latencies can be trusted.

Every latency supportsim records is read by the client's own event loop. Each LLM call is
timed at the wire (``supportsim.llm._wire``): ``llm_ms`` runs from the stamp taken as the
request is written to the socket to the stamp taken as the response's last chunk comes
in, and the call's time around that (building the request, waiting for a connection,
parsing the last chunk, building the reply) is kept apart as ``client_ms``. What the wire
stamps cannot remove is the loop's own queue: a loop busy elsewhere reads a chunk that
arrived on time late, by about the lag the loop-lag monitor measures (how late a timer
wakes up). Every message and model call therefore carries ``loop_lag_ms``, the worst lag
the monitor saw while it was timed, on the loop that ran it (a worker's own, with
workers; ``batch._lag``). Hence:

* ``client_ms``: p50/p99 per call of the time kept out of ``llm_ms`` (wire-timed calls);
* ``loop_lag_ms``: p50/p99 of the run's loop lag (the conversations' loops: with workers,
  the workers', never the idle driver's);
* ``inflation_ms``: the estimate of how much a wire-timed call's recorded ``llm_ms`` /
  ``ttft_ms`` exceeds the provider's time: p50/p99 over those calls of their own
  ``loop_lag_ms``. Records older than that field fall back to the run's loop-lag
  percentiles, and only from ``MIN_SAMPLES`` samples or more (fewer say nothing: a p99 of
  a few is the start-up's hiccup). An upper bound in kind, an order of magnitude in
  digits: a guide, not a correction to subtract. Calls without wire stamps
  (``calls - wire_calls``: a caller's own HTTP client, other agent kinds) are inflated by
  their unrecorded client time too; an agent turn's ``response_ms`` is end to end by
  definition and includes its calls' ``client_ms``;
* ``lagged_calls``: wire-timed calls whose ``loop_lag_ms`` passed ``WARN_P99_MS``;
* ``saturated``: the run's loop lag p99 passed ``WARN_P99_MS`` over ``MIN_SAMPLES`` or
  more samples (``saturated()``, the rule of the run's warning): its latencies are
  inflated, and ``compare`` calls its latency verdicts unreliable.

The record-derived part comes from the records (``measurement_of``); the lag part is known
to the runner only (``with_loop_lag``), and kept when ``report`` rewrites the summary.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict

from supportsim.store._records import ConversationRecord


class LoopLagStats(BaseModel):
    """How late the event loop's timers woke up over a session (``batch.LoopLag``)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    interval_ms: float
    samples: int
    p50_ms: float | None = None
    p90_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None
    saturated: bool = False


class Spread(BaseModel):
    """Two percentiles of a latency, in milliseconds; null when nothing was measured."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    p50: float | None = None
    p99: float | None = None


class Measurement(BaseModel):
    """How much measurement inflation a run had (see this module's docstring)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    calls: int = 0
    """LLM calls recorded (answers from the response cache not counted)."""
    wire_calls: int = 0
    """Of those, calls timed at the wire (with ``client_ms`` and wire stamps)."""
    client_ms: Spread = Spread()
    """Time per call spent in this process around the wire, kept out of ``llm_ms``."""
    loop_lag_ms: Spread | None = None
    """The event loop's lag during the run; null when the runner did not measure it."""
    inflation_ms: Spread | None = None
    """Estimated excess of a wire-timed call's recorded latency over the provider's: the
    calls' own loop lag (null: not measured, or too few lag samples for an old record)."""
    lagged_calls: int = 0
    """Wire-timed calls timed while the loop lagged over ``WARN_P99_MS`` (10 ms)."""
    saturated: bool = False
    """The client was saturated: the run's loop-lag p99 passed 10 ms over at least 100
    samples. Its latencies are inflated; ``compare`` does not trust them."""


WARN_P99_MS = 10.0
"""Above this p99 lag, measured latencies are inflated: the user is warned."""
MIN_SAMPLES = 100
"""Fewer samples than this (10 s at the default interval) say nothing about a p99: it is
just the largest one, often the start-up's (imports, SDK warm-up, the first scenarios
loading). A shorter run is never called saturated."""


def saturated(samples: int, p99_ms: float | None) -> bool:
    """The one rule for a saturated client: ``MIN_SAMPLES`` or more lag samples whose p99
    is over ``WARN_P99_MS``."""
    return samples >= MIN_SAMPLES and p99_ms is not None and p99_ms > WARN_P99_MS


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def measurement_of(records: Iterable[ConversationRecord]) -> Measurement:
    """The record-derived part of the section (no run lag yet: see ``with_loop_lag``)."""
    calls = [c for r in records for c in r.llm_calls if not c.cached]
    return measurement_from((c.client_ms for c in calls), (c.loop_lag_ms for c in calls))


def measurement_from(
    client_ms: Iterable[float | None], loop_lag_ms: Iterable[float | None] = ()
) -> Measurement:
    """``measurement_of`` from each recorded call's ``client_ms`` (None: not wire-timed)
    and ``loop_lag_ms`` (None: not measured; in the same order, or empty), for aggregates
    that keep only those of each record."""
    calls = list(client_ms)
    lags = list(loop_lag_ms)
    client = [c for c in calls if c is not None]
    wire_lags = [lag for c, lag in zip(calls, lags, strict=False) if c is not None]
    seen = [lag for lag in wire_lags if lag is not None]
    return Measurement(
        calls=len(calls),
        wire_calls=len(client),
        client_ms=_spread(client),
        loop_lag_ms=None,
        inflation_ms=_spread(seen) if seen else None,
        lagged_calls=sum(lag > WARN_P99_MS for lag in seen),
        saturated=False,
    )


def _spread(values: list[float]) -> Spread:
    return Spread(p50=_percentile(values, 50), p99=_percentile(values, 99))


def with_loop_lag(section: Measurement | None, loop_lag: LoopLagStats | None) -> Measurement | None:
    """``section`` with the run's loop lag (``LoopLag.stats()``) and whether the client
    was saturated; the inflation estimate of records without per-call lag from the run's
    lag when it has ``MIN_SAMPLES`` or more. Unchanged without lag figures, None without
    a section."""
    if section is None:
        return None
    if loop_lag is None or loop_lag.p50_ms is None:
        return section
    samples = loop_lag.samples
    lag = Spread(p50=loop_lag.p50_ms, p99=loop_lag.p99_ms)
    update: dict[str, Any] = {"loop_lag_ms": lag, "saturated": saturated(samples, lag.p99)}
    if section.inflation_ms is None and section.wire_calls and samples >= MIN_SAMPLES:
        update["inflation_ms"] = lag  # records without their calls' own lag
    return section.model_copy(update=update)


def describe_measurement(section: Measurement | None) -> str | None:
    """One line for the terminal: the estimate, the lag and the client time per call."""
    if section is None:
        return None

    def ms(spread: Spread | None) -> str:
        if spread is None or spread.p50 is None:
            return "n/a"
        return f"p50 {spread.p50:.0f} ms, p99 {spread.p99 or 0:.0f} ms"

    lagged = section.lagged_calls
    return (
        ("measurement (client saturated): " if section.saturated else "measurement: ")
        + f"recorded LLM latencies inflated by about {ms(section.inflation_ms)}"
        f" (event-loop lag {ms(section.loop_lag_ms)}"
        + (f"; {lagged} calls timed on a loop lagging over {WARN_P99_MS:g} ms" if lagged else "")
        + f"); client time per call kept out of llm_ms {ms(section.client_ms)};"
        f" {section.wire_calls} of {section.calls} calls timed at the wire"
    )
