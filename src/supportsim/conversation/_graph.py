"""The orchestrator: a LangGraph StateGraph that each conversation walks.

    START -> customer -(message)-> agent -(tool calls)-> tools -> agent ... -(reply)-> customer
                 |                                          |
                 +-(end, max turns)-> END                   +-(transfer, too many rounds)-> END

LangGraph routes; the bounds are ours (max turns, tool rounds per turn, a wall-clock
timeout), since its recursion limit is not a conversation guard. The wall-clock bound
counts the Agent's time only (``_deadline.py``): the Customer's steps are paused, and a
Customer model that does not answer within its per-call timeout is a simulator fault,
while an Agent model that does not is an infra error; ``timeout`` means the Agent was
slow. Participants and the
Environment live on a ``_Run`` object passed to the nodes through the run config
(``configurable["run"]``); each node routes with a ``Command`` and the graph state
carries nothing that a node reads. So one
compiled graph serves every conversation of a batch: compiling costs milliseconds of CPU,
as much as a whole streamed model call, and a batch passes ``graph=build_graph()`` once.
``run_conversation`` never raises except on cancellation: failures
become a Transcript with a status and the error, keeping what happened before.

Given the run's ``McpHost``, the conversation gets a session URL on it for its
Environment (``AgentContext.mcp_url``); with ``tools="mcp"`` (or ``"mcp-stdio"``) the
Agent's tool list and every tool call go through a real MCP client session to that URL
(``_mcp_tools.py``) instead of ``Environment.call``: same answers, same call log.

What a benchmark may change (the Agent's greeting, its bounds, the tool-result text, what
the Customer sees) comes from the conversation's ``ConversationRules`` (``_rules.py``):
ours by default, or a plug-in benchmark's.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command

from supportsim._tracing import turn_ended, turn_started
from supportsim.conversation._checked import AgentFault
from supportsim.conversation._deadline import bounded_by, deadline_paused
from supportsim.conversation._owned import own_call_messages
from supportsim.conversation._participants import (
    Agent,
    AgentContext,
    Customer,
    CustomerStep,
    CustomerTurn,
    Visible,
)
from supportsim.conversation._replay import customer_view
from supportsim.conversation._rules import SUPPORTSIM_RULES, ConversationRules
from supportsim.conversation._tools_mode import ToolsMode
from supportsim.conversation._transcript import LLMCall, Message, Termination, Transcript
from supportsim.domains import TRANSFER_TOOL
from supportsim.environment import Environment, ToolResult
from supportsim.errors import ProviderError, ProviderTimeout, SimulatorFault
from supportsim.llm import ToolCall

if TYPE_CHECKING:
    from supportsim.conversation._mcp_tools import McpLink, McpTools
    from supportsim.environment import McpHost

Clock = Callable[[], float]
Next = Literal["customer", "agent", "tools", "end"]


class _State(TypedDict):
    next: Next


@dataclass(frozen=True, slots=True)
class Limits:
    max_turns: int = 20
    """Customer messages before the conversation is stopped."""
    max_tool_rounds: int = 12
    """Agent steps with tool calls in one turn before the turn is declared a loop."""
    timeout_s: float = 600.0
    """Wall-clock bound of the Agent's time in the conversation (its turns and tools)."""


class _Run:
    def __init__(
        self,
        env: Environment,
        agent: Agent,
        customer: Customer,
        context: AgentContext,
        limits: Limits,
        clock: Clock,
        rules: ConversationRules = SUPPORTSIM_RULES,
    ) -> None:
        self.env, self.agent, self.customer, self.context = env, agent, customer, context
        self.limits, self.clock = limits, clock
        self.t = Transcript(calls=env.calls)
        self.rules = rules
        self.steps = 0  # messages, and batches of tool results (``over_bounds``)
        self.errors = 0  # tool results that are errors
        if rules.greeting is not None:  # the Agent opens (in its own history too)
            self.t.messages.append(Message("agent", rules.greeting))
        self.turn = 0
        self.turn_started = 0.0
        self.turn_first = 0  # index of the turn's first agent message
        self.rounds = 0
        self.pending: Message | None = None
        self.mcp: McpTools | None = None  # set: tool calls go over MCP

    async def call_tool(self, call: ToolCall) -> ToolResult:
        if self.mcp is not None:
            return await self.mcp.call(call)
        return await self.env.call(call.name, call.arguments, call.id)

    def end(self, termination: Termination, reason: str = "") -> _State:
        turn_ended()  # tracing: the open turn span, if any, ends with the conversation
        self.t.termination, self.t.end_reason = termination, reason
        return {"next": "end"}

    def over_bounds(self) -> _State | None:
        """The rules' end of a step, if any (it wins even over a stop in the same step)."""
        out = self.rules.over_bounds(self.steps, self.errors)
        return None if out is None else self.end(*out)

    def view(self) -> tuple[Visible, ...]:
        return customer_view(self.t.messages, self.rules.shows_customer)

    async def customer_node(self, _state: _State) -> _State:
        if self.turn >= self.limits.max_turns:
            return self.end("max_turns", f"{self.limits.max_turns} customer turns")
        turn_started(self.turn + 1)  # tracing: a turn is the customer's message and the reply
        acted = any(c.ok and c.kind == "write" for c in self.env.calls)
        started = self.clock()
        try:
            with deadline_paused():  # the simulator's time is never the Agent's
                step = await self.customer.step(CustomerTurn(self.view(), self.turn, acted))
        except ProviderTimeout as exc:  # the Customer's model hung: the simulator broke
            raise SimulatorFault("provider_timeout", str(exc)) from exc
        window = (started, self.clock())
        for call in step.llm:
            call.window = window
        self.t.llm_calls.extend(step.llm)
        self.steps += 1
        if step.end is not None:
            if step.content:  # a customer's last words (end_conversation's final_message)
                self.t.messages.append(_customer_message(step, self.turn, window))
            ended = self.end("customer_done", step.end)
            return self.over_bounds() or ended
        self.turn += 1
        self.t.messages.append(_customer_message(step, self.turn, window))
        self.turn_started = self.clock()
        self.turn_first = len(self.t.messages)
        self.rounds = 0
        return self.over_bounds() or {"next": "agent"}

    async def agent_node(self, _state: _State) -> _State:
        before = len(self.env.calls)
        started = self.clock()
        step = await self.agent.step(self.context, self.t.messages)
        window = (started, self.clock())
        # Calls the Agent made itself, over MCP, during the step: into the transcript.
        self.t.messages.extend(own_call_messages(self.env.calls, before, self.turn))
        llm = step.llm
        if llm is not None:
            llm.window = window
            self.t.llm_calls.append(llm)
        message = Message(
            "agent",
            step.content,
            tool_calls=step.tool_calls,
            reasoning=step.reasoning,
            reasoning_signature=step.reasoning_signature,
            turn=self.turn,
            llm_ms=llm.llm_ms if llm else None,
            ttft_ms=llm.ttft_ms if llm else None,
            input_tokens=llm.input_tokens if llm else None,
            output_tokens=llm.output_tokens if llm else None,
            cost_usd=llm.cost_usd if llm else None,
            cached=llm.cached if llm else False,
            window=window,
        )
        self.t.messages.append(message)
        self.steps += 1
        if step.tool_calls:
            self.rounds += 1
            return {"next": "tools"}
        self.close_turn(message)
        if self.rules.ends_on_transfer and any(
            c.ok and c.name == TRANSFER_TOOL for c in self.env.calls[before:]
        ):
            return self.end("agent_transfer", "transferred to a human")
        return self.over_bounds() or {"next": "customer"}

    def close_turn(self, reply: Message) -> None:
        """Give the turn's reply the whole turn's timing and usage (see ``Message``)."""
        turn_ended()  # tracing
        turn = self.t.messages[self.turn_first :]
        agent = [m for m in turn if m.role == "agent"]
        now = self.clock()
        reply.response_ms = (now - self.turn_started) * 1000.0
        reply.window = (self.turn_started, now)
        reply.llm_ms = _total(m.llm_ms for m in agent)
        reply.tool_ms = sum(m.tool_ms or 0.0 for m in turn if m.role == "tool")
        called = [m for m in agent if m.llm_ms is not None]  # not calls made over MCP
        reply.ttft_ms = called[0].ttft_ms if called else None
        reply.input_tokens = _total(m.input_tokens for m in agent)
        reply.output_tokens = _total(m.output_tokens for m in agent)
        costs = [m.cost_usd for m in agent]
        reply.cost_usd = None if any(c is None for c in costs) else sum(costs)  # type: ignore[arg-type]
        if any(m.cached for m in agent):
            # A reply read from the response cache measures the disk, not the model: the
            # turn keeps no timings, so latency statistics leave it out.
            reply.cached = True
            reply.response_ms = reply.llm_ms = reply.ttft_ms = None

    async def tools_node(self, _state: _State) -> _State:
        calls = self.t.messages[-1].tool_calls
        transferred = False
        for call in calls:  # parallel calls run in order, and every one is answered
            started = self.clock()
            result = await self.call_tool(call)
            window = (started, self.clock())
            record = result.record
            self.errors += result.is_error
            self.t.messages.append(
                Message(
                    "tool",
                    self.rules.tool_text(result),
                    tool_call_id=call.id,
                    name=call.name,
                    is_error=result.is_error,
                    fault=record.fault,
                    turn=self.turn,
                    tool_ms=record.tool_ms,
                    window=window,
                )
            )
            transferred = transferred or (record.ok and call.name == TRANSFER_TOOL)
        self.steps += 1
        if (ended := self.over_bounds()) is not None:
            return ended
        if transferred and self.rules.ends_on_transfer:
            self.close_turn(self.t.messages[-1 - len(calls)])
            return self.end("agent_transfer", "transferred to a human")
        if self.rules.bounds_tool_rounds and self.rounds >= self.limits.max_tool_rounds:
            return self.end("error", f"agent made {self.rounds} tool rounds in one turn")
        return {"next": "agent"}


def _customer_message(step: CustomerStep, turn: int, window: tuple[float, float]) -> Message:
    """The Customer's message, timed by its own model call (never the Agent's clock)."""
    last = step.llm[-1] if step.llm else None
    return Message(
        "customer",
        step.content,
        turn=turn,
        llm_ms=last.llm_ms if last else None,
        ttft_ms=last.ttft_ms if last else None,
        window=window if last else None,
    )


def _total(values: Any) -> Any:
    found = [v for v in values if v is not None]
    return sum(found) if found else None


def _goto(update: _State) -> Command[str]:
    # Routing by Command rather than conditional edges: no branch runnable per step, about
    # 0.1 ms of LangGraph's CPU per step (a third of its per-step cost) saved.
    return Command(goto=END if update["next"] == "end" else update["next"])


def _run_of(config: RunnableConfig) -> _Run:
    return config["configurable"]["run"]


async def _customer(state: _State, config: RunnableConfig) -> Command[str]:
    return _goto(await _run_of(config).customer_node(state))


async def _agent(state: _State, config: RunnableConfig) -> Command[str]:
    return _goto(await _run_of(config).agent_node(state))


async def _tools(state: _State, config: RunnableConfig) -> Command[str]:
    return _goto(await _run_of(config).tools_node(state))


def build_graph() -> Any:
    """The compiled conversation graph; stateless, so one can serve many conversations."""
    graph = StateGraph(_State)
    graph.add_node("customer", _customer, destinations=("agent", END))
    graph.add_node("agent", _agent, destinations=("tools", "customer", END))
    graph.add_node("tools", _tools, destinations=("agent", END))
    graph.add_edge(START, "customer")
    return graph.compile()


async def _walk(app: Any, run: _Run) -> None:
    # The result is unused (the transcript lives on ``run``); "updates" spares
    # LangGraph assembling the whole state after every step (~5% of its CPU here).
    await app.ainvoke(
        {"next": "customer"},
        {"recursion_limit": 1_000_000, "configurable": {"run": run}},
        stream_mode="updates",
    )


async def run_conversation(
    env: Environment,
    agent: Agent,
    customer: Customer,
    context: AgentContext,
    limits: Limits = Limits(),
    *,
    clock: Clock = time.perf_counter,
    graph: Any | None = None,
    mcp: McpHost | None = None,
    tools: ToolsMode = "inprocess",
    rules: ConversationRules = SUPPORTSIM_RULES,
) -> Transcript:
    """Hold one conversation to its end and return its Transcript (never raises but
    CancelledError). Status: completed, or infra_error / simulator_fault / harness_error.

    ``graph``: a ``build_graph()`` result to reuse (a batch compiles it once); None
    compiles one for this conversation. ``mcp``: the run's MCP host, which serves this
    conversation's Environment while it lasts; ``tools``: how tool calls reach it
    (anything but ``inprocess`` needs ``mcp``). ``rules``: whose conventions hold it
    (greeting, bounds, tool texts, what the Customer sees; ``_rules.py``), ours by default."""
    run = _Run(env, agent, customer, context, limits, clock, rules)
    app = graph if graph is not None else build_graph()
    deadline = asyncio.timeout(limits.timeout_s)
    link: McpLink | None = None
    try:
        async with deadline:
            with bounded_by(deadline):
                if mcp is not None or tools != "inprocess":
                    link = await _open_link(env, mcp, tools)
                    await _use_link(run, link)
                await _walk(app, run)
                if link is not None:
                    link.check()
    except TimeoutError:
        if not deadline.expired():  # a participant's own TimeoutError is not our deadline
            run.end("error", "harness error")
            run.t.status, run.t.error = "harness_error", traceback.format_exc()
        else:
            run.end("timeout", f"conversation exceeded {limits.timeout_s:g} s")
    except ProviderError as exc:
        run.end("error", "provider error")
        run.t.status, run.t.error = "infra_error", f"{type(exc).__name__}: {exc}"
    except SimulatorFault as exc:
        run.end("error", "simulator fault")
        run.t.status, run.t.error = "simulator_fault", str(exc)
        run.t.simulator_faults.append(exc.kind)
    except AgentFault as exc:  # a plug-in broke its contract: say what, keep the traceback
        run.end("error", str(exc))
        run.t.status, run.t.error = "harness_error", f"{exc}\n\n{traceback.format_exc()}"
    except Exception:  # a bug of ours or of a plugged-in Agent: keep the traceback
        run.end("error", "harness error")
        run.t.status, run.t.error = "harness_error", traceback.format_exc()
    finally:
        await _close(agent)
        if link is not None:
            await link.aclose()
    run.t.final_state = env.snapshot()
    return run.t


async def _open_link(env: Environment, mcp: McpHost | None, tools: ToolsMode) -> McpLink:
    if mcp is None:
        raise ValueError(f"tools={tools!r} needs the run's McpHost (mcp=...)")
    from supportsim.conversation._mcp_tools import McpLink  # MCP loads only when used

    return await McpLink.open(mcp, env, tools)


async def _use_link(run: _Run, link: McpLink) -> None:
    """Over MCP, the Agent is shown the tools as the server lists them."""
    listed = await link.tools.schemas() if link.tools is not None else run.context.tools
    run.context = replace(run.context, mcp_url=link.url, tools=listed)
    run.mcp = link.tools


async def _close(agent: Agent) -> None:
    """An Agent's ``aclose``, if it has one (a LangGraph run still waiting on its tools)."""
    close = getattr(agent, "aclose", None)
    if close is not None:
        with contextlib.suppress(Exception):  # best effort: the transcript is what matters
            await close()


__all__ = ["LLMCall", "Limits", "build_graph", "run_conversation"]
