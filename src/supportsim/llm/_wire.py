"""Wire timestamps of each provider call: request sent, first byte, last byte.

Why: under load the time measured around an SDK call includes our own work (building the
request, waiting for a pooled connection, the event loop's queue, parsing the reply), and
a latency profiler must not report its own queueing as the provider's latency. So each
call also records when its request left for the socket and when the response's head and
last chunk came in, and ``llm_ms`` is measured between those (see ``Stopwatch``).

How: ``WireTransport`` wraps the HTTP transport of the SDK's ``http_client`` (the clients
build that client themselves; a caller's own ``http_client`` is not wrapped and its calls
carry no stamps). A call opens ``recording(stamps)``; the transport finds the stamps in a
context variable (the SDK sends in the caller's task), so concurrent calls never mix.

* ``sent``: the request body's last chunk handed to the transport, which writes it to the
  socket in the same step: httpcore and anyio yield to the event loop only after the
  write, so this stamp is neither early nor late by the loop's lag. (Stamping after the
  write, or at httpcore's ``trace`` event for the body, comes after that yield: late by
  the lag, which would shorten ``llm_ms``.) Building the request, the connection wait and
  set-up, and writing the head come before it and are ``client_ms``.
* ``first_byte``: the transport returned the response head (status and headers read).
* ``last_byte``: the response body's last chunk came in from the socket, stamped before
  the reader (the SDK's SSE decoder, JSON parsing, ours) works on it; or the body was
  closed unread. Parsing the last chunk and building the reply are therefore
  ``client_ms``. A chunk's parsing delays reading the next only when that one had
  already arrived, and a socket read takes everything that has (up to 64 KiB), so what
  parsing adds to ``llm_ms`` is at most what arrives while one chunk is parsed (tens of
  µs), not the reply's parsing.

The mock server (``supportsim.testing``) starts its injected latency when the whole
request is in, as a provider must: ``sent`` precedes that, and the last byte cannot come
in before it was written, so a measured ``llm_ms`` is never below the injected latency.

Stamps are ``time.perf_counter()`` read by this process. ``first_byte`` and ``last_byte``
are taken when the event loop gets round to reading, so they are late by the loop's lag at
that moment (the run's ``measurement`` section estimates it); what the stamps remove is
the work around the request (building it, the connection wait, the SDK's steps before
sending and after the last byte). Cost: a context-variable lookup and two stream wrappers
per call; in a 2,000-call microbenchmark against the mock server, CPU per call with and
without them (about 2.2 ms) differed by 0.06 ms on average over three runs each, within the
run-to-run noise (~0.1 ms).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import httpx2

__all__ = ["WireStamps", "WireTransport", "recording"]


@dataclass(slots=True)
class WireStamps:
    """``time.perf_counter()`` stamps of one request; None until seen."""

    sent: float | None = None
    first_byte: float | None = None
    last_byte: float | None = None

    @property
    def complete(self) -> bool:
        """All three stamps taken, in order."""
        return (
            self.sent is not None
            and self.first_byte is not None
            and self.last_byte is not None
            and self.sent <= self.first_byte <= self.last_byte
        )


_CURRENT: ContextVar[WireStamps | None] = ContextVar("supportsim_wire_stamps", default=None)


@contextmanager
def recording(stamps: WireStamps) -> Iterator[WireStamps]:
    """Stamp requests sent by this task inside the block into ``stamps`` (the last request
    wins: a client sends one per call)."""
    token = _CURRENT.set(stamps)
    try:
        yield stamps
    finally:
        _CURRENT.reset(token)


class WireTransport(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that stamps the requests of a ``recording`` block."""

    def __init__(self, inner: httpx2.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        stamps = _CURRENT.get()
        if stamps is None:
            return await self._inner.handle_async_request(request)
        stamps.sent = stamps.first_byte = stamps.last_byte = None
        request.stream = _SentStream(request.stream, stamps)
        response = await self._inner.handle_async_request(request)
        stamps.first_byte = time.perf_counter()
        response.stream = _StampedStream(response.stream, stamps)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class _SentStream(httpx2.AsyncByteStream):
    """A request body that stamps ``sent`` as it hands each chunk to the transport, which
    writes it to the socket in the same step (the last chunk's stamp stays)."""

    def __init__(self, inner: Any, stamps: WireStamps) -> None:
        self._inner = inner
        self._stamps = stamps

    async def __aiter__(self) -> AsyncIterator[bytes]:
        empty = True
        async for chunk in self._inner:
            empty = False
            self._stamps.sent = time.perf_counter()
            yield chunk
        if empty:  # no body (a GET): the request went with its head
            self._stamps.sent = time.perf_counter()


class _StampedStream(httpx2.AsyncByteStream):
    """A response body that stamps ``last_byte`` as each chunk comes in from the socket,
    before the reader parses it (the last chunk's stamp stays); a body without any is
    stamped at its end."""

    def __init__(self, inner: Any, stamps: WireStamps) -> None:
        self._inner = inner
        self._stamps = stamps

    async def __aiter__(self) -> AsyncIterator[bytes]:
        empty = True
        async for chunk in self._inner:
            if chunk:
                empty = False
                self._stamps.last_byte = time.perf_counter()
            yield chunk
        if empty:
            self._stamps.last_byte = time.perf_counter()

    async def aclose(self) -> None:
        if self._stamps.last_byte is None:
            self._stamps.last_byte = time.perf_counter()
        await self._inner.aclose()


PROXY_VARIABLES = tuple(
    v for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY") for v in (name, name.lower())
)


def wire_client(client_cls: Any, *, verify: bool, limits: Any) -> httpx2.AsyncClient:
    """The SDK's default ``httpx2`` client class over a stamping transport.

    ``limits`` go to the transport (a client given a transport ignores its own). A client
    given a transport also ignores the proxy variables, so when one is set the SDK's own
    client is kept: its calls then have no wire stamps (timed around the call instead).
    """
    if any(os.environ.get(name) for name in PROXY_VARIABLES):
        return client_cls(verify=verify, limits=limits)
    transport = WireTransport(httpx2.AsyncHTTPTransport(verify=verify, limits=limits))
    return client_cls(transport=transport)
