"""Structured answers (a judge's verdict, a drafted scenario) from any chat model.

A caller that needs a JSON object sets ``LLMRequest.structured`` to a ``ToolSpec`` whose
``parameters`` are the object's schema. The client asks for it in the way that works for
the model (``structured_mode``):

* ``tool``: a forced call of that tool (``tool_choice`` required). The strong path of the
  providers' own APIs (OpenAI, Anthropic), whose tool calls are schema-constrained.
* ``json_schema``: ``response_format: {type: json_schema}`` and no tools. OpenAI-compatible
  servers (llama.cpp, vLLM, Ollama, SGLang) enforce it with a grammar, where a small model
  asked for a forced tool call often writes the call as text instead. Under ``auto`` a
  server that refuses ``response_format`` is asked again with the tool, and remembered.

Whatever was asked, small models answer in several shapes; ``structured_candidates``
returns every JSON text that may hold the answer, in order of trust: the tool's call
arguments, then from the reply text a fenced ```json block, a ``name({...})`` call written
out, a ``{"name": ..., "arguments": {...}}`` wrapper, and bare JSON. The caller validates
each against its schema and takes the first that fits.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from ._config import ModelConfig
from ._types import LLMMessage, LLMRequest, LLMResponse

StructuredMode = Literal["tool", "json_schema"]

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)```", re.DOTALL)
_WRAPPER_KEYS = ("arguments", "parameters", "args", "input")


def structured_mode(config: ModelConfig) -> StructuredMode:
    """How ``config``'s model is asked for a structured answer (see the module docstring).

    ``structured_output: true`` is JSON schema output, ``false`` the forced tool call;
    ``auto`` is JSON schema output for an OpenAI-compatible server at a custom base URL
    and the tool call for OpenAI's and Anthropic's own APIs.
    """
    if config.structured_output is True:
        return "json_schema"
    if config.structured_output is False or config.provider == "anthropic":
        return "tool"
    base = (config.base_url or "").rstrip("/").lower()
    return "tool" if base in ("", "https://api.openai.com/v1") else "json_schema"


def json_schema_note(name: str) -> str:
    """Appended to the system prompt when no tool is offered, since prompts name the tool."""
    return (
        f"\n\nNo tools are available here: answer with the arguments of `{name}` as one JSON "
        "object that matches the required JSON schema, and nothing else."
    )


def as_tool_request(request: LLMRequest) -> LLMRequest:
    """``request`` with its structured answer asked for as a forced tool call."""
    if request.structured is None:
        return request
    return LLMRequest(
        system=request.system,
        messages=request.messages,
        tools=(*request.tools, request.structured),
        tool_choice="required",
    )


def retry_request(request: LLMRequest, reply: LLMMessage, note: str) -> LLMRequest:
    """The retry after a structured answer that was not accepted: ``request``, the reply
    it got, then ``note`` (what was wrong), as the tool's error result when the reply
    called tools, else as a user message. Tools, tool choice and ``structured`` are kept."""
    follow: list[LLMMessage] = [reply]
    if reply.tool_calls:
        follow += [
            LLMMessage(role="tool", tool_call_id=c.id, content=note, is_error=True)
            for c in reply.tool_calls
        ]
    else:
        follow.append(LLMMessage(role="user", content=note))
    return LLMRequest(
        system=request.system,
        messages=(*request.messages, *follow),
        tools=request.tools,
        tool_choice=request.tool_choice,
        structured=request.structured,
    )


def structured_candidates(response: LLMResponse, name: str) -> list[str]:
    """JSON texts that may hold the ``name`` answer, most trusted first (see above).

    Calls of ``name`` come first, each as its raw arguments; the text is searched only when
    there is none. Duplicates are dropped; nothing is parsed beyond finding the objects.
    """
    calls = [c.arguments for c in response.tool_calls if c.name == name]
    if calls:
        return calls
    text = response.content.strip()
    found: list[str] = []
    for block in _FENCE.findall(text):
        found.extend(_objects(block.strip(), name))
    marker = re.search(rf"\b{re.escape(name)}\s*\(", text)
    if marker is not None:
        found.extend(_objects(text[marker.end() :], name)[:1])
    found.extend(_objects(text, name))
    unique: list[str] = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique


def _objects(text: str, name: str) -> list[str]:
    """Top-level JSON objects in ``text``, a ``{"name", "arguments"}`` wrapper unwrapped."""
    decoder = json.JSONDecoder()
    out: list[str] = []
    index = text.find("{")
    while index != -1:
        try:
            value, end = decoder.raw_decode(text, index)
        except ValueError:
            index = text.find("{", index + 1)
            continue
        if isinstance(value, dict):
            out.append(_unwrap(value, name) or text[index:end])
        index = text.find("{", end)
    return out


def _unwrap(value: dict[str, object], name: str) -> str | None:
    """The inner object of ``{"name": NAME, "arguments": {...}}`` or ``{NAME: {...}}``."""
    if value.get("name") == name:
        for key in _WRAPPER_KEYS:
            inner = value.get(key)
            if isinstance(inner, str):
                return inner
            if isinstance(inner, dict):
                return json.dumps(inner)
    if len(value) == 1 and isinstance(value.get(name), dict):
        return json.dumps(value[name])
    return None
