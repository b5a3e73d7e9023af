"""The conversation's side of MCP: a session URL on the run's host and, for ``--tools
mcp``, a real MCP client session through which the Agent's tool list and every tool call
go, so the MCP path is exercised end to end on every scenario.

``inprocess``: tools are ``Environment.call`` directly (an ``McpHost``, if the run has
one, still gives the conversation a URL for Agents that bring their own MCP client).
``mcp``: an ``mcp.ClientSession`` over streamable HTTP to the conversation's URL.
``mcp-stdio``: the same through ``supportsim mcp-stdio`` spawned over stdio, as an
agent that spawns its tool server would (the URL in its environment, never on its
command line, where ``ps`` shows it to every local user).

The client session lives in a task of its own: anyio task groups (the SDK's transports)
wrap whatever crosses them in an ExceptionGroup, and the conversation's own exceptions
(a provider error, the deadline) must reach ``run_conversation`` as they are. A call
waits for its answer or for that task to end, whichever comes first, so a broken
session is an error, never a hang. Errors never carry the session URL: its token is the
conversation's only key.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import orjson
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import get_default_environment, stdio_client
from mcp.client.streamable_http import streamable_http_client

from supportsim.conversation._tools_mode import McpToolsError, ToolsMode
from supportsim.environment import MCP_URL_ENV, Environment, McpHost, ToolResult, ToolSchema
from supportsim.llm import ToolCall

CLOSE_TIMEOUT_S = 5.0
"""How long a closing client session may take (its DELETE, the stdio bridge's exit)."""

_T = TypeVar("_T")


class McpTools:
    """One conversation's MCP client session: the tool list and the tool calls."""

    def __init__(self, host: McpHost, url: str, env: Environment, mode: ToolsMode) -> None:
        self._host, self._url, self._env, self._mode = host, url, env, mode
        self._stop = asyncio.Event()
        self._session: ClientSession | None = None
        self._task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        """Open and initialise the session (McpToolsError if it cannot)."""
        opened: asyncio.Future[ClientSession] = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._hold(opened))
        self._session = await self._guarded(opened)

    async def schemas(self) -> tuple[ToolSchema, ...]:
        """The tools as the server lists them (all pages)."""
        session = self._live()
        out: list[ToolSchema] = []
        cursor: str | None = None
        while True:
            page = await self._guarded(session.list_tools(cursor=cursor))
            out.extend(ToolSchema(t.name, t.description or "", t.inputSchema) for t in page.tools)
            if not (cursor := page.nextCursor):
                return tuple(out)

    async def call(self, call: ToolCall) -> ToolResult:
        """Run ``call`` over MCP; the answer and this call's record in the call log.

        The model's raw argument text and call id travel in ``_meta`` (see
        ``environment/_mcp.py``), so a malformed call is answered as in-process."""
        raw = call.arguments if isinstance(call.arguments, str) else _dumps(call.arguments)
        before = len(self._env.calls)
        result = await self._guarded(
            self._live().call_tool(
                call.name,
                _object_or_none(raw),
                meta={McpHost.CALL_ID_META: call.id, McpHost.RAW_ARGUMENTS_META: raw},
            )
        )
        if (failure := self._host.failure(self._url)) is not None:
            raise failure  # a bug in a tool: a harness error, as in-process
        if len(self._env.calls) != before + 1:
            raise McpToolsError(f"the MCP tool call {call.name!r} left no record in the call log")
        text = "".join(c.text for c in result.content if isinstance(c, types.TextContent))
        return ToolResult(text, bool(result.isError), self._env.calls[-1])

    async def aclose(self) -> None:
        """End the session (best effort: what it answered is already in the call log);
        a session that does not end within ``CLOSE_TIMEOUT_S`` is cancelled."""
        self._stop.set()
        task = self._task
        if task is None:
            return
        await asyncio.wait({task}, timeout=CLOSE_TIMEOUT_S)
        if not task.done():
            task.cancel()
            await asyncio.wait({task})
        if not task.cancelled():
            task.exception()  # retrieved: a broken session was reported by its calls

    def _live(self) -> ClientSession:
        if self._session is None:
            raise McpToolsError("the MCP tools session is not open")
        return self._session

    async def _hold(self, opened: asyncio.Future[ClientSession]) -> None:
        async with (
            _streams(self._url, self._mode) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            opened.set_result(session)
            await self._stop.wait()

    async def _guarded(self, step: Awaitable[_T]) -> _T:
        """``step``'s result, or McpToolsError if the session's task ends first."""
        assert self._task is not None
        waiter = asyncio.ensure_future(step)
        try:
            await asyncio.wait({waiter, self._task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not waiter.done():
                waiter.cancel()
        if waiter.done() and not waiter.cancelled():
            if (error := waiter.exception()) is None:
                return waiter.result()
            raise self._broken(error) from None  # e.g. McpError: the session was ended
        task = self._task
        raise self._broken(None if task.cancelled() else task.exception()) from None

    def _broken(self, exc: BaseException | None) -> McpToolsError:
        leaves = _leaves(exc) if exc is not None else []
        why = "; ".join(f"{type(e).__name__}: {e}" for e in leaves) or "it closed"
        return McpToolsError(
            f"the {self._mode} tools session failed: {why.replace(self._url, '<session URL>')}"
        )


class McpLink:
    """A conversation's place on the run's MCP host: its URL and, unless the tools are
    in-process, the client session the built-in Agents' tools go through."""

    def __init__(self, host: McpHost, url: str, tools: McpTools | None) -> None:
        self.host, self.url, self.tools = host, url, tools

    @classmethod
    async def open(cls, host: McpHost, env: Environment, mode: ToolsMode) -> McpLink:
        url = host.open(env)
        if mode == "inprocess":
            return cls(host, url, None)
        tools = McpTools(host, url, env, mode)
        try:
            await tools.connect()
        except BaseException:
            await tools.aclose()
            host.close(url)
            raise
        return cls(host, url, tools)

    def check(self) -> None:
        """Raise the bug a tool hit over MCP, if any (calls not made through ``tools``,
        e.g. by an Agent's own MCP client, are checked here at the end)."""
        if (failure := self.host.failure(self.url)) is not None:
            raise failure

    async def aclose(self) -> None:
        if self.tools is not None:
            await self.tools.aclose()
        self.host.close(self.url)


@asynccontextmanager
async def _streams(url: str, mode: ToolsMode) -> AsyncIterator[tuple[Any, Any]]:
    if mode == "mcp-stdio":
        async with stdio_client(stdio_bridge(url)) as (read, write):
            yield read, write
    else:
        async with streamable_http_client(url) as (read, write, _session_id):
            yield read, write


def stdio_bridge(url: str) -> StdioServerParameters:
    """``python -m supportsim mcp-stdio`` with this interpreter and import path, the URL
    in its environment (``MCP_URL_ENV``)."""
    env = get_default_environment()
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env[MCP_URL_ENV] = url
    return StdioServerParameters(
        command=sys.executable, args=["-m", "supportsim", "mcp-stdio"], env=env
    )


def _object_or_none(raw: str) -> dict[str, Any] | None:
    """The arguments object for clients that read only ``arguments``; None when the text
    is not a JSON object (the runtime answers that from the raw text)."""
    try:
        value = orjson.loads(raw or "{}")
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for e in exc.exceptions for leaf in _leaves(e)]
    return [exc]
