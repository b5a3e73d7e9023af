"""Plug-in Agents whose factories count their calls (``test_participants.py``).

Each call appends ``KIND PID`` to the file named by ``COUNT_FILE_ENV``, so calls made in
worker processes (which inherit the driver's environment) are counted with the driver's.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from batch_agents import answer_graph

from supportsim.conversation import AgentContext, AgentStep, Message

COUNT_FILE_ENV = "SUPPORTSIM_TEST_COUNT_FILE"


def _count(kind: str) -> None:
    path = os.environ.get(COUNT_FILE_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{kind} {os.getpid()}\n")


class _Answer:
    name = "counted-python"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep(content="Thank you for your message. How else can I help today?")


def counted_agent() -> _Answer:
    """A ``python:`` factory: one Agent per call, counted."""
    _count("python")
    return _Answer()


def counted_graph() -> Any:
    """A ``langgraph:`` factory (no ``tools`` or ``mcp_url``): one compiled graph per call
    (``batch_agents.answer_graph``, labelled ``answer-graph``), counted."""
    _count("langgraph")
    return answer_graph()
