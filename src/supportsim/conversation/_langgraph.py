"""LangGraph Agents as they are written: the user's graph, run isolated, reaching the
scenario's tools through our runtime.

Isolation. The user's graph runs in a task of its own, started with an empty
``contextvars.Context`` and an explicit fresh ``RunnableConfig``. LangChain hands a parent
run's config to anything invoked inside it through the ``var_child_runnable_config``
context variable (``ensure_config`` merges it), which is how a graph called from one of
our nodes used to inherit supportsim's own graph: its callbacks, checkpointer namespace,
recursion limit, and the ``GraphInterrupt`` of its ``interrupt_before`` that stopped our
conversation loop. With an empty context and a config holding only a ``thread_id`` of its
own (its checkpointer, if it has one, keeps to that thread), its interrupts, checkpointers
and recursion limits are its own: an interrupt ends that graph run, not the conversation.

Tools. A factory taking ``tools`` gets the scenario's tools as LangChain ``StructuredTool``s
with the very JSON schemas an LLM Agent is shown. Calling one (``ToolNode``,
``create_react_agent``) does not run anything in the graph's task: the call is handed to
the conversation, which executes it on the Environment as for any Agent (argument
validation, faults, latency, the call log, the transcript), and the result is handed back
to the waiting tool. So one ``step`` returns when the graph has called every supportsim
tool its latest AI message asked for (those calls are the step's tool calls), or when the
graph run ends (its last AI message is the step: a reply, or tool calls it left for us,
as ``interrupt_before=["tools"]`` does). Tools of the user's own, mixed in, run inside
the graph and are not seen by the scorer.

MCP. A factory taking ``mcp_url`` gets the conversation's MCP session URL (and may be
``async def``, to load its tools with ``langchain-mcp-adapters``); its ToolNode then calls
the Environment through the MCP host itself, the calls land in the call log, and the
conversation writes them into the transcript (``_owned.own_call_messages``). The step is
the graph run's last AI message, with the usage of every model call of the run.

Usage and latency come from the graph's messages: ``usage_metadata`` for tokens, the
model's name from ``response_metadata``, and ``llm_ms`` as the time from the step's start
(or from handing back the tool results) to the AI message: the model call plus the graph's
own overhead.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import time
import uuid
from collections.abc import Callable, Collection, Sequence
from typing import Any

import orjson

from supportsim.conversation._participants import AgentContext, AgentStep
from supportsim.conversation._transcript import LLMCall, Message
from supportsim.environment import ToolSchema
from supportsim.llm import ToolCall

Clock = Callable[[], float]


class AddedNoReply(RuntimeError):
    """The graph run ended without a new AI message to act on."""


class _Bridge:
    """Tool calls made inside the user's graph, waiting for the conversation to run them."""

    def __init__(self) -> None:
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    async def call(self, call_id: str, name: str, args: Any) -> tuple[str, bool]:
        result: asyncio.Future[tuple[str, bool]] = asyncio.get_running_loop().create_future()
        await self.events.put(("call", (call_id, name, args, result)))
        return await result


def langchain_tools(schemas: Sequence[ToolSchema], bridge: _Bridge) -> list[Any]:
    """The scenario's tools as LangChain tools whose calls go to ``bridge``."""
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import StructuredTool

    class SupportsimTool(StructuredTool):
        """A scenario tool; its calls are run by supportsim's Environment."""

        async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
            is_call = isinstance(input, dict) and input.get("type") == "tool_call"
            call_id = (input.get("id") if is_call else None) or f"lg-{uuid.uuid4().hex[:12]}"
            args = input.get("args", {}) if is_call else input
            content, is_error = await bridge.call(call_id, self.name, args)
            if not is_call:
                return content
            status = "error" if is_error else "success"
            return ToolMessage(content, tool_call_id=call_id, name=self.name, status=status)

        def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
            raise NotImplementedError(
                f"supportsim tool {self.name!r} runs asynchronously: invoke the graph with "
                "ainvoke (supportsim does)"
            )

    async def _unused(**_kwargs: Any) -> str:  # calls never get here (ainvoke above)
        raise NotImplementedError

    return [
        SupportsimTool(
            name=s.name, description=s.description, args_schema=s.parameters, coroutine=_unused
        )
        for s in schemas
    ]


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


class LangGraphAgent:
    """Runs a compiled LangGraph graph as the Agent (see the module docstring).

    Args:
        graph: a compiled graph, or None when ``factory`` builds it from the tools.
        name: the Agent's label.
        factory: called (or awaited) once, on the first step, with what it ``wants``.
        wants: the factory's parameters: ``tools`` (the scenario's tools) and/or
            ``mcp_url`` (the conversation's MCP session URL).
        clock: monotonic seconds, for ``llm_ms``.
    """

    def __init__(
        self,
        graph: Any,
        name: str,
        *,
        factory: Callable[..., Any] | None = None,
        wants: Collection[str] = ("tools",),
        clock: Clock = time.perf_counter,
    ) -> None:
        self.name = name
        self._graph = graph
        self._factory = factory
        self._wants = frozenset(wants)
        self._clock = clock
        self._bridge = _Bridge()
        self._tools: set[str] = set()
        self._run: asyncio.Task[None] | None = None
        self._sent: set[str] = set()
        self._reported: set[str] = set()
        self._pending: dict[str, tuple[ToolCall, asyncio.Future[tuple[str, bool]]]] = {}
        self._latest: Any = None  # the newest AI message of this run
        self._ai: dict[str | None, Any] = {}  # every new AI message of this run, by id

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        if self._graph is None:
            await self._build(context)
        started = self._clock()
        if self._run is None:
            self._start(context, history)
        else:
            self._answer(history)
        return await self._next(started)

    async def aclose(self) -> None:
        """Stop a graph run still waiting on its tools (the conversation ended first)."""
        for _, future in self._pending.values():
            future.cancel()
        self._pending.clear()
        run, self._run = self._run, None
        if run is not None and not run.done():
            run.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await run

    async def _build(self, context: AgentContext) -> None:
        from supportsim.conversation._checked import AgentFault
        from supportsim.conversation._owned import mcp_url_of

        assert self._factory is not None
        kwargs: dict[str, Any] = {}
        if "tools" in self._wants:
            self._tools = {t.name for t in context.tools}
            kwargs["tools"] = langchain_tools(context.tools, self._bridge)
        if "mcp_url" in self._wants:
            kwargs["mcp_url"] = mcp_url_of(context)
        graph = self._factory(**kwargs)
        if inspect.isawaitable(graph):  # an async factory (loading MCP tools), isolated too
            graph = await asyncio.get_running_loop().create_task(
                _awaited(graph), context=contextvars.Context()
            )
        if not callable(getattr(graph, "ainvoke", None)):
            raise AgentFault(
                f"the factory of {self.name!r} returned {type(graph).__name__}, "
                "not a compiled LangGraph graph"
            )
        self._graph = graph

    def _start(self, context: AgentContext, history: Sequence[Message]) -> None:
        sent = to_langchain(context, history)
        self._sent = {m.id for m in sent}
        self._reported.clear()
        self._latest = None
        self._ai.clear()
        # A fresh, empty context: nothing of supportsim's own graph run leaks in.
        self._run = asyncio.get_running_loop().create_task(
            self._drive(sent), context=contextvars.Context()
        )

    async def _drive(self, sent: list[Any]) -> None:
        config = {"configurable": {"thread_id": f"supportsim-{uuid.uuid4().hex}"}}
        events = self._bridge.events
        try:
            final: Any = None
            if not hasattr(self._graph, "astream"):  # any Runnable-like object
                final = await self._graph.ainvoke({"messages": sent}, config)
            else:
                async for state in self._graph.astream(
                    {"messages": sent}, config, stream_mode="values"
                ):
                    final = state
                    await events.put(("values", state))
            await events.put(("done", final))
        except Exception as exc:  # the graph's own error: the step raises it
            await events.put(("error", exc))

    def _answer(self, history: Sequence[Message]) -> None:
        """Hand the conversation's tool results back to the tools waiting in the graph."""
        results = {m.tool_call_id: m for m in history if m.role == "tool"}
        for call_id, (_, future) in list(self._pending.items()):
            message = results.get(call_id)
            if message is not None and not future.done():
                future.set_result((message.content, message.is_error))
        self._pending.clear()

    async def _next(self, started: float) -> AgentStep:
        while True:
            kind, payload = await self._bridge.events.get()
            if kind == "values":
                self._see(payload)
            elif kind == "call":
                call_id, name, args, future = payload
                call = ToolCall(call_id, name, orjson.dumps(args, default=str).decode())
                self._pending[call_id] = (call, future)
            elif kind == "error":
                self._run = None
                raise payload
            else:
                self._run = None
                return self._final(payload, started)
            if self._pending and self._ready():
                return self._calls_step(started)

    def _see(self, state: Any) -> None:
        from langchain_core.messages import AIMessage

        messages = state.get("messages", []) if isinstance(state, dict) else []
        new = [m for m in messages if isinstance(m, AIMessage) and m.id not in self._sent]
        if new:
            self._latest = new[-1]
            self._ai.update((m.id, m) for m in new)

    def _ready(self) -> bool:
        """Every supportsim tool the latest AI message asked for is waiting (or a call
        came from elsewhere than that message)."""
        asked = [c for c in getattr(self._latest, "tool_calls", [])]
        ids = {c.get("id") for c in asked}
        if any(call_id not in ids for call_id in self._pending):
            return True
        expected = {c.get("id") for c in asked if c.get("name") in self._tools}
        return expected <= set(self._pending)

    def _calls_step(self, started: float) -> AgentStep:
        latest = self._latest
        order = {c.get("id"): i for i, c in enumerate(getattr(latest, "tool_calls", []))}
        calls = sorted((c for c, _ in self._pending.values()), key=lambda c: order.get(c.id, 1e9))
        content, llm = "", None
        if latest is not None and latest.id not in self._reported:
            self._reported.add(latest.id)
            content, llm = _text(latest.content), _llm_call(latest, self._clock() - started)
        return AgentStep(content=content, tool_calls=tuple(calls), llm=llm)

    def _final(self, state: Any, started: float) -> AgentStep:
        self._see(state or {})
        last = self._latest
        if last is None:
            raise AddedNoReply(f"the LangGraph graph {self.name!r} added no AI message")
        if last.id in self._reported:
            raise AddedNoReply(
                f"the LangGraph graph {self.name!r} ended after its tools, without a reply"
            )
        # AI messages never reported were answered by the graph's own tools (over MCP):
        # their model calls belong to this step.
        unreported = [
            m for m in self._ai.values() if m.id not in self._reported and m.id != last.id
        ]
        self._reported.update(m.id for m in unreported)
        self._reported.add(last.id)
        calls = tuple(
            ToolCall(c.get("id") or f"lg-{uuid.uuid4().hex[:12]}", c["name"], _dumps(c))
            for c in last.tool_calls
        )
        llm = _llm_call(last, self._clock() - started, unreported)
        return AgentStep(content=_text(last.content), tool_calls=calls, llm=llm)


def _dumps(call: Any) -> str:
    return orjson.dumps(call.get("args", {}), default=str).decode()


def _llm_call(message: Any, seconds: float, also: Sequence[Any] = ()) -> LLMCall | None:
    """The model call behind an AI message, if a model made it (usage or metadata), with
    the tokens of ``also`` (earlier AI messages of the same step) added."""
    usage = getattr(message, "usage_metadata", None) or {}
    meta = getattr(message, "response_metadata", None) or {}
    if not usage and not meta:
        return None  # plain Python made this message: no model to time
    model = meta.get("model_name") or meta.get("model") or "langgraph"
    tokens = [usage.get("input_tokens"), usage.get("output_tokens")]
    for other in also:
        extra = getattr(other, "usage_metadata", None) or {}
        for i, key in enumerate(("input_tokens", "output_tokens")):
            if tokens[i] is not None and extra.get(key) is not None:
                tokens[i] += extra[key]
    return LLMCall("agent", str(model), seconds * 1000.0, None, tokens[0], tokens[1], None)


async def _awaited(value: Any) -> Any:
    return await value


def _args(raw: str) -> dict[str, Any]:
    try:
        value = orjson.loads(raw or "{}")
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content or ()]
    return "".join(parts)
