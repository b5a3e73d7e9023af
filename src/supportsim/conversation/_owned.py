"""Agents that reach their tools over MCP themselves: agent-owned ``http:`` services, and
``python:``/``langgraph:`` plug-ins that ask for the MCP URL.

An agent-owned service (``owned: true`` on an ``http`` entry of the models file) is the
agent a team deploys: its own prompt, its own tool loop, its tools reached through an MCP
client. So it is sent only what a chat front end would send it, the Customer's messages
and its own earlier replies, never our system prompt, tool list or anything of the
scenario, plus the conversation's MCP session URL in the ``X-Supportsim-MCP-URL`` header.
Its tool calls reach the conversation's Environment through the MCP host, so they land in
the call log like any other Agent's; its answer (streamed or JSON) is the reply, timed as
a whole (``llm_ms`` is the service's whole answer, its tool calls included).

Calls an Agent made itself during a step are not in the transcript the orchestrator keeps
(it never saw them as ``tool_calls``), yet the scorer orders calls and statements on it.
``own_call_messages`` writes them in, as the Agent's tool-call message and the tool result
of each call, before the step's own message: the transcript then reads exactly as if the
orchestrator had run them, and scoring does not care which way the tools were reached.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import orjson

from supportsim.conversation._checked import AgentFault
from supportsim.conversation._llm_agent import ModelCaller, llm_call
from supportsim.conversation._participants import AgentContext, AgentStep
from supportsim.conversation._transcript import Message
from supportsim.environment import CallRecord
from supportsim.llm import LLMMessage, LLMRequest, ToolCall

MCP_URL_HEADER = "X-Supportsim-MCP-URL"
"""The request header carrying the conversation's MCP session URL to an owned service."""


def owned_messages(history: Sequence[Message]) -> tuple[LLMMessage, ...]:
    """What an owned service is sent: the Customer's messages and the Agent's own text
    replies (its tool traffic is its own business, and it went over MCP)."""
    out: list[LLMMessage] = []
    for m in history:
        if m.role == "customer":
            out.append(LLMMessage("user", m.content))
        elif m.role == "agent" and m.content:
            out.append(LLMMessage("assistant", m.content))
    return tuple(out)


def mcp_url_of(context: AgentContext) -> str:
    """The conversation's MCP URL (AgentFault if the conversation opened no session)."""
    if not context.mcp_url:
        raise AgentFault("this Agent reaches its tools over MCP, but no MCP session was opened")
    return context.mcp_url


class OwnedAgent:
    """An agent-owned ``http:`` service (see the module docstring).

    Args:
        name: The Agent's label.
        caller: The model caller of its endpoint (rate limits and retries apply; a retried
            request sees the Environment as the failed attempt's tool calls left it).
    """

    def __init__(self, name: str, caller: ModelCaller) -> None:
        self.name = name
        self._caller = caller

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        request = LLMRequest(
            "", owned_messages(history), headers=((MCP_URL_HEADER, mcp_url_of(context)),)
        )
        response = await self._caller(request)
        if response.tool_calls:
            names = ", ".join(c.name for c in response.tool_calls)
            raise AgentFault(
                f"owned agent {self.name!r} answered with tool calls ({names}); an owned "
                f"service calls its tools itself, through the MCP URL in {MCP_URL_HEADER}"
            )
        return AgentStep(content=response.content, llm=llm_call("agent", response))


def result_text(record: CallRecord) -> str:
    """The tool result as the Agent read it (the Environment's JSON text)."""
    if record.error is not None:
        return orjson.dumps({"error": record.error}).decode()
    return orjson.dumps(record.result, default=str).decode()


def own_call_messages(calls: list[CallRecord], since: int, turn: int) -> list[Message]:
    """Transcript messages for the tool calls an Agent made itself (over MCP) during a
    step, ``calls[since:]``: for each, the Agent's tool-call message and its tool result,
    in call order. A call that came without an id (any MCP client but ours sends none) is
    given ``mcp-<n>`` in the call log too, so the transcript's ids are real ones."""
    out: list[Message] = []
    for i in range(since, len(calls)):
        record = calls[i]
        if not record.call_id:
            record = calls[i] = replace(record, call_id=f"mcp-{record.index + 1}")
        call = ToolCall(record.call_id, record.name, record.raw_arguments)
        out.append(Message("agent", "", tool_calls=(call,), turn=turn))
        out.append(
            Message(
                "tool",
                result_text(record),
                tool_call_id=record.call_id,
                name=record.name,
                is_error=not record.ok,
                fault=record.fault,
                turn=turn,
                tool_ms=record.tool_ms,
            )
        )
    return out


def asks_for_mcp(agent: object) -> bool:
    """Whether a python Agent asks for the MCP URL instead of tool schemas: its ``tools``
    attribute is the string ``"mcp"`` (anything else, a list of the agent's own tools
    included, leaves it an ordinary Agent)."""
    return getattr(agent, "tools", None) == "mcp"
