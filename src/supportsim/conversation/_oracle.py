"""The oracle Agent: performs the scenario's reference workflow, literally.

It proves a scenario solvable and its checks consistent: on every bundled scenario the
oracle must score strict = 1. It sends one tool call per step, so the transcript reads
like a careful Agent's, and each say step ends its turn, except the words that announce a
transfer ("I'm transferring you now"), which go with the transfer call, as an Agent sends
them: the transfer ends the conversation, and said a turn before it they would claim an
escalation not yet made (``forbidden:false_claim``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import orjson

from supportsim.conversation._participants import AgentContext, AgentStep
from supportsim.conversation._transcript import Message
from supportsim.domains import TRANSFER_TOOL
from supportsim.llm import ToolCall
from supportsim.scenario import PlanItem, PlannedCall, Scenario, reference_plan

CLOSING = "Is there anything else I can help you with?"
CLOSINGS = {
    "en": CLOSING,
    "de": "Kann ich sonst noch etwas für Sie tun?",
    "es": "¿Puedo ayudarle en algo más?",
    "fr": "Puis-je vous aider pour autre chose ?",
}
"""The oracle's last words, in the customer's language (policies ask for it)."""


class OracleAgent:
    """Replays ``reference_plan(scenario)``; ``finished`` once the plan is done."""

    name = "oracle"

    def __init__(self, scenario: Scenario, plan: Sequence[PlanItem] | None = None) -> None:
        """``plan``: actions to perform instead of the reference plan (``validate
        --perturb`` replays variations of it)."""
        self._plan = list(plan) if plan is not None else reference_plan(scenario)
        self._language = scenario.language
        self._next = 0
        self._ids = itertools.count(1)
        self.finished = not self._plan

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        if self._next >= len(self._plan):
            self.finished = True
            return AgentStep(content=CLOSINGS.get(self._language, CLOSING))
        item = self._plan[self._next]
        self._next += 1
        if isinstance(item, PlannedCall):
            args = orjson.dumps(item.args).decode()
            return AgentStep(tool_calls=(ToolCall(f"oracle-{next(self._ids)}", item.tool, args),))
        following = self._plan[self._next] if self._next < len(self._plan) else None
        if isinstance(following, PlannedCall) and following.tool == TRANSFER_TOOL:
            self._next += 1
            args = orjson.dumps(following.args).decode()
            call = ToolCall(f"oracle-{next(self._ids)}", following.tool, args)
            return AgentStep(content=item.text, tool_calls=(call,))
        if self._next >= len(self._plan):
            self.finished = True
        return AgentStep(content=item.text)
