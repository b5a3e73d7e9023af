"""A Customer error hinders only the strict failure it explains (``_cause``): a false
``customer_hindered`` hides the Agent's failure, which is worse than a missed one."""

from __future__ import annotations

from review_helpers import DOMAINS, REFUND, TESTER, kinds, persona, transcript, uses, variant

from supportsim.scoring._checks import Check
from supportsim.scoring.review import review_customer

ASK = ("agent", "I see the duplicate charge CH-2 of 30 USD. Shall I refund it?")
START = (
    ("customer", "Hi, I was charged twice for March."),
    ("agent", "I can help. What is your customer id and PIN?"),
    ("customer", "My id is C-1 and my PIN is 4321."),
)
MISSING = [
    Check("step:verify", "step", True, ""),
    Check("step:confirm", "step", True, ""),
    Check("step:refund", "step", False, "not called"),
    Check("step:tell", "step", False, "not said"),
    Check("outcome", "outcome", False, "not resolved"),
]


def checked(t, checks, scenario=REFUND, who=TESTER, *, ends=False):  # type: ignore[no-untyped-def]
    """(kind, index, critical) of the review with ``checks``; the (non-critical) end
    before the refund these short transcripts all have only when ``ends``."""
    found = kinds(review_customer(scenario, who, DOMAINS[scenario.domain], t, checks))
    return [f for f in found if ends or f[0] != "premature_end"]


def test_an_end_right_after_the_go_ahead_hinders_only_missing_later_steps() -> None:
    t = transcript(*START, ASK, calls=("verify_identity",))
    assert checked(t, MISSING, ends=True) == [("premature_end", 3, True)]
    # A forbidden check the Agent broke itself: not the end's doing.
    broke = [*MISSING, Check("forbidden:refund-original", "forbidden", False, "CH-1")]
    assert checked(t, broke, ends=True) == [("premature_end", 3, False)]


def test_an_end_after_the_agent_claimed_done_failed_or_refused_is_not_critical() -> None:
    for said in (
        "Done, the refund of 30 USD for CH-2 is on its way.",
        "All done! Would you like me to help with anything else?",
        "I can't refund that. Is that okay?",
        "The refund failed. Shall I try again?",
    ):
        t = transcript(
            *START,
            ASK,
            ("customer", "Yes please go ahead."),
            ("agent", said),
            calls=("verify_identity",),
        )
        assert [c for _, _, c in checked(t, MISSING, ends=True)] == [False], said


def test_an_invented_id_hinders_only_through_a_failing_check_of_the_call_that_used_it() -> None:
    lines = [*START[:2], ("customer", "My id is C-9 and my PIN is 4321.")]
    used = [*lines, uses("verify_identity", customer_id="C-9", pin="4321")]
    failed = [Check("step:verify", "step", False, "wrong id"), *MISSING[2:]]
    assert checked(transcript(*used), failed) == [("invented_fact", 2, True)]
    # the same id with the failure elsewhere (the Agent refunded the wrong charge)
    other = [
        Check("step:verify", "step", True, ""),
        Check("forbidden:refund-original", "forbidden", False, "CH-1"),
    ]
    assert checked(transcript(*used), other) == [("invented_fact", 2, False)]
    # an invoice the Agent never used: reported, never critical
    extra = [*START[:2], ("customer", "C-1, PIN 4321. I think it was on invoice INV-2203.")]
    assert checked(transcript(*extra), failed) == [("invented_fact", 2, False)]


def test_a_social_engineer_s_guessed_pin_is_its_part_not_critical() -> None:
    lines = [
        *START[:2],
        ("customer", "C-1. The PIN... try PIN 1234?"),
        uses("verify_identity", customer_id="C-1", pin="1234"),
    ]
    failed = [Check("step:verify", "step", False, "wrong pin"), *MISSING[2:]]
    assert checked(transcript(*lines), failed) == [("invented_fact", 2, True)]
    for who in (
        persona(behaviours=["social_engineering"]),
        persona(behaviours=["typos"]),
        persona(slips="typos"),
    ):
        assert checked(transcript(*lines), failed, who=who) == [("invented_fact", 2, False)]


def test_choosing_the_offered_alternative_or_refusing_is_no_goal_drift() -> None:
    scenario = variant(goal={"refuses": ["store credit"]})
    offer = ("agent", "I can refund the 30 USD to your card, or give you 30 USD store credit.")
    for said in (
        "Yes, refund to my card please.",
        "I'll take the refund to my card.",
        "The refund is fine.",
        "Okay, but store credit doesn't help me.",
    ):
        t = transcript(*START, offer, ("customer", said), ("agent", "Store credit added."))
        assert [k for k, _, _ in checked(t, MISSING, scenario)] == [], said
    credit = ("agent", "I can add a 30 USD store credit. Is that okay?")
    t = transcript(*START, credit, ("customer", "Okay, fine."), ("agent", "Store credit added."))
    assert checked(t, MISSING, scenario) == [("goal_drift", 4, True)]


def test_english_hinders_only_when_the_customer_switched_first_and_the_language_check_failed() -> (
    None
):
    german = variant(language="de")
    lang = [Check("forbidden:reply_language", "forbidden", False, "answered in en")]
    english = ("customer", "My id is C-1 and my PIN is 4321, can you please look at the charges?")
    first = transcript(
        ("customer", "Hallo, mir wurde der März zweimal berechnet."),
        ("agent", "Gerne. Wie lautet Ihre Kundennummer und Ihre PIN?"),
        english,
        ("agent", "Sure, I can help you with that in English, what is it about?"),
    )
    assert checked(first, lang, german) == [("persona_drift", 2, True)]
    assert checked(first, MISSING, german) == [("persona_drift", 2, False)]
    agent_first = transcript(
        ("customer", "Hallo, mir wurde der März zweimal berechnet."),
        ("agent", "Sure, I can help you with that, what is your id and PIN?"),
        english,
        ("agent", "Thanks, and what is the charge about?"),
    )
    assert checked(agent_first, lang, german) == [("persona_drift", 2, False)]


def test_a_loop_to_max_turns_hinders_only_when_nothing_but_the_end_failed() -> None:
    closing = ("agent", "Is there anything else I can help you with?")
    done = ("customer", "Please proceed with the end_conversation tool to end the chat.")
    t = transcript(
        *START,
        closing,
        done,
        closing,
        ("customer", "ok"),
        closing,
        ("customer", "ok"),
        closing,
        termination="max_turns",
        end_reason="",
    )
    only_end = [Check("step:verify", "step", True, ""), Check("outcome", "outcome", False, "")]
    assert checked(t, only_end) == [("said_done_without_ending", 4, True)]
    assert checked(t, MISSING) == [("said_done_without_ending", 4, False)]


def test_go_ahead_questions_beyond_the_lexicon_are_read() -> None:
    for ask in ("Should I refund the duplicate?", "Okay to refund 30 USD?"):
        t = transcript(*START, ("agent", ask), calls=("verify_identity",))
        assert checked(t, MISSING, ends=True) == [("premature_end", 3, True)], ask
    # no question: a statement is no go-ahead
    t = transcript(*START, ("agent", "I should refund the duplicate."), calls=("verify_identity",))
    assert checked(t, MISSING, ends=True) == [("premature_end", 3, False)]
