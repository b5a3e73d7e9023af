"""Rendering replies in the Anthropic Messages wire format.

Content blocks come in the real API's order: ``thinking`` (with a ``signature``, which the
SDK requires to send the block back), ``text``, then one ``tool_use`` per call. Streams use
named SSE events (``message_start``, ``ping``, ``content_block_start/delta/stop``,
``message_delta``, ``message_stop``) so ``client.messages.stream()`` can accumulate them.
Malformed tool arguments exist only when streaming (``input_json_delta`` pieces): the
non-streamed ``tool_use.input`` is an object and carries ``{}`` instead.
"""

from __future__ import annotations

import secrets
from typing import Any

from supportsim.testing._wire_common import StreamPlan, WireContext, new_id, pieces, sse
from supportsim.testing.replies import Reply

__all__ = ["error_body", "message", "stream_plan"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


def error_body(status: int, message: str) -> dict[str, Any]:
    """``{"type": "error", "error": {...}}``; the SDK maps the status to its exception."""
    kind = _ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


def _stop_reason(reply: Reply) -> str:
    return "tool_use" if reply.tool_calls else "end_turn"


def _signature() -> str:
    return "mocksig_" + secrets.token_urlsafe(24)


def _envelope(ctx: WireContext, content: list[dict[str, Any]], reply: Reply | None) -> dict:
    """The ``message`` object; ``reply=None`` renders the empty one of ``message_start``."""
    return {
        "id": new_id("msg_"),
        "type": "message",
        "role": "assistant",
        "model": ctx.model,
        "content": content,
        "stop_reason": _stop_reason(reply) if reply else None,
        "stop_sequence": None,
        "usage": {
            # Anthropic's input_tokens leaves out cache reads and writes.
            "input_tokens": max(
                0, ctx.input_tokens - ctx.cached_input_tokens - ctx.cache_write_tokens
            ),
            "output_tokens": ctx.output_tokens if reply else 1,
            "cache_creation_input_tokens": ctx.cache_write_tokens,
            "cache_read_input_tokens": ctx.cached_input_tokens,
        },
    }


def message(reply: Reply, ctx: WireContext) -> dict[str, Any]:
    """A non-streamed ``message`` object."""
    content: list[dict[str, Any]] = []
    if reply.reasoning is not None:
        content.append({"type": "thinking", "thinking": reply.reasoning, "signature": _signature()})
    if reply.text or not reply.tool_calls:
        content.append({"type": "text", "text": reply.text})
    for spec in reply.tool_calls:
        content.append(
            {
                "type": "tool_use",
                "id": new_id("toolu_"),
                "name": spec.name,
                "input": spec.input_object(),
            }
        )
    return _envelope(ctx, content, reply)


def _event(kind: str, **fields: Any) -> bytes:
    return sse({"type": kind, **fields}, event=kind)


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]], close: bool) -> list:
    frames = [_event("content_block_start", index=index, content_block=start)]
    frames += [_event("content_block_delta", index=index, delta=d) for d in deltas]
    if close:
        frames.append(_event("content_block_stop", index=index))
    return frames


def stream_plan(reply: Reply, ctx: WireContext, *, complete: bool = True) -> StreamPlan:
    """SSE frames of a streamed message; ``complete=False`` stops after the content deltas.

    The head ends at the first ``content_block_delta`` (or at the preamble when the reply
    has no content at all), so TTFT measured by a client is the injected ``ttft_ms``.
    """
    blocks: list[list[bytes]] = []
    if reply.reasoning is not None:
        deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces(reply.reasoning)]
        deltas.append({"type": "signature_delta", "signature": _signature()})
        start: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
        blocks.append(_block(len(blocks), start, deltas, complete))
    if reply.text or not reply.tool_calls:
        deltas = [{"type": "text_delta", "text": p} for p in pieces(reply.text)]
        blocks.append(_block(len(blocks), {"type": "text", "text": ""}, deltas, complete))
    for spec in reply.tool_calls:
        start = {"type": "tool_use", "id": new_id("toolu_"), "name": spec.name, "input": {}}
        deltas = [
            {"type": "input_json_delta", "partial_json": p} for p in pieces(spec.arguments, 3)
        ]
        blocks.append(_block(len(blocks), start, deltas, complete))

    preamble = [_event("message_start", message=_envelope(ctx, [], None)), _event("ping")]
    frames = [f for block in blocks for f in block]
    first_delta = next(
        (i for i, f in enumerate(frames) if f.startswith(b"event: content_block_delta")), -1
    )
    cut = first_delta + 1 if first_delta >= 0 else 0
    plan = StreamPlan(head=preamble + frames[:cut], rest=frames[cut:])
    if complete:
        plan.rest.append(
            _event(
                "message_delta",
                delta={"stop_reason": _stop_reason(reply), "stop_sequence": None},
                usage={"output_tokens": ctx.output_tokens},
            )
        )
        plan.rest.append(_event("message_stop"))
    return plan
