"""Flatten a loaded run into the export tables' rows, one level at a time.

The run is read as the report reads it (``supportsim.report.load_run``): the last record
of each unit, rescored verdicts in place, units outside run.json's plan left out; so an
export and the report count the same conversations. Units that were not scored (infra
errors, simulator faults, harness errors) are rows of the unit table with their status,
and ``strict`` / ``partial`` empty, so a mean over the column is over scored units only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import orjson

from supportsim.export._columns import Level
from supportsim.report import RunData
from supportsim.store import CallLogRecord, ConversationRecord, MessageRecord

Row = dict[str, Any]


def json_text(value: Any) -> str:
    """``value`` as compact JSON text (non-JSON values as text, as the record stores them)."""
    return orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")


def _ids(run_id: str, r: ConversationRecord) -> Row:
    return {
        "run_id": run_id,
        "unit_id": r.unit_id,
        "scenario": r.scenario_id,
        "agent": r.agent,
        "trial": r.trial,
    }


def _known_sum(values: Sequence[int | None]) -> int | None:
    """The sum when every value is known; None when one is not (unknown is not zero)."""
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)


def unit_row(run_id: str, r: ConversationRecord) -> Row:
    scored = r.status == "completed"
    replies = [m.response_ms for m in r.messages if m.role == "agent" and m.response_ms is not None]
    agent_calls = [c for c in r.llm_calls if c.role == "agent"]
    return {
        **_ids(run_id, r),
        "domain": r.domain,
        "category": r.category,
        "tags": json_text(r.tags),
        "language": r.language,
        "customer": r.customer,
        "status": r.status,
        "termination": r.termination,
        "end_reason": r.end_reason,
        "strict": r.strict if scored else None,
        "partial": r.partial if scored else None,
        "checks": len(r.checks),
        "checks_failed": sum(not c.passed for c in r.checks),
        "messages": len(r.messages),
        "turns": sum(m.role == "customer" for m in r.messages),
        "tool_calls": sum(len(m.tool_calls) for m in r.messages if m.role == "agent"),
        "response_ms_mean": sum(replies) / len(replies) if replies else None,
        "response_ms_max": max(replies, default=None),
        "input_tokens": _known_sum([c.input_tokens for c in agent_calls]),
        "output_tokens": _known_sum([c.output_tokens for c in agent_calls]),
        "cost_usd": r.cost_usd,
        "agent_cost_usd": r.agent_cost_usd,
        "customer_cost_usd": r.customer_cost_usd,
        "simulator_faults": json_text(r.simulator_faults),
        "error": r.error,
        "started_at": r.started_at,
        "ended_at": r.ended_at,
        "duration_s": r.duration_s,
        "scenario_sha256": r.scenario_sha256,
    }


def message_rows(run_id: str, r: ConversationRecord) -> Iterator[Row]:
    ids = _ids(run_id, r)
    for index, m in enumerate(r.messages):
        yield {
            **ids,
            "index": index,
            "turn": m.turn,
            "role": m.role,
            "text": m.content,
            "tool_calls": json_text([c.model_dump() for c in m.tool_calls]),
            "tool_call_id": m.tool_call_id,
            "tool_name": m.name if m.role == "tool" else None,
            "is_error": m.is_error if m.role == "tool" else None,
            "fault": m.fault,
            "response_ms": m.response_ms,
            "llm_ms": m.llm_ms,
            "tool_ms": m.tool_ms,
            "ttft_ms": m.ttft_ms,
            "input_tokens": m.input_tokens,
            "output_tokens": m.output_tokens,
            "cost_usd": m.cost_usd,
        }


def check_rows(run_id: str, r: ConversationRecord) -> Iterator[Row]:
    ids = _ids(run_id, r)
    for index, c in enumerate(r.checks):
        yield {
            **ids,
            "index": index,
            "name": c.id,
            "kind": c.kind,
            "passed": c.passed,
            "reason": c.reason,
            "weight": c.weight,
        }


def _logged(ids: Row, index: int, c: CallLogRecord) -> Row:
    return {
        **ids,
        "index": index,
        "call_id": c.call_id,
        "name": c.name,
        "arguments": None if c.arguments is None else json_text(c.arguments),
        "raw_arguments": c.raw_arguments,
        "ok": c.ok,
        "result": json_text(c.result),
        "error": c.error,
        "fault": c.fault,
        "tool_kind": c.kind,
        "tool_ms": c.tool_ms,
        "logged": True,
    }


def _parsed(text: str) -> Any:
    """JSON text as its value; text that is not JSON as itself."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return text


def _rebuilt(ids: Row, messages: Sequence[MessageRecord]) -> Iterator[Row]:
    """Calls of a record written before the call log was kept: each Agent tool call with
    the tool message that answered it (a call never answered is not ok)."""
    answers = {m.tool_call_id: m for m in messages if m.role == "tool" and m.tool_call_id}
    calls = [c for m in messages if m.role == "agent" for c in m.tool_calls]
    for index, call in enumerate(calls):
        answer = answers.get(call.id)
        arguments = _parsed(call.arguments)
        ok = answer is not None and not answer.is_error
        yield {
            **ids,
            "index": index,
            "call_id": call.id,
            "name": call.name,
            "arguments": json_text(arguments) if isinstance(arguments, dict) else None,
            "raw_arguments": call.arguments,
            "ok": ok,
            "result": json_text(_parsed(answer.content)) if ok and answer else None,
            "error": None if ok else (answer.content if answer else "no tool result recorded"),
            "fault": answer.fault if answer else None,
            "tool_kind": None,
            "tool_ms": answer.tool_ms if answer else None,
            "logged": False,
        }


def call_rows(run_id: str, r: ConversationRecord) -> Iterator[Row]:
    ids = _ids(run_id, r)
    if r.calls is None:
        yield from _rebuilt(ids, r.messages)
        return
    for index, c in enumerate(r.calls):
        yield _logged(ids, index, c)


def rows(run: RunData, level: Level) -> Iterator[Row]:
    """Every row of one level's table, units in the order they were recorded."""
    for r in run.records:
        if level == "unit":
            yield unit_row(run.run_id, r)
        elif level == "message":
            yield from message_rows(run.run_id, r)
        elif level == "check":
            yield from check_rows(run.run_id, r)
        else:
            yield from call_rows(run.run_id, r)
