"""Plug-in Agents: any Python object, or a compiled LangGraph graph.

``python:package.module:attr`` names a class or factory returning an object with the
``Agent`` protocol (``async step(context, history) -> AgentStep``); it is called once per
conversation, so per-conversation state is safe.

``langgraph:package.module:attr`` names a factory returning a compiled LangGraph graph
over a ``messages`` state (LangChain messages); a factory with a ``tools`` parameter is
given the scenario's tools as LangChain tools run by the Environment (``_langgraph.py``),
one with an ``mcp_url`` parameter the conversation's MCP session URL (it may be
``async def``, to load its tools with ``langchain-mcp-adapters``). A python Agent with
``tools = "mcp"`` gets that URL as ``context.mcp_url`` instead of tool schemas.

Targets are imported with the current directory on ``sys.path`` (as ``uvicorn`` and
``gunicorn`` do), so ``supportsim run --agent python:examples.python_agent:RuleAgent`` works
from a checkout: a console script's ``sys.path`` does not otherwise include it.
"""

from __future__ import annotations

import inspect
from typing import Any

from supportsim._imports import import_target
from supportsim.conversation._checked import AgentFault, CheckedAgent
from supportsim.conversation._langgraph import LangGraphAgent
from supportsim.conversation._participants import Agent
from supportsim.errors import InputError


def load_object(target: str) -> Any:
    """Import ``package.module:attr`` (InputError with the reason if it cannot)."""
    try:
        value = import_target(target)
    except ValueError as exc:
        raise InputError(str(exc)) from exc.__cause__
    if not callable(value):
        raise InputError(f"{target!r}: expected a class or factory, got {type(value).__name__}")
    return value


def agent_problem(agent: object) -> str | None:
    """Why ``agent`` cannot be an Agent, or None: it needs an ``async def step(context,
    history)`` (a ``name`` is optional: the label is the spec then)."""
    step = getattr(agent, "step", None)
    if step is None:
        return (
            f"{type(agent).__name__} has no step method (an Agent needs "
            "async def step(self, context, history) -> AgentStep)"
        )
    if not callable(step):
        return f"{type(agent).__name__}.step is not a method (got {type(step).__name__})"
    if not inspect.iscoroutinefunction(step):
        return f"{type(agent).__name__}.step must be async (write async def step(...))"
    try:
        inspect.signature(step).bind(None, ())
    except TypeError as exc:
        return f"{type(agent).__name__}.step cannot be called as step(context, history): {exc}"
    except ValueError:  # no signature to read (a builtin): let the first call tell
        return None
    return None


def new_python_agent(target: str) -> Any:
    """Call the factory once and check the shape of what it returns.

    Raises:
        InputError: The factory raised, or returned something that is not an Agent.
    """
    factory = load_object(target)
    try:
        agent = factory()
    except Exception as exc:
        raise InputError(f"{target}: calling it raised {type(exc).__name__}: {exc}") from exc
    if (problem := agent_problem(agent)) is not None:
        raise InputError(f"{target} did not return an Agent: {problem}")
    return agent


def agent_name(agent: object) -> str | None:
    """The Agent's own ``name`` attribute, if it has a non-empty one."""
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) and name else None


def python_agent(target: str, label: str) -> Agent:
    """A fresh Agent from a Python factory (class or function), behind its contract check."""
    try:
        agent = new_python_agent(target)
    except InputError as exc:  # it passed at start-up: this unit alone is broken
        raise AgentFault(str(exc)) from exc
    return CheckedAgent(agent, label)


FACTORY_PARAMS = ("tools", "mcp_url")
"""What a langgraph factory may ask for by naming a parameter: ``tools`` (the scenario's
tools as LangChain tools bound to the conversation's Environment) and ``mcp_url`` (the
conversation's MCP session URL)."""


def factory_params(target: str) -> frozenset[str]:
    """Which of ``FACTORY_PARAMS`` the factory at ``target`` takes (by keyword)."""
    factory = load_object(target)
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return frozenset()
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return frozenset(
        name
        for name in FACTORY_PARAMS
        if (p := parameters.get(name)) is not None and p.kind in keyword
    )


def graph_problem(graph: object) -> str | None:
    """Why ``graph`` cannot be run as a LangGraph Agent, or None."""
    if type(graph).__name__ == "StateGraph":
        return "it returned an uncompiled StateGraph (return graph.compile())"
    if not inspect.iscoroutinefunction(getattr(graph, "ainvoke", None)):
        return f"it returned {type(graph).__name__}, not a compiled graph (no async ainvoke)"
    return None


def new_graph(target: str) -> Any:
    """Call the factory once and check that it returns a compiled graph.

    Raises:
        InputError: The factory raised, or returned no compiled graph.
    """
    factory = load_object(target)
    try:
        graph = factory()
    except Exception as exc:
        raise InputError(f"{target}: calling it raised {type(exc).__name__}: {exc}") from exc
    if (problem := graph_problem(graph)) is not None:
        raise InputError(f"{target} did not return a compiled LangGraph graph: {problem}")
    return graph


def graph_name(graph: object) -> str | None:
    """A graph's own name, unless it is LangGraph's default."""
    name = agent_name(graph)
    return None if name in (None, "LangGraph") else name


def langgraph_agent(target: str, label: str) -> Agent:
    """A fresh LangGraph Agent from a factory returning a compiled graph (given the
    scenario's tools and/or the MCP URL on the first step, if it takes them)."""
    if params := factory_params(target):
        factory = load_object(target)
        return CheckedAgent(LangGraphAgent(None, label, factory=factory, wants=params), label)
    try:
        graph = new_graph(target)
    except InputError as exc:
        raise AgentFault(str(exc)) from exc
    return CheckedAgent(LangGraphAgent(graph, label), label)
