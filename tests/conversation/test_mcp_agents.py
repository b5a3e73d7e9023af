"""Plug-ins that ask for the MCP URL instead of our tools: a python Agent with
``tools = "mcp"`` calling its tools with the official ``mcp`` client, and a LangGraph
``create_react_agent`` whose tools come from ``langchain-mcp-adapters``. Each holds a
full conversation through supportsim's MCP host and scores as the oracle does."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from convo_helpers import Harness, record_json

from supportsim.batch import Unit, run_unit
from supportsim.environment import McpHost
from supportsim.scenario import Persona, Scenario
from supportsim.store import ConversationRecord
from supportsim.testing import MockLLMServer, plan_responder

REPO = Path(__file__).parents[2]
CALLS = ["verify_identity", "list_charges", "refund_charge"]


@pytest.fixture(autouse=True)
def wiring(server: MockLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Examples import as ``examples.*``; ChatOpenAI reaches the mock server."""
    monkeypatch.syspath_prepend(str(REPO))
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-mcp")
    monkeypatch.setenv("REACT_AGENT_MODEL", "mcp-react-m")
    from langchain_openai.chat_models import _client_utils

    _client_utils._cached_async_httpx_client.cache_clear()


async def run_over_mcp(
    harness: Harness, scenario: Scenario, persona: Persona, agent: str
) -> ConversationRecord:
    """One unit as a batch runs it: the run's MCP host open (as ``execute`` opens it for
    a run with an Agent that asks for MCP), ``--tools`` left in-process."""
    ctx = harness.context(scenario, persona, agent=agent, customer="scripted")
    assert ctx.tools == "inprocess" and ctx.agents[agent].mcp
    try:
        async with McpHost() as host:
            ctx.mcp = host
            return await run_unit(Unit(scenario.id, agent, 1), ctx)
    finally:
        await harness.pool.aclose()


def assert_scored_as_in_process(record: dict) -> None:
    assert (record["status"], record["termination"]) == ("completed", "customer_done"), record[
        "error"
    ]
    assert record["strict"] is True, [c for c in record["checks"] if not c["passed"]]
    # Every call went through the host into the Environment: in the call log, and in the
    # transcript as the Agent's tool call and its result, before the reply that used it.
    assert [c["name"] for c in record["calls"]] == CALLS
    messages = record["messages"]
    assert [m["name"] for m in messages if m["role"] == "tool"] == CALLS
    for i, m in enumerate(messages):
        if m["role"] == "tool":
            asked = messages[i - 1]
            assert asked["role"] == "agent"
            assert [c["id"] for c in asked["tool_calls"]] == [m["tool_call_id"]]


@pytest.mark.parametrize(
    "spec", ["python:mcp_agents:McpRuleAgent", "python:examples.python_mcp_agent:McpRuleAgent"]
)
async def test_a_python_agent_asking_for_mcp_calls_its_tools_itself_and_scores_strict_1(
    server: MockLLMServer, scenario: Scenario, persona: Persona, spec: str
) -> None:
    record = record_json(await run_over_mcp(Harness(server, "openai"), scenario, persona, spec))
    assert_scored_as_in_process(record)


@pytest.mark.parametrize(
    "spec", ["langgraph:mcp_agents:react", "langgraph:examples.langgraph_mcp_agent:build"]
)
async def test_a_react_agent_with_langchain_mcp_adapters_tools_scores_strict_1(
    server: MockLLMServer, scenario: Scenario, persona: Persona, spec: str
) -> None:
    plan = plan_responder([scenario])
    # Every model call reports 7 input tokens, so the folded usage can be counted exactly.
    server.default("mcp-react-m", lambda request: replace(plan(request), input_tokens=7))

    record = record_json(await run_over_mcp(Harness(server, "openai"), scenario, persona, spec))

    assert_scored_as_in_process(record)
    requests = server.requests(model="mcp-react-m")
    # The tools the model was shown came over MCP: the scenario's, with their schemas.
    names = {t["function"]["name"] for t in requests[0].body["tools"]}
    assert set(CALLS) <= names
    # Each reply carries the usage of every model call of its graph run (tool rounds too).
    replies = [m for m in record["messages"] if m["role"] == "agent" and m["content"]]
    assert sum(r["input_tokens"] for r in replies) == 7 * len(requests)
    assert sum(c["input_tokens"] for c in record["llm_calls"] if c["role"] == "agent") == 7 * len(
        requests
    )
    agent_calls = [c for c in record["llm_calls"] if c["role"] == "agent"]
    assert len(agent_calls) == len(replies) < len(requests)  # tool rounds folded in
