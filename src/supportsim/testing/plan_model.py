"""A mock model that knows the scenarios: it answers as the oracle would, turn by turn.

``plan_responder(scenarios)`` is a :data:`~supportsim.testing.server.Responder` for
:meth:`MockLLMServer.default`. It stands in for the model behind an Agent that has its own
prompt and tool loop (an agent-owned service, a LangGraph agent with MCP tools, an LLM
Agent whose tools go over MCP), so such an Agent can be driven through whole bundled
scenarios offline and score where the oracle does.

It is stateless: which scenario a request belongs to is read from its first customer
message (the scenario's opening line, as the scripted Customer says it), and where in the
reference plan the conversation stands from the request's own messages, in a way that
holds whether or not earlier turns' tool traffic is in the request:

* the plan is cut into turns, each ending with a statement (a ``say`` step);
* the turn is the number of earlier assistant text replies (messages with text and no
  tool calls before the last customer message);
* the item within the turn is the number of assistant messages after that message.

Each planned call is one tool-call reply (one call per reply, as the oracle does), each
statement a text reply; after the plan, the oracle's closing line in the scenario's
language. The requests themselves carry nothing of the scenario: the model "knows" it
because the test handed it the scenarios, never because the Agent under test was told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from supportsim.conversation import CLOSING, CLOSINGS
from supportsim.scenario import PlanItem, PlannedCall, Scenario, reference_plan
from supportsim.testing.replies import Reply, call, reply, say
from supportsim.testing.server import RecordedRequest, Responder

__all__ = ["plan_responder"]


def _opening(scenario: Scenario) -> str:
    goal = scenario.customer
    return goal.opening or (goal.reason if not goal.script else goal.script[0])


def _turns(plan: list[PlanItem]) -> list[list[PlanItem]]:
    turns: list[list[PlanItem]] = [[]]
    for item in plan:
        turns[-1].append(item)
        if not isinstance(item, PlannedCall):
            turns.append([])
    return turns


def _text(content: Any) -> str | None:
    """A customer message's text; None for an Anthropic tool-result message."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return None
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return None


def _has_calls(message: Mapping[str, Any]) -> bool:
    content = message.get("content")
    blocks = content if isinstance(content, list) else ()
    return bool(message.get("tool_calls")) or any(
        isinstance(b, dict) and b.get("type") == "tool_use" for b in blocks
    )


def plan_responder(scenarios: Iterable[Scenario]) -> Responder:
    """A responder playing each scenario's reference plan (see the module docstring).

    Raises:
        ValueError: Two scenarios open with the same line (a request could not tell them
            apart); at answer time, a request whose first customer message opens none.
    """
    known: dict[str, tuple[list[list[PlanItem]], str]] = {}
    for scenario in scenarios:
        opening = _opening(scenario)
        if opening in known:
            raise ValueError(f"two scenarios open with {opening!r}")
        closing = CLOSINGS.get(scenario.language, CLOSING)
        known[opening] = (_turns(reference_plan(scenario)), closing)

    def respond(request: RecordedRequest) -> Reply:
        messages = [m for m in request.body.get("messages") or () if isinstance(m, dict)]
        customer = [
            i for i, m in enumerate(messages) if m.get("role") == "user" and _text(m["content"])
        ]
        if not customer:
            raise ValueError("plan_responder: the request has no customer message")
        first = _text(messages[customer[0]]["content"])
        if first not in known:
            raise ValueError(f"plan_responder: no scenario opens with {first!r}")
        turns, closing = known[first]
        last = customer[-1]
        said = sum(
            1
            for m in messages[:last]
            if m.get("role") == "assistant" and m.get("content") and not _has_calls(m)
        )
        within = sum(1 for m in messages[last:] if m.get("role") == "assistant")
        turn = turns[said] if said < len(turns) else []
        if within >= len(turn):
            return say(closing)
        item = turn[within]
        if isinstance(item, PlannedCall):
            return reply(tool_calls=[call(item.tool, **item.args)])
        return say(item.text)

    return respond
