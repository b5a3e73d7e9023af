"""The call log: what the Agent asked of its tools and what happened, in order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from supportsim.domains import ToolKind
from supportsim.scenario import FaultKind


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One tool call as the scorer sees it.

    ``ok`` is true when the tool carried the call out; argument errors, unknown tools,
    refusals (ToolError) and injected failure faults are ``ok=False`` with ``error`` set.
    """

    index: int
    call_id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any] | None
    ok: bool
    result: Any
    error: str | None
    fault: FaultKind | None
    kind: ToolKind | None
    started_s: float
    ended_s: float

    @property
    def tool_ms(self) -> float:
        return (self.ended_s - self.started_s) * 1000.0


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What goes back to the Agent: JSON text, and whether it is an error."""

    content: str
    is_error: bool
    record: CallRecord
