"""The oracle check: run the reference workflow as a conversation and score it.

A scenario whose oracle run is not strict = 1 is unsolvable or has inconsistent checks;
``supportsim validate`` reports it with the failing checks' reasons.
"""

from __future__ import annotations

import asyncio

from supportsim.conversation import (
    AgentContext,
    Limits,
    OracleAgent,
    ScriptedCustomer,
    Transcript,
    run_conversation,
)
from supportsim.domains import Domain
from supportsim.environment import Environment
from supportsim.scenario import Scenario
from supportsim.scoring._checks import Score
from supportsim.scoring._score import reference_state, score


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


async def oracle_run(domain: Domain, scenario: Scenario) -> tuple[Transcript, Score]:
    """The oracle's conversation with the scripted Customer, and its score."""
    env = Environment(domain, scenario, sleep=_no_wait)
    oracle = OracleAgent(scenario)
    customer = ScriptedCustomer.for_scenario(scenario, keep_going=lambda: not oracle.finished)
    context = AgentContext("", tuple(env.schemas()))
    transcript = await run_conversation(
        env, oracle, customer, context, Limits(max_turns=scenario.max_turns)
    )
    reference = await reference_state(domain, scenario)
    return transcript, score(scenario, domain, transcript, reference)
