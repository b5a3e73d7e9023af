"""The run's concurrency as one value: where the gate starts, and how far it may move.

``--concurrency`` is a number, ``auto`` or ``auto:N``:

* ``N``: N conversations in flight, fixed (start = floor = ceiling = N);
* ``auto:N``: the auto controller (``_jobs.JobRunner``) moves the gate between
  ``AUTO_FLOOR`` and N, starting at ``AUTO_START`` (both capped at N): down when the event
  loop lags, up while it keeps up, so the latencies it records stay honest and the run
  never has more than N conversations in flight;
* ``auto``: ``auto:AUTO_CEILING``.

The value is resolved once per session, where the run is planned (``prepare_run``:
``RunConfig.bounds``), kept as ``Session.concurrency`` and passed down; everything that
depends on the run's concurrency reads its fields: the gate and its controller
(``JobRunner``), the endpoints' default in-flight limit (``build_context``: calls in flight
cannot exceed conversations in flight, so the ceiling), how many workers ``--workers
auto`` starts (``worker_count``), when a worker's rate limiter cannot make a call wait
(``Hub.open_at``), and each worker's own pool (sent in its set-up, not resolved again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

AUTO_START, AUTO_FLOOR, AUTO_CEILING = 16, 4, 1024
MAX_CONCURRENCY = 4096
_AUTO = re.compile(r"auto(?::(\d+))?")
RULE = f"a number from 1 to {MAX_CONCURRENCY}, auto, or auto:N (N the most in flight)"


@dataclass(frozen=True, slots=True)
class Concurrency:
    """Conversations in flight: the gate's ``start`` and the range it may move in."""

    start: int
    floor: int
    ceiling: int
    auto: bool

    @classmethod
    def of(cls, value: int | str) -> Concurrency:
        """The value of a ``RunConfig.concurrency`` (already checked by ``check``)."""
        checked = check(value)
        if isinstance(checked, int):
            return cls(checked, checked, checked, auto=False)
        match = _AUTO.fullmatch(checked)
        assert match is not None
        ceiling = int(match.group(1)) if match.group(1) else AUTO_CEILING
        return cls(min(AUTO_START, ceiling), min(AUTO_FLOOR, ceiling), ceiling, auto=True)


def check(value: object) -> int | str:
    """``value`` as a config keeps it: an int, ``auto`` or ``auto:N`` (digits become an
    int, ``auto:N`` keeps its spelling).

    Raises:
        ValueError: saying what is accepted (pydantic names the field).
    """
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if 1 <= value <= MAX_CONCURRENCY:
            return value
    elif isinstance(value, str):
        text = value.strip()
        match = _AUTO.fullmatch(text)
        if match is not None and (
            match.group(1) is None or 1 <= int(match.group(1)) <= MAX_CONCURRENCY
        ):
            return text
    raise ValueError(f"must be {RULE} (got {value!r})")
