"""The MCP host: a conversation's Environment over streamable HTTP, with the real client.

Whatever is asked over MCP must be answered exactly as ``Environment.call`` answers it
in-process: the same tool list, texts, errors, faults, simulated latency and call log.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError
from test_runtime import C1, COUNTER, VERIFY, counter_scenario, env_for, scenario

from supportsim.environment import Environment, McpHost
from supportsim.environment._mcp import CALL_ID_META, INTERNAL_ERROR_TEXT, RAW_ARGUMENTS_META


@asynccontextmanager
async def client(url: str) -> AsyncIterator[ClientSession]:
    async with (
        streamable_http_client(url) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content)


# Every kind of answer the runtime gives: success, unknown tool, malformed JSON, invalid
# arguments, a refusal, a write, an injected failure, a stale read, simulated latency.
CALLS: list[tuple[str, str]] = [
    ("get_customer", '{"customer_id": "C-1"}'),
    ("refund_everything", "{}"),
    ("verify_identity", '{"customer_id": "C-1", "pin": '),
    ("verify_identity", '["C-1"]'),
    ("verify_identity", '{"customer_id": "C-1", "pin": 4321, "extra": 1}'),
    ("refund_charge", '{"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}'),
    ("verify_identity", '{"customer_id": "C-1", "pin": "4321"}'),
    ("list_charges", '{"customer_id": "C-1"}'),
    ("list_charges", '{"customer_id": "C-1"}'),
    ("update_email", '{"customer_id": "C-1", "email": "a@example.com"}'),
    ("update_email", '{"customer_id": "C-1", "email": "b@example.com"}'),
    ("get_customer", '{"customer_id": "C-1"}'),
    ("refund_charge", '{"customer_id": "C-1", "charge_id": "CH-2", "amount": 30}'),
]
FAULTS = scenario(
    tool_latency_ms={"list_charges": 250},
    faults=[
        {"tool": "list_charges", "call": 2, "fault": "timeout", "latency_ms": 1000},
        {"tool": "update_email", "call": 1, "fault": "rate_limit"},
        {"tool": "get_customer", "call": 2, "fault": "stale"},
    ],
)


async def run_over_mcp(env: Environment, calls: Sequence[tuple[str, str]]) -> list[Any]:
    async with McpHost() as host, client(host.open(env)) as session:
        return [
            await session.call_tool(
                name,
                None,
                meta={CALL_ID_META: f"c{i}", RAW_ARGUMENTS_META: raw},
            )
            for i, (name, raw) in enumerate(calls)
        ]


async def test_list_tools_is_exactly_the_environment_schemas() -> None:
    env, _ = env_for(scenario(tools=["verify_identity", "list_charges"]))
    async with McpHost() as host, client(host.open(env)) as session:
        listed = (await session.list_tools()).tools
    assert [(t.name, t.description, t.inputSchema) for t in listed] == [
        (s.name, s.description, s.parameters) for s in env.schemas()
    ]
    assert [t.name for t in listed] == ["verify_identity", "list_charges"]


async def test_every_answer_and_the_call_log_equal_the_in_process_ones() -> None:
    local, local_time = env_for(FAULTS)
    expected = [await local.call(name, raw, f"c{i}") for i, (name, raw) in enumerate(CALLS)]
    remote, remote_time = env_for(FAULTS)
    answers = await run_over_mcp(remote, CALLS)
    assert [(text_of(a), a.isError) for a in answers] == [(r.content, r.is_error) for r in expected]
    assert remote.calls == local.calls  # names, raw and parsed args, results, faults, times
    assert remote_time.slept == local_time.slept == [0.25, 1.25]
    assert remote.snapshot() == local.snapshot()
    assert {c.fault for c in remote.calls} == {None, "timeout", "rate_limit", "stale"}


async def test_a_client_sending_arguments_only_gets_the_runtimes_own_validation() -> None:
    """No ``_meta``: the arguments object is what the runtime parses; the SDK's schema
    validation is off, so the error text is ours, not jsonschema's."""
    env, _ = env_for()
    async with McpHost() as host, client(host.open(env)) as session:
        ok = await session.call_tool("verify_identity", VERIFY)
        bad = await session.call_tool("list_charges", {"customer_id": 7, "x": 1})
    assert (ok.isError, text_of(ok)) == (False, '{"verified":true,"customer_id":"C-1"}')
    assert bad.isError is True
    assert text_of(bad) == (
        '{"error":"invalid arguments: customer_id: Input should be a valid string; '
        'x: unknown argument"}'
    )
    assert [(c.call_id, c.arguments) for c in env.calls] == [
        ("", VERIFY),
        ("", {"customer_id": 7, "x": 1}),
    ]


async def test_a_bug_in_a_tool_is_kept_as_the_conversations_failure() -> None:
    env, _ = env_for(counter_scenario(), COUNTER)
    async with McpHost() as host:
        url = host.open(env)
        async with client(url) as session:
            fine = await session.call_tool("add", {"n": 1})
            assert host.failure(url) is None
            broken = await session.call_tool("crash", {})
        failure = host.failure(url)
    assert fine.isError is False
    assert (broken.isError, text_of(broken)) == (True, INTERNAL_ERROR_TEXT)
    assert isinstance(failure, RuntimeError)
    assert str(failure) == "bug in the tool"


async def test_a_closed_or_unknown_conversation_is_a_404() -> None:
    env, _ = env_for()
    async with McpHost() as host:
        url = host.open(env)
        async with client(url) as session:
            await session.call_tool("get_customer", C1)
        host.close(url)
        unknown = url.replace("/c/", "/c/x")
        async with httpx.AsyncClient() as http:
            for gone in (url, unknown, f"http://127.0.0.1:{host.port}/other"):
                response = await http.post(gone, json={"jsonrpc": "2.0", "id": 1})
                assert response.status_code == 404, gone
        with pytest.raises(BaseExceptionGroup) as caught:
            async with client(url):
                pass
        # the SDK's client reads the 404 as the end of the session
        assert caught.group_contains(McpError, match="Session terminated")
    assert len(env.calls) == 1


async def test_two_conversations_sessions_are_isolated() -> None:
    first, _ = env_for(scenario(tools=["verify_identity", "update_email"]))
    second, _ = env_for()
    async with McpHost() as host:
        url_a, url_b = host.open(first), host.open(second)
        assert url_a != url_b
        async with client(url_a) as a, client(url_b) as b:
            await a.call_tool("verify_identity", VERIFY)
            await a.call_tool("update_email", {"customer_id": "C-1", "email": "a@example.com"})
            listed_b = [t.name for t in (await b.list_tools()).tools]
            await b.call_tool("get_customer", C1)
            host.close(url_a)
            still = await b.call_tool("get_customer", C1)
    assert [c.name for c in first.calls] == ["verify_identity", "update_email"]
    assert [c.name for c in second.calls] == ["get_customer", "get_customer"]
    assert second.snapshot() == env_for()[0].snapshot()  # the first one's write is its own
    assert first.snapshot()["customers"]["C-1"]["email"] == "a@example.com"
    assert "list_charges" in listed_b
    assert still.isError is False


async def test_a_foreign_host_header_is_refused() -> None:
    """DNS rebinding: a page on another site cannot drive a conversation's tools."""
    env, _ = env_for()
    async with McpHost() as host, httpx.AsyncClient() as http:
        url = host.open(env)
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
        headers = {"accept": "application/json, text/event-stream"}
        ours = await http.post(url, json=body, headers=headers)
        foreign = await http.post(url, json=body, headers={**headers, "host": "evil.example"})
    assert ours.status_code == 200
    assert foreign.status_code in (403, 421)


async def test_each_session_url_carries_its_own_unguessable_token() -> None:
    env, _ = env_for()
    async with McpHost() as host:
        urls = [host.open(env) for _ in range(3)]
    pattern = re.compile(rf"http://127\.0\.0\.1:{host.port}/c/([A-Za-z0-9_-]{{32}})/mcp")
    tokens = [m.group(1) for u in urls if (m := pattern.fullmatch(u))]
    assert len(set(tokens)) == 3


def sdk_error(message: str, exc: BaseException) -> logging.LogRecord:
    return logging.LogRecord(
        "mcp.server.streamable_http",
        logging.ERROR,
        __file__,
        1,
        message,
        None,
        (type(exc), exc, None),
    )


def test_only_the_sdks_session_teardown_noise_is_dropped_from_its_log() -> None:
    logger = logging.getLogger("mcp.server.streamable_http")
    teardown = sdk_error("Error in standalone SSE writer", anyio.ClosedResourceError())
    assert not logger.filter(teardown)
    assert logger.filter(sdk_error("Error in standalone SSE writer", RuntimeError("real")))
    assert logger.filter(sdk_error("Error handling POST request", anyio.ClosedResourceError()))


async def test_the_server_offers_tools_only_never_the_agents_prompt() -> None:
    """Information isolation: an agent that brings its own prompt gets tools, nothing else."""
    env, _ = env_for()
    async with McpHost() as host:
        url = host.open(env)
        async with streamable_http_client(url) as (read, write, _), ClientSession(read, write) as s:
            hello = await s.initialize()
    assert hello.serverInfo.name == "supportsim"
    assert hello.instructions is None
    assert hello.capabilities.tools is not None
    assert (hello.capabilities.prompts, hello.capabilities.resources) == (None, None)
