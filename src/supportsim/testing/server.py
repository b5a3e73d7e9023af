"""A loopback mock LLM server speaking the OpenAI Chat Completions and Anthropic Messages APIs.

Tests and benchmarks point the real ``openai.AsyncOpenAI`` (``base_url=server.url + "/v1"``)
and ``anthropic.AsyncAnthropic`` (``base_url=server.url``) clients at it, so the code under
test exercises real HTTP, real SSE parsing and real SDK error mapping, with replies and
latency chosen by the test. Replies are queued per ``model`` name (FIFO); when a model's
queue is empty a default responder answers, and with neither the server answers HTTP 400 in
the provider's error shape so a missing script fails loudly instead of hanging.

Routes: ``POST /v1/chat/completions`` (also ``/chat/completions``), ``POST /v1/messages``,
``GET /v1/models`` and ``GET /health``. Every completion request is recorded as a
:class:`RecordedRequest` without its ``authorization``/``x-api-key``/``api-key`` headers.

Timing: a reply's ``ttft_ms``/``total_ms`` (else its model's
:meth:`MockLLMServer.model_latency`, else the server-wide :meth:`MockLLMServer.latency`)
count from when the whole request has arrived (its body read), as a provider's do. A stream
sends its headers, preamble and first content delta together at ``ttft_ms`` and spreads the
remaining frames evenly so the last lands at ``total_ms``; a non-streamed answer (or error)
is sent whole at ``max(ttft_ms, total_ms)``. Deadlines are absolute, so one late timer does
not shift the rest. The server shares the caller's event loop (unless started in a thread):
CPU-heavy client work, such as the SDKs' lazy imports on their first call, delays it too,
so latency tests should warm up first.

A scripted model whose queue runs dry is answered by the default responder from then on;
the server notes it once per model (:meth:`MockLLMServer.scripts_ended`, and the
``on_script_end`` callback), so a latency profile that outlives its script is not read
as the provider's.

State is guarded by a lock, so a server started with :meth:`MockLLMServer.start_in_thread`
can be scripted and inspected from the main thread while its own loop serves requests.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import orjson
from aiohttp import web

from supportsim.testing import _anthropic_wire, _openai_wire
from supportsim.testing._http import Api, abort, error_body, json_response, request_ids
from supportsim.testing._wire_common import StreamPlan, WireContext
from supportsim.testing.replies import Reply

Responder = Callable[["RecordedRequest"], Reply]

__all__ = ["Api", "MockLLMServer", "RecordedRequest", "Responder"]

_SECRET_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "proxy-authorization"})


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One completion request as the server received it, minus credentials.

    Attributes:
        api: Which wire protocol the request used.
        path: URL path, e.g. ``/v1/chat/completions``.
        model: The request's ``model`` field ("" when absent).
        stream: Whether the client asked for a streamed answer.
        body: The parsed JSON body.
        text: The raw body text, so tests can assert a secret never reached the provider.
        headers: Lower-cased headers with authentication headers removed.
        received_s: ``time.monotonic()`` when the whole request had arrived (the injected
            latency counts from then).
    """

    api: Api
    path: str
    model: str
    stream: bool
    body: dict[str, Any]
    text: str
    headers: dict[str, str]
    received_s: float


def schema_problem(body: dict[str, Any], text: str) -> str | None:
    """Why ``text`` does not fit the request's ``response_format`` JSON schema, or None
    (also None when the request asked for no schema)."""
    import jsonschema

    fmt = body.get("response_format")
    if not isinstance(fmt, dict) or fmt.get("type") != "json_schema":
        return None
    schema = (fmt.get("json_schema") or {}).get("schema")
    if not isinstance(schema, dict):
        return "mock server: response_format json_schema has no schema"
    try:
        jsonschema.validate(orjson.loads(text), schema)
    except jsonschema.ValidationError as exc:
        return f"mock server: scripted reply does not fit response_format: {exc.message}"
    return None


class _Stopping(Exception):
    """Raised inside a handler when the server stops while the handler is waiting."""


class MockLLMServer:
    """The mock server; see the module docstring for what it serves and why."""

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, streams: bool = True) -> None:
        """``streams=False``: answer every request whole (JSON), even one asking for a
        stream, as many self-hosted OpenAI-compatible agent services do."""
        self._host = host
        self._port = port
        self._streams = streams
        self._lock = threading.Lock()
        self._queues: dict[str, deque[Reply]] = {}
        self._defaults: dict[str | None, Responder] = {}
        self._requests: list[RecordedRequest] = []
        self._ttft_ms = 0.0
        self._total_ms = 0.0
        self._model_latency: dict[str, tuple[float, float]] = {}
        self._served: dict[str, int] = {}
        self._ended: dict[str, int] = {}
        self.on_script_end: Callable[[str, int], None] | None = None
        """Called (outside the lock) with a model and how many scripted replies it had, the
        first time a request for that model finds its script used up."""
        self._runner: web.AppRunner | None = None
        self._stopped: asyncio.Future[None] | None = None
        self._thread: threading.Thread | None = None
        self._thread_loop: asyncio.AbstractEventLoop | None = None
        self.url = ""

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind and serve in the running event loop; ``url`` is valid afterwards."""
        if self._runner is not None:
            raise RuntimeError("mock server already started")
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._openai)
        app.router.add_post("/chat/completions", self._openai)
        app.router.add_post("/v1/messages", self._anthropic)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/health", self._health)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self._host, self._port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._stopped = asyncio.get_running_loop().create_future()
        host, port = runner.addresses[0][:2]
        self.url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    async def stop(self) -> None:
        """Stop serving; hung and delayed responses are cut so this returns promptly."""
        if self._runner is None:
            return
        if self._stopped is not None and not self._stopped.done():
            self._stopped.set_result(None)
        runner, self._runner = self._runner, None
        await runner.cleanup()

    async def __aenter__(self) -> MockLLMServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    def start_in_thread(self) -> None:
        """Serve from a daemon thread with its own loop, for synchronous callers."""
        if self._thread is not None:
            raise RuntimeError("mock server thread already running")
        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self.start())
            except BaseException as exc:
                failure.append(exc)
                loop.close()
                ready.set()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        thread = threading.Thread(target=run, name="supportsim-mock-llm", daemon=True)
        thread.start()
        ready.wait()
        if failure:
            thread.join()
            raise failure[0]
        self._thread, self._thread_loop = thread, loop

    def stop_thread(self, timeout_s: float = 10.0) -> None:
        """Stop a server started with :meth:`start_in_thread` and join its thread."""
        thread, loop = self._thread, self._thread_loop
        if thread is None or loop is None:
            return
        asyncio.run_coroutine_threadsafe(self.stop(), loop).result(timeout_s)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout_s)
        self._thread = self._thread_loop = None

    # -- scripting (thread-safe) -----------------------------------------------------------

    def script(self, model: str, replies: Iterable[Reply]) -> None:
        """Append replies to ``model``'s FIFO queue; each request pops one."""
        items = list(replies)
        with self._lock:
            self._queues.setdefault(model, deque()).extend(items)

    def default(self, model: str | None, responder: Responder) -> None:
        """Answer ``model`` (None: any model) with ``responder`` when its queue is empty."""
        with self._lock:
            self._defaults[model] = responder

    def latency(self, *, ttft_ms: float = 0, total_ms: float = 0) -> None:
        """Server-wide timing for replies that set none (e.g. to mimic a slow provider)."""
        with self._lock:
            self._ttft_ms, self._total_ms = float(ttft_ms), float(total_ms)

    def model_latency(self, model: str, *, ttft_ms: float = 0, total_ms: float = 0) -> None:
        """Timing for ``model``'s replies that set none (scripted or default): overrides the
        server-wide :meth:`latency` for that model, as a slower provider model would."""
        with self._lock:
            self._model_latency[model] = (float(ttft_ms), float(total_ms))

    def scripts_ended(self) -> dict[str, int]:
        """Models whose script ran out (a request found the queue empty), with how many
        scripted replies each had served by then."""
        with self._lock:
            return dict(self._ended)

    def requests(self, model: str | None = None, api: Api | None = None) -> list[RecordedRequest]:
        """Recorded requests in arrival order, optionally filtered by model and API."""
        with self._lock:
            return [
                r
                for r in self._requests
                if (model is None or r.model == model) and (api is None or r.api == api)
            ]

    def pending(self, model: str) -> int:
        """How many scripted replies ``model`` has not consumed yet."""
        with self._lock:
            return len(self._queues.get(model, ()))

    def clear(self) -> None:
        """Forget scripts, default responders, latency and recorded requests."""
        with self._lock:
            self._queues.clear()
            self._defaults.clear()
            self._requests.clear()
            self._model_latency.clear()
            self._served.clear()
            self._ended.clear()
            self._ttft_ms = self._total_ms = 0.0

    def _next_reply(self, request: RecordedRequest) -> Reply | None:
        """Record ``request`` and pick its reply: queue, then model default, then any default."""
        ended: int | None = None
        with self._lock:
            self._requests.append(request)
            queue = self._queues.get(request.model)
            if queue:
                self._served[request.model] = self._served.get(request.model, 0) + 1
                return queue.popleft()
            if queue is not None and request.model not in self._ended:
                ended = self._ended[request.model] = self._served.get(request.model, 0)
            responder = self._defaults.get(request.model) or self._defaults.get(None)
            notify = self.on_script_end
        # Called outside the lock so a callback or responder may script or inspect the server.
        if ended is not None and notify is not None:
            notify(request.model, ended)
        return responder(request) if responder is not None else None

    def _timing(self, model: str, reply: Reply) -> tuple[float, float]:
        """(ttft_ms, total_ms) of a reply: its own, else its model's, else the server's."""
        with self._lock:
            ttft_ms, total_ms = self._model_latency.get(model, (self._ttft_ms, self._total_ms))
        return (
            ttft_ms if reply.ttft_ms is None else reply.ttft_ms,
            total_ms if reply.total_ms is None else reply.total_ms,
        )

    # -- HTTP handlers ---------------------------------------------------------------------

    async def _health(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def _models(self, _request: web.Request) -> web.Response:
        """One listing both SDKs can parse (OpenAI ``object``/``data``, Anthropic paging)."""
        with self._lock:
            names = sorted({*self._queues, *(m for m in self._defaults if m is not None)})
        data = [
            {
                "id": name,
                "object": "model",
                "type": "model",
                "created": 0,
                "created_at": "1970-01-01T00:00:00Z",
                "display_name": name,
                "owned_by": "supportsim-mock",
            }
            for name in names
        ]
        first, last = (names[0], names[-1]) if names else (None, None)
        listing = {"object": "list", "data": data, "has_more": False}
        return json_response(200, {**listing, "first_id": first, "last_id": last})

    async def _openai(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, "openai")

    async def _anthropic(self, request: web.Request) -> web.StreamResponse:
        return await self._handle(request, "anthropic")

    async def _handle(self, request: web.Request, api: Api) -> web.StreamResponse:
        raw = await request.read()
        # The injected latency counts from here, the whole request in: a provider cannot
        # start before it has the body, and a client whose loop lags between writing the
        # head and the body must not see a reply sooner than the latency it injected.
        start = asyncio.get_running_loop().time()
        text = raw.decode("utf-8", errors="replace")
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            return json_response(
                400, error_body(api, 400, "mock server: request body is not a JSON object")
            )
        recorded = RecordedRequest(
            api=api,
            path=request.path,
            model=str(body.get("model", "")),
            stream=bool(body.get("stream", False)),
            body=body,
            text=text,
            headers={
                k.lower(): v for k, v in request.headers.items() if k.lower() not in _SECRET_HEADERS
            },
            received_s=time.monotonic(),
        )
        reply = self._next_reply(recorded)
        if reply is None:
            message = f"mock server: no scripted reply for model {recorded.model}"
            return json_response(400, error_body(api, 400, message))
        try:
            return await self._respond(request, recorded, reply, start)
        except (_Stopping, ConnectionError):
            # Server stopping, or the client went away mid-response (timeout, early close):
            # drop the connection; aiohttp ignores the placeholder it cannot write.
            abort(request)
            return web.Response(status=503)

    async def _respond(
        self, request: web.Request, recorded: RecordedRequest, reply: Reply, start: float
    ) -> web.StreamResponse:
        """Send ``reply`` on the schedule its timing (or the server default) asks for."""
        ttft_ms, total_ms = self._timing(recorded.model, reply)
        ttft_at = start + ttft_ms / 1000
        end_at = max(ttft_at, start + total_ms / 1000)
        if reply.kind == "hang":
            await self._wait_until(float("inf"))
        if reply.kind == "error":
            await self._wait_until(end_at)
            return json_response(
                reply.status, error_body(recorded.api, reply.status, reply.message), reply
            )
        ctx = WireContext(
            model=recorded.model,
            input_tokens=len(recorded.text) // 4
            if reply.input_tokens is None
            else reply.input_tokens,
            output_tokens=reply.estimated_output_tokens(),
            include_usage=bool((recorded.body.get("stream_options") or {}).get("include_usage")),
            cached_input_tokens=reply.cached_input_tokens,
            cache_write_tokens=reply.cache_write_tokens,
        )
        if reply.structured and (problem := schema_problem(recorded.body, reply.text)):
            await self._wait_until(end_at)
            return json_response(400, error_body(recorded.api, 400, problem))
        complete = reply.kind != "truncated"
        if not recorded.stream or not self._streams:
            payload = orjson.dumps(
                _openai_wire.completion(reply, ctx)
                if recorded.api == "openai"
                else _anthropic_wire.message(reply, ctx)
            )
            await self._wait_until(end_at if complete else ttft_at)
            if complete:
                return web.Response(
                    body=payload, content_type="application/json", headers=request_ids()
                )
            response = web.StreamResponse(headers=request_ids())
            response.content_type = "application/json"
            response.content_length = len(payload)
            await response.prepare(request)
            await response.write(payload[: len(payload) // 2])
            abort(request)
            return response
        render = (
            _openai_wire.stream_plan if recorded.api == "openai" else _anthropic_wire.stream_plan
        )
        plan = render(reply, ctx, complete=complete)
        return await self._stream(request, plan, ttft_at, end_at, complete)

    async def _stream(
        self,
        request: web.Request,
        plan: StreamPlan,
        ttft_at: float,
        end_at: float,
        complete: bool,
    ) -> web.StreamResponse:
        """Write the head at TTFT, spread the rest evenly until the end, then finish or cut."""
        await self._wait_until(ttft_at)
        headers = {
            **request_ids(),
            "Cache-Control": "no-cache",
            "Content-Type": "text/event-stream",
        }
        response = web.StreamResponse(headers=headers)
        await response.prepare(request)
        await response.write(b"".join(plan.head))
        count = len(plan.rest)
        for index, frame in enumerate(plan.rest, start=1):
            await self._wait_until(ttft_at + (end_at - ttft_at) * index / count)
            await response.write(frame)
        if complete:
            await response.write_eof()
        else:
            abort(request)
        return response

    async def _wait_until(self, deadline: float) -> None:
        """Sleep until ``deadline`` (loop time) unless the server stops first."""
        stopped = self._stopped
        assert stopped is not None, "handler running on a server that never started"
        delay = deadline - asyncio.get_running_loop().time()
        if stopped.done():
            raise _Stopping
        if delay <= 0:
            return
        await asyncio.wait([stopped], timeout=None if delay == float("inf") else delay)
        if stopped.done():
            raise _Stopping
