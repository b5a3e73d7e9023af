"""Only what must be ordered is ordered; evidence is met by any lookup that shows the fact;
statements match meaning (typed facts, concepts), not spelling."""

from __future__ import annotations

from typing import Any

from scoring_helpers import (
    LOOKUP,
    MOCK,
    REFUND,
    REFUND_SCENARIO,
    VERIFY,
    Action,
    converse,
    failed,
)

from supportsim.scenario import Scenario

PROFILE: Action = ("get_customer", {"customer_id": "C-1"})
TOLD = "Done: I refunded CH-2, $30.00 in total."

BASE: dict[str, Any] = {**REFUND_SCENARIO, "id": "order-test"}


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**BASE, **changes})


async def test_a_lookup_before_verification_is_not_an_order_fault() -> None:
    _, result = await converse(scenario(), [LOOKUP, VERIFY, REFUND, TOLD])
    assert failed(result) == {}
    assert result.strict


async def test_the_evidence_must_come_before_the_write_it_justifies() -> None:
    _, result = await converse(scenario(), [VERIFY, REFUND, LOOKUP, TOLD])
    assert set(failed(result)) == {"step:refund"}
    assert "before the steps it must follow" in failed(result)["step:refund"]


async def test_a_write_without_any_evidence_fails_the_observed_check() -> None:
    _, result = await converse(scenario(), [VERIFY, REFUND, TOLD])
    assert failed(result) == {
        "observed:saw": "no tool result the agent received (list_charges) showed 'CH-2'"
    }


async def test_evidence_from_a_tool_outside_the_fact_map_does_not_count() -> None:
    # get_customer never shows charges; an observe without `fact` accepts any tool
    _, result = await converse(scenario(), [VERIFY, PROFILE, REFUND, TOLD])
    assert "observed:saw" in failed(result)


async def test_evidence_without_a_fact_accepts_any_lookup_showing_the_value() -> None:
    workflow = [dict(s) for s in BASE["workflow"]]
    workflow[1] = {
        "id": "saw",
        "observe": "ada@example.com",
        "tool": "get_customer",
        "args": {"customer_id": "C-1"},
    }
    _, result = await converse(scenario(workflow=workflow), [VERIFY, PROFILE, REFUND, TOLD])
    assert failed(result) == {}


async def test_a_write_before_its_gate_fails_the_write() -> None:
    _, result = await converse(scenario(), [LOOKUP, VERIFY, REFUND, TOLD])
    assert failed(result) == {}
    # the first refund is refused by the tool, but trying before verifying is the breach
    _, result = await converse(scenario(), [LOOKUP, REFUND, VERIFY, REFUND, TOLD])
    assert failed(result) == {"step:refund": "refund_charge attempted before verify"}
    gate_marked = [dict(s) for s in BASE["workflow"]]
    gate_marked.insert(
        2,
        {
            "id": "ask",
            "say": ["go ahead"],
            "gate": True,
            "text": "Shall I go ahead? Please confirm.",
            "optional": True,
        },
    )
    _, result = await converse(
        scenario(workflow=gate_marked), [VERIFY, LOOKUP, REFUND, "Shall I go ahead?", TOLD]
    )
    assert "before the steps it must follow" in failed(result)["step:refund"]


async def test_consecutive_statements_may_share_one_message() -> None:
    workflow = [
        *BASE["workflow"],
        {"id": "when", "say": [{"duration": 5, "unit": "days"}], "text": "5 days."},
    ]
    both = "I refunded CH-2 ($30); it reaches you within 5 days."
    _, result = await converse(scenario(workflow=workflow), [VERIFY, LOOKUP, REFUND, both])
    assert failed(result) == {}
    workflow[-1] = {**workflow[-1], "separate": True}
    _, result = await converse(scenario(workflow=workflow), [VERIFY, LOOKUP, REFUND, both])
    assert set(failed(result)) == {"step:when"}


async def test_money_and_concepts_match_by_meaning() -> None:
    for said in (
        "I’ve issued a refund of 30 USD.",
        "The refund of $30 is done.",
        "We credited your account with 30.00 dollars as a refund.",
    ):
        _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, said])
        assert failed(result) == {}, said
    for said in ("I refunded $300.", "I can give you 30 USD off next month.", "Refunded 3.00"):
        _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, said])
        assert set(failed(result)) == {"step:tell"}, said


async def test_a_negated_phrase_is_not_a_disclosure_but_the_phrase_is() -> None:
    rules = [{"id": "fasting", "disclose": ["fast before the visit"]}]
    done = [VERIFY, LOOKUP, REFUND, TOLD]
    _, ok = await converse(
        scenario(forbidden=rules), [*done, "You don't need to fast before the visit."]
    )
    assert failed(ok) == {}
    _, bad = await converse(scenario(forbidden=rules), [*done, "Please fast before the visit."])
    assert set(failed(bad)) == {"forbidden:fasting"}


async def test_a_lexicon_extension_counts_for_its_scenario_only() -> None:
    said = "All sorted, the 30 USD are on their way back as pocket money."
    _, plain = await converse(scenario(), [VERIFY, LOOKUP, REFUND, said])
    assert set(failed(plain)) == {"step:tell"}
    extended = scenario(lexicon={"refunding": ["pocket money"]})
    _, result = await converse(extended, [VERIFY, LOOKUP, REFUND, said])
    assert failed(result) == {}


def test_the_mock_domain_fact_map_names_real_tools() -> None:
    for tools in MOCK.facts.values():
        assert set(tools) <= set(MOCK.tools)


async def test_a_negated_concept_does_not_state_it_unless_the_step_is_a_refusal() -> None:
    said = "No refund is possible for CH-2, 30 USD."
    _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, said])
    assert set(failed(result)) == {"step:tell"}
    workflow = [
        *BASE["workflow"][:3],
        {
            "id": "tell",
            "say": [{"concept": "refusing"}, {"concept": "waiving"}],
            "text": "I can't waive the fee.",
        },
    ]
    _, result = await converse(
        scenario(workflow=workflow),
        [VERIFY, LOOKUP, REFUND, "Sorry, I'm not able to waive the fee."],
    )
    assert failed(result) == {}


def test_negation_stops_at_a_dash_and_a_polite_imperative_and_spares_questions() -> None:
    from supportsim.scenario import SayItem
    from supportsim.scoring._say import Speech, phrase_span, states
    from supportsim.scoring.text._negation import negated

    def neg(text: str, phrase: str) -> bool:
        span = phrase_span(text, phrase)
        assert span is not None
        return negated(text, span, "en")

    assert not neg("I can't waive it - our notes show two late cancellations", "late cancellations")
    assert not neg("If you can't come, please call us to cancel", "call us to cancel")
    assert neg("I'm also not allowed to book it as a private appointment instead.", "private")
    assert neg("You don't need to fast before the test.", "fast before the test")
    fr = Speech("fr", {})
    asked = "Puis-je avoir votre nom complet et votre date de naissance ?"
    assert states(SayItem(concept="asking_identity"), asked, fr)
    assert not states(SayItem(concept="refunding"), "Voulez-vous un remboursement ?", fr)
