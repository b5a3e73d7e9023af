"""The contract of a plugged-in Agent, checked at its edge.

A ``python:`` or ``langgraph:`` Agent is someone else's code: it may return ``None`` as
its content (what the OpenAI SDK gives on a tool-call turn), a dict of arguments, a list
of calls, or something that is no ``AgentStep`` at all, and it may raise. ``CheckedAgent``
normalises what is unambiguous and turns everything else into an ``AgentFault`` whose
message says what was wrong, so the unit becomes a ``harness_error`` with a reason a
person can act on (the traceback is kept beside it) and the batch goes on.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from supportsim.conversation._participants import Agent, AgentContext, AgentStep
from supportsim.conversation._transcript import LLMCall, Message
from supportsim.errors import ProviderError, SupportsimError
from supportsim.llm import ToolCall


class AgentFault(SupportsimError):
    """A plugged-in Agent broke its contract or raised: the unit is a harness error whose
    reason is this message (``run_conversation`` keeps the traceback in ``error``)."""


def _kind(value: object) -> str:
    text = repr(value)
    short = text if len(text) <= 60 else text[:57] + "..."
    return f"{type(value).__name__} ({short})" if value is not None else "None"


def _arguments(raw: object, where: str) -> str:
    if isinstance(raw, str):
        return raw
    if raw is None:
        return "{}"
    if isinstance(raw, Mapping):
        try:
            return orjson.dumps(dict(raw)).decode()
        except TypeError as exc:
            raise AgentFault(f"{where}.arguments must be JSON-serialisable: {exc}") from None
    raise AgentFault(f"{where}.arguments must be a JSON string or a dict, got {_kind(raw)}")


def _tool_call(raw: object, where: str, fallback_id: str) -> ToolCall:
    if not isinstance(raw, ToolCall):
        raise AgentFault(f"{where} must be a supportsim.llm.ToolCall, got {_kind(raw)}")
    if not isinstance(raw.name, str) or not raw.name:
        raise AgentFault(f"{where}.name must be a non-empty string, got {_kind(raw.name)}")
    call_id = raw.id
    if call_id is None or call_id == "":
        call_id = fallback_id
    elif not isinstance(call_id, str):
        raise AgentFault(f"{where}.id must be a string, got {_kind(call_id)}")
    return ToolCall(call_id, raw.name, _arguments(raw.arguments, where))


def checked_step(value: object, *, call_prefix: str = "call") -> AgentStep:
    """``value`` as a valid AgentStep: None content becomes "", dict arguments become JSON
    text, a list of calls a tuple, a missing call id ``<call_prefix>-<n>``.

    Raises:
        AgentFault: Anything else, naming the field and what it got.
    """
    if not isinstance(value, AgentStep):
        raise AgentFault(f"step must return an AgentStep, got {_kind(value)}")
    content = value.content
    if content is None:
        content = ""
    elif not isinstance(content, str):
        raise AgentFault(f"AgentStep.content must be a string or empty, got {_kind(content)}")
    calls: Any = value.tool_calls
    if calls is None:
        calls = ()
    elif isinstance(calls, str | bytes | Mapping) or not isinstance(calls, Sequence):
        raise AgentFault(
            f"AgentStep.tool_calls must be a tuple or list of ToolCall, got {_kind(calls)}"
        )
    tool_calls = tuple(
        _tool_call(c, f"AgentStep.tool_calls[{i}]", f"{call_prefix}-{i}")
        for i, c in enumerate(calls)
    )
    for field in ("reasoning", "reasoning_signature"):
        got = getattr(value, field)
        if got is not None and not isinstance(got, str):
            raise AgentFault(f"AgentStep.{field} must be a string or None, got {_kind(got)}")
    if value.llm is not None and not isinstance(value.llm, LLMCall):
        raise AgentFault(f"AgentStep.llm must be an LLMCall or None, got {_kind(value.llm)}")
    if (
        content is value.content
        and tool_calls == value.tool_calls
        and isinstance(value.tool_calls, tuple)
    ):
        return value
    return AgentStep(
        content=content,
        tool_calls=tool_calls,
        reasoning=value.reasoning,
        reasoning_signature=value.reasoning_signature,
        llm=value.llm,
    )


class CheckedAgent:
    """A plugged-in Agent behind its contract check (see the module docstring)."""

    def __init__(self, inner: Agent, name: str) -> None:
        self.name = name
        self.inner = inner
        self._steps = 0

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        self._steps += 1
        try:
            value = await self.inner.step(context, history)
        except (AgentFault, ProviderError):
            raise
        except Exception as exc:  # the Agent's own bug: its unit's reason, not ours
            raise AgentFault(
                f"agent {self.name!r} raised {type(exc).__name__}: {exc}".rstrip(": ")
            ) from exc
        try:
            return checked_step(value, call_prefix=f"call-{self._steps}")
        except AgentFault as exc:
            raise AgentFault(f"agent {self.name!r}: {exc}") from None

    async def aclose(self) -> None:
        """Let the Agent release what a conversation left running (a LangGraph run)."""
        close = getattr(self.inner, "aclose", None)
        if close is not None and inspect.iscoroutinefunction(close):
            await close()
