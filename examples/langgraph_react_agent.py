"""A LangGraph ReAct Agent as teams write it: ``create_react_agent`` over a chat model,
with the scenario's tools handed in by supportsim.

supportsim calls ``build(tools=...)`` once per conversation. ``tools`` are the scenario's
tools as LangChain ``StructuredTool``s with the JSON schemas an LLM Agent is shown; when
the graph's ``ToolNode`` calls one, supportsim runs it on the scenario's Environment
(argument validation, injected faults, simulated latency, the call log the scorer reads)
and hands the result back. The graph runs isolated from supportsim's own graph: its
interrupts, checkpointer and recursion limit are its own.

Offline, against the mock LLM server (from the repository root; any key works)::

    supportsim mock-server --port 8765 --script examples/mock_script.yaml &
    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=offline \\
    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --agent langgraph:examples.langgraph_react_agent:build

Against a real model, set ``REACT_AGENT_MODEL`` (default ``mock-agent``) and the usual
``OPENAI_API_KEY``. Needs ``pip install langchain-openai``.
"""

from __future__ import annotations

import os
from typing import Any

from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent


def _model() -> ChatOpenAI:
    return ChatOpenAI(model=os.environ.get("REACT_AGENT_MODEL", "mock-agent"), max_retries=0)


def build(tools: list[Any]) -> Any:
    """The ReAct loop; its ToolNode calls supportsim's tools."""
    return create_react_agent(_model(), tools, name="react-agent")


def build_with_approval(tools: list[Any]) -> Any:
    """The same loop stopping before every tool call for approval (a human in the loop in
    production): the graph run ends at the interrupt, supportsim runs the calls and
    invokes the graph again with the results."""
    return create_react_agent(
        _model(),
        tools,
        interrupt_before=["tools"],
        checkpointer=InMemorySaver(),
        name="react-agent-approval",
    )
