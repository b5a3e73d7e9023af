"""Say steps and typed facts in context: a statement that gives the act another value than
the expected one fails (a contradiction), and relative dates count from the scenario's
``context.today``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scoring_helpers import (
    LOOKUP,
    REFUND,
    REFUND_SCENARIO,
    VERIFY,
    Action,
    converse,
    failed,
)

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import Scenario, load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.scoring.text._span import Span
from supportsim.scoring.text.facts._read import Fact, stated_facts
from supportsim.scoring.text.facts._roles import conflict

ROOT = Path(__file__).resolve().parents[2]
BASE: dict[str, Any] = {**REFUND_SCENARIO, "id": "say-facts-test"}


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**BASE, **changes})


@pytest.mark.parametrize(
    "said",
    [
        "Done: I refunded CH-2, $30.00 in total.",
        "CH-1 was the original and stays. I have refunded CH-2, 30 USD.",
        "I have refunded CH-2 (the duplicate of CH-1): 30 USD.",
        "I have refunded CH-2 for 30 USD, not CH-1.",
        "Your 30 USD for CH-2 have been refunded; your balance is now 70 USD.",
        "I have refunded 30 USD of the 60 USD you paid, for CH-2.",
        "I refunded CH-2 on your account A-9: 30 USD.",  # another family: no role of a charge
        "CH-1 is the original, so I have refunded the duplicate, 30 USD.",  # another clause
        "I have refunded CH-1, sorry, I mean CH-2, 30 USD.",  # corrected
        "I've refunded CH-2, 30 USD, so your balance is now 70 USD.",  # another thing's value
    ],
)
async def test_a_statement_with_the_right_values_passes(said: str) -> None:
    _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, said])
    assert failed(result) == {}, said


@pytest.mark.parametrize(
    ("said", "stated", "expected"),
    [
        ("I have refunded the original charge CH-1, 30.00 USD.", "CH-1", "CH-2"),
        ("I've refunded CH-1 and CH-2, 30 USD each.", "CH-1", "CH-2"),
        ("The charge was 30 USD. I have refunded 35 USD to you.", "35 USD", "money 30.0 USD"),
        ("The 30 USD charge is on file; I have refunded €30.", "€30", "money 30.0 USD"),
        ("I have refunded CH-2, sorry, I mean CH-1, 30 USD.", "CH-1", "CH-2"),
        ("CH-2 stays; I have refunded CH-1, 30 USD.", "CH-1", "CH-2"),
    ],
)
async def test_a_statement_giving_the_act_another_value_fails(
    said: str, stated: str, expected: str
) -> None:
    _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, said])
    assert set(failed(result)) == {"step:tell"}, said
    assert f"states {stated} where {expected} is expected" in failed(result)["step:tell"]


async def test_a_later_correct_statement_still_says_the_step() -> None:
    wrong, right = "I have refunded CH-1, 30 USD.", "Sorry, I mean: I have refunded CH-2, 30 USD."
    _, result = await converse(scenario(), [VERIFY, LOOKUP, REFUND, wrong, right])
    assert failed(result) == {}


async def test_values_without_an_act_are_never_in_conflict() -> None:
    workflow = [
        *BASE["workflow"][:3],
        {"id": "tell", "say": [{"money": 30, "currency": "USD"}], "text": "Your bill is 30 USD."},
    ]
    told = "Your bill is 30 USD: the 25 USD fee plus a 5 USD top-up."
    _, result = await converse(scenario(workflow=workflow), [VERIFY, LOOKUP, REFUND, told])
    assert failed(result) == {}


async def test_doing_nothing_earns_nothing_from_the_rule() -> None:
    _, result = await converse(scenario(), ["I'm sorry, I can't help with that."])
    assert "step:tell" in failed(result)


DOMAINS = builtin_domains()
DUPLICATE_FEE = load_scenarios(
    [ROOT / "scenarios" / "telecom" / "duplicate_monthly_fee.yaml"],
    catalogue=DomainCatalogue(DOMAINS, CONCEPTS),
    personas=load_personas([ROOT / "personas"]),
)[0]


async def test_the_issue_example_fails_on_the_library_scenario() -> None:
    """telecom-duplicate-monthly-fee: the agent refunded CH-778 (the right call) but told the
    customer it refunded the original CH-777."""
    sc, domains = DUPLICATE_FEE, DOMAINS
    actions: list[Action] = [
        (
            "verify_identity",
            {"customer_id": "C-1001", "date_of_birth": "1985-04-12", "pin": "4827"},
        ),
        ("list_charges", {"account_id": "A-2001"}),
        (
            "refund_charge",
            {"account_id": "A-2001", "charge_id": "CH-778", "amount": 35.0, "reason": "duplicate"},
        ),
    ]
    lines = ("Hello, my March fee is on my bill twice.",)
    wrong = "I have refunded the original charge CH-777, 35.00 USD."
    _, result = await converse(sc, [*actions, wrong], lines=lines, domain=domains["telecom"])
    assert "states CH-777 where CH-778 is expected" in failed(result)["step:confirm"]
    right = "Billed on 1 March (CH-777) and 3 March (CH-778): I have refunded CH-778, 35.00 USD."
    _, result = await converse(sc, [*actions, right], lines=lines, domain=domains["telecom"])
    assert "step:confirm" not in failed(result)


def test_a_ruled_out_value_is_no_contradiction() -> None:
    text = "I have refunded CH-2, not CH-1."
    act = Span(text.index("refunded"), text.index("refunded") + len("refunded"))
    assert conflict([Fact("id", "CH-2")], [act], text, "en") is None
    text = "I have refunded not CH-2 but CH-1."
    act = Span(text.index("refunded"), text.index("refunded") + len("refunded"))
    found = conflict([Fact("id", "CH-2")], [act], text, "en")
    assert found is not None and found.stated == "CH-1"


@pytest.mark.parametrize(
    ("lang", "text", "stated"),
    [
        ("de", "Ich habe CH-1 erstattet, 30,00 €.", "CH-1"),
        ("es", "He reembolsado el cargo CH-1 de 30 €.", "CH-1"),
        ("fr", "J'ai remboursé le prélèvement CH-1 de 30 €.", "CH-1"),
        ("es", "He reembolsado el cargo CH-2 de 35 €.", "35 €"),
    ],
)
def test_contradictions_are_read_in_every_language(lang: str, text: str, stated: str) -> None:
    verbs = ("erstattet", "reembolsado", "remboursé")
    verb = next(v for v in verbs if v in text)
    act = Span(text.index(verb), text.index(verb) + len(verb))
    found = conflict([Fact("id", "CH-2"), Fact("money", 30, "EUR")], [act], text, lang)
    assert found is not None and found.stated == stated


# --- relative dates against the scenario's today --------------------------------------------

DATED: dict[str, Any] = {
    **BASE,
    "context": {"today": "2026-03-16"},
    "workflow": [
        *BASE["workflow"][:3],
        {"id": "when", "say": [{"date": "2026-03-18"}], "text": "It shows on 18 March."},
    ],
}


@pytest.mark.parametrize(
    "said",
    [
        "The refund shows on Wednesday.",
        "The refund shows the day after tomorrow.",
        "The refund shows on Wednesday the 18th.",
        "The refund shows on the 18th.",
    ],
)
async def test_a_relative_date_counts_from_the_scenario_today(said: str) -> None:
    _, result = await converse(Scenario.model_validate(DATED), [VERIFY, LOOKUP, REFUND, said])
    assert failed(result) == {}, said
    undated = {**DATED, "context": {}}
    _, result = await converse(Scenario.model_validate(undated), [VERIFY, LOOKUP, REFUND, said])
    assert set(failed(result)) == {"step:when"}, said


async def test_a_relative_date_for_another_day_does_not_say_the_date() -> None:
    said = "The refund shows on Thursday."
    _, result = await converse(Scenario.model_validate(DATED), [VERIFY, LOOKUP, REFUND, said])
    assert set(failed(result)) == {"step:when"}


async def test_a_duration_step_accepts_other_units() -> None:
    workflow = [
        *BASE["workflow"][:3],
        {"id": "within", "say": [{"duration": 24, "unit": "hours"}], "text": "Within 24 hours."},
    ]
    sc = scenario(workflow=workflow)
    for said in ("It reaches you within a day.", "Within one day.", "Within 24h."):
        _, result = await converse(sc, [VERIFY, LOOKUP, REFUND, said])
        assert failed(result) == {}, said
    for said in ("Within 2 days.", "Within 1-2 days."):
        _, result = await converse(sc, [VERIFY, LOOKUP, REFUND, said])
        assert set(failed(result)) == {"step:within"}, said


@pytest.mark.parametrize(
    ("lang", "text", "stated"),
    [
        ("en", "I've refunded 35 USD, so your balance is now 10 USD.", {35.0, 10.0}),
        ("en", "Your 40 USD fee is now 30 USD.", {30.0}),
        ("en", "I refunded 35 USD, sorry, I mean 53 USD.", {53.0}),
        ("de", "Ich habe 35 € erstattet, ich meine 53 €.", {53.0}),
        ("es", "He reembolsado 35 €, perdón, quiero decir 53 €.", {53.0}),
        ("fr", "J'ai remboursé 35 €, pardon, je veux dire 53 €.", {53.0}),
    ],
)
def test_a_corrected_value_is_not_stated_and_another_things_value_is(
    lang: str, text: str, stated: set[float]
) -> None:
    assert {f.value for f in stated_facts(text, lang) if f.kind == "money"} == stated


@pytest.mark.parametrize(
    ("lang", "text", "stated"),
    [
        ("en", "It's on 24 March at 9:00 - oh wait, no, not yours. Yours is at 11:00.", {"11:00"}),
        ("en", "I booked 9:00. Oh wait, no: I booked 11:00.", {"11:00"}),
        ("de", "Ihr Termin ist um 9 Uhr, Moment, nein, das war falsch: um 11 Uhr.", {"11:00"}),
        ("es", "Su cita es a las 9:00, perdón, no: a las 11:00.", {"11:00"}),
        ("fr", "Votre rendez-vous est à 9 h, pardon, non : à 11 h.", {"11:00"}),
        # no retraction: "no" begins another phrase, or no value of the kind follows
        ("en", "It's at 9:00. Wait, no need to come before 8:45.", {"09:00", "08:45"}),
        ("en", "It's at 9:00. Sorry, no parking is available at 10:00.", {"09:00", "10:00"}),
        ("en", "It's at 9:00 - oh wait, no, that is right.", {"09:00"}),
    ],
)
def test_a_value_taken_back_is_not_stated(lang: str, text: str, stated: set[str]) -> None:
    assert {f.value for f in stated_facts(text, lang) if f.kind == "time"} == stated
