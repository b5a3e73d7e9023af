"""Pieces shared by the OpenAI and Anthropic wire renderers.

A streamed reply is rendered as a :class:`StreamPlan`: the ``head`` frames go out together at
the time-to-first-token (headers, the role/``message_start`` preamble and the first content
delta, so a client's TTFT clock stops exactly at ``ttft_ms``); the ``rest`` is spread evenly
until ``total_ms``. Renderers are pure functions of the reply and a :class:`WireContext`, so
they can be tested without a socket.
"""

from __future__ import annotations

import json
import math
import secrets
from dataclasses import dataclass, field

import orjson

__all__ = ["StreamPlan", "WireContext", "new_id", "pieces", "sse"]


@dataclass(frozen=True, slots=True)
class WireContext:
    """Request facts a renderer needs besides the reply itself.

    Attributes:
        model: The ``model`` field of the request, echoed back like the real APIs do.
        input_tokens: Prompt tokens to report.
        output_tokens: Completion tokens to report.
        include_usage: OpenAI ``stream_options.include_usage`` was set.
        cached_input_tokens: The part of ``input_tokens`` read from the prompt cache.
        cache_write_tokens: The part of ``input_tokens`` written to the prompt cache.
    """

    model: str
    input_tokens: int
    output_tokens: int
    include_usage: bool = False
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0


@dataclass(slots=True)
class StreamPlan:
    """SSE frames of one streamed response, split into what is sent at TTFT and after."""

    head: list[bytes] = field(default_factory=list)
    rest: list[bytes] = field(default_factory=list)


def new_id(prefix: str) -> str:
    """A fresh provider-looking id (``call_…``, ``toolu_…``, ``msg_…``); 96 random bits."""
    return prefix + secrets.token_hex(12)


def pieces(text: str, parts: int = 4) -> list[str]:
    """Split ``text`` into at most ``parts`` non-empty pieces, as a model would stream it."""
    if not text:
        return []
    size = max(1, math.ceil(len(text) / parts))
    return [text[i : i + size] for i in range(0, len(text), size)]


def sse(data: object, event: str | None = None) -> bytes:
    """One Server-Sent Event frame; ``event`` adds the ``event:`` line Anthropic uses."""
    payload = data if isinstance(data, bytes) else _dumps(data)
    head = b"event: " + event.encode() + b"\n" if event else b""
    return head + b"data: " + payload + b"\n\n"


def _dumps(data: object) -> bytes:
    """JSON bytes; text with a lone surrogate is sent as a ``\\ud800`` escape, valid JSON
    but not valid Unicode, as real providers sometimes send (orjson refuses to)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, separators=(",", ":")).encode("ascii")
