"""What a record keeps of a conversation as it happened: the messages (with their
timings and tool calls), the environment's tool call log, and the model calls with their
wire stamps; the field maps ``build_record`` writes them from, and ``stored_wire`` reading
the stamps back."""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import Field

from supportsim.conversation import Message
from supportsim.domains import ToolKind
from supportsim.environment import CallRecord
from supportsim.llm import WireTiming
from supportsim.scenario import FaultKind
from supportsim.store._customer_records import (
    _Record,
)


class ToolCallRecord(_Record):
    id: str
    name: str
    arguments: str


class MessageRecord(_Record):
    role: Literal["customer", "agent", "tool"]
    content: str = ""
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    fault: str | None = None
    reasoning: str | None = None
    turn: int = 0
    response_ms: float | None = None
    llm_ms: float | None = None
    tool_ms: float | None = None
    ttft_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cached: bool = False
    """The message's model call (or one in its turn) came from the response cache."""
    loop_lag_ms: float | None = None
    """The event loop's lag seen while the message was timed: the largest lag of the
    loop-lag monitor's samples (every 100 ms) whose period overlaps the message's window
    (an Agent reply's: its whole turn, what ``response_ms`` covers; a message with tool
    calls: its step; a tool result: the call), on the loop that ran the conversation (a
    worker's own, with workers). Over 10 ms, this message's latencies are inflated by
    about that much. null when no monitor ran (and in records written before it was kept)."""


class CallLogRecord(_Record):
    """One entry of the environment's tool call log, as the scorer reads it.

    ``result`` is the JSON the Agent was sent (what the tool returned, non-JSON values as
    text); ``tool_ms`` stands in for the monotonic start and end times, which mean nothing
    outside the process that ran the conversation.
    """

    index: int
    call_id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any] | None = None
    ok: bool
    result: Any = None
    error: str | None = None
    fault: FaultKind | None = None
    kind: ToolKind | None = None
    tool_ms: float = 0.0


class LLMCallRecord(_Record):
    role: Literal["agent", "customer", "judge"]
    model: str
    llm_ms: float
    ttft_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cached: bool = False
    """Answered from the response cache (``--cache``): no cost, no latency measured."""
    client_ms: float | None = None
    """The call's time in this process outside ``llm_ms``: building and serialising the
    request, the SDK's request steps, waiting for a connection, writing the head; parsing
    the last chunk and building the reply (a whole JSON answer's parsing too); the loop's
    lag in those spans. Not rate-limit waits or retries. null without wire stamps (and in
    records written before they were kept); ``llm_ms`` is then the whole call."""
    sent_ms: float | None = None
    """Request handed to the socket, ms after the client began the call (wire stamp)."""
    first_byte_ms: float | None = None
    """Response head read, ms after the client began the call (wire stamp)."""
    last_byte_ms: float | None = None
    """Response body's last chunk came in, ms after the client began the call (wire stamp)."""
    loop_lag_ms: float | None = None
    """The event loop's lag seen during the step that made the call (the message's rule:
    the worst sample overlapping it); null when no monitor ran, and in older records."""


def message_fields(m: Message) -> dict[str, Any]:
    return {
        "role": m.role,
        "content": m.content,
        "tool_calls": [
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in m.tool_calls
        ],
        "tool_call_id": m.tool_call_id,
        "name": m.name,
        "is_error": m.is_error,
        "fault": m.fault,
        "reasoning": m.reasoning,
        "turn": m.turn,
        "response_ms": m.response_ms,
        "llm_ms": m.llm_ms,
        "tool_ms": m.tool_ms,
        "ttft_ms": m.ttft_ms,
        "input_tokens": m.input_tokens,
        "output_tokens": m.output_tokens,
        "cost_usd": m.cost_usd,
        "cached": m.cached,
        "loop_lag_ms": m.loop_lag_ms,
    }


def plain_json(value: Any) -> Any:
    """``value`` as the plain JSON the Agent was sent (the runtime serialises tool results
    with ``default=str``), so every record can be written and read back the same."""
    return orjson.loads(orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS))


def call_fields(c: CallRecord) -> dict[str, Any]:
    return {
        "index": c.index,
        "call_id": c.call_id,
        "name": c.name,
        "raw_arguments": c.raw_arguments,
        "arguments": plain_json(c.arguments) if c.arguments is not None else None,
        "ok": c.ok,
        "result": plain_json(c.result),
        "error": c.error,
        "fault": c.fault,
        "kind": c.kind,
        "tool_ms": c.tool_ms,
    }


def wire_fields(wire: WireTiming | None) -> dict[str, float]:
    if wire is None:
        return {}
    return {
        "sent_ms": wire.sent_ms,
        "first_byte_ms": wire.first_byte_ms,
        "last_byte_ms": wire.last_byte_ms,
    }


def stored_wire(call: LLMCallRecord) -> WireTiming | None:
    """The wire stamps a record kept for a call, or None (none kept, an older record)."""
    if None in (call.sent_ms, call.first_byte_ms, call.last_byte_ms, call.client_ms):
        return None
    return WireTiming(
        sent_ms=call.sent_ms,  # type: ignore[arg-type]
        first_byte_ms=call.first_byte_ms,  # type: ignore[arg-type]
        last_byte_ms=call.last_byte_ms,  # type: ignore[arg-type]
        total_ms=call.llm_ms + call.client_ms,  # type: ignore[operator]
    )
