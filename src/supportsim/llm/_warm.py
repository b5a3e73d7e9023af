"""Paying the SDKs' one-time costs before the first measured call.

On its first request an SDK imports modules, builds its pydantic response models and caches
type hints for its request transforms: 50-100 ms spent inside the first call, which would be
reported as the model's latency. So before a process's first real call, each client runs
one canned request and reply through its own code path over an in-memory transport (no
socket), with the clock not running. Warm-ups are serialised so that one does not slow
down another client's measured call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import weakref
from collections.abc import Awaitable, Callable

import httpx2

from ._types import LLMMessage, LLMRequest, ToolCall, ToolSpec

_warmed: set[str] = set()
_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)

# Every message role, tools and reasoning, so that every request type gets transformed once.
WARM_REQUEST = LLMRequest(
    system="warm-up",
    messages=(
        LLMMessage(role="user", content="hi"),
        LLMMessage(
            role="assistant",
            content="ok",
            tool_calls=(ToolCall(id="w1", name="f", arguments="{}"),),
            reasoning="r",
            reasoning_signature="s",
        ),
        LLMMessage(role="tool", tool_call_id="w1", content="done"),
    ),
    tools=(ToolSpec(name="f", description="d", parameters={"type": "object"}),),
)


async def ensure_warm(kind: str, warm_up: Callable[[], Awaitable[object]]) -> None:
    """Run ``warm_up`` once per process for ``kind``; failures are ignored (it only helps)."""
    if kind in _warmed:
        return
    lock = _locks.setdefault(asyncio.get_running_loop(), asyncio.Lock())
    async with lock:
        if kind in _warmed:
            return
        with contextlib.suppress(Exception):  # an optimisation must never fail a real call
            await warm_up()
        _warmed.add(kind)


def canned_client(body: bytes, content_type: str) -> httpx2.AsyncClient:
    """An HTTP client whose every request gets ``body`` back, without a socket."""

    def handler(_request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": content_type})

    return httpx2.AsyncClient(transport=httpx2.MockTransport(handler))


def sse(events: list[tuple[str | None, object]]) -> bytes:
    """Server-sent events; a None name gives a data-only event (OpenAI's style)."""
    frames = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        frames.append((f"event: {name}\n" if name else "") + f"data: {text}\n\n")
    return "".join(frames).encode()


def _chunk(delta: dict[str, object] | None, finish: str | None = None, **extra: object) -> dict:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {"id": "w", "object": "chat.completion.chunk", "created": 0, "model": "w", **extra} | {
        "choices": choices
    }


_TOOL_DELTA = {
    "index": 0,
    "id": "w2",
    "type": "function",
    "function": {"name": "f", "arguments": "{}"},
}
OPENAI_COMPLETION = json.dumps(
    {
        "id": "w",
        "object": "chat.completion",
        "created": 0,
        "model": "w",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": "ok",
                    "reasoning_content": "r",
                    "tool_calls": [{k: v for k, v in _TOOL_DELTA.items() if k != "index"}],
                },
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
).encode()
OPENAI_STREAM = sse(
    [
        (None, _chunk({"role": "assistant", "content": ""})),
        (None, _chunk({"reasoning_content": "r"})),
        (None, _chunk({"content": "ok"})),
        (None, _chunk({"tool_calls": [_TOOL_DELTA]})),
        (None, _chunk({}, "tool_calls")),
        (None, _chunk(None, usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})),
        (None, "[DONE]"),
    ]
)


def _event(kind: str, **fields: object) -> tuple[str, dict[str, object]]:
    return kind, {"type": kind, **fields}


def _block(index: int, start: dict[str, object], *deltas: dict[str, object]) -> list:
    return [
        _event("content_block_start", index=index, content_block=start),
        *(_event("content_block_delta", index=index, delta=d) for d in deltas),
        _event("content_block_stop", index=index),
    ]


_MESSAGE: dict[str, object] = {
    "id": "w",
    "type": "message",
    "role": "assistant",
    "model": "w",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
ANTHROPIC_STREAM = sse(
    [
        _event("message_start", message=_MESSAGE),
        _event("ping"),
        *_block(
            0,
            {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "thinking_delta", "thinking": "r"},
            {"type": "signature_delta", "signature": "s"},
        ),
        *_block(1, {"type": "text", "text": ""}, {"type": "text_delta", "text": "ok"}),
        *_block(
            2,
            {"type": "tool_use", "id": "w2", "name": "f", "input": {}},
            {"type": "input_json_delta", "partial_json": "{}"},
        ),
        _event(
            "message_delta",
            delta={"stop_reason": "tool_use", "stop_sequence": None},
            usage={"output_tokens": 1},
        ),
        _event("message_stop"),
    ]
)
