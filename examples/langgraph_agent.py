"""A LangGraph Agent: a compiled graph over ``MessagesState`` whose model node is plain,
deterministic Python deciding tool calls from the messages (swap in a chat model there).

Run it from the repository root::

    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --agent langgraph:examples.langgraph_agent:build

supportsim calls ``build()`` once per conversation and ``ainvoke``s the graph with the
transcript as LangChain messages (system prompt, customer = human, agent = AI, tool
results = tool messages). When the graph's new AI message carries tool calls, supportsim
runs them against the scenario's Environment and invokes the graph again with the results;
an AI message without tool calls is the reply to the Customer.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph

ACCOUNT = re.compile(r"\b(C-\d+)\b.*?\b(\d{4})\b", re.DOTALL)
AGREE = re.compile(r"\b(yes|yeah|please|ok|okay|sure|go ahead)\b", re.IGNORECASE)


def build() -> Any:
    """A fresh compiled graph: START -> model -> END."""
    graph = StateGraph(MessagesState)
    graph.add_node("model", model)
    graph.add_edge(START, "model")
    graph.add_edge("model", END)
    return graph.compile()


def model(state: MessagesState) -> dict[str, list[BaseMessage]]:
    """Where an LLM would go: read the messages, answer with text or tool calls."""
    return {"messages": [decide(state["messages"])]}


def decide(messages: list[BaseMessage]) -> AIMessage:
    results = _results(messages)
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return _after_tool(last, results)
    text = last.content if isinstance(last, HumanMessage) and isinstance(last.content, str) else ""
    verified, charges = results.get("verify_identity"), results.get("list_charges")
    duplicate = _duplicate(charges)
    if verified and duplicate and "refund_charge" not in results and AGREE.search(text):
        args = {"customer_id": verified["customer_id"], "charge_id": duplicate["id"]}
        return _call("refund_charge", **args, amount=duplicate["amount"])
    if not verified and (found := ACCOUNT.search(text)):
        return _call("verify_identity", customer_id=found[1], pin=found[2])
    if not verified:
        return AIMessage("Happy to help. Please tell me your customer id and PIN.")
    return AIMessage("Is there anything else I can do for you?")


def _after_tool(message: ToolMessage, results: dict[str, dict[str, Any]]) -> AIMessage:
    body = json.loads(str(message.content))
    if message.status == "error":
        return AIMessage(f"Sorry, that failed: {body.get('error', 'unknown error')}.")
    if message.name == "verify_identity":
        return _call("list_charges", customer_id=body["customer_id"])
    if message.name == "list_charges":
        duplicate = _duplicate(body)
        if duplicate is None:
            return AIMessage("I do not see a duplicate charge on your account.")
        return AIMessage(
            f"I see the duplicate charge {duplicate['id']} of {duplicate['amount']:g} USD. "
            "Shall I refund it?"
        )
    if message.name == "refund_charge":
        return AIMessage(
            f"Done, the refund of {body['amount']:g} USD for {body['charge_id']} is on its way."
        )
    return AIMessage("One moment please.")


def _call(tool: str, **args: Any) -> AIMessage:
    call = {"id": f"lg-{uuid.uuid4().hex[:12]}", "name": tool, "args": args, "type": "tool_call"}
    return AIMessage("", tool_calls=[call])


def _results(messages: list[BaseMessage]) -> dict[str, dict[str, Any]]:
    """Latest successful result per tool name."""
    out: dict[str, dict[str, Any]] = {}
    for message in messages:
        if isinstance(message, ToolMessage) and message.status != "error" and message.name:
            out[message.name] = json.loads(str(message.content))
    return out


def _duplicate(charges: dict[str, Any] | None) -> dict[str, Any] | None:
    """The later of two unrefunded charges with the same amount, if any."""
    seen: set[float] = set()
    for charge in (charges or {}).get("charges", []):
        if not charge["refunded"]:
            if charge["amount"] in seen:
                return charge
            seen.add(charge["amount"])
    return None
