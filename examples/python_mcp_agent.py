"""A Python Agent that reaches its tools over MCP itself, as an agent with its own tool
client does, instead of returning tool calls for supportsim to run.

``tools = "mcp"`` on the class asks for it: supportsim then opens an MCP session on the
conversation's Environment for every conversation, whatever ``--tools`` says, passes its
URL as ``context.mcp_url`` and sends no tool schemas (``context.tools`` is empty). The
calls land in the conversation's call log through the MCP host, faults and simulated
latency included, and appear in the transcript (and in ``history`` on the next step) as
this Agent's tool calls and their results, so scoring is the same as in-process.

Run it from the repository root (no model, no key)::

    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --agent python:examples.python_mcp_agent:McpRuleAgent
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from supportsim.conversation import AgentContext, AgentStep, Message

CUSTOMER_ID = re.compile(r"\bC-\d+\b")
PIN = re.compile(r"\b\d{4}\b")
YES = re.compile(r"\b(yes|yeah|please|ok|okay|sure|go ahead)\b", re.IGNORECASE)


class McpRuleAgent:
    """Verify, list the charges, offer to refund the duplicate, refund it on a yes: each
    step is one reply, with whatever tool calls it needs made over MCP on the way."""

    name = "mcp-rule-agent"
    tools = "mcp"

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        assert context.mcp_url is not None  # tools = "mcp": supportsim opened a session
        # One MCP session per step: its client runs tasks that must end in this step.
        async with (
            streamable_http_client(context.mcp_url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await self._reply(session, history)

    async def _reply(self, session: ClientSession, history: Sequence[Message]) -> AgentStep:
        text = history[-1].content
        verified = _result(history, "verify_identity")
        if verified is None:
            customer_id, pin = CUSTOMER_ID.search(text), PIN.search(text)
            if not (customer_id and pin):
                return AgentStep("I can help with that. What are your customer id and your PIN?")
            verified = await _call(
                session, "verify_identity", customer_id=customer_id[0], pin=pin[0]
            )
            if "error" in verified:
                return AgentStep(f"Sorry, I could not verify you: {verified['error']}")
        customer_id = verified["customer_id"]
        duplicate = _duplicate(_result(history, "list_charges"))
        if duplicate is None:
            duplicate = _duplicate(await _call(session, "list_charges", customer_id=customer_id))
            if duplicate is None:
                return AgentStep("I cannot find a duplicate charge on your account.")
            amount = f"{duplicate['amount']:g}"
            return AgentStep(
                f"I see the duplicate charge {duplicate['id']} of {amount} USD. Shall I refund it?"
            )
        if _result(history, "refund_charge") is None and YES.search(text):
            done = await _call(
                session,
                "refund_charge",
                customer_id=customer_id,
                charge_id=duplicate["id"],
                amount=duplicate["amount"],
            )
            if "error" in done:
                return AgentStep(f"Sorry, the refund did not work: {done['error']}")
            return AgentStep(
                f"Done, the refund of {done['amount']:g} USD for {done['charge_id']} is on its way."
            )
        return AgentStep("Is there anything else I can help you with?")


async def _call(session: ClientSession, tool: str, **args: Any) -> dict[str, Any]:
    """One tool call over MCP; the result (or ``{"error": ...}``) parsed from its text."""
    result = await session.call_tool(tool, args)
    return json.loads("".join(getattr(block, "text", "") for block in result.content))


def _result(history: Sequence[Message], tool: str) -> dict[str, Any] | None:
    """The latest successful result of ``tool`` in the history (this Agent's own MCP
    calls of earlier steps are there too), parsed."""
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
