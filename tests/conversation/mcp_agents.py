"""Agents that ask for the MCP URL (``python:mcp_agents:NAME``, ``langgraph:mcp_agents:NAME``),
and some that do not, for the spec parser.

``McpRuleAgent`` is a python Agent with ``tools = "mcp"``: it reaches the mock domain's
tools with the official ``mcp`` client on ``context.mcp_url``. ``react`` is a LangGraph
``create_react_agent`` whose tools come from ``langchain-mcp-adapters``; its model is
LangChain's ChatOpenAI on the loopback mock server (OPENAI_BASE_URL, set by the test).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from supportsim.conversation import AgentContext, AgentStep, Message

MODEL = "mcp-react-m"


class McpRuleAgent:
    """Refunds the duplicate charge of mock_duplicate_refund, calling its tools over MCP
    itself: one step per Customer turn, tool calls never returned."""

    name = "mcp-rule"
    tools = "mcp"

    async def _call(self, url: str, name: str, **args: Any) -> Any:
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool(name, args)
            return json.loads("".join(getattr(b, "text", "") for b in result.content))

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        # Asked for MCP: no tool schemas, a session URL instead (else this unit fails).
        assert context.tools == () and context.mcp_url, context
        url = context.mcp_url
        said = [m.content for m in history if m.role == "customer"]
        if len(said) == 1:
            return AgentStep("Sure, what are your customer id and PIN?")
        if len(said) == 2:
            await self._call(url, "verify_identity", customer_id="C-1", pin="4321")
            await self._call(url, "list_charges", customer_id="C-1")
            return AgentStep("I see the duplicate charge CH-2 of 30 USD. Shall I refund it?")
        await self._call(url, "refund_charge", customer_id="C-1", charge_id="CH-2", amount=30)
        return AgentStep("Done, the refund of 30 USD for CH-2 is on its way.")


class OwnToolsList:
    """An ordinary Agent whose ``tools`` attribute is its own list: not an MCP request."""

    name = "own-tools"
    tools = ["lookup"]

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        return AgentStep("hi")


async def react(mcp_url: str) -> Any:
    """``create_react_agent`` with the conversation's tools loaded over MCP."""
    client = MultiServerMCPClient({"support": {"transport": "streamable_http", "url": mcp_url}})
    tools = await client.get_tools()
    return create_react_agent(ChatOpenAI(model=MODEL, max_retries=0), tools, name="mcp-react")


def both(tools: list[Any], mcp_url: str) -> Any:
    """Takes both: given both (the spec is an MCP one)."""
    return create_react_agent(ChatOpenAI(model=MODEL, max_retries=0), tools)
