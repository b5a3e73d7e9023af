"""OpenAI Chat Completions client (also for vLLM, Ollama, llama.cpp, LiteLLM, ...).

Chat Completions rather than Responses, because it is the API every OpenAI-compatible
server implements. Choices made for those servers:

* ``max_tokens`` is sent as ``max_completion_tokens`` to OpenAI itself (the only name its
  reasoning models accept) and as ``max_tokens`` when a ``base_url`` is set (the name
  compatible servers know). One rule, decided by the config alone.
* Reasoning comes back from vLLM/DeepSeek-style servers as a non-standard
  ``reasoning_content`` (or ``reasoning``) field; it is kept and sent back as
  ``reasoning_content`` on the assistant message, which those servers accept (and mostly
  ignore). OpenAI never returns it, so OpenAI never receives it.
* ``is_error`` of a tool result has no field in this API: the content must say it.
* Streaming or not is read from the response's content type: a server that answers a
  streaming request with one JSON completion (many self-hosted agent services do) is
  read as such (``ttft_ms`` is then None), and one that streams when asked not to is read
  as a stream. Anything else is an error quoting what the server sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from supportsim.errors import ProviderError

from ._config import ModelConfig, ResolvedModel, cost_usd, sdk_kwargs
from ._errors import provider_call
from ._secrets import scrubber
from ._timing import Stopwatch
from ._types import LLMMessage, LLMRequest, LLMResponse, ToolCall, ToolSpec
from ._warm import OPENAI_COMPLETION, OPENAI_STREAM, WARM_REQUEST, canned_client, ensure_warm

if TYPE_CHECKING:
    import httpx2
    from openai import AsyncOpenAI


def to_openai_messages(request: LLMRequest) -> list[dict[str, Any]]:
    """The request's system prompt and history in Chat Completions form."""
    messages: list[dict[str, Any]] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    messages.extend(_message(m) for m in request.messages)
    return messages


def _message(message: LLMMessage) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.role == "user":
        return {"role": "user", "content": message.content}
    out: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        # null, not "", is what OpenAI itself sends back for a tool-calls-only turn.
        out["content"] = message.content or None
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.tool_calls
        ]
    if message.reasoning:
        out["reasoning_content"] = message.reasoning
    return out


def to_openai_tools(tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """Tool specs in Chat Completions function-tool form."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters,
            },
        }
        for tool in tools
    ]


def build_openai_params(
    config: ModelConfig, request: LLMRequest, *, stream: bool
) -> dict[str, Any]:
    """Keyword arguments for ``chat.completions.create``; unset params are left out."""
    params: dict[str, Any] = {"model": config.model, "messages": to_openai_messages(request)}
    if request.tools:
        params["tools"] = to_openai_tools(request.tools)
        params["tool_choice"] = request.tool_choice
    p = config.params
    if p.temperature is not None:
        params["temperature"] = p.temperature
    if p.max_tokens is not None:
        key = "max_tokens" if config.base_url else "max_completion_tokens"
        params[key] = p.max_tokens
    if p.seed is not None:
        params["seed"] = p.seed
    if p.reasoning_effort is not None:
        params["reasoning_effort"] = p.reasoning_effort
    if stream:
        params["stream"] = True
        params["stream_options"] = {"include_usage": True}
    if request.headers:
        params["extra_headers"] = dict(request.headers)
    return params


def _content_type(response: Any) -> str:
    return str(response.headers.get("content-type", "")).split(";")[0].strip().lower()


async def _what_was_sent(response: Any, problem: str = "not a chat completion") -> str:
    """What the server sent instead of a completion: status, content type, first 200
    characters, so a wrong URL (an HTML page, a proxy's login) is plain to see."""
    body = await response.aread()
    text = body[:200].decode("utf-8", "replace")
    more = "..." if len(body) > 200 else ""
    kind = response.headers.get("content-type") or "no content type"
    return (
        f"{problem}: the server sent HTTP {response.status_code} ({kind}) "
        f"instead of JSON or server-sent events: {text!r}{more}"
    )


def _reasoning_of(obj: object) -> str | None:
    # Non-standard fields: the SDK keeps them as pydantic extras, readable by getattr.
    for name in ("reasoning_content", "reasoning"):
        value = getattr(obj, name, None)
        if isinstance(value, str) and value:
            return value
    return None


@dataclass(slots=True)
class _ToolSlot:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Accumulator:
    """Folds streamed chunks into one reply."""

    content: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    tools: dict[int, _ToolSlot] = field(default_factory=dict)
    finish_reason: str | None = None
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None

    def feed(self, chunk: Any) -> bool:
        """Take one chunk; True when it carried content, reasoning or tool-call data."""
        self.model = chunk.model or self.model
        if chunk.usage is not None:
            self.input_tokens = chunk.usage.prompt_tokens
            self.output_tokens = chunk.usage.completion_tokens
        carried = False
        for choice in chunk.choices or ():
            if choice.index != 0:
                continue
            delta = choice.delta
            if delta is not None:
                if delta.content:
                    self.content.append(delta.content)
                    carried = True
                if (reasoning := _reasoning_of(delta)) is not None:
                    self.reasoning.append(reasoning)
                    carried = True
                for tc in delta.tool_calls or ():
                    carried = True
                    slot = self.tools.setdefault(tc.index, _ToolSlot())
                    # First id/name wins: servers send them once, some repeat them.
                    slot.id = slot.id or (tc.id or "")
                    if tc.function is not None:
                        slot.name = slot.name or (tc.function.name or "")
                        if tc.function.arguments:
                            slot.arguments.append(tc.function.arguments)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
        return carried

    def tool_calls(self) -> tuple[ToolCall, ...]:
        return tuple(
            ToolCall(
                id=slot.id or f"call_{index}", name=slot.name, arguments="".join(slot.arguments)
            )
            for index, slot in sorted(self.tools.items())
        )


class OpenAIChatClient:
    """An ``LLMClient`` on the official async OpenAI SDK, streaming by default.

    Args:
        resolved: The model with its key and endpoint.
        http_client: An ``httpx2.AsyncClient`` to send through (tests use a mock
            transport); the caller keeps ownership and closes it.
        stream: Override ``config.stream``; False for servers that cannot stream
            (``ttft_ms`` is then None).
    """

    def __init__(
        self,
        resolved: ResolvedModel,
        *,
        http_client: httpx2.AsyncClient | None = None,
        stream: bool | None = None,
    ) -> None:
        from openai import AsyncOpenAI, DefaultAsyncHttpxClient  # reads env vars on import

        self.config = resolved.config
        # Error text from the provider may quote the key or a URL password: scrubbed.
        self._scrub = scrubber([resolved.api_key], [resolved.base_url])
        self._stream = self.config.stream if stream is None else stream
        self._owns_http = http_client is None
        self._client: AsyncOpenAI = AsyncOpenAI(
            **sdk_kwargs(
                resolved,
                http_client,
                default_base_url="https://api.openai.com/v1",
                plain_client=lambda: DefaultAsyncHttpxClient(verify=False),
            )
        )
        # Touched now, not in the first call: the SDK imports its resources lazily (~100 ms
        # on first use), which would otherwise inflate the first call's ttft_ms and llm_ms.
        self._completions = self._client.chat.completions

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send one request (one attempt) and return the whole reply.

        Raises:
            ProviderError: The provider failed or the stream ended before a finish reason.
            ProviderTimeout: The call took longer than ``config.timeout_s``.
        """
        params = build_openai_params(self.config, request, stream=self._stream)
        await self.warm()
        async with provider_call(self.config.name, self.config.timeout_s, self._scrub):
            if self._stream:
                return await self._complete_streamed(params)
            return await self._complete_whole(params)

    async def _complete_streamed(self, params: dict[str, Any]) -> LLMResponse:
        watch = Stopwatch()
        raw = await self._completions.with_raw_response.create(**params)
        kind = _content_type(raw.http_response)
        if kind != "text/event-stream":  # a server that answers whole, whatever was asked
            return await self._answered_whole(raw.http_response, kind, watch)
        return await self._read_stream(raw.parse(), watch)

    async def _read_stream(self, stream: Any, watch: Stopwatch) -> LLMResponse:
        acc = _Accumulator()
        async with stream:
            async for chunk in stream:
                if acc.feed(chunk):
                    watch.mark_first()
        if acc.finish_reason is None:
            raise ProviderError(
                self.config.name, "stream ended early (no finish_reason)", retryable=True
            )
        return LLMResponse(
            content="".join(acc.content),
            tool_calls=acc.tool_calls(),
            reasoning="".join(acc.reasoning) or None,
            reasoning_signature=None,
            stop_reason=acc.finish_reason,
            input_tokens=acc.input_tokens,
            output_tokens=acc.output_tokens,
            cost_usd=cost_usd(self.config, acc.input_tokens, acc.output_tokens),
            llm_ms=watch.elapsed_ms(),
            ttft_ms=watch.ttft_ms,
            model=acc.model or self.config.model,
        )

    async def _complete_whole(self, params: dict[str, Any]) -> LLMResponse:
        watch = Stopwatch()
        raw = await self._completions.with_raw_response.create(**params)
        kind = _content_type(raw.http_response)
        if kind == "text/event-stream":  # asked for a whole answer, sent a stream
            from openai import AsyncStream
            from openai.types.chat import ChatCompletionChunk

            stream = AsyncStream(
                cast_to=ChatCompletionChunk, response=raw.http_response, client=self._client
            )
            return await self._read_stream(stream, watch)
        if not kind.endswith("json"):
            raise ProviderError(self.config.name, await _what_was_sent(raw.http_response))
        return self._from_completion(raw.parse(), watch.elapsed_ms())

    async def _answered_whole(self, response: Any, kind: str, watch: Stopwatch) -> LLMResponse:
        """A JSON chat completion sent to a streaming request (a server that cannot stream:
        detected by its content type, so ``stream: false`` is optional)."""
        from openai.types.chat import ChatCompletion

        if not kind.endswith("json"):
            raise ProviderError(self.config.name, await _what_was_sent(response))
        body = await response.aread()
        llm_ms = watch.elapsed_ms()
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
            raise ProviderError(self.config.name, await _what_was_sent(response))
        # Built leniently, as the SDK builds what it parses: compatible servers omit fields.
        return self._from_completion(ChatCompletion.construct(**data), llm_ms)

    def _from_completion(self, completion: Any, llm_ms: float) -> LLMResponse:
        if not completion.choices:
            raise ProviderError(self.config.name, "response has no choices", retryable=True)
        choice = completion.choices[0]
        message = choice.message
        calls = tuple(
            ToolCall(
                id=tc.id or f"call_{i}",
                name=tc.function.name,
                arguments=tc.function.arguments or "",
            )
            for i, tc in enumerate(message.tool_calls or ())
            if getattr(tc, "function", None) is not None
        )
        usage = completion.usage
        input_tokens = usage.prompt_tokens if usage else None
        output_tokens = usage.completion_tokens if usage else None
        return LLMResponse(
            content=message.content or "",
            tool_calls=calls,
            reasoning=_reasoning_of(message),
            reasoning_signature=None,
            stop_reason=choice.finish_reason,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=cost_usd(self.config, input_tokens, output_tokens),
            llm_ms=llm_ms,
            ttft_ms=None,
            model=completion.model or self.config.model,
        )

    async def warm(self) -> None:
        """Pay the SDK's one-time costs now (once per process), not in a measured call."""
        await ensure_warm(f"openai-stream={self._stream}", self._warm_up)

    async def _warm_up(self) -> None:
        """One canned call through this code path, in memory (see ``_warm``)."""
        body, kind = (
            (OPENAI_STREAM, "text/event-stream")
            if self._stream
            else (OPENAI_COMPLETION, "application/json")
        )
        async with canned_client(body, kind) as http:
            resolved = ResolvedModel(self.config, "warm-up", "http://127.0.0.1/v1")
            twin = OpenAIChatClient(resolved, http_client=http, stream=self._stream)
            params = build_openai_params(self.config, WARM_REQUEST, stream=self._stream)
            if self._stream:
                await twin._complete_streamed(params)
            else:
                await twin._complete_whole(params)

    async def aclose(self) -> None:
        """Close the SDK client, unless the HTTP client was the caller's."""
        if self._owns_http:
            await self._client.close()
