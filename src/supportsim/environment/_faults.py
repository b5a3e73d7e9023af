"""Deterministic fault injection: the n-th call of a tool fails or returns bad data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from supportsim.scenario import Fault

FAILURE_MESSAGES = {
    "timeout": "timeout: the service did not answer within 30 s; the request was not applied",
    "server_error": "503 service unavailable: internal error; the request was not applied",
    "rate_limit": "429 too many requests: rate limited, retry in a moment; not applied",
}


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
