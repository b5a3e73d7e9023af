"""Test support shipped with supportsim: a loopback mock LLM server.

:class:`MockLLMServer` speaks the real OpenAI Chat Completions and Anthropic Messages wire
protocols so tests, benchmarks and offline dry runs drive the real SDKs against scripted
replies, injected latency and injected failures. See :mod:`supportsim.testing.server`.
"""

from supportsim.testing.autopilot import Script, autopilot, load_script, load_script_file, serve
from supportsim.testing.latency import Latency, parse_latency
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
    "Latency",
    "MockLLMServer",
    "RecordedRequest",
    "Reply",
    "Responder",
    "Script",
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
    "load_script_file",
    "malformed_call",
    "parse_latency",
    "plan_responder",
    "reply",
    "say",
    "serve",
    "structured",
    "truncated",
    "verdict",
]
