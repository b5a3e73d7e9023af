"""The mock server's OpenAI Chat Completions wire format, checked with the real SDK."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest

from supportsim.testing import (
    MockLLMServer,
    call,
    hang,
    http_error,
    malformed_call,
    reply,
    say,
    truncated,
)

USER = [{"role": "user", "content": "Where is my order?"}]
TOOLS: Any = [
    {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
    for n in ("get_order", "get_user")
]


async def _collect(stream: Any) -> tuple[list[Any], dict[int, dict[str, str]]]:
    """All chunks and the tool calls accumulated from their deltas."""
    chunks, calls = [], {}
    async for chunk in stream:
        chunks.append(chunk)
        for choice in chunk.choices:
            for tc in choice.delta.tool_calls or ():
                acc = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                acc["id"] += tc.id or ""
                acc["name"] += (tc.function and tc.function.name) or ""
                acc["arguments"] += (tc.function and tc.function.arguments) or ""
    return chunks, calls


async def test_non_stream_text_and_usage(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [say("Your order shipped.")])
    result = await oai.chat.completions.create(model="gpt-x", messages=USER)
    assert result.choices[0].message.content == "Your order shipped."
    assert result.choices[0].message.role == "assistant"
    assert result.choices[0].finish_reason == "stop"
    assert result.model == "gpt-x"
    assert result.usage is not None
    assert result.usage.prompt_tokens == len(server.requests()[0].text) // 4
    assert result.usage.completion_tokens == len("Your order shipped.") // 4
    assert server.pending("gpt-x") == 0


async def test_stream_text_with_usage_chunk(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [say("Hello there, how can I help you today?", output_tokens=7)])
    stream = await oai.chat.completions.create(
        model="gpt-x", messages=USER, stream=True, stream_options={"include_usage": True}
    )
    chunks, _ = await _collect(stream)
    assert chunks[0].choices[0].delta.role == "assistant"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "Hello there, how can I help you today?"
    assert sum(1 for c in chunks if c.choices and c.choices[0].delta.content) > 1
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finishes[-1] == "stop"
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens == 7


async def test_parallel_tool_calls_non_stream(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("gpt-x", [reply(tool_calls=[call("get_order", order_id="A1"), call("get_user")])])
    result = await oai.chat.completions.create(model="gpt-x", messages=USER, tools=TOOLS)
    message = result.choices[0].message
    assert result.choices[0].finish_reason == "tool_calls"
    assert message.content is None
    calls = message.tool_calls or []
    assert [c.function.name for c in calls] == ["get_order", "get_user"]  # type: ignore[union-attr]
    assert json.loads(calls[0].function.arguments) == {"order_id": "A1"}  # type: ignore[union-attr]
    assert all(c.id.startswith("call_") for c in calls)
    assert len({c.id for c in calls}) == 2


async def test_parallel_tool_calls_stream(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script(
        "gpt-x",
        [reply("Checking.", tool_calls=[call("get_order", order_id="A1"), call("get_user", id=7)])],
    )
    stream = await oai.chat.completions.create(
        model="gpt-x", messages=USER, tools=TOOLS, stream=True
    )
    chunks, calls = await _collect(stream)
    assert [c["name"] for c in calls.values()] == ["get_order", "get_user"]
    assert json.loads(calls[1]["arguments"]) == {"id": 7}
    assert calls[0]["id"].startswith("call_") and calls[0]["id"] != calls[1]["id"]
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


async def test_stream_helper_final_completion(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("gpt-x", [reply("Sure.", tool_calls=[call("get_order", order_id="B2")])])
    async with oai.chat.completions.stream(model="gpt-x", messages=USER, tools=TOOLS) as stream:
        final = await stream.get_final_completion()
    message = final.choices[0].message
    assert message.content == "Sure."
    assert message.tool_calls and message.tool_calls[0].function.name == "get_order"  # type: ignore[union-attr]
    assert json.loads(message.tool_calls[0].function.arguments) == {"order_id": "B2"}  # type: ignore[union-attr]


async def test_reasoning_content(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("r1", [say("42", reasoning="six times seven"), say("43", reasoning="plus one")])
    result = await oai.chat.completions.create(model="r1", messages=USER)
    assert result.choices[0].message.content == "42"
    assert getattr(result.choices[0].message, "reasoning_content", None) == "six times seven"

    stream = await oai.chat.completions.create(model="r1", messages=USER, stream=True)
    chunks, _ = await _collect(stream)
    deltas = [c.choices[0].delta for c in chunks if c.choices]
    reasoning = "".join(getattr(d, "reasoning_content", None) or "" for d in deltas)
    assert reasoning == "plus one"
    first_content = next(i for i, d in enumerate(deltas) if d.content)
    last_reasoning = max(i for i, d in enumerate(deltas) if getattr(d, "reasoning_content", None))
    assert last_reasoning < first_content


async def test_malformed_tool_arguments_arrive_raw(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script(
        "gpt-x",
        [reply(tool_calls=[malformed_call("get_order")]), reply(tool_calls=[malformed_call("x")])],
    )
    result = await oai.chat.completions.create(model="gpt-x", messages=USER, tools=TOOLS)
    assert result.choices[0].message.tool_calls[0].function.arguments == '{"order_id": '  # type: ignore[index,union-attr]
    stream = await oai.chat.completions.create(
        model="gpt-x", messages=USER, tools=TOOLS, stream=True
    )
    _, calls = await _collect(stream)
    assert calls[0]["arguments"] == '{"order_id": '


async def test_429_with_retry_after(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [http_error(429, retry_after_s=0.05, message="slow down")])
    with pytest.raises(openai.RateLimitError) as info:
        await oai.chat.completions.create(model="gpt-x", messages=USER)
    assert info.value.status_code == 429
    assert info.value.response.headers["retry-after"] == "0.05"
    assert info.value.response.headers["retry-after-ms"] == "50"
    assert info.value.body == {
        "message": "slow down",
        "type": "requests",
        "param": None,
        "code": "rate_limit_exceeded",
    }


async def test_500_on_stream_request(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [http_error(500)])
    with pytest.raises(openai.InternalServerError) as info:
        await oai.chat.completions.create(model="gpt-x", messages=USER, stream=True)
    assert "retry-after" not in info.value.response.headers


async def test_hang_hits_client_timeout(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [hang(), hang()])
    with pytest.raises(openai.APITimeoutError):
        await oai.chat.completions.create(model="gpt-x", messages=USER, timeout=0.2)
    with pytest.raises(openai.APITimeoutError):
        await oai.chat.completions.create(model="gpt-x", messages=USER, stream=True, timeout=0.2)


async def test_truncated_stream_breaks_without_finish(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("gpt-x", [truncated("partial answer")])
    seen: list[Any] = []
    with pytest.raises(openai.APIConnectionError):
        stream = await oai.chat.completions.create(model="gpt-x", messages=USER, stream=True)
        async for chunk in stream:
            seen.append(chunk)
    assert seen, "the stream should start before it is cut"
    assert all(c.choices[0].finish_reason is None for c in seen)
    assert "".join(c.choices[0].delta.content or "" for c in seen) in "partial answer"


async def test_truncated_non_stream(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [truncated()])
    with pytest.raises(openai.APIConnectionError):
        await oai.chat.completions.create(model="gpt-x", messages=USER)


async def test_unscripted_model_is_a_loud_400(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    with pytest.raises(openai.BadRequestError) as info:
        await oai.chat.completions.create(model="ghost", messages=USER)
    assert "mock server: no scripted reply for model ghost" in str(info.value)


async def test_models_list(server: MockLLMServer, oai: openai.AsyncOpenAI) -> None:
    server.script("gpt-x", [say("x")])
    page = await oai.models.list()
    assert [m.id for m in page.data] == ["gpt-x"]
