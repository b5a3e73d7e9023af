"""The tau2 conversation mode holds a conversation as tau2-bench's orchestrator does.

Each test drives a whole unit through the real path (run_unit, real SDKs, the loopback
mock server) on the tau2_retail domain over the fixture data (tests/fixtures/tau2, MIT) and
reads what each side was sent. The expected texts are written out here from tau2's code
(llm_agent.py, user_simulator.py, orchestrator.py, environment.py), not taken from ours.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from convo_helpers import (
    AGENT_MODEL,
    Harness,
    chat,
    record_json,
    system_text,
    tool_names,
    tool_results,
)

from supportsim.batch import Unit, UnitContext, run_unit
from supportsim.errors import ToolError
from supportsim.scenario import Persona, Scenario, Tau2Instructions, Tau2Source, Tau2Task
from supportsim.store import ConversationRecord
from supportsim.tau2 import (
    Tau2Rules,
    tau2_prompts,
    tau2_user_system_prompt,
    tool_content,
    user_scenario_text,
    uses_tau2,
)
from supportsim.tau2.retail import Tau2Domain, db_hash, domain
from supportsim.testing import MockLLMServer, Reply, call, reply, say

DATA = Path(__file__).parents[1] / "fixtures" / "tau2"
RETAIL = DATA / "domains" / "retail"
GREETING = "Hi! How can I help you today?"
OPENING = "Hi, I'd like to exchange a keyboard from my order #W2378156."
USER = "yusuf_rossi_9620"
EMAIL = "yusuf.rossi7301@example.com"
AGENT_INSTRUCTION = (
    "You are a customer service agent that helps the user according to the <policy> "
    "provided below.\nIn each turn you can either:\n- Send a message to the user.\n"
    "- Make a tool call.\nYou cannot do both at the same time.\n\nTry to be helpful and "
    "always follow the policy. Always make sure you generate valid JSON only."
)


@pytest.fixture(scope="module")
def retail() -> Tau2Domain:
    return domain(DATA)


@pytest.fixture
def persona() -> Persona:
    return Persona(id="neutral", name="Yusuf", tone="calm")


@pytest.fixture
def scenario() -> Scenario:
    return Scenario.model_validate(
        {
            "id": "tau2-mode",
            "title": "tau2 mode",
            "domain": "tau2_retail",
            "persona": "neutral",
            "tags": ["billing"],
            "max_turns": 3,  # ignored by the tau2 mode: tau2 bounds steps, not turns
            "customer": {
                "reason": "Exchange the keyboard of order #W2378156.",
                "known_facts": {"name": "Yusuf Rossi", "zip": "19122"},
                "unknown_facts": ["email"],
            },
        }
    )


async def run_tau2(
    server: MockLLMServer,
    provider: str,
    retail: Tau2Domain,
    scenario: Scenario,
    persona: Persona,
    *,
    mode: str = "tau2",
    rules: Tau2Rules | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[Harness, dict[str, Any]]:
    h = Harness(server, provider)
    ctx: UnitContext = h.context(scenario, persona)
    ctx.domains = {"tau2_retail": retail}
    ctx.conversation_mode = mode  # type: ignore[assignment]
    if rules is not None and monkeypatch is not None:
        monkeypatch.setattr("supportsim.tau2.conversation_rules", lambda: rules)
    (agent,) = ctx.agents
    try:
        record: ConversationRecord = await run_unit(Unit(scenario.id, agent, 1), ctx)
    finally:
        await h.pool.aclose()
    return h, record_json(record)


def customer_script(*lines: str) -> list[Reply]:
    return [say(line) for line in lines]


# --- prompts and greeting ---------------------------------------------------------------------


async def test_the_agent_gets_tau2s_prompt_and_opens_with_the_greeting_in_its_history(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(AGENT_MODEL, [say("Sure, what is your email?")])
    server.script("customer-m", customer_script(OPENING, "Thanks. ###STOP###"))

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    policy = (RETAIL / "policy.md").read_text(encoding="utf-8")
    (first,) = h.agent_requests()
    expected = (
        f"<instructions>\n{AGENT_INSTRUCTION}\n</instructions>\n<policy>\n{policy}\n</policy>"
    )
    assert system_text(first) == expected
    assert chat(first) == [("assistant", GREETING), ("user", OPENING)]
    assert "transfer_to_human_agents" in tool_names(first)
    assert "transfer_to_human" not in tool_names(first)
    assert [(m["role"], m["content"]) for m in record["messages"][:2]] == [
        ("agent", GREETING),
        ("customer", OPENING),
    ]


async def test_our_mode_has_no_greeting_and_keeps_our_prompt(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(AGENT_MODEL, [say("Sure, what is your email?")])
    server.script("customer-m", [reply(tool_calls=[call("end_conversation", reason="gave_up")])])
    goal = scenario.customer.model_copy(update={"opening": OPENING})

    h, record = await run_tau2(
        server,
        provider,
        retail,
        scenario.model_copy(update={"customer": goal}),
        persona,
        mode="supportsim",
    )

    (first,) = h.agent_requests()
    assert not system_text(first).startswith("<instructions>")
    assert chat(first)[0] == ("user", OPENING)
    assert record["messages"][0]["role"] == "customer"


async def test_the_user_simulator_gets_tau2s_prompt_and_the_greeting_first_without_tools(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(AGENT_MODEL, [say("Sure, what is your email?")])
    server.script("customer-m", customer_script(OPENING, "I don't remember it. ###STOP###"))

    h, _ = await run_tau2(server, provider, retail, scenario, persona)

    first, second = h.customer_requests()
    text = system_text(first)
    assert text.startswith("# User Simulation Guidelines\nYou are playing the role of a customer")
    assert "generate the '###STOP###' token to end the conversation" in text
    assert text.endswith(
        "consistency.\n\n\n<scenario>\nPersona:\n\tYusuf. Tone: calm. "
        "Message length: normal.\nInstructions:\n\tDomain: tau2_retail\n"
        "\tReason for call:\n\t\tExchange the keyboard of order #W2378156.\n"
        "\tKnown info:\n\t\tname: Yusuf Rossi\n\t\tzip: 19122\n"
        "\tUnknown info:\n\t\temail\n\tTask instructions:\n"
        "\t\tYou want a clear resolution of your request.\n</scenario>"
    )
    assert chat(first) == [("user", GREETING)]
    assert chat(second) == [
        ("user", GREETING),
        ("assistant", OPENING),
        ("user", "Sure, what is your email?"),
    ]
    assert not first.body.get("tools")


def test_a_tau2_task_user_scenario_renders_as_tau2s_str_user_scenario() -> None:
    task = json.loads((RETAIL / "tasks.json").read_text(encoding="utf-8"))[0]
    i = task["user_scenario"]["instructions"]
    text = user_scenario_text(i, task["user_scenario"]["persona"])
    assert text == (
        "Instructions:\n\tDomain: retail\n\tReason for call:\n\t\t"
        + i["reason_for_call"]
        + "\n\tKnown info:\n\t\t"
        + i["known_info"]
        + "\n\tUnknown info:\n\t\t"
        + i["unknown_info"]
        + "\n\tTask instructions:\n\t\t"
        + i["task_instructions"]
    )
    # a persona leads; missing known/unknown info leave no heading; free text stays free
    assert user_scenario_text("Just ask.\nTwo lines.", "Terse.") == (
        "Persona:\n\tTerse.\nInstructions:\n\tJust ask.\n\tTwo lines."
    )
    bare = {**i, "known_info": None, "unknown_info": None}
    assert "Known info" not in user_scenario_text(bare)
    assert "Unknown info" not in user_scenario_text(bare)


def test_the_user_prompt_is_tau2s_template_around_the_verbatim_guidelines() -> None:
    guidelines = tau2_prompts().user_guidelines
    assert guidelines.endswith("character consistency.\n")
    assert "customer service representative. \n" in guidelines  # its trailing space kept
    assert tau2_user_system_prompt("X") == guidelines + "\n\n<scenario>\nX\n</scenario>"


# --- stop tokens ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("###STOP###", "tau2_stop"),
        ("###TRANSFER###", "tau2_transfer"),
        ("###OUT-OF-SCOPE###", "tau2_out_of_scope"),
    ],
)
async def test_a_stop_token_ends_the_conversation_unseen_by_the_agent(
    server: MockLLMServer,
    provider: str,
    retail: Tau2Domain,
    scenario: Scenario,
    persona: Persona,
    token: str,
    reason: str,
) -> None:
    server.script(AGENT_MODEL, [say("Sure, what is your email?")])
    server.script("customer-m", customer_script(OPENING, f"Ok, bye. {token}"))

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    assert (record["status"], record["termination"]) == ("completed", "customer_done")
    assert record["end_reason"] == reason
    assert record["messages"][-1] == {**record["messages"][-1], "role": "customer"}
    assert record["messages"][-1]["content"] == f"Ok, bye. {token}"  # kept, as tau2 keeps it
    assert len(h.agent_requests()) == 1
    assert all(token not in str(r.body) for r in h.agent_requests())


async def test_without_a_token_the_conversation_goes_on_and_stopping_is_never_nudged(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(AGENT_MODEL, [say("What is your email?"), say("And your zip?")])
    # STOP before any write: ours would nudge ("premature_end"); tau2 takes it as it is
    server.script("customer-m", customer_script(OPENING, "STOP please", "###STOP###"))

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    assert [m["content"] for m in record["messages"] if m["role"] == "customer"] == [
        OPENING,
        "STOP please",
        "###STOP###",
    ]
    assert record["end_reason"] == "tau2_stop" and record["simulator_faults"] == []
    assert len(h.customer_requests()) == 3


# --- tools ------------------------------------------------------------------------------------


async def test_tool_results_and_errors_reach_the_agent_as_tau2s_environment_sends_them(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(
        AGENT_MODEL,
        [
            reply(tool_calls=[call("find_user_id_by_email", email=EMAIL)]),
            reply(tool_calls=[call("get_order_details", order_id="W2378156")]),
            reply(tool_calls=[call("get_order_details", order_id="#W2378156")]),
            reply(tool_calls=[call("calculate", expression="2 + 2")]),
            say("Found it."),
        ],
    )
    server.script("customer-m", customer_script(OPENING, "###STOP###"))

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    results = [r.content for r in tool_results(h.agent_requests()[-1])]
    order = json.loads((RETAIL / "db.json").read_text(encoding="utf-8"))["orders"]["#W2378156"]
    assert results[0] == USER  # text as is, not a JSON string
    assert results[1] == "Error: Order not found"
    assert results[2].startswith('{"order_id": "#W2378156", "user_id": "yusuf_rossi_9620", ')
    assert json.loads(results[2])["items"] == order["items"]
    assert results[3] == "4.0"
    assert [m["is_error"] for m in record["messages"] if m["role"] == "tool"] == [
        False,
        True,
        False,
        False,
    ]


def test_tool_content_renders_each_kind_of_result_as_tau2s_to_json_str() -> None:
    from supportsim.environment import CallRecord

    def rec(result: Any = None, error: str | None = None) -> CallRecord:
        return CallRecord(0, "c", "t", "{}", {}, error is None, result, error, None, "read", 0, 0)

    assert tool_content(rec("plain text")) == "plain text"
    assert tool_content(rec({"a": 1.5, "b": "é"})) == '{"a": 1.5, "b": "\\u00e9"}'
    assert tool_content(rec(3)) == '"3"' and tool_content(rec(True)) == '"True"'
    assert tool_content(rec(None)) == "null"
    assert tool_content(rec(error="Variant not found")) == "Error: Variant not found"


@pytest.mark.parametrize(
    ("tool", "args", "error"),
    [
        (
            "exchange_delivered_order_items",
            {
                "order_id": "#W2378156",
                "item_ids": ["1151293680"],
                "new_item_ids": ["0000000000"],
                "payment_method_id": "credit_card_9513926",
            },
            "Variant not found",
        ),
        (
            "cancel_pending_order",
            {"order_id": "#W2378156", "reason": "no longer needed"},
            "Non-pending order cannot be cancelled",
        ),
    ],
)
def test_a_refused_write_changes_nothing_even_without_our_rollback(
    retail: Tau2Domain, scenario: Scenario, tool: str, args: dict[str, Any], error: str
) -> None:
    """tau2 rolls nothing back on a tool error; our Environment does. Run the tools bare (no
    Environment, so no rollback): a refusal leaves the database as it was, so the two agree."""
    state = retail.initial_state({})
    before = db_hash(state)
    t = retail.tools[tool]
    with pytest.raises(ToolError, match=error):
        t.run(state, t.args_model.model_validate(args))
    assert db_hash(state) == before
    done = retail.tools["modify_user_address"]
    done.run(state, done.args_model.model_validate({**_ADDRESS, "user_id": USER}))
    assert db_hash(state) != before  # the hash does see a write that runs


_ADDRESS = {
    "address1": "1 Main St",
    "address2": "",
    "city": "Philadelphia",
    "state": "PA",
    "country": "USA",
    "zip": "19122",
}


async def test_transfer_to_human_agents_is_a_tool_the_user_ends_with_its_token(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(
        AGENT_MODEL,
        [
            reply(tool_calls=[call("transfer_to_human_agents", summary="exchange")]),
            say("You are being transferred to a human agent."),
        ],
    )
    server.script("customer-m", customer_script(OPENING, "###TRANSFER###"))

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    assert [r.content for r in tool_results(h.agent_requests()[-1])] == ["Transfer successful"]
    assert (record["termination"], record["end_reason"]) == ("customer_done", "tau2_transfer")
    assert len(h.agent_requests()) == 2  # the agent spoke after the transfer tool


async def test_text_sent_with_tool_calls_goes_to_the_tools_only(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(
        AGENT_MODEL,
        [
            reply("Let me look that up.", tool_calls=[call("find_user_id_by_email", email=EMAIL)]),
            say("I found your account."),
        ],
    )
    server.script("customer-m", customer_script(OPENING, "###STOP###"))

    h, _ = await run_tau2(server, provider, retail, scenario, persona)

    last = h.customer_requests()[-1]
    assert chat(last) == [
        ("user", GREETING),
        ("assistant", OPENING),
        ("user", "I found your account."),
    ]


# --- bounds -----------------------------------------------------------------------------------


async def test_tau2s_step_bound_ends_the_conversation_as_max_turns(
    server: MockLLMServer,
    provider: str,
    retail: Tau2Domain,
    scenario: Scenario,
    persona: Persona,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # steps: user (1), agent text (2), user (3), agent tool call (4), tool results (5) ...
    server.script(
        AGENT_MODEL,
        [say("Email?"), reply(tool_calls=[call("find_user_id_by_email", email=EMAIL)]), say("Ok")],
    )
    server.script("customer-m", customer_script(OPENING, "It is " + EMAIL, "thanks"))
    rules = Tau2Rules(greeting=GREETING, max_steps=5)

    _, record = await run_tau2(
        server, provider, retail, scenario, persona, rules=rules, monkeypatch=monkeypatch
    )

    assert (record["status"], record["termination"]) == ("completed", "max_turns")
    assert record["end_reason"] == "tau2 max_steps: 5 steps"
    assert record["messages"][-1]["role"] == "tool"  # step 5 was the tool results


async def test_a_conversation_within_the_step_bound_is_not_cut(
    server: MockLLMServer,
    provider: str,
    retail: Tau2Domain,
    scenario: Scenario,
    persona: Persona,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server.script(AGENT_MODEL, [say("Email?")])
    server.script("customer-m", customer_script(OPENING, "###STOP###"))
    rules = Tau2Rules(greeting=GREETING, max_steps=4)  # user, agent, user stop: 3 steps

    _, record = await run_tau2(
        server, provider, retail, scenario, persona, rules=rules, monkeypatch=monkeypatch
    )

    assert (record["termination"], record["end_reason"]) == ("customer_done", "tau2_stop")


@pytest.mark.parametrize(("errors", "ended"), [(2, True), (1, False)])
async def test_too_many_tool_errors_end_the_conversation_as_an_error(
    server: MockLLMServer,
    provider: str,
    retail: Tau2Domain,
    scenario: Scenario,
    persona: Persona,
    monkeypatch: pytest.MonkeyPatch,
    errors: int,
    ended: bool,
) -> None:
    bad = [call("get_order_details", order_id=f"#W{n}") for n in range(errors)]
    server.script(AGENT_MODEL, [reply(tool_calls=bad), say("Sorry.")])
    server.script("customer-m", customer_script(OPENING, "###STOP###"))
    rules = Tau2Rules(greeting=GREETING, max_errors=2)

    _, record = await run_tau2(
        server, provider, retail, scenario, persona, rules=rules, monkeypatch=monkeypatch
    )

    if ended:
        assert (record["status"], record["termination"]) == ("completed", "error")
        assert record["end_reason"] == "tau2 too many errors: 2 tool errors"
    else:
        assert (record["termination"], record["end_reason"]) == ("customer_done", "tau2_stop")


# --- mode selection ---------------------------------------------------------------------------


def imported(scenario: Scenario) -> Scenario:
    """``scenario`` carrying tau2's task 0 (the fixture's), as ``import tau2`` writes it."""
    task = json.loads((RETAIL / "tasks.json").read_text(encoding="utf-8"))[0]
    tau2 = Tau2Task(
        task_id=task["id"],
        instructions=Tau2Instructions(**task["user_scenario"]["instructions"]),
        persona=task["user_scenario"]["persona"],
        reward_basis=["DB"],
        source=Tau2Source(path="tasks.json", tasks_sha256="0" * 64),
    )
    return scenario.model_copy(update={"tau2": tau2})


def test_auto_uses_tau2_only_for_imported_tasks(scenario: Scenario) -> None:
    assert uses_tau2("tau2", scenario) is True
    assert uses_tau2("supportsim", scenario) is False
    assert uses_tau2("auto", scenario) is False  # not imported from tau2
    assert uses_tau2("auto", imported(scenario)) is True
    assert uses_tau2("supportsim", imported(scenario)) is False


async def test_an_imported_task_runs_in_the_tau2_mode_by_default_with_its_own_instructions(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(AGENT_MODEL, [say("Sure, what is your email?")])
    server.script("customer-m", customer_script(OPENING, "###STOP###"))
    task = imported(scenario)

    h, record = await run_tau2(server, provider, retail, task, persona, mode="auto")

    assert task.tau2 is not None and isinstance(task.tau2.instructions, Tau2Instructions)
    i = task.tau2.instructions
    expected = (
        "<scenario>\nInstructions:\n\tDomain: retail\n\tReason for call:\n\t\t"
        f"{i.reason_for_call}\n\tKnown info:\n\t\t{i.known_info}\n\tUnknown info:\n\t\t"
        f"{i.unknown_info}\n\tTask instructions:\n\t\t{i.task_instructions}\n</scenario>"
    )
    assert system_text(h.customer_requests()[0]).endswith("\n\n\n" + expected)
    assert "Yusuf. Tone" not in system_text(h.customer_requests()[0])  # not our persona
    assert record["messages"][0]["content"] == GREETING
    assert system_text(h.agent_requests()[0]).startswith("<instructions>")


async def test_the_autopilot_plays_tau2s_user_simulator_to_its_stop_token(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    from supportsim.testing import autopilot

    server.default(None, autopilot)

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    assert (record["termination"], record["end_reason"]) == ("customer_done", "tau2_stop")
    customer = [m["content"] for m in record["messages"] if m["role"] == "customer"]
    assert len(customer) == 3 and customer[-1].endswith("###STOP###")
    assert all("###STOP###" not in m for m in customer[:-1])
    assert len(h.agent_requests()) == 2


async def test_an_empty_user_message_is_a_simulator_fault_never_retried(
    server: MockLLMServer, provider: str, retail: Tau2Domain, scenario: Scenario, persona: Persona
) -> None:
    server.script(AGENT_MODEL, [say("Sure, what is your email?")])
    server.script("customer-m", customer_script(OPENING, "  "))

    h, record = await run_tau2(server, provider, retail, scenario, persona)

    assert (record["status"], record["termination"]) == ("simulator_fault", "error")
    assert record["simulator_faults"] == ["empty"]
    assert len(h.customer_requests()) == 2  # no corrective retry, as tau2 has none
