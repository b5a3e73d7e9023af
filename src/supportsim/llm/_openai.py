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
* A structured answer (``LLMRequest.structured``) is ``response_format`` JSON schema output
  at a custom base URL and a forced tool call at OpenAI's own API (``_structured``); a
  server refusing ``response_format`` under ``structured_output: auto`` is asked again with
  the tool, and this client remembers it.
* Cached prompt tokens (``prompt_tokens_details.cached_tokens``) are part of
  ``prompt_tokens``; both are kept, and priced apart (``_prices``).
* The request goes through the SDK's lower-level ``post`` with the body serialised once
  by orjson (``openai_body``), and the reply is read as plain dicts: the SDK's per-call
  transform of every message and tool schema and its pydantic chunk models were most of
  the client's CPU per call. The SDK still sends it (headers, timeouts, status errors, SSE
  decoding, error events in a stream); its HTTP transport is wrapped to stamp the wire
  (``_wire``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx2
import orjson

from supportsim.errors import ProviderError

from ._config import ResolvedModel, cost_usd, sdk_kwargs
from ._context import ContextTooLong, check_context
from ._errors import provider_call
from ._openai_params import openai_body
from ._secrets import scrubber
from ._structured import StructuredMode, structured_mode
from ._timing import CallTimes, Stopwatch, times_of
from ._types import LLMRequest, LLMResponse, ToolCall
from ._warm import OPENAI_COMPLETION, OPENAI_STREAM, WARM_REQUEST, canned_client, ensure_warm
from ._wire import recording, wire_client

if TYPE_CHECKING:
    from openai import AsyncOpenAI


# What a server says when it cannot take response_format (unknown field, unsupported type,
# a schema its grammar converter refuses).
_REFUSED_FORMAT = re.compile(r"response_format|json_schema|grammar|structured output", re.I)


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


def _reasoning_of(obj: dict[str, Any]) -> str | None:
    # Non-standard fields of vLLM/DeepSeek-style servers.
    for name in ("reasoning_content", "reasoning"):
        value = obj.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def _dict(value: object) -> dict[str, Any]:
    """A JSON object, or empty: compatible servers send null or omit what OpenAI fills."""
    return value if isinstance(value, dict) else {}


def cached_tokens(usage: dict[str, Any]) -> int:
    """Prompt tokens read from OpenAI's prompt cache (``prompt_tokens_details``, which
    compatible servers often leave out or null: 0 then)."""
    value = _dict(usage.get("prompt_tokens_details")).get("cached_tokens")
    return value if isinstance(value, int) and value > 0 else 0


def _tokens(usage: dict[str, Any], name: str) -> int | None:
    value = usage.get(name)
    return value if isinstance(value, int) else None


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
    cached_input_tokens: int = 0

    def feed(self, chunk: dict[str, Any]) -> bool:
        """Take one chunk (the parsed JSON of one event); True when it carried content,
        reasoning or tool-call data."""
        self.model = chunk.get("model") or self.model
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self.input_tokens = _tokens(usage, "prompt_tokens")
            self.output_tokens = _tokens(usage, "completion_tokens")
            self.cached_input_tokens = cached_tokens(usage)
        carried = False
        for choice in chunk.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            if isinstance(delta, dict):
                if content := delta.get("content"):
                    self.content.append(content)
                    carried = True
                if (reasoning := _reasoning_of(delta)) is not None:
                    self.reasoning.append(reasoning)
                    carried = True
                for tc in delta.get("tool_calls") or ():
                    if not isinstance(tc, dict):
                        continue
                    carried = True
                    slot = self.tools.setdefault(tc.get("index", 0), _ToolSlot())
                    # First id/name wins: servers send them once, some repeat them.
                    slot.id = slot.id or (tc.get("id") or "")
                    function = tc.get("function")
                    if isinstance(function, dict):
                        slot.name = slot.name or (function.get("name") or "")
                        if arguments := function.get("arguments"):
                            slot.arguments.append(arguments)
            if finish := choice.get("finish_reason"):
                self.finish_reason = finish
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
        from openai import (  # reads env vars on import
            DEFAULT_CONNECTION_LIMITS,
            AsyncOpenAI,
            DefaultAsyncHttpxClient,
        )

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
                default_client=lambda verify: wire_client(
                    DefaultAsyncHttpxClient, verify=verify, limits=DEFAULT_CONNECTION_LIMITS
                ),
            )
        )
        self._mode: StructuredMode = structured_mode(self.config)

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Send one request (one attempt) and return the whole reply.

        Raises:
            ProviderError: The provider failed or the stream ended before a finish reason.
            ProviderTimeout: The call took longer than ``config.timeout_s``.
            ContextTooLong: The prompt does not fit the model's ``context_window`` (checked
                before sending) or the server said so; never retryable.
        """
        check_context(self.config, request)
        await self.warm()
        mode = self._mode
        try:
            return await self._attempt(request, mode)
        except ProviderError as exc:
            if not self._falls_back(request, mode, exc):
                raise
            self._mode = "tool"  # this server cannot do response_format: remembered
            return await self._attempt(request, "tool")

    async def _attempt(self, request: LLMRequest, mode: StructuredMode) -> LLMResponse:
        watch = Stopwatch()  # building and serialising the request is the client's time
        body, headers = openai_body(self.config, request, stream=self._stream, mode=mode)
        async with provider_call(self.config.name, self.config.timeout_s, self._scrub):
            return await self._send(body, headers, watch)

    def _falls_back(self, request: LLMRequest, mode: StructuredMode, exc: ProviderError) -> bool:
        """Under ``structured_output: auto``, a 4xx refusing ``response_format`` is asked
        again with the forced tool call (an explicit ``true`` fails as it is)."""
        return (
            request.structured is not None
            and mode == "json_schema"
            and self.config.structured_output == "auto"
            and not isinstance(exc, ContextTooLong)
            and exc.status is not None
            and 400 <= exc.status < 500
            and exc.status not in (401, 403, 408, 409, 429)
            and _REFUSED_FORMAT.search(str(exc)) is not None
        )

    async def _send(
        self, body: bytes, headers: dict[str, str], watch: Stopwatch | None = None
    ) -> LLMResponse:
        """POST the serialised body through the SDK's request layer (its headers, status
        errors and timeouts) and read the raw response, stream or whole as its content type
        says, without the SDK's per-call request transform or response models. ``watch``:
        started before the body was built (default: now)."""
        from openai import AsyncStream

        watch = watch or Stopwatch()
        with recording(watch.wire):
            response = await self._client.post(
                "/chat/completions",
                cast_to=httpx2.Response,
                content=body,
                options={"headers": headers} if headers else {},
                stream=True,
            )
            try:
                kind = _content_type(response)
                if kind == "text/event-stream":
                    # cast_to=object: the SDK decodes the events and raises error events,
                    # the chunks stay the dicts the JSON parser made.
                    stream = AsyncStream(cast_to=object, response=response, client=self._client)
                    return await self._read_stream(stream, watch)
                if not kind.endswith("json"):
                    raise ProviderError(self.config.name, await _what_was_sent(response))
                return await self._read_whole(response, watch)
            finally:
                await response.aclose()

    async def _read_stream(self, stream: Any, watch: Stopwatch) -> LLMResponse:
        acc = _Accumulator()
        async for chunk in stream:
            if isinstance(chunk, dict) and acc.feed(chunk):
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
            cost_usd=cost_usd(
                self.config,
                acc.input_tokens,
                acc.output_tokens,
                cached_input_tokens=acc.cached_input_tokens,
            ),
            model=acc.model or self.config.model,
            cached_input_tokens=acc.cached_input_tokens,
            **times_of(watch.stop()),
        )

    async def _read_whole(self, response: Any, watch: Stopwatch) -> LLMResponse:
        """A JSON chat completion, asked for or sent to a streaming request by a server that
        cannot stream (so ``stream: false`` is optional)."""
        body = await response.aread()
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
            raise ProviderError(self.config.name, await _what_was_sent(response))
        return self._from_completion(data, watch.stop())  # the parsing is client time

    def _from_completion(self, completion: dict[str, Any], times: CallTimes) -> LLMResponse:
        choices = completion["choices"]
        if not choices:
            raise ProviderError(self.config.name, "response has no choices", retryable=True)
        choice = _dict(choices[0])
        message = _dict(choice.get("message"))
        calls = tuple(
            ToolCall(
                id=tc.get("id") or f"call_{i}",
                name=function.get("name") or "",
                arguments=function.get("arguments") or "",
            )
            for i, tc in enumerate(message.get("tool_calls") or ())
            if isinstance(tc, dict) and isinstance(function := tc.get("function"), dict)
        )
        usage = completion.get("usage")
        usage = usage if isinstance(usage, dict) else None
        input_tokens = _tokens(usage, "prompt_tokens") if usage else None
        output_tokens = _tokens(usage, "completion_tokens") if usage else None
        cached = cached_tokens(usage) if usage else 0
        return LLMResponse(
            content=message.get("content") or "",
            tool_calls=calls,
            reasoning=_reasoning_of(message),
            reasoning_signature=None,
            stop_reason=choice.get("finish_reason"),
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=cost_usd(self.config, input_tokens, output_tokens, cached_input_tokens=cached),
            model=completion.get("model") or self.config.model,
            cached_input_tokens=cached,
            **times_of(times, ttft=False),
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
            await twin._send(*openai_body(self.config, WARM_REQUEST, stream=self._stream))

    async def aclose(self) -> None:
        """Close the SDK client, unless the HTTP client was the caller's."""
        if self._owns_http:
            await self._client.close()
