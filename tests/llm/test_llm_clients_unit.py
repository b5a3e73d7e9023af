"""Both clients against canned HTTP responses (httpx2.MockTransport, no socket)."""

from __future__ import annotations

import pytest
from llm_helpers import Recorder, chunk, resolved, sse

from supportsim.errors import ProviderError
from supportsim.llm import (
    AnthropicMessagesClient,
    LLMMessage,
    LLMRequest,
    OpenAIChatClient,
    Price,
    ToolCall,
    ToolSpec,
)

HELLO = LLMRequest(system="Be brief.", messages=(LLMMessage(role="user", content="Hi"),))
TOOL = ToolSpec(name="lookup", description="d", parameters={"type": "object"})
PRICE = Price(input_per_mtok=1.0, output_per_mtok=2.0)


def openai_stream(*chunks: object, done: bool = True) -> bytes:
    events = [(None, c) for c in chunks]
    return sse(events + ([(None, "[DONE]")] if done else []))


async def test_openai_stream_accumulates_text_reasoning_tools_and_usage() -> None:
    body = openai_stream(
        chunk({"role": "assistant", "content": ""}),
        chunk({"reasoning_content": "Think "}),
        chunk({"reasoning_content": "hard."}),
        chunk({"content": "Let me "}),
        chunk({"content": "check."}),
        chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "t1", "function": {"name": "lookup", "arguments": ""}}
                ]
            }
        ),
        chunk(
            {
                "tool_calls": [
                    {"index": 1, "id": "t2", "function": {"name": "lookup", "arguments": '{"o'}}
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"order_id": "A1"}'}}]}),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": 'rder_id": "A2'}}]}),
        chunk({}, finish="tool_calls"),
        chunk(None, usage={"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}),
    )
    recorder = Recorder(body=body)
    http = recorder.client()
    client = OpenAIChatClient(resolved("openai:gpt-x", price=PRICE), http_client=http)
    request = LLMRequest(system="s", messages=HELLO.messages, tools=(TOOL,), tool_choice="required")
    response = await client.complete(request)
    await client.aclose()
    await http.aclose()

    assert response.content == "Let me check."
    assert response.reasoning == "Think hard."
    assert response.reasoning_signature is None
    assert response.tool_calls == (
        ToolCall(id="t1", name="lookup", arguments='{"order_id": "A1"}'),
        ToolCall(id="t2", name="lookup", arguments='{"order_id": "A2'),  # malformed, kept raw
    )
    assert response.stop_reason == "tool_calls"
    assert (response.input_tokens, response.output_tokens) == (1000, 500)
    assert response.cost_usd == pytest.approx(0.002)
    assert response.model == "served-model"
    assert response.ttft_ms is not None
    assert 0 <= response.ttft_ms <= response.llm_ms
    sent = recorder.requests[0]
    assert sent["stream"] is True
    assert sent["stream_options"] == {"include_usage": True}
    assert sent["tool_choice"] == "required"
    assert sent["model"] == "gpt-x"


async def test_openai_stream_without_finish_reason_is_retryable() -> None:
    body = openai_stream(chunk({"content": "Half a sen"}), done=False)
    recorder = Recorder(body=body)
    client = OpenAIChatClient(resolved("openai:gpt-x"), http_client=recorder.client())
    with pytest.raises(ProviderError, match="stream ended early") as info:
        await client.complete(HELLO)
    assert info.value.retryable


async def test_openai_without_usage_has_no_cost() -> None:
    body = openai_stream(chunk({"content": "Hi"}, finish="stop"))
    client = OpenAIChatClient(
        resolved("openai:gpt-x", price=PRICE), http_client=Recorder(body=body).client()
    )
    response = await client.complete(HELLO)
    assert (response.input_tokens, response.output_tokens, response.cost_usd) == (None, None, None)


async def test_openai_non_streaming_mode() -> None:
    body = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "served-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "reasoning_content": "hmm",
                    "tool_calls": [
                        {
                            "id": "t1",
                            "type": "function",
                            "function": {"name": "lookup", "arguments": "{}"},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }
    import json

    recorder = Recorder(
        body=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    client = OpenAIChatClient(resolved("openai:gpt-x"), http_client=recorder.client(), stream=False)
    response = await client.complete(HELLO)
    assert response.ttft_ms is None
    assert response.tool_calls == (ToolCall(id="t1", name="lookup", arguments="{}"),)
    assert response.reasoning == "hmm"
    assert response.content == ""
    assert (response.input_tokens, response.output_tokens) == (10, 5)
    assert "stream" not in recorder.requests[0]


async def test_openai_http_error_is_translated() -> None:
    recorder = Recorder(
        status=429,
        body=b'{"error": {"message": "slow down", "type": "rate_limit"}}',
        headers={"content-type": "application/json", "retry-after-ms": "1500"},
    )
    client = OpenAIChatClient(resolved("openai:gpt-x"), http_client=recorder.client())
    with pytest.raises(ProviderError) as info:
        await client.complete(HELLO)
    assert (info.value.status, info.value.retryable, info.value.retry_after_s) == (429, True, 1.5)
    assert len(recorder.requests) == 1  # the SDK's own retries are off


def anthropic_events(*, stop: bool = True, tool_input: str | None = '{"order_id": "A1"}') -> bytes:
    events: list[tuple[str | None, object]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "m",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-served",
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {
                        "input_tokens": 900,
                        "cache_read_input_tokens": 100,
                        "output_tokens": 1,
                    },
                },
            },
        ),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "Look it up."},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "signature_delta", "signature": "SIG"},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("ping", {"type": "ping"}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "text_delta", "text": "Checking"},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 2,
                "content_block": {"type": "tool_use", "id": "tu1", "name": "lookup", "input": {}},
            },
        ),
    ]
    if tool_input:
        events.append(
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 2,
                    "delta": {"type": "input_json_delta", "partial_json": tool_input},
                },
            )
        )
    events += [
        ("content_block_stop", {"type": "content_block_stop", "index": 2}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 42},
            },
        ),
    ]
    if stop:
        events.append(("message_stop", {"type": "message_stop"}))
    return sse(events)


async def test_anthropic_stream_accumulates_everything() -> None:
    recorder = Recorder(body=anthropic_events())
    cached_rate = PRICE.model_copy(update={"cached_input_per_mtok": 0.1})
    client = AnthropicMessagesClient(
        resolved("anthropic:claude-x", price=cached_rate), http_client=recorder.client()
    )
    response = await client.complete(LLMRequest(system="s", messages=HELLO.messages, tools=(TOOL,)))
    assert response.content == "Checking"
    assert response.reasoning == "Look it up."
    assert response.reasoning_signature == "SIG"
    assert response.tool_calls == (
        ToolCall(id="tu1", name="lookup", arguments='{"order_id": "A1"}'),
    )
    assert response.stop_reason == "tool_use"
    assert (response.input_tokens, response.output_tokens) == (1000, 42)
    # input_tokens excludes cache reads on the wire: 900 fresh + 100 read at the cached rate.
    assert (response.cached_input_tokens, response.cache_write_tokens) == (100, 0)
    assert response.cost_usd == pytest.approx((900 * 1.0 + 100 * 0.1 + 42 * 2.0) / 1e6)
    assert response.model == "claude-served"
    assert response.ttft_ms is not None
    sent = recorder.requests[0]
    assert sent["system"] == "s"
    assert sent["stream"] is True
    assert sent["tools"][0]["input_schema"] == {"type": "object"}


async def test_anthropic_empty_tool_input_is_an_empty_object() -> None:
    recorder = Recorder(body=anthropic_events(tool_input=None))
    client = AnthropicMessagesClient(resolved("anthropic:claude-x"), http_client=recorder.client())
    response = await client.complete(HELLO)
    assert response.tool_calls[0].arguments == "{}"


async def test_anthropic_stream_without_message_stop_is_retryable() -> None:
    recorder = Recorder(body=anthropic_events(stop=False))
    client = AnthropicMessagesClient(resolved("anthropic:claude-x"), http_client=recorder.client())
    with pytest.raises(ProviderError, match="stream ended early") as info:
        await client.complete(HELLO)
    assert info.value.retryable


async def test_anthropic_overloaded_error_event() -> None:
    body = sse(
        [
            (
                "error",
                {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            )
        ]
    )
    client = AnthropicMessagesClient(
        resolved("anthropic:claude-x"), http_client=Recorder(body=body).client()
    )
    with pytest.raises(ProviderError) as info:
        await client.complete(HELLO)
    assert (info.value.status, info.value.retryable) == (529, True)


async def test_sdk_environment_variables_are_not_consulted(monkeypatch: pytest.MonkeyPatch) -> None:
    # The resolved endpoint and key win: the SDKs would otherwise read these themselves.
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.setenv(name, "http://wrong.invalid")
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.setenv(name, "wrong-key")
    openai_rec = Recorder(body=openai_stream(chunk({"content": "Hi"}, finish="stop")))
    client = OpenAIChatClient(resolved("openai:gpt-x"), http_client=openai_rec.client())
    await client.complete(HELLO)
    assert openai_rec.urls == ["http://127.0.0.1:1/v1/chat/completions"]
    anthropic_rec = Recorder(body=anthropic_events())
    client2 = AnthropicMessagesClient(resolved("anthropic:c"), http_client=anthropic_rec.client())
    await client2.complete(HELLO)
    assert anthropic_rec.urls == ["http://127.0.0.1:1/v1/messages"]
