"""The tool runtime: dispatch, argument validation, fault injection, simulated latency, log.

One Environment per conversation. ``call`` never raises for anything the Agent did
(unknown tool, malformed JSON, invalid arguments, a policy refusal, an injected fault):
those become error results the Agent reads. A bug inside a tool does raise, so the
conversation is recorded as a harness error instead of blaming the Agent.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from supportsim._tracing import traced_tool_call
from supportsim.domains import Domain, DomainState, Tool
from supportsim.environment._calls import CallRecord, ToolResult
from supportsim.environment._faults import (
    degrade,
    failure_message,
    fault_latency_ms,
    find_fault,
)
from supportsim.environment._mock_tools import build_mock_tool
from supportsim.errors import ToolError
from supportsim.scenario import Scenario

Clock = Callable[[], float]

BLOCKING_LIMIT_S = 1.0
"""Longest a plain (synchronous) tool may hold the shared event loop."""


class BlockingToolError(RuntimeError):
    """A synchronous tool stalled the event loop: a harness error, never the Agent's."""


Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ToolSchema:
    """A tool as an Agent is shown it (``AgentContext.tools``): what an LLM Agent's
    provider receives as a function definition, converted per provider (OpenAI's
    ``function.parameters``, Anthropic's ``input_schema``).

    Attributes:
        name: What a ``ToolCall`` names to call it (``get_customer``).
        description: The tool's text for the Agent: what it does and when to use it (a
            domain tool's docstring).
        parameters: The JSON Schema of the arguments, an object schema:
            ``{"type": "object", "properties": {...}, "required": [...],
            "additionalProperties": false}``. Arguments are sent as JSON text matching it
            (``ToolCall.arguments``); a call that does not match comes back to the Agent as
            an error result it can recover from.
    """

    name: str
    description: str
    parameters: dict[str, Any]


def scenario_tools(domain: Domain, scenario: Scenario) -> dict[str, Tool]:
    """The tools the scenario permits: its list (or all the domain's) plus its mock tools."""
    every = {**domain.tools, **{m.name: build_mock_tool(m) for m in scenario.mock_tools}}
    names = scenario.tools if scenario.tools is not None else list(every)
    return {name: every[name] for name in names}


class Environment:
    """The stateful world one conversation's Agent acts on.

    Args:
        domain: the scenario's domain.
        scenario: supplies the initial state, permitted tools, faults and latencies.
        clock: monotonic seconds (injected so tests control time).
        sleep: awaited for simulated tool latency (tests pass a fake).
    """

    def __init__(
        self,
        domain: Domain,
        scenario: Scenario,
        *,
        clock: Clock = time.perf_counter,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.domain = domain
        self.scenario = scenario
        self.tools = scenario_tools(domain, scenario)
        self.state: DomainState = domain.initial_state(scenario.state)
        # Only a stale fault without data reads the initial state again (``_stale``): no
        # other conversation pays a deep copy of its state.
        self._initial = (
            self.state.model_copy(deep=True)
            if any(f.fault == "stale" and f.data is None for f in scenario.faults)
            else None
        )
        self._clock = clock
        self._sleep = sleep
        self._counts: dict[str, int] = {}
        self.calls: list[CallRecord] = []

    def schemas(self) -> list[ToolSchema]:
        """The permitted tools, in a stable order, for the Agent's tool list."""
        return [ToolSchema(t.name, t.description, t.parameters()) for t in self.tools.values()]

    def snapshot(self) -> dict[str, Any]:
        """The current state as plain JSON data."""
        return self.state.model_dump(mode="json")

    @traced_tool_call
    async def call(
        self, name: str, arguments: str | Mapping[str, Any], call_id: str = ""
    ) -> ToolResult:
        """Run one tool call and log it. Raises only on a bug in a tool (harness error)."""
        started = self._clock()
        raw = arguments if isinstance(arguments, str) else orjson.dumps(dict(arguments)).decode()
        tool = self.tools.get(name)
        if tool is None:
            known = ", ".join(self.tools)
            return self._log(
                call_id,
                name,
                raw,
                None,
                None,
                f"unknown tool {name!r}; tools: {known}",
                None,
                None,
                started,
            )
        parsed, error = _parse_arguments(raw)
        if parsed is None:
            return self._log(call_id, name, raw, None, None, error, None, tool.kind, started)
        try:
            args = tool.args_model.model_validate(parsed)
        except ValidationError as exc:
            return self._log(
                call_id, name, raw, parsed, None, _argument_errors(exc), None, tool.kind, started
            )
        self._counts[name] = number = self._counts.get(name, 0) + 1
        fault = find_fault(self.scenario.faults, name, number)
        latency_ms = self.scenario.tool_latency_ms.get(name, 0.0) + (
            fault_latency_ms(fault) if fault else 0
        )
        if latency_ms:
            await self._sleep(latency_ms / 1000.0)
        if fault is not None and (failure := failure_message(fault)) is not None:
            return self._log(
                call_id,
                name,
                raw,
                parsed,
                None,
                failure,
                fault.fault,
                tool.kind,
                started,
            )
        try:
            result = await self._run(tool, args)
        except ToolError as exc:
            return self._log(call_id, name, raw, parsed, None, str(exc), None, tool.kind, started)
        if fault is not None:
            wants_stale = fault.fault == "stale" and fault.data is None
            stale = await self._stale(tool, args, result) if wants_stale else result
            result = degrade(fault, lambda: result, lambda: stale)
        return self._log(
            call_id,
            name,
            raw,
            parsed,
            result,
            None,
            fault.fault if fault else None,
            tool.kind,
            started,
        )

    async def _stale(self, tool: Tool, args: Any, fresh: Any) -> Any:
        """The call's result on the initial data (this conversation's session kept, so an
        identity check already passed still counts); the fresh result if that refuses."""
        assert self._initial is not None  # kept when the scenario has such a fault
        old = self._initial.model_copy(deep=True)
        old.session = self.state.session.model_copy(deep=True)
        try:
            return await self._invoke(tool, old, args)
        except ToolError:
            return fresh

    async def _run(self, tool: Tool, args: Any) -> Any:
        if tool.kind == "read":
            return await self._invoke(tool, self.state, args)
        # Write tools should refuse before mutating; the copy makes a refusal atomic anyway.
        before = self.state.model_copy(deep=True)
        try:
            return await self._invoke(tool, self.state, args)
        except ToolError:
            self.state = before
            raise

    async def _invoke(self, tool: Tool, state: DomainState, args: Any) -> Any:
        """Await an ``async`` tool (it may call a real service); time a plain one.

        A plain tool runs on the event loop every conversation shares, so it must be a
        quick in-memory function: one that holds the loop longer than ``BLOCKING_LIMIT_S``
        is a harness error naming the tool (make it ``async def``), not a silent stall of
        every other conversation's latency."""
        if inspect.iscoroutinefunction(tool.run):  # tool.is_async, in a form mypy narrows by
            return await tool.run(state, args)
        began = self._clock()
        result = tool.run(state, args)
        held = self._clock() - began
        if held > BLOCKING_LIMIT_S:
            raise BlockingToolError(
                f"tool {tool.name} held the event loop for {held:.2f} s (limit "
                f"{BLOCKING_LIMIT_S:g} s): a tool that does I/O must be async def"
            )
        return result

    def _log(
        self,
        call_id: str,
        name: str,
        raw: str,
        parsed: dict[str, Any] | None,
        result: Any,
        error: str | None,
        fault: Any,
        kind: Any,
        started: float,
    ) -> ToolResult:
        record = CallRecord(
            index=len(self.calls),
            call_id=call_id,
            name=name,
            raw_arguments=raw,
            arguments=parsed,
            ok=error is None,
            result=result,
            error=error,
            fault=fault,
            kind=kind,
            started_s=started,
            ended_s=self._clock(),
        )
        self.calls.append(record)
        if error is not None:
            return ToolResult(orjson.dumps({"error": error}).decode(), True, record)
        return ToolResult(orjson.dumps(result, default=str).decode(), False, record)


def _parse_arguments(raw: str) -> tuple[dict[str, Any] | None, str]:
    try:
        value = orjson.loads(raw or "{}")
    except orjson.JSONDecodeError as exc:
        return None, f"arguments are not valid JSON ({exc}); send a JSON object"
    if not isinstance(value, dict):
        return None, "arguments must be a JSON object"
    return value, ""


def _argument_errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        field = ".".join(str(p) for p in err["loc"]) or "arguments"
        message = "unknown argument" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"{field}: {message}")
    return "invalid arguments: " + "; ".join(parts)
