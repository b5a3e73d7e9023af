"""Both clients, through the real SDKs and real HTTP, against the loopback mock server."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx2
import pytest

from supportsim.errors import ProviderError, ProviderTimeout
from supportsim.llm import (
    LLMClient,
    LLMMessage,
    LLMRequest,
    Price,
    RetryPolicy,
    ToolSpec,
    make_client,
    parse_model_spec,
    resolve_credentials,
    with_retries,
)
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

# Measured latency is the injected one plus this process's own work (SDK, and the mock
# server sharing its event loop): a few ms when idle, with headroom for a busy machine.
SLACK_MS = 50.0  # not a speed target: under it the first byte (60) still precedes the end (120)

LOOKUP = ToolSpec(
    name="lookup",
    description="Look up an order by id.",
    parameters={
        "type": "object",
        "properties": {"order_id": {"type": "string"}},
        "required": ["order_id"],
    },
)
ASK = LLMRequest(
    system="You are a support agent.",
    messages=(LLMMessage(role="user", content="Where are orders A1 and A2?"),),
    tools=(LOOKUP,),
)

Connect = Callable[..., LLMClient]


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as mock:
        # The server's own first-request costs (lazy imports) must not land in a measurement.
        async with httpx2.AsyncClient() as http:
            await http.get(mock.url + "/health")
        yield mock


@pytest.fixture(params=["openai", "anthropic"])
def provider(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
async def connect(server: MockLLMServer, provider: str) -> AsyncIterator[Connect]:
    clients: list[LLMClient] = []

    def _connect(**update: Any) -> LLMClient:
        config = parse_model_spec(f"{provider}:m", {})
        if update:
            config = config.model_copy(update=update)
        base = server.url + "/v1" if provider == "openai" else server.url
        env = {
            "OPENAI_API_KEY": "test-key",
            "ANTHROPIC_API_KEY": "test-key",
            "OPENAI_BASE_URL": base,
            "ANTHROPIC_BASE_URL": base,
        }
        client = make_client(resolve_credentials(config, env))
        clients.append(client)
        return client

    yield _connect
    for client in clients:
        await client.aclose()


def sent_messages(server: MockLLMServer, index: int) -> list[dict[str, Any]]:
    return server.requests(model="m")[index].body["messages"]


async def test_text_reply(server: MockLLMServer, connect: Connect, provider: str) -> None:
    server.script("m", [say("Hello there!")])
    response = await connect().complete(
        LLMRequest(system="Be brief.", messages=(LLMMessage(role="user", content="Hi"),))
    )
    assert response.content == "Hello there!"
    assert response.tool_calls == ()
    assert response.reasoning is None
    assert response.stop_reason == ("stop" if provider == "openai" else "end_turn")
    assert response.model == "m"
    assert response.input_tokens is not None and response.input_tokens > 0
    assert response.output_tokens is not None and response.output_tokens > 0
    assert response.cost_usd is None  # unpriced
    (request,) = server.requests(model="m")
    assert request.stream
    assert "test-key" not in request.text
    if provider == "openai":
        assert request.body["messages"][0] == {"role": "system", "content": "Be brief."}
        assert request.body["stream_options"] == {"include_usage": True}
    else:
        assert request.body["system"] == "Be brief."
        assert request.body["messages"] == [{"role": "user", "content": "Hi"}]


async def test_parallel_tool_calls_round_trip(
    server: MockLLMServer, connect: Connect, provider: str
) -> None:
    server.script(
        "m",
        [
            reply("", tool_calls=[call("lookup", order_id="A1"), call("lookup", order_id="A2")]),
            say("A1 has shipped; A2 does not exist."),
        ],
    )
    client = connect()
    first = await client.complete(ASK)
    assert first.stop_reason == ("tool_calls" if provider == "openai" else "tool_use")
    assert [c.name for c in first.tool_calls] == ["lookup", "lookup"]
    assert [json.loads(c.arguments) for c in first.tool_calls] == [
        {"order_id": "A1"},
        {"order_id": "A2"},
    ]
    a1, a2 = first.tool_calls
    assert a1.id and a2.id and a1.id != a2.id

    history = (
        *ASK.messages,
        first.as_message(),
        LLMMessage(role="tool", tool_call_id=a1.id, content="A1: shipped"),
        LLMMessage(role="tool", tool_call_id=a2.id, content="no such order", is_error=True),
    )
    second = await client.complete(LLMRequest(system=ASK.system, messages=history, tools=ASK.tools))
    assert second.content == "A1 has shipped; A2 does not exist."

    messages = sent_messages(server, 1)
    if provider == "anthropic":
        assert [m["role"] for m in messages] == ["user", "assistant", "user"]
        assert [b["input"] for b in messages[1]["content"]] == [
            {"order_id": "A1"},
            {"order_id": "A2"},
        ]
        assert messages[2]["content"] == [
            {
                "type": "tool_result",
                "tool_use_id": a1.id,
                "content": "A1: shipped",
                "is_error": False,
            },
            {
                "type": "tool_result",
                "tool_use_id": a2.id,
                "content": "no such order",
                "is_error": True,
            },
        ]
    else:
        assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool"]
        assert [c["id"] for c in messages[2]["tool_calls"]] == [a1.id, a2.id]
        assert messages[3] == {"role": "tool", "tool_call_id": a1.id, "content": "A1: shipped"}
        assert messages[4] == {"role": "tool", "tool_call_id": a2.id, "content": "no such order"}


async def test_reasoning_round_trip(server: MockLLMServer, connect: Connect, provider: str) -> None:
    server.script("m", [say("Both shipped.", reasoning="Check both orders."), say("Bye.")])
    client = connect()
    first = await client.complete(ASK)
    assert first.content == "Both shipped."
    assert first.reasoning == "Check both orders."
    if provider == "anthropic":
        assert first.reasoning_signature and first.reasoning_signature.startswith("mocksig_")
    else:
        assert first.reasoning_signature is None

    follow_up = LLMMessage(role="user", content="Thanks")
    await client.complete(
        LLMRequest(system=ASK.system, messages=(*ASK.messages, first.as_message(), follow_up))
    )
    assistant = next(m for m in sent_messages(server, 1) if m["role"] == "assistant")
    if provider == "anthropic":
        assert assistant["content"] == [
            {
                "type": "thinking",
                "thinking": "Check both orders.",
                "signature": first.reasoning_signature,
            },
            {"type": "text", "text": "Both shipped."},
        ]
    else:
        assert assistant == {
            "role": "assistant",
            "content": "Both shipped.",
            "reasoning_content": "Check both orders.",
        }


async def test_usage_and_cost(server: MockLLMServer, connect: Connect) -> None:
    server.script("m", [say("Hi", input_tokens=1200, output_tokens=300)])
    client = connect(price=Price(input_per_mtok=2.5, output_per_mtok=10.0))
    response = await client.complete(ASK)
    assert (response.input_tokens, response.output_tokens) == (1200, 300)
    assert response.cost_usd == pytest.approx((1200 * 2.5 + 300 * 10.0) / 1e6, rel=1e-12)


async def test_ttft_and_llm_ms_track_injected_latency(
    server: MockLLMServer, connect: Connect
) -> None:
    client = connect()
    server.script("m", [say("warm")])
    await client.complete(ASK)  # first connection set up outside the measured calls
    # Best of five: a busy machine only ever adds time, so the minimum is the clean reading.
    text = "A fairly long answer, streamed in pieces."
    server.script("m", [say(text, ttft_ms=60, total_ms=120) for _ in range(5)])
    readings = [await client.complete(ASK) for _ in range(5)]
    for response in readings:
        assert response.ttft_ms is not None
        assert 60 - 1 <= response.ttft_ms < response.llm_ms
        assert response.llm_ms >= 120 - 1
    assert min(r.ttft_ms or 0 for r in readings) <= 60 + SLACK_MS
    assert min(r.llm_ms for r in readings) <= 120 + SLACK_MS


async def test_rate_limit_carries_retry_after(server: MockLLMServer, connect: Connect) -> None:
    server.script("m", [http_error(429, retry_after_s=1.5)])
    with pytest.raises(ProviderError) as info:
        await connect().complete(ASK)
    err = info.value
    assert (err.status, err.retryable, err.retry_after_s) == (429, True, 1.5)
    assert err.model == info.value.model and "429" in str(err)
    assert len(server.requests(model="m")) == 1  # the SDK did not retry by itself


async def test_server_error_is_retryable_and_retried(
    server: MockLLMServer, connect: Connect
) -> None:
    server.script("m", [http_error(500), say("Recovered.")])
    client = connect()
    delays: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        delays.append(seconds)

    seen: list[ProviderError] = []
    response = await with_retries(
        lambda: client.complete(ASK),
        RetryPolicy(jitter=0.0),
        sleep=fake_sleep,
        on_retry=lambda err, attempt, delay: seen.append(err),
    )
    assert response.content == "Recovered."
    assert [(e.status, e.retryable) for e in seen] == [(500, True)]
    assert delays == [0.5]
    assert len(server.requests(model="m")) == 2


async def test_client_error_is_not_retryable(server: MockLLMServer, connect: Connect) -> None:
    server.script("m", [http_error(400, message="bad tool schema")])
    with pytest.raises(ProviderError) as info:
        await connect().complete(ASK)
    assert (info.value.status, info.value.retryable) == (400, False)
    assert "bad tool schema" in str(info.value)


async def test_hang_times_out(server: MockLLMServer, connect: Connect) -> None:
    server.script("m", [hang()])
    client = connect(timeout_s=0.2)
    start = time.perf_counter()
    with pytest.raises(ProviderTimeout) as info:
        await client.complete(ASK)
    assert info.value.retryable
    assert time.perf_counter() - start < 2.0


async def test_truncated_stream_is_retryable(server: MockLLMServer, connect: Connect) -> None:
    server.script("m", [truncated("Your order is on its wa")])
    with pytest.raises(ProviderError) as info:
        await connect().complete(ASK)
    assert info.value.retryable
    assert not isinstance(info.value, ProviderTimeout)


async def test_malformed_tool_arguments_come_back_raw(
    server: MockLLMServer, connect: Connect
) -> None:
    server.script("m", [reply(tool_calls=[malformed_call("lookup", '{"order_id": "A1"')])])
    response = await connect().complete(ASK)
    (tool_call,) = response.tool_calls
    assert tool_call.name == "lookup"
    assert tool_call.arguments == '{"order_id": "A1"'


@pytest.mark.parametrize("provider", ["openai"])  # only OpenAI-compatible servers may not stream
async def test_openai_without_streaming(server: MockLLMServer, connect: Connect) -> None:
    server.script("m", [reply("Done.", tool_calls=[call("lookup", order_id="A1")], reasoning="r")])
    response = await connect(stream=False).complete(ASK)
    assert response.ttft_ms is None
    assert response.llm_ms > 0
    assert response.content == "Done."
    assert response.reasoning == "r"
    assert json.loads(response.tool_calls[0].arguments) == {"order_id": "A1"}
    assert not server.requests(model="m")[0].stream
