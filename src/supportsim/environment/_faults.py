"""Deterministic fault injection: the n-th call of a tool fails or returns bad data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from supportsim.scenario import Fault

DEFAULT_TIMEOUT_MS = 2000.0
"""How long a ``timeout`` fault takes when the scenario sets no ``latency_ms``. Short on
purpose: the wait is real, and a run of scenarios must not spend minutes sleeping. The
message tells the Agent the time it actually waited."""

FAILURE_MESSAGES = {
    "timeout": "timeout: the service did not answer within {seconds} s; the request was not"
    " applied",
    "server_error": "503 service unavailable: internal error; the request was not applied",
    "rate_limit": "429 too many requests: rate limited, retry in a moment; not applied",
}
"""What the Agent reads for a failing fault; ``{seconds}`` is the time the call took."""


def fault_latency_ms(fault: Fault) -> float:
    """Simulated time of a faulted call: the scenario's ``latency_ms``, else the default
    of its kind (``DEFAULT_TIMEOUT_MS`` for a timeout, 0 otherwise)."""
    if fault.latency_ms is not None:
        return fault.latency_ms
    return DEFAULT_TIMEOUT_MS if fault.fault == "timeout" else 0.0


def failure_message(fault: Fault) -> str | None:
    """The error a failing fault (timeout, server_error, rate_limit) returns, or None for
    faults whose call succeeds with bad data."""
    template = FAILURE_MESSAGES.get(fault.fault)
    if template is None:
        return None
    return template.format(seconds=f"{fault_latency_ms(fault) / 1000:g}")


def find_fault(faults: Sequence[Fault], tool: str, call_number: int) -> Fault | None:
    """The fault for the ``call_number``-th (1-based) call of ``tool``, if any."""
    for fault in faults:
        if fault.tool == tool and fault.call == call_number:
            return fault
    return None


def degrade(fault: Fault, fresh: Callable[[], Any], stale: Callable[[], Any]) -> Any:
    """The payload of a succeeding-but-wrong call (``stale`` or ``partial``)."""
    if fault.data is not None:
        return fault.data
    if fault.fault == "stale":
        return stale()
    return truncate(fresh())


def truncate(value: Any) -> Any:
    """Drop the second half of a result: list items, or a mapping's last keys."""
    if isinstance(value, list):
        return value[: max(0, len(value) // 2)]
    if isinstance(value, dict):
        lists = [k for k, v in value.items() if isinstance(v, list) and v]
        if lists:
            return {k: (truncate(v) if k in lists else v) for k, v in value.items()}
        keys = list(value)
        return {k: value[k] for k in keys[: max(1, (len(keys) + 1) // 2)]}
    return value
