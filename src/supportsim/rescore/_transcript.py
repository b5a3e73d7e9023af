"""A stored record back into the Transcript the scorer reads (``rescore`` scores it
again; nothing is called)."""

from __future__ import annotations

from typing import Any

from supportsim.conversation import LLMCall, Message, Transcript
from supportsim.environment import CallRecord
from supportsim.llm import ToolCall
from supportsim.store import ConversationRecord, stored_wire


def transcript_from_record(
    record: ConversationRecord, final_state: dict[str, Any] | None = None
) -> Transcript:
    """The Transcript the scorer reads, rebuilt from a stored record.

    Call times are synthesised from ``tool_ms`` (the calls laid end to end from 0): the
    scorer orders calls by message position, never by clock.

    Raises:
        ValueError: the record has no call log or final state (written before they were
            kept).
    """
    final_state = final_state if final_state is not None else record.final_state
    if record.calls is None or final_state is None:
        raise ValueError(f"{record.unit_id}: the record has no call log or final state")
    messages = [
        Message(
            role=m.role,
            content=m.content,
            tool_calls=tuple(ToolCall(c.id, c.name, c.arguments) for c in m.tool_calls),
            tool_call_id=m.tool_call_id,
            name=m.name,
            is_error=m.is_error,
            fault=m.fault,
            reasoning=m.reasoning,
            turn=m.turn,
            response_ms=m.response_ms,
            llm_ms=m.llm_ms,
            tool_ms=m.tool_ms,
            ttft_ms=m.ttft_ms,
            input_tokens=m.input_tokens,
            output_tokens=m.output_tokens,
            cost_usd=m.cost_usd,
            cached=m.cached,
            loop_lag_ms=m.loop_lag_ms,
        )
        for m in record.messages
    ]
    calls, clock = [], 0.0
    for c in record.calls:
        started, clock = clock, clock + c.tool_ms / 1000.0
        calls.append(
            CallRecord(
                index=c.index,
                call_id=c.call_id,
                name=c.name,
                raw_arguments=c.raw_arguments,
                arguments=c.arguments,
                ok=c.ok,
                result=c.result,
                error=c.error,
                fault=c.fault,
                kind=c.kind,
                started_s=started,
                ended_s=clock,
            )
        )
    return Transcript(
        messages=messages,
        calls=calls,
        final_state=final_state,
        termination=record.termination,
        end_reason=record.end_reason,
        llm_calls=[
            LLMCall(
                c.role,
                c.model,
                c.llm_ms,
                c.ttft_ms,
                c.input_tokens,
                c.output_tokens,
                c.cost_usd,
                c.cached,
                c.client_ms,
                stored_wire(c),
                loop_lag_ms=c.loop_lag_ms,
            )
            for c in record.llm_calls
            if c.role != "judge"
        ],
        simulator_faults=list(record.simulator_faults),
        status=record.status,
        error=record.error,
    )
