"""A LangGraph ReAct Agent whose tools come over MCP, through ``langchain-mcp-adapters``,
as a team whose agent already loads its tools from an MCP server writes it.

A factory with an ``mcp_url`` parameter asks for it: supportsim opens an MCP session on
the conversation's Environment for every conversation, whatever ``--tools`` says, and
calls (or awaits: the factory may be ``async def``) ``build(mcp_url=...)`` once per
conversation. The graph's ToolNode then calls the tools over MCP itself; every call lands
in the conversation's call log (validation, faults, simulated latency included) and in the
transcript, so it is scored as in-process.

Offline, against the mock LLM server (from the repository root; any key works)::

    supportsim mock-server --port 8765 --script examples/mock_script.yaml &
    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_API_KEY=offline \\
    supportsim run --scenarios tests/fixtures/scenarios/mock_duplicate_refund.yaml \\
        --personas tests/fixtures/personas --customer scripted \\
        --agent langgraph:examples.langgraph_mcp_agent:build

Against a real model, set ``REACT_AGENT_MODEL`` (default ``mock-agent``) and the usual
``OPENAI_API_KEY``. Needs ``pip install langchain-openai langchain-mcp-adapters``.
"""

from __future__ import annotations

import os
from typing import Any

from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent


async def build(mcp_url: str) -> Any:
    """The ReAct loop over the conversation's MCP tools (a new MCP session per tool call,
    as ``MultiServerMCPClient`` does by default)."""
    client = MultiServerMCPClient({"support": {"transport": "streamable_http", "url": mcp_url}})
    tools = await client.get_tools()
    model = ChatOpenAI(model=os.environ.get("REACT_AGENT_MODEL", "mock-agent"), max_retries=0)
    return create_react_agent(model, tools, name="react-mcp-agent")
