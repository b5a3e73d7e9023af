"""Plug-in Agents: any Python object, or a compiled LangGraph graph.

``python:package.module:attr`` names a class or factory returning an object with the
``Agent`` protocol (``async step(context, history) -> AgentStep``); it is called once per
conversation, so per-conversation state is safe.

``langgraph:package.module:attr`` names a factory returning a compiled LangGraph graph
over a ``messages`` state (LangChain messages), e.g. ``create_react_agent(...)`` compiled
with ``interrupt_before=["tools"]``, or any graph whose last AI message carries the tool
calls it wants made. supportsim executes those calls against the scenario's Environment
(so faults, timing and the call log apply) and invokes the graph again with the results.

Targets are imported with the current directory on ``sys.path`` (as ``uvicorn`` and
``gunicorn`` do), so ``supportsim run --agent python:examples.python_agent:RuleAgent`` works
from a checkout: a console script's ``sys.path`` does not otherwise include it.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import orjson

from supportsim.conversation._participants import Agent, AgentContext, AgentStep
from supportsim.conversation._transcript import Message
from supportsim.errors import InputError
from supportsim.llm import ToolCall


def load_object(target: str) -> Any:
    """Import ``package.module:attr`` (InputError with the reason if it cannot)."""
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise InputError(f"{target!r}: expected package.module:attribute")
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(f"{target!r}: cannot import {module_name}: {exc}") from exc
    try:
        value = getattr(module, attr)
    except AttributeError:
        raise InputError(f"{target!r}: {module_name} has no attribute {attr!r}") from None
    if not callable(value):
        raise InputError(f"{target!r}: expected a class or factory, got {type(value).__name__}")
    return value


def python_agent(target: str, label: str) -> Agent:
    """A fresh Agent from a Python factory (class or function)."""
    agent = load_object(target)()
    if not isinstance(agent, Agent):
        raise InputError(f"{target!r} did not return an Agent (needs name and async step)")
    return agent


class LangGraphAgent:
    """Runs a compiled LangGraph graph as the Agent: one ``ainvoke`` per step."""

    def __init__(self, graph: Any, name: str) -> None:
        self.name = name
        self._graph = graph

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        from langchain_core.messages import AIMessage

        sent = to_langchain(context, history)
        result = await self._graph.ainvoke({"messages": sent})
        # Only what this invocation added: the history's own AI messages are not a reply.
        old = {m.id for m in sent}
        replies = [m for m in result["messages"] if isinstance(m, AIMessage) and m.id not in old]
        if not replies:
            raise RuntimeError(f"the LangGraph graph {self.name!r} added no AI message")
        last = replies[-1]
        calls = tuple(
            ToolCall(
                c.get("id") or f"lg-{len(history)}-{i}",
                c["name"],
                orjson.dumps(c.get("args", {})).decode(),
            )
            for i, c in enumerate(last.tool_calls)
        )
        content = last.content if isinstance(last.content, str) else _text(last.content)
        return AgentStep(content=content, tool_calls=calls)


def to_langchain(context: AgentContext, history: Sequence[Message]) -> list[Any]:
    """The transcript as LangChain messages, starting with the system prompt."""
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    # Stable ids: LangGraph's add_messages keeps an id'd message, and the Agent tells its
    # new messages from the history by id.
    out: list[Any] = [SystemMessage(context.system_prompt, id="supportsim-system")]
    for i, m in enumerate(history):
        mid = f"supportsim-{i}"
        if m.role == "customer":
            out.append(HumanMessage(m.content, id=mid))
        elif m.role == "agent":
            calls = [{"id": c.id, "name": c.name, "args": _args(c.arguments)} for c in m.tool_calls]
            out.append(AIMessage(m.content, tool_calls=calls, id=mid))
        else:
            out.append(
                ToolMessage(
                    m.content,
                    tool_call_id=m.tool_call_id or "",
                    name=m.name,
                    status="error" if m.is_error else "success",
                    id=mid,
                )
            )
    return out


def langgraph_agent(target: str, label: str) -> Agent:
    """A fresh LangGraph Agent from a factory returning a compiled graph."""
    graph = load_object(target)()
    if not callable(getattr(graph, "ainvoke", None)):
        raise InputError(f"{target!r} did not return a compiled LangGraph graph (no ainvoke)")
    return LangGraphAgent(graph, label)


def _args(raw: str) -> dict[str, Any]:
    try:
        value = orjson.loads(raw or "{}")
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _text(content: Any) -> str:
    parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
    return "".join(parts)
