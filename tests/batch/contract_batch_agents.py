"""Plug-ins with contract problems, for batch runs (``python:contract_batch_agents:NAME``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from supportsim.conversation import AgentContext, AgentStep, Message
from supportsim.llm import ToolCall


class SdkStyle:
    """Verifies and lists charges the way a naive OpenAI SDK wrapper would: None content on
    tool-call turns, arguments as dicts, a list of calls."""

    name = "sdk-style"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        last = history[-1]
        if last.role == "tool":
            if last.name == "verify_identity":
                call = ToolCall("c2", "list_charges", {"customer_id": "C-1"})  # type: ignore[arg-type]
                return AgentStep(content=None, tool_calls=[call])  # type: ignore[arg-type]
            return AgentStep("You have two charges, CH-1 and CH-2, of 30 USD each.")
        if "4321" in last.content:
            args = {"customer_id": "C-1", "pin": "4321"}
            call = ToolCall("c1", "verify_identity", args)  # type: ignore[arg-type]
            return AgentStep(content=None, tool_calls=[call])  # type: ignore[arg-type]
        return AgentStep("Sure, what are your customer id and PIN?")


class ReturnsText:
    """Returns a plain string instead of an AgentStep."""

    name = "returns-text"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> Any:
        return "Hello!"


class SyncStep:
    name = "sync-step"

    def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


class Polite:
    name = "polite"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("Hello!")
