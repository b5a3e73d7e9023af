"""Agent-owned ``http:`` services: what they are sent (only the Customer's messages, their
own replies and the MCP URL header), and whole conversations of the example service,
with its own prompt and its own MCP client, on the loopback mock server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest
import yaml
from owned_service import REPO, OwnedService
from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.conversation import AgentContext, AgentFault, Message
from supportsim.conversation._owned import MCP_URL_HEADER, OwnedAgent
from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.environment import ToolSchema
from supportsim.llm import ModelConfig, make_client, resolve_credentials
from supportsim.llm import ToolCall as Call
from supportsim.scenario import Scenario, load_personas, load_scenarios
from supportsim.testing import MockLLMServer, call, reply, say

URL = "http://127.0.0.1:9/c/token-1/mcp"
POLICY = "POLICY-MARK-4471 refunds need identity"
TOOLS = (ToolSchema("refund_charge", "TOOL-MARK-9913 refund", {"type": "object"}),)


def owned_config(base_url: str) -> ModelConfig:
    return ModelConfig(
        name="ours", provider="openai", model="svc", base_url=base_url, api_key_env=None, owned=True
    )


@pytest.fixture
async def owned(server: MockLLMServer) -> AsyncIterator[OwnedAgent]:
    client = make_client(resolve_credentials(owned_config(server.url + "/v1"), {}))
    try:
        yield OwnedAgent("ours", client.complete)
    finally:
        await client.aclose()


HISTORY = [
    Message("customer", "Hi, I was charged twice."),
    Message("agent", "", tool_calls=(Call("c1", "verify_identity", "{}"),)),
    Message("tool", '{"ok": true}', tool_call_id="c1", name="verify_identity"),
    Message("agent", "Which charge?"),
    Message("customer", "The second one."),
]


async def test_an_owned_service_is_sent_the_customers_messages_its_replies_and_the_mcp_url(
    server: MockLLMServer, owned: OwnedAgent
) -> None:
    server.script("svc", [say("Refunded.")])

    step = await owned.step(AgentContext(POLICY, TOOLS, mcp_url=URL), HISTORY)

    assert step.content == "Refunded." and step.tool_calls == ()
    assert step.llm is not None and step.llm.input_tokens is not None
    (request,) = server.requests(model="svc")
    assert request.body["messages"] == [
        {"role": "user", "content": "Hi, I was charged twice."},
        {"role": "assistant", "content": "Which charge?"},
        {"role": "user", "content": "The second one."},
    ]
    assert "tools" not in request.body and "tool_choice" not in request.body
    assert POLICY not in request.text and "TOOL-MARK" not in request.text
    assert "verify_identity" not in request.text  # its tool traffic is its own
    assert request.headers[MCP_URL_HEADER.lower()] == URL


async def test_an_owned_service_may_answer_with_one_json_completion() -> None:
    async with MockLLMServer(streams=False) as json_only:
        json_only.script("svc", [say("Refunded.")])
        client = make_client(resolve_credentials(owned_config(json_only.url + "/v1"), {}))
        try:
            step = await OwnedAgent("ours", client.complete).step(
                AgentContext(POLICY, TOOLS, mcp_url=URL), HISTORY
            )
        finally:
            await client.aclose()
    assert step.content == "Refunded."
    assert step.llm is not None and step.llm.ttft_ms is None  # whole: no first token


async def test_an_owned_service_that_answers_with_tool_calls_or_has_no_url_is_refused(
    server: MockLLMServer, owned: OwnedAgent
) -> None:
    server.script("svc", [reply(tool_calls=[call("refund_charge", charge_id="CH-2")])])
    with pytest.raises(AgentFault, match=r"answered with tool calls \(refund_charge\)"):
        await owned.step(AgentContext(POLICY, TOOLS, mcp_url=URL), HISTORY)
    with pytest.raises(AgentFault, match="no MCP session was opened"):
        await owned.step(AgentContext(POLICY, TOOLS), HISTORY)
    assert len(server.requests(model="svc")) == 1  # no URL: nothing was sent


def smoke_scenarios() -> list[Scenario]:
    """The smoke suite, loaded as ``run --suite smoke`` loads it."""
    ids = yaml.safe_load((REPO / "scenarios" / "suites.yaml").read_text())["smoke"]["ids"]
    domains = builtin_domains()
    loaded = load_scenarios(
        [REPO / "scenarios"],
        catalogue=DomainCatalogue(domains),
        personas=load_personas([REPO / "personas"]),
    )
    by_id = {s.id: s for s in loaded}
    return [by_id[i] for i in ids]


def hidden(scenario: Scenario) -> list[str]:
    """What only the Customer may know: its goal's sentences, unless it says them aloud
    (its short unknown facts, such as "security PIN", an agent may well say itself)."""
    goal = scenario.customer
    said = {goal.opening, *goal.script}
    texts = [goal.reason, goal.will_accept, goal.gives_up_when]
    return [t.strip() for t in texts if t and t.strip() and t not in said]


def test_the_example_owned_service_completes_the_smoke_suite_seeing_no_policy_or_goal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    scenarios = smoke_scenarios()
    domains = builtin_domains()
    with OwnedService(scenarios) as service:
        result = CliRunner().invoke(
            app,
            [
                "run",
                "--suite",
                "smoke",
                "--models",
                str(service.models_file(tmp_path / "models.yaml")),
                "--agent",
                "ours",
                "--customer",
                "scripted",
                "--out",
                str(tmp_path),
                "--run-id",
                "owned",
            ],
            env={"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": ""},
            catch_exceptions=False,
        )
        inbound = service.inbound
        model_requests = [r.text for r in service.llm.requests()]

    assert result.exit_code == 0, result.output
    lines = (tmp_path / "owned" / "conversations.jsonl").read_bytes().splitlines()
    records = {r["scenario_id"]: r for r in map(orjson.loads, lines)}
    assert sorted(records) == sorted(s.id for s in scenarios)
    for scenario in scenarios:  # the oracle scores strict 1 on each: so does the service
        record = records[scenario.id]
        assert (record["status"], record["strict"]) == ("completed", True), (
            scenario.id,
            record["error"],
            [c for c in record["checks"] if not c["passed"]],
        )
        assert record["agent"] == "ours"
        # Its calls went over MCP into the call log and the transcript, ids and all.
        tool_ids = [m["tool_call_id"] for m in record["messages"] if m["role"] == "tool"]
        assert tool_ids == [c["call_id"] for c in record["calls"]]
        assert all(i.startswith("mcp-") for i in tool_ids)
        # Each reply is the service's whole answer, timed as such (it streamed: ttft_ms).
        replies = [m for m in record["messages"] if m["response_ms"] is not None]
        assert replies and all(m["llm_ms"] and m["ttft_ms"] and m["input_tokens"] for m in replies)
    assert any(records[s.id]["calls"] for s in scenarios)
    # A transfer made over MCP ends the conversation as one made in-process does.
    ended = {s.id: records[s.id]["termination"] for s in scenarios}
    assert ended.pop("appt_corporate_cap_escalation") == "agent_transfer"
    assert set(ended.values()) == {"customer_done"}
    assert len(inbound) >= len(scenarios) and model_requests
    # What the service and its model were sent: never our prompt, policy or the goal.
    for text in inbound + model_requests:
        assert "## Policy" not in text and "You are a customer support agent" not in text
        for scenario in scenarios:
            assert domains[scenario.domain].policy.strip() not in text
            for secret in hidden(scenario):
                assert secret not in text, (scenario.id, secret)
    for text in inbound:  # nor our tool list: the service lists its tools over MCP
        assert '"tools"' not in text
