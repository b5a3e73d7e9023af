"""Each rule of the customer review on a Customer message it must accept and one it must
reject, pointed at the right message, critical only when the error took the Agent's
chance away."""

from __future__ import annotations

from review_helpers import kinds, persona, review, transcript, uses, variant

from supportsim.scoring.review import hindered

GOOD = (
    ("customer", "Hi, I was charged twice for March."),
    ("agent", "I can help. What is your customer id and PIN?"),
    ("customer", "My id is C-1 and my PIN is 4321."),
    ("agent", "I see the duplicate charge CH-2 of 30 USD. Shall I refund it?"),
    ("customer", "Yes please, refund the second one."),
    ("agent", "Done, the refund of 30 USD for CH-2 is on its way."),
    ("customer", "Thanks, that's all."),
)
DONE = ("verify_identity", "refund_charge")


def test_a_customer_that_plays_well_has_no_findings() -> None:
    r = review(transcript(*GOOD, calls=DONE))
    assert r.findings == ()
    assert r.measures.messages == 4 and r.measures.facts_given == 2


def test_an_invented_order_id_is_found_at_its_message_and_is_critical() -> None:
    lines = list(GOOD)
    lines[2] = ("customer", "My id is C-1, PIN 4321, and the charge is on order ORD-7781.")
    lines.insert(3, uses("list_charges", order="ORD-7781"))
    assert kinds(review(transcript(*lines, calls=DONE))) == [("invented_fact", 2, True)]
    # An invented id the Agent never used cost it nothing: a finding, never critical.
    del lines[3]
    assert kinds(review(transcript(*lines, calls=DONE))) == [("invented_fact", 2, False)]


def test_an_id_the_agent_said_first_is_not_invented() -> None:
    lines = list(GOOD)
    lines[4] = ("customer", "Yes please, refund CH-2 of 30 USD.")
    assert review(transcript(*lines, calls=DONE)).findings == ()


def test_a_persona_told_to_give_a_wrong_detail_first_is_never_critical() -> None:
    lines = list(GOOD)
    lines[2] = ("customer", "My id is C-7 and my PIN is 4321.")
    r = review(transcript(*lines, calls=DONE), who=persona(honesty="wrong_detail_first"))
    assert kinds(r) == [("invented_fact", 2, False)]
    assert r.measures.contradictions == 1


def test_a_stop_right_after_shall_i_go_ahead_is_a_premature_end() -> None:
    lines = GOOD[:4]  # "Shall I refund it?" and the Customer ends, satisfied, silently
    r = review(transcript(*lines, calls=("verify_identity",)))
    assert kinds(r) == [("premature_end", 3, True)]
    words = (*lines, ("customer", "Great, thanks!"))  # its last words are pointed at
    assert kinds(review(transcript(*words, calls=("verify_identity",)))) == [
        ("premature_end", 4, True)
    ]


def test_an_end_after_the_write_or_by_transfer_is_not_premature() -> None:
    assert review(transcript(*GOOD[:4], calls=DONE)).findings == ()
    t = transcript(*GOOD[:4], calls=("verify_identity",), end_reason="accepted_transfer")
    assert review(t).findings == ()


def test_accepting_a_credit_when_the_goal_insists_on_a_refund_is_goal_drift() -> None:
    scenario = variant(goal={"refuses": ["store credit"]})
    offer = ("agent", "I can't refund it, but I can add a 30 USD store credit. Is that okay?")
    # (the refund made, so the end is not premature too: only the drift is asserted)
    noted = ("agent", "Great, the 30 USD store credit is added to your account.")
    took = transcript(*GOOD[:3], offer, ("customer", "Okay, that's fine."), noted, calls=DONE)
    assert kinds(review(took, scenario)) == [("goal_drift", 4, True)]
    named = transcript(
        *GOOD[:3], ("customer", "A store credit is fine too, sure."), noted, calls=DONE
    )
    assert kinds(review(named, scenario)) == [("goal_drift", 3, True)]
    # Agreeing while the Agent never gives the credit: a finding, never critical.
    alone = transcript(*GOOD[:3], offer, ("customer", "Okay, that's fine."), calls=DONE)
    assert kinds(review(alone, scenario)) == [("goal_drift", 4, False)]
    no = ("customer", "No, I want a refund, not a credit.")
    assert review(transcript(*GOOD[:3], offer, no, calls=DONE), scenario).findings == ()
    # Without refuses nothing is ruled out: the same acceptance is no finding.
    assert review(took).findings == ()


def test_answering_in_english_in_a_german_scenario_is_persona_drift() -> None:
    german = variant(language="de")
    lines = [
        ("customer", "Hallo, mir wurde der März zweimal berechnet."),
        ("agent", "Gerne helfe ich. Wie lautet Ihre Kundennummer und Ihre PIN?"),
        ("customer", "My id is C-1 and my PIN is 4321, can you please look at the charges?"),
        ("agent", "Ich sehe die doppelte Belastung CH-2 über 30 USD. Soll ich sie erstatten?"),
    ]
    assert kinds(review(transcript(*lines, calls=DONE), german)) == [("persona_drift", 2, False)]
    followed = [*lines, ("agent", "Sure, I have refunded the charge of 30 USD for you now.")]
    assert kinds(review(transcript(*followed, calls=DONE), german)) == [("persona_drift", 2, True)]
    lines[2] = ("customer", "Meine Kundennummer ist C-1 und die PIN ist 4321.")
    assert review(transcript(*lines, calls=DONE), german).findings == ()


def test_asking_the_agent_for_its_own_questions_is_role_reversal() -> None:
    echo = ("customer", "Sure! Please provide me with your customer id, date of birth and PIN.")
    stuck = transcript(*GOOD[:2], echo, termination="max_turns", end_reason="")
    assert kinds(review(stuck)) == [("role_reversal", 2, True)]
    ended = transcript(*GOOD[:2], echo, *GOOD[2:], calls=DONE)
    assert kinds(review(ended)) == [("role_reversal", 2, False)]


def test_saying_done_without_ending_and_looping_to_max_turns_are_critical() -> None:
    closing = ("agent", "Is there anything else I can help you with?")
    done = ("customer", "Please proceed with the end_conversation tool to end the chat.")
    loop = ("customer", "Yes, I can also help you with your invoice details if you need.")
    lines = [*GOOD[:6], closing, done, closing, loop, closing, loop, closing]
    r = review(transcript(*lines, calls=DONE, termination="max_turns", end_reason=""))
    # the loop answers the Agent's same question again: the Agent's loop, not a repeat
    assert kinds(r) == [("said_done_without_ending", 7, True)]
    # The same words in a conversation the Customer ended cost the Agent nothing.
    calm = review(transcript(*lines, calls=DONE))
    assert [f.critical for f in calm.findings] == [False]


def test_short_replies_said_twice_are_not_a_loop() -> None:
    lines = [
        *GOOD[:6],
        ("customer", "Okay, go ahead."),
        ("agent", "Done."),
        ("customer", "Okay, go ahead."),
    ]
    assert review(transcript(*lines, calls=DONE)).findings == ()


def test_a_minimal_persona_that_volunteers_is_over_sharing_never_critical() -> None:
    lines = [
        ("customer", "Hi, I was charged twice. I'm C-1, PIN 4321."),
        ("agent", "Thanks. Shall I refund the duplicate CH-2 of 30 USD?"),
    ]
    scenario = variant(goal={"opening": None})
    r = review(transcript(*lines, calls=DONE), scenario, persona(volunteers="minimal"))
    assert [(f.kind, f.message_index, f.critical) for f in r.findings] == [
        ("over_sharing", 0, False),
        ("over_sharing", 0, False),
    ]
    assert r.measures.facts_volunteered == 2
    asked = review(transcript(*GOOD, calls=DONE), scenario, persona(volunteers="minimal"))
    assert asked.findings == () and asked.measures.facts_volunteered == 0


def test_measures_read_patience_verbosity_and_typos() -> None:
    lines = [
        ("customer", "Hi, I was chraged twice for March."),
        ("agent", "Sorry to hear you were charged twice. What is your customer id?"),
        ("customer", "Forget it."),
    ]
    r = review(transcript(*lines, end_reason="gave_up"))
    assert r.measures.turns_before_giving_up == 2
    assert r.measures.words_per_message == 4.5  # 7 words, then 2
    assert r.measures.typo_rate == 0.25  # "chraged" of chraged, twice, march, forget
    assert review(transcript(*GOOD, calls=DONE)).measures.typo_rate == 0


def test_only_a_rule_s_critical_finding_of_a_failed_completed_unit_hinders() -> None:
    r = review(transcript(*GOOD[:4], calls=("verify_identity",)))
    assert hindered(completed=True, strict=False, findings=r.findings)
    assert not hindered(completed=True, strict=True, findings=r.findings)
    assert not hindered(completed=False, strict=None, findings=r.findings)
    judged = [f.__class__(f.kind, f.message_index, f.detail, True, "judge") for f in r.findings]
    assert not hindered(completed=True, strict=False, findings=judged)


def test_an_invented_date_is_critical_only_as_the_answer_to_a_date_fact() -> None:
    scenario = variant(goal={"known_facts": {"customer_id": "C-1", "date_of_birth": "1985-03-14"}})
    asked = [
        ("customer", "Hi, I was charged twice for March."),
        ("agent", "Could you give me your customer id and date of birth?"),
        ("customer", "C-1, born 14 April 1985."),
        uses("verify_identity", customer_id="C-1", date_of_birth="1985-04-14"),
    ]
    assert kinds(review(transcript(*asked, calls=DONE), scenario)) == [("invented_fact", 2, True)]
    told = [*asked[:2], ("customer", "C-1, born 14 March 1985. I paid on 2 March 2026."), asked[3]]
    assert kinds(review(transcript(*told, calls=DONE), scenario)) == [("invented_fact", 2, False)]


def test_one_more_goodbye_after_saying_done_is_fair() -> None:
    lines = [*GOOD, ("agent", "You're welcome!"), ("customer", "Bye!")]
    assert review(transcript(*lines, calls=DONE)).findings == ()
    more = [*lines, ("agent", "Anything else?"), ("customer", "Also, what about April?")]
    assert kinds(review(transcript(*more, calls=DONE))) == [("said_done_without_ending", 6, False)]
