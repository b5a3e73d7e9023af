"""Rendering replies in the OpenAI Chat Completions wire format.

Shapes follow the real API closely enough for ``openai.AsyncOpenAI`` (and its stream
accumulator) to parse them: a role delta first, ``reasoning_content`` deltas before content
(the vLLM/DeepSeek convention, since OpenAI itself does not expose reasoning text), tool call
deltas carrying ``index`` with id+name in the first delta, a ``finish_reason`` chunk, an
optional usage chunk with empty ``choices``, then ``data: [DONE]``.
"""

from __future__ import annotations

import time
from typing import Any

from supportsim.testing._wire_common import StreamPlan, WireContext, new_id, pieces, sse
from supportsim.testing.replies import Reply

__all__ = ["completion", "error_body", "stream_plan"]

_ERROR_TYPES = {
    400: ("invalid_request_error", "invalid_request"),
    401: ("authentication_error", "invalid_api_key"),
    403: ("permission_error", "permission_denied"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
}


def error_body(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    """``{"error": {...}}`` as OpenAI sends it; the SDK maps the status to its exception."""
    kind, default_code = _ERROR_TYPES.get(
        status, ("server_error", None) if status >= 500 else ("invalid_request_error", None)
    )
    return {
        "error": {"message": message, "type": kind, "param": None, "code": code or default_code}
    }


def _usage(ctx: WireContext) -> dict[str, Any]:
    # prompt_tokens includes the cached ones, as OpenAI counts them.
    return {
        "prompt_tokens": ctx.input_tokens,
        "completion_tokens": ctx.output_tokens,
        "total_tokens": ctx.input_tokens + ctx.output_tokens,
        "prompt_tokens_details": {"cached_tokens": ctx.cached_input_tokens, "audio_tokens": 0},
    }


def _finish_reason(reply: Reply) -> str:
    return "tool_calls" if reply.tool_calls else "stop"


def completion(reply: Reply, ctx: WireContext) -> dict[str, Any]:
    """A non-streamed ``chat.completion`` object."""
    message: dict[str, Any] = {
        "role": "assistant",
        "content": reply.text if (reply.text or not reply.tool_calls) else None,
        "refusal": None,
    }
    if reply.reasoning is not None:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": new_id("call_"),
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            }
            for c in reply.tool_calls
        ]
    return {
        "id": new_id("chatcmpl-"),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": ctx.model,
        "system_fingerprint": "fp_supportsim_mock",
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": _finish_reason(reply),
            }
        ],
        "usage": _usage(ctx),
    }


def stream_plan(reply: Reply, ctx: WireContext, *, complete: bool = True) -> StreamPlan:
    """SSE frames of a streamed completion; ``complete=False`` omits the closing frames."""
    completion_id = new_id("chatcmpl-")
    created = int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        obj: dict[str, Any] = {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": ctx.model,
            "system_fingerprint": "fp_supportsim_mock",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if ctx.include_usage:
            obj["usage"] = None
        return sse(obj)

    deltas: list[dict[str, Any]] = [{"reasoning_content": p} for p in pieces(reply.reasoning or "")]
    deltas += [{"content": p} for p in pieces(reply.text)]
    for index, spec in enumerate(reply.tool_calls):
        first = {"index": index, "id": new_id("call_"), "type": "function"}
        deltas.append({"tool_calls": [{**first, "function": {"name": spec.name, "arguments": ""}}]})
        deltas += [
            {"tool_calls": [{"index": index, "function": {"arguments": p}}]}
            for p in pieces(spec.arguments, 3)
        ]

    role = chunk({"role": "assistant", "content": "", "refusal": None})
    frames = [chunk(d) for d in deltas]
    plan = StreamPlan(head=[role, *frames[:1]], rest=frames[1:])
    if complete:
        plan.rest.append(chunk({}, _finish_reason(reply)))
        if ctx.include_usage:
            plan.rest.append(
                sse(
                    {
                        "id": completion_id,
                        "object": "chat.completion.chunk",
                        "created": created,
                        "model": ctx.model,
                        "system_fingerprint": "fp_supportsim_mock",
                        "choices": [],
                        "usage": _usage(ctx),
                    }
                )
            )
        plan.rest.append(sse(b"[DONE]"))
    return plan
