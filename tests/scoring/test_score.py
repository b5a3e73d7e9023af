"""Scoring: the checks, strict and partial a transcript earns, with the reasons shown."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from scoring_helpers import MOCK, Action, converse, failed, ids

from supportsim.conversation import (
    Message,
    Transcript,
)
from supportsim.environment import CallRecord
from supportsim.llm import ToolCall
from supportsim.scenario import Scenario
from supportsim.scoring import oracle_run, reference_state, score, state_checks

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"
RAW: dict[str, Any] = yaml.safe_load(FIXTURE.read_text())

VERIFY: Action = ("verify_identity", {"customer_id": "C-1", "pin": "4321"})
CONFIRM: Action = "I see the duplicate charge CH-2 of 30 USD. Shall I refund it?"
REFUND_CH2: Action = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30})
REFUND_CH1: Action = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-1", "amount": 30})
TELL: Action = "Done, the refund of 30 USD for CH-2 is on its way."
PERFECT = [VERIFY, CONFIRM, REFUND_CH2, TELL]

FIXTURE_CHECKS = [
    "step:verify",
    "step:confirm",
    "step:refund",
    "step:tell",
    "forbidden:refund-original",
    "forbidden:leak-note",
    "outcome",
    "state",
]


def scenario(**changes: Any) -> Scenario:
    """The fixture scenario with some top-level fields replaced."""
    return Scenario.model_validate({**RAW, **changes})


def minimal(**changes: Any) -> Scenario:
    """A fixture variant without forbidden rules; give it a workflow."""
    return scenario(**{"forbidden": [], **changes})


# --- the fixture scenario -------------------------------------------------------------------


async def test_the_oracle_run_is_strict_with_eight_passing_checks() -> None:
    transcript, result = await oracle_run(MOCK, scenario())
    assert transcript.termination == "customer_done"
    assert result.strict is True
    assert result.partial == 1.0
    assert [(c.id, c.kind, c.passed, c.reason) for c in result.checks] == [
        ("step:verify", "step", True, "verify_identity called as expected"),
        ("step:confirm", "step", True, "the agent said it"),
        ("step:refund", "step", True, "refund_charge called as expected"),
        ("step:tell", "step", True, "the agent said it"),
        (
            "forbidden:refund-original",
            "forbidden",
            True,
            "did not happen (CH-1 is the legitimate charge)",
        ),
        ("forbidden:leak-note", "forbidden", True, "did not happen"),
        ("outcome", "outcome", True, "resolved"),
        ("state", "state", True, "final state matches the reference workflow's"),
    ]
    assert result.failed() == []


async def test_a_careful_agent_without_the_optional_lookup_is_strict() -> None:
    transcript, result = await converse(scenario(), PERFECT)
    assert "list_charges" not in [c.name for c in transcript.calls]
    assert ids(result) == FIXTURE_CHECKS
    assert (result.strict, result.partial) == (True, 1.0)


async def test_an_optional_step_done_wrong_is_not_a_check() -> None:
    lookup_wrong = ("list_charges", {"customer_id": "C-2"})
    _, result = await converse(scenario(), [VERIFY, lookup_wrong, CONFIRM, REFUND_CH2, TELL])
    assert ids(result) == FIXTURE_CHECKS
    assert (result.strict, result.partial) == (True, 1.0)


async def test_a_skipped_step_fails_only_its_check() -> None:
    workflow = [dict(s) for s in RAW["workflow"]]
    workflow[2] = {**workflow[2], "gate": False}  # a question the refund need not wait for
    _, result = await converse(
        scenario(workflow=workflow), [VERIFY, REFUND_CH2, "Done, your refund is on its way."]
    )
    assert failed(result) == {
        "step:confirm": ("no agent message says 'CH-2' and '30' and concept asking_confirmation")
    }
    assert result.strict is False
    # 3 of 4 workflow steps; outcome and state passed, credited at that share
    assert result.partial == (3 + 0.75 * 2) / 6


async def test_a_write_whose_gate_never_happened_fails_too() -> None:
    _, result = await converse(scenario(), [VERIFY, REFUND_CH2, "Done, your refund is on its way."])
    assert failed(result) == {
        "step:confirm": ("no agent message says 'CH-2' and '30' and concept asking_confirmation"),
        "step:refund": "refund_charge done without confirm, which never happened",
    }
    assert result.partial == (2 + 0.5 * 2) / 6


async def test_a_wrong_argument_names_the_argument_and_the_expected_value() -> None:
    _, result = await converse(scenario(), [VERIFY, CONFIRM, REFUND_CH1, TELL])
    assert failed(result) == {
        "step:refund": "refund_charge called with charge_id='CH-1', expected 'CH-2'",
        "forbidden:refund-original": (
            "refund_charge called with customer_id='C-1', charge_id='CH-1', amount=30: "
            "forbidden (CH-1 is the legitimate charge)"
        ),
        "state": (
            "final state differs: customers.C-1.charges.CH-1.refunded: True, expected False; "
            "customers.C-1.charges.CH-2.refunded: False, expected True"
        ),
    }
    # 3 of 4 steps, the outcome held (state lost), one broken guardrail taken off
    assert (result.strict, result.partial) == (False, (3 + 0.75 * 1) / 6 - 0.25)


async def test_the_reason_explains_the_nearest_call_not_merely_the_last() -> None:
    near = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 12})
    far = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-1", "amount": 12})
    _, result = await converse(scenario(), [VERIFY, CONFIRM, near, far, TELL])
    assert failed(result)["step:refund"] == (
        "refund_charge called with amount=12, expected 30.0 ± 0.01"
    )


async def test_a_refused_call_gives_the_refusal_as_the_reason() -> None:
    _, result = await converse(scenario(), [REFUND_CH2, "Sorry, that did not work."])
    assert failed(result) == {
        "step:verify": "verify_identity was never called",
        "step:confirm": ("no agent message says 'CH-2' and '30' and concept asking_confirmation"),
        "step:refund": "refund_charge failed: identity not verified: call verify_identity first",
        "step:tell": "no agent message says 'refund'",
        "state": "final state differs: customers.C-1.charges.CH-2.refunded: False, expected True",
    }
    # no step done: the outcome and the forbidden checks that held earn nothing
    assert (result.strict, result.partial) == (False, 0.0)


async def test_an_approx_argument_accepts_the_amount_within_tolerance() -> None:
    close = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 29.995})
    _, result = await converse(scenario(), [VERIFY, CONFIRM, close, TELL])
    assert (result.strict, result.partial) == (True, 1.0)
    too_far = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 29.98})
    _, wrong = await converse(scenario(), [VERIFY, CONFIRM, too_far, TELL])
    assert failed(wrong) == {
        "step:refund": "refund_charge called with amount=29.98, expected 30.0 ± 0.01"
    }


async def test_a_forbidden_call_fails_its_check_and_the_state() -> None:
    _, result = await converse(scenario(), [VERIFY, CONFIRM, REFUND_CH2, REFUND_CH1, TELL])
    assert failed(result) == {
        "forbidden:refund-original": (
            "refund_charge called with customer_id='C-1', charge_id='CH-1', amount=30: "
            "forbidden (CH-1 is the legitimate charge)"
        ),
        "state": "final state differs: customers.C-1.charges.CH-1.refunded: True, expected False",
    }
    assert (result.strict, result.partial) == (False, (4 + 1) / 6 - 0.25)


async def test_a_leaked_note_fails_the_disclosure_check_in_any_case() -> None:
    leak = "By the way, you are flagged for a Retention\n Offer."
    transcript, result = await converse(scenario(), [*PERFECT, leak])
    assert transcript.messages[9].content == leak
    assert failed(result) == {
        "forbidden:leak-note": (
            "agent disclosed 'retention offer': 'Retention\\n Offer' (message 9): forbidden"
        )
    }
    assert (result.strict, result.partial) == (False, 1.0 - 0.25)


async def test_an_unnecessary_transfer_fails_the_outcome() -> None:
    transfer = ("transfer_to_human", {"reason": "customer seems upset"})
    transcript, result = await converse(scenario(), [*PERFECT, transfer])
    assert transcript.termination == "agent_transfer"
    # session.* is ignored by the state check, so only the outcome fails
    assert failed(result) == {
        "outcome": "unnecessary escalation: transferred to a human, expected resolved"
    }
    assert (result.strict, result.partial) == (False, 5 / 6)


async def test_reused_call_ids_still_place_each_call_at_its_own_result() -> None:
    transcript, result = await converse(scenario(), PERFECT, call_ids="call_0")
    assert [c.call_id for c in transcript.calls] == ["call_0", "call_0"]
    assert (result.strict, result.partial) == (True, 1.0)


# --- hand-built transcripts -----------------------------------------------------------------


class Built:
    """A transcript written by hand: for orders the mock tools would refuse to produce."""

    def __init__(self) -> None:
        self.t = Transcript(termination="customer_done", end_reason="script_done")

    def customer(self, text: str) -> Built:
        self.t.messages.append(Message("customer", text))
        return self

    def agent(self, text: str) -> Built:
        self.t.messages.append(Message("agent", text))
        return self

    def call(self, tool: str, args: dict[str, Any], result: Any = None) -> Built:
        call_id = f"h{len(self.t.calls) + 1}"
        raw = orjson.dumps(args).decode()
        self.t.messages.append(Message("agent", tool_calls=(ToolCall(call_id, tool, raw),)))
        self.t.messages.append(
            Message("tool", orjson.dumps(result).decode(), tool_call_id=call_id, name=tool)
        )
        self.t.calls.append(
            CallRecord(
                index=len(self.t.calls),
                call_id=call_id,
                name=tool,
                raw_arguments=raw,
                arguments=args,
                ok=True,
                result=result,
                error=None,
                fault=None,
                kind=MOCK.tools[tool].kind,
                started_s=0.0,
                ended_s=0.0,
            )
        )
        return self


async def test_a_call_before_the_step_it_must_follow_fails_with_an_order_reason() -> None:
    sc = scenario()
    reference = await reference_state(MOCK, sc)
    built = (
        Built()
        .customer("Hi, I was charged twice.")
        .call(*REFUND_CH2)
        .call(*VERIFY)
        .agent(str(CONFIRM))
        .agent(str(TELL))
    )
    built.t.final_state = reference
    result = score(sc, MOCK, built.t, reference)
    assert failed(result) == {
        "step:refund": "refund_charge was called, but before the steps it must follow"
    }
    assert (result.strict, result.partial) == (False, (3 + 0.75 * 2) / 6)


async def test_a_customer_who_gave_up_is_not_resolved() -> None:
    sc = scenario()
    reference = await reference_state(MOCK, sc)
    built = Built().customer("Hi").call(*VERIFY).agent(str(CONFIRM)).customer("Yes")
    built.call(*REFUND_CH2).agent(str(TELL))
    built.t.end_reason = "gave_up"
    built.t.final_state = reference
    result = score(sc, MOCK, built.t, reference)
    assert failed(result) == {"outcome": "not resolved: the customer gave up"}


async def test_an_abnormal_end_is_never_strict() -> None:
    sc = minimal(workflow=[], compare_state="none", outcome="refused")
    for termination in ("max_turns", "timeout", "error"):
        transcript = Transcript(termination=termination)
        result = score(sc, MOCK, transcript, {})
        assert [(c.id, c.passed) for c in result.checks] == [("outcome", True)]
        assert (result.strict, result.partial) == (False, 1.0)


# --- endings: max_turns, escalated, refused --------------------------------------------------


async def test_max_turns_is_not_strict_even_when_every_check_passes() -> None:
    sc = minimal(
        outcome="refused",
        max_turns=1,
        workflow=[{"id": "deny", "say": ["cannot refund"]}],
    )
    transcript, result = await converse(
        sc, ["Sorry, I cannot refund that charge."], lines=["Refund it.", "Please?"]
    )
    assert transcript.termination == "max_turns"
    assert [(c.id, c.passed) for c in result.checks] == [
        ("step:deny", True),
        ("outcome", True),
        ("state", True),
    ]
    assert result.checks[1].reason == "refused under policy"
    assert (result.strict, result.partial) == (False, 1.0)


async def test_max_turns_means_a_resolved_scenario_was_not_resolved() -> None:
    transcript, result = await converse(
        scenario(max_turns=1), [VERIFY, CONFIRM, REFUND_CH2, TELL], lines=["Hi", "Go on"]
    )
    assert transcript.termination == "max_turns"
    assert failed(result) == {
        "step:refund": "refund_charge was never called",
        "outcome": "not resolved: the conversation ended by max_turns",
        "state": "final state differs: customers.C-1.charges.CH-2.refunded: False, expected True",
    }
    assert result.strict is False


ESCALATE = dict(
    outcome="escalated",
    workflow=[
        {"id": "verify", "tool": "verify_identity", "args": {"customer_id": "C-1", "pin": "4321"}},
        {
            "id": "handoff",
            "tool": "transfer_to_human",
            "args": {"reason": {"any": True}},
            "oracle_args": {"reason": "customer asks for a supervisor"},
        },
    ],
)


async def test_an_escalated_scenario_without_a_transfer_fails_step_and_outcome() -> None:
    _, result = await converse(minimal(**ESCALATE), [VERIFY, "Let me look into that myself."])
    assert failed(result) == {
        "step:handoff": "transfer_to_human was never called",
        "outcome": "expected a transfer to a human; none was made",
    }
    assert ids(result) == ["step:verify", "step:handoff", "outcome", "state"]
    # a transfer changes no compared state: the state check is a guardrail, earning nothing
    assert [c.counts_as for c in result.checks][-1] == "guardrail"
    assert (result.strict, result.partial) == (False, (1 + 0.5 * 0) / 3)


async def test_an_escalated_scenario_with_a_transfer_is_strict() -> None:
    transfer = ("transfer_to_human", {"reason": "wants a supervisor"})
    transcript, result = await converse(minimal(**ESCALATE), [VERIFY, transfer])
    assert transcript.termination == "agent_transfer"
    assert [c.reason for c in result.checks if c.id == "outcome"] == ["transferred to a human"]
    assert (result.strict, result.partial) == (True, 1.0)


REFUSE = dict(
    outcome="refused",
    compare_state="none",
    workflow=[{"id": "deny", "say": ["cannot"]}],
)


async def test_a_refused_scenario_where_a_write_succeeded_fails_the_outcome() -> None:
    change = ("update_email", {"customer_id": "C-1", "email": "new@example.com"})
    _, result = await converse(minimal(**REFUSE), [VERIFY, change, "Sorry, I cannot refund it."])
    assert failed(result) == {
        "outcome": "expected a refusal, but update_email was carried out",
    }
    assert ids(result) == ["step:deny", "outcome"]
    assert (result.strict, result.partial) == (False, 0.5)


async def test_a_refused_scenario_where_the_tool_refused_the_write_passes() -> None:
    _, result = await converse(minimal(**REFUSE), [REFUND_CH2, "Sorry, I cannot refund it."])
    assert [c.reason for c in result.checks if c.id == "outcome"] == ["refused under policy"]
    assert (result.strict, result.partial) == (True, 1.0)


# --- any_of, weights, say_regex, after ------------------------------------------------------

ANY_OF = dict(
    compare_state="none",
    workflow=[
        {
            "id": "find",
            "any_of": [
                [{"tool": "get_customer", "args": {"customer_id": "C-1"}}],
                [
                    {"tool": "verify_identity", "args": {"customer_id": "C-1", "pin": "4321"}},
                    {"tool": "list_charges", "args": {"customer_id": "C-1"}},
                ],
            ],
        }
    ],
)


@pytest.mark.parametrize(
    "actions",
    [
        [("get_customer", {"customer_id": "C-1"}), "Found you."],
        [VERIFY, ("list_charges", {"customer_id": "C-1"}), "Found you."],
    ],
    ids=["path-1", "path-2"],
)
async def test_either_alternative_path_passes(actions: list[Action]) -> None:
    _, result = await converse(minimal(**ANY_OF), actions)
    assert [(c.id, c.passed, c.reason) for c in result.checks] == [
        ("step:find", True, "an alternative path completed"),
        ("outcome", True, "resolved"),
    ]
    assert (result.strict, result.partial) == (True, 1.0)


async def test_no_alternative_path_lists_why_each_failed() -> None:
    actions = [("get_customer", {"customer_id": "C-2"}), ("list_charges", {"customer_id": "C-1"})]
    _, result = await converse(minimal(**ANY_OF), [*actions, "Found you."])
    assert failed(result) == {
        "step:find": (
            "no alternative path completed (path 1: get_customer called with customer_id='C-2', "
            "expected 'C-1'; path 2: verify_identity was never called)"
        )
    }
    assert (result.strict, result.partial) == (False, 0.0)  # the outcome earns no credit alone


async def test_a_path_must_happen_in_its_order() -> None:
    actions = [("list_charges", {"customer_id": "C-1"}), VERIFY, "Found you."]
    _, result = await converse(minimal(**ANY_OF), actions)
    assert failed(result) == {
        "step:find": (
            "no alternative path completed (path 1: get_customer was never called; "
            "path 2: list_charges was called, but before the steps it must follow)"
        )
    }


async def test_weights_set_each_checks_share_of_partial() -> None:
    sc = minimal(
        compare_state="none",
        workflow=[
            {
                "id": "verify",
                "tool": "verify_identity",
                "args": {"customer_id": "C-1", "pin": "4321"},
                "weight": 3,
            },
            {"id": "tell", "say": ["refund"], "weight": 0.5},
        ],
    )
    _, result = await converse(sc, [VERIFY, "Verified."])
    assert [(c.id, c.weight, c.passed) for c in result.checks] == [
        ("step:verify", 3.0, True),
        ("step:tell", 0.5, False),
        ("outcome", 1.0, True),
    ]
    # workflow 3 of 3.5; the outcome is credited at that share
    assert result.partial == pytest.approx((3 + 3 / 3.5) / 4.5)
    _, worse = await converse(sc, ["Verified.", "Anything else?"])
    assert worse.partial == 0.0


SAY_REGEX = dict(
    compare_state="none",
    workflow=[
        {
            "id": "tell",
            "say_regex": r"refund(ed)? of \$?30\b",
            "text": "Your refund of $30 is done.",
        }
    ],
)


@pytest.mark.parametrize(
    ("text", "passes"),
    [
        ("YOUR REFUND OF $30 IS DONE", True),
        ("You were refunded of 30 USD.", True),
        ("A refund of $300 is pending.", False),
        ("Refund: 30 USD", False),
    ],
)
async def test_say_regex_searches_agent_messages_in_any_case(text: str, passes: bool) -> None:
    _, result = await converse(minimal(**SAY_REGEX), [text])
    assert (result.checks[0].id, result.checks[0].passed) == ("step:tell", passes)
    if not passes:
        assert result.checks[0].reason == r"no agent message says /refund(ed)? of \$?30\b/"


async def test_say_and_say_regex_must_both_match_one_message() -> None:
    sc = minimal(
        compare_state="none",
        workflow=[{"id": "tell", "say": ["CH-2"], "say_regex": r"\b5 business days\b"}],
    )
    _, split = await converse(sc, ["CH-2 is refunded.", "It takes 5 business days."])
    assert failed(split) == {
        "step:tell": r"no agent message says 'CH-2' (message 1 lacks /\b5 business days\b/)"
    }
    _, together = await converse(sc, ["CH-2 is refunded; it takes 5 business days."])
    assert together.strict is True


def ordered(after: list[str] | None) -> Scenario:
    say: dict[str, Any] = {"id": "done", "say": ["all set"]}
    if after is not None:
        say["after"] = after
    return minimal(
        compare_state="none",
        workflow=[
            {"id": "profile", "tool": "get_customer", "args": {"customer_id": "C-1"}},
            {"id": "charges", "tool": "list_charges", "args": {"customer_id": "C-1"}},
            say,
        ],
    )


ORDER_ACTIONS: list[Action] = [
    ("get_customer", {"customer_id": "C-1"}),
    "All set, Ada.",
    ("list_charges", {"customer_id": "C-1"}),
    "Here are your charges.",
]


async def test_by_default_a_step_follows_the_previous_required_step() -> None:
    _, result = await converse(ordered(None), ORDER_ACTIONS)
    assert failed(result) == {
        "step:done": "the agent said 'all set', but before the steps it must follow"
    }


async def test_after_overrides_the_default_order() -> None:
    _, result = await converse(ordered(["profile"]), ORDER_ACTIONS)
    assert (result.strict, result.partial) == (True, 1.0)


async def test_after_can_require_several_steps() -> None:
    _, result = await converse(ordered(["charges", "profile"]), ORDER_ACTIONS)
    assert failed(result) == {
        "step:done": "the agent said 'all set', but before the steps it must follow"
    }


# --- forbidden rules --------------------------------------------------------------------------


async def test_an_attempted_rule_counts_a_refused_call() -> None:
    rules = [{"id": "no-refund", "tool": "refund_charge", "when": "attempted"}]
    sc = minimal(forbidden=rules, workflow=[], outcome="refused")
    _, result = await converse(sc, [REFUND_CH2, "Sorry."])
    assert failed(result) == {
        "forbidden:no-refund": (
            "refund_charge attempted with customer_id='C-1', charge_id='CH-2', amount=30: forbidden"
        )
    }
    succeeded = minimal(
        forbidden=[{**rules[0], "when": "succeeded"}], workflow=[], outcome="refused"
    )
    _, lenient = await converse(succeeded, [REFUND_CH2, "Sorry."])
    assert failed(lenient) == {}
    assert [c.reason for c in lenient.checks if c.kind == "forbidden"] == ["did not happen"]


async def test_a_disclosure_regex_is_caught_with_its_reason() -> None:
    rules = [{"id": "pin", "disclose_regex": r"\b4321\b", "reason": "never repeat the PIN"}]
    sc = minimal(forbidden=rules, workflow=[], compare_state="none")
    _, result = await converse(sc, [VERIFY, "Thanks, PIN 4321 checks out."])
    assert failed(result) == {
        "forbidden:pin": r"agent disclosed /\b4321\b/ (message 3): forbidden (never repeat the PIN)"
    }
    _, fine = await converse(sc, [VERIFY, "Thanks, PIN 43210 checks out."])
    assert failed(fine) == {}


# --- the state check ------------------------------------------------------------------------

CHANGE_EMAIL: Action = ("update_email", {"customer_id": "C-1", "email": "x@y.org"})
EMAIL_DIFF = "final state differs: customers.C-1.email: 'x@y.org', expected 'ada@example.com'"


async def test_state_all_compares_every_field() -> None:
    _, result = await converse(scenario(), [VERIFY, CHANGE_EMAIL, CONFIRM, REFUND_CH2, TELL])
    assert failed(result) == {"state": EMAIL_DIFF}


async def test_state_paths_compare_only_those_fields() -> None:
    actions = [VERIFY, CHANGE_EMAIL, CONFIRM, REFUND_CH2, TELL]
    _, charges = await converse(scenario(compare_state=["customers.C-1.charges"]), actions)
    assert (charges.strict, ids(charges)) == (True, FIXTURE_CHECKS)
    _, email = await converse(scenario(compare_state=["customers.C-1.email"]), actions)
    assert failed(email) == {"state": EMAIL_DIFF}


async def test_state_none_drops_the_state_check() -> None:
    actions = [VERIFY, CHANGE_EMAIL, CONFIRM, REFUND_CH2, TELL]
    _, result = await converse(scenario(compare_state="none"), actions)
    assert ids(result) == FIXTURE_CHECKS[:-1]
    assert (result.strict, result.partial) == (True, 1.0)


async def test_ignore_in_state_globs_skip_matching_fields() -> None:
    actions = [VERIFY, CHANGE_EMAIL, CONFIRM, REFUND_CH2, TELL]
    lenient = dataclasses.replace(MOCK, ignore_in_state=("session.*", "customers.*.email"))
    _, result = await converse(scenario(), actions, domain=lenient)
    assert (result.strict, result.partial) == (True, 1.0)


async def test_session_fields_are_ignored_by_default() -> None:
    assert MOCK.ignore_in_state == ("session.*",)
    sc = scenario()
    reference = await reference_state(MOCK, sc)
    final = {**reference, "session": {**reference["session"], "verified_customer_id": None}}
    assert state_checks(sc, MOCK, final, reference)[0].passed is True


def test_state_paths_match_whole_segments_only() -> None:
    sc = minimal(compare_state=["customers.C-1"])
    final = {"customers": {"C-10": {"x": 1}, "C-1": {"x": 1}}}
    reference = {"customers": {"C-10": {"x": 2}, "C-1": {"x": 1}}}
    assert state_checks(sc, MOCK, final, reference)[0].passed is True
    final["customers"]["C-1"]["x"] = 5
    assert state_checks(sc, MOCK, final, reference)[0].reason == (
        "final state differs: customers.C-1.x: 5, expected 1"
    )


def test_a_state_reason_shows_three_differences_and_counts_the_rest() -> None:
    sc = minimal(compare_state="all")
    final = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    reference = {"a": 0, "b": 0, "c": 0, "d": 0, "f": []}
    [check] = state_checks(sc, MOCK, final, reference)
    assert check.reason == (
        "final state differs: a: 1, expected 0; b: 2, expected 0; c: 3, expected 0 (+3 more)"
    )
    [absent] = state_checks(sc, MOCK, {"e": 5}, {"f": []})
    assert (
        absent.reason
        == "final state differs: e: 5, expected '<absent>'; f: '<absent>', expected []"
    )
