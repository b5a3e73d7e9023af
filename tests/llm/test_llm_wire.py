"""Wire stamps (``_wire``): each call's request sent, first and last byte, through the real
SDKs against the loopback mock server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import orjson
import pytest

from supportsim.llm import (
    LLMClient,
    LLMMessage,
    LLMRequest,
    OpenAIChatClient,
    make_client,
    parse_model_spec,
    resolve_credentials,
)
from supportsim.llm._wire import WireStamps, WireTransport, recording
from supportsim.testing import MockLLMServer, call, reply, say

HI = LLMRequest(system="Be brief.", messages=(LLMMessage(role="user", content="Hi"),))


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as mock:
        mock.latency(ttft_ms=5, total_ms=15)
        yield mock


def _resolved(server: MockLLMServer, provider: str, **update: Any) -> Any:
    config = parse_model_spec(f"{provider}:m", {})
    if update:
        config = config.model_copy(update=update)
    base = server.url + "/v1" if provider == "openai" else server.url
    env = {
        "OPENAI_API_KEY": "k",
        "ANTHROPIC_API_KEY": "k",
        "OPENAI_BASE_URL": base,
        "ANTHROPIC_BASE_URL": base,
    }
    return resolve_credentials(config, env)


async def _complete(client: LLMClient, request: LLMRequest = HI) -> Any:
    try:
        return await client.complete(request)
    finally:
        await client.aclose()


def _assert_ordered(response: Any) -> None:
    wire = response.wire
    assert wire is not None
    assert 0.0 <= wire.sent_ms <= wire.first_byte_ms <= wire.last_byte_ms <= wire.total_ms
    assert response.llm_ms == pytest.approx(wire.last_byte_ms - wire.sent_ms)
    assert response.client_ms is not None and response.client_ms >= 0.0
    assert response.llm_ms <= wire.total_ms
    assert response.client_ms == pytest.approx(wire.total_ms - response.llm_ms)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_a_streamed_call_carries_ordered_wire_stamps(
    server: MockLLMServer, provider: str
) -> None:
    server.script("m", [say("Hello there!")])
    response = await _complete(make_client(_resolved(server, provider)))
    assert response.content == "Hello there!"
    _assert_ordered(response)
    # ttft counts from the request sent, and the first content comes before the last byte
    assert response.ttft_ms is not None
    assert response.wire.sent_ms + response.ttft_ms <= response.wire.total_ms


async def test_a_whole_answer_carries_wire_stamps_and_no_ttft(server: MockLLMServer) -> None:
    server.script("m", [reply(tool_calls=[call("lookup", order_id="A1")])])
    client = OpenAIChatClient(_resolved(server, "openai", stream=False))
    response = await _complete(client)
    assert [c.name for c in response.tool_calls] == ["lookup"]
    _assert_ordered(response)
    assert response.ttft_ms is None


async def test_a_callers_own_http_client_is_not_stamped(server: MockLLMServer) -> None:
    server.script("m", [say("Hi")])
    async with httpx2.AsyncClient() as http:
        client = OpenAIChatClient(_resolved(server, "openai"), http_client=http)
        response = await client.complete(HI)
    assert response.content == "Hi"
    assert response.wire is None and response.client_ms is None
    assert response.llm_ms > 0


async def test_the_transport_stamps_only_requests_inside_a_recording(
    server: MockLLMServer,
) -> None:
    transport = WireTransport(httpx2.AsyncHTTPTransport())
    async with httpx2.AsyncClient(transport=transport) as http:
        outside = WireStamps()
        await http.get(server.url + "/health")
        assert outside == WireStamps()  # nothing recorded outside a block
        inside = WireStamps()
        with recording(inside):
            (await http.get(server.url + "/health")).raise_for_status()
        assert inside.complete
        assert inside.sent is not None and inside.last_byte is not None


def test_incomplete_or_disordered_stamps_are_not_complete() -> None:
    assert WireStamps(1.0, 2.0, 3.0).complete
    assert not WireStamps(1.0, None, 3.0).complete
    assert not WireStamps(2.0, 1.0, 3.0).complete


def test_the_response_cache_keeps_no_wire_timings(tmp_path: Any) -> None:
    from supportsim.llm import LLMResponse, ResponseCache, WireTiming

    config = parse_model_spec("openai:m", {})
    stamped = LLMResponse(
        content="Hi",
        tool_calls=(),
        reasoning=None,
        reasoning_signature=None,
        stop_reason="stop",
        input_tokens=1,
        output_tokens=1,
        cost_usd=None,
        llm_ms=10.0,
        ttft_ms=5.0,
        model="m",
        client_ms=2.0,
        wire=WireTiming(sent_ms=1.0, first_byte_ms=4.0, last_byte_ms=11.0, total_ms=12.0),
    )
    cache = ResponseCache(tmp_path)
    cache.put(config, HI, stamped)
    hit = cache.get(config, HI)
    assert hit is not None and hit.content == "Hi" and hit.cached
    assert hit.wire is None and hit.client_ms is None


def test_a_proxy_variable_keeps_the_sdks_own_client_so_the_proxy_is_used(
    monkeypatch: pytest.MonkeyPatch,
):
    import httpx2
    from openai import DefaultAsyncHttpxClient

    from supportsim.llm._wire import WireTransport, wire_client

    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    plain = wire_client(DefaultAsyncHttpxClient, verify=True, limits=httpx2.Limits())
    assert isinstance(plain._transport, WireTransport)  # no proxy: stamped at the wire
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
    proxied = wire_client(DefaultAsyncHttpxClient, verify=True, limits=httpx2.Limits())
    assert not isinstance(proxied._transport, WireTransport)
    assert proxied._mounts  # the proxy variables were read: calls go through the proxy


async def test_the_injected_latency_counts_from_the_whole_request_as_a_providers_does(
    server: MockLLMServer,
) -> None:
    """A client that lags between writing a request's head and its body (its loop busy
    elsewhere) must not see the reply sooner than the injected latency: a provider cannot
    start before the whole request is in, and neither does the mock server's clock."""
    server.script("late-body", [say("Hi", ttft_ms=30, total_ms=30)])
    server.script("m", [say("Hello", ttft_ms=40, total_ms=40)])
    host, port = server.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    body = orjson.dumps({"model": "late-body", "messages": [{"role": "user", "content": "Hi"}]})
    writer.write(
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    await writer.drain()
    # The gap between head and body: a whole 40 ms call (the server's latency control).
    gap = await _complete(make_client(_resolved(server, "openai")))
    assert gap.content == "Hello"
    sent = time.perf_counter()
    writer.write(body)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    waited_ms = (time.perf_counter() - sent) * 1000.0
    writer.close()
    assert head.startswith(b"HTTP/1.1 200")
    assert waited_ms >= 30.0  # a lower bound: a busy machine only ever adds to it


def _chunked(*chunks: bytes) -> httpx2.MockTransport:
    async def body() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk

    async def handle(request: httpx2.Request) -> httpx2.Response:
        async for _part in request.stream:  # type: ignore[union-attr]  # sent, as a socket
            pass
        return httpx2.Response(200, content=body())

    return httpx2.MockTransport(handle)


async def test_the_last_byte_is_stamped_when_it_came_in_not_when_the_reader_was_done() -> None:
    """Parsing a chunk is the client's work: the stamp is taken as the chunk arrives, so
    the reader's work on the last one falls after ``last_byte`` (in ``client_ms``)."""
    transport = WireTransport(_chunked(b"data: 1\n\n", b"data: 2\n\n"))
    stamps = WireStamps()
    async with httpx2.AsyncClient(transport=transport) as http:
        with recording(stamps):
            async with http.stream("POST", "http://mock/", content=b"{}") as response:
                parsed = []
                async for _chunk in response.aiter_raw():
                    parsed.append(time.perf_counter())  # the reader's work on it ends here
    assert stamps.complete and len(parsed) == 2
    assert stamps.last_byte is not None and stamps.last_byte <= parsed[-1]


async def test_time_to_first_token_stops_when_its_chunk_came_in() -> None:
    from supportsim.llm._timing import Stopwatch

    watch = Stopwatch()
    async with httpx2.AsyncClient(transport=WireTransport(_chunked(b"a", b"b"))) as http:
        with recording(watch.wire):
            async with http.stream("POST", "http://mock/", content=b"{}") as response:
                async for _chunk in response.aiter_raw():
                    parsed = time.perf_counter()  # the chunk is read as carrying content
                    watch.mark_first()
                    break
    times = watch.stop()
    assert times.ttft_ms is not None and times.wire is not None
    assert watch.wire.sent is not None
    assert times.ttft_ms <= (parsed - watch.wire.sent) * 1000.0
