"""Whole conversations over the mock server, for the OpenAI and the Anthropic wire format.

Each test drives the real path (run_unit -> build participants -> ModelPool caller ->
real SDK -> loopback HTTP) and asserts on the record and on the requests the server got.
"""

from __future__ import annotations

import pytest
from convo_helpers import (
    AGENT_MODEL,
    AGREE,
    ASK,
    DONE,
    GIVE_ID,
    LIST,
    OFFER,
    REFUND,
    VERIFY,
    Harness,
    assistant_calls,
    end,
    happy_agent,
    happy_customer,
    last_user_text,
    record_json,
    system_text,
    tool_names,
    tool_parameters,
    tool_results,
)

from supportsim.conversation import END_TOOL
from supportsim.conversation._llm_customer import NUDGE_PREMATURE
from supportsim.domains import mock
from supportsim.llm import ModelConfig, Price
from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer, hang, http_error, malformed_call, reply, say

ALL_TOOLS = [
    "verify_identity",
    "get_customer",
    "list_charges",
    "refund_charge",
    "update_email",
    "transfer_to_human",
    "search_knowledge_base",
]


def roles(record: dict) -> list[tuple[str, str]]:
    return [
        (m["role"], m["content"] if m["role"] != "tool" else m["name"]) for m in record["messages"]
    ]


async def test_full_conversation_ends_satisfied_with_strict_1(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, happy_agent())
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona))

    assert (record["status"], record["termination"], record["end_reason"]) == (
        "completed",
        "customer_done",
        "satisfied",
    )
    assert record["strict"] is True and record["partial"] == 1.0
    assert all(c["passed"] for c in record["checks"]), record["checks"]
    assert roles(record) == [
        ("customer", scenario.customer.opening),
        ("agent", ASK),
        ("customer", GIVE_ID),
        ("agent", ""),
        ("tool", "verify_identity"),
        ("tool", "list_charges"),
        ("agent", OFFER),
        ("customer", AGREE),
        ("agent", ""),
        ("tool", "refund_charge"),
        ("agent", DONE),
    ]
    assert [m["turn"] for m in record["messages"]] == [1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3]
    assert record["simulator_faults"] == [] and record["error"] is None
    # The opening is the scenario's line: the customer model is asked only for replies.
    assert len(h.agent_requests()) == 5 and len(h.customer_requests()) == 3
    assert all(r.stream for r in server.requests())
    # Unpriced models: cost is unknown (null), never a made-up 0.
    assert record["cost_usd"] is None and record["agent_cost_usd"] is None
    assert all(c["cost_usd"] is None for c in record["llm_calls"])
    assert [c["role"][0] for c in record["llm_calls"]] == list("acaacaac")
    assert [c["model"] for c in record["llm_calls"][:2]] == [AGENT_MODEL, "customer-m"]


async def test_agent_gets_policy_context_and_the_domain_tool_schemas(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, happy_agent())
    server.script("customer-m", happy_customer())
    await h.run(scenario, persona)

    first = h.agent_requests()[0]
    assert system_text(first).count(mock._domain.POLICY.strip()) == 1
    assert "- today: 2026-03-14" in system_text(first)
    assert tool_names(first) == ALL_TOOLS
    tools = mock.domain().tools
    expected = {name: tools[name].parameters() for name in ALL_TOOLS}
    assert tool_parameters(first) == expected
    assert expected["refund_charge"]["required"] == ["customer_id", "charge_id", "amount"]
    assert expected["refund_charge"]["properties"]["amount"]["exclusiveMinimum"] == 0
    # The customer is offered its end tool and nothing else.
    for request in h.customer_requests():
        assert tool_names(request) == [END_TOOL.name]


async def test_scenario_tools_restrict_what_the_agent_is_offered(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    narrow = scenario.model_copy(update={"tools": ["verify_identity", "refund_charge"]})
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK), reply(tool_calls=[LIST]), say("That tool is gone.")])
    server.script("customer-m", [say(GIVE_ID)])

    record = record_json(await h.run(narrow, persona, max_turns=2))

    assert tool_names(h.agent_requests()[0]) == ["verify_identity", "refund_charge"]
    tool = next(m for m in record["messages"] if m["role"] == "tool")
    assert tool["is_error"] is True
    assert tool["content"].startswith('{"error":"unknown tool \'list_charges\'; tools: ')


async def test_parallel_tool_calls_run_in_order_and_are_all_answered(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, happy_agent())
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona))

    parallel = record["messages"][3]
    assert [c["name"] for c in parallel["tool_calls"]] == ["verify_identity", "list_charges"]
    ids = [c["id"] for c in parallel["tool_calls"]]
    answers = record["messages"][4:6]
    assert [m["tool_call_id"] for m in answers] == ids
    assert answers[0]["content"] == '{"verified":true,"customer_id":"C-1"}'
    assert answers[1]["content"].startswith('{"charges":[{"id":"CH-1"')
    # The next request carries both calls and both results, in order, answering by id.
    after = h.agent_requests()[2]
    (sent,) = assistant_calls(after)
    assert [(c.id, c.name) for c in sent] == list(
        zip(ids, ["verify_identity", "list_charges"], strict=True)
    )
    results = tool_results(after)
    assert [r.id for r in results] == ids
    assert [r.content for r in results] == [m["content"] for m in answers]
    if provider == "anthropic":  # both results in the one user message after the call
        assert [b["type"] for b in after.body["messages"][-1]["content"]] == ["tool_result"] * 2
        assert [r.is_error for r in results] == [False, False]


async def test_malformed_tool_arguments_become_a_tool_error_the_agent_sees(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    bad = malformed_call("verify_identity", '{"customer_id": "C-1", "pin": ')
    server.script(
        AGENT_MODEL,
        [say(ASK), reply(tool_calls=[bad]), reply(tool_calls=[VERIFY, LIST]), *happy_agent()[2:]],
    )
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "completed" and record["strict"] is True
    call_message, error = record["messages"][3:5]
    assert call_message["tool_calls"][0]["arguments"] == '{"customer_id": "C-1", "pin": '
    assert error["role"] == "tool" and error["is_error"] is True
    assert error["content"].startswith('{"error":"arguments are not valid JSON (')
    (seen,) = tool_results(h.agent_requests()[2])
    assert seen.id == call_message["tool_calls"][0]["id"]
    assert seen.content == error["content"]
    assert seen.is_error is (True if provider == "anthropic" else None)


async def test_max_turns_stops_the_conversation(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK), say("Let me think about it.")])
    server.script("customer-m", [say(GIVE_ID)])

    record = record_json(await h.run(scenario, persona, max_turns=2))

    assert (record["status"], record["termination"]) == ("completed", "max_turns")
    assert record["end_reason"] == "2 customer turns"
    assert record["strict"] is False
    outcome = next(c for c in record["checks"] if c["id"] == "outcome")
    assert outcome["reason"] == "not resolved: the conversation ended by max_turns"
    assert [m["role"] for m in record["messages"]] == ["customer", "agent"] * 2
    assert len(h.agent_requests()) == 2 and len(h.customer_requests()) == 1


async def test_429_is_retried_after_retry_after_then_succeeds(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [http_error(429, retry_after_s=0.01), *happy_agent()])
    server.script("customer-m", [http_error(429, retry_after_s=0.02), *happy_customer()])

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "completed" and record["strict"] is True
    assert h.slept == [0.01, 0.02]  # the server's Retry-After, before the second attempts
    assert (h.pool.stats.retries, h.pool.stats.errors) == (2, 0)
    assert len(h.agent_requests()) == 6 and len(h.customer_requests()) == 4
    assert len(record["llm_calls"]) == 8  # failed attempts are not calls with usage


async def test_429_until_attempts_run_out_is_an_infra_error(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider, max_attempts=2)
    server.script(AGENT_MODEL, [http_error(429), http_error(429)])

    record = record_json(await h.run(scenario, persona))

    assert (record["status"], record["termination"]) == ("infra_error", "error")
    assert record["error"].startswith(f"ProviderError: {provider}:{AGENT_MODEL}: HTTP 429")
    assert record["strict"] is None and record["checks"] == []
    assert [m["role"] for m in record["messages"]] == ["customer"]


async def test_a_hang_is_bounded_by_the_call_timeout_not_blamed_on_the_agent(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    # The conversation bound (0.3 s) is shorter than the call timeout (0.6 s): the hung
    # provider is still an infra error, never a `timeout` scored against the Agent.
    h = Harness(server, provider, max_attempts=1, call_timeout_s=0.6)
    server.script(AGENT_MODEL, [say(ASK), hang()])
    server.script("customer-m", [say(GIVE_ID)])

    record = record_json(await h.run(scenario, persona, timeout_s=0.3))

    assert (record["status"], record["termination"]) == ("infra_error", "error")
    assert record["error"].startswith(f"ProviderTimeout: {provider}:{AGENT_MODEL}: ")
    assert record["strict"] is None and record["checks"] == []
    assert [m["role"] for m in record["messages"]] == ["customer", "agent", "customer"]


async def test_a_hung_call_times_out_and_is_retried(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider, call_timeout_s=0.2)
    server.script(AGENT_MODEL, [hang(), *happy_agent()])
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "completed" and record["strict"] is True
    assert h.pool.stats.retries == 1 and len(h.agent_requests()) == 6


async def test_a_call_that_always_hangs_is_an_infra_error(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider, max_attempts=2, call_timeout_s=0.1)
    server.script(AGENT_MODEL, [hang(), hang()])

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "infra_error"
    assert record["error"].startswith(f"ProviderTimeout: {provider}:{AGENT_MODEL}: ")
    assert h.pool.stats.retries == 1 and len(h.agent_requests()) == 2


async def test_a_customer_stopping_too_early_is_told_to_go_on(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, happy_agent())
    server.script("customer-m", [end(), say(GIVE_ID), say(AGREE), end()])

    record = record_json(await h.run(scenario, persona))

    assert record["status"] == "completed" and record["strict"] is True
    assert record["simulator_faults"] == []
    first, nudged = h.customer_requests()[:2]
    assert last_user_text(nudged) == NUDGE_PREMATURE
    assert nudged.body["messages"][:-1] == first.body["messages"]
    # The customer's message that turn is its reply to the nudge, timed as its own call.
    assert record["messages"][2]["content"] == GIVE_ID
    assert [c["role"] for c in record["llm_calls"][:3]] == ["agent", "customer", "customer"]
    # Ending once the refund went through is not premature: no second nudge.
    assert NUDGE_PREMATURE not in h.customer_requests()[-1].text


async def test_a_customer_insisting_on_stopping_too_early_is_flagged(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK)])
    server.script("customer-m", [end(), end()])

    record = record_json(await h.run(scenario, persona))

    assert (record["status"], record["termination"]) == ("completed", "customer_done")
    assert record["end_reason"] == "satisfied"
    assert record["simulator_faults"] == ["premature_end"]
    assert record["strict"] is False
    assert len(h.customer_requests()) == 2


async def test_gave_up_is_not_guarded(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    server.script(AGENT_MODEL, [say(ASK)])
    server.script("customer-m", [end("gave_up")])

    record = record_json(await h.run(scenario, persona))

    assert (record["termination"], record["end_reason"]) == ("customer_done", "gave_up")
    assert record["simulator_faults"] == [] and len(h.customer_requests()) == 1
    outcome = next(c for c in record["checks"] if c["id"] == "outcome")
    assert outcome == {
        "id": "outcome",
        "kind": "outcome",
        "passed": False,
        "reason": "not resolved: the customer gave up",
        "weight": 1.0,
        "rule": None,  # an outcome check is no communication check: nothing to judge
        "judged": None,
    }


async def test_reasoning_is_kept_in_the_agent_history_and_the_record(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    h = Harness(server, provider)
    thought = "REASONING-7 check identity and charges together"
    agent = happy_agent()
    agent[1] = reply(tool_calls=[VERIFY, LIST], reasoning=thought)
    server.script(AGENT_MODEL, agent)
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona))

    assert record["strict"] is True
    assert record["messages"][3]["reasoning"] == thought
    later = h.agent_requests()[2]
    assistant = [m for m in later.body["messages"] if m["role"] == "assistant"][1]
    if provider == "openai":
        assert assistant["reasoning_content"] == thought
    else:  # sent back as the signed thinking block, first in the message
        block = assistant["content"][0]
        assert block["type"] == "thinking" and block["thinking"] == thought
        assert block["signature"].startswith("mocksig_")
    assert all("REASONING-7" not in r.text for r in h.customer_requests())


async def test_cost_per_call_from_model_prices(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    base = server.url + "/v1" if provider == "openai" else server.url
    priced = ModelConfig(
        name="priced",
        provider=provider,  # type: ignore[arg-type]
        model=AGENT_MODEL,
        base_url=base,
        api_key_env=None,
        price=Price(input_per_mtok=1.0, output_per_mtok=2.0),
    )
    h = Harness(server, provider)
    usage = {"input_tokens": 1000, "output_tokens": 100}
    server.script(
        AGENT_MODEL,
        [
            say(ASK, **usage),
            reply(tool_calls=[VERIFY, LIST], **usage),
            say(OFFER, **usage),
            reply(tool_calls=[REFUND], **usage),
            say(DONE, **usage),
        ],
    )
    server.script("customer-m", happy_customer())

    record = record_json(await h.run(scenario, persona, agent="priced", models={"priced": priced}))

    assert record["agent"] == "priced" and record["strict"] is True
    agent_calls = [c for c in record["llm_calls"] if c["role"] == "agent"]
    assert [(c["input_tokens"], c["output_tokens"]) for c in agent_calls] == [(1000, 100)] * 5
    assert [c["cost_usd"] for c in agent_calls] == [pytest.approx(0.0012)] * 5
    replies = [m for m in record["messages"] if m["role"] == "agent" and m["content"]]
    assert [m["cost_usd"] for m in replies] == [
        pytest.approx(0.0012),
        pytest.approx(0.0024),
    ] * 1 + [pytest.approx(0.0024)]
    assert [m["input_tokens"] for m in replies] == [1000, 2000, 2000]
    assert record["agent_cost_usd"] == pytest.approx(0.006)
    # The customer model has no price: its cost, and so the total, is unknown.
    assert record["customer_cost_usd"] is None and record["cost_usd"] is None
    assert h.pool.stats.spend_usd == pytest.approx(0.006)
