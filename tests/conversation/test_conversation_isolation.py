"""Information isolation, asserted on what the provider actually received.

The Agent's requests must never carry the Customer's hidden goal, persona or the expected
workflow; the Customer's requests must never carry tool calls, tool results, the Agent's
policy or its reasoning. Markers are distinctive strings the scripted lines never say:
facts the Customer says aloud (its id, its PIN) legitimately reach the Agent.
"""

from __future__ import annotations

from convo_helpers import (
    AGENT_MODEL,
    AGREE,
    GIVE_ID,
    LIST,
    REFUND,
    VERIFY,
    Harness,
    end,
    happy_agent,
    record_json,
)

from supportsim.domains import mock
from supportsim.scenario import CustomerGoal, Persona, Scenario, Step
from supportsim.testing import MockLLMServer, reply, say

GOAL_MARKERS = {
    "reason": "REASON-MARK-7731 duplicate billing",
    "fact": "FACT-MARK-5519",
    "unknown": "UNKNOWN-MARK-8812",
    "accept": "ACCEPT-MARK-3301",
    "gives_up": "GIVEUP-MARK-4402",
}
PERSONA_MARKERS = {"name": "Quillamina", "tone": "TONE-MARK-1207", "style": "STYLE-MARK-6604"}
WORKFLOW_MARKERS = ("wf-mark-verify", "wf-mark-confirm", "SAY-MARK-2207", "ORACLE-MARK-1105")
SCENARIO_MARKERS = ("TITLE-MARK-9090", "FAILURE-MARK-8080", "forbid-mark-7070")
REASONING = "THOUGHT-MARK-4545 verify first"


def marked(scenario: Scenario, persona: Persona) -> tuple[Scenario, Persona]:
    """The fixture scenario with every hidden field carrying a marker."""
    goal = CustomerGoal(
        reason=GOAL_MARKERS["reason"],
        known_facts={"customer_id": "C-1", "pin": "4321", "loyalty_code": GOAL_MARKERS["fact"]},
        unknown_facts=[GOAL_MARKERS["unknown"]],
        will_accept=GOAL_MARKERS["accept"],
        gives_up_when=GOAL_MARKERS["gives_up"],
        opening=scenario.customer.opening,
    )
    workflow = [
        Step(id="wf-mark-verify", tool="verify_identity", args={"customer_id": "C-1"}),
        Step(id="wf-mark-confirm", say=["SAY-MARK-2207"], text="ORACLE-MARK-1105"),
        *scenario.workflow[3:],
    ]
    forbidden = [scenario.forbidden[0].model_copy(update={"id": "forbid-mark-7070"})]
    hidden = scenario.model_copy(
        update={
            "title": "TITLE-MARK-9090",
            "failure_mode": "FAILURE-MARK-8080",
            "customer": goal,
            "workflow": workflow,
            "forbidden": forbidden,
        }
    )
    voice = persona.model_copy(
        update={
            "name": PERSONA_MARKERS["name"],
            "tone": PERSONA_MARKERS["tone"],
            "style": PERSONA_MARKERS["style"],
        }
    )
    return hidden, voice


async def test_hidden_goal_persona_and_workflow_never_reach_the_agent_and_tools_never_reach_the_customer(  # noqa: E501
    server: MockLLMServer, provider: str, scenario: Scenario, persona: Persona
) -> None:
    hidden, voice = marked(scenario, persona)
    h = Harness(server, provider)
    agent = happy_agent()
    agent[1] = reply("Let me check.", tool_calls=[VERIFY, LIST], reasoning=REASONING)
    server.script(AGENT_MODEL, agent)
    # A role confusion and an early end: the simulator's corrective notes stay on its side.
    server.script(
        "customer-m",
        [say("Agent: how can I help you?"), say(GIVE_ID), end(), say(AGREE), end()],
    )

    record = record_json(await h.run(hidden, voice))

    assert record["status"] == "completed" and record["termination"] == "customer_done"
    agent_requests, customer_requests = h.agent_requests(), h.customer_requests()
    assert len(agent_requests) == 5 and len(customer_requests) == 5

    # The customer side really had the secrets; the agent side never did.
    secrets = [
        *GOAL_MARKERS.values(),
        *PERSONA_MARKERS.values(),
        *WORKFLOW_MARKERS,
        *SCENARIO_MARKERS,
        hidden.id,
        "end_conversation",  # the simulator's tool
        "Note to the customer",  # its premature-end note
        "you are the CUSTOMER",  # its role-confusion note
        "Agent: how can I help",  # a reply the guard rejected
    ]
    for marker in [*GOAL_MARKERS.values(), *PERSONA_MARKERS.values()]:
        assert marker in customer_requests[0].text
    for request in agent_requests:
        leaked = [s for s in secrets if s in request.text]
        assert leaked == [], f"agent request {agent_requests.index(request)} got {leaked}"
    # What the customer said aloud did reach the agent.
    assert GIVE_ID in agent_requests[1].text and AGREE in agent_requests[3].text

    # Tool traffic, the Agent's policy and its reasoning never reach the customer.
    tool_messages = [m for m in record["messages"] if m["role"] == "tool"]
    call_ids = [c["id"] for m in record["messages"] for c in m["tool_calls"]]
    assert len(tool_messages) == 3 and len(call_ids) == 3
    private = [
        *mock.domain().tools,  # every tool name
        *call_ids,
        VERIFY.arguments,
        LIST.arguments,
        REFUND.arguments,
        '"pin": "4321"',
        "March plan (again)",  # only in list_charges' result
        "refunded",  # only in results (the customer says "refund")
        "verified",
        mock._domain.POLICY.splitlines()[0],
        "2026-03-14",  # the Agent's scenario context
        "THOUGHT-MARK-4545",
    ]
    for request in customer_requests:
        leaked = [p for p in private if p in request.text]
        assert leaked == [], f"customer request {customer_requests.index(request)} got {leaked}"
    # The text the Agent wrote next to its tool calls is customer-facing, and was shown.
    assert "Let me check." in customer_requests[-2].text
