"""The two sides of a conversation: the Agent under test and the simulated Customer.

Both are small async protocols, so an Agent can be an LLM with tools, the oracle, any
Python object, a LangGraph graph or an HTTP service. What each side receives is exactly
what it may see (ARCHITECTURE.md, information isolation):

- an Agent gets its system prompt (policy + scenario context), its tool schemas, and the
  transcript of customer messages, its own messages and its own tool results;
- a Customer gets only the customer-facing text of each side, never tool traffic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from supportsim.conversation._transcript import EndReason, LLMCall, Message
from supportsim.environment import ToolSchema
from supportsim.llm import ToolCall


@dataclass(frozen=True, slots=True)
class AgentContext:
    """What an Agent is configured with for one conversation.

    Attributes:
        system_prompt: The domain's policy and the scenario's context, as an LLM Agent's
            system prompt ("" for an agent-owned service: it brings its own).
        tools: The tools the scenario permits (``ToolSchema``: name, description, JSON
            Schema of the arguments); empty for an Agent that lists them over MCP.
        mcp_url: The conversation's MCP session URL when the run serves its tools over
            MCP (its Environment, call log and faults), else None.
    """

    system_prompt: str
    tools: tuple[ToolSchema, ...]
    mcp_url: str | None = None


@dataclass(frozen=True, slots=True)
class AgentStep:
    """One Agent action: tool calls (the turn continues) or a reply (the turn ends).

    Text that comes with tool calls is shown to the Customer too, after the turn.
    ``llm`` is the timing and usage of the model call behind this step, if there was one.
    """

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning: str | None = None
    reasoning_signature: str | None = None
    llm: LLMCall | None = None


@runtime_checkable
class Agent(Protocol):
    """The Agent under test. ``step`` is called until it returns no tool calls."""

    name: str

    async def step(self, context: AgentContext, history: Sequence[Message]) -> AgentStep:
        """Next action given the transcript so far (customer, agent and tool messages)."""
        ...


@dataclass(frozen=True, slots=True)
class Visible:
    """A message as the Customer sees it."""

    role: Literal["customer", "agent"]
    content: str


@dataclass(frozen=True, slots=True)
class CustomerTurn:
    """What a Customer is given to produce its next message.

    ``agent_acted`` is true once any write tool succeeded; it feeds only the guard against
    ending before the Agent has done anything, never the simulator's prompt.
    """

    view: tuple[Visible, ...]
    turn: int
    agent_acted: bool = False


@dataclass(frozen=True, slots=True)
class CustomerStep:
    """The Customer's next message, or the end of the conversation with a reason."""

    content: str = ""
    end: EndReason | None = None
    llm: tuple[LLMCall, ...] = ()


class Customer(Protocol):
    """The simulated Customer."""

    name: str

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        """The opening message when ``turn.view`` is empty, else a reply or an end."""
        ...
