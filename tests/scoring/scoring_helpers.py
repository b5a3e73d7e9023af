"""Shared by the scoring tests: an Agent that performs a script, and a scored conversation."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import orjson
import yaml

from supportsim.conversation import (
    AgentContext,
    AgentStep,
    Limits,
    Message,
    ScriptedCustomer,
    Transcript,
    run_conversation,
)
from supportsim.domains import Domain, mock
from supportsim.environment import Environment
from supportsim.llm import ToolCall
from supportsim.scenario import Scenario
from supportsim.scoring import Score, reference_state, score

MOCK = mock.domain()
Action = str | tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], str]
"""A reply; a tool call; a tool call sent with text (shown after its result)."""


VERIFY: Action = ("verify_identity", {"customer_id": "C-1", "pin": "4321"})
LOOKUP: Action = ("list_charges", {"customer_id": "C-1"})
REFUND: Action = ("refund_charge", {"customer_id": "C-1", "charge_id": "CH-2", "amount": 30})

REFUND_SCENARIO: dict[str, Any] = yaml.safe_load(
    """
id: refund-test
title: a duplicate charge refunded and told
domain: mock
persona: tester
tags: [billing]
customer: {reason: charged twice}
workflow:
  - {id: verify, tool: verify_identity, args: {customer_id: C-1, pin: "4321"}}
  - {id: saw, observe: CH-2, fact: charge, tool: list_charges, args: {customer_id: C-1}}
  - {id: refund, tool: refund_charge, args: {customer_id: C-1, charge_id: CH-2, amount: 30}}
  - id: tell
    say: [{concept: refunding}, {money: 30, currency: USD}]
    text: I refunded CH-2, 30 USD.
compare_state: none
"""
)
"""The mock domain's refund scenario the ordering and statement tests vary (VERIFY, LOOKUP
and REFUND meet its tool steps)."""


class ScriptAgent:
    """Performs a list of actions: a string is a reply, a (tool, args) pair a tool call, a
    (tool, args, text) triple a tool call sent with text."""

    name = "script"

    def __init__(self, actions: Sequence[Action], *, call_ids: str | None = None) -> None:
        self.actions = list(actions)
        self.done = 0
        self.ids = itertools.count(1)
        self.call_ids = call_ids

    @property
    def finished(self) -> bool:
        return self.done >= len(self.actions)

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        if self.finished:
            return AgentStep(content="Is there anything else?")
        action = self.actions[self.done]
        self.done += 1
        if isinstance(action, str):
            return AgentStep(content=action)
        tool, args, *text = action
        call_id = self.call_ids if self.call_ids is not None else f"c{next(self.ids)}"
        call = ToolCall(call_id, tool, orjson.dumps(args).decode())
        return AgentStep(content="".join(text), tool_calls=(call,))


async def no_sleep(_seconds: float) -> None:
    return None


async def converse(
    sc: Scenario,
    actions: Sequence[Action],
    *,
    lines: Sequence[str] = ("Hi, I was charged twice.",),
    domain: Domain = MOCK,
    call_ids: str | None = None,
) -> tuple[Transcript, Score]:
    """Hold the conversation with the scripted Customer and score it."""
    env = Environment(domain, sc, sleep=no_sleep)
    agent = ScriptAgent(actions, call_ids=call_ids)
    customer = ScriptedCustomer(lines, keep_going=lambda: not agent.finished)
    transcript = await run_conversation(
        env,
        agent,
        customer,
        AgentContext("", tuple(env.schemas())),
        Limits(max_turns=sc.max_turns),
    )
    assert transcript.status == "completed", transcript.error
    return transcript, score(sc, domain, transcript, await reference_state(domain, sc))


def failed(result: Score) -> dict[str, str]:
    return {c.id: c.reason for c in result.checks if not c.passed}


def ids(result: Score) -> list[str]:
    return [c.id for c in result.checks]
