"""The tau2 scoring mode: one check per reward component, strict = tau2's reward.

Transcripts come from the oracle (the gold path) over imported train tasks, then are
changed the way an Agent could go wrong.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from tau2_helpers import EXPECTED, PERSONAS

from supportsim.cli import load_inputs
from supportsim.conversation import Message, Transcript
from supportsim.environment import CallRecord
from supportsim.llm import make_client, parse_model_spec, resolve_credentials
from supportsim.scenario import Scenario, Tau2Task
from supportsim.scoring import AssertionVerdict, oracle_run
from supportsim.tau2 import (
    NO_JUDGE,
    TAU2_JUDGE_MODEL,
    assertion_request,
    judge_assertions,
    judge_config,
    parse_verdicts,
    tau2_score,
)
from supportsim.tau2._judge import SYSTEM_PROMPT, conversation_text
from supportsim.tau2.retail import db_hash
from supportsim.testing import MockLLMServer, say


@pytest.fixture(scope="module")
def loaded(imported: Path) -> tuple[dict[str, object], dict[str, Scenario]]:
    domains, _, scenarios = load_inputs([imported], PERSONAS)
    return domains, {s.id: s for s in scenarios}


async def gold(
    loaded: tuple[dict[str, object], dict[str, Scenario]], task_id: str
) -> tuple[Scenario, Transcript, dict[str, object]]:
    domains, scenarios = loaded
    scenario = scenarios[f"tau2_retail_{task_id}"]
    transcript, _ = await oracle_run(domains["tau2_retail"], scenario)  # type: ignore[arg-type]
    return scenario, transcript, transcript.final_state


def with_task(scenario: Scenario, **changes: object) -> Scenario:
    assert scenario.tau2 is not None
    task = scenario.tau2.model_copy(update=changes)
    return scenario.model_copy(update={"tau2": task})


def check(score: object, check_id: str) -> object:
    return next(c for c in score.checks if c.id == check_id)  # type: ignore[attr-defined]


# --- DB --------------------------------------------------------------------------------------


async def test_db_passes_on_the_gold_database_and_fails_on_any_other(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    assert db_hash(reference) == EXPECTED["tasks"]["0"]["final_db_sha256"]
    good = tau2_score(scenario, transcript, reference)
    assert check(good, "reward:DB").passed and good.strict and good.partial == 1.0
    wrong = copy.deepcopy(transcript.final_state)
    wrong["orders"]["#W2378156"]["status"] = "delivered"  # the exchange never happened
    bad = tau2_score(scenario, dataclasses.replace(transcript, final_state=wrong), reference)
    db = check(bad, "reward:DB")
    assert not db.passed and "orders[#W2378156]" in db.reason and not bad.strict


# --- COMMUNICATE ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("info", "message", "met"),
    [
        ("1093.34", "Your refund of $1,093.34 is on its way.", True),  # commas removed
        ("Order #W2378156 Is Cancelled", "order #w2378156 IS CANCELLED.", True),  # case
        ("1093.34", "Your refund of $1,093.35 is on its way.", False),
        ("1,093.34", "Your refund of $1,093.34 is on its way.", False),  # tau2's rule, kept
        ("gift card", "", False),
    ],
)
async def test_communicate_is_tau2s_folded_substring_rule(
    loaded, info: str, message: str, met: bool
) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    scenario = with_task(scenario, reward_basis=["DB", "COMMUNICATE"], communicate_info=[info])
    said = dataclasses.replace(
        transcript, messages=[*transcript.messages, Message("agent", message)]
    )
    result = tau2_score(scenario, said, reference)
    assert check(result, "reward:COMMUNICATE").passed is met
    assert result.strict is met


async def test_customer_messages_do_not_count_as_communicated(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    scenario = with_task(scenario, reward_basis=["COMMUNICATE"], communicate_info=["refund"])
    said = dataclasses.replace(
        transcript, messages=[*transcript.messages, Message("customer", "my refund")]
    )
    assert not tau2_score(scenario, said, reference).strict


# --- NL_ASSERTION ----------------------------------------------------------------------------


def nl_scenario(scenario: Scenario) -> Scenario:
    return with_task(scenario, nl_assertions=["Agent exchanges both items.", "Agent is polite."])


async def test_without_a_judge_nl_assertions_are_not_scored_and_never_pass(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    result = tau2_score(nl_scenario(scenario), transcript, reference)
    assert result.unscored == ("reward:NL_ASSERTION",)
    assert check(result, "reward:NL_ASSERTION").reason == NO_JUDGE
    assert not result.strict and result.partial < 1.0
    plain = tau2_score(scenario, transcript, reference)  # this task has no assertions
    assert plain.unscored == () and plain.strict  # tau2 scores an empty list 1, no judge


async def test_judge_verdicts_decide_the_component(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    scenario = nl_scenario(scenario)
    met = [
        AssertionVerdict("Agent exchanges both items.", True, "it did"),
        AssertionVerdict("Agent is polite.", True, "it was"),
    ]
    good = tau2_score(scenario, transcript, reference, verdicts=met)
    assert good.strict and good.unscored == () and good.verdicts == tuple(met)
    unmet = [met[0], AssertionVerdict("Agent is polite.", False, "it was curt")]
    bad = tau2_score(scenario, transcript, reference, verdicts=unmet)
    nl = check(bad, "reward:NL_ASSERTION")
    assert not nl.passed and "it was curt" in nl.reason and not bad.strict


# --- ACTION, termination, partial ------------------------------------------------------------


async def test_action_needs_every_required_gold_call_with_its_compared_args(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    scenario = with_task(scenario, reward_basis=["ACTION"])
    assert tau2_score(scenario, transcript, reference).strict
    exchange = transcript.calls[-1]
    assert exchange.name == "exchange_delivered_order_items"
    other = dataclasses.replace(exchange, arguments={**exchange.arguments, "item_ids": ["1"]})
    missing = dataclasses.replace(transcript, calls=[*transcript.calls[:-1], other])
    result = tau2_score(scenario, missing, reference)
    assert not check(result, "reward:ACTION").passed and not result.strict
    assert scenario.tau2 is not None
    actions = list(scenario.tau2.actions)
    actions[-1] = actions[-1].model_copy(update={"compare_args": ["order_id"]})
    lenient = with_task(scenario, actions=actions)
    assert tau2_score(lenient, missing, reference).strict


async def test_an_abnormal_end_scores_zero_whatever_the_components(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    for ending in ("max_turns", "timeout", "error"):
        cut = dataclasses.replace(transcript, termination=ending)
        result = tau2_score(nl_scenario(scenario), cut, reference)
        assert not result.strict and result.unscored == ()  # 0 anyway: not "unscored"
        assert not check(result, "reward:ended").passed
    for ending in ("customer_done", "agent_transfer"):
        assert tau2_score(
            scenario, dataclasses.replace(transcript, termination=ending), reference
        ).strict


async def test_partial_is_the_gold_actions_done_with_the_database_as_an_end(loaded) -> None:
    scenario, transcript, reference = await gold(loaded, "0")  # 5 gold actions, none ignored
    wrong = copy.deepcopy(transcript.final_state)
    wrong["orders"]["#W2378156"]["status"] = "delivered"
    no_exchange = dataclasses.replace(transcript, calls=transcript.calls[:-1], final_state=wrong)
    result = tau2_score(scenario, no_exchange, reference)  # DB failed, NL met (no assertions)
    # workflow: 4 of 5 gold actions; DB an end (failed); NL asks nothing: it earns nothing
    assert result.partial == pytest.approx((4 + 0.8 * 0) / (5 + 1))
    nothing = dataclasses.replace(transcript, calls=[], final_state=wrong)
    assert tau2_score(scenario, nothing, reference).partial == 0.0
    diagnostics = [c for c in result.checks if c.kind == "diagnostic"]
    assert [c.passed for c in diagnostics] == [True, True, True, True, False]


async def test_ignored_gold_actions_are_not_required(loaded) -> None:
    task_id = next(t for t, e in EXPECTED["tasks"].items() if e["gold_action_errors"])
    scenario, transcript, reference = await gold(loaded, task_id)
    assert scenario.tau2 is not None and scenario.tau2.ignored_actions
    ignored = {a.action_id for a in scenario.tau2.ignored_actions}
    result = tau2_score(with_task(scenario, reward_basis=["DB", "ACTION"]), transcript, reference)
    assert result.strict
    assert not any(c.id.removeprefix("action:") in ignored for c in result.checks)


def test_unknown_reward_components_are_rejected_by_the_model(imported: Path) -> None:
    from supportsim._yaml import read_yaml

    doc, _ = read_yaml(imported / "tau2_retail_0.yaml")
    assert doc is not None
    data = json.loads(json.dumps(doc.data["tau2"]))
    Tau2Task.model_validate(data)
    data["reward_basis"] = ["DB", "ENV_ASSERTION"]
    with pytest.raises(ValidationError, match="reward_basis"):
        Tau2Task.model_validate(data)


# --- the judge, on the mock server ------------------------------------------------------------


def judge_reply(*verdicts: tuple[str, bool]) -> str:
    results = [
        {"expectedOutcome": a, "reasoning": f"r{i}", "metExpectation": m}
        for i, (a, m) in enumerate(verdicts)
    ]
    return json.dumps({"results": results})


async def test_the_judge_gets_tau2s_prompt_at_temperature_0_and_its_verdicts_are_kept(
    loaded,
) -> None:
    scenario, transcript, reference = await gold(loaded, "0")
    scenario = nl_scenario(scenario)
    assert scenario.tau2 is not None
    async with MockLLMServer() as server:
        server.script(
            "gpt-4.1",
            [say(judge_reply(("Agent exchanges both items.", True), ("Agent is polite.", False)))],
        )
        env = {"OPENAI_API_KEY": "test", "OPENAI_BASE_URL": f"{server.url}/v1"}
        config = judge_config(parse_model_spec(TAU2_JUDGE_MODEL, {}))
        client = make_client(resolve_credentials(config, env))
        try:
            verdicts, response = await judge_assertions(
                client.complete, transcript, scenario.tau2.nl_assertions
            )
        finally:
            await client.aclose()
        (request,) = server.requests(model="gpt-4.1")
    assert response is not None
    assert request.body["temperature"] == 0
    sent = request.body["messages"]
    assert sent[0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert (
        "expectedOutcomes:\n        ['Agent exchanges both items.', 'Agent is polite.']"
        in sent[1]["content"]
    )
    assert conversation_text(transcript.messages) in sent[1]["content"]
    assert [(v.assertion, v.met) for v in verdicts] == [
        ("Agent exchanges both items.", True),
        ("Agent is polite.", False),
    ]
    result = tau2_score(scenario, transcript, reference, verdicts=verdicts)
    assert not result.strict and result.verdicts == tuple(verdicts)


def test_the_conversation_is_shown_as_tau2_shows_it() -> None:
    messages = [
        Message("agent", "Hi! How can I help you today?"),
        Message("customer", "Cancel my order."),
        Message("agent", "", tool_calls=()),
    ]
    text = conversation_text(messages[:2])
    assert text == "assistant: Hi! How can I help you today?\nuser: Cancel my order."
    request = assertion_request(Transcript(messages=messages[:2]), ["A"])
    assert request.system == SYSTEM_PROMPT and "['A']" in request.messages[0].content


@pytest.mark.parametrize(
    ("reply", "met"),
    [
        (judge_reply(("A", True)), [True]),
        ("```json\n" + judge_reply(("A", False)) + "\n```", [False]),
        ('{"results": [{"expectedOutcome": "A", "metExpectation": "yes"}]}', [False]),
        ("I think the agent did fine.", [False]),
        ('{"results": [{"reasoning": "no outcome"}]}', [False]),
    ],
)
def test_an_unreadable_judge_reply_is_a_failing_verdict(reply: str, met: list[bool]) -> None:
    assert [v.met for v in parse_verdicts(reply)] == met


def test_the_action_rule_compares_every_argument_sent_without_compare_args() -> None:
    """compare_args None compares every argument the call sent (tau2's rule)."""
    from supportsim.scenario import Tau2Action
    from supportsim.tau2 import action_matches

    action = Tau2Action(action_id="a", name="get_order_details", arguments={"order_id": "#W1"})

    def call(args: dict[str, object]) -> CallRecord:
        return CallRecord(
            0, "c", "get_order_details", "", args, True, None, None, None, "read", 0, 0
        )

    assert action_matches(action, call({"order_id": "#W1"}))
    assert not action_matches(action, call({"order_id": "#W2"}))
    assert not action_matches(action, call({"order_id": "#W1", "extra": 1}))
