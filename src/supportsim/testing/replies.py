"""What the mock LLM server answers: reply values and the builders tests write them with.

A :class:`Reply` is provider-neutral. The same ``say("hi")`` is rendered as an OpenAI
``chat.completion`` or an Anthropic ``message`` depending on which endpoint the request hit,
so one script drives both SDKs. Replies are frozen so a scripted queue can be shared and
inspected without a reply changing under the server's feet.

Builders::

    say("Hello", ttft_ms=80, total_ms=200)
    reply("Checking both.", tool_calls=[call("get_order", order_id="A1"), call("get_user")])
    reply(tool_calls=[malformed_call("get_order")])
    http_error(429, retry_after_s=0.05)
    hang()
    truncated("partial")
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from supportsim.errors import InputError

ReplyKind = Literal["message", "error", "hang", "truncated"]

__all__ = [
    "Reply",
    "ReplyKind",
    "ToolCallSpec",
    "call",
    "hang",
    "http_error",
    "malformed_call",
    "reply",
    "reply_from_dict",
    "say",
    "structured",
    "truncated",
]


@dataclass(frozen=True, slots=True)
class ToolCallSpec:
    """One tool call the mock model makes.

    Attributes:
        name: Tool (function) name.
        arguments: The arguments exactly as sent on the wire: a JSON object text, or any
            string for a malformed call (so tests can check how a client copes with it).
        valid_json: False when ``arguments`` was deliberately left unparseable.
    """

    name: str
    arguments: str
    valid_json: bool = True

    def input_object(self) -> dict[str, Any]:
        """Arguments as an object, for wire formats that cannot carry a raw string.

        Anthropic's non-streaming ``tool_use.input`` is a JSON object, so a malformed call
        degrades to ``{}`` there; malformed arguments are only expressible when streaming.
        """
        if not self.valid_json:
            return {}
        parsed = json.loads(self.arguments)
        return parsed if isinstance(parsed, dict) else {}


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer. Build it with the module's functions rather than directly.

    Attributes:
        kind: ``message`` (normal answer), ``error`` (HTTP error), ``hang`` (never answer)
            or ``truncated`` (start answering, then drop the connection).
        text: Assistant text (for ``truncated``: the text sent before the cut).
        tool_calls: Tool calls; several in one reply are parallel tool calls.
        reasoning: Reasoning/thinking text, sent before the answer.
        ttft_ms: Delay before the first content chunk; None = the server's default.
        total_ms: Whole response duration; None = the server's default.
        input_tokens: Reported prompt tokens, cached ones included; None = estimated from
            the request size.
        output_tokens: Reported completion tokens; None = estimated from the output size.
        cached_input_tokens: The part of the prompt reported as read from the provider's
            cache (OpenAI ``prompt_tokens_details.cached_tokens``, Anthropic
            ``cache_read_input_tokens``, which its ``input_tokens`` then excludes).
        cache_write_tokens: The part reported as written to the cache (Anthropic
            ``cache_creation_input_tokens``; the OpenAI wire has no such field).
        structured: Set by :func:`structured`: the text is this value as JSON, checked
            against the request's ``response_format`` JSON schema when it has one.
        status: HTTP status for ``error``.
        retry_after_s: ``Retry-After`` seconds for ``error``, if any.
        message: Error message for ``error``.
    """

    kind: ReplyKind = "message"
    text: str = ""
    tool_calls: tuple[ToolCallSpec, ...] = field(default=())
    reasoning: str | None = None
    ttft_ms: float | None = None
    total_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    status: int = 200
    retry_after_s: float | None = None
    message: str = ""
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    structured: bool = False

    def estimated_output_tokens(self) -> int:
        """Output tokens to report: the scripted count, else a chars/4 estimate (min 1)."""
        if self.output_tokens is not None:
            return self.output_tokens
        size = len(self.text) + sum(len(c.arguments) for c in self.tool_calls)
        return max(1, size // 4)


def reply(
    text: str = "",
    *,
    tool_calls: Sequence[ToolCallSpec] = (),
    reasoning: str | None = None,
    ttft_ms: float | None = None,
    total_ms: float | None = None,
    input_tokens: int | None = None,
    output_tokens: int | None = None,
    cached_input_tokens: int = 0,
    cache_write_tokens: int = 0,
) -> Reply:
    """A normal assistant answer with any mix of reasoning, text and tool calls."""
    return Reply(
        text=text,
        tool_calls=tuple(tool_calls),
        reasoning=reasoning,
        ttft_ms=ttft_ms,
        total_ms=total_ms,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_input_tokens=cached_input_tokens,
        cache_write_tokens=cache_write_tokens,
    )


def structured(value: Any, *, ttft_ms: float | None = None) -> Reply:
    """A text answer that is ``value`` as JSON, as a server enforcing structured output
    sends it. When the request carries ``response_format`` with a JSON schema the server
    checks ``value`` against it and answers HTTP 400 if it does not fit, so a test cannot
    script an answer a grammar-constrained server could never produce."""
    return Reply(text=json.dumps(value), structured=True, ttft_ms=ttft_ms)


def say(
    text: str,
    *,
    reasoning: str | None = None,
    ttft_ms: float | None = None,
    total_ms: float | None = None,
    input_tokens: int | None = None,
    output_tokens: int | None = None,
) -> Reply:
    """An assistant text answer (the common case, kept short to write)."""
    return reply(
        text,
        reasoning=reasoning,
        ttft_ms=ttft_ms,
        total_ms=total_ms,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
    )


def call(name: str, /, **args: Any) -> ToolCallSpec:
    """A well-formed tool call; ``args`` become its JSON arguments."""
    return ToolCallSpec(name=name, arguments=json.dumps(args))


def malformed_call(name: str, raw_arguments: str = '{"order_id": ') -> ToolCallSpec:
    """A tool call whose arguments are not valid JSON, to test a client's repair path.

    OpenAI carries the raw string in both modes; Anthropic only when streaming (as
    ``input_json_delta`` pieces) and sends ``input: {}`` when not streaming.
    """
    return ToolCallSpec(name=name, arguments=raw_arguments, valid_json=False)


def http_error(
    status: int,
    *,
    retry_after_s: float | None = None,
    message: str = "",
    ttft_ms: float | None = None,
) -> Reply:
    """An HTTP error in the provider's error shape, with ``Retry-After`` when given."""
    text = message or f"mock server: injected HTTP {status}"
    return Reply(
        kind="error", status=status, retry_after_s=retry_after_s, message=text, ttft_ms=ttft_ms
    )


def hang() -> Reply:
    """Accept the request and never answer, to exercise client timeouts."""
    return Reply(kind="hang")


def truncated(
    text: str = "partial", *, ttft_ms: float | None = None, total_ms: float | None = None
) -> Reply:
    """Start answering (status 200, some content) then drop the connection mid-response."""
    return Reply(kind="truncated", text=text, ttft_ms=ttft_ms, total_ms=total_ms)


_TIMING_KEYS = (
    "ttft_ms",
    "total_ms",
    "input_tokens",
    "output_tokens",
    "cached_input_tokens",
    "cache_write_tokens",
)
_ALLOWED_KEYS = frozenset(
    {"say", "text", "reasoning", "tool_calls", "error", "retry_after_s", "message", "hang"}
    | {"truncated", "json", *_TIMING_KEYS}
)


def reply_from_dict(data: Mapping[str, Any], *, where: str = "reply") -> Reply:
    """Build a reply from one script-file entry (YAML/JSON), rejecting unknown keys.

    Accepted shapes: ``{say: "..."}`` (optionally with ``reasoning`` and ``tool_calls:
    [{name, args}]`` or ``[{name, raw_arguments}]``), ``{error: 429, retry_after_s: 1,
    message: "..."}``, ``{hang: true}``, ``{truncated: "text"}``, ``{json: {...}}`` (see
    :func:`structured`); any of them may carry
    ``ttft_ms``/``total_ms``/``input_tokens``/``output_tokens``/``cached_input_tokens``/
    ``cache_write_tokens``.

    Raises:
        InputError: The entry is not a mapping or has unknown or mistyped keys; the
            message names ``where`` so the user can find the entry.
    """
    if not isinstance(data, Mapping):
        raise InputError(f"{where}: expected a mapping like {{say: ...}}, got {data!r}")
    unknown = sorted(set(data) - _ALLOWED_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(_ALLOWED_KEYS)}")
    try:
        timing = {k: data[k] for k in _TIMING_KEYS if k in data}
        if "error" in data:
            return http_error(
                int(data["error"]),
                retry_after_s=data.get("retry_after_s"),
                message=str(data.get("message", "")),
                ttft_ms=timing.get("ttft_ms"),
            )
        if data.get("hang"):
            return hang()
        if "json" in data:
            return structured(data["json"], ttft_ms=timing.get("ttft_ms"))
        if "truncated" in data:
            cut = data["truncated"]
            text = cut if isinstance(cut, str) else "partial"
            return truncated(text, ttft_ms=timing.get("ttft_ms"), total_ms=timing.get("total_ms"))
        calls = [_call_from_dict(c) for c in data.get("tool_calls") or ()]
        text = data.get("say", data.get("text", ""))
        if not isinstance(text, str):
            raise TypeError(f"say must be a string, got {text!r}")
        return reply(text, tool_calls=calls, reasoning=data.get("reasoning"), **timing)
    except (TypeError, ValueError, KeyError) as exc:
        raise InputError(f"{where}: {exc}") from exc


def _call_from_dict(data: Any) -> ToolCallSpec:
    """One ``tool_calls`` entry: ``{name, args}`` or ``{name, raw_arguments}``."""
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise TypeError(f"tool call must be a mapping with a string 'name', got {data!r}")
    if "raw_arguments" in data:
        return malformed_call(data["name"], str(data["raw_arguments"]))
    args = data.get("args") or {}
    if not isinstance(args, Mapping):
        raise TypeError(f"tool call args must be a mapping, got {args!r}")
    return call(data["name"], **args)
