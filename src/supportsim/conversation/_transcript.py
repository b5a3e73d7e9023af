"""What a conversation produces: messages, the tool call log, the final state, timings.

Plain dataclasses: built by the orchestrator, read by the scorer, turned into the JSONL
record only by ``supportsim.store``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from supportsim.environment import CallRecord
from supportsim.llm import ToolCall, WireTiming

Role = Literal["customer", "agent", "tool"]
"""Who wrote a ``Message``: ``customer`` (the simulated Customer; an Agent reads these as
the user's turns), ``agent`` (the Agent under test: its replies, and its tool calls in
``tool_calls``), ``tool`` (a tool's result, answering the call ``tool_call_id``)."""
Termination = Literal["customer_done", "agent_transfer", "max_turns", "timeout", "error"]
EndReason = Literal[
    "satisfied",
    "gave_up",
    "accepted_transfer",
    "script_done",
    "tau2_stop",
    "tau2_transfer",
    "tau2_out_of_scope",
]
"""Why the Customer ended; the ``tau2_`` reasons are tau2's user stop tokens (``tau2/_rules``)."""
Status = Literal["completed", "infra_error", "simulator_fault", "harness_error"]
ABNORMAL: frozenset[Termination] = frozenset({"max_turns", "timeout", "error"})


@dataclass(slots=True)
class LLMCall:
    """One model call of the Agent or the Customer (or a judge of the unit: the tau2
    assertion judge, the statement judge): the cost ledger and latency source."""

    role: Literal["agent", "customer", "judge"]
    model: str
    llm_ms: float
    ttft_ms: float | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None
    cached: bool = False
    """Answered from the response cache (``--cache``), not by the model."""
    client_ms: float | None = None
    """The call's time in this process outside ``llm_ms`` (``LLMResponse.client_ms``)."""
    wire: WireTiming | None = None
    """The call's wire stamps (``LLMResponse.wire``); None when the transport had none."""
    window: tuple[float, float] | None = None
    """Start and end, on the conversation's clock, of the step that made the call."""
    loop_lag_ms: float | None = None
    """The event loop's lag seen during ``window`` (``batch._lag.max_during``); None
    when no lag monitor ran."""


@dataclass(slots=True)
class Message:
    """One message of the transcript: what an Agent's ``step`` receives as ``history``.

    What an Agent author reads: ``role`` (``Role``: ``"customer"``, ``"agent"`` or
    ``"tool"``), ``content`` (the text; a tool message's is the result as JSON text, or the
    error text when ``is_error``), ``tool_calls`` (an agent message's calls, each a
    ``ToolCall`` with ``id``, ``name`` and JSON ``arguments``), ``tool_call_id`` and
    ``name`` (a tool message: the call it answers and the tool), ``is_error`` (the call
    failed: bad arguments, a refusal, an injected fault). The rest are timings and usage
    the run records.

    Agent messages that call tools carry that LLM call's ``llm_ms``/``ttft_ms``/tokens.
    The Agent message that ends a turn (its reply to the Customer) carries the whole turn:
    ``response_ms`` end to end, ``llm_ms`` and ``tool_ms`` summed over the turn, ``ttft_ms``
    of the turn's first LLM call, tokens summed. Tool messages carry their ``tool_ms``.
    Customer messages carry the simulator's own call timing, never mixed into the Agent's.
    ``cached``: the message's model call, or one in its turn, came from the response cache
    (``--cache-agents``); such a turn has no timings, so no latency statistic counts it.
    ``window``: the start and end, on the conversation's clock, of what the message's
    timings cover (the turn, for the reply that ends one); ``loop_lag_ms``: the event
    loop's lag seen in it (see ``batch._lag``), None when no lag monitor ran.
    """

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    fault: str | None = None
    reasoning: str | None = None
    reasoning_signature: str | None = None
    turn: int = 0
    response_ms: float | None = None
    llm_ms: float | None = None
    tool_ms: float | None = None
    ttft_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    cached: bool = False
    window: tuple[float, float] | None = None
    loop_lag_ms: float | None = None


@dataclass(slots=True)
class Transcript:
    """Everything the scorer and the store need from one conversation."""

    messages: list[Message] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    final_state: dict[str, Any] = field(default_factory=dict)
    termination: Termination = "error"
    end_reason: str = ""
    llm_calls: list[LLMCall] = field(default_factory=list)
    simulator_faults: list[str] = field(default_factory=list)
    status: Status = "completed"
    error: str | None = None
    """For infra/simulator/harness failures: what went wrong (harness: the traceback)."""

    def agent_texts(self) -> list[tuple[int, str]]:
        """(message index, content) of every Agent message with text."""
        return [
            (i, m.content) for i, m in enumerate(self.messages) if m.role == "agent" and m.content
        ]
