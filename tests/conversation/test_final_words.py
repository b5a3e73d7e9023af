"""A Customer that ends with last words has them kept in the transcript."""

from __future__ import annotations

from pathlib import Path

import yaml

from supportsim.conversation import (
    AgentContext,
    CustomerStep,
    CustomerTurn,
    OracleAgent,
    run_conversation,
)
from supportsim.domains import mock
from supportsim.environment import Environment
from supportsim.scenario import Scenario

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scenarios" / "mock_duplicate_refund.yaml"


class Brief:
    name = "brief"

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        if not turn.view:
            return CustomerStep(content="Hi, I was charged twice.")
        return CustomerStep(content="Thanks, bye!", end="satisfied")


class Silent(Brief):
    async def step(self, turn: CustomerTurn) -> CustomerStep:
        if not turn.view:
            return CustomerStep(content="Hi, I was charged twice.")
        return CustomerStep(end="gave_up")


async def _messages(customer: Brief) -> list[tuple[str, str, int]]:
    scenario = Scenario.model_validate(yaml.safe_load(FIXTURE.read_text()))
    env = Environment(mock.domain(), scenario)
    agent = OracleAgent(scenario)
    transcript = await run_conversation(env, agent, customer, AgentContext("", ()))
    assert transcript.termination == "customer_done"
    return [(m.role, m.content, m.turn) for m in transcript.messages if m.role == "customer"]


async def test_last_words_are_kept_in_the_turn_they_close() -> None:
    assert await _messages(Brief()) == [
        ("customer", "Hi, I was charged twice.", 1),
        ("customer", "Thanks, bye!", 1),
    ]


async def test_an_end_without_words_adds_no_message() -> None:
    assert await _messages(Silent()) == [("customer", "Hi, I was charged twice.", 1)]
