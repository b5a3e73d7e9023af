"""Pluggable Agents: a Python object, a compiled LangGraph graph, an HTTP service, and the
spec parser that names them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from convo_helpers import Harness, happy_agent, happy_customer, record_json

from supportsim.conversation import (
    Agent,
    AgentContext,
    AgentStep,
    Limits,
    Message,
    ScriptedCustomer,
    parse_agent_spec,
    run_conversation,
)
from supportsim.domains import mock
from supportsim.environment import Environment
from supportsim.errors import InputError
from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer

REPO = Path(__file__).parents[2]
PYTHON_AGENT = "python:examples.python_agent:RuleAgent"
LANGGRAPH_AGENT = "langgraph:examples.langgraph_agent:build"


@pytest.fixture(autouse=True)
def repo_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples are imported as ``examples.*``, as from the repository root."""
    monkeypatch.syspath_prepend(str(REPO))


@pytest.mark.parametrize("agent", [PYTHON_AGENT, LANGGRAPH_AGENT])
@pytest.mark.parametrize("customer", ["scripted", "llm"])
async def test_example_agents_complete_the_scenario(
    server: MockLLMServer, scenario: Scenario, persona: Persona, agent: str, customer: str
) -> None:
    h = Harness(server, "openai")
    if customer == "llm":
        server.script("customer-m", happy_customer())

    record = record_json(
        await h.run(
            scenario, persona, agent=agent, customer=None if customer == "llm" else customer
        )
    )

    assert record["agent"] == agent
    assert (record["status"], record["termination"]) == ("completed", "customer_done")
    assert record["strict"] is True, [c for c in record["checks"] if not c["passed"]]
    tools = [m["name"] for m in record["messages"] if m["role"] == "tool"]
    assert tools == ["verify_identity", "list_charges", "refund_charge"]
    replies = [m for m in record["messages"] if m["role"] == "agent" and m["content"]]
    assert replies[-1]["content"] == "Done, the refund of 30 USD for CH-2 is on its way."
    # No model behind them: turns are timed end to end, with no LLM fields.
    assert all(r["response_ms"] is not None and r["llm_ms"] is None for r in replies)
    assert all(c["role"] == "customer" for c in record["llm_calls"])


def test_the_python_example_implements_the_agent_protocol() -> None:
    from examples.python_agent import RuleAgent

    assert isinstance(RuleAgent(), Agent)


async def test_an_http_agent_speaking_chat_completions(
    server: MockLLMServer, scenario: Scenario, persona: Persona
) -> None:
    spec = f"http:{server.url}/v1#support-bot"
    h = Harness(server, "openai")
    server.script("support-bot", happy_agent())

    record = record_json(await h.run(scenario, persona, agent=spec, customer="scripted"))

    assert record["agent"] == spec and record["strict"] is True
    requests = server.requests(model="support-bot")
    assert len(requests) == 5
    assert {(r.api, r.path, r.stream) for r in requests} == {
        ("openai", "/v1/chat/completions", True)
    }
    assert [c["model"] for c in record["llm_calls"]] == ["support-bot"] * 5


def test_http_spec_needs_an_http_url() -> None:
    with pytest.raises(InputError, match="expected http:http"):
        parse_agent_spec("http:ftp://host/v1", {})
    spec = parse_agent_spec("http:http://127.0.0.1:9/v1", {})
    assert spec.model is not None
    assert (spec.model.model, spec.model.base_url, spec.model.api_key_env) == (
        "agent",
        "http://127.0.0.1:9/v1",
        None,
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:examples.no_such_module:X", "cannot import examples.no_such_module"),
        ("python:examples.python_agent:NoSuchAgent", "has no attribute 'NoSuchAgent'"),
        ("langgraph:examples.langgraph_agent", "expected package.module:attribute"),
        ("python:examples.python_agent:CUSTOMER_ID", "expected a class or factory"),
    ],
)
def test_bad_plugin_specs_fail_when_parsed(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_agent_spec(spec, {})


def test_a_plugin_of_the_wrong_kind_is_an_input_error_when_parsed() -> None:
    with pytest.raises(InputError, match="did not return a compiled LangGraph graph"):
        parse_agent_spec("langgraph:examples.python_agent:RuleAgent", {})
    with pytest.raises(InputError, match="did not return an Agent"):
        parse_agent_spec("python:examples.langgraph_agent:build", {})


class _TimesOut:
    name = "times-out"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        raise TimeoutError("the agent's own client gave up")


class _Silent:
    name = "silent"

    async def ainvoke(self, state: dict, config: dict | None = None) -> dict:
        return state  # adds no message


async def _converse(agent: Agent, scenario: Scenario) -> tuple[str, str, str | None]:
    env = Environment(mock.domain(), scenario)
    t = await run_conversation(
        env, agent, ScriptedCustomer(["Hi."]), AgentContext("", ()), Limits(timeout_s=30)
    )
    return t.status, t.termination, t.error


async def test_an_agents_own_timeout_is_a_harness_error_not_the_conversation_timeout(
    scenario: Scenario,
) -> None:
    status, termination, error = await _converse(_TimesOut(), scenario)
    assert (status, termination) == ("harness_error", "error")
    assert error is not None and "TimeoutError: the agent's own client gave up" in error


async def test_a_graph_that_adds_no_ai_message_is_a_harness_error(scenario: Scenario) -> None:
    from supportsim.conversation import LangGraphAgent

    status, termination, error = await _converse(LangGraphAgent(_Silent(), "silent"), scenario)
    assert (status, termination) == ("harness_error", "error")
    assert error is not None and "the LangGraph graph 'silent' added no AI message" in error
