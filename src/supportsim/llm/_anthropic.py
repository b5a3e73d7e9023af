"""Anthropic Messages client, always streamed (raw events, so timing is ours to measure).

Conversion choices:

* Consecutive tool results become one user message of ``tool_result`` blocks: the API
  wants every result of a turn's parallel calls in the message right after it.
* Reasoning is sent back as a ``thinking`` block first in the assistant content, and only
  with its signature: an unsigned or altered block is a 400. If a reply holds several
  thinking blocks their text is joined and the signature dropped, since one signature
  cannot vouch for the join.
* ``ToolCall.arguments`` is raw text, but the API wants ``input`` as an object: arguments
  that are not a JSON object are sent back as ``{}``.
* ``max_tokens`` is required by the API: it defaults to 4096, plus the thinking budget.
* A structured answer is always a forced tool call, Anthropic's strong path.
* ``input_tokens`` on the wire leaves out cache reads and writes; the response's
  ``input_tokens`` adds them back (every prompt token) and keeps both parts for pricing.

The request goes through the SDK's ``post`` with the body serialised once by orjson, and
the stream's events are read as the dicts the JSON parser makes (``AsyncStream[object]``),
not as the SDK's event models: about a quarter less CPU per call, measured against the
mock server. The SDK still sends it and raises its status and stream errors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from supportsim.errors import ProviderError

from ._config import ModelConfig, ResolvedModel, cost_usd, sdk_kwargs
from ._context import check_context
from ._errors import provider_call
from ._secrets import scrubber
from ._structured import as_tool_request
from ._timing import Stopwatch, times_of
from ._types import LLMMessage, LLMRequest, LLMResponse, ToolCall, ToolSpec
from ._warm import ANTHROPIC_STREAM, WARM_REQUEST, canned_client, ensure_warm
from ._wire import recording, wire_client

if TYPE_CHECKING:
    import httpx2
    from anthropic import AsyncAnthropic

DEFAULT_MAX_TOKENS = 4096
_TOOL_CHOICE = {"auto": "auto", "required": "any", "none": "none"}


def to_anthropic_messages(messages: tuple[LLMMessage, ...]) -> list[dict[str, Any]]:
    """The history in Messages API form, tool results merged per turn."""
    out: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": message.tool_call_id,
                    "content": message.content,
                    "is_error": message.is_error,
                }
            )
            continue
        if results:
            out.append({"role": "user", "content": results})
            results = []
        if message.role == "user":
            out.append({"role": "user", "content": message.content})
        else:
            out.append({"role": "assistant", "content": _assistant_blocks(message)})
    if results:
        out.append({"role": "user", "content": results})
    return out


def _assistant_blocks(message: LLMMessage) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if message.reasoning is not None and message.reasoning_signature:
        blocks.append(
            {
                "type": "thinking",
                "thinking": message.reasoning,
                "signature": message.reasoning_signature,
            }
        )
    if message.content or not message.tool_calls:
        blocks.append({"type": "text", "text": message.content})
    blocks.extend(
        {"type": "tool_use", "id": call.id, "name": call.name, "input": _input_object(call)}
        for call in message.tool_calls
    )
    return blocks


def _input_object(call: ToolCall) -> dict[str, Any]:
    try:
        value = json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def to_anthropic_tools(tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """Tool specs in Messages API form."""
    return [
        {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}
        for tool in tools
    ]


def build_anthropic_params(config: ModelConfig, request: LLMRequest) -> dict[str, Any]:
    """Keyword arguments for ``messages.create``; unset params are left out. A structured
    answer is always a forced tool call: Anthropic's strong path."""
    request = as_tool_request(request)
    p = config.params
    max_tokens = p.max_tokens or DEFAULT_MAX_TOKENS + (p.thinking_budget or 0)
    params: dict[str, Any] = {
        "model": config.model,
        "max_tokens": max_tokens,
        "messages": to_anthropic_messages(request.messages),
        "stream": True,
    }
    if request.system:
        params["system"] = request.system
    if request.tools:
        params["tools"] = to_anthropic_tools(request.tools)
        params["tool_choice"] = {"type": _TOOL_CHOICE[request.tool_choice]}
    if p.thinking_budget is not None:
        params["thinking"] = {"type": "enabled", "budget_tokens": p.thinking_budget}
    if p.reasoning_effort is not None:
        params["output_config"] = {"effort": p.reasoning_effort}
    return params


@dataclass(slots=True)
class _Block:
    kind: str
    text: list[str] = field(default_factory=list)
    signature: str | None = None
    tool_id: str = ""
    tool_name: str = ""
    start_input: object = None


@dataclass(slots=True)
class _Accumulator:
    """Folds raw stream events into one reply."""

    blocks: dict[int, _Block] = field(default_factory=dict)
    stop_reason: str | None = None
    stopped: bool = False
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read: int = 0
    cache_write: int = 0

    def feed(self, event: Any) -> bool:
        """Take one event (the parsed JSON of one server-sent event); True when it carried
        content, thinking or tool-call data."""
        if not isinstance(event, dict):
            return False
        kind = event.get("type")
        if kind == "message_start":
            message = _obj(event.get("message"))
            self.model = message.get("model") or self.model
            self._usage(message.get("usage"))
        elif kind == "content_block_start":
            return self._start(event.get("index", 0), _obj(event.get("content_block")))
        elif kind == "content_block_delta":
            return self._delta(event.get("index", 0), _obj(event.get("delta")))
        elif kind == "message_delta":
            self.stop_reason = _obj(event.get("delta")).get("stop_reason") or self.stop_reason
            self._usage(event.get("usage"))
        elif kind == "message_stop":
            self.stopped = True
        return False

    def _usage(self, usage: Any) -> None:
        if not isinstance(usage, dict):
            return
        # Anthropic's input_tokens excludes cache reads and writes; the total is what was
        # sent, and the cache parts are kept to be priced at their own rates.
        fresh, written, read = (usage.get(name) for name in _INPUT_FIELDS)
        if fresh is not None:
            self.cache_write, self.cache_read = written or 0, read or 0
            self.input_tokens = fresh + self.cache_write + self.cache_read
        if usage.get("output_tokens") is not None:
            self.output_tokens = usage["output_tokens"]

    def _start(self, index: int, block: dict[str, Any]) -> bool:
        kind = block.get("type")
        if kind == "text":
            text = block.get("text") or ""
            self.blocks[index] = _Block("text", [text])
            return bool(text)
        if kind == "thinking":
            thinking = block.get("thinking") or ""
            self.blocks[index] = _Block("thinking", [thinking], block.get("signature") or None)
            return bool(thinking)
        if kind == "tool_use":
            self.blocks[index] = _Block(
                "tool_use",
                tool_id=block.get("id") or "",
                tool_name=block.get("name") or "",
                start_input=block.get("input"),
            )
            return True
        return False  # redacted thinking, server tools: nothing this package represents

    def _delta(self, index: int, delta: dict[str, Any]) -> bool:
        block = self.blocks.get(index)
        if block is None:
            return False
        kind = delta.get("type")
        if kind == "text_delta":
            text = delta.get("text") or ""
            block.text.append(text)
            return bool(text)
        if kind == "thinking_delta":
            thinking = delta.get("thinking") or ""
            block.text.append(thinking)
            return bool(thinking)
        if kind == "signature_delta":
            block.signature = (block.signature or "") + (delta.get("signature") or "")
        elif kind == "input_json_delta":
            partial = delta.get("partial_json") or ""
            block.text.append(partial)
            return bool(partial)
        return False

    def reply(self) -> tuple[str, tuple[ToolCall, ...], str | None, str | None]:
        """Content, tool calls, reasoning and its signature, in block order."""
        ordered = [self.blocks[i] for i in sorted(self.blocks)]
        content = "".join("".join(b.text) for b in ordered if b.kind == "text")
        calls = tuple(
            ToolCall(id=b.tool_id, name=b.tool_name, arguments=_arguments(b))
            for b in ordered
            if b.kind == "tool_use"
        )
        thinking = [b for b in ordered if b.kind == "thinking"]
        reasoning = "\n\n".join("".join(b.text) for b in thinking) or None
        signature = thinking[0].signature if len(thinking) == 1 else None
        return content, calls, reasoning, signature


def _obj(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


_INPUT_FIELDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def _arguments(block: _Block) -> str:
    raw = "".join(block.text)
    if raw:
        return raw
    # Streamed tool_use starts with input {}; a proxy may instead send it whole at the start.
    return json.dumps(block.start_input) if block.start_input else "{}"


class AnthropicMessagesClient:
    """An ``LLMClient`` on the official async Anthropic SDK.

    Args:
        resolved: The model with its key and endpoint.
        http_client: An ``httpx2.AsyncClient`` to send through; the caller closes it.
    """

    def __init__(
        self, resolved: ResolvedModel, *, http_client: httpx2.AsyncClient | None = None
    ) -> None:
        from anthropic import (  # reads env vars on import
            DEFAULT_CONNECTION_LIMITS,
            AsyncAnthropic,
            AsyncStream,
            DefaultAsyncHttpxClient,
        )

        self.config = resolved.config
        # Error text from the provider may quote the key or a URL password: scrubbed.
        self._scrub = scrubber([resolved.api_key], [resolved.base_url])
        self._owns_http = http_client is None
        self._client: AsyncAnthropic = AsyncAnthropic(
            **sdk_kwargs(
                resolved,
                http_client,
                default_base_url="https://api.anthropic.com",
                default_client=lambda verify: wire_client(
                    DefaultAsyncHttpxClient, verify=verify, limits=DEFAULT_CONNECTION_LIMITS
                ),
            )
        )
        self._stream_cls = AsyncStream[object]

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send one request (one attempt) and return the whole reply.

        Raises:
            ProviderError: The provider failed or the stream ended before message_stop.
            ProviderTimeout: The call took longer than ``config.timeout_s``.
            ContextTooLong: The prompt does not fit the model's context (see ``_context``).
        """
        check_context(self.config, request)
        await self.warm()
        watch = Stopwatch()  # building and serialising the request is the client's time
        params = build_anthropic_params(self.config, request)
        async with provider_call(self.config.name, self.config.timeout_s, self._scrub):
            return await self._complete(params, watch)

    async def _complete(
        self, params: dict[str, Any], watch: Stopwatch | None = None
    ) -> LLMResponse:
        acc = _Accumulator()
        watch = watch or Stopwatch()
        with recording(watch.wire):
            # The SDK's request layer (headers, timeouts, status and stream-error events) with
            # the body serialised once, and events left as the dicts the JSON parser makes
            # (``AsyncStream[object]``) instead of the SDK's event models.
            stream = await self._client.post(
                "/v1/messages",
                cast_to=object,
                content=orjson.dumps(params),
                stream=True,
                stream_cls=self._stream_cls,
            )
            async with stream:
                async for event in stream:
                    if acc.feed(event):
                        watch.mark_first()
        if not acc.stopped:
            raise ProviderError(
                self.config.name, "stream ended early (no message_stop)", retryable=True
            )
        content, calls, reasoning, signature = acc.reply()
        return LLMResponse(
            content=content,
            tool_calls=calls,
            reasoning=reasoning,
            reasoning_signature=signature,
            stop_reason=acc.stop_reason,
            input_tokens=acc.input_tokens,
            output_tokens=acc.output_tokens,
            cost_usd=cost_usd(
                self.config,
                acc.input_tokens,
                acc.output_tokens,
                cached_input_tokens=acc.cache_read,
                cache_write_tokens=acc.cache_write,
            ),
            model=acc.model or self.config.model,
            cached_input_tokens=acc.cache_read,
            cache_write_tokens=acc.cache_write,
            **times_of(watch.stop()),
        )

    async def warm(self) -> None:
        """Pay the SDK's one-time costs now (once per process), not in a measured call."""
        await ensure_warm("anthropic", self._warm_up)

    async def _warm_up(self) -> None:
        """One canned call through this code path, in memory (see ``_warm``)."""
        async with canned_client(ANTHROPIC_STREAM, "text/event-stream") as http:
            resolved = ResolvedModel(self.config, "warm-up", "http://127.0.0.1")
            twin = AnthropicMessagesClient(resolved, http_client=http)
            await twin._complete(build_anthropic_params(self.config, WARM_REQUEST))

    async def aclose(self) -> None:
        """Close the SDK client, unless the HTTP client was the caller's."""
        if self._owns_http:
            await self._client.close()
