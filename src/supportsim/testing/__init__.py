"""Test support shipped with supportsim: a loopback mock LLM server.

:class:`MockLLMServer` speaks the real OpenAI Chat Completions and Anthropic Messages wire
protocols so tests, benchmarks and offline dry runs drive the real SDKs against scripted
replies, injected latency and injected failures. See :mod:`supportsim.testing.server`.
"""

from supportsim.testing.autopilot import autopilot, load_script, serve
from supportsim.testing.plan_model import plan_responder
from supportsim.testing.replies import (
    Reply,
    ToolCallSpec,
    call,
    hang,
    http_error,
    malformed_call,
    reply,
    say,
    structured,
    truncated,
)
from supportsim.testing.server import MockLLMServer, RecordedRequest, Responder

__all__ = [
    "MockLLMServer",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ToolCallSpec",
    "autopilot",
    "call",
    "hang",
    "http_error",
    "load_script",
    "malformed_call",
    "plan_responder",
    "reply",
    "say",
    "serve",
    "structured",
    "truncated",
]
