"""The contract of a plugged-in Agent: what is unambiguous is normalised, anything else is
that conversation's harness_error with a reason saying what was wrong (and the traceback
kept); a plug-in of the wrong shape is refused when its spec is parsed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

from supportsim.conversation import (
    AgentContext,
    AgentFault,
    AgentStep,
    CheckedAgent,
    Limits,
    Message,
    ScriptedCustomer,
    checked_step,
    parse_agent_spec,
    run_conversation,
)
from supportsim.conversation._adapters import agent_problem, graph_problem
from supportsim.domains import mock
from supportsim.environment import Environment
from supportsim.errors import InputError
from supportsim.llm import ToolCall
from supportsim.scenario import Scenario

REPO = Path(__file__).parents[2]


@pytest.fixture(autouse=True)
def repo_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO))
    monkeypatch.syspath_prepend(str(Path(__file__).parent))


def _step(**fields: Any) -> AgentStep:
    return AgentStep(**fields)


# --- normalised: unambiguous forms are accepted ------------------------------------------


def test_none_content_dict_arguments_and_a_list_of_calls_are_normalised() -> None:
    raw = _step(
        content=None,
        tool_calls=[
            ToolCall("c1", "list_charges", {"customer_id": "C-1"}),  # type: ignore[arg-type]
            ToolCall(None, "verify_identity", '{"customer_id": "C-1"}'),  # type: ignore[arg-type]
            ToolCall("c3", "list_charges", None),  # type: ignore[arg-type]
        ],
    )
    step = checked_step(raw, call_prefix="call-7")
    assert step.content == ""
    assert isinstance(step.tool_calls, tuple)
    assert [(c.id, c.name) for c in step.tool_calls] == [
        ("c1", "list_charges"),
        ("call-7-1", "verify_identity"),
        ("c3", "list_charges"),
    ]
    assert orjson.loads(step.tool_calls[0].arguments) == {"customer_id": "C-1"}
    assert step.tool_calls[2].arguments == "{}"


def test_a_valid_step_is_returned_as_it_is() -> None:
    valid = AgentStep("Hello", (ToolCall("c1", "list_charges", "{}"),))
    assert checked_step(valid) is valid


# --- refused: each says what was wrong ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("just text", "step must return an AgentStep, got str ('just text')"),
        (None, "step must return an AgentStep, got None"),
        (_step(content=42), "AgentStep.content must be a string or empty, got int (42)"),
        (
            _step(tool_calls="verify_identity"),
            "AgentStep.tool_calls must be a tuple or list of ToolCall, got str",
        ),
        (
            _step(tool_calls=ToolCall("c1", "x", "{}")),
            "AgentStep.tool_calls must be a tuple or list of ToolCall, got ToolCall",
        ),
        (
            _step(tool_calls=[{"name": "list_charges", "arguments": "{}"}]),
            "AgentStep.tool_calls[0] must be a supportsim.llm.ToolCall, got dict",
        ),
        (
            _step(tool_calls=[ToolCall("c1", "", "{}")]),
            "AgentStep.tool_calls[0].name must be a non-empty string",
        ),
        (
            _step(tool_calls=[ToolCall("c1", "x", ["a"])]),  # type: ignore[arg-type]
            "AgentStep.tool_calls[0].arguments must be a JSON string or a dict, got list",
        ),
        (
            _step(tool_calls=[ToolCall("c1", "x", {"when": object()})]),  # type: ignore[arg-type]
            "AgentStep.tool_calls[0].arguments must be JSON-serialisable",
        ),
        (_step(llm="fast"), "AgentStep.llm must be an LLMCall or None, got str"),
    ],
)
def test_what_cannot_be_normalised_is_refused_with_a_reason(value: Any, message: str) -> None:
    with pytest.raises(AgentFault) as caught:
        checked_step(value)
    assert str(caught.value).startswith(message)


# --- in a conversation: a harness_error with the reason -------------------------------------


class _Returns:
    def __init__(self, value: Any) -> None:
        self.value = value

    async def step(self, context: AgentContext, history: Sequence[Message]) -> Any:
        return self.value


class _Raises:
    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        raise KeyError("customer_id")


class _SdkStyle:
    """What an Agent wrapping the OpenAI SDK naively returns: None content on a tool-call
    turn, arguments as a dict."""

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        if history[-1].role == "tool":
            return AgentStep("You have two charges.")
        call = ToolCall("c1", "list_charges", {"customer_id": "C-1"})  # type: ignore[arg-type]
        return AgentStep(content=None, tool_calls=[call])  # type: ignore[arg-type]


async def _converse(agent: Any, scenario: Scenario) -> Any:
    env = Environment(mock.domain(), scenario)
    return await run_conversation(
        env,
        CheckedAgent(agent, "mine"),
        ScriptedCustomer(["Hi."]),
        AgentContext("", ()),
        Limits(timeout_s=30),
    )


async def test_an_sdk_style_step_is_normalised_and_the_conversation_completes(
    scenario: Scenario,
) -> None:
    t = await _converse(_SdkStyle(), scenario)
    assert (t.status, t.termination) == ("completed", "customer_done")
    assert [c.name for c in t.calls] == ["list_charges"]
    assert t.calls[0].ok


@pytest.mark.parametrize(
    ("agent", "reason"),
    [
        (_Returns(AgentStep(content=7)), "agent 'mine': AgentStep.content must be a string"),
        (_Returns({"content": "hi"}), "agent 'mine': step must return an AgentStep, got dict"),
        (_Raises(), "agent 'mine' raised KeyError: 'customer_id'"),
    ],
)
async def test_a_broken_step_is_a_harness_error_whose_reason_says_what_was_wrong(
    scenario: Scenario, agent: Any, reason: str
) -> None:
    t = await _converse(agent, scenario)
    assert (t.status, t.termination) == ("harness_error", "error")
    assert t.end_reason.startswith(reason)
    assert len(t.end_reason.splitlines()) == 1
    assert t.error.startswith(reason) and "Traceback" in t.error


# --- shapes, checked when the spec is parsed ------------------------------------------------


class _NoStep:
    name = "x"


class _SyncStep:
    def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


class _OneArg:
    async def step(self, context: AgentContext) -> AgentStep:
        return AgentStep("hi")


class _Good:
    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


def test_agent_shapes() -> None:
    assert agent_problem(_Good()) is None
    assert "has no step method" in (agent_problem(_NoStep()) or "")
    assert "step must be async" in (agent_problem(_SyncStep()) or "")
    assert "cannot be called as step(context, history)" in (agent_problem(_OneArg()) or "")


def test_graph_shapes() -> None:
    from langgraph.graph import END, START, MessagesState, StateGraph

    graph = StateGraph(MessagesState)
    graph.add_node("n", lambda s: {"messages": []})
    graph.add_edge(START, "n")
    graph.add_edge("n", END)
    assert "uncompiled StateGraph (return graph.compile())" in (graph_problem(graph) or "")
    assert graph_problem(graph.compile()) is None
    assert "not a compiled graph" in (graph_problem(_Good()) or "")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:contract_agents:NoStep", "contract_agents:NoStep: did not return an Agent"),
        ("python:contract_agents:SyncStep", "SyncStep.step must be async"),
        ("python:contract_agents:exploding", "calling it raised RuntimeError: no API key"),
        ("langgraph:contract_agents:uncompiled", "uncompiled StateGraph"),
    ],
)
def test_a_plugin_of_the_wrong_shape_is_refused_naming_the_spec(spec: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_agent_spec(spec, {})
    assert str(caught.value).startswith(f"--agent {spec}: ")
    assert message in str(caught.value)


def test_labels_come_from_the_name_attribute_or_label_equals_spec() -> None:
    named = parse_agent_spec("python:contract_agents:Named", {})
    assert (named.label, named.label_from) == ("team-bot", "name")
    given = parse_agent_spec("mine=python:contract_agents:Named", {})
    assert (given.label, given.label_from, given.spec) == (
        "mine",
        "given",
        "python:contract_agents:Named",
    )
    unnamed = parse_agent_spec("python:contract_agents:Unnamed", {})
    assert (unnamed.label, unnamed.label_from) == ("python:contract_agents:Unnamed", "spec")
    # An "=" after the first ":" belongs to the spec (a URL query), not a label.
    http = parse_agent_spec("http:http://127.0.0.1:9/v1?a=b", {})
    assert http.label == "http:http://127.0.0.1:9/v1?a=b" and http.label_from == "spec"
