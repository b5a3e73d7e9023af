"""A rule-based Agent in plain Python: the ``Agent`` protocol with no model behind it.

It knows one job of the ``mock`` domain, refunding a duplicate charge, and shows what a
plug-in Agent receives and returns. Run it from the repository root::

    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --agent python:examples.python_agent:RuleAgent

supportsim calls ``RuleAgent()`` once per conversation, then ``step`` until a step has no
tool calls (that step is the reply the Customer sees). ``history`` holds the Customer's
messages, this Agent's messages and its tool results; never the Customer's hidden goal.
Tool calls are executed by supportsim against the scenario's Environment, so the call log,
faults and timing apply exactly as for an LLM Agent.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from typing import Any

from supportsim.conversation import AgentContext, AgentStep, Message
from supportsim.llm import ToolCall

CUSTOMER_ID = re.compile(r"\bC-\d+\b")
PIN = re.compile(r"\b\d{4}\b")
YES = re.compile(r"\b(yes|yeah|please|ok|okay|sure|go ahead)\b", re.IGNORECASE)


class RuleAgent:
    """Verify, list the charges, offer to refund the duplicate, refund it on a yes."""

    name = "rule-agent"

    def __init__(self) -> None:
        self._ids = itertools.count(1)

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        """The next action, decided from the transcript alone (no hidden state needed)."""
        last = history[-1]
        if last.role == "tool":
            return self._after_tool(last)
        return self._after_customer(history, last.content)

    def _call(self, tool: str, **args: Any) -> AgentStep:
        return AgentStep(tool_calls=(ToolCall(f"rule-{next(self._ids)}", tool, json.dumps(args)),))

    def _after_customer(self, history: Sequence[Message], text: str) -> AgentStep:
        verified = _result(history, "verify_identity")
        duplicate = _duplicate(_result(history, "list_charges"))
        refunded = _result(history, "refund_charge")
        if verified and duplicate and not refunded and YES.search(text):
            return self._call(
                "refund_charge",
                customer_id=verified["customer_id"],
                charge_id=duplicate["id"],
                amount=duplicate["amount"],
            )
        customer_id, pin = CUSTOMER_ID.search(text), PIN.search(text)
        if not verified and customer_id and pin:
            return self._call("verify_identity", customer_id=customer_id[0], pin=pin[0])
        if not verified:
            return AgentStep("I can help with that. What are your customer id and your PIN?")
        return AgentStep("Is there anything else I can help you with?")

    def _after_tool(self, message: Message) -> AgentStep:
        result = json.loads(message.content)
        if message.is_error:
            return AgentStep(f"Sorry, that did not work: {result.get('error', 'unknown error')}.")
        if message.name == "verify_identity":
            return self._call("list_charges", customer_id=result["customer_id"])
        if message.name == "list_charges":
            duplicate = _duplicate(result)
            if duplicate is None:
                return AgentStep("I cannot find a duplicate charge on your account.")
            amount = f"{duplicate['amount']:g}"
            return AgentStep(
                f"I see the duplicate charge {duplicate['id']} of {amount} USD. Shall I refund it?"
            )
        if message.name == "refund_charge":
            return AgentStep(
                f"Done, the refund of {result['amount']:g} USD for {result['charge_id']} "
                "is on its way."
            )
        return AgentStep("Thanks, one moment please.")


def _result(history: Sequence[Message], tool: str) -> dict[str, Any] | None:
    """The latest successful result of ``tool`` in the history, parsed."""
    for message in reversed(history):
        if message.role == "tool" and message.name == tool and not message.is_error:
            return json.loads(message.content)
    return None


def _duplicate(charges: dict[str, Any] | None) -> dict[str, Any] | None:
    """The later of two unrefunded charges with the same amount, if any."""
    seen: set[float] = set()
    for charge in (charges or {}).get("charges", []):
        if charge["refunded"]:
            continue
        if charge["amount"] in seen:
            return charge
        seen.add(charge["amount"])
    return None
