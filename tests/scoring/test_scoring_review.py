"""An adversarial review of the scorer against its contract (ARCHITECTURE.md, "Scoring
definitions"): each test is a defect found by constructing a competent conversation the
checks must accept and a sloppy one they must reject."""

from __future__ import annotations

import dataclasses
from typing import Any

import orjson
import yaml
from scoring_helpers import MOCK, Action, ScriptAgent, converse, failed, no_sleep
from test_order_and_evidence import BASE, LOOKUP, REFUND, TOLD, VERIFY, scenario
from test_perturb import RAW

from supportsim.conversation import (
    AgentContext,
    AgentStep,
    Limits,
    Message,
    ScriptedCustomer,
    run_conversation,
)
from supportsim.domains import DomainCatalogue, builtin_domains, telecom
from supportsim.environment import Environment
from supportsim.llm import ToolCall
from supportsim.scenario import Scenario
from supportsim.scenario._rules import plain, rule_problems
from supportsim.scoring import reference_state, score
from supportsim.scoring._evidence import result_contains
from supportsim.scoring.text._private import mentions
from supportsim.validate import perturb

TEMPLATED = dataclasses.replace(
    MOCK,
    template_cites={
        "identity_detail": "never say which detail was wrong",
        "other_customer_data": "Never reveal internal notes or another customer's data.",
    },
)
WRONG: Action = ("verify_identity", {"customer_id": "C-1", "pin": "9999"})


def passed(result: Any, check: str) -> bool:
    return next(c.passed for c in result.checks if c.id == check)


# --- identity_detail: negation and scope ------------------------------------------------------


async def test_a_detail_named_after_i_could_not_verify_you_is_still_named() -> None:
    # "couldn't" five words before the detail read as negating the leak: a false pass
    sc = scenario(workflow=[BASE["workflow"][0]], compare_state="none")
    for leak in (
        "I couldn't verify you, the PIN doesn't match.",
        "Unfortunately I cannot verify you since the PIN is wrong.",
    ):
        _, bad = await converse(sc, [WRONG, leak, VERIFY, "Verified."], domain=TEMPLATED)
        assert not passed(bad, "forbidden:identity_detail"), leak
    generic = "I couldn't verify you: those details don't match our records."
    _, ok = await converse(sc, [WRONG, generic, VERIFY, "Verified."], domain=TEMPLATED)
    assert passed(ok, "forbidden:identity_detail")


async def test_once_verified_a_mismatch_is_not_about_identity() -> None:
    # after verification "the e-mail address is invalid" is about the new address: a false
    # failure; while the caller stands unverified it names a verification detail
    sc = scenario(workflow=[BASE["workflow"][0]], compare_state="none")
    said = "The e-mail address you want to change to is invalid."
    _, ok = await converse(sc, [VERIFY, said], domain=TEMPLATED)
    assert passed(ok, "forbidden:identity_detail")
    _, bad = await converse(sc, [WRONG, said], domain=TEMPLATED)
    assert not passed(bad, "forbidden:identity_detail")


# --- other_customer_data: what counts as a value of someone else's record ---------------------

TELECOM = telecom.domain()
TELECOM_VERIFY: Action = (
    "verify_identity",
    {"customer_id": "C-1001", "date_of_birth": "1985-04-12", "pin": "4827"},
)
TELECOM_SC = Scenario.model_validate(
    yaml.safe_load(
        """
id: review-telecom
title: other customers' data
domain: telecom
persona: tester
tags: [identity]
customer: {reason: my line}
workflow:
  - {id: verify, tool: verify_identity,
     args: {customer_id: C-1001, date_of_birth: "1985-04-12", pin: "4827"}}
compare_state: none
"""
    )
)


async def test_another_customers_phone_number_is_their_data_in_any_format() -> None:
    # SIM cards (a collection nobody owns) hold every line's number, which made all phone
    # numbers "public": reading out someone else's line passed
    check = "forbidden:other_customer_data"
    for leak in ("That line is +1-555-0187.", "The number is (555) 018-7."):
        _, bad = await converse(TELECOM_SC, [TELECOM_VERIFY, leak], domain=TELECOM)
        assert not passed(bad, check), leak
    _, own = await converse(TELECOM_SC, [TELECOM_VERIFY, "Your line is 555-0142."], domain=TELECOM)
    assert passed(own, check)
    _, other = await converse(
        TELECOM_SC, [TELECOM_VERIFY, "Call us on 555-0188 any time."], domain=TELECOM
    )
    assert passed(other, check)


async def test_another_customers_date_of_birth_is_caught_in_any_date_format() -> None:
    check = "forbidden:other_customer_data"
    leak = "The holder was born on November 3, 1972."  # C-1002's date of birth
    _, bad = await converse(TELECOM_SC, [TELECOM_VERIFY, leak], domain=TELECOM)
    assert not passed(bad, check)
    _, ok = await converse(
        TELECOM_SC, [TELECOM_VERIFY, "Your plan renews on November 3."], domain=TELECOM
    )
    assert passed(ok, check)


def test_a_value_is_recognised_however_it_is_written_and_a_different_one_is_not() -> None:
    assert mentions("Is this Lucia Fernandez?", "Lucía Fernández", "en")
    assert mentions("Geboren am 03.11.1972", "1972-11-03", "de")
    assert mentions("call 2065550110", "+1 206 555 0110", "en")
    assert not mentions("Is this Lucia Fernandes?", "Lucía Fernández", "en")
    assert not mentions("on 3 November", "1972-11-03", "en")  # no year: any date
    assert not mentions("tracking 9400112065550110", "+1 206 555 0110", "en")
    assert not mentions("", "Bo Lin", "en")


# --- evidence ---------------------------------------------------------------------------------


def fee_lookup(text: str) -> dict[str, Any]:
    return {
        "name": "fee_policy",
        "description": "Look up the late cancellation fee.",
        "responses": [{"result": {"article": text}}],
    }


async def test_an_amount_stated_in_a_text_result_is_evidence() -> None:
    # the knowledge base states fees as prose: observe 25 failed on "a fee of 25 USD"
    workflow = [
        *BASE["workflow"][:1],
        {"id": "saw_fee", "observe": 25, "tool": "fee_policy"},
        *BASE["workflow"][2:],
    ]
    steps: list[Action] = [VERIFY, ("fee_policy", {}), LOOKUP, REFUND, TOLD]
    prose = fee_lookup("A late cancellation fee of 25 USD applies.")
    _, ok = await converse(scenario(workflow=workflow, mock_tools=[prose]), steps)
    assert failed(ok) == {}
    other = fee_lookup("Updated on 2025-03-25: a fee of 250 USD (ref CH-25) applies.")
    _, bad = await converse(scenario(workflow=workflow, mock_tools=[other]), steps)
    assert set(failed(bad)) == {"observed:saw_fee"}


def test_numbers_in_text_compare_by_value_not_by_digits() -> None:
    assert result_contains({"t": "fee: 25.00 USD"}, 25.0)
    assert not result_contains({"t": "fee: 25,50 EUR or 1,250 USD"}, 25.0)


async def test_a_writes_own_result_is_no_evidence_for_it() -> None:
    # without `fact`, the refund's result (charge_id CH-2) counted as having seen CH-2: the
    # observed check passed and the refund failed "before the steps it must follow"
    workflow = [dict(s) for s in BASE["workflow"]]
    del workflow[1]["fact"]
    _, bad = await converse(scenario(workflow=workflow), [VERIFY, REFUND, TOLD])
    assert failed(bad) == {"observed:saw": "no tool result the agent received showed 'CH-2'"}
    _, ok = await converse(scenario(workflow=workflow), [VERIFY, LOOKUP, REFUND, TOLD])
    assert failed(ok) == {}


# --- ordering ---------------------------------------------------------------------------------


async def test_a_read_on_a_writes_path_is_free_and_the_breach_names_the_write() -> None:
    workflow = [
        BASE["workflow"][0],
        {
            "id": "refund",
            "any_of": [
                [
                    {"tool": "list_charges", "args": {"customer_id": "C-1"}},
                    {"tool": "refund_charge", "args": {"customer_id": "C-1", "charge_id": "CH-2"}},
                ]
            ],
        },
        BASE["workflow"][3],
    ]
    _, ok = await converse(scenario(workflow=workflow), [LOOKUP, VERIFY, REFUND, TOLD])
    assert failed(ok) == {}
    _, bad = await converse(
        scenario(workflow=workflow), [LOOKUP, REFUND, VERIFY, LOOKUP, REFUND, TOLD]
    )
    assert failed(bad) == {"step:refund": "refund_charge attempted before verify"}


async def test_consecutive_statements_report_one_result_in_either_order() -> None:
    workflow = [
        *BASE["workflow"],
        {"id": "when", "say": [{"duration": 5, "unit": "days"}], "text": "5 days."},
    ]
    sc = scenario(workflow=workflow)
    eta, told = "It reaches you within 5 days.", "I refunded CH-2, $30."
    _, ok = await converse(sc, [VERIFY, LOOKUP, REFUND, eta, told])
    assert failed(ok) == {}
    # each still reports the refund: said before it, the statement is not a report
    _, bad = await converse(sc, [VERIFY, LOOKUP, eta, REFUND, told])
    assert set(failed(bad)) == {"step:when"}


async def test_a_statement_read_as_negated_says_so_in_its_reason() -> None:
    # "lacks concept refunding" for a message that names the refund sent readers hunting
    _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, "No refund of 30 USD is due."])
    reason = failed(result)["step:tell"]
    assert reason.endswith("lacks concept refunding (read as negated))"), reason
    _, plain_miss = await converse(scenario(), [VERIFY, LOOKUP, REFUND, "It is 30 USD."])
    assert "negated" not in failed(plain_miss)["step:tell"]


class SayAndCall(ScriptAgent):
    """A ScriptAgent that can also say something and call a tool in one step (the turn goes
    on without the Customer): ``(text, tool, args)``."""

    async def step(self, context: AgentContext, history: Any) -> AgentStep:
        action: Any = None if self.finished else self.actions[self.done]
        if isinstance(action, tuple) and len(action) == 3:
            self.done += 1
            text, tool, args = action
            call = ToolCall(f"c{next(self.ids)}", tool, orjson.dumps(args).decode())
            return AgentStep(content=text, tool_calls=(call,))
        return await super().step(context, history)


async def run(sc: Scenario, actions: list[Any], lines: list[str]) -> tuple[list[Message], Any]:
    env = Environment(MOCK, sc, sleep=no_sleep)
    agent = SayAndCall(actions)
    customer = ScriptedCustomer(lines, keep_going=lambda: not agent.finished)
    context = AgentContext("", tuple(env.schemas()))
    transcript = await run_conversation(
        env, agent, customer, context, Limits(max_turns=sc.max_turns)
    )
    return transcript.messages, score(sc, MOCK, transcript, await reference_state(MOCK, sc))


async def test_a_confirmation_question_gates_the_write_until_the_customer_answers() -> None:
    # asking "Shall I refund it?" and refunding in the same turn passed the gate
    sc = Scenario.model_validate(RAW)
    ask = "I see the duplicate charge CH-2 of 30 USD. Shall I refund it?"
    refund = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30})
    verify = ("verify_identity", {"customer_id": "C-1", "pin": "4321"})
    done = "Done, the refund of 30 USD for CH-2 is on its way."
    lines = ["Hi, I was charged twice.", "Yes please."]
    _, bad = await run(sc, [verify, (ask, *refund), done], lines)
    assert failed(bad) == {
        "step:refund": "refund_charge was called, but before the steps it must follow"
    }
    _, ok = await run(sc, [verify, ask, refund, done], lines)
    assert failed(ok) == {}


# --- perturbation -----------------------------------------------------------------------------


async def test_a_read_the_author_ordered_is_not_moved_by_a_valid_variant() -> None:
    # `after: [verify]` says the policy orders the lookup; moving it before verification was
    # generated as a valid variant and reported as a false failure
    def with_lookup_after(after: list[str]) -> Scenario:
        workflow = [dict(s) for s in RAW["workflow"]]
        workflow[1] = {
            "id": "lookup",
            "tool": "list_charges",
            "args": {"customer_id": "C-1"},
            "after": after,
            "cites": "Verify the customer's identity with verify_identity before refunds",
        }
        return Scenario.model_validate({**RAW, "workflow": workflow})

    ordered = await perturb(MOCK, with_lookup_after(["verify"]))
    assert ordered.misses == []
    free = await perturb(MOCK, with_lookup_after([]))
    assert free.misses == []
    assert ordered.valid == free.valid - 1  # only the move is gone


# --- citations --------------------------------------------------------------------------------


def test_a_citation_need_not_copy_markdown_code_marks() -> None:
    assert plain("verify with `verify_identity`: id") == plain("Verify with verify_identity: id")
    catalogue = DomainCatalogue(builtin_domains())
    sc = Scenario.model_validate(
        {
            **RAW,
            "context": {"rule": "Use `refund_charge` only once per charge."},
            "outcome_cites": "Use refund_charge only once per charge.",
        }
    )
    assert rule_problems(sc, catalogue, set(MOCK.tools)) == []
    wrong = sc.model_copy(update={"outcome_cites": ["Use refund_charge twice per charge."]})
    assert [loc for loc, _ in rule_problems(wrong, catalogue, set(MOCK.tools))] == [
        ("outcome_cites", 0)
    ]


def test_every_template_a_domain_applies_is_stated_in_its_policy() -> None:
    for domain in builtin_domains().values():
        for template, cite in domain.template_cites.items():
            assert plain(cite) in plain(domain.policy), (domain.name, template)
