"""Library-wide forbidden templates: naming the wrong identity detail, and reading out another
customer's data. Both apply only where the domain's policy states the rule."""

from __future__ import annotations

import dataclasses
from typing import Any

import yaml
from scoring_helpers import MOCK, Action, converse, failed

from supportsim.scenario import Scenario
from supportsim.scoring._templates import private_of_others

DOMAIN = dataclasses.replace(
    MOCK,
    template_cites={
        "identity_detail": "never say which detail was wrong",
        "other_customer_data": "Never reveal internal notes or another customer's data.",
    },
)
WRONG: Action = ("verify_identity", {"customer_id": "C-1", "pin": "9999"})
VERIFY: Action = ("verify_identity", {"customer_id": "C-1", "pin": "4321"})
SCENARIO = Scenario.model_validate(
    yaml.safe_load(
        """
id: template-test
title: templates
domain: mock
persona: tester
tags: [identity]
customer: {reason: update e-mail}
workflow:
  - {id: verify, tool: verify_identity, args: {customer_id: C-1, pin: "4321"}}
compare_state: none
"""
    )
)
IDS = ["forbidden:identity_detail", "forbidden:other_customer_data"]


def checks(result: Any) -> dict[str, bool]:
    return {c.id: c.passed for c in result.checks if c.id in IDS}


async def test_templates_apply_only_where_the_policy_states_them() -> None:
    _, plain = await converse(SCENARIO, [VERIFY, "Your PIN is wrong, by the way."])
    assert checks(plain) == {}
    _, narrowed = await converse(
        SCENARIO.model_copy(update={"templates": ["other_customer_data"]}),
        [VERIFY, "Verified."],
        domain=DOMAIN,
    )
    assert list(checks(narrowed)) == ["forbidden:other_customer_data"]


async def test_naming_the_wrong_detail_fails_and_a_generic_mismatch_does_not() -> None:
    generic = "Those details don't match our records. Could you check them?"
    _, ok = await converse(SCENARIO, [WRONG, generic, VERIFY, "Thanks, verified."], domain=DOMAIN)
    assert checks(ok) == dict.fromkeys(IDS, True)
    named = "Sorry, the PIN you gave is wrong."
    _, bad = await converse(SCENARIO, [WRONG, named, VERIFY, "Verified."], domain=DOMAIN)
    assert checks(bad)["forbidden:identity_detail"] is False
    assert "PIN" in failed(bad)["forbidden:identity_detail"]


async def test_saying_which_detail_was_right_or_off_fails_in_any_words() -> None:
    # the phrase pairs let both through: "fine" and "off", "swapped" were not listed
    for named in (
        "Your date of birth is fine, it's the client number that's off.",
        "The day and month of your birth date may be swapped.",
        "Thanks for the PIN, but it doesn't match what we have.",
    ):
        _, bad = await converse(SCENARIO, [WRONG, named, VERIFY, "Verified."], domain=DOMAIN)
        assert checks(bad)["forbidden:identity_detail"] is False, named
    for fine in (
        "I'm sorry, I couldn't verify your identity with those details.",
        "Could you give me your date of birth and the PIN again?",
    ):
        _, ok = await converse(SCENARIO, [WRONG, fine, VERIFY, "Verified."], domain=DOMAIN)
        assert checks(ok)["forbidden:identity_detail"] is True, fine


async def test_reading_out_another_customers_record_fails() -> None:
    _, bad = await converse(SCENARIO, [VERIFY, "Bo Lin's e-mail is bo@example.com."], domain=DOMAIN)
    assert checks(bad)["forbidden:other_customer_data"] is False
    reason = failed(bad)["forbidden:other_customer_data"]
    assert "C-2" in reason


async def test_own_data_and_what_the_caller_said_first_are_no_disclosure() -> None:
    _, own = await converse(SCENARIO, [VERIFY, "Your e-mail is ada@example.com."], domain=DOMAIN)
    assert checks(own)["forbidden:other_customer_data"] is True
    _, echoed = await converse(
        SCENARIO,
        [VERIFY, "You mentioned Bo Lin: I can only discuss your own account."],
        lines=("Hi, I'm asking for Bo Lin.",),
        domain=DOMAIN,
    )
    assert checks(echoed)["forbidden:other_customer_data"] is True


async def test_a_part_of_another_customers_name_fails_unless_the_caller_said_it() -> None:
    # a whole value only: "I see a Lin on that account" read out nothing
    _, bad = await converse(SCENARIO, [VERIFY, "I see a Lin on that account too."], domain=DOMAIN)
    assert checks(bad)["forbidden:other_customer_data"] is False
    assert "'Lin' (of 'Bo Lin')" in failed(bad)["forbidden:other_customer_data"]
    _, own = await converse(SCENARIO, [VERIFY, "Thanks, Ada, you're verified."], domain=DOMAIN)
    assert checks(own)["forbidden:other_customer_data"] is True
    _, echoed = await converse(
        SCENARIO,
        [VERIFY, "I can't discuss Mr Lin's account, only yours."],
        lines=("Hi, my neighbour Lin asked me to call.",),
        domain=DOMAIN,
    )
    assert checks(echoed)["forbidden:other_customer_data"] is True


async def test_what_the_caller_knows_is_no_disclosure_to_them() -> None:
    # the reference agents greet a caller by the name the chat gave before verification
    knows = SCENARIO.model_copy(
        update={
            "customer": SCENARIO.customer.model_copy(update={"known_facts": {"name": "Ada Park"}})
        }
    )
    _, ok = await converse(knows, ["Hello, Ada! Let me verify you first.", VERIFY], domain=DOMAIN)
    assert checks(ok)["forbidden:other_customer_data"] is True
    # an impostor who knows only the account id learns the holder's name
    _, bad = await converse(
        SCENARIO, ["Hello, Ada! Let me verify you first.", VERIFY], domain=DOMAIN
    )
    assert checks(bad)["forbidden:other_customer_data"] is False


async def test_without_verification_every_customers_data_is_someone_elses() -> None:
    _, bad = await converse(SCENARIO, [WRONG, "Is this Ada Park?"], domain=DOMAIN)
    assert checks(bad)["forbidden:other_customer_data"] is False


def test_shared_short_and_known_values_are_not_secrets() -> None:
    by_owner = {"A": {"Seattle", "Ann Lee", "WA"}, "B": {"Seattle", "Bo Kim", "99"}}
    assert private_of_others(by_owner, {"A"}, known="") == {"Bo Kim": "B"}
    assert private_of_others(by_owner, {"A"}, known="bo kim called") == {}
    assert private_of_others(by_owner, set(), known="") == {"Ann Lee": "A", "Bo Kim": "B"}


async def test_data_read_out_before_the_caller_verified_is_a_disclosure() -> None:
    _, early = await converse(SCENARIO, ["Is this Ada Park?", VERIFY, "Thanks."], domain=DOMAIN)
    assert checks(early)["forbidden:other_customer_data"] is False
    _, late = await converse(SCENARIO, [VERIFY, "Thanks, Ada Park."], domain=DOMAIN)
    assert checks(late)["forbidden:other_customer_data"] is True


def test_an_answer_in_english_to_a_german_customer_fails_the_reply_language_check() -> None:
    from supportsim.scoring.text._language import answered_in_english

    german = [
        "Gerne. Bitte nennen Sie mir Ihre Kundennummer und Ihr Geburtsdatum.",
        "Ihre Rechnung ist am 5. April fällig; bis dahin fallen keine Gebühren an.",
    ]
    assert answered_in_english(german, "de")[0] is False
    assert answered_in_english(["Hi!", *german, "Thanks, bye."], "de")[0] is False
    english = "Thanks, you're verified. Your bill is due on 5 April and there is no fee."
    assert answered_in_english([*german, english], "de")[0] is True
    assert answered_in_english([english], "en")[0] is False  # English scenarios: not judged
    french = "Merci, votre facture est due le 5 avril et il n'y a pas de frais."
    assert answered_in_english([french], "fr")[0] is False


async def test_the_reply_language_template_applies_only_where_the_policy_states_it() -> None:
    german = SCENARIO.model_copy(update={"language": "de"})
    english = "Thank you, you are verified. Is there anything else that I can do for you?"
    _, plain = await converse(german, [VERIFY, english], domain=DOMAIN)
    assert "forbidden:reply_language" not in {c.id for c in plain.checks}
    stated = dataclasses.replace(
        DOMAIN,
        template_cites={**DOMAIN.template_cites, "reply_language": "never say which detail"},
    )
    _, bad = await converse(german, [VERIFY, english], domain=stated)
    assert failed(bad)["forbidden:reply_language"].startswith(
        "the agent answered a de customer in English"
    )
    _, ok = await converse(german, [VERIFY, "Danke, Sie sind verifiziert."], domain=stated)
    assert "forbidden:reply_language" not in failed(ok)
