"""LangGraph Agents as teams write them, driven by the loopback mock server through
LangChain's ChatOpenAI: ``create_react_agent`` with and without ``interrupt_before``, and a
hand-built graph with its own ToolNode, reach the scenario's tools through supportsim's
runtime (every call recorded, faulted and scored) and run isolated from our own graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from convo_helpers import DONE, Harness, happy_agent, record_json

from supportsim.conversation import (
    AgentContext,
    LangGraphAgent,
    Limits,
    ScriptedCustomer,
    parse_agent_spec,
    run_conversation,
)
from supportsim.conversation._langgraph import langchain_tools
from supportsim.domains import mock
from supportsim.environment import Environment
from supportsim.errors import InputError
from supportsim.scenario import Fault, Persona, Scenario
from supportsim.testing import MockLLMServer

REPO = Path(__file__).parents[2]
REACT = "langgraph:examples.langgraph_react_agent:build"
REACT_APPROVAL = "langgraph:examples.langgraph_react_agent:build_with_approval"
HAND_BUILT = "langgraph:lg_agents:hand_built"


@pytest.fixture(autouse=True)
def wiring(server: MockLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Examples import as ``examples.*``; ChatOpenAI reaches the mock server."""
    monkeypatch.syspath_prepend(str(REPO))
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-langgraph")
    monkeypatch.setenv("REACT_AGENT_MODEL", "agent-m")
    # ChatOpenAI caches one httpx client per base URL for the process; each test has its
    # own event loop (and a mock server port the OS may hand out again).
    from langchain_openai.chat_models import _client_utils

    _client_utils._cached_async_httpx_client.cache_clear()


@pytest.mark.parametrize("spec", [REACT, REACT_APPROVAL, HAND_BUILT])
async def test_a_langgraph_agent_with_its_own_tool_loop_scores_strict_1(
    server: MockLLMServer, scenario: Scenario, persona: Persona, spec: str
) -> None:
    server.script("agent-m", happy_agent())
    record = record_json(
        await Harness(server, "openai").run(scenario, persona, agent=spec, customer="scripted")
    )

    assert (record["status"], record["termination"]) == ("completed", "customer_done"), record[
        "error"
    ]
    assert record["strict"] is True, [c for c in record["checks"] if not c["passed"]]
    # Every call went through the Environment: in the call log and the transcript.
    assert [c["name"] for c in record["calls"]] == [
        "verify_identity",
        "list_charges",
        "refund_charge",
    ]
    assert [m["name"] for m in record["messages"] if m["role"] == "tool"] == [
        "verify_identity",
        "list_charges",
        "refund_charge",
    ]
    replies = [m for m in record["messages"] if m["role"] == "agent" and m["content"]]
    assert replies[-1]["content"] == DONE
    # Usage and model latency come from the graph's AI messages.
    agent_calls = [c for c in record["llm_calls"] if c["role"] == "agent"]
    assert len(agent_calls) == 5 and {c["model"] for c in agent_calls} == {"agent-m"}
    assert all(c["input_tokens"] and c["output_tokens"] for c in agent_calls)
    assert all(r["llm_ms"] is not None and r["input_tokens"] for r in replies)
    # The graph sent our tools with their JSON schemas and the system prompt, and the
    # model never saw our hidden goal.
    requests = server.requests(model="agent-m")
    assert len(requests) == 5
    assert {t["function"]["name"] for t in requests[0].body["tools"]} >= {"refund_charge"}
    assert requests[0].body["messages"][0]["role"] == "system"
    assert all(scenario.customer.reason not in str(r.body) for r in requests)


async def test_a_fault_injected_by_the_scenario_reaches_the_graphs_tool_node(
    server: MockLLMServer, scenario: Scenario, persona: Persona
) -> None:
    faulted = scenario.model_copy(
        update={"faults": [Fault(tool="list_charges", call=1, fault="server_error")]}
    )
    server.script("agent-m", happy_agent())
    record = record_json(
        await Harness(server, "openai").run(faulted, persona, agent=HAND_BUILT, customer="scripted")
    )
    listed = next(c for c in record["calls"] if c["name"] == "list_charges")
    assert listed["fault"] == "server_error" and listed["error"]
    # The model was shown the error as the tool result of its call.
    second = server.requests(model="agent-m")[2]
    tool_results = [m for m in second.body["messages"] if m["role"] == "tool"]
    assert any("error" in str(m["content"]).lower() for m in tool_results)


class _ParentConfig:
    """Stands in for supportsim's own graph run: a parent RunnableConfig in the context."""


async def test_the_graph_runs_isolated_from_our_graph_context(scenario: Scenario) -> None:
    from langchain_core.runnables.config import var_child_runnable_config

    seen: list[Any] = []

    def factory(tools: list[Any]) -> Any:
        from langchain_core.messages import AIMessage
        from langchain_core.runnables import RunnableConfig
        from langgraph.graph import END, START, MessagesState, StateGraph

        def node(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
            seen.append(config)
            return {"messages": [AIMessage("Hello.")]}

        graph = StateGraph(MessagesState)
        graph.add_node("n", node)
        graph.add_edge(START, "n")
        graph.add_edge("n", END)
        return graph.compile()

    token = var_child_runnable_config.set(
        {"configurable": {"run": _ParentConfig(), "thread_id": "ours"}, "recursion_limit": 9}
    )
    try:
        env = Environment(mock.domain(), scenario)
        agent = LangGraphAgent(None, "isolated", factory=factory)
        step = await agent.step(AgentContext("sys", tuple(env.schemas())), [])
    finally:
        var_child_runnable_config.reset(token)
    assert step.content == "Hello."
    (config,) = seen
    assert "run" not in config["configurable"]
    assert config["configurable"]["thread_id"].startswith("supportsim-")
    assert config.get("recursion_limit") != 9


async def test_an_interrupt_inside_the_graph_does_not_end_the_conversation(
    scenario: Scenario,
) -> None:
    spec = parse_agent_spec("langgraph:lg_agents:asks_a_human", {})
    from supportsim.conversation import build_agent

    agent = build_agent(spec, scenario, lambda *_: None)  # type: ignore[arg-type,return-value]
    env = Environment(mock.domain(), scenario)
    t = await run_conversation(
        env,
        agent,
        ScriptedCustomer(["Hi.", "Still there?"]),
        AgentContext("", tuple(env.schemas())),
        Limits(timeout_s=30),
    )
    assert (t.status, t.termination) == ("completed", "customer_done"), t.error
    assert [m.content for m in t.messages if m.role == "agent"] == ["How can I help?"] * 2


def test_a_factory_taking_tools_is_checked_by_its_signature_at_start() -> None:
    spec = parse_agent_spec(HAND_BUILT, {})
    assert (spec.kind, spec.label) == ("langgraph", HAND_BUILT)


async def test_a_factory_that_returns_no_graph_is_that_conversations_harness_error(
    scenario: Scenario,
) -> None:
    from supportsim.conversation import build_agent

    spec = parse_agent_spec("langgraph:lg_agents:returns_a_string", {})
    agent = build_agent(spec, scenario, lambda *_: None)  # type: ignore[arg-type,return-value]
    env = Environment(mock.domain(), scenario)
    t = await run_conversation(
        env, agent, ScriptedCustomer(["Hi."]), AgentContext("", ()), Limits(timeout_s=30)
    )
    assert t.status == "harness_error"
    assert "returned str, not a compiled LangGraph graph" in t.end_reason


async def test_the_tools_carry_the_schemas_the_agent_is_shown(scenario: Scenario) -> None:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    from supportsim.conversation._langgraph import _Bridge

    env = Environment(mock.domain(), scenario)
    schemas = env.schemas()
    tools = langchain_tools(schemas, _Bridge())
    assert [convert_to_openai_tool(t)["function"] for t in tools] == [
        {"name": s.name, "description": s.description, "parameters": s.parameters} for s in schemas
    ]
    with pytest.raises(NotImplementedError, match="runs asynchronously"):
        tools[0].invoke({"customer_id": "C-1"})


def test_an_unknown_langgraph_target_is_bad_input() -> None:
    with pytest.raises(InputError, match="has no attribute 'nope'"):
        parse_agent_spec("langgraph:lg_agents:nope", {})


async def test_a_conversation_that_ends_while_the_graph_waits_on_a_tool_closes_it(
    server: MockLLMServer, scenario: Scenario
) -> None:
    """transfer_to_human ends the conversation while the ToolNode still waits: the graph
    run is cancelled, not left pending."""
    from supportsim.testing import call, reply

    server.script(
        "agent-m", [reply(tool_calls=[call("transfer_to_human", reason="needs a human")])]
    )
    from supportsim.conversation import build_agent

    spec = parse_agent_spec(HAND_BUILT, {})
    agent = build_agent(spec, scenario, lambda *_: None)  # type: ignore[arg-type,return-value]
    env = Environment(mock.domain(), scenario)
    t = await run_conversation(
        env, agent, ScriptedCustomer(["Hi."]), AgentContext("", tuple(env.schemas()))
    )
    assert (t.status, t.termination) == ("completed", "agent_transfer"), t.error
    inner: Any = agent.inner  # type: ignore[attr-defined]
    assert inner._run is None and not inner._pending
