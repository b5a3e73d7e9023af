"""``plan_responder``: the mock model that plays a scenario's reference plan, so Agents
with their own prompt and tool loop can be driven through whole scenarios offline."""

from __future__ import annotations

import pytest
from convo_helpers import Harness, record_json

from supportsim.scenario import Persona, Scenario
from supportsim.testing import MockLLMServer, RecordedRequest, plan_responder


async def test_an_llm_agent_on_the_plan_model_scores_strict_1_in_either_wire_format(
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    # In-process, earlier turns' tool traffic is in every request: the turn is still read
    # from the text replies, so the plan is played once, in order.
    server.default("plan-m", plan_responder([scenario]))

    record = record_json(
        await Harness(server, provider).run(
            scenario, persona, agent=f"{provider}:plan-m", customer="scripted"
        )
    )

    assert (record["status"], record["strict"]) == ("completed", True), record["checks"]
    assert [c["name"] for c in record["calls"]] == [
        "verify_identity",
        "list_charges",
        "refund_charge",
    ]


def request(*messages: dict[str, object]) -> RecordedRequest:
    body = {"model": "plan-m", "messages": list(messages)}
    return RecordedRequest("openai", "/v1/chat/completions", "plan-m", False, body, "", {}, 0.0)


def test_it_answers_by_position_and_refuses_a_conversation_it_does_not_know(
    scenario: Scenario,
) -> None:
    respond = plan_responder([scenario])
    opening = scenario.customer.opening
    first = respond(request({"role": "user", "content": opening}))
    assert first.tool_calls[0].name == "verify_identity"
    # Its own tool traffic of the turn counts; text replies of earlier turns move the turn.
    later = respond(
        request(
            {"role": "user", "content": opening},
            {"role": "assistant", "content": "I see CH-2 of 30 USD. Shall I refund it?"},
            {"role": "user", "content": "Yes please."},
        )
    )
    assert later.tool_calls[0].name == "refund_charge"

    with pytest.raises(ValueError, match="no scenario opens with 'Hello there'"):
        respond(request({"role": "user", "content": "Hello there"}))
    with pytest.raises(ValueError, match="two scenarios open with"):
        plan_responder([scenario, scenario])
