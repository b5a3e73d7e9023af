"""Conversations whose tools go over MCP: the real SDKs against the mock server, the real
``mcp`` client against the run's ``McpHost``; the record must not depend on the way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx
import pytest
from convo_helpers import (
    AGREE,
    DONE,
    GIVE_ID,
    OFFER,
    REFUND,
    VERIFY,
    Harness,
    end,
    tool_parameters,
)

from supportsim.batch import Unit, run_unit
from supportsim.conversation import (
    AgentContext,
    AgentStep,
    ScriptedCustomer,
    ToolsMode,
    run_conversation,
)
from supportsim.domains import Args, Domain, DomainState, tool
from supportsim.environment import Environment, McpHost
from supportsim.errors import ProviderError, ToolError
from supportsim.llm import ToolCall
from supportsim.scenario import Persona, Scenario
from supportsim.store import ConversationRecord
from supportsim.testing import MockLLMServer, Reply, call, malformed_call, reply, say


def agent_replies() -> list[Reply]:
    """Every kind of answer: an unknown tool, malformed JSON, invalid arguments, then the
    happy path (parallel verify + list, refund on a yes)."""
    return [
        reply(tool_calls=[call("refund_everything", customer_id="C-1")]),
        reply(tool_calls=[malformed_call("verify_identity", '{"customer_id": "C-1", ')]),
        reply(tool_calls=[call("verify_identity", customer_id="C-1", pin=4321, x=1)]),
        say("Sure, what are your customer id and PIN?"),
        reply(tool_calls=[VERIFY, call("list_charges", customer_id="C-1")]),
        say(OFFER),
        reply(tool_calls=[REFUND]),
        say(DONE),
    ]


async def run_with_tools(
    server: MockLLMServer,
    provider: str,
    scenario: Scenario,
    persona: Persona,
    tools: ToolsMode,
) -> ConversationRecord:
    """One unit through ``run_unit`` with ``--tools`` = ``tools``."""
    harness = Harness(server, provider)
    server.script("agent-m", agent_replies())
    server.script("customer-m", [say(GIVE_ID), say(AGREE), end()])
    ctx = harness.context(scenario, persona)
    ctx.tools = tools
    (agent,) = ctx.agents
    try:
        async with McpHost() as host:
            ctx.mcp = host
            return await run_unit(Unit(scenario.id, agent, 1), ctx)
    finally:
        await harness.pool.aclose()


def call_log(record: ConversationRecord) -> list[tuple[Any, ...]]:
    return [
        (c.name, c.raw_arguments, c.arguments, c.ok, c.result, c.error, c.fault)
        for c in record.calls
    ]


def checks(record: ConversationRecord) -> list[tuple[Any, ...]]:
    return [c.model_dump() for c in record.checks]


def tool_messages(record: ConversationRecord) -> list[tuple[Any, ...]]:
    return [(m.name, m.content, m.is_error) for m in record.messages if m.role == "tool"]


@pytest.mark.parametrize("tools", ["mcp", "mcp-stdio"])
async def test_an_llm_agent_over_mcp_gets_the_record_it_gets_in_process(
    server: MockLLMServer,
    provider: str,
    scenario: Scenario,
    persona: Persona,
    tools: ToolsMode,
) -> None:
    local = await run_with_tools(server, provider, scenario, persona, "inprocess")
    shown_local = tool_parameters(server.requests(model="agent-m")[0])
    n = len(server.requests(model="agent-m"))
    remote = await run_with_tools(server, provider, scenario, persona, tools)
    shown_remote = tool_parameters(server.requests(model="agent-m")[n])
    assert remote.status == local.status == "completed"
    assert call_log(remote) == call_log(local)
    assert tool_messages(remote) == tool_messages(local)
    assert checks(remote) == checks(local)
    assert (remote.strict, remote.partial) == (local.strict, local.partial) == (True, 1.0)
    assert remote.final_state == local.final_state
    assert shown_remote == shown_local  # the model was shown the same tools and schemas
    # the model's call ids reach the call log over MCP too (the mock server makes new ones)
    sent = [c.id for m in remote.messages if m.role == "agent" for c in m.tool_calls]
    assert [c.call_id for c in remote.calls] == sent
    oks = [c.ok for c in remote.calls]
    assert oks == [False, False, False, True, True, True]  # each error kind was exercised


# --- the conversation's lifecycle on the host, directly ----------------------------------


class CounterState(DomainState):
    count: int = 0


class AddArgs(Args):
    n: int
    """How much to add."""


@tool("write")
def add(state: CounterState, args: AddArgs) -> dict[str, int]:
    """Add n to the counter (refuses above 10)."""
    if state.count + args.n > 10:
        raise ToolError("the counter cannot go above 10")
    state.count += args.n
    return {"count": state.count}


@tool("read")
def crash(state: CounterState) -> dict[str, int]:
    """A tool with a bug."""
    raise RuntimeError("bug in the tool")


COUNTER = Domain("counter", CounterState, dict, {"add": add, "crash": crash}, "Count.")


def counter_env(scenario: Scenario) -> Environment:
    changed = scenario.model_copy(update={"domain": "counter", "workflow": [], "forbidden": []})
    return Environment(COUNTER, changed)


class ToolAgent:
    """Calls ``calls`` one per step, then says done; keeps what it was shown."""

    name = "tool-agent"

    def __init__(self, calls: Sequence[ToolCall] = (), fail: BaseException | None = None) -> None:
        self.calls = list(calls)
        self.fail = fail
        self.seen: list[AgentContext] = []
        self.probe: int | None = None

    async def step(self, context: AgentContext, history: Any) -> AgentStep:
        self.seen.append(context)
        if self.fail is not None:
            raise self.fail
        if context.mcp_url is not None and self.probe is None:
            async with httpx.AsyncClient() as http:  # the URL is live during the conversation
                self.probe = (await http.post(context.mcp_url, json={})).status_code
        if self.calls:
            return AgentStep(tool_calls=(self.calls.pop(0),))
        return AgentStep(content="done")


async def converse(
    env: Environment, agent: ToolAgent, host: McpHost | None, tools: ToolsMode
) -> Any:
    context = AgentContext("prompt", tuple(env.schemas()))
    return await run_conversation(
        env, agent, ScriptedCustomer(["hi"]), context, mcp=host, tools=tools
    )


@pytest.mark.parametrize("tools", ["inprocess", "mcp"])
async def test_the_agent_gets_a_live_session_url_that_closes_with_the_conversation(
    scenario: Scenario, tools: ToolsMode
) -> None:
    env = counter_env(scenario)
    agent = ToolAgent([ToolCall("a1", "add", '{"n": 2}')])
    async with McpHost() as host, httpx.AsyncClient() as http:
        transcript = await converse(env, agent, host, tools)
        url = agent.seen[0].mcp_url
        assert url is not None and url.startswith(f"http://127.0.0.1:{host.port}/c/")
        after = (await http.post(url, json={})).status_code
    assert transcript.status == "completed"
    assert agent.probe != 404 and after == 404
    assert [(c.name, c.ok, c.result) for c in env.calls] == [("add", True, {"count": 2})]
    assert [t.name for t in agent.seen[0].tools] == ["add", "crash"]


async def test_without_a_host_the_agent_gets_no_url(scenario: Scenario) -> None:
    agent = ToolAgent()
    transcript = await converse(counter_env(scenario), agent, None, "inprocess")
    assert transcript.status == "completed"
    assert agent.seen[0].mcp_url is None


async def test_a_bug_in_a_tool_over_mcp_is_a_harness_error(scenario: Scenario) -> None:
    env = counter_env(scenario)
    agent = ToolAgent([ToolCall("a1", "add", '{"n": 1}'), ToolCall("a2", "crash", "{}")])
    async with McpHost() as host:
        transcript = await converse(env, agent, host, "mcp")
    assert transcript.status == "harness_error"
    assert "RuntimeError: bug in the tool" in transcript.error
    assert [m.role for m in transcript.messages] == ["customer", "agent", "tool", "agent"]


async def test_a_providers_error_is_still_an_infra_error_over_mcp(scenario: Scenario) -> None:
    """The client session's task groups must not wrap the conversation's own errors."""
    env = counter_env(scenario)
    agent = ToolAgent(fail=ProviderError("agent-m", "HTTP 500 after 3 attempts"))
    async with McpHost() as host:
        transcript = await converse(env, agent, host, "mcp")
    assert transcript.status == "infra_error"
    assert transcript.error == "ProviderError: agent-m: HTTP 500 after 3 attempts"


async def test_mcp_tools_without_a_host_is_a_harness_error_saying_so(scenario: Scenario) -> None:
    transcript = await converse(counter_env(scenario), ToolAgent(), None, "mcp")
    assert transcript.status == "harness_error"
    assert "tools='mcp' needs the run's McpHost" in transcript.error


async def test_a_session_that_breaks_mid_conversation_is_a_harness_error_without_its_token(
    scenario: Scenario,
) -> None:
    env = counter_env(scenario)
    calls = [ToolCall("a1", "add", '{"n": 1}'), ToolCall("a2", "add", '{"n": 1}')]
    agent = ToolAgent(calls)
    async with McpHost() as host:
        real_step = agent.step

        async def step(context: AgentContext, history: Any) -> AgentStep:
            if len(agent.seen) == 1 and context.mcp_url is not None:
                host.close(context.mcp_url)  # the session vanishes under the client
            return await real_step(context, history)

        agent.step = step  # type: ignore[method-assign]
        transcript = await converse(env, agent, host, "mcp")
    url = agent.seen[0].mcp_url
    assert url is not None
    assert transcript.status == "harness_error"
    assert "McpToolsError: the mcp tools session failed" in transcript.error
    assert url.split("/")[-2] not in transcript.error
    assert [c.name for c in env.calls] == ["add"]


async def test_cancelling_a_conversation_mid_call_closes_its_session(scenario: Scenario) -> None:
    entered = asyncio.Event()

    async def stuck(_seconds: float) -> None:
        entered.set()
        await asyncio.Event().wait()  # a tool whose simulated latency never ends

    changed = scenario.model_copy(
        update={"domain": "counter", "workflow": [], "forbidden": [], "tool_latency_ms": {"add": 5}}
    )
    env = Environment(COUNTER, changed, sleep=stuck)
    agent = ToolAgent([ToolCall("a1", "add", '{"n": 1}')])
    async with McpHost() as host, httpx.AsyncClient() as http:
        task = asyncio.create_task(converse(env, agent, host, "mcp"))
        await entered.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        url = agent.seen[0].mcp_url
        assert url is not None
        assert (await http.post(url, json={})).status_code == 404
    assert env.calls == []  # the call never finished, so it was never logged
