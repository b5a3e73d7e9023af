"""Plug-ins of the right and the wrong shape (``python:contract_agents:NAME``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from supportsim.conversation import AgentContext, AgentStep, Message


class NoStep:
    name = "no-step"


class SyncStep:
    name = "sync-step"

    def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


class Named:
    name = "team-bot"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


class Unnamed:
    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


def exploding() -> Any:
    raise RuntimeError("no API key")


def uncompiled() -> Any:
    from langgraph.graph import END, START, MessagesState, StateGraph

    graph = StateGraph(MessagesState)
    graph.add_node("n", lambda s: {"messages": []})
    graph.add_edge(START, "n")
    graph.add_edge("n", END)
    return graph
