"""Plug-in Agents for batch tests (``python:batch_agents:NAME``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from supportsim.conversation import AgentContext, AgentStep, Message


class Broken:
    """An Agent with a bug: every step raises."""

    name = "broken"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        raise RuntimeError("bug in the agent under test")


class Polite:
    """Answers every message politely and does nothing else: a scored, failing Agent
    labelled by its ``name`` attribute."""

    name = "polite"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep(content="Thank you for your message. How else can I help today?")


def answer_graph() -> Any:
    """A LangGraph Agent with no model: one node that answers. Its compiled graph's
    ``name`` ("answer-graph") is its label."""
    from langchain_core.messages import AIMessage
    from langgraph.graph import END, START, MessagesState, StateGraph

    def answer(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("I have noted your request.")]}

    graph = StateGraph(MessagesState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile(name="answer-graph")
