"""``supportsim mcp-stdio``: the real ``mcp`` stdio client spawns the bridge (the session URL
in its environment), and every call lands in the conversation's own call log exactly as
in-process."""

from __future__ import annotations

import asyncio
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client
from test_mcp_host import CALLS, FAULTS, text_of
from test_runtime import VERIFY, env_for

from supportsim.environment import MCP_URL_ENV, McpHost


def bridge(url: str | None, *, argument: str | None = None) -> StdioServerParameters:
    """The bridge with ``url`` in its environment (``argument``: on its command line)."""
    env = get_default_environment()
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    if url is not None:
        env[MCP_URL_ENV] = url
    args = ["-m", "supportsim", "mcp-stdio", *([argument] if argument else [])]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


async def test_the_stdio_bridge_answers_exactly_as_the_environment() -> None:
    local, local_time = env_for(FAULTS)
    expected = [await local.call(name, raw, f"c{i}") for i, (name, raw) in enumerate(CALLS)]
    remote, remote_time = env_for(FAULTS)
    async with McpHost() as host:
        url = host.open(remote)
        async with stdio_client(bridge(url)) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            listed = (await s.list_tools()).tools
            answers = [
                await s.call_tool(
                    name,
                    None,
                    meta={McpHost.CALL_ID_META: f"c{i}", McpHost.RAW_ARGUMENTS_META: raw},
                )
                for i, (name, raw) in enumerate(CALLS)
            ]
            plain = await s.call_tool("verify_identity", {**VERIFY, "pin": 4321})
    assert [(t.name, t.description, t.inputSchema) for t in listed] == [
        (x.name, x.description, x.parameters) for x in remote.schemas()
    ]
    assert [(text_of(a), a.isError) for a in answers] == [(r.content, r.is_error) for r in expected]
    assert remote.calls[: len(CALLS)] == local.calls
    assert remote_time.slept == local_time.slept
    assert (plain.isError, text_of(plain)) == (
        True,
        '{"error":"invalid arguments: pin: Input should be a valid string"}',
    )


async def run_bridge(url: str | None, *, argument: str | None = None) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *[(p := bridge(url, argument=argument)).command, *p.args],
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=p.env,
    )
    _, stderr = await process.communicate(b"")
    return process.returncode or 0, stderr.decode()


async def test_a_closed_session_url_exits_2_without_printing_its_token() -> None:
    env, _ = env_for()
    async with McpHost() as host:
        url = host.open(env)
        host.close(url)
        code, stderr = await run_bridge(url)
    token = url.split("/")[-2]
    assert code == 2
    assert "cannot serve the conversation's tools" in stderr
    assert token not in stderr
    assert "Traceback" not in stderr


async def test_a_url_that_is_not_http_exits_2() -> None:
    code, stderr = await run_bridge("stdio://nothing")
    assert code == 2
    assert "URL must be an http:// session URL" in stderr
    code, stderr = await run_bridge(None, argument="stdio://nothing")  # typed by hand
    assert code == 2
    assert "URL must be an http:// session URL" in stderr


async def test_no_url_at_all_exits_2_naming_the_variable() -> None:
    code, stderr = await run_bridge(None)
    assert code == 2
    assert f"no session URL: set {MCP_URL_ENV}" in stderr


async def test_a_url_given_by_hand_still_serves() -> None:
    env, _ = env_for()
    async with McpHost() as host:
        url = host.open(env)
        params = bridge(None, argument=url)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            listed = (await s.list_tools()).tools
    assert [t.name for t in listed] == [x.name for x in env.schemas()]
