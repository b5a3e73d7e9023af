"""A plug-in Agent for the gate tests (``python:gate_agents:Unhelpful``)."""

from __future__ import annotations

from collections.abc import Sequence

from supportsim.conversation import AgentContext, AgentStep, Message


class Unhelpful:
    """Completes every conversation and does none of the workflow: strict 0."""

    name = "unhelpful"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep(content="Sorry, I cannot help with that.")
