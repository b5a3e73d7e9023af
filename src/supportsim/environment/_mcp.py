"""Each conversation's Environment served as an MCP server (streamable HTTP, loopback).

One ``McpHost`` per run serves every conversation of the run from one uvicorn server in
the run's own event loop. ``open(env)`` gives a conversation its own URL
(``http://127.0.0.1:P/c/<token>/mcp``, the token unguessable) with its own lowlevel MCP
``Server`` and session manager, so tool lists are the conversation's and two
conversations never see each other. ``close(url)`` ends the conversation's sessions;
the URL then answers 404.

``tools/list`` is exactly ``Environment.schemas()`` and ``tools/call`` is
``Environment.call``: the same code path as in-process, so names, schemas, results, error
texts, injected faults, simulated latency and the call log are identical. The SDK's
``call_tool`` decorator is not used: it would validate arguments against the schema
(rewording what our runtime answers) and turn a bug in a tool into tool text, where
in-process it is a harness error. A bug is kept instead (``failure(url)``) and the
conversation raises it.

Our own client (``conversation/_mcp_tools.py``) sends the model's call id and its raw
argument text in the request's ``_meta``, so malformed JSON gets the runtime's own error
and the call log is byte for byte the in-process one; other clients send arguments only.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
import socket
from dataclasses import dataclass, field
from typing import Any

import anyio
import uvicorn
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from supportsim.environment._runtime import Environment

CALL_ID_META = "supportsim/call_id"
"""``_meta`` key of a tools/call request: the model's tool call id, for the call log."""
RAW_ARGUMENTS_META = "supportsim/raw_arguments"
"""``_meta`` key of a tools/call request: the model's argument text, parsed by the runtime."""
INTERNAL_ERROR_TEXT = "internal error in the tool runtime"

_ASGI = dict[str, Any]


class _TeardownNoise(logging.Filter):
    """Drops the SDK's "Error in standalone SSE writer" when it is only the client's DELETE
    closing the session's GET stream, which happens at the end of every conversation (the
    SDK's own ``logging.debug`` calls configure the root logger, so it would reach stderr)."""

    def filter(self, record: logging.LogRecord) -> bool:
        closed = record.exc_info is not None and isinstance(
            record.exc_info[1], anyio.ClosedResourceError
        )
        return not (closed and record.getMessage() == "Error in standalone SSE writer")


logging.getLogger("mcp.server.streamable_http").addFilter(_TeardownNoise())


@dataclass(eq=False)
class _Conversation:
    """One open session URL: its Environment and its MCP server."""

    env: Environment
    manager: StreamableHTTPSessionManager
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    failure: BaseException | None = None
    context: contextvars.Context = field(default_factory=contextvars.copy_context)
    """The opening conversation's context: its calls run in it (tracing, its deadline)
    although they arrive on uvicorn's request tasks."""


class _Uvicorn(uvicorn.Server):
    """uvicorn without its signal handlers: Ctrl-C belongs to the run, not the host."""

    @contextlib.contextmanager
    def capture_signals(self) -> Any:
        yield


class McpHost:
    """The run's MCP host: ``async with McpHost() as host: url = host.open(env)``."""

    CALL_ID_META = CALL_ID_META
    RAW_ARGUMENTS_META = RAW_ARGUMENTS_META

    def __init__(self) -> None:
        self._conversations: dict[str, _Conversation] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: _Uvicorn | None = None
        self._serving: asyncio.Task[None] | None = None
        self.port = 0

    async def __aenter__(self) -> McpHost:
        # Bound and listening before uvicorn starts: the port is known at once, and a
        # client connecting early waits in the backlog instead of being refused. The
        # explicit IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets whose
        # proto says TCP, and without it every call waits ~40 ms on a delayed ACK.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self._asgi,
            interface="asgi3",
            lifespan="off",
            log_config=None,
            log_level="warning",
            access_log=False,  # request lines carry the session tokens
            timeout_graceful_shutdown=1,
        )
        self._server = _Uvicorn(config)
        self._serving = asyncio.create_task(self._server.serve(sockets=[sock]))
        return self

    async def __aexit__(self, *exc: object) -> None:
        for url in [self._url(t) for t in self._conversations]:
            self.close(url)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None and self._serving is not None:
            self._server.should_exit = True
            with contextlib.suppress(Exception):
                await self._serving

    def open(self, env: Environment) -> str:
        """Serve ``env`` at a new session URL, until ``close(url)``."""
        if self._serving is None:
            raise RuntimeError("McpHost.open before async with McpHost()")
        token = secrets.token_urlsafe(24)
        security = TransportSecuritySettings(
            allowed_hosts=[f"127.0.0.1:{self.port}", f"localhost:{self.port}"],
            allowed_origins=[f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}"],
        )
        manager = StreamableHTTPSessionManager(
            _server_for(self, token, env),
            json_response=True,  # one JSON answer per call: no SSE stream to hold open
            security_settings=security,
            session_idle_timeout=None,  # the conversation's end closes it
        )
        conversation = _Conversation(env, manager)
        self._conversations[token] = conversation
        task = asyncio.create_task(_run_manager(conversation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return self._url(token)

    def close(self, url: str) -> None:
        """Stop serving the conversation at ``url`` (unknown URLs are ignored)."""
        conversation = self._conversations.pop(_token(url), None)
        if conversation is not None:
            conversation.done.set()

    def failure(self, url: str) -> BaseException | None:
        """The exception a tool raised (a bug, not a refusal) on ``url``'s Environment."""
        conversation = self._conversations.get(_token(url))
        return conversation.failure if conversation is not None else None

    def _url(self, token: str) -> str:
        return f"http://127.0.0.1:{self.port}/c/{token}/mcp"

    def _conversation(self, token: str) -> _Conversation | None:
        return self._conversations.get(token)

    async def _asgi(self, scope: _ASGI, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        parts = scope["path"].split("/")  # "", "c", token, "mcp"
        conversation = None
        if len(parts) == 4 and parts[1] == "c" and parts[3] == "mcp":
            conversation = self._conversations.get(parts[2])
        if conversation is None:
            await _not_found(send)
            return
        await conversation.ready.wait()
        await conversation.manager.handle_request(scope, receive, send)


async def _run_manager(conversation: _Conversation) -> None:
    try:
        async with conversation.manager.run():
            conversation.ready.set()
            await conversation.done.wait()
    finally:
        conversation.ready.set()  # never leave a request waiting on a manager that failed


def _server_for(host: McpHost, token: str, env: Environment) -> Server[Any, Any]:
    server: Server[Any, Any] = Server("supportsim")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(name=s.name, description=s.description, inputSchema=s.parameters)
            for s in env.schemas()
        ]

    async def call_tool(request: types.CallToolRequest) -> types.ServerResult:
        conversation = host._conversation(token)
        if conversation is None:  # closed while the request was in flight
            return _result(INTERNAL_ERROR_TEXT, True)
        params = request.params
        extra = (params.meta.model_extra if params.meta is not None else None) or {}
        raw = extra.get(RAW_ARGUMENTS_META)
        call_id = extra.get(CALL_ID_META)
        arguments: str | dict[str, Any] = raw if isinstance(raw, str) else params.arguments or {}
        async with conversation.lock:  # calls run one at a time, in arrival order
            try:
                call = env.call(params.name, arguments, call_id if isinstance(call_id, str) else "")
                # In the conversation's own context, as an in-process call would run.
                result = await asyncio.create_task(call, context=conversation.context.copy())
            except Exception as exc:  # a bug in a tool: the conversation's harness error
                if conversation.failure is None:
                    conversation.failure = exc
                return _result(INTERNAL_ERROR_TEXT, True)
        return _result(result.content, result.is_error)

    server.request_handlers[types.CallToolRequest] = call_tool
    return server


def _result(text: str, is_error: bool) -> types.ServerResult:
    return types.ServerResult(
        types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=is_error)
    )


def _token(url: str) -> str:
    parts = url.rstrip("/").split("/")
    return parts[-2] if len(parts) >= 2 else ""


async def _not_found(send: Any) -> None:
    body = b'{"error": "no such conversation"}'
    await send(
        {
            "type": "http.response.start",
            "status": 404,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
