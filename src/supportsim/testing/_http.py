"""Small aiohttp response helpers shared by the mock server's handlers."""

from __future__ import annotations

from typing import Any, Literal

import orjson
from aiohttp import web

from supportsim.testing import _anthropic_wire, _openai_wire
from supportsim.testing._wire_common import new_id
from supportsim.testing.replies import Reply

Api = Literal["openai", "anthropic"]

__all__ = ["Api", "abort", "error_body", "json_response", "request_ids"]


def request_ids() -> dict[str, str]:
    """Request-id headers (``x-request-id`` for OpenAI, ``request-id`` for Anthropic)."""
    rid = new_id("req_mock_")
    return {"x-request-id": rid, "request-id": rid}


def error_body(api: Api, status: int, message: str) -> dict[str, Any]:
    """The error JSON in the shape of the API the request used."""
    if api == "openai":
        return _openai_wire.error_body(status, message)
    return _anthropic_wire.error_body(status, message)


def json_response(status: int, body: object, reply: Reply | None = None) -> web.Response:
    """A JSON response; an error reply with ``retry_after_s`` adds both retry headers.

    ``Retry-After`` carries (possibly fractional) seconds and ``retry-after-ms`` the same in
    milliseconds, which both SDKs read first when they compute their own backoff.
    """
    headers = request_ids()
    if reply is not None and reply.retry_after_s is not None:
        headers["Retry-After"] = f"{reply.retry_after_s:g}"
        headers["retry-after-ms"] = f"{reply.retry_after_s * 1000:g}"
    return web.Response(
        status=status, body=orjson.dumps(body), content_type="application/json", headers=headers
    )


def abort(request: web.Request) -> None:
    """Drop the connection without finishing the response (what a crashed upstream does)."""
    transport = request.transport
    if transport is not None:
        transport.close()
