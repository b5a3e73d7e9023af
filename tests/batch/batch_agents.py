"""Plug-in Agents for batch tests (``python:batch_agents:NAME``)."""

from __future__ import annotations

from collections.abc import Sequence

from supportsim.conversation import AgentContext, AgentStep, Message


class Broken:
    """An Agent with a bug: every step raises."""

    name = "broken"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        raise RuntimeError("bug in the agent under test")
