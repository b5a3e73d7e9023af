"""The mock server's Anthropic Messages wire format, checked with the real SDK."""

from __future__ import annotations

from typing import Any

import anthropic
import httpx2
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

USER: Any = [{"role": "user", "content": "Where is my order?"}]
TOOLS: Any = [
    {"name": n, "input_schema": {"type": "object"}, "description": n}
    for n in ("get_order", "get_user")
]
PARALLEL = reply("Let me check.", tool_calls=[call("get_order", order_id="A1"), call("get_user")])


async def test_non_stream_text(server: MockLLMServer, anth: anthropic.AsyncAnthropic) -> None:
    server.script("claude-x", [say("Your order shipped.", input_tokens=11)])
    message = await anth.messages.create(model="claude-x", max_tokens=100, messages=USER)
    assert message.content[0].type == "text"
    assert message.content[0].text == "Your order shipped."
    assert message.stop_reason == "end_turn"
    assert message.model == "claude-x"
    assert message.usage.input_tokens == 11
    assert message.usage.output_tokens == len("Your order shipped.") // 4


async def test_stream_text_raw_events(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    server.script("claude-x", [say("Hello there, how can I help?")])
    stream = await anth.messages.create(
        model="claude-x", max_tokens=100, messages=USER, stream=True
    )
    events = [event async for event in stream]
    types = [e.type for e in events]
    assert types[0] == "message_start" and types[-2:] == ["message_delta", "message_stop"]
    text = "".join(e.delta.text for e in events if e.type == "content_block_delta")  # type: ignore[union-attr]
    assert text == "Hello there, how can I help?"
    assert events[-2].delta.stop_reason == "end_turn"  # type: ignore[union-attr]
    assert events[0].message.usage.input_tokens == len(server.requests()[0].text) // 4  # type: ignore[union-attr]


async def test_parallel_tool_calls_non_stream(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    server.script("claude-x", [PARALLEL])
    message = await anth.messages.create(
        model="claude-x", max_tokens=100, messages=USER, tools=TOOLS
    )
    assert message.stop_reason == "tool_use"
    assert [b.type for b in message.content] == ["text", "tool_use", "tool_use"]
    uses = [b for b in message.content if b.type == "tool_use"]
    assert [(u.name, u.input) for u in uses] == [
        ("get_order", {"order_id": "A1"}),
        ("get_user", {}),
    ]
    assert all(u.id.startswith("toolu_") for u in uses) and uses[0].id != uses[1].id


async def test_parallel_tool_calls_stream_helper(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    server.script("claude-x", [PARALLEL])
    async with anth.messages.stream(
        model="claude-x", max_tokens=100, messages=USER, tools=TOOLS
    ) as stream:
        final = await stream.get_final_message()
    assert final.stop_reason == "tool_use"
    uses = [b for b in final.content if b.type == "tool_use"]
    assert [(u.name, u.input) for u in uses] == [
        ("get_order", {"order_id": "A1"}),
        ("get_user", {}),
    ]
    assert final.content[0].type == "text" and final.content[0].text == "Let me check."


async def test_parallel_tool_calls_raw_stream(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    server.script("claude-x", [PARALLEL])
    stream = await anth.messages.create(
        model="claude-x", max_tokens=100, messages=USER, tools=TOOLS, stream=True
    )
    starts: dict[int, Any] = {}
    partial: dict[int, str] = {}
    async for event in stream:
        if event.type == "content_block_start":
            starts[event.index] = event.content_block
        elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
            partial[event.index] = partial.get(event.index, "") + event.delta.partial_json
    assert [starts[i].name for i in sorted(partial)] == ["get_order", "get_user"]
    assert [partial[i] for i in sorted(partial)] == ['{"order_id": "A1"}', "{}"]


async def test_thinking_round_trip(server: MockLLMServer, anth: anthropic.AsyncAnthropic) -> None:
    server.script("claude-x", [say("42", reasoning="six times seven")] * 2 + [say("ok")])
    message = await anth.messages.create(model="claude-x", max_tokens=100, messages=USER)
    thinking = message.content[0]
    assert thinking.type == "thinking"
    assert thinking.thinking == "six times seven" and thinking.signature

    async with anth.messages.stream(model="claude-x", max_tokens=100, messages=USER) as stream:
        final = await stream.get_final_message()
    assert final.content[0].type == "thinking"
    assert final.content[0].thinking == "six times seven" and final.content[0].signature
    assert final.content[1].type == "text" and final.content[1].text == "42"

    follow_up: Any = [
        *USER,
        {"role": "assistant", "content": [b.model_dump() for b in final.content]},
        {"role": "user", "content": "thanks"},
    ]
    await anth.messages.create(model="claude-x", max_tokens=100, messages=follow_up)
    sent = server.requests("claude-x")[-1].body["messages"][1]["content"][0]
    assert sent["type"] == "thinking" and sent["signature"] == final.content[0].signature


async def test_malformed_tool_arguments_stream(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    raw = '{"order_id": "A1", oops'
    server.script("claude-x", [reply(tool_calls=[malformed_call("get_order", raw)])] * 2)
    stream = await anth.messages.create(
        model="claude-x", max_tokens=100, messages=USER, tools=TOOLS, stream=True
    )
    pieces = [
        e.delta.partial_json
        async for e in stream
        if e.type == "content_block_delta" and e.delta.type == "input_json_delta"
    ]
    assert len(pieces) > 1 and "".join(pieces) == raw
    # Non-streaming cannot carry invalid JSON in `input` (an object): it degrades to {}.
    message = await anth.messages.create(
        model="claude-x", max_tokens=100, messages=USER, tools=TOOLS
    )
    assert message.content[0].type == "tool_use" and message.content[0].input == {}


async def test_429_with_retry_after(server: MockLLMServer, anth: anthropic.AsyncAnthropic) -> None:
    server.script("claude-x", [http_error(429, retry_after_s=1.5)])
    with pytest.raises(anthropic.RateLimitError) as info:
        await anth.messages.create(model="claude-x", max_tokens=100, messages=USER)
    assert info.value.response.headers["retry-after"] == "1.5"
    assert info.value.response.headers["retry-after-ms"] == "1500"
    assert info.value.body["error"]["type"] == "rate_limit_error"  # type: ignore[index]


@pytest.mark.parametrize(
    ("status", "error"),
    [(500, anthropic.InternalServerError), (529, anthropic.APIStatusError)],
)
async def test_server_errors(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic, status: int, error: type[Exception]
) -> None:
    server.script("claude-x", [http_error(status)])
    with pytest.raises(error) as info:
        await anth.messages.create(model="claude-x", max_tokens=100, messages=USER, stream=True)
    assert info.value.status_code == status  # type: ignore[attr-defined]


async def test_hang_hits_client_timeout(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    server.script("claude-x", [hang()])
    with pytest.raises(anthropic.APITimeoutError):
        await anth.messages.create(model="claude-x", max_tokens=100, messages=USER, timeout=0.2)


async def test_truncated_stream(server: MockLLMServer, anth: anthropic.AsyncAnthropic) -> None:
    server.script("claude-x", [truncated("partial answer")])
    seen: list[str] = []
    # anthropic 2.x does not wrap transport errors raised while iterating a stream: the cut
    # surfaces as httpx2.RemoteProtocolError (openai 3.x wraps it in APIConnectionError).
    with pytest.raises((anthropic.APIConnectionError, httpx2.TransportError)):
        stream = await anth.messages.create(
            model="claude-x", max_tokens=100, messages=USER, stream=True
        )
        async for event in stream:
            seen.append(event.type)
    assert "content_block_delta" in seen
    assert "message_stop" not in seen and "message_delta" not in seen


async def test_truncated_non_stream(server: MockLLMServer, anth: anthropic.AsyncAnthropic) -> None:
    server.script("claude-x", [truncated()])
    with pytest.raises(anthropic.APIConnectionError):
        await anth.messages.create(model="claude-x", max_tokens=100, messages=USER)


async def test_unscripted_model_is_a_loud_400(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic
) -> None:
    with pytest.raises(anthropic.BadRequestError) as info:
        await anth.messages.create(model="ghost", max_tokens=100, messages=USER)
    assert "mock server: no scripted reply for model ghost" in str(info.value)
    assert info.value.body["error"]["type"] == "invalid_request_error"  # type: ignore[index]
