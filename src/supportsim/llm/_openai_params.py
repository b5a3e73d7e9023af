"""Chat Completions request bodies: the neutral request in OpenAI's wire form.

Kept apart from the client (``_openai``) so the payload rules can be read and tested on
their own; see the client's docstring for why each choice was made.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson

from ._config import ModelConfig
from ._structured import StructuredMode, as_tool_request, json_schema_note, structured_mode
from ._types import LLMMessage, LLMRequest, ToolSpec

__all__ = ["build_openai_params", "openai_body", "to_openai_messages", "to_openai_tools"]


def to_openai_messages(request: LLMRequest) -> list[dict[str, Any]]:
    """The request's system prompt and history in Chat Completions form."""
    messages: list[dict[str, Any]] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    messages.extend(_message(m) for m in request.messages)
    return messages


def _message(message: LLMMessage) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.role == "user":
        return {"role": "user", "content": message.content}
    out: dict[str, Any] = {"role": "assistant", "content": message.content}
    if message.tool_calls:
        # null, not "", is what OpenAI itself sends back for a tool-calls-only turn.
        out["content"] = message.content or None
        out["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in message.tool_calls
        ]
    if message.reasoning:
        out["reasoning_content"] = message.reasoning
    return out


def to_openai_tools(tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """Tool specs in Chat Completions function-tool form."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters,
            },
        }
        for tool in tools
    ]


def build_openai_params(
    config: ModelConfig,
    request: LLMRequest,
    *,
    stream: bool,
    mode: StructuredMode | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``chat.completions.create``; unset params are left out.

    A structured answer (``request.structured``) is asked for as ``mode`` says (default:
    ``structured_mode(config)``): a ``response_format`` JSON schema without tools, or a
    forced call of the tool.
    """
    response_format: dict[str, Any] | None = None
    if request.structured is not None:
        if (mode or structured_mode(config)) == "json_schema":
            spec = request.structured
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": spec.name, "schema": spec.parameters, "strict": False},
            }
            request = replace(
                request, system=request.system + json_schema_note(spec.name), structured=None
            )
        else:
            request = as_tool_request(request)
    params: dict[str, Any] = {"model": config.model, "messages": to_openai_messages(request)}
    if response_format is not None:
        params["response_format"] = response_format
    if request.tools:
        params["tools"] = to_openai_tools(request.tools)
        params["tool_choice"] = request.tool_choice
    p = config.params
    if p.temperature is not None:
        params["temperature"] = p.temperature
    if p.max_tokens is not None:
        key = "max_tokens" if config.base_url else "max_completion_tokens"
        params[key] = p.max_tokens
    if (seed := request.seed if request.seed is not None else p.seed) is not None:
        params["seed"] = seed
    if p.reasoning_effort is not None:
        params["reasoning_effort"] = p.reasoning_effort
    if stream:
        params["stream"] = True
        params["stream_options"] = {"include_usage": True}
    if request.headers:  # an agent-owned service's MCP URL (X-Supportsim-MCP-URL)
        params["extra_headers"] = dict(request.headers)
    return params


def openai_body(
    config: ModelConfig,
    request: LLMRequest,
    *,
    stream: bool,
    mode: StructuredMode | None = None,
) -> tuple[bytes, dict[str, str]]:
    """The request body serialised once (orjson), and the call's extra HTTP headers.

    What the client sends through the SDK's lower-level ``post``: the same body
    ``build_openai_params`` describes, without the SDK's per-call transform of every
    message and tool schema (most of the client's CPU per call before).
    """
    params = build_openai_params(config, request, stream=stream, mode=mode)
    headers = params.pop("extra_headers", None) or {}
    return orjson.dumps(params), headers
