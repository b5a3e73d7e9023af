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
from supportsim.testing.statement_script import StatementScript
from supportsim.testing.statements import (
    AskedQuestion,
    asked_question,
    is_reading_request,
    is_statement_request,
    verdict,
)

__all__ = [
    "AskedQuestion",
    "MockLLMServer",
    "RecordedRequest",
    "Reply",
    "Responder",
    "StatementScript",
    "ToolCallSpec",
    "asked_question",
    "autopilot",
    "call",
    "hang",
    "http_error",
    "is_reading_request",
    "is_statement_request",
    "load_script",
    "malformed_call",
    "plan_responder",
    "reply",
    "say",
    "serve",
    "structured",
    "truncated",
    "verdict",
]
