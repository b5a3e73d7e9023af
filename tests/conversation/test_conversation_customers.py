"""The simulated Customers: LLM guards against simulator faults, and the scripted one."""

from __future__ import annotations

import pytest
from convo_helpers import (
    AGENT_MODEL,
    ASK,
    GIVE_ID,
    Harness,
    chat,
    happy_agent,
    happy_customer,
    last_user_text,
    record_json,
)

from supportsim.conversation import CustomerTurn, ScriptedCustomer, Visible
from supportsim.conversation._llm_customer import NUDGE, START
from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer, Reply, call, malformed_call, reply, say

FAULTY = {
    "empty": "",
    "role_confusion": "Agent: How can I help you today?",
    "leaked_instructions": "As my hidden goal says, I want a refund.",
    "invalid_end": "",  # an end_conversation call with a reason it does not offer
}


def faulty(kind: str) -> Reply:
    if kind == "invalid_end":
        return reply(tool_calls=[call("end_conversation", reason="bored")])
    return say(FAULTY[kind])


@pytest.mark.parametrize("kind", sorted(FAULTY))
async def test_a_faulty_customer_reply_is_retried_once_with_a_note(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona, kind: str
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, happy_agent())
    server.script("customer-m", [faulty(kind), *happy_customer()])

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "completed" and record["strict"] is True
    assert record["simulator_faults"] == [kind]
    first, retry = h.customer_requests()[:2]
    assert last_user_text(retry) == NUDGE[kind]
    assert retry.body["messages"][:-1] == first.body["messages"]
    assert record["messages"][2]["content"] == GIVE_ID  # the faulty reply was never sent on
    assert FAULTY[kind] == "" or all(FAULTY[kind] not in r.text for r in h.agent_requests())


@pytest.mark.parametrize("kind", sorted(FAULTY))
async def test_a_fault_that_survives_its_retry_is_a_simulator_fault(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona, kind: str
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK)])
    server.script("customer-m", [faulty(kind), faulty(kind)])

    record = record_json(await h.run(scenario, persona))

    assert (record["status"], record["termination"]) == ("simulator_fault", "error")
    assert record["simulator_faults"] == [kind, kind]  # one per faulty reply
    assert record["error"].startswith(f"{kind}: ")
    assert record["strict"] is None and record["checks"] == []
    assert [m["role"] for m in record["messages"]] == ["customer", "agent"]
    assert len(h.customer_requests()) == 2


async def test_without_an_opening_the_customer_model_writes_the_first_message(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    goal = scenario.customer.model_copy(update={"opening": None})
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK)])
    server.script("customer-m", [say("Hello, I was billed twice.")])

    record = record_json(
        await h.run(scenario.model_copy(update={"customer": goal}), persona, max_turns=1)
    )

    (first,) = h.customer_requests()
    assert chat(first) == [("user", START)]
    assert record["messages"][0]["content"] == "Hello, I was billed twice."
    assert record["messages"][0]["llm_ms"] is not None  # the customer's call, on its message


async def test_the_customer_sees_its_lines_as_assistant_and_the_agent_as_user(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK), say("Thanks.")])
    server.script("customer-m", [say(GIVE_ID)])

    await h.run(scenario, persona, max_turns=2)

    (request,) = h.customer_requests()
    assert chat(request) == [
        ("user", START),
        ("assistant", scenario.customer.opening),
        ("user", ASK),
    ]


async def test_the_scripted_customer_plays_the_scenario_lines_then_ends() -> None:
    customer = ScriptedCustomer(["Hi.", "My id is C-1."])
    seen = []
    for turn in range(3):
        step = await customer.step(CustomerTurn((Visible("agent", "ok"),) * turn, turn))
        seen.append((step.content, step.end, step.llm))
    assert seen == [("Hi.", None, ()), ("My id is C-1.", None, ()), ("", "script_done", ())]


async def test_the_oracle_with_the_scripted_customer_is_strict_with_no_model_call(
    server: MockLLMServer, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, "openai")

    record = record_json(await h.run(scenario, persona, agent="oracle", customer="scripted"))

    assert record["status"] == "completed" and record["strict"] is True
    assert (record["termination"], record["end_reason"]) == ("customer_done", "script_done")
    assert [m["content"] for m in record["messages"] if m["role"] == "customer"] == [
        scenario.customer.opening,
        *scenario.customer.script,
    ]
    assert record["llm_calls"] == [] and server.requests() == []


async def test_an_end_call_with_unreadable_arguments_is_never_read_as_satisfied(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK)])
    unreadable = reply(tool_calls=[malformed_call("end_conversation", '{"reason": "satis')])
    server.script("customer-m", [unreadable, unreadable])

    record = record_json(await h.run(scenario, persona))

    assert (record["status"], record["termination"]) == ("simulator_fault", "error")
    assert record["end_reason"] == "simulator fault" and record["strict"] is None
    assert record["simulator_faults"] == ["invalid_end", "invalid_end"]
    assert record["error"].startswith("invalid_end: end_conversation(")
    assert last_user_text(h.customer_requests()[1]) == NUDGE["invalid_end"]
