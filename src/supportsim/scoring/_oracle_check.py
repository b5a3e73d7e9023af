"""The oracle check: run the reference workflow as a conversation and score it.

A scenario whose oracle run is not strict = 1 is unsolvable or has inconsistent checks;
``supportsim validate`` reports it with the failing checks' reasons. ``scripted_run`` holds
any Agent's conversation the same way (scripted Customer, tools in process, no model call):
``validate --baselines`` runs its baseline Agents through it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from supportsim.conversation import (
    Agent,
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


async def scripted_run(
    domain: Domain,
    scenario: Scenario,
    agent: Agent,
    *,
    keep_going: Callable[[], bool] | None = None,
    reference: Mapping[str, Any] | None = None,
) -> tuple[Transcript, Score]:
    """``agent``'s conversation with the scripted Customer (tools in process, simulated
    latency not waited for), and its score. ``keep_going``: the Customer goes on with a
    neutral go-ahead while it says so; ``reference``: the reference final state, when the
    caller scores many Agents on one scenario (computed here otherwise)."""
    env = Environment(domain, scenario, sleep=_no_wait)
    customer = ScriptedCustomer.for_scenario(scenario, keep_going=keep_going)
    context = AgentContext("", tuple(env.schemas()))
    transcript = await run_conversation(
        env, agent, customer, context, Limits(max_turns=scenario.max_turns)
    )
    if reference is None:
        reference = await reference_state(domain, scenario)
    return transcript, score(scenario, domain, transcript, dict(reference))


async def oracle_run(domain: Domain, scenario: Scenario) -> tuple[Transcript, Score]:
    """The oracle's conversation with the scripted Customer, and its score."""
    oracle = OracleAgent(scenario)
    return await scripted_run(domain, scenario, oracle, keep_going=lambda: not oracle.finished)
