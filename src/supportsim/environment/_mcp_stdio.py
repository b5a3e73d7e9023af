"""``supportsim mcp-stdio``: a conversation's tools for an agent that spawns its tool
server over stdio.

The Environment lives in the supportsim process, so this is a proxy: an MCP server on
stdin/stdout whose ``tools/list`` and ``tools/call`` are forwarded, unchanged (the
request's ``_meta`` included), to the conversation's session URL over streamable HTTP.
Every call therefore still lands in that conversation's call log, faults and latency
included. Nothing but MCP messages is written to stdout.

The URL's token is the conversation's only key, so the bridge takes it from its
environment (``MCP_URL_ENV``), never from its command line, which any local user can read
(``ps``, ``/proc/<pid>/cmdline``); a process's environment only its owner can.
"""

from __future__ import annotations

from typing import Any

from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

MCP_URL_ENV = "SUPPORTSIM_MCP_URL"
"""The variable the bridge reads the conversation's session URL from."""


class BridgeError(Exception):
    """The session URL could not be reached (closed, unknown, or no host on it)."""


async def serve_stdio_bridge(url: str) -> None:
    """Serve stdio until the client closes it; the upstream session lives as long."""
    try:
        async with (
            streamable_http_client(url) as (read, write, _session_id),
            ClientSession(read, write) as upstream,
        ):
            await upstream.initialize()
            server = _proxy(upstream)
            async with stdio_server() as (stdin, stdout):
                await server.run(stdin, stdout, server.create_initialization_options())
    except Exception as exc:  # an ExceptionGroup from the SDK's task groups, mostly
        leaves = _leaves(exc)
        why = "; ".join(f"{type(e).__name__}: {e}" for e in leaves).replace(url, "the URL")
        raise BridgeError(f"cannot serve the conversation's tools: {why}") from None


def _proxy(upstream: ClientSession) -> Server[Any, Any]:
    server: Server[Any, Any] = Server("supportsim-stdio")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return (await upstream.list_tools()).tools

    async def call_tool(request: types.CallToolRequest) -> types.ServerResult:
        params = request.params
        meta = params.meta.model_dump(exclude_none=True) if params.meta is not None else None
        result = await upstream.call_tool(params.name, params.arguments, meta=meta)
        return types.ServerResult(result)

    # Not the call_tool decorator: it would validate arguments against the schema and
    # reword what the runtime answers (see environment/_mcp.py).
    server.request_handlers[types.CallToolRequest] = call_tool
    return server


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for e in exc.exceptions for leaf in _leaves(e)]
    return [exc]
