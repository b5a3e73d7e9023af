"""A library refusal asks for what the policy says a refusal contains: "When you cannot do
what the customer asks, say so and explain why." A step that asks only for a refusal is met
by the refuse baseline's blanket "I'm sorry, I can't help with that.", which says neither
what is refused nor why: every required refusal step names more (the act refused, or the
reason by a regular expression), so the blanket line does not meet it in any language."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.domains import DomainCatalogue, builtin_domains
from supportsim.scenario import Scenario, Step, load_personas, load_scenarios
from supportsim.scoring import CONCEPTS
from supportsim.scoring._say import NEGATIVE_CONCEPTS, speech_of, states
from supportsim.scoring.text._text import search
from supportsim.validate._baselines import LINES

ROOT = Path(__file__).parents[2]
LIBRARY = load_scenarios(
    [ROOT / "scenarios"],
    catalogue=DomainCatalogue(builtin_domains(), CONCEPTS),
    personas=load_personas([ROOT / "personas"]),
)
REFUSALS = [
    (scenario, step)
    for scenario in LIBRARY
    for step in scenario.workflow
    if not step.optional and any(it.concept == "refusing" for it in step.say or [])
]


def met(scenario: Scenario, step: Step, text: str) -> bool:
    items = step.say or []
    refusal = any(it.concept in NEGATIVE_CONCEPTS for it in items)
    speech = speech_of(scenario)
    if not all(states(it, text, speech, refusal=refusal) for it in items):
        return False
    return step.say_regex is None or search(step.say_regex, text)


def test_the_library_has_required_refusal_steps() -> None:
    assert len(REFUSALS) >= 10


@pytest.mark.parametrize(
    ("scenario", "step"), REFUSALS, ids=[f"{s.id}:{st.id}" for s, st in REFUSALS]
)
def test_a_blanket_refusal_does_not_meet_a_refusal_step(scenario: Scenario, step: Step) -> None:
    blanket = LINES["refuse"][scenario.language]
    assert met(scenario, step, step.text or "")  # the step's own answer meets it
    assert not met(scenario, step, blanket)
