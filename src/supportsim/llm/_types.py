"""Provider-neutral message, request and response types.

Everything above this package (conversation, scoring, store) speaks these types only, so a
run can switch providers by changing one model spec. They are frozen, slotted dataclasses:
cheap to build per turn, hashable where their fields are, and impossible to mutate after a
response has been recorded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from ._config import ModelConfig

Role = Literal["user", "assistant", "tool"]
ToolChoice = Literal["auto", "required", "none"]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call.

    Attributes:
        name: The name the model uses to call it.
        description: What it does; models pick tools from this text.
        parameters: JSON schema of the arguments object.
    """

    name: str
    description: str
    parameters: dict[str, object]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call made by the model.

    Attributes:
        id: The provider's call id; a tool result answers it by this id.
        name: The tool called.
        arguments: Raw JSON text exactly as the model produced it. It may be malformed: the
            caller validates it, because a bad call is agent behaviour worth scoring, not an
            infrastructure failure.
    """

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class LLMMessage:
    """One message of a conversation, as the model sees it.

    Tool results are ``LLMMessage(role="tool", tool_call_id=..., content=..., is_error=...)``.
    Consecutive tool messages answer the parallel tool calls of the assistant message before
    them. ``reasoning`` and ``reasoning_signature`` keep what a reasoning model returned so
    the next request can send it back (Anthropic needs the signed thinking block to continue
    a tool-use turn; vLLM/DeepSeek-style servers accept ``reasoning_content``).
    """

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    is_error: bool = False
    reasoning: str | None = None
    reasoning_signature: str | None = None

    def __post_init__(self) -> None:
        # Caught here rather than by the provider, whose 400 would not say which message.
        if self.role == "tool" and not self.tool_call_id:
            raise ValueError("a tool message needs the tool_call_id it answers")
        if self.role != "tool" and self.tool_call_id is not None:
            raise ValueError(f"a {self.role} message cannot carry a tool_call_id")
        if self.role != "assistant" and (self.tool_calls or self.reasoning is not None):
            raise ValueError(f"a {self.role} message cannot carry tool calls or reasoning")


@dataclass(frozen=True, slots=True)
class LLMRequest:
    """Everything one model call needs; the model and its parameters come from the client.

    ``structured`` asks for a structured answer: a JSON object fitting this tool's
    ``parameters``. The client asks for it the way the model does best, a forced call of
    the tool or JSON schema output (see ``_structured``); read the answer with
    ``structured_candidates``.
    ``headers`` are extra HTTP headers of this call (an agent-owned service's MCP URL);
    OpenAI-compatible endpoints only.
    ``seed`` is this call's sampling seed, sent in place of the model's ``params.seed``
    to a provider that takes one (``takes_seed``: OpenAI-compatible); Anthropic has no
    seed parameter and is sent none (the caller records that none was sent).
    """

    system: str
    messages: tuple[LLMMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    tool_choice: ToolChoice = "auto"
    structured: ToolSpec | None = None
    headers: tuple[tuple[str, str], ...] = ()
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class WireTiming:
    """Where one call's time went, as milliseconds from the moment the client began it.

    Stamped at the HTTP transport (see ``supportsim.llm._wire``): ``sent_ms`` the request
    handed to the socket, ``first_byte_ms`` the response head read, ``last_byte_ms`` the
    body's end read; ``total_ms`` the whole call as the client timed it, parsing included.
    """

    sent_ms: float
    first_byte_ms: float
    last_byte_ms: float
    total_ms: float


@dataclass(frozen=True, slots=True)
class LLMResponse:
    """What one model call produced, with its usage and latency.

    Attributes:
        content: The text of the reply ("" when the model only called tools).
        tool_calls: The calls, in the order the model made them.
        reasoning: Reasoning/thinking text, when the provider returned any.
        reasoning_signature: Anthropic's signature of that thinking, needed to send it back.
        stop_reason: The provider's own finish/stop reason, unmapped (e.g. ``tool_calls``,
            ``tool_use``, ``length``), so nothing is lost in translation.
        input_tokens: Every prompt token sent, cached or not (OpenAI ``prompt_tokens``;
            Anthropic ``input_tokens`` plus cache reads and writes), or None when the
            provider did not say.
        output_tokens: Completion tokens billed (reasoning included), or None.
        cost_usd: From the model's price; None when unpriced or tokens are unknown.
        llm_ms: The call's latency, monotonic clock: from the request's last byte handed
            to the socket to the response's last chunk coming in, when the transport
            stamped them (``wire``), else the whole call.
        ttft_ms: From the same start to the arrival of the first chunk carrying content,
            reasoning or tool-call data; None when the call did not stream.
        model: The model id the provider reported (falls back to the configured id).
        cached_input_tokens: The part of ``input_tokens`` read from the provider's prompt
            cache (OpenAI ``prompt_tokens_details.cached_tokens``, Anthropic
            ``cache_read_input_tokens``); 0 when none or not reported.
        cache_write_tokens: The part written to the cache (Anthropic
            ``cache_creation_input_tokens``; OpenAI reports none).
        cached: True when the reply came from supportsim's response cache (``--cache``),
            not from the provider: no cost was paid and ``llm_ms`` is the disk read.
        client_ms: The call's time in this process outside ``llm_ms``: from building
            and serialising the request until its last byte is handed to the socket (the
            SDK's request steps, waiting for a pooled connection or connecting, writing
            the head), and from the last chunk's arrival until the reply is built
            (parsing that chunk, closing the stream, assembling the reply; all of a whole
            JSON answer's parsing), the event loop's lag in those spans included.
            Rate-limit waits and retry back-offs are not in it (each attempt is timed
            alone). None without wire stamps.
        wire: The wire stamps, or None (a caller's own HTTP client, the response cache).
    """

    content: str
    tool_calls: tuple[ToolCall, ...]
    reasoning: str | None
    reasoning_signature: str | None
    stop_reason: str | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None
    llm_ms: float
    ttft_ms: float | None
    model: str
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    cached: bool = False
    client_ms: float | None = None
    wire: WireTiming | None = None

    def as_message(self) -> LLMMessage:
        """The assistant message to append to the history, reasoning included."""
        return LLMMessage(
            role="assistant",
            content=self.content,
            tool_calls=self.tool_calls,
            reasoning=self.reasoning,
            reasoning_signature=self.reasoning_signature,
        )


class LLMClient(Protocol):
    """A chat model behind one provider endpoint.

    ``complete`` makes exactly one attempt (retries belong to the caller, see
    ``with_retries``) and raises only ``ProviderError``/``ProviderTimeout`` for provider
    failures.
    """

    config: ModelConfig

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send one request and return the whole response."""
        ...

    async def warm(self) -> None:
        """Pay the SDK's one-time costs (imports, type caches) before the first timed call."""
        ...

    async def aclose(self) -> None:
        """Release the HTTP connections."""
        ...


ModelCaller = Callable[[LLMRequest], Awaitable[LLMResponse]]
"""One model call as its users make it: a request in, the response out (``ModelPool.caller``
adds limits, retries and the ledger; tests pass a client's ``complete``)."""
