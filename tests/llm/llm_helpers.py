"""Canned SSE responses for clients driven through httpx2.MockTransport (no socket)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2

from supportsim.llm import ResolvedModel, parse_model_spec, resolve_credentials


def sse(events: list[tuple[str | None, Any]]) -> bytes:
    """SSE bytes; an event of None name is a data-only line (OpenAI style)."""
    out = []
    for name, data in events:
        text = data if isinstance(data, str) else json.dumps(data)
        out.append((f"event: {name}\n" if name else "") + f"data: {text}\n\n")
    return "".join(out).encode()


class Recorder:
    """A MockTransport handler that answers every request with one canned response."""

    def __init__(self, status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None):
        self.status = status
        self.body = body
        self.headers = {"content-type": "text/event-stream", **(headers or {})}
        self.requests: list[dict[str, Any]] = []
        self.urls: list[str] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(json.loads(request.content))
        self.urls.append(str(request.url))
        return httpx2.Response(self.status, content=self.body, headers=self.headers)

    def client(self) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(transport=httpx2.MockTransport(self))


def resolved(spec: str, **update: Any) -> ResolvedModel:
    config = parse_model_spec(spec, {})
    if update:
        config = config.model_copy(update=update)
    env = {"OPENAI_API_KEY": "test-key", "ANTHROPIC_API_KEY": "test-key"}
    base = "http://127.0.0.1:1/v1" if config.provider == "openai" else "http://127.0.0.1:1"
    env["OPENAI_BASE_URL" if config.provider == "openai" else "ANTHROPIC_BASE_URL"] = base
    return resolve_credentials(config, env)


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> Any:
    """One OpenAI chat.completion.chunk."""
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "served-model",
        "choices": choices,
        **extra,
    }


Handler = Callable[[httpx2.Request], httpx2.Response]
