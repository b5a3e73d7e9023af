"""The mode of an act's mention: done, doing, committed, offered, asked, conditional,
negated, generic, someone else's; and how a noun takes the mode of the verb that states it."""

from __future__ import annotations

import pytest

from supportsim.scoring.text._acts import mentions


def modes(text: str, act: str) -> set[str]:
    return {m.mode for m in mentions(text, "en") if m.act == act}


@pytest.mark.parametrize(
    ("text", "act", "mode"),
    [
        # done: past, perfect, passive, a participle alone, a present state just made
        ("I refunded it yesterday.", "refund", "done"),
        ("We've gone ahead and cancelled it.", "cancel", "done"),
        ("It has been rescheduled to Monday.", "reschedule", "done"),
        ("Cancelled ✅", "cancel", "done"),
        ("Premium services are now blocked.", "change", "done"),
        ("We've had to move your delivery to Friday.", "reschedule", "done"),
        # doing
        ("I'm transferring you now.", "escalate", "doing"),
        ("You're getting a full refund.", "refund", "doing"),
        # committed: will, going to, let me, a causative chain
        ("I'll book it for you.", "book", "committed"),
        ("We're going to waive it.", "waive", "committed"),
        ("Let me connect you with billing.", "escalate", "committed"),
        ("I'll get a colleague to call you.", "callback", "committed"),
        ("Your order will be cancelled today.", "cancel", "committed"),
        ("Once it has been refunded, you'll get an email.", "refund", "committed"),
        # offered, hypothetical, expected
        ("I can cancel that for you.", "cancel", "offered"),
        ("Orders can be cancelled online.", "cancel", "offered"),
        ("We would refund it.", "refund", "hypothetical"),
        ("I was going to cancel it.", "cancel", "hypothetical"),
        ("It should arrive on Monday.", "deliver", "expected"),
        # asked: a question, an offer earlier in the sentence
        ("Shall I refund it?", "refund", "asked"),
        ("Would you like me to book it, or wait?", "book", "asked"),
        # conditional
        ("If it's faulty, we refund it.", "refund", "conditional"),
        ("I can refund it if you like.", "refund", "conditional"),
        # negated, in its clause only
        ("I haven't cancelled it.", "cancel", "negated"),
        ("Nothing was refunded.", "refund", "negated"),
        ("I can't say when it will be fixed.", "fix", "negated"),
        # generic: a policy adverb, a class as the subject, a present habit
        ("We usually refund within 5 days.", "refund", "generic"),
        ("Orders are cancelled after 30 days.", "cancel", "generic"),
        # someone else's: the customer as the active subject, their reported words
        ("You cancelled it last week.", "cancel", "other"),
        ("You mentioned it was refunded.", "refund", "other"),
        # none: an infinitive, an imperative, a gerund as a noun
        ("You'll need to cancel it in the app.", "cancel", "none"),
        ("Please cancel it in the app.", "cancel", "none"),
        ("Cancelling late costs 10 USD.", "cancel", "none"),
    ],
)
def test_the_mode_of_a_verb(text: str, act: str, mode: str) -> None:
    assert mode in modes(text, act)


@pytest.mark.parametrize(
    ("text", "act", "mode"),
    [
        ("I've issued a refund.", "refund", "done"),
        ("Your refund of £12.50 has been processed.", "refund", "done"),
        ("The cancellation is confirmed.", "cancel", "done"),
        ("A refund is on its way.", "refund", "doing"),
        ("You'll see the refund next week.", "refund", "committed"),
        ("A refund is possible within 30 days.", "refund", "offered"),
        ("Would you like a refund?", "refund", "asked"),
        ("Your refund request is with finance.", "refund", None),
        # another act's verb takes the noun: "your booking was cancelled" books nothing
        ("Your booking was cancelled by the clinic.", "book", "none"),
    ],
)
def test_a_noun_takes_the_mode_of_the_verb_that_states_it(
    text: str, act: str, mode: str | None
) -> None:
    found = modes(text, act)
    if mode is None:
        assert not found  # "refund request": a request, not a refund
    else:
        assert mode in found


def test_a_noun_negator_negates_its_noun_phrase_only() -> None:
    text = "No fee applies and your appointment is cancelled."
    assert modes(text, "cancel") == {"done"}
    assert "state" in modes(text, "waive")  # "no fee": the fee is waived, a state
    assert modes("No refund is possible.", "refund") == {"negated"}


@pytest.mark.parametrize(
    "text",
    [
        "No worries, I've cancelled it.",
        "Not to worry: I've cancelled it.",
        "Don't panic, I've cancelled it.",
    ],
)
def test_set_phrases_with_a_negator_negate_nothing(text: str) -> None:
    assert modes(text, "cancel") == {"done"}


def test_a_negated_own_act_is_a_refusal_and_a_negated_charge_a_waiver() -> None:
    refused = [m for m in mentions("I won't be transferring you.", "en") if m.act == "escalate"]
    assert refused and refused[0].refuses
    charged = mentions("You won't be charged for it.", "en")
    # the waiver cancels the fee it states away
    assert {(m.act, m.mode) for m in charged} == {("waive", "committed")}
    # nothing was waived in the past: no charge then is no waiver now
    assert not [m for m in mentions("You were never charged.", "en") if m.act == "waive"]


def test_a_completion_by_someone_else_confirms_nothing() -> None:
    def confirms(text: str) -> bool:
        return any(m.confirms for m in mentions(text, "en"))

    assert confirms("I've cancelled your booking.")
    assert confirms("Your booking has been cancelled.")
    assert not confirms("Your booking was cancelled by the clinic.")
    assert not confirms("The courier has cancelled the delivery.")
    assert not confirms("We've had to move your delivery to Friday.")
