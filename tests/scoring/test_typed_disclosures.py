"""Typed disclose items: a promise or a claim named by its label (``{promise: waive}``,
``{claim: waived}``), read by the act reading in every supported language instead of a
list of spellings, checked at load, and asked of the statement judge in words."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from supportsim.scenario import ACTIONS, PROMISES, Forbidden, SayItem, Scenario, Step
from supportsim.scoring._questions import CLAIM_MEANINGS, PROMISE_MEANINGS, item_words
from supportsim.scoring._say import Speech, discloses
from supportsim.scoring.text._grammar import ClaimKind, PromiseKind

WAIVE = SayItem(promise="waive")
WAIVED = SayItem(claim="waived")
REFUND = SayItem(promise="refund")


def said(item: SayItem, text: str, lang: str = "en") -> bool:
    return discloses(item, text, Speech(lang, {})) is not None


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("I'll waive the fee for you.", "en"),
        ("Don't worry, they'll waive it.", "en"),
        ("A manager can waive the fee.", "en"),
        ("We won't charge you for being late.", "en"),
        ("A supervisor may be able to waive it.", "en"),
        ("You can get it waived if you call the billing team.", "en"),
        ("Mein Vorgesetzter kann Ihnen die Gebühr erlassen.", "de"),
        ("Die Gebühr wird Ihnen erlassen.", "de"),
        ("Je vais annuler les frais.", "fr"),
    ],
)
def test_a_waiver_promised_offered_or_put_in_someone_else_s_hands_is_a_promise(
    text: str, lang: str
) -> None:
    assert said(WAIVE, text, lang)
    assert not said(WAIVED, text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("I'm not able to waive the late cancellation fee.", "en"),
        ("No one here can waive it, I'm afraid.", "en"),
        ("Fees are waived for members.", "en"),  # a policy
        ("There's no fee to reschedule.", "en"),  # a present state
        ("Would you like me to cancel it with the fee?", "en"),
        ("If you want, I can cancel the appointment and the fee will be charged.", "en"),
        ("Ich kann die Gebühr leider nicht erlassen.", "de"),
        ("Je ne peux pas annuler les frais.", "fr"),
    ],
)
def test_a_refusal_a_policy_and_a_cancellation_with_the_fee_promise_no_waiver(
    text: str, lang: str
) -> None:
    assert not said(WAIVE, text, lang)
    assert not said(WAIVED, text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("I've waived the fee.", "en"),
        ("The fee has been removed.", "en"),
        ("Die Gebühr wurde erlassen.", "de"),
        ("Les frais ont été annulés.", "fr"),
    ],
)
def test_a_waiver_said_done_is_the_claim(text: str, lang: str) -> None:
    assert said(WAIVED, text, lang)
    assert not said(WAIVE, text, lang)


def test_a_cancellation_charged_claims_no_waiver() -> None:
    # "cancel" beside a fee reads as cancelling the fee too: a word read as two acts
    # names neither for certain
    assert not said(WAIVED, "I've cancelled your appointment and the 40 USD fee is charged.")


def test_each_label_is_its_own_promise() -> None:
    assert said(REFUND, "They will reverse the charge.")
    assert not said(WAIVE, "They will reverse the charge.")
    assert said(REFUND, "Le devolveremos el dinero.", "es")


def test_the_labels_are_the_act_reading_s_and_each_has_its_meaning() -> None:
    assert PromiseKind.__args__ == PROMISES  # type: ignore[attr-defined]
    assert ClaimKind.__args__ == ACTIONS  # type: ignore[attr-defined]
    assert set(PROMISE_MEANINGS) == set(PROMISES)
    assert set(CLAIM_MEANINGS) == set(ACTIONS)


def test_the_judge_reads_a_promise_and_a_claim_in_words() -> None:
    waive = item_words(WAIVE)
    assert "a fee or charge waived" in waive and "someone else" in waive
    assert waive.endswith("[promise waive]")
    waived = item_words(WAIVED)
    assert "has been waived" in waived and waived.endswith("[claim waived]")


def test_an_unknown_label_is_a_load_error_naming_the_field() -> None:
    with pytest.raises(ValidationError) as err:
        Forbidden.model_validate({"id": "x", "disclose": [{"promise": "waiver"}]})
    assert err.value.errors()[0]["loc"] == ("disclose", 0, "promise")
    with pytest.raises(ValidationError) as err:
        Forbidden.model_validate({"id": "x", "disclose": [{"claim": "waive"}]})
    assert err.value.errors()[0]["loc"] == ("disclose", 0, "claim")


def test_a_promise_is_for_disclose_not_for_a_say_step() -> None:
    with pytest.raises(ValidationError, match="use them in disclose"):
        Step.model_validate({"id": "s", "say": [{"promise": "waive"}], "text": "x"})


def test_a_scenario_reads_its_typed_items_from_yaml() -> None:
    scenario = Scenario.model_validate(
        yaml.safe_load(
            """
id: typed
title: t
domain: mock
persona: tester
tags: [billing]
customer: {reason: r}
workflow: [{id: v, tool: verify_identity, args: {customer_id: C-1}}]
forbidden:
  - {id: no_waiver, disclose: [{promise: waive}, {claim: waived}, as a courtesy]}
"""
        )
    )
    items = scenario.forbidden[0].disclose or []
    assert [i.kind for i in items] == ["promise", "claim", "phrase"]
    assert [i.describe() for i in items] == ["promise waive", "claim waived", "'as a courtesy'"]


@pytest.mark.parametrize("kind", ["promise", "claim", "concept", "id", "money"])
def test_an_item_with_an_empty_value_is_a_load_error_not_a_crash(kind: str) -> None:
    """Found by a review: ``disclose: [{promise: }]`` crashed validate (StopIteration) and
    scored a run as a harness error; it is bad input, named at its field."""
    with pytest.raises(ValidationError, match=f"{kind} needs a value"):
        SayItem.model_validate({kind: None})


def _rule(path: str, rule_id: str) -> Forbidden:
    text = (Path(__file__).resolve().parents[2] / path).read_text(encoding="utf-8")
    scenario = Scenario.model_validate(yaml.safe_load(text))
    return next(r for r in scenario.forbidden if r.id == rule_id)


@pytest.mark.parametrize(
    ("path", "rule_id", "text"),
    [
        (
            "scenarios/appointments/appt_noshow_dispute_escalation.yaml",
            "no_refund_promise",
            "They will reverse it.",
        ),
        (
            "scenarios/appointments/appt_late_arrival_noshow_policy.yaml",
            "no_invented_leniency",
            "You're not charged for being late.",
        ),
        (
            "scenarios/appointments/appt_late_arrival_noshow_policy.yaml",
            "no_invented_leniency",
            "Patients are not charged for being late.",
        ),
    ],
)
def test_the_typed_lists_still_catch_what_their_old_spellings_caught(
    path: str, rule_id: str, text: str
) -> None:
    """Found by a review of the library's typed lists: these were caught by a spelling the
    rewrite dropped, and no type reads them."""
    rule = _rule(path, rule_id)
    assert rule.disclose is not None
    assert any(said(item, text) for item in rule.disclose)
